// Compare builds of the wasm module in one Node process: us/step of each (alternating, so that
// all see the same load) and their state hashes after the same steps (a build that changes the
// hash changes the physics' bits: exit status 1).
//
//   node benches/wasm/variants.mjs [--scenarios A,B] [--integrator I] [--rounds R] DIR [DIR ..]
//
// Each DIR is a wasm-bindgen --target web output (tumble_wasm.js + tumble_wasm_bg.wasm), e.g.
// www/pkg and builds of the same source with other flags (benches/README.md says how they
// were made). The first DIR is the reference for the ratios.
import { readFileSync } from 'node:fs';
import { resolve, basename, dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { loadavg } from 'node:os';

const opts = { scenarios: 'nk-revolute,nk-spherical,chain?links=16,chain?links=64,chain?links=256', integrator: 'director', rounds: '7' };
const dirs = [];
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  if (argv[i].startsWith('--')) opts[argv[i].slice(2)] = argv[++i];
  else dirs.push(resolve(argv[i]));
}
if (dirs.length === 0) {
  console.error('usage: node benches/wasm/variants.mjs [--scenarios A,B] [--integrator I] [--rounds R] DIR [DIR ..]');
  process.exit(2);
}
const builds = [];
for (const dir of dirs) {
  const m = await import(pathToFileURL(`${dir}/tumble_wasm.js`).href + `?${builds.length}`);
  m.initSync({ module: readFileSync(`${dir}/tumble_wasm_bg.wasm`) });
  // the column: the directory's name, or its parent's for .../NAME/pkg (www/pkg: 'www')
  builds.push({ name: basename(dir) === 'pkg' ? basename(dirname(dir)) : basename(dir), m });
}
const median = (a) => { const s = [...a].sort((x, y) => x - y); return s[s.length >> 1]; };
const stepsFor = (n) => (n <= 4 ? 1000 : n <= 16 ? 500 : n <= 64 ? 200 : 100);

function run(m, scenario, dt, steps) {
  const s = new m.Simulation(scenario, opts.integrator, dt, 0);
  const t0 = performance.now();
  const taken = s.step(steps);
  const us = (performance.now() - t0) * 1e3 / steps;
  const hash = s.state_hash();
  const err = s.last_error();
  s.free();
  if (taken !== steps) throw new Error(`${scenario}: ${err}`);
  return { us, hash };
}

console.log(`integrator ${opts.integrator}, ${opts.rounds} rounds, load average ${loadavg()[0].toFixed(2)}; us/step median (min), ratio to ${builds[0].name}`);
console.log(['scenario'.padEnd(16), ...builds.map((b) => b.name.padStart(22))].join(' '));
let failed = false;
for (const scenario of opts.scenarios.split(',')) {
  const dt = builds[0].m.suitable_dt(scenario, opts.integrator);
  const probe = new builds[0].m.Simulation(scenario, opts.integrator, dt, 0);
  const steps = stepsFor(probe.body_count());
  probe.free();
  for (const b of builds) for (const t0 = performance.now(); performance.now() - t0 < 400;) run(b.m, scenario, dt, steps); // tier up
  const times = builds.map(() => []);
  const hashes = new Set();
  for (let r = 0; r < Number(opts.rounds); r++) {
    builds.forEach((b, i) => { const x = run(b.m, scenario, dt, steps); times[i].push(x.us); hashes.add(x.hash); });
  }
  const ref = median(times[0]);
  console.log([scenario.padEnd(16), ...times.map((t) =>
    `${median(t).toFixed(2)} (${Math.min(...t).toFixed(2)}) ${(median(t) / ref).toFixed(2)}x`.padStart(22))].join(' ') +
    (hashes.size === 1 ? '  same hash' : `  HASHES DIFFER: ${[...hashes].join(' ')}`));
  if (hashes.size !== 1) failed = true;
}
console.log(`load average now ${loadavg()[0].toFixed(2)}`);
process.exit(failed ? 1 : 0);
