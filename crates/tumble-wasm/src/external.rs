//! Tumble's invariants of states computed elsewhere, for MuJoCo beside Tumble. The page
//! steps a system in MuJoCo and measures each state with Tumble's own definitions, so that the
//! curves of both are comparable point for point: the same E = T + V (V with the springs),
//! momentum about the origin, joint violation from Tumble's joint equations, and the balance
//! E - E0 - W + D with E0 Tumble's own initial energy.
use glam::{DMat3, DVec3};
use tumble::compiled::Compiled;
use tumble::model::BodyState;
use tumble::Scenario;
use wasm_bindgen::prelude::*;

/// Measures states of one scenario's bodies with Tumble's definitions.
#[wasm_bindgen]
pub struct Evaluator {
    compiled: Compiled,
    states: Vec<BodyState>,
    angles: Vec<f64>,
    e0: f64,
    /// the time of the last `evaluate`
    t: f64,
    /// scratch space of `reactions`, made at its first call
    react: Option<tumble::baumgarte::Workspace>,
}

#[wasm_bindgen]
impl Evaluator {
    /// For `scenario` (a preset text or system JSON), as the page's Simulation takes it.
    #[wasm_bindgen(constructor)]
    pub fn new(scenario: &str) -> Result<Evaluator, JsError> {
        let sc = Scenario::parse(scenario).map_err(|e| JsError::new(&e.0))?;
        // the joints with their drives: MuJoCo's run prescribes them too (to-mjcf-drives.js), so
        // a drive's row at the state's time is in its violation (|q - q0 - f(t)|, or a driven
        // rod's length against length + f(t))
        let mut compiled = Compiled::new(&sc.model).map_err(|e| JsError::new(&e))?;
        compiled.measure_from(&sc.initial);
        let mut inv = tumble::invariants::measure_without_joints(&sc.model, &sc.initial, 0.0);
        let angles = alloc_angles(&sc.model);
        if !sc.model.forces.is_empty() {
            inv.potential +=
                tumble::forces::potential(&sc.model, &compiled.force_frames, &sc.initial, &angles)
                    .0;
            inv.kinetic +=
                tumble::forces::armature_energy_at(&sc.model, &compiled.force_frames, &sc.initial);
        }
        Ok(Evaluator {
            compiled,
            states: sc.initial.clone(),
            angles,
            e0: inv.energy(),
            t: 0.0,
            react: None,
        })
    }

    /// The invariants (`invariant_fields()`, 15 numbers) of the state `states` at time `t` into
    /// `out`: per body 18 numbers, the centre x (m), the rotation R column-major, the velocity
    /// v (m/s) and the angular velocity (rad/s), both world; `work` and `dissipated` (J) as the
    /// caller counted them, `iterations` its solver's. The internal violation is the largest
    /// entry of R^T R - I. The joint springs' angles are followed from call to call (they turn
    /// more than a turn), so the states must come in time order.
    pub fn evaluate(
        &mut self,
        t: f64,
        states: &[f64],
        work: f64,
        dissipated: f64,
        iterations: f64,
        out: &mut [f64],
    ) {
        let mut internal = 0.0f64;
        for (s, x) in self.states.iter_mut().zip(states.chunks_exact(18)) {
            let r = DMat3::from_cols_slice(&x[3..12]);
            let e = r.transpose() * r - DMat3::IDENTITY;
            for c in e.to_cols_array() {
                internal = internal.max(c.abs());
            }
            *s = BodyState {
                x: DVec3::new(x[0], x[1], x[2]),
                r,
                v: DVec3::new(x[12], x[13], x[14]),
                w: r.transpose() * DVec3::new(x[15], x[16], x[17]),
            };
        }
        self.t = t;
        let model = &self.compiled.model;
        let mut inv = tumble::invariants::measure_without_joints(model, &self.states, t);
        if !model.forces.is_empty() {
            tumble::forces::update_angles(
                model,
                &self.compiled.force_frames,
                &self.states,
                &mut self.angles,
            );
            let (v, stops) = tumble::forces::potential(
                model,
                &self.compiled.force_frames,
                &self.states,
                &self.angles,
            );
            inv.potential += v;
            inv.contact = stops;
            inv.kinetic += tumble::forces::armature_energy_at(
                model,
                &self.compiled.force_frames,
                &self.states,
            );
        }
        let joints = tumble::invariants::joint_violation_compiled(&self.compiled, &self.states, t);
        let e = inv.energy();
        let v = [
            t,
            e,
            inv.kinetic,
            inv.potential,
            inv.momentum.x,
            inv.momentum.y,
            inv.momentum.z,
            internal,
            joints,
            iterations,
            0.0,
            work,
            dissipated,
            e - self.e0 - work + dissipated,
            inv.contact,
        ];
        out[..v.len()].copy_from_slice(&v);
    }

    /// The reaction each joint would transmit at the state of the last `evaluate`, by Tumble's
    /// definition (the multipliers of its index-1 equations at that state, as the page's own
    /// runs chart them): 6 numbers per joint into `out`, the force on body b (N) and the torque on
    /// b about the joint's point (N m). The other engine's constraint forces are its own (MuJoCo
    /// closes loops softly, and an applied pull is not in the model): this is what Tumble's
    /// joints carry in the motion it produced. False where the equations are singular there.
    pub fn reactions(&mut self, out: &mut [f64]) -> bool {
        let ws = self
            .react
            .get_or_insert_with(|| tumble::baumgarte::Workspace::new(&self.compiled));
        // (no contact state: the other engine's contacts are its own)
        let none = tumble::contact::StepState::default();
        ws.reactions(
            &self.compiled,
            &self.states,
            (&self.angles, (&[], &none), self.t),
            out,
        )
        .is_ok()
    }

    /// Tumble's initial energy E0 of the scenario (J).
    pub fn energy0(&self) -> f64 {
        self.e0
    }
}

/// Every angle slot the elements and the tendons' terms take (`forces::angle_slots`: a tendon
/// term's hinge angle follows the elements' own, so a list as long as the elements alone let a
/// model with tendons panic here).
fn alloc_angles(model: &tumble::Model) -> Vec<f64> {
    vec![0.0; tumble::forces::angle_slots(model)]
}
