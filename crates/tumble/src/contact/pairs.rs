//! The narrow phase: the pair table, one function per pair of collider kinds (as MuJoCo's
//! `mjCOLLISIONFUNC[type][type]` or Box2D's `s_registers[typeA][typeB]`), each in the file of
//! its pair family, turning two colliders and their states into probes.
//!
//! ```text
//!              sphere          capsule end     capsule          box
//! sphere       sphere_sphere   -               capsule          point_box
//! capsule end  -               -               -                point_box
//! capsule      capsule         -               capsule          capsule_box
//! box          point_box       point_box       capsule_box      box_box
//! ```
//! (`-`: never a candidate, `Colliders::may_touch`.) A candidate (a, b) from the broad phase
//! (`broad.rs`, a < b, sorted) goes to `TABLE[kind a][kind b]`; the probes of a pair are keyed
//! by its two colliders and a part (a box's corner, an edge crossing), so that its friction is
//! carried (`friction.rs`) and a probe that goes while pressed in gives its energy to D
//! ([`released`]).
use super::box_box;
use super::broad::Sweep;
use super::capsule;
use super::capsule_box;
use super::collider::{Colliders, Pair};
use super::point_box;
use super::probe::{gap, Geometry, Probe};
use super::sphere_sphere;
use crate::model::BodyState;
use alloc::vec::Vec;

/// A pair function: the probes of a pair, pushed onto `out`.
pub type PairFn = fn(&Pair, &mut Vec<Probe>);

/// The pair table, by the two colliders' kinds (`ColliderKind as usize`).
pub const TABLE: [[Option<PairFn>; 4]; 4] = {
    let (ss, cap, pb, cb, bb): (PairFn, PairFn, PairFn, PairFn, PairFn) = (
        sphere_sphere::collide,
        capsule::collide,
        point_box::collide,
        capsule_box::collide,
        box_box::collide,
    );
    [
        [Some(ss), None, Some(cap), Some(pb)],
        [None, None, None, Some(pb)],
        [Some(cap), None, Some(cap), Some(cb)],
        [Some(pb), Some(pb), Some(cb), Some(bb)],
    ]
};

/// The probes of the broad phase's candidates (`sweep`, at the states `s`) into `out`, from
/// the pair table; `prev` the last step's.
pub fn narrow(
    colliders: &Colliders,
    sweep: &Sweep,
    s: &[BodyState],
    prev: &[Probe],
    out: &mut Vec<Probe>,
) {
    for &(i, j) in sweep.candidates() {
        let (i, j) = (i as usize, j as usize);
        let (a, b) = (&colliders.list[i], &colliders.list[j]);
        let pair = Pair {
            colliders,
            a,
            b,
            s,
            margin: sweep.margin(colliders, i) + sweep.margin(colliders, j),
            key: [i, j],
            prev,
        };
        if let Some(collide) = TABLE[a.kind() as usize][b.kind() as usize] {
            collide(&pair, out);
        }
    }
}

/// The elastic energy at the states `s` of the probes of `prev` that `next` no longer has, or
/// has with a corner against another face (both sorted by shapes and part). Why: a box's
/// corner that slides off the edge of a face while pressed into it loses its probe (edges are
/// not modelled) and with it its dent's energy k d^2 / 2; counted as dissipated (the dent let
/// go as heat, as a stick spring that lets go), E - E0 - W + D stays exact. A probe that
/// begins pressed in (a corner that arrives at a face from beyond its edge) adds energy; that
/// is not hidden: it shows in the balance.
pub fn released(prev: &[Probe], next: &[Probe], s: &[BodyState]) -> f64 {
    let mut e = 0.0;
    let mut j = 0;
    for p in prev {
        let key = (p.shapes, p.part);
        while j < next.len() && (next[j].shapes, next[j].part) < key {
            j += 1;
        }
        // kept: found again, a corner against the same face (a capsule pair's closest points
        // and an edge pair's points and normal move from step to step: the same contact, its
        // gap measured anew, `capsule.rs`, `box_box.rs`)
        let kept = next.get(j).is_some_and(|q| {
            (q.shapes, q.part) == key
                && match (p.geometry, q.geometry) {
                    // (a sphere's or capsule's probe, r > 0, moves from a face to an edge
                    // with its gap continuous: `point_box.rs`)
                    (Geometry::PointFace { m, .. }, Geometry::PointFace { m: m2, r, .. }) => {
                        m == m2 || q.part >= box_box::FIRST_EDGE_PART || r > 0.0
                    }
                    _ => true,
                }
        });
        if !kept {
            e += p.law.potential(-gap(p, s));
        }
    }
    e
}
