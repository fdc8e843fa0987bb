// mjcf-picker.js: MuJoCo models picked as files or as a folder (DeepMind's control suite as it is
// distributed: dm_control/suite with its common/ includes and asset folders): the models among
// the files (modelsOf), a "model" menu of them where there are several, and the one chosen
// opened with only the files it names, read then (a folder holds far more than one model
// needs: the suite's folder has its Python files, images and the dog's meshes).
import { $ } from './page.js';

/** An XML file larger than this is not read while looking for the models among a pick. */
const MAX_XML_BYTES = 8 * 1024 * 1024;
const isXml = (f) => /\.(xml|mjcf)$/i.test(f.path);
const baseOf = (p) => p.slice(p.lastIndexOf('/') + 1);

/** The last pick with several models: { list: [{ path, file }], open, refuse }. */
let shelf = null;

/** The files `picked` ([File], from a file input, a folder input or a drop): one model opened,
 * or the menu of the models among them. `open(xml, several)` opens a model's text with its
 * files ({ main, files }) and resolves to null or why not; `refuse(why)` says why not. */
export async function openPicked(picked, open, refuse) {
  const { modelsOf } = await import('../mujoco/mjcf.js');
  const list = picked.map((file) => ({ path: file.webkitRelativePath || file.name, file }));
  let models;
  try {
    const xmls = await Promise.all(list.filter(isXml).map(async (f) => ({ path: f.path, data: f.file.size <= MAX_XML_BYTES ? await f.file.text() : '' })));
    models = modelsOf(xmls.length ? xmls : list.map((f) => ({ path: f.path, data: '' }))).sort();
  } catch (e) {
    refuse(cannot(e.message));
    return;
  }
  showMenu(models.length > 1 ? { list, models, open, refuse } : null);
  if (models.length === 1) {
    await openOne(list, models[0], open, refuse);
    return;
  }
  const shown = models.slice(0, 4).map(baseOf).join(', ');
  $('mujoco-status').textContent = `These files hold ${models.length} MuJoCo models (${shown}${models.length > 4 ? ', ...' : ''}): pick one in the menu "model" beside.`;
  $('mjcf-model').focus();
}

/** The model `main` of the picked `list`: the files it names gathered in two passes (the XML
 * files read first, the assets they name read then), and opened. */
async function openOne(list, main, open, refuse) {
  const { gatherMjcf, pickedReader, MAX_MODEL_BYTES } = await import('../mujoco/mjcf.js');
  let files;
  const notes = []; // (gatherMjcf's: a missing PNG texture stood in for)
  try {
    const xml = await Promise.all(list.filter(isXml).map(async (f) => ({ path: f.path, data: f.file.size <= MAX_XML_BYTES ? await f.file.text() : '' })));
    // pass 1: every asset stands in as empty, so that the ones the model names are known
    const placeholders = list.filter((f) => !isXml(f)).map((f) => ({ path: f.path, data: new Uint8Array(0), file: f.file }));
    const named = gatherMjcf(baseOf(main), pickedReader([...xml, ...placeholders], main), []);
    const wanted = new Set([...named.values()].filter((d) => d instanceof Uint8Array && d.length === 0));
    const bytes = placeholders.filter((f) => wanted.has(f.data)).reduce((n, f) => n + f.file.size, 0);
    if (bytes > MAX_MODEL_BYTES) throw new Error(`the files it names are ${(bytes / 1048576).toFixed(0)} MB together, more than the ${MAX_MODEL_BYTES / 1048576} MB Tumble reads`);
    // pass 2: those assets read
    const assets = await Promise.all(placeholders.map(async (f) => ({ path: f.path, data: wanted.has(f.data) ? new Uint8Array(await f.file.arrayBuffer()) : f.data })));
    files = gatherMjcf(baseOf(main), pickedReader([...xml, ...assets], main), notes);
  } catch (e) {
    refuse(cannot(e.message));
    return;
  }
  const name = baseOf(main);
  const why = await open(files.get(name), { main: name, files, notes });
  if (why) refuse(why);
}

/** The "model" menu of a pick with several models (hidden for none). */
function showMenu(s) {
  shelf = s;
  $('mjcf-model-label').hidden = !s;
  if (!s) return;
  const first = new Option('pick a model', '', true, true);
  first.disabled = true;
  $('mjcf-model').replaceChildren(first, ...s.models.map((p) => new Option(p.replace(/\.(xml|mjcf)$/i, ''), p)));
}

const cannot = (message) => `This MuJoCo model cannot be opened: ${message.replace(/which does not exist/, 'which was not opened with it')}. Open the model's main file together with every file it names (or drop them together, or open its folder).`;

/** Wire the menu and the folder button. */
export function wirePicker(open, refuse) {
  $('mjcf-model').addEventListener('change', async () => {
    const main = $('mjcf-model').value;
    if (shelf && main) await openOne(shelf.list, main, shelf.open, shelf.refuse);
  });
  $('open-mjcf-folder').addEventListener('click', () => $('open-mjcf-dir').click());
  $('open-mjcf-dir').addEventListener('change', async () => {
    const files = [...$('open-mjcf-dir').files];
    $('open-mjcf-dir').value = '';
    if (files.length) await openPicked(files, open, refuse);
  });
}
