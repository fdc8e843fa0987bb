// mujoco-controls.js: the full page's MuJoCo controls: loading MuJoCo's wasm build when it is
// first asked for, the "with MuJoCo" menu and its status line, exporting the system as an MJCF
// file and opening one (a file, or a model's files together, picked or dropped on the view, or
// MJCF pasted into the editor).
import * as wasm from '../pkg/tumble_wasm.js';
import { MUJOCO } from '../shared/names.js';
import { $, app, showError, download, exportName, scenarioJson, applyCustom, keptSentence, restartAndPlay, onLoaded } from './page.js';
import { sentences } from '../shared/text.js';
import { openPicked, wirePicker } from './mjcf-picker.js';

/** MuJoCo's wasm build into its own worker (started by the simulation's worker), once: fetched
 * from the site (vendor/mujoco, copied from package-lock.json by the build), its size and
 * progress in the status line. True when it runs; false (and why, in the status line) when it
 * cannot load. */
export async function startMujoco() {
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
    const text = scenarioJson();
    const { xml, notes } = toMjcf(JSON.parse(text), { integrator: app.settings.mujoco || 'RK4', solver: app.settings.mujoco ? app.settings.mjsolver || '' : '', timestep: app.player.run.dt });
    download(exportName('xml'), 'application/xml', xml);
    $('mujoco-status').textContent = `Exported as a MuJoCo model (integrator ${app.settings.mujoco || 'RK4'}${app.settings.mujoco && app.settings.mjsolver ? `, solver ${app.settings.mjsolver}` : ''}, h = ${app.player.run.dt} s).${notes.length ? ` Left out, with no MuJoCo counterpart: ${notes.join('; ')}.` : ''}`;
  } catch (e) {
    showError(`This system cannot be written as a MuJoCo model: ${e.message}`);
  }
}

/** Open MJCF text (a file, a drop, or XML pasted into the editor): MuJoCo's compiler reads it
 * in the worker, mjcf.js converts it, and it runs as a custom system (the editor shows its
 * JSON). Returns null when it runs, else why not; the last valid system keeps running. */
export async function openMjcfText(xml, several = null, keyframe = 0) {
  if (!(await startMujoco())) return `MuJoCo is needed to read a MuJoCo model, and ${$('mujoco-status').textContent.replace(/^MuJoCo /, '')}`;
  const engine = await app.player.engine;
  // several: { main, files, notes } of a model in several files (openMjcfFiles), compiled from
  // them; notes: what gathering them noted (a texture stood in for)
  const { notes: fileNotes = [], ...files } = several ?? {};
  const reply = await engine.request({ type: 'mjcf', xml, keyframe, ...files });
  if (reply.type === 'error') return `This MuJoCo model cannot be opened: ${reply.message}`;
  const text = JSON.stringify(reply.system, null, 1);
  const checked = wasm.check_scenario(text);
  if (!checked.ok) return `The converted model is not a valid Tumble system: ${checked.message}`;
  // (before the load: its explanation tells a model opened from MJCF apart)
  const prevInfo = app.mjcfInfo, prevSettings = { ...app.settings };
  const own = ownSettings(reply.options);
  // the conversion's notes (list) stay beside the menu while the model runs (showMujocoNotes)
  const list = [...(own ? [own] : []), ...fileNotes, ...reply.notes];
  app.mjcfInfo = { scenario: checked.canonical, name: several?.main ?? modelName(xml), notes: reply.notes.length, list };
  const why = await applyCustom(text, checked.canonical);
  if (why) {
    app.mjcfInfo = prevInfo;
    if (!/^Applied/.test(why)) Object.assign(app.settings, prevSettings); // (not loaded)
    return why;
  }
  if (app.editor && !$('editor').hidden) app.editor.load(text);
  showKeyframes(reply.keyframes ?? [], keyframe, { xml, several });
  showMujocoNotes();
  return null;
}

/** MuJoCo beside an opened model runs with the model's own integrator and solver (`options`,
 * fromMjModel's), as MuJoCo's own viewer would: the suite's manipulator, written for Euler,
 * diverges under RK4 at its 1 ms step. Sets them where MuJoCo beside is on and they differ;
 * returns what changed as a note, or null. */
function ownSettings(options) {
  if (!app.settings.mujoco || !options) return null;
  const { integrator, solver } = options;
  if (app.settings.mujoco === integrator && (app.settings.mjsolver || '') === solver) return null;
  app.settings.mujoco = integrator;
  app.settings.mjsolver = solver;
  return `MuJoCo beside runs it with the model's own integrator, ${integrator}, and solver, ${solver || 'Newton'} (the "with MuJoCo" menu picks another)`;
}

/** A model's name for its explanation: `<mujoco model="...">`, or "from MJCF text". */
function modelName(xml) {
  const m = /<mujoco\b[^>]*\bmodel\s*=\s*["']([^"']{1,80})["']/.exec(xml);
  return m ? `'${m[1]}'` : 'from MJCF text';
}

/** The first notes of a conversion after `head`, and a button that shows the rest where there
 * are more (a suite model has 40 to 90; all of them at once pushed the scene off the screen). */
function showNotes(head, notes, tail = '', first = 3) {
  const status = $('mujoco-status');
  const all = () => { status.textContent = `${head}. ${notes.join('; ')}.${tail}`; };
  if (notes.length <= first) { all(); return; }
  status.textContent = `${head}. ${notes.slice(0, first).join('; ')}; `;
  const more = document.createElement('button');
  more.type = 'button';
  more.className = 'more-notes';
  more.textContent = `and ${notes.length - first} more notes`;
  more.addEventListener('click', () => { all(); $('mujoco-status').focus?.(); });
  status.append(more);
  if (tail) status.append(tail);
}

