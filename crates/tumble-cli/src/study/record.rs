//! One run of a study: simulate, measure every step, and the run's record in JSON
//! (`tumble run --format study` prints exactly this record; `tumble study --collect` reads it).
use crate::json::{self, Value};
use crate::out::outln;
use glam::{DMat3, DVec3};
use std::fmt::Write as _;
use std::time::Instant;
use tumble::study::Run;
use tumble::study::{json_num, json_str};
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

fn vec_json(v: DVec3) -> String {
    format!("[{},{},{}]", json_num(v.x), json_num(v.y), json_num(v.z))
}

/// Rotation as three rows, as `tumble run` writes it.
fn rot_json(r: &DMat3) -> String {
    let row = |k: usize| vec_json(DVec3::new(r.x_axis[k], r.y_axis[k], r.z_axis[k]));
    format!("[{},{},{}]", row(0), row(1), row(2))
}

/// A record in JSON: what `tumble run --format study` prints and `tumble study --collect` reads.
pub trait RecordJson: Sized {
    /// The record as one line of JSON (numbers with `{:?}`: they read back bit for bit).
    fn to_json(&self) -> String;
    /// Read a record written by [`RecordJson::to_json`].
    fn from_json(text: &str) -> Result<Self, String>;
}

impl RecordJson for Record {
    fn to_json(&self) -> String {
        let s = &self.settings;
        let mut o = String::new();
        let _ = write!(
            o,
            "{{\"format\":\"tumble-study-run\",\"scenario\":{},\"integrator\":{},\"dt\":{},\"duration\":{},\"tol\":{},\"max_iter\":{},\"alpha\":{},\"beta\":{},\"steps\":{},\"steps_done\":{},\"failed\":{},\"t\":{},\"max_energy_error\":{},\"momentum_drift\":[{}],\"max_joint_violation\":{},\"max_internal_violation\":{},\"mean_iterations\":{},\"bodies\":[",
            json_str(&self.scenario),
            json_str(&self.integrator),
            json_num(s.dt),
            json_num(self.duration),
            json_num(s.tol),
            s.max_iter,
            json_num(s.alpha),
            json_num(s.beta),
            self.steps,
            self.steps_done,
            self.failed.as_deref().map_or("null".to_string(), json_str),
            json_num(self.t),
            json_num(self.max_energy_error),
            self.momentum_drift
                .iter()
                .map(|d| d.map_or("null".to_string(), json_num))
                .collect::<Vec<_>>()
                .join(","),
            json_num(self.max_joint_violation),
            json_num(self.max_internal_violation),
            json_num(self.mean_iterations),
        );
        for (i, (x, r)) in self.bodies.iter().enumerate() {
            let _ = write!(
                o,
                "{}{{\"position\":{},\"rotation\":{}}}",
                if i > 0 { "," } else { "" },
                vec_json(*x),
                rot_json(r)
            );
        }
        o.push_str("],\"series_fields\":[\"t\",\"energy_error\",\"joint_violation\",\"internal_violation\"],\"series\":[");
        for (i, p) in self.series.iter().enumerate() {
            let _ = write!(
                o,
                "{}[{}]",
                if i > 0 { "," } else { "" },
                p.map(json_num).join(",")
            );
        }
        let _ = write!(o, "],\"wall_seconds\":{}}}", json_num(self.wall_seconds));
        o
    }

