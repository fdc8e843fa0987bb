//! Convergence studies (issue 15), shared by `tumble study` and the page's Study view (through
//! tumble-wasm), so that both compute the same bits: the runs of a study ([`Plan`]), one run
//! measured after every step ([`Run`], [`Record`]), and the report ([`Report`]: errors against
//! the reference, observed orders, the long runs) as JSON or CSV.
//!
//! Nothing here measures time: the caller times the steps (the CLI each `Simulation::step`, the
//! page's worker its chunks of steps) and stores the sum in [`Record::wall_seconds`]. All
//! transcendental functions go through libm, so native and wasm builds agree to the bit.
use crate::invariants::conserved_momentum;
use crate::model::BodyState;
use crate::Scenario;
use crate::{math, Method, Settings, Simulation, StepError, StepInfo};
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;
use core::fmt::Write as _;
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

/// log2 of successive error ratios (None where an error is missing or zero).
pub fn orders(errors: &[f64]) -> Vec<Option<f64>> {
    errors
        .windows(2)
        .map(|w| {
            (w[0] > 0.0 && w[1] > 0.0 && w[0].is_finite() && w[1].is_finite())
                .then(|| libm::log2(w[0] / w[1]))
        })
        .collect()
}

/// log10 of (max energy error over the last decade of time) / (max over the decade before):
/// about 0 for a bounded error, 1 for a linear drift (NaN if the run is shorter than 100 steps).
pub fn energy_growth(r: &Record) -> f64 {
    let t = r.t;
    let max_in = |lo: f64, hi: f64| {
        r.series
            .iter()
            .filter(|p| p[0] > lo && p[0] <= hi)
            .map(|p| p[1])
            .fold(f64::NAN, f64::max)
    };
    libm::log10(max_in(t / 10.0, t) / max_in(t / 100.0, t / 10.0))
}

/// A number as JSON: `{:?}` (reads back to the same bits), null when not finite.
pub fn json_num(x: f64) -> String {
    if x.is_finite() {
        format!("{x:?}")
    } else {
        "null".to_string()
    }
}

/// A JSON string literal.
pub fn json_str(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn opt_num(x: Option<f64>) -> String {
    x.map_or("null".into(), json_num)
}

/// A CSV field: quoted when it holds a comma or a quote.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// One level of one integrator in the report.
#[derive(Clone, Debug)]
pub struct Row<'a> {
    /// the run's record
    pub record: &'a Record,
    /// error, position part, rotation part (NaN for a failed run or reference)
    pub error: f64,
    /// max over bodies of |x - x_ref| (m)
    pub error_position: f64,
    /// max over bodies of L ||R - R_ref||_F (m)
    pub error_rotation: f64,
}

/// One integrator's levels and observed orders.
#[derive(Clone, Debug)]
pub struct Table<'a> {
    /// index into the plan's methods
    pub index: usize,
    /// the integrator
    pub method: Method,
    /// one row per level
    pub rows: Vec<Row<'a>>,
    /// log2(error(h) / error(h/2)) of successive levels
    pub orders: Vec<Option<f64>>,
}

/// A study's report: the errors against the reference, the orders and the long runs.
#[derive(Clone, Debug)]
pub struct Report<'a> {
    plan: &'a Plan,
    scenario: String,
    /// where the reference comes from
    pub source: String,
    /// why the computed reference failed, if it did
    pub reference_failed: Option<String>,
    /// the reference's own error, estimated from the check run
    pub estimate: Option<f64>,
    /// finest error / estimated reference error
    pub ratio: Option<f64>,
    /// per integrator
    pub tables: Vec<Table<'a>>,
    /// the long runs
    pub longs: Vec<&'a Record>,
}

/// The reference of a report: computed by the plan's reference runs, or given.
pub enum Reference {
    /// the plan's reference runs
    Computed,
    /// poses at T from elsewhere, with a description of the source
    Given(String, Vec<Pose>),
}

