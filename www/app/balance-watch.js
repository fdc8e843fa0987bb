// balance-watch.js: a run whose energy balance has come apart is said to be, in the page's
// notice, with a smaller step to try: the picture of such a run is not the system's motion.
// An explicit integrator (RATTLE's half kicks, Baumgarte's accelerations) past its stable step
// on a stiff damper or spring pumps energy in and out by the step (the suite's quadruped with
// RATTLE at its 5 ms step: E - E0 - W + D = 4.3e4 J against E0 = 988 J after its first contacts,
// while the bodies look merely jolted). The threshold is the run's whole energy scale: every
// preset at its suitable step stays below it over 20 s with every integrator
// (tests/tests/presets.rs checks; Baumgarte's on kapitza is why its suitable step is 2.5e-4 s).
import { $, app, onLoaded } from './page.js';
import { LABEL, MUJOCO } from '../shared/names.js';
import { INV } from '../shared/invariants.js';

/** The run named in the notice since the last load (a load's step advice, scenario.js, hides
 * the notice or says its own there). */
let raised = null;

onLoaded(() => { raised = null; });

/** A step a few times smaller than h, rounded down to 1, 2 or 5 times a power of ten (s). */
function smallerStep(h) {
  const x = h / 5, p = 10 ** Math.floor(Math.log10(x));
  const m = x / p;
  return +((m >= 5 ? 5 : m >= 2 ? 2 : 1) * p).toPrecision(3);
}

/** The energy scale against which a run's balance is judged (J), as Invariants::energy_scale
 * (crates/tumble/src/invariants.rs) for the command line's warning: the largest of |E0|, |E|, T
 * and |W|, at least 1 J. Not D: a run that blows up through a damper counts its own D up with it. */
function energyScale(inv) {
  const e0 = inv[INV.energy] - inv[INV.work] + inv[INV.dissipated] - inv[INV.balance];
  return Math.max(Math.abs(e0), Math.abs(inv[INV.energy]), inv[INV.kinetic], Math.abs(inv[INV.work]), 1);
}

/** After every drawn frame: the first of Tumble's live runs whose |E - E0 - W + D| exceeds its
 * energy scale raises the notice (MuJoCo's balance does not count its soft contacts' losses:
 * not judged here). */
export function watchBalance(runs, h) {
  if (raised) return;
  for (const x of runs) {
    if (x.name === MUJOCO || x.error || !x.inv) continue;
    const off = Math.abs(x.inv[INV.balance]), scale = energyScale(x.inv);
    if (!(off > scale)) continue;
    raised = x.name;
    const use = smallerStep(h);
    $('notice-text').textContent = `${LABEL[x.name]}'s energy balance has come apart: E \u2212 E\u2080 \u2212 W + D = ${off.toExponential(1)} J at t = ${x.inv[INV.t].toFixed(3)} s, ${(off / scale).toPrecision(2)} times the run's largest energy (${scale.toPrecision(3)} J). The step h = ${h} s is too large for ${LABEL[x.name]} on this system${x.name === 'director' ? '' : ' (a stiff spring, damper or contact taken explicitly)'}, and its motion is not to be trusted. Try a smaller step${x.name === 'director' ? '' : ', or the director method'}.`;
    $('notice-use').textContent = `Use h = ${use} s`;
    $('notice-use').dataset.dt = use;
    $('notice').hidden = false;
    return;
  }
}
