//! `tumble`: run the scenarios natively and print numbers for papers.
//!
//! ```text
//! tumble scenarios
//! tumble run SCENARIO [--integrator director|rattle|baumgarte] [--dt H] [--duration T]
//!            [--every S] [--tol EPS] [--max-iter N] [--alpha A] [--beta B] [--format json|csv]
//! tumble bench [--scenarios A,B,..] [--integrators X,Y,..] [--steps N] [--repeats R] [--dt H] [--tol EPS]
//! tumble study SCENARIO [options]   (study.rs)
//! ```
//! Errors go to stderr with a non-zero exit status.
use out::{out, outln};
use std::fmt::Write as _;
use std::process::ExitCode;
use std::time::Instant;
use tumble::study::{json_num, json_str};
use tumble::{Invariants, Method, Scenario, Settings, Simulation};

mod json;
mod link;
mod out;
mod study;

const USAGE: &str = "usage:
  tumble scenarios
  tumble run SCENARIO [--integrator director|rattle|baumgarte] [--dt H] [--duration T]
             [--every S] [--tol EPS] [--max-iter N] [--alpha A] [--beta B] [--format json|csv|study]
  tumble bench [--scenarios A,B,..] [--integrators X,Y,..] [--steps N] [--repeats R] [--dt H] [--tol EPS]
  tumble study SCENARIO [--integrators X,Y,..] [--dt H0] [--levels K] [--duration T] [--long T_LONG]
               [--jobs N] [--format json|csv] [--reference FILE] [--plan DIR]
               [--tol EPS] [--max-iter N] [--alpha A] [--beta B]
  tumble study --collect DIR [--format json|csv]
SCENARIO is a preset, a scenario text such as 'chain?links=64&joint=spherical'
(quote it in the shell), the path of a JSON scenario file (format: docs/scenarios.md),
or a page's share link (quoted; its integrator, dt, tol, alpha, beta are the defaults) or its
system= value;
'tumble scenarios' lists the presets and their parameters.";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("scenarios") => scenarios(),
        Some("run") => run(&args[1..]),
        Some("bench") => bench(&args[1..]),
        Some("study") => study::study(&args[1..]),
        Some("-h") | Some("--help") | Some("help") => {
            outln!("{USAGE}");
            Ok(())
        }
        Some(other) => Err(format!("unknown command '{other}'\n{USAGE}")),
        None => Err(USAGE.to_string()),
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

/// Parsed `--key value` options.
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

