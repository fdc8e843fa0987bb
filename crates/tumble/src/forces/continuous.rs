//! The force elements' continuous forms for the rotation-matrix methods (RATTLE, Baumgarte):
//! forces and torques at a state, and the powers whose time integral they report as W and D
//! (the equations are at the top of `mod.rs`).
use super::frame::{end, point, point_velocity, rot, Frame};
use super::limits;
use crate::math::length;
use crate::model::{BodyState, ForceElement, LimitKind, Model};
use glam::{DMat3, DVec3};

/// The powers of the elements at a state: what the loads put in and the dampers take out (W).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Power {
    /// dW/dt of the loads and motors
    pub input: f64,
    /// dD/dt of the dampers, >= 0
    pub dissipation: f64,
}

/// Add the elements' forces and torques (world) at the states `s`, time `t` to `force` and
/// `torque` (one per body), but the tendons' (`forces/tendon.rs`, added by `forces::add_world`);
/// `angles` are the joint springs' angles at `s`. Returns the powers.
pub fn add_world(
    model: &Model,
    frames: &[Frame],
    s: &[BodyState],
    angles: &[f64],
    t: f64,
    force: &mut [DVec3],
    torque: &mut [DVec3],
) -> Power {
    let mut p = Power::default();
    for ((el, fr), angle) in model.forces.iter().zip(frames).zip(angles) {
        let out = (&mut *force, &mut *torque);
        match *el {
            ForceElement::Spring { .. }
            | ForceElement::JointSpring { .. }
            | ForceElement::SliderSpring { .. } => springs(el, fr, s, *angle, out, &mut p),
            ForceElement::Rope { .. } => {
                if let Some(law) = &fr.law {
                    p.dissipation += super::rope::add_world(el, law, s, out);
                }
            }
            _ => stops_and_loads(el, fr, (s, *angle, t), out, &mut p),
        }
    }
    p
}

/// The force f on body `b` through the point at `arm` from its centre, and its torque.
fn apply(b: usize, arm: DVec3, f: DVec3, force: &mut [DVec3], torque: &mut [DVec3]) {
    force[b] += f;
    torque[b] += arm.cross(f);
}

/// A spring-damper's, a joint spring's or a slider spring's forces and torques at the states
/// `s` (`angle`: a joint spring's angle there) into `force` and `torque`, its dissipation
/// into `p`.
fn springs(
    el: &ForceElement,
    fr: &Frame,
    s: &[BodyState],
    angle: f64,
    (force, torque): (&mut [DVec3], &mut [DVec3]),
    p: &mut Power,
) {
    match *el {
        ForceElement::Spring {
            a,
            point_a,
            b,
            point_b,
            stiffness,
            rest_length,
            damping,
        } => {
            let d = point(s, b, point_b) - end(s, a, point_a);
            let l = length(d);
            if l == 0.0 {
                return; // zero rest length (validated): no force at zero length
            }
            let n = d / l;
            let ldot = n.dot(point_velocity(s, Some(b), point_b) - point_velocity(s, a, point_a));
            let f = n * (stiffness * (l - rest_length) + damping * ldot);
            apply(b, s[b].r * point_b, -f, force, torque);
            if let Some(a) = a {
                apply(a, s[a].r * point_a, f, force, torque);
            }
            p.dissipation += damping * ldot * ldot;
        }
        ForceElement::JointSpring {
            stiffness,
            rest_angle,
            damping,
            ..
        } => {
            let n = rot(s, fr.a) * fr.n_a;
            let wa = fr.a.map_or(DVec3::ZERO, |a| s[a].r * s[a].w);
            let rate = n.dot(s[fr.b].r * s[fr.b].w - wa);
            let tau = -(stiffness * (angle - rest_angle) + damping * rate);
            torque[fr.b] += n * tau;
            if let Some(a) = fr.a {
                torque[a] -= n * tau;
            }
            p.dissipation += damping * rate * rate;
        }
        ForceElement::SliderSpring {
            stiffness,
            rest_slide,
            damping,
            ..
        } => {
            let (x, rate) = slide_and_rate(fr, s);
            let f = stiffness * (x - rest_slide) + damping * rate;
            push_along_slide(fr, s, -f, (force, torque));
            p.dissipation += damping * rate * rate;
        }
        _ => {}
    }
}

/// A slide x = mw . d - s0 (mw = R_a n_a, d = p_b - p_a) at the states `s` and its rate
/// mw . (pdot_b - pdot_a) + (w_a x mw) . d.
pub(super) fn slide_and_rate(fr: &Frame, s: &[BodyState]) -> (f64, f64) {
    let mw = rot(s, fr.a) * fr.n_a;
    let d = point(s, fr.b, fr.point_b) - end(s, fr.a, fr.point_a);
    let wa = fr.a.map_or(DVec3::ZERO, |a| s[a].r * s[a].w);
    let rate = mw
        .dot(point_velocity(s, Some(fr.b), fr.point_b) - point_velocity(s, fr.a, fr.point_a))
        + wa.cross(mw).dot(d);
    (mw.dot(d) - fr.s0, rate)
}

