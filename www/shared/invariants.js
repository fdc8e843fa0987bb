// invariants.js: the numbers of an invariant sample by name, defined once. Every run's `inv`
// (Tumble's Simulation.invariants, MuJoCo's run through the wasm module's Evaluator), the
// history's samples, the charts and the exports hold them in this order, the wasm module's
// `invariant_fields()` (INVARIANT_FIELDS in crates/tumble-wasm/src/lib.rs, the fields of
// crates/tumble/src/invariants.rs); tests/js/invariants.test.mjs checks the two agree. Read them
// as `inv[INV.energy]`, never by a bare index. No DOM, no imports: Node tests, scripts and
// workers import it too.

/** The fields of a sample, in order, with their units. */
export const INVARIANT_FIELDS = Object.freeze([
  't', //                  simulated time (s)
  'energy', //             total energy E = T + V (J)
  'kinetic', //            kinetic energy T (J)
  'potential', //          potential energy V: gravity, springs, contacts and stops (J)
  'l1', //                 angular momentum about the origin, x component (kg m^2/s)
  'l2', //                 ... y component (kg m^2/s)
  'l3', //                 ... z component (kg m^2/s)
  'internal_violation', // the internal constraints' violation (the director's |e(q)|, |C(q)p|; |R^T R - I|)
  'joint_violation', //    the largest joint equation residual |Phi|
  'iterations', //         Newton iterations of the last step
  'residual', //           final Newton residual of the last step
  'work', //               W: work put in by loads and motors since the start (J)
  'dissipated', //         D: energy taken out by dampers since the start (J)
  'balance', //            the energy balance E - E(0) - W + D (J): zero for the exact motion
  'contact', //            C: the elastic energy of contacts and stops, a part of V (J)
]);

/** Each field's index in a sample: `inv[INV.energy]`. The three momentum components are
 * consecutive: component c (0, 1, 2) is at INV.l1 + c. */
export const INV = Object.freeze(Object.fromEntries(INVARIANT_FIELDS.map((f, i) => [f, i])));

/** Numbers per invariant sample. */
export const NINV = INVARIANT_FIELDS.length;
