//! The broad phase of the pairs of shapes: which pairs of spheres, capsules and boxes on
//! different bodies may touch in the next step, by sweep and prune along x1 (a box by its
//! bounding sphere, a capsule taken whole by the sphere about its centre that holds it).
//!
//! A pair of spheres becomes a sphere pair; a capsule and a sphere or a capsule, a sphere pair
//! between the segments' closest points at the step's start (`segments.rs`); a sphere (or a
//! capsule's end cap) and a box, the sphere's centre (with its radius) against the box's faces
//! (`faces.rs`), beyond them its nearest edge or corner (`box_features.rs`); a capsule taken
//! whole and a box, the segment's point nearest the box where the end caps do not carry it;
//! two boxes, each box's eight corners against the other's faces (`corner_face`: the face it
//! was against in the last step while it stays over it, else the nearest; chosen at the step's
//! start; a point over no face, by an edge or a corner of the box, is left out, and a probe
//! that goes while pressed in gives its energy to D, `released`), and where their edges cross,
//! edge against edge (`edges.rs`).
//!
//! Each sphere's interval along x1 is its centre's +- (radius + margin), the margin covering
//! its motion over the step: 2 h (|v| + |w| |s|) (the centre's speed and the turn of its offset
//! from the body's centre; a capsule's, |s| + its half-length) plus 2 % of the radius. The
//! spheres are kept in the order of their intervals' lower ends, which changes little from step
//! to step, so an insertion sort restores it in about n moves, and a sweep finds the
//! overlapping intervals; those that overlap along x2 and x3 too, pass the collision filter and
//! do not join two bodies joined by a joint become the step's pairs, each with its law. The
//! cost is about n plus the number of close pairs, not n^2 as for every pair. Why sweep and
//! prune and not a grid: the spheres of a system differ in size (a grid's cell suits one size),
//! and the order it keeps is what makes a step cheap when little moves, which is the usual
//! case.
//!
//! The pairs are found once per step, from the states at its start, and stay fixed through the
//! step's Newton iterations, so a step's forces are one function of the positions (the energy
//! balance needs that); a pair that is not found has both ends of the step out of contact, as
//! the margin bounds the motion.
use super::faces::BoxProbe;
use super::friction::PairFriction;
use super::law::{Kind, Law};
use super::probe::{Geometry, Probe};
use crate::model::BodyState;
use crate::shapes::{Shape, ShapeKind};
use alloc::vec::Vec;
use glam::{DMat3, DVec3};

/// A sphere that may touch other spheres: its body, centre in the body's frame, radius, and
/// what a pair needs of it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ball {
    /// the body
    pub body: usize,
    /// the centre in the body's frame (m)
    pub s: DVec3,
    /// the radius (m); a box's bounding radius
    pub r: f64,
    /// a box's half-sizes (zero for a sphere) and its axes in the body's frame
    pub half: DVec3,
    /// a box's axes in the body's frame (columns)
    pub rot: DMat3,
    /// a capsule's end cap (a sphere that touches boxes only: against a face the segment's
    /// nearest point is an end, so the caps are the capsule's contact as against a plane)
    pub cap: bool,
    /// a capsule as a whole: the half-length of its segment along `rot`'s z (its centre `s`,
    /// its radius `r`); it touches spheres and capsules (`segments.rs`), and boxes where its
    /// caps do not (`box_features.rs`). None for the others
    pub segment: Option<f64>,
    /// collision filter
    pub group: u32,
    /// collision filter
    pub mask: u32,
    /// (1 - nu^2) / E of its material (1/Pa)
    pub compliance: f64,
    /// its restitution
    pub e: f64,
    /// whether its contact force may pull (its material's `pull`)
    pub pull: bool,
    /// its kinetic and static friction coefficients and Poisson's ratio (`pair_friction.rs`)
    pub friction: f64,
    /// static friction coefficient
    pub static_friction: f64,
    /// Poisson's ratio
    pub poisson: f64,
}

