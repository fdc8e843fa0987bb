// Contact and joint limits written for MuJoCo (www/mujoco/to-mjcf-contact.js), run by MuJoCo's
// own wasm build (@mujoco/mujoco) under Node, against closed forms: the bouncing ball rebounds
// at the restitution asked, the box slides down the incline at g (sin a - mu cos a), the
// pendulum stops at its stop as the rod's own equation says; a stop goes to MuJoCo and back with
// its stiffness; and the filters and loop exclusions are written as MuJoCo's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { initSync, scenario_json } from '../../www/pkg/tumble_wasm.js';
import * as mjcf from '../../www/mujoco/mjcf.js';
import { toMjcf, compileMjcf, loadMujoco } from '../../www/mujoco/mjcf.js';
import { dampratioOfRestitution as dampingRatio } from '../../www/mujoco/mjcf.js';
import { solref } from '../../www/mujoco/to-mjcf-contact.js';

initSync({ module: readFileSync(new URL('../../www/pkg/tumble_wasm_bg.wasm', import.meta.url)) });
const mujoco = await loadMujoco();

/** Run preset `name` in MuJoCo from its exported MJCF, calling `each(data, t)` after every
 * step until it returns something other than undefined (or `seconds` pass): that value. */
function run(name, seconds, each, options = {}) {
  const { xml } = toMjcf(JSON.parse(scenario_json(name)), options);
  const model = compileMjcf(mujoco, xml);
  const data = new mujoco.MjData(model);
  try {
    mujoco.mj_resetDataKeyframe(model, data, 0);
    const h = model.opt.timestep;
    for (let i = 1; i <= Math.round(seconds / h); i++) {
      mujoco.mj_step(model, data);
      const r = each(data, i * h);
      if (r !== undefined) return r;
    }
    return undefined;
  } finally {
    data.delete();
    model.delete();
  }
}

test('the damping ratio for a restitution, the force kept from pulling: critical damping rebounds at exp(-2)', () => {
  // x = t exp(-t) (w = 1, z = 1): the force x + 2 x' = exp(-t) (2 - t) is zero at t = 2, where
  // x' = -exp(-2): the closed form
  assert.ok(Math.abs(dampingRatio(Math.exp(-2)) - 1) < 1e-4, String(dampingRatio(Math.exp(-2))));
  assert.equal(dampingRatio(1), 0);
  // larger damping, smaller rebound
  assert.ok(dampingRatio(0.2) > dampingRatio(0.5) && dampingRatio(0.5) > dampingRatio(0.9));
});

test('MuJoCo bounces the exported ball at the restitution asked (1 %)', () => {
  for (const e of [0.5, 0.8, 0.95, 1]) {
    let vin = null, prev = 0;
    const out = run(`bouncing-ball?restitution=${e}`, 2, (data) => {
      if (data.ncon > 0 && vin === null) vin = prev;
      if (vin !== null && data.ncon === 0) return { vout: data.qvel[2], vin };
      prev = data.qvel[2];
      return undefined;
    });
    assert.ok(out, `e = ${e}: no bounce in 2 s`);
    const measured = -out.vout / out.vin;
    assert.ok(Math.abs(measured - e) <= 0.01 * e, `e = ${e}: MuJoCo rebounds at ${measured}`);
  }
});

test('MuJoCo slides the exported box down the incline at g (sin a - mu cos a) (1 %)', () => {
  const a = 0.6, mu = 0.4, g = 9.81, T = 2;
  let start = null;
  const d = run('incline', T, (data, t) => {
    if (start === null) start = Array.from(data.qpos.slice(0, 3));
    if (t >= T - 1e-9) return Math.hypot(...[0, 1, 2].map((i) => data.qpos[i] - start[i]));
    return undefined;
  });
  const want = g * (Math.sin(a) - mu * Math.cos(a)) * T * T / 2;
  assert.ok(Math.abs(d - want) <= 0.01 * want, `slid ${d} m in ${T} s, closed form ${want} m`);
});

