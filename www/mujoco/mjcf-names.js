// mjcf-names.js: MuJoCo's names of bodies and joints as the `name` fields of Tumble's JSON
// (docs/scenarios.md "Names"). A Tumble name is 1 to 64 characters, each a letter, a digit, a
// space or one of _-.:/ (crates/tumble/src/names.rs), unique within its list. A MuJoCo name's
// other characters become _ (with a note); a name that is then too long, or the same as an
// earlier one, is dropped with a note; an element without a name stays unnamed.

/** Longest Tumble name, in characters. */
export const MAX_NAME = 64;

/** Whether `s` is a valid Tumble name (as names.rs: Unicode letters and digits count). */
export function validName(s) {
  const n = typeof s === 'string' ? [...s].length : 0;
  return n >= 1 && n <= MAX_NAME && /^[\p{Alphabetic}\p{N} _.:/-]+$/u.test(s);
}

/** `s` with every character a Tumble name does not take replaced by _. */
export function sanitizeName(s) {
  return [...String(s)].map((c) => (/^[\p{Alphabetic}\p{N} _.:/-]$/u.test(c) ? c : '_')).join('');
}

/** Set `elements[i].name` from `names[i]` (a MuJoCo name, '' for none) where it makes a Tumble
 * name; `what(i)` names the element in a note ("body 'arm'"). */
export function nameElements(elements, names, what, notes) {
  const seen = new Set();
  elements.forEach((e, i) => {
    const raw = names[i];
    if (!raw) return;
    const name = sanitizeName(raw);
    if (!validName(name)) {
      notes.push(`${what(i)}: its name is longer than ${MAX_NAME} characters: left unnamed in Tumble`);
      return;
    }
    if (seen.has(name)) {
      notes.push(`${what(i)}: its name '${name}' is an earlier element's too in Tumble: left unnamed`);
      return;
    }
    if (name !== raw) notes.push(`${what(i)}: named '${name}' in Tumble (a name takes letters, digits, spaces and _-.:/)`);
    seen.add(name);
    e.name = name;
  });
}

// The way back: an MJCF document Tumble writes (to-mjcf.js) names its bodies b0.. and joints
// j0.. (the import sorts by those), so a Tumble name travels in MuJoCo's <custom> text
// elements, which its compiler keeps: <text name="tumble:body:3" data="upper arm"/>.

/** The <custom> lines that carry `system`'s body and joint names into MJCF, [] when none is
 * named; `esc` escapes an attribute's text. */
export function namesCustom(system, esc) {
  const lines = [];
  for (const [list, key] of [['bodies', 'body'], ['joints', 'joint']]) {
    (system[list] ?? []).forEach((e, i) => {
      if (typeof e.name === 'string') lines.push(`    <text name="tumble:${key}:${i}" data="${esc(e.name)}"/>`);
    });
  }
  // a joint's coordinates' names, joined by commas (a name holds none)
  (system.joints ?? []).forEach((j, i) => {
    if (Array.isArray(j.coordinates)) lines.push(`    <text name="tumble:coordinates:${i}" data="${esc(j.coordinates.join(','))}"/>`);
  });
  return lines.length ? ['  <custom>', ...lines, '  </custom>'] : [];
}

/** The names a compiled model carries in its tumble:body:i and tumble:joint:k texts:
 * { body: Map(i -> name), joint: Map(k -> name), coordinates: Map(k -> names) }; `names` reads
 * the model's name table. */
export function carriedNames(model, names) {
  const out = { body: new Map(), joint: new Map(), coordinates: new Map() };
  if (!(model.ntext > 0)) return out;
  const d = model.text_data;
  const data = new Uint8Array(d.buffer, d.byteOffset, d.length);
  const keys = names(model, model.name_textadr, model.ntext);
  for (let t = 0; t < model.ntext; t++) {
    const m = /^tumble:(body|joint|coordinates):(\d+)$/.exec(keys[t]);
    if (!m) continue;
    const at = model.text_adr[t];
    const text = new TextDecoder().decode(data.subarray(at, at + model.text_size[t] - 1)); // (the size counts the NUL)
    out[m[1]].set(Number(m[2]), m[1] === 'coordinates' ? text.split(',') : text);
  }
  return out;
}

/** Each joint's `coordinates` (MuJoCo's names of the joints composed into it, from-mjcf-joints.js)
 * as Tumble names: kept where every one makes a valid name and no two are the same, else left
 * out (its coordinates are then labelled by the joint's name and their place). */
export function nameCoordinates(joints) {
  for (const j of joints) {
    if (!j.coordinates) continue;
    const names = j.coordinates.map(sanitizeName);
    if (names.every(validName) && new Set(names).size === names.length) j.coordinates = names;
    else delete j.coordinates;
  }
}
