//! One entry point for all three integrators: `Simulation::step` matches on the [`Method`].
use crate::invariants::{self, Invariants};
use crate::model::{BodyState, Model};
use crate::scenario::Scenario;
use crate::step::{Settings, StepError, StepInfo};
use crate::{baumgarte, director, rattle};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

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

impl Settings {
    /// Default settings for a scenario.
    pub fn for_scenario(s: &Scenario) -> Settings {
        Settings {
            dt: s.dt,
            tol: 1e-12,
            max_iter: 30,
            alpha: 10.0,
            beta: 10.0,
        }
    }
}

enum Solver {
    Director(director::Director),
    Rattle(rattle::Rattle),
    Baumgarte(baumgarte::Baumgarte),
}

/// A running simulation: model, settings, the method's own state, and the body states.
pub struct Simulation {
    model: Model,
    settings: Settings,
    method: Method,
    solver: Solver,
    t: f64,
    steps: u64,
    last: StepInfo,
    states: Vec<BodyState>,
}

impl Simulation {
    /// Start `scenario` with `method` and `settings`.
    pub fn new(
        scenario: &Scenario,
        method: Method,
        settings: Settings,
    ) -> Result<Simulation, String> {
        settings.validate()?;
        let model = scenario.model.clone();
        let init = &scenario.initial;
        let solver = match method {
            Method::Director => Solver::Director(director::Director::new(&model, init)?),
            Method::Rattle => Solver::Rattle(rattle::Rattle::new(&model, init)?),
            Method::Baumgarte => Solver::Baumgarte(baumgarte::Baumgarte::new(&model, init)?),
        };
        let mut sim = Simulation {
            model,
            settings,
            method,
            solver,
            t: 0.0,
            steps: 0,
            last: StepInfo::default(),
            states: init.clone(),
        };
        sim.refresh();
        Ok(sim)
    }

    fn refresh(&mut self) {
        match &self.solver {
            Solver::Director(s) => s.body_states(&self.model, &mut self.states),
            Solver::Rattle(s) => s.body_states(&self.model, &mut self.states),
            Solver::Baumgarte(s) => s.body_states(&self.model, &mut self.states),
        }
    }

    /// Advance one step of `settings.dt`. On error nothing changes.
    pub fn step(&mut self) -> Result<StepInfo, StepError> {
        let info = match &mut self.solver {
            Solver::Director(s) => s.step(&self.model, &self.settings),
            Solver::Rattle(s) => s.step(&self.model, &self.settings),
            Solver::Baumgarte(s) => s.step(&self.model, &self.settings),
        }?;
        self.steps += 1;
        self.t += self.settings.dt;
        self.last = info;
        self.refresh();
        Ok(info)
    }

    /// Change the time step from now on (e.g. to continue with a smaller step after a failed
    /// one). The state is the same for any step, so the run continues from where it stands.
    pub fn set_dt(&mut self, dt: f64) -> Result<(), String> {
        let s = Settings {
            dt,
            ..self.settings
        };
        s.validate()?;
        self.settings = s;
        Ok(())
    }

    /// Change the Baumgarte gains alpha and beta from now on (validated like [`Settings`]).
    pub fn set_gains(&mut self, alpha: f64, beta: f64) -> Result<(), String> {
        let s = Settings {
            alpha,
            beta,
            ..self.settings
        };
        s.validate()?;
        self.settings = s;
        Ok(())
    }

    /// The model.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The method.
    pub fn method(&self) -> Method {
        self.method
    }

    /// Simulated time (steps x dt).
    pub fn time(&self) -> f64 {
        self.t
    }

    /// Steps taken.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Body states after the last step.
    pub fn states(&self) -> &[BodyState] {
        &self.states
    }

    /// Energy, momentum, constraint residuals and Newton figures of the current state.
    pub fn invariants(&self) -> Invariants {
        let mut inv = invariants::measure(&self.model, &self.states, self.t);
        inv.internal_violation = match &self.solver {
            Solver::Director(s) => s.internal_violation(),
            Solver::Rattle(_) | Solver::Baumgarte(_) => self
                .states
                .iter()
                .map(|s| crate::math::orthonormality_error(&s.r))
                .fold(0.0, f64::max),
        };
        inv.iterations = self.last.iterations;
        inv.residual = self.last.residual;
        inv
    }

    /// A hash of the exact bits of the state (for determinism checks and share links).
    pub fn state_hash(&self) -> u64 {
        // FNV-1a over the f64 bit patterns
        let mut h: u64 = 0xcbf29ce484222325;
        let mut eat = |x: f64| {
            for b in x.to_bits().to_le_bytes() {
                h ^= b as u64;
                h = h.wrapping_mul(0x100000001b3);
            }
        };
        eat(self.t);
        for s in &self.states {
            for v in [s.x, s.v, s.w, s.r.x_axis, s.r.y_axis, s.r.z_axis] {
                eat(v.x);
                eat(v.y);
                eat(v.z);
            }
        }
        h
    }
}
