//! Schedules whose inverse is piecewise quasi-affine (issue 45, item 3): a
//! disjunct of the domain fixes an iterator, so each disjunct inverts to a
//! different function and no one function serves all times. The generated
//! AST, run by the interpreter for several parameter values in the separated
//! and the atomic mode, visits exactly the scheduled instances, each once, in
//! lexicographic order of their times (enumerated by `presburger`), also
//! where the disjuncts of the input overlap. Some outputs are compared with
//! the expected text.

mod common;
use common::check;

#[test]
fn a_disjunct_per_fixed_value() {
    let c = check("{ S[i] -> [i] : i = 0 or i = 3 }", &[]);
    assert_eq!(c, "S(0);\nS(3);\n");
    // with a parameter in the fixed values
    check("[N] -> { S[i] -> [i] : i = 0 or i = N }", &[-2..=3]);
    // two statements at the same times: the input order at each time
    let c = check(
        "{ S[i] -> [i] : i = 0 or i = 3; T[i] -> [i] : i = 0 or i = 3 }",
        &[],
    );
    assert_eq!(c, "S(0);\nT(0);\nS(3);\nT(3);\n");
}

/// The grid-border statement of `if (i == 0 || i == N - 1 || j == 0 || j ==
/// N - 1)`: one piece per side, the corners (in two disjuncts each) run once.
#[test]
fn the_border_of_a_grid() {
    let c = check(
        "[N] -> { S[i, j] -> [i, j] : 0 <= i, j < N and (i = 0 or i = N - 1 or j = 0 or j = N - 1) }",
        &[-1..=7],
    );
    assert_eq!(
        c,
        "\
for (long long c1 = 0; c1 <= N - 1; c1 += 1)
  S(0, c1);
for (long long c0 = 1; c0 <= N - 2; c0 += 1) {
  S(c0, 0);
  S(c0, N - 1);
}
if (N >= 2)
  for (long long c1 = 0; c1 <= N - 1; c1 += 1)
    S(N - 1, c1);
"
    );
    // transposed, and with the loop order of `poly opt`'s schedule
    check(
        "[N] -> { S[i, j] -> [j, i] : 0 <= i, j < N and (i = 0 or i = N - 1 or j = 0 or j = N - 1) }",
        &[-1..=6],
    );
    check(
        "[N] -> { S[i, j] -> [0, i, 0, j, 0] : 0 <= i, j < N and (i = 0 or i = N - 1 or j = 0 or j = N - 1) }",
        &[0..=5],
    );
    // a skewed border: two sides
    check(
        "[N] -> { S[i, j] -> [i + j, j] : 0 <= i, j < N and (i = 0 or j = 0) }",
        &[-1..=6],
    );
    // and a second statement inside the border's rows
    check(
        "[N] -> { S[i, j] -> [i, j, 0] : 0 <= i, j < N and (i = 0 or i = N - 1 or j = 0 or j = N - 1); \
         T[i, j] -> [i, j, 1] : 0 < i, j < N - 1 }",
        &[0..=6],
    );
}

/// Pieces of a union map may overlap: every instance still runs once.
#[test]
fn overlapping_disjuncts_run_each_instance_once() {
    let c = check("{ S[i] -> [i] : 0 <= i <= 5 or 3 <= i <= 8 }", &[]);
    assert_eq!(c, "for (int c0 = 0; c0 <= 8; c0 += 1)\n  S(c0);\n");
    // overlapping disjuncts that invert to different functions: the
    // corner (0, 0) is in both sides, (2, 0) in two of the three disjuncts
    check(
        "{ S[i, j] -> [i, j] : (i = 0 and 0 <= j <= 5) or (j = 0 and 0 <= i <= 5) or \
         (i = 2 and 0 <= j <= 3) }",
        &[],
    );
    check(
        "[N] -> { S[i, j] -> [i, j] : (i = 0 and 0 <= j <= N) or (j = 0 and 0 <= i <= N) or \
         (0 <= i <= 1 and 0 <= j <= 1) }",
        &[-1..=5],
    );
    // the same instance written twice, with different fixed values
    check(
        "[N] -> { S[i] -> [i] : i = 0 or i = N or i = 2 }",
        &[-1..=4],
    );
}

/// A schedule that is piecewise in the input itself (a map with two
/// disjuncts of different affine functions), and isl's `dwt`
/// (`test_inputs/codegen/dwt.in`, issue 38): three disjuncts, each with a
/// different constant second iterator.
#[test]
fn piecewise_schedules() {
    let c = check(
        "{ S[i] -> [i] : 0 <= i <= 4; S[i] -> [20 - i] : 5 <= i <= 10 }",
        &[],
    );
    assert_eq!(
        c,
        "\
for (int c0 = 0; c0 <= 4; c0 += 1)
  S(c0);
for (int c0 = 10; c0 <= 15; c0 += 1)
  S(-c0 + 20);
"
    );
    let c = check(
        "[Ncl] -> { S[j, 28] -> [j] : j <= -2 + Ncl and Ncl <= 256 and Ncl >= 40 and j >= 1; \
         S[0, 26] -> [0] : Ncl <= 256 and Ncl >= 40; \
         S[-1 + Ncl, 27] -> [-1 + Ncl] : Ncl <= 256 and Ncl >= 40 }",
        &[38..=42],
    );
    assert!(c.contains("S(0, 26);"), "{c}");
    assert!(c.contains("S(c0, 28);"), "{c}");
    assert!(c.contains("S(Ncl - 1, 27);"), "{c}");
}

/// isl's `disjuncts` (`test_inputs/codegen/disjuncts.in`, issue 38): two
/// statements on the border of the outer two dimensions of a 4-D domain.
#[test]
fn isl_disjuncts() {
    check(
        "[n] -> { a[i,j,k,l] -> [i,j,0,k,l] : 0 <= i,j,k,l <= n and (i = 0 or j = 0 or i = n or j = n); \
         b[i,j,k,l] -> [i,j,1,k,l] : 0 <= i,j,k,l <= n and (i = 0 or j = 0 or i = n or j = n) }",
        &[-1..=3],
    );
}

/// isl's `omega/dagstuhl1-0`: the iterators are bounded by inequalities
/// only (`t = i + 10j`, `0 <= i <= 9`), so the inverse comes from parametric
/// integer programming (`i = t mod 10`, `j = floor(t/10)`, as other
/// quasi-affine expressions).
#[test]
fn isl_dagstuhl1_0() {
    let c = check(
        "{ s0[i, j] -> [i + 10j] : i >= 0 and i <= 9 and j >= 0 and j <= 9 }",
        &[],
    );
    assert!(c.starts_with("for (int c0 = 0; c0 <= 99; c0 += 1)"), "{c}");
}
