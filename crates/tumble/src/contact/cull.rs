//! Plane culling: the plane probes within reach of a step, the only ones a step evaluates (the
//! pairs' counterpart is the broad phase, `broad.rs`).
//!
//! A plane probe is within reach when its gap at the start is below the margin that bounds its
//! point's motion over the step, as a collider's in the sweep: 2 h (|v| + |w| |R s|) plus 2 % of
//! its reach |s| + r and |g| h^2 (a point at rest that gravity starts), or when its stick spring
//! holds something or slid (a probe that left contact within the last step lets go of its
//! spring in the next, `methods/director/contact.rs`). The others are out of contact at both
//! ends of the step: their force, power and friction are exact zeros, so leaving them out
//! changes no bit of the step (ball pit, 400 balls: 2000 plane probes, some 200 near).
use super::compile::Probes;
use super::friction::PlaneFriction;
use super::probe::{gap, Geometry};
use crate::model::BodyState;
use alloc::vec::Vec;
use glam::DVec3;

/// The plane probes within reach of the step (in `forces::State`, through `StepState`).
#[derive(Debug, Default, PartialEq)]
pub struct PlaneCull {
    /// the plane probes within reach of the step, in order; all of them until the first
    /// culling (`known`)
    pub near: Vec<u32>,
    /// whether `near` has been found
    pub known: bool,
}

impl Clone for PlaneCull {
    /// A copy with the room `self` has.
    fn clone(&self) -> Self {
        let mut c = PlaneCull::default();
        c.near.reserve(self.near.capacity());
        c.assign(self);
        c
    }
}

impl PlaneCull {
    /// Become a copy of `src`, reusing this one's storage.
    pub fn assign(&mut self, src: &PlaneCull) {
        self.near.clone_from(&src.near);
        self.known = src.known;
    }

    /// The indices of the plane probes (of `n`) within reach of the step: `near`, or all of
    /// them before the first culling.
    pub fn planes(&self, n: usize) -> impl Iterator<Item = usize> + '_ {
        let all = (!self.known).then_some(0..n).into_iter().flatten();
        let near = self.known.then_some(&self.near).into_iter().flatten();
        all.chain(near.map(|&i| i as usize))
    }

    /// The plane probes of `probes` within reach of a step of `h` from the states `s`
    /// (friction state `slots`) (module notes).
    pub fn find(&mut self, probes: &Probes, s: &[BodyState], h: f64, slots: &[PlaneFriction]) {
        self.near.clear();
        // room for every plane probe once, so that no later step allocates
        self.near.reserve(probes.list.len());
        self.known = true;
        for (i, (p, slot)) in probes.list.iter().zip(slots).enumerate() {
            if let Geometry::PointPlane { body, s: sp, r, .. } = p.geometry {
                let st = &s[body];
                let w = st.r * st.w;
                let reach = crate::math::length(sp) + r;
                let margin = 2.0 * h * (crate::math::length(st.v) + crate::math::length(w) * reach)
                    + 0.02 * reach
                    + probes.colliders.weight * h * h;
                if gap(p, s) < margin || slot.u != DVec3::ZERO || slot.sliding {
                    self.near.push(i as u32);
                }
            }
        }
    }
}
