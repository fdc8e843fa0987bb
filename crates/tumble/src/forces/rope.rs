//! Ropes (MuJoCo's limited spatial tendon between two sites): the distance l = |p_b - p_a|
//! between two body points held at most `length` by a one-sided stop; a slack rope pulls not.
//!
//! ```text
//! overshoot   d = l - length               (> 0: taut and stretched)
//! stop        F = max(0, k d + c ddot), V = k d^2 / 2 (contact/law.rs, the linear law of the
//!             joint limits), c calibrated for the restitution asked on the reduced mass
//!             m = 1 / (1/m_a + 1/m_b) (m_b alone to the ground): exact for two point masses
//!             on their line, an approximation where the bodies turn
//! forces      -F n on b at p_b, +F n on a at p_a, n = (p_b - p_a) / l; power -F ldot, of
//!             which (F - F_e) ldot >= 0 is dissipated
//! director    as the spring-damper (methods/director/forces.rs): Delta l = (dbar / lbar) .
//!             Delta d exactly, and F from the law's discrete form over the step (l0 -> l1):
//!             F Delta l = Delta V + D_step, so the balance holds to the Newton tolerance
//! RATTLE, Baumgarte   the continuous form above
//! steps       as the joint limits': a rope pulled taut at a step's start rings at most a
//!             quarter radian a step, omega h <= 1/4 with omega^2 = k / m (`resolve::resolved`)
//! ```
//! A rope's default stiffness rings at 10 Hz on m (`limits::law_on`): a ball hanging at rest
//! stretches it g / (2 pi 10)^2 = 2.5 mm.
use super::frame::{end, point, point_velocity};
use super::limits;
use crate::contact::Law;
use crate::math::length;
use crate::model::{BodyState, ForceElement, Model};
use glam::DVec3;

/// The mass a rope's stop is calibrated on: the reduced mass of its two bodies (kg).
pub fn inertia(model: &Model, a: Option<usize>, b: usize) -> f64 {
    let mb = model.bodies[b].mass;
    a.map_or(mb, |a| {
        let ma = model.bodies[a].mass;
        ma * mb / (ma + mb)
    })
}

/// A rope's stop law: the joint limits' on [`inertia`].
pub fn law(model: &Model, el: &ForceElement) -> Option<Law> {
    let ForceElement::Rope {
        a,
        b,
        stiffness,
        restitution,
        ..
    } = *el
    else {
        return None;
    };
    Some(limits::law_on(inertia(model, a, b), stiffness, restitution))
}

/// A rope's ends: (d = p_b - p_a, its length l) at the states `s`.
pub fn span(el: &ForceElement, s: &[BodyState]) -> (DVec3, f64) {
    let ForceElement::Rope {
        a,
        point_a,
        b,
        point_b,
        ..
    } = *el
    else {
        return (DVec3::ZERO, 0.0);
    };
    let d = point(s, b, point_b) - end(s, a, point_a);
    (d, length(d))
}

/// A rope's stop energy at the states `s` (J).
pub fn potential(el: &ForceElement, law: &Law, s: &[BodyState]) -> f64 {
    match *el {
        ForceElement::Rope { length: len, .. } => law.potential(span(el, s).1 - len),
        _ => 0.0,
    }
}

/// The continuous form: a rope's forces and torques at the states `s` into `force` and
/// `torque`; returns its dissipated power (W).
pub fn add_world(
    el: &ForceElement,
    law: &Law,
    s: &[BodyState],
    (force, torque): (&mut [DVec3], &mut [DVec3]),
) -> f64 {
    let ForceElement::Rope {
        a,
        point_a,
        b,
        point_b,
        length: len,
        ..
    } = *el
    else {
        return 0.0;
    };
    let (d, l) = span(el, s);
    if l <= len {
        return 0.0; // slack (l > 0 here, as len > 0)
    }
    let n = d / l;
    let ldot = n.dot(point_velocity(s, Some(b), point_b) - point_velocity(s, a, point_a));
    let (f, fe) = law.force(l - len, ldot);
    let arm_b = s[b].r * point_b;
    force[b] -= n * f;
    torque[b] -= arm_b.cross(n * f);
    if let Some(a) = a {
        let arm_a = s[a].r * point_a;
        force[a] += n * f;
        torque[a] += arm_a.cross(n * f);
    }
    (f - fe) * ldot
}
