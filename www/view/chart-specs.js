// chart-specs.js: what each chart of charts.js shows: its title, axis and series (label, colour,
// dash, and how a series' value comes from a sample's invariants), for the runs on the page.
import { INTEGRATOR_COLORS, LABEL, MUJOCO } from '../shared/names.js';
import { INV, NINV } from '../shared/invariants.js';

/** Momentum drift is divided by max(|l(0)|, L_FLOOR): relative when |l(0)| > 1 kg m^2/s, in kg m^2/s
 * below. (nk-spherical starts from rest, l(0) = 0: with a tiny floor its 1e-11 kg m^2/s round-off
 * drift of l3 would read as a 1e-2 "relative" drift.) */
export const L_FLOOR = 1;
/** The balance error is divided by max(|E0|, E_FLOOR) (J): relative when |E0| > 1 J, in J below. */
export const E_FLOOR = 1;

/** Colours of the energy budget's quantities (kinetic T, potential V, work in W, dissipated D,
 * and the contacts' and stops' elastic energy C, a part of V): brown, purple, magenta, grey and
 * dark green, apart from the integrators' colours and each at least 5:1 against the white
 * chart; dashes tell them apart too (BUDGET_DASH). */
export const BUDGET_COLORS = { T: '#8c510a', V: '#5e3c99', W: '#c51b7d', D: '#4d4d4d', C: '#1b7837' };
const BUDGET_DASH = { T: [], V: [9, 4], W: [14, 4, 3, 4], D: [3, 3], C: [6, 2, 2, 2] };
// [key, label, invariant index (INV), group]: C (a group of its own) shows once a contact or a stop
// has stored energy, so systems without them keep the four lines
const BUDGET = [['T', 'kinetic T', INV.kinetic], ['V', 'potential V', INV.potential], ['W', 'work in W', INV.work], ['D', 'dissipated D', INV.dissipated], ['C', 'stored C (in V)', INV.contact, 'contact']];
const COMPONENT_DASH = [[], [9, 4], [2, 3]];   // l1 solid, l2 dashed, l3 dotted
const INTERNAL_DASH = [7, 4];                 // the internal violation, against the joints' solid line
const RUN_WIDTH = [4, 2.5, 1.25];             // compare mode: widest first (drawn first, underneath)
const ONE_WIDTH = 2;
const SUB = ['\u2081', '\u2082', '\u2083'];
/** Compact text for one number: at most `digits` significant digits, exponent form for large or small. */
export function compact(v, digits = 4) {
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1e4 || a < 1e-3) {
    const [m, e] = v.toExponential(digits - 1).split('e');
    return `${m.includes('.') ? m.replace(/\.?0+$/, '') : m}e${Number(e)}`;
  }
  return String(+v.toPrecision(digits));
}

// The series that each chart may show for runs `names` with initial invariants `v0s`, the
// conserved-component flags `conserved` and `forced` (the system has force elements or loads).
// A series with a `group` is shown only once some run has drawn a non-zero value in that group
// (components that are zero by symmetry stay hidden).
/** The reaction chart's spec for joint `joint` = { index, label } (runs as in chartSpecs). */
function reactionSpec(runs, who, joint) {
  return {
    key: 'reactions', log: false, unit: 'N, N m', short: `joint ${joint.index} reaction (N, N m)`, // (the legend names |F| in N and |M| in N m)
    title: `Reaction at joint ${joint.index} (${joint.label}): force |F| in N (solid), torque |M| in N m (dashed), on its body b`,
    name: `the force and torque joint ${joint.index} transmits, in N and N m`,
    // magnitudes, not components: they do not depend on the axes they are read in, and one
    // line for the force and one for the torque stay readable with three runs compared
    caption: `Magnitudes of the force F (N) and the torque M (N m, about the joint's point) that joint ${joint.index} exerts on its body b, `
      + '|F| = \u221a(Fx\u00b2 + Fy\u00b2 + Fz\u00b2) in world axes; magnitudes do not depend on the axes they are read in. '
      + 'Each run\u2019s value comes from the joint\u2019s Lagrange multipliers of the index-1 (acceleration) equations at that run\u2019s state, '
      + 'so a body hanging at rest reads m g. A hinge\u2019s |M| is the moment it holds about the axes it does not turn about. '
      + 'Picking another joint starts its lines at that moment. '
      + 'The lines break where the joint-space system is singular; MuJoCo\u2019s run has none (its constraint forces are not a Tumble joint\u2019s).',
    series: runs.flatMap((r) => [
      { ...r, label: who(r.n, '|F| (N)'), unit: 'N', dash: [], comp: 'F', nanOk: true, get: (v) => v[NINV] },
      { ...r, label: who(r.n, '|M| (N m)'), unit: 'N m', dash: INTERNAL_DASH, comp: 'M', nanOk: true, get: (v) => v[NINV + 1] },
    ]),
  };
}

