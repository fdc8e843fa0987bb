//! `tumble bench`: the time per step of each integrator on each scenario, the median of a few
//! repeats, with the iterations per step, the largest relative energy balance error and the
//! real-time factor (simulated time over the time it took), as an aligned table or one JSON
//! object a line; a scenario from a file is named by the path given, not by its text. The
//! steps: read the options, print the table's head, and for each scenario and integrator check
//! the settings, time the runs and print a row.
use crate::cli::{self, BenchArgs};
use crate::out::outln;
use crate::{is_scenario_file, load_scenario, methods_from, Opts};
use std::time::Instant;
use tumble::{Method, Scenario, Settings, Simulation};

/// The scenarios timed when `--scenarios` is not given.
const DEFAULT_SCENARIOS: &str =
    "nk-revolute,nk-spherical,chain?links=16,chain?links=64,chain?links=256,chain?links=1024";

pub(crate) fn bench(a: BenchArgs) -> Result<(), String> {
    let o = Opts(cli::pairs(&[
        ("scenarios", &a.scenarios),
        ("integrators", &a.integrators),
        ("steps", &a.steps),
        ("repeats", &a.repeats),
        ("dt", &a.dt),
        ("tol", &a.tol),
    ]));
    let scenarios: Vec<String> = o
        .get("scenarios")
        .unwrap_or(DEFAULT_SCENARIOS)
        .split(',')
        .map(str::to_string)
        .collect();
    let methods = methods_from(&o)?;
    let steps = o.number("steps")?.unwrap_or(200.0) as usize;
    let repeats = o.number("repeats")?.unwrap_or(5.0) as usize;
    if steps == 0 || repeats == 0 {
        return Err("--steps and --repeats must be at least 1".to_string());
    }
    let json = a.format == cli::BenchFormat::Json;
    if !json {
        outln!(
            "{:<28} {:<10} {:>8} {:>12} {:>12} {:>10} {:>12} {:>9}",
            "scenario",
            "integrator",
            "bodies",
            "us/step",
            "us/body",
            "its/step",
            "max |bal/E0|",
            "x real"
        );
    }
    for text in &scenarios {
        let sc = load_scenario(text)?;
        let label = if is_scenario_file(text) {
            text.clone()
        } else {
            sc.canonical()
        };
        for &m in &methods {
            let settings = bench_settings(&sc, m, &o)?;
            let timing = time_runs(&sc, m, settings, steps, repeats);
            let row = Row {
                label: &label,
                bodies: sc.model.bodies.len(),
                method: m,
                dt: settings.dt,
                steps,
            };
            print_row(&row, timing, json);
        }
    }
    Ok(())
}

/// The scenario's settings for integrator `m`, with `--dt` and `--tol` when given.
fn bench_settings(sc: &Scenario, m: Method, o: &Opts) -> Result<Settings, String> {
    let mut settings = Settings::for_scenario(sc);
    settings.dt = sc.suitable_dt(m);
    if let Some(dt) = o.number("dt")? {
        settings.dt = dt;
    }
    if let Some(tol) = o.number("tol")? {
        settings.tol = tol;
    }
    settings.validate()?;
    Ok(settings)
}

/// What the runs of one scenario and integrator measured.
struct Timing {
    /// the time per step of each run (us)
    times: Vec<f64>,
    /// the last run's iterations, all steps together
    its: u64,
    /// the last run's largest |E - E0 - W + D| / |E0|
    de: f64,
    /// why a run could not start or a step failed
    failed: Option<String>,
}

/// `repeats` runs of `steps` steps each, only the step calls timed; the first failure ends
/// them.
fn time_runs(sc: &Scenario, m: Method, settings: Settings, steps: usize, repeats: usize) -> Timing {
    let mut times = vec![];
    let mut its = 0u64;
    let mut de = 0.0;
    let mut failed = None;
    for _ in 0..repeats {
        let mut sim = match Simulation::new(sc, m, settings) {
            Ok(s) => s,
            Err(e) => {
                failed = Some(e);
                break;
            }
        };
        let e0 = sim.invariants().energy();
        its = 0;
        de = 0.0f64;
        let mut elapsed = 0.0;
        for _ in 0..steps {
            let t0 = Instant::now();
            let r = sim.step();
            elapsed += t0.elapsed().as_secs_f64();
            match r {
                Ok(i) => its += i.iterations as u64,
                Err(e) => {
                    failed = Some(e.to_string());
                    break;
                }
            }
            // max relative energy balance error over the run (outside the timed
            // call): |E - E0 - W + D| / |E0|, the energy error for a conservative system
            de = de.max((sim.invariants().balance / e0).abs());
        }
        times.push(elapsed / steps as f64 * 1e6);
        if failed.is_some() {
            break;
        }
    }
    Timing {
        times,
        its,
        de,
        failed,
    }
}

/// What names a row: the scenario's label, its bodies, the integrator, the step and how many.
struct Row<'a> {
    label: &'a str,
    bodies: usize,
    method: Method,
    dt: f64,
    steps: usize,
}

/// One row of the table (or one JSON object): the median time per step and per body, the
/// iterations per step, the balance error and the real-time factor h / (time per step), or the
/// failure.
fn print_row(row: &Row, t: Timing, json: bool) {
    let (label, n, m) = (row.label, row.bodies, row.method.name());
    let Timing {
        mut times,
        its,
        de,
        failed,
    } = t;
    if let Some(e) = failed {
        if json {
            outln!(
                "{}",
                serde_json::json!({"scenario": label, "integrator": m, "bodies": n, "error": e})
            );
        } else {
            outln!("{label:<28} {m:<10} {n:>8} failed: {e}");
        }
        return;
    }
    times.sort_by(f64::total_cmp);
    let med = times[times.len() / 2];
    let its = its as f64 / row.steps as f64;
    let real = row.dt * 1e6 / med;
    if json {
        outln!(
            "{}",
            serde_json::json!({
                "scenario": label, "integrator": m, "bodies": n,
                "us_per_step": med, "us_per_body": med / n as f64,
                "its_per_step": its, "max_rel_balance": de, "real_time": real
            })
        );
    } else {
        outln!(
            "{label:<28} {m:<10} {n:>8} {med:>12.2} {:>12.3} {its:>10.2} {de:>12.2e} {real:>9.3}",
            med / n as f64
        );
    }
}
