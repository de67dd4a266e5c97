//! Hand-written schedules: the generated AST, run by the interpreter for
//! several parameter values, visits exactly the scheduled instances in
//! lexicographic order of their times (enumerated by `presburger`), in the
//! separated and the atomic mode; some outputs are compared with the text
//! isl's AST printer style gives (with `long long` counters where the
//! parameters, 64-bit integers of any value by default, may take them past
//! 2^31; `int` where the bounds prove it enough).

mod common;
use common::check;
use presburger_codegen::{Options, generate};

#[test]
fn one_and_two_dimensional_loops() {
    let c = check("[N] -> { S[i] -> [i] : 0 <= i < N }", &[-1..=4]);
    assert_eq!(
        c,
        "for (long long c0 = 0; c0 <= N - 1; c0 += 1)\n  S(c0);\n"
    );
    check(
        "[N, M] -> { S[i, j] -> [i, j] : 0 <= i < N and 0 <= j < M }",
        &[-1..=3, -1..=3],
    );
    check("{ S[i, j] -> [i, j] : 0 <= i <= 3 and 2 <= j <= 5 }", &[]);
    check("{ S[i, j] -> [j, i] : 0 <= i <= 3 and 0 <= j <= 2 }", &[]);
    check("{ S[i] -> [-i] : 0 <= i <= 5 }", &[]);
}

#[test]
fn triangles() {
    let c = check("[N] -> { S[i, j] -> [i, j] : 0 <= j <= i < N }", &[-1..=5]);
    assert_eq!(
        c,
        "for (long long c0 = 0; c0 <= N - 1; c0 += 1)\n  for (long long c1 = 0; c1 <= c0; c1 += 1)\n    S(c0, c1);\n"
    );
    check(
        "[N] -> { S[i, j] -> [i, j] : 0 <= i < N and i <= j < N }",
        &[-1..=5],
    );
    check(
        "[N] -> { S[i, j, k] -> [i, j, k] : 0 <= i < N and 0 <= j <= i and j <= k <= i }",
        &[0..=4],
    );
    check(
        "[N] -> { S[i, j] -> [i + j, j] : 0 <= j <= i < N }",
        &[0..=5],
    );
}

