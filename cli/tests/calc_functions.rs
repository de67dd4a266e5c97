//! End-to-end tests of piecewise quasi-affine functions in `poly calc`:
//! literals, printing, the operations on them, and the errors of a wrong
//! kind of operand.

mod common;

use common::{poly, stderr, stdout};

/// The printed lines of a calculator program that must succeed.
fn calc_lines(prog: &str) -> Vec<String> {
    let o = poly(&["calc"], prog);
    assert!(o.status.success(), "{prog}: {}", stderr(&o));
    stdout(&o).lines().map(str::to_string).collect()
}

/// The one printed line of `prog`.
fn calc1(prog: &str) -> String {
    let lines = calc_lines(prog);
    assert_eq!(lines.len(), 1, "{prog}: {lines:?}");
    lines[0].clone()
}

/// The error message of a program that must fail (and not panic).
fn calc_err(prog: &str) -> String {
    let o = poly(&["calc"], prog);
    assert!(!o.status.success(), "{prog} should fail: {}", stdout(&o));
    let e = stderr(&o);
    assert!(!e.contains("panicked"), "{prog}: {e}");
    e
}

#[test]
fn function_literals_print_as_isl_prints_them() {
    for (text, want) in [
        (
            "{ [i] -> [(i + 1)] : i < 10 }",
            "{ [i] -> [(1 + i)] : i <= 9 }",
        ),
        (
            "[N] -> { [i] -> [(floor((i)/2))] }",
            "[N] -> { [i] -> [(floor((i)/2))] }",
        ),
        (
            "{ S[i, j] -> [(i), (j + 1)] }",
            "{ S[i, j] -> [(i), (1 + j)] }",
        ),
        ("[N] -> { [(N)] }", "[N] -> { [(N)] }"),
        (
            "{ [i] -> [[(i)] -> [(i + 1)]] }",
            "{ [i] -> [[(i)] -> [(1 + i)]] }",
        ),
        (
            "[N] -> { A[i] -> [(N + i)] : i > 0; B[j] -> [(j), (0)] }",
            "[N] -> { A[i] -> [(N + i)] : i >= 1; B[j] -> [(j), (0)] }",
        ),
    ] {
        assert_eq!(calc1(&format!("{text};")), want, "{text}");
        // the printed text reads back to the same function
        assert_eq!(calc1(&format!("{want};")), want, "{want}");
        let same = calc1(&format!("({text}) = ({want});"));
        assert_eq!(same, "true", "{text}");
    }
}

#[test]
fn texts_without_parenthesised_outputs_stay_sets_and_maps() {
    assert_eq!(calc1("{ [i] -> [i + 1] };"), "{ [i] -> [i + 1] }");
    assert_eq!(calc1("{ [i] : 0 <= i < 3 };"), "{ [i] : 0 <= i <= 2 }");
    // parenthesised outputs that do not make a function: the map
    assert_eq!(
        calc1("{ [i] -> [(i), j] : j > i };"),
        "{ [i] -> [i, j] : j > i }"
    );
    // a map is not a function, so `min` refuses it
    let e = calc_err("min({ [i] -> [i] }, { [i] -> [(i)] });");
    assert!(e.contains("'min' needs two functions"), "{e}");
}

#[test]
fn sums_differences_and_restrictions_of_functions() {
    // `+` is the sum where both are defined (isl_union_pw_multi_aff_add)
    assert_eq!(
        calc1("{ [i] -> [(i)] : i >= 0 } + { [i] -> [(1)] : i <= 5 };"),
        "{ [i] -> [(1 + i)] : 0 <= i <= 5 }"
    );
    // members on other domain tuples are dropped
    assert_eq!(
        calc1("{ A[i] -> [(i)]; B[i] -> [(0)] } + { A[i] -> [(2)] };"),
        "{ A[i] -> [(2 + i)] }"
    );
    assert_eq!(
        calc1("[N] -> { [i] -> [(N)] } + { [i] -> [(i)] };"),
        "[N] -> { [i] -> [(N + i)] }"
    );
    assert_eq!(
        calc1("{ [i] -> [(2i), (i)] } - { [i] -> [(i), (1)] };"),
        "{ [i] -> [(i), (-1 + i)] }"
    );
    assert_eq!(
        calc1("{ [i] -> [(i + 1)] } * { [i] : 0 <= i < 2 };"),
        "{ [i] -> [(1 + i)] : 0 <= i <= 1 }"
    );
    assert_eq!(
        calc1("intersect_domain({ [i] -> [(2i)] }, { [i] : 0 <= i < 3 });"),
        "{ [i] -> [(2i)] : 0 <= i <= 2 }"
    );
    // a parameter set restricts the parameters
    assert_eq!(
        calc1("[N] -> { [i] -> [(i + N)] } * [N] -> { : N > 2 };"),
        "[N] -> { [i] -> [(N + i)] : N >= 3 }"
    );
    // a function and a map: the union of the graph and the map
    assert_eq!(
        calc1(
            "({ [i] -> [(i)] : i = 0 } + { [i] -> [i + 1] : i = 0 }) = { [0] -> [0]; [0] -> [1] };"
        ),
        "true"
    );
}

