// from-mjcf-files.js: MJCF models as they are distributed, several files in a folder:
// a main file, the files it <include>s, and the meshes, textures and height fields its assets
// name (through <compiler meshdir texturedir assetdir>). No DOM, no file system of its own: the
// caller's read(path) hands out a file's bytes by its path relative to the model's folder (the
// command line reads the disk, the page the files a user picked or dropped).
//
//   gatherMjcf(main, read, notes) -> Map(path -> text or bytes): every file the model names that
//     exists (read returns null where a path does not); throws an Error naming a file that is
//     missing, or that lies outside the model's folder (an absolute path, or one whose .. leaves
//     it: never asked of read); with an array `notes`, a missing PNG texture is not an error: a
//     plain image stands in for it (mjcf-placeholder.js; Tumble draws no textures), with a note
//   compileMjcfFiles(mujoco, main, files) -> the model compiled by MuJoCo's compiler from those
//     files, written into MuJoCo's wasm file system (MEMFS: the wasm build sees no other files)
//     under a folder of their own, removed again after
//   checkFinite(xml, file) throws an Error naming the element and attribute where MJCF text
//     holds a number that is not finite (nan, inf, or one that overflows, 1e999): MuJoCo reads
//     them and compiles a model of NaNs, which the conversion would write as nulls
//
// Where MuJoCo looks: an include's file relative to the including file's folder or the main
// file's (MuJoCo 3.14 finds both), an asset's relative to meshdir (meshes, skins, height
// fields) or texturedir (textures), each falling back to assetdir, themselves relative to the
// main file's folder (MuJoCo 3.14 also finds an asset beside the file that names it, or beside
// the main file). The first of these places where the file exists (in that order) is where it
// is written for MuJoCo, mirroring the folder, so MuJoCo finds it where native MuJoCo would; a
// file found at none of them is named as missing before MuJoCo is asked.

import { texturePlaceholder } from './mjcf-placeholder.js';

/** Most bytes of all of a model's files together (meshes can be large). */
export const MAX_MODEL_BYTES = 200 * 1024 * 1024;
/** Most files one model may name (its includes and assets). */
export const MAX_MODEL_FILES = 10000;

/** A path relative to the model's folder, normalised ('a/./b/../c' -> 'a/c'); null when it
 * leaves the folder or is absolute. */
export function inside(...parts) {
  const out = [];
  for (const part of parts) {
    if (!part) continue;
    if (/^([a-zA-Z]:)?[\\/]/.test(part) || /^[a-zA-Z]:/.test(part)) return null; // absolute (/x, C:\x, \\host)
    for (const seg of part.split(/[\\/]+/)) {
      if (seg === '' || seg === '.') continue;
      if (seg === '..') {
        if (!out.length) return null;
        out.pop();
      } else {
        out.push(seg);
      }
    }
  }
  return out.join('/');
}

const dirOf = (p) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const unescape = (v) => v.replace(/&(amp|lt|gt|quot|apos);/g, (_, e) => ENTITIES[e]);

/** The elements of MJCF text: [{ tag, attrs: Map, line }], comments and processing instructions
 * left out (a scan of the tags, enough for attributes: MuJoCo's own parser reads the model). */