#[test]
fn two_statements() {
    // overlapping ranges, shifted
    let c = check(
        "[N] -> { S[i] -> [i] : 0 <= i < N; T[i] -> [i + 1] : 0 <= i < N }",
        &[-1..=5],
    );
    assert_eq!(
        c,
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
    // disjoint ranges
    check(
        "[N] -> { S[i] -> [i] : 0 <= i < N; T[i] -> [i + 10] : 0 <= i < N }",
        &[0..=12],
    );
    // a parametric shift
    check(
        "[N, M] -> { S[i] -> [i] : 0 <= i < N; T[i] -> [i + M] : 0 <= i < N }",
        &[0..=4, -2..=5],
    );
    // same times: statement order decides
    check(
        "[N] -> { T[i] -> [i] : 0 <= i < N; S[i] -> [i] : 2 <= i < N + 2 }",
        &[0..=4],
    );
    // rectangle and triangle
    check(
        "[N, M] -> { S[i, j] -> [i, j] : 0 <= i < N and 0 <= j < M; T[i, j] -> [i, j] : 0 <= j <= i < N }",
        &[0..=4, -1..=4],
    );
    // three statements in 2d+1 form
    check(
        "[N] -> { S[i] -> [0, i, 0] : 0 <= i < N; T[i, j] -> [1, i, j] : 0 <= i, j < N; U[i] -> [1, i, N] : 0 <= i < N }",
        &[0..=3],
    );
    // interleaved: one statement at even times, the other at odd times
    check(
        "[N] -> { S[i] -> [2i] : 0 <= i < N; T[i] -> [2i + 1] : 0 <= i < N }",
        &[0..=5],
    );
}

#[test]
fn fused_and_skewed() {
    let c = check(
        "[T, N] -> { S[t, i] -> [t, t + i] : 0 <= t < T and 0 <= i < N }",
        &[0..=3, 0..=4],
    );
    assert_eq!(
        c,
        "for (long long c0 = 0; c0 <= T - 1; c0 += 1)\n  for (long long c1 = c0; c1 <= N + c0 - 1; c1 += 1)\n    S(c0, -c0 + c1);\n"
    );
    check(
        "[T, N] -> { S[t, i] -> [t, 2t + i] : 0 <= t < T and 1 <= i < N - 1; U[t, i] -> [t, 2t + i + 1] : 0 <= t < T and 1 <= i < N - 1 }",
        &[0..=3, 0..=5],
    );
    check(
        "[N] -> { S[i, j] -> [i + j, i] : 0 <= i, j < N; T[i, j] -> [i + j, i + 1] : 0 <= i, j < N }",
        &[0..=4],
    );
}

#[test]
fn strides() {
    let c = check("{ S[i] -> [2i] : 0 <= i < 10 }", &[]);
    assert_eq!(
        c,
        "for (int c0 = 0; c0 <= 18; c0 += 2)\n  S(floord(c0, 2));\n"
    );
    check("[N] -> { S[i] -> [3i + 1] : 0 <= i < N }", &[0..=5]);
    check("[N] -> { S[i] -> [2i + N] : 0 <= i < N }", &[0..=5]);
    check(
        "[N] -> { S[i] -> [i] : 0 <= i < N and i mod 3 = 1 }",
        &[0..=8],
    );
    // a stride that depends on the outer dimension: t1 ≡ t0 (mod 2)
    check(
        "[N] -> { S[i, j] -> [2i + j, j] : 0 <= i, j < N }",
        &[0..=4],
    );
    check(
        "[N] -> { S[i, j] -> [i, 2j + i] : 0 <= i, j < N }",
        &[0..=4],
    );
    // two strides that interleave
    check(
        "[N] -> { S[i] -> [2i + 1] : 0 <= i < N; T[i] -> [3i] : 0 <= i < N }",
        &[0..=5],
    );
    check(
        "[N] -> { S[i] -> [4i + 2, i] : 0 <= i < N; T[i] -> [2i, i] : 0 <= i < N }",
        &[0..=4],
    );
    // tiling-like: floor in the schedule
    check("[N] -> { S[i] -> [floor(i/4), i] : 0 <= i < N }", &[0..=9]);
    check(
        "[N] -> { S[i, j] -> [floor(i/2), floor(j/3), i, j] : 0 <= i, j < N }",
        &[0..=5],
    );
}

#[test]
fn fixed_dimensions() {
    let c = check(
        "[N] -> { S[i] -> [i, 0] : 0 <= i < N; T[i] -> [i, 1] : 0 <= i < N }",
        &[0..=4],
    );
    assert_eq!(
        c,
        "for (long long c0 = 0; c0 <= N - 1; c0 += 1) {\n  S(c0);\n  T(c0);\n}\n"
    );
    check("[N] -> { S[i] -> [0, i] : 0 <= i < N }", &[0..=3]);
    check("[N] -> { S[i] -> [i, 2i] : 0 <= i < N }", &[0..=3]);
    check("[N] -> { S[i] -> [N, i] : 0 <= i < N }", &[0..=3]);
    check(
        "[N] -> { S[i, j] -> [i, j] : 0 <= i < N and j = i }",
        &[0..=3],
    );
    check(
        "[N] -> { S[i, j] -> [i + j, i - j] : 0 <= i, j < N }",
        &[0..=4],
    );
    check("{ S[] -> [0]; T[] -> [1]; U[] -> [0] }", &[]);
    check(
        "[N] -> { S[i] -> [2i, i] : 0 <= i < N; T[i] -> [i, i] : 0 <= i < N }",
        &[0..=4],
    );
}

#[test]
fn parameters_and_guards() {
    check(
        "[N, M] -> { S[i] -> [i] : 0 <= i < N and M >= 2 }",
        &[-1..=3, 0..=3],
    );
    check("[N, M] -> { S[i] -> [i] : M <= i < N }", &[-2..=3, -2..=3]);
    check(
        "[N] -> { S[i, j] -> [i, j] : 0 <= i, j < N and (i + j) mod 2 = 0 }",
        &[0..=5],
    );
    check(
        "[N] -> { S[i, j] -> [i, j] : 0 <= i, j < N and (i <= 1 or j >= 3) }",
        &[0..=5],
    );
    check("[N] -> { S[i] -> [i] : 0 <= i <= N and 2i >= N }", &[0..=7]);
    check(
        "[N] -> { S[i] -> [i] : 0 <= i < N and N mod 2 = 0 }",
        &[0..=6],
    );
}

#[test]
fn context_and_domain() {
    let sched: presburger::UnionMap = "[N] -> { S[i, j] -> [i, j]; T[i] -> [i, N] }"
        .parse()
        .unwrap();
    let dom: presburger::UnionSet = "[N] -> { S[i, j] : 0 <= i, j < N; T[i] : 0 <= i < N }"
        .parse()
        .unwrap();
    let ctx: presburger::Set = "[N] -> { : N >= 2 }".parse().unwrap();
    let ast = generate(&sched, Some(&dom), Some(&ctx), &Options::default()).unwrap();
    let want = "\
for (long long c0 = 0; c0 <= N - 1; c0 += 1) {
  for (long long c1 = 0; c1 <= N - 1; c1 += 1)
    S(c0, c1);
  T(c0);
}
";
    assert_eq!(ast.to_c(), want);
    let with_dom = sched.intersect_domain(&dom).unwrap();
    common::check_ast(&ast, &with_dom, &[vec![2], vec![3], vec![4]]).unwrap();
    // a statement without instances in the domain is left out
    let dom2: presburger::UnionSet = "[N] -> { S[i, j] : 0 <= i, j < N }".parse().unwrap();
    let ast = generate(&sched, Some(&dom2), Some(&ctx), &Options::default()).unwrap();
    assert!(!ast.to_c().contains('T'));
}

