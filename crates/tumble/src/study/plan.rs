//! The runs of a study ([`Plan`], [`Spec`], [`Role`]), the grid of a long run and the
//! definitions the report states (errors, energy, estimates).
use crate::{Method, Settings};
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use glam::{DMat3, DVec3};

/// Samples per decade of the logarithmic time grid of the series.
pub const PER_DECADE: f64 = 20.0;
/// Newton tolerance of the computed reference and its check run.
pub const REFERENCE_TOL: f64 = 1e-14;
/// The reference step is the smallest H0 divided by 2^(K + REFERENCE_HALVINGS).
pub const REFERENCE_HALVINGS: i32 = 3;
/// The length that weighs rotation errors against position errors (m).
pub const LENGTH_SCALE: f64 = 1.0;
/// How the error of a run is measured (printed in every report).
pub const ERROR_DEFINITION: &str = "error = max over bodies k of max(|x_k - x_k_ref|, L ||R_k - R_k_ref||_F) at t = T, with L = 1 m (x the centre, R the rotation; error_position and error_rotation are the two parts)";
/// How the invariants of a run are measured.
pub const ENERGY_DEFINITION: &str = "max_energy_error = max over steps of |E - E0| / |E0|; momentum_drift[k] = max over steps of |l_k - l_k(0)| (kg m^2/s) for each component the model conserves (null if not); violations are max over steps";
/// How the reference's own error is estimated.
pub const ESTIMATE_DEFINITION: &str =
    "|reference-check - reference| / 3, the check run being the director at twice the reference step";
/// The long runs' time grid and growth measure.
pub const LONG_GRID: &str = "t = h round(10^(j/20)): 20 points per decade, each value the max since the previous point; energy_growth = log10 of the max energy error over the last decade of time over that of the decade before (about 0 bounded, 1 linear drift)";

/// A pose: centre x and rotation R.
pub type Pose = (DVec3, DMat3);

/// 2^k, exactly.
fn pow2(k: i32) -> f64 {
    libm::ldexp(1.0, k)
}

/// Steps of `dt` in `duration`; an error unless it is a whole number (to 1e-9).
pub fn whole_steps(duration: f64, dt: f64) -> Result<u64, String> {
    let n = libm::round(duration / dt);
    if (n * dt - duration).abs() > 1e-9 * duration.max(dt) {
        return Err(format!(
            "the duration {duration} s is not a whole number of steps of h = {dt:e} s"
        ));
    }
    Ok(n as u64)
}

/// The grid step numbers 1, then round(10^(j/20)) while below `steps`, then `steps`.
pub fn log_grid(steps: u64) -> Vec<u64> {
    let mut g: Vec<u64> = vec![];
    let mut j = 0.0;
    loop {
        let n = libm::round(libm::pow(10.0, j / PER_DECADE)) as u64;
        if n >= steps {
            break;
        }
        if g.last() != Some(&n) {
            g.push(n);
        }
        j += 1.0;
    }
    if steps > 0 {
        g.push(steps);
    }
    g
}

/// The role of one run in a study.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Role {
    /// the computed reference
    Reference,
    /// the reference method at twice the reference step: its difference estimates the
    /// reference's own error (Richardson, order 2)
    ReferenceCheck,
    /// integrator i (index into [`Plan::methods`]) at level l (h = H0 / 2^l)
    Level(usize, usize),
    /// integrator i over the long horizon at H0
    Long(usize),
}

/// One run of a study.
#[derive(Clone, Debug, PartialEq)]
pub struct Spec {
    /// what the run is for
    pub role: Role,
    /// the integrator
    pub method: Method,
    /// its settings (the step among them)
    pub settings: Settings,
    /// simulated time to run (s)
    pub duration: f64,
}

impl Spec {
    /// The run's name (its output file's, without .json, for `tumble study --plan`).
    pub fn name(&self) -> String {
        match self.role {
            Role::Reference => "reference".into(),
            Role::ReferenceCheck => "reference-check".into(),
            Role::Level(_, l) => format!("level-{}-{l}", self.method.name()),
            Role::Long(_) => format!("long-{}", self.method.name()),
        }
    }

