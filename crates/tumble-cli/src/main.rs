//! `tumble`: run the scenarios natively and print numbers for papers. The grammar (commands,
//! options, help, completions, man page) is in `cli.rs`; `tumble --help` prints it.
//! Errors go to stderr with exit status 1.
use clap::{CommandFactory, Parser};
use cli::{BenchArgs, Cli, Command, RunArgs, RunFormat, Shell};
use out::{out, outln};
use sample::{RunNames, Sample};
use serde::Serialize;
use std::fmt::Write as _;
use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::Instant;
use tumble::{Invariants, Method, Scenario, Settings, Simulation};

mod cli;
mod link;
mod out;
mod sample;
mod study;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            // --help and --version print to stdout and succeed; a usage error (an unknown or
            // mistyped option or command, with clap's suggestion) prints to stderr, status 1
            let code = u8::from(e.use_stderr());
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let result = match cli.command {
        Command::Scenarios => scenarios(),
        Command::Run(a) => run(a),
        Command::Bench(a) => bench(a),
        Command::Study(a) => study::study(&a.to_args(), a.quiet),
        Command::Completions { shell } => {
            let shell = match shell {
                Shell::Bash => clap_complete::Shell::Bash,
                Shell::Zsh => clap_complete::Shell::Zsh,
                Shell::Fish => clap_complete::Shell::Fish,
            };
            let mut buf = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "tumble", &mut buf);
            out!("{}", String::from_utf8_lossy(&buf));
            Ok(())
        }
        Command::Man => {
            let mut buf = Vec::new();
            match clap_mangen::Man::new(Cli::command()).render(&mut buf) {
                Ok(()) => {
                    out!("{}", String::from_utf8_lossy(&buf));
                    Ok(())
                }
                Err(e) => Err(format!("cannot render the man page: {e}")),
            }
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tumble: {e}");
            ExitCode::FAILURE
        }
    }
}

fn scenarios() -> Result<(), String> {
    for p in tumble::scenario::PRESETS {
        outln!("{:<13} {}", p.name, p.description);
        for q in p.params {
            let default = match q.kind {
                tumble::scenario::ParamKind::Number { default, .. } => format!("{default}"),
                tumble::scenario::ParamKind::Choice(c) => c[0].to_string(),
            };
            outln!("{:<13}   {}={} ({})", "", q.key, default, q.help);
        }
    }
    Ok(())
}

/// Options as `--key value` pairs (from clap's parse, and for a share link its settings first):
/// the commands read their values with their own messages.
struct Opts(Vec<(String, String)>);

impl Opts {
    fn parse(args: &[String], allowed: &[&str]) -> Result<(Vec<String>, Opts), String> {
        let mut pos = vec![];
        let mut kv = vec![];
        let mut it = args.iter();
        while let Some(a) = it.next() {
            if let Some(key) = a.strip_prefix("--") {
                if !allowed.contains(&key) {
                    return Err(format!(
                        "unknown option '--{key}'; allowed: {}",
                        allowed
                            .iter()
                            .map(|k| format!("--{k}"))
                            .collect::<Vec<_>>()
                            .join(" ")
                    ));
                }
                let v = it
                    .next()
                    .ok_or_else(|| format!("option '--{key}' needs a value"))?;
                kv.push((key.to_string(), v.clone()));
            } else {
                pos.push(a.clone());
            }
        }
        Ok((pos, Opts(kv)))
    }

    fn get(&self, key: &str) -> Option<&str> {
        self.0
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    fn number(&self, key: &str) -> Result<Option<f64>, String> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => match v.parse::<f64>() {
                Ok(x) if x.is_finite() => Ok(Some(x)),
                _ => Err(format!("--{key} must be a finite number, not '{v}'")),
            },
        }
    }
}

/// The integrators named by `--integrators X,Y,..` (all three by default).
fn methods_from(o: &Opts) -> Result<Vec<Method>, String> {
    o.get("integrators")
        .unwrap_or("director,rattle,baumgarte")
        .split(',')
        .map(Method::parse)
        .collect()
}

