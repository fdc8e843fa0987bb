// main.js: the full page: starts the player (view/player.js, the simulation loop shared with the
// <tumble-view> element) from the link and wires the page's own controls: play, step, reset,
// the readout, the error panel, the scrubber and "run to", share links, exports and recording.
// The scenario controls (scenario.js), MuJoCo's (mujoco-controls.js), grab and pull (grab.js),
// the tabs (tabs.js) and the test hook (test-hook.js) are beside it; page.js holds what they share.
import * as wasm from '../pkg/tumble_wasm.js';
import { loadSolver } from '../sim/engine.js';
import { Player } from '../view/player.js';
import { LABEL, MUJOCO } from '../shared/names.js';
import { INV } from '../shared/invariants.js';
import { parseQuery, buildQuery, locationQuery, DEFAULTS, systemScenario, STUDY_DEFAULTS } from '../shared/url.js';
import { attachRecorder } from './record.js';
import { $, app, showError, stoppedText, clearError, download, copyText, exportName, splitScenario, isCustom, restart } from './page.js';
import { buildParams, wireScenario } from './scenario.js';
import { startMujoco, wireMujoco } from './mujoco-controls.js';
import './controls.js';
import './coordinates.js';
import { wireGrab } from './grab.js';
import { watchBalance } from './balance-watch.js';
import { setView, wireTabs } from './tabs.js';
import { installPageHook, installEmbedHook } from './test-hook.js';
import { sentences } from '../shared/text.js';

const SUMMARY_EVERY_MS = 5000; // the screen-reader summary is refreshed this often while playing

function onPlaying(on) {
  $('play').textContent = on ? 'Pause' : 'Play';
  $('play').classList.toggle('on', on);
  $('play').setAttribute('aria-pressed', String(on));
  app.summaryAt = 0; // announce the change
  // a "run to" that ended (or was paused) hides its bar now, not at the next drawn frame
  if (!on && app.player.target === null) $('run-progress').hidden = true;
  // paused: the readout says so now, in the key's or the click's own task, not a frame later (a
  // frame of a large scene may take hundreds of ms in software WebGL)
  if (!on && app.player.run) onFrame(performance.now());
}

function onFailure(failed, live) {
  const p = app.player;
  const what = stoppedText(failed);
  app.editor?.runStopped(what); // a system just applied in the editor: said there too
  if (live.length) {
    showError(`${what} Its last good state stays in the view and the charts; ${live.map((x) => LABEL[x.name]).join(' and ')} ${live.length > 1 ? 'keep' : 'keeps'} running.`, 'reset');
    return;
  }
  const more = p.runs.filter((x) => x.error).length > failed.length ? ' All runs have stopped.' : '';
  showError(`${what}${more} The last good state is shown (nothing after it is drawn or charted).`, 'halve');
}

const fmtE = (v) => (Math.abs(v) >= 1e5 || (Math.abs(v) < 1e-3 && v !== 0) ? v.toExponential(6) : v.toFixed(6));