/** The opened model's keyframes in a small select beside "open a MuJoCo model" when it has more
 * than one: picking one opens the model again from it (`model`: what openMjcfText took). */
function showKeyframes(keyframes, current, model) {
  const sel = $('mjcf-keyframe');
  $('mjcf-keyframe-label').hidden = keyframes.length < 2;
  app.mjcfModel = keyframes.length < 2 ? null : model;
  sel.replaceChildren(...keyframes.map((name, k) => new Option(name, String(k), false, k === current)));
}

// a model not opened: why, then what became of the last valid system, said once (a refusal by
// applyCustom says it already) and as it is (running, or kept paused)
function refused(why) {
  showError(/The last valid system/.test(why) ? why : sentences(why, keptSentence()));
}

async function openMjcf(file) {
  if (file.size > 50 * 1024 * 1024) { refused(`${file.name} is ${(file.size / 1048576).toFixed(0)} MB; Tumble reads MuJoCo models of at most 50 MB.`); return; }
  const why = await openMjcfText(await file.text());
  if (why) refused(why);
}

/** Files picked or dropped together (a model as it is distributed: its main file, the files it
 * includes, its meshes; or a folder of models): mjcf-picker.js finds the model among them or
 * offers a menu of them, every file it names is looked up among them (gatherMjcf; a missing one
 * is named), and MuJoCo compiles them in its file system. One file alone: openMjcf. */
async function openMjcfFiles(fileList) {
  const picked = [...fileList];
  const { gatherMjcf } = await import('../mujoco/mjcf.js');
  if (picked.length === 1) {
    // one file that names others (an include, a mesh file): say which, rather than MuJoCo's
    // "Error opening file"; one that names none opens as before
    const f = picked[0];
    if (f.size <= 50 * 1024 * 1024) {
      const text = await f.text();
      // a file that is not MJCF at all (a picture, a PDF): said so, before MuJoCo is fetched
      // (its parser said "XML_ERROR_PARSING_TEXT ErrorID=8 ... Line number=1")
      if (!/\.(xml|mjcf)$/i.test(f.name) && !/<mujoco\b/.test(text.slice(0, 65536))) {
        refused(`${f.name} is not a MuJoCo model: an MJCF file is XML with a <mujoco> element (a .xml file).`);
        return;
      }
      try {
        gatherMjcf(f.name, (p) => (p === f.name ? text : null));
      } catch (e) {
        if (/does not exist/.test(e.message)) {
          refused(`This MuJoCo model cannot be opened: ${e.message.replace(/which does not exist/, 'which was not opened with it')}. Open the model's main file together with every file it names (or drop them together).`);
          return;
        }
      }
    }
    await openMjcf(f);
    return;
  }
  // several files: the model among them, or a menu of the models (mjcf-picker.js)
  await openPicked(picked, openMjcfText, refused);
}


/** Beside the menu: a model opened from MJCF, while it runs, the notes of its conversion; then
 * what MuJoCo's run leaves out (loads and motors that vary in time). */
function showMujocoNotes() {
  const run = app.player.runs.find((x) => x.name === MUJOCO);
  const left = run?.notes?.length ? ` MuJoCo has no counterpart for: ${run.notes.join('; ')}.` : '';
  const opened = app.mjcfInfo?.scenario === app.settings.scenario ? app.mjcfInfo.list : null;
  if (opened?.length) showNotes('Opened the MuJoCo model', opened, left);
  else if (opened) $('mujoco-status').textContent = `Opened the MuJoCo model: everything in it has a Tumble counterpart.${left}`;
  else if (run) $('mujoco-status').textContent = `${app.mujocoLoaded ?? ''}${left}`;
}

// after each load: the menu shows MuJoCo's integrator, the status line what its run leaves out
onLoaded(() => {
  $('mujoco').value = app.settings.mujoco || '';
  $('mujoco-solver').value = app.settings.mjsolver || '';
  $('mujoco-solver-label').hidden = !app.settings.mujoco;
  showMujocoNotes();
});

/** Wire the MuJoCo controls: the "with MuJoCo" menu, the export, opening a file or a drop on the view. */
export function wireMujoco() {
  $('mujoco').addEventListener('change', async () => {
    const v = $('mujoco').value;
    if (v && !(await startMujoco())) { $('mujoco').value = app.settings.mujoco || ''; return; }
    app.settings.mujoco = v;
    restartAndPlay();
  });
  $('mujoco-solver').addEventListener('change', () => {
    app.settings.mjsolver = $('mujoco-solver').value;
    if (app.settings.mujoco) restartAndPlay();
  });
  $('export-mjcf').addEventListener('click', exportMjcf);
  $('mjcf-keyframe').addEventListener('change', async () => {
    const m = app.mjcfModel;
    if (!m) return;
    const why = await openMjcfText(m.xml, m.several, Number($('mjcf-keyframe').value));
    if (why) refused(why);
  });
  $('open-mjcf').addEventListener('click', () => $('open-mjcf-file').click());
  wirePicker(openMjcfText, refused);
  $('open-mjcf-file').addEventListener('change', async () => {
    const files = [...$('open-mjcf-file').files];
    $('open-mjcf-file').value = '';
    if (files.length) await openMjcfFiles(files);
  });
  // a MuJoCo model dropped on the view
  $('canvas').addEventListener('dragover', (e) => { e.preventDefault(); });
  $('canvas').addEventListener('drop', async (e) => {
    e.preventDefault();
    const files = e.dataTransfer?.files;
    if (files?.length) await openMjcfFiles(files);
  });
}
