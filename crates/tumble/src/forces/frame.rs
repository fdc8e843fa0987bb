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
    /// a universal joint's second hinge ([`hinge_frame`]): the axis and the reference
    /// vectors `n_a`, `r_a`, `m_a` are in b's frame and `e_b` in a's, and the angle is that of b
    /// relative to a about b's axis: theta = atan2(-(R_b m) . (R_a e), (R_b r) . (R_a e))
    pub flip: bool,
    /// a gimbal's middle hinge ([`hinge_frame`]): its angle is asin(x) - s0 with
    /// x = (R_a r_a) . (R_b e_b) = sin theta2 (r_a = s u1 in a, e_b = u3 in b), not an atan2
    pub middle: bool,
    /// a tendon limit's inertia (`tendons::inertia`: what its stops' damping is calibrated on)
    pub inertia: f64,
}

/// The frame of hinge `index` of joint `joint` (a tendon term's angle): a revolute,
/// cylindrical or planar joint's one hinge as a joint spring's (index 0); a universal joint's
/// first hinge about axis_a (fixed in a), measured by b's axis_b, which stays perpendicular to
/// it, or its second (index 1) about axis_b (fixed in b), measured by a's axis_a: a flipped
/// frame. Each is exactly MuJoCo's hinge angle of the two hinges the universal joint composes
/// (the first in the parent, the second in the child). A gimbal's first and last hinges are
/// measured so too (its last flipped), its middle hinge by [`middle_frame`].
pub fn hinge_frame(model: &Model, joint: usize, index: usize, init: Option<&[BodyState]>) -> Frame {
    let j = &model.joints[joint];
    let (axis_a, axis_b) = match j.kind {
        JointKind::Universal { axis_a, axis_b, .. } | JointKind::Gimbal { axis_a, axis_b, .. } => {
            (axis_a, axis_b)
        }
        _ => {
            let spring = ForceElement::JointSpring {
                joint,
                stiffness: 0.0,
                rest_angle: 0.0,
                damping: 0.0,
            };
            return frame(model, &spring, init);
        }
    };
    let rot = |b: Option<usize>| match (b, init) {
        (Some(b), Some(s)) => s[b].r,
        _ => DMat3::IDENTITY,
    };
    let (ra, rb) = (rot(j.a), rot(Some(j.b)));
    let (ua, ub) = (
        crate::math::normalize(axis_a),
        crate::math::normalize(axis_b),
    );
    let last = if matches!(j.kind, JointKind::Gimbal { .. }) {
        2
    } else {
        1
    };
    if index == 1 && last == 2 {
        return middle_frame(j, ua, ub, &ra, &rb);
    }
    // (n, e, the rotation from e's body to n's): the axis, the vector that measures the angle
    let (n, e, to_n) = if index == 0 {
        (ua, ub, ra.transpose() * rb)
    } else {
        (ub, ua, rb.transpose() * ra)
    };
    let r = to_n * e;
    let r = crate::math::normalize(r - n * n.dot(r));
    Frame {
        a: j.a,
        b: j.b,
        n_a: n,
        r_a: r,
        m_a: n.cross(r),
        e_b: e,
        flip: index == last,
        ..Frame::default()
    }
}

/// A gimbal's middle hinge (`hinge_frame`). With u1 (a's axis), u2 (the middle) and u3 (b's
/// axis) perpendicular at theta2 = 0, R_rel = R1 R2 R3 turns u3 into cos theta2 R1 u3 +
/// sin theta2 R1 (u2 x u3), and u1 . (u2 x u3) = s = +-1, so (R_a u1) . (R_b u3) = s sin theta2:
/// bilinear in the directors, theta2 = asin(x) with x = (R_a s u1) . (R_b u3), measured from the
/// start (s0 its value there; s from the axes at the start, where u2 is still perpendicular to
/// both). Valid for |theta2| < 90 degrees (the gimbal's lock is at 90).
fn middle_frame(j: &crate::model::Joint, ua: DVec3, ub: DVec3, ra: &DMat3, rb: &DMat3) -> Frame {
    let JointKind::Gimbal { middle, .. } = j.kind else {
        return Frame::default();
    };
    let (u1, u2, u3) = (*ra * ua, *rb * crate::math::normalize(middle), *rb * ub);
    let s = if u1.dot(u2.cross(u3)) < 0.0 {
        -1.0
    } else {
        1.0
    };
    let x0 = (u1 * s).dot(u3).clamp(-1.0, 1.0);
    Frame {
        a: j.a,
        b: j.b,
        n_a: ua,
        r_a: ua * s,
        e_b: ub,
        s0: libm::asin(x0),
        middle: true,
        ..Frame::default()
    }
}

/// A hinge's angle at rotations `ra`, `rb` (a term's: `hinge_frame`): a gimbal's middle angle,
/// or the atan2 angle unwrapped against `previous`.
pub fn hinge_angle(f: &Frame, ra: &DMat3, rb: &DMat3, previous: f64) -> f64 {
    let (x, y) = angle_xy(f, ra, rb);
    if f.middle {
        return libm::asin(x.clamp(-1.0, 1.0)) - f.s0;
    }
    unwrap(x, y, previous)
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

/// (cos, sin) of a joint spring's angle, unnormalised: (x, y) of the module notes (of a
/// flipped frame, [`Frame::flip`]).
pub fn angle_xy(f: &Frame, ra: &DMat3, rb: &DMat3) -> (f64, f64) {
    if f.flip {
        let u = *ra * f.e_b;
        return ((*rb * f.r_a).dot(u), -(*rb * f.m_a).dot(u));
    }
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