    /// Steps the run takes (duration / dt, a whole number by construction).
    pub fn steps(&self) -> u64 {
        libm::round(self.duration / self.settings.dt) as u64
    }
}

/// The runs of a study: each integrator at h = H0, H0/2, ... H0/2^(K-1) to T, one long run per
/// integrator at H0 (when T_LONG > 0), and the reference with its check run (unless the
/// reference comes from elsewhere).
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// the integrators, in the order asked for
    pub methods: Vec<Method>,
    /// H0 of each integrator (s)
    pub h0: Vec<f64>,
    /// K
    pub levels: usize,
    /// T (s)
    pub duration: f64,
    /// T_LONG (s), 0 for none
    pub long: f64,
    /// every run, per integrator its levels then its long run, then the reference and its check
    pub specs: Vec<Spec>,
}

impl Plan {
    /// The plan for `methods` with their base settings `bases` (H0 = `bases[i].dt`), and
    /// `reference` the reference method's base settings (None: the reference comes from a
    /// file). The reference runs at min H0 / 2^(K+3) with tolerance [`REFERENCE_TOL`]. Errors
    /// name the level, or the duration that is not a whole number of steps.
    pub fn new(
        methods: &[Method],
        bases: &[Settings],
        reference: Option<Settings>,
        levels: usize,
        duration: f64,
        long: f64,
    ) -> Result<Plan, String> {
        if methods.is_empty() || methods.len() != bases.len() {
            return Err("a study needs at least one integrator".into());
        }
        if !(1..=16).contains(&levels) {
            return Err(format!(
                "the number of levels must be from 1 to 16, not {levels}"
            ));
        }
        if !(duration > 0.0 && duration <= 1e6) {
            return Err(format!(
                "the duration T must be above 0 and at most 1e6 s, not {duration}"
            ));
        }
        if !(0.0..=1e6).contains(&long) {
            return Err(format!(
                "the long horizon must be between 0 (none) and 1e6 s, not {long}"
            ));
        }
        let mut specs = vec![];
        let mut h0 = vec![];
        for (i, (&m, base)) in methods.iter().zip(bases).enumerate() {
            h0.push(base.dt);
            for l in 0..levels {
                let settings = Settings {
                    dt: base.dt / pow2(l as i32),
                    ..*base
                };
                settings
                    .validate()
                    .map_err(|e| format!("{} level {l}: {e}", m.name()))?;
                whole_steps(duration, settings.dt)?;
                specs.push(Spec {
                    role: Role::Level(i, l),
                    method: m,
                    settings,
                    duration,
                });
            }
            if long > 0.0 {
                whole_steps(long, base.dt)?;
                specs.push(Spec {
                    role: Role::Long(i),
                    method: m,
                    settings: *base,
                    duration: long,
                });
            }
        }
        if let Some(base) = reference {
            let h = h0.iter().copied().fold(f64::INFINITY, f64::min)
                / pow2(levels as i32 + REFERENCE_HALVINGS);
            for (role, dt) in [(Role::Reference, h), (Role::ReferenceCheck, 2.0 * h)] {
                let settings = Settings {
                    dt,
                    tol: REFERENCE_TOL,
                    ..base
                };
                settings
                    .validate()
                    .map_err(|e| format!("the reference step H0/2^(K+3) is too small: {e}"))?;
                whole_steps(duration, dt)?;
                specs.push(Spec {
                    role,
                    method: Method::Director,
                    settings,
                    duration,
                });
            }
        }
        Ok(Plan {
            methods: methods.to_vec(),
            h0,
            levels,
            duration,
            long,
            specs,
        })
    }

    /// The index of the run with `role`.
    pub fn find(&self, role: Role) -> Option<usize> {
        self.specs.iter().position(|p| p.role == role)
    }
}