/// The generalised force `f` along a slide: f along mw on b's point, -f on a at that same point
/// (the Jacobian of the sliding row, joints.rs), so that its power is f times the slide's rate.
pub(super) fn push_along_slide(fr: &Frame, s: &[BodyState], f: f64, (force, torque): Out) {
    let mw = rot(s, fr.a) * fr.n_a;
    let pb = point(s, fr.b, fr.point_b);
    apply(fr.b, pb - s[fr.b].x, mw * f, force, torque);
    if let Some(a) = fr.a {
        apply(a, pb - s[a].x, -mw * f, force, torque);
    }
}

/// The per-body forces and torques an element adds to.
pub(super) type Out<'a> = (&'a mut [DVec3], &'a mut [DVec3]);

/// A limit's stops, a force's, a torque's or a motor's forces and torques at the states `s`
/// (`angle`: the joint's angle there), time `t`, into `force` and `torque`, their powers into
/// `p`.
fn stops_and_loads(
    el: &ForceElement,
    fr: &Frame,
    (s, angle, t): (&[BodyState], f64, f64),
    (force, torque): (&mut [DVec3], &mut [DVec3]),
    p: &mut Power,
) {
    match *el {
        ForceElement::Limit {
            kind, lower, upper, ..
        } => {
            let Some(stop) = stop_on_b(fr, kind, lower, upper, s, angle) else {
                return;
            };
            // on b at its joint point pb, the opposite on a there
            apply(fr.b, stop.at - s[fr.b].x, stop.force, force, torque);
            torque[fr.b] += stop.torque;
            if let Some(a) = fr.a {
                apply(a, stop.at - s[a].x, -stop.force, force, torque);
                torque[a] -= stop.torque;
            }
            p.dissipation += stop.dissipation;
        }
        ForceElement::Force {
            body,
            point: arm,
            force: f,
            time,
        } => {
            let f = f * time.at(t);
            apply(body, s[body].r * arm, f, force, torque);
            p.input += f.dot(point_velocity(s, Some(body), arm));
        }
        ForceElement::Torque {
            body,
            torque: tq,
            time,
        } => {
            let tq = tq * time.at(t);
            torque[body] += tq;
            p.input += tq.dot(s[body].r * s[body].w);
        }
        ForceElement::Motor {
            torque: tq, time, ..
        } => {
            let n = rot(s, fr.a) * fr.n_a;
            let tau = n * (tq * time.at(t));
            let wa = fr.a.map_or(DVec3::ZERO, |a| s[a].r * s[a].w);
            torque[fr.b] += tau;
            if let Some(a) = fr.a {
                torque[a] -= tau;
            }
            p.input += tau.dot(s[fr.b].r * s[fr.b].w - wa);
        }
        ForceElement::SliderMotor { force: f, time, .. } => {
            let f = f * time.at(t);
            push_along_slide(fr, s, f, (force, torque));
            p.input += f * slide_and_rate(fr, s).1;
        }
        _ => {}
    }
}

/// What a joint's stops (a `Limit` element) put on its body b at a state.
pub struct Stop {
    /// the force on b (N), at `at`
    pub force: DVec3,
    /// the pure torque on b (N m)
    pub torque: DVec3,
    /// where the force acts: b's joint point (world)
    pub at: DVec3,
    /// the stops' dissipated power (W)
    pub dissipation: f64,
}

/// The continuous form of the stops of frame `fr` on body b at the states `s` (`angle`: the
/// joint's angle there, for an angle limit); None without a law. An angle limit is a torque
/// about the axis n = R_a n_a, as a joint spring; a slide limit a force along it at b's joint
/// point, as a slider spring. Body a gets the opposite.
pub fn stop_on_b(
    fr: &Frame,
    kind: LimitKind,
    lower: f64,
    upper: f64,
    s: &[BodyState],
    angle: f64,
) -> Option<Stop> {
    let law = fr.law.as_ref()?;
    let ra = fr.a.map_or(DMat3::IDENTITY, |a| s[a].r);
    let wa = fr.a.map_or(DVec3::ZERO, |a| s[a].r * s[a].w);
    let n = ra * fr.n_a;
    let at = point(s, fr.b, fr.point_b);
    Some(if kind == LimitKind::Angle {
        let rate = n.dot(s[fr.b].r * s[fr.b].w - wa);
        let (f, dissipation) = limits::force(law, angle, rate, lower, upper);
        Stop {
            force: DVec3::ZERO,
            torque: -n * f,
            at,
            dissipation,
        }
    } else {
        let d = at - end(s, fr.a, fr.point_a);
        let rate = n
            .dot(point_velocity(s, Some(fr.b), fr.point_b) - point_velocity(s, fr.a, fr.point_a))
            + wa.cross(n).dot(d);
        let (f, dissipation) = limits::force(law, n.dot(d) - fr.s0, rate, lower, upper);
        Stop {
            force: -n * f,
            torque: DVec3::ZERO,
            at,
            dissipation,
        }
    })
}
