// editor.js: the scenario editor ("Edit as JSON"), loaded on first use. CodeMirror 6 (from
// package-lock.json, copied to vendor/cm by scripts/build.sh, bare imports resolved by the
// import map in index.html) gives line numbers, bracket matching, JSON highlighting, undo and
// error marks in a lint gutter. It knows nothing of the page: main.js passes
//   check(text) -> { ok, canonical } | { ok: false, message, path, line, column }  (the wasm module's check_scenario)
//   apply(text, canonical) -> Promise<string | { message, line, column } | null>   (null when the run
//                            restarted; else why not, placed in the text when it can be)
//   kept() -> what became of the last valid system ("... keeps running." or "... is kept, paused.")
// The text is untrusted; every message goes into the page as text, never as HTML.
import { EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter, drawSelection } from '@codemirror/view';
import { EditorState } from '@codemirror/state';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { json } from '@codemirror/lang-json';
import { bracketMatching, syntaxHighlighting, defaultHighlightStyle, indentOnInput } from '@codemirror/language';
import { linter, lintGutter, setDiagnostics } from '@codemirror/lint';
import { sentences } from '../shared/text.js';

// the schema reference (docs/scenarios.md), in groups: [group title, note, rows], one row a
// field: [field, unit, meaning, limits and default]
const SCHEMA = [
  ['System', 'the top level of the JSON object', [
    ['gravity', 'm/s²', 'gravitational acceleration, global', 'optional, default [0, 0, -9.81]'],
    ['dt', 's', 'time step h', '1e-6 to 1; default 0.01'],
    ['duration', 's', 'length of a run', '0 to 1e6; default 10'],
    ['bodies', '', 'the rigid bodies, numbered from 0 in their order', '1 to 4096'],
    ['joints', '', 'the joints, numbered from 0', 'optional; at most 64 of them may close loops'],
    ['forces', '', 'force elements and loads (below)', 'optional'],
    ['drives', '', 'prescribed joint coordinates (below)', 'optional'],
  ]],
  ['Bodies', 'bodies[i]', [
    ['mass', 'kg', 'mass', '1e-9 to 1e9'],
    ['inertia', 'kg m²', 'principal moments about the centre of mass, along the body axes', 'positive; each less than the sum of the other two'],
    ['size', 'm', 'box sides, for drawing only', 'optional: the box with that inertia'],
    ['position', 'm', 'centre of mass, global', 'default [0, 0, 0]'],
    ['rotation', '', 'rows of the matrix that maps body axes to global axes', 'a proper rotation (RᵀR = I to 1e-9); default identity'],
    ['velocity', 'm/s', 'velocity of the centre of mass, global', 'default zero'],
    ['angular_velocity', 'rad/s', 'angular velocity, body components', 'default zero'],
  ]],
  ['Joints', 'joints[k]: type, the two bodies, a point on each; the initial state must satisfy the joint (1e-6 m, 1e-6 rad)', [
    ['type', '', 'one of the ten below', 'required'],
    ['a', '', 'first body by index; null or absent: the ground', 'a ≠ b; loops allowed, closed at the initial positions'],
    ['b', '', 'second body by index', 'required'],
    ['point_a, point_b', 'm', 'the joint point relative to each centre of mass, in body axes (global for the ground)', 'must coincide at the start (1e-6 m; distance: be length apart); default [0, 0, 0]'],
    ['axis_a, axis_b', '', 'the joint axis in each body\'s axes (global for the ground); universal: the two cross axes', 'non-zero; default [1, 0, 0] (universal b: [0, 1, 0]); parallel (universal: perpendicular) at the start'],
    ['"spherical"', '', 'ball joint, 3 equations: the two points coincide; b turns freely about it', 'no axes'],
    ['"revolute"', '', 'hinge, 5 equations: the points coincide and axis_a stays parallel to axis_b; b turns about the axis', 'axes default x1'],
    ['"prismatic"', '', 'slider, 5 equations: b\'s point stays on the line through a\'s point along axis_a, and b keeps its orientation relative to a from the start', 'axes default x1'],
    ['"cylindrical"', '', 'slider and hinge, 4 equations: b\'s point on that line and axis_b parallel to axis_a: b slides along and turns about it', 'axes default x1'],
    ['"universal"', '', 'Cardan joint, 4 equations: the points coincide and the cross axes axis_a (fixed in a) and axis_b (fixed in b) stay perpendicular; with offset d (m), b\'s point stays d from a\'s along axis_a x axis_b (two hinges whose lines pass apart, MuJoCo\'s ankle)', 'a: x1, b: x2 by default; offset default 0'],
    ['"gimbal"', '', 'three hinges through one point (MuJoCo\'s hip: the first about axis_a fixed in a, the middle about `middle`, the last about axis_b fixed in b), 3 equations: the points coincide; its three angles are coordinates for tendons ("hinge": 0, 1, 2)', 'axis_a, middle and axis_b mutually perpendicular at the zero of the middle angle; middle in b\'s axes at the start'],
    ['"planar"', '', 'slides in a plane and turns about its normal (MuJoCo\'s slide, slide, hinge), 3 equations: b\'s point stays in the plane through a\'s point normal to axis_a, and axis_b parallel to axis_a', 'axes: the normal; slides: the two in-plane directions in a\'s axes'],
    ['"planar_slide"', '', 'slides in a plane without turning (MuJoCo\'s two slides), 4 equations: as planar, and b keeps its orientation relative to a from the start', 'as planar'],
    ['"translation"', '', 'moves freely without turning (MuJoCo\'s three slides), 3 equations: b keeps its orientation relative to a from the start; slide 2 is along axis_a', 'axes: slide 2\'s direction; slides: slides 0 and 1'],
    ['slides', '', 'planar, planar_slide and translation only: two directions, in a\'s axes, along which slide 0 and slide 1 of the slider elements are measured', 'perpendicular to axis_a and to each other; default a perpendicular pair'],
    ['"fixed"', '', 'weld, 6 equations: the points coincide and b keeps its orientation relative to a from the start', 'axes refused'],
    ['"distance"', '', 'rod, 1 equation: a massless rod with ball ends keeps the two points length apart (a rope that never slackens, a link, or with a drive a hydraulic cylinder)', 'axes refused'],
    ['length', 'm', 'distance joint only: the rod\'s length', '1e-9 to 1e9; default the points\' distance at the start, which may not be 0'],
    ['coordinates', '', 'names of the joint\'s coordinates in order (planar: slide 0, slide 1, angle; universal and gimbal: its hinges; cylindrical: slide, angle): the Joint coordinates panel and tumble run show them', 'optional; one per coordinate, each a name, none twice'],
  ]],
  ['Force element "spring"', 'forces[i]: a linear spring-damper along the line between two body points', [
    ['a', '', 'first body; null or absent: a ground point', 'a ≠ b'],
    ['point_a', 'm', 'end on a, in a\'s body axes from its centre of mass (global for the ground)', 'magnitude ≤ 1e9; default [0, 0, 0]'],
    ['b', '', 'second body', 'required'],
    ['point_b', 'm', 'end on b, in b\'s body axes from its centre of mass', 'magnitude ≤ 1e9; default [0, 0, 0]'],
    ['stiffness', 'N/m', 'spring constant in the length', '0 to 1e12; default 0'],
    ['rest_length', 'm', 'unstretched length (0: a zero-length pull)', '0 to 1e9; default 0; if not 0, the ends may not coincide at the start'],
    ['damping', 'N s/m', 'damper in the rate of the length', '0 to 1e12; default 0'],
  ]],
  ['Force element "joint_spring"', 'forces[i]: a torsional spring-damper in a hinge', [
    ['joint', '', 'index of a revolute, cylindrical or planar joint', 'required'],
    ['stiffness', 'N m/rad', 'spring constant in the joint angle about axis_a, measured from the start (0 there)', '0 to 1e12; default 0'],
    ['rest_angle', 'rad', 'the angle at which the spring is relaxed', '|x| ≤ 1e6; default 0'],
    ['damping', 'N m s/rad', 'damper in the angle\'s rate', '0 to 1e12; default 0'],
  ]],
  ['Force element "slider_spring"', 'forces[i]: a linear spring-damper along a slider', [
    ['joint', '', 'index of a prismatic, cylindrical, planar or planar_slide joint', 'required'],
    ['slide', '', 'which slide: 0 (along axis_a; a planar joint\'s slides[0]) or 1 (a planar joint\'s slides[1])', 'default 0'],
    ['stiffness', 'N/m', 'spring constant in the slide along axis_a, measured from the start (0 there)', '0 to 1e12; default 0'],
    ['rest_slide', 'm', 'the slide at which the spring is relaxed', '|x| ≤ 1e9; default 0'],
    ['damping', 'N s/m', 'damper in the slide\'s rate', '0 to 1e12; default 0'],
  ]],
  ['Force element "joint_limit"', 'forces[i]: stops on a hinge\'s angle', [
    ['joint', '', 'index of a revolute, cylindrical or planar joint', 'required'],
    ['lower, upper', 'rad', 'the stops, in the angle about axis_a measured from the start (0 there)', 'lower ≤ 0 ≤ upper, lower < upper'],
    ['stiffness', 'N m/rad', 'the stops\' spring', '0 to 1e12; default 0: a stop that rings at 10 Hz on body b'],
    ['restitution', '(ratio)', 'rebound speed over impact speed at a stop', '0.01 to 1; default 0.5'],
  ]],
  ['Force element "slider_limit"', 'forces[i]: stops on a slider\'s slide', [
    ['joint', '', 'index of a prismatic, cylindrical, planar or planar_slide joint', 'required'],
    ['slide', '', 'which slide, as for slider_spring', 'default 0'],
    ['lower, upper', 'm', 'the stops, in the slide along axis_a measured from the start (0 there)', 'lower ≤ 0 ≤ upper, lower < upper'],
    ['stiffness', 'N/m', 'the stops\' spring', '0 to 1e12; default 0: a stop that rings at 10 Hz on body b'],
    ['restitution', '(ratio)', 'rebound speed over impact speed at a stop', '0.01 to 1; default 0.5'],
  ]],
  ['Load "force"', 'forces[i]: a force at a body point, times a function of time', [
    ['body', '', 'the body it acts on', 'required'],
    ['point', 'm', 'where it acts, in the body\'s axes from its centre of mass', 'magnitude ≤ 1e9; default [0, 0, 0]'],
    ['force', 'N', 'the force, global components (fixed direction)', 'required; magnitude ≤ 1e12'],
    ['time', '', 'a time function f(t) that scales it (below)', 'optional, default constant 1'],
  ]],
  ['Load "torque"', 'forces[i]: a torque on a body, times a function of time', [
    ['body', '', 'the body it acts on', 'required'],
    ['torque', 'N m', 'the torque, global components', 'required; magnitude ≤ 1e12'],
    ['time', '', 'a time function f(t) that scales it', 'optional, default constant 1'],
  ]],
  ['Load "motor"', 'forces[i]: a torque in a hinge, times a function of time', [
    ['joint', '', 'index of a revolute, cylindrical or planar joint', 'required'],
    ['torque', 'N m', 'the torque about axis_a, on b, and the opposite on a', 'required; |x| ≤ 1e12'],
    ['time', '', 'a time function f(t) that scales it', 'optional, default constant 1'],
    ['control', '(factor)', 'MuJoCo\'s ctrl: { "value": its start, "range": [lower, upper] }; the torque is multiplied by it, set while the run goes by the page\'s sliders, tumble run --control and a link', 'optional; no time function beside it; value within range'],
  ]],
  ['Load "slider_motor"', 'forces[i]: a force along a slide, times a function of time', [
    ['joint', '', 'index of a prismatic, cylindrical, planar or planar_slide joint', 'required'],
    ['slide', '', 'which slide, as for slider_spring', 'default 0'],
    ['force', 'N', 'the force along the slide on b\'s point, and the opposite on a', 'required; |x| ≤ 1e12'],
    ['time', '', 'a time function f(t) that scales it', 'optional, default constant 1'],
    ['control', '(factor)', 'as for a motor: the force is multiplied by it', 'optional; no time function beside it; value within range'],
  ]],
  ['Tendons', '"tendons": fixed tendons, lengths L = sum coef q of joint coordinates (MuJoCo\'s <tendon><fixed>)', [
    ['terms[j].joint', '', 'the joint whose coordinate the term takes', 'required'],
    ['terms[j].hinge', '', 'which hinge\'s angle (rad): 0; a universal joint\'s 1 (about axis_b), a gimbal\'s 1 (middle) or 2 (axis_b)', 'default 0; not with slide'],
    ['terms[j].slide', '', 'a slide (m) instead of an angle, as for slider_spring', 'optional'],
    ['terms[j].coef', '(per unit)', 'its coefficient in L', 'required; |x| ≤ 1e6; 1 to 32 terms'],
  ]],
  ['Force element "tendon_spring"', 'forces[i]: a spring and damper on a tendon\'s length L, measured from the start', [
    ['tendon', '', 'index into "tendons"', 'required'],
    ['stiffness, damping', '(per unit of L)', 'V = k (L - rest_length)^2 / 2, damping force c dL/dt', '0 to 1e12'],
    ['rest_length', '(unit of L)', 'L at rest, from the start', 'default 0'],
  ]],
  ['Force element "tendon_limit"', 'forces[i]: stops on a tendon\'s length (a gimbal\'s or universal joint\'s hinge through a one-term tendon)', [
    ['tendon', '', 'index into "tendons"', 'required'],
    ['lower, upper', '(unit of L)', 'the bounds, from the start', 'lower ≤ 0 ≤ upper'],
    ['stiffness, restitution', '(per unit of L), (ratio)', 'as for joint_limit, on the tendon\'s inertia', 'default 0 (10 Hz) and 0.5'],
  ]],
  ['Force element "tendon_armature"', 'forces[i]: a rotor inertia on a tendon\'s length (MuJoCo\'s armature of a joint: a one-term tendon over it); the director only', [
    ['tendon', '', 'index into "tendons"', 'required'],
    ['armature', '(mass per unit of L squared)', 'A: kinetic energy A (dL/dt)^2 / 2 beside the bodies\' (kg m^2 on an angle, kg on a slide)', 'required; 0 to 1e12'],
  ]],
  ['Force element "rope"', 'forces[i]: the distance between two body points held at most its length by a stop (MuJoCo\'s limited spatial tendon)', [
    ['a, point_a, b, point_b', 'm', 'the two ends, as for spring', 'a ≠ b; points no further apart at the start than length'],
    ['length', 'm', 'the longest distance; shorter, the rope is slack', 'required; above 0, ≤ 1e9'],
    ['stiffness, restitution', 'N/m, (ratio)', 'as for joint_limit, on the two bodies\' reduced mass', 'default 0 (10 Hz) and 0.5'],
  ]],
  ['Load "tendon_motor"', 'forces[i]: a force along a tendon\'s length (coef F on each coordinate), times a function of time', [
    ['tendon', '', 'index into "tendons"', 'required'],
    ['force', '(per unit of L)', 'the force along L', 'required; |x| ≤ 1e12'],
    ['time, control', '(factor)', 'as for a motor: the force is multiplied by it', 'optional; not both'],
  ]],
  ['Contact', 'bodies[i].shapes and the "contact" section (docs/scenarios.md: Contact)', [
    ['shapes[j].type', '', '"sphere" (radius), "capsule" (radius, half_length along its z), "box" (half) or "mesh" (vertices, faces)', 'required'],
    ['radius, half_length, half', 'm', 'the shape\'s sizes', '1e-6 to 1e6 (half_length from 0)'],
    ['vertices, faces', 'm', 'a mesh: its vertices [[x, y, z], ...] and triangles [[i, j, k], ...] (counter-clockwise from outside); drawn as such; against planes its convex hull\'s corners, against shapes its bounding box', '4 to 100000 vertices, |x| ≤ 1e6 m; 1 to 200000 triangles; at least 2e-6 m across each axis'],
    ['offset, rotation', 'm', 'the shape\'s origin and axes (rows) in the body\'s frame', 'default [0, 0, 0] and identity'],
    ['group, mask', '', 'collision filter: A and B touch when A.group & B.mask or B.group & A.mask is not 0', 'default 1'],
    ['visual', '', 'true: the shape is only drawn and touches nothing (no group, mask or material)', 'default false'],
    ['contact.ground', '', 'true: the plane through the origin, normal against gravity', 'default false'],
    ['contact.planes', 'm', 'half-spaces: a point and an outward normal each', 'optional'],
    ['material: young, poisson', 'Pa', 'Young\'s modulus and Poisson\'s ratio (contact.material, or a shape\'s or plane\'s own)', '1e3 to 1e13 Pa; 0 to 0.5; default 1e7 Pa and 0.45'],
    ['material: restitution, friction, static_friction', '(ratio)', 'e of an impact; kinetic and static friction coefficients', 'e 0.01 to 1 (0.8); mu 0 to 10 (0.5), static ≥ kinetic'],
    ['material: pull', '', 'true: the normal force\'s damping may pull at the end of an impact (the textbook spring-dashpot); a pair pulls where either material does', 'default false: a contact pushes, never pulls'],
    ['contact.collide_joined', '', 'whether bodies joined by a joint touch (bodies welded by fixed joints count as one)', 'default false'],
    ['contact.exclude', '', 'pairs of bodies whose shapes never touch, [[a, b], ...] (MuJoCo\'s <exclude>)', 'body indices from 0; default none'],
  ]],
  ['Names', 'bodies[i].name, joints[k].name, forces[i].name, drives[i].name', [
    ['name', '', 'a label for the element: the Joint menu, the reaction chart and tumble run\'s samples show it', 'optional; 1 to 64 letters, digits, spaces and _-.:/; unique within its list'],
  ]],
  ['Time functions', '"time": {"kind": ..., parameters}; f is a factor (no unit) for a load, an angle (rad) or a slide (m) for a drive; every parameter finite, |x| ≤ 1e12', [
    ['"constant": value', 'f', 'f(t) = value', 'value default 1'],
    ['"linear": start, rate', 'f, f/s', 'f(t) = start + rate t', 'start default 0; rate required'],
    ['"sine": offset, amplitude, frequency, phase', 'f, f, Hz, rad', 'f(t) = offset + amplitude sin(2π frequency t + phase)', 'offset 0, amplitude 1, phase 0 by default; frequency required, 0 to 1e6 Hz; |phase| ≤ 1e6'],
    ['"ramp": value, time', 'f, s', 'rises smoothly from 0 to value over time s: f = value (3x² − 2x³), x = t / time; value after', 'value default 1; time required, 1e-9 to 1e9 s'],
    ['"ramp_speed": rate, time', 'f/s, s', 'f(0) = 0 and its rate rises smoothly from 0 to rate over time s, then stays: for a drive that starts from rest', 'both required; time 1e-9 to 1e9 s'],
  ]],
  ['Drives', 'drives[i]: a joint coordinate prescribed as a function of time (a rheonomic constraint: one row added to the joint; a distance drive turns the rod\'s own row into one)', [
    ['joint', '', 'index of the driven joint', 'required'],
    ['type', 'rad or m', '"angle" (about axis_a; revolute or cylindrical), "slide" (along axis_a; prismatic or cylindrical) or "distance" (the rod\'s length becomes length + f(t); a distance joint: a distance driver)', 'required; one drive per coordinate; a distance must stay above 0 for the whole run'],
    ['time', 'rad or m', 'the coordinate f(t), measured from the start', 'required; f(0) = 0, and f\'(0) the rate the bodies start with; the drives must move the mechanism (its degrees of freedom fall by one each)'],
  ]],
];

