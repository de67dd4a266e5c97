//! Malformed and non-affine inputs: each gives an `Err` at the right line
//! and column with a message naming the construct, never a panic.

use presburger_schedule::{Options, extract_scop};

/// A region holding `body`, which starts on line 4, column 1.
fn region(body: &str) -> String {
    format!("#define N 10\ndouble A[N][N], B[N], s;\n#pragma scop\n{body}\n#pragma endscop\n")
}

#[test]
fn errors_have_lines_columns_and_names() {
    // (source, line, column, a word of the message)
    let cases: Vec<(String, usize, usize, &str)> = vec![
        // non-affine subscript
        (
            region(
                "for (int i = 0; i < N; i++)\n  for (int j = 0; j < N; j++)\n    A[i * j][0] = 0;",
            ),
            6,
            7,
            "non-affine product",
        ),
        // data-dependent loop bound
        (
            region("for (int i = 0; i < B[0]; i++)\n  s = 1;"),
            4,
            21,
            "data-dependent",
        ),
        // data-dependent subscript
        (
            region("for (int i = 0; i < N; i++)\n  B[(int) A[i][0]] = 1;"),
            5,
            5,
            "data-dependent",
        ),
        // break, goto, return, while
        (
            region("for (int i = 0; i < N; i++) {\n  if (i > 3)\n    break;\n}"),
            6,
            5,
            "'break'",
        ),
        (region("s = 0;\ngoto out;"), 5, 1, "'goto'"),
        (
            region("for (int i = 0; i < N; i++)\n  return;"),
            5,
            3,
            "'return'",
        ),
        (region("while (s < 1)\n  s = s + 1;"), 4, 1, "'while'"),
        // pointer dereference and pointer arithmetic on the left
        (
            region("for (int i = 0; i < N; i++)\n  *(B + i) = 0;"),
            5,
            3,
            "pointer dereference",
        ),
        (region("double *p = B;"), 4, 1, "pointer"),
        // a non-constant increment
        (
            region("for (int i = 1; i < N; i *= 2)\n  B[i] = 0;"),
            4,
            24,
            "increment",
        ),
        // a non-affine condition
        (
            region("for (int i = 0; i < N; i++)\n  if (i * i < N)\n    B[i] = 0;"),
            5,
            7,
            "non-affine",
        ),
        // a call in a bound
        (
            region("for (int i = 0; i < f(N); i++)\n  B[i] = 0;"),
            4,
            21,
            "'f'",
        ),
        // a statement that is a call
        (
            region("for (int i = 0; i < N; i++)\n  foo(B[i]);"),
            5,
            3,
            "call",
        ),
        // syntax errors
        (
            region("for (int i = 0; i < N; i++\n  B[i] = 0;"),
            5,
            3,
            "expected ')'",
        ),
        (
            region("for (int i = 0; i < N; i++) {\n  B[i] = 0;"),
            4,
            29,
            "never closed",
        ),
        (region("B[0] = ;"), 4, 8, "expected an expression"),
        (region("B[0] = 1"), 5, 1, "expected ';'"),
        // division by a non-constant in a subscript
        (
            region("for (int i = 1; i < N; i++)\n  B[N / i] = 0;"),
            5,
            9,
            "divisor",
        ),
        // an array used with two numbers of subscripts
        (
            region("for (int i = 0; i < N; i++) {\n  B[i] = 0;\n  B[i][i] = 1;\n}"),
            6,
            3,
            "subscript",
        ),
        // assigning a loop iterator
        (
            region("for (int i = 0; i < N; i++)\n  i = 3;"),
            5,
            3,
            "iterator",
        ),
        // no region, an unclosed region, lexical errors
        (
            "int main(void) { return 0; }\n".to_string(),
            1,
            1,
            "#pragma scop",
        ),
        (
            "int x;\n#pragma scop\nx = 1;\n".to_string(),
            2,
            1,
            "endscop",
        ),
        (region("s = 1; /* never closed"), 4, 8, "comment"),
        (region("s = 'a;"), 4, 5, "character"),
        (region("s = 1 @ 2;"), 4, 7, "'@'"),
        // an iterator reused in a nested loop
        (
            region("for (int i = 0; i < N; i++)\n  for (int i = 0; i < N; i++)\n    B[i] = 0;"),
            5,
            12,
            "enclosing loop",
        ),
        // a parameter that is also written
        (
            region("N = 3;\nfor (int i = 0; i < N; i++)\n  B[i] = 0;"),
            4,
            1,
            "assigned",
        ),
        // a ?: in a subscript whose condition is not affine
        (
            region("for (int i = 0; i < N; i++)\n  B[i * i > 3 ? i : 0] = 0;"),
            5,
            5,
            "(?:)",
        ),
    ];
    assert!(cases.len() >= 20);
    for (src, line, col, word) in &cases {
        match extract_scop(src, &Options::default()) {
            Ok(s) => panic!("accepted:\n{src}\n{:?}", s.domains()),
            Err(e) => {
                assert_eq!((e.line, e.column), (*line, *col), "{src}\n{e}");
                assert!(e.message.contains(word), "{src}\n{e}: no '{word}'");
            }
        }
    }
}

