//! One run of a study: simulate, measure every step, and the run's record in JSON
//! (`tumble run --format study` prints exactly this record; `tumble study --collect` reads it).
use crate::out::outln;
use glam::{DMat3, DVec3};
use serde::{Deserialize, Serialize};
use std::time::Instant;
use tumble::study::Run;
pub use tumble::study::{whole_steps, Pose, Record};
use tumble::{Method, Scenario, Settings};

/// Run `method` on `sc` to `duration`, measuring after every step (tumble::study::Run, shared
/// with the page); `wall_seconds` is the time spent in `Simulation::step` only.
pub fn simulate(sc: &Scenario, method: Method, settings: Settings, duration: f64) -> Record {
    let mut run = Run::new(sc, method, settings, duration);
    let mut wall = 0.0;
    while run.step_with(|sim| {
        let start = Instant::now();
        let r = sim.step();
        wall += start.elapsed().as_secs_f64();
        r
    }) {}
    let mut rec = run.finish();
    rec.wall_seconds = wall;
    rec
}

/// Numbers that may not be finite (a failed run's errors): written as null, read back as NaN.
mod nullable {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
        if x.is_finite() {
            s.serialize_f64(*x)
        } else {
            s.serialize_none()
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        Ok(Option::<f64>::deserialize(d)?.unwrap_or(f64::NAN))
    }
}

/// A body's pose as `tumble run` writes it: the centre and the rotation's rows.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PoseDoc {
    position: [f64; 3],
    rotation: [[f64; 3]; 3],
}

impl PoseDoc {
    fn new((x, r): &Pose) -> PoseDoc {
        PoseDoc {
            position: x.to_array(),
            rotation: [0, 1, 2].map(|k| [r.x_axis[k], r.y_axis[k], r.z_axis[k]]),
        }
    }

    fn pose(&self) -> Pose {
        let r = self.rotation.map(DVec3::from_array);
        (
            DVec3::from_array(self.position),
            DMat3::from_cols(r[0], r[1], r[2]).transpose(),
        )
    }
}

/// The JSON of a study run's record: what `tumble run --format study` prints and `tumble study
/// --collect` reads (numbers read back bit for bit: serde_json with float_roundtrip).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RecordDoc {
    format: String,
    scenario: String,
    integrator: String,
    dt: f64,
    duration: f64,
    tol: f64,
    max_iter: u32,
    alpha: f64,
    beta: f64,
    steps: u64,
    steps_done: u64,
    failed: Option<String>,
    #[serde(with = "nullable")]
    t: f64,
    #[serde(with = "nullable")]
    max_energy_error: f64,
    momentum_drift: [Option<f64>; 3],
    #[serde(with = "nullable")]
    max_joint_violation: f64,
    #[serde(with = "nullable")]
    max_internal_violation: f64,
    #[serde(with = "nullable")]
    mean_iterations: f64,
    bodies: Vec<PoseDoc>,
    series_fields: [String; 4],
    series: Vec<[Option<f64>; 4]>,
    #[serde(with = "nullable")]
    wall_seconds: f64,
}

const FORMAT: &str = "tumble-study-run";

/// A record in JSON: what `tumble run --format study` prints and `tumble study --collect` reads.
pub trait RecordJson: Sized {
    /// The record as one line of JSON.
    fn to_json(&self) -> String;
    /// Read a record written by [`RecordJson::to_json`].
    fn from_json(text: &str) -> Result<Self, String>;
}

impl RecordJson for Record {
    fn to_json(&self) -> String {
        let s = &self.settings;
        let finite = |x: f64| x.is_finite().then_some(x);
        let doc = RecordDoc {
            format: FORMAT.into(),
            scenario: self.scenario.clone(),
            integrator: self.integrator.clone(),
            dt: s.dt,
            duration: self.duration,
            tol: s.tol,
            max_iter: s.max_iter,
            alpha: s.alpha,
            beta: s.beta,
            steps: self.steps,
            steps_done: self.steps_done,
            failed: self.failed.clone(),
            t: self.t,
            max_energy_error: self.max_energy_error,
            momentum_drift: self.momentum_drift.map(|d| d.and_then(finite)),
            max_joint_violation: self.max_joint_violation,
            max_internal_violation: self.max_internal_violation,
            mean_iterations: self.mean_iterations,
            bodies: self.bodies.iter().map(PoseDoc::new).collect(),
            series_fields: ["t", "energy_error", "joint_violation", "internal_violation"]
                .map(String::from),
            series: self.series.iter().map(|p| p.map(finite)).collect(),
            wall_seconds: self.wall_seconds,
        };
        serde_json::to_string(&doc).expect("a record is numbers and strings")
    }

