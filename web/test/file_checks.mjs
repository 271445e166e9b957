// The browser test's files (issue 29): what the sandbox writes for the user is written into the
// page's in-memory file system, out of the user's reach, so the page hands each such file to
// the browser as a download (Sandbox::set_file_handoff, web_main.cpp, web/shell.html). Checks
// that Save repro gives a download that the desktop's `pathlab-cli replay` reads and runs, and
// that Export's Save path CSV / JSON give the path as downloads, and Copy CLI command the scene
// file its command reads; the Open file… picker opens a file. The repro saved in the page passes
// the desktop's `replay --check`: the crowd's run in the page (WebAssembly, musl) gives the same
// bytes as on the desktop (glibc), step for step, because the core takes its trigonometry from
// det_math, not the C library (README, "In the browser").
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cli_length, kPlanTimeoutMs, kReadyTimeoutMs, kRepo, open_page } from './page.mjs';

const kDownloadTimeoutMs = 15000;

/** Clicks the control `name` and returns the download it starts: { name, bytes }. */
async function download_of(p, name) {
  const [d] = await Promise.all([p.page.waitForEvent('download', { timeout: kDownloadTimeoutMs }), p.click(name)]);
  return { name: d.suggestedFilename(), bytes: readFileSync(await d.path()) };
}

/** `pathlab-cli replay FILE --check`: { ok, said } (exit status 0, and its "check: ..." line). */
function cli_replay_check(cli, file) {
  const r = spawnSync(cli, ['replay', file, '--check'], { encoding: 'utf8' });
  return replay_said(r);
}

/** `pathlab-cli replay FILE`: { ok, units } (exit status 0 and its "arrived: a/N" line). */
function cli_replay(cli, file) {
  const r = spawnSync(cli, ['replay', file], { encoding: 'utf8' });
  const m = `${r.stdout ?? ''}`.match(/^arrived: \d+\/(\d+)$/m);
  return { ok: r.status === 0 && m !== null, units: m ? Number(m[1]) : 0 };
}

/** The "check: ..." line of a `replay --check` run, and whether it says the steps agree. */
function replay_said(r) {
  const said = `${r.stderr ?? ''}`.split('\n').find((l) => /check|differ|error/.test(l)) ?? `exit ${r.status}`;
  return { ok: r.status === 0 && /^check: \d+ steps agree/.test(said), said };
}

/**
 * Export's Copy CLI command in the page: the scene file it reads comes as a download, the command
 * (in the page's share box) names it by its file name, and run where the download was saved it
 * prints the page's length, every digit.
 */
async function copy_cli_check(p, o, check, shots, s) {
  const scene = await download_of(p, 'copy_cli');
  writeFileSync(join(shots, scene.name), scene.bytes);
  const box = await p.page.evaluate(() => ({ text: document.getElementById('share').value,
                                             what: document.getElementById('share').dataset.what }));
  const words = box.text.split(' ');
  const r = words[0] === 'pathlab-cli' ? spawnSync(resolve(o.cli), words.slice(1), { encoding: 'utf8', cwd: shots }) : { status: -1 };
  const length = `${r.stdout ?? ''}`.match(/^length: (\S+)$/m)?.[1];
  console.log(`Copy CLI command: box (${box.what}) "${box.text}", download ${scene.name}; run there: length ${length} (page ${s.length})`);
  check(box.what === 'CLI command' && box.text === `pathlab-cli plan --scene ${scene.name}` && r.status === 0 && length === s.length,
        `Copy CLI command puts "pathlab-cli plan --scene ${scene.name}" in the page's box and hands over ${scene.name}; run beside it, it prints the page's length ${s.length}`);
}

/**
 * The page's Open file… button: the file chosen in the browser's picker (set here as a person's
 * choice would be; the picker's own dialog is the browser's) opens in the sandbox and plans as
 * `pathlab-cli plan --scene` plans it.
 */
