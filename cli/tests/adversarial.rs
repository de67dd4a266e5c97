//! `poly` as a careless or hostile user runs it.
//!
//! - A standard output that cannot be written: every subcommand, with its
//!   output to `/dev/full`, says `poly: COMMAND: cannot write the output:
//!   ...` and exits with status 1; with its output a pipe whose reader has
//!   gone (closed before `poly` writes, or after one byte of an output
//!   larger than a pipe holds), it stops quietly with status 141, as a C
//!   tool killed by SIGPIPE. Never the status 101 of a panic ("failed
//!   printing to stdout").
//! - Malformed input to every subcommand (empty, truncated, unbalanced
//!   braces, huge numbers, deep nesting, binary garbage): a one-line error
//!   `poly: ...` naming the line and column for text, status 1.
//! - Bad command lines (unknown options, extra files, numbers too large for
//!   an option, a value given twice) and the smaller defects of issue 45,
//!   each with the message it must give.

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

/// `poly ARGS` with `input` on standard input, one at a time with the
/// pipe tests (see [`ONE_AT_A_TIME`]).
fn run(args: &[&str], input: &[u8]) -> Output {
    common::poly_bytes(args, input)
}

/// `o` failed cleanly: status 1, no panic, and standard error one line
/// `poly: ...` (then the usage lines, if any) containing `says`.
fn fails_with(what: &str, o: &Output, says: &str) {
    no_panic(what, o);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{what}: {err}");
    assert!(err.starts_with("poly: "), "{what}: {err}");
    let first = err.lines().next().unwrap_or("");
    assert!(first.contains(says), "{what}: wanted {says:?} in {err}");
}

const HUGE: &str =
    "2037035976334486086268445688409378161051468393665936250636140449354381299763336706183397376";

fn deep_parens(inner: &str) -> String {
    format!("{}{inner}{}", "(".repeat(5000), ")".repeat(5000))
}

