//! One run of a study: simulate, measure every step, and the run's record in JSON
//! (`tumble run --format study` prints exactly this record; `tumble study --collect` reads it).
use crate::json::{self, Value};
use crate::{json_num, json_str};
use glam::{DMat3, DVec3};
use std::fmt::Write as _;
use std::time::Instant;
use tumble::invariants::conserved_momentum;
use tumble::{Method, Scenario, Settings, Simulation};

/// Samples per decade of the logarithmic time grid of the series.
pub const PER_DECADE: f64 = 20.0;

/// A pose: centre x and rotation R.
pub type Pose = (DVec3, DMat3);

/// What one run measured.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub scenario: String,
    pub integrator: String,
    pub settings: Settings,
    pub duration: f64,
    /// steps asked for (round(duration / dt)) and steps taken
    pub steps: u64,
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
    pub max_joint_violation: f64,
    pub max_internal_violation: f64,
    pub mean_iterations: f64,
    /// time spent in `Simulation::step` only
    pub wall_seconds: f64,
    /// logarithmic time grid: [t, energy error, joint violation, internal violation], each the
    /// max over the steps since the previous grid point
    pub series: Vec<[f64; 4]>,
}

/// Steps of `dt` in `duration`; an error unless it is a whole number (to 1e-9).
pub fn whole_steps(duration: f64, dt: f64) -> Result<u64, String> {
    let n = (duration / dt).round();
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
        let n = 10f64.powf(j / PER_DECADE).round() as u64;
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

/// Run `method` on `sc` to `duration`, measuring after every step.
pub fn simulate(sc: &Scenario, method: Method, settings: Settings, duration: f64) -> Record {
    let mut rec = Record {
        scenario: sc.canonical(),
        integrator: method.name().to_string(),
        settings,
        duration,
        steps: (duration / settings.dt).round() as u64,
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
    let mut sim = match Simulation::new(sc, method, settings) {
        Ok(s) => s,
        Err(e) => {
            rec.failed = Some(e);
            rec.bodies = sc.initial.iter().map(|b| (b.x, b.r)).collect();
            return rec;
        }
    };
    let inv0 = sim.invariants();
    let e0 = inv0.energy();
    let scale = if e0 != 0.0 { e0.abs() } else { 1.0 };
    let l0 = inv0.momentum.to_array();
    let conserved = conserved_momentum(&sc.model);
    let mut drift = [0.0f64; 3];
    let grid = log_grid(rec.steps);
    let mut g = 0;
    let mut window = [0.0f64; 3];
    let mut iterations = 0u64;
    for k in 1..=rec.steps {
        let start = Instant::now();
        let r = sim.step();
        rec.wall_seconds += start.elapsed().as_secs_f64();
        match r {
            Ok(info) => iterations += info.iterations as u64,
            Err(e) => {
                rec.failed = Some(format!("step {k} (t = {:.6} s) failed: {e}", sim.time()));
                break;
            }
        }
        let inv = sim.invariants();
        let de = (inv.energy() - e0).abs() / scale;
        if !de.is_finite() {
            rec.failed = Some(format!(
                "step {k} (t = {:.6} s): the energy is not finite",
                sim.time()
            ));
            break;
        }
        rec.steps_done = k;
        let l = inv.momentum.to_array();
        for i in 0..3 {
            drift[i] = drift[i].max((l[i] - l0[i]).abs());
        }
        window[0] = window[0].max(de);
        window[1] = window[1].max(inv.joint_violation);
        window[2] = window[2].max(inv.internal_violation);
        if grid.get(g) == Some(&k) {
            rec.series
                .push([sim.time(), window[0], window[1], window[2]]);
            rec.max_energy_error = rec.max_energy_error.max(window[0]);
            rec.max_joint_violation = rec.max_joint_violation.max(window[1]);
            rec.max_internal_violation = rec.max_internal_violation.max(window[2]);
            window = [0.0; 3];
            g += 1;
        }
    }
    // the steps after the last grid point (a failed run)
    rec.max_energy_error = rec.max_energy_error.max(window[0]);
    rec.max_joint_violation = rec.max_joint_violation.max(window[1]);
    rec.max_internal_violation = rec.max_internal_violation.max(window[2]);
    for i in 0..3 {
        rec.momentum_drift[i] = conserved[i].then_some(drift[i]);
    }
    rec.mean_iterations = iterations as f64 / rec.steps_done.max(1) as f64;
    rec.t = sim.time();
    rec.bodies = sim.states().iter().map(|b| (b.x, b.r)).collect();
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

impl Record {
    /// The record as one line of JSON (numbers with `{:?}`: they read back bit for bit).
    pub fn to_json(&self) -> String {
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

    /// Read a record written by [`Record::to_json`].
    pub fn from_json(text: &str) -> Result<Record, String> {
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
    println!("{}", rec.to_json());
    Ok(())
}