#[test]
fn truncations_and_garbage_never_panic() {
    let good = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/kernels/cholesky.c"
    ))
    .unwrap();
    // every prefix of a kernel, and of its region with an endscop added
    let start = good.find("#pragma scop").unwrap();
    for cut in (0..good.len()).filter(|c| good.is_char_boundary(*c)) {
        let _ = extract_scop(&good[..cut], &Options::default());
        if cut > start {
            let patched = format!("{}\n#pragma endscop\n", &good[..cut]);
            let _ = extract_scop(&patched, &Options::default());
        }
    }
    // deep nesting and odd bytes
    for src in [
        region(&format!("s = {}1;", "(".repeat(100_000))),
        region(&"{".repeat(100_000)),
        region(&"for (int i = 0; i < N; i++) ".repeat(5000)),
        region(&format!(
            "s = {};",
            std::iter::repeat_n("B[0]", 100_000)
                .collect::<Vec<_>>()
                .join(" + ")
        )),
        region(&format!("s = A{};", "[0]".repeat(100_000))),
        region(&format!("s = {}1;", "-".repeat(100_000))),
        region(&format!("s = {}1;", "!".repeat(100_000))),
        region(&"if (N > 0) ".repeat(100_000)),
        region(&format!(
            "if ({}) s = 0; else s = 1;",
            ["N != 3"; 40].join(" && ")
        )),
        region(&format!(
            "for (int i = 0; i < {}; i++) s = 0;",
            ["min(N, 2)"; 40].join(" + ")
        )),
        region("s = 99999999999999999999999999;"),
        region("for (int i = 0; i < 99999999999999999999; i++) B[i] = 0;"),
        region(
            "for (int i = 9223372036854775807; i < N; i += 9223372036854775807) B[i * 9223372036854775807] = 0;",
        ),
        region("\u{0}\u{7f}é"),
        "#pragma scop\n#pragma endscop".to_string(),
    ] {
        let _ = extract_scop(&src, &Options::default());
    }
}

#[test]
fn a_function_body_as_the_region() {
    let src =
        "void kernel(int n, double x[n]) {\n  for (int i = 0; i < n; i++)\n    x[i] = 0;\n}\n";
    let scop = extract_scop(
        src,
        &Options {
            function: Some("kernel".into()),
        },
    )
    .unwrap();
    assert_eq!(scop.params, ["n"]);
    assert_eq!(
        &src[scop.span.0..scop.span.1],
        "\n  for (int i = 0; i < n; i++)\n    x[i] = 0;\n"
    );
    let e = extract_scop(
        src,
        &Options {
            function: Some("other".into()),
        },
    )
    .unwrap_err();
    assert!(e.message.contains("other"));
}

