// study.js: the Study view: a convergence study of the integrators on one scenario,
// computed in Web Workers (study-worker.js, one per run, at most navigator.hardwareConcurrency
// at once) with the same runs and numbers as `tumble study` (tumble::study through the wasm
// module: study_plan, StudyRun, study_report). Settings, a progress bar per run with the time
// left and Cancel, the plots (study-plots.js), the table of runs, exports (the CLI's CSV and
// JSON, the plots as PNG), a share link and the explanation (study-explain.js).
import * as wasm from '../pkg/tumble_wasm.js';
import { loadSolver } from '../sim/engine.js';
import { INTEGRATORS, INTEGRATOR_COLORS, LABEL } from '../shared/names.js';
import { STUDY_DEFAULTS, buildStudyQuery } from '../shared/url.js';
import { timeLeft, formatLeft, num, step, longestFirst, guessTime } from './study-core.js';
import { StudyPlots } from './study-plots.js';
import { renderStudyExplanation } from './study-explain.js';

const UI_EVERY_MS = 100; // progress bars and the time left are redrawn at most this often

function el(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (k.startsWith('aria-') || k.startsWith('data-') || k === 'for' || k === 'role') e.setAttribute(k, v);
    else e[k] = v;
  }
  e.append(...children);
  return e;
}

const isCustom = (text) => text.trimStart().startsWith('{');

/** How a run is named in the progress list and the table. */
function runName(r) {
  if (r.role === 'reference') return `reference (director), h = ${step(r.dt)} s`;
  if (r.role === 'reference-check') return `reference check (director), h = ${step(r.dt)} s`;
  if (r.role === 'long') return `${LABEL[r.integrator]} long run, h = ${step(r.dt)} s to ${step(r.duration)} s`;
  return `${LABEL[r.integrator]}, h = ${step(r.dt)} s`;
}

export class StudyView {
  /**
   * @param root the <section> the view fills
   * @param host { presets: [{ name, description }], live: () => ({ scenario, system, problem }),
   *   download(name, type, data), copyText(text, button, done, ask), setQuery(query) }
   */
  constructor(root, host) {
    this.root = root;
    this.host = host;
    this.study = { ...STUDY_DEFAULTS, integrators: [...STUDY_DEFAULTS.integrators] };
    this.choice = { scenario: 'nk-revolute', system: undefined };
    this.job = null;
    this.result = null;
    this.posts = 0; // messages received from workers (the tests read it through the hook)
    this.build();
  }

