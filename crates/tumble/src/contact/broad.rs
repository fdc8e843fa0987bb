//! The broad phase of the sphere pairs: which pairs of spheres on different bodies may touch in
//! the next step, by sweep and prune along x1.
//!
//! Each sphere's interval along x1 is its centre's +- (radius + margin), the margin covering its
//! motion over the step: 2 h (|v| + |w| |s|) (the centre's speed and the turn of its offset
//! from the body's centre) plus 2 % of the radius. The spheres are kept in the order of their
//! intervals' lower ends, which changes little from step to step, so an insertion sort restores
//! it in about n moves, and a sweep finds the overlapping intervals; those that overlap along
//! x2 and x3 too, pass the collision filter and do not join two bodies joined by a joint become
//! the step's pairs, each with its law. The cost is about n plus the number of close pairs, not
//! n^2 as for every pair. Why sweep and prune and not a grid: the spheres of a system differ in
//! size (a grid's cell suits one size), and the order it keeps is what makes a step cheap when
//! little moves, which is the usual case.
//!
//! The pairs are found once per step, from the states at its start, and stay fixed through the
//! step's Newton iterations, so a step's forces are one function of the positions (the energy
//! balance needs that); a pair that is not found has both ends of the step out of contact, as
//! the margin bounds the motion.
use super::{Geometry, Law, Probe};
use crate::model::BodyState;
use alloc::vec::Vec;
use glam::DVec3;

/// A sphere that may touch other spheres: its body, centre in the body's frame, radius, and
/// what a pair needs of it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ball {
    /// the body
    pub body: usize,
    /// the centre in the body's frame (m)
    pub s: DVec3,
    /// the radius (m)
    pub r: f64,
    /// collision filter
    pub group: u32,
    /// collision filter
    pub mask: u32,
    /// (1 - nu^2) / E of its material (1/Pa)
    pub compliance: f64,
    /// its restitution
    pub e: f64,
}

/// The balls of a model and what pairing them needs, compiled once.
#[derive(Clone, Debug, Default)]
pub struct Balls {
    /// the balls
    pub list: Vec<Ball>,
    /// the pairs of bodies joined by a joint, (min, max), sorted (they do not touch)
    pub joined: Vec<(usize, usize)>,
    /// per restitution used by a pair: (e, alpha of the Hertz law), `law::alpha`
    pub alpha: Vec<(f64, f64)>,
    /// the bodies' masses
    pub mass: Vec<f64>,
}

/// The scratch and the result of the broad phase (in `forces::State`: the pairs are those of
/// the next step).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Broad {
    /// the balls in the order of their intervals' lower ends
    order: Vec<u32>,
    /// per ball: the interval along x1, its centre (world) and its margin-grown radius
    lo: Vec<f64>,
    hi: Vec<f64>,
    centre: Vec<DVec3>,
    grown: Vec<f64>,
    /// the step's pairs, as probes
    pub pairs: Vec<Probe>,
}

impl Broad {
    /// Become a copy of `src`, reusing this one's storage (`simulation/substep.rs`).
    pub fn assign(&mut self, src: &Broad) {
        self.order.clone_from(&src.order);
        self.lo.clone_from(&src.lo);
        self.hi.clone_from(&src.hi);
        self.centre.clone_from(&src.centre);
        self.grown.clone_from(&src.grown);
        self.pairs.clone_from(&src.pairs);
    }
}

impl Balls {
    /// The law of a pair of balls: Hertz with R = r_a r_b / (r_a + r_b), E* from both, the
    /// smaller restitution, the reduced mass.
    fn law(&self, a: &Ball, b: &Ball) -> Law {
        let (ma, mb) = (self.mass[a.body], self.mass[b.body]);
        let m = ma * mb / (ma + mb);
        let r = a.r * b.r / (a.r + b.r);
        let k = 4.0 / 3.0 / (a.compliance + b.compliance) * crate::math::sqrt(r);
        let e = a.e.min(b.e);
        let alpha = self.alpha.iter().find(|x| x.0 == e).map_or(0.0, |x| x.1);
        Law {
            kind: super::Kind::Hertz,
            k,
            c: alpha * crate::math::sqrt(m * k),
        }
    }

    /// Whether balls `a` and `b` may touch at all (other bodies, the filter, no joint).
    fn may_touch(&self, a: &Ball, b: &Ball) -> bool {
        let key = (a.body.min(b.body), a.body.max(b.body));
        a.body != b.body
            && (a.group & b.mask != 0 || b.group & a.mask != 0)
            && self.joined.binary_search(&key).is_err()
    }

    /// The pairs that may touch within a step of `h` from the states `s`, into `out.pairs`.
    pub fn sweep(&self, s: &[BodyState], h: f64, out: &mut Broad) {
        let n = self.list.len();
        out.pairs.clear();
        if n < 2 {
            return;
        }
        if out.order.len() != n {
            out.order = (0..n as u32).collect();
            out.lo = alloc::vec![0.0; n];
            out.hi = alloc::vec![0.0; n];
            out.centre = alloc::vec![DVec3::ZERO; n];
            out.grown = alloc::vec![0.0; n];
            // room for the pairs of a dense packing (12 neighbours a ball, each pair once), so
            // that a step allocates nothing unless the balls crowd more than that
            out.pairs.reserve((6 * n).min(n * (n - 1) / 2));
        }
        for (i, ball) in self.list.iter().enumerate() {
            let st = &s[ball.body];
            let arm = st.r * ball.s;
            let w = st.r * st.w;
            let margin = 2.0 * h * (st.v.length() + w.length() * arm.length()) + 0.02 * ball.r;
            let c = st.x + arm;
            let g = ball.r + margin;
            out.centre[i] = c;
            out.grown[i] = g;
            out.lo[i] = c.x - g;
            out.hi[i] = c.x + g;
        }
        // insertion sort of the order by lo: about n moves when little has changed
        for k in 1..n {
            let v = out.order[k];
            let key = out.lo[v as usize];
            let mut j = k;
            while j > 0 && out.lo[out.order[j - 1] as usize] > key {
                out.order[j] = out.order[j - 1];
                j -= 1;
            }
            out.order[j] = v;
        }
        for k in 0..n {
            let i = out.order[k] as usize;
            for &jj in &out.order[k + 1..] {
                let j = jj as usize;
                if out.lo[j] > out.hi[i] {
                    break;
                }
                let (ci, cj) = (out.centre[i], out.centre[j]);
                let g = out.grown[i] + out.grown[j];
                if (ci.y - cj.y).abs() > g || (ci.z - cj.z).abs() > g {
                    continue;
                }
                let (a, b) = (&self.list[i.min(j)], &self.list[i.max(j)]);
                if !self.may_touch(a, b) {
                    continue;
                }
                out.pairs.push(Probe {
                    geometry: Geometry::SpherePair {
                        a: a.body,
                        sa: a.s,
                        ra: a.r,
                        b: b.body,
                        sb: b.s,
                        rb: b.r,
                    },
                    law: self.law(a, b),
                    mu_k: 0.0,
                    mu_s: 0.0,
                    kt: 0.0,
                    shapes: [i.min(j), i.max(j)],
                });
            }
        }
        // the same pairs in the same order whatever the sort did: by their balls
        out.pairs.sort_unstable_by_key(|p| p.shapes);
    }
}
