// from-mjcf-compile.js: MJCF text through MuJoCo's own compiler, the first step of the import
// (from-mjcf.js reads the compiled model). compileMjcf(mujoco, xml) -> the MjModel, or an Error
// with MuJoCo's message; so that every default, class, fromto and inertia-from-geometry rule is
// MuJoCo's. Before compiling, what Tumble or MuJoCo's wasm build cannot take is refused by name:
// text too large, too many bodies, bodies nested too deep, nan and inf (checkFinite). A model of
// several files (includes, meshes): gatherMjcf and compileMjcf(mujoco, xml, { main, files })
// (from-mjcf-files.js). loadMujoco(url) loads MuJoCo's module (@mujoco/mujoco's single-threaded
// build). No DOM.
import { checkFinite, compileMjcfFiles } from './from-mjcf-files.js';

/** Largest MJCF text converted (bytes) and most bodies (Tumble's own limit). */
export const MAX_XML_BYTES = 50 * 1024 * 1024;
export const MAX_BODIES = 4096;
/** Deepest nesting of <body> elements sent to MuJoCo's wasm build: its XML reader recurses per
 * level, and past about 125 levels (a chain of 128 links) the wasm build aborts, after which the
 * module cannot be used again. Native MuJoCo reads deeper files; the export writes them. */
export const MAX_WASM_DEPTH = 100;

/** The deepest nesting of <body> elements in MJCF text (a scan of the tags, comments skipped). */
export function bodyDepth(xml) {
  let depth = 0, most = 0;
  const tags = /<!--[\s\S]*?-->|<(\/?)body\b[^>]*?(\/?)>/g;
  for (let m; (m = tags.exec(xml));) {
    if (m[0].startsWith('<!--')) continue;
    if (m[1]) depth--;
    else if (!m[2]) most = Math.max(most, ++depth);
  }
  return most;
}

/** Load @mujoco/mujoco's single-threaded build; `url`: where mujoco.js is (default: the npm
 * package's own file, for Node). */
export async function loadMujoco(url = null) {
  const mod = await import(url ?? '@mujoco/mujoco');
  return mod.default();
}

/** The number of <body> elements of MJCF text, comments left out. */
function countBodies(xml) {
  let n = 0, from = 0;
  for (;;) {
    const i = xml.indexOf('<', from);
    if (i < 0) return n;
    if (xml.startsWith('<!--', i)) {
      const e = xml.indexOf('-->', i + 4);
      if (e < 0) return n;
      from = e + 3;
      continue;
    }
    if (xml.startsWith('<body', i) && /[\s/>]/.test(xml[i + 5] ?? '')) n++;
    from = i + 1;
  }
}

/** Compile MJCF text with MuJoCo's compiler: the model, or an Error with MuJoCo's message.
 * `several`: { main, files } (gatherMjcf's map, from-mjcf-files.js) for a model of several
 * files, `xml` then the main file's text; the checks below cover every XML file of it. */
export function compileMjcf(mujoco, xml, several = null) {
  if (typeof xml !== 'string') throw new Error('the MuJoCo model is not text');
  if (xml.length > MAX_XML_BYTES) throw new Error(`the MuJoCo model is ${(xml.length / 1048576).toFixed(0)} MB, more than the ${MAX_XML_BYTES / 1048576} MB Tumble reads`);
  if (!xml.trim()) throw new Error('the MuJoCo model is empty');
  const texts = several ? [...several.files.values()].filter((v) => typeof v === 'string') : [xml];
  // more <body> elements than Tumble takes: refused before MuJoCo compiles them (which takes
  // seconds for thousands); a model that grows past the limit when compiled (<replicate>) is
  // refused by fromMjModel after compiling
  const bodies = texts.reduce((n, t) => n + countBodies(t), 0);
  if (bodies > MAX_BODIES) throw new Error(`the MuJoCo model has ${bodies} bodies; Tumble takes at most ${MAX_BODIES}`);
  const depth = Math.max(...texts.map(bodyDepth));
  if (depth > MAX_WASM_DEPTH) throw new Error(`its bodies are nested ${depth} deep; MuJoCo's wasm build reads at most about ${MAX_WASM_DEPTH} levels (it aborts past 125), so in the page a chain of more than ${MAX_WASM_DEPTH} links cannot run in MuJoCo (native MuJoCo reads the exported file)`);
  // nan and inf: refused by name (MuJoCo would compile them into a model of NaNs)
  if (!several) checkFinite(xml); // (gatherMjcf checked each file of several)
  if (several) return compileMjcfFiles(mujoco, several.main, several.files);
  try {
    return mujoco.MjModel.from_xml_string(xml);
  } catch (e) {
    const msg = typeof e === 'object' && e && 'message' in e ? e.message : mujoco.getExceptionMessage?.(e)?.join(': ') ?? String(e);
    // MuJoCo's message, on one line: "Loading error: XML parse error 14: ... Line number=1: ..."
    throw new Error(`MuJoCo's compiler rejected the model: ${String(msg).replace(/^MuJoCo Error: /, '').trim().split(/\s*\n\s*/).join(' ')}`);
  }
}