export function elements(xml) {
  const out = [];
  const tags = /<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!\[CDATA\[[\s\S]*?\]\]>|<([A-Za-z_][\w:.-]*)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*\/?>/g;
  let line = 1, last = 0;
  for (let m; (m = tags.exec(xml));) {
    for (let i = last; i < m.index; i++) if (xml.charCodeAt(i) === 10) line++;
    last = m.index;
    if (!m[1]) continue;
    const attrs = new Map();
    for (const a of m[2].matchAll(/([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) attrs.set(a[1], unescape(a[2] ?? a[3]));
    out.push({ tag: m[1], attrs, line });
  }
  return out;
}

// attributes that hold names or files, never numbers (a body may be called 'inf')
const TEXT_ATTRS = /^(name|class|childclass|prefix|suffix|file.*|.*dir|model|content_type|body\d?|joint\d?|geom\d?|site\d?|tendon\d?|actuator|mesh|material|texture|hfield|skin|target|objname|refname|.*site|jointinparent|mode|type|builtin|mark|gridlayout)$/;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const NONFINITE = /^[+-]?(nan|inf|infinity)$/i;

/** Throws an Error naming the element and attribute of MJCF text `xml` (from file `file`, for the
 * message) where an attribute of numbers holds one that is not finite. */
export function checkFinite(xml, file = '') {
  const count = new Map();
  for (const { tag, attrs, line } of elements(xml)) {
    const n = count.get(tag) ?? 0;
    count.set(tag, n + 1);
    for (const [attr, value] of attrs) {
      if (TEXT_ATTRS.test(attr)) continue;
      const tokens = value.trim().split(/\s+/).filter(Boolean);
      if (!tokens.length || !tokens.every((t) => NUMBER.test(t) || NONFINITE.test(t))) continue;
      const bad = tokens.find((t) => NONFINITE.test(t) || !Number.isFinite(Number(t)));
      if (bad === undefined) continue;
      const who = attrs.get('name') ? `${tag} '${attrs.get('name')}'` : `the ${ordinal(n + 1)} <${tag}> (no name)`;
      throw new Error(`${who}: ${attr} has a non-finite number (${bad}), at line ${line}${file ? ` of ${file}` : ''}`);
    }
  }
}
const ordinal = (k) => `${k}${k % 100 >= 11 && k % 100 <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][k % 10] ?? 'th'}`;

/** Every file the model whose main file is `main` names, read through `read(path)` (text for XML,
 * bytes otherwise; null: no such file). Throws an Error naming a missing file or one outside the
 * model's folder, and checks the XML's numbers (checkFinite). With an array `notes`, a PNG
 * texture that is missing gets a plain stand-in image and a note there instead. */
export function gatherMjcf(main, read, notes = null) {
  const files = new Map();
  let bytes = 0;
  const get = (path) => {
    if (files.has(path)) return files.get(path);
    if (files.size >= MAX_MODEL_FILES) throw new Error(`the model names more than ${MAX_MODEL_FILES} files`);
    const data = read(path);
    if (data == null) return null;
    bytes += data.length;
    if (bytes > MAX_MODEL_BYTES) throw new Error(`the model's files are more than ${MAX_MODEL_BYTES / 1048576} MB together, more than Tumble reads`);
    files.set(path, data);
    return data;
  };
  const text = (data) => (typeof data === 'string' ? data : new TextDecoder().decode(data));
  const mainPath = inside(main);
  if (!mainPath) throw new Error(`'${main}': the main file must be named relative to the model's folder`);
  if (get(mainPath) == null) throw new Error(`'${main}' does not exist`);
  // pass 1: the XML files (the includes, from the main file down) and the compiler's folders
  const xmls = [mainPath];
  const dirs = { meshdir: [], texturedir: [], assetdir: [] };
  const assets = []; // [kind, value, the XML file naming it, its element]
  const refuse = (value, where) => new Error(`${where} names '${value}', a path outside the model's folder: refused (only files in the folder of the main file and below are read)`);
  for (let x = 0; x < xmls.length; x++) {
    const file = xmls[x];
    const xml = text(files.get(file));
    files.set(file, xml);
    checkFinite(xml, file);
    for (const { tag, attrs, line } of elements(xml)) {
      const where = `<${tag}> at line ${line} of ${file}`;
      if (tag === 'compiler') {
        for (const d of Object.keys(dirs)) {
          if (!attrs.has(d)) continue;
          const v = attrs.get(d);
          // relative to the main file's folder (MuJoCo's rule)
          const p = inside(dirOf(mainPath), v);
          if (p === null) throw refuse(v, `${where} (${d})`);
          dirs[d].push(p);
        }
        continue;
      }
      for (const [attr, v] of attrs) {
        if (!/^file(right|left|up|down|front|back)?$/.test(attr) || !v) continue;
        if (tag === 'include') {
          const own = inside(dirOf(file), v);
          if (own === null) throw refuse(v, where);
          const found = [own, inside(dirOf(mainPath), v)].find((p) => p !== null && get(p) != null);
          if (found === undefined) throw new Error(`${where} includes '${v}', which does not exist (looked for ${own})`);
          if (!xmls.includes(found)) xmls.push(found);
        } else {
          assets.push([tag === 'texture' ? 'texturedir' : 'meshdir', v, file, where, attrs, attr]);
        }
      }
    }
  }
  // pass 2: the assets, at every place MuJoCo may look for them
  const stoodIn = [];
  for (const [kind, v, file, where, attrs, attr] of assets) {
    if (inside(v) === null && inside(dirOf(file), v) === null) throw refuse(v, where);
    const bases = [...dirs[kind], ...dirs.assetdir, dirOf(mainPath), dirOf(file)];
    const candidates = [...new Set(bases.map((b) => inside(b, v)).filter((p) => p !== null))];
    const found = candidates.find((p) => get(p) != null);
    if (found !== undefined) continue;
    if (notes && kind === 'texturedir' && /\.png$/i.test(v)) {
      files.set(candidates[0], texturePlaceholder(attrs, attr));
      stoodIn.push(`'${v}'`);
      continue;
    }
    throw new Error(`${where} names the file '${v}', which does not exist (looked for ${candidates.join(', ')})`);
  }
  if (stoodIn.length) notes.push(`texture file${stoodIn.length > 1 ? 's' : ''} ${stoodIn.join(', ')} not among the model's files: a plain grey image stands in (Tumble draws no textures; MuJoCo's compiler needs a file)`);
  return files;
}

let folders = 0;

/** The model compiled by MuJoCo from `files` (gatherMjcf's), whose main file is `main`; an Error
 * with MuJoCo's message when its compiler refuses it. */
export function compileMjcfFiles(mujoco, main, files) {
  const FS = mujoco.FS;
  if (!FS) throw new Error('this MuJoCo build has no file system (mujoco.FS): a model of several files cannot be compiled');
  const root = `/tumble-mjcf-${++folders}`;
  const written = [];
  try {
    for (const [path, data] of files) {
      const full = `${root}/${path}`;
      FS.mkdirTree(dirOf(full));
      FS.writeFile(full, data);
      written.push(full);
    }
    try {
      return mujoco.MjModel.from_xml_path(`${root}/${inside(main)}`);
    } catch (e) {
      const msg = typeof e === 'object' && e && 'message' in e ? e.message : mujoco.getExceptionMessage?.(e)?.join(': ') ?? String(e);
      throw new Error(`MuJoCo's compiler rejected the model: ${String(msg).replace(/^MuJoCo Error: /, '').split(`${root}/`).join('').trim().split(/\s*\n\s*/).join(' ')}`);
    }
  } finally {
    for (const full of written) FS.unlink(full);
    // the folders, deepest first
    const dirs = [...new Set(written.flatMap((f) => {
      const out = [];
      for (let d = dirOf(f); d.length >= root.length; d = dirOf(d)) out.push(d);
      return out;
    }))].sort((a, b) => b.length - a.length);
    for (const d of dirs) { try { FS.rmdir(d); } catch { /* not empty: another's */ } }
  }
}

const baseOf = (p) => p.slice(p.lastIndexOf('/') + 1);

/** The main file among files picked or dropped together ([{ path, data }], data text or bytes):
 * the one MJCF file (.xml, .mjcf) that no other includes; among several such, the one with a
 * <worldbody>. Its path as picked. Throws an Error when there is none or no single one. */
export function mainOf(list) {
  const top = modelsOf(list);
  if (top.length !== 1) throw new Error(`cannot tell which file is the model's main one (${top.join(', ')}): open it with only the files it names`);
  return top[0];
}

/** The paths of the models among files picked or dropped together ([{ path, data }]): the MJCF
 * files no other one includes, and of those, when there are several, the ones with a
 * <worldbody> (a folder of models, as DeepMind's control suite is distributed, holds many);
 * every XML file's path when none is left. Throws when none is an MJCF file. */
export function modelsOf(list) {
  const xmls = list.filter((f) => /\.(xml|mjcf)$/i.test(f.path));
  if (!xmls.length) throw new Error(`none of the ${list.length} files is an MJCF file (.xml)`);
  const text = (d) => (typeof d === 'string' ? d : new TextDecoder().decode(d));
  const included = new Set();
  for (const f of xmls) {
    for (const { tag, attrs } of elements(text(f.data))) if (tag === 'include' && attrs.get('file')) included.add(baseOf(attrs.get('file')));
  }
  let top = xmls.filter((f) => !included.has(baseOf(f.path)));
  if (top.length > 1) top = top.filter((f) => /<worldbody\b/.test(text(f.data)));
  return (top.length ? top : xmls).map((f) => f.path);
}

/** read(path) for gatherMjcf over files picked or dropped together ([{ path, data }]; path the
 * file's name, or its path in a picked folder, webkitRelativePath), `main` the main file's path
 * as picked. A path the model names is looked up relative to the main file's folder, then as
 * the end of a picked path, then by its name alone when one picked file has it (files dropped
 * together arrive without their folders). */
export function pickedReader(list, main) {
  const dir = dirOf(main);
  const byPath = new Map(list.map((f) => [f.path, f.data]));
  return (p) => {
    const exact = byPath.get(dir ? `${dir}/${p}` : p);
    if (exact !== undefined) return exact;
    const tail = list.filter((f) => f.path.endsWith(`/${p}`));
    if (tail.length === 1) return tail[0].data;
    const named = list.filter((f) => baseOf(f.path) === baseOf(p));
    return named.length === 1 ? named[0].data : null;
  };
}
