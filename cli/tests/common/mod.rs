//! The helpers the end-to-end tests of `poly` share: running the binary with
//! bytes on standard input and reading its output.
#![allow(dead_code)] // (each test file uses some of them)

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `poly ARGS` with `stdin` written from a thread (a large input must
/// not deadlock against a full stdout).
pub fn poly_bytes(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_poly"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("poly starts");
    let mut input = child.stdin.take().expect("stdin");
    let bytes = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&bytes);
    });
    let out = child.wait_with_output().expect("poly runs");
    writer.join().expect("writer");
    out
}

/// Runs `poly ARGS` with text on standard input.
pub fn poly(args: &[&str], stdin: &str) -> Output {
    poly_bytes(args, stdin.as_bytes())
}

/// Standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The path of a kernel of `schedule/tests/kernels/`.
pub fn kernel(name: &str) -> String {
    format!(
        "{}/../schedule/tests/kernels/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}
