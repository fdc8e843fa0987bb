//! A fixed tendon's spring, motor and stops in the continuous form of the rotation-matrix
//! methods (RATTLE, Baumgarte; `tendons.rs` has the equations): the force F along
//! L = sum c_i q_i becomes c_i F on each coordinate, a torque c_i F j on b (the opposite on a)
//! for a hinge whose rate is j . (w_b - w_a) ([`hinge_jacobian`]; j is the axis itself on a
//! revolute or universal joint), a force c_i F along a slide, so that its power is F dL/dt with
//! dL/dt = sum c_i dq_i/dt.
use super::continuous::{push_along_slide, slide_and_rate, Out, Power};
use super::frame::{rot, Frame};
use crate::model::{BodyState, ForceElement, LimitKind, Model};
use glam::DVec3;

/// Tendon element `k`'s forces and torques at the states `s` (the angles `angles` of the same
/// states, time `t`) into `out`, its powers into `p`.
pub fn tendon_world(
    model: &Model,
    frames: &[Frame],
    (s, angles, t): (&[BodyState], &[f64], f64),
    k: usize,
    (force, torque): Out,
    p: &mut Power,
) {
    let Some((_, first, terms)) = super::tendons::parts(model, k) else {
        return;
    };
    let el = &model.forces[k];
    // L and dL/dt, and each hinge's Jacobian (at most MAX_TERMS: validated)
    let (mut l, mut rate) = (0.0, 0.0);
    let mut jac = [DVec3::ZERO; super::tendons::MAX_TERMS];
    for (i, term) in terms.iter().enumerate() {
        let fr = &frames[first + i];
        let (q, qdot) = match term.kind {
            LimitKind::Angle => {
                jac[i] = hinge_jacobian(fr, s);
                let wa = fr.a.map_or(DVec3::ZERO, |a| s[a].r * s[a].w);
                (angles[first + i], jac[i].dot(s[fr.b].r * s[fr.b].w - wa))
            }
            LimitKind::Slide => slide_and_rate(fr, s),
        };
        l += term.coef * q;
        rate += term.coef * qdot;
    }
    // the generalised force along L
    let f = match *el {
        ForceElement::TendonSpring {
            stiffness,
            rest_length,
            damping,
            ..
        } => {
            p.dissipation += damping * rate * rate;
            -(stiffness * (l - rest_length) + damping * rate)
        }
        ForceElement::TendonMotor { force: f, time, .. } => {
            let f = f * time.at(t);
            p.input += f * rate;
            f
        }
        ForceElement::TendonLimit { lower, upper, .. } => match &frames[k].law {
            Some(law) => {
                let (f, diss) = super::limits::force(law, l, rate, lower, upper);
                p.dissipation += diss;
                -f
            }
            None => 0.0,
        },
        _ => 0.0,
    };
    for (i, term) in terms.iter().enumerate() {
        let fr = &frames[first + i];
        let fi = term.coef * f;
        match term.kind {
            LimitKind::Angle => {
                let n = jac[i];
                torque[fr.b] += n * fi;
                if let Some(a) = fr.a {
                    torque[a] -= n * fi;
                }
            }
            LimitKind::Slide => push_along_slide(fr, s, fi, (&mut *force, &mut *torque)),
        }
    }
}

/// Tendon `k`'s rate dL/dt = sum c_i dq_i/dt at the states `s` (as [`tendon_world`] forms it).
pub(super) fn rate(model: &Model, frames: &[Frame], s: &[BodyState], k: usize) -> f64 {
    let Some((_, first, terms)) = super::tendons::parts(model, k) else {
        return 0.0;
    };
    let mut rate = 0.0;
    for (i, term) in terms.iter().enumerate() {
        let fr = &frames[first + i];
        rate += term.coef
            * match term.kind {
                LimitKind::Angle => {
                    let wa = fr.a.map_or(DVec3::ZERO, |a| s[a].r * s[a].w);
                    hinge_jacobian(fr, s).dot(s[fr.b].r * s[fr.b].w - wa)
                }
                LimitKind::Slide => slide_and_rate(fr, s).1,
            };
    }
    rate
}

/// The hinge's angle's rate per relative angular velocity: theta' = j . (w_b - w_a), and so a
/// generalised force f along theta is the torque f j on b (-f j on a). From the angle's
/// definition (`forces/frame.rs`), with A = R_a, B = R_b:
///   atan2:   x = (A r) . (B e), y = (A m) . (B e): j = B e x (x A m - y A r) / (x^2 + y^2)
///   flipped: x = (B r) . (A e), y = -(B m) . (A e): j = -(x B m + y B r) x A e / (x^2 + y^2)
///   middle:  x = (A r) . (B e) = sin theta: j = B e x A r / sqrt(1 - x^2)
/// On a revolute or universal joint j is the axis n itself; on a gimbal's outer hinges it is not
/// (B e has a component along n where the middle angle is not 0).
fn hinge_jacobian(fr: &Frame, s: &[BodyState]) -> DVec3 {
    let (ra, rb) = (rot(s, fr.a), rot(s, Some(fr.b)));
    let (x, y) = crate::forces::angle_xy(fr, &ra, &rb);
    if fr.middle {
        return (rb * fr.e_b).cross(ra * fr.r_a) / libm::sqrt((1.0 - x * x).max(1e-300));
    }
    let r2 = (x * x + y * y).max(1e-300);
    if fr.flip {
        let ae = ra * fr.e_b;
        return -((rb * fr.m_a) * x + (rb * fr.r_a) * y).cross(ae) / r2;
    }
    (rb * fr.e_b).cross((ra * fr.m_a) * x - (ra * fr.r_a) * y) / r2
}