  build() {
    const id = (s) => `study-${s}`;
    const field = (label, input, title) => el('label', { title }, label, ' ', input);
    this.scenarioSel = el('select', { id: id('scenario') });
    this.checks = INTEGRATORS.map((n) => {
      const box = el('input', { type: 'checkbox', value: n, id: id(`use-${n}`) });
      const sw = el('span', { class: 'study-swatch', 'aria-hidden': 'true' });
      sw.style.background = INTEGRATOR_COLORS[n];
      return { n, box, label: el('label', { class: 'study-check', for: box.id }, box, sw, LABEL[n]) };
    });
    this.h0 = el('input', { id: id('h0'), type: 'number', min: '0.000001', max: '1', step: 'any', inputMode: 'decimal', placeholder: 'default' });
    this.levels = el('input', { id: id('levels'), type: 'number', min: '1', max: '16', step: '1', inputMode: 'numeric' });
    this.duration = el('input', { id: id('T'), type: 'number', min: '0', max: '1000000', step: 'any', inputMode: 'decimal' });
    this.longOn = el('input', { id: id('long-on'), type: 'checkbox' });
    this.long = el('input', { id: id('long'), type: 'number', min: '0', max: '1000000', step: 'any', inputMode: 'decimal', 'aria-label': 'long horizon T_long (s)' });
    this.runBtn = el('button', { id: id('run'), type: 'submit', class: 'study-primary', text: 'Run study' });
    this.cancelBtn = el('button', { id: id('cancel'), type: 'button', text: 'Cancel', disabled: true });
    this.form = el('form', { id: id('form'), class: 'study-controls', 'aria-label': 'Study settings' },
      field('Scenario', this.scenarioSel, 'The scenario to study: a preset with its default parameters, or the scenario of the live view (a custom system from the editor included)'),
      el('fieldset', { class: 'study-integrators' }, el('legend', { text: 'Integrators' }), ...this.checks.map((c) => c.label)),
      field('H0 (s)', this.h0, 'The coarsest step; empty: each integrator\'s own step for this scenario (the live view\'s default)'),
      field('levels K', this.levels, 'Steps H0, H0/2, ... H0/2^(K-1): K runs per integrator'),
      field('T (s)', this.duration, 'Simulated time of each run; the error is measured at T'),
      el('span', { class: 'study-long' }, el('label', { for: this.longOn.id }, this.longOn, ' long run to T_long (s)'), this.long),
      el('span', { class: 'study-buttons' }, this.runBtn, this.cancelBtn));
    this.planText = el('p', { id: id('plan'), class: 'study-plan' });
    this.error = el('div', { id: id('error'), class: 'error', role: 'alert', hidden: true });
    this.progress = el('progress', { id: id('progress'), max: 1, value: 0, 'aria-label': 'Progress of the study' });
    this.statusText = el('span', { id: id('status-text') });
    this.status = el('div', { id: id('status'), class: 'study-status', role: 'status' }, this.progress, ' ', this.statusText);
    this.runList = el('ol', { id: id('runs'), class: 'study-runs', 'aria-label': 'Progress of each run' });
    this.runSummary = el('summary', { text: 'Runs' });
    // open while a study runs; closed once it is done (the plots come next)
    this.runBox = el('details', { class: 'study-runs-box', hidden: true }, this.runSummary, this.runList);
    this.plotsEl = el('div', { id: id('plots'), class: 'study-plots', role: 'group', 'aria-label': 'Study plots' });
    this.ordersEl = el('div', { id: id('orders'), class: 'study-orders' });
    this.warning = el('p', { id: id('warning'), class: 'notice', hidden: true });
    // scrolls sideways on a phone: focusable, so the keyboard can scroll it too
    this.tableEl = el('div', { id: id('table'), class: 'study-table-wrap', role: 'region', 'aria-label': 'Table of the runs', tabIndex: 0 });
    this.csvBtn = el('button', { id: id('csv'), type: 'button', text: 'CSV', disabled: true });
    this.jsonBtn = el('button', { id: id('json'), type: 'button', text: 'JSON', disabled: true });
    this.pngBtn = el('button', { id: id('png'), type: 'button', text: 'PNG', disabled: true });
    this.linkBtn = el('button', { id: id('link'), type: 'button', text: 'Copy link to this study' });
    this.exports = el('p', { class: 'exports study-exports' }, 'Export the study as ', this.csvBtn, ' ', this.jsonBtn,
      ' (the same as tumble study --format csv / json), the plots as ', this.pngBtn, ' \u00b7 ', this.linkBtn);
    this.explain = el('section', { class: 'explain', 'aria-label': 'Explanation of the study' });
    const intro = el('p', { class: 'study-intro' }, el('strong', { text: 'Convergence study. ' }),
      'Each integrator runs the scenario at the steps H0, H0/2, H0/4, ... to the time T: the plots show how fast its error falls as the step shrinks (its order), what each digit of accuracy costs in computing time, and how its energy behaves over a long run. The same numbers as the command line\'s tumble study.');
    this.root.append(intro, this.form, this.planText, this.error, this.status, this.runBox, this.warning, this.plotsEl, this.ordersEl,
      this.tableEl, this.exports, this.explain);
    this.status.hidden = true;
    this.tableEl.hidden = true;
    this.plots = new StudyPlots(this.plotsEl);
    renderStudyExplanation(this.explain, INTEGRATORS);

    this.form.addEventListener('submit', (e) => { e.preventDefault(); this.run(); });
    this.cancelBtn.addEventListener('click', () => this.cancel());
    this.form.addEventListener('change', (e) => this.readForm(e.target));
    this.csvBtn.addEventListener('click', () => this.exportText('csv'));
    this.jsonBtn.addEventListener('click', () => this.exportText('json'));
    this.pngBtn.addEventListener('click', () => this.exportPng());
    this.linkBtn.addEventListener('click', () => {
      if (isCustom(this.choice.scenario) && !this.choice.system) { this.showError(this.host.live().problem ?? 'This custom system has no link (too large for one).'); return; }
      this.host.copyText(this.link(), this.linkBtn, 'Copied', 'Copy this link:');
    });
  }

