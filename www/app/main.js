// main.js: the full page: wires the controls, the keyboard, the error panel and step advice,
// the scrubber and "run to", share links and exports to the Player (player.js), which runs
// the simulation loop shared with the <tumble-view> element.
import * as wasm from '../pkg/tumble_wasm.js';
import { loadSolver } from '../sim/engine.js';
import { Player } from '../view/player.js';
import { LABEL, MUJOCO } from '../shared/names.js';
import { parseQuery, buildQuery, locationQuery, DEFAULTS, encodeSystem, systemScenario, STUDY_DEFAULTS } from '../shared/url.js';
import { renderExplanation } from '../view/explain.js';
import { attachRecorder } from './record.js';

const $ = (id) => document.getElementById(id);
const errorEl = $('error');
const SUMMARY_EVERY_MS = 5000; // the screen-reader summary is refreshed this often while playing

function showError(msg, actions = '') {
  $('error-text').textContent = msg; // text only, never HTML
  $('error-actions').hidden = !actions;
  $('error-halve').hidden = actions !== 'halve';
  errorEl.hidden = false;
}
function clearError() {
  errorEl.hidden = true;
  $('error-actions').hidden = true;
  $('error-text').textContent = '';
}

const app = { player: null, settings: { ...DEFAULTS }, presets: [], summaryAt: 0, view: 'live', study: null };