/// The balls of a model and what pairing them needs, compiled once.
#[derive(Clone, Debug, Default)]
pub struct Balls {
    /// the balls
    pub list: Vec<Ball>,
    /// the pairs of bodies joined by a joint, (min, max), sorted (they do not touch)
    pub joined: Vec<(usize, usize)>,
    /// per law, restitution and pull used by a pair: its alpha
    pub alpha: super::law::Alphas,
    /// the bodies' masses
    pub mass: Vec<f64>,
    /// |gravity| (m/s^2): the pairs' Hertz k_t is taken at the indentation of their weight
    pub weight: f64,
}

/// The scratch and the result of the broad phase (in `forces::State`: the pairs are those of
/// the next step).
#[derive(Debug, Default, PartialEq)]
pub struct Broad {
    /// the balls in the order of their intervals' lower ends
    order: Vec<u32>,
    /// the step's pairs of balls whose grown spheres overlap, (a, b) with a < b, sorted
    close: Vec<(u32, u32)>,
    /// per ball: the interval along x1, its centre (world) and its margin-grown radius
    lo: Vec<f64>,
    hi: Vec<f64>,
    centre: Vec<DVec3>,
    grown: Vec<f64>,
    /// the step's pairs, as probes
    pub pairs: Vec<Probe>,
    /// per pair: its friction at the step's start (`pair_friction.rs`)
    pub slots: Vec<PairFriction>,
    /// per pair: at the end of the director's current iterate
    pub pending: Vec<PairFriction>,
    /// per pair: at the end of the last step taken (its V_t is the pair's friction energy)
    pub next: Vec<PairFriction>,
    /// scratch: the last step's springs that hold something, by key, with their k_t
    pub(super) carried: Vec<(([usize; 2], u32), PairFriction, f64)>,
    /// the energy of the springs of last step's pairs not found again, released to D (J)
    pub released: f64,
    /// whether no step has ended since the last sweep (a sweep again from the same start, as
    /// the director's fallback to its full solve does, keeps `carried` and `released`)
    pub fresh: bool,
    /// the last step's pairs (a box's corner keeps the face it touches: `corner_face`)
    prev: Vec<Probe>,
    /// scratch of `carry`: the last Hertz pair's k and reduced mass, and its k_n
    pub(super) kt_memo: (f64, f64, f64),
    /// the plane probes within reach of the step (`Probes::sweep`), in order; all of them
    /// until the first sweep (`near_known`)
    pub near: Vec<u32>,
    /// whether `near` has been found
    pub near_known: bool,
}

impl Clone for Broad {
    /// A copy with the storage `src` has reserved (the pair lists swap each step and grow to a
    /// dense packing's room once: a copy that a later `assign` fills must not grow then).
    fn clone(&self) -> Self {
        let mut b = Broad::default();
        b.pairs.reserve(self.pairs.capacity());
        b.prev.reserve(self.prev.capacity());
        b.close.reserve(self.close.capacity());
        b.near.reserve(self.near.capacity());
        for (v, w) in [
            (&mut b.slots, &self.slots),
            (&mut b.pending, &self.pending),
            (&mut b.next, &self.next),
        ] {
            v.reserve(w.capacity());
        }
        b.assign(self);
        b
    }
}

impl Broad {
    /// The indices of the plane probes (of `n`) within reach of the step: `near`, or all of
    /// them before the first sweep.
    pub fn planes(&self, n: usize) -> impl Iterator<Item = usize> + '_ {
        let all = (!self.near_known).then_some(0..n).into_iter().flatten();
        let near = self.near_known.then_some(&self.near).into_iter().flatten();
        all.chain(near.map(|&i| i as usize))
    }

    /// Become a copy of `src` as the sub-stepping saves and restores it
    /// (`simulation/substep.rs`), reusing this one's storage: what the next step reads before
    /// its sweep (the pairs and their friction at the last step's end, the plane probes within
    /// reach, for the checks and the readout) and what the sweep keeps (the order). The sweep's
    /// scratch, which it rebuilds before reading (the last step's pairs `prev`, the director's
    /// `pending`, the close pairs, the intervals), is not copied: a restored state is swept
    /// again before its next step. (The 400-ball pit saved some 1 MB a step, a third of it
    /// dead.)
    pub fn assign(&mut self, src: &Broad) {
        self.order.clone_from(&src.order);
        self.near.clone_from(&src.near);
        self.near_known = src.near_known;
        self.pairs.clone_from(&src.pairs);
        self.slots.clone_from(&src.slots);
        self.next.clone_from(&src.next);
        self.released = src.released;
        self.fresh = src.fresh;
    }
}