fn settings_from(sc: &Scenario, method: Method, o: &Opts) -> Result<Settings, String> {
    let mut s = Settings::for_scenario(sc);
    s.dt = sc.suitable_dt(method);
    if let Some(v) = o.number("dt")? {
        s.dt = v;
    }
    if let Some(v) = o.number("tol")? {
        s.tol = v;
    }
    if let Some(v) = o.number("max-iter")? {
        if v != v.floor() || !(1.0..=200.0).contains(&v) {
            return Err(format!(
                "--max-iter must be a whole number from 1 to 200, not {v}"
            ));
        }
        s.max_iter = v as u32;
    }
    if let Some(v) = o.number("alpha")? {
        s.alpha = v;
    }
    if let Some(v) = o.number("beta")? {
        s.beta = v;
    }
    s.validate()?;
    Ok(s)
}

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

fn run(a: RunArgs) -> Result<(), String> {
    let mut o = Opts(cli::pairs(&[
        ("integrator", &a.integrator),
        ("dt", &a.dt),
        ("duration", &a.duration),
        ("every", &a.every),
    ]));
    o.0.extend(a.settings.pairs());
    let text = &a.scenario;
    // a page's share link (or its system= value): its scenario, and its settings as options
    // that the command line's own options override
    let sc = match link::parse(text) {
        Some(l) => {
            let l = l.map_err(|e| format!("{e} (see 'tumble run --help')"))?;
            o.0.splice(0..0, l.settings);
            Scenario::parse(&l.scenario).map_err(|e| format!("the link's scenario: {}", e.0))?
        }
        None => load_scenario(text)?,
    };
    let method = Method::parse(o.get("integrator").unwrap_or("director"))?;
    let settings = settings_from(&sc, method, &o)?;
    let duration = o.number("duration")?.unwrap_or(sc.duration);
    if !(0.0..=1e6).contains(&duration) {
        return Err(format!(
            "--duration must be between 0 and 1e6 s, not {duration}"
        ));
    }
    let steps = (duration / settings.dt).round() as u64;
    let every = match o.number("every")? {
        None => 1,
        Some(s) if s > 0.0 && s <= 1e6 => ((s / settings.dt).round() as u64).max(1),
        Some(s) => return Err(format!("--every must be positive, not {s}")),
    };
    if a.format == RunFormat::Study {
        return study::print_record(&sc, method, settings, duration);
    }
    let mut sim = Simulation::new(&sc, method, settings)?;
    let start = Instant::now();
    let head = {
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
        }
    };
    // JSON gathers the samples for one document at the end; NDJSON and CSV write each sample
    // as it is computed
    let mut samples = vec![];
    let emit = |sim: &mut Simulation, samples: &mut Vec<Sample>| {
        let inv = sim.invariants();
        match a.format {
            RunFormat::Csv => {
                let mut line = String::new();
                sample_csv(&mut line, &inv);
                out!("{line}");
            }
            RunFormat::Ndjson => outln!("{}", to_json(&Sample::new(&inv, sim))),
            _ => samples.push(Sample::new(&inv, sim)),
        }
    };
    match a.format {
        RunFormat::Csv => outln!("t,energy,kinetic,potential,l1,l2,l3,internal_violation,joint_violation,iterations,residual,work,dissipated,balance"),
        RunFormat::Ndjson => outln!("{}", to_json(&head)),
        _ => {}
    }
    emit(&mut sim, &mut samples);
    let progress = Progress::new(steps, "steps", a.quiet);
    let mut failure = None;
    for k in 1..=steps {
        if let Err(e) = sim.step() {
            failure = Some(format!("step {k} (t = {:.6} s) failed: {e}", sim.time()));
            break;
        }
        if k % every == 0 || k == steps {
            emit(&mut sim, &mut samples);
        }
        progress.at(k, sim.time());
    }
    progress.done();
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

/// A progress bar on stderr for long work (indicatif), drawn only when stderr is a terminal
/// and not `--quiet`; it is cleared when the work is done, so logs and pipes see nothing.
pub(crate) struct Progress(Option<indicatif::ProgressBar>);