test('MuJoCo stops the exported pendulum as the linear stop says (0.1 %), and it rebounds', () => {
  // stop-pendulum: a rod on a hinge let go at 1.2 rad from hanging, its stop at -0.4 rad (1.6
  // rad below the start). The stop is a linear spring of 10 Hz on the rod's inertia about the
  // hinge with the damping ratio z of e = 0.7, kept from pulling; the export writes it at
  // MuJoCo's least impedance, so MuJoCo's limit is that spring-damper with gravity acting
  // through the impact too (at impedance 0.99 MuJoCo took 99 % of gravity off it). The
  // reference: the rod's own equation, I theta'' = -m g r sin(theta) + the stop's torque,
  // integrated by RK4 at 1e-5 s to its deepest point. MuJoCo's RK4 at 2e-4 s (at the preset's
  // 5 ms, omega h = 0.31, its overshoot is 1.1 % short of it; at 1 ms 0.13 %)
  const sys = JSON.parse(scenario_json('stop-pendulum'));
  const B = sys.bodies[0], r = sys.joints[0].point_b[2];
  const inertia = B.inertia[0] + B.mass * r * r;
  const k = inertia * (2 * Math.PI * 10) ** 2, c = 2 * dampingRatio(0.7) * Math.sqrt(k * inertia);
  const acc = (th, om) => {
    const x = -1.6 - (th - 1.2); // depth past the stop at 1.6 rad below the start (theta = -0.4)
    const stop = x > 0 ? Math.max(0, k * x - c * om) : 0;
    return (-B.mass * 9.81 * r * Math.sin(th) + stop) / inertia;
  };
  let [th, om] = [1.2, 0];
  const dt = 1e-5;
  for (let t = 0; t < 3 && !(th < -0.4 && om >= 0); t += dt) {
    const k1 = [om, acc(th, om)], k2 = [om + dt / 2 * k1[1], acc(th + dt / 2 * k1[0], om + dt / 2 * k1[1])];
    const k3 = [om + dt / 2 * k2[1], acc(th + dt / 2 * k2[0], om + dt / 2 * k2[1])];
    const k4 = [om + dt * k3[1], acc(th + dt * k3[0], om + dt * k3[1])];
    th += dt / 6 * (k1[0] + 2 * k2[0] + 2 * k3[0] + k4[0]);
    om += dt / 6 * (k1[1] + 2 * k2[1] + 2 * k3[1] + k4[1]);
  }
  const want = -0.4 - th;
  let least = Infinity, back = false;
  run('stop-pendulum', 3, (data) => {
    least = Math.min(least, data.qpos[0]);
    if (least < -1.5 && data.qpos[0] > least + 0.3) back = true;
    return undefined;
  }, { integrator: 'RK4', timestep: 2e-4 });
  const over = -1.6 - least;
  console.log(`# overshoot past the stop: MuJoCo ${over.toFixed(5)} rad, the rod's equation ${want.toFixed(5)} rad`);
  assert.ok(Math.abs(over - want) <= 1e-3 * want, `overshoot ${over} rad past the stop, the rod's equation ${want} rad`);
  assert.ok(back, 'no rebound from the stop');
});

