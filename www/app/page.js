// page.js: what the full page's modules share: the element lookup, the page's state (`app`),
// the error panel, downloads and the clipboard, the scenario's names and JSON, and loading the
// settings into the player (restart) with the controls following each load (onLoaded).
// Nothing here wires a control; main.js and the modules beside it do.
import * as wasm from '../pkg/tumble_wasm.js';
import { DEFAULTS, buildQuery, encodeSystem } from '../shared/url.js';
import { renderExplanation } from '../view/explain.js';
import { endSentence, sentences } from '../shared/text.js';
import { LABEL } from '../shared/names.js';

export const $ = (id) => document.getElementById(id);
const errorEl = $('error');

export function showError(msg, actions = '') {
  $('error-text').textContent = msg; // text only, never HTML
  $('error-actions').hidden = !actions;
  $('error-halve').hidden = actions !== 'halve';
  errorEl.hidden = false;
}
/** How the runs `failed` stopped, one sentence each ("The run stopped at t = 0.0100 s: ..."). */
export function stoppedText(failed) {
  const many = app.player.runs.length > 1;
  return failed.map((x) => `${many ? LABEL[x.name] : 'The run'} stopped ${endSentence(x.error)}`).join(' ');
}

export function clearError() {
  errorEl.hidden = true;
  $('error-actions').hidden = true;
  $('error-text').textContent = '';
}

export const app = { player: null, settings: { ...DEFAULTS }, presets: [], summaryAt: 0, view: 'live', study: null };

export function download(name, type, data) {
  const url = URL.createObjectURL(data instanceof Blob ? data : new Blob([data], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Copy `text` to the clipboard and say so on `button` for a moment (a prompt where the
 * clipboard is not available, e.g. on plain http). */
export async function copyText(text, button, done, ask) {
  const label = button.textContent;
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = done;
    setTimeout(() => { button.textContent = label; }, 1500);
  } catch {
    window.prompt(ask, text);
  }
}

export function exportName(ext) {
  const s = app.settings.scenario.replace(/[^a-z0-9=.-]+/gi, '_').slice(0, 60);
  return `tumble-${s}-${app.player.runs.map((x) => x.name).join('-')}.${ext}`;
}

export function splitScenario(text) {
  const [name, query = ''] = text.split('?');
  const values = Object.fromEntries(new URLSearchParams(query));
  return { name, values };
}

export const isCustom = (text) => text.trimStart().startsWith('{');

/** The JSON of scenario `text` (default: the one running): a custom system as it was typed or
 * opened, a preset as the wasm module writes it. */
export function scenarioJson(text = app.settings.scenario) {
  return isCustom(text) && app.customText ? app.customText : wasm.scenario_json(text);
}

/** The address follows the live run (a custom system too large for a link keeps the address it
 * had). */
export function keepLink() {
  if (app.view === 'live' && (!isCustom(app.settings.scenario) || app.settings.system)) history.replaceState(null, '', buildQuery(app.settings, app.embed ? { embed: 1 } : {}));
}

const shows = [];
/** `show()` runs after every load that succeeds: a control that shows the run follows it. */
export function onLoaded(show) {
  shows.push(show);
}

/** What became of the last valid system when a new one was not applied: the player's state,
 * said as it is (a failed load pauses it; applyCustom plays it on when it was playing). */
export const keptSentence = () => (app.player.playing ? 'The last valid system keeps running.' : 'The last valid system is kept, paused.');

/** Run a system from the editor (already checked): its link value is made now (Copy link
 * cannot wait); a failure keeps the last system, playing on if it was playing, and returns why
 * (app.applyProblem: where in `text` the fault is, { line, column }, 0 when nowhere). */
export async function applyCustom(text, canonical) {
  const prev = { ...app.settings };
  const playing = app.player.playing;
  app.applyProblem = null;
  app.settings = { ...app.settings, scenario: canonical, dt: 0 };
  delete app.settings.system;
  app.linkProblem = null;
  try {
    app.settings.system = await encodeSystem(canonical);
  } catch (e) {
    app.linkProblem = e.message;
  }
  app.editorScenario = canonical;
  // the text before the load: the load's joint labels read it (scenarioJson; set after the
  // load, the second of two systems opened in a row had the first one's joints in its menu)
  const prevText = app.customText;
  app.customText = text;
  // (a load superseded by a newer one ran these settings all the same: app.settings is shared)
  if ((await restartAndPlay()) !== false) {
    return app.linkProblem ? `Applied; but Copy link cannot carry it: ${app.linkProblem}` : null;
  }
  app.customText = prevText;
  // (a load that failed changed nothing but paused the run)
  const why = wasm.locate_problem(text, $('error-text').textContent);
  app.settings = prev;
  if (playing) app.player.setPlaying(true);
  app.applyProblem = { line: why.line, column: why.column };
  return sentences(`Not applied: ${why.message}`, keptSentence());
}

/** Each joint of scenario `text` described for people: "revolute, ground – body 0", or with
 * its name "elbow (revolute, body 1 – body 2)" (the labels go into the page as text only). */
function describeJoints(text) {
  try {
    const json = JSON.parse(scenarioJson(text));
    return (json.joints ?? []).map((j) => {
      const what = `${j.type}, ${j.a == null ? 'ground' : `body ${j.a}`} \u2013 body ${j.b}`;
      return typeof j.name === 'string' ? `${j.name} (${what})` : what;
    });
  } catch {
    return [];
  }
}

/** Load app.settings into the player, paused at t = 0: true when loaded, false when the load
 * failed (the error is shown), null when a newer load replaced it before it finished (that one
 * decides). */
export async function restart() {
  try {
    // a new scenario charts its joint 0; a reset keeps the joint chosen
    if (app.jointScenario !== app.settings.scenario) {
      app.player.joint = 0;
      if (app.jointScenario !== undefined) delete app.settings.joint; // a link's joint: its own system only
      app.jointScenario = app.settings.scenario;
      app.jointLabels = describeJoints(app.settings.scenario);
    }
    await app.player.load(app.settings);
  } catch (e) {
    if (/superseded/.test(e.message)) return null;
    showError(e.message);
    return false;
  }
  clearError();
  if (app.player.jointNote) { showError(app.player.jointNote); delete app.settings.joint; }
  try {
    app.mechanism = `mechanism: ${wasm.mechanism(app.settings.scenario)}`;
  } catch (e) {
    app.mechanism = `mechanism: ${e.message}`;
  }
  for (const show of shows) show(); // the controls follow the run loaded
  $('run-progress').hidden = app.player.target === null; // a "run to" asked for during the load goes on
  app.summaryAt = 0;
  const model = app.mjcfInfo?.scenario === app.settings.scenario ? app.mjcfInfo : null; // opened from MJCF
  renderExplanation($('explain'), { scenario: app.settings.scenario, integrators: app.player.runs.map((x) => x.name), model });
  keepLink();
  return true;
}

/** After a change of scenario, integrator, step or settings: start over and play (true, false
 * or null as `restart`). */
export async function restartAndPlay() {
  const ok = await restart();
  if (ok) app.player.setPlaying(true);
  return ok;
}
