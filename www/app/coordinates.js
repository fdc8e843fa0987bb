// coordinates.js: the joints' coordinates as MuJoCo's qpos holds them (each hinge's angle and
// each slide, measured from the start: crates/tumble/src/coordinates.rs), one column per run on
// the page (Tumble's, the compared integrator's, MuJoCo's), at the moment shown (a scrubbed one
// too). A folded panel under the controls; while it is open it follows the run four times a
// second. Read from the poses the page already holds (the wasm module's Coordinates), so it
// costs the runs nothing.
import * as wasm from '../pkg/tumble_wasm.js';
import { $, app, onLoaded } from './page.js';
import { LABEL } from '../shared/names.js';

/** The system's reader, its labels and units, per run the last values (angles are unwrapped
 * against them), and which runs the header says have stopped. */
let reader = null, labels = [], units = [], values = [], cells = [], stopped = [];

/** Cell `td` showing value `x` with its unit: an angle in rad, and in degrees where there is
 * room (the degrees' span is hidden on narrow screens: style.css), a slide in m. */
function show(td, x, unit) {
  const [text, deg] = td.childNodes;
  if (!Number.isFinite(x)) {
    text.data = '–';
    deg.textContent = '';
  } else {
    text.data = `${x.toFixed(4)} ${unit}`;
    deg.textContent = unit === 'rad' ? ` (${(x * 180 / Math.PI).toFixed(1)}°)` : '';
  }
}

/** An empty value cell: its text and its degrees' span. */
function cell() {
  const td = document.createElement('td');
  td.append(document.createTextNode(''), Object.assign(document.createElement('span'), { className: 'deg' }));
  return td;
}

/** The runs shown now: [name, poses, stopped] each (a scrubbed moment's poses, where a run has
 * reached it; none live for a run that stopped on an error: its column shows "–", its header
 * says so, as the readout does, instead of the poses it was left with). */
function runsShown() {
  const p = app.player;
  return p.runs.map((x, i) => {
    const stop = !p.scrub && Boolean(x.error);
    return [x.name, p.scrub ? p.scrub.runs[i]?.poses ?? null : stop ? null : x.poses, stop];
  });
}

/** The table for the current system: a header row of the runs, a row per coordinate. */
function build() {
  const table = $('coordinates-table');
  const runs = runsShown();
  const head = document.createElement('tr');
  head.append(Object.assign(document.createElement('th'), { scope: 'col', textContent: 'coordinate' }));
  for (const [name, , stop] of runs) head.append(Object.assign(document.createElement('th'), { scope: 'col', textContent: `${LABEL[name] ?? name}${stop ? ' (stopped)' : ''}` }));
  stopped = runs.map(([, , stop]) => stop);
  const rows = labels.map((label) => {
    const tr = document.createElement('tr');
    tr.append(Object.assign(document.createElement('th'), { scope: 'row', textContent: label, title: label }));
    return tr;
  });
  cells = runs.map(() => rows.map((tr) => tr.appendChild(cell())));
  // (kept where a run's column is rebuilt: its angles stay unwrapped against its last values)
  values = runs.map((_, r) => (values[r]?.length === labels.length ? values[r] : new Float64Array(labels.length)));
  table.replaceChildren(head, ...rows);
}

/** Every cell at the moment shown (only while the panel is open). */
function follow() {
  if (!reader || !$('coordinates-panel').open || !app.player?.runs) return;
  const runs = runsShown();
  if (runs.length !== cells.length || runs.some(([, , stop], r) => stop !== stopped[r])) build();
  runs.forEach(([, poses], r) => {
    if (poses) reader.read(poses, values[r]);
    cells[r].forEach((td, k) => show(td, poses ? values[r][k] : NaN, units[k]));
  });
}
setInterval(follow, 250);

onLoaded(() => {
  reader?.free();
  reader = null;
  try {
    reader = new wasm.Coordinates(app.settings.scenario);
  } catch {
    // (the system loaded, so its text parses; a reader that cannot be made shows no panel)
  }
  labels = reader ? reader.labels() : [];
  values = [];
  units = reader ? reader.units() : [];
  $('coordinates-panel').hidden = !labels.length;
  $('coordinates-count').textContent = labels.length ? `(${labels.length}, from the start)` : '';
  build();
  follow();
});
$('coordinates-panel').addEventListener('toggle', follow);