#[test]
fn min_max_and_pullback() {
    assert_eq!(
        calc1("min({ [i] -> [(i)] }, { [i] -> [(5)] });"),
        "{ [i] -> [(i)] : i <= 5; [i] -> [(5)] : i >= 6 }"
    );
    assert_eq!(
        calc1(
            "max({ [i] -> [(i)] : i >= 0 }, { [i] -> [(5)] }) = { [i] -> [(5)] : 0 <= i <= 5; [i] -> [(i)] : i > 5 };"
        ),
        "true"
    );
    assert_eq!(
        calc1(
            "min([N] -> { [i] -> [(N)] }, { [i] -> [(i)] }) = [N] -> { [i] -> [(i)] : i <= N; [i] -> [(N)] : i > N };"
        ),
        "true"
    );
    assert_eq!(
        calc1("pullback({ A[a] -> [(2a)] : a >= 0 }, { [i] -> A[(i - 3)] });"),
        "{ [i] -> [(-6 + 2i)] : i >= 3 }"
    );
    // a single-valued map serves as the inner function
    assert_eq!(
        calc1("pullback({ A[a] -> [(2a)] }, { [i] -> A[i + 1] });"),
        "{ [i] -> [(2 + 2i)] }"
    );
}

#[test]
fn domain_gist_coalesce_and_graphs() {
    assert_eq!(
        calc1("dom { [i] -> [(i + 1)] : 0 <= i < 3 };"),
        "{ [i] : 0 <= i <= 2 }"
    );
    assert_eq!(
        calc1("domain({ [i] -> [(i + 1)] : 0 <= i < 3 });"),
        "{ [i] : 0 <= i <= 2 }"
    );
    assert_eq!(
        calc1("ran { [i] -> [(i + 1)] : 0 <= i < 3 };"),
        "{ [i0] : 1 <= i0 <= 3 }"
    );
    assert_eq!(
        calc1("{ [i] -> [(i)] : 0 <= i <= 10 } % { [i] : i >= 0 };"),
        "{ [i] -> [(i)] : i <= 10 }"
    );
    assert_eq!(
        calc1("gist({ [i] -> [(i)] : 0 <= i <= 10 }, { [i] : i >= 0 });"),
        "{ [i] -> [(i)] : i <= 10 }"
    );
    assert_eq!(
        calc1("[N] -> { [i] -> [(i)] : 0 <= i and N > 0 } % [N] -> { : N > 5 };"),
        "[N] -> { [i] -> [(i)] : i >= 0 }"
    );
    // `%` on sets too (iscc's gist)
    assert_eq!(
        calc1("{ [i] : 0 <= i <= 10 } % { [i] : i >= 0 };"),
        "{ [i] : i <= 10 }"
    );
    assert_eq!(
        calc1("coalesce { [i] -> [(i)] : i <= 0; [i] -> [(i)] : i > 0 };"),
        "{ [i] -> [(i)] }"
    );
    assert_eq!(
        calc1(
            "map({ [i] -> [(floor((i)/2))] : 0 <= i < 4 }) = { [0] -> [0]; [1] -> [0]; [2] -> [1]; [3] -> [1] };"
        ),
        "true"
    );
    // application: the values on a set; composition with a map; inverse
    assert_eq!(
        calc1("{ [i] -> [(floor((i)/2))] }({ [7]; [8] });"),
        "{ [i0] : 3 <= i0 <= 4 }"
    );
    assert_eq!(
        calc1("{ [i] -> [(i + 1)] } . { [j] -> [2j] };"),
        "{ [i] -> [2i + 2] }"
    );
    assert_eq!(calc1("{ [i] -> [(i + 1)] }^-1;"), "{ [i0] -> [i0 - 1] }");
    assert_eq!(
        calc_lines("F := { S[i] -> [(i)] : 0 <= i < 4 }; codegen F;"),
        ["for (int c0 = 0; c0 <= 3; c0 += 1)", "  S(c0);"]
    );
    assert_eq!(calc1("is_empty({ [i] -> [(i)] : 1 = 0 });"), "true");
    assert_eq!(
        calc1("params([N] -> { [i] -> [(i)] : 0 <= i < N });"),
        "[N] -> { : N >= 1 }"
    );
}

