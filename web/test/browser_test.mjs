// The browser test of the web build (issue 29): serves build-web/ on 127.0.0.1, opens the page
// in Debian's headless Chromium (playwright-core drives it and downloads no browser) with a
// gallery scene in the URL, and checks that
//   1. the page prints its ready line, with the same plan length (all 17 digits) as
//      `pathlab-cli plan --scene` on the same file (the native build);
//   2. the canvas is drawn: a screenshot with many colours, not a blank page;
//   3. painting a wall across the path (a mouse drag with the paint tool) changes the plan;
//   4. a link in the page's hash (`pathlab-cli link --scene` of another bundled scene) opens:
//      the ready line is the link's, with pathlab-cli's length byte for byte;
//   5. a broken hash shows an error on the page (#note) and the sandbox still runs (its ready
//      line); putting a good link into the hash then opens it (hashchange);
// then walks through the sandbox with its own controls (sandbox_checks.mjs):
//   6. a lesson link (`#lesson=...&step=2`) presents that step with its caption, Next > steps
//      on, Exit and F5 leave and enter presentation mode;
//   7. the Gallery opens a navmesh preset and a crowd preset in a click; the crowd runs in the
//      page, and the timeline steps its recorded run forward and back to the same positions;
//   8. every planner of the Plan panel's combo plans (the map planners to pathlab-cli's length,
//      every digit), and Compare plans its rows; no console error or abort on these pages;
//   9. files the sandbox writes reach the browser as downloads (file_checks.mjs): Save repro's,
//      which `pathlab-cli replay --check` replays bit for bit, Export's path CSV and JSON, Copy CLI command's scene
//      (its command, in the page's box, run beside the download prints the page's length),
//      Download scene; a file set in the Open file… picker opens and plans as pathlab-cli does.
// Usage: node web/test/browser_test.mjs --cli BUILD/pathlab-cli [--scene maps/jps-pillars.json]
//        [--link-scene issues/diagonal-corner-squeeze.json] [--site build-web] [--chromium /usr/bin/chromium]
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { serve } from '../serve.mjs';
import { cli_length, cli_link, kChromiumArgs, kPlanTimeoutMs, kReadyTimeoutMs, kRepo, open_page } from './page.mjs';
import { file_checks, picker_check } from './file_checks.mjs';
import { gallery_checks, lesson_checks, planner_checks } from './sandbox_checks.mjs';

function options(argv) {
  const o = { scene: 'maps/jps-pillars.json', 'link-scene': 'issues/diagonal-corner-squeeze.json', site: join(kRepo, 'build-web'), chromium: '/usr/bin/chromium', cli: '' };
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i].replace(/^--/, '');
    if (!(key in o) || argv[i + 1] === undefined) throw new Error(`unknown option or missing value: ${argv[i]}`);
    o[key] = argv[i + 1];
  }
  if (!o.cli) throw new Error('--cli PATH (the native pathlab-cli) is needed to compare the plan length');
  return o;
}

/** Checks 4 and 5: a link in the hash opens; a broken one leaves an error and a running page. */
async function link_checks(browser, site_url, o, check) {
  const fragment = cli_link(o.cli, ['--scene', join(kRepo, 'assets/scenes', o['link-scene'])]);
  const expected = cli_length(o.cli, o['link-scene']);
  const good = await open_page(browser, `${site_url}?scene=${encodeURIComponent(o.scene)}#${fragment}`);
  const ready = await good.wait(/^pathlab: ready /, kReadyTimeoutMs, 'ready line of the link');
  console.log(`${ready.slice(0, 120)} (a ${fragment.length}-character link to ${o['link-scene']})`);
  check(ready === `pathlab: ready link length ${expected}`,
        `the hash's link wins over ?scene= and plans as pathlab-cli does on ${o['link-scene']} (${expected})`);
  await good.page.close();

  // A link cut short, as a chat message may cut it: the zlib stream's checksum catches it.
  const bad = await open_page(browser, `${site_url}#${fragment.slice(0, -8)}`);
  const line = await bad.wait(/^pathlab: ready /, kReadyTimeoutMs, 'ready line after a broken link');
  const note = await bad.page.locator('#note').evaluate((e) => ({ text: e.textContent, cls: e.className }));
  console.log(`broken link: "${note.text}"`);
  check(note.cls === 'error' && /^this page's link did not open: link/.test(note.text) && /^pathlab: ready demo\.json /.test(line),
        'a broken hash shows its error on the page and the sandbox runs on (the demo planned)');
  await bad.page.evaluate((f) => { location.hash = f; }, fragment);
  const replanned = await bad.wait(/^pathlab: plan link /, kPlanTimeoutMs, 'plan after the hash changed');
  check(replanned === `pathlab: plan link length ${expected}`, 'a link put into the hash later opens (hashchange)');
  await bad.page.close();
}

