//! One run of a study, measured after every step: [`Run`] and its [`Record`].
use super::plan::*;
use crate::invariants::conserved_momentum;
use crate::model::BodyState;
use crate::Scenario;
use crate::{math, Method, Settings, Simulation, StepError, StepInfo};
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;

/// What one run measured.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// the scenario's canonical text
    pub scenario: String,
    /// the integrator's name
    pub integrator: String,
    /// the run's settings
    pub settings: Settings,
    /// simulated time asked for (s)
    pub duration: f64,
    /// steps asked for (round(duration / dt))
    pub steps: u64,
    /// steps taken
    pub steps_done: u64,
    /// why the run stopped early (a failed step or a non-finite energy)
    pub failed: Option<String>,
    /// time of the final state (steps_done x dt, summed as the simulation does)
    pub t: f64,
    /// the final state of every body
    pub bodies: Vec<Pose>,
    /// max over the steps of |E - E0| / |E0| (|E - E0| when E0 = 0)
    pub max_energy_error: f64,
    /// max over the steps of |l_k - l_k(0)| for each conserved component (None if not conserved)
    pub momentum_drift: [Option<f64>; 3],
    /// max over the steps of the joint residual |Phi| (m)
    pub max_joint_violation: f64,
    /// max over the steps of the internal violation (dimensionless)
    pub max_internal_violation: f64,
    /// Newton iterations per step (0 for the explicit Baumgarte step)
    pub mean_iterations: f64,
    /// time spent stepping, measured by the caller (s)
    pub wall_seconds: f64,
    /// logarithmic time grid: [t, energy error, joint violation, internal violation], each the
    /// max over the steps since the previous grid point
    pub series: Vec<[f64; 4]>,
}

/// One run in progress: the simulation and what has been measured so far. Stepping and
/// measuring allocate nothing (the grid, the series and a state buffer are allocated at the
/// start), so a caller may time the steps however it likes.
pub struct Run {
    sim: Option<Simulation>,
    rec: Record,
    e0: f64,
    scale: f64,
    l0: [f64; 3],
    conserved: [bool; 3],
    drift: [f64; 3],
    grid: Vec<u64>,
    g: usize,
    window: [f64; 3],
    iterations: u64,
    states: Vec<BodyState>,
    over: bool,
}

impl Run {
    /// Start `method` on `sc` to `duration` (a run whose simulation cannot start is over at
    /// once, its message in `failed`).
    pub fn new(sc: &Scenario, method: Method, settings: Settings, duration: f64) -> Run {
        let rec = Record {
            scenario: sc.canonical(),
            integrator: method.name().to_string(),
            settings,
            duration,
            steps: libm::round(duration / settings.dt) as u64,
            steps_done: 0,
            failed: None,
            t: 0.0,
            bodies: vec![],
            max_energy_error: 0.0,
            momentum_drift: [None; 3],
            max_joint_violation: 0.0,
            max_internal_violation: 0.0,
            mean_iterations: 0.0,
            wall_seconds: 0.0,
            series: vec![],
        };
        let mut run = Run {
            sim: None,
            rec,
            e0: 0.0,
            scale: 1.0,
            l0: [0.0; 3],
            conserved: conserved_momentum(&sc.model),
            drift: [0.0; 3],
            grid: vec![],
            g: 0,
            window: [0.0; 3],
            iterations: 0,
            states: vec![],
            over: false,
        };
        match Simulation::new(sc, method, settings) {
            Ok(sim) => {
                run.states = sim.states();
                let inv0 = sim.invariants_into(&mut run.states);
                run.e0 = inv0.energy();
                run.scale = if run.e0 != 0.0 { run.e0.abs() } else { 1.0 };
                run.l0 = inv0.momentum.to_array();
                run.grid = log_grid(run.rec.steps);
                run.rec.series = Vec::with_capacity(run.grid.len());
                run.over = run.rec.steps == 0;
                run.sim = Some(sim);
            }
            Err(e) => {
                run.rec.failed = Some(e);
                run.rec.bodies = sc.initial.iter().map(|b| (b.x, b.r)).collect();
                run.over = true;
            }
        }
        run
    }

    /// Steps asked for.
    pub fn steps(&self) -> u64 {
        self.rec.steps
    }

    /// Steps taken so far (measured and good).
    pub fn steps_done(&self) -> u64 {
        self.rec.steps_done
    }