export async function picker_check(browser, site_url, o, check) {
  const p = await open_page(browser, site_url);
  await p.wait(/^pathlab: ready /, kReadyTimeoutMs, 'ready line');
  const file = join(kRepo, 'assets/scenes/pinter_tank_turn.json');
  await p.page.setInputFiles('#picker', file);
  const line = await p.wait_next(/^pathlab: plan \S+ length /, kPlanTimeoutMs, 'plan line of the picked file');
  const expected = cli_length(o.cli, 'pinter_tank_turn.json');
  console.log(`Open file…: ${line}; pathlab-cli: ${expected}`);
  check(line === `pathlab: plan /uploads/pinter_tank_turn.json length ${expected}`,
        `Open file… opens the picked pinter_tank_turn.json and plans pathlab-cli's length ${expected}`);
  check(p.problems().length === 0, 'no console errors while opening a picked file');
  await p.page.close();
}

/** Save repro and Export's files reach the browser as downloads, with the bytes they should hold. */
export async function file_checks(browser, site_url, o, check, shots) {
  const p = await open_page(browser, `${site_url}?scene=crowds/doorway.json`);
  await p.wait(/^pathlab: ready /, kReadyTimeoutMs, 'ready line');
  const s0 = await p.state();
  await p.until((x) => x.units.time > s0.units.time + 4, 60000, 'the crowd running 4 s');
  await p.click('timeline play');  // paused: the moment saved is the one shown
  const paused = await p.until((x) => !x.units.playing, 5000, 'paused');
  const repro = await download_of(p, 'Save repro');
  const file = join(shots, 'web_test_download.repro.json');
  writeFileSync(file, repro.bytes);
  const replay = cli_replay_check(o.cli, file), run = cli_replay(o.cli, file);
  console.log(`Save repro: download ${repro.name}, ${repro.bytes.length} bytes, ${paused.units.step} steps; ` +
              `pathlab-cli replay --check: ${replay.said}`);
  check(/^doorway(-\d+)?\.repro\.json$/.test(repro.name) && repro.bytes.length > 0,
        `Save repro hands the browser a download (${repro.name}, ${repro.bytes.length} bytes)`);
  check(run.ok && run.units === paused.units.count,
        `pathlab-cli replay reads and runs the page's repro (${run.units} of ${paused.units.count} units)`);
  check(replay.ok, `the desktop replays the page's crowd bit for bit: ${replay.said}`);

  await p.click('tab:Export');
  const csv = await download_of(p, 'export_csv');
  const json = await download_of(p, 'export_json');
  const rows = csv.bytes.toString('utf8').trim().split('\n');
  const s = await p.state();
  // The CSV's last row: index, x, y, s (distance along the path), heading, curvature.
  const last_s = Number(rows[rows.length - 1].split(',')[3]);
  const points = JSON.parse(json.bytes.toString('utf8')).points?.length ?? -1;
  console.log(`Export: ${csv.name} ${csv.bytes.length} bytes (${rows.length - 1} points, s = ${last_s}), ${json.name} ${json.bytes.length} bytes`);
  check(csv.name === 'path.csv' && json.name === 'path.json' && rows.length > 2 && points === rows.length - 1 &&
        Math.abs(last_s - Number(s.length)) <= 1e-9 * Number(s.length),
        `Export's Save path CSV and JSON hand the browser path.csv and path.json (${rows.length - 1} points each, the CSV ending at the path's length within 1e-9)`);
  await copy_cli_check(p, o, check, shots, s);
  // The page's own Download scene button goes the same way (one download, named after the scene).
  const [d] = await Promise.all([p.page.waitForEvent('download', { timeout: kDownloadTimeoutMs }), p.page.click('#download')]);
  const scene = JSON.parse(readFileSync(await d.path(), 'utf8'));
  check(d.suggestedFilename() === 'doorway.json' && scene.units?.length === s.units.count,
        `Download scene hands the browser doorway.json with its ${s.units.count} units`);
  await p.page.close();
}