/// One sample: the invariants, the energy budget (work W, dissipated D, the balance
/// E - E0 - W + D, in J), each joint's reaction (the force on its body b in N and the torque on
/// b about the joint's point in N m, world; omitted without joints) and the bodies' poses.
fn sample_json(out: &mut String, inv: &Invariants, sim: &mut Simulation) {
    let m = inv.momentum;
    let _ = write!(
        out,
        "{{\"t\":{},\"energy\":{},\"kinetic\":{},\"potential\":{},\"momentum\":[{},{},{}],\"internal_violation\":{},\"joint_violation\":{},\"iterations\":{},\"residual\":{},\"work\":{},\"dissipated\":{},\"balance\":{},",
        json_num(inv.t),
        json_num(inv.energy()),
        json_num(inv.kinetic),
        json_num(inv.potential),
        json_num(m.x),
        json_num(m.y),
        json_num(m.z),
        json_num(inv.internal_violation),
        json_num(inv.joint_violation),
        inv.iterations,
        json_num(inv.residual),
        json_num(inv.work),
        json_num(inv.dissipated),
        json_num(inv.balance)
    );
    let nj = sim.model().joints.len();
    if nj > 0 {
        let mut r = vec![0.0; 6 * nj];
        out.push_str("\"reactions\":[");
        if sim.reactions(&mut r).is_ok() {
            for (j, x) in r.chunks_exact(6).enumerate() {
                let v: Vec<String> = x.iter().map(|&y| json_num(y)).collect();
                let _ = write!(out, "{}[{}]", if j > 0 { "," } else { "" }, v.join(","));
            }
        }
        out.push_str("],");
    }
    out.push_str("\"bodies\":[");
    for (i, s) in sim.states().iter().enumerate() {
        let r = s.r;
        let row = |k: usize| {
            format!(
                "[{},{},{}]",
                json_num(r.x_axis[k]),
                json_num(r.y_axis[k]),
                json_num(r.z_axis[k])
            )
        };
        let _ = write!(
            out,
            "{}{{\"position\":[{},{},{}],\"rotation\":[{},{},{}]}}",
            if i > 0 { "," } else { "" },
            json_num(s.x.x),
            json_num(s.x.y),
            json_num(s.x.z),
            row(0),
            row(1),
            row(2)
        );
    }
    out.push_str("]}");
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

fn run(args: &[String]) -> Result<(), String> {
    let (pos, mut o) = Opts::parse(
        args,
        &[
            "integrator",
            "dt",
            "duration",
            "every",
            "tol",
            "max-iter",
            "alpha",
            "beta",
            "format",
        ],
    )?;
    let text = match pos.as_slice() {
        [t] => t,
        [] => return Err(format!("run needs a SCENARIO\n{USAGE}")),
        _ => return Err(format!("run takes one SCENARIO, got {}", pos.len())),
    };
    // a page's share link (or its system= value): its scenario, and its settings as options
    // that the command line's own options override
    let sc = match link::parse(text) {
        Some(l) => {
            let l = l.map_err(|e| format!("{e}\n{USAGE}"))?;
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
    let csv = match o.get("format").unwrap_or("json") {
        "json" => false,
        "csv" => true,
        "study" => return study::print_record(&sc, method, settings, duration),
        f => return Err(format!("--format must be json, csv or study, not '{f}'")),
    };
    let mut sim = Simulation::new(&sc, method, settings)?;
    let start = Instant::now();
    let mut out = String::new();
    if csv {
        out.push_str("t,energy,kinetic,potential,l1,l2,l3,internal_violation,joint_violation,iterations,residual,work,dissipated,balance\n");
        sample_csv(&mut out, &sim.invariants());
    } else {
        let mech = sim.mechanism();
        let _ = write!(
            out,
            "{{\"scenario\":{},\"integrator\":\"{}\",\"dt\":{},\"mechanism\":{{\"dof\":{},\"joint_rows\":{},\"redundant_rows\":{:?},\"loop_joints\":{}}},\"samples\":[",
            json_str(&sc.canonical()),
            method.name(),
            json_num(settings.dt),
            mech.dof,
            mech.rows,
            mech.redundant,
            mech.loop_joints
        );
        let inv = sim.invariants();
        sample_json(&mut out, &inv, &mut sim);
    }
    let mut failure = None;
    for k in 1..=steps {
        if let Err(e) = sim.step() {
            failure = Some(format!("step {k} (t = {:.6} s) failed: {e}", sim.time()));
            break;
        }
        if k % every == 0 || k == steps {
            if csv {
                sample_csv(&mut out, &sim.invariants());
            } else {
                out.push(',');
                let inv = sim.invariants();
                sample_json(&mut out, &inv, &mut sim);
            }
        }
    }
    let wall = start.elapsed().as_secs_f64();
    if !csv {
        let _ = write!(
            out,
            "],\"state_hash\":\"{:016x}\",\"wall_seconds\":{}",
            sim.state_hash(),
            json_num(wall)
        );
        if let Some(f) = &failure {
            let _ = write!(out, ",\"error\":{}", json_str(f));
        }
        out.push_str("}\n");
    }
    out!("{out}");
    match failure {
        Some(f) => Err(f),
        None => Ok(()),
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

fn bench(args: &[String]) -> Result<(), String> {
    let (pos, o) = Opts::parse(
        args,
        &["scenarios", "integrators", "steps", "repeats", "dt", "tol"],
    )?;
    if !pos.is_empty() {
        return Err(format!("bench takes only options, got '{}'", pos.join(" ")));
    }
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
    outln!(
        "{:<28} {:<10} {:>8} {:>12} {:>12} {:>10} {:>12}",
        "scenario",
        "integrator",
        "bodies",
        "us/step",
        "us/body",
        "its/step",
        "max |dE/E|"
    );
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
                    // max relative energy error over the run (outside the timed call)
                    de = de.max(((sim.invariants().energy() - e0) / e0).abs());
                }
                times.push(elapsed / steps as f64 * 1e6);
                if failed.is_some() {
                    break;
                }
            }
            let n = sc.model.bodies.len();
            match failed {
                Some(e) => outln!(
                    "{:<28} {:<10} {:>8} failed: {e}",
                    sc.canonical(),
                    m.name(),
                    n
                ),
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
