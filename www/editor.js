// editor.js: the scenario editor ("Edit as JSON"), loaded on first use. CodeMirror 6 (from
// package-lock.json, copied to vendor/cm by scripts/build.sh, bare imports resolved by the
// import map in index.html) gives line numbers, bracket matching, JSON highlighting, undo and
// error marks in a lint gutter. It knows nothing of the page: main.js passes
//   check(text) -> { ok, canonical } | { ok: false, message, path, line, column }  (the wasm module's check_scenario)
//   apply(text, canonical) -> Promise<string | null>   (null when the run restarted; else why not)
// The text is untrusted; every message goes into the page as text, never as HTML.
import { EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter, drawSelection } from '@codemirror/view';
import { EditorState } from '@codemirror/state';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { json } from '@codemirror/lang-json';
import { bracketMatching, syntaxHighlighting, defaultHighlightStyle, indentOnInput } from '@codemirror/language';
import { linter, lintGutter, setDiagnostics } from '@codemirror/lint';

// the schema reference, one row a field: [field, unit, what, limits]
const SCHEMA = [
  ['gravity', 'm/s²', 'gravitational acceleration, global', 'optional, default [0, 0, -9.81]'],
  ['dt', 's', 'time step h', '1e-6 to 1; default 0.01'],
  ['duration', 's', 'length of a run', '0 to 1e6; default 10'],
  ['bodies[i].mass', 'kg', 'mass', '1e-9 to 1e9'],
  ['bodies[i].inertia', 'kg m²', 'principal moments about the centre of mass, along the body axes', 'positive; each less than the sum of the other two'],
  ['bodies[i].size', 'm', 'box sides, for drawing only', 'optional: the box with that inertia'],
  ['bodies[i].position', 'm', 'centre of mass, global', 'default [0, 0, 0]'],
  ['bodies[i].rotation', '', 'rows of the matrix that maps body axes to global axes', 'a proper rotation (RᵀR = I to 1e-9); default identity'],
  ['bodies[i].velocity', 'm/s', 'velocity of the centre of mass, global', 'default zero'],
  ['bodies[i].angular_velocity', 'rad/s', 'angular velocity, body components', 'default zero'],
  ['joints[k].type', '', '"spherical" (3 equations), "revolute" (5), "prismatic" (5: slides along axis_a, no turn), "cylindrical" (4: slides along and turns about axis_a), "universal" (4: Cardan, cross axes axis_a ⟂ axis_b) or "fixed" (6: a weld)', ''],
  ['joints[k].a, .b', '', 'the two bodies by index; a null or absent: the ground', 'a ≠ b; loops allowed (at most 64 loop-closing joints), and each must close at the initial positions'],
  ['joints[k].point_a, .point_b', 'm', 'the joint point relative to each centre of mass, in body axes (global for the ground)', 'must coincide at the start (1e-6)'],
  ['joints[k].axis_a, .axis_b', '', 'revolute, prismatic or cylindrical axis in each body\'s axes (global for the ground); universal: the two cross axes', 'non-zero; default [1, 0, 0] (universal b: [0, 1, 0]); parallel (universal: perpendicular) at the start; none for fixed'],
  ['forces[i].type', '', '"spring", "joint_spring", "slider_spring", "force", "torque" or "motor"', 'optional list'],
  ['spring .a, .b, .point_a, .point_b', 'm', 'spring-damper between two body points (a null: a ground point, global), along the line between them', 'points apart at the start unless rest_length is 0'],
  ['spring .stiffness, .rest_length, .damping', 'N/m, m, N s/m', 'linear spring and damper in the length', '0 to 1e12; default 0'],
  ['joint_spring .joint, .stiffness, .rest_angle, .damping', 'N m/rad, rad, N m s/rad', 'torsional spring and damper on a revolute or cylindrical joint, angle from the start', '0 to 1e12'],
  ['slider_spring .joint, .stiffness, .rest_slide, .damping', 'N/m, m, N s/m', 'linear spring and damper on a prismatic or cylindrical joint\'s slide, from the start', '0 to 1e12'],
  ['force .body, .point, .force, .time', 'm, N', 'a force at a body point (body axes), global direction, scaled by time', 'finite'],
  ['torque .body, .torque, .time', 'N m', 'a torque on a body, global, scaled by time', 'finite'],
  ['motor .joint, .torque, .time', 'N m', 'a torque about a revolute or cylindrical joint\'s axis, on b and the opposite on a, scaled by time', 'finite'],
  ['time.kind', '', 'a function of time: "constant" (value), "linear" (start, rate /s), "sine" (offset, amplitude, frequency Hz, phase rad), "ramp" (value reached smoothly over time s), "ramp_speed" (rate /s reached smoothly over time s)', 'optional, default constant 1; finite, |x| ≤ 1e12, frequency ≤ 1e6 Hz, time > 0'],
  ['drives[i].joint, .type, .time', 'rad or m', 'a prescribed joint coordinate: "angle" (revolute, cylindrical) or "slide" (prismatic, cylindrical), measured from the start', 'f(0) = 0, f\'(0) the rate the bodies start with; one drive per coordinate; must move the mechanism'],
];

