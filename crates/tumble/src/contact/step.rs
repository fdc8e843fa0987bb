//! A step's contact state and the pipeline that makes it, once per step from the states at its
//! start: plane culling (`cull.rs`), the broad phase (`broad.rs`: candidate pairs), the pair
//! table (`pairs.rs`: the pairs' probes), their friction carried (`friction.rs`). The forms
//! that then take the probes, the continuous (`continuous.rs`) and the director's discrete
//! (`methods/director/contact.rs`), read [`StepState`].
use super::broad::Sweep;
use super::collider::Colliders;
use super::compile::Probes;
use super::cull::PlaneCull;
use super::friction::{PairFrictions, PlaneFriction};
use super::pairs;
use super::probe::Probe;
use crate::model::BodyState;
use alloc::vec::Vec;

/// The contact state of a step (in `forces::State`): the broad phase's order and scratch, the
/// step's pair probes, their friction, the plane probes within reach.
#[derive(Debug, Default, PartialEq)]
pub struct StepState {
    /// the broad phase
    pub sweep: Sweep,
    /// the step's pairs, as probes (sorted by their colliders and part)
    pub pairs: Vec<Probe>,
    /// the last step's pairs (a box's corner keeps the face it touches: `box_box.rs`)
    prev: Vec<Probe>,
    /// the pairs' friction
    pub friction: PairFrictions,
    /// the plane probes within reach
    pub cull: PlaneCull,
}

impl Clone for StepState {
    /// A copy with the storage `src` has reserved (the pair lists swap each step and grow to a
    /// dense packing's room once: a copy that a later `assign` fills must not grow then).
    fn clone(&self) -> Self {
        let mut b = StepState {
            sweep: self.sweep.clone(),
            friction: self.friction.clone(),
            cull: self.cull.clone(),
            ..StepState::default()
        };
        b.pairs.reserve(self.pairs.capacity());
        b.prev.reserve(self.prev.capacity());
        b.pairs.clone_from(&self.pairs);
        b
    }
}

impl StepState {
    /// Become a copy of `src` as the sub-stepping saves and restores it
    /// (`simulation/substep.rs`), reusing this one's storage: what the next step reads before
    /// its sweep (the pairs and their friction at the last step's end, the plane probes within
    /// reach, for the checks and the readout) and what the sweep keeps (the order). The sweep's
    /// scratch, which it rebuilds before reading (the last step's pairs `prev`, the director's
    /// `pending`, the candidates, the intervals), is not copied: a restored state is swept
    /// again before its next step. (The 400-ball pit saved some 1 MB a step, a third of it
    /// dead.)
    pub fn assign(&mut self, src: &StepState) {
        self.sweep.assign(&src.sweep);
        self.cull.assign(&src.cull);
        self.pairs.clone_from(&src.pairs);
        self.friction.assign(&src.friction);
    }

    /// The indices of the plane probes (of `n`) within reach of the step (`cull.rs`).
    pub fn planes(&self, n: usize) -> impl Iterator<Item = usize> + '_ {
        self.cull.planes(n)
    }

    /// Whether the director has contact forces of pairs to evaluate this step.
    pub fn busy(&self) -> bool {
        !self.pairs.is_empty() || self.friction.released > 0.0
    }

    /// The pairs that may touch within a step of `h` from the states `s`, into `pairs`, with
    /// their friction; returns the elastic energy (J) of the last step's pairs that are gone
    /// or changed while pressed in (`pairs.rs` `released`), for the caller to add to D.
    pub fn sweep_pairs(&mut self, colliders: &Colliders, s: &[BodyState], h: f64) -> f64 {
        let n = colliders.list.len();
        // the friction springs of the last step's pairs kept, then its pairs (swapped, so
        // that neither list allocates again)
        self.friction.stash(&self.pairs);
        core::mem::swap(&mut self.prev, &mut self.pairs);
        self.pairs.clear();
        if n < 2 {
            self.friction.carry(colliders, &mut self.pairs, s);
            return 0.0;
        }
        // room for the pairs of a dense packing (12 neighbours a collider, each pair once), so
        // that a step allocates nothing unless the colliders crowd more than that
        let room = (6 * n).min(n * (n - 1) / 2);
        if self.sweep.fit(n, room) {
            self.pairs.reserve(room);
            self.prev.reserve(room);
            self.friction.reserve(room);
        }
        self.sweep.sweep(colliders, s, h);
        pairs::narrow(colliders, &self.sweep, s, &self.prev, &mut self.pairs);
        self.friction.carry(colliders, &mut self.pairs, s);
        pairs::released(&self.prev, &self.pairs, s)
    }
}

impl Probes {
    /// The contact pipeline of a step of `h` from the states `s` (plane friction `slots`): the
    /// plane probes within reach (`cull.rs`), and the pairs that may touch with their probes
    /// and friction ([`StepState::sweep_pairs`]). Returns the energy released to D.
    pub fn sweep(
        &self,
        s: &[BodyState],
        h: f64,
        slots: &[PlaneFriction],
        out: &mut StepState,
    ) -> f64 {
        out.cull.find(self, s, h, slots);
        if self.colliders.list.is_empty() {
            return 0.0;
        }
        out.sweep_pairs(&self.colliders, s, h)
    }
}
