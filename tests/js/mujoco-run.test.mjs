// www/mujoco/mujoco-run.js under Node: MuJoCo's run of a Tumble system (the page's "with MuJoCo")
// starts in Tumble's state, writes its poses in Tumble's order and layout (write_poses: per body
// the centre, then R column-major) and its velocities (18 numbers a body: x, R column-major, v,
// omega, world), measures its invariants with Tumble's definitions and keeps time with the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as wasm from '../../www/pkg/tumble_wasm.js';
import { loadMujoco } from '../../www/mujoco/mjcf.js';
import { MujocoRun } from '../../www/mujoco/mujoco-run.js';

wasm.initSync({ module: readFileSync(new URL('../../www/pkg/tumble_wasm_bg.wasm', import.meta.url)) });
const mujoco = await loadMujoco();
const fields = wasm.invariant_fields();
const at = (name) => fields.indexOf(name);
const gap = (a, b) => Math.max(...Array.from(a, (x, i) => Math.abs(x - b[i])));

test("MuJoCo's run starts in Tumble's state: poses, velocities and E0 to 1e-12", () => {
  for (const scenario of ['nk-revolute', 'chain?links=4', 'top', 'four-bar', 'spring-pendulum', 'damped-pendulum', 'flip']) {
    const system = JSON.parse(wasm.scenario_json(scenario));
    const run = new MujocoRun(wasm, mujoco, { scenario, mujoco: 'RK4', dt: 1e-3 });
    const sim = new wasm.Simulation(scenario, 'director', 1e-3, 0);
    try {
      assert.equal(run.n, sim.body_count());
      const poses = new Float64Array(12 * run.n);
      sim.write_poses(poses);
      assert.ok(gap(run.poses, poses) < 1e-12, `${scenario}: poses ${gap(run.poses, poses)}`);
      assert.ok(gap(run.states.filter((_, i) => i % 18 < 12), poses) < 1e-12, `${scenario}: states' poses`);
      system.bodies.forEach((b, k) => {
        const R = b.rotation ?? [[1, 0, 0], [0, 1, 0], [0, 0, 1]], w = b.angular_velocity ?? [0, 0, 0];
        const want = [...(b.velocity ?? [0, 0, 0]), ...R.map((r) => r[0] * w[0] + r[1] * w[1] + r[2] * w[2])]; // v, and omega in world axes
        const got = run.states.slice(18 * k + 12, 18 * k + 18);
        assert.ok(gap(got, want) < 1e-12 * Math.max(1, ...want.map(Math.abs)), `${scenario} body ${k}: ${Array.from(got)} vs ${want}`);
      });
      const inv = new Float64Array(fields.length);
      sim.invariants(inv);
      const e = inv[at('energy')], scale = Math.abs(inv[at('kinetic')]) + Math.abs(inv[at('potential')]);
      assert.ok(Math.abs(run.energy0 - e) <= 1e-12 * Math.max(scale, 1), `${scenario}: E0 ${run.energy0} vs ${e}`);
      assert.deepEqual(run.notes, []);
    } finally {
      run.free();
      sim.free();
    }
  }
});

test("MuJoCo's run keeps time and follows Tumble's: nk-revolute, 1000 steps of 1 ms", () => {
  const run = new MujocoRun(wasm, mujoco, { scenario: 'nk-revolute', mujoco: 'RK4', dt: 1e-3 });
  const sim = new wasm.Simulation('nk-revolute', 'director', 1e-3, 0);
  try {
    assert.equal(run.advance(1000), 1000);
    assert.equal(run.error, null);
    assert.equal(run.steps, 1000);
    assert.ok(Math.abs(run.data.time - 1) < 1e-12, `${run.data.time}`);
    assert.ok(Math.abs(run.inv[at('t')] - 1) < 1e-12);
    sim.step(1000);
    const poses = new Float64Array(12 * run.n);
    sim.write_poses(poses);
    // the director's own error at this step (MuJoCo's RK4 is at 1.7e-12 m: mjcf.test.mjs)
    const d = gap(run.poses, poses);
    console.log(`# nk-revolute at t = 1 s, MujocoRun (RK4) vs the director at h = 1 ms: ${d.toExponential(2)} m; MuJoCo's joint violation ${run.inv[at('joint_violation')].toExponential(1)}, balance ${run.inv[at('balance')].toExponential(1)} J`);
    assert.ok(d < 2e-6, `${d} m`);
    // a tree of hinges: MuJoCo's coordinates hold Tumble's joint equations exactly
    assert.ok(run.inv[at('joint_violation')] < 1e-12);
    assert.ok(Math.abs(run.inv[at('balance')]) < 1e-7, `balance ${run.inv[at('balance')]}`);
  } finally {
    run.free();
    sim.free();
  }
});

