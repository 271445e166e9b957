// The browser test's walk through the sandbox in the page (browser_test.mjs runs these after
// its first checks): a lesson link and stepping it, presentation mode, a crowd preset from the
// Gallery running and its recorded run stepped back and forth on the timeline, every planner of
// the Plan panel's combo, and Compare. Each acts through the sandbox's real controls (clicks
// on the canvas, keys) and reads what it did from the page's state (pathlab_state).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli_length, cli_link, kPlanTimeoutMs, kReadyTimeoutMs, kRepo, open_page } from './page.mjs';

const kLesson = 'assets/lessons/5-crowds.lesson.json';
const kUiTimeoutMs = 15000;

/** No console error, page error or abort on the page (`what` names the walk for the message). */
function no_problems(p, what, check) {
  const bad = p.problems();
  check(bad.length === 0, `${what}: no console error, page error or abort${bad.length ? `: ${bad.slice(0, 3).join(' | ')}` : ''}`);
}

/** A lesson link at step 2 opens presenting that step; Next > shows step 3; Exit leaves. */
export async function lesson_checks(browser, site_url, o, check, shots) {
  const lesson = JSON.parse(readFileSync(join(kRepo, kLesson), 'utf8'));
  const fragment = cli_link(o.cli, ['--lesson', join(kRepo, kLesson), '--step', '2']);
  const p = await open_page(browser, `${site_url}#${fragment}`);
  await p.wait(/^pathlab: ready /, kReadyTimeoutMs, 'ready line of the lesson link');
  let s = await p.until((x) => x.lesson && !x.planning, kUiTimeoutMs, 'the lesson open');
  check(s.presenting && s.lesson.step === 2 && s.lesson.count === lesson.steps.length && s.lesson.caption === lesson.steps[1].caption,
        `#lesson=...&step=2 presents step 2 of ${s.lesson.count} with its caption ("${s.lesson.caption.slice(0, 40)}...")`);
  await p.page.screenshot({ path: join(shots, 'web_test_lesson.png') });
  const plans = s.plans;
  await p.click('present:next');
  s = await p.until((x) => x.lesson.step === 3 && x.plans > plans && x.valid && !x.planning, kUiTimeoutMs, 'step 3 after Next');
  check(s.lesson.caption === lesson.steps[2].caption && s.units.count > 0 && !s.units.playing,
        `Next > shows step 3 (its caption, its scene planned, ${s.units.count} units waiting for Play)`);
  await p.click('present:exit');
  s = await p.until((x) => !x.presenting, kUiTimeoutMs, 'presentation left');
  await p.page.keyboard.press('F5');
  const back = await p.until((x) => x.presenting, kUiTimeoutMs, 'F5 presents again');
  check(!s.presenting && back.presenting, 'Exit leaves presentation mode and F5 enters it again (the page keeps F5)');
  no_problems(p, 'lesson link', check);
  await p.page.close();
}

/** Opens a preset from the Gallery tab (scrolling its list until the entry shows). */
async function open_preset(p, stem) {
  await p.click('tab:Gallery');
  const name = `gallery:${stem}`;
  const list = await p.widget('gallery:catmull-rom-route');
  for (let k = 0; k < 40; ++k) {
    const r = await p.widget(name);
    const strip = await p.widget('strip_splitter');
    const view = await p.page.viewportSize();
    if (r && r.y > strip.y + 30 && r.y + r.h < view.height - 4) break;
    await p.page.mouse.move(list.x + 20, list.y + 10);
    await p.page.mouse.wheel(0, 120);
    await p.page.waitForTimeout(60);
  }
  const plans = (await p.state()).plans;
  await p.click(name);
  return p.until((x) => x.source.endsWith(`/${stem}.json`) && x.plans > plans && x.valid && !x.planning, kUiTimeoutMs, `preset ${stem} opened`);
}

/**
 * The Gallery: a navmesh preset and a crowd preset open in a click; the crowd runs (units move
 * on their own) and its recorded run steps back on the timeline to the very same positions.
 */
