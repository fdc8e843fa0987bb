// study-explain.js: the Study view's explanation: what the plots measure, what the order and
// the work-precision curves mean and what to look for. In the style of explain.js: DOM calls
// and textContent only (never innerHTML); every number with its unit, relative errors called
// relative.
import { INTEGRATOR_COLORS, LABEL } from '../shared/names.js';

export const STUDY_TEXT = [
  {
    h: 'What is measured',
    p: [
      'Each integrator runs the scenario from the same start to the time T with the step h = H0, H0/2, H0/4, ... (one run per level). The error of a run is how far its final state is from a reference solution: the largest distance between a body\'s centre and the reference\'s, in m, or L times the Frobenius norm of the difference of the rotation matrices with L = 1 m, whichever is larger.',
      'The reference is the director method at a step 2^(K+3) times smaller than the smallest H0 (K the number of levels) with the Newton tolerance 1e-14; a check run at twice that step estimates its own error, which should be at least 100 times below the finest level\'s. These are the same runs and the same numbers as the command line\'s tumble study (the timing aside).',
    ],
  },
  {
    h: 'Order of convergence',
    p: [
      'On the log-log plot of error against h, a method of order p is a straight line of slope p: halving h divides the error by 2^p. The observed order between two levels is log2(error at h / error at h/2). All three methods here are of order 2: halving the step should quarter the error, and the lines should run parallel to the dashed slope-2 guide.',
      'Look for: orders close to 2.00 at the finer levels. At coarse steps a method may not yet be in its asymptotic range; on a chaotic motion (a long T) the errors are of the size of the motion itself until h is small enough, and the orders come out anywhere.',
    ],
  },
  {
    h: 'Work-precision',
    p: [
      'The error against the wall time of each run (in s, measured in this browser): the curve further down and to the left buys the same accuracy for less computing. An implicit method such as the director method costs more per step (Newton iterations) than the explicit Baumgarte step, so whether it pays depends on how much smaller its error is at the same h. Wall times depend on the machine and on what else it is doing; the errors do not. Runs of a few milliseconds (T = 1 s on a small scenario) are timed only roughly, as the browser\'s clock ticks in steps of 0.1 ms: for a work-precision plot worth reading, let each run take a good part of a second (T = 10 s, or more levels).',
    ],
  },
  {
    h: 'Energy, and the long run',
    p: [
      'The energy plots show the relative energy error |E \u2212 E\u2080| / |E\u2080| (dimensionless). The director method conserves energy by construction: its error stays at the Newton tolerance and round-off (around 1e-12 relative), at any h and for any time. RATTLE is symplectic: its energy error is of order h\u00b2 but stays bounded, oscillating for as long as the run lasts. Baumgarte\'s index-1 formulation has nothing that keeps the energy: its error grows with time, and with the constraint drift the motion may blow up.',
      'On the long run\'s log time axis a bounded error is a flat band and a drift a rising line (slope 1: growing in proportion to t). The constraint drift plot shows the joint residual |\u03a6| in m and the internal violation (dimensionless): the director method and RATTLE hold the joints to their tolerance; Baumgarte\'s stabilisation only pulls them back after they have drifted.',
    ],
  },
];

/** Fill `el` with the explanation (a closed-by-default panel on small screens is the caller's choice). */
export function renderStudyExplanation(el, integrators) {
  const box = document.createElement('details');
  box.className = 'explain-box study-explain';
  box.open = true;
  const summary = document.createElement('summary');
  summary.className = 'explain-summary';
  const name = document.createElement('span');
  name.className = 'explain-name';
  name.textContent = 'About this study: orders, work-precision, energy';
  summary.append(name);
  const body = document.createElement('div');
  body.className = 'explain-body';
  for (const part of STUDY_TEXT) {
    const sec = document.createElement('div');
    const h = document.createElement('h3');
    h.className = 'explain-h';
    h.textContent = part.h;
    sec.append(h);
    for (const text of part.p) {
      const p = document.createElement('p');
      p.className = 'explain-text';
      p.textContent = text;
      sec.append(p);
    }
    body.append(sec);
  }
  const key = document.createElement('p');
  key.className = 'explain-text';
  key.append('Colours: ');
  integrators.forEach((n, i) => {
    const sw = document.createElement('span');
    sw.className = 'explain-swatch';
    sw.style.setProperty('--explain-color', INTEGRATOR_COLORS[n]);
    key.append(...(i ? [', '] : []), sw, LABEL[n]);
  });
  key.append(', as in the live view.');
  body.append(key);
  box.append(summary, body);
  el.replaceChildren(box);
}
