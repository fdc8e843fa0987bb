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