/// Malformed inputs of each subcommand, on standard input: a clear error
/// with the line and column where the text has them, status 1.
#[test]
fn malformed_inputs_of_every_subcommand_are_clear_errors() {
    let _alone = alone();
    let binary: Vec<u8> = (0..=255u8).cycle().take(1024).collect();
    let deep = deep_parens("i");
    let isl: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "empty",
            vec![],
            "line 1, column 1: expected '{', found end of input",
        ),
        ("blank lines", b"  \n\t\n".to_vec(), "line 3, column 1:"),
        (
            "truncated",
            b"{ [i] : 0 <= i".to_vec(),
            "line 1, column 15: expected '}'",
        ),
        (
            "a closing brace",
            b"}".to_vec(),
            "line 1, column 1: expected '{', found '}'",
        ),
        (
            "unbalanced",
            b"{ [i] : 0 <= i < 10 }}".to_vec(),
            "line 1, column 22: unexpected '}'",
        ),
        (
            "deep parentheses",
            format!("{{ [i] : {deep} >= 0 }}").into_bytes(),
            "line 1, column 9: nesting deeper than",
        ),
        (
            "deep braces",
            "{".repeat(3000).into_bytes(),
            "line 1, column 2: expected '['",
        ),
        (
            "NUL",
            b"{ [i] : \0 }".to_vec(),
            "line 1, column 9: unexpected character",
        ),
        (
            "binary",
            binary.clone(),
            "cannot read standard input: stream did not contain valid UTF-8",
        ),
    ];
    for (what, input, says) in &isl {
        let o = run(&["parse"], input);
        fails_with(&format!("parse: {what}"), &o, says);
    }
    let calc: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "no value",
            b"S := ;".to_vec(),
            "line 1, column 6: expected a set, a map",
        ),
        (
            "truncated",
            b"S := { [i] : 0 <= i".to_vec(),
            "line 1, column 6: this '{' is never closed",
        ),
        (
            "unbalanced",
            b"S := { [i] }};".to_vec(),
            "line 1, column 13: expected ';', found '}'",
        ),
        (
            "deep parentheses",
            format!("S := {};", deep_parens("{ [i] }")).into_bytes(),
            "line 1, column",
        ),
        (
            "deep braces",
            "{".repeat(3000).into_bytes(),
            "line 1, column 1: this '{' is never closed",
        ),
        ("binary", binary.clone(), "not contain valid UTF-8"),
        (
            "unknown name",
            b"S := { [i] };\nT;".to_vec(),
            "line 2, column 1:",
        ),
    ];
    for (what, input, says) in &calc {
        let o = run(&["calc"], input);
        fails_with(&format!("calc: {what}"), &o, says);
    }
    // batch: one `error: line L: ...` per bad line on standard output
    for (what, input, _) in &isl[2..8] {
        let mut line = b"is_empty\t".to_vec();
        line.extend(input.iter().map(|&b| if b == b'\n' { b' ' } else { b }));
        let o = run(&["batch"], &line);
        fails_with(
            &format!("batch: {what}"),
            &o,
            "batch: 1 of 1 line(s) failed",
        );
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(out.starts_with("error: line 1: "), "batch: {what}: {out}");
    }
    let codegen: Vec<(&str, Vec<u8>, &str)> = vec![
        ("empty", vec![], "no schedule"),
        (
            "truncated",
            b"{ S[i] -> [i] : 0 <= i".to_vec(),
            "line 1, column 1: the braces opened here are not closed",
        ),
        (
            "a set",
            b"{ [i] : 0 <= i < 10 }}".to_vec(),
            "line 1, column 1: the schedule is a set",
        ),
        (
            "huge",
            format!("{{ S[i] -> [i] : 0 <= i < {HUGE} }}").into_bytes(),
            "does not fit in 64 bits",
        ),
        (
            "deep parentheses",
            format!("{{ S[i] -> [i] : {deep} >= 0 }}").into_bytes(),
            "line 1, column 17: nesting deeper than",
        ),
        (
            "four objects",
            b"{ S[i] -> [i] : 0 <= i < 4 }\n{ : }\n{ }\n{ }".to_vec(),
            "line 4, column 1: more than three objects",
        ),
        (
            "not a dimension",
            b"{ S[i] -> [i] : 0 <= i < 4 }\napproximate: 0 x".to_vec(),
            "line 2, column 16: 'x' is not a dimension number",
        ),
        ("binary", binary.clone(), "not contain valid UTF-8"),
    ];
    for (what, input, says) in &codegen {
        let o = run(&["codegen"], input);
        fails_with(&format!("codegen: {what}"), &o, says);
    }
    let c: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "empty",
            vec![],
            "line 1, column 1: no '#pragma scop' in the file",
        ),
        (
            "no end",
            b"#pragma scop\nfor (int i = 0; i < 10; i++) A[i] = 0;\n".to_vec(),
            "line 1, column 1: '#pragma scop' without",
        ),
        (
            "truncated",
            b"#pragma scop\nfor (int i = 0; i < 10; i++) {\n A[i] = 0;\n#pragma endscop\n".to_vec(),
            "line 2, column 30: '{' is never closed",
        ),
        (
            "unbalanced",
            b"#pragma scop\nfor (int i = 0; i < 10; i++) A[i] = 0; }\n#pragma endscop\n".to_vec(),
            "line 2, column 40:",
        ),
        (
            "deep parentheses",
            format!(
                "#pragma scop\nA[0] = {};\n#pragma endscop\n",
                deep_parens("1")
            )
            .into_bytes(),
            "line 2, column",
        ),
        (
            "deep blocks",
            format!(
                "#pragma scop\n{}A[0] = 1;{}\n#pragma endscop\n",
                "{".repeat(3000),
                "}".repeat(3000)
            )
            .into_bytes(),
            "line 2, column 257: nesting deeper than 256 levels",
        ),
        (
            "huge",
            format!("#pragma scop\nfor (int i = 0; i < {HUGE}; i++) A[i] = 0;\n#pragma endscop\n")
                .into_bytes(),
            "line 2, column 21: an integer constant that is malformed or does not fit in 64 bits",
        ),
        ("binary", binary.clone(), "not contain valid UTF-8"),
    ];
    for cmd in ["scop", "deps", "schedule", "opt"] {
        for (what, input, says) in &c {
            let o = run(&[cmd, "-"], input);
            fails_with(&format!("{cmd}: {what}"), &o, says);
        }
    }
    let mlir: Vec<(&str, Vec<u8>, &str)> = vec![
        ("empty", vec![], "line 1, column 1: no `func.func` with a body"),
        ("truncated", b"func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n  return %a".to_vec(), "line 2, column 12: expected `:`"),
        ("unbalanced", b"func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n  return %a : tensor<4xf32>\n}\n}".to_vec(), "line 4, column 1: `}` without a matching `{`"),
        ("huge", format!("func.func @f(%a: tensor<{HUGE}xf32>) -> tensor<4xf32> {{\n  return %a : tensor<4xf32>\n}}\n").into_bytes(), "line 1, column 25: integer"),
        ("garbage", b"@@@ %%% ^^^".to_vec(), "line 1, column 1: expected `func.func`"),
        ("binary", binary.clone(), "not contain valid UTF-8"),
    ];
    for (what, input, says) in &mlir {
        let o = run(&["volume", "-"], input);
        fails_with(&format!("volume: {what}"), &o, says);
    }
}