/** How many distinct colours a PNG shows, decoded by the browser itself (no PNG library). */
async function distinct_colours(page, png) {
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = new OffscreenCanvas(img.width, img.height);
    const g = c.getContext('2d');
    g.drawImage(img, 0, 0);
    const px = g.getImageData(0, 0, img.width, img.height).data;
    const colours = new Set();
    for (let i = 0; i < px.length; i += 4) colours.add((px[i] << 16) | (px[i + 1] << 8) | px[i + 2]);
    return colours.size;
  }, png.toString('base64'));
}

/** Drags the mouse across the path's middle segment, perpendicular to it, `half` px each side. */
async function paint_across_path(page, canvas_box, half) {
  const pts = await page.evaluate(() => {
    const n = Module._pathlab_path_count();
    const out = [];
    for (let i = 0; i < n; ++i) out.push([Module._pathlab_path_x(i), Module._pathlab_path_y(i)]);
    return out;
  });
  if (pts.length < 2) throw new Error(`the path has ${pts.length} points: nothing to paint across`);
  const i = Math.floor((pts.length - 1) / 2);
  const [ax, ay] = pts[i], [bx, by] = pts[i + 1];
  const len = Math.hypot(bx - ax, by - ay) || 1;
  const mx = (ax + bx) / 2 + canvas_box.x, my = (ay + by) / 2 + canvas_box.y;
  const nx = -(by - ay) / len, ny = (bx - ax) / len;  // perpendicular, unit length
  await page.mouse.move(mx - nx * half, my - ny * half);
  await page.mouse.down();
  await page.mouse.move(mx + nx * half, my + ny * half, { steps: 40 });
  await page.mouse.up();
  return { from: [mx - nx * half, my - ny * half], to: [mx + nx * half, my + ny * half] };
}

async function main() {
  const o = options(process.argv.slice(2));
  const expected = cli_length(o.cli, o.scene);
  const server = await serve(o.site, 0);
  const site_url = `http://127.0.0.1:${server.address().port}/index.html`;
  const url = `${site_url}?scene=${encodeURIComponent(o.scene)}`;
  const browser = await chromium.launch({ executablePath: o.chromium, args: kChromiumArgs });
  let passed = 0;
  const check = (ok, what) => {
    if (!ok) throw new Error(`FAILED: ${what}`);
    console.log(`ok: ${what}`);
    ++passed;
  };
  try {
    const t0 = Date.now();
    const { page, lines, wait } = await open_page(browser, url);
    const ready = await wait(/^pathlab: ready /, kReadyTimeoutMs, 'ready line');
    const ready_ms = Date.now() - t0;
    console.log(`${ready} (${ready_ms} ms after the page was asked for)`);
    const m = ready.match(/^pathlab: ready (\S+) length (\S+)$/);
    check(m && m[1] === o.scene, `the ready line names the scene of the URL (${o.scene})`);
    check(m[2] === expected, `the plan's length in the browser (${m[2]}) is pathlab-cli's (${expected}), all digits`);
    check(lines.filter((l) => l.startsWith('pathlab: ready')).length === 1, 'exactly one ready line');

    const canvas = page.locator('#canvas');
    const box = await canvas.boundingBox();
    const before = await canvas.screenshot();
    writeFileSync(join(o.site, 'web_test_before.png'), before);
    const colours = await distinct_colours(page, before);
    check(colours >= 16, `the canvas is drawn: ${colours} distinct colours in web_test_before.png (a blank page has 1)`);

    const stroke = await paint_across_path(page, box, 60);
    console.log(`painted from (${stroke.from.map((v) => v.toFixed(0))}) to (${stroke.to.map((v) => v.toFixed(0))})`);
    const after = await wait(/^pathlab: plan /, kPlanTimeoutMs, 'plan after the stroke');
    // The stroke re-plans as it goes; the last plan line (after the mouse is up) is the final path.
    await page.waitForTimeout(500);
    const last = lines.filter((l) => l.startsWith('pathlab: plan ')).pop() ?? after;
    console.log(last);
    writeFileSync(join(o.site, 'web_test_after.png'), await canvas.screenshot());
    const after_len = last.match(/ length (\S+)$/)?.[1] ?? 'no path';
    check(after_len !== m[2], `the wall changed the plan (length ${m[2]} -> ${after_len})`);
    await page.close();
    await link_checks(browser, site_url, o, check);
    await lesson_checks(browser, site_url, o, check, o.site);
    await gallery_checks(browser, site_url, o, check, o.site);
    await planner_checks(browser, site_url, o, check);
    await file_checks(browser, site_url, o, check, o.site);
    await picker_check(browser, site_url, o, check);
    console.log(`(${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    console.log(`${passed} passed, 0 failed`);
  } finally {
    await browser.close();
    server.close();
  }
}

main().catch((e) => {
  console.error(e.message ?? e);
  console.log('0 passed, 1 failed');
  process.exit(1);
});
