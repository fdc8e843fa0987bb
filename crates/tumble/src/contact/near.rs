//! The broad phase of a step: the pairs of balls that may touch (`broad.rs`) and the plane
//! probes within reach, the only ones a step evaluates.
use super::friction::PlaneFriction;
use super::probe::{gap, Geometry};
use super::{broad, Probes};
use crate::model::BodyState;
use glam::DVec3;

impl Probes {
    /// The broad phase of a step of `h` from the states `s` (friction state `slots`): the
    /// pairs of balls that may touch (`broad.rs`), and the plane probes within reach, into
    /// `out.near`. Returns the energy released to D (`broad.rs`, `released`).
    ///
    /// A plane probe is within reach when its gap at the start is below the margin that bounds
    /// its point's motion over the step, as a ball's in the sweep: 2 h (|v| + |w| |R s|) plus
    /// 2 % of its reach |s| + r and |g| h^2 (a point at rest that gravity starts), or when its
    /// stick spring holds something or slid (a probe that left contact within the last step
    /// lets go of its spring in the next, `discrete.rs`). The others are out of contact at
    /// both ends of the step: their force, power and friction are exact zeros, so leaving them
    /// out changes no bit of the step (ball pit, 400 balls: 2000 plane probes, some 200 near).
    pub fn sweep(
        &self,
        s: &[BodyState],
        h: f64,
        slots: &[PlaneFriction],
        out: &mut broad::Broad,
    ) -> f64 {
        self.near(s, h, slots, out);
        if self.balls.list.is_empty() {
            return 0.0;
        }
        self.balls.sweep(s, h, out)
    }

    /// The plane probes within reach of a step of `h` from `s` into `out.near` ([`Self::sweep`]).
    pub fn near(&self, s: &[BodyState], h: f64, slots: &[PlaneFriction], out: &mut broad::Broad) {
        out.near.clear();
        // room for every plane probe once, so that no later step allocates
        out.near.reserve(self.list.len());
        out.near_known = true;
        for (i, (p, slot)) in self.list.iter().zip(slots).enumerate() {
            if let Geometry::PointPlane { body, s: sp, r, .. } = p.geometry {
                let st = &s[body];
                let w = st.r * st.w;
                let reach = crate::math::length(sp) + r;
                let margin = 2.0 * h * (crate::math::length(st.v) + crate::math::length(w) * reach)
                    + 0.02 * reach
                    + self.balls.weight * h * h;
                if gap(p, s) < margin || slot.u != DVec3::ZERO || slot.sliding {
                    out.near.push(i as u32);
                }
            }
        }
    }
}