// a series' running values, before its first sample; k: its array in the store
export function fresh(s, k) {
  s.k = k;
  s.plain = null;
  s.gaps = false;
  s.last = NaN;
  s.max = -Infinity;
}

// MuJoCo's balance line beside contacts or stops: what it is. MuJoCo reports its constraint
// forces, not their work: the page counts it in MuJoCo's D (mujoco-losses.js), except in a system
// with loops or drives (equality constraints), where the line is the energy its contacts took.
const MUJOCO_LOSSES = 'contact losses';
const MUJOCO_COUNTED = `MuJoCo\u2019s D counts what its soft contacts and stops take: MuJoCo reports their forces, not their work, so the page sums each step\u2019s constraint impulse times the step\u2019s mean velocity (with RK4, its four stages\u2019 forces weighted as RK4 weighs them). Its line is then its integrator\u2019s balance error (relative to max(|E\u2080|, ${E_FLOOR} J)), as Tumble\u2019s lines are theirs.`;
const MUJOCO_UNCOUNTED = `MuJoCo\u2019s line is not an error: its contacts and stops are soft constraints whose damping and friction take energy that MuJoCo does not report, so the D of its run leaves that out, and its |E \u2212 E\u2080 \u2212 W + D| is the energy its contacts and stops have taken (relative to max(|E\u2080|, ${E_FLOOR} J)). Tumble\u2019s lines are balance errors: their D counts every contact\u2019s loss. (MuJoCo\u2019s losses are counted where the system has no loops or drives.)`;

/** `soft`: '' without contacts or stops; 'counted' when MuJoCo's D counts their losses,
 * 'uncounted' when it does not (its line is then those losses). */