  /** The scenario menu: the presets, the live view's scenario when it is not a plain preset,
   * and the chosen one when it is neither (from a link). */
  fillScenarios() {
    const live = this.host.live();
    const items = this.host.presets.map((p) => ({ scenario: p.name, label: p.name, title: p.description }));
    const add = (c, label) => { if (!items.some((x) => x.scenario === c.scenario)) items.push({ ...c, label }); };
    const describe = (s) => (isCustom(s) ? 'custom system (as in the live view)' : `${s} (as in the live view)`);
    add({ scenario: live.scenario, system: live.system }, describe(live.scenario));
    add(this.choice, isCustom(this.choice.scenario) ? 'custom system (from the link)' : this.choice.scenario);
    this.items = items;
    this.scenarioSel.replaceChildren(...items.map((x, i) => {
      const o = new Option(x.label, String(i));
      if (x.title) o.title = x.title;
      return o;
    }));
    this.scenarioSel.value = String(items.findIndex((x) => x.scenario === this.choice.scenario));
  }

  /** Show `choice` ({ scenario (canonical), system }) and `study` settings in the form. */
  set(choice, study) {
    if (choice) this.choice = { scenario: choice.scenario, system: choice.system };
    if (study) this.study = { ...study, integrators: [...study.integrators] };
    this.fillScenarios();
    for (const c of this.checks) c.box.checked = this.study.integrators.includes(c.n);
    this.h0.value = this.study.h0 ? String(this.study.h0) : '';
    this.levels.value = String(this.study.levels);
    this.duration.value = String(this.study.duration);
    this.longOn.checked = this.study.long > 0;
    this.long.value = String(this.study.long > 0 ? this.study.long : this.lastLong ?? STUDY_DEFAULTS.long);
    this.long.disabled = !this.longOn.checked;
    this.preview();
  }

  /** Read the form after a change of `target`; the settings stay as they were where a field is not valid. */
  readForm(target) {
    const s = this.study;
    if (target === this.scenarioSel) {
      const x = this.items[Number(this.scenarioSel.value)];
      this.choice = { scenario: x.scenario, system: x.system };
    }
    const integrators = this.checks.filter((c) => c.box.checked).map((c) => c.n);
    s.integrators = integrators;
    const h0 = this.h0.value.trim() === '' ? 0 : Number(this.h0.value);
    s.h0 = h0;
    s.levels = Number(this.levels.value);
    s.duration = Number(this.duration.value);
    this.long.disabled = !this.longOn.checked;
    const long = Number(this.long.value);
    if (this.longOn.checked && long > 0) this.lastLong = long;
    s.long = this.longOn.checked ? long : 0;
    this.preview();
  }

  /** The options of study_plan / study_report for the current settings. */
  options() {
    const s = this.study;
    return { scenario: this.choice.scenario, integrators: s.integrators, dt: s.h0, levels: s.levels, duration: s.duration, long: s.long };
  }

  link() {
    return location.origin + location.pathname + buildStudyQuery(this.choice, this.study);
  }