impl Ball {
    /// The ball of shape `sh` centred at its body point `s`, radius `r`, a box's half-sizes
    /// `half` (zero otherwise), a capsule taken whole as a `segment` of that half-length (a
    /// capsule's ball without one is one of its end caps), with the shape's filter and material.
    pub fn of(sh: &Shape, s: DVec3, r: f64, half: DVec3, segment: Option<f64>) -> Ball {
        let m = &sh.material;
        Ball {
            body: sh.body,
            s,
            r,
            half,
            rot: sh.rotation,
            cap: segment.is_none() && matches!(sh.kind, ShapeKind::Capsule { .. }),
            segment,
            group: sh.group,
            mask: sh.mask,
            compliance: (1.0 - m.poisson * m.poisson) / m.young,
            e: m.restitution,
            pull: m.pull,
            friction: m.friction,
            static_friction: m.static_friction,
            poisson: m.poisson,
        }
    }

    /// Whether it is a box.
    pub fn is_box(&self) -> bool {
        self.half != DVec3::ZERO
    }

    /// How far it reaches from its centre `s`: its radius, and a capsule's half-length.
    pub fn reach(&self) -> f64 {
        match self.segment {
            Some(len) => self.r + len,
            None => self.r,
        }
    }
}

impl Balls {
    /// The law of a pair of balls: Hertz with R = r_a r_b / (r_a + r_b), E* from both, the
    /// smaller restitution, the reduced mass.
    pub(super) fn law(&self, a: &Ball, b: &Ball) -> Law {
        let r = a.r * b.r / (a.r + b.r);
        let k = 4.0 / 3.0 / (a.compliance + b.compliance) * crate::math::sqrt(r);
        self.law_of(Kind::Hertz, k, 1.0, a, b)
    }

    /// A law of `kind` and stiffness `k` between balls `a` and `b`: the smaller restitution,
    /// pulling where either material pulls, damped on the reduced mass's `share` (a box's
    /// corner carries a quarter of its face: law.rs).
    pub(super) fn law_of(&self, kind: Kind, k: f64, share: f64, a: &Ball, b: &Ball) -> Law {
        let (ma, mb) = (self.mass[a.body], self.mass[b.body]);
        let m = share * ma * mb / (ma + mb);
        let (e, pull) = (a.e.min(b.e), a.pull || b.pull);
        Law {
            kind,
            k,
            c: self.alpha.get(kind, e, pull) * crate::math::sqrt(m * k),
            pull,
        }
    }

    /// The probe of the point `probe.sp` (radius `probe.r`) of ball `probe.pt`'s body against
    /// box `probe.bx`: the face it faces (`face`) or, beyond the faces, the box's nearest edge
    /// or corner (`box_features.rs`).
    fn round_point(probe: &BoxProbe) -> Option<Probe> {
        let face = Self::facing(probe.bx, probe.s, probe.world(), probe.r);
        Self::face(probe, face).or_else(|| Self::point_box(probe))
    }

    /// The probe of a capsule `cap` taken whole against box `bx` at the states `s`: the
    /// segment's point nearest the box (`box_features.rs`) as a sphere of the capsule's radius
    /// against the box's face, or beyond the faces its edge or corner; none where the end
    /// caps carry the contact.
    fn capsule_box(
        &self,
        cap: &Ball,
        bx: &Ball,
        s: &[BodyState],
        margin: f64,
        key: [usize; 2],
    ) -> Option<Probe> {
        let t = Self::nearest_on_segment(cap, bx, s)?;
        let sp = super::segments::at(cap, t);
        let k = 4.0 / 3.0 / (cap.compliance + bx.compliance) * crate::math::sqrt(cap.r);
        let law = self.law_of(Kind::Hertz, k, 1.0, cap, bx);
        Self::round_point(&BoxProbe {
            pt: cap,
            sp,
            r: cap.r,
            bx,
            s,
            margin,
            law,
            key: (key, 0),
        })
    }