/// Every subcommand names an unknown option as such, and refuses a second
/// input file.
#[test]
fn unknown_options_and_extra_files_of_every_subcommand() {
    let _alone = alone();
    let gemm = common::kernel("gemm.c");
    for cmd in [
        "calc", "parse", "batch", "codegen", "scop", "deps", "schedule", "opt", "volume",
    ] {
        for args in [
            vec![cmd, "--bogus"],
            vec![cmd, "--bogus", &gemm],
            vec![cmd, &gemm, "--bogus"],
        ] {
            let o = run(&args, b"");
            fails_with(&format!("{args:?}"), &o, "unknown option '--bogus'");
        }
        let o = run(&[cmd, &gemm, &gemm], b"");
        let err = String::from_utf8_lossy(&o.stderr);
        no_panic(cmd, &o);
        assert_eq!(o.status.code(), Some(1), "{cmd}: {err}");
        assert!(
            [
                "at most one input file",
                "takes one input file",
                "unexpected argument"
            ]
            .iter()
            .any(|w| err.contains(w)),
            "{cmd} FILE FILE: {err}"
        );
    }
    let o = run(&["help", "calc"], b"");
    fails_with("help calc", &o, "help takes no arguments");
    let o = run(&["calc", "-"], b"{ [i] : 0 <= i < 2 };");
    assert!(o.status.success(), "`-` is standard input, not an option");
}

