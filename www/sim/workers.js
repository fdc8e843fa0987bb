// workers.js: starting a module worker of ours and talking to it, message in, reply out (the
// simulation's worker, engine.js; MuJoCo's own, mujoco-remote.js).

/** A module worker running the script at `url`, a URL its caller builds beside itself
 * (`new URL('./worker.js', import.meta.url)`), so a moved file is found or fails where it is
 * named: from our own origin directly; from a course page on another origin, a same-origin blob
 * worker that imports ours (module imports may cross origins where the host allows CORS). */
export function startWorker(url) {
  if (typeof location === 'undefined' || url.origin === location.origin) return new Worker(url, { type: 'module' });
  const blob = new Blob([`import ${JSON.stringify(url.href)};`], { type: 'text/javascript' });
  return new Worker(URL.createObjectURL(blob), { type: 'module' });
}

/** One reply a request, in order: `request(msg, transfer) -> Promise<reply>`. A worker that
 * stops answers every waiting request with { type: 'error', message }. */
export class WorkerEngine {
  constructor(worker, what = 'the simulation worker') {
    this.worker = worker;
    this.waiting = [];
    worker.onmessage = ({ data }) => this.waiting.shift()?.resolve(data);
    worker.onerror = (e) => { e.preventDefault?.(); this.fail(e.message || `${what} stopped`); };
  }

  fail(message) {
    this.dead = message; // (a worker that stopped answers nothing more: later requests fail at once)
    for (const w of this.waiting.splice(0)) w.resolve({ type: 'error', message });
  }

  request(msg, transfer = []) {
    if (this.dead) return Promise.resolve({ type: 'error', message: this.dead });
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
