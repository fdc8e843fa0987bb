//! The validation every scenario passes, preset or custom: physical bodies, joints that form
//! well-formed joints and an initial state that satisfies them (loops included).
use crate::model::{Body, BodyState, Model};
use alloc::format;
use alloc::string::{String, ToString};
use core::fmt;

/// Largest number of bodies of a scenario, preset or custom (a documented limit; the solver
/// itself has none).
pub const MAX_LINKS: usize = 4096;

/// A rejected scenario: the message names the field and the allowed values.
#[derive(Clone, Debug, PartialEq)]
pub struct ScenarioError(pub String);

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Whether `x` is at most `bound`: false when either is NaN, so that a check written
/// `!at_most(..)` refuses a NaN too.
fn at_most(x: f64, bound: f64) -> bool {
    x <= bound
}

fn err<T>(msg: String) -> Result<T, ScenarioError> {
    Err(ScenarioError(msg))
}

/// A body's mass and inertia are physical: finite and positive, and each principal moment
/// less than the sum of the other two (strictly: the RATTLE matrix D must be positive definite).
pub fn check_body(name: &str, b: &Body) -> Result<(), ScenarioError> {
    let j = b.inertia;
    if !(b.mass > 0.0 && b.mass.is_finite()) {
        return err(format!(
            "{name}.mass must be positive and finite, not {}",
            b.mass
        ));
    }
    if !(j.min_element() > 0.0 && j.is_finite()) {
        return err(format!(
            "{name}.inertia must be positive and finite, not {:?}",
            j.to_array()
        ));
    }
    let margin = 1e-9 * j.max_element();
    if j.x >= j.y + j.z - margin || j.y >= j.z + j.x - margin || j.z >= j.x + j.y - margin {
        return err(format!(
            "{name}.inertia {:?} breaks the triangle inequality: each principal moment must be less than the sum of the other two",
            j.to_array()
        ));
    }
    Ok(())
}

/// The joints are well formed (no body jointed to itself, at most
/// [`MAX_LOOP_JOINTS`](crate::sparse::MAX_LOOP_JOINTS) loops) and the initial state satisfies
/// them: the two points of every joint coincide to 1e-6 m, revolute axes agree to 1e-6 rad,
/// and the velocities satisfy the joints to 1e-6. The message names the first joint that does
/// not, its bodies and the gap; for a joint that closes a loop it says so.
pub fn check_consistent(model: &Model, states: &[BodyState]) -> Result<(), ScenarioError> {
    check_drives(model)?;
    let pattern = crate::sparse::JointPattern::new(model).map_err(ScenarioError)?;
    crate::forces::validate(model, states).map_err(ScenarioError)?;
    for (j, jt) in model.joints.iter().enumerate() {
        let e = crate::joints::evaluate(model, j, states);
        let a = match jt.a {
            Some(a) => format!("body {a}"),
            None => "the ground".to_string(),
        };
        let what = if pattern.loop_joints().contains(&j) {
            format!("joints[{j}] closes a loop between {a} and body {}, and the loop cannot close at the initial positions", jt.b)
        } else {
            format!(
                "joints[{j}] (between {a} and body {}) is not satisfied by the initial positions",
                jt.b
            )
        };
        // position rows (points coinciding, or on a sliding joint's line) in m; dot rows
        // (axes parallel or perpendicular, a weld's twist) as the angle of their sine
        let frame = crate::compiled::JointFrame::new(jt);
        let (mut gap, mut sine) = (0.0, 0.0);
        for (spec, phi) in frame.spec[..e.rows].iter().zip(&e.phi) {
            match spec {
                crate::compiled::RowSpec::Dot(..) => sine += phi * phi,
                _ => gap += phi * phi,
            }
        }
        let gap = crate::math::sqrt(gap);
        if let (crate::model::JointKind::Distance { length }, false) = (jt.kind, gap <= 1e-6) {
            let d = crate::joints::distance_at(jt, states);
            return err(format!(
                "{what}: its two points are {d:.6} m apart, not its length {length:.6} m (at most 1e-6 m off is accepted)"
            ));
        }
        if !at_most(gap, 1e-6) {
            return err(format!(
                "{what}: its two points are {gap:.3e} m apart (at most 1e-6 m is accepted)"
            ));
        }
        let s = crate::math::sqrt(sine);
        if !at_most(s, 1e-6) {
            let angle = libm::asin(s.min(1.0));
            return err(format!(
                "{what}: its axes are {angle:.3e} rad apart (at most 1e-6 rad is accepted)"
            ));
        }
        for r in 0..e.rows {
            let v = e.velocity(r, states, model);
            if v.abs() > 1e-6 {
                return err(format!("joints[{j}] (between {a} and body {}) is violated by the initial velocities: rate {v:.3e} (at most 1e-6 is accepted)", jt.b));
            }
        }
    }
    // the drives at the start: f(0) = 0 (they are measured from the start) and f'(0) the rate
    // the bodies start with
    for (i, d) in model.drives.iter().enumerate() {
        let f = crate::compiled::JointFrame::for_model(model, d.joint, Some(states));
        let e = crate::joints::evaluate_frame(&f, states, 0.0);
        let k = if d.kind == crate::model::DriveKind::Distance {
            0 // the distance joint's own row
        } else {
            model.drives[..i]
                .iter()
                .filter(|x| x.joint == d.joint && x.kind != crate::model::DriveKind::Distance)
                .count()
                + model.joints[d.joint].kind.rows()
        };
        let unit = if d.kind == crate::model::DriveKind::Angle {
            "rad"
        } else {
            "m"
        };
        if !at_most(e.phi[k].abs(), 1e-6) {
            return err(format!(
                "drives[{i}] starts at f(0) = {} {unit}, but a drive is measured from the start: f(0) must be 0",
                d.time.at(0.0)
            ));
        }
        let rate = e.velocity(k, states, model) + e.phi_t[k];
        if !at_most(rate.abs(), 1e-6) {
            return err(format!(
                "drives[{i}] prescribes the rate f'(0) = {:.6} {unit}/s at the start, which the initial velocities do not have (off by {rate:.3e}); start the bodies at that rate or use a ramp_speed time function",
                d.time.rate(0.0)
            ));
        }
    }
    Ok(())
}