test("MuJoCo's run: the same steps give the same state hash; a damper's D counted; a drive kept; a new step", () => {
  const hashes = [0, 1].map(() => {
    const run = new MujocoRun(wasm, mujoco, { scenario: 'four-bar', mujoco: 'implicitfast', dt: 1e-3 });
    run.advance(100);
    const h = run.hash();
    run.free();
    return h;
  });
  assert.equal(hashes[0], hashes[1]);
  assert.match(hashes[0], /^[0-9a-f]{16}$/);
  // damped-pendulum: D grows and E - E0 + D stays near 0 (W, D by the rectangle rule, O(h))
  const run = new MujocoRun(wasm, mujoco, { scenario: 'damped-pendulum', mujoco: 'RK4', dt: 1e-3 });
  try {
    run.advance(1000);
    assert.ok(run.inv[at('dissipated')] > 0.01, `D ${run.inv[at('dissipated')]}`);
    assert.ok(Math.abs(run.inv[at('balance')]) < 1e-4, `balance ${run.inv[at('balance')]}`);
    run.resume(5e-4);
    assert.equal(run.model.opt.timestep, 5e-4);
    run.advance(2);
    assert.ok(Math.abs(run.data.time - 1.001) < 1e-12, `${run.data.time}`);
  } finally {
    run.free();
  }
  const crank = new MujocoRun(wasm, mujoco, { scenario: 'slider-crank', mujoco: 'RK4', dt: 1e-3 });
  assert.deepEqual(crank.notes, []);
  assert.deepEqual(crank.driveUnits, ['rad']);
  crank.free();
});

test("the crane in MuJoCo: its rods are tendons, drawn like Tumble's, the cylinder driven out by 0.5 m in 2 s", () => {
  // the cylinder's tendon equality is the drive's (to-mjcf-drives.js): length + f(t), f a ramp
  // of 0.5 m over 2 s; the rope holds its length; the rods' ends are written like the springs'
  const run = new MujocoRun(wasm, mujoco, { scenario: 'crane', mujoco: 'RK4', dt: 5e-3 });
  const sim = new wasm.Simulation('crane', 'director', 5e-3, 0);
  try {
    assert.deepEqual(run.notes, []);
    assert.equal(run.ns, 2, 'the cylinder and the rope');
    const ends = new Float64Array(12);
    sim.write_springs(ends);
    assert.ok(gap(run.springs, ends) < 1e-12, `rod ends ${Array.from(run.springs)} vs ${Array.from(ends)}`);
    assert.equal(run.advance(400), 400);
    assert.equal(run.error, null);
    const len = (k) => Math.hypot(run.springs[6 * k + 3] - run.springs[6 * k], run.springs[6 * k + 4] - run.springs[6 * k + 1], run.springs[6 * k + 5] - run.springs[6 * k + 2]);
    const [cyl0, rope0] = [0, 1].map((k) => Math.hypot(ends[6 * k + 3] - ends[6 * k], ends[6 * k + 4] - ends[6 * k + 1], ends[6 * k + 5] - ends[6 * k + 2]));
    // MuJoCo's constraints are soft: its rods hold their length to what its solver leaves
    console.log(`# crane in MuJoCo RK4 after 2 s: cylinder ${len(0).toFixed(9)} m (start ${cyl0.toFixed(9)}, driven to ${(cyl0 + 0.5).toFixed(9)}), rope ${len(1).toFixed(9)} m (start ${rope0.toFixed(9)}); joint violation ${run.inv[at('joint_violation')].toExponential(1)} m`);
    assert.ok(Math.abs(len(0) - (cyl0 + 0.5)) < 1e-3 && Math.abs(len(1) - rope0) < 1e-3);
    // and where Tumble's own run has them
    sim.step(400);
    sim.write_springs(ends);
    assert.ok(gap(run.springs, ends) < 5e-3, `rod ends after 2 s ${gap(run.springs, ends)} m from Tumble's`);
  } finally {
    run.free();
    sim.free();
  }
});