/// A number too large for an option is "too large", with the largest
/// value; a text that is no number is "not an integer".
#[test]
fn huge_numbers_in_options_are_too_large() {
    let _alone = alone();
    let shift = root().join("cli/tests/codegen/shift.in");
    let shift = shift.to_str().unwrap();
    let gemm = common::kernel("gemm.c");
    let mlir = root().join("examples/matmul_bias_relu.mlir");
    let mlir = mlir.to_str().unwrap();
    let run_huge = format!("N={HUGE}");
    let tile_huge = format!("0={HUGE}");
    let dim_huge = format!("{HUGE}=4");
    let cases: Vec<(Vec<&str>, String)> = vec![
        (
            vec!["codegen", shift, "--max-steps", HUGE],
            format!("--max-steps: {HUGE} is too large (the largest is 18446744073709551615)"),
        ),
        (
            vec!["codegen", shift, "--max-steps", "lots"],
            "--max-steps: 'lots' is not an integer".into(),
        ),
        (
            vec!["codegen", shift, "--max-steps", "0"],
            "--max-steps: 0 is too small (the least is 1)".into(),
        ),
        (
            vec!["codegen", shift, "--run", &run_huge],
            format!("--run: N: {HUGE} is too large (the largest is 9223372036854775807)"),
        ),
        (
            vec!["codegen", shift, "--run", "N=four"],
            "--run: N: 'four' is not an integer".into(),
        ),
        (
            vec!["opt", &gemm, "--max-steps", HUGE],
            format!("--max-steps: {HUGE} is too large"),
        ),
        (
            vec!["opt", &gemm, "--tile", HUGE],
            format!("a tile size must be an integer from 1 to 1048576, not '{HUGE}'"),
        ),
        (
            vec!["batch", "--repeat", HUGE],
            format!("batch: --repeat: {HUGE} is too large"),
        ),
        (
            vec!["volume", mlir, "--tile", &tile_huge],
            format!("--tile: the size of dimension 0: {HUGE} is too large"),
        ),
        (
            vec!["volume", mlir, "--tile", &dim_huge],
            format!("--tile: the dimension: {HUGE} is too large"),
        ),
        (
            vec!["volume", mlir, "--main", "/dev/null", "--reps", HUGE],
            format!("--reps: {HUGE} is too large"),
        ),
        (
            vec!["volume", mlir, "--main", "/dev/null", "--dyn-size", HUGE],
            format!("--dyn-size: {HUGE} is too large"),
        ),
    ];
    for (args, says) in &cases {
        let o = run(args, b"");
        fails_with(&format!("{args:?}"), &o, says);
        assert!(!String::from_utf8_lossy(&o.stderr).contains("not a number"));
    }
    // in the text, a huge number is a number
    let o = run(
        &["parse"],
        format!("{{ [i] : 0 <= i < {HUGE} }}").as_bytes(),
    );
    assert!(o.status.success(), "{}", common::stderr(&o));
    let o = run(
        &["calc"],
        format!("lexmax {{ [i] : 0 <= i < {HUGE} }};").as_bytes(),
    );
    assert!(
        common::stdout(&o).contains(&HUGE[..HUGE.len() - 1]),
        "{}",
        common::stderr(&o)
    );
}

/// A value given twice is an error, not the last one silently kept.
#[test]
fn a_value_given_twice_is_an_error() {
    let _alone = alone();
    let shift = root().join("cli/tests/codegen/shift.in");
    let shift = shift.to_str().unwrap();
    for args in [
        vec!["codegen", shift, "--run", "N=1,N=2"],
        vec!["codegen", shift, "--run", "N=1", "--run", "N=2"],
    ] {
        let o = run(&args, b"");
        fails_with(&format!("{args:?}"), &o, "--run: N is given twice");
    }
    let twice = "schedule: { S[i] -> [i] : 0 <= i < 4 }\ncontext: { : }\nschedule: { S[i] -> [-i] : 0 <= i < 4 }\n";
    let o = run(&["codegen"], twice.as_bytes());
    fails_with(
        "two schedules",
        &o,
        "line 3, column 1: a second schedule (the first is at line 1, column 1)",
    );
    let mlir = root().join("examples/dynamic_pad_matmul.mlir");
    let o = run(
        &[
            "volume",
            mlir.to_str().unwrap(),
            "--main",
            "/dev/null",
            "--index",
            "n=3,n=4",
        ],
        b"",
    );
    fails_with("--index n twice", &o, "--index: %n is given twice");
    let twice = "{ S[i] -> [i] : 0 <= i < 4 }\napproximate: 0\napproximate: 0\n";
    let o = run(&["codegen"], twice.as_bytes());
    fails_with(
        "two approximate lines",
        &o,
        "line 3, column 1: a second approximate (the first is at line 2, column 1)",
    );
}