export function chartSpecs(names, v0s, conserved, forced, joint = null, soft = '') {
  const one = names.length === 1;
  const col = (n) => INTEGRATOR_COLORS[n] ?? '#555555';
  const width = (i) => (one ? ONE_WIDTH : RUN_WIDTH[i] ?? 1.25);
  const who = (n, what) => (one ? what : what ? `${LABEL[n] ?? n} ${what}` : LABEL[n] ?? n);
  const runs = names.map((n, i) => ({ n, i, color: col(n), width: width(i) }));
  const kept = [0, 1, 2].filter((c) => conserved?.[c]);
  const lnorm = (v0) => Math.max(Math.hypot(v0[INV.l1], v0[INV.l2], v0[INV.l3]), L_FLOOR);
  const momentum = kept.length
    ? {
      key: 'momentum', log: true, short: `momentum drift (${kept.map((c) => 'l' + SUB[c]).join(', ')}), relative`,
      title: `Angular momentum drift |l\u1d62 \u2212 l\u1d62(0)| / max(|l(0)|, ${L_FLOOR} kg m\u00b2/s) of the conserved ${kept.map((c) => 'l' + SUB[c]).join(', ')}`,
      name: 'angular momentum drift (relative to |l(0)|)',
      series: runs.flatMap((r) => kept.map((c) => ({
        ...r, label: who(r.n, `l${SUB[c]}`), dash: COMPONENT_DASH[c], comp: c,
        get: (v, v0) => Math.abs(v[INV.l1 + c] - v0[INV.l1 + c]) / lnorm(v0),
      }))),
    }
    : {
      key: 'momentum', log: false, unit: 'kg m\u00b2/s', short: 'angular momentum (kg m\u00b2/s)',
      title: 'Angular momentum l in kg m\u00b2/s (not conserved here; components that stay zero are hidden)',
      // (every component zero so far: all three are drawn, at zero)
      titleZero: 'Angular momentum l in kg m\u00b2/s: l\u2081, l\u2082 and l\u2083 are zero so far (not conserved here; a component is drawn alone once it leaves zero)',
      name: 'angular momentum in kg m\u00b2/s',
      series: runs.flatMap((r) => [0, 1, 2].map((c) => ({
        ...r, label: who(r.n, `l${SUB[c]}`), dash: COMPONENT_DASH[c], comp: c, group: `l${c}`, get: (v) => v[INV.l1 + c],
      }))),
    };
  const escale = (v0) => Math.max(Math.abs(v0[INV.energy]), E_FLOOR);
  const balance = `|E \u2212 E\u2080 \u2212 W + D| / max(|E\u2080|, ${E_FLOOR} J)`;
  const energy = forced
    ? {
      // (embeds show the short title on one line: the formula alone fits 200 px; the legend says "balance")
      key: 'energy', log: true, short: '|E\u2212E\u2080\u2212W+D| / max(|E\u2080|, 1 J)',
      title: `Energy balance error ${balance}, E\u2080 = ${compact(v0s[0][INV.energy], 4)} J (W: work in, D: dissipated)`,
      name: 'energy balance error (relative)',
      ...(soft && names.includes(MUJOCO) ? { caption: soft === 'uncounted' ? MUJOCO_UNCOUNTED : MUJOCO_COUNTED } : {}),
      series: runs.map((r) => ({ ...r, label: who(r.n, one ? 'balance' : soft === 'uncounted' && r.n === MUJOCO ? MUJOCO_LOSSES : ''), dash: [], get: (v, v0) => Math.abs(v[INV.balance]) / escale(v0) })),
    }
    : {
      key: 'energy', log: true, short: 'energy error |E \u2212 E\u2080| / |E\u2080|', title: 'Energy: relative error |E \u2212 E\u2080| / |E\u2080|', name: 'relative energy error',
      series: runs.map((r) => ({ ...r, label: who(r.n, one ? 'energy' : ''), dash: [], get: (v, v0) => Math.abs(v[INV.energy] - v0[INV.energy]) / Math.max(Math.abs(v0[INV.energy]), 1e-300) })),
    };
  // the budget of the first run only: with one line per quantity and run, three runs would draw
  // twelve lines (the balance chart above compares the runs)
  const first = runs[0];
  const budget = {
    key: 'budget', log: false, unit: 'J', short: 'energy budget (J)',
    title: `Energy budget in J: kinetic T, potential V, work put in W, dissipated D${one ? '' : ` (${LABEL[first.n] ?? first.n} run)`}`,
    name: 'kinetic energy T, potential energy V, work put in W and energy dissipated D in J',
    series: BUDGET.map(([key, label, at, group]) => ({ ...first, width: ONE_WIDTH, color: BUDGET_COLORS[key], label: `${label} (J)`, dash: BUDGET_DASH[key], comp: key, group, get: (v) => v[at] })),
  };
  return [
    energy,
    ...(forced ? [budget] : []),
    momentum,
    {
      key: 'constraints', log: true, short: 'constraint drift (joints in m)', title: 'Constraint drift: joints |\u03a6| in m (solid), internal (dashed, dimensionless)', name: 'constraint drift',
      // before any joint has drifted (and always for free bodies, which have none)
      titleWithout: 'Constraint drift: internal (dimensionless); no joint drift so far',
      series: runs.flatMap((r) => [
        { ...r, label: who(r.n, 'joints'), dash: [], comp: 'joints', group: 'joints', get: (v) => v[INV.joint_violation] },
        { ...r, label: who(r.n, 'internal'), dash: INTERNAL_DASH, comp: 'internal', get: (v) => v[INV.internal_violation] },
      ]),
    },
    {
      key: 'iterations', log: false, height: 130, short: 'Newton iterations', incrs: [1, 2, 5, 10, 20, 50, 100], title: 'Newton iterations of the last step', name: 'Newton iterations',
      range: (u, min, max) => [-0.3, Math.max(4, Math.ceil(max) + 1)], // a line at 0 stays off the frame
      series: runs.map((r) => ({ ...r, label: who(r.n, one ? 'iterations' : ''), dash: [], get: (v) => v[INV.iterations] })),
    },
    ...(joint ? [reactionSpec(runs, who, joint)] : []),
  ];
}
