// The browser test's files (issue 29): what the sandbox writes for the user is written into the
// page's in-memory file system, out of the user's reach, so the page hands each such file to
// the browser as a download (Sandbox::set_file_handoff, web_main.cpp, web/shell.html). Checks
// that Save repro gives a download that the desktop's `pathlab-cli replay` reads and runs, and
// that Export's Save path CSV / JSON give the path as downloads. `replay --check` (bit for bit)
// is printed, not asserted: the crowd still takes the C library's sin/cos/atan2, whose last bit
// differs between the page (musl) and the desktop (glibc) (README, "In the browser").
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { kReadyTimeoutMs, open_page } from './page.mjs';

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

/** Save repro and Export's files reach the browser as downloads, with the bytes they should hold. */
export async function file_checks(browser, site_url, o, check, shots) {
  const p = await open_page(browser, `${site_url}?scene=crowds/doorway.json`);
  await p.wait(/^pathlab: ready /, kReadyTimeoutMs, 'ready line');
  const s0 = await p.state();
  await p.until((x) => x.units.time > s0.units.time + 0.5, 30000, 'the crowd running 0.5 s');
  await p.click('timeline play');  // paused: the moment saved is the one shown
  const paused = await p.until((x) => !x.units.playing, 5000, 'paused');
  const repro = await download_of(p, 'Save repro');
  const file = join(shots, 'web_test_download.repro.json');
  writeFileSync(file, repro.bytes);
  const replay = cli_replay_check(o.cli, file), run = cli_replay(o.cli, file);
  console.log(`Save repro: download ${repro.name}, ${repro.bytes.length} bytes, ${paused.units.step} steps; ` +
              `pathlab-cli replay --check (not asserted, see the header): ${replay.said}`);
  check(/^doorway(-\d+)?\.repro\.json$/.test(repro.name) && repro.bytes.length > 0,
        `Save repro hands the browser a download (${repro.name}, ${repro.bytes.length} bytes)`);
  check(run.ok && run.units === paused.units.count,
        `pathlab-cli replay reads and runs the page's repro (${run.units} of ${paused.units.count} units)`);

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
  // The page's own Download scene button goes the same way (one download, named after the scene).
  const [d] = await Promise.all([p.page.waitForEvent('download', { timeout: kDownloadTimeoutMs }), p.page.click('#download')]);
  const scene = JSON.parse(readFileSync(await d.path(), 'utf8'));
  check(d.suggestedFilename() === 'doorway.json' && scene.units?.length === s.units.count,
        `Download scene hands the browser doorway.json with its ${s.units.count} units`);
  await p.page.close();
}