/// iscc's `^` with an exponent other than -1 is named as unsupported.
#[test]
fn a_power_of_a_map_in_calc_is_named_as_unsupported() {
    let _alone = alone();
    for (text, says) in [
        (
            "M := [N]->{[i]: 0<=i<N}; M^2;",
            "line 1, column 27: '^2': a power of a map is not supported; '^' takes '-1'",
        ),
        (
            "M := { [i] -> [i + 1] };\nM^-3;",
            "line 2, column 2: '^-3': a power of a map is not supported",
        ),
        (
            "M := { [i] -> [i + 1] }; M^+;",
            "'M^+' (transitive closure) is not implemented yet",
        ),
        ("M := { [i] -> [i + 1] }; M^x;", "expected '-1' after '^'"),
    ] {
        let o = run(&["calc"], text.as_bytes());
        fails_with(text, &o, says);
    }
    let o = run(&["calc"], b"M := { [i] -> [i + 1] }; M^-1;");
    assert_eq!(common::stdout(&o), "{ [i0] -> [i0 - 1] }\n");
}

/// Errors about the command line of `poly volume` are not "invalid
/// program" errors.
#[test]
fn option_errors_of_volume_do_not_blame_the_program() {
    let _alone = alone();
    let mlir = root().join("examples/matmul_bias_relu.mlir");
    let mlir = mlir.to_str().unwrap();
    let dynamic = root().join("examples/dynamic_pad_matmul.mlir");
    let dynamic = dynamic.to_str().unwrap().to_string();
    for (args, says) in [
        (
            vec!["volume", mlir, "--output", "%zz"],
            "poly: no value %zz in the program",
        ),
        (
            vec!["volume", mlir, "--tile", "9=4"],
            "poly: tile_map: dimension 9 of a rank-2 volume (the dimensions are 0 to 1)",
        ),
        (
            vec!["volume", mlir, "--emit", "/dev/null"],
            "poly: --emit needs tile sizes",
        ),
        (
            vec![
                "volume",
                mlir,
                "--tile",
                "0=4",
                "--emit",
                "/nonexistent/o.mlir",
            ],
            "poly: cannot write /nonexistent/o.mlir",
        ),
        (
            vec!["volume", &dynamic, "--main", "/dev/null", "--index", "zz=3"],
            "poly: harness: %zz is not an integer or index argument of @",
        ),
        (
            vec!["volume", &dynamic, "--main", "/dev/null"],
            "poly: harness: no value for the argument %n (give it as NAME=VALUE)",
        ),
    ] {
        let o = run(&args, b"");
        fails_with(&format!("{args:?}"), &o, says);
        assert!(!common::stderr(&o).contains("invalid program"), "{args:?}");
    }
}

/// The loop headers of C text, without their counters' types.
fn loop_headers(c: &str) -> Vec<String> {
    c.lines()
        .map(str::trim)
        .filter(|l| l.starts_with("for ("))
        .map(|l| l.replace("long long ", "").replace("int ", ""))
        .collect()
}

/// `poly opt --print-schedule` prints what `poly codegen` reads, and the
/// loops codegen scans from it are those of `poly opt`.
#[test]
fn print_schedule_round_trips_through_codegen() {
    let _alone = alone();
    let d = dir();
    for (kernel, args) in [
        ("gemm.c", vec!["--parametric"]),
        ("jacobi-1d.c", vec!["--tile", "8"]),
    ] {
        let k = common::kernel(kernel);
        let mut all = vec!["opt", k.as_str(), "--print-schedule"];
        all.extend(&args);
        let o = run(&all, b"");
        assert!(o.status.success(), "{}", common::stderr(&o));
        let printed = common::stdout(&o);
        assert!(printed.contains("\n# parallel: "), "{printed}");
        let f = d.join(format!("{kernel}.schedule"));
        std::fs::write(&f, &printed).unwrap();
        let o = run(&["codegen", f.to_str().unwrap()], b"");
        assert!(o.status.success(), "{kernel}: {}", common::stderr(&o));
        let scanned = common::stdout(&o);
        let mut all = vec!["opt", k.as_str()];
        all.extend(&args);
        let opt = common::stdout(&run(&all, b""));
        // the generated block: from the banner to the first `#undef`
        let from = opt.find("/* poly opt: ").expect("the banner");
        let to = from + opt[from..].find("\n#undef").expect("the #undef");
        assert_eq!(
            loop_headers(&scanned),
            loop_headers(&opt[from..to]),
            "{scanned}\n{opt}"
        );
        assert!(!loop_headers(&scanned).is_empty());
    }
}

