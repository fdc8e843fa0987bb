// mujoco-views.js: MjData's arrays as typed-array views kept between calls. Each getter of the
// MuJoCo bindings (data.qpos, data.xipos, ...) makes a new view into the wasm memory, 0.3 to 0.7 us
// a call under Node, which for a small model costs as much as its step when read at every step.
// The kept views stay valid until the wasm memory grows, which detaches its old buffer and
// empties every view of it; they are then made again (the memory of a threaded build, a
// SharedArrayBuffer, is never detached and its views stay valid).

/** A function returning { name: data[name] } for `names`, the views kept while their buffer holds. */
export function keptViews(data, names) {
  let kept = null, buffer = null;
  return () => {
    if (kept && buffer.byteLength > 0) return kept;
    kept = {};
    for (const name of names) kept[name] = data[name];
    buffer = kept[names[0]].buffer;
    return kept;
  };
}
