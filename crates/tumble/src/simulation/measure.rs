//! What a [`Simulation`] measures of its current state: the invariants (energy, momentum,
//! constraint residuals, the energy balance), the contact forces and joint reactions drawn by
//! the page, and the hash of the state's exact bits. None of it changes the run.
use super::solver::Solver;
use super::Simulation;
use crate::invariants::{self, Invariants};
use crate::methods::baumgarte;
use crate::model::BodyState;
use crate::step::StepError;
use glam::{DMat3, DVec3};

impl Simulation {
    /// Energy, momentum, constraint residuals and Newton figures of the current state.
    pub fn invariants(&self) -> Invariants {
        let mut states =
            alloc::vec![BodyState::at_rest(DVec3::ZERO, DMat3::IDENTITY); self.compiled.bodies()];
        self.invariants_into(&mut states)
    }

    /// [`Simulation::invariants`] without allocating: the body states go into `states` (one per
    /// body), which the measurement reads.
    pub fn invariants_into(&self, states: &mut [BodyState]) -> Invariants {
        self.body_states(states);
        let mut inv = invariants::measure_without_joints(self.model(), states, self.t);
        inv.joint_violation =
            invariants::joint_violation_compiled(&self.compiled, states, self.force_state().t);
        inv.internal_violation = match &self.solver {
            Solver::Director(s, _) => s.internal_violation(),
            Solver::Rattle(s, _) => s.internal_violation(),
            Solver::Baumgarte(s, _) => s.internal_violation(),
        };
        inv.iterations = self.last.iterations;
        inv.residual = self.last.residual;
        let f = self.force_state();
        if !self.model().forces.is_empty() {
            let (v, stops) = crate::forces::potential(
                self.model(),
                &self.compiled.force_frames,
                states,
                &f.angles,
            );
            inv.potential += v;
            inv.contact += stops;
            inv.kinetic += crate::forces::armature_energy(self.model(), &f.angles);
        }
        if !self.compiled.contacts.list.is_empty() || !f.broad.pairs.is_empty() {
            let v =
                crate::contact::potential(&self.compiled.contacts, &f.broad, states, &f.contact);
            inv.potential += v;
            inv.contact += v;
        }
        inv.work = f.work;
        inv.dissipated = f.dissipated;
        inv.balance = inv.energy() - self.e0 - f.work + f.dissipated;
        inv
    }

    /// The contact forces at the current state, for drawing: 6 numbers per force into `out`
    /// (the contact point, m, then the force on the body, N, world components; a point-plane
    /// contact gives its normal force and its friction, a sphere pair a force on each sphere),
    /// as many as fit; returns how many there are. Their continuous form at the state (as
    /// RATTLE and Baumgarte take them; the director's are their means over a step). `states`:
    /// scratch, one per body.
    pub fn contact_forces(&self, states: &mut [BodyState], out: &mut [f64]) -> usize {
        let f = self.force_state();
        if self.compiled.contacts.list.is_empty() && f.broad.pairs.is_empty() {
            return 0;
        }
        self.body_states(states);
        let mut k = 0;
        crate::contact::continuous::each_force(
            &self.compiled.contacts,
            &f.broad,
            states,
            &f.contact,
            |_, _, force, at| {
                if let Some(o) = out.get_mut(6 * k..6 * k + 6) {
                    o[..3].copy_from_slice(&at.to_array());
                    o[3..].copy_from_slice(&force.to_array());
                }
                k += 1;
            },
        );
        k
    }

    /// The reaction each joint transmits at the current state, its stops' force included, 6
    /// numbers per joint into `out`:
    /// the force on its body b (N) and the torque on b about the joint's point (N m), world
    /// components (see `baumgarte::Workspace::reactions`). Its scratch space is made at the first
    /// call; later calls allocate nothing.
    pub fn reactions(&mut self, out: &mut [f64]) -> Result<(), StepError> {
        let n = self.compiled.bodies();
        let (mut ws, mut states) = self.reactions.take().unwrap_or_else(|| {
            (
                baumgarte::Workspace::new(&self.compiled),
                alloc::vec![BodyState::at_rest(DVec3::ZERO, DMat3::IDENTITY); n],
            )
        });
        self.body_states(&mut states);
        let f = self.force_state();
        let result = ws.reactions(
            &self.compiled,
            &states,
            (&f.angles, (&f.contact, &f.broad), f.t),
            out,
        );
        // a joint's stops act through it too: their force and torque on b join its reaction
        // (at b's joint point, so the torque about that point is theirs alone)
        if result.is_ok() {
            let frames = &self.compiled.force_frames;
            for (i, el) in self.model().forces.iter().enumerate() {
                if let crate::forces::ForceElement::Limit {
                    joint,
                    kind,
                    lower,
                    upper,
                    ..
                } = *el
                {
                    let stop = crate::forces::stop_on_b(
                        &frames[i],
                        kind,
                        lower,
                        upper,
                        &states,
                        f.angles[i],
                    );
                    if let (Some(stop), Some(o)) = (stop, out.get_mut(6 * joint..6 * joint + 6)) {
                        for k in 0..3 {
                            o[k] += stop.force[k];
                            o[3 + k] += stop.torque[k];
                        }
                    }
                }
            }
        }
        self.reactions = Some((ws, states));
        result
    }

    /// A hash of the exact bits of the state (for determinism checks and share links).
    pub fn state_hash(&self) -> u64 {
        // FNV-1a over the f64 bit patterns
        let mut h: u64 = 0xcbf29ce484222325;
        let mut eat = |x: f64| {
            for b in x.to_bits().to_le_bytes() {
                h ^= b as u64;
                h = h.wrapping_mul(0x100000001b3);
            }
        };
        eat(self.t);
        for b in 0..self.compiled.bodies() {
            let s = self.body_state(b);
            for v in [s.x, s.v, s.w, s.r.x_axis, s.r.y_axis, s.r.z_axis] {
                eat(v.x);
                eat(v.y);
                eat(v.z);
            }
        }
        h
    }
}