  /** Check the settings (study_plan) and say what the study will run; false with the reason shown if it cannot. */
  preview() {
    this.host.setQuery(buildStudyQuery(this.choice, this.study));
    let plan;
    try {
      if (!this.study.integrators.length) throw new Error('Pick at least one integrator.');
      if (!Number.isInteger(this.study.levels)) throw new Error('The number of levels K must be a whole number from 1 to 16.');
      plan = wasm.study_plan(this.options());
    } catch (e) {
      this.planText.textContent = '';
      this.showError(`This study cannot run: ${e.message.replace(/^./, (c) => c.toLowerCase())}`);
      this.runBtn.disabled = true;
      return false;
    }
    this.clearError();
    this.runBtn.disabled = !!this.job;
    const s = this.study;
    const ref = plan.runs.find((r) => r.role === 'reference');
    const steps = plan.runs.reduce((k, r) => k + r.steps, 0);
    const h0 = s.integrators.map((n, i) => `${LABEL[n]} ${step(plan.h0[i])} s`).join(', ');
    const longs = plan.runs.filter((r) => r.role === 'long');
    this.planText.textContent = `${plan.runs.length} runs, ${steps.toLocaleString('en')} steps in all: ${s.integrators.length} integrator${s.integrators.length > 1 ? 's' : ''} \u00d7 ${s.levels} level${s.levels > 1 ? 's' : ''} to T = ${step(s.duration)} s from H0 = ${h0}`
      + (s.levels > 1 ? ` down to H0/${2 ** (s.levels - 1)}` : '') + `; the reference: the director at h = ${step(ref.dt)} s (${ref.steps.toLocaleString('en')} steps) and its check run`
      + (longs.length ? `; long runs at H0 to ${step(s.long)} s (${longs.map((r) => r.steps.toLocaleString('en')).join(', ')} steps).` : '; no long run.');
    const slots = Math.max(1, Math.min(navigator.hardwareConcurrency || 2, plan.runs.length));
    const guess = guessTime(plan.runs, plan.bodies, slots);
    this.planText.textContent += ` Expect ${guess < 60 ? `some ${Math.max(1, Math.round(guess))} s` : `some ${Math.round(guess / 60)} min`} on ${slots} core${slots > 1 ? 's' : ''} (a guess from the steps and the ${plan.bodies} ${plan.bodies === 1 ? 'body' : 'bodies'}; the time left is measured once it runs)${guess > 60 ? ': fewer levels, a shorter T or no long run make it quicker' : ''}.`;
    return true;
  }

  showError(msg) {
    this.error.textContent = msg;
    this.error.hidden = false;
  }

  clearError() {
    this.error.hidden = true;
    this.error.textContent = '';
  }

  /** Start the study: one worker per run, longest first, at most hardwareConcurrency at once. */
  async run() {
    if (this.job || !this.preview()) return;
    const module = await loadSolver();
    const options = this.options();
    const plan = wasm.study_plan(options);
    const n = plan.runs.length;
    const slots = Math.max(1, Math.min(navigator.hardwareConcurrency || 2, n));
    const job = {
      options, plan, module, slots, records: new Array(n).fill(null), workers: new Map(),
      runs: plan.runs.map((r) => ({ ...r, state: 'waiting', done: 0, wall: 0, message: null })),
      order: longestFirst(plan.runs), next: 0, finished: 0, started: performance.now(), uiAt: 0, uiTimer: 0,
      settings: { choice: { ...this.choice }, study: { ...this.study, integrators: [...this.study.integrators] } },
    };
    this.job = job;
    this.runBtn.disabled = true;
    this.cancelBtn.disabled = false;
    this.form.setAttribute('aria-busy', 'true');
    this.status.hidden = false;
    this.progress.value = 0;
    this.runList.replaceChildren(...job.runs.map((r) => {
      const bar = el('progress', { max: 1, value: 0, 'aria-label': runName(r) });
      const pct = el('span', { class: 'study-pct', text: 'waiting' });
      const sw = el('span', { class: 'study-swatch', 'aria-hidden': 'true' });
      sw.style.background = INTEGRATOR_COLORS[r.integrator];
      r.ui = { bar, pct };
      return el('li', {}, el('span', { class: 'study-run-name' }, sw, runName(r)), bar, pct);
    }));
    this.runBox.hidden = false;
    this.runBox.open = true;
    this.runSummary.textContent = `Runs: ${n}, each in its own worker`;
    for (let k = 0; k < slots; k++) this.launch(job);
    this.updateUi(job, true);
  }

