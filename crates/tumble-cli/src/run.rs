//! `tumble run`: one scenario with one integrator, its samples written as one JSON document,
//! NDJSON records or CSV rows (or the run's study record), then its state hash. The steps: read
//! the scenario (a text, a file or a page's share link) and the options, check the settings,
//! duration and sampling interval, start the simulation, write the head, step and sample, write
//! the end.
use crate::cli::{self, RunArgs, RunFormat};
use crate::out::{out, outln};
use crate::progress::Progress;
use crate::sample::{CoordName, Coords, RunNames, Sample};
use crate::{link, load_scenario, settings_from, study, Opts};
use serde::Serialize;
use std::fmt::Write as _;
use std::time::Instant;
use tumble::text::Num;
use tumble::{Invariants, Method, Scenario, Settings, Simulation};

/// The start of `tumble run`'s document (and NDJSON's first record).
#[derive(Serialize)]
struct RunHead {
    scenario: String,
    integrator: &'static str,
    dt: f64,
    mechanism: Mechanism,
    /// the elements' names, when any is named
    #[serde(skip_serializing_if = "Option::is_none")]
    names: Option<RunNames>,
    /// the joints' coordinates each sample's `coordinates` holds, when any joint has one
    #[serde(skip_serializing_if = "Option::is_none")]
    coordinates: Option<Vec<CoordName>>,
}

#[derive(Serialize)]
struct Mechanism {
    dof: i64,
    joint_rows: usize,
    redundant_rows: Vec<usize>,
    loop_joints: usize,
}

/// The end of `tumble run`'s document (and NDJSON's last record).
#[derive(Serialize)]
struct RunEnd {
    state_hash: String,
    wall_seconds: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

/// The whole JSON document of `tumble run`.
#[derive(Serialize)]
struct RunDoc {
    #[serde(flatten)]
    head: RunHead,
    samples: Vec<Sample>,
    #[serde(flatten)]
    end: RunEnd,
}

fn to_json<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).expect("the run's records are plain numbers and strings")
}

fn sample_csv(out: &mut String, inv: &Invariants) {
    let m = inv.momentum;
    let _ = writeln!(
        out,
        "{:?},{:?},{:?},{:?},{:?},{:?},{:?},{:?},{:?},{},{:?},{:?},{:?},{:?}",
        inv.t,
        inv.energy(),
        inv.kinetic,
        inv.potential,
        m.x,
        m.y,
        m.z,
        inv.internal_violation,
        inv.joint_violation,
        inv.iterations,
        inv.residual,
        inv.work,
        inv.dissipated,
        inv.balance
    );
}

/// What a run does: its integrator and settings, its number of steps, and a sample every
/// `every` steps (and after the last).
struct RunPlan {
    method: Method,
    settings: Settings,
    duration: f64,
    steps: u64,
    every: u64,
    /// the control schedules, the link's and the command line's (`controls.rs`)
    controls: Vec<String>,
}

pub(crate) fn run(a: RunArgs) -> Result<(), String> {
    let (sc, o) = scenario_and_options(&a)?;
    let plan = run_plan(&sc, &o)?;
    if a.format == RunFormat::Study {
        return study::print_record(&sc, plan.method, plan.settings, plan.duration);
    }
    let mut sim = Simulation::new(&sc, plan.method, plan.settings)?;
    let events = crate::controls::schedule(&plan.controls, &sim, plan.settings.dt)?;
    let start = Instant::now();
    let mut coords = Coords::new(&sim, &sc);
    let mut head = run_head(&sim, &sc, plan.method, plan.settings);
    head.coordinates = coords.head();
    match a.format {
        RunFormat::Csv => outln!("t,energy,kinetic,potential,l1,l2,l3,internal_violation,joint_violation,iterations,residual,work,dissipated,balance"),
        RunFormat::Ndjson => outln!("{}", to_json(&head)),
        _ => {}
    }
    let (samples, failure) =
        step_and_sample((&mut sim, &mut coords), (&plan, &events), a.format, a.quiet);
    let end = RunEnd {
        state_hash: format!("{:016x}", sim.state_hash()),
        wall_seconds: start.elapsed().as_secs_f64(),
        error: failure.clone(),
    };
    match a.format {
        RunFormat::Ndjson => outln!("{}", to_json(&end)),
        RunFormat::Json => outln!("{}", to_json(&RunDoc { head, samples, end })),
        _ => {}
    }
    match failure {
        Some(f) => Err(f),
        None => Ok(()),
    }
}

/// The scenario and the options: a page's share link (or its system= value) gives its
/// scenario, and its settings as options that the command line's own options override.
fn scenario_and_options(a: &RunArgs) -> Result<(Scenario, Opts), String> {
    let mut o = Opts(cli::pairs(&[
        ("integrator", &a.integrator),
        ("dt", &a.dt),
        ("duration", &a.duration),
        ("every", &a.every),
    ]));
    o.0.extend(a.settings.pairs());
    o.0.extend(a.control.iter().map(|c| ("control".to_string(), c.clone())));
    let text = &a.scenario;
    let sc = match link::parse(text) {
        Some(l) => {
            let l = l.map_err(|e| format!("{e} (see 'tumble run --help')"))?;
            o.0.splice(0..0, l.settings);
            Scenario::parse(&l.scenario).map_err(|e| format!("the link's scenario: {}", e.0))?
        }
        None => load_scenario(text)?,
    };
    Ok((sc, o))
}

