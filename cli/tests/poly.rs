//! End-to-end tests of the `poly` binary.

mod common;

use common::{poly, stderr, stdout};

fn calc_lines(prog: &str) -> Vec<String> {
    let o = poly(&["calc"], prog);
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o).lines().map(str::to_string).collect()
}

#[test]
fn calc_prints_the_issue_example_back() {
    let o = poly(
        &["calc"],
        "S := [N] -> { S[i,j] : 0 <= i < N and 0 <= j <= i and exists e : j = 2e }; S;",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert_eq!(
        text.trim(),
        "[N] -> { S[i, j] : exists (e0 = floor((j)/2) : j = 2e0 and 0 <= j <= i and i < N) }"
    );
    // what it printed is valid input again, with the same meaning
    let again = poly(&["parse"], &text);
    assert!(again.status.success(), "{}", stderr(&again));
    assert_eq!(stdout(&again), text);
}

#[test]
fn calc_operations() {
    let prog = "
        M := { A[i] -> B[i + 1] };
        S := { A[i] : 0 <= i < 5 };
        M(S);                      # apply
        M^-1;                      # reverse
        dom M; ran (M * S);        # domain, intersection with a domain set
        M . M^-1;                  # composition
        S + { A[i] : i = 10 };     # union
        S * { A[i] : i >= 3 };     # intersection
        domain(M); reverse(M);
    ";
    let lines = calc_lines(prog);
    assert_eq!(
        lines,
        vec![
            "{ B[i0] : 1 <= i0 <= 5 }",
            "{ B[i0] -> A[i0 - 1] }",
            "{ A[i] }",
            "{ B[i0] : 1 <= i0 <= 5 }",
            "{ A[i] -> A[i] }",
            "{ A[i] : 0 <= i <= 4; A[10] }",
            "{ A[i] : 3 <= i <= 4 }",
            "{ A[i] }",
            "{ B[i0] -> A[i0 - 1] }",
        ]
    );
}

#[test]
fn calc_runs_an_iscc_script_with_prefix_forms() {
    let prog = "
        # an iscc session: one-argument functions without parentheses
        M := [n] -> { S[i] -> T[i + 1] : 0 <= i < n };
        S := { S[i] : 0 <= i < 10 and i mod 3 = 2 };
        dom M;
        ran M;
        lexmin S;
        lexmax S;
        params [n] -> { [i] : 0 <= i < n and n > 5 };
        sample { [x] : 3x = 9 };
        print S * { S[i] : i < 6 };
        is_empty S;
        reverse M;
    ";
    let lines = calc_lines(prog);
    assert_eq!(
        lines,
        vec![
            "[n] -> { S[i] : 0 <= i < n }",
            "[n] -> { T[i0] : 1 <= i0 <= n }",
            "{ S[2] }",
            "{ S[8] }",
            "[n] -> { : n >= 6 }",
            "{ [3] }",
            "{ S[i] : exists (e0 = floor((i)/3) : i = 3e0 + 2 and 0 <= i <= 5) }",
            "false",
            "[n] -> { T[i0] -> S[i0 - 1] : 1 <= i0 <= n }",
        ]
    );
    // iscc's reserved words in prefix form say what to use instead
    for (prog, says) in [
        (
            "card { [i] : 0 <= i < 3 };",
            "'card' counting points is not implemented yet",
        ),
        (
            "last W before R under S;",
            "'last' (iscc's `last W before R under S`",
        ),
        (
            "any W before R under S;",
            "'any' (iscc's `any W before R under S`",
        ),
    ] {
        let o = poly(&["calc"], prog);
        assert!(!o.status.success(), "{prog}");
        assert!(stderr(&o).contains(says), "{prog}: {}", stderr(&o));
        assert!(stderr(&o).contains("line 1, column 1"), "{}", stderr(&o));
    }
}

#[test]
fn calc_codegen_prints_the_loops_of_a_schedule() {
    let o = poly(
        &["calc"],
        "S := [N] -> { A[i] -> [i, 0] : 0 <= i < N; B[i] -> [i, 1] : 0 <= i < N };\ncodegen S;\ncodegen { T[i] -> [2i] : 0 <= i <= 9 };\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("for (long long c0 = 0; c0 <= N - 1; c0 += 1)"),
        "{out}"
    );
    assert!(out.contains("A(c0);") && out.contains("B(c0);"), "{out}");
    assert!(out.contains("T("), "{out}");
    // a set is not a schedule
    let o = poly(&["calc"], "codegen { [i] : 0 <= i < 3 };");
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("codegen needs a schedule"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn calc_solver_functions() {
    let prog = "S := { [i, j] : 0 <= i <= 3 and i <= j <= 5 and i + j >= 4 };
        lexmin(S); lexmax(S); is_empty(S); is_empty(S * { [i, j] : i > 9 });
        is_empty({ [x, y] : 3x - 3y = 1 }); is_empty([N] -> { [i] : 2i = N and N mod 2 = 1 });
        lexmin({ A[i] : i >= 3; B[i, j] : 0 <= i, j < 2 }); lexmax({ [i] : i < 0 and i > 0 });";
    let lines = calc_lines(prog);
    assert_eq!(
        lines,
        vec![
            "{ [0, 4] }",
            "{ [3, 5] }",
            "false",
            "true",
            "true",
            "true",
            "{ A[3]; B[0, 0] }",
            // (an empty member has no optimum: nothing of it is left, as in isl)
            "{ }",
        ]
    );
    // a sample is a point of the set
    let o = poly(
        &["calc"],
        "S := { [x, y] : 7x + 11y = 1 and 0 <= x <= 20 }; sample(S) * S;",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.starts_with("{ [") && !text.contains(':'), "{text}");
    let o = poly(&["calc"], "lexmin({ [i] : i <= 3 });");
    assert!(!o.status.success());
    assert!(stderr(&o).contains("unbounded"), "{}", stderr(&o));
}

#[test]
fn calc_set_algebra() {
    let prog = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/algebra.poly"))
        .expect("tests/algebra.poly");
    let o = poly(&["calc"], &prog);
    assert!(o.status.success(), "{}", stderr(&o));
    let lines: Vec<String> = stdout(&o).lines().map(str::to_string).collect();
    assert_eq!(
        lines,
        vec![
            "{ [i] : exists (e0 = floor((i)/2) : i = 2e0 + 1 and 0 <= i <= 9) }",
            "true",
            "true",
            "{ [i] : i <= -1 }",
            "{ [i] : 0 <= i <= 20 }",
            "{ [i] : 0 <= i <= 20 }",
            "true",
            "false",
            "true",
            "[N] -> { [i] : 0 <= i < N }",
            "{ [1, -2] }",
            "{ [i, j] : 0 <= j <= 4 and 0 <= i <= 4 }",
            "true",
            "true",
            "{ [A[i] -> B[i + 1]] }",
            "{ A[i] -> B[i + 1] }",
            "true",
        ]
    );
}

/// Every function and operator that `poly calc --help` lists runs its example
/// and gives the value printed beside it (set equality through the
/// calculator's `=`, or the printed boolean): the help is the test's list.
#[test]
fn calc_help_examples_hold() {
    let o = poly(&["calc", "--help"], "");
    assert!(o.status.success(), "{}", stderr(&o));
    let help = stdout(&o);
    let mut section = "";
    let mut form = "";
    let mut checked = 0;
    for line in help.lines() {
        if !line.starts_with(' ') && line.ends_with(':') {
            section = line;
            continue;
        }
        if let Some(entry) = line.strip_prefix("  ").filter(|l| !l.starts_with(' ')) {
            form = entry.split("  ").next().unwrap_or("");
            continue;
        }
        let Some((example, value)) = line.trim().split_once("  ==  ") else {
            continue;
        };
        if section == "functions:" {
            let name = form.split('(').next().unwrap_or("");
            assert!(
                example.starts_with(name),
                "the example of {form} does not call it: {example}"
            );
        }
        let program = if value == "true" || value == "false" {
            format!("{example};")
        } else {
            format!("({example}) = ({value});")
        };
        let o = poly(&["calc"], &program);
        assert!(o.status.success(), "{form}: {program}: {}", stderr(&o));
        let want = if value == "false" { "false" } else { "true" };
        assert_eq!(stdout(&o).trim(), want, "{form}: {program}");
        checked += 1;
    }
    // every function the calculator knows and the operators of its grammar
    assert!(checked >= 35, "only {checked} examples in the help");
    for name in [
        "intersect(",
        "apply(",
        "intersect_domain(",
        "intersect_range(",
        "A . B",
        "dom M",
        "min(F, G)",
        "pullback(F, G)",
        "map(F)",
        "F + G",
        "A % C",
    ] {
        assert!(help.contains(name), "the help lacks {name}");
    }
}

#[test]
fn calc_reports_missing_operations_and_errors() {
    for (prog, want) in [
        (
            "S := { [i] }; card(S);",
            "line 1, column 15: 'card' counting points is not implemented yet; `is_empty`",
        ),
        ("S := { [i] }; S - { [i] -> [j] };", "needs a map"),
        (
            "M := { [i] -> [i + 1] }; M^+;",
            "line 1, column 28: 'M^+' (transitive closure) is not implemented yet; `M . M`",
        ),
        ("{ A[i] } <= { B[i] -> C[i] };", "needs a map"),
        ("T;", "line 1, column 1: unknown name 'T'"),
        (
            "S := { [i] : i > };",
            "line 1, column 18: expected an expression",
        ),
        (
            "S := \n  { [i] : j > 0 };",
            "line 2, column 11: unknown variable 'j'",
        ),
        ("{ A[i] } + { A[i] -> B[i] };", "needs a map"),
        ("{ [i] }(", "expected"),
    ] {
        let o = poly(&["calc"], prog);
        assert!(!o.status.success(), "{prog} should fail");
        let err = stderr(&o);
        assert!(err.contains(want), "{prog}: {err:?} lacks {want:?}");
        assert!(!err.contains("panicked"), "{prog}: {err}");
    }
}

#[test]
fn parse_rejects_malformed_inputs_with_positions() {
    let long_line = format!("{{ [i] : i = {} }}", "1 + ".repeat(2_600_000)); // > 10 MB, ends badly
    let deep_parens = format!(
        "{{ [i] : {}i{} = 0 }}",
        "(".repeat(100_000),
        ")".repeat(100_000)
    );
    let deep_tuple = format!("{{ {}i{} }}", "[".repeat(100_000), "]".repeat(100_000));
    let deep_not = format!("{{ [i] : {}i = 0 }}", "not ".repeat(100_000));
    let cases: Vec<(String, &str)> = vec![
        ("{ [i] : i >= 0".into(), "line 1, column 15"),
        ("{ [i] : 0 <= i }}".into(), "line 1, column 17"),
        ("[N] -> { [i] : i < M }".into(), "unknown variable 'M'"),
        ("{ [i] : i @ 0 }".into(), "unexpected character"),
        ("{ [i] : floor(i/0) = 1 }".into(), "division by zero"),
        ("{ [i] : i mod -3 = 1 }".into(), "integer constant"),
        ("{ [i] : i * i >= 0 }".into(), "not affine"),
        ("{ [i] : i }".into(), "comparison"),
        ("{ [i] -> [j] : exists : i = j }".into(), "existential"),
        ("{ [i, ] }".into(), "expression"),
        ("{ [i] : and }".into(), "keyword"),
        ("{ [i] : i >= 0 ;; }".into(), "expected"),
        ("[N] { [i] }".into(), "'->'"),
        ("{ [i] : 1 <= i <= }".into(), "expected an expression"),
        ("{ [i]\n : i >=\n 0 and j }".into(), "line 3, column 8"),
        ("".into(), "'{'"),
        (long_line, "line 1"),
        (deep_parens, "nesting deeper"),
        (deep_tuple, "nesting deeper"),
        (deep_not, "nesting deeper"),
    ];
    assert_eq!(cases.len(), 20);
    for (text, want) in &cases {
        let o = poly(&["parse"], text);
        let err = stderr(&o);
        let shown: String = text.chars().take(40).collect();
        assert!(!o.status.success(), "{shown:?} should fail");
        assert!(!err.contains("panicked"), "{shown:?}: {err}");
        assert!(err.contains("line "), "{shown:?}: no position in {err:?}");
        assert!(err.contains(want), "{shown:?}: {err:?} lacks {want:?}");
    }
}

#[test]
fn parse_accepts_a_file_and_bad_usage_fails() {
    let dir = std::env::temp_dir().join(format!("poly-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("s.isl");
    std::fs::write(&f, "{ A[i] -> B[i, i] : 0 <= i < 4 }").unwrap();
    let o = poly(&["parse", f.to_str().unwrap()], "");
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).trim(), "{ A[i] -> B[i, i] : 0 <= i <= 3 }");
    let missing = poly(&["parse", dir.join("nope").to_str().unwrap()], "");
    assert!(!missing.status.success());
    assert!(stderr(&missing).contains("cannot read"));
    let bad = poly(&["frobnicate"], "");
    assert!(!bad.status.success());
    assert!(stderr(&bad).contains("unknown command"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bundled_example_runs() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/intro.poly");
    let o = poly(&["calc", path], "");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("[N] -> { S[i, j]"), "{}", stdout(&o));
}

fn example(name: &str) -> String {
    format!("{}/../examples/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn volume_regions_and_tiles_of_the_paper_example() {
    let o = poly(
        &[
            "volume",
            &example("conv_pad_relu.mlir"),
            "--regions",
            "--tile",
            "2=16,3=16",
        ],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let line = |prefix: &str| {
        text.lines()
            .find(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("no line '{prefix}' in\n{text}"))
            .to_string()
    };
    // the lines scripts read parse back as sets with the paper's meaning
    let set =
        |prefix: &str| -> presburger::Set { line(prefix)[prefix.len()..].trim().parse().unwrap() };
    let dom: presburger::Set =
        "{ act0[0, f, h, w] : 0 <= f < 8 and 0 <= h < 256 and 0 <= w < 256 }"
            .parse()
            .unwrap();
    let dense: presburger::Set =
        "{ act0[0, f, h, w] : 0 <= f < 8 and 1 <= h <= 254 and 1 <= w <= 254 }"
            .parse()
            .unwrap();
    assert!(set("region dense:").is_equal(&dense).unwrap());
    assert!(
        set("region constant:")
            .is_equal(&dom.subtract(&dense).unwrap())
            .unwrap()
    );
    assert!(set("region static:").is_empty().unwrap());
    let corners = set("region corner:");
    assert!(
        corners
            .union(&set("region edge:"))
            .unwrap()
            .is_equal(&set("region constant:"))
            .unwrap()
    );
    assert!(line("  corner:").contains("32 elements"), "{text}");
    assert!(line("  dense:").contains("516128 elements"), "{text}");
    let interior: presburger::Set = "{ [Q2, Q3] : 1 <= Q2 <= 14 and 1 <= Q3 <= 14 }"
        .parse()
        .unwrap();
    assert!(set("tiles interior:").is_equal(&interior).unwrap());
    assert_eq!(
        line("slice ifm:"),
        "slice ifm: offsets [0, 0, 32Q2 - 1, 32Q3 - 1] sizes [1, 3, 35, 35] strides [1, 1, 1, 1]"
    );
}

#[test]
fn volume_errors_name_the_line_and_the_way_out() {
    let bad = "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n  %b = foo.bar %a : tensor<4xf32>\n  return %b : tensor<4xf32>\n}\n";
    let o = poly(&["volume"], bad);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(
        err.contains("line 2") && err.contains("foo.bar") && err.contains("--opaque-unknown"),
        "{err}"
    );
    let o = poly(&["volume", "--opaque-unknown"], bad);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o)
            .contains("element map of %b: { b[i0] -> a[o0] : 0 <= o0 <= 3 and 0 <= i0 <= 3 }")
    );
    for args in [
        &["volume", "--tile", "2"][..],
        &["volume", "--tile", "0=0"],
        &["volume", "--bogus"],
    ] {
        let o = poly(args, bad);
        assert!(!o.status.success(), "{args:?}");
        assert!(stderr(&o).starts_with("poly: "), "{args:?}");
    }
    let o = poly(
        &[
            "volume",
            &example("conv_pad_relu.mlir"),
            "--output",
            "%pad0",
        ],
        "",
    );
    assert!(!o.status.success());
    assert!(stderr(&o).contains("not returned"), "{}", stderr(&o));
}

#[test]
fn scop_prints_the_five_lines() {
    let src = "#define N 8\ndouble A[N];\nint main(void) {\n#pragma scop\n  for (int i = 1; i < N; i++)\n    A[i] += A[i - 1];\n#pragma endscop\n  return 0;\n}\n";
    let o = poly(&["scop"], src);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        [
            "context: [N] -> { : N >= 1 }",
            "domain: [N] -> { S0[i] : 1 <= i < N }",
            "schedule: [N] -> { S0[i] -> [0, i, 0] }",
            "reads: [N] -> { S0[i] -> A[i]; S0[i] -> A[i - 1] }",
            "writes: [N] -> { S0[i] -> A[i] }",
        ],
        "{out}"
    );
    let kernel = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../schedule/tests/kernels/gemm.c"
    );
    let o = poly(&["scop", kernel], "");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("context: [NI, NJ, NK] -> "));
    let o = poly(
        &["scop", "--function", "f"],
        "void f(int n, double x[n]) { for (int i = 0; i < n; i++) x[i] = i; }",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("domain: [n] -> { S0[i] : 0 <= i < n }"));
}

#[test]
fn scop_errors_name_the_line_and_column() {
    let o = poly(
        &["scop"],
        "#pragma scop\nfor (int i = 0; i < n; i++)\n  A[i * i] = 0;\n#pragma endscop\n",
    );
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(
        err.starts_with("poly: line 3, column 5: non-affine product"),
        "{err}"
    );
    for args in [
        &["scop", "--bogus"][..],
        &["scop", "--function"],
        &["scop", "a.c", "b.c"],
    ] {
        let o = poly(args, "");
        assert!(!o.status.success(), "{args:?}");
        assert!(stderr(&o).starts_with("poly: "), "{args:?}");
    }
}

#[test]
fn deps_prints_raw_war_waw_flow() {
    let src = "#pragma scop\nfor (int i = 1; i < n; i++)\n  A[i] = A[i - 1];\n#pragma endscop\n";
    let o = poly(&["deps"], src);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines[0].starts_with("raw: [n] -> { S0[i] -> S0["), "{out}");
    assert!(lines[1].starts_with("war: "), "{out}");
    assert!(lines[2].starts_with("waw: "), "{out}");
    assert!(lines[3].starts_with("flow: [n] -> { S0[i] -> S0["), "{out}");
    // with the distances: A[i] flows to the next iteration
    let o = poly(&["deps", "--distances"], src);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.lines()
            .any(|l| l.starts_with("distance flow S0 -> S0: (<) [n] -> { [1]")),
        "{out}"
    );
    let o = poly(&["deps"], "#pragma scop\nx = A[*p];\n#pragma endscop\n");
    assert!(!o.status.success());
    assert!(
        stderr(&o).starts_with("poly: line 2, column 7: "),
        "{}",
        stderr(&o)
    );
}
