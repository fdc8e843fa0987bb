//! `tumble study`: convergence order, reference error, invariants and long-time behaviour of
//! the integrators on one scenario. See docs/cli.md, "Convergence studies".
mod record;
mod report;

use crate::out::outln;
pub use record::print_record;
use record::{simulate, Record, RecordJson};
use report::report;

use crate::progress::Progress;
use crate::{load_scenario, settings_from, Opts};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use tumble::study::Plan;
use tumble::text::Num;
use tumble::{Method, Scenario};

const OPTIONS: &[&str] = &[
    "integrators",
    "dt",
    "levels",
    "duration",
    "long",
    "jobs",
    "format",
    "reference",
    "plan",
    "collect",
    "tol",
    "max-iter",
    "alpha",
    "beta",
];

pub(crate) struct Study {
    pub(crate) text: String,
    pub(crate) scenario: Scenario,
    /// the runs (tumble::study, shared with the page's Study view)
    pub(crate) plan: Plan,
    pub(crate) jobs: usize,
    pub(crate) csv: bool,
    pub(crate) reference_file: Option<String>,
}

fn parse(args: &[String]) -> Result<(Study, Opts), String> {
    let (pos, o) = Opts::parse(args, OPTIONS)?;
    let text = match pos.as_slice() {
        [t] => t.clone(),
        [] => {
            return Err(
                "study needs a SCENARIO (or --collect DIR); see 'tumble study --help'".to_string(),
            )
        }
        _ => return Err(format!("study takes one SCENARIO, got {}", pos.len())),
    };
    let scenario = load_scenario(&text)?;
    let methods = crate::methods_from(&o)?;
    let whole = |key: &str, default: f64, lo: f64, hi: f64| -> Result<usize, String> {
        let v = o.number(key)?.unwrap_or(default);
        if v != v.floor() || v < lo || v > hi {
            return Err(format!(
                "--{key} must be a whole number from {} to {}, not {}",
                Num(lo),
                Num(hi),
                Num(v)
            ));
        }
        Ok(v as usize)
    };
    let levels = whole("levels", 4.0, 1.0, 16.0)?;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let jobs = whole("jobs", cores as f64, 1.0, 1024.0)?;
    let duration = o.number("duration")?.unwrap_or(1.0);
    if !(duration > 0.0 && duration <= 1e6) {
        return Err(format!(
            "--duration must be above 0 and at most 1e6 s, not {}",
            Num(duration)
        ));
    }
    let long = o.number("long")?.unwrap_or(0.0);
    if !(0.0..=1e6).contains(&long) {
        return Err(format!(
            "--long must be between 0 (none) and 1e6 s, not {}",
            Num(long)
        ));
    }
    let csv = match o.get("format").unwrap_or("json") {
        "json" => false,
        "csv" => true,
        f => return Err(format!("--format must be json or csv, not '{f}'")),
    };
    let bases = methods
        .iter()
        .map(|&m| settings_from(&scenario, m, &o))
        .collect::<Result<Vec<_>, _>>()?;
    let reference_file = o.get("reference").map(str::to_string);
    let reference = match reference_file {
        None => Some(settings_from(&scenario, Method::Director, &o)?),
        Some(_) => None,
    };
    let plan = Plan::new(&methods, &bases, reference, levels, duration, long)?;
    let study = Study {
        text,
        scenario,
        plan,
        jobs,
        csv,
        reference_file,
    };
    Ok((study, o))
}

