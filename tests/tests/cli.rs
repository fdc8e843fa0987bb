//! The command line as a shell pipeline uses it.
use std::io::Read;
use std::process::{Command, Stdio};
use tumble_tests::tumble;

/// `tumble run ... | head -c 100`: the reader closes the pipe after 100 bytes; tumble stops
/// quietly with status 0 (a `println!` would panic there, on a broken pipe).
#[test]
fn a_closed_pipe_ends_the_output_quietly() {
    let mut child = Command::new(tumble())
        .args([
            "run",
            "chain?links=64",
            "--duration",
            "2",
            "--every",
            "0.01",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cannot start tumble");
    let mut head = [0u8; 100];
    child.stdout.take().unwrap().read_exact(&mut head).unwrap();
    // the pipe's read end is dropped here, before tumble has written its 200 samples
    let out = child.wait_with_output().unwrap();
    assert!(head.starts_with(b"{\"scenario\":\"chain?links=64\""));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "status {:?}: {stderr}", out.status);
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// A write error other than a closed pipe (a full disk: Linux's /dev/full) is a message on
/// stderr and status 1.
#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_is_a_message() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = Command::new(tumble())
        .args(["run", "nk-revolute", "--duration", "0.1"])
        .stdout(full)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("tumble: cannot write to standard output"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// `tumble run` reports the energy budget and the joints' reactions: for the damped pendulum
/// the balance stays at round-off while D grows, and the hinge carries the rod's weight at rest.
#[test]
fn run_reports_the_energy_budget_and_reactions() {
    let out = Command::new(tumble())
        .args([
            "run",
            "damped-pendulum",
            "--duration",
            "1",
            "--every",
            "0.5",
        ])
        .output()
        .expect("cannot run tumble");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let samples = doc["samples"].as_array().unwrap();
    assert_eq!(samples.len(), 3);
    let last = &samples[2];
    assert!(last["dissipated"].as_f64().unwrap() > 0.1);
    assert_eq!(last["work"].as_f64().unwrap(), 0.0);
    assert!(last["balance"].as_f64().unwrap().abs() < 1e-10);
    assert_eq!(last["reactions"].as_array().unwrap().len(), 1);
    let out = Command::new(tumble())
        .args([
            "run",
            "damped-pendulum?angle=0",
            "--duration",
            "0.1",
            "--format",
            "csv",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("t,energy,kinetic,potential,l1,l2,l3,internal_violation,joint_violation,iterations,residual,work,dissipated,balance\n"));
    let out = Command::new(tumble())
        .args([
            "run",
            "damped-pendulum?angle=0",
            "--duration",
            "0.1",
            "--every",
            "0.1",
        ])
        .output()
        .unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let r = &doc["samples"][1]["reactions"][0];
    assert!((r[2].as_f64().unwrap() - 9.81).abs() < 1e-9, "{r}");
}

fn tumble_out(args: &[&str]) -> std::process::Output {
    Command::new(tumble())
        .args(args)
        .output()
        .expect("cannot run tumble")
}

/// `--help` for every command lists its options with units and defaults,
/// `--version` prints the workspace version, a mistyped option exits 1 with a suggestion, and
/// completions and the man page are generated.
#[test]
fn help_version_suggestions_completions() {
    for (cmd, options) in [
        (
            "run",
            &[
                "--integrator",
                "--dt",
                "--tol",
                "--max-iter",
                "--alpha",
                "--beta",
                "--duration",
                "--every",
                "--format",
                "--quiet",
            ][..],
        ),
        (
            "bench",
            &[
                "--scenarios",
                "--integrators",
                "--steps",
                "--repeats",
                "--dt",
                "--tol",
            ][..],
        ),
        (
            "study",
            &[
                "--integrators",
                "--dt",
                "--levels",
                "--duration",
                "--long",
                "--jobs",
                "--format",
                "--reference",
                "--plan",
                "--collect",
                "--quiet",
            ][..],
        ),
        ("completions", &["bash", "zsh", "fish"][..]),
    ] {
        let out = tumble_out(&[cmd, "--help"]);
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        for o in options {
            assert!(text.contains(o), "{cmd} --help lacks {o}:\n{text}");
        }
        // `tumble help CMD` says the same
        let out = tumble_out(&["help", cmd]);
        assert_eq!(String::from_utf8(out.stdout).unwrap(), text);
    }
    let help = String::from_utf8(tumble_out(&["run", "--help"]).stdout).unwrap();
    assert!(
        help.contains("in s") && help.contains("[default: director]"),
        "{help}"
    );
    let out = tumble_out(&["--version"]);
    assert_eq!(
        String::from_utf8(out.stdout).unwrap().trim(),
        format!("tumble {}", env!("CARGO_PKG_VERSION"))
    );
    let out = tumble_out(&["run", "nk-revolute", "--durration", "1"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("a similar argument exists: '--duration'"),
        "{err}"
    );
    let out = tumble_out(&["studdy"]);
    assert_eq!(out.status.code(), Some(1));
    for (shell, marker) in [
        ("bash", "complete -F"),
        ("zsh", "#compdef tumble"),
        ("fish", "complete -c tumble"),
    ] {
        let out = tumble_out(&["completions", shell]);
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(
            text.contains(marker) && text.contains("integrator"),
            "{shell}"
        );
    }
    let man = String::from_utf8(tumble_out(&["man"]).stdout).unwrap();
    assert!(
        man.contains(".TH tumble") && man.contains("run"),
        "{}",
        &man[..200.min(man.len())]
    );
}

/// The JSON documents written by serde are the documents the hand-written writers
/// wrote before, field for field and number for number (tests/golden/cli/, written by the
/// command line before the change; the timing fields aside).
#[test]
fn json_documents_are_those_before_serde() {
    fn strip(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(m) => {
                m.remove("wall_seconds");
                m.remove("wall_per_step");
                m.values_mut().for_each(strip);
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let golden = |name: &str| {
        let path = format!("{}/golden/cli/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(path).unwrap()
    };
    for (name, args) in [
        (
            "run-nk-revolute.json",
            &["run", "nk-revolute", "--duration", "0.5", "--every", "0.1"][..],
        ),
        (
            "run-damped-baumgarte.json",
            &[
                "run",
                "damped-pendulum",
                "--duration",
                "0.2",
                "--every",
                "0.1",
                "--integrator",
                "baumgarte",
            ][..],
        ),
        (
            "run-study.json",
            &[
                "run",
                "nk-revolute",
                "--duration",
                "0.2",
                "--format",
                "study",
            ][..],
        ),
        (
            "study.json",
            &[
                "study",
                "nk-revolute",
                "--levels",
                "2",
                "--duration",
                "0.2",
                "--long",
                "0.4",
                "--integrators",
                "director,rattle",
                "--quiet",
            ][..],
        ),
    ] {
        let out = tumble_out(args);
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let mut new: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let mut old: serde_json::Value = serde_json::from_str(&golden(name)).unwrap();
        strip(&mut new);
        strip(&mut old);
        assert!(
            new == old,
            "{name} differs from the document before the change"
        );
    }
    let out = tumble_out(&[
        "run",
        "chain?links=4",
        "--integrator",
        "rattle",
        "--duration",
        "0.3",
        "--every",
        "0.1",
        "--format",
        "csv",
    ]);
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        golden("run-chain4-rattle.csv")
    );
}

/// NDJSON streams a header, one record per sample and the end with the state hash
/// (the JSON document's), each line a JSON document.
#[test]
fn ndjson_streams_records_ending_with_the_hash() {
    let out = tumble_out(&[
        "run",
        "driven-pendulum",
        "--duration",
        "0.5",
        "--every",
        "0.1",
        "--format",
        "ndjson",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 1 + 6 + 1);
    assert_eq!(lines[0]["scenario"], "driven-pendulum");
    assert!((lines[6]["t"].as_f64().unwrap() - 0.5).abs() < 1e-9);
    let doc: serde_json::Value = serde_json::from_slice(
        &tumble_out(&[
            "run",
            "driven-pendulum",
            "--duration",
            "0.5",
            "--every",
            "0.1",
        ])
        .stdout,
    )
    .unwrap();
    assert_eq!(lines[7]["state_hash"], doc["state_hash"]);
    assert_eq!(lines[3], doc["samples"][2]);
}

/// A progress bar is drawn on stderr when it is a terminal (run under `script`, a
/// pseudo-terminal), not when it is a pipe, and not with --quiet.
#[test]
fn progress_bar_only_on_a_terminal() {
    let bin = tumble().display().to_string();
    let pty = |extra: &str| {
        let log =
            std::env::temp_dir().join(format!("tumble-pty-{}-{extra}.log", std::process::id()));
        let cmd = format!("{bin} run 'chain?links=64' --duration 2 --every 2 {extra} > /dev/null");
        let status = Command::new("script")
            .args(["-qec", &cmd, &log.display().to_string()])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .status()
            .expect("script (util-linux) runs a command under a pseudo-terminal");
        assert!(status.success());
        let text = std::fs::read_to_string(&log).unwrap();
        let _ = std::fs::remove_file(&log);
        text
    };
    let drawn = pty("");
    assert!(
        drawn.contains("steps") && drawn.contains("/200"),
        "no bar on a terminal: {drawn}"
    );
    assert!(!pty("--quiet").contains("/200"), "--quiet still draws");
    let out = tumble_out(&["run", "chain?links=64", "--duration", "2", "--every", "2"]);
    assert!(
        out.stderr.is_empty(),
        "a pipe got: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `tumble bench --format json`: one object a row with named fields (what the peer benchmark
/// reads, so that a renamed table column cannot break it), a failed row with its error.
#[test]
fn bench_json_rows_name_their_fields() {
    let out = tumble_out(&[
        "bench",
        "--scenarios",
        "nk-revolute,chain?links=3",
        "--integrators",
        "director,rattle",
        "--steps",
        "5",
        "--repeats",
        "1",
        "--format",
        "json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 4);
    for r in &rows {
        for k in [
            "scenario",
            "integrator",
            "bodies",
            "us_per_step",
            "us_per_body",
            "its_per_step",
            "max_rel_balance",
            "real_time",
        ] {
            assert!(r.get(k).is_some(), "{k} missing in {r}");
        }
        assert!(r["us_per_step"].as_f64().unwrap() > 0.0);
        assert!(
            (r["us_per_body"].as_f64().unwrap() * r["bodies"].as_f64().unwrap()
                - r["us_per_step"].as_f64().unwrap())
            .abs()
                < 1e-9
        );
    }
    assert_eq!(rows[0]["scenario"], "nk-revolute");
    assert_eq!(rows[1]["integrator"], "rattle");
}

/// `tumble bench` on a system from a file: the row is named by the path given (not by the
/// system's text), and its real-time factor is the step over the time a step took.
#[test]
fn bench_names_a_file_by_its_path_and_gives_the_real_time_factor() {
    let path = format!(
        "{}/../benches/models/strider.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let bench = |more: &[&str]| {
        let common = ["bench", "--scenarios", &path, "--integrators", "baumgarte"];
        let rest = ["--steps", "5", "--repeats", "1"];
        let out = tumble_out(&[&common[..], &rest, more].concat());
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let row: serde_json::Value =
        serde_json::from_str(bench(&["--dt", "0.002", "--format", "json"]).trim()).unwrap();
    assert_eq!(row["scenario"], path.as_str());
    assert_eq!(row["bodies"], 7);
    let (us, real) = (
        row["us_per_step"].as_f64().unwrap(),
        row["real_time"].as_f64().unwrap(),
    );
    assert!(
        (us * real - 2000.0).abs() < 1e-9 * 2000.0,
        "{us} us x {real}"
    );
    let text = bench(&[]);
    assert!(text.lines().next().unwrap().ends_with("x real"), "{text}");
    assert!(text.lines().nth(1).unwrap().starts_with(&path), "{text}");
}

/// `tumble run` gives the joints' coordinates: their names and units in the head, their values
/// in each sample, followed at every step, so that a rotor's angle counts its turns between
/// samples a turn and a half apart: n 2 atan(h omega / 2) after n steps (the director's Cayley
/// map turns a free rotor about a principal axis by that each step, an independent closed form).
#[test]
fn run_gives_the_joints_coordinates_counting_turns_between_samples() {
    let (omega, h): (f64, f64) = (10.0, 0.01);
    let system = format!(
        r#"{{"gravity":[0,0,0],"dt":{h},"bodies":[{{"mass":1,"inertia":[0.2,0.25,0.3],"angular_velocity":[0,0,{omega}]}}],
           "joints":[{{"type":"revolute","a":null,"b":0,"axis_a":[0,0,1],"axis_b":[0,0,1],"name":"spin"}}]}}"#
    );
    let out = tumble_out(&["run", &system, "--duration", "3", "--every", "1", "-q"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        doc["coordinates"],
        serde_json::json!([{"name": "spin", "unit": "rad"}])
    );
    let samples = doc["samples"].as_array().unwrap();
    assert_eq!(samples.len(), 4);
    for (k, s) in samples.iter().enumerate() {
        let theta = s["coordinates"][0].as_f64().unwrap();
        let exact = (100 * k) as f64 * 2.0 * (h * omega / 2.0).atan();
        assert!(
            (theta - exact).abs() < 1e-9,
            "t = {k} s: {theta} against {exact} rad"
        );
    }
    // a system without a joint that has a coordinate: no field
    let out = tumble_out(&["run", "free-body", "--duration", "0.1", "-q"]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(doc.get("coordinates").is_none() && doc["samples"][0].get("coordinates").is_none());
}

/// A run whose balance comes apart (`Invariants::balance_broken`; `presets.rs` has the figures)
/// is said once on stderr, naming the time, the figure and what to try; the run goes on to its
/// end with status 0 and its samples; at a suitable step nothing is said.
#[test]
fn run_warns_once_when_the_balance_comes_apart() {
    let args = |dt: &'static str| {
        [
            "run",
            "damped-pendulum?damping=14",
            "--integrator",
            "rattle",
            "--dt",
            dt,
            "--duration",
            "1.2",
            "--every",
            "0.1",
            "--format",
            "csv",
            "-q",
        ]
    };
    let out = tumble_out(&args("0.05"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(stderr.matches("warning").count(), 1, "{stderr}");
    assert!(
        stderr
            .starts_with("tumble: warning: at t = 0.800000 s the energy balance E - E0 - W + D = "),
        "{stderr}"
    );
    assert!(
        stderr.contains("the step 0.05 s is too large for rattle on this system")
            && stderr
                .trim_end()
                .ends_with("try a smaller --dt or --integrator director"),
        "{stderr}"
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 1 + 13);
    let out = tumble_out(&args("0.01"));
    assert!(out.status.success() && out.stderr.is_empty(), "{:?}", out);
}
