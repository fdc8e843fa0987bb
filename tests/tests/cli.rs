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