/// `tumble study ...`
/// `args` as clap parsed them (`cli::StudyArgs::to_args`); `quiet`: no progress on stderr.
pub fn study(args: &[String], quiet: bool) -> Result<(), String> {
    // --collect DIR: the study's arguments come from DIR/study-args.txt (written by --plan)
    let (_, o) = Opts::parse(args, OPTIONS)?;
    if let Some(dir) = o.get("collect") {
        let saved = std::fs::read_to_string(format!("{dir}/study-args.txt"))
            .map_err(|e| format!("cannot read {dir}/study-args.txt (written by --plan): {e}"))?;
        let mut all: Vec<String> = saved.lines().map(str::to_string).collect();
        // options given with --collect (e.g. --format) override the saved ones
        let mut it = args.iter();
        while let Some(a) = it.next() {
            if a == "--collect" || a == "--plan" {
                it.next();
            } else {
                all.push(a.clone());
            }
        }
        let (s, _) = parse(&all)?;
        let mut records = vec![];
        for spec in &s.plan.specs {
            let path = format!("{dir}/{}.json", spec.name());
            let text =
                std::fs::read_to_string(&path).map_err(|e| format!("cannot read {path}: {e}"))?;
            let r = Record::from_json(text.trim()).map_err(|e| format!("{path}: {e}"))?;
            if r.integrator != spec.method.name()
                || r.settings.dt.to_bits() != spec.settings.dt.to_bits()
                || r.duration.to_bits() != spec.duration.to_bits()
            {
                return Err(format!(
                    "{path} is not the run the plan asked for ({} at h = {:e})",
                    spec.method.name(),
                    spec.settings.dt
                ));
            }
            records.push(r);
        }
        return report(&s, &records);
    }
    let (s, o) = parse(args)?;
    if let Some(dir) = o.get("plan") {
        return plan(&s, args, dir);
    }
    let records = execute(&s, quiet);
    report(&s, &records)
}

/// Quote for a POSIX shell.
fn shell_quote(s: &str) -> String {
    if !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:,".contains(&b))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// `--plan DIR`: one `tumble run` line per run, each writing DIR/<run>.json; the study's
/// arguments go to DIR/study-args.txt for `--collect DIR`.
fn plan(s: &Study, args: &[String], dir: &str) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {dir}: {e}"))?;
    let mut saved = String::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--plan" {
            it.next();
        } else {
            saved.push_str(a);
            saved.push('\n');
        }
    }
    std::fs::write(format!("{dir}/study-args.txt"), saved)
        .map_err(|e| format!("cannot write {dir}/study-args.txt: {e}"))?;
    let exe = std::env::current_exe()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|_| "tumble".into());
    for spec in &s.plan.specs {
        let st = &spec.settings;
        outln!(
            "{} run {} --integrator {} --dt {:?} --duration {:?} --tol {:?} --max-iter {} --alpha {:?} --beta {:?} --format study > {}",
            shell_quote(&exe),
            shell_quote(&s.text),
            spec.method.name(),
            st.dt,
            spec.duration,
            st.tol,
            st.max_iter,
            st.alpha,
            st.beta,
            shell_quote(&format!("{dir}/{}.json", spec.name()))
        );
    }
    Ok(())
}

/// Run every spec on `s.jobs` threads, longest first; progress on stderr: a bar on a terminal,
/// plain lines otherwise (logs and CI), nothing with `quiet`.
fn execute(s: &Study, quiet: bool) -> Vec<Record> {
    let specs = &s.plan.specs;
    let n = specs.len();
    let mut order: Vec<usize> = (0..n).collect();
    let cost = |i: usize| specs[i].duration / specs[i].settings.dt;
    order.sort_by(|&a, &b| cost(b).total_cmp(&cost(a)));
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Record>>> = Mutex::new(vec![None; n]);
    let bar = Progress::new(n as u64, "runs", quiet);
    std::thread::scope(|scope| {
        for _ in 0..s.jobs.min(n) {
            scope.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::SeqCst);
                let Some(&i) = order.get(k) else { break };
                let spec = &specs[i];
                let r = simulate(&s.scenario, spec.method, spec.settings, spec.duration);
                results.lock().unwrap()[i] = Some(r);
                let d = done.fetch_add(1, Ordering::SeqCst) + 1;
                if bar.drawn() {
                    bar.inc(&format!("{} finished", spec.name()));
                } else if !quiet {
                    eprint!(
                        "\rtumble study: {d}/{n} runs done ({} finished) ",
                        spec.name()
                    );
                }
            });
        }
    });
    bar.done();
    if !quiet && !bar.drawn() {
        eprintln!();
    }
    results
        .into_inner()
        .unwrap()
        .into_iter()
        .map(Option::unwrap)
        .collect()
}
