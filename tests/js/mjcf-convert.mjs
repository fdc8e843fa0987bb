// Shared by the MJCF tests: MJCF text through MuJoCo's own compiler (its wasm build, from
// package-lock.json) and back to a Tumble system (www/mujoco/mjcf.js).
import { compileMjcf, fromMjModel, loadMujoco } from '../../www/mujoco/mjcf.js';

export const mujoco = await loadMujoco();

/** Compile `xml` and convert it back: { system, notes }. */
export function convert(xml) {
  const model = compileMjcf(mujoco, xml);
  try {
    return fromMjModel(mujoco, model);
  } finally {
    model.delete();
  }
}
