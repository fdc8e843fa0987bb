//! The types every integrator shares: the integration method, run settings, what a step cost, why it failed, and the
//! Newton stopping rule. A leaf module: it imports nothing from the crate.
use alloc::format;
use alloc::string::String;
use core::fmt;

/// The integration method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Energy-momentum director integrator (Nielsen & Krenk 2013).
    Director,
    /// Lie-group RATTLE / Stormer-Verlet (Terze, Mueller & Zlatar 2013).
    Rattle,
    /// Index-1 acceleration form with Baumgarte stabilisation (STAR-CCM+ text).
    Baumgarte,
}

impl Method {
    /// All methods, in display order.
    pub const ALL: [Method; 3] = [Method::Director, Method::Rattle, Method::Baumgarte];

    /// Name used on the command line, in the wasm API and in links.
    pub fn name(self) -> &'static str {
        match self {
            Method::Director => "director",
            Method::Rattle => "rattle",
            Method::Baumgarte => "baumgarte",
        }
    }

    /// Parse a method name.
    pub fn parse(s: &str) -> Result<Method, String> {
        Method::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| {
                format!("unknown integrator '{s}'; choose director, rattle or baumgarte")
            })
    }
}

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
                Err(format!(
                    "{name} must be between {} and {}, not {}",
                    crate::text::Num(lo),
                    crate::text::Num(hi),
                    crate::text::Num(v)
                ))
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

/// The tolerance an implicit method holds: `tol`, but at least 4 eps `scale`, with `scale` the
/// largest magnitude among the terms of its residual. Below the round-off of those terms a
/// residual cannot be brought (a 4096-link chain has positions of 1e4, so its joint residuals
/// stall at a few 1e-12 whatever the iteration does).
pub fn effective_tol(tol: f64, scale: f64) -> f64 {
    tol.max(4.0 * f64::EPSILON * scale)
}

/// The Newton stopping rule shared by the implicit methods: `Ok(true)` when `residual` is
/// within `tol` (see [`effective_tol`]), `Ok(false)` to iterate again, an error when it is not
/// finite or the iteration limit `settings.max_iter` is reached (saying whether the residual
/// was still falling, from the residuals `trend` has seen).
pub fn newton_converged(
    residual: f64,
    iterations: u32,
    tol: f64,
    settings: &Settings,
    trend: &mut Trend,
) -> Result<bool, StepError> {
    trend.push(residual);
    if !residual.is_finite() {
        Err(StepError::NonFinite)
    } else if residual <= tol {
        Ok(true)
    } else if iterations >= settings.max_iter {
        Err(StepError::NoConvergence {
            iterations,
            residual,
            tol,
            falling: trend.falling(),
        })
    } else {
        Ok(false)
    }
}

/// How many iterations [`Trend`] compares with the ones before them.
const RUN: usize = 5;

/// The last `2 RUN` residuals of one step's Newton iteration, to tell a slow iteration from
/// one that has stopped: at the limit the advice differs (more iterations, or not).
#[derive(Clone, Copy, Debug, Default)]
pub struct Trend {
    last: [f64; 2 * RUN],
    seen: usize,
}

impl Trend {
    /// Note one iteration's residual.
    pub fn push(&mut self, residual: f64) {
        self.last[self.seen % (2 * RUN)] = residual;
        self.seen += 1;
    }

    /// Whether the residual is still falling: the best of the last `RUN` below half the best
    /// of the `RUN` before them (Newton converging, even linearly at a rate down to 0.87, does
    /// that; one that wanders or cycles does not). True while fewer than `2 RUN` are known.
    pub fn falling(&self) -> bool {
        if self.seen < 2 * RUN {
            return true;
        }
        let (mut recent, mut before) = (f64::INFINITY, f64::INFINITY);
        for k in 0..2 * RUN {
            let r = self.last[(self.seen - 1 - k) % (2 * RUN)]; // k = 0: the latest
            if k < RUN {
                recent = recent.min(r);
            } else {
                before = before.min(r);
            }
        }
        recent < 0.5 * before
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
        /// the tolerance held (the setting, or the round-off floor of [`effective_tol`])
        tol: f64,
        /// whether the residual was still falling over the last iterations ([`Trend`])
        falling: bool,
    },
    /// The new state has a NaN or infinite value.
    NonFinite,
    /// The joint-space matrix was singular: the joints are redundant or degenerate.
    Singular,
    /// The joint-space matrix was singular during Newton's iterations although it is regular
    /// at the step's start: the iterates ran away, the step is too large for the motion.
    TooLarge,
    /// A body's own Newton tangent was singular to working precision (no joint involved).
    BodySingular {
        /// the body
        body: usize,
        /// the angle it turns in one step, |omega| h (rad)
        turn: f64,
    },
    /// RATTLE's rotation update of a body (Terze et al. eq. 9, solved by Newton in the Lie
    /// algebra) did not converge.
    Rotation {
        /// the body
        body: usize,
        /// the residual reached
        residual: f64,
        /// the angle it turns in one step, |omega| h (rad)
        turn: f64,
    },
}

/// Advice when a body turns far in one step.
fn turn_advice(f: &mut fmt::Formatter<'_>, turn: f64) -> fmt::Result {
    if turn > 1.0 {
        write!(
            f,
            ": it turns {turn:.1e} rad in one step; a smaller time step will help"
        )
    } else {
        write!(f, " (it turns {turn:.1e} rad in one step)")
    }
}

impl fmt::Display for StepError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            StepError::NoConvergence { iterations, residual, tol, falling } => {
                write!(f, "Newton did not converge: residual {residual:.3e} after {iterations} iterations (tolerance {tol:.1e})")?;
                if residual > 1e3 * tol {
                    f.write_str("; try a smaller time step")
                } else if falling {
                    f.write_str("; it was still converging: more iterations (max_iter) or a larger tolerance will do")
                } else {
                    f.write_str("; its residual had stopped falling (more iterations will not help): a larger tolerance may carry the run past this step, and another method (director, RATTLE, Baumgarte), whose Newton solves other equations, may run where this one does not")
                }
            }
            StepError::NonFinite => f.write_str("the state became non-finite (NaN or infinity); try a smaller time step"),
            StepError::Singular => f.write_str("the joint-space system is singular: the joints are redundant or degenerate in this configuration"),
            StepError::TooLarge => f.write_str("the step is too large for the motion: the joints are sound at the step's start, but Newton's iterates ran away to where the joint-space system is singular; try a smaller time step h"),
            StepError::BodySingular { body, turn } => {
                write!(f, "the Newton tangent of body {body} is singular to working precision")?;
                turn_advice(f, turn)
            }
            StepError::Rotation { body, residual, turn } => {
                write!(f, "the rotation update of body {body} did not converge (residual {residual:.1e})")?;
                turn_advice(f, turn)
            }
        }
    }
}