#[test]
fn wrong_kinds_give_errors_with_positions() {
    for (prog, want) in [
        (
            "min({ [i] : i > 0 }, { [i] -> [(i)] });",
            "line 1, column 1: 'min' needs two functions with one output",
        ),
        (
            "max({ [i] -> [(i), (1)] }, { [i] -> [(i)] });",
            "'max' needs functions with one output; { [i] -> [(i), (1)] } has 2",
        ),
        ("map({ [i] });", "line 1, column 1: 'map' needs a function"),
        (
            "pullback({ [i] }, { [i] -> [(i)] });",
            "'pullback' needs a function",
        ),
        (
            "pullback({ [i] -> [(i)] }, { [i] -> [j] : j > i });",
            "this map is not one",
        ),
        (
            "F := { [i] -> [(i)] };\nF % { [i] -> [i] };",
            "line 2, column 3: the gist of a function needs a set",
        ),
        (
            "{ [i] -> [(i + )] };",
            "line 1, column 16: expected an expression",
        ),
        (
            "F := { [i] -> [(i)] }; F + { [i] };",
            "column 26: '+' needs a map",
        ),
        ("dim_max({ [i] -> [(i)] }, 0);", "dim_max needs a set"),
        (
            "dim_max({ [i] : 0 <= i <= 3 }, 1);",
            "there is no dimension 1",
        ),
        (
            "dim_max({ [i] : 0 <= i <= 3 }, x);",
            "needs a dimension position",
        ),
        ("min({ [i] -> [(i)] });", "'min' takes 2 argument(s), got 1"),
        (
            "{ [i] -> [(i)] } - { [i] -> [(i), (1)] };",
            "line 1, column 18: space mismatch",
        ),
    ] {
        let e = calc_err(prog);
        assert!(e.contains(want), "{prog}: {e:?} lacks {want:?}");
    }
}

/// Rational sets (`{ rat: .. }`): literals, lexmin/lexmax, comparisons, and
/// the errors of integer operations on them.
#[test]
fn rational_sets() {
    assert_eq!(
        calc1("lexmin { rat: [i] : 1 <= 2i <= 9 or i >= 10 };"),
        "{ rat: [i] : 2i = 1 }"
    );
    assert_eq!(
        calc1("lexmax({ rat: [i] : 1 <= 2i <= 9 });"),
        "{ rat: [i] : 2i = 9 }"
    );
    assert_eq!(
        calc1("A := { rat: [i] : 1 <= 2i <= 9 }; lexmin(A) = { rat: [i] : 2i = 1 };"),
        "true"
    );
    assert_eq!(
        calc1("is_empty({ rat: [i] : 2i >= 1 } * { rat: [i] : 3i <= 1 });"),
        "true"
    );
    assert_eq!(
        calc1("{ rat: [i] : 2i = 1 } <= { rat: [i] : i >= 0 };"),
        "true"
    );
    let e = calc_err("lexmax { rat: [i] : i >= 0 };");
    assert!(e.contains("unbounded"), "{e}");
    let e = calc_err("domain { rat: [i] : i >= 0 };");
    assert!(e.contains("rational set"), "{e}");
    let e = calc_err("{ rat: [i] : i >= 0 } = { [i] : i >= 0 };");
    assert!(e.contains("rational set"), "{e}");
    let e = calc_err("{ rat: [i] : i mod 2 = 0 };");
    assert!(e.contains("line 1") && e.contains("rational"), "{e}");
}

#[test]
fn rational_values_have_a_domain_where_they_are_integers() {
    // isl reads `/` in a tuple as the exact quotient (isl_test.c's map tests):
    // the output `o` of `(i + j)/2` satisfies `2o = i + j`
    for (text, same_as) in [
        (
            "domain { [i, j] -> [(i + j)/2] }",
            "{ [i, j] : (i + j) mod 2 = 0 }",
        ),
        ("domain { A[a] -> B[(a)/3] }", "{ A[a] : a mod 3 = 0 }"),
        ("range { A[a] -> B[(2a)/3] }", "{ B[b] : b mod 2 = 0 }"),
        ("domain { [i] -> [(i + 1)] }", "{ [i] }"),
    ] {
        assert_eq!(calc1(&format!("({text}) = ({same_as});")), "true", "{text}");
    }
}
