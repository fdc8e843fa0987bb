#!/usr/bin/env node
// mjcf2tumble: MuJoCo models (MJCF) to Tumble systems and back, from the command line, with
// MuJoCo's own compiler (@mujoco/mujoco, installed by scripts/setup.sh) and the page's converter
// (www/mujoco/mjcf.js).
//
//   node scripts/mjcf2tumble.mjs model.xml > system.json        (then: tumble run system.json)
//   node scripts/mjcf2tumble.mjs model.xml --keyframe NAME|INDEX > system.json   (another start)
//     (the files the model includes and its meshes and textures are read from its folder and
//     below, through MuJoCo's wasm file system; a path that leaves the folder is refused)
//   node scripts/mjcf2tumble.mjs --to-mjcf system.json > model.xml
//   node scripts/mjcf2tumble.mjs --to-mjcf nk-revolute --integrator RK4 > model.xml
//
// What the conversion leaves out is listed on stderr; a model that cannot be converted gets a
// message and exit status 2.
import { readFileSync, statSync, realpathSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toMjcf, fromMjModel, compileMjcf, loadMujoco, gatherMjcf, MAX_XML_BYTES, MAX_MODEL_BYTES } from '../www/mujoco/mjcf.js';
import { MUJOCO_INTEGRATORS } from '../www/shared/names.js';

const USAGE = `usage: node scripts/mjcf2tumble.mjs MODEL.xml [--keyframe NAME|INDEX] > system.json
       node scripts/mjcf2tumble.mjs --to-mjcf SYSTEM.json|PRESET [--integrator ${MUJOCO_INTEGRATORS.join('|')}] [--timestep H] > model.xml`;

function fail(message) {
  process.stderr.write(`mjcf2tumble: ${message}\n`);
  process.exit(2);
}

/** A file's text, refused past MAX_XML_BYTES before it is read. */
function readText(path) {
  let size;
  try {
    size = statSync(path).size;
  } catch {
    fail(`cannot read '${path}': no such file`);
  }
  if (size > MAX_XML_BYTES) fail(`'${path}' is ${(size / 1048576).toFixed(0)} MB, more than the ${MAX_XML_BYTES / 1048576} MB Tumble reads`);
  return readFileSync(path, 'utf8');
}

/** read(path) for gatherMjcf: the bytes of a file in the folder of `main` or below, by its path
 * relative to that folder; null where there is none. A path is resolved with its links first
 * (realpath): one that leads out of the folder is refused before anything is read. */
function modelReader(main, mainText) {
  const root = realpathSync(dirname(resolve(main)));
  const mainName = basename(main);
  return (rel) => {
    if (rel === mainName) return mainText;
    let real;
    try {
      real = realpathSync(join(root, rel));
    } catch {
      return null;
    }
    if (!real.startsWith(root + sep)) throw new Error(`'${rel}' leads to '${real}', outside the model's folder: refused`);
    const st = statSync(real);
    if (!st.isFile()) return null;
    if (st.size > MAX_MODEL_BYTES) throw new Error(`'${rel}' is ${(st.size / 1048576).toFixed(0)} MB, more than the ${MAX_MODEL_BYTES / 1048576} MB Tumble reads`);
    return readFileSync(real);
  };
}

/** A Tumble system from a JSON file or a preset text (through the page's wasm module). */
async function tumbleSystem(arg) {
  if (arg.endsWith('.json')) {
    try {
      return JSON.parse(readText(arg));
    } catch (e) {
      fail(`'${arg}' is not JSON: ${e.message}`);
    }
  }
  const pkg = new URL('../www/pkg/tumble_wasm_bg.wasm', import.meta.url);
  let wasm;
  try {
    wasm = await import('../www/pkg/tumble_wasm.js');
    wasm.initSync({ module: readFileSync(fileURLToPath(pkg)) });
  } catch {
    fail('a preset needs the wasm module: run bash scripts/build.sh first (or give a .json file)');
  }
  try {
    return JSON.parse(wasm.scenario_json(arg));
  } catch (e) {
    fail(`'${arg}': ${e.message ?? e}`);
  }
}

async function main(args) {
  if (!args.length || args.includes('-h') || args.includes('--help')) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(args.length ? 0 : 2);
  }
  const opt = (name) => {
    const i = args.indexOf(name);
    if (i < 0) return null;
    const v = args[i + 1];
    if (v === undefined) fail(`${name} needs a value\n${USAGE}`);
    args.splice(i, 2);
    return v;
  };
  const keyframe = opt('--keyframe') ?? 0;
  const integrator = opt('--integrator') ?? 'RK4';
  if (!MUJOCO_INTEGRATORS.includes(integrator)) fail(`--integrator must be one of ${MUJOCO_INTEGRATORS.join(', ')}, not '${integrator}'`);
  const h = opt('--timestep');
  const timestep = h === null ? null : Number(h);
  if (timestep !== null && !(timestep > 0 && timestep <= 1)) fail(`--timestep must be a step in s between 0 and 1, not '${h}'`);
  const toMj = args[0] === '--to-mjcf';
  if (toMj) args.shift();
  if (args.length !== 1) fail(USAGE);
  if (toMj) {
    const system = await tumbleSystem(args[0]);
    let out;
    try {
      out = toMjcf(system, { integrator, timestep });
    } catch (e) {
      fail(e.message);
    }
    for (const n of out.notes) process.stderr.write(`note: ${n}\n`);
    process.stdout.write(out.xml);
    return;
  }
  const xml = readText(args[0]);
  let files;
  const fileNotes = []; // (a missing PNG texture: a stand-in image, and this note)
  try {
    files = gatherMjcf(basename(args[0]), modelReader(args[0], xml), fileNotes);
  } catch (e) {
    fail(e.message);
  }
  const mujoco = await loadMujoco();
  let model;
  try {
    model = compileMjcf(mujoco, xml, { main: basename(args[0]), files });
  } catch (e) {
    fail(e.message);
  }
  let out;
  try {
    out = fromMjModel(mujoco, model, { keyframe });
  } catch (e) {
    fail(e.message);
  } finally {
    model.delete();
  }
  for (const n of [...fileNotes, ...out.notes]) process.stderr.write(`note: ${n}\n`);
  process.stdout.write(`${JSON.stringify(out.system, null, 1)}\n`);
}

main(process.argv.slice(2)).catch((e) => fail(e?.message ?? String(e)));
