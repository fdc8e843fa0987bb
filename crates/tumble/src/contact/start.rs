//! The start's check: a shape that starts deep inside a plane or another shape is refused (the
//! contact force would answer it with a launch), the message naming the shapes and the depth.
//!
//! Deep sphere pairs are looked for first by a sweep along x that stops at the first one and
//! stores no pair: a system of many spheres started at one point (every pair overlapping, 8.4
//! million for 4096 spheres) is refused in that sweep's time, without the pair lists the step's
//! pipeline would build for every overlapping pair. The rest (spheres in boxes, box corners,
//! capsules) is checked on the step's own pairs.
use super::{gap, Geometry, Probes, StepState};
use crate::model::{BodyState, Model};
use crate::shapes::ShapeKind;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// Refuse a start where a shape lies deep inside a plane or another shape: deeper than a
/// quarter of its radius (a box's corner: of its smallest half-size), which the contact force
/// would answer with a launch. The message names the shapes and the depth.
pub fn check_start(model: &Model, probes: &Probes, init: &[BodyState]) -> Result<(), String> {
    let shapes = &model.contact.shapes;
    let size = |i: usize| match shapes[i].kind {
        ShapeKind::Sphere { radius } | ShapeKind::Capsule { radius, .. } => radius,
        ShapeKind::Box { half } => half.min_element(),
    };
    for p in &probes.list {
        let depth = -gap(p, init);
        let i = p.shapes[0];
        if depth > 0.25 * size(i) {
            return Err(format!(
                "contact: shape {i} ({} on body {}) starts {} m deep in a plane, more than a quarter of its size ({} m): the contact would launch it; start it on or above the plane",
                model.contact.kind_name(i), shapes[i].body, crate::text::Num(depth), crate::text::Num(size(i))
            ));
        }
    }
    deep_spheres(probes, init)?;
    let mut near = StepState::default();
    near.sweep_pairs(&probes.colliders, init, 0.0); // (nothing released: no last step)
    for p in &near.pairs {
        pair_depth(probes, p, init)?;
    }
    Ok(())
}

/// The first pair of spheres (whole spheres that may touch) deeper in each other than a quarter
/// of the smaller radius, by a sweep along x in the order of their lowest x: an Err with the
/// step's pair message, or Ok. Allocates one list of the spheres; no pairs.
fn deep_spheres(probes: &Probes, init: &[BodyState]) -> Result<(), String> {
    let list = &probes.colliders.list;
    let centre = |i: usize| {
        let c = &list[i];
        init[c.body].x + init[c.body].r * c.s
    };
    let mut order: Vec<(f64, usize)> = (0..list.len())
        .filter(|&i| list[i].segment.is_none() && !list[i].cap && !list[i].is_box())
        .map(|i| (centre(i).x - list[i].r, i))
        .collect();
    order.sort_by(|a, b| a.0.total_cmp(&b.0));
    for (k, &(lo, i)) in order.iter().enumerate() {
        let (ci, ri) = (centre(i), list[i].r);
        for &(lo_j, j) in &order[k + 1..] {
            if lo_j > lo + 2.0 * ri {
                break; // (sorted by lowest x: none further on reaches i)
            }
            let (a, b) = (&list[i], &list[j]);
            let depth = ri + b.r - crate::math::length(centre(j) - ci);
            if depth > 0.25 * ri.min(b.r) && probes.colliders.may_touch(a, b) {
                let (ba, bb) = (a.body.min(b.body), a.body.max(b.body));
                return Err(format!(
                    "contact: the spheres of bodies {ba} and {bb} start {} m inside each other, more than a quarter of the smaller radius ({} m): the contact would throw them apart; start them apart or touching",
                    crate::text::Num(depth), crate::text::Num(ri.min(b.r))
                ));
            }
        }
    }
    Ok(())
}

/// Refuse pair `p` of the start's pairs where one shape lies deeper in the other than a quarter
/// of its size.
fn pair_depth(probes: &Probes, p: &super::Probe, init: &[BodyState]) -> Result<(), String> {
    if let Geometry::PointFace { a, b, r, .. } = p.geometry {
        // a sphere's centre (r > 0) or a box's corner (r = 0) in another body's box
        let depth = -gap(p, init);
        let size = if r > 0.0 {
            r
        } else {
            probes.colliders.list[p.shapes[0]]
                .half
                .min_element()
                .min(probes.colliders.list[p.shapes[1]].half.min_element())
        };
        if depth > 0.25 * size {
            return Err(format!(
                "contact: a {} of body {a} starts {} m inside the box of body {b}, more than a quarter of its size ({} m): the contact would throw them apart; start them apart or touching",
                if r > 0.0 { "sphere or capsule" } else { "box's corner or edge" }, crate::text::Num(depth), crate::text::Num(size)
            ));
        }
    }
    if let Some((a, _, ra, b, _, rb)) = p.centres(init) {
        let depth = -gap(p, init);
        if depth > 0.25 * ra.min(rb) {
            let kind = |i: usize| match probes.colliders.list[p.shapes[i]].segment {
                Some(_) => "capsule",
                None => "sphere",
            };
            let what = if kind(0) == kind(1) {
                format!("{}s of bodies {a} and {b}", kind(0))
            } else {
                format!("{} of body {a} and the {} of body {b}", kind(0), kind(1))
            };
            return Err(format!(
                "contact: the {what} start {} m inside each other, more than a quarter of the smaller radius ({} m): the contact would throw them apart; start them apart or touching",
                crate::text::Num(depth), crate::text::Num(ra.min(rb))
            ));
        }
    }
    Ok(())
}
