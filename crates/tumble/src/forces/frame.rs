//! What the force elements need of a joint, compiled once ([`Frame`]), and the kinematics the
//! elements' forms share: a body point at a state, a joint spring's angle (x, y) and its
//! unwrapping, a slider's slide (the equations are at the top of `mod.rs`).
use crate::math::perpendicular_pair;
use crate::model::{BodyState, ForceElement, JointKind, LimitKind, Model};
use glam::{DMat3, DVec3};

/// What the elements need of a joint, compiled once: the bodies and, for a joint spring, the
/// vectors of the angle (see the module notes). Unused fields are zero.
#[derive(Clone, Copy, Debug, Default)]
pub struct Frame {
    /// body a (`None`: ground)
    pub a: Option<usize>,
    /// body b
    pub b: usize,
    /// the axis in a's frame (global for the ground)
    pub n_a: DVec3,
    /// the angle's reference vector in a's frame (global for the ground)
    pub r_a: DVec3,
    /// n_a x r_a
    pub m_a: DVec3,
    /// the vector perpendicular to axis_b in b's frame
    pub e_b: DVec3,
    /// a slider spring: the joint's points (a's global for the ground) and the slide at the
    /// start, n . (p_b - p_a) with n = R_a n_a
    pub point_a: DVec3,
    /// b's point
    pub point_b: DVec3,
    /// the slide at the start (m)
    pub s0: f64,
    /// a joint limit's stops (`forces/limits.rs`)
    pub law: Option<crate::contact::Law>,
}

/// Element `f`'s frame (see `forces::frames`).
pub fn frame(model: &Model, f: &ForceElement, init: Option<&[BodyState]>) -> Frame {
    match *f {
        ForceElement::JointSpring { joint, .. }
        | ForceElement::Motor { joint, .. }
        | ForceElement::Limit {
            joint,
            kind: LimitKind::Angle,
            ..
        } => {
            let j = &model.joints[joint];
            let (axis_a, axis_b) = match j.kind {
                JointKind::Revolute { axis_a, axis_b }
                | JointKind::Cylindrical { axis_a, axis_b }
                | JointKind::Planar { axis_a, axis_b, .. } => (axis_a, axis_b),
                _ => (DVec3::X, DVec3::X), // rejected by `validate`
            };
            let n_a = crate::math::normalize(axis_a);
            let e_b = perpendicular_pair(axis_b).0;
            let rot = |b: Option<usize>| match (b, init) {
                (Some(b), Some(s)) => s[b].r,
                _ => DMat3::IDENTITY,
            };
            let (ra, rb) = (rot(j.a), rot(Some(j.b)));
            // r_a: body b's e at the start, seen from a, made exactly perpendicular to n_a
            let r = ra.transpose() * (rb * e_b);
            let r_a = crate::math::normalize(r - n_a * n_a.dot(r));
            Frame {
                a: j.a,
                b: j.b,
                n_a,
                r_a,
                m_a: n_a.cross(r_a),
                e_b,
                ..Frame::default()
            }
        }
        ForceElement::SliderSpring { joint, slide, .. }
        | ForceElement::SliderMotor { joint, slide, .. }
        | ForceElement::Limit {
            joint,
            kind: LimitKind::Slide,
            slide,
            ..
        } => {
            let j = &model.joints[joint];
            // the slide's own axis (a planar joint's slide `slide`; rejected by `validate`
            // where the joint has none)
            let n_a = crate::math::normalize(j.kind.slide_axis(slide).unwrap_or(DVec3::X));
            let s0 = match init {
                Some(s) => {
                    let ra = j.a.map_or(DMat3::IDENTITY, |a| s[a].r);
                    (ra * n_a).dot(point(s, j.b, j.point_b) - end(s, j.a, j.point_a))
                }
                None => 0.0,
            };
            Frame {
                a: j.a,
                b: j.b,
                n_a,
                point_a: j.point_a,
                point_b: j.point_b,
                s0,
                ..Frame::default()
            }
        }
        _ => Frame::default(),
    }
}

/// Body `b`'s point `p` (its frame) at the states `s` (world).
pub fn point(s: &[BodyState], b: usize, p: DVec3) -> DVec3 {
    s[b].x + s[b].r * p
}

/// Side `a`'s point `p`: a body's point, or the fixed global point for the ground.
pub fn end(s: &[BodyState], a: Option<usize>, p: DVec3) -> DVec3 {
    match a {
        Some(a) => point(s, a, p),
        None => p,
    }
}

/// The velocity of side `a`'s point `p` (zero for the ground).
pub fn point_velocity(s: &[BodyState], a: Option<usize>, p: DVec3) -> DVec3 {
    match a {
        Some(a) => s[a].v + (s[a].r * s[a].w).cross(s[a].r * p),
        None => DVec3::ZERO,
    }
}

/// (cos, sin) of a joint spring's angle, unnormalised: (x, y) of the module notes.
pub fn angle_xy(f: &Frame, ra: &DMat3, rb: &DMat3) -> (f64, f64) {
    let u = *rb * f.e_b;
    ((*ra * f.r_a).dot(u), (*ra * f.m_a).dot(u))
}

/// The angle of (x, y) nearest to `previous` (unwrapped: continuous across +-pi).
pub fn unwrap(x: f64, y: f64, previous: f64) -> f64 {
    let tau = 2.0 * core::f64::consts::PI;
    let raw = libm::atan2(y, x);
    let turns = libm::round((previous - raw) / tau);
    raw + turns * tau
}

/// The rotation of body `b`, or the identity for the ground.
pub fn rot(s: &[BodyState], b: Option<usize>) -> DMat3 {
    match b {
        Some(b) => s[b].r,
        None => DMat3::IDENTITY,
    }
}

/// A slider spring's slide at the states `s`, from the start: n . (p_b - p_a) - s0, n = R_a n_a.
pub fn slide(fr: &Frame, s: &[BodyState]) -> f64 {
    let ra = fr.a.map_or(DMat3::IDENTITY, |a| s[a].r);
    (ra * fr.n_a).dot(point(s, fr.b, fr.point_b) - end(s, fr.a, fr.point_a)) - fr.s0
}