function download(name, type, data) {
  const url = URL.createObjectURL(data instanceof Blob ? data : new Blob([data], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Grab and pull: a press on a body in the view (mouse or touch, no modifier key) pulls it
 * towards the pointer with a spring, in the plane through the grabbed point facing the camera,
 * on every run on the page; letting go ends the pull. A press on empty space, or with shift,
 * alt, ctrl or meta held, orbits the camera as before. A tap (press and release within TAP_PX)
 * on a joint's marker, within JOINT_PX of it (a finger: JOINT_TOUCH_PX), charts that joint's
 * reaction; a press there that moves on grabs the body under it, or orbits. */
const TAP_PX = 6, JOINT_PX = 12, JOINT_TOUCH_PX = 24;

/** The joint whose marker is drawn nearest to client point (x, y), within `radius` px, or -1. */
function jointNear(x, y, radius) {
  const p = app.player, r = p.renderer;
  const js = p.scrub ? p.scrub.runs[0].joints : p.run.joints;
  let near = -1, best = radius;
  for (let j = 0; j < js.length / 3; j++) {
    const [sx, sy] = r.toScreen(js[3 * j], js[3 * j + 1], js[3 * j + 2]);
    const d = Math.hypot(sx - x, sy - y);
    if (d < best) { best = d; near = j; }
  }
  return near;
}

/** Chart joint `j`'s reaction (the menu follows; the view frames the joint's marker in white). */
function chartJoint(j) {
  app.player.setJoint(j);
  $('joint-pick').value = String(app.player.joint);
  // the link carries the charted joint (reaction=k), joint 0 by default
  if (app.player.joint) app.settings.joint = app.player.joint; else delete app.settings.joint;
  if (app.view === 'live' && (!isCustom(app.settings.scenario) || app.settings.system)) history.replaceState(null, '', buildQuery(app.settings, app.embed ? { embed: 1 } : {}));
}

function wireGrab(p) {
  const r = p.renderer;
  let plane = null, tap = null;
  const grabAt = (x, y) => {
    if (p.scrub || p.run.error) return false;
    const hit = r.pick(x, y, p.run.poses, p.run.sizes);
    if (!hit) return false;
    plane = { point: hit.hit, normal: hit.forward };
    p.grab(hit.body, hit.point, hit.hit);
    if (!p.playing) p.setPlaying(true);
    return true;
  };
  r.onGrab = (e) => {
    if (!p.run) return false;
    const near = jointNear(e.clientX, e.clientY, e.pointerType === 'touch' ? JOINT_TOUCH_PX : JOINT_PX);
    if (near >= 0) { tap = { joint: near, x: e.clientX, y: e.clientY }; return true; } // a tap, until it moves
    return grabAt(e.clientX, e.clientY);
  };
  r.onDrag = (e) => {
    if (tap) {
      if (Math.hypot(e.clientX - tap.x, e.clientY - tap.y) < TAP_PX) return undefined;
      const { x, y } = tap;
      tap = null;
      if (!grabAt(x, y)) return 'orbit'; // no body under the press: the drag orbits
    }
    const t = plane && r.onPlane(e.clientX, e.clientY, plane.point, plane.normal);
    if (t) p.drag(t);
    return undefined;
  };
  r.onRelease = () => {
    if (tap) { chartJoint(tap.joint); tap = null; return; }
    plane = null;
    p.release();
  };
}

/** Copy `text` to the clipboard and say so on `button` for a moment (a prompt where the
 * clipboard is not available, e.g. on plain http). */
async function copyText(text, button, done, ask) {
  const label = button.textContent;
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = done;
    setTimeout(() => { button.textContent = label; }, 1500);
  } catch {
    window.prompt(ask, text);
  }
}

function exportName(ext) {
  const s = app.settings.scenario.replace(/[^a-z0-9=.-]+/gi, '_').slice(0, 60);
  return `tumble-${s}-${app.player.runs.map((x) => x.name).join('-')}.${ext}`;
}

const escapeAttr = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function splitScenario(text) {
  const [name, query = ''] = text.split('?');
  const values = Object.fromEntries(new URLSearchParams(query));
  return { name, values };
}

/** The plain description of the current scenario (the preset's line, or "custom system"). */
function description() {
  const { name } = splitScenario(app.settings.scenario);
  return app.presets.find((p) => p.name === name)?.description ?? 'a custom system';
}

const isCustom = (text) => text.trimStart().startsWith('{');

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
async function toggleEditor(open = $('editor').hidden) {
  $('edit-json').setAttribute('aria-expanded', String(open));
  if (!open) { $('editor').hidden = true; return; }
  let text;
  try {
    text = isCustom(app.settings.scenario) && app.customText ? app.customText : wasm.scenario_json(app.settings.scenario);
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
    const apply = (text, canonical) => (canonical === null ? openMjcfText(text) : applyCustom(text, canonical));
    app.editor = new ScenarioEditor($('editor'), { check, apply, close: () => { toggleEditor(false); $('edit-json').focus(); } });
  }
  $('editor').hidden = false;
  app.editor.load(text);
  app.editorScenario = app.settings.scenario;
  app.editor.focus();
}

/** Run a system from the editor (already checked): its link value is made now (Copy link
 * cannot wait); a failure leaves the last system running and returns why. */
async function applyCustom(text, canonical) {
  const prev = { ...app.settings };
  app.settings = { ...app.settings, scenario: canonical, dt: 0 };
  delete app.settings.system;
  app.linkProblem = null;
  try {
    app.settings.system = await encodeSystem(canonical);
  } catch (e) {
    app.linkProblem = e.message;
  }
  app.editorScenario = canonical;
  // (a load superseded by a newer one ran these settings all the same: app.settings is shared)
  if ((await restartAndPlay()) !== false) {
    app.customText = text;
    return app.linkProblem ? `Applied; but Copy link cannot carry it: ${app.linkProblem}` : null;
  }
  const why = $('error-text').textContent;
  app.settings = prev;
  return `Not applied: ${why} The last valid system keeps running.`;
}

const UNIT_IN_HELP = /\(((?:rad|Hz|kg|N|m|s)(?:[ /](?:rad|Hz|kg|N|m|s))*)\)/;

function buildParams() {
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

/** Load app.settings into the player, paused at t = 0: true when loaded, false when the load
 * failed (the error is shown), null when a newer load replaced it before it finished (that one
 * decides). */
/** MuJoCo's wasm build into its own worker (started by the simulation's worker), once: fetched from the site (vendor/mujoco,
 * copied from package-lock.json by the build), its size and progress in the status line. True
 * when it runs; false (and why, in the status line) when it cannot load. */
async function startMujoco() {
  if (app.mujocoReady) return true;
  const status = $('mujoco-status');
  const mb = (n) => `${(n / 1048576).toFixed(1)} MB`;
  try {
    const t0 = performance.now();
    const url = new URL('vendor/mujoco/mujoco.wasm', location.href);
    const res = await fetch(url);
    if (!res.ok) throw new Error(`${url.pathname} answered ${res.status}`);
    const total = Number(res.headers.get('content-length')) || 0;
    const parts = [];
    let got = 0;
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      got += value.length;
      status.textContent = `Loading MuJoCo: ${mb(got)}${total ? ` of ${mb(total)}` : ''}\u2026`;
    }
    const bytes = new Uint8Array(got);
    let at = 0;
    for (const p of parts) { bytes.set(p, at); at += p.length; }
    status.textContent = `Starting MuJoCo (${mb(got)})\u2026`;
    const engine = await app.player.engine;
    const reply = await engine.request({ type: 'mujoco-load', url: new URL('vendor/mujoco/mujoco.js', location.href).href, bytes }, [bytes.buffer]);
    if (reply.type === 'error') throw new Error(reply.message);
    app.mujocoReady = true;
    app.mujocoLoaded = `MuJoCo 3.14.0 loaded: ${mb(got)} in ${((performance.now() - t0) / 1000).toFixed(1)} s.`;
    status.textContent = app.mujocoLoaded;
    return true;
  } catch (e) {
    status.textContent = `MuJoCo could not load here: ${e.message}`;
    return false;
  }
}

/** The current system as an MJCF file (mjcf.js; MuJoCo itself is not needed for this). */
async function exportMjcf() {
  try {
    const { toMjcf } = await import('../mujoco/mjcf.js');
    const text = isCustom(app.settings.scenario) && app.customText ? app.customText : wasm.scenario_json(app.settings.scenario);
    const { xml, notes } = toMjcf(JSON.parse(text), { integrator: app.settings.mujoco || 'RK4', timestep: app.player.run.dt });
    download(exportName('xml'), 'application/xml', xml);
    $('mujoco-status').textContent = `Exported as a MuJoCo model (integrator ${app.settings.mujoco || 'RK4'}, h = ${app.player.run.dt} s).${notes.length ? ` Left out, with no MuJoCo counterpart: ${notes.join('; ')}.` : ''}`;
  } catch (e) {
    showError(`This system cannot be written as a MuJoCo model: ${e.message}`);
  }
}

/** Open MJCF text (a file, a drop, or XML pasted into the editor): MuJoCo's compiler reads it
 * in the worker, mjcf.js converts it, and it runs as a custom system (the editor shows its
 * JSON). Returns null when it runs, else why not; the last valid system keeps running. */
async function openMjcfText(xml) {
  if (!(await startMujoco())) return `MuJoCo is needed to read a MuJoCo model, and ${$('mujoco-status').textContent.replace(/^MuJoCo /, '')}`;
  const engine = await app.player.engine;
  const reply = await engine.request({ type: 'mjcf', xml });
  if (reply.type === 'error') return `This MuJoCo model cannot be opened: ${reply.message}`;
  const text = JSON.stringify(reply.system, null, 1);
  const checked = wasm.check_scenario(text);
  if (!checked.ok) return `The converted model is not a valid Tumble system: ${checked.message}`;
  const why = await applyCustom(text, checked.canonical);
  if (why) return why;
  if (app.editor && !$('editor').hidden) app.editor.load(text);
  $('mujoco-status').textContent = reply.notes.length ? `Opened the MuJoCo model. ${reply.notes.join('; ')}.` : 'Opened the MuJoCo model: everything in it has a Tumble counterpart.';
  return null;
}

async function openMjcf(file) {
  if (file.size > 50 * 1024 * 1024) { showError(`${file.name} is ${(file.size / 1048576).toFixed(0)} MB; Tumble reads MuJoCo models of at most 50 MB. The last valid system keeps running.`); return; }
  const why = await openMjcfText(await file.text());
  if (why) showError(`${why} The last valid system keeps running.`);
}

/** What MuJoCo's run leaves out (drives, loads that vary in time), beside the menu. */
function showMujocoNotes() {
  const run = app.player.runs.find((x) => x.name === MUJOCO);
  if (!run) return;
  $('mujoco-status').textContent = `${app.mujocoLoaded ?? ''}${run.notes?.length ? ` MuJoCo has no counterpart for: ${run.notes.join('; ')}.` : ''}`;
}

/** Each joint of scenario `text` described for people: "revolute, ground – body 0". */
function describeJoints(text) {
  try {
    const json = JSON.parse(isCustom(text) && app.customText ? app.customText : wasm.scenario_json(text));
    return (json.joints ?? []).map((j) => `${j.type}, ${j.a == null ? 'ground' : `body ${j.a}`} \u2013 body ${j.b}`);
  } catch {
    return [];
  }
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

async function restart() {
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
  const r = app.player.run;
  try {
    app.mechanism = `mechanism: ${wasm.mechanism(app.settings.scenario)}`;
  } catch (e) {
    app.mechanism = `mechanism: ${e.message}`;
  }
  showScenarioName();
  updateJointFrames();
  updateJointMenu();
  if (app.editor && !$('editor').hidden && app.editorScenario !== app.settings.scenario) toggleEditor(true); // a preset chosen while it is open
  $('integrator').value = app.settings.integrator;
  $('dt').value = r.dt;
  $('tol').value = app.settings.tol || '';
  [$('alpha').value, $('beta').value] = r.gains;
  $('compare').value = app.settings.compare;
  $('mujoco').value = app.settings.mujoco || '';
  showMujocoNotes();
  adviseStep();
  $('run-progress').hidden = app.player.target === null; // a "run to" asked for during the load goes on
  app.summaryAt = 0;
  renderExplanation($('explain'), { scenario: app.settings.scenario, integrators: app.player.runs.map((x) => x.name) });
  // a custom system too large for a link keeps the address it had
  if (app.view === 'live' && (!isCustom(app.settings.scenario) || app.settings.system)) history.replaceState(null, '', buildQuery(app.settings, app.embed ? { embed: 1 } : {}));
  return true;
}

/** After a change of scenario, integrator, step or settings: start over and play (true, false
 * or null as `restart`). */
async function restartAndPlay() {
  const ok = await restart();
  if (ok) app.player.setPlaying(true);
  return ok;
}

function onPlaying(on) {
  $('play').textContent = on ? 'Pause' : 'Play';
  $('play').classList.toggle('on', on);
  $('play').setAttribute('aria-pressed', String(on));
  app.summaryAt = 0; // announce the change
  // a "run to" that ended (or was paused) hides its bar now, not at the next drawn frame
  if (!on && app.player.target === null) $('run-progress').hidden = true;
}

function onFailure(failed, live) {
  const p = app.player;
  const what = failed.map((x) => `${p.runs.length > 1 ? LABEL[x.name] : 'The run'} stopped ${x.error}.`).join(' ');
  if (live.length) {
    showError(`${what} Its last good state stays in the view and the charts; ${live.map((x) => LABEL[x.name]).join(' and ')} ${live.length > 1 ? 'keep' : 'keeps'} running.`, 'reset');
    return;
  }
  const more = p.runs.filter((x) => x.error).length > failed.length ? ' All runs have stopped.' : '';
  showError(`${what}${more} The last good state is shown (nothing after it is drawn or charted).`, 'halve');
}

const fmtE = (v) => (Math.abs(v) >= 1e5 || (Math.abs(v) < 1e-3 && v !== 0) ? v.toExponential(6) : v.toFixed(6));

const READOUT_EVERY_MS = 100; // the readout's text is rebuilt ten times a second, not every frame

function onFrame(now) {
  const p = app.player, r = p.run, s = p.stats;
  if (p.playing && now - (app.readoutAt ?? 0) < READOUT_EVERY_MS) return;
  app.readoutAt = now;
  if (p.target !== null) $('run-progress').value = Math.min(1, r.inv[0] / p.target);
  else if (!$('run-progress').hidden) $('run-progress').hidden = true;
  const { inv, hash, live } = p.shown();
  const state = !live ? `history (sample of t = ${inv[0].toFixed(3)} s; Play returns to the live run)`
    : p.target !== null ? `running to t = ${p.target} s as fast as possible (${s.rt.toFixed(1)} x real time)`
      : p.playing ? `${s.rate.toFixed(0)} steps/s, ${s.rt.toFixed(2)} x real time`
        : r.error ? 'stopped (see the message above)' : 'paused: press Play or space to run';
  $('readout').textContent =
    `t = ${inv[0].toFixed(3)} s   h = ${r.dt} s   ${LABEL[r.name]}\n` +
    `${app.mechanism}\n` +
    `E = T + V = ${fmtE(inv[1])} J   (T = ${fmtE(inv[2])} J, V = ${fmtE(inv[3])} J)\n` +
    (r.forced || r.pulled ? `W = ${fmtE(inv[11])} J in${r.pulled ? ' (by your pull too)' : ''}, D = ${fmtE(inv[12])} J dissipated, E \u2212 E\u2080 \u2212 W + D = ${inv[13].toExponential(1)} J\n` : '') +
    `Newton: ${inv[9]} iterations, residual ${inv[10].toExponential(1)}\n` + state;
  const h = hash ?? r.hash; // the hash of the state shown
  if ($('hash').textContent !== h) $('hash').textContent = h;
  if ($('pulled').hidden === !!r.pulled) $('pulled').hidden = !r.pulled;
  updateScrubber(inv[0]);
  if (now - app.summaryAt > (p.playing ? SUMMARY_EVERY_MS : 1e12) || app.summaryAt === 0) {
    app.summaryAt = now;
    const text = `t = ${inv[0].toFixed(1)} s, ${p.playing ? 'playing' : live ? 'paused' : 'showing the history'}. ` + (p.charts.summary?.() ?? '');
    if ($('sr-summary').textContent !== text) $('sr-summary').textContent = text;
  }
}

function updateScrubber(t) {
  const el = $('scrub'), p = app.player, end = p.end();
  if (document.activeElement !== el || !p.scrub) {
    el.max = String(end);
    el.value = String(p.scrub ? t : end);
  }
  el.setAttribute('aria-valuetext', `${t.toFixed(2)} seconds of ${end.toFixed(2)}`);
  p.charts.setCursor?.(p.scrub ? t : null);
}

function exportSettings() {
  const p = app.player, r = p.run;
  return {
    scenario: app.settings.scenario, integrators: p.runs.map((x) => x.name), dt: r.dt, tol: r.tol,
    alpha: r.gains[0], beta: r.gains[1], link: location.origin + location.pathname + buildQuery(app.settings),
  };
}

function wire() {
  const p = app.player;
  const play = (on) => p.setPlaying(on);
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
  onChange('mujoco', async () => {
    const v = $('mujoco').value;
    if (v && !(await startMujoco())) { $('mujoco').value = app.settings.mujoco || ''; return; }
    app.settings.mujoco = v;
    restartAndPlay();
  });
  onChange('trails', () => { p.trails = $('trails').checked; p.renderer.clearTrails(); });
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
  onChange('speed', () => { p.speed = Number($('speed').value); p.acc = 0; });
  $('notice-use').addEventListener('click', () => { app.settings.dt = Number($('notice-use').dataset.dt); restartAndPlay(); });
  $('error-reset').addEventListener('click', () => restart());
  $('error-halve').addEventListener('click', async () => {
    const h = p.run.dt / 2;
    try {
      await p.resume(h);
    } catch (e) {
      showError(e.message);
      return;
    }
    app.settings.dt = h;
    $('dt').value = h;
    history.replaceState(null, '', buildQuery(app.settings, app.embed ? { embed: 1 } : {}));
    clearError();
    play(true);
  });
  $('play').addEventListener('click', () => play(!p.playing));
  $('step').addEventListener('click', () => { play(false); p.step(1); });
  $('reset').addEventListener('click', () => restart());
  $('share').addEventListener('click', () => {
    if (isCustom(app.settings.scenario) && !app.settings.system) { showError(app.linkProblem ?? 'This custom system has no link.'); return; }
    const pulled = p.run?.pulled;
    copyText(location.origin + location.pathname + buildQuery(app.settings), $('share'), pulled ? 'Copied: it starts the run without your pull' : 'Copied',
      pulled ? 'This link starts the run without your pull. Copy it:' : 'Copy this link:');
  });
  wireGrab(p);
  $('scrub').addEventListener('input', () => p.scrubTo(Number($('scrub').value)));
  $('live').addEventListener('click', () => play(true));
  $('run-to').addEventListener('submit', (e) => {
    e.preventDefault();
    const goal = Number($('run-to-t').value);
    const t = p.run.inv[0];
    if (p.run.error) { showError(`The run has stopped (${p.run.error}); reset it first.`, 'reset'); return; }
    if (!(goal > t && goal <= 1e6)) { showError(`"Run to" needs a time after the current t = ${t.toFixed(3)} s (at most 1e6 s).`); return; }
    p.runTo(goal);
    $('run-progress').value = t / goal;
    $('run-progress').hidden = false;
  });
  const exportAs = (format, type) => p.export(format, exportSettings()).then((text) => download(exportName(format), type, text), (e) => showError(e.message));
  $('export-csv').addEventListener('click', () => exportAs('csv', 'text/csv'));
  $('export-json').addEventListener('click', () => exportAs('json', 'application/json'));
  $('export-png').addEventListener('click', () => $('canvas').toBlob((b) => b && download(exportName('png'), 'image/png', b)));
  $('export-mjcf').addEventListener('click', exportMjcf);
  $('open-mjcf').addEventListener('click', () => $('open-mjcf-file').click());
  $('open-mjcf-file').addEventListener('change', async () => {
    const file = $('open-mjcf-file').files[0];
    $('open-mjcf-file').value = '';
    if (file) await openMjcf(file);
  });
  // a MuJoCo model dropped on the view
  $('canvas').addEventListener('dragover', (e) => { e.preventDefault(); });
  $('canvas').addEventListener('drop', async (e) => {
    e.preventDefault();
    const file = e.dataTransfer?.files?.[0];
    if (file) await openMjcf(file);
  });
  attachRecorder({ button: $('record'), withCharts: $('record-charts'), view: $('canvas'), charts: $('charts'), fileName: exportName, download, showError });
  $('embed').addEventListener('click', () => {
    const src = location.origin + location.pathname + buildQuery(app.settings, { embed: 1 });
    const title = escapeAttr(`Tumble: ${description()}`);
    const size = $('embed-size').value;
    const snippet = size === '100%'
      ? `<iframe src="${escapeAttr(src)}" style="border:0;width:100%;aspect-ratio:16/10" title="${title}"></iframe>`
      : `<iframe src="${escapeAttr(src)}" width="${size.split('x')[0]}" height="${size.split('x')[1]}" style="border:0" title="${title}"></iframe>`;
    copyText(snippet, $('embed'), 'Embed snippet copied', 'Copy this embed snippet:');
  });
  // Shortcuts work whatever control has focus, except while typing in a field (number and
  // text inputs, the scrubber's own arrow keys); Enter still activates a focused button.
  document.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || app.view !== 'live') return;
    if (e.target.closest?.('[role=tab]')) return; // the arrow keys move between the view tabs
    if (e.target.closest?.('input:not([type=checkbox]), textarea, [contenteditable]')) return;
    if (e.key === ' ') play(!p.playing);
    else if (e.key === 'ArrowRight') { play(false); p.step(1); }
    else if (e.key === 'r' || e.key === 'R') restart();
    else return;
    e.preventDefault();
    e.stopPropagation();
  }, true);
}

