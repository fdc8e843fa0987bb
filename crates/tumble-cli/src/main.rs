//! `tumble`: run the scenarios natively and print numbers for papers. The grammar (commands,
//! options, help, completions, man page) is in `cli.rs`; `tumble --help` prints it. Each
//! command has its file (`run.rs`, `bench.rs`, `study.rs`); this one dispatches and holds what
//! they share: the options' reading, the settings, loading a scenario.
//! Errors go to stderr with exit status 1.
use clap::{CommandFactory, Parser};
use cli::{Cli, Command, Shell};
use out::{out, outln};
use std::process::ExitCode;
use tumble::{Method, Scenario, Settings};

mod bench;
mod cli;
mod controls;
mod link;
mod out;
mod progress;
mod run;
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
        Command::Run(a) => run::run(a),
        Command::Bench(a) => bench::bench(a),
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
                "--max-iter must be a whole number from 1 to 200, not {}",
                tumble::text::Num(v)
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

/// Whether a scenario argument names a file (read as one by [`load_scenario`]).
fn is_scenario_file(arg: &str) -> bool {
    std::path::Path::new(arg).is_file() || arg.ends_with(".json")
}

/// A preset or scenario text, or the path of a JSON scenario file.
fn load_scenario(arg: &str) -> Result<Scenario, String> {
    let path = std::path::Path::new(arg);
    if is_scenario_file(arg) {
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
