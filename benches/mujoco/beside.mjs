// MuJoCo beside Tumble in the page against MuJoCo alone, natively (the goal: MuJoCo beside runs
// at least a quarter as fast as MuJoCo runs the same model natively). For each
// contact preset and MuJoCo integrator:
// - the page (headless Chromium, SwiftShader, 1280 x 860, speed "fastest", RATTLE beside):
//   MuJoCo's run's wall rate while its simulated time goes from FROM to TO, or on for at least
//   3 s of wall time (s of simulated time per s of wall time), and the readout's "MuJoCo ... (X ms a step)" (its worker's own pace, of
//   which "MuJoCo's own step takes Y ms": mj_step), medians of the readings in that window;
// - natively: the page's own MJCF of the system (www/mujoco/to-mjcf.js at the page's step h),
//   MuJoCo 4.0 from Python (benches/peers/requirements.txt) stepped from 0 to FROM, then timed
//   from FROM to TO: its rate and ms a step.
// The figure is native ms a step / the page's (>= 0.25 is the goal), from the wall rates.
// A benchmark, not a test; these machines have 2 cores, so the page's two workers and its
// drawing share them: the load average is printed at the start and the end.
//
//   node benches/mujoco/beside.mjs [--rounds 1] [--scenarios bouncing-ball,ball-pit]
//     [--integrators RK4,implicitfast] [--from 1] [--to 3] [--python PATH]
// (--python: an interpreter with `mujoco` installed; default benches/peers/.venv/bin/python,
// which `bash benches/peers/run.sh` creates.)
import { readFileSync, writeFileSync, mkdtempSync, existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { tmpdir, loadavg } from 'node:os';
import { chromium } from 'playwright-core';
import { serve } from '../../tests/e2e/harness.mjs';
import * as wasm from '../../www/pkg/tumble_wasm.js';
import { toMjcf } from '../../www/mujoco/to-mjcf.js';

const root = new URL('../../', import.meta.url).pathname;
const arg = (name, dflt) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1] : dflt; };
const scenarios = arg('scenarios', 'bouncing-ball,newtons-cradle,ball-pit,stop-pendulum,incline,billiards,falling-chain,dominoes').split(',');
const integrators = arg('integrators', 'RK4,implicitfast').split(',');
const rounds = Number(arg('rounds', 1)), from = Number(arg('from', 1)), to = Number(arg('to', 3));
const python = arg('python', join(root, 'benches/peers/.venv/bin/python'));
if (!existsSync(python)) {
  console.error(`no Python with MuJoCo at ${python}: run 'bash benches/peers/run.sh' once, or give --python`);
  process.exit(2);
}
wasm.initSync({ module: readFileSync(join(root, 'www/pkg/tumble_wasm_bg.wasm')) });
const dir = mkdtempSync(join(tmpdir(), 'tumble-beside-'));

// MuJoCo natively: step to `from`, time `from` to `to`; prints ms a step
const NATIVE = `
import sys, time, mujoco
m = mujoco.MjModel.from_xml_path(sys.argv[1]); d = mujoco.MjData(m)
if m.nkey: mujoco.mj_resetDataKeyframe(m, d, 0)
t0, t1 = float(sys.argv[2]), float(sys.argv[3])
while d.time < t0: mujoco.mj_step(m, d)
n = 0; w = time.perf_counter()
while d.time < t1: mujoco.mj_step(m, d); n += 1
print((time.perf_counter() - w) * 1000 / n)
`;

function native(name, integrator, h) {
  const { xml } = toMjcf(JSON.parse(wasm.scenario_json(name)), { integrator, timestep: h });
  const file = join(dir, `${name}-${integrator}.xml`);
  writeFileSync(file, xml);
  return Number(execFileSync(python, ['-c', NATIVE, file, String(from), String(to)], { encoding: 'utf8' }).trim());
}

const WALL_MS = 3000;
const median = (a) => { const s = [...a].sort((x, y) => x - y); return s.length ? s[s.length >> 1] : NaN; };

/** The page with MuJoCo `integrator` beside: { h, rate (MuJoCo's simulated s per wall s), ms,
 * mjms (the readout's medians), reached (MuJoCo's t at the end), tumble (RATTLE's t then) }. */
async function page(browser, base, name, integrator) {
  const p = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  try {
    await p.goto(`${base}?scenario=${encodeURIComponent(name)}&integrator=rattle&mujoco=${integrator}`);
    await p.waitForFunction(() => window.tumble?.runs().length === 2, null, { timeout: 120000 });
    await p.selectOption('#speed', '0');
    const h = Number(await p.inputValue('#dt'));
    const mjT = () => p.evaluate(() => window.tumble.runs()[1][1]);
    const deadline = Date.now() + 300000;
    while ((await mjT()) < from && Date.now() < deadline) await p.waitForTimeout(100);
    const [w0, s0] = [Date.now(), await mjT()];
    const ms = [], mjms = [];
    let s1 = s0;
    // (at least WALL_MS of wall time: a fast run passes `to` between two readings)
    while ((s1 < to || Date.now() - w0 < WALL_MS) && Date.now() < deadline) {
      await p.waitForTimeout(500);
      s1 = await mjT();
      const text = await p.locator('#readout').innerText();
      const m = /MuJoCo [\d.]+ x \(([\d.e+-]+) ms a step\)/.exec(text);
      if (m) ms.push(Number(m[1]));
      const own = /MuJoCo's own step takes ([\d.e+-]+) ms/.exec(text);
      if (own) mjms.push(Number(own[1]));
    }
    const w1 = Date.now();
    const tumble = await p.evaluate(() => window.tumble.runs()[0][1]);
    return { h, rate: (s1 - s0) / ((w1 - w0) / 1000), ms: median(ms), mjms: median(mjms), reached: s1, tumble, error: await p.evaluate(() => window.tumble.runs()[1][3]) };
  } finally {
    await p.close();
  }
}

const srv = await serve();
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--enable-unsafe-swiftshader', '--use-angle=swiftshader', '--disable-background-timer-throttling', '--disable-renderer-backgrounding'],
});
const f = (x, d = 3) => (Number.isFinite(x) ? x.toPrecision(d) : '-');
console.log(`load average at the start: ${loadavg().map((x) => x.toFixed(2)).join(', ')}; MuJoCo's t from ${from} to ${to} s`);
console.log('| round | preset | MuJoCo | h (s) | page: MuJoCo x real time | page: readout ms a step (mj_step) | native ms a step | native x real time | page / native rate |');
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (let r = 1; r <= rounds; r++) {
  for (const name of scenarios) {
    for (const integrator of integrators) {
      const pg = await page(browser, srv.base, name, integrator);
      const nat = native(name, integrator, pg.h);
      const natRate = pg.h / (nat / 1000);
      const note = pg.error ? ` (MuJoCo stopped: ${pg.error.slice(0, 60)})` : pg.reached < to ? ` (reached ${pg.reached.toFixed(2)} s)` : '';
      console.log(`| ${r} | ${name} | ${integrator} | ${pg.h} | ${f(pg.rate)}${note} | ${f(pg.ms)} (${f(pg.mjms)}) | ${f(nat)} | ${f(natRate)} | ${f(pg.rate / natRate, 2)} |`);
    }
  }
}
console.log(`load average at the end: ${loadavg().map((x) => x.toFixed(2)).join(', ')}`);
await browser.close();
await srv.close?.();
process.exit(0);
