//! The force elements' checks at the start of a run: indices, finite coefficients in range,
//! the joints the elements need, the stops' bounds. Each message names the element and the
//! field.
use super::frame::{end, point};
use super::limits::DEFAULT_HZ;
use crate::math::length;
use crate::model::{BodyState, ForceElement, JointKind, LimitKind, Model};
use crate::text::{numbered, Num};
use alloc::format;
use alloc::string::String;
use glam::DVec3;

/// Largest stiffness (N/m or N m/rad) and damping (N s/m or N m s/rad) accepted.
pub const MAX_COEFFICIENT: f64 = 1e12;

/// Check every element of `model` at the initial states: indices, finite non-negative
/// coefficients, revolute joints for joint springs and motors, a spring whose points do not
/// coincide when its rest length is not zero. The message names the element and the field.
pub fn validate(model: &Model, init: &[BodyState]) -> Result<(), String> {
    let ck = &Checks { model };
    for i in 0..model.tendons.len() {
        ck.tendon_terms(i)?;
    }
    for (i, f) in model.forces.iter().enumerate() {
        let name = format!("forces[{i}]");
        let name = name.as_str();
        element(ck, name, f, init)?;
    }
    Ok(())
}

/// Check element `f`, named `name` (see [`validate`]).
fn element(ck: &Checks, name: &str, f: &ForceElement, init: &[BodyState]) -> Result<(), String> {
    match *f {
        ForceElement::Spring {
            a,
            point_a,
            b,
            point_b,
            stiffness,
            rest_length,
            damping,
        } => spring(
            ck,
            name,
            (a, point_a, b, point_b),
            (stiffness, rest_length, damping),
            init,
        )?,
        ForceElement::JointSpring {
            joint,
            stiffness,
            rest_angle,
            damping,
        } => {
            ck.revolute(name, joint)?;
            coefficient(name, "stiffness", stiffness)?;
            coefficient(name, "damping", damping)?;
            if !(rest_angle.is_finite() && rest_angle.abs() <= 1e6) {
                return Err(format!(
                    "{name}.rest_angle must be finite and at most 1e6 rad in size, not {rest_angle}"
                ));
            }
        }
        ForceElement::SliderSpring {
            joint,
            slide,
            stiffness,
            rest_slide,
            damping,
        } => slider(ck, name, (joint, slide), (stiffness, rest_slide, damping))?,
        ForceElement::Limit {
            joint,
            kind,
            slide,
            lower,
            upper,
            stiffness,
            restitution,
        } => limit(
            ck,
            name,
            (joint, kind, slide),
            (lower, upper, stiffness, restitution),
        )?,
        ForceElement::Force { .. }
        | ForceElement::Torque { .. }
        | ForceElement::Motor { .. }
        | ForceElement::SliderMotor { .. }
        | ForceElement::TendonMotor { .. } => load(ck, name, f)?,
        ForceElement::TendonLimit {
            tendon,
            lower,
            upper,
            stiffness,
            restitution,
        } => {
            ck.tendon(name, tendon)?;
            bounds(
                name,
                "(the tendon's unit)",
                (lower, upper, stiffness, restitution),
            )?;
        }
        ForceElement::Rope { .. } => rope(ck, name, f, init)?,
        ForceElement::TendonArmature { tendon, armature } => {
            ck.tendon(name, tendon)?;
            coefficient(name, "armature", armature)?;
        }
        ForceElement::TendonSpring {
            tendon,
            stiffness,
            rest_length,
            damping,
        } => {
            ck.tendon(name, tendon)?;
            coefficient(name, "stiffness", stiffness)?;
            coefficient(name, "damping", damping)?;
            if !(rest_length.is_finite() && rest_length.abs() <= 1e6) {
                return Err(format!(
                    "{name}.rest_length must be finite and at most 1e6 in size, not {}",
                    Num(rest_length)
                ));
            }
        }
    }

    Ok(())
}

