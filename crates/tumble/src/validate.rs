//! The validation every scenario passes, preset or custom: physical bodies, joints that form
//! no closed loop and an initial state that satisfies them.
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

/// The joints form no closed loop and the initial state satisfies them (positions and
/// velocities to 1e-6); the message names the first joint that does not.
pub fn check_consistent(model: &Model, states: &[BodyState]) -> Result<(), ScenarioError> {
    crate::sparse::JointPattern::new(model).map_err(|e| ScenarioError(e.to_string()))?;
    for j in 0..model.joints.len() {
        let e = crate::joints::evaluate(model, j, states);
        for r in 0..e.rows {
            if e.phi[r].abs() > 1e-6 {
                return err(format!("joints[{j}] is violated by the initial positions: residual {:.3e} (at most 1e-6 is accepted)", e.phi[r]));
            }
            let v = e.velocity(r, states, model);
            if v.abs() > 1e-6 {
                return err(format!("joints[{j}] is violated by the initial velocities: rate {v:.3e} (at most 1e-6 is accepted)"));
            }
        }
    }
    Ok(())
}
