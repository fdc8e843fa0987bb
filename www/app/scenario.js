// scenario.js: the full page's scenario and parameter controls: the scenario menu and its
// parameters, the integrator, the step and the solver settings, compare, the joint axes and the
// Joint menu, the step advice and the JSON editor (editor.js, loaded on first use).
import * as wasm from '../pkg/tumble_wasm.js';
import { LABEL } from '../shared/names.js';
import { $, app, showError, stoppedText, isCustom, splitScenario, scenarioJson, keepLink, applyCustom, keptSentence, restart, restartAndPlay, onLoaded } from './page.js';
import { openMjcfText } from './mujoco-controls.js';

/** Chart joint `j`'s reaction (the menu follows; the view frames the joint's marker in white). */
export function chartJoint(j) {
  app.player.setJoint(j);
  $('joint-pick').value = String(app.player.joint);
  // the link carries the charted joint (reaction=k), joint 0 by default
  if (app.player.joint) app.settings.joint = app.player.joint; else delete app.settings.joint;
  keepLink();
}

/** The scenario menu shows the preset, or "custom system" (an option made when first needed). */
function showScenarioName() {
  const custom = isCustom(app.settings.scenario);
  if (custom && !$('scenario').querySelector('option[value=custom]')) $('scenario').append(new Option('custom system', 'custom'));
  $('scenario').value = custom ? 'custom' : splitScenario(app.settings.scenario).name;
}

/** The joint frames the view draws ("joint axes"), from the scenario's definition. */
function updateJointFrames() {
  const r = app.player.renderer, text = app.settings.scenario;
  r.jointFrames = $('joint-axes').checked ? new Float64Array(wasm.joint_frames(text)) : null;
  // (the rails, the joints' marks and how each spring is drawn: Player.load, for the element too)
}

/** The editor (editor.js, CodeMirror: loaded on first use) opened on the current scenario's JSON. */
export async function toggleEditor(open = $('editor').hidden) {
  $('edit-json').setAttribute('aria-expanded', String(open));
  if (!open) { $('editor').hidden = true; return; }
  let text;
  try {
    text = scenarioJson();
  } catch (e) {
    showError(`This scenario cannot be edited as JSON: ${e.message}`);
    $('edit-json').setAttribute('aria-expanded', 'false');
    return;
  }
  if (!app.editor) {
    const { ScenarioEditor } = await import('./editor.js');
    // MJCF pasted into the editor opens as a MuJoCo model (openMjcfText)
    const isXml = (text) => text.trimStart().startsWith('<');
    const check = (text) => (isXml(text)
      ? { ok: true, canonical: null, note: "This is XML: Apply opens it as a MuJoCo model (MuJoCo's own compiler reads it)." }
      : wasm.check_scenario(text));
    // (a system that does not start: its message, placed in the text where it can be)
    const apply = async (text, canonical) => {
      if (canonical === null) return openMjcfText(text);
      const why = await applyCustom(text, canonical);
      return why && app.applyProblem ? { ok: false, message: why, ...app.applyProblem } : why;
    };
    // a run that has stopped already when Apply returns (later ones: main.js's onFailure)
    const stopped = () => {
      const failed = app.player.runs.filter((x) => x.error);
      return failed.length ? stoppedText(failed) : null;
    };
    app.editor = new ScenarioEditor($('editor'), { check, apply, stopped, kept: keptSentence, close: () => { toggleEditor(false); $('edit-json').focus(); } });
  }
  $('editor').hidden = false;
  app.editor.load(text);
  app.editorScenario = app.settings.scenario;
  app.editor.focus();
}

const UNIT_IN_HELP = /\(((?:rad|Hz|kg|N|m|s)(?:[ /](?:rad|Hz|kg|N|m|s))*)\)/;

export function buildParams() {
  const { name, values } = splitScenario(app.settings.scenario);
  const preset = app.presets.find((p) => p.name === name);
  const box = $('params');
  box.replaceChildren();
  if (!preset) return;
  for (const q of preset.params) {
    const label = document.createElement('label');
    label.title = q.help;
    // the unit: the first parenthesis made of units ("frequency of the pivot's motion (Hz);
    // upright is stable above ..."), else a trailing one ("number of bodies (1 to 4096)")
    const unit = UNIT_IN_HELP.exec(q.help)?.[1] ?? /\(([^()]+)\)\s*$/.exec(q.help)?.[1];
    label.append(q.key + (unit ? ` (${unit})` : '') + ' ');
    let input;
    if (q.choices.length) {
      input = document.createElement('select');
      for (const c of q.choices) input.append(new Option(c, c));
      input.value = values[q.key] ?? q.choices[0];
    } else {
      input = document.createElement('input');
      input.type = 'number';
      input.inputMode = 'decimal';
      input.min = q.min; input.max = q.max; input.step = q.integer ? 1 : 'any';
      input.value = values[q.key] ?? (q.integer ? q.default : +q.default.toPrecision(6));
    }
    input.dataset.key = q.key;
    input.addEventListener('change', onParamsChange);
    label.append(input);
    box.append(label);
  }
}

