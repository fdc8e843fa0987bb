// The invariants by name (www/shared/invariants.js) against the wasm module that writes them:
// the page's order of the fields is the module's `invariant_fields()` (INVARIANT_FIELDS in
// crates/tumble-wasm/src/lib.rs), and the numbers Simulation.invariants and the Evaluator write
// sit where those names say (the energy is the kinetic plus the potential, the time is the
// time, ...), so no reader of an `inv` array depends on a bare index.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { initSync, Simulation, Evaluator, invariant_fields, scenario_json } from '../../www/pkg/tumble_wasm.js';
import { INVARIANT_FIELDS, INV, NINV } from '../../www/shared/invariants.js';

initSync({ module: readFileSync(new URL('../../www/pkg/tumble_wasm_bg.wasm', import.meta.url)) });

test('the page names the invariants in the wasm module\'s order', () => {
  assert.deepEqual([...INVARIANT_FIELDS], invariant_fields());
  assert.equal(NINV, invariant_fields().length);
  invariant_fields().forEach((name, i) => assert.equal(INV[name], i, name));
  assert.deepEqual(Object.keys(INV), invariant_fields());
  assert.ok(Object.isFrozen(INV) && Object.isFrozen(INVARIANT_FIELDS));
  // the momentum components are consecutive (the charts read component c at INV.l1 + c)
  assert.deepEqual([INV.l2, INV.l3], [INV.l1 + 1, INV.l1 + 2]);
});

test('Simulation.invariants writes each number where its name says', () => {
  // a damped, forced system with contact and joints: every field has something to say
  for (const [preset, integrator] of [['ball-pit', 'director'], ['stop-pendulum', 'rattle'], ['governor', 'director'], ['nk-spherical', 'baumgarte']]) {
    const dt = 0.001, steps = 200;
    const s = new Simulation(preset, integrator, dt, 0);
    assert.equal(s.step(steps), steps, `${preset}: ${s.last_error()}`);
    const inv = new Float64Array(NINV);
    s.invariants(inv);
    s.free();
    const what = `${preset} ${integrator}: ${Array.from(inv).join(', ')}`;
    assert.ok(Math.abs(inv[INV.t] - steps * dt) < 1e-12, what);
    assert.equal(inv[INV.energy], inv[INV.kinetic] + inv[INV.potential], what);
    assert.ok(inv[INV.kinetic] >= 0, what);
    assert.ok(Number.isInteger(inv[INV.iterations]) && inv[INV.iterations] >= 0, what);
    for (const f of ['internal_violation', 'joint_violation', 'residual', 'dissipated', 'contact']) assert.ok(inv[INV[f]] >= 0, `${f}: ${what}`);
  }
});

test('the Evaluator (MuJoCo\'s runs) writes each number where its name says', () => {
  // a pendulum at its start with no velocity, handed the caller's time, work, dissipation and
  // iterations: those come back at their names, and T = 0
  const ev = new Evaluator(scenario_json('nk-revolute'));
  const sim = new Simulation('nk-revolute', 'director', 0.001, 0);
  const n = sim.body_count();
  const poses = new Float64Array(12 * n);
  sim.write_poses(poses);
  sim.free();
  const states = new Float64Array(18 * n);
  for (let b = 0; b < n; b++) states.set(poses.subarray(12 * b, 12 * b + 12), 18 * b);
  const inv = new Float64Array(NINV);
  ev.evaluate(0.25, states, 1.5, 0.5, 7, inv);
  const what = Array.from(inv).join(', ');
  assert.equal(inv[INV.t], 0.25, what);
  assert.equal(inv[INV.work], 1.5, what);
  assert.equal(inv[INV.dissipated], 0.5, what);
  assert.equal(inv[INV.iterations], 7, what);
  assert.equal(inv[INV.residual], 0, what);
  assert.equal(inv[INV.kinetic], 0, what);
  assert.equal(inv[INV.energy], inv[INV.kinetic] + inv[INV.potential], what);
  assert.equal(inv[INV.balance], inv[INV.energy] - ev.energy0() - 1.5 + 0.5, what);
  assert.deepEqual([inv[INV.l1], inv[INV.l2], inv[INV.l3]], [0, 0, 0], what);
  ev.free();
});
