//! `tumble study`, through the command line: the release binary is built first
//! (`cargo build --release -p tumble-cli`, a no-op when scripts/test.sh has built it; set
//! TUMBLE_BIN to test another binary). Every study here is on nk-revolute at its H0 = 0.01 s,
//! where all three methods are in their asymptotic range (docs/methods.md, planar_chain.rs:
//! Baumgarte's order is 2, reached from h = 0.01 on; from 0.04 its first orders are 1.89, 1.96).
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};
use tumble_tests::{planar_angle, planar_chain_centres, planar_chain_rk4, tumble};

fn run(args: &[&str]) -> Output {
    Command::new(tumble())
        .args(args)
        .output()
        .expect("cannot start tumble")
}

/// Run and expect success; stdout.
fn ok(args: &[&str]) -> String {
    let out = run(args);
    assert!(
        out.status.success(),
        "tumble {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The report with every timing value ("wall_seconds", "wall_per_step") replaced by 0.
fn without_timing(report: &str) -> String {
    let mut out = String::new();
    let mut rest = report;
    while let Some(i) = rest.find("\"wall_") {
        let colon = i + rest[i..].find(':').unwrap();
        out.push_str(&rest[..=colon]);
        out.push('0');
        rest = &rest[colon + 1..];
        let end = rest.find([',', '}']).unwrap();
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or(f64::NAN)
}

/// The observed orders of all three integrators from H0 = 0.01 (levels 0.01 .. 0.00125, T = 1 s)
/// are within 0.1 of 2 (measured: director 2.000, 2.001, 2.004; RATTLE 2.000, 1.999, 1.997;
/// Baumgarte 1.998, 2.000, 1.999), and no run fails.
#[test]
fn observed_orders_on_nk_revolute() {
    let report: Value =
        serde_json::from_str(&ok(&["study", "nk-revolute", "--levels", "4"])).unwrap();
    assert_eq!(report["integrators"].as_array().unwrap().len(), 3);
    for t in report["integrators"].as_array().unwrap() {
        let name = t["integrator"].as_str().unwrap();
        let orders: Vec<f64> = t["orders"].as_array().unwrap().iter().map(num).collect();
        println!("{name}: orders {orders:?}");
        assert_eq!(orders.len(), 3);
        for o in &orders {
            assert!(
                (o - 2.0).abs() < 0.1,
                "{name}: order {o} (orders {orders:?})"
            );
        }
        assert_eq!(num(&t["h0"]), 0.01);
        for r in t["runs"].as_array().unwrap() {
            assert!(r["failed"].is_null(), "{name}: {}", r["failed"]);
            assert!(num(&r["error"]) > 0.0 && num(&r["max_joint_violation"]).is_finite());
        }
    }
}

/// The reference (director at 0.01 / 2^7, tolerance 1e-14) is at least 100 times more accurate
/// than the finest level (h = 0.00125) of every integrator, by two measures: the study's own
/// estimate (the difference to the run at twice the step, over 3), and the error against an
/// independent reference, the minimal-coordinate solution of the planar chain (RK4, its error
/// below 1e-15 at t = 1 s). Measured: estimate 7.3e-9, against RK4 7.3e-9, finest error 1.85e-6
/// (director) to 6.5e-6 (Baumgarte): ratio 255.
#[test]
fn reference_is_100_times_more_accurate_than_the_finest_level() {
    let report: Value =
        serde_json::from_str(&ok(&["study", "nk-revolute", "--levels", "4"])).unwrap();
    let finest = report["integrators"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| num(&t["runs"][3]["error"]))
        .fold(f64::INFINITY, f64::min);
    let estimate = num(&report["reference"]["estimated_error"]);
    let ratio = num(&report["reference"]["finest_error_over_reference_error"]);
    println!("finest error {finest:e}, reference estimate {estimate:e}, ratio {ratio}");
    assert!(ratio >= 100.0 && (ratio - finest / estimate).abs() < 1e-9 * ratio);

    // the same reference run, against the planar chain's minimal-coordinate solution
    let source = report["reference"]["source"].as_str().unwrap();
    assert!(source.contains("7.8125e-5"), "{source}");
    let rec: Value = serde_json::from_str(&ok(&[
        "run",
        "nk-revolute",
        "--integrator",
        "director",
        "--dt",
        "7.8125e-5",
        "--duration",
        "1",
        "--tol",
        "1e-14",
        "--format",
        "study",
    ]))
    .unwrap();
    let sc = tumble::Scenario::parse("nk-revolute").unwrap();
    let theta0: Vec<f64> = sc.initial.iter().map(|b| planar_angle(&b.r)).collect();
    let (theta, _) = planar_chain_rk4(&theta0, 1.0, 10_000);
    let centres = planar_chain_centres(&theta);
    let mut err = 0.0f64;
    for (k, b) in rec["bodies"].as_array().unwrap().iter().enumerate() {
        let x: Vec<f64> = b["position"].as_array().unwrap().iter().map(num).collect();
        let dx = [x[0], x[1] - centres[k][0], x[2] - centres[k][1]];
        err = err.max(dx.iter().map(|d| d * d).sum::<f64>().sqrt());
        // R = rotation about x1 by theta, rows (1,0,0), (0,c,-s), (0,s,c)
        let (s, c) = theta[k].sin_cos();
        let exact = [[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]];
        let mut fro = 0.0;
        for (i, row) in b["rotation"].as_array().unwrap().iter().enumerate() {
            for (j, v) in row.as_array().unwrap().iter().enumerate() {
                fro += (num(v) - exact[i][j]).powi(2);
            }
        }
        err = err.max(fro.sqrt()); // L = 1 m
    }
    println!(
        "reference against the minimal-coordinate solution: {err:e}, ratio {}",
        finest / err
    );
    assert!(
        finest / err >= 100.0,
        "finest {finest:e}, reference error {err:e}"
    );
    assert!(
        (err / estimate - 1.0).abs() < 0.2,
        "estimate {estimate:e} against {err:e}"
    );
}

/// --jobs 1 and --jobs 2 give the same report, bit for bit, timing aside (levels, reference
/// and a 20 s long run).
#[test]
fn jobs_1_and_2_give_identical_reports() {
    let args = |j| {
        [
            "study",
            "nk-revolute",
            "--levels",
            "3",
            "--long",
            "20",
            "--jobs",
            j,
        ]
    };
    let one = without_timing(&ok(&args("1")));
    let two = without_timing(&ok(&args("2")));
    assert!(one.contains("\"error\":0.000"), "{one}");
    assert_eq!(one, two);
}

/// --plan DIR, then every line of the plan run by the shell, then --collect DIR: the same
/// report as the direct study (timing aside), in JSON and in CSV.
#[test]
fn plan_then_collect_gives_the_direct_report() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("study-plan");
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let study = [
        "study",
        "nk-revolute",
        "--levels",
        "3",
        "--long",
        "20",
        "--integrators",
        "rattle,director,baumgarte",
    ];
    let plan = ok(&[&study[..], &["--plan", d]].concat());
    let lines: Vec<&str> = plan.lines().collect();
    assert_eq!(lines.len(), 3 * 3 + 3 + 2, "{plan}");
    for line in &lines {
        assert!(
            line.contains(" run nk-revolute --integrator ") && line.contains("--format study >"),
            "{line}"
        );
        let st = Command::new("sh").args(["-c", line]).status().unwrap();
        assert!(st.success(), "{line}");
    }
    let direct = ok(&study);
    let collected = ok(&["study", "--collect", d]);
    assert_eq!(without_timing(&direct), without_timing(&collected));
    let csv = |s: &str| -> String {
        s.lines()
            .map(|l| l.split(',').take(17).collect::<Vec<_>>().join(","))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let direct_csv = ok(&[&study[..], &["--format", "csv"]].concat());
    let collected_csv = ok(&["study", "--collect", d, "--format", "csv"]);
    assert_eq!(csv(&direct_csv), csv(&collected_csv));
    assert!(direct_csv
        .lines()
        .nth(2)
        .unwrap()
        .starts_with("integrator,level,h,"));
}

/// --reference FILE with a `tumble run` JSON trajectory of the default reference's own run
/// (two levels: 0.01 / 2^5) gives the same errors as the computed reference (the run's numbers read back bit for bit).
#[test]
fn reference_file_from_tumble_run() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let file = dir.join("study-reference.json");
    let traj = ok(&[
        "run",
        "nk-revolute",
        "--integrator",
        "director",
        "--dt",
        "3.125e-4",
        "--duration",
        "1",
        "--tol",
        "1e-14",
        "--every",
        "0.25",
    ]);
    std::fs::write(&file, traj).unwrap();
    let computed: Value =
        serde_json::from_str(&ok(&["study", "nk-revolute", "--levels", "2"])).unwrap();
    let from_file: Value = serde_json::from_str(&ok(&[
        "study",
        "nk-revolute",
        "--levels",
        "2",
        "--reference",
        file.to_str().unwrap(),
    ]))
    .unwrap();
    for (a, b) in computed["integrators"]
        .as_array()
        .unwrap()
        .iter()
        .zip(from_file["integrators"].as_array().unwrap())
    {
        for (ra, rb) in a["runs"]
            .as_array()
            .unwrap()
            .iter()
            .zip(b["runs"].as_array().unwrap())
        {
            assert_eq!(ra["error"], rb["error"]);
            assert!(num(&ra["error"]) > 0.0);
        }
    }
    assert!(from_file["reference"]["source"]
        .as_str()
        .unwrap()
        .starts_with("file "));
}

/// The long run over 1000 s (1e5 steps at h = 0.01) tells the methods apart: the director's
/// energy error stays below 1e-10 (measured 7.2e-11: it is round-off and the Newton tolerance,
/// growing slowly), Baumgarte's grows decade by decade (max over [0.01, 0.1), [0.1, 1), [1, 10),
/// [10, 100) s: about 5e-7, 5e-5, 6e-2, 2.8) until the run blows up at t = 146 s, reported in
/// its row. Release binary: about 8 s on 2 cores.
#[test]
fn long_run_separates_director_and_baumgarte() {
    let report: Value = serde_json::from_str(&ok(&[
        "study",
        "nk-revolute",
        "--levels",
        "1",
        "--long",
        "1000",
        "--integrators",
        "director,baumgarte",
    ]))
    .unwrap();
    let long = report["long"].as_array().unwrap();
    let director = &long[0];
    let baumgarte = &long[1];
    assert_eq!(director["integrator"], "director");
    assert!(director["failed"].is_null());
    assert!(
        (num(&director["series"].as_array().unwrap().last().unwrap()[0]) - 1000.0).abs() < 1e-6
    );
    let de = num(&director["max_energy_error"]);
    println!("director max energy error over 1000 s: {de:e}");
    assert!(de < 1e-10, "{de:e}");
    let decade = |r: &Value, lo: f64| {
        r["series"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| num(&p[0]) >= lo && num(&p[0]) < 10.0 * lo)
            .map(|p| num(&p[1]))
            .fold(0.0, f64::max)
    };
    let grow: Vec<f64> = [0.01, 0.1, 1.0, 10.0]
        .iter()
        .map(|&lo| decade(baumgarte, lo))
        .collect();
    println!(
        "baumgarte energy error by decade from 0.01 s: {grow:?}; failed: {}",
        baumgarte["failed"]
    );
    for w in grow.windows(2) {
        assert!(
            w[1] > 10.0 * w[0],
            "Baumgarte's energy error does not grow: {grow:?}"
        );
    }
    assert!(grow[3] > 0.1 && grow[3] > 1e8 * de, "{grow:?}");
}

/// A failed run is reported in its row and the study goes on: RATTLE on nk-spherical at
/// h = 0.1 has no step at t = 1.3 s (docs/methods.md), its finer levels and the director run.
#[test]
fn a_failed_run_is_reported_in_its_row() {
    let report: Value = serde_json::from_str(&ok(&[
        "study",
        "nk-spherical",
        "--integrators",
        "rattle,director",
        "--dt",
        "0.1",
        "--duration",
        "2",
        "--levels",
        "2",
    ]))
    .unwrap();
    let rattle = &report["integrators"][0];
    let failed = rattle["runs"][0]["failed"].as_str().unwrap();
    assert!(
        failed.contains("step 14 (t = 1.300000 s) failed"),
        "{failed}"
    );
    assert!(rattle["runs"][0]["error"].is_null() && rattle["orders"][0].is_null());
    assert!(rattle["runs"][1]["failed"].is_null() && num(&rattle["runs"][1]["error"]) > 0.0);
    let director = &report["integrators"][1];
    assert!(director["runs"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["failed"].is_null()));
    // only l3 (about the vertical through the ground point) is conserved
    let drift = &rattle["runs"][1]["momentum_drift"];
    assert!(
        drift[0].is_null() && drift[1].is_null() && num(&drift[2]) < 1e-9,
        "{drift}"
    );
}

/// Bad options and inputs: a message on stderr and exit status 1, never a panic.
#[test]
fn bad_options_give_a_message_and_exit_1() {
    let cases: &[(&[&str], &str)] = &[
        (&["study"], "needs a SCENARIO"),
        (&["study", "nope"], "unknown scenario"),
        (&["study", "nk-revolute", "--levels", "0"], "--levels"),
        (&["study", "nk-revolute", "--levels", "2.5"], "--levels"),
        (&["study", "nk-revolute", "--jobs", "many"], "--jobs"),
        (&["study", "nk-revolute", "--format", "xml"], "--format"),
        (
            &["study", "nk-revolute", "--integrators", "euler"],
            "unknown integrator",
        ),
        (
            &["study", "nk-revolute", "--duration", "0.015"],
            "whole number of steps",
        ),
        (&["study", "nk-revolute", "--duration", "-1"], "--duration"),
        (&["study", "nk-revolute", "--dt", "2"], "dt must be"),
        (
            &["study", "nk-revolute", "--levels", "11"],
            "reference step",
        ),
        (
            &["study", "nk-revolute", "--reference", "/nonexistent.json"],
            "cannot read reference",
        ),
        // clap's messages: the option named, with a suggestion where one is close
        (
            &["study", "nk-revolute", "--levels"],
            "a value is required for '--levels",
        ),
        (
            &["study", "nk-revolute", "--bogus", "1"],
            "unexpected argument '--bogus'",
        ),
        (
            &["study", "nk-revolute", "--level", "2"],
            "a similar argument exists: '--levels'",
        ),
        (
            &["study", "--collect", "/nonexistent-dir"],
            "study-args.txt",
        ),
    ];
    for (args, needle) in cases {
        let out = run(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains(needle) && !err.contains("panicked"),
            "{args:?}: {err}"
        );
    }
}