/// The integrator, settings, duration and sampling interval from the options, each checked.
fn run_plan(sc: &Scenario, o: &Opts) -> Result<RunPlan, String> {
    let method = Method::parse(o.get("integrator").unwrap_or("director"))?;
    let settings = settings_from(sc, method, o)?;
    let duration = o.number("duration")?.unwrap_or(sc.duration);
    if !(0.0..=1e6).contains(&duration) {
        return Err(format!(
            "--duration must be between 0 and 1e6 s, not {}",
            Num(duration)
        ));
    }
    let steps = (duration / settings.dt).round() as u64;
    let every = match o.number("every")? {
        None => 1,
        Some(s) if s > 0.0 && s <= 1e6 => ((s / settings.dt).round() as u64).max(1),
        Some(s) => return Err(format!("--every must be positive, not {}", Num(s))),
    };
    let controls =
        o.0.iter()
            .filter(|(k, _)| k == "control")
            .map(|(_, v)| v.clone());
    Ok(RunPlan {
        method,
        settings,
        duration,
        steps,
        every,
        controls: controls.collect(),
    })
}

/// The head: the scenario's canonical text, the integrator, the step and the mechanism.
fn run_head(sim: &Simulation, sc: &Scenario, method: Method, settings: Settings) -> RunHead {
    let mech = sim.mechanism();
    RunHead {
        scenario: sc.canonical(),
        integrator: method.name(),
        dt: settings.dt,
        mechanism: Mechanism {
            dof: mech.dof,
            joint_rows: mech.rows,
            redundant_rows: mech.redundant.clone(),
            loop_joints: mech.loop_joints,
        },
        names: RunNames::of(sim.model()),
        coordinates: None,
    }
}

/// Step the run to its end (or its first failed step), sampling at the start, every
/// `plan.every` steps and after the last: JSON gathers the samples for one document at the
/// end; NDJSON and CSV write each sample as it is computed. The joints' coordinates are followed
/// at every step (their angles count turns between samples). The samples gathered and the
/// failure, if any.
fn step_and_sample(
    (sim, coords): (&mut Simulation, &mut Coords),
    (plan, events): (&RunPlan, &[crate::controls::Event]),
    format: RunFormat,
    quiet: bool,
) -> (Vec<Sample>, Option<String>) {
    let mut samples = vec![];
    let mut warned = false;
    emit((sim, coords), &mut samples, format);
    let progress = Progress::new(plan.steps, "steps", quiet);
    let mut failure = None;
    let mut next = 0;
    for k in 1..=plan.steps {
        let stepped = crate::controls::apply(sim, events, &mut next, k - 1)
            .and_then(|_| sim.step().map_err(|e| e.to_string()));
        if let Err(e) = stepped {
            failure = Some(format!("step {k} (t = {:.6} s) failed: {e}", sim.time()));
            break;
        }
        coords.follow(sim);
        if k % plan.every == 0 || k == plan.steps {
            let inv = emit((sim, coords), &mut samples, format);
            if !warned && inv.balance_broken() {
                warned = true;
                warn_balance(&inv, plan);
            }
        }
        progress.at(k, sim.time());
    }
    progress.done();
    (samples, failure)
}

/// The balance has come apart (`Invariants::balance_broken`): said once on stderr, the run goes on.
fn warn_balance(inv: &Invariants, plan: &RunPlan) {
    let scale = inv.energy_scale();
    eprintln!(
        "tumble: warning: at t = {:.6} s the energy balance E - E0 - W + D = {:.1e} J is {:.2} times \
         the run's largest energy ({:.3e} J): the step {} s is too large for {} on this system and \
         the motion is not to be trusted; try a smaller --dt{}",
        inv.t,
        inv.balance,
        inv.balance.abs() / scale,
        scale,
        plan.settings.dt,
        plan.method.name(),
        if plan.method == Method::Director { "" } else { " or --integrator director" }
    );
}

/// One sample: written at once as a CSV row or an NDJSON record, else gathered; its invariants.
fn emit(
    (sim, coords): (&mut Simulation, &Coords),
    samples: &mut Vec<Sample>,
    format: RunFormat,
) -> Invariants {
    let inv = sim.invariants();
    match format {
        RunFormat::Csv => {
            let mut line = String::new();
            sample_csv(&mut line, &inv);
            out!("{line}");
        }
        RunFormat::Ndjson => outln!("{}", to_json(&Sample::new(&inv, sim, coords))),
        _ => samples.push(Sample::new(&inv, sim, coords)),
    }
    inv
}