/// The generated block is indented as the line of the region's first
/// statement starts, not to the column of that statement (a long comment
/// before it on its line would indent every generated line as far).
#[test]
fn opt_indents_as_the_line_of_the_first_statement() {
    let _alone = alone();
    let comment = format!("/* {} */", "x".repeat(2000));
    let src = format!(
        "double A[10], B[10];\nvoid f(void) {{\n\tint i;\n#pragma scop\n\t{comment} for (i = 0; i < 10; i++)\n    A[i] = B[i];\n#pragma endscop\n}}\n"
    );
    let o = run(&["opt", "-"], src.as_bytes());
    assert!(o.status.success(), "{}", common::stderr(&o));
    let out = common::stdout(&o);
    assert!(out.len() < 1000, "{} bytes:\n{out}", out.len());
    assert!(
        out.contains("\n\t{\n\t  for (int c0 = 0; c0 <= 9; c0 += 1)\n\t    S0(c0);\n"),
        "{out}"
    );
}

/// A flat sum of many terms is no nesting (issue 45: 250 terms were
/// refused as "nesting deeper than 256 levels").
#[test]
fn a_flat_sum_of_many_terms_is_accepted() {
    let _alone = alone();
    let terms: Vec<String> = (1..600).map(|k| format!("A[{k}]")).collect();
    let src = format!(
        "double A[1000];\nvoid f(void) {{\n#pragma scop\nA[0] = {};\n#pragma endscop\n}}\n",
        terms.join(" + ")
    );
    for cmd in ["scop", "opt"] {
        let o = run(&[cmd, "-"], src.as_bytes());
        assert!(o.status.success(), "{cmd}: {}", common::stderr(&o));
    }
}

/// `poly schedule --check` reads the schedules `poly schedule` and `poly
/// opt --print-schedule` print, and says what is wrong with a set or a
/// missing file.
#[test]
fn schedule_check_reads_printed_schedules_and_names_bad_ones() {
    let _alone = alone();
    let d = dir();
    let gemm = common::kernel("gemm.c");
    for (name, args) in [
        ("schedule", vec!["schedule", gemm.as_str()]),
        ("opt", vec!["opt", gemm.as_str(), "--print-schedule"]),
    ] {
        let o = run(&args, b"");
        assert!(o.status.success(), "{}", common::stderr(&o));
        let f = d.join(format!("gemm.{name}.schedule"));
        std::fs::write(&f, &o.stdout).unwrap();
        let o = run(&["schedule", "--check", &gemm, f.to_str().unwrap()], b"");
        assert_eq!(common::stdout(&o), "valid\n", "{}", common::stderr(&o));
    }
    for (schedule, says) in [
        (
            "{ [i] : 0 <= i < 4 }",
            "the schedule: invalid input: line 1, column 1: the schedule is a set",
        ),
        (
            "{ S0[i, j] -> [i, j] ",
            "the schedule: invalid input: line 1, column 1: the braces opened here are not closed",
        ),
        (
            "/nonexistent/s.txt",
            "cannot read the schedule file /nonexistent/s.txt: ",
        ),
    ] {
        let o = run(&["schedule", "--check", &gemm, schedule], b"");
        fails_with(schedule, &o, says);
    }
}
