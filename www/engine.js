// engine.js: where the simulation steps. loadSolver() compiles the wasm module once per page
// and starts it on the main thread too (the page's cheap calls: presets, link checks);
// createEngine() gives each view its own Web Worker running stepper.js, or, where no worker can
// be made (an old browser, a page whose CSP forbids it), a Stepper on the main thread. Both
// answer the same messages through `request(msg) -> Promise<reply>`.
import init, * as wasm from './pkg/tumble_wasm.js';
import { Stepper } from './stepper.js';

let compiled = null;

/** The compiled wasm module (fetched once per page), with the main thread's instance started. */
export function loadSolver() {
  compiled ??= (async () => {
    const url = new URL('pkg/tumble_wasm_bg.wasm', import.meta.url);
    const res = await fetch(url);
    if (!res.ok) throw new Error(`${url} answered ${res.status}`);
    const module = WebAssembly.compileStreaming && res.headers.get('content-type')?.startsWith('application/wasm')
      ? await WebAssembly.compileStreaming(res) : await WebAssembly.compile(await res.arrayBuffer());
    await init({ module_or_path: module });
    return module;
  })();
  return compiled;
}

// a module worker from our own origin; from a course page on another origin, a same-origin
// blob worker that imports ours (module imports may cross origins where the host allows CORS)
function startWorker() {
  const url = new URL('worker.js', import.meta.url);
  if (url.origin === location.origin) return new Worker(url, { type: 'module' });
  const blob = new Blob([`import ${JSON.stringify(url.href)};`], { type: 'text/javascript' });
  return new Worker(URL.createObjectURL(blob), { type: 'module' });
}

class WorkerEngine {
  constructor(worker) {
    this.worker = worker;
    this.waiting = [];
    worker.onmessage = ({ data }) => this.waiting.shift()?.resolve(data);
    worker.onerror = (e) => { e.preventDefault?.(); this.fail(e.message || 'the simulation worker stopped'); };
  }

  fail(message) {
    for (const w of this.waiting.splice(0)) w.resolve({ type: 'error', message });
  }

  request(msg, transfer = []) {
    return new Promise((resolve) => {
      this.waiting.push({ resolve });
      this.worker.postMessage(msg, transfer);
    });
  }

  close() {
    this.worker.terminate();
    this.fail('closed');
  }
}

class LocalEngine {
  constructor() {
    this.stepper = new Stepper(wasm);
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
    const engine = new WorkerEngine(startWorker());
    const ready = await Promise.race([
      engine.request({ type: 'init', module }),
      new Promise((r) => setTimeout(() => r({ type: 'error', message: 'the worker did not answer' }), 10000)),
    ]);
    if (ready.type === 'ready') return engine;
    engine.close();
  } catch {
    // no worker here: step on the main thread
  }
  return new LocalEngine();
}
