// benches/study/bench.mjs: the study benchmark: a study of nk-revolute with 5 levels and
// T = 10 s, all three integrators (17 runs, the reference's 256 000 director steps the longest),
// in the page's Study view (headless Chromium, one worker per run, at most
// navigator.hardwareConcurrency at once) and natively (tumble study --jobs N), alternating.
// A benchmark, not a test: it prints figures, and checks that both give the same report
// (timing aside) and so the same orders.
//   node benches/study/bench.mjs [--rounds 3] [--levels 5] [--duration 10] [--jobs 2]
import { execFileSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { serve, root } from '../../tests/e2e/harness.mjs';
import { withoutTiming } from '../../www/study/study-core.js';
import { chromium } from 'playwright-core';

const arg = (name, dflt) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1] : dflt; };
const rounds = Number(arg('rounds', 3));
const levels = arg('levels', '5');
const duration = arg('duration', '10');
const jobs = arg('jobs', String(cpus().length));
const CLI = join(root, 'target', 'release', 'tumble');

const srv = await serve();
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--enable-unsafe-swiftshader', '--use-angle=swiftshader', '--disable-background-timer-throttling', '--disable-renderer-backgrounding'],
});
const query = `?view=study&scenario=nk-revolute&integrators=director,rattle,baumgarte&h0=0&levels=${levels}&T=${duration}&long=0`;
const page = [], native = [];
let pageReport = null, nativeReport = null, slots = null;
for (let k = 0; k < rounds; k++) {
  const p = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await p.goto(srv.base + query);
  await p.waitForFunction(() => window.tumble?.study, null, { timeout: 30000 });
  slots ??= await p.evaluate(() => navigator.hardwareConcurrency);
  const t0 = Date.now();
  await p.click('#study-run');
  await p.waitForFunction(() => window.tumble.study.report() !== null && !window.tumble.study.running(), null, { timeout: 600000, polling: 50 });
  page.push((Date.now() - t0) / 1000);
  pageReport = await p.evaluate(() => window.tumble.study.report());
  await p.close();

  const t1 = process.hrtime.bigint();
  nativeReport = execFileSync(CLI, ['study', 'nk-revolute', '--levels', levels, '--duration', duration, '--jobs', jobs, '--format', 'json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  native.push(Number(process.hrtime.bigint() - t1) / 1e9);
}
await browser.close();
srv.close();

const same = withoutTiming(pageReport) === withoutTiming(nativeReport);
const fmt = (a) => a.map((x) => x.toFixed(2)).join(', ');
console.log(`study nk-revolute, ${levels} levels, T = ${duration} s, all three integrators; ${rounds} rounds alternating; load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
console.log(`page (headless Chromium, ${slots} workers at once): ${fmt(page)} s (min ${Math.min(...page).toFixed(2)} s), click Run -> report`);
console.log(`native (tumble study --jobs ${jobs}):          ${fmt(native)} s (min ${Math.min(...native).toFixed(2)} s), process start -> exit`);
console.log(`same report, timing aside: ${same ? 'yes' : 'NO'}`);
for (const t of JSON.parse(pageReport).integrators) console.log(`  ${t.integrator.padEnd(9)} orders ${t.orders.map((o) => o.toFixed(3)).join(', ')}`);
if (!same) process.exitCode = 1;