const el = (tag, props = {}, ...children) => {
  const e = Object.assign(document.createElement(tag), props);
  e.append(...children);
  return e;
};

function schemaPanel() {
  const table = el('table', { className: 'schema-table' });
  table.append(el('thead', {}, el('tr', {}, ...['field', 'unit', 'meaning', 'limits'].map((h) => el('th', { scope: 'col' }, h)))));
  const body = el('tbody');
  for (const row of SCHEMA) body.append(el('tr', {}, ...row.map((c, i) => (i === 0 ? el('td', {}, el('code', {}, c)) : el('td', {}, c)))));
  table.append(body);
  return el('details', { className: 'schema', id: 'editor-schema' }, el('summary', {}, 'Schema reference'), table,
    el('p', {}, 'Every number finite, of magnitude at most 1e9; 1 to 4096 bodies; unknown fields are rejected; at most 1 MiB. The initial state must satisfy every joint to 1e-6 in position and velocity. Full text: docs/scenarios.md.'));
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
  constructor(host, { check, apply, close }) {
    this.check = check;
    this.applyFn = apply;
    host.replaceChildren();
    const title = el('h2', { id: 'editor-title' }, 'Scenario as JSON');
    this.applyButton = el('button', { type: 'button', id: 'editor-apply', title: 'Validate and run this system (Ctrl+Enter)' }, 'Apply');
    const closeButton = el('button', { type: 'button', id: 'editor-close' }, 'Close');
    this.status = el('p', { id: 'editor-status', className: 'editor-status' });
    this.status.setAttribute('role', 'status');
    this.status.setAttribute('aria-live', 'polite');
    const cm = el('div', { className: 'editor-cm' });
    host.append(el('div', { className: 'editor-head' }, title, this.applyButton, closeButton),
      el('div', { className: 'editor-body' }, cm, el('div', { className: 'editor-side' }, this.status, schemaPanel())));
    host.setAttribute('aria-labelledby', 'editor-title');
    this.applyButton.addEventListener('click', () => this.apply());
    closeButton.addEventListener('click', close);
    const lint = linter((view) => {
      const r = this.check(view.state.doc.toString());
      // the message of Apply (or of loading) stays until the text changes
      if (view.state.doc !== this.said) this.show(r.ok ? r.note ?? 'The text is a valid system: Apply runs it.' : r.message, !r.ok);
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
    const r = this.check(text);
    this.view.dispatch(setDiagnostics(this.view.state, diagnostics(this.view.state.doc, r)));
    if (!r.ok) {
      this.show(`Not applied: ${r.message}. The last valid system keeps running.`, true);
      return false;
    }
    const why = await this.applyFn(text, r.canonical);
    this.show(why ?? 'Applied: the run restarted with this system.', Boolean(why));
    return !why;
  }

  focus() {
    this.view.focus();
  }
}