function onParamsChange() {
  const name = $('scenario').value;
  const parts = [...$('params').querySelectorAll('[data-key]')].map((el) => `${el.dataset.key}=${el.value}`);
  try {
    app.settings.scenario = wasm.canonical_scenario(parts.length ? `${name}?${parts.join('&')}` : name);
    restartAndPlay();
  } catch (e) {
    showError(e.message);
  }
}

/** Before anything fails: say which integrators on the page the step is beyond, with a
 * button to use a step that suits all. */
function adviseStep() {
  const { beyond, suits } = app.player.stepAdvice();
  const notice = $('notice');
  if (!beyond.length) { notice.hidden = true; return; }
  const h = app.player.run.dt;
  const who = beyond.map(([n, s]) => `${LABEL[n]} (${s} s suits it)`).join(' and ');
  $('notice-text').textContent = `The step h = ${h} s is beyond what ${who} handle${beyond.length > 1 ? '' : 's'} on this scenario: expect ${beyond.length > 1 ? 'them' : 'it'} to fail or to drift far from the true motion.`;
  $('notice-use').textContent = `Use h = ${suits} s`;
  $('notice-use').dataset.dt = suits;
  notice.hidden = false;
}

/** The "Joint" menu: every joint of the scenario, the charted one chosen; hidden without
 * joints. */
function updateJointMenu() {
  const p = app.player, list = app.jointLabels ?? [];
  const menu = $('joint-pick');
  menu.replaceChildren(...list.map((label, j) => new Option(`joint ${j}: ${label}`, String(j))));
  menu.value = String(p.joint);
  $('joint-pick-label').hidden = list.length === 0;
}

/** The "contact forces" checkbox: shown where the bodies carry collision shapes. */
function updateArrows() {
  const on = !!app.player.run.contact;
  $('arrows-label').hidden = !on;
  app.player.setArrows(on && $('arrows').checked); // (the worker computes the forces only then)
}

// after each load: the menus and fields show the run loaded, the joint frames and the Joint
// menu its joints, an open editor the scenario chosen meanwhile, the notice its step
onLoaded(() => {
  const r = app.player.run;
  showScenarioName();
  // a custom system (an MJCF model opened, the editor's) has no preset's parameters: none left
  // shown from the preset before it
  if (isCustom(app.settings.scenario)) $('params').replaceChildren();
  updateJointFrames();
  updateJointMenu();
  updateArrows();
  if (app.editor && !$('editor').hidden && app.editorScenario !== app.settings.scenario) toggleEditor(true); // a preset chosen while it is open
  $('integrator').value = app.settings.integrator;
  $('dt').value = r.dt;
  $('tol').value = app.settings.tol || '';
  [$('alpha').value, $('beta').value] = r.gains;
  $('compare').value = app.settings.compare;
  adviseStep();
});

/** Wire the scenario and parameter controls. */
export function wireScenario() {
  const play = (on) => app.player.setPlaying(on);
  const onChange = (id, f) => $(id).addEventListener('change', f);
  onChange('scenario', () => {
    if ($('scenario').value === 'custom') { showScenarioName(); return; } // only ever shown for the system running
    app.settings.scenario = $('scenario').value; app.settings.dt = 0; delete app.settings.system; buildParams(); restartAndPlay();
  });
  onChange('joint-axes', updateJointFrames);
  $('joint-pick').addEventListener('change', () => chartJoint(Number($('joint-pick').value)));
  $('edit-json').addEventListener('click', () => toggleEditor());
  onChange('integrator', () => {
    const prev = app.settings.integrator;
    app.settings.integrator = $('integrator').value;
    app.settings.dt = 0; // the step that suits the new integrator
    if (app.settings.compare === app.settings.integrator) app.settings.compare = '';
    restart().then((ok) => {
      if (ok) play(true);
      // a failed load goes back to the integrator that ran; a superseded one leaves the choice
      // to the newer load, which used it (app.settings is shared)
      else if (ok === false) { app.settings.integrator = prev; $('integrator').value = prev; }
    });
  });
  onChange('dt', () => {
    const v = Number($('dt').value);
    if (!(v >= 1e-6 && v <= 1)) { showError('The step h must be a number between 1e-6 and 1 s.'); return; }
    app.settings.dt = v;
    restartAndPlay();
  });
  onChange('compare', () => { app.settings.compare = $('compare').value; restartAndPlay(); });
  for (const [id, lo, hi] of [['tol', 1e-14, 1e-3], ['alpha', 0, 1e4], ['beta', 0, 1e4]]) {
    onChange(id, () => {
      const raw = $(id).value.trim();
      const v = Number(raw);
      if (id === 'tol' && raw === '') app.settings.tol = 0;
      else if (!(v >= lo && v <= hi)) { showError(`${id} must be a number between ${lo} and ${hi}.`); return; }
      else app.settings[id] = v;
      restartAndPlay();
    });
  }
  $('notice-use').addEventListener('click', () => { app.settings.dt = Number($('notice-use').dataset.dt); restartAndPlay(); });
}