/** Show the live view or the Study view (study.js, loaded on first use). The live run pauses
 * while the study is shown (it would take a core from the study's workers) and plays again on
 * return if it was playing. `study`: settings from a link ({ choice, study }). */
async function setView(view, study = null) {
  const tabs = { live: $('tab-live'), study: $('tab-study') };
  for (const [name, tab] of Object.entries(tabs)) {
    tab.setAttribute('aria-selected', String(name === view));
    tab.tabIndex = name === view ? 0 : -1;
  }
  $('live-panel').hidden = view !== 'live';
  $('study-panel').hidden = view !== 'study';
  if (view === app.view && !study) return;
  app.view = view;
  const p = app.player;
  if (view === 'study') {
    app.resumeLive = p.playing;
    p.setPlaying(false);
    if (!app.study) {
      const { StudyView } = await import('../study/study.js');
      app.study = new StudyView($('study-panel'), {
        presets: app.presets,
        live: () => ({ scenario: app.settings.scenario, system: app.settings.system, problem: app.linkProblem }),
        download,
        copyText,
        setQuery: (q) => { if (app.view === 'study') history.replaceState(null, '', q); },
      });
      window.tumble.study = app.study.hook();
      app.study.set(study?.choice ?? { scenario: 'nk-revolute' }, study?.study ?? STUDY_DEFAULTS);
    } else {
      app.study.set(study?.choice ?? null, study?.study ?? null);
    }
  } else {
    if (!isCustom(app.settings.scenario) || app.settings.system) history.replaceState(null, '', buildQuery(app.settings));
    if (app.resumeLive) p.setPlaying(true);
  }
}