test('filters, joined bodies and limits are written as MuJoCo elements', () => {
  const sys = {
    gravity: [0, 0, -9.81], dt: 0.001,
    bodies: [0, 1, 2].map((i) => ({ mass: 1, inertia: [0.01, 0.01, 0.01], position: [i * 0.3, 0, 1],
      shapes: [{ type: 'sphere', radius: 0.1, group: 2, mask: 4 }] })),
    joints: [
      { type: 'revolute', a: null, b: 0, point_a: [0, 0, 1], point_b: [0, 0, 0], axis_a: [0, 1, 0], axis_b: [0, 1, 0] },
      { type: 'revolute', a: 0, b: 1, point_a: [0.15, 0, 0], point_b: [-0.15, 0, 0], axis_a: [0, 1, 0], axis_b: [0, 1, 0] },
      { type: 'revolute', a: 1, b: 2, point_a: [0.15, 0, 0], point_b: [-0.15, 0, 0], axis_a: [0, 1, 0], axis_b: [0, 1, 0] },
      { type: 'spherical', a: 0, b: 2, point_a: [0.6, 0, 0], point_b: [0, 0, 0] },
    ],
    forces: [{ type: 'joint_limit', joint: 1, lower: -0.5, upper: 0.25 }],
    contact: { ground: true },
  };
  const { xml } = toMjcf(sys);
  assert.match(xml, /name="b1s0" type="sphere" size="0\.1"[^>]* contype="2" conaffinity="4"/);
  assert.match(xml, /<exclude body1="b2" body2="b0"\/>/, 'the loop-closing joint keeps its bodies apart');
  assert.match(xml, /<joint name="j1" type="hinge"[^>]* limited="true" range="-0\.5 0\.25"/);
  assert.match(xml, /<geom name="plane0" type="plane"[^>]* zaxis="0 0 1"/);
  assert.match(xml, /<flag contact="enable"/);
  const model = compileMjcf(mujoco, xml);
  assert.equal(model.ngeom, 3 + 1); // the spheres and the ground
  assert.deepEqual(Array.from(model.geom_contype), [1, 2, 2, 2]);
  model.delete();
});

test('round trip through MuJoCo keeps shapes, restitutions and joint limits (the export and the import are inverse)', () => {
  const { fromMjModel } = mjcf;
  for (const name of ['bouncing-ball', 'incline', 'newtons-cradle', 'stop-pendulum']) {
    const sys = JSON.parse(scenario_json(name));
    const model = compileMjcf(mujoco, toMjcf(sys).xml);
    const { system: back } = fromMjModel(mujoco, model);
    model.delete();
    sys.bodies.forEach((b, i) => (b.shapes ?? []).forEach((s, k) => {
      const t = back.bodies[i].shapes[k];
      assert.equal(t.type, s.type, `${name} body ${i}`);
      assert.deepEqual(t.radius ?? t.half, s.radius ?? s.half, `${name} body ${i}`);
      assert.ok(Math.abs(t.material.restitution - s.material.restitution) < 1e-12, `${name}: e ${t.material.restitution} for ${s.material.restitution}`);
    }));
    for (const f of (sys.forces ?? []).filter((x) => x.type === 'joint_limit')) {
      const g = back.forces.find((x) => x.type === 'joint_limit' && x.joint === f.joint);
      assert.ok(g && Math.abs(g.lower - f.lower) < 1e-12 && Math.abs(g.upper - f.upper) < 1e-12 && Math.abs(g.restitution - f.restitution) < 1e-12, `${name}: ${JSON.stringify(g)}`);
      // the stiffness too, to MuJoCo's least impedance (1e-4): Tumble's default stop rings at
      // 10 Hz on body b's moment about the hinge through the joint's point (parallel axes)
      const j = sys.joints[f.joint], B = sys.bodies[j.b], r = j.point_b;
      const n = j.axis_b.map((c) => c / Math.hypot(...j.axis_b));
      const along = r[0] * n[0] + r[1] * n[1] + r[2] * n[2];
      const moment = B.inertia.reduce((m, c, i) => m + c * n[i] * n[i], 0) + B.mass * (r[0] ** 2 + r[1] ** 2 + r[2] ** 2 - along * along);
      const k = f.stiffness || moment * (2 * Math.PI * 10) ** 2;
      assert.ok(Math.abs(g.stiffness / k - 1) < 2e-4, `${name}: stiffness ${g.stiffness} back for ${k}`);
    }
  }
});