    fn from_json(text: &str) -> Result<Record, String> {
        let format = serde_json::from_str::<serde_json::Value>(text)
            .map_err(|e| e.to_string())?
            .get("format")
            .and_then(|f| f.as_str().map(str::to_string));
        if format.as_deref() != Some(FORMAT) {
            return Err("not a 'tumble run --format study' record".into());
        }
        let d: RecordDoc = serde_json::from_str(text).map_err(|e| e.to_string())?;
        Ok(Record {
            scenario: d.scenario,
            integrator: d.integrator,
            settings: Settings {
                dt: d.dt,
                tol: d.tol,
                max_iter: d.max_iter,
                alpha: d.alpha,
                beta: d.beta,
            },
            duration: d.duration,
            steps: d.steps,
            steps_done: d.steps_done,
            failed: d.failed,
            t: d.t,
            bodies: d.bodies.iter().map(PoseDoc::pose).collect(),
            max_energy_error: d.max_energy_error,
            momentum_drift: d.momentum_drift,
            max_joint_violation: d.max_joint_violation,
            max_internal_violation: d.max_internal_violation,
            mean_iterations: d.mean_iterations,
            wall_seconds: d.wall_seconds,
            series: d
                .series
                .iter()
                .map(|p| p.map(|x| x.unwrap_or(f64::NAN)))
                .collect(),
        })
    }
}

/// A `tumble run` JSON trajectory as a reference reads it: its samples' times and poses (the
/// other fields are not read).
#[derive(Deserialize)]
struct Trajectory {
    samples: Vec<TrajectorySample>,
}

#[derive(Deserialize)]
struct TrajectorySample {
    t: f64,
    bodies: Vec<PoseDoc>,
}

/// The body poses at time `t` from a file: a `tumble run` JSON trajectory (its sample at `t`,
/// to 1e-9 s) or a `tumble run --format study` record ending at `t`.
pub fn poses_from_file(path: &str, t: f64) -> Result<Vec<Pose>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read reference '{path}': {e}"))?;
    let v: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("reference '{path}': {e}"))?;
    let near = |s: f64| (s - t).abs() <= 1e-9 * t.max(1.0);
    if v.get("format").and_then(serde_json::Value::as_str) == Some(FORMAT) {
        let r = Record::from_json(&text).map_err(|e| format!("reference '{path}': {e}"))?;
        if r.failed.is_some() || !near(r.t) {
            return Err(format!(
                "reference '{path}' ends at t = {} s, not at T = {t} s",
                r.t
            ));
        }
        return Ok(r.bodies);
    }
    if v.get("samples").is_none() {
        return Err(format!(
            "reference '{path}' has no 'samples' (the 'tumble run' JSON format)"
        ));
    }
    let traj: Trajectory =
        serde_json::from_value(v).map_err(|e| format!("reference '{path}': {e}"))?;
    let s = traj
        .samples
        .iter()
        .rev()
        .find(|s| near(s.t))
        .ok_or_else(|| format!("reference '{path}' has no sample at t = {t} s"))?;
    Ok(s.bodies.iter().map(PoseDoc::pose).collect())
}

/// `tumble run SCENARIO --format study`: print the run's record.
pub fn print_record(
    sc: &Scenario,
    method: Method,
    settings: Settings,
    duration: f64,
) -> Result<(), String> {
    whole_steps(duration, settings.dt)?;
    let rec = simulate(sc, method, settings, duration);
    outln!("{}", rec.to_json());
    Ok(())
}
