// Driving the page's sandbox from playwright (browser_test.mjs): console lines, the sandbox's
// state (the exported pathlab_state, app/sandbox/host/web_probe.hpp) and clicks on its real
// controls, found by the names the sandbox remembers them under (pathlab_widget).
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';

export const kRepo = resolve(new URL('../..', import.meta.url).pathname);
export const kReadyTimeoutMs = 120000;  // the first load compiles 3 MB of wasm in software
export const kPlanTimeoutMs = 30000;

/** The length `pathlab-cli plan --scene` prints (%.17g), as text; `more` adds options. */
export function cli_length(cli, scene, more = []) {
  const out = execFileSync(cli, ['plan', '--scene', join(kRepo, 'assets/scenes', scene), ...more], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const m = out.match(/^length: (\S+)$/m);
  if (!m) throw new Error(`pathlab-cli found no path on ${scene} ${more.join(' ')}:\n${out}`);
  return m[1];
}

/** The fragment (no '#') of a `pathlab-cli link ...` (args after `link`). */
export function cli_link(cli, args) {
  const out = execFileSync(cli, ['link', ...args], { encoding: 'utf8' }).trim();
  const at = out.search(/#(scene|lesson)=/);
  if (at < 0) throw new Error(`pathlab-cli link ${args.join(' ')} printed no link:\n${out}`);
  return out.slice(at + 1);
}

/** Resolves with the first console line that matches `re` (lines seen so far included). */
function wait_line(lines, listeners, re, ms, what) {
  const seen = lines.find((l) => re.test(l));
  if (seen) return Promise.resolve(seen);
  return new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`no ${what} within ${ms / 1000} s; console:\n${lines.join('\n')}`)), ms);
    listeners.push((l) => {
      if (!re.test(l)) return false;
      clearTimeout(timer);
      ok(l);
      return true;
    });
  });
}

/**
 * A new page whose console lines are collected. Returns { page, lines, wait(re, ms, what),
 * wait_next(re, ms, what) (a line after those seen so far), state(), widget(name), click(name),
 * until(pred, ms, what), problems() (console errors and page errors so far) }.
 */
export async function open_page(browser, url) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const lines = [], listeners = [];
  page.on('console', (m) => {
    const l = m.type() === 'error' ? `console error: ${m.text()}` : m.text();
    lines.push(l);
    for (let k = listeners.length - 1; k >= 0; --k) if (listeners[k](l)) listeners.splice(k, 1);
  });
  page.on('pageerror', (e) => lines.push(`page error: ${e.message}`));
  await page.goto(url);
  const canvas = page.locator('#canvas');
  const p = {
    page, lines,
    wait: (re, ms, what) => wait_line(lines, listeners, re, ms, what),
    wait_next: (re, ms, what) => {
      const from = lines.length;
      return new Promise((ok, fail) => {
        const timer = setTimeout(() => fail(new Error(`no ${what} within ${ms / 1000} s; console:\n${lines.slice(from).join('\n')}`)), ms);
        listeners.push((l) => {
          if (!re.test(l)) return false;
          clearTimeout(timer);
          ok(l);
          return true;
        });
      });
    },
    state: async () => JSON.parse(await page.evaluate(() => Module.ccall('pathlab_state', 'string', [], []))),
    /** The control's rectangle in page pixels, or null when it was not drawn last frame. */
    widget: async (name) => {
      const text = await page.evaluate((n) => Module.ccall('pathlab_widget', 'string', ['string'], [n]), name);
      if (!text) return null;
      const [x, y, w, h] = text.split(' ').map(Number);
      const box = await canvas.boundingBox();
      return { x: x + box.x, y: y + box.y, w, h };
    },
    /** Waits (frames) until `pred(state)` holds; returns that state. */
    until: async (pred, ms, what) => {
      const end = Date.now() + ms;
      for (;;) {
        const s = await p.state();
        if (pred(s)) return s;
        if (Date.now() > end) throw new Error(`${what}: not within ${ms / 1000} s; state ${JSON.stringify(s).slice(0, 600)}`);
        await page.waitForTimeout(50);
      }
    },
    /** Waits for `n` of the page's animation frames (the sandbox draws one frame in each). */
    frames: (n) => page.evaluate((k) => new Promise((ok) => {
      const step = () => (k-- <= 0 ? ok() : requestAnimationFrame(step));
      step();
    }), n),
    /**
     * Clicks the centre of a control the sandbox drew under `name` (waits up to `ms` for it),
     * a frame apart for each of move, press and release, as a hand would: ImGui reads the
     * mouse once a frame, and a popup's first frame only measures its items.
     */
    click: async (name, ms = 5000) => {
      const end = Date.now() + ms;
      let r = await p.widget(name);
      while (!r && Date.now() < end) {
        await p.frames(1);
        r = await p.widget(name);
      }
      if (!r) throw new Error(`control not on screen: ${name}`);
      await p.frames(2);
      r = await p.widget(name);
      await page.mouse.move(r.x + r.w / 2, r.y + r.h / 2);
      await p.frames(1);
      await page.mouse.down();
      await p.frames(1);
      await page.mouse.up();
      await p.frames(1);
    },
    problems: () => lines.filter((l) => /^(console error|page error)|abort|RuntimeError|exception/i.test(l) &&
                                       !/browser storage unavailable/.test(l)),
  };
  return p;
}

/** The page's server and Debian's headless Chromium (software WebGL). */
export const kChromiumArgs = ['--no-sandbox', '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'];
