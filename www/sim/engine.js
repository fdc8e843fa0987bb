// engine.js: where the simulation steps. loadSolver() compiles the wasm module once per page
// and starts it on the main thread too (the page's cheap calls: presets, link checks);
// createEngine() gives each view its own Web Worker running stepper.js, or, where no worker can
// be made (an old browser, a page whose CSP forbids it), a Stepper on the main thread. Both
// answer the same messages through `request(msg) -> Promise<reply>`.
import init, * as wasm from '../pkg/tumble_wasm.js';
import { Stepper } from './stepper.js';
import { startWorker, WorkerEngine } from './workers.js';

let compiled = null;

/** The compiled wasm module (fetched once per page), with the main thread's instance started. */
export function loadSolver() {
  compiled ??= (async () => {
    const url = new URL('../pkg/tumble_wasm_bg.wasm', import.meta.url);
    const res = await fetch(url);
    if (!res.ok) throw new Error(`${url} answered ${res.status}`);
    const module = WebAssembly.compileStreaming && res.headers.get('content-type')?.startsWith('application/wasm')
      ? await WebAssembly.compileStreaming(res) : await WebAssembly.compile(await res.arrayBuffer());
    await init({ module_or_path: module });
    return module;
  })();
  return compiled;
}

class LocalEngine {
  constructor(module) {
    this.stepper = new Stepper(wasm, module);
    this.local = true; // steps on the page's own thread: ask once a frame, never back to back
  }

  async request(msg) {
    return (await this.stepper.handle(msg)).reply;
  }

  close() {}
}

/** An engine for one view: a worker if one starts, else the main thread. */
export async function createEngine() {
  const module = await loadSolver();
  try {
    const engine = new WorkerEngine(startWorker(new URL('./worker.js', import.meta.url)));
    const ready = await Promise.race([
      engine.request({ type: 'init', module }),
      new Promise((r) => setTimeout(() => r({ type: 'error', message: 'the worker did not answer' }), 10000)),
    ]);
    if (ready.type === 'ready') return engine;
    engine.close();
  } catch {
    // no worker here: step on the main thread
  }
  return new LocalEngine(module);
}