impl<'a> Report<'a> {
    /// The report of `plan` on the scenario with canonical text `scenario`, from `records`
    /// (one per spec of the plan, in its order).
    pub fn new(
        plan: &'a Plan,
        scenario: &str,
        records: &'a [Record],
        reference: Reference,
    ) -> Report<'a> {
        let find = |role: Role| plan.find(role).map(|i| &records[i]);
        let (poses, source, reference_failed): (Option<Vec<Pose>>, String, Option<String>) =
            match reference {
                Reference::Given(source, poses) => (Some(poses), source, None),
                Reference::Computed => {
                    let r = find(Role::Reference).expect("the plan has a reference run");
                    let src = format!(
                        "director at h = min H0 / 2^(K+3) = {:e} s, Newton tolerance {:e}",
                        r.settings.dt, r.settings.tol
                    );
                    (
                        r.failed.is_none().then(|| r.bodies.clone()),
                        src,
                        r.failed.clone(),
                    )
                }
            };
        // the reference's own error, estimated from the check run at twice its step
        let estimate = match (find(Role::ReferenceCheck), &poses) {
            (Some(c), Some(r)) if c.failed.is_none() => {
                let (p, q) = pose_error(&c.bodies, r);
                Some(p.max(q) / 3.0)
            }
            _ => None,
        };
        let mut tables = vec![];
        for (i, &m) in plan.methods.iter().enumerate() {
            let mut rows = vec![];
            for l in 0..plan.levels {
                let r = find(Role::Level(i, l)).expect("the plan has every level");
                let (p, q) = match (&poses, &r.failed) {
                    (Some(reference), None) => pose_error(&r.bodies, reference),
                    _ => (f64::NAN, f64::NAN),
                };
                rows.push(Row {
                    record: r,
                    error: p.max(q),
                    error_position: p,
                    error_rotation: q,
                });
            }
            let errors: Vec<f64> = rows.iter().map(|r| r.error).collect();
            tables.push(Table {
                index: i,
                method: m,
                rows,
                orders: orders(&errors),
            });
        }
        let finest = tables
            .iter()
            .map(|t| t.rows.last().unwrap().error)
            .filter(|e| e.is_finite())
            .fold(f64::NAN, f64::min);
        let ratio = estimate.map(|e| finest / e);
        let longs = (0..plan.methods.len())
            .filter_map(|i| find(Role::Long(i)))
            .collect();
        Report {
            plan,
            scenario: scenario.to_string(),
            source,
            reference_failed,
            estimate,
            ratio,
            tables,
            longs,
        }
    }

    /// A warning when the reference is less than 100 times more accurate than the finest level.
    pub fn warning(&self) -> Option<String> {
        self.ratio.filter(|r| *r < 100.0).map(|r| {
            format!("the reference is only {r:.1} times more accurate than the finest level (estimated); a larger --levels makes the reference finer too")
        })
    }

    /// The report as CSV (README, "Convergence studies").
    pub fn to_csv(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "# tumble study {}; T = {} s; {ERROR_DEFINITION}; {ENERGY_DEFINITION}",
            self.scenario, self.plan.duration
        );
        let _ = writeln!(
            out,
            "# reference: {}; failed: {}; estimated error {}; finest error / reference error {}",
            self.source,
            self.reference_failed.as_deref().unwrap_or("no"),
            opt_num(self.estimate),
            opt_num(self.ratio)
        );
        out.push_str("integrator,level,h,steps,steps_done,failed,error,error_position,error_rotation,order,max_energy_error,l1_drift,l2_drift,l3_drift,max_joint_violation,max_internal_violation,mean_iterations,wall_seconds,wall_per_step\n");
        for t in &self.tables {
            for (l, row) in t.rows.iter().enumerate() {
                let r = row.record;
                let d = r
                    .momentum_drift
                    .map(|d| d.map_or(String::new(), |x| format!("{x:?}")));
                let _ = writeln!(
                    out,
                    "{},{l},{:?},{},{},{},{},{},{},{},{:?},{},{},{},{:?},{:?},{:?},{:?},{:?}",
                    t.method.name(),
                    r.settings.dt,
                    r.steps,
                    r.steps_done,
                    csv_field(r.failed.as_deref().unwrap_or("")),
                    json_num(row.error).replace("null", ""),
                    json_num(row.error_position).replace("null", ""),
                    json_num(row.error_rotation).replace("null", ""),
                    if l == 0 {
                        String::new()
                    } else {
                        t.orders[l - 1].map_or(String::new(), |o| format!("{o:?}"))
                    },
                    r.max_energy_error,
                    d[0],
                    d[1],
                    d[2],
                    r.max_joint_violation,
                    r.max_internal_violation,
                    r.mean_iterations,
                    r.wall_seconds,
                    r.wall_seconds / r.steps_done.max(1) as f64
                );
            }
        }
        if !self.longs.is_empty() {
            out.push_str("\nintegrator,dt,t,energy_error,joint_violation,internal_violation\n");
            for r in &self.longs {
                for p in &r.series {
                    let _ = writeln!(
                        out,
                        "{},{:?},{:?},{:?},{:?},{:?}",
                        r.integrator, r.settings.dt, p[0], p[1], p[2], p[3]
                    );
                }
            }
        }
        out
    }

    /// The report as JSON, one line (README, "Convergence studies").
    pub fn to_json(&self) -> String {
        let s = self.plan;
        let mut out = String::new();
        let _ = write!(
            out,
            "{{\"scenario\":{},\"duration\":{},\"long_duration\":{},\"levels\":{},\"error_definition\":{},\"length_scale\":{},\"energy_definition\":{},",
            json_str(&self.scenario), json_num(s.duration), json_num(s.long), s.levels, json_str(ERROR_DEFINITION),
            json_num(LENGTH_SCALE), json_str(ENERGY_DEFINITION)
        );
        let _ = write!(
            out,
            "\"reference\":{{\"source\":{},\"failed\":{},\"estimated_error\":{},\"estimate\":{},\"finest_error_over_reference_error\":{}}},\"integrators\":[",
            json_str(&self.source), self.reference_failed.as_deref().map_or("null".into(), json_str), opt_num(self.estimate),
            json_str(ESTIMATE_DEFINITION), opt_num(self.ratio)
        );
        for (k, t) in self.tables.iter().enumerate() {
            let _ = write!(
                out,
                "{}{{\"integrator\":\"{}\",\"h0\":{},\"orders\":[{}],\"runs\":[",
                if k > 0 { "," } else { "" },
                t.method.name(),
                json_num(s.h0[t.index]),
                t.orders
                    .iter()
                    .map(|o| opt_num(*o))
                    .collect::<Vec<_>>()
                    .join(",")
            );
            for (l, row) in t.rows.iter().enumerate() {
                let r = row.record;
                let _ = write!(
                    out,
                    "{}{{\"h\":{},\"steps\":{},\"steps_done\":{},\"failed\":{},\"error\":{},\"error_position\":{},\"error_rotation\":{},\"max_energy_error\":{},\"momentum_drift\":[{}],\"max_joint_violation\":{},\"max_internal_violation\":{},\"mean_iterations\":{},\"wall_seconds\":{},\"wall_per_step\":{}}}",
                    if l > 0 { "," } else { "" }, json_num(r.settings.dt), r.steps, r.steps_done,
                    r.failed.as_deref().map_or("null".into(), json_str),
                    json_num(row.error), json_num(row.error_position), json_num(row.error_rotation), json_num(r.max_energy_error),
                    r.momentum_drift.iter().map(|d| opt_num(*d)).collect::<Vec<_>>().join(","),
                    json_num(r.max_joint_violation), json_num(r.max_internal_violation), json_num(r.mean_iterations),
                    json_num(r.wall_seconds), json_num(r.wall_seconds / r.steps_done.max(1) as f64)
                );
            }
            out.push_str("]}");
        }
        out.push_str("],\"long\":[");
        for (k, r) in self.longs.iter().enumerate() {
            let _ = write!(
                out,
                "{}{{\"integrator\":{},\"dt\":{},\"duration\":{},\"steps_done\":{},\"failed\":{},\"max_energy_error\":{},\"max_joint_violation\":{},\"energy_growth\":{},\"series_fields\":[\"t\",\"energy_error\",\"joint_violation\",\"internal_violation\"],\"series\":[{}],\"wall_seconds\":{}}}",
                if k > 0 { "," } else { "" }, json_str(&r.integrator), json_num(r.settings.dt), json_num(r.duration), r.steps_done,
                r.failed.as_deref().map_or("null".into(), json_str), json_num(r.max_energy_error), json_num(r.max_joint_violation),
                json_num(energy_growth(r)),
                r.series.iter().map(|p| format!("[{}]", p.map(json_num).join(","))).collect::<Vec<_>>().join(","),
                json_num(r.wall_seconds)
            );
        }
        let _ = writeln!(out, "],\"long_grid\":{}}}", json_str(LONG_GRID));
        out
    }
}