test("a sample of MuJoCo's run measures its state without a second mj_forward (no collision detection nor constraint solve again), from the same numbers", () => {
  // the ball pit: at rest an mj_forward costs about as much as an implicitfast step (14 ms of
  // 16 ms here); a sample at every step took it twice
  const run = new MujocoRun(wasm, mujoco, { scenario: 'ball-pit', mujoco: 'implicitfast', dt: 1e-3 });
  try {
    const recorded = [];
    const every = { stride: 1, due: () => 1, record: (r, steps, inv) => recorded.push(Float64Array.from(inv)) };
    const forward = run.mj.mj_forward;
    let forwards = 0;
    run.mj.mj_forward = (...a) => { forwards++; return forward.apply(run.mj, a); };
    try {
      assert.equal(run.advance(200, every, 0), 200);
    } finally {
      run.mj.mj_forward = forward;
    }
    assert.equal(forwards, 0, `${forwards} mj_forward calls in 200 sampled steps`);
    assert.equal(recorded.length, 200);
    assert.deepEqual(recorded[199], run.inv, 'the last sample is the state after the steps');
    // what the measures read (body frames, centres of mass, velocities) is what a whole forward gives, to the bit
    const read = () => ['xipos', 'ximat', 'cvel', 'subtree_com'].map((k) => Array.from(run.data[k]));
    const mine = read();
    run.mj.mj_forward(run.model, run.data);
    assert.deepEqual(mine, read());
    assert.ok(run.mjMsPerStep > 0 && run.mjMsPerStep <= run.msPerStep, `${run.mjMsPerStep} ms of ${run.msPerStep} ms in mj_step`);
  } finally {
    run.free();
  }
});

test("MuJoCo's run with its CG solver: the model's option says CG (Newton, MuJoCo's default, without it), and the four-bar's loop still closes", () => {
  const runs = ['', 'CG'].map((solver) => new MujocoRun(wasm, mujoco, { scenario: 'four-bar', mujoco: 'implicitfast', solver, dt: 1e-3 }));
  try {
    assert.equal(runs[0].model.opt.solver, mujoco.mjtSolver.mjSOL_NEWTON.value);
    assert.equal(runs[1].model.opt.solver, mujoco.mjtSolver.mjSOL_CG.value);
    for (const r of runs) assert.equal(r.advance(500), 500);
    const drift = runs.map((r) => r.inv[at('joint_violation')]);
    assert.ok(drift.every((d) => d < 1e-2), `loop drift ${drift} m`);
  } finally {
    for (const r of runs) r.free();
  }
});

test("MuJoCo's run of a system with tendons on a gimbal's and an offset universal joint's hinges: E0 is Tumble's, and it steps", () => {
  // (a tendon term's angle takes a slot after the elements' own: the evaluator of MuJoCo's
  // states once had room for the elements' only, and panicked on the humanoid)
  const scenario = JSON.stringify({
    gravity: [2, -3, -9.81], dt: 1e-3,
    bodies: [
      { mass: 1.5, inertia: [0.05, 0.06, 0.02], position: [0, 0, -0.4] },
      { mass: 1, inertia: [0.01, 0.02, 0.02], position: [0.05, 0.02, -1.1] },
    ],
    joints: [
      { type: 'gimbal', a: null, b: 0, point_b: [0, 0, 0.4], axis_a: [1, 0, 0], middle: [0, 0, 1], axis_b: [0, 1, 0] },
      { type: 'universal', a: 0, point_a: [0, 0, -0.4], b: 1, point_b: [-0.05, -0.02, 0.26], axis_a: [1, 0, 0], axis_b: [0, 1, 0], offset: -0.04 },
    ],
    tendons: [{ terms: [{ joint: 0, coef: 1 }, { joint: 0, hinge: 2, coef: -0.5 }] }, { terms: [{ joint: 1, hinge: 1, coef: 1 }] }],
    forces: [
      { type: 'tendon_spring', tendon: 0, stiffness: 4, rest_length: 0.2, damping: 0.03 },
      { type: 'tendon_spring', tendon: 1, stiffness: 3, rest_length: -0.3, damping: 0.02 },
    ],
  });
  const run = new MujocoRun(wasm, mujoco, { scenario, mujoco: 'RK4', dt: 1e-3 });
  const sim = new wasm.Simulation(scenario, 'director', 1e-3, 0);
  try {
    const inv = new Float64Array(fields.length);
    sim.invariants(inv);
    const e = inv[at('energy')], scale = Math.abs(inv[at('kinetic')]) + Math.abs(inv[at('potential')]);
    assert.ok(Math.abs(run.energy0 - e) <= 1e-12 * Math.max(scale, 1), `E0 ${run.energy0} vs ${e}`);
    assert.equal(run.advance(500), 500);
    assert.equal(run.error, null);
    assert.ok(Number.isFinite(run.inv[at('energy')]) && run.inv[at('dissipated')] > 0, `${Array.from(run.inv)}`);
  } finally {
    run.free();
    sim.free();
  }
});

