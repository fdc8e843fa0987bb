// harness.mjs: what every browser test file shares: a static server for www/ (optionally
// under a sub-path), Debian's headless Chromium driven by playwright-core, page opening with
// exception and console-error collection, canvas ink measurement and axe-core.
// Screenshots go to tests/out/ (git-ignored). Not a test file itself (no .test. in its name).
import { before, after, afterEach } from 'node:test';
import { createServer } from 'node:http';
import { readFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, extname, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../../', import.meta.url));
export const www = join(root, 'www');
export const out = join(root, 'tests', 'out');
const CHROMIUM = '/usr/bin/chromium';
/** A reason to skip every browser test (false when Chromium is there). */
export const skip = !existsSync(CHROMIUM) && 'chromium not installed (scripts/setup.sh installs it from Debian packages with root or sudo)';
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm', '.json': 'application/json', '.png': 'image/png' };

/** Serve `dir` at http://127.0.0.1:PORT`prefix` (prefix '/' or '/a/b/'). Resolves to { base, close, requests }. */
export async function serve(dir = www, prefix = '/') {
  const requests = [];
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://x');
    requests.push(url.pathname);
    if (!url.pathname.startsWith(prefix)) { res.writeHead(404); res.end(); return; }
    const path = normalize(decodeURIComponent(url.pathname.slice(prefix.length - 1))).replace(/^(\.\.[/\\])+/, '');
    const file = join(dir, path.endsWith('/') ? path + 'index.html' : path);
    try {
      const body = await readFile(file);
      // as GitHub Pages does: course pages on other origins may load the element's module
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'access-control-allow-origin': '*' });
      res.end(body);
    } catch {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { base: `http://127.0.0.1:${server.address().port}${prefix}`, close: () => server.close(), requests };
}

/** The shared state of a test file: `ctx.base` (the page's URL) and `ctx.browser`, set up by `useBrowser()`. */
export const ctx = { base: null, browser: null };

/** The pages `open` opened in the running test: closed after each test (a test's pages keep
 * their runs going; left open, they starve the next tests' pages on a 2-core machine). */
const opened = new Set();

/** Register before/after hooks that start the server and Chromium for this test file, and close
 * each test's pages after it. */
export function useBrowser() {
  let server, profile;
  afterEach(async () => {
    for (const page of opened) if (!page.isClosed()) await page.close().catch(() => {});
    opened.clear();
  });
  before(async () => {
    if (skip) return;
    server = await serve();
    ctx.base = server.base;
    await mkdir(out, { recursive: true });
    profile = await mkdtemp(join(tmpdir(), 'tumble-chromium-'));
    const { chromium } = await import('playwright-core');
    ctx.browser = await chromium.launch({
      executablePath: CHROMIUM,
      ignoreDefaultArgs: true,
      args: ['--headless', '--no-sandbox', '--enable-unsafe-swiftshader', '--use-angle=swiftshader', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync', '--autoplay-policy=no-user-gesture-required',
        '--remote-debugging-pipe', `--user-data-dir=${profile}`],
    });
  });
  after(async () => {
    await ctx.browser?.close();
    server?.close();
    if (profile) await rm(profile, { recursive: true, force: true });
  });
  return ctx;
}

export const LAPTOP = { width: 1280, height: 860 };
export const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, hasTouch: true, isMobile: true };
export const IFRAME = { width: 640, height: 400 };

/** Open the page at `query` (default laptop size; `options` are playwright newPage options);
 * collects uncaught exceptions and console errors in `problems`. */
export async function open(query = '', options = { viewport: LAPTOP }) {
  const page = await ctx.browser.newPage({ bypassCSP: true, acceptDownloads: true, ...options });
  opened.add(page);
  const problems = [];
  page.on('pageerror', (e) => problems.push(`exception: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  await page.goto(ctx.base + query);
  await page.waitForFunction(() => window.tumble !== undefined, null, { timeout: 20000 });
  return { page, problems };
}

/** Wait until the full page has loaded the run a reset or a change of settings asked for (the
 * worker loads it: until then the hooks still describe the previous run). */
export async function loaded(page, timeout = 20000) {
  await page.waitForFunction(() => !window.tumble.loading(), null, { timeout });
}

/** Fraction of canvas pixels that differ from the background colour (the canvas `selector`,
 * inside the shadow root of the element `host` when one is named). */
export async function inked(page, selector = '#canvas', host = null) {
  return page.evaluate(([sel, h]) => {
    const c = (h ? document.querySelector(h).shadowRoot : document).querySelector(sel);
    const gl = c.getContext('webgl2');
    const px = new Uint8Array(c.width * c.height * 4);
    gl.readPixels(0, 0, c.width, c.height, gl.RGBA, gl.UNSIGNED_BYTE, px);
    let n = 0;
    for (let i = 0; i < px.length; i += 4) if (Math.abs(px[i] - px[0]) + Math.abs(px[i + 1] - px[1]) + Math.abs(px[i + 2] - px[2]) > 30) n++;
    return n / (px.length / 4);
  }, [selector, host]);
}

/** Run axe-core (from node_modules, pinned in package-lock.json) on the page; returns the
 * serious and critical violations as short strings. */
export async function axe(page) {
  await page.addScriptTag({ path: join(root, 'node_modules', 'axe-core', 'axe.min.js') });
  const result = await page.evaluate(async () => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')})`);
}

/** Pause the full page if it is playing (its Play button). */
export const pause = (page) => page.evaluate(() => { if (window.tumble.playing()) document.getElementById('play').click(); });

/** Two animation frames: the page's redraw and uPlot's commit have happened. */
export const settle = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/** Press at client point (x, y) and drag 120 px to the right in ten moves, a frame each; the
 * button stays down (the caller lets go with page.mouse.up()). */
export async function pressAndDrag(page, x, y) {
  await page.mouse.move(x, y);
  await page.mouse.down();
  for (let i = 1; i <= 10; i++) {
    await page.mouse.move(x + 12 * i, y);
    await settle(page);
  }
}

/** Let the full page play until `predicate(arg)` holds in it, then pause with every step asked
 * for landed (and drawn in the charts). */
export async function playUntil(page, predicate, arg) {
  await page.waitForFunction(predicate, arg, { timeout: 60000 });
  await pause(page);
  await page.evaluate(() => window.tumble.settled());
  await settle(page);
}
