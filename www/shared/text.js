// text.js: how the page joins a message (from the wasm module, a worker, MuJoCo) and the
// sentence it adds after it, so that they never run together ("... crane The default scene").
// No DOM, no imports: Node tests import it too.

/** `message` ending a sentence: a full stop added unless it already ends with one (or ! ?). */
export function endSentence(message) {
  const m = String(message ?? '').trim();
  return !m || /[.!?]$/.test(m) ? m : `${m}.`;
}

/** `message`, then the sentence `then`, as two sentences. */
export function sentences(message, then) {
  const m = endSentence(message);
  return m ? `${m} ${then}` : then;
}