  launch(job) {
    if (job.next >= job.order.length) return;
    const i = job.order[job.next++];
    const r = job.runs[i];
    let w;
    try {
      w = new Worker(new URL('./study-worker.js', import.meta.url), { type: 'module' });
    } catch (e) {
      // no worker here (an old browser, a page whose CSP forbids them): the run fails, and so
      // will the others, each with the reason
      queueMicrotask(() => this.onMessage(job, { type: 'error', index: i, direct: true, message: `no Web Worker could be started here (${e.message}); the Study view needs them` }));
      return;
    }
    w.onmessage = ({ data }) => this.onMessage(job, data);
    w.onerror = (e) => { e.preventDefault?.(); this.onMessage(job, { type: 'error', index: i, message: e.message || 'the worker stopped' }); };
    job.workers.set(i, w);
    r.state = 'running';
    w.postMessage({ module: job.module, scenario: job.plan.scenario, run: job.plan.runs[i], index: i });
  }

  onMessage(job, msg) {
    this.posts++;
    if (this.job !== job) return; // a cancelled study's last messages
    const r = job.runs[msg.index];
    if (msg.type === 'progress') {
      r.done = msg.done;
      r.wall = msg.wall;
    } else {
      if (msg.type === 'done') {
        job.records[msg.index] = msg.record;
        r.done = msg.record.steps_done;
        r.wall = msg.record.wall_seconds;
        r.state = msg.record.failed ? 'failed' : 'done';
        r.message = msg.record.failed;
      } else {
        // the worker itself failed (it should not): the run is failed, the study goes on
        r.state = 'failed';
        r.message = msg.direct ? msg.message : `the worker stopped: ${msg.message}`;
        job.records[msg.index] = {
          scenario: job.plan.scenario, integrator: r.integrator, dt: r.dt, tol: r.tol, max_iter: r.max_iter, alpha: r.alpha, beta: r.beta,
          duration: r.duration, steps: r.steps, steps_done: r.done, failed: r.message, t: 0, bodies: [], max_energy_error: NaN,
          momentum_drift: [null, null, null], max_joint_violation: NaN, max_internal_violation: NaN, mean_iterations: NaN, wall_seconds: r.wall, series: [],
        };
      }
      job.workers.get(msg.index)?.terminate();
      job.workers.delete(msg.index);
      job.finished++;
      if (job.finished === job.runs.length) { this.finish(job); return; }
      this.launch(job);
    }
    this.updateUi(job);
  }

  /** Redraw the progress (at most every UI_EVERY_MS unless `now`). */
  updateUi(job, now = false) {
    const t = performance.now();
    if (!now && t - job.uiAt < UI_EVERY_MS) {
      job.uiTimer ||= setTimeout(() => { job.uiTimer = 0; if (this.job === job) this.updateUi(job, true); }, UI_EVERY_MS);
      return;
    }
    job.uiAt = t;
    let done = 0, all = 0;
    for (const r of job.runs) {
      const frac = r.state === 'done' || r.state === 'failed' ? 1 : r.steps ? r.done / r.steps : 0;
      done += frac * r.steps;
      all += r.steps;
      r.ui.bar.value = frac;
      const text = r.state === 'waiting' ? 'waiting' : r.state === 'failed' ? `failed: ${r.message}` : `${Math.floor(100 * frac)} %`;
      if (r.ui.pct.textContent !== text) r.ui.pct.textContent = text;
      r.ui.pct.classList.toggle('failed', r.state === 'failed');
    }
    this.progress.value = all ? done / all : 0;
    const left = timeLeft(job.runs, job.slots);
    const text = `${job.finished} of ${job.runs.length} runs done, ${Math.floor(100 * this.progress.value)} % of the steps; ${formatLeft(left)} (${job.slots} at once)`;
    this.progress.setAttribute('aria-valuetext', `${Math.floor(100 * this.progress.value)} percent`);
    this.statusText.textContent = text;
  }

