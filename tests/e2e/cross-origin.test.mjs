// Self-hosting the element: a host page on a second origin (another local server, another port)
// loads <tumble-view> from the site's server, as a course page on its own host would. The
// element draws and plays, steps in its Web Worker (started across origins from a blob that
// imports sim/worker.js), and asks the site for nothing outside the paths docs/embedding.md
// tells a host to serve with CORS.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, writeFile, rm, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useBrowser, skip, serve, root, ctx, inked } from './harness.mjs';

/** What docs/embedding.md lists for a host to serve with CORS (files at the root, folders). */
const SERVED = ['tumble-view.js', 'tumble-view.css', 'view/', 'sim/', 'shared/', 'mujoco/', 'pkg/', 'vendor/'];

useBrowser();
let site, host, hostDir;
before(async () => {
  if (skip) return;
  site = await serve(); // the site, as the element's host serves it (our own, apart from useBrowser's)
  hostDir = await mkdtemp(join(tmpdir(), 'tumble-host-'));
  host = await serve(hostDir); // the page that embeds it: a second origin
  await writeFile(join(hostDir, 'notes.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Notes</title><link rel="icon" href="data:,">
<script type="module" src="${site.base}tumble-view.js"></script></head>
<body><h1>Lecture 4</h1><tumble-view id="v" scenario="flip" integrator="director" charts="energy" autoplay style="height: 320px"></tumble-view></body></html>`);
});
after(async () => {
  site?.close();
  host?.close();
  if (hostDir) await rm(hostDir, { recursive: true, force: true });
});

test('docs/embedding.md names every path a host serves with CORS for the element', async () => {
  const doc = await readFile(join(root, 'docs', 'embedding.md'), 'utf8');
  for (const p of SERVED) assert.ok(doc.includes(`\`${p}\``), `docs/embedding.md does not name \`${p}\``);
});

test('<tumble-view> from another origin draws and plays in its worker, loading only the documented paths', { skip }, async () => {
  assert.notEqual(new URL(host.base).origin, new URL(site.base).origin);
  const page = await ctx.browser.newPage({ viewport: { width: 900, height: 600 } });
  const problems = [];
  page.on('pageerror', (e) => problems.push(`exception: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  await page.goto(host.base + 'notes.html');
  await page.waitForFunction(() => document.getElementById('v').player?.run, null, { timeout: 30000 });
  await page.waitForFunction(() => document.getElementById('v').time > 0.3, null, { timeout: 30000 });
  assert.ok((await inked(page, 'canvas', '#v')) > 0.01, 'the element drew nothing');
  assert.equal(await page.evaluate(async () => (await document.getElementById('v').player.engine).constructor.name), 'WorkerEngine',
    'the element stepped on the main thread: its worker did not start across origins');
  assert.equal(await page.evaluate(() => document.getElementById('v').error), null);
  const outside = [...new Set(site.requests)].filter((p) => !SERVED.some((s) => p.slice(1).startsWith(s)));
  assert.deepEqual(outside, [], `the element asked the site for paths a host is not told to serve: ${outside.join(', ')}`);
  for (const p of ['tumble-view.js', 'sim/worker.js', 'pkg/tumble_wasm_bg.wasm']) assert.ok(site.requests.includes(`/${p}`), `never asked for /${p}: ${site.requests.join(', ')}`);
  assert.deepEqual(problems, []);
  await page.close();
});
