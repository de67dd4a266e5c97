//! `poly codegen`: the C text of isl-style inputs, `--run`, `--atomic`, and
//! errors.

mod common;
use common::{poly, stderr, stdout};

fn data(name: &str) -> String {
    format!("{}/tests/codegen/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn prints_c_in_isl_style() {
    let o = poly(&["codegen", &data("shift.in")], "");
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "\
if (N >= 1) {
  S(0);
  for (long long c0 = 1; c0 <= N - 1; c0 += 1) {
    S(c0);
    T(c0 - 1);
  }
  T(N - 1);
}
"
    );
    // from standard input, with a label and a context; N is a 64-bit
    // integer, so may the counters be
    let o = poly(
        &["codegen", "-"],
        "schedule: [N] -> { S[i, j] -> [i, j] : 0 <= j <= i < N }\ncontext: [N] -> { : N >= 1 }\n",
    );
    assert_eq!(
        stdout(&o),
        "for (long long c0 = 0; c0 <= N - 1; c0 += 1)\n  for (long long c1 = 0; c1 <= c0; c1 += 1)\n    S(c0, c1);\n"
    );
    // a context that bounds N proves int enough
    let o = poly(
        &["codegen", "-"],
        "schedule: [N] -> { S[i, j] -> [i, j] : 0 <= j <= i < N }\ncontext: [N] -> { : 1 <= N <= 100000 }\n",
    );
    assert_eq!(
        stdout(&o),
        "for (int c0 = 0; c0 <= N - 1; c0 += 1)\n  for (int c1 = 0; c1 <= c0; c1 += 1)\n    S(c0, c1);\n"
    );
}

#[test]
fn counters_past_2_to_the_31_are_long_long() {
    // issue 45's skew: the second counter reaches 2.4e9
    let o = poly(
        &["codegen", "-"],
        "{ S[i, j] -> [i, 799999999 i + j] : 0 <= i < 3 and 0 <= j < 800000000 }",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "for (long long c0 = 0; c0 <= 2; c0 += 1)\n  for (long long c1 = 799999999 * c0; c1 <= 799999999 * c0 + 799999999; c1 += 1)\n    S(c0, -799999999 * c0 + c1);\n"
    );
    // without the large values: int
    let o = poly(
        &["codegen", "-"],
        "{ S[i, j] -> [i, 799 i + j] : 0 <= i < 3 and 0 <= j < 800 }",
    );
    assert!(
        stdout(&o).starts_with("for (int c0 = 0; c0 <= 2; c0 += 1)"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn run_lists_the_instances_in_order() {
    let o = poly(&["codegen", "--run", "N=3", &data("shift.in")], "");
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "S(0)\nS(1)\nT(0)\nS(2)\nT(1)\nT(2)\n");
    let o = poly(&["codegen", "--run", "T=2,N=4", &data("stencil.in")], "");
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "S(0, 1)\nS(0, 2)\nU(0, 1)\nU(0, 2)\nS(1, 1)\nS(1, 2)\nU(1, 1)\nU(1, 2)\n"
    );
}

#[test]
fn atomic_keeps_one_loop() {
    let o = poly(&["codegen", "--atomic", &data("shift.in")], "");
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(out.matches("for (").count(), 1, "{out}");
    let o = poly(
        &["codegen", "--atomic", "--run", "N=3", &data("shift.in")],
        "",
    );
    assert_eq!(stdout(&o), "S(0)\nS(1)\nT(0)\nS(2)\nT(1)\nT(2)\n");
}

/// Issue 45, item 3: a domain with a disjunct that fixes an iterator (the
/// inverse schedule is piecewise) generates code; each instance runs once.
#[test]
fn fixed_iterator_disjuncts_generate_code() {
    let o = poly(&["codegen", "-"], "{ S[i] -> [i] : i = 0 or i = 3 }");
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "S(0);\nS(3);\n");
    // the border of an N x N grid
    let border = "[N] -> { S[i, j] -> [i, j] : 0 <= i, j < N and \
                  (i = 0 or i = N - 1 or j = 0 or j = N - 1) }";
    let o = poly(&["codegen", "--run", "N=3", "-"], border);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "S(0, 0)\nS(0, 1)\nS(0, 2)\nS(1, 0)\nS(1, 2)\nS(2, 0)\nS(2, 1)\nS(2, 2)\n"
    );
    for args in [&["codegen", "-"][..], &["codegen", "--atomic", "-"][..]] {
        let o = poly(args, border);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        assert!(stdout(&o).contains("S(c0, N - 1)"), "{}", stdout(&o));
    }
    let o = poly(&["codegen", "--atomic", "--run", "N=1", "-"], border);
    assert_eq!(stdout(&o), "S(0, 0)\n");
    // overlapping disjuncts: 0..=8 once each
    let o = poly(
        &["codegen", "--run", "N=0", "-"],
        "[N] -> { S[i] -> [i] : 0 <= i <= 5 or 3 <= i <= 8 }",
    );
    let want: String = (0..=8).map(|i| format!("S({i})\n")).collect();
    assert_eq!(stdout(&o), want);
    // overlapping disjuncts with different inverses: the corner runs once
    let o = poly(
        &["codegen", "--run", "N=2", "-"],
        "[N] -> { S[i, j] -> [i, j] : (i = 0 and 0 <= j <= N) or (j = 0 and 0 <= i <= N) }",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "S(0, 0)\nS(0, 1)\nS(0, 2)\nS(1, 0)\nS(2, 0)\n");
}

