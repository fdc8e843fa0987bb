// MuJoCo beside Tumble, timed in one engine and one run: microseconds per step of
// MuJoCo's official wasm build (its RK4) and of Tumble's director (the page's wasm module) on the
// same systems at the same step, in headless Chromium (the browser the page's tests use, serving
// www/ as the page does) and under Node, as the ratio MuJoCo / director. The systems are the
// native peer benchmark's (benches/peers): nk-revolute and chains of 16, 64 and 100 links, each
// at the page's step for the director (0.01 s), MuJoCo given the same model (www/mujoco/mjcf.js) and step.
//
//   node benches/mujoco/bench.mjs [--rounds R] [--engines node,chromium]
//
// Per round, per system: a fresh MuJoCo model and a fresh Tumble Simulation, each timed over N
// steps (N from the size), in turn; the figure is the median over the rounds. Needs the build
// (www/pkg, www/vendor/mujoco).
import { readFileSync, existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { loadavg } from 'node:os';

const root = new URL('../../', import.meta.url).pathname;
const opts = { rounds: '5', engines: 'node,chromium' };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i += 2) {
  const key = argv[i].replace(/^--/, '');
  if (!(key in opts) || i + 1 >= argv.length) {
    console.error('usage: node benches/mujoco/bench.mjs [--rounds R] [--engines node,chromium]');
    process.exit(2);
  }
  opts[key] = argv[i + 1];
}
// (not the 256-link chain of the native peer benchmark: MuJoCo's wasm build cannot read MJCF
// nested more than about 125 bodies deep, mjcf.js MAX_WASM_DEPTH; 100 links instead)
const SCENARIOS = ['nk-revolute', 'chain?links=16', 'chain?links=64', 'chain?links=100'];

/** The timing itself: the same source in both engines (Chromium gets its text). Returns
 * [[scenario, mujoco us/step, director us/step], ...], medians over `rounds`. */
async function timeAll(wasm, mujoco, toMjcf, scenarios, rounds) {
  const median = (a) => { const s = [...a].sort((x, y) => x - y); return s[s.length >> 1]; };
  const out = [];
  for (const sc of scenarios) {
    const system = JSON.parse(wasm.scenario_json(sc));
    const n = system.bodies.length;
    const steps = n <= 4 ? 2000 : n <= 16 ? 1000 : n <= 64 ? 300 : 100;
    const dt = wasm.suitable_dt(sc, 'director');
    const { xml } = toMjcf(system, { integrator: 'RK4', timestep: dt });
    const mj = [], tu = [];
    for (let r = 0; r < rounds; r++) {
      const model = mujoco.MjModel.from_xml_string(xml);
      const data = new mujoco.MjData(model);
      mujoco.mj_resetDataKeyframe(model, data, 0);
      let t0 = performance.now();
      for (let k = 0; k < steps; k++) mujoco.mj_step(model, data);
      mj.push((performance.now() - t0) * 1000 / steps);
      data.delete();
      model.delete();
      const s = new wasm.Simulation(sc, 'director', dt, 0);
      t0 = performance.now();
      const taken = s.step(steps);
      tu.push((performance.now() - t0) * 1000 / steps);
      s.free();
      if (taken !== steps) throw new Error(`${sc}: the director stopped after ${taken} steps`);
    }
    out.push([sc, median(mj), median(tu)]);
  }
  return out;
}

function report(engine, rows) {
  console.log(`\n${engine} (load ${loadavg()[0].toFixed(1)}):`);
  console.log('| system | MuJoCo RK4 us/step | director us/step | MuJoCo / director |');
  console.log('| --- | --- | --- | --- |');
  for (const [sc, mj, tu] of rows) console.log(`| ${sc} | ${mj.toFixed(1)} | ${tu.toFixed(1)} | ${(mj / tu).toFixed(2)} |`);
  // the director at least 1.5x faster than MuJoCo's wasm build at every size
  const met = rows.filter(([, mj, tu]) => mj / tu >= 1.5).length;
  console.log(`Target MuJoCo / director >= 1.5 at every size: ${met === rows.length ? 'MET' : 'MISSED'} (${met} of ${rows.length})`);
}

const engines = opts.engines.split(',');
const rounds = Number(opts.rounds);
if (engines.includes('node')) {
  const wasm = await import(`${root}www/pkg/tumble_wasm.js`);
  wasm.initSync({ module: readFileSync(`${root}www/pkg/tumble_wasm_bg.wasm`) });
  const { loadMujoco, toMjcf } = await import(`${root}www/mujoco/mjcf.js`);
  report('Node ' + process.versions.node, await timeAll(wasm, await loadMujoco(), toMjcf, SCENARIOS, rounds));
}
if (engines.includes('chromium')) {
  const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium';
  if (!existsSync(executablePath)) {
    console.log(`\nchromium: skipped (no browser at ${executablePath})`);
  } else {
    const { serve } = await import(`${root}tests/e2e/harness.mjs`);
    const { chromium } = await import('playwright-core');
    const server = await serve();
    const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
    try {
      const page = await browser.newPage();
      await page.goto(`${server.base}mujoco/mjcf.js`);
      const rows = await page.evaluate(async ([src, base, scenarios, r]) => {
        const wasm = await import(`${base}pkg/tumble_wasm.js`);
        await wasm.default({ module_or_path: `${base}pkg/tumble_wasm_bg.wasm` });
        const { toMjcf } = await import(`${base}mujoco/mjcf.js`);
        const mujoco = await (await import(`${base}vendor/mujoco/mujoco.js`)).default();
        const timeAll = new Function(`return (${src})`)();
        return timeAll(wasm, mujoco, toMjcf, scenarios, r);
      }, [timeAll.toString(), server.base, SCENARIOS, rounds]);
      report(`Chromium ${browser.version()}`, rows);
    } finally {
      await browser.close();
      server.close();
    }
  }
}
