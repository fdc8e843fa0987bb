// mjcf.js: Tumble systems as MuJoCo models and back, one module for those who import them (the
// page, its workers, scripts/mjcf2tumble.mjs, the tests and benches). No DOM.
//
//   toMjcf(system, { integrator, timestep }) -> { xml, notes, drives }    (to-mjcf.js)
//     a Tumble system (the JSON of docs/scenarios.md, parsed) as an MJCF document
//   compileMjcf(mujoco, xml) -> the model compiled by MuJoCo's own compiler (from-mjcf-compile.js)
//   fromMjModel(mujoco, model) -> { system, notes, keyframes, options }    (from-mjcf.js)
//     a compiled model as a Tumble system; throws an Error naming the element when the model
//     cannot be represented
//   loadMujoco(url) -> the MuJoCo module (@mujoco/mujoco's single-threaded build)
//   gatherMjcf(main, read) -> the files a model of several names (includes, meshes, textures),
//     compileMjcfFiles(mujoco, main, files) -> the model compiled from them, mainOf(list) and
//     pickedReader(list, main) for files a user picked or dropped together (from-mjcf-files.js)
//
// Each file's header says how the elements map; mjcf-math.js holds the algebra both share.
export { toMjcf } from './to-mjcf.js';
export { MAX_XML_BYTES, MAX_BODIES, MAX_WASM_DEPTH, bodyDepth, loadMujoco, compileMjcf } from './from-mjcf-compile.js';
export { fromMjModel } from './from-mjcf.js';
export { gatherMjcf, compileMjcfFiles, checkFinite, inside, mainOf, modelsOf, pickedReader, MAX_MODEL_BYTES } from './from-mjcf-files.js';
export { quatOf, restitutionOfDampratio, dampratioOfRestitution } from './mjcf-math.js';
