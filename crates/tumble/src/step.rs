//! The types every integrator shares: run settings, what a step cost, why it failed, and the
//! Newton stopping rule. A leaf module: it imports nothing from the crate.
use alloc::format;
use alloc::string::String;
use core::fmt;

/// Run settings. Defaults: `dt` from the scenario, `tol` = 1e-12, `max_iter` = 30,
/// `alpha` = `beta` = 10 (Baumgarte only; see baumgarte.rs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// time step h (s), 1e-6 ..= 1
    pub dt: f64,
    /// Newton tolerance on the residual max-norm, 1e-14 ..= 1e-3 (the director method holds it
    /// above the round-off of its largest terms, 4 eps max|q, p|)
    pub tol: f64,
    /// Newton iteration limit per step, 1 ..= 200
    pub max_iter: u32,
    /// Baumgarte velocity gain alpha (1/s), 0 ..= 1e4
    pub alpha: f64,
    /// Baumgarte position gain beta (1/s), 0 ..= 1e4
    pub beta: f64,
}

impl Settings {
    /// Check every field against its documented range; the message names the field.
    pub fn validate(&self) -> Result<(), String> {
        let check = |name: &str, v: f64, lo: f64, hi: f64| {
            if v.is_finite() && v >= lo && v <= hi {
                Ok(())
            } else {
                Err(format!("{name} must be between {lo:e} and {hi:e}, not {v}"))
            }
        };
        check("dt", self.dt, 1e-6, 1.0)?;
        check("tol", self.tol, 1e-14, 1e-3)?;
        check("max_iter", self.max_iter as f64, 1.0, 200.0)?;
        check("alpha", self.alpha, 0.0, 1e4)?;
        check("beta", self.beta, 0.0, 1e4)
    }
}

/// What one step cost.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepInfo {
    /// Newton iterations (0 for explicit steps)
    pub iterations: u32,
    /// final residual max-norm
    pub residual: f64,
}

/// The Newton stopping rule shared by the implicit methods: `Ok(true)` when `residual` is
/// within the tolerance, `Ok(false)` to iterate again, an error when it is not finite or the
/// iteration limit is reached.
pub fn newton_converged(
    residual: f64,
    iterations: u32,
    settings: &Settings,
) -> Result<bool, StepError> {
    if !residual.is_finite() {
        Err(StepError::NonFinite)
    } else if residual <= settings.tol {
        Ok(true)
    } else if iterations >= settings.max_iter {
        Err(StepError::NoConvergence {
            iterations,
            residual,
        })
    } else {
        Ok(false)
    }
}

/// Why a step failed. The state is left at the last good step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum StepError {
    /// Newton did not reach the tolerance within the iteration limit.
    NoConvergence {
        /// iterations done
        iterations: u32,
        /// residual reached
        residual: f64,
    },
    /// The new state has a NaN or infinite value.
    NonFinite,
    /// A linear system was singular (redundant or degenerate joints).
    Singular,
}

impl fmt::Display for StepError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StepError::NoConvergence { iterations, residual } => write!(
                f,
                "the Newton solve did not converge: residual {residual:.3e} after {iterations} iterations; try a smaller time step"
            ),
            StepError::NonFinite => f.write_str("the state became non-finite (NaN or infinity); try a smaller time step"),
            StepError::Singular => f.write_str("a singular linear system: the joints are redundant or degenerate in this configuration"),
        }
    }
}
