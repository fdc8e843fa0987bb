// main.js: wires the page: controls, keyboard, the frame loop, the error panel, share links.
import init, * as wasm from './pkg/tumble_wasm.js';
import { Renderer } from './render.js';
import { Charts, INTEGRATOR_COLORS } from './charts.js';
import { Run } from './sim.js';
import { parseQuery, buildQuery, DEFAULTS, INTEGRATORS } from './url.js';

const $ = (id) => document.getElementById(id);
const errorEl = $('error');
const FRAME_BUDGET_MS = 12; // stepping per animation frame stays below this: the page stays responsive

function showError(msg, actions = false) {
  $('error-text').textContent = msg; // text only, never HTML
  $('error-actions').hidden = !actions;
  errorEl.hidden = false;
}
function clearError() {
  errorEl.hidden = true;
  $('error-text').textContent = '';
}

const MAX_HISTORY = 200000; // samples kept for export (one per frame while playing)
const app = { run: null, playing: false, acc: 0, last: 0, speed: 1, settings: { ...DEFAULTS }, presets: [], history: [], stats: { steps: 0, since: 0, rate: 0, rt: 0 } };

function record(inv) {
  if (app.history.length < MAX_HISTORY) app.history.push(Float64Array.from(inv));
}

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
  return `tumble-${s}-${app.settings.integrator}.${ext}`;
}

function splitScenario(text) {
  const [name, query = ''] = text.split('?');
  const values = Object.fromEntries(new URLSearchParams(query));
  return { name, values };
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
    label.append(q.key + ' ');
    let input;
    if (q.choices.length) {
      input = document.createElement('select');
      for (const c of q.choices) input.append(new Option(c, c));
      input.value = values[q.key] ?? q.choices[0];
    } else {
      input = document.createElement('input');
      input.type = 'number';
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
    restart();
  } catch (e) {
    showError(e.message);
  }
}

const hexColor = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16) / 255);

function restart() {
  const names = [app.settings.integrator];
  const others = INTEGRATORS.filter((n) => n !== app.settings.integrator);
  if (app.settings.compare === 'all') names.push(...others);
  else if (others.includes(app.settings.compare)) names.push(app.settings.compare);
  const runs = [];
  try {
    for (const integrator of names) runs.push(new Run(wasm, { ...app.settings, integrator }));
  } catch (e) {
    for (const r of runs) r.free();
    showError(e.message);
    return false;
  }
  for (const r of app.runs ?? []) r.free();
  app.runs = runs;
  app.run = runs[0];
  clearError();
  const r = app.run;
  $('scenario').value = splitScenario(app.settings.scenario).name;
  $('integrator').value = app.settings.integrator;
  $('dt').value = r.sim.dt();
  $('tol').value = app.settings.tol || '';
  [$('alpha').value, $('beta').value] = r.sim.gains();
  app.renderer.frame(r.poses, r.sizes, r.joints, r.nj > 0);
  app.renderer.clearTrails();
  app.charts.reset(names, runs.map((x) => x.inv), r.conserved ?? ((s) => (/^(free-body|flip)(\?|$)/.test(s) ? [true, true, true] : /^(top|nk-spherical)(\?|$)|^chain\?.*joint=spherical/.test(s) ? [false, false, true] : [false, false, false]))(app.settings.scenario)); // stopgap until the wasm module says what is conserved
  app.charts.push(runs.map((x) => x.inv));
  app.ghosts = runs.slice(1).map((x, i) => ({ poses: x.poses, color: hexColor(INTEGRATOR_COLORS[names[i + 1]]) }));
  $('compare').value = app.settings.compare;
  app.history = [];
  record(r.inv);
  app.acc = 0;
  history.replaceState(null, '', buildQuery(app.settings) + (app.embed ? '&embed=1' : ''));
  return true;
}

function setPlaying(on) {
  app.playing = on;
  $('play').textContent = on ? 'Pause' : 'Play';
  $('play').classList.toggle('on', on);
  app.last = performance.now();
  app.stats = { steps: 0, since: performance.now(), rate: 0, rt: 0 };
}

function stepOnce(n) {
  const r = app.run;
  if (!r) return;
  // every run takes the same steps, so the charts compare them at equal times
  let taken = n, error = null, who = '';
  for (const x of app.runs) {
    const res = x.advance(taken);
    if (res.taken < taken || res.error) {
      taken = res.taken;
      error = res.error ?? 'the step failed';
      who = x.sim.integrator();
      break;
    }
  }
  app.stats.steps += taken;
  if (taken > 0 && !error && app.charts.push(app.runs.map((x) => x.inv))) record(r.inv);
  if (taken > 0 && $('trails').checked) app.renderer.recordTrails(r.poses);
  if (error) {
    setPlaying(false);
    const which = app.runs.length > 1 ? ` (${who})` : '';
    showError(`The run${which} stopped ${error}. The last good state is shown (nothing after it is drawn or charted).`, true);
  }
}