function wireTabs() {
  const order = ['live', 'study'];
  for (const name of order) {
    const tab = $(`tab-${name}`);
    tab.addEventListener('click', () => setView(name));
    // arrow keys move between the tabs (and show the tab), as in the ARIA tabs pattern
    tab.addEventListener('keydown', (e) => {
      const k = { ArrowLeft: -1, ArrowRight: 1, Home: -9, End: 9 }[e.key];
      if (!k) return;
      e.preventDefault();
      e.stopPropagation();
      const next = order[Math.max(0, Math.min(order.length - 1, order.indexOf(name) + k))];
      $(`tab-${next}`).focus();
      setView(next);
    });
  }
}

/** `&embed=1`: the page is one <tumble-view> element filling the frame (tumble-view.js). */
async function embed(error) {
  await import('../tumble-view.js');
  document.body.classList.add('embed');
  if (error) {
    const p = document.createElement('p');
    p.className = 'embed-error';
    p.setAttribute('role', 'alert');
    p.textContent = error;
    document.body.replaceChildren(p);
    window.tumble = { error: () => error };
    return;
  }
  const el = document.createElement('tumble-view');
  for (const [k, v] of new URLSearchParams(locationQuery())) if (k !== 'embed') el.setAttribute(k, v);
  document.body.replaceChildren(el);
  // a read-only hook for the browser tests
  window.tumble = { element: el, time: () => el.time, playing: () => el.playing, error: () => el.error, hash: () => el.stateHash, chartPoints: () => el.player?.charts?.points() ?? 0 };
}

