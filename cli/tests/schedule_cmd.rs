//! `poly schedule`: the default (pluto-lp-dfp) and identity schedulers'
//! output, the options, and `--check`.

use std::process::Command;

fn poly(args: &[&str]) -> (String, bool) {
    let out = Command::new(env!("CARGO_BIN_EXE_poly"))
        .args(args)
        .output()
        .expect("poly runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        out.status.success(),
    )
}

fn kernel(name: &str) -> String {
    format!(
        "{}/../schedule/tests/kernels/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn identity_schedule_of_gemm() {
    let (out, ok) = poly(&["schedule", "--scheduler", "identity", &kernel("gemm.c")]);
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("schedule: "), "{out}");
    let got: presburger::UnionMap = lines[0]["schedule: ".len()..].parse().unwrap();
    let want: presburger::UnionMap =
        "{ S0[i, j] -> [0, i, 0, j, 0, 0, 0]; S1[i, k, j] -> [0, i, 1, k, 0, j, 0] }"
            .parse()
            .unwrap();
    assert!(got.is_equal(&want).unwrap(), "{out}");
    assert_eq!(
        &lines[3..],
        ["band: 1 1", "band: 3 3", "band: 5 5", "parallel: 0 1 4 5 6"]
    );
}

/// The output of `poly schedule` is `poly codegen` input: the loops of
/// gemm's two statements, with the domains and the context printed beside the
/// schedule.
#[test]
fn schedule_output_goes_to_codegen() {
    use std::io::Write;
    let (out, ok) = poly(&["schedule", &kernel("gemm.c")]);
    assert!(ok, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[1].starts_with("domain: "), "{out}");
    assert!(lines[2].starts_with("context: "), "{out}");
    let mut child = Command::new(env!("CARGO_BIN_EXE_poly"))
        .args(["codegen", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("poly runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(out.as_bytes())
        .expect("written");
    let res = child.wait_with_output().expect("poly ends");
    let code = String::from_utf8_lossy(&res.stdout);
    assert!(
        res.status.success(),
        "{code}{}",
        String::from_utf8_lossy(&res.stderr)
    );
    assert!(code.contains("S0(") && code.contains("S1("), "{code}");
    assert!(code.starts_with("for ("), "{code}");
}

#[test]
fn check_accepts_and_rejects() {
    let g = kernel("gemm.c");
    let (out, ok) = poly(&[
        "schedule",
        "--check",
        &g,
        "{ S0[i, j] -> [0, j, 0, i, 0, 0, 0]; S1[i, k, j] -> [0, j, 1, k, 0, i, 0] }",
    ]);
    assert!(ok, "{out}");
    assert_eq!(out, "valid\n");
    let (out, ok) = poly(&[
        "schedule",
        "--check",
        &kernel("seidel-2d.c"),
        "{ S0[t, i, j] -> [0, i, 0, t, 0, j, 0] }",
    ]);
    assert!(!ok);
    assert!(out.starts_with("invalid: raw dependence S0 -> S0"), "{out}");
    // a malformed schedule is an error, not a verdict
    let (out, ok) = poly(&["schedule", "--check", &g, "{ S0[i, j] -> "]);
    assert!(!ok);
    assert_eq!(out, "");
}

#[test]
fn lp_scheduler_skews_seidel_2d() {
    let (out, ok) = poly(&["schedule", "--scheduler", "lp", &kernel("seidel-2d.c")]);
    assert!(ok, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    let got: presburger::UnionMap = lines[0]["schedule: ".len()..].parse().unwrap();
    let want: presburger::UnionMap = "[T, N] -> { S0[t, i, j] -> [t + i, t, 2t + i + j] }"
        .parse()
        .unwrap();
    assert!(got.is_equal(&want).unwrap(), "{out}");
    assert_eq!(&lines[3..], ["band: 0 2", "parallel:"]);
    let (_, ok) = poly(&["schedule", "--scheduler", "ilp", &kernel("gemm.c")]);
    assert!(!ok);
}

#[test]
fn dfp_is_the_default_and_pluto_style_lines_on_request() {
    let (out, ok) = poly(&["schedule", "--pluto", &kernel("gemm.c")]);
    assert!(ok, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    let got: presburger::UnionMap = lines[0]["schedule: ".len()..].parse().unwrap();
    let want: presburger::UnionMap = "{ S0[i, j] -> [i, j, 0, 0]; S1[i, k, j] -> [i, j, k, 1] }"
        .parse()
        .unwrap();
    assert!(got.is_equal(&want).unwrap(), "{out}");
    assert_eq!(
        &lines[3..],
        [
            "band: 0 2",
            "parallel: 0 1",
            "T(S0): (i, j, 0, 0)",
            "T(S1): (i, j, k, 1)"
        ]
    );
    // the same with the policy spelled out; none distributes the two nests
    let (same, ok) = poly(&[
        "schedule",
        "--fuse",
        "smart",
        "--scheduler",
        "dfp",
        "--pluto",
        &kernel("gemm.c"),
    ]);
    assert!(ok);
    assert_eq!(same, out);
    let (out, ok) = poly(&["schedule", "--fuse", "none", "--pluto", &kernel("gemm.c")]);
    assert!(ok);
    assert!(out.contains("T(S1): (1, i, j, k)"), "{out}");
    // bad option values are errors
    for bad in [["--fuse", "some"], ["--scheduler", "ilp"]] {
        let (_, ok) = poly(&["schedule", bad[0], bad[1], &kernel("gemm.c")]);
        assert!(!ok);
    }
}
