//! The page's Study view (www/study/study.js): the same runs, measurements and report as
//! `tumble study` (all in tumble::study), so the page's numbers are the CLI's bits.
//! - `study_plan(options)`: the runs of a study, or the reason there are none;
//! - `StudyRun`: one run, stepped in chunks by a worker (www/study/study-worker.js), which times them;
//! - `study_report(options, records)`: the report in the CLI's JSON and CSV.
//!
//! `options` is `{ scenario, integrators: [..], dt, levels, duration, long }`: `dt` 0 for each
//! integrator's own step (`Scenario::suitable_dt`, as `tumble study` without `--dt`), `long` 0
//! for no long run; the Newton tolerance, iteration limit and Baumgarte gains are the CLI's
//! defaults.
use serde::{Deserialize, Serialize};
use tumble::study::{Plan, Record, Reference, Report, Role, Run};
use tumble::{Method, Scenario, Settings};
use wasm_bindgen::prelude::*;

#[derive(Deserialize)]
struct Options {
    scenario: String,
    integrators: Vec<String>,
    dt: f64,
    levels: f64,
    duration: f64,
    long: f64,
}

fn err(e: impl core::fmt::Display) -> JsError {
    JsError::new(&e.to_string())
}

/// The scenario and the plan of `options`, with the CLI's checks and messages.
fn plan_of(options: JsValue) -> Result<(Scenario, Plan), JsError> {
    let o: Options = serde_wasm_bindgen::from_value(options).map_err(err)?;
    let sc = Scenario::parse(&o.scenario).map_err(|e| err(e.0))?;
    let methods = o
        .integrators
        .iter()
        .map(|n| Method::parse(n))
        .collect::<Result<Vec<_>, _>>()
        .map_err(err)?;
    // as the CLI's settings_from: the scenario's defaults, the integrator's suitable step
    let base = |m: Method| -> Result<Settings, JsError> {
        let mut s = Settings::for_scenario(&sc);
        s.dt = if o.dt != 0.0 { o.dt } else { sc.suitable_dt(m) };
        s.validate().map_err(err)?;
        Ok(s)
    };
    let bases = methods
        .iter()
        .map(|&m| base(m))
        .collect::<Result<Vec<_>, _>>()?;
    if o.levels != o.levels.floor() || !(1.0..=16.0).contains(&o.levels) {
        return Err(err(format!(
            "the number of levels must be a whole number from 1 to 16, not {}",
            o.levels
        )));
    }
    let plan = Plan::new(
        &methods,
        &bases,
        Some(base(Method::Director)?),
        o.levels as usize,
        o.duration,
        o.long,
    )
    .map_err(err)?;
    Ok((sc, plan))
}

#[derive(Serialize)]
struct RunInfo {
    name: String,
    role: &'static str,
    integrator: &'static str,
    level: Option<usize>,
    dt: f64,
    tol: f64,
    max_iter: u32,
    alpha: f64,
    beta: f64,
    duration: f64,
    steps: f64,
}

#[derive(Serialize)]
struct PlanInfo {
    scenario: String,
    bodies: usize,
    h0: Vec<f64>,
    runs: Vec<RunInfo>,
}

/// The runs of a study: `{ scenario (canonical), bodies, h0: [s per integrator], runs: [{ name, role
/// (level, long, reference, reference-check), integrator, level, dt, tol, max_iter, alpha,
/// beta, duration, steps }] }` in the CLI's order. Throws with the CLI's message when the
/// study cannot be made (a bad scenario or step, T not a whole number of steps, ...).
#[wasm_bindgen]
pub fn study_plan(options: JsValue) -> Result<JsValue, JsError> {
    let (sc, plan) = plan_of(options)?;
    let info = PlanInfo {
        scenario: sc.canonical(),
        bodies: sc.model.bodies.len(),
        h0: plan.h0.clone(),
        runs: plan
            .specs
            .iter()
            .map(|s| RunInfo {
                name: s.name(),
                role: match s.role {
                    Role::Level(..) => "level",
                    Role::Long(_) => "long",
                    Role::Reference => "reference",
                    Role::ReferenceCheck => "reference-check",
                },
                integrator: s.method.name(),
                level: match s.role {
                    Role::Level(_, l) => Some(l),
                    _ => None,
                },
                dt: s.settings.dt,
                tol: s.settings.tol,
                max_iter: s.settings.max_iter,
                alpha: s.settings.alpha,
                beta: s.settings.beta,
                duration: s.duration,
                steps: s.steps() as f64,
            })
            .collect(),
    };
    serde_wasm_bindgen::to_value(&info).map_err(err)
}

/// A run's record as the page holds it (and hands between the worker and the page): the
/// fields of tumble::study::Record, the settings flattened, each body as 12 numbers (x, then
/// R column-major), step counts as numbers.
#[derive(Serialize, Deserialize)]
struct RecordJs {
    scenario: String,
    integrator: String,
    dt: f64,
    tol: f64,
    max_iter: u32,
    alpha: f64,
    beta: f64,
    duration: f64,
    steps: f64,
    steps_done: f64,
    failed: Option<String>,
    t: f64,
    bodies: Vec<Vec<f64>>,
    max_energy_error: f64,
    momentum_drift: [Option<f64>; 3],
    max_joint_violation: f64,
    max_internal_violation: f64,
    mean_iterations: f64,
    wall_seconds: f64,
    series: Vec<[f64; 4]>,
}