async function main() {
  await loadSolver();
  const { settings, error } = parseQuery(locationQuery());
  const linkParams = new URLSearchParams(locationQuery()); // (restart() rewrites the address)
  app.embed = linkParams.get('embed') === '1';
  if (app.embed) { await embed(error); return; }
  app.player = new Player({ canvas: $('canvas'), charts: $('charts') }, { failure: onFailure, frame: onFrame, playing: onPlaying });
  app.player.jointLabel = (j) => app.jointLabels?.[j] ?? '';
  app.presets = wasm.presets();
  for (const p of app.presets) {
    const o = new Option(p.name, p.name);
    o.title = p.description;
    $('scenario').append(o);
  }
  app.settings = settings;
  let linkError = error;
  if (!linkError && settings.system) {
    // a custom system: inflated with a cap, then validated exactly as typed JSON
    try {
      settings.scenario = await systemScenario(settings.system, wasm.check_scenario);
    } catch (e) {
      linkError = e.message;
    }
  } else if (!linkError) {
    try {
      app.settings.scenario = wasm.canonical_scenario(settings.scenario);
    } catch (e) {
      linkError = `This link's scenario is not valid: ${e.message}`;
    }
  }
  if (linkError) app.settings = { ...DEFAULTS };
  // a link that asks for MuJoCo loads it first (a page that never does, never fetches it)
  if (app.settings.mujoco && !(await startMujoco())) app.settings.mujoco = '';
  buildParams();
  if ((await restart()) === false) {
    const why = $('error-text').textContent;
    app.settings = { ...DEFAULTS };
    buildParams();
    await restart();
    showError(why + ' The default scene is shown instead.');
  }
  if (linkError) showError(linkError + ' The default scene is shown instead.');
  wire();
  wireTabs();
  const p = app.player;
  // a read-only hook for the browser tests
  window.tumble = {
    chartPoints: () => p.charts.points(),
    time: () => p.run.inv[0],
    energy: () => p.run.inv[1],
    hash: () => p.run.hash,
    settled: () => p.settled(),
    loading: () => p.loads > 0, // a reset or a new scenario is being loaded in the worker
    engine: () => p.engine.then((e) => e.constructor.name),
    shownHash: () => $('hash').textContent,
    error: () => (errorEl.hidden ? null : $('error-text').textContent),
    notice: () => ($('notice').hidden ? null : $('notice-text').textContent),
    playing: () => p.playing,
    runs: () => p.runs.map((x) => [x.name, x.inv[0], x.inv[1], x.error]),
    // the invariants of the state shown (all 14 numbers of invariant_fields())
    invariants: () => Array.from(p.shown().inv).slice(0, 14),
    // each point-to-point spring of the state shown: its length (m), and the coil vertices drawn
    springs: () => {
      const s = p.shown().springs, out = [];
      for (let j = 0; j < s.length; j += 6) out.push(Math.hypot(s[j + 3] - s[j], s[j + 4] - s[j + 1], s[j + 5] - s[j + 2]));
      return { lengths: out, coilVerts: p.renderer.coilVerts, dashVerts: p.renderer.dashVerts, rodVerts: p.renderer.rodVerts };
    },
    scenario: () => app.settings.scenario,
    // a body's centre on the screen (client pixels), for the grab tests
    bodyOnScreen: (b) => p.renderer.toScreen(p.run.poses[12 * b], p.run.poses[12 * b + 1], p.run.poses[12 * b + 2]),
    // a joint's point on the screen (client pixels), for the reaction chart's tests
    jointOnScreen: (j) => p.renderer.toScreen(p.run.joints[3 * j], p.run.joints[3 * j + 1], p.run.joints[3 * j + 2]),
    pulled: () => !!p.run.pulled,
    // the joint whose reaction is charted (framed in white in the view), -1 for none
    chartedJoint: () => p.renderer.chartedJoint,
    // the view's rectangle and where every body's box corners and joint points are drawn in it
    // (client pixels, [left, top, right, bottom]), for the framing tests
    framing: () => {
      const r = p.renderer, P = p.run.poses, S = p.run.sizes, J = p.run.joints, v = $('canvas').getBoundingClientRect();
      const box = [Infinity, Infinity, -Infinity, -Infinity];
      const add = ([x, y]) => { box[0] = Math.min(box[0], x); box[1] = Math.min(box[1], y); box[2] = Math.max(box[2], x); box[3] = Math.max(box[3], y); };
      for (let b = 0; b < S.length / 3; b++) {
        for (let c = 0; c < 8; c++) {
          const q = [0, 1, 2].map((k) => (c & (1 << k) ? 0.5 : -0.5) * S[3 * b + k]);
          const w = [0, 1, 2].map((i) => P[12 * b + i] + P[12 * b + 3 + i] * q[0] + P[12 * b + 6 + i] * q[1] + P[12 * b + 9 + i] * q[2]);
          add(r.toScreen(w[0], w[1], w[2]));
        }
      }
      for (let j = 0; j < J.length; j += 3) add(r.toScreen(J[j], J[j + 1], J[j + 2]));
      return { view: [v.left, v.top, v.right, v.bottom], shown: box };
    },
    // the ghosts drawn beside the main run: their colours as 0-255 [r, g, b]
    ghostColors: () => p.ghosts.map((g) => Array.from(g.color, (c) => Math.round(255 * c))),
    // the sliding joints' rails drawn, and each joint's mark (1 driven, 2 motor)
    rails: () => (p.renderer.rails ? p.renderer.rails.length / 7 : 0),
    jointMarks: () => Array.from(p.renderer.jointMarks ?? []),
    pick: (x, y) => p.renderer.pick(x, y, p.run.poses, p.run.sizes)?.body ?? null,
    link: () => location.origin + location.pathname + buildQuery(app.settings),
    view: () => app.view,
    study: null, // the Study view's hook (study.js), once it is shown
  };
  if (!linkError && settings.view === 'study') {
    // a study link opens the Study view with its settings; the study runs when Run is pressed
    // (a hand-written ?view=study without a scenario: the study's own default, nk-revolute)
    const named = linkParams.has('scenario') || app.settings.system;
    const choice = named ? { scenario: app.settings.scenario, system: app.settings.system } : { scenario: 'nk-revolute' };
    await setView('study', { choice, study: settings.study ?? STUDY_DEFAULTS });
    app.resumeLive = true; // the live view plays when it is first shown
    return;
  }
  p.setPlaying(true);
}

main().catch((e) => showError(`Tumble could not start: ${e.message}`));