const el = (tag, props = {}, ...children) => {
  const e = Object.assign(document.createElement(tag), props);
  e.append(...children);
  return e;
};

function schemaPanel() {
  const table = el('table', { className: 'schema-table' });
  table.append(el('caption', { className: 'visually-hidden' }, 'Fields of a system in JSON: unit, meaning, limits and default'),
    el('thead', {}, el('tr', {}, ...['field', 'unit', 'meaning', 'limits, default'].map((h) => el('th', { scope: 'col' }, h)))));
  for (const [title, note, rows] of SCHEMA) {
    const body = el('tbody');
    const head = el('th', { scope: 'rowgroup', colSpan: 4, className: 'schema-group' }, title, el('span', { className: 'schema-note' }, ` — ${note}`));
    body.append(el('tr', {}, head));
    for (const row of rows) body.append(el('tr', {}, ...row.map((c, i) => (i === 0 ? el('td', {}, el('code', {}, c)) : el('td', {}, c)))));
    table.append(body);
  }
  return el('details', { className: 'schema', id: 'editor-schema' }, el('summary', {}, 'Schema reference'), table,
    el('p', {}, 'Every number finite, of magnitude at most 1e9 (force coefficients, loads and time-function parameters: 1e12); unknown fields are rejected; at most 1 MiB. The initial state must satisfy every joint and drive to 1e-6 in position and velocity. Units: m, kg, s, N, rad. Full text: docs/scenarios.md.'));
}