    /// True once every step is taken or the run has failed.
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// Take one step through `step` (which must call `sim.step()` once; the CLI times it
    /// there) and measure it. Returns false when the run is over (before or by this step).
    pub fn step_with(
        &mut self,
        step: impl FnOnce(&mut Simulation) -> Result<StepInfo, StepError>,
    ) -> bool {
        if self.over {
            return false;
        }
        let sim = self
            .sim
            .as_mut()
            .expect("a run that is not over has a simulation");
        let k = self.rec.steps_done + 1;
        match step(sim) {
            Ok(info) => self.iterations += info.iterations as u64,
            Err(e) => {
                self.rec.failed = Some(format!("step {k} (t = {:.6} s) failed: {e}", sim.time()));
                self.over = true;
                return false;
            }
        }
        let inv = sim.invariants_into(&mut self.states);
        let de = (inv.energy() - self.e0).abs() / self.scale;
        if !de.is_finite() {
            self.rec.failed = Some(format!(
                "step {k} (t = {:.6} s): the energy is not finite",
                sim.time()
            ));
            self.over = true;
            return false;
        }
        self.rec.steps_done = k;
        let l = inv.momentum.to_array();
        for ((d, l), l0) in self.drift.iter_mut().zip(l).zip(self.l0) {
            *d = d.max((l - l0).abs());
        }
        let w = &mut self.window;
        w[0] = w[0].max(de);
        w[1] = w[1].max(inv.joint_violation);
        w[2] = w[2].max(inv.internal_violation);
        if self.grid.get(self.g) == Some(&k) {
            let rec = &mut self.rec;
            rec.series.push([sim.time(), w[0], w[1], w[2]]);
            rec.max_energy_error = rec.max_energy_error.max(w[0]);
            rec.max_joint_violation = rec.max_joint_violation.max(w[1]);
            rec.max_internal_violation = rec.max_internal_violation.max(w[2]);
            *w = [0.0; 3];
            self.g += 1;
        }
        if k >= self.rec.steps {
            self.over = true;
        }
        !self.over
    }

    /// Take up to `n` steps; returns how many were taken and measured (fewer when the run ends).
    pub fn advance(&mut self, n: u64) -> u64 {
        let before = self.rec.steps_done;
        for _ in 0..n {
            if !self.step_with(|s| s.step()) {
                break;
            }
        }
        self.rec.steps_done - before
    }

    /// The record (with `wall_seconds` 0: the caller's to fill in). A run stopped before its
    /// end gives the record so far.
    pub fn finish(mut self) -> Record {
        let rec = &mut self.rec;
        // the steps after the last grid point (a failed run)
        rec.max_energy_error = rec.max_energy_error.max(self.window[0]);
        rec.max_joint_violation = rec.max_joint_violation.max(self.window[1]);
        rec.max_internal_violation = rec.max_internal_violation.max(self.window[2]);
        if let Some(sim) = &self.sim {
            for i in 0..3 {
                rec.momentum_drift[i] = self.conserved[i].then_some(self.drift[i]);
            }
            rec.mean_iterations = self.iterations as f64 / rec.steps_done.max(1) as f64;
            rec.t = sim.time();
            rec.bodies = sim.states().iter().map(|b| (b.x, b.r)).collect();
        }
        self.rec
    }
}

/// Run `method` on `sc` to `duration`, measuring after every step (no timing).
pub fn simulate(sc: &Scenario, method: Method, settings: Settings, duration: f64) -> Record {
    let mut run = Run::new(sc, method, settings, duration);
    run.advance(u64::MAX);
    run.finish()
}

/// Position and rotation errors, max over bodies (NaN if the body counts differ).
pub fn pose_error(a: &[Pose], b: &[Pose]) -> (f64, f64) {
    if a.len() != b.len() {
        return (f64::NAN, f64::NAN);
    }
    a.iter()
        .zip(b)
        .fold((0.0f64, 0.0f64), |(p, q), ((xa, ra), (xb, rb))| {
            let d = *ra - *rb;
            let fro = math::sqrt(
                d.x_axis.length_squared() + d.y_axis.length_squared() + d.z_axis.length_squared(),
            );
            (p.max((*xa - *xb).length()), q.max(LENGTH_SCALE * fro))
        })
}