  finish(job) {
    clearTimeout(job.uiTimer);
    this.updateUi(job, true);
    this.job = null;
    this.cancelBtn.disabled = true;
    this.form.removeAttribute('aria-busy');
    const seconds = (performance.now() - job.started) / 1000;
    let report;
    try {
      report = wasm.study_report(job.options, job.records);
    } catch (e) {
      this.showError(`The study's report could not be made: ${e.message}`);
      this.preview();
      return;
    }
    this.progress.value = 1;
    this.progress.setAttribute('aria-valuetext', '100 percent');
    const failed = job.runs.filter((r) => r.state === 'failed').length;
    this.statusText.textContent = `Done: ${job.runs.length} runs in ${seconds.toFixed(1)} s${failed ? `, ${failed} failed (see the table)` : ''}.`;
    this.runSummary.textContent = `Runs: ${job.runs.length} done${failed ? `, ${failed} failed` : ''} (open for each run's progress)`;
    this.runBox.open = false;
    this.result = { ...job.settings, options: job.options, report, parsed: JSON.parse(report.json), seconds, plan: job.plan };
    this.preview();
    this.show(this.result);
  }

  cancel() {
    const job = this.job;
    if (!job) return;
    for (const w of job.workers.values()) w.terminate();
    job.workers.clear();
    clearTimeout(job.uiTimer);
    this.job = null;
    this.cancelBtn.disabled = true;
    this.form.removeAttribute('aria-busy');
    for (const r of job.runs) if (r.state === 'running' || r.state === 'waiting') { r.state = 'cancelled'; r.ui.pct.textContent = 'cancelled'; }
    this.statusText.textContent = `Cancelled: ${job.finished} of ${job.runs.length} runs had finished; nothing more runs.${this.result ? ' The plots below are of the previous study.' : ''}`;
    this.preview();
    this.runBtn.focus();
  }

  /** Show a finished study: plots, orders, warning, table, exports. */
  show(result) {
    const r = result.parsed;
    this.plots.render(r);
    this.ordersEl.replaceChildren(el('h3', { class: 'study-h', text: 'Observed orders' }), el('ul', {}, ...r.integrators.map((t) => {
      const sw = el('span', { class: 'study-swatch', 'aria-hidden': 'true' });
      sw.style.background = INTEGRATOR_COLORS[t.integrator];
      const hs = t.runs.map((x) => step(x.h)).join(' \u2192 ');
      return el('li', {}, sw, el('strong', { text: LABEL[t.integrator] }),
        `: ${t.orders.length ? t.orders.map((o) => (o == null ? '-' : o.toFixed(3))).join(', ') : '- (one level: no order)'} (h = ${hs} s)`);
    })), el('p', { class: 'study-ref', text: `Reference: ${r.reference.source}${r.reference.failed ? `; it failed: ${r.reference.failed}` : ''}; its own error, estimated: ${num(r.reference.estimated_error)} m; the finest level's error is ${num(r.reference.finest_error_over_reference_error)} times that.` }));
    const warning = result.report.warning;
    this.warning.hidden = !warning;
    this.warning.textContent = warning ? `Note: ${warning.replace('a larger --levels', 'more levels')}.` : '';
    this.tableEl.replaceChildren(this.table(r));
    this.tableEl.hidden = false;
    for (const b of [this.csvBtn, this.jsonBtn, this.pngBtn]) b.disabled = false;
  }

