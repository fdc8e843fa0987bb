// controls.js: the run's controls (MuJoCo's ctrl: a motor's factor, docs/scenarios.md) as one
// slider each, named as the model names its actuator, within its range, with the torque or
// force it sets; every change goes to every run on the page, MuJoCo's too, from its next step,
// and into the link (app.settings.controls, shared/controls.js) as the time it took effect at,
// so that Copy link replays the run bit for bit. Keyboard: the sliders are native range inputs
// (arrow keys step by 1/100 of the range, Home and End go to its ends).
import { $, app, onLoaded, keepLink, showError } from './page.js';
import { scheduleSpecs } from '../shared/controls.js';
import { INV } from '../shared/invariants.js';

/** The changes since the run started, per control name: [[t, value], ...], the link's first. */
let log = new Map();

/** A number for a label: up to 3 significant digits. */
const short = (x) => (Math.abs(x) >= 1e4 || (Math.abs(x) < 1e-3 && x !== 0) ? x.toExponential(2) : String(+x.toPrecision(3)));

/** The link's schedules back into the log (they replay from the start on every load). */
function logFromSettings(specs) {
  log = new Map();
  for (const spec of specs ?? []) {
    const at = spec.indexOf('=');
    log.set(spec.slice(0, at), spec.slice(at + 1).split(',').map((item) => (item.includes(':') ? item.split(':').map(Number) : [0, Number(item)])));
  }
}

/** A control changed to `value` at time `t` (s): into the log and the link. */
function record(name, t, value) {
  const changes = log.get(name) ?? [];
  // a change at the same step replaces the last one; a later one follows it
  while (changes.length && changes[changes.length - 1][0] >= t) changes.pop();
  changes.push([t, value]);
  log.set(name, changes);
  app.settings.controls = scheduleSpecs(log);
  keepLink();
}

/** The sliders shown: per control { input, show, name, start }, for `follow`. */
let shown = [];

/** Every slider at its control's value at the time shown (the schedule's last change at or
 * before it; the start's before any): a replayed link, a reset or a scrub moves them. Four
 * times a second; a slider being dragged is left to the hand. */
function follow() {
  const run = app.player?.run;
  if (!run || !shown.length) return;
  const t = run.inv[INV.t] + 1e-9;
  for (const c of shown) {
    if (document.activeElement === c.input && c.input.matches(':active')) continue;
    let v = c.start;
    for (const [at, value] of log.get(c.name) ?? []) if (at <= t) v = value;
    if (Number(c.input.value) !== v) { c.input.value = String(v); c.show(v); }
  }
}
setInterval(follow, 250);

/** More sliders than this start folded (the humanoid's 21 took the laptop's first screen and
 * a phone's whole screen before the view). */
const FOLD_OVER = 8;

/** The panel of sliders for `list` (the first run's controls: { name, lower, upper, value, gear,
 * unit }); hidden without controls, folded with many (its summary says how many). */
function render(list) {
  const panel = $('controls-panel'), box = $('controls-list');
  const fresh = list.map((c) => c.name).join('\n') !== shown.map((c) => c.name).join('\n');
  box.replaceChildren();
  panel.hidden = !list.length;
  if (fresh) panel.open = list.length <= FOLD_OVER; // a new model's list: a reset keeps the fold
  $('controls-count').textContent = list.length ? `(${list.length} actuator${list.length > 1 ? 's' : ''})` : '';
  shown = [];
  list.forEach((c, i) => {
    const label = document.createElement('label');
    const input = document.createElement('input');
    const out = document.createElement('output');
    Object.assign(input, { type: 'range', min: String(c.lower), max: String(c.upper), step: String((c.upper - c.lower) / 100), value: String(c.value) });
    input.setAttribute('aria-label', `${c.name}: control from ${c.lower} to ${c.upper}`);
    const show = (v) => { out.textContent = `${short(v)} (${short(v * c.gear)} ${c.unit})`; };
    show(c.value);
    input.addEventListener('input', async () => {
      const v = Number(input.value);
      show(v);
      try {
        record(c.name, await app.player.setControl(i, v), v);
      } catch (e) {
        showError(e.message);
      }
    });
    const name = document.createElement('span');
    name.className = 'control-name';
    // whole, broken after an underscore where the column is too narrow (cut with an ellipsis,
    // 'extend_front_right' lost its end at 710 px; a hover is no help on a phone)
    c.name.split(/(?<=_)/).forEach((part, k) => { if (k) name.append(document.createElement('wbr')); name.append(part); });
    name.title = c.name;
    label.append(name, input, out);
    box.append(label);
    shown.push({ input, show, name: c.name, start: c.value });
  });
}

onLoaded(() => {
  logFromSettings(app.settings.controls);
  render(app.player.runs?.[0]?.controls ?? []);
});
