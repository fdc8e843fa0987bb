//! Fixed tendons: a length that is a linear combination of joint coordinates (MuJoCo's
//! `<tendon><fixed>`), on which tendon springs and tendon motors act.
//!
//! ```text
//! L = sum_i c_i q_i            q_i: a hinge's angle (rad) or a slide (m), each measured from
//!                              the start as Tumble's joint springs measure them
//! spring      V = k (L - L_r)^2 / 2,   damping force c dL/dt
//! motor       a generalised force F along L: c_i F on each coordinate, power F dL/dt
//! ```
//! Each coordinate is one Tumble joint springs already measure (`forces/frame.rs`): a hinge's
//! angle theta = atan2(y, x) with x, y bilinear in the directors, a slide x quadratic in them;
//! a universal joint's two hinges each so too (`frame::hinge_frame`: MuJoCo's two hinges).
//! In the director each has a discrete gradient G_i with Delta q_i = G_i . Delta q exactly
//! (Gonzalez's 2-D one for the angle, the gradient at the mean for the slide), so
//! Delta L = (sum_i c_i G_i) . Delta q exactly, and the element's force along L,
//! F = k (Lbar - L_r) + c Delta L / h (a spring) or the motor's mean force, acting through
//! sum_i c_i G_i, does exactly Delta V + c Delta L^2 / h (or W = F Delta L) of work: the energy
//! balance stays exact (`methods/director/tendons.rs`). In RATTLE and Baumgarte the force is
//! c_i F on each coordinate: a torque c_i F n about a hinge's axis, a force c_i F along a slide.
//!
//! The hinges' angles are unwrapped (continuous across +-pi), so they are part of the state: a
//! term's angle lives in the force state's `angles` after the elements' own, at
//! [`slot`] (its frame likewise in `Compiled::force_frames`).
use crate::forces::Frame;
use crate::model::{BodyState, ForceElement, LimitKind, Model};
pub use crate::model::{Tendon, TendonTerm};
use alloc::vec::Vec;

/// Most terms a tendon may have.
pub const MAX_TERMS: usize = 32;

/// How many terms all the tendons of `model` have.
pub fn term_count(model: &Model) -> usize {
    model.tendons.iter().map(|t| t.terms.len()).sum()
}

/// The place of term `i` of tendon `tendon` in the force state's angles and the force frames:
/// after the elements' own.
pub fn slot(model: &Model, tendon: usize, i: usize) -> usize {
    let before: usize = model.tendons[..tendon].iter().map(|t| t.terms.len()).sum();
    model.forces.len() + before + i
}

/// The frames of every tendon's terms, in order (each a joint spring's frame for an angle, a
/// slider spring's for a slide), angles measured from `init`.
pub fn term_frames(model: &Model, init: Option<&[BodyState]>) -> Vec<Frame> {
    model
        .tendons
        .iter()
        .flat_map(|t| t.terms.iter())
        .map(|term| coordinate_frame(model, term.joint, term.kind, term.index, init))
        .collect()
}

/// The frame that measures joint `joint`'s coordinate `index` of `kind` (its hinge's angle, a
/// joint spring's frame or a universal joint's or gimbal's hinge, or its slide, a slider
/// spring's frame) from the start `init`.
pub fn coordinate_frame(
    model: &Model,
    joint: usize,
    kind: LimitKind,
    index: usize,
    init: Option<&[BodyState]>,
) -> Frame {
    match kind {
        LimitKind::Angle => crate::forces::frame::hinge_frame(model, joint, index, init),
        LimitKind::Slide => {
            let slider = ForceElement::SliderSpring {
                joint,
                slide: index,
                stiffness: 0.0,
                rest_slide: 0.0,
                damping: 0.0,
            };
            crate::forces::frame::frame(model, &slider, init)
        }
    }
}

/// The inertia a tendon's stops act on, 1 / sum c_i^2 / m_i, m_i each coordinate's own: body
/// b's moment about the hinge's axis through the joint's point (the axis as it lies at the start
/// `init`), its mass for a slide; exact for one coordinate of a body on a fixed axis (as a joint
/// limit's), an approximation where the coordinates move bodies together.
pub fn inertia(model: &Model, tendon: usize, frames: &[Frame], init: Option<&[BodyState]>) -> f64 {
    let first = slot(model, tendon, 0);
    let mut inv = 0.0;
    for (i, term) in model.tendons[tendon].terms.iter().enumerate() {
        let j = &model.joints[term.joint];
        let body = &model.bodies[j.b];
        let m = match term.kind {
            LimitKind::Slide => body.mass,
            LimitKind::Angle => {
                let fr = &frames[first + i];
                let rot = |b: Option<usize>| match (b, init) {
                    (Some(b), Some(s)) => s[b].r,
                    _ => glam::DMat3::IDENTITY,
                };
                let (ra, rb) = (rot(j.a), rot(Some(j.b)));
                // the axis in b's frame: n_a (a's, or b's for a flipped frame), or a gimbal's
                // middle axis there
                let n = if fr.middle {
                    match j.kind {
                        crate::model::JointKind::Gimbal { middle, .. } => middle,
                        _ => fr.n_a,
                    }
                } else if fr.flip {
                    fr.n_a
                } else {
                    rb.transpose() * (ra * fr.n_a)
                };
                let n = crate::math::normalize(n);
                let r = j.point_b;
                let along = r.dot(n);
                (body.inertia * n * n).element_sum()
                    + body.mass * (r.length_squared() - along * along)
            }
        };
        inv += term.coef * term.coef / m;
    }
    if inv > 0.0 {
        1.0 / inv
    } else {
        0.0
    }
}

/// The unit of a force along tendon `tendon`'s length: "N m" where it sums angles, "N" where
/// slides, "" (per unit of L) where both.
pub fn force_unit(model: &Model, tendon: usize) -> &'static str {
    let terms = &model.tendons[tendon].terms;
    if terms.iter().all(|x| x.kind == LimitKind::Angle) {
        "N m"
    } else if terms.iter().all(|x| x.kind == LimitKind::Slide) {
        "N"
    } else {
        ""
    }
}

/// Tendon element `k`'s tendon, the slot of its first term and its terms (`None` for another
/// element): what the tendon forms of every method begin with.
pub fn parts(model: &Model, k: usize) -> Option<(usize, usize, &[TendonTerm])> {
    let tendon = of(&model.forces[k])?;
    Some((tendon, slot(model, tendon, 0), &model.tendons[tendon].terms))
}

/// The tendon of a tendon element, if `f` is one.
pub fn of(f: &ForceElement) -> Option<usize> {
    match *f {
        ForceElement::TendonSpring { tendon, .. }
        | ForceElement::TendonMotor { tendon, .. }
        | ForceElement::TendonLimit { tendon, .. }
        | ForceElement::TendonArmature { tendon, .. } => Some(tendon),
        _ => None,
    }
}

/// Tendon `tendon`'s length L at the states `s`, the angles from `angles` (those of the same
/// states, `forces::update_angles`).
pub fn length(
    model: &Model,
    frames: &[Frame],
    s: &[BodyState],
    angles: &[f64],
    tendon: usize,
) -> f64 {
    let first = slot(model, tendon, 0);
    model.tendons[tendon]
        .terms
        .iter()
        .enumerate()
        .map(|(i, term)| {
            term.coef
                * match term.kind {
                    LimitKind::Angle => angles[first + i],
                    LimitKind::Slide => crate::forces::slide(&frames[first + i], s),
                }
        })
        .sum()
}