test("MuJoCo's RK4 step taken stage by stage (to sum its constraint forces) is MuJoCo's own mj_step to the bit", () => {
  // the bouncing ball's impacts, the cradle's hinges and touching balls, billiard balls rolling and
  // dominoes toppling (free joints turning: the positions are integrated in JS as MuJoCo's
  // mj_integratePos does, quaternions included): the same state hash at every step
  for (const [scenario, steps] of [['bouncing-ball', 4000], ['newtons-cradle', 1500], ['billiards', 1500], ['dominoes', 1500]]) {
    const runs = [0, 1].map(() => new MujocoRun(wasm, mujoco, { scenario, mujoco: 'RK4', dt: 0 }));
    try {
      assert.ok(runs[0].losses?.rk4, `${scenario}: its losses are counted`);
      for (let s = 0; s < steps; s++) {
        runs[0].advance(1);
        mujoco.mj_step(runs[1].model, runs[1].data);
        if (runs[0].hash() !== runs[1].hash()) assert.fail(`${scenario}: the states part at step ${s + 1}`);
      }
    } finally {
      for (const r of runs) r.free();
    }
  }
});

test("MuJoCo beside contact: the energy its contacts take is counted in its D, so its balance is its integrator's error", () => {
  // without the count MuJoCo's |E - E0 - W + D| / max(|E0|, 1 J) was the contacts' whole loss:
  // 0.91 on the bouncing ball at t = 4 s (9.8 J of E0 = 10.79 J), 47 on the incline at 2.5 s
  const cases = [
    ['bouncing-ball', 'RK4', 4, 1e-5], ['bouncing-ball', 'implicitfast', 4, 1e-6], ['bouncing-ball', 'Euler', 4, 1e-6],
    ['incline', 'RK4', 2.5, 3e-3], ['incline', 'implicitfast', 2.5, 0.03], ['stop-pendulum', 'RK4', 5, 3e-4],
    ['newtons-cradle', 'implicitfast', 2, 1e-4],
  ];
  for (const [scenario, integrator, t, bound] of cases) {
    const run = new MujocoRun(wasm, mujoco, { scenario, mujoco: integrator, dt: 0 });
    try {
      const n = Math.round(t / run.h);
      assert.equal(run.advance(n), n);
      const E = run.inv[at('energy')], D = run.inv[at('dissipated')], scale = Math.max(Math.abs(run.energy0), 1);
      const rel = Math.abs(run.inv[at('balance')]) / scale;
      console.log(`# ${scenario} with MuJoCo ${integrator}, t = ${t} s: E0 = ${run.energy0.toFixed(3)} J, E = ${E.toFixed(3)} J, D = ${D.toFixed(3)} J, balance ${rel.toExponential(2)} of max(|E0|, 1 J)`);
      // the run lost energy (E fell by at least 20 times what is left over), and D accounts for it
      assert.ok(run.energy0 - E > 20 * Math.abs(run.inv[at('balance')]), `${scenario}: E ${E} J from ${run.energy0} J`);
      assert.ok(rel < bound, `${scenario} ${integrator}: balance ${rel} of ${scale} J (D = ${D} J)`);
    } finally {
      run.free();
    }
  }
  // a loop closed by MuJoCo's equality constraints: their forces are not losses, and not counted
  const loop = new MujocoRun(wasm, mujoco, { scenario: 'four-bar', mujoco: 'RK4', dt: 1e-3 });
  assert.equal(loop.losses, null);
  loop.free();
});