    fn from_json(text: &str) -> Result<Record, String> {
        let v = json::parse(text)?;
        if v.get("format").and_then(Value::as_str) != Some("tumble-study-run") {
            return Err("not a 'tumble run --format study' record".into());
        }
        let num = |k: &str| -> Result<f64, String> {
            match v.get(k) {
                Some(Value::Num(x)) => Ok(*x),
                Some(Value::Null) => Ok(f64::NAN),
                _ => Err(format!("the record has no number '{k}'")),
            }
        };
        let arr = |k: &str| {
            v.get(k)
                .and_then(Value::as_array)
                .ok_or_else(|| format!("the record has no array '{k}'"))
        };
        let nums = |a: &Value| -> Vec<f64> {
            a.as_array()
                .unwrap_or(&[])
                .iter()
                .map(|x| x.as_f64().unwrap_or(f64::NAN))
                .collect()
        };
        let drift = arr("momentum_drift")?;
        let mut momentum_drift = [None; 3];
        for (d, x) in momentum_drift.iter_mut().zip(drift) {
            *d = x.as_f64();
        }
        Ok(Record {
            scenario: v
                .get("scenario")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string(),
            integrator: v
                .get("integrator")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string(),
            settings: Settings {
                dt: num("dt")?,
                tol: num("tol")?,
                max_iter: num("max_iter")? as u32,
                alpha: num("alpha")?,
                beta: num("beta")?,
            },
            duration: num("duration")?,
            steps: num("steps")? as u64,
            steps_done: num("steps_done")? as u64,
            failed: v.get("failed").and_then(Value::as_str).map(str::to_string),
            t: num("t")?,
            bodies: poses(arr("bodies")?)?,
            max_energy_error: num("max_energy_error")?,
            momentum_drift,
            max_joint_violation: num("max_joint_violation")?,
            max_internal_violation: num("max_internal_violation")?,
            mean_iterations: num("mean_iterations")?,
            wall_seconds: num("wall_seconds")?,
            series: arr("series")?
                .iter()
                .map(|p| {
                    let x = nums(p);
                    [0, 1, 2, 3].map(|i| x.get(i).copied().unwrap_or(f64::NAN))
                })
                .collect(),
        })
    }
}

/// Poses from `[{"position": [..], "rotation": [[row], [row], [row]]}, ..]`.
fn poses(bodies: &[Value]) -> Result<Vec<Pose>, String> {
    let three = |v: Option<&Value>| -> Option<DVec3> {
        let a = v?.as_array()?;
        match a {
            [x, y, z] => Some(DVec3::new(x.as_f64()?, y.as_f64()?, z.as_f64()?)),
            _ => None,
        }
    };
    bodies
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let bad = || format!("body {i}: needs 'position' [3] and 'rotation' [3][3] numbers");
            let x = three(b.get("position")).ok_or_else(bad)?;
            let rows = b
                .get("rotation")
                .and_then(Value::as_array)
                .ok_or_else(bad)?;
            if rows.len() != 3 {
                return Err(bad());
            }
            let r: Vec<DVec3> = rows
                .iter()
                .map(|r| three(Some(r)))
                .collect::<Option<_>>()
                .ok_or_else(bad)?;
            Ok((x, DMat3::from_cols(r[0], r[1], r[2]).transpose()))
        })
        .collect()
}

/// The body poses at time `t` from a file: a `tumble run` JSON trajectory (its sample at `t`,
/// to 1e-9 s) or a `tumble run --format study` record ending at `t`.
pub fn poses_from_file(path: &str, t: f64) -> Result<Vec<Pose>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read reference '{path}': {e}"))?;
    let v = json::parse(&text).map_err(|e| format!("reference '{path}': {e}"))?;
    let near = |s: f64| (s - t).abs() <= 1e-9 * t.max(1.0);
    if v.get("format").and_then(Value::as_str) == Some("tumble-study-run") {
        let r = Record::from_json(&text).map_err(|e| format!("reference '{path}': {e}"))?;
        if r.failed.is_some() || !near(r.t) {
            return Err(format!(
                "reference '{path}' ends at t = {} s, not at T = {t} s",
                r.t
            ));
        }
        return Ok(r.bodies);
    }
    let samples = v.get("samples").and_then(Value::as_array).ok_or_else(|| {
        format!("reference '{path}' has no 'samples' (the 'tumble run' JSON format)")
    })?;
    let s = samples
        .iter()
        .rev()
        .find(|s| s.get("t").and_then(Value::as_f64).is_some_and(near))
        .ok_or_else(|| format!("reference '{path}' has no sample at t = {t} s"))?;
    let bodies = s
        .get("bodies")
        .and_then(Value::as_array)
        .ok_or_else(|| format!("reference '{path}': the sample at t = {t} s has no 'bodies'"))?;
    poses(bodies).map_err(|e| format!("reference '{path}': {e}"))
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
