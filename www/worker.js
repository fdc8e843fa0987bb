// worker.js: the Web Worker that steps the simulation (stepper.js), so the page's main thread
// only draws. The page compiles the wasm module once and sends it here ('init'), so a page with
// several simulations fetches it once.
import { initSync } from './pkg/tumble_wasm.js';
import * as wasm from './pkg/tumble_wasm.js';
import { Stepper } from './stepper.js';

let stepper = null;
self.onmessage = ({ data }) => {
  if (data.type === 'init') {
    try {
      initSync({ module: data.module });
      stepper = new Stepper(wasm);
      self.postMessage({ type: 'ready' });
    } catch (e) {
      self.postMessage({ type: 'error', message: `the solver module did not start in the worker: ${e.message}` });
    }
    return;
  }
  const { reply, transfer } = stepper.handle(data);
  self.postMessage(reply, transfer);
};