/** Diagnostics for a check result: an error mark at the line and column it names. */
function diagnostics(doc, r) {
  if (r.ok) return [];
  const n = Math.min(Math.max(r.line || 1, 1), doc.lines);
  const line = doc.line(n);
  const from = Math.min(line.from + Math.max((r.column || 1) - 1, 0), line.to);
  return [{ from, to: from < line.to ? line.to : from, severity: 'error', message: r.message }];
}

export class ScenarioEditor {
  constructor(host, { check, apply, stopped, kept, close }) {
    this.check = check;
    this.kept = kept ?? (() => 'The last valid system is kept.');
    this.applyFn = apply;
    this.stoppedFn = stopped;
    this.applied = false; // the text shown is the system running (until it is edited)
    host.replaceChildren();
    const title = el('h2', { id: 'editor-title' }, 'Scenario as JSON');
    this.applyButton = el('button', { type: 'button', id: 'editor-apply', title: 'Validate and run this system (Ctrl+Enter)' }, 'Apply');
    const closeButton = el('button', { type: 'button', id: 'editor-close' }, 'Close');
    this.status = el('p', { id: 'editor-status', className: 'editor-status' });
    this.status.setAttribute('role', 'status');
    this.status.setAttribute('aria-live', 'polite');
    const cm = el('div', { className: 'editor-cm' });
    host.append(el('div', { className: 'editor-head' }, title, this.applyButton, closeButton),
      el('div', { className: 'editor-body' }, cm, el('div', { className: 'editor-side' }, this.status)),
      // below the editor, the width of the panel: some sixty rows of four columns read well there
      schemaPanel());
    host.setAttribute('aria-labelledby', 'editor-title');
    this.applyButton.addEventListener('click', () => this.apply());
    closeButton.addEventListener('click', close);
    const lint = linter((view) => {
      const r = this.check(view.state.doc.toString());
      // the message of Apply (or of loading) stays until the text changes
      if (view.state.doc !== this.said) this.show(r.ok ? r.note ?? 'The text is a valid system: Apply runs it.' : r.message, !r.ok);
      // (a lint that comes after Apply keeps the mark Apply placed for a system that did not
      // start: the text is valid JSON, so the check alone would clear it)
      if (view.state.doc === this.said && this.placed) return this.placed;
      return diagnostics(view.state.doc, r);
    }, { delay: 400 });
    this.view = new EditorView({
      parent: cm,
      state: EditorState.create({
        doc: '',
        extensions: [
          lineNumbers(), highlightActiveLineGutter(), highlightActiveLine(), drawSelection(), history(), indentOnInput(),
          bracketMatching(), syntaxHighlighting(defaultHighlightStyle), json(), lintGutter(), lint,
          keymap.of([{ key: 'Mod-Enter', run: () => { this.apply(); return true; } }, ...defaultKeymap, ...historyKeymap]),
          // tabindex: the editable text is in the tab order anyway; said, axe-core sees the scroller's keyboard access
          EditorView.contentAttributes.of({ 'aria-label': 'Scenario JSON', 'aria-describedby': 'editor-status', tabindex: '0' }),
          EditorView.lineWrapping,
          EditorView.theme({
            '&': { height: '100%', fontSize: '13px', backgroundColor: '#fff' },
            '.cm-scroller': { fontFamily: 'ui-monospace, "DejaVu Sans Mono", monospace' },
            '.cm-gutters': { color: '#4d5566', backgroundColor: '#f1f3f6' },
          }),
        ],
      }),
    });
  }

