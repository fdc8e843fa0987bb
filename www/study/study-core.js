// study-core.js: the Study view's pure helpers (no DOM, no wasm), so Node tests import them:
// the time-left estimate, the report without its timing, number formats with units.

/** A report's JSON (or any text) with every timing value ("wall_seconds", "wall_per_step")
 * replaced by 0: two studies of the same settings give the same text (tests/tests/study.rs). */
export function withoutTiming(text) {
  return text.replace(/"(wall_seconds|wall_per_step)":[^,}\]]*/g, '"$1":0');
}

/**
 * Seconds left in a study, or null while nothing has been measured.
 * runs: [{ integrator, steps, done, wall, state }] (state 'waiting', 'running', 'done' or
 * 'failed'; done = steps taken, wall = seconds spent on them); slots: runs at once.
 * Each integrator's time per step is measured on its own runs (all runs' where it has none
 * yet); the work left is shared among the slots, but no sooner than the longest single run
 * still to finish, which cannot be split.
 */
export function timeLeft(runs, slots) {
  const per = {};
  let allSteps = 0, allWall = 0;
  for (const r of runs) {
    if (!(r.done > 0 && r.wall > 0)) continue;
    const p = (per[r.integrator] ??= { steps: 0, wall: 0 });
    p.steps += r.done;
    p.wall += r.wall;
    allSteps += r.done;
    allWall += r.wall;
  }
  if (!allSteps) return null;
  let work = 0, longest = 0;
  for (const r of runs) {
    if (r.state === 'done' || r.state === 'failed') continue;
    const p = per[r.integrator];
    const cost = p ? p.wall / p.steps : allWall / allSteps;
    const left = Math.max(0, r.steps - r.done) * cost;
    work += left;
    longest = Math.max(longest, left);
  }
  return Math.max(work / Math.max(1, slots), longest);
}

/** A guess of a step's cost per body in the page (s: the wasm step and its measurement, on the
 * 2-core machine of docs/performance.md's figures, under load), for the time a study will take before any
 * of its runs is measured. */
export const GUESS_PER_BODY_STEP = { director: 7e-6, rattle: 9e-6, baumgarte: 4e-6 };

/** A guess of a study's time (s) before it runs: its runs' steps x bodies x the guessed cost,
 * shared among `slots` (not less than its longest run). */
export function guessTime(runs, bodies, slots) {
  const cost = runs.map((r) => r.steps * bodies * (GUESS_PER_BODY_STEP[r.integrator] ?? 8e-6));
  return Math.max(cost.reduce((a, b) => a + b, 0) / Math.max(1, slots), ...cost);
}

/** "about 12 s left", "about 2 min left", "less than a second left". */
export function formatLeft(s) {
  if (s == null) return 'estimating the time left';
  if (s < 1) return 'less than a second left';
  if (s < 90) return `about ${Math.ceil(s)} s left`;
  return `about ${Math.round(s / 60)} min left`;
}

/** A number in a table or a legend: 3 significant digits, exponent form when small or large;
 * '-' for a missing value. */
export function num(v, digits = 3) {
  if (v == null || Number.isNaN(v)) return '-';
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1e4 || a < 1e-2) {
    const [m, e] = v.toExponential(digits - 1).split('e');
    return `${m.includes('.') ? m.replace(/\.?0+$/, '') : m}e${Number(e)}`;
  }
  return String(+v.toPrecision(digits));
}

/** A step or a time in s: as many digits as it has (0.01, 0.00125, 7.8125e-5). */
export function step(v) {
  if (v == null || Number.isNaN(v)) return '-';
  const v8 = +v.toPrecision(8);
  return Math.abs(v) < 1e-4 && v !== 0 ? v8.toExponential() : String(v8);
}

/** The order of runs in which a study is started: longest first (as tumble study --jobs). */
export function longestFirst(runs) {
  return runs.map((r, i) => i).sort((a, b) => runs[b].steps - runs[a].steps || a - b);
}