export async function gallery_checks(browser, site_url, o, check, shots) {
  const p = await open_page(browser, `${site_url}?scene=demo.json`);
  await p.wait(/^pathlab: ready /, kReadyTimeoutMs, 'ready line');
  let s = await open_preset(p, 'tower22-quad-corridor');
  check(s.planner === 'navmesh' && s.found && s.compare.shown, `Gallery: tower22-quad-corridor opens (navmesh, ${s.length}, Compare on)`);
  s = await open_preset(p, 'doorway');
  const expected = cli_length(o.cli, 'crowds/doorway.json');
  // The console's first line after the click is this plan's (none for the old plan dropped).
  const line = p.lines.filter((l) => l.startsWith('pathlab: plan ')).slice(-1)[0];
  check(s.scene === 'crowds/doorway.json' && s.length === expected && s.units.count > 0 &&
        line === `pathlab: plan crowds/doorway.json length ${expected}` && p.lines.filter((l) => / no path \(\)$/.test(l)).length === 0,
        `Gallery: crowds/doorway.json opens, plans as pathlab-cli (${s.length}, its console line too) with ${s.units.count} units`);
  const t0 = s.units.time;
  const ran = await p.until((x) => x.units.time > t0 + 0.5, kUiTimeoutMs * 2, 'the crowd running 0.5 s');
  check(ran.units.pos_sum[0] !== s.units.pos_sum[0] || ran.units.pos_sum[1] !== s.units.pos_sum[1],
        `the crowd runs in the page: ${ran.units.count} units moved over ${(ran.units.time - t0).toFixed(2)} s simulated`);
  await p.page.screenshot({ path: join(shots, 'web_test_crowd.png') });
  // The timeline: pause, step 3 forward, 3 back: the same step and the same positions, bit for bit.
  await p.click('timeline play');
  const a = await p.until((x) => !x.units.playing, kUiTimeoutMs, 'paused');
  for (let k = 0; k < 3; ++k) await p.click('timeline forward');
  const b = await p.until((x) => x.units.step === a.units.step + 3, kUiTimeoutMs, 'three steps forward');
  for (let k = 0; k < 3; ++k) await p.click('timeline back');
  const c = await p.until((x) => x.units.step === a.units.step, kUiTimeoutMs, 'three steps back');
  check(b.units.pos_sum[0] !== a.units.pos_sum[0] && c.units.pos_sum[0] === a.units.pos_sum[0] && c.units.pos_sum[1] === a.units.pos_sum[1],
        `the timeline steps the recorded run (step ${a.units.step} -> ${b.units.step} -> ${c.units.step}) back to the same positions`);
  no_problems(p, 'gallery and crowd', check);
  await p.page.close();
}

// Every planner gives pathlab-cli's bytes: the core's trigonometry is its own (det_math.hpp),
// so the browser's C library (musl) and the desktop's (glibc) no longer part Hybrid A*'s search
// or the curves by a last bit.
const kCurvePlanners = new Set(['dubins', 'reeds-shepp', 'turn-to-point', 'cc-dubins', 'cc-reeds-shepp']);

/** Picks `name` in the Plan panel's planner combo and waits for its plan. */
async function pick_planner(p, name) {
  const before = await p.state();
  if (before.planner !== name) {  // the scene's own planner has planned already
    await p.click('planner');
    await p.click(`planner:${name}`);
  }
  return p.until((x) => x.planner === name && (x.plans > before.plans || before.planner === name) && x.valid && !x.planning,
                 kPlanTimeoutMs, `a plan by ${name}`);
}

/**
 * Every planner of the Plan panel's combo plans the scene: the map planners to pathlab-cli's
 * length with the same smoother, every digit; the curve planners to a length or a stated reason. Then Compare plans its rows.
 */
export async function planner_checks(browser, site_url, o, check) {
  const scene = 'demo.json';
  const p = await open_page(browser, `${site_url}?scene=${scene}`);
  await p.wait(/^pathlab: ready /, kReadyTimeoutMs, 'ready line');
  const names = ['astar', 'dijkstra', 'jps', 'theta', 'navmesh', 'directional', 'hybrid',
                 'dubins', 'reeds-shepp', 'turn-to-point', 'cc-dubins', 'cc-reeds-shepp'];
  const good = [], results = [];
  for (const name of names) {
    const s = await pick_planner(p, name);
    results.push(`${name} ${s.found ? s.length : `no path (${s.error})`}`);
    if (kCurvePlanners.has(name)) {  // `pathlab-cli curve`, not `plan`: a length or a reason
      if (s.found || s.error) good.push(name);
      continue;
    }
    let cli;
    try {
      cli = cli_length(o.cli, scene, ['--planner', name, '--smoother', s.smoother]);
    } catch (e) {
      // `pathlab-cli plan` plans on maps only: a curve planner's length has nothing to compare with.
      if (!kCurvePlanners.has(name)) throw e;
      good.push(name);
      results.push(`(${name}: not a planner of pathlab-cli plan, not compared)`);
      continue;
    }
    if (s.length === cli) good.push(name);
    else results.push(`(${name}: pathlab-cli ${cli})`);
  }
  console.log(`planners: ${results.join('; ')}`);
  check(good.length === names.length,
        `every planner of the combo plans in the page: the map planners, Hybrid A* too, to pathlab-cli's length, every digit; the curve planners to a length or a reason (${good.length}/${names.length})`);

  await p.click('tab:Compare');
  await p.click('compare_run');
  const s = await p.until((x) => x.compare.rows.length > 0 && !x.compare.busy && x.compare.rows.every((r) => r.verdict !== 'pending'),
                          kPlanTimeoutMs * 2, 'Compare planned its rows');
  const valid = s.compare.rows.filter((r) => r.verdict === 'valid');
  console.log(`compare: ${s.compare.rows.map((r) => `${r.planner} ${r.verdict} ${r.length}`).join('; ')}`);
  check(s.compare.rows.length >= 5 && valid.length >= 3, `Compare plans its ${s.compare.rows.length} ticked rows in the page (${valid.length} valid)`);
  no_problems(p, 'planners and Compare', check);
  await p.page.close();
}
