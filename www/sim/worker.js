// worker.js: the Web Worker that steps the simulation (stepper.js), so the page's main thread
// only draws. The page compiles the wasm module once and sends it here ('init'), so a page with
// several simulations fetches it once.
import { initSync } from '../pkg/tumble_wasm.js';
import * as wasm from '../pkg/tumble_wasm.js';
import { Stepper } from './stepper.js';

let stepper = null;
// one message at a time, in order: MuJoCo's start ('mujoco-load') is asynchronous, and the page
// matches replies to requests by their order
let queue = Promise.resolve();
self.onmessage = ({ data }) => { queue = queue.then(() => handle(data)); };

async function handle(data) {
  if (data.type === 'init') {
    try {
      initSync({ module: data.module });
      stepper = new Stepper(wasm, data.module); // (the module again for MuJoCo's worker)
      self.postMessage({ type: 'ready' });
    } catch (e) {
      self.postMessage({ type: 'error', message: `the solver module did not start in the worker: ${e.message}` });
    }
    return;
  }
  const { reply, transfer } = await stepper.handle(data);
  self.postMessage(reply, transfer);
}
