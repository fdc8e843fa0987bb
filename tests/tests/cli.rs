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
