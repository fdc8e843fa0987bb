// main.js: wires the page: controls, keyboard, the frame loop, the scrubber and "run to",
// the error panel and step advice, share links and exports.
import init, * as wasm from './pkg/tumble_wasm.js';
import { Renderer } from './render.js';
import { Charts, INTEGRATOR_COLORS } from './charts.js';
import { Run } from './sim.js';
import { History } from './history.js';
import { parseQuery, buildQuery, DEFAULTS, INTEGRATORS } from './url.js';

const $ = (id) => document.getElementById(id);
const errorEl = $('error');
const FRAME_BUDGET_MS = 12; // stepping per animation frame stays below this: the page stays responsive
const SUMMARY_EVERY_MS = 5000; // the screen-reader summary is refreshed this often while playing
const LABEL = { director: 'director', rattle: 'RATTLE', baumgarte: 'Baumgarte' };

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

const app = {
  runs: [], run: null, playing: false, acc: 0, last: 0, speed: 1, settings: { ...DEFAULTS }, presets: [],
  history: new History(), scrub: -1, target: null, summaryAt: 0,
  stats: { steps: 0, since: 0, rate: 0, rt: 0 },
};

function download(name, type, data) {
  const url = URL.createObjectURL(data instanceof Blob ? data : new Blob([data], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
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
  return `tumble-${s}-${app.runs.map((x) => x.name).join('-')}.${ext}`;
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

function buildParams() {
  const { name, values } = splitScenario(app.settings.scenario);
  const preset = app.presets.find((p) => p.name === name);
  const box = $('params');
  box.replaceChildren();
  if (!preset) return;
  for (const q of preset.params) {
    const label = document.createElement('label');
    label.title = q.help;
    const unit = /\(([^()]+)\)\s*$/.exec(q.help)?.[1];
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

const hexColor = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16) / 255);

/** The integrators on the page, primary first. */
function integratorNames() {
  const names = [app.settings.integrator];
  const others = INTEGRATORS.filter((n) => n !== app.settings.integrator);
  if (app.settings.compare === 'all') names.push(...others);
  else if (others.includes(app.settings.compare)) names.push(app.settings.compare);
  return names;
}

/** Before anything fails: the integrators on the page for which the step is beyond what
 * they handle on this scenario (`suitable_dt`), with a button to use a step that suits all. */
function adviseStep(names, h) {
  const beyond = [];
  let suits = h;
  for (const n of names) {
    const s = wasm.suitable_dt(app.settings.scenario, n);
    suits = Math.min(suits, s);
    if (h > s * (1 + 1e-9)) beyond.push(`${LABEL[n]} (${s} s suits it)`);
  }
  const notice = $('notice');
  if (!beyond.length) { notice.hidden = true; return; }
  $('notice-text').textContent = `The step h = ${h} s is beyond what ${beyond.join(' and ')} handle${beyond.length > 1 ? '' : 's'} on this scenario: expect ${beyond.length > 1 ? 'them' : 'it'} to stop within seconds.`;
  $('notice-use').textContent = `Use h = ${suits} s`;
  $('notice-use').dataset.dt = suits;
  notice.hidden = false;
}

function restart() {
  const names = integratorNames();
  const runs = [];
  try {
    const h = app.settings.dt || wasm.suitable_dt(app.settings.scenario, names[0]);
    for (const integrator of names) runs.push(new Run(wasm, { ...app.settings, dt: h, integrator }));
  } catch (e) {
    for (const r of runs) r.free();
    showError(e.message);
    return false;
  }
  for (const r of app.runs) r.free();
  app.runs = runs;
  app.run = runs[0];
  clearError();
  const r = app.run, h = r.sim.dt();
  $('scenario').value = splitScenario(app.settings.scenario).name;
  $('integrator').value = app.settings.integrator;
  $('dt').value = h;
  $('tol').value = app.settings.tol || '';
  [$('alpha').value, $('beta').value] = r.sim.gains();
  $('compare').value = app.settings.compare;
  adviseStep(names, h);
  app.renderer.frame(r.poses, r.sizes, r.joints, r.nj > 0);
  app.renderer.clearTrails();
  app.charts.reset(names, runs.map((x) => x.inv0), r.conserved);
  app.charts.push(runs.map((x) => x.inv));
  app.ghosts = runs.slice(1).map((x) => ({ poses: x.poses, color: hexColor(INTEGRATOR_COLORS[x.name]) }));
  app.scrubGhosts = runs.slice(1).map((x) => ({ poses: x.poses, color: hexColor(INTEGRATOR_COLORS[x.name]) }));
  app.history.reset(runs.length, r.n, r.nj, h);
  runs.forEach((x, i) => app.history.record(i, 0, x.inv, x.poses, x.joints, x.sim.state_hash()));
  app.scrub = -1;
  app.target = null;
  $('run-progress').hidden = true;
  app.acc = 0;
  app.summaryAt = 0;
  history.replaceState(null, '', buildQuery(app.settings) + (app.embed ? '&embed=1' : ''));
  return true;
}

/** After a change of scenario, integrator, step or settings: start over and play. */
function restartAndPlay() {
  if (restart()) setPlaying(true);
}

function setPlaying(on) {
  if (on && app.runs.every((x) => x.error)) on = false;
  if (on) app.scrub = -1; // back to the live state
  else app.target = null;
  app.playing = on;
  $('play').textContent = on ? 'Pause' : 'Play';
  $('play').classList.toggle('on', on);
  $('play').setAttribute('aria-pressed', String(on));
  app.last = performance.now();
  app.stats = { steps: 0, since: performance.now(), rate: 0, rt: 0 };
  app.summaryAt = 0; // announce the change
}

/** Take n steps with every live run, in lockstep (so the charts compare them at equal times).
 * The history and the charts get a sample every `history.stride` steps: a fixed interval of
 * simulated time, however many steps a frame takes. */
function stepOnce(n) {
  if (!app.run) return;
  app.scrub = -1;
  const failed = [];
  let left = n;
  while (left > 0) {
    const lead = app.runs.find((x) => !x.error);
    if (!lead) break;
    const m = Math.min(left, app.history.due(lead.steps));
    app.runs.forEach((x, i) => {
      if (x.error) return;
      x.advance(m, app.history, i);
      if (x.error) failed.push(x);
    });
    left -= m;
    app.stats.steps += m;
    if (lead.steps % app.history.stride === 0) {
      app.charts.push(app.runs.map((x) => (x.error ? null : x.inv)));
      if ($('trails').checked && !app.run.error) app.renderer.recordTrails(app.run.poses);
    }
    if (failed.length) break;
  }
  if (failed.length) reportFailure(failed);
}

function reportFailure(failed) {
  const live = app.runs.filter((x) => !x.error);
  const what = failed.map((x) => `${app.runs.length > 1 ? LABEL[x.name] : 'The run'} stopped ${x.error}.`).join(' ');
  if (live.length) {
    showError(`${what} Its last good state stays in the view and the charts; ${live.map((x) => LABEL[x.name]).join(' and ')} ${live.length > 1 ? 'keep' : 'keeps'} running.`, 'reset');
    return;
  }
  setPlaying(false);
  const stopped = app.runs.filter((x) => x.error);
  const more = stopped.length > failed.length ? ' All runs have stopped.' : '';
  showError(`${what}${more} The last good state is shown (nothing after it is drawn or charted).`, 'halve');
}

function frame(now) {
  const r = app.run;
  if (r && app.playing) {
    const h = r.sim.dt();
    const speed = app.target !== null ? 1e9 : app.speed || 1e9;
    app.acc += Math.min((now - app.last) / 1000, 0.1) * speed;
    let want = Math.floor(app.acc / h + 1e-9);
    if (app.target !== null) want = Math.min(want, Math.max(0, Math.round((app.target - r.inv[0]) / h)));
    const ms = app.runs.reduce((sum, x) => sum + (x.error ? 0 : x.msPerStep), 0);
    const cap = ms > 0 ? Math.max(1, Math.floor(FRAME_BUDGET_MS / ms)) : 4;
    const n = Math.min(want, cap);
    if (n > 0) stepOnce(n);
    app.acc = want > cap ? 0 : app.acc - n * h;
    if (app.target !== null) runToProgress();
  }
  app.last = now;
  if (r) {
    draw();
    app.charts.redraw();
    updateReadout(now);
  }
  requestAnimationFrame(frame);
}

function runToProgress() {
  const t = app.run.inv[0], goal = app.target;
  $('run-progress').value = Math.min(1, t / goal);
  if (t >= goal - 0.5 * app.run.sim.dt() || !app.playing) {
    setPlaying(false);
    $('run-progress').hidden = true;
  }
}

/** Draw the live state, or the stored sample the scrubber points at. */
function draw() {
  const r = app.run;
  if (app.scrub < 0) {
    app.renderer.draw(r.poses, r.sizes, r.joints, app.ghosts);
    return;
  }
  const s = app.history.sample(0, app.scrub) ?? app.history.sample(0, app.history.last[0]);
  app.scrubGhosts.forEach((g, i) => {
    const x = app.history.sample(i + 1, Math.min(app.scrub, app.history.last[i + 1]));
    g.poses = x ? x.poses : app.runs[i + 1].poses;
  });
  app.renderer.draw(s.poses, r.sizes, s.joints, app.scrubGhosts);
}

/** What the readout, the hash and the scrubber show: the live state or the scrubbed sample. */
function shown() {
  const r = app.run;
  if (app.scrub >= 0) {
    const s = app.history.sample(0, Math.min(app.scrub, app.history.last[0]));
    if (s) return { inv: s.inv, hash: s.hash, live: false };
  }
  return { inv: r.inv, hash: null, live: true };
}

const fmtE = (v) => (Math.abs(v) >= 1e5 || (Math.abs(v) < 1e-3 && v !== 0) ? v.toExponential(6) : v.toFixed(6));

function updateReadout(now) {
  const s = app.stats, r = app.run;
  const dt = (now - s.since) / 1000;
  if (dt > 0.5) {
    s.rate = s.steps / dt;
    s.rt = s.rate * r.sim.dt();
    s.steps = 0;
    s.since = now;
    app.hash = r.sim.state_hash();
  }
  const { inv, hash, live } = shown();
  const state = !live ? `history (sample of t = ${inv[0].toFixed(3)} s; Play returns to the live run)`
    : app.target !== null ? `running to t = ${app.target} s as fast as possible (${s.rt.toFixed(1)} x real time)`
      : app.playing ? `${s.rate.toFixed(0)} steps/s, ${s.rt.toFixed(2)} x real time`
        : r.error ? 'stopped (see the message above)' : 'paused: press Play or space to run';
  $('readout').textContent =
    `t = ${inv[0].toFixed(3)} s   h = ${r.sim.dt()} s   ${LABEL[r.name]}\n` +
    `E = T + V = ${fmtE(inv[1])} J   (T = ${fmtE(inv[2])} J, V = ${fmtE(inv[3])} J)\n` +
    `Newton: ${inv[9]} iterations, residual ${inv[10].toExponential(1)}\n` + state;
  const h = hash ?? (app.playing ? app.hash ?? r.sim.state_hash() : r.sim.state_hash());
  if ($('hash').textContent !== h) $('hash').textContent = h;
  updateScrubber(inv[0]);
  if (now - app.summaryAt > (app.playing ? SUMMARY_EVERY_MS : 1e12) || app.summaryAt === 0) {
    app.summaryAt = now;
    const text = `t = ${inv[0].toFixed(1)} s, ${app.playing ? 'playing' : live ? 'paused' : 'showing the history'}. ` + (app.charts.summary?.() ?? '');
    if ($('sr-summary').textContent !== text) $('sr-summary').textContent = text;
  }
}

function updateScrubber(t) {
  const el = $('scrub'), k = app.history.count - 1;
  const end = k >= 0 ? app.history.time(k) : 0;
  if (document.activeElement !== el || app.scrub < 0) {
    el.max = String(end);
    el.value = String(app.scrub >= 0 ? t : end);
  }
  el.setAttribute('aria-valuetext', `${t.toFixed(2)} seconds of ${end.toFixed(2)}`);
  app.charts.setCursor?.(app.scrub >= 0 ? t : null);
}

/** Show the stored state nearest to time t (s): the view, the readout, the hash, the chart cursor. */
function scrubTo(t) {
  if (app.playing) setPlaying(false);
  app.scrub = Math.max(0, app.history.nearest(t));
}

function exportSettings() {
  const r = app.run;
  return {
    scenario: app.settings.scenario, integrators: app.runs.map((x) => x.name), dt: r.sim.dt(), tol: r.sim.tol(),
    alpha: r.sim.gains()[0], beta: r.sim.gains()[1], link: location.origin + location.pathname + buildQuery(app.settings),
  };
}

function wire() {
  const onChange = (id, f) => $(id).addEventListener('change', f);
  onChange('scenario', () => { app.settings.scenario = $('scenario').value; app.settings.dt = 0; buildParams(); restartAndPlay(); });
  onChange('integrator', () => {
    const prev = app.settings.integrator;
    app.settings.integrator = $('integrator').value;
    app.settings.dt = 0; // the step that suits the new integrator
    if (app.settings.compare === app.settings.integrator) app.settings.compare = '';
    if (restart()) setPlaying(true);
    else { app.settings.integrator = prev; $('integrator').value = prev; }
  });
  onChange('dt', () => {
    const v = Number($('dt').value);
    if (!(v >= 1e-6 && v <= 1)) { showError('The step h must be a number between 1e-6 and 1 s.'); return; }
    app.settings.dt = v;
    restartAndPlay();
  });
  onChange('compare', () => { app.settings.compare = $('compare').value; restartAndPlay(); });
  onChange('trails', () => app.renderer.clearTrails());
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
  onChange('speed', () => { app.speed = Number($('speed').value); app.acc = 0; });
  $('notice-use').addEventListener('click', () => { app.settings.dt = Number($('notice-use').dataset.dt); restartAndPlay(); });
  $('error-reset').addEventListener('click', () => { setPlaying(false); restart(); });
  $('error-halve').addEventListener('click', () => {
    const h = app.run.sim.dt() / 2;
    try {
      for (const x of app.runs) x.resume(h);
    } catch (e) {
      showError(e.message);
      return;
    }
    app.settings.dt = h;
    $('dt').value = h;
    history.replaceState(null, '', buildQuery(app.settings) + (app.embed ? '&embed=1' : ''));
    clearError();
    setPlaying(true);
  });
  $('play').addEventListener('click', () => setPlaying(!app.playing));
  $('step').addEventListener('click', () => { setPlaying(false); stepOnce(1); });
  $('reset').addEventListener('click', () => { setPlaying(false); restart(); });
  $('share').addEventListener('click', () => {
    copyText(location.origin + location.pathname + buildQuery(app.settings), $('share'), 'Copied', 'Copy this link:');
  });
  $('scrub').addEventListener('input', () => scrubTo(Number($('scrub').value)));
  $('live').addEventListener('click', () => { app.scrub = -1; setPlaying(true); });
  $('run-to').addEventListener('submit', (e) => {
    e.preventDefault();
    const goal = Number($('run-to-t').value);
    const t = app.run.inv[0];
    if (!(goal > t && goal <= 1e6)) { showError(`"Run to" needs a time after the current t = ${t.toFixed(3)} s (at most 1e6 s).`); return; }
    if (app.run.error) { showError(`The run has stopped (${app.run.error}); reset it first.`, 'reset'); return; }
    setPlaying(true);
    app.target = goal;
    $('run-progress').value = t / goal;
    $('run-progress').hidden = false;
  });
  $('export-csv').addEventListener('click', () => {
    download(exportName('csv'), 'text/csv', app.history.csv(wasm.invariant_fields(), app.runs.map((x) => x.name)));
  });
  $('export-json').addEventListener('click', () => {
    const finals = app.runs.map((x) => ({ t: x.inv[0], steps: x.steps, state_hash: x.sim.state_hash(), error: x.error }));
    download(exportName('json'), 'application/json', app.history.json(wasm.invariant_fields(), app.runs.map((x) => x.name), exportSettings(), finals));
  });
  $('export-png').addEventListener('click', () => $('canvas').toBlob((b) => b && download(exportName('png'), 'image/png', b)));
  $('embed').addEventListener('click', () => {
    const src = location.origin + location.pathname + buildQuery(app.settings) + '&embed=1';
    const snippet = `<iframe src="${escapeAttr(src)}" width="800" height="520" style="border:0" title="${escapeAttr(`Tumble: ${description()}`)}"></iframe>`;
    copyText(snippet, $('embed'), 'Embed snippet copied', 'Copy this embed snippet:');
  });
  // Shortcuts work whatever control has focus, except while typing in a field (number and
  // text inputs, the scrubber's own arrow keys); Enter still activates a focused button.
  document.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.target.closest?.('input:not([type=checkbox]), textarea, [contenteditable]')) return;
    if (e.key === ' ') setPlaying(!app.playing);
    else if (e.key === 'ArrowRight') { setPlaying(false); stepOnce(1); }
    else if (e.key === 'r' || e.key === 'R') { setPlaying(false); restart(); }
    else return;
    e.preventDefault();
    e.stopPropagation();
  }, true);
}

