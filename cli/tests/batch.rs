//! End-to-end tests of `poly batch`.

mod common;

use common::{poly_bytes as poly, stderr};
use std::process::Output;

fn batch(args: &[&str], input: &str) -> Output {
    let mut all = vec!["batch"];
    all.extend_from_slice(args);
    poly(&all, input.as_bytes())
}

fn lines(o: &Output) -> Vec<String> {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

/// Queries whose answers are unique, with the answer worked out by hand.
const CASES: &[(&str, &str)] = &[
    // 3(x - y) = 1 has no integer solution
    ("is_empty\t{ [x, y] : 3x - 3y = 1 }", "true"),
    // 2i = N forces N even, N mod 2 = 1 forces it odd
    ("is_empty\t[N] -> { [i] : 2i = N and N mod 2 = 1 }", "true"),
    // 2(y - x) = 1: parity
    ("is_empty\t{ [x, y] : x >= 0 and 2y = 2x + 1 }", "true"),
    // 7x + 11y = 1 at (x, y) = (-3, 2)
    (
        "is_empty\t{ [x, y] : 7x + 11y >= 1 and 7x + 11y <= 1 }",
        "false",
    ),
    // i = 0 needs j >= 4: (0, 4); i = 3 allows j up to 5: (3, 5)
    (
        "lexmin\t{ [i, j] : 0 <= i <= 3 and i <= j <= 5 and i + j >= 4 }",
        "[0, 4]",
    ),
    (
        "lexmax\t{ [i, j] : 0 <= i <= 3 and i <= j <= 5 and i + j >= 4 }",
        "[3, 5]",
    ),
    ("sample\t{ [i] : 0 <= i <= 10 and i = 2 }", "[2]"),
    ("sample\t{ [x, y] : x + y = 5 and x - y = 1 }", "[3, 2]"),
    // parameters first
    ("sample\t[N] -> { [i] : N = 4 and i = N + 1 }", "[4, 5]"),
    // the only multiple of 3 in 10..=12
    (
        "sample\t{ [x] : exists a : x = 3a and 10 <= x <= 12 }",
        "[12]",
    ),
    // x in {1, 5, 9, 13, 17}
    (
        "lexmin\t{ [x, y] : exists a : x = 4a + 1 and 0 <= x <= 20 and y = x + 2 }",
        "[1, 3]",
    ),
    (
        "lexmax\t{ [x, y] : exists a : x = 4a + 1 and 0 <= x <= 20 and y = x + 2 }",
        "[17, 19]",
    ),
    // 7x = 1 - 11y: x = 8 (mod 11), so x = 8, y = -5 is the only one with 0 <= x <= 20
    (
        "lexmin\t{ [x, y] : 7x + 11y = 1 and 0 <= x <= 20 }",
        "[8, -5]",
    ),
    (
        "is_empty\t{ [x, y] : 7x + 11y = 1 and 0 <= x <= 5 }",
        "true",
    ),
    // maps and unions
    ("is_empty\t{ A[i] -> B[j] : j = i + 1 and i >= 0 }", "false"),
    (
        "is_empty\t{ A[i] : 2i = 1; B[i, j] : 0 <= i < 1 and 0 < j <= 0 }",
        "true",
    ),
    ("is_empty\t{ A[i] : 2i = 1; B[i] : 0 <= i < 1 }", "false"),
    ("is_empty\t{ }", "true"),
    // parametric: some N gives a point
    ("is_empty\t[N] -> { [i] : 0 <= i < N }", "false"),
    ("is_empty\t[N] -> { [i] : 0 <= i < N and N < 0 }", "true"),
    // empty sets have no point
    ("sample\t{ [i] : i < 0 and i > 0 }", "none"),
    ("lexmax\t{ [i] : 2i = 1 }", "none"),
];

#[test]
fn answers_worked_out_by_hand() {
    let input: String = CASES.iter().map(|(q, _)| format!("{q}\n")).collect();
    let o = batch(&[], &input);
    assert!(o.status.success(), "{}", stderr(&o));
    let got = lines(&o);
    assert_eq!(got.len(), CASES.len(), "{got:?}");
    for ((q, want), got) in CASES.iter().zip(&got) {
        assert_eq!(got, want, "{q}");
    }
}

#[test]
fn unbounded_lexmin_is_an_error_line() {
    let o = batch(&[], "lexmin\t{ [i] : i <= 5 }\nlexmax\t{ [i] : i <= 5 }\n");
    assert_eq!(o.status.code(), Some(1));
    let got = lines(&o);
    assert_eq!(got.len(), 2, "{got:?}");
    assert!(got[0].starts_with("error: line 1: "), "{}", got[0]);
    assert!(got[0].contains("unbounded"), "{}", got[0]);
    assert_eq!(got[1], "[5]");
}

#[test]
fn a_file_with_comments_and_blank_lines() {
    let dir = std::env::temp_dir().join(format!("poly-batch-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("q.txt");
    std::fs::write(
        &f,
        "# a comment\n\
         is_empty\t{ [i] : 0 <= i < 3 }\n\
         \n\
         \x20\x20# an indented comment\n\
         \x20\x20\x20\n\
         sample\t{ [i, j] : i = 1 and j = -2 }\r\n\
         lexmax\t{ [i] : 0 <= i < 3 }",
    )
    .unwrap();
    for args in [
        vec![f.to_str().unwrap()],
        vec!["--stats", f.to_str().unwrap()],
    ] {
        let o = batch(&args, "");
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(lines(&o), ["false", "[1, -2]", "[2]"]);
        if args.len() == 2 {
            let err = stderr(&o);
            assert!(
                err.trim()
                    .starts_with("stats: 3 operations, 0 errors; solver: ")
                    && err.contains("emptiness checks"),
                "{err}"
            );
        }
    }
    // `-` and no file both read standard input
    let text = std::fs::read_to_string(&f).unwrap();
    for args in [vec!["-"], vec![]] {
        let o = batch(&args, &text);
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(lines(&o), ["false", "[1, -2]", "[2]"]);
    }
    let missing = batch(&[dir.join("nope").to_str().unwrap()], "");
    assert!(!missing.status.success());
    assert!(stderr(&missing).contains("cannot read"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn time_and_repeat_add_a_tab_and_nanoseconds() {
    let input = "is_empty\t{ [x, y] : 0 <= x, y <= 100 and 2 <= 4x - 4y <= 3 }\n\
                 # skipped\n\
                 lexmin\t{ [i, j] : 0 <= i <= 3 and i <= j <= 5 and i + j >= 4 }\n\
                 lexmin\t{ [i] : i <= 5 }\n";
    for args in [
        vec!["--time", "--repeat", "3"],
        vec!["--repeat=3", "--time"],
    ] {
        let o = batch(&args, input);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        let got = lines(&o);
        assert_eq!(got.len(), 3, "{got:?}");
        for (line, want) in got[..2].iter().zip(["true", "[0, 4]"]) {
            let (answer, nanos) = line.split_once('\t').expect("answer TAB nanoseconds");
            assert_eq!(answer, want);
            assert!(
                !nanos.is_empty() && nanos.bytes().all(|b| b.is_ascii_digit()),
                "{line:?}"
            );
            nanos.parse::<u128>().expect("an integer");
        }
        // an error line has no time
        assert!(got[2].starts_with("error: line 4: "), "{}", got[2]);
        assert!(!got[2].contains('\t'));
    }
    // without --time, --repeat only repeats
    let o = batch(&["--repeat", "2"], "is_empty\t{ [i] : 2i = 1 }\n");
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(lines(&o), ["true"]);
}

#[test]
fn error_lines_continue_and_set_the_exit_status() {
    let input = "is_empty\t{ [i] : 0 <= i }\n\
                 frobnicate\t{ [i] }\n\
                 is_empty\n\
                 is_empty\t{ [i] }\t{ [j] }\n\
                 is_empty { [i] }\n\
                 is_empty\t{ [i] : i > }\n\
                 sample\t{ A[i]; B[i] }\n\
                 lexmin\t{ A[i] -> B[i] }\n\
                 lexmin\t[N] -> { [i] : 0 <= i < N }\n\
                 lexmax\t{ [i] : 0 <= i <= 7 }\n";
    let o = batch(&["--stats"], input);
    assert_eq!(o.status.code(), Some(1));
    let got = lines(&o);
    assert_eq!(got.len(), 10, "{got:?}");
    assert_eq!(got[0], "false");
    assert_eq!(got[9], "[7]");
    for (k, want) in [
        (1, "unknown operation 'frobnicate'"),
        (2, "'is_empty' takes 1 argument(s), got 0"),
        (3, "'is_empty' takes 1 argument(s), got 2"),
        (4, "TAB"),
        (5, "column 22: expected an expression"),
        (6, "one set space"),
    ] {
        let prefix = format!("error: line {}: ", k + 1);
        assert!(got[k].starts_with(&prefix), "{}", got[k]);
        assert!(got[k].contains(want), "{:?} lacks {want:?}", got[k]);
    }
    // lexmin of a map and of a parametric set are answers in isl notation
    assert_eq!(got[7], "{ A[i] -> B[i] }");
    assert_eq!(got[8], "[N] -> { [0] : N >= 1 }");
    let err = stderr(&o);
    assert!(err.contains("stats: 10 operations, 6 errors"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn invalid_utf8_and_odd_input_do_not_stop_the_batch() {
    let mut input = b"is_empty\t{ [i] : i = \xff }\n".to_vec();
    input.extend_from_slice(b"# a comment \xfe may hold any bytes\n");
    input.extend_from_slice(b"\t\t\n"); // blank: skipped
    input.extend_from_slice(b"\t{ [i] }\n"); // no operation
    input.extend_from_slice("is_empty\t{ [é] }\n".as_bytes());
    input.extend_from_slice(b"is_empty\t{ [i] : 0 <= i <= 1 }");
    let o = poly(&["batch"], &input);
    assert_eq!(o.status.code(), Some(1));
    let got = lines(&o);
    assert_eq!(got.len(), 4, "{got:?}");
    assert!(got[0].starts_with("error: line 1: ") && got[0].contains("UTF-8"));
    assert!(
        got[1].starts_with("error: line 4: unknown operation ''"),
        "{}",
        got[1]
    );
    assert!(got[2].starts_with("error: line 5: "), "{}", got[2]);
    assert_eq!(got[3], "false");
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
}

#[test]
fn bad_flags_are_usage_errors() {
    for args in [
        vec!["--frob"],
        vec!["--repeat"],
        vec!["--repeat", "0"],
        vec!["--repeat", "-3"],
        vec!["--repeat", "many"],
        vec!["a.txt", "b.txt"],
    ] {
        let o = batch(&args, "is_empty\t{ [i] }\n");
        assert!(!o.status.success(), "{args:?} should fail");
        assert!(o.stdout.is_empty(), "{args:?}");
        let err = stderr(&o);
        assert!(err.contains("usage: poly batch"), "{args:?}: {err}");
    }
    let help = batch(&["--help"], "");
    assert!(help.status.success());
    assert!(String::from_utf8_lossy(&help.stdout).contains("--repeat"));
    // the general usage text mentions the subcommand
    let o = poly(&["help"], b"");
    assert!(String::from_utf8_lossy(&o.stdout).contains("batch"));
}

#[test]
fn bundled_batch_example_runs() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/batch.txt");
    let o = poly(&["batch", path], b"");
    let got = lines(&o);
    let queries = std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .count();
    assert_eq!(got.len(), queries, "{got:?}");
    // the example ends with one deliberate error (an unbounded lexmin)
    assert_eq!(o.status.code(), Some(1));
    let errors: Vec<&String> = got.iter().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(errors.len(), 1, "{got:?}");
    assert!(errors[0].contains("unbounded"), "{}", errors[0]);
}

#[test]
fn set_algebra_ops() {
    let input = "\
is_subset\t{ [i] : 1 <= i <= 5 }\t{ [i] : 0 <= i <= 10 }
is_subset\t{ [i] : 0 <= i <= 10 }\t{ [i] : 1 <= i <= 5 }
is_equal\t{ [i] : 0 <= i < 10 and exists e : i = 2e + 1 }\t{ [i] : 0 <= i <= 9 and i mod 2 = 1 }
is_equal\t{ A[i] -> B[i + 1] }\t{ A[i] -> B[j] : j - i = 1 }
is_disjoint\t{ [i] : exists e : i = 2e }\t{ [i] : exists e : i = 2e + 1 }
is_disjoint\t{ [i] : i >= 0 }\t{ [i] : i <= 0 }
subtract_is_empty\t{ [i] : 0 <= i < 10 }\t{ [i] : i >= 0 }
subtract_is_empty\t{ [i] : 0 <= i < 10 }\t{ [i] : exists e : i = 2e }
coalesce\t{ [i] : 0 <= i <= 10 or 11 <= i <= 20 }
is_subset\t{ [i] }\t{ A[i] -> B[i] }
";
    let o = batch(&[], input);
    assert_eq!(
        lines(&o),
        vec![
            "true",
            "false",
            "true",
            "true",
            "true",
            "false",
            "true",
            "false",
            "{ [i] : 0 <= i <= 20 }",
            "error: line 10: space mismatch: one argument is a set and the other a map",
        ]
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
}