test("MuJoCo's run that blows up with every number finite stops with a message: RK4 on a light body's stiff damper", () => {
  // a 1 g body on a hinge, 1e-7 kg m^2 about it, with a damper of 0.01 N m s/rad: c / I = 1e5
  // 1/s, so h c / I = 100 at 1 ms, far outside RK4's stability (2.8 on the negative axis);
  // MuJoCo's Euler takes joint dampers implicitly and runs it. (The suite's stacker, whose
  // fingertips are such bodies, drew "1.9e+49" for MuJoCo's balance under RK4.)
  const scenario = JSON.stringify({
    gravity: [0, 0, -9.81],
    bodies: [{ mass: 0.001, inertia: [1e-7, 1e-7, 1e-7], position: [0.01, 0, 0] }],
    joints: [{ type: 'revolute', a: null, point_a: [0, 0, 0], b: 0, point_b: [-0.01, 0, 0], axis_a: [0, 1, 0], axis_b: [0, 1, 0] }],
    forces: [{ type: 'joint_spring', joint: 0, stiffness: 0, rest_angle: 0, damping: 0.01 }],
  });
  const rk4 = new MujocoRun(wasm, mujoco, { scenario, mujoco: 'RK4', dt: 1e-3 });
  try {
    // a step at a time, as the page samples a run's first steps
    for (let k = 0; k < 5 && !rk4.error; k++) rk4.advance(1);
    // stopped within its first steps, while its numbers were still finite (before MuJoCo's own
    // bad-acceleration warning)
    assert.match(rk4.error ?? '', /^at t = 0\.00[1-5]0 s: MuJoCo's run diverged \(E - E0 - W \+ D = \S+ J against an energy of \S+ J\); a smaller time step, or MuJoCo's Euler, implicitfast or implicit integrator .* will help$/);
    assert.ok(rk4.inv.every(Number.isFinite));
    assert.ok(rk4.data.time <= 0.005 + 1e-12, `it ran on to ${rk4.data.time}`);
  } finally {
    rk4.free();
  }
  const euler = new MujocoRun(wasm, mujoco, { scenario, mujoco: 'Euler', dt: 1e-3 });
  try {
    euler.advance(1000);
    assert.equal(euler.error, null);
    // the damper takes what gravity gives: the balance stays within its O(h) of the energies
    assert.ok(Math.abs(euler.inv[at('balance')]) < 1e-2 * Math.max(euler.inv[at('dissipated')], 1e-3), `balance ${euler.inv[at('balance')]}`);
  } finally {
    euler.free();
  }
});

test("MuJoCo's reset on a bad acceleration stops its run, whether it steps one sample at a time or many steps a call", () => {
  // RK4 on a stiff damper (h c / I = 15): MuJoCo's velocity grows some 1e3-fold a step until its
  // acceleration is bad, when MuJoCo resets the state to the start. The warnings are read only at
  // a call's end or where MuJoCo's time went back, so both ways of stepping must stop there.
  const hist = { stride: 1, due(s) { return this.stride - (s % this.stride); }, record() {} };
  for (const [history, per] of [[hist, 1], [null, 50], [hist, 50]]) {
    const run = new MujocoRun(wasm, mujoco, { scenario: 'damped-pendulum?damping=100', mujoco: 'RK4', dt: 0.05 });
    try {
      let done = 0;
      for (let k = 0; k < 200 && !run.error; k++) done += run.advance(per, history);
      assert.match(run.error ?? '', /became unstable \(a bad acceleration; MuJoCo resets it\)/, `per ${per}: ${run.error}`);
      assert.ok(done <= (history ? 5 : 50), `per ${per}: ${done} steps before the stop`);
      assert.equal(run.advance(10, history), 0, 'a stopped run takes no more steps');
    } finally {
      run.free();
    }
  }
});