impl Progress {
    /// For `total` units of `what` ("steps", "runs").
    pub(crate) fn new(total: u64, what: &str, quiet: bool) -> Progress {
        if quiet || !std::io::stderr().is_terminal() {
            return Progress(None);
        }
        let bar = indicatif::ProgressBar::new(total);
        let style = indicatif::ProgressStyle::with_template(&format!(
            "{{bar:30}} {{pos}}/{{len}} {what}  {{msg}}  {{per_sec}}  {{eta}} left"
        ))
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
        bar.set_style(style);
        Progress(Some(bar))
    }

    /// `done` units done; `t` the simulated time (s), shown beside the bar.
    pub(crate) fn at(&self, done: u64, t: f64) {
        if let Some(bar) = &self.0 {
            bar.set_position(done);
            if done % 64 == 0 {
                bar.set_message(format!("t = {t:.3} s"));
            }
        }
    }

    /// One more unit done, with a message.
    pub(crate) fn inc(&self, msg: &str) {
        if let Some(bar) = &self.0 {
            bar.inc(1);
            bar.set_message(msg.to_string());
        }
    }

    /// Whether a bar is drawn (else the caller may print plain lines).
    pub(crate) fn drawn(&self) -> bool {
        self.0.is_some()
    }

    /// Clear the bar.
    pub(crate) fn done(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}

/// A preset or scenario text, or the path of a JSON scenario file.
fn load_scenario(arg: &str) -> Result<Scenario, String> {
    let path = std::path::Path::new(arg);
    if path.is_file() || arg.ends_with(".json") {
        let meta = std::fs::metadata(path)
            .map_err(|e| format!("cannot read scenario file '{arg}': {e}"))?;
        if meta.len() > tumble::custom::MAX_JSON as u64 {
            return Err(format!(
                "scenario file '{arg}' is {} bytes; at most {} are accepted",
                meta.len(),
                tumble::custom::MAX_JSON
            ));
        }
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read scenario file '{arg}': {e}"))?;
        return Scenario::parse(&text).map_err(|e| format!("{arg}: {}", e.0));
    }
    Scenario::parse(arg).map_err(|e| e.0)
}

fn bench(a: BenchArgs) -> Result<(), String> {
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
        .unwrap_or("nk-revolute,nk-spherical,chain?links=16,chain?links=64,chain?links=256,chain?links=1024")
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
            "{:<28} {:<10} {:>8} {:>12} {:>12} {:>10} {:>12}",
            "scenario",
            "integrator",
            "bodies",
            "us/step",
            "us/body",
            "its/step",
            "max |bal/E0|"
        );
    }
    for text in &scenarios {
        let sc = load_scenario(text)?;
        for &m in &methods {
            let mut settings = Settings::for_scenario(&sc);
            settings.dt = sc.suitable_dt(m);
            if let Some(dt) = o.number("dt")? {
                settings.dt = dt;
            }
            if let Some(tol) = o.number("tol")? {
                settings.tol = tol;
            }
            settings.validate()?;
            let mut times = vec![];
            let mut its = 0u64;
            let mut de = 0.0;
            let mut failed = None;
            for _ in 0..repeats {
                let mut sim = match Simulation::new(&sc, m, settings) {
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
            let n = sc.model.bodies.len();
            match failed {
                Some(e) if json => outln!(
                    "{}",
                    serde_json::json!({"scenario": sc.canonical(), "integrator": m.name(), "bodies": n, "error": e})
                ),
                Some(e) => outln!(
                    "{:<28} {:<10} {:>8} failed: {e}",
                    sc.canonical(),
                    m.name(),
                    n
                ),
                None if json => {
                    times.sort_by(f64::total_cmp);
                    let med = times[times.len() / 2];
                    outln!(
                        "{}",
                        serde_json::json!({
                            "scenario": sc.canonical(), "integrator": m.name(), "bodies": n,
                            "us_per_step": med, "us_per_body": med / n as f64,
                            "its_per_step": its as f64 / steps as f64, "max_rel_balance": de
                        })
                    );
                }
                None => {
                    times.sort_by(f64::total_cmp);
                    let med = times[times.len() / 2];
                    outln!(
                        "{:<28} {:<10} {:>8} {:>12.2} {:>12.3} {:>10.2} {:>12.2e}",
                        sc.canonical(),
                        m.name(),
                        n,
                        med,
                        med / n as f64,
                        its as f64 / steps as f64,
                        de
                    );
                }
            }
        }
    }
    Ok(())
}