    /// The sphere pair of balls `a` and `b` between their body points `sa` and `sb` (a
    /// sphere's centre, a capsule's closest point: `segments.rs`), with the pair's law.
    pub(super) fn sphere_pair(
        &self,
        a: &Ball,
        sa: DVec3,
        b: &Ball,
        sb: DVec3,
        key: [usize; 2],
    ) -> Probe {
        Probe {
            geometry: Geometry::SpherePair {
                a: a.body,
                sa,
                ra: a.r,
                b: b.body,
                sb,
                rb: b.r,
            },
            law: self.law(a, b),
            mu_k: 0.0,
            mu_s: 0.0,
            kt: 0.0,
            shapes: key,
            part: 0,
        }
    }

    /// Whether balls `a` and `b` may touch at all (other bodies, the filter, no joint).
    fn may_touch(&self, a: &Ball, b: &Ball) -> bool {
        let key = (a.body.min(b.body), a.body.max(b.body));
        a.body != b.body
            && (!(a.cap || b.cap) || a.is_box() || b.is_box())
            && super::segments::may_touch(a, b)
            && (a.group & b.mask != 0 || b.group & a.mask != 0)
            && self.joined.binary_search(&key).is_err()
    }

    /// The pairs that may touch within a step of `h` from the states `s`, into `out.pairs`;
    /// returns the elastic energy (J) of the last step's pairs that are gone or changed while
    /// pressed in (`released`), for the caller to add to D.
    pub fn sweep(&self, s: &[BodyState], h: f64, out: &mut Broad) -> f64 {
        let n = self.list.len();
        // the friction springs of the last step's pairs kept (`pair_friction.rs`), then its
        // pairs (swapped, so that neither list allocates again)
        out.stash();
        core::mem::swap(&mut out.prev, &mut out.pairs);
        out.pairs.clear();
        if n < 2 {
            self.carry(s, out);
            return 0.0;
        }
        if out.order.len() != n {
            out.order = (0..n as u32).collect();
            out.lo = alloc::vec![0.0; n];
            out.hi = alloc::vec![0.0; n];
            out.centre = alloc::vec![DVec3::ZERO; n];
            out.grown = alloc::vec![0.0; n];
            // room for the pairs of a dense packing (12 neighbours a ball, each pair once), so
            // that a step allocates nothing unless the balls crowd more than that
            let room = (6 * n).min(n * (n - 1) / 2);
            out.pairs.reserve(room);
            out.prev.reserve(room);
            for v in [&mut out.slots, &mut out.pending, &mut out.next] {
                v.reserve(room);
            }
            out.carried.reserve(room);
            out.close.reserve(room);
        }
        for (i, ball) in self.list.iter().enumerate() {
            let st = &s[ball.body];
            let arm = st.r * ball.s;
            let w = st.r * st.w;
            let reach = ball.reach();
            let turn = match ball.segment {
                // a capsule's segment ends turn about the body's centre at |s| + len at most
                Some(len) => arm.length() + len,
                None => arm.length(),
            };
            let margin = 2.0 * h * (st.v.length() + w.length() * turn) + 0.02 * ball.r;
            let c = st.x + arm;
            let g = reach + margin;
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
        // the close pairs, then sorted by their balls: the pairs' probes are made in that
        // order, the same whatever the insertion sort did (sorting these 8-byte keys, not the
        // probes made from them, halved the sweep's sorting: `benches/README.md` section 6)
        out.close.clear();
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
                if self.may_touch(a, b) {
                    out.close.push((i.min(j) as u32, i.max(j) as u32));
                }
            }
        }
        out.close.sort_unstable();
        for c in 0..out.close.len() {
            let (i, j) = (out.close[c].0 as usize, out.close[c].1 as usize);
            let (a, b) = (&self.list[i], &self.list[j]);
            let key = [i, j];
            let margin =
                (out.grown[i] - self.list[i].reach()) + (out.grown[j] - self.list[j].reach());
            let before = out.pairs.len();
            if a.segment.is_some() || b.segment.is_some() {
                if a.is_box() || b.is_box() {
                    let (cap, bx) = if a.is_box() { (b, a) } else { (a, b) };
                    out.pairs.extend(self.capsule_box(cap, bx, s, margin, key));
                } else {
                    out.pairs.push(self.segment_pair(a, b, s, key));
                }
                continue;
            }
            match (a.is_box(), b.is_box()) {
                (false, false) => out.pairs.push(self.sphere_pair(a, a.s, b, b.s, key)),
                (false, true) | (true, false) => {
                    let (sph, bx) = if a.is_box() { (b, a) } else { (a, b) };
                    // Hertz with the sphere's radius against a flat face
                    let k = 4.0 / 3.0 / (a.compliance + b.compliance) * crate::math::sqrt(sph.r);
                    let law = self.law_of(Kind::Hertz, k, 1.0, a, b);
                    out.pairs.extend(Self::round_point(&BoxProbe {
                        pt: sph,
                        sp: sph.s,
                        r: sph.r,
                        bx,
                        s,
                        margin,
                        law,
                        key: (key, 0),
                    }));
                }
                (true, true) => {
                    // each box's corners against the other's faces, a corner's stiffness
                    // that of its own box's face (E* of both)
                    for (side, (pt, bx)) in [(a, b), (b, a)].into_iter().enumerate() {
                        let es = 1.0 / (a.compliance + b.compliance);
                        let k = super::material::corner_stiffness(es, pt.half);
                        let law = self.law_of(Kind::Linear, k, 0.25, a, b);
                        let overlap = Self::least_overlap(pt, bx, s);
                        for corner in 0..8u32 {
                            let probe = BoxProbe {
                                pt,
                                sp: pt.s + pt.rot * Self::corner(pt.half, corner),
                                r: 0.0,
                                bx,
                                s,
                                margin,
                                law,
                                key: (key, 1 + 8 * side as u32 + corner),
                            };
                            let face = Self::corner_face(&out.prev, &probe, overlap);
                            out.pairs.extend(Self::face(&probe, face));
                        }
                    }
                    // and edge against edge, where they cross (`edges.rs`)
                    let corners = out.pairs.len() > before;
                    self.edge_pairs(a, b, s, (margin, corners), key, &mut out.pairs);
                    // a pair's probes by their parts
                    out.pairs[before..].sort_unstable_by_key(|p| p.part);
                }
            }
        }
        self.carry(s, out);
        released(&out.prev, &out.pairs, s)
    }
}