// After every drawn frame: the readout describes the state the view has just drawn, rebuilt every
// frame (rebuilt ten times a second, it trailed the view by hundreds of simulated seconds at the
// fastest speed, and showed a pause late)
function onFrame(now) {
  const p = app.player, r = p.run, s = p.stats;
  if (p.target !== null) $('run-progress').value = Math.min(1, r.inv[INV.t] / p.target);
  else if (!$('run-progress').hidden) $('run-progress').hidden = true;
  const { inv, hash, live, missing } = p.shown();
  const notYet = missing.map((x) => `\n${LABEL[x.name]}'s run has not reached this moment yet (it is at t = ${x.inv[INV.t].toFixed(3)} s): no ghost of it here`).join('');
  const state = !live ? `history (sample of t = ${inv[INV.t].toFixed(3)} s; Play returns to the live run)${notYet}`
    : p.target !== null ? `running to t = ${p.target} s as fast as possible (${s.rt.toFixed(1)} x real time)`
      : p.playing ? `${s.rate.toFixed(0)} steps/s, ${s.rt.toFixed(2)} x real time`
        : r.error ? 'stopped (see the message above)' : 'paused: press Play or space to run';
  const text =
    `t = ${inv[INV.t].toFixed(3)} s   h = ${r.dt} s${r.substeps > 1 && live ? ` (the last step in ${r.substeps} sub-steps, for a contact)` : ''}   ${LABEL[r.name]}\n` +
    `${app.mechanism}\n` +
    `E = T + V = ${fmtE(inv[INV.energy])} J   (T = ${fmtE(inv[INV.kinetic])} J, V = ${fmtE(inv[INV.potential])} J)\n` +
    (r.contact || r.stops ? `C = ${fmtE(inv[INV.contact])} J of V stored in ${r.contact ? 'contacts' : 'stops'}${r.contact && r.stops ? ' and stops' : ''}\n` : '') +
    (r.forced || r.pulled ? `W = ${fmtE(inv[INV.work])} J in${r.pulled ? ' (by your pull too)' : ''}, D = ${fmtE(inv[INV.dissipated])} J dissipated, E \u2212 E\u2080 \u2212 W + D = ${inv[INV.balance].toExponential(1)} J\n` : '') +
    `Newton: ${inv[INV.iterations]} iterations, residual ${inv[INV.residual].toExponential(1)}\n` + arrowsLine(p.renderer.arrows) + driveLine(p.runs) + ratesLine(p.runs, r.dt) + state;
  if ($('readout').textContent !== text) $('readout').textContent = text;
  const h = hash ?? r.hash; // the hash of the state shown
  if ($('hash').textContent !== h) $('hash').textContent = h;
  if ($('pulled').hidden === !!r.pulled) $('pulled').hidden = !r.pulled;
  updateScrubber(inv[INV.t]);
  watchBalance(p.runs, r.dt);
  if (now - app.summaryAt > (p.playing ? SUMMARY_EVERY_MS : 1e12) || app.summaryAt === 0) {
    app.summaryAt = now;
    const text = `t = ${inv[INV.t].toFixed(1)} s, ${p.playing ? 'playing' : live ? 'paused' : 'showing the history'}. ` + (p.charts.summary?.() ?? '');
    if ($('sr-summary').textContent !== text) $('sr-summary').textContent = text;
  }
}

/** With MuJoCo beside, each run's own rate (its wall time a step): the runs step side by side,
 * each at its own pace (mujoco-pipe.js), so Tumble's is not held to MuJoCo's; when MuJoCo's own
 * step (its collision detection and constraint solver) takes most of its time, so; and where
 * MuJoCo's run is, when it is behind. */
function ratesLine(runs, h) {
  const mj = runs.find((x) => x.name === MUJOCO);
  if (!mj || !runs.some((x) => x.ms > 0)) return '';
  const rate = (ms) => { const x = h / (ms / 1000); return x >= 10 ? x.toFixed(0) : x.toPrecision(2); };
  const parts = runs.filter((x) => x.ms > 0 && !x.error).map((x) => `${LABEL[x.name]} ${rate(x.ms)} x (${x.ms.toPrecision(2)} ms a step)`);
  const tumble = runs.filter((x) => x !== mj && !x.error).reduce((a, x) => a + (x.ms || 0), 0);
  const own = mj.mjms > 0.7 * mj.ms && mj.mjms > tumble
    ? `\nMuJoCo's own step takes ${mj.mjms.toPrecision(2)} ms of its ${mj.ms.toPrecision(2)} ms (collision detection and its constraint solver, ${mj.inv[INV.iterations]} iterations): MuJoCo itself sets its pace`
    : '';
  const lead = runs.find((x) => x !== mj && !x.error);
  const behind = lead && !mj.error && mj.steps < lead.steps
    ? `\nMuJoCo's run is at t = ${mj.inv[INV.t].toFixed(3)} s, ${lead.steps - mj.steps} steps behind: the charts compare the runs where both have been`
    : '';
  return `each run's rate: ${parts.join(', ')} real time${own}${behind}\n`;
}

/** With many contacts the view draws only the largest forces (arrows.js): how many, from what force. */
function arrowsLine(A) {
  if (!A.on || !(A.count > A.drawn) || !A.drawn) return '';
  return `arrows: ${A.drawn} of ${A.count} contact forces drawn, from ${A.cut.toPrecision(2)} N to the largest, ${A.max.toPrecision(3)} N\n`;
}