/// Check a load: a force or torque on a body, a motor about a joint's axis or along its slide,
/// each with its time function.
fn load(ck: &Checks, name: &str, f: &ForceElement) -> Result<(), String> {
    match *f {
        ForceElement::Force {
            body: b,
            point: s,
            force,
            time,
        } => {
            ck.body(name, "body", b)?;
            finite(name, "point", s, 1e9)?;
            finite(name, "force", force, MAX_COEFFICIENT)?;
            time.validate(&format!("{name}.time"))?;
        }
        ForceElement::Torque {
            body: b,
            torque,
            time,
        } => {
            ck.body(name, "body", b)?;
            finite(name, "torque", torque, MAX_COEFFICIENT)?;
            time.validate(&format!("{name}.time"))?;
        }
        ForceElement::Motor {
            joint,
            torque,
            time,
        } => {
            ck.revolute(name, joint)?;
            if !(torque.is_finite() && torque.abs() <= MAX_COEFFICIENT) {
                return Err(format!(
                    "{name}.torque must be finite and at most {} N m in size, not {}",
                    Num(MAX_COEFFICIENT),
                    Num(torque)
                ));
            }
            time.validate(&format!("{name}.time"))?;
        }
        ForceElement::SliderMotor {
            joint,
            slide,
            force,
            time,
        } => {
            ck.slide(name, joint, slide, "a slider motor pushes along")?;
            if !(force.is_finite() && force.abs() <= MAX_COEFFICIENT) {
                return Err(format!(
                    "{name}.force must be finite and at most {} N in size, not {}",
                    Num(MAX_COEFFICIENT),
                    Num(force)
                ));
            }
            time.validate(&format!("{name}.time"))?;
        }
        ForceElement::TendonMotor {
            tendon,
            force,
            time,
        } => {
            ck.tendon(name, tendon)?;
            if !(force.is_finite() && force.abs() <= MAX_COEFFICIENT) {
                return Err(format!(
                    "{name}.force must be finite and at most {} in size, not {}",
                    Num(MAX_COEFFICIENT),
                    Num(force)
                ));
            }
            time.validate(&format!("{name}.time"))?;
        }
        _ => {}
    }
    Ok(())
}

/// What the checks share: the model.
struct Checks<'a> {
    model: &'a Model,
}

/// A coefficient: finite, between 0 and [`MAX_COEFFICIENT`].
fn coefficient(name: &str, field: &str, v: f64) -> Result<(), String> {
    if v.is_finite() && (0.0..=MAX_COEFFICIENT).contains(&v) {
        Ok(())
    } else {
        Err(format!(
            "{name}.{field} must be between 0 and {}, not {}",
            Num(MAX_COEFFICIENT),
            Num(v)
        ))
    }
}

/// A vector: finite, each component at most `max` in size.
fn finite(name: &str, field: &str, v: DVec3, max: f64) -> Result<(), String> {
    if v.is_finite() && v.abs().max_element() <= max {
        Ok(())
    } else {
        Err(format!(
            "{name}.{field} must hold finite numbers of magnitude at most {}, not {:?}",
            Num(max),
            v.to_array()
        ))
    }
}

