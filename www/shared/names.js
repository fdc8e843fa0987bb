// names.js: what the page, the <tumble-view> element, the simulation side and the Study view all
// name the same way, defined once: the integrators (Tumble's and MuJoCo's), their colours and
// labels, and the interface every run has (an invariant sample's fields are in invariants.js).
// No DOM, no imports: Node tests, scripts and workers import it too.

/** Tumble's integrators, by the names links, attributes and the wasm module use. */
export const INTEGRATORS = ['director', 'rattle', 'baumgarte'];
/** How the page names MuJoCo's run (beside Tumble's, `mujoco=RK4` in a link). */
export const MUJOCO = 'mujoco';
/** MuJoCo's integrators the page can run beside Tumble's, by MuJoCo's own names. */
export const MUJOCO_INTEGRATORS = ['RK4', 'Euler', 'implicit', 'implicitfast'];
/** MuJoCo's constraint solvers the page offers (its <option solver>): Newton is MuJoCo's default;
 * CG is cheaper a step with many contacts (the 100-ball pit at rest: explain.js says how much). */
export const MUJOCO_SOLVERS = ['Newton', 'CG', 'PGS'];

/** Colour of each integrator (charts, legends, explanations and its ghost in the 3-D view):
 * Okabe-Ito blue, bluish green and vermillion, told apart with the common colour-vision
 * deficiencies and on a projector; MuJoCo's run in Okabe-Ito's reddish purple. */
export const INTEGRATOR_COLORS = { director: '#0072b2', rattle: '#009e73', baumgarte: '#d55e00', [MUJOCO]: '#cc79a7' };
/** How each integrator is named on the page (charts, legends, messages, readout). */
export const LABEL = { director: 'director', rattle: 'RATTLE', baumgarte: 'Baumgarte', [MUJOCO]: 'MuJoCo' };

/** Most contact forces a reply of the simulation's worker carries for drawing (the first run's). */
export const CONTACT_CAP = 4096;
/** Most chart samples one reply of the simulation's worker carries, a ring of the newest (the
 * charts keep 4000). */
export const SAMPLE_CAP = 4096;

/**
 * The interface of a run, as the stepper, the history and the exports read it. Tumble's own run
 * (sim/sim.js `Run`), MuJoCo's run in the same thread (mujoco/mujoco-run.js `MujocoRun`) and
 * MuJoCo's run in its own worker (mujoco/mujoco-remote.js `RemoteRun`) all have it.
 *
 * @typedef {object} RunInterface
 * @property {string} name          the integrator (INTEGRATORS, or MUJOCO)
 * @property {number} n             bodies
 * @property {number} nj            joints
 * @property {number} ns            point-to-point springs
 * @property {Float64Array} poses   12 per body: centre, then the rotation's three columns
 * @property {Float64Array} sizes   3 per body: the box drawn
 * @property {Float64Array} joints  3 per joint: its world point
 * @property {Float64Array} springs 6 per spring: its world ends, a then b
 * @property {Float64Array} inv     the current invariants (NINV numbers, read by INV: invariants.js)
 * @property {boolean} forced       force elements or loads: E alone is not conserved
 * @property {boolean[]} conserved  which momentum components the system conserves
 * @property {number} joint         the joint whose reaction is charted (-1: none)
 * @property {number} steps         steps taken
 * @property {number} msPerStep     a running mean of the wall time a step takes
 * @property {?string} error        why the run stopped, or null while it runs
 * @property {{ state_hash(): string }} sim  the hash of the exact state bits
 * @property {(p: ?object) => void} pull     the pointer's pull ({ body, point, target }), null to let go
 * @property {(h: number) => void} resume    continue a stopped run with step h
 * @property {() => void} free               release what the run holds
 */