test('a stop stiffer than MuJoCo takes stably at the step is written at 1 / (2 h), with a note; MuJoCo then rests on it where the stiffer one blew up', () => {
  // the suite's cheetah came in with stops ringing at 125 rad/s; exported for Euler at h = 0.01
  // (b h = 2.5 at e = 0.135: Euler's damping unstable) it hopped off its feet. Here a rod pressed
  // onto its stop by gravity, its stop at 125 rad/s on its inertia about the hinge
  const sys = JSON.parse(scenario_json('stop-pendulum'));
  const B = sys.bodies[0], inertia = B.inertia[0] + B.mass * 0.25;
  sys.forces[0] = { type: 'joint_limit', joint: 0, lower: -0.01, upper: 2 * Math.PI, restitution: 0.135, stiffness: inertia * 125 * 125 };
  const { xml, notes } = toMjcf(sys, { integrator: 'Euler', timestep: 0.01 });
  assert.deepEqual(notes, ['1 stop (joint, tendon or rope limits) rings faster than MuJoCo takes stably at this step: written at 1 / (2 h) = 50 rad/s (MuJoCo\'s own bound, timeconst >= 2 h), softer than Tumble\'s']);
  assert.equal(xml.match(/solreflimit="([^"]+)"/)[1], solref(50, 0.135));
  const range = (text) => {
    const model = compileMjcf(mujoco, text), data = new mujoco.MjData(model);
    try {
      mujoco.mj_resetDataKeyframe(model, data, 0);
      let lo = Infinity, hi = -Infinity;
      for (let i = 0; i < 300; i++) {
        mujoco.mj_step(model, data);
        lo = Math.min(lo, data.qpos[0]);
        hi = Math.max(hi, data.qpos[0]);
      }
      return [lo, hi];
    } finally {
      data.delete();
      model.delete();
    }
  };
  // resting: within 5 mrad of the stop at -0.01 rad (gravity's torque over the stop's stiffness
  // at 50 rad/s: 5.5 mrad)
  const [lo, hi] = range(xml);
  assert.ok(lo > -0.016 && hi < 0, `the rod moved over ${lo} to ${hi} rad`);
  // the same stop at its own 125 rad/s
  const [lo2, hi2] = range(xml.replace(/solreflimit="[^"]+"/, `solreflimit="${solref(125, 0.135)}"`));
  assert.ok(!(lo2 > -1 && hi2 < 1), `at 125 rad/s the rod stayed within ${lo2} to ${hi2} rad`);
  // at a step where MuJoCo takes it, the stop keeps its frequency
  const fine = toMjcf(sys, { integrator: 'Euler', timestep: 0.002 });
  assert.deepEqual(fine.notes, []);
  assert.equal(fine.xml.match(/solreflimit="([^"]+)"/)[1], solref(125, 0.135));
});

test('MuJoCo meets two geoms of different restitution at the smaller, as Tumble does (its direct solref taken element by element as the smaller)', () => {
  // a ball of e = 0.9 on a floor of e = 0.3, then the other way round: the pair's solref is the
  // one of e = 0.3 either way
  for (const [ball, floor] of [[0.9, 0.3], [0.3, 0.9]]) {
    const sys = { gravity: [0, 0, -9.81], dt: 0.001, bodies: [{ mass: 1, inertia: [0.004, 0.004, 0.004], position: [0, 0, 0.099], shapes: [{ type: 'sphere', radius: 0.1, material: { restitution: ball } }] }],
      contact: { planes: [{ point: [0, 0, 0], normal: [0, 0, 1], material: { restitution: floor } }] } };
    const { xml, notes } = toMjcf(sys);
    assert.deepEqual(notes, []);
    const model = compileMjcf(mujoco, xml), data = new mujoco.MjData(model);
    try {
      mujoco.mj_resetDataKeyframe(model, data, 0);
      mujoco.mj_forward(model, data);
      assert.equal(data.ncon, 1);
      const c = data.contact.get(0);
      assert.equal(solref(500, 0.3), Array.from(c.solref).map(String).join(' '));
      c.delete?.();
    } finally {
      data.delete();
      model.delete();
    }
  }
});