#[test]
fn errors_are_clear() {
    let err = |text: &str| {
        let s: presburger::UnionMap = text.parse().unwrap();
        generate(&s, None, None, &Options::default())
            .unwrap_err()
            .to_string()
    };
    let e = err("[N] -> { S[i, j] -> [i] : 0 <= i, j < N }");
    assert!(e.contains("not injective") && e.contains('S'), "{e}");
    let e = err("{ S[i] -> [i] : i >= 0 }");
    assert!(e.contains("bound"), "{e}");
    let e = err("{ S[i] -> [i] : 0 <= i < 3; T[i] -> [i, 0] : 0 <= i < 3 }");
    assert!(e.contains("time dimensions"), "{e}");
    let e = err("{ [i] -> [i] : 0 <= i < 3 }");
    assert!(e.contains("name"), "{e}");
    let s: presburger::UnionMap = "{ S[i] -> [i] : 0 <= i < 3 }".parse().unwrap();
    let ctx: presburger::Set = "{ [i] : i >= 0 }".parse().unwrap();
    let e = generate(&s, None, Some(&ctx), &Options::default()).unwrap_err();
    assert!(e.to_string().contains("parameter set"), "{e}");
    // an empty schedule is an empty AST
    let s: presburger::UnionMap = "{ }".parse().unwrap();
    assert_eq!(
        generate(&s, None, None, &Options::default())
            .unwrap()
            .to_c(),
        ""
    );
}

/// The bounds of `e` of [`bounded_through_an_existential`]: ten lower and
/// ten upper bounds in `i`, tangents of two parabolas, none redundant
/// (more lower-upper pairs than one Fourier–Motzkin step of the rational
/// shadow makes by default).
fn many_bounds() -> String {
    let lo: Vec<String> = (0..10)
        .map(|k| format!("e >= {}i - {}", 2 * k, k * k + 50))
        .collect();
    let up: Vec<String> = (0..10)
        .map(|k| format!("e <= {} - {}i", 100 + k * k, 2 * k))
        .collect();
    format!("{} and {}", lo.join(" and "), up.join(" and "))
}

/// Issue 45: bounded domains whose loop bounds come through an existential
/// with many bounds were reported "unbounded" (the rational shadow dropped
/// the existential with all its rows): in the exact scan of `i` (its own
/// bounds are implied by those of `e`, hence removed), and in the
/// approximate scan of a tile-like dimension, as `poly opt` scans tile
/// loops.
#[test]
fn bounded_through_an_existential() {
    let b = many_bounds();
    check(
        &format!(
            "{{ S[t, i] -> [t, i] : 0 <= i <= 9 and exists (e : 4e <= t <= 4e + 3 and {b}) }}"
        ),
        &[],
    );
    let text = format!(
        "{{ S[t] -> [t] : exists (e, i, f : 0 <= i <= 9 and 4e <= t <= 4e + 3 and {b} and t + i = 2f) }}"
    );
    let sched: presburger::UnionMap = text.parse().unwrap();
    let options = Options {
        approximate: vec![true],
        ..Options::default()
    };
    let ast = generate(&sched, None, None, &options).unwrap_or_else(|e| panic!("{text}: {e}"));
    common::check_ast(&ast, &sched, &[vec![]]).unwrap();
}