/// The drives name existing joints whose coordinate they can prescribe (an angle: revolute,
/// cylindrical or planar; a slide: prismatic or cylindrical), at most one of each kind per joint, with
/// valid time functions.
pub fn check_drives(model: &Model) -> Result<(), ScenarioError> {
    use crate::model::{DriveKind, JointKind};
    for (i, d) in model.drives.iter().enumerate() {
        let Some(j) = model.joints.get(d.joint) else {
            return err(format!(
                "drives[{i}].joint: {}, so joints[{}] does not exist",
                crate::text::numbered(model.joints.len(), "joint", "joints"),
                d.joint
            ));
        };
        let ok = match d.kind {
            DriveKind::Angle => j.kind.has_angle(),
            DriveKind::Slide => matches!(
                j.kind,
                JointKind::Prismatic { .. } | JointKind::Cylindrical { .. }
            ),
            DriveKind::Distance => matches!(j.kind, JointKind::Distance { .. }),
        };
        if !ok {
            return err(format!(
                "drives[{i}]: joints[{}] is a {} joint, which has no {} to drive (angle: revolute, cylindrical or planar; slide: prismatic or cylindrical; distance: distance)",
                d.joint,
                j.kind.name(),
                match d.kind {
                    DriveKind::Angle => "angle",
                    DriveKind::Slide => "slide",
                    DriveKind::Distance => "distance",
                }
            ));
        }
        if model.drives[..i]
            .iter()
            .any(|x| x.joint == d.joint && x.kind == d.kind)
        {
            return err(format!("drives[{i}]: joints[{}] is driven twice", d.joint));
        }
        d.time
            .validate(&format!("drives[{i}].time"))
            .map_err(ScenarioError)?;
    }
    Ok(())
}

/// A distance drive keeps its length L(t) = length + f(t) positive over the run (at L = 0 the
/// rod has no direction and its row no gradient): checked at 4096 evenly spaced times of
/// [0, `duration`] and at its end.
pub fn check_distances(model: &Model, duration: f64) -> Result<(), ScenarioError> {
    use crate::model::{DriveKind, JointKind};
    for (i, d) in model.drives.iter().enumerate() {
        let JointKind::Distance { length } = model.joints[d.joint].kind else {
            continue;
        };
        if d.kind != DriveKind::Distance {
            continue;
        }
        const N: usize = 4096;
        for k in 0..=N {
            let t = duration * (k as f64 / N as f64);
            let l = length + d.time.at(t);
            if !at_most(1e-6 * length, l) {
                return err(format!(
                    "drives[{i}] makes the distance of joints[{}] {l:.6} m at t = {t:.4} s: a distance joint's length must stay positive (its start length is {length} m)",
                    d.joint
                ));
            }
        }
    }
    Ok(())
}
