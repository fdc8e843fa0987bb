// study-worker.js: one run of a study (study.js starts one worker per run). The page sends
// the compiled wasm module and the run; the worker steps it in chunks of about CHUNK_MS,
// timing each chunk (steps and their measurement: tumble::study::Run), reports its progress
// every PROGRESS_MS and posts the record at the end. It never waits for a message while
// running: Cancel terminates it.
import { initSync, StudyRun } from '../pkg/tumble_wasm.js';

const CHUNK_MS = 20;
const PROGRESS_MS = 100;

self.onmessage = ({ data }) => {
  const { module, scenario, run, index } = data;
  let sim;
  try {
    initSync({ module });
    sim = new StudyRun(scenario, run.integrator, run.dt, run.tol, run.max_iter, run.alpha, run.beta, run.duration);
  } catch (e) {
    self.postMessage({ type: 'error', index, message: e.message });
    return;
  }
  const steps = sim.steps();
  let wall = 0, chunk = 16, posted = performance.now();
  while (!sim.is_over()) {
    const t0 = performance.now();
    sim.advance(chunk);
    const t1 = performance.now();
    wall += t1 - t0;
    // the next chunk takes about CHUNK_MS (at most 4 times this one's steps)
    chunk = Math.max(1, Math.min(4 * chunk, Math.round(chunk * CHUNK_MS / Math.max(t1 - t0, 0.05))));
    if (t1 - posted >= PROGRESS_MS) {
      posted = t1;
      self.postMessage({ type: 'progress', index, done: sim.steps_done(), steps, wall: wall / 1000 });
    }
  }
  const record = sim.finish(wall / 1000);
  sim.free();
  self.postMessage({ type: 'done', index, record });
};