#[test]
fn explosions_are_errors() {
    // 2^17 cases of a condition on 17 parameters (too many to build), 2^13
    // that are all there (too many as they are built), 2^7 pieces of a bound
    let ne = |n: usize| {
        (0..n)
            .map(|k| format!("N{k} != 3"))
            .collect::<Vec<_>>()
            .join(" && ")
    };
    for n in [17, 13] {
        let conds = region(&format!("if ({}) s = 0;", ne(n)));
        let e = extract_scop(&conds, &Options::default()).unwrap_err();
        assert!(e.message.contains("cases"), "{e}");
    }
    // 2^13 alternatives of which two are not empty: built
    let same = region(&format!("if ({}) s = 0;", ["N != 3"; 13].join(" && ")));
    extract_scop(&same, &Options::default()).unwrap();
    let mins = region(&format!(
        "for (int i = 0; i < {}; i++) s = 0;",
        ["min(N, 2)"; 7].join(" + ")
    ));
    let e = extract_scop(&mins, &Options::default()).unwrap_err();
    assert!(e.message.contains("min/max"), "{e}");
    // a flat sum costs no nesting (it used to be refused past 256 terms);
    // parentheses do
    let long = region(&format!("s = {};", ["B[0]"; 300].join(" + ")));
    assert_eq!(
        extract_scop(&long, &Options::default()).unwrap().statements[0]
            .reads
            .len(),
        300
    );
    let nested = region(&format!(
        "s = {}B[0]{};",
        "(B[0] + ".repeat(300),
        ")".repeat(300)
    ));
    let e = extract_scop(&nested, &Options::default()).unwrap_err();
    assert!(e.message.contains("nesting"), "{e}");
    // within the limits all is well
    let fine = region(&format!("s = {};", ["B[0]"; 100].join(" + ")));
    assert!(extract_scop(&fine, &Options::default()).is_ok());
    let deep_ifs = region(&format!("{}s = 0;", "if (N > 0) ".repeat(240)));
    let scop = extract_scop(&deep_ifs, &Options::default()).unwrap();
    assert_eq!(scop.statements.len(), 1);
    let deep_parens = region(&format!("s = {}B[0]{};", "(".repeat(120), ")".repeat(120)));
    assert!(extract_scop(&deep_parens, &Options::default()).is_ok());
}

mod random_tokens {
    use super::region;
    use presburger_schedule::{Options, extract_scop};
    use proptest::prelude::*;

    const WORDS: &[&str] = &[
        "for",
        "if",
        "else",
        "int",
        "double",
        "(",
        ")",
        "[",
        "]",
        "{",
        "}",
        ";",
        ",",
        "=",
        "+=",
        "-=",
        "++",
        "--",
        "<",
        "<=",
        ">",
        ">=",
        "==",
        "!=",
        "&&",
        "||",
        "!",
        "+",
        "-",
        "*",
        "/",
        "%",
        "?",
        ":",
        "i",
        "j",
        "N",
        "A",
        "B",
        "s",
        "0",
        "1",
        "2",
        "min",
        "max",
        "floord",
        "ceild",
        "sqrt",
        "break",
        "return",
        "->",
        ".",
        "&",
        "\"x\"",
        "'c'",
        "1.5",
        "\n",
        "#pragma scop\n",
        "#pragma endscop\n",
        "/*",
        "*/",
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Any sequence of C-like tokens in a region: an answer or an error,
        /// never a panic, and an error's line lies within the text.
        #[test]
        fn token_soup_never_panics(words in prop::collection::vec(0..WORDS.len(), 0..60)) {
            let body: Vec<&str> = words.iter().map(|k| WORDS[*k]).collect();
            let src = region(&body.join(" "));
            if let Err(e) = extract_scop(&src, &Options::default()) {
                prop_assert!(e.line >= 1 && e.line <= src.lines().count() + 1, "{e}");
                prop_assert!(e.column >= 1, "{e}");
            }
        }

        /// Statements of the accepted shape with random affine pieces parse
        /// and build, or fail with a message (never a panic).
        #[test]
        fn loop_soup_never_panics(
            a in 0..WORDS.len(), b in 0..WORDS.len(), c in 0..WORDS.len(), d in -3i64..4,
        ) {
            let src = region(&format!(
                "for (int i = {d}; i < N {} {}; i++)\n  A[i {} 1][{}] = B[i];",
                WORDS[a], WORDS[b], WORDS[c], WORDS[a]
            ));
            let _ = extract_scop(&src, &Options::default());
        }
    }
}