/// The elastic energy at the states `s` of the probes of `prev` that `next` no longer has, or
/// has with a corner against another face (both sorted by shapes and part). Why: a box's corner that slides
/// off the edge of a face while pressed into it loses its probe (edges are not modelled) and
/// with it its dent's energy k d^2 / 2; counted as dissipated (the dent let go as heat, as a
/// stick spring that lets go, `discrete.rs`), E - E0 - W + D stays exact. A probe that begins
/// pressed in (a corner that arrives at a face from beyond its edge) adds energy; that is not
/// hidden: it shows in the balance.
fn released(prev: &[Probe], next: &[Probe], s: &[BodyState]) -> f64 {
    let mut e = 0.0;
    let mut j = 0;
    for p in prev {
        let key = (p.shapes, p.part);
        while j < next.len() && (next[j].shapes, next[j].part) < key {
            j += 1;
        }
        // kept: found again, a corner against the same face (a capsule pair's closest points
        // and an edge pair's points and normal move from step to step: the same contact, its
        // gap measured anew, `segments.rs`, `edges.rs`)
        let kept = next.get(j).is_some_and(|q| {
            (q.shapes, q.part) == key
                && match (p.geometry, q.geometry) {
                    // (a sphere's or capsule's probe, r > 0, moves from a face to an edge
                    // with its gap continuous: `box_features.rs`)
                    (Geometry::PointFace { m, .. }, Geometry::PointFace { m: m2, r, .. }) => {
                        m == m2 || q.part >= super::edges::EDGE_PART || r > 0.0
                    }
                    _ => true,
                }
        });
        if !kept {
            e += p.law.potential(-super::probe::gap(p, s));
        }
    }
    e
}
