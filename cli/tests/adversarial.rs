//! `poly` as a careless or hostile user runs it: a standard output that
//! cannot be written. Every subcommand, with its output to `/dev/full`,
//! says `poly: COMMAND: cannot write the output: ...` and exits with status
//! 1; with its output a pipe whose reader has gone (closed before `poly`
//! writes, or after one byte of an output larger than a pipe holds), it
//! stops quietly with status 141, as a C tool killed by SIGPIPE. Never the
//! status 101 of a panic ("failed printing to stdout").

mod common;

use std::fs::OpenOptions;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::{Mutex, MutexGuard};

/// The tests of this file run one at a time: a child forked by another test's
/// spawn holds a copy of every open pipe end until it execs, so the reading
/// end of [`closed_pipe`] could still be open in it while `poly` writes.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn alone() -> MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("poly_adversarial_{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Each subcommand (its name in messages, its arguments), reading files
/// only (standard input is closed).
fn commands() -> Vec<(&'static str, Vec<String>)> {
    let d = dir();
    let isl = d.join("set.isl");
    std::fs::write(&isl, "[N] -> { [i, j] : 0 <= i < N and 0 <= j <= i }\n").unwrap();
    let batch = d.join("batch.txt");
    std::fs::write(
        &batch,
        "is_empty\t{ [i] : 0 <= i < 4 }\nlexmin\t{ [i] : 2 <= i < 4 }\n",
    )
    .unwrap();
    let path = |p: &Path| p.to_str().unwrap().to_string();
    let gemm = common::kernel("gemm.c");
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<String>>();
    vec![
        ("parse", vec!["parse".into(), path(&isl)]),
        ("scop", s(&["scop", &gemm])),
        ("deps", s(&["deps", &gemm])),
        ("schedule", s(&["schedule", &gemm])),
        ("opt", s(&["opt", &gemm])),
        ("opt", s(&["opt", "--help"])),
        (
            "codegen",
            vec![
                "codegen".into(),
                path(&root().join("cli/tests/codegen/shift.in")),
            ],
        ),
        (
            "volume",
            vec![
                "volume".into(),
                path(&root().join("examples/matmul_bias_relu.mlir")),
            ],
        ),
        ("help", s(&["--help"])),
        ("help", s(&["help"])),
        ("calc", s(&["calc", "--help"])),
        (
            "calc",
            vec!["calc".into(), path(&root().join("examples/intro.poly"))],
        ),
        ("batch", vec!["batch".into(), path(&batch)]),
        ("batch", s(&["batch", "--help"])),
    ]
}

fn poly_to(args: &[String], stdout: Stdio) -> Output {
    Command::new(env!("CARGO_BIN_EXE_poly"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .output()
        .expect("poly runs")
}

fn no_panic(what: &str, o: &Output) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_ne!(o.status.code(), Some(101), "{what}: {err}");
    assert!(!err.contains("panicked"), "{what}: {err}");
}

#[test]
fn a_full_disk_is_an_error_with_a_message() {
    let _alone = alone();
    if !Path::new("/dev/full").exists() {
        eprintln!("no /dev/full: skipped");
        return;
    }
    for (name, args) in commands() {
        let full = OpenOptions::new().write(true).open("/dev/full").unwrap();
        let o = poly_to(&args, Stdio::from(full));
        no_panic(&format!("{args:?} > /dev/full"), &o);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{args:?} > /dev/full: {err}");
        let want = format!("poly: {name}: cannot write the output: ");
        assert!(err.starts_with(&want), "{args:?} > /dev/full: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?} > /dev/full: {err}");
    }
}

/// The writing end of a pipe whose reading end is closed: the reader, a
/// `poly help` that reads nothing, has exited before it is returned.
fn closed_pipe() -> Stdio {
    let mut reader = Command::new(env!("CARGO_BIN_EXE_poly"))
        .arg("help")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("poly starts");
    let w = reader.stdin.take().expect("the pipe");
    reader.wait().expect("the reader exits");
    Stdio::from(w)
}

#[test]
fn a_pipe_closed_before_any_output_ends_quietly_with_141() {
    let _alone = alone();
    for (_, args) in commands() {
        let o = poly_to(&args, closed_pipe());
        no_panic(&format!("{args:?} | (closed)"), &o);
        assert_eq!(
            o.status.code(),
            Some(141),
            "{args:?} | (closed): {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(o.stderr.is_empty(), "{args:?}: {:?}", o.stderr);
    }
}

/// A SCoP of `n` statements: `poly scop` prints about 80 bytes for each.
fn big_scop(n: usize) -> PathBuf {
    let mut text = String::from("#pragma scop\n");
    for k in 0..n {
        text.push_str(&format!("A[{k}] = A[{}] + B[{k}];\n", k + 1));
    }
    text.push_str("#pragma endscop\n");
    let f = dir().join(format!("big{n}.c"));
    std::fs::write(&f, text).unwrap();
    f
}

#[test]
fn head_c1_on_an_output_larger_than_a_pipe_ends_quietly_with_141() {
    let _alone = alone();
    let f = big_scop(1500);
    let args = ["scop".to_string(), f.to_str().unwrap().to_string()];
    // the whole output first: larger than the 64 KiB a pipe holds
    let whole = poly_to(&args, Stdio::piped());
    assert!(whole.status.success());
    assert!(whole.stdout.len() > 100_000, "{}", whole.stdout.len());
    // as `poly scop big.c | head -c1`
    let mut child = Command::new(env!("CARGO_BIN_EXE_poly"))
        .args(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("poly starts");
    let mut out = child.stdout.take().unwrap();
    let mut one = [0u8; 1];
    out.read_exact(&mut one).unwrap();
    assert_eq!(one[0], whole.stdout[0]);
    drop(out);
    let o = child.wait_with_output().expect("poly runs");
    no_panic("poly scop big.c | head -c1", &o);
    assert_eq!(o.status.code(), Some(141));
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn errors_are_still_reported_when_the_output_cannot_be_written() {
    let _alone = alone();
    if !Path::new("/dev/full").exists() {
        return;
    }
    // the command's own error comes first: nothing was written
    let full = OpenOptions::new().write(true).open("/dev/full").unwrap();
    let o = poly_to(&["parse".into(), "/nonexistent/f.isl".into()], full.into());
    no_panic("parse /nonexistent", &o);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot read /nonexistent/f.isl"));
    // a full standard error is not reported anywhere, and is no panic
    let full = OpenOptions::new().write(true).open("/dev/full").unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_poly"))
        .args(["parse", "/nonexistent/f.isl"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::from(full))
        .status()
        .expect("poly runs");
    assert_eq!(o.code(), Some(1));
}
