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
