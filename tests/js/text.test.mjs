// Joining a message and the sentence the page adds after it (www/shared/text.js), without a
// browser: never "... crane The default scene is shown instead" nor "... running.. The".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { endSentence, sentences } from '../../www/shared/text.js';

test('a message and the next sentence are two sentences', () => {
  const then = 'The default scene is shown instead.';
  for (const [message, joined] of [
    ["unknown system 'x'; the presets are governor, crane", "unknown system 'x'; the presets are governor, crane. The default scene is shown instead."],
    ['Line number=1', 'Line number=1. The default scene is shown instead.'],
    ['bodies[0].mass must be a number, not null (line 3, column 5)', 'bodies[0].mass must be a number, not null (line 3, column 5). The default scene is shown instead.'],
    ['The run stopped.', 'The run stopped. The default scene is shown instead.'],
    ['Really?  ', 'Really? The default scene is shown instead.'],
    ['', then],
    [undefined, then],
  ]) assert.equal(sentences(message, then), joined);
  assert.equal(endSentence('at t = 0.0100 s: Newton did not converge'), 'at t = 0.0100 s: Newton did not converge.');
  assert.equal(endSentence('try a smaller time step h.'), 'try a smaller time step h.');
});

// The billiards preset's table: its cushions (presets/contact.rs) stand 2.24 m by 1.12 m apart,
// the playing area of an eight-foot table (a nine-foot one is 2.54 m by 1.27 m); the page's text,
// the preset's description and the source's comment name the table that size is.
test('the billiards text names the table its cushions make', async () => {
  const { readFile } = await import('node:fs/promises');
  const { SCENARIO_TEXT } = await import('../../www/view/explain.js');
  const root = new URL('../../crates/tumble/src/presets/', import.meta.url);
  const source = await readFile(new URL('contact.rs', root), 'utf8');
  const x = [...source.matchAll(/plane\(DVec3::new\(([\d.]+), 0\.0, 0\.0\), -DVec3::X, cushion\)/g)].map((m) => Number(m[1]));
  const y = [...source.matchAll(/plane\(DVec3::new\(0\.0, ([\d.]+), 0\.0\), -DVec3::Y, cushion\)/g)].map((m) => Number(m[1]));
  assert.deepEqual([2 * x[0], 2 * y[0]], [2.24, 1.12], 'the cushions of presets/contact.rs');
  const text = SCENARIO_TEXT.billiards.text;
  assert.match(text, /eight-foot table, 2\.24 m by 1\.12 m/);
  assert.doesNotMatch(text, /nine-foot/);
  const table = await readFile(new URL('table.rs', root), 'utf8');
  assert.doesNotMatch(table, /9-ft/);
  assert.doesNotMatch(source, /9-ft/);
});