impl Checks<'_> {
    /// A tendon index (a tendon element's).
    fn tendon(&self, name: &str, t: usize) -> Result<(), String> {
        let n = self.model.tendons.len();
        if t < n {
            return Ok(());
        }
        Err(format!(
            "{name}.tendon: {}, so tendons[{t}] does not exist",
            numbered(n, "tendon", "tendons")
        ))
    }

    /// Tendon `i`'s terms: 1 to `MAX_TERMS` of them, each an existing joint's angle (a
    /// revolute, cylindrical or planar joint) or slide, with a finite coefficient of at most
    /// 1e6 in size.
    fn tendon_terms(&self, i: usize) -> Result<(), String> {
        let terms = &self.model.tendons[i].terms;
        let max = crate::forces::tendons::MAX_TERMS;
        if terms.is_empty() || terms.len() > max {
            return Err(format!(
                "tendons[{i}].terms: a tendon takes 1 to {max} terms, not {}",
                terms.len()
            ));
        }
        for (j, x) in terms.iter().enumerate() {
            let name = format!("tendons[{i}].terms[{j}]");
            let kind = self.joint(&name, x.joint)?;
            let hinges = match kind {
                JointKind::Universal { .. } => 2,
                JointKind::Gimbal { .. } => 3,
                _ => usize::from(kind.has_angle()),
            };
            if x.kind == LimitKind::Slide {
                self.slide(
                    &name,
                    x.joint,
                    x.index,
                    "a tendon term with \"slide\" takes",
                )?;
            } else if hinges == 0 {
                return Err(format!(
                    "{name}: joints[{}] is a {} joint, which has no angle; a term without \"slide\" takes a hinge's angle: of a revolute, cylindrical, planar, universal or gimbal joint (give \"slide\": 0 for its slide)",
                    x.joint,
                    kind.name()
                ));
            } else if x.index >= hinges {
                return Err(format!(
                    "{name}.hinge: joints[{}] is a {} joint: {}, so hinge {} does not exist",
                    x.joint,
                    kind.name(),
                    numbered(hinges, "hinge", "hinges"),
                    x.index
                ));
            }
            if !(x.coef.is_finite() && x.coef.abs() <= 1e6) {
                return Err(format!(
                    "{name}.coef must be finite and at most 1e6 in size, not {}",
                    Num(x.coef)
                ));
            }
        }
        Ok(())
    }

    /// A body index.
    fn body(&self, name: &str, field: &str, b: usize) -> Result<(), String> {
        let n = self.model.bodies.len();
        if b < n {
            Ok(())
        } else {
            Err(format!(
                "{name}.{field}: {}, so body {b} does not exist",
                numbered(n, "body", "bodies")
            ))
        }
    }

    /// Joint `joint`, which must exist.
    fn joint(&self, name: &str, joint: usize) -> Result<&JointKind, String> {
        self.model
            .joints
            .get(joint)
            .map(|j| &j.kind)
            .ok_or_else(|| {
                format!(
                    "{name}.joint: {}, so joints[{joint}] does not exist",
                    numbered(self.model.joints.len(), "joint", "joints")
                )
            })
    }

    /// A revolute, cylindrical or planar joint's index (a joint spring's, a motor's).
    fn revolute(&self, name: &str, joint: usize) -> Result<(), String> {
        let kind = self.joint(name, joint)?;
        if kind.has_angle() {
            return Ok(());
        }
        Err(format!(
            "{name}.joint: joints[{joint}] is a {} joint; joint springs and motors act about the axis of a revolute, cylindrical or planar joint",
            kind.name()
        ))
    }

    /// Slide `slide` of joint `joint` (a slider spring's, limit's or motor's; `what` says
    /// what the element does along it).
    fn slide(&self, name: &str, joint: usize, slide: usize, what: &str) -> Result<(), String> {
        let kind = self.joint(name, joint)?;
        if kind.slide_axis(slide).is_some() {
            return Ok(());
        }
        if kind.slide_axis(0).is_some() {
            let n = (0..3).filter(|&k| kind.slide_axis(k).is_some()).count();
            return Err(format!(
                "{name}.slide: joints[{joint}] is a {} joint: {}, so slide {slide} does not exist",
                kind.name(),
                numbered(n, "slide", "slides")
            ));
        }
        Err(format!(
            "{name}.joint: joints[{joint}] is a {} joint; {what} a prismatic, cylindrical, planar, planar_slide or translation joint's slide",
            kind.name()
        ))
    }
}

/// A spring-damper: its bodies, points, coefficients, rest length, and points apart at the
/// start when its rest length is not zero.
fn spring(
    ck: &Checks,
    name: &str,
    (a, point_a, b, point_b): (Option<usize>, DVec3, usize, DVec3),
    (stiffness, rest_length, damping): (f64, f64, f64),
    init: &[BodyState],
) -> Result<(), String> {
    ck.body(name, "b", b)?;
    if let Some(a) = a {
        ck.body(name, "a", a)?;
        if a == b {
            return Err(format!("{name} connects body {b} to itself"));
        }
    }
    finite(name, "point_a", point_a, 1e9)?;
    finite(name, "point_b", point_b, 1e9)?;
    coefficient(name, "stiffness", stiffness)?;
    coefficient(name, "damping", damping)?;
    if !(rest_length.is_finite() && (0.0..=1e9).contains(&rest_length)) {
        return Err(format!(
            "{name}.rest_length must be between 0 and 1e9 m, not {}",
            Num(rest_length)
        ));
    }
    let l = length(point(init, b, point_b) - end(init, a, point_a));
    if rest_length > 0.0 && l < 1e-9 {
        return Err(format!(
            "{name}: its two points coincide at the start (0 m apart) while its rest length is {rest_length} m, so the direction of its force is undefined; move a point or set rest_length to 0"
        ));
    }
    Ok(())
}