async function main() {
  await init();
  const { settings, error } = parseQuery(location.search);
  app.embed = new URLSearchParams(location.search).get('embed') === '1';
  document.body.classList.toggle('embed', app.embed);
  app.renderer = new Renderer($('canvas'));
  app.charts = new Charts($('charts'));
  app.presets = wasm.presets();
  for (const p of app.presets) {
    const o = new Option(p.name, p.name);
    o.title = p.description;
    $('scenario').append(o);
  }
  app.settings = settings;
  let linkError = error;
  if (!linkError) {
    try {
      app.settings.scenario = wasm.canonical_scenario(settings.scenario);
    } catch (e) {
      linkError = `This link's scenario is not valid: ${e.message}`;
    }
  }
  if (linkError) app.settings = { ...DEFAULTS };
  buildParams();
  if (!restart()) {
    const why = $('error-text').textContent;
    app.settings = { ...DEFAULTS };
    buildParams();
    restart();
    showError(why + ' The default scene is shown instead.');
  }
  if (linkError) showError(linkError + ' The default scene is shown instead.');
  wire();
  // a read-only hook for the browser tests
  window.tumble = {
    chartPoints: () => app.charts.points(),
    time: () => app.run.inv[0],
    energy: () => app.run.inv[1],
    hash: () => app.run.sim.state_hash(),
    shownHash: () => $('hash').textContent,
    error: () => (errorEl.hidden ? null : $('error-text').textContent),
    notice: () => ($('notice').hidden ? null : $('notice-text').textContent),
    playing: () => app.playing,
    historyLength: () => app.history.count,
    scrubTo: (t) => { scrubTo(t); updateReadout(performance.now()); return shown().inv[0]; },
    runs: () => app.runs.map((x) => [x.name, x.inv[0], x.inv[1], x.error]),
  };
  setPlaying(true);
  requestAnimationFrame(frame);
}

main().catch((e) => showError(`Tumble could not start: ${e.message}`));