impl RecordJs {
    fn from(r: Record) -> RecordJs {
        RecordJs {
            scenario: r.scenario,
            integrator: r.integrator,
            dt: r.settings.dt,
            tol: r.settings.tol,
            max_iter: r.settings.max_iter,
            alpha: r.settings.alpha,
            beta: r.settings.beta,
            duration: r.duration,
            steps: r.steps as f64,
            steps_done: r.steps_done as f64,
            failed: r.failed,
            t: r.t,
            bodies: r
                .bodies
                .iter()
                .map(|(x, m)| {
                    let mut v = x.to_array().to_vec();
                    v.extend_from_slice(&m.to_cols_array());
                    v
                })
                .collect(),
            max_energy_error: r.max_energy_error,
            momentum_drift: r.momentum_drift,
            max_joint_violation: r.max_joint_violation,
            max_internal_violation: r.max_internal_violation,
            mean_iterations: r.mean_iterations,
            wall_seconds: r.wall_seconds,
            series: r.series,
        }
    }

    fn into_record(self) -> Result<Record, String> {
        let bodies = self
            .bodies
            .iter()
            .map(|b| {
                if b.len() != 12 {
                    return Err(format!("a body has {} numbers, not 12", b.len()));
                }
                Ok((
                    glam::DVec3::new(b[0], b[1], b[2]),
                    glam::DMat3::from_cols_slice(&b[3..12]),
                ))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Record {
            scenario: self.scenario,
            integrator: self.integrator,
            settings: Settings {
                dt: self.dt,
                tol: self.tol,
                max_iter: self.max_iter,
                alpha: self.alpha,
                beta: self.beta,
            },
            duration: self.duration,
            steps: self.steps as u64,
            steps_done: self.steps_done as u64,
            failed: self.failed,
            t: self.t,
            bodies,
            max_energy_error: self.max_energy_error,
            momentum_drift: self.momentum_drift,
            max_joint_violation: self.max_joint_violation,
            max_internal_violation: self.max_internal_violation,
            mean_iterations: self.mean_iterations,
            wall_seconds: self.wall_seconds,
            series: self.series,
        })
    }
}

/// One run of a study, stepped by the caller in chunks (`advance`); the caller measures the
/// time (nothing here reads a clock) and hands it to `finish`.
#[wasm_bindgen]
pub struct StudyRun {
    run: Option<Run>,
}

#[wasm_bindgen]
impl StudyRun {
    /// The run of `integrator` on `scenario` with these settings to `duration` (s), as a
    /// `study_plan` run gives them. Throws on a bad scenario or integrator; a simulation that
    /// cannot start is a run that is over at once (its record says why).
    #[wasm_bindgen(constructor)]
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        scenario: &str,
        integrator: &str,
        dt: f64,
        tol: f64,
        max_iter: u32,
        alpha: f64,
        beta: f64,
        duration: f64,
    ) -> Result<StudyRun, JsError> {
        let sc = Scenario::parse(scenario).map_err(|e| err(e.0))?;
        let method = Method::parse(integrator).map_err(err)?;
        let settings = Settings {
            dt,
            tol,
            max_iter,
            alpha,
            beta,
        };
        Ok(StudyRun {
            run: Some(Run::new(&sc, method, settings, duration)),
        })
    }

    /// Take up to `n` measured steps; returns how many were taken (fewer at the end or on a failure).
    pub fn advance(&mut self, n: f64) -> f64 {
        match &mut self.run {
            Some(r) => r.advance(n as u64) as f64,
            None => 0.0,
        }
    }

    /// Steps taken so far.
    pub fn steps_done(&self) -> f64 {
        self.run.as_ref().map_or(0.0, |r| r.steps_done() as f64)
    }

    /// Steps asked for.
    pub fn steps(&self) -> f64 {
        self.run.as_ref().map_or(0.0, |r| r.steps() as f64)
    }

    /// True once every step is taken or the run has failed.
    pub fn is_over(&self) -> bool {
        self.run.as_ref().is_none_or(|r| r.is_over())
    }

    /// The run's record, with the caller's `wall_seconds` (the run can be finished once).
    pub fn finish(&mut self, wall_seconds: f64) -> Result<JsValue, JsError> {
        let run = self.run.take().ok_or_else(|| err("this run is finished"))?;
        let mut rec = run.finish();
        rec.wall_seconds = wall_seconds;
        serde_wasm_bindgen::to_value(&RecordJs::from(rec)).map_err(err)
    }
}

#[derive(Serialize)]
struct ReportJs {
    json: String,
    csv: String,
    warning: Option<String>,
}

/// The report of the study `options` from `records` (one per run of `study_plan(options)`, in
/// its order, as `StudyRun.finish` gives them): `{ json, csv, warning }`, the JSON and CSV the
/// CLI prints for the same study (`tumble study ... --format json|csv`), and its warning about
/// a reference less than 100 times more accurate than the finest level, if any.
#[wasm_bindgen]
pub fn study_report(options: JsValue, records: JsValue) -> Result<JsValue, JsError> {
    let (sc, plan) = plan_of(options)?;
    let list: Vec<RecordJs> = serde_wasm_bindgen::from_value(records).map_err(err)?;
    if list.len() != plan.specs.len() {
        return Err(err(format!(
            "the study has {} runs, not {}",
            plan.specs.len(),
            list.len()
        )));
    }
    let records = list
        .into_iter()
        .map(RecordJs::into_record)
        .collect::<Result<Vec<_>, _>>()
        .map_err(err)?;
    let r = Report::new(&plan, &sc.canonical(), &records, Reference::Computed);
    let out = ReportJs {
        json: r.to_json(),
        csv: r.to_csv(),
        warning: r.warning(),
    };
    serde_wasm_bindgen::to_value(&out).map_err(err)
}
