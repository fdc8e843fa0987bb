// Names between MuJoCo and Tumble: a model's body and joint names become the
// systems' `name` fields (www/mujoco/mjcf-names.js), characters a Tumble name does not take as
// _, names that do not fit dropped, each with a note; the page's rule for a name (validName)
// agrees with the solver's (crates/tumble/src/names.rs, through the wasm module's check); and
// a named system written as MJCF and read back keeps its names (MuJoCo's <custom> texts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { initSync, check_scenario } from '../../www/pkg/tumble_wasm.js';
import { toMjcf } from '../../www/mujoco/mjcf.js';
import { mujoco, convert } from './mjcf-convert.mjs';
import { validName, sanitizeName } from '../../www/mujoco/mjcf-names.js';

initSync({ module: readFileSync(new URL('../../www/pkg/tumble_wasm_bg.wasm', import.meta.url)) });


const LONG = 'l'.repeat(70);
// a chain of three hinged boxes: an arm with MuJoCo names Tumble does not take as they are
const ARM = `<mujoco><worldbody>
  <body name="upper arm" pos="0 0 -0.5"><joint name="shoulder" type="hinge" axis="1 0 0" pos="0 0 0.5"/><geom type="box" size="0.05 0.05 0.5" mass="1" contype="0" conaffinity="0"/>
    <body name="fore[arm]" pos="0 0 -1"><joint name="elbow&lt;1&gt;" type="hinge" axis="1 0 0" pos="0 0 0.5"/><geom type="box" size="0.05 0.05 0.5" mass="1" contype="0" conaffinity="0"/>
      <body name="fore(arm)" pos="0 0 -1"><joint name="${LONG}" type="hinge" axis="1 0 0" pos="0 0 0.5"/><geom type="box" size="0.05 0.05 0.5" mass="1" contype="0" conaffinity="0"/></body>
    </body>
  </body>
</worldbody></mujoco>`;

test('MuJoCo names become Tumble names: sanitised, too long or repeated ones dropped with a note', () => {
  const { system, notes } = convert(ARM);
  assert.deepEqual(system.bodies.map((b) => b.name), ['upper arm', 'fore_arm_', undefined]);
  assert.deepEqual(system.joints.map((j) => j.name), ['shoulder', 'elbow_1_', undefined]);
  assert.deepEqual(notes, [
    "body 'fore[arm]': named 'fore_arm_' in Tumble (a name takes letters, digits, spaces and _-.:/)",
    "body 'fore(arm)': its name 'fore_arm_' is an earlier element's too in Tumble: left unnamed",
    "joint 'elbow<1>': named 'elbow_1_' in Tumble (a name takes letters, digits, spaces and _-.:/)",
    `joint '${LONG}': its name is longer than 64 characters: left unnamed in Tumble`,
  ]);
  // the solver takes the system, and its JSON keeps the names
  const r = check_scenario(JSON.stringify(system));
  assert.equal(r.ok, true, r.message);
  const back = JSON.parse(r.canonical);
  assert.deepEqual(back.joints.map((j) => j.name), ['shoulder', 'elbow_1_', undefined]);
});

test('the page\'s rule for a name is the solver\'s', () => {
  const cases = ['a', 'upper arm', 'a_b-c.d:e/f 9', 'é'.repeat(64), 'Ω2', 'x'.repeat(64), // valid
    '', 'x'.repeat(65), '<b>x</b>', 'a;b', 'tab\there', 'quote"', 'new\nline', '\u202eevil', 'a\\b'];
  for (const name of cases) {
    const sys = { bodies: [{ mass: 1, inertia: [1, 1, 1], name }] };
    const r = check_scenario(JSON.stringify(sys));
    assert.equal(validName(name), r.ok, `${JSON.stringify(name)}: ${r.message}`);
    if (!r.ok) assert.match(r.message, /^bodies\[0\]\.name must be 1 to 64 characters of letters, digits, spaces and _-\.:\/, not "/);
    // a sanitised name of at most 64 characters is always valid
    if (name && [...name].length <= 64) assert.ok(validName(sanitizeName(name)), sanitizeName(name));
  }
});

test('a named system written as MJCF and read back keeps its body and joint names', () => {
  const text = JSON.stringify({
    bodies: [
      { name: 'upper arm', mass: 1, inertia: [0.1, 0.1, 0.01], position: [0, 0, -0.5] },
      { mass: 1, inertia: [0.1, 0.1, 0.01], position: [0, 0, -1.5] },
      { name: 'hand: "left"/2', mass: 1, inertia: [0.1, 0.1, 0.01], position: [0, 0, -2.5] },
    ],
    joints: [
      { name: 'shoulder', type: 'revolute', b: 0, point_b: [0, 0, 0.5] },
      { type: 'spherical', a: 0, point_a: [0, 0, -0.5], b: 1, point_b: [0, 0, 0.5] },
      { name: 'wrist', type: 'fixed', a: 1, point_a: [0, 0, -0.5], b: 2, point_b: [0, 0, 0.5] },
    ],
  });
  // the quote is no name character: the solver refuses it, and the page never writes it
  assert.equal(check_scenario(text).ok, false);
  const sys = JSON.parse(text.replace('hand: \\"left\\"/2', 'hand: left/2'));
  assert.equal(check_scenario(JSON.stringify(sys)).ok, true);
  const { xml } = toMjcf(sys);
  assert.match(xml, /<text name="tumble:body:0" data="upper arm"\/>/);
  assert.match(xml, /<body name="b0" /); // MuJoCo's names stay Tumble's order
  const { system } = convert(xml);
  assert.deepEqual(system.bodies.map((b) => b.name), ['upper arm', undefined, 'hand: left/2']);
  // the weld has no MuJoCo joint (its body is jointless), so its name does not come back
  assert.deepEqual(system.joints.map((j) => [j.type, j.name]), [['revolute', 'shoulder'], ['spherical', undefined], ['fixed', undefined]]);
  // an MJCF attribute's markup is escaped: a name can hold none, but toMjcf escapes what it writes
  const odd = toMjcf({ ...sys, bodies: sys.bodies.map((b, i) => (i === 1 ? { ...b, name: 'a<b>&"c' } : b)) }).xml;
  assert.match(odd, /data="a&lt;b&gt;&amp;&quot;c"/);
});