  /** Show `text` (the current scenario's JSON), with no marks. */
  load(text) {
    this.view.dispatch({ changes: { from: 0, to: this.view.state.doc.length, insert: text } });
    this.view.dispatch(setDiagnostics(this.view.state, []));
    this.said = this.view.state.doc;
    this.placed = null;
    this.applied = false;
    this.show('Edit the system, then Apply (Ctrl+Enter) to run it. The current run goes on until then.', false);
  }

  text() {
    return this.view.state.doc.toString();
  }

  show(message, bad) {
    this.status.textContent = message;
    this.status.classList.toggle('bad', bad);
  }

  /** Validate; when valid, hand it to the page to run; else mark the line and say why. */
  async apply() {
    const text = this.text();
    this.said = this.view.state.doc;
    this.applied = false;
    this.placed = null;
    const r = this.check(text);
    this.view.dispatch(setDiagnostics(this.view.state, diagnostics(this.view.state.doc, r)));
    if (!r.ok) {
      this.show(sentences(`Not applied: ${r.message}`, this.kept()), true);
      return false;
    }
    let why = await this.applyFn(text, r.canonical);
    if (why && typeof why === 'object') { // a system that did not start, placed in the text
      if (why.line > 0 && this.view.state.doc === this.said) {
        this.placed = diagnostics(this.view.state.doc, why);
        this.view.dispatch(setDiagnostics(this.view.state, this.placed));
      }
      why = why.message;
    }
    this.show(why ?? 'Applied: the run restarted with this system.', Boolean(why));
    this.applied = !why && this.view.state.doc === this.said;
    const stopped = this.applied ? this.stoppedFn?.() : null;
    if (stopped) this.runStopped(stopped);
    return !why;
  }

  /** The run of the system just applied has stopped (`what`: "The run stopped at t = ...: why."):
   * said here, where Apply said it runs, not only in the panel over the view. */
  runStopped(what) {
    if (!this.applied || this.view.state.doc !== this.said) return;
    this.show(sentences(`Applied, but ${what.replace(/^The run/, 'the run')}`, 'Change the system (a smaller step, gentler loads) and Apply again.'), true);
  }

  focus() {
    this.view.focus();
  }
}
