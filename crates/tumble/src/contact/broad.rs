//! The broad phase: which pairs of colliders (`collider.rs`) on different bodies may touch in
//! the next step, by sweep and prune along x1 (a box by its bounding sphere, a capsule taken
//! whole by the sphere about its centre that holds it). It produces candidate pairs and
//! nothing else; the pair table (`pairs.rs`) turns them into probes.
//!
//! Each collider's interval along x1 is its bounding sphere's centre +- (radius + margin), the margin covering
//! its motion over the step: 2 h (|v| + |w| |s|) (the centre's speed and the turn of its offset
//! from the body's centre; a capsule's, |s| + its half-length) plus 2 % of the radius. The
//! spheres are kept in the order of their intervals' lower ends, which changes little from step
//! to step, so an insertion sort restores it in about n moves, and a sweep finds the
//! overlapping intervals; those that overlap along x2 and x3 too, pass the collision filter and
//! do not join two bodies joined by a joint (`Colliders::may_touch`) become the step's candidates. The
//! cost is about n plus the number of close pairs, not n^2 as for every pair. Why sweep and
//! prune and not a grid: the spheres of a system differ in size (a grid's cell suits one size),
//! and the order it keeps is what makes a step cheap when little moves, which is the usual
//! case.
//!
//! The pairs are found once per step, from the states at its start, and stay fixed through the
//! step's Newton iterations, so a step's forces are one function of the positions (the energy
//! balance needs that); a pair that is not found has both ends of the step out of contact, as
//! the margin bounds the motion.
use super::collider::Colliders;
use crate::model::BodyState;
use alloc::vec::Vec;
use glam::DVec3;

/// The broad phase's order and scratch (in `forces::State`, through `StepState`): the
/// colliders' intervals, their order, and the step's candidate pairs.
#[derive(Debug, Default, PartialEq)]
pub struct Sweep {
    /// the colliders in the order of their intervals' lower ends
    order: Vec<u32>,
    /// the step's candidate pairs: colliders whose grown spheres overlap, (a, b) with a < b,
    /// sorted
    close: Vec<(u32, u32)>,
    /// per collider: the interval along x1, its centre (world) and its margin-grown radius
    lo: Vec<f64>,
    hi: Vec<f64>,
    centre: Vec<DVec3>,
    grown: Vec<f64>,
}

impl Clone for Sweep {
    /// A copy with the room `self` has for candidates, holding the order only (what a restored
    /// state keeps: `assign`).
    fn clone(&self) -> Self {
        let mut s = Sweep::default();
        s.close.reserve(self.close.capacity());
        s.assign(self);
        s
    }
}

impl Sweep {
    /// Become a copy of `src`'s order, reusing this one's storage (the rest is scratch the
    /// next sweep rebuilds).
    pub fn assign(&mut self, src: &Sweep) {
        self.order.clone_from(&src.order);
    }

    /// The step's candidate pairs, (a, b) with a < b, sorted.
    pub fn candidates(&self) -> &[(u32, u32)] {
        &self.close
    }

    /// Collider `i`'s margin this step: its grown radius less its reach (m).
    pub fn margin(&self, colliders: &Colliders, i: usize) -> f64 {
        self.grown[i] - colliders.list[i].reach()
    }

    /// Make room for `n` colliders (and `room` candidates) unless it is there; whether it was
    /// made (a first sweep, or another model).
    pub fn fit(&mut self, n: usize, room: usize) -> bool {
        if self.order.len() == n {
            return false;
        }
        self.order = (0..n as u32).collect();
        self.lo = alloc::vec![0.0; n];
        self.hi = alloc::vec![0.0; n];
        self.centre = alloc::vec![DVec3::ZERO; n];
        self.grown = alloc::vec![0.0; n];
        self.close.reserve(room);
        true
    }

    /// The candidate pairs of a step of `h` from the states `s` (module notes): the colliders'
    /// intervals, their order restored, the overlapping intervals swept.
    pub fn sweep(&mut self, colliders: &Colliders, s: &[BodyState], h: f64) {
        self.intervals(colliders, s, h);
        self.sort();
        self.overlaps(colliders);
    }

    /// Each collider's centre, grown radius and interval along x1 at the states `s`.
    fn intervals(&mut self, colliders: &Colliders, s: &[BodyState], h: f64) {
        for (i, col) in colliders.list.iter().enumerate() {
            let st = &s[col.body];
            let arm = st.r * col.s;
            let w = st.r * st.w;
            let reach = col.reach();
            let turn = match col.segment {
                // a capsule's segment ends turn about the body's centre at |s| + len at most
                Some(len) => arm.length() + len,
                None => arm.length(),
            };
            let margin = 2.0 * h * (st.v.length() + w.length() * turn) + 0.02 * col.r;
            let c = st.x + arm;
            let g = reach + margin;
            self.centre[i] = c;
            self.grown[i] = g;
            self.lo[i] = c.x - g;
            self.hi[i] = c.x + g;
        }
    }

    /// Insertion sort of the order by lo: about n moves when little has changed.
    fn sort(&mut self) {
        for k in 1..self.order.len() {
            let v = self.order[k];
            let key = self.lo[v as usize];
            let mut j = k;
            while j > 0 && self.lo[self.order[j - 1] as usize] > key {
                self.order[j] = self.order[j - 1];
                j -= 1;
            }
            self.order[j] = v;
        }
    }

    /// The candidate pairs, then sorted by their colliders: the pairs' probes are made in that
    /// order, the same whatever the insertion sort did (sorting these 8-byte keys, not the
    /// probes made from them, halved the sweep's sorting: `benches/README.md` section 6).
    fn overlaps(&mut self, colliders: &Colliders) {
        let n = self.order.len();
        self.close.clear();
        for k in 0..n {
            let i = self.order[k] as usize;
            for &jj in &self.order[k + 1..] {
                let j = jj as usize;
                if self.lo[j] > self.hi[i] {
                    break;
                }
                let (ci, cj) = (self.centre[i], self.centre[j]);
                let g = self.grown[i] + self.grown[j];
                if (ci.y - cj.y).abs() > g || (ci.z - cj.z).abs() > g {
                    continue;
                }
                let (a, b) = (&colliders.list[i.min(j)], &colliders.list[i.max(j)]);
                if colliders.may_touch(a, b) {
                    self.close.push((i.min(j) as u32, i.max(j) as u32));
                }
            }
        }
        self.close.sort_unstable();
    }
}