#[test]
fn errors_exit_non_zero_with_a_message() {
    let o = poly(
        &["codegen", "-"],
        "[N] -> { S[i, j] -> [i] : 0 <= i, j < N }",
    );
    assert!(!o.status.success());
    assert!(stderr(&o).contains("not injective"), "{}", stderr(&o));
    // injective on each disjunct but not on the union
    let o = poly(&["codegen", "-"], "{ S[i] -> [0] : i = 0 or i = 1 }");
    assert!(!o.status.success());
    assert!(stderr(&o).contains("not injective"), "{}", stderr(&o));
    let o = poly(&["codegen", "-"], "\n{ S[i] -> [i] : i <= }");
    assert!(!o.status.success());
    assert!(stderr(&o).contains("line 2"), "{}", stderr(&o));
    let o = poly(&["codegen", "--run", "M=1", &data("shift.in")], "");
    assert!(stderr(&o).contains("not a parameter"), "{}", stderr(&o));
    let o = poly(&["codegen", "--fast", &data("shift.in")], "");
    assert!(stderr(&o).contains("unknown option"), "{}", stderr(&o));
    let o = poly(&["codegen", "-"], "{ S[i] -> [i] : i >= 0 }");
    assert!(stderr(&o).contains("bound"), "{}", stderr(&o));
}

#[test]
fn max_steps_bounds_the_whole_generation() {
    // the default limit suffices for the existing inputs
    for f in ["shift.in", "stencil.in"] {
        let o = poly(&["codegen", &data(f)], "");
        assert!(o.status.success(), "{f}: {}", stderr(&o));
    }
    // a small limit: exit status 1 and a message naming the limit and the
    // step, no panic
    let o = poly(&["codegen", "--max-steps", "200", &data("stencil.in")], "");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("code generation ran out of its work limit (200 steps) while "),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    assert!(stdout(&o).is_empty());
    // a larger explicit limit gives the default's code
    let big = poly(
        &[
            "codegen",
            "--max-steps",
            "1_000_000_000",
            &data("stencil.in"),
        ],
        "",
    );
    let default = poly(&["codegen", &data("stencil.in")], "");
    assert!(big.status.success(), "{}", stderr(&big));
    assert_eq!(stdout(&big), stdout(&default));
    for bad in [
        &["codegen", "--max-steps"][..],
        &["codegen", "--max-steps", "0"],
        &["codegen", "--max-steps", "x"],
    ] {
        let o = poly(bad, "");
        assert_eq!(o.status.code(), Some(1), "{bad:?}");
        assert!(
            stderr(&o).contains("--max-steps"),
            "{bad:?}: {}",
            stderr(&o)
        );
    }
}

/// `poly codegen FILE` with extra arguments: its output and wall time.
fn timed(args: &[&str], file: &str) -> (std::process::Output, std::time::Duration) {
    let mut all = vec!["codegen"];
    all.extend_from_slice(args);
    let path = data(file);
    all.push(&path);
    let start = std::time::Instant::now();
    let o = poly(&all, "");
    (o, start.elapsed())
}

/// An answer, or the work limit's error with exit status 1.
fn answer_or_limit(o: &std::process::Output) {
    if !o.status.success() {
        assert_eq!(o.status.code(), Some(1), "{}", stderr(o));
        assert!(
            stderr(o).contains("code generation ran out of its work limit"),
            "{}",
            stderr(o)
        );
    }
}

#[test]
fn a_time_tiled_stencil_stops_at_a_small_limit() {
    // the shape of isl's omega/ts1d inputs: its scan makes many emptiness
    // tests on sets with many existentials; a small limit ends it early
    let (o, t) = timed(&["--max-steps", "2000000"], "tiled_tb.in");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("code generation ran out of its work limit (2000000 steps) while "),
        "{}",
        stderr(&o)
    );
    assert!(t.as_secs() < 20, "{t:?}");
}

/// The default limit bounds the same input's time (slow: see
/// docs/testing.md).
#[test]
#[ignore]
fn a_time_tiled_stencil_answers_or_stops_within_the_time_bound() {
    let (o, t) = timed(&[], "tiled_tb.in");
    answer_or_limit(&o);
    assert!(t.as_secs() < 20, "{t:?}: {}", stderr(&o));
}