/** MuJoCo's drives against Tumble's prescribed motion: |q - q0 - f(t)| now and at most so far. */
function driveLine(runs) {
  const d = runs.find((x) => x.drive)?.drive;
  if (!d) return '';
  const one = (i) => `${d.now[i].toExponential(1)} ${d.units[i]} (at most ${d.worst[i].toExponential(1)})`;
  return `MuJoCo's drive${d.now.length > 1 ? 's' : ''} off f(t) by |q \u2212 q\u2080 \u2212 f(t)| = ${d.now.map((_, i) => one(i)).join(', ')}\n`;
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

const escapeAttr = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The plain description of the current scenario (the preset's line, or "custom system"). */
function description() {
  const { name } = splitScenario(app.settings.scenario);
  return app.presets.find((p) => p.name === name)?.description ?? 'a custom system';
}

/** Wire the page's own controls, then the scenario's, MuJoCo's and grab-and-pull. */
function wire() {
  const p = app.player;
  const play = (on) => p.setPlaying(on);
  const onChange = (id, f) => $(id).addEventListener('change', f);
  wireScenario();
  wireMujoco();
  wireGrab(p);
  onChange('trails', () => { p.trails = $('trails').checked; p.renderer.clearTrails(); });
  onChange('arrows', () => p.setArrows($('arrows').checked));
  onChange('speed', () => { p.speed = Number($('speed').value); p.acc = 0; });
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
  $('scrub').addEventListener('input', () => p.scrubTo(Number($('scrub').value)));
  $('live').addEventListener('click', () => play(true));
  $('run-to').addEventListener('submit', (e) => {
    e.preventDefault();
    const goal = Number($('run-to-t').value);
    const t = p.run.inv[INV.t];
    if (p.run.error) { showError(`The run has stopped (${p.run.error}); reset it first.`, 'reset'); return; }
    if (!(goal > t && goal <= 1e6)) { showError(`"Run to" needs a time after the current t = ${t.toFixed(3)} s (at most 1e6 s).`); return; }
    p.runTo(goal);
    $('run-progress').value = t / goal;
    $('run-progress').hidden = false;
  });
  const exportAs = (format, type) => p.export(format, exportSettings()).then((text) => download(exportName(format), type, text), (e) => showError(e.message));
  for (const which of ['top', 'side', 'fit']) $(`view-${which}`).addEventListener('click', () => p.look(which));
  $('export-csv').addEventListener('click', () => exportAs('csv', 'text/csv'));
  $('export-json').addEventListener('click', () => exportAs('json', 'application/json'));
  $('export-png').addEventListener('click', () => $('canvas').toBlob((b) => b && download(exportName('png'), 'image/png', b)));
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

// The readout's fold button: folded, only the button stays over the view; the choice is kept
// for the next visit (where the browser lets the page store it)
const FOLD_KEY = 'tumble.readout';
function wireReadoutFold() {
  const fold = (folded) => {
    $('readout-box').classList.toggle('folded', folded);
    $('readout-fold').setAttribute('aria-expanded', String(!folded));
    $('readout-fold').textContent = folded ? 'Show readout' : 'Hide readout';
  };
  let stored = null;
  try { stored = localStorage.getItem(FOLD_KEY); } catch { /* storage blocked: unfolded */ }
  fold(stored === 'folded');
  $('readout-fold').addEventListener('click', () => {
    const folded = !$('readout-box').classList.contains('folded');
    fold(folded);
    try { localStorage.setItem(FOLD_KEY, folded ? 'folded' : 'open'); } catch { /* not kept */ }
  });
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
    installEmbedHook(null, error);
    return;
  }
  const el = document.createElement('tumble-view');
  for (const [k, v] of new URLSearchParams(locationQuery())) if (k !== 'embed') el.setAttribute(k, v);
  document.body.replaceChildren(el);
  installEmbedHook(el);
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
    showError(sentences(why, 'The default scene is shown instead.'));
  }
  if (linkError) showError(sentences(linkError, 'The default scene is shown instead.'));
  wire();
  wireReadoutFold();
  wireTabs();
  const p = app.player;
  installPageHook(p);
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