/// A rope: its bodies and points (as a spring's), a length above 0 that its points are no
/// further apart than at the start, its stop's stiffness and restitution.
fn rope(ck: &Checks, name: &str, f: &ForceElement, init: &[BodyState]) -> Result<(), String> {
    let ForceElement::Rope {
        a,
        point_a,
        b,
        point_b,
        length: len,
        stiffness,
        restitution,
    } = *f
    else {
        return Ok(());
    };
    spring(ck, name, (a, point_a, b, point_b), (0.0, 0.0, 0.0), init)?;
    let l0 = length(point(init, b, point_b) - end(init, a, point_a));
    if !(len > 0.0 && len <= 1e9 && l0 <= len * (1.0 + 1e-12)) {
        return Err(format!(
            "{name}: its points are {} m apart at the start, more than its length {} m; a rope starts slack or just taut",
            Num(l0),
            Num(len)
        ));
    }
    stop_law(name, stiffness, restitution)
}

/// A slider spring: a joint with that slide, its coefficients and rest slide.
fn slider(
    ck: &Checks,
    name: &str,
    (joint, slide): (usize, usize),
    (stiffness, rest_slide, damping): (f64, f64, f64),
) -> Result<(), String> {
    ck.slide(name, joint, slide, "a slider spring acts along")?;
    coefficient(name, "stiffness", stiffness)?;
    coefficient(name, "damping", damping)?;
    if !(rest_slide.is_finite() && rest_slide.abs() <= 1e9) {
        return Err(format!(
            "{name}.rest_slide must be finite and at most 1e9 m in size, not {rest_slide}"
        ));
    }
    Ok(())
}

/// Check a limit: the joint exists and has the coordinate, lower <= 0 <= upper, lower < upper,
/// the stiffness and restitution in range.
fn limit(
    ck: &Checks,
    name: &str,
    (joint, kind, slide): (usize, LimitKind, usize),
    (lower, upper, stiffness, e): (f64, f64, f64, f64),
) -> Result<(), String> {
    let j = ck.joint(name, joint)?;
    let unit = match kind {
        LimitKind::Angle if !j.has_angle() => {
            return Err(format!(
                "{name}.joint: joints[{joint}] is a {} joint; an angle limit bounds a revolute, cylindrical or planar joint's angle",
                j.name()
            ))
        }
        LimitKind::Angle => "rad",
        LimitKind::Slide => {
            ck.slide(name, joint, slide, "a slide limit bounds")?;
            "m"
        }
    };
    bounds(name, unit, (lower, upper, stiffness, e))
}

/// A limit's bounds (in `unit`, from the start), stiffness and restitution.
fn bounds(
    name: &str,
    unit: &str,
    (lower, upper, stiffness, e): (f64, f64, f64, f64),
) -> Result<(), String> {
    if !(lower.is_finite()
        && upper.is_finite()
        && lower <= 0.0
        && upper >= 0.0
        && lower < upper
        && upper - lower <= 1e6)
    {
        return Err(format!(
            "{name}: lower ({}) and upper ({}) must bound the start, lower <= 0 <= upper {unit} (measured from the start), with lower < upper",
            Num(lower), Num(upper)
        ));
    }
    stop_law(name, stiffness, e)
}

/// A stop's stiffness and restitution (a limit's, a rope's).
fn stop_law(name: &str, stiffness: f64, e: f64) -> Result<(), String> {
    if !(stiffness.is_finite() && (0.0..=MAX_COEFFICIENT).contains(&stiffness)) {
        return Err(format!("{name}.stiffness must be between 0 (the default: a stop that rings at {DEFAULT_HZ} Hz) and {}, not {}", Num(MAX_COEFFICIENT), Num(stiffness)));
    }
    if !(e.is_finite() && (0.01..=1.0).contains(&e)) {
        return Err(format!(
            "{name}.restitution must be between 0.01 and 1, not {}",
            Num(e)
        ));
    }
    Ok(())
}