  table(r) {
    const head = ['integrator', 'h (s)', 'steps', 'error at T (m)', 'order', 'max |E\u2212E\u2080|/|E\u2080|', 'momentum drift (kg m\u00b2/s)', 'max joint |\u03a6| (m)', 'max internal', 'Newton its/step', 'wall time (s)', 'status'];
    const rows = [];
    for (const t of r.integrators) {
      t.runs.forEach((x, l) => {
        const drift = x.momentum_drift.map((d, k) => (d == null ? null : `l${k + 1} ${num(d)}`)).filter(Boolean).join(', ') || 'none conserved';
        rows.push([LABEL[t.integrator], step(x.h), x.steps.toLocaleString('en'), num(x.error), l === 0 || t.orders[l - 1] == null ? '-' : t.orders[l - 1].toFixed(3),
          num(x.max_energy_error), drift, num(x.max_joint_violation), num(x.max_internal_violation), num(x.mean_iterations), num(x.wall_seconds),
          x.failed ? `failed: ${x.failed}` : 'ok']);
      });
    }
    const table = el('table', { class: 'study-table' },
      el('caption', { text: `Runs to T = ${step(r.duration)} s on ${isCustom(r.scenario) ? 'the custom system' : r.scenario}` }),
      el('thead', {}, el('tr', {}, ...head.map((h) => el('th', { scope: 'col', text: h })))),
      el('tbody', {}, ...rows.map((cells) => el('tr', { class: cells[11] === 'ok' ? '' : 'failed' }, ...cells.map((c, i) => el(i === 0 ? 'th' : 'td', i === 0 ? { scope: 'row', text: c } : { text: c }))))));
    const parts = [table];
    if (r.long.length) {
      parts.push(el('table', { class: 'study-table' },
        el('caption', { text: `Long runs to ${step(r.long_duration)} s` }),
        el('thead', {}, el('tr', {}, ...['integrator', 'h (s)', 'steps done', 'max |E\u2212E\u2080|/|E\u2080|', 'energy growth per decade (log10)', 'max joint |\u03a6| (m)', 'wall time (s)', 'status'].map((h) => el('th', { scope: 'col', text: h })))),
        el('tbody', {}, ...r.long.map((x) => el('tr', { class: x.failed ? 'failed' : '' },
          el('th', { scope: 'row', text: LABEL[x.integrator] }), ...[step(x.dt), x.steps_done.toLocaleString('en'), num(x.max_energy_error), num(x.energy_growth, 2),
            num(x.max_joint_violation), num(x.wall_seconds), x.failed ? `stopped: ${x.failed}` : 'ok'].map((c) => el('td', { text: c })))))));
    }
    return el('div', {}, ...parts);
  }

  fileName(ext) {
    const s = isCustom(this.result.options.scenario) ? 'custom' : this.result.options.scenario.replace(/[^a-z0-9=.-]+/gi, '_').slice(0, 60);
    return `tumble-study-${s}-K${this.result.options.levels}-T${this.result.options.duration}.${ext}`;
  }

  exportText(format) {
    if (!this.result) return;
    this.host.download(this.fileName(format), format === 'csv' ? 'text/csv' : 'application/json', this.result.report[format]);
  }

  async exportPng() {
    if (!this.result) return;
    const o = this.result.options;
    const blob = await this.plots.png(`tumble study ${isCustom(o.scenario) ? 'custom system' : o.scenario}: K = ${o.levels}, T = ${o.duration} s${o.long ? `, long run ${o.long} s` : ''}`);
    if (blob) this.host.download(this.fileName('png'), 'image/png', blob);
  }

  /** Read-only state for the browser tests. */
  hook() {
    return {
      running: () => !!this.job,
      workers: () => this.job?.workers.size ?? 0,
      posts: () => this.posts,
      progress: () => this.progress.value,
      status: () => this.statusText.textContent,
      report: () => this.result?.report.json ?? null,
      csv: () => this.result?.report.csv ?? null,
      plotData: () => this.plots.data(),
      options: () => this.options(),
      link: () => this.link(),
      error: () => (this.error.hidden ? null : this.error.textContent),
    };
  }
}
