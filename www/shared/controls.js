// controls.js: control schedules, the form a share link's `control=` parameters and the command
// line's --control take (crates/tumble-cli/src/controls.rs, the same rules): NAME=T:V,T:V,...,
// the control named NAME (its motor's name, or its index) held at V from time T (s) on, a bare
// V meaning 0:V. A value takes effect at the start of step round(T / h): the step at which the
// page's slider took it, so that the link replays the run bit for bit. No DOM.

/** The events of schedules `specs` for the controls `list` (Simulation.controls(): { name,
 * lower, upper }) at step `h`: [{ step, control, value }] in the order they apply. Throws an
 * Error naming the control where a name, time or value is wrong (the command line's messages). */
export function scheduleEvents(specs, list, h) {
  const events = [];
  for (const spec of specs) {
    const at = spec.indexOf('=');
    if (at < 0) throw new Error(`control '${spec.slice(0, 60)}': write NAME=VALUE or NAME=T:V,T:V,... (NAME a control's name or index)`);
    const who = spec.slice(0, at);
    let c = list.findIndex((x) => x.name === who);
    if (c < 0 && /^\d+$/.test(who) && Number(who) < list.length) c = Number(who);
    if (c < 0) throw new Error(list.length ? `control '${who}': no such control; the controls are ${list.map((x) => `'${x.name}'`).join(', ')}` : `control '${who}': this system has no controls`);
    let last = -1;
    for (const item of spec.slice(at + 1).split(',')) {
      const [t, v] = item.includes(':') ? item.split(':') : ['0', item];
      const T = finite(who, 'time', t), V = finite(who, 'value', v);
      if (!(T >= 0 && T > last && T <= 1e6)) throw new Error(`control '${who}': its times must start at 0 or later and increase, up to 1e6 s; ${T} does not`);
      if (!(V >= list[c].lower && V <= list[c].upper)) throw new Error(`control '${who}': ${V} is not within its range [${list[c].lower}, ${list[c].upper}]`);
      last = T;
      events.push({ step: Math.round(T / h), control: c, value: V });
    }
  }
  return events.sort((a, b) => a.step - b.step);
}

/** A number of a schedule, or an Error naming the control and what it is. */
function finite(who, what, text) {
  const x = /^\s*[0-9.eE+-]+\s*$/.test(text) ? Number(text) : NaN;
  if (!Number.isFinite(x)) throw new Error(`control '${who}': its ${what} '${String(text).slice(0, 40)}' is not a finite number`);
  return x;
}

/** Whether `spec` has a schedule's form (the link's check; names and ranges are checked when
 * the run loads). */
export const scheduleForm = (spec) => spec.length <= 4096 && /^[^=]{1,64}=[0-9.eE+-]+(:[0-9.eE+-]+)?(,[0-9.eE+-]+(:[0-9.eE+-]+)?)*$/.test(spec);

/** The schedules of `log` (per control name, its [T, V] changes in order) as `specs`. */
export function scheduleSpecs(log) {
  return [...log].map(([name, changes]) => `${name}=${changes.map(([t, v]) => `${t}:${v}`).join(',')}`);
}