function frame(now) {
  const r = app.run;
  if (r && app.playing) {
    const h = r.sim.dt();
    app.acc += Math.min((now - app.last) / 1000, 0.1) * (app.speed || 1e9);
    const want = Math.floor(app.acc / h);
    const ms = app.runs.reduce((sum, x) => sum + x.msPerStep, 0);
    const cap = ms > 0 ? Math.max(1, Math.floor(FRAME_BUDGET_MS / ms)) : 4;
    const n = Math.min(want, cap);
    if (n > 0) stepOnce(n);
    app.acc = want > cap ? 0 : app.acc - n * h;
  }
  app.last = now;
  if (r) {
    app.renderer.draw(r.poses, r.sizes, r.joints, app.ghosts);
    app.charts.redraw();
    updateReadout(now);
  }
  requestAnimationFrame(frame);
}

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
  const inv = r.inv;
  $('readout').textContent =
    `t = ${inv[0].toFixed(3)} s   h = ${r.sim.dt()}   ${r.sim.integrator()}\n` +
    `E = ${inv[1].toPrecision(10)}   Newton ${inv[9]} it, residual ${inv[10].toExponential(1)}\n` +
    (app.playing ? `${s.rate.toFixed(0)} steps/s, ${s.rt.toFixed(2)} x real time` : 'paused');
  const hash = app.playing ? app.hash ?? r.sim.state_hash() : r.sim.state_hash();
  if ($('hash').textContent !== hash) $('hash').textContent = hash;
}

async function main() {
  await init();
  const { settings, error } = parseQuery(location.search);
  app.embed = new URLSearchParams(location.search).get('embed') === '1';
  document.body.classList.toggle('embed', app.embed);
  app.renderer = new Renderer($('canvas'));
  app.charts = new Charts($('charts'));
  app.presets = wasm.presets();
  for (const p of app.presets) $('scenario').append(new Option(p.name, p.name));
  for (const p of app.presets) $('scenario').querySelector(`option[value="${p.name}"]`).title = p.description;
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

  $('scenario').addEventListener('change', () => { app.settings.scenario = $('scenario').value; app.settings.dt = 0; buildParams(); restart(); });
  $('integrator').addEventListener('change', () => {
    const prev = app.settings.integrator;
    app.settings.integrator = $('integrator').value;
    if (!restart()) { app.settings.integrator = prev; $('integrator').value = prev; }
  });
  $('dt').addEventListener('change', () => {
    const v = Number($('dt').value);
    if (!(v >= 1e-6 && v <= 1)) { showError('The step h must be a number between 1e-6 and 1 s.'); return; }
    app.settings.dt = v;
    restart();
  });
  $('compare').addEventListener('change', () => { app.settings.compare = $('compare').value; restart(); });
  $('trails').addEventListener('change', () => app.renderer.clearTrails());
  $('error-reset').addEventListener('click', () => { setPlaying(false); restart(); });
  $('error-halve').addEventListener('click', () => {
    const h = app.run.sim.dt() / 2;
    try {
      for (const x of app.runs) x.sim.set_dt(h);
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
  $('speed').addEventListener('change', () => { app.speed = Number($('speed').value); app.acc = 0; });
  $('export-csv').addEventListener('click', () => {
    const head = wasm.invariant_fields().join(',');
    download(exportName('csv'), 'text/csv', [head, ...app.history.map((v) => Array.from(v).join(','))].join('\n') + '\n');
  });
  $('export-json').addEventListener('click', () => {
    const fields = wasm.invariant_fields();
    const samples = app.history.map((v) => Object.fromEntries(fields.map((f, i) => [f, v[i]])));
    download(exportName('json'), 'application/json', JSON.stringify({ scenario: app.settings.scenario, integrator: app.settings.integrator, dt: app.run.sim.dt(), samples }));
  });
  $('export-png').addEventListener('click', () => $('canvas').toBlob((b) => b && download(exportName('png'), 'image/png', b)));
  $('embed').addEventListener('click', () => {
    const src = location.origin + location.pathname + buildQuery(app.settings) + '&embed=1';
    const snippet = `<iframe src="${src.replace(/"/g, '&quot;')}" width="800" height="520" style="border:0" title="Tumble: ${app.settings.scenario.replace(/[<>"&]/g, '')}"></iframe>`;
    copyText(snippet, $('embed'), 'Embed snippet copied', 'Copy this embed snippet:');
  });
  for (const [id, lo, hi] of [['tol', 1e-14, 1e-3], ['alpha', 0, 1e4], ['beta', 0, 1e4]]) {
    $(id).addEventListener('change', () => {
      const raw = $(id).value.trim();
      const v = Number(raw);
      if (id === 'tol' && raw === '') app.settings.tol = 0;
      else if (!(v >= lo && v <= hi)) { showError(`${id} must be a number between ${lo} and ${hi}.`); return; }
      else app.settings[id] = v;
      restart();
    });
  }
  $('play').addEventListener('click', () => setPlaying(!app.playing));
  $('step').addEventListener('click', () => { setPlaying(false); stepOnce(1); });
  $('reset').addEventListener('click', () => { setPlaying(false); restart(); });
  $('share').addEventListener('click', () => {
    copyText(location.origin + location.pathname + buildQuery(app.settings), $('share'), 'Copied', 'Copy this link:');
  });
  document.addEventListener('keydown', (e) => {
    if (e.target.closest('input, select, textarea')) return;
    if (e.key === ' ') { e.preventDefault(); setPlaying(!app.playing); }
    else if (e.key === 'ArrowRight') { e.preventDefault(); setPlaying(false); stepOnce(1); }
    else if (e.key === 'r' || e.key === 'R') { setPlaying(false); restart(); }
  });
  // a read-only hook for the browser tests
  window.tumble = {
    chartPoints: () => app.charts.points(),
    time: () => app.run.inv[0],
    energy: () => app.run.inv[1],
    hash: () => app.run.sim.state_hash(),
    error: () => (errorEl.hidden ? null : $('error-text').textContent),
    playing: () => app.playing,
    historyLength: () => app.history.length,
    runs: () => app.runs.map((x) => [x.sim.integrator(), x.inv[0], x.inv[1]]),
  };
  setPlaying(true);
  requestAnimationFrame(frame);
}

main().catch((e) => showError(`Tumble could not start: ${e.message}`));
