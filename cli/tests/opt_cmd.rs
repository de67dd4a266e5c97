//! `poly opt` on hand-written files: generated names that avoid the file's
//! identifiers, scalars declared in the region, loops that declare their
//! iterators, everything outside the region kept, and bad command lines
//! (an error message and a non-zero exit, never a panic). The programs are
//! compiled with `cc -std=c99 -Wall -Werror` (and `-fopenmp` for
//! `--parallel`) and run against the original when a compiler is there.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn poly(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_poly"))
        .args(args)
        .output()
        .expect("poly runs")
}

fn dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("poly_opt_cmd_{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Compiles and runs `src` (`None` when no compiler with OpenMP is there).
fn build_and_run(src: &Path) -> Option<String> {
    let exe = src.with_extension("");
    let out = Command::new("cc")
        .args(["-O2", "-fopenmp", "-std=c99", "-Wall", "-Werror"])
        .arg(src)
        .arg("-o")
        .arg(&exe)
        .arg("-lm")
        .output()
        .ok()?;
    assert!(
        out.status.success(),
        "{}: {}",
        src.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let run = Command::new(&exe)
        .env("OMP_NUM_THREADS", "2")
        .output()
        .unwrap();
    assert!(run.status.success());
    Some(String::from_utf8_lossy(&run.stdout).into_owned())
}

/// The file `name` with `text`, its optimised version by `poly opt ARGS`,
/// both run: the optimised text.
fn same_output(name: &str, text: &str, args: &[&str]) -> String {
    let d = dir();
    let src = d.join(format!("{name}.c"));
    std::fs::write(&src, text).unwrap();
    let opt = d.join(format!("{name}_opt.c"));
    let mut all = vec!["opt", src.to_str().unwrap()];
    all.extend_from_slice(args);
    all.extend_from_slice(&["-o", opt.to_str().unwrap()]);
    let o = poly(&all);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(o.stdout.is_empty(), "-o leaves standard output empty");
    let got = std::fs::read_to_string(&opt).unwrap();
    let region = text.find("#pragma scop").unwrap();
    let end = text.find("#pragma endscop").unwrap() + "#pragma endscop".len();
    assert!(got.starts_with(&text[..region]), "{got}");
    assert!(got.ends_with(&text[end..]), "{got}");
    if let (Some(a), Some(b)) = (build_and_run(&src), build_and_run(&opt)) {
        assert_eq!(a, b, "{got}");
    }
    got
}

const COLLISIONS: &str = r#"#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>
#define N 37
#define M 23
static double A[N][M], c0[N], c2[N], S0[M];
int main(void)
{
  int i, j;
  double s = 0.0, S1 = 1.0;
  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++)
      A[i][j] = (i * 3 + j) % 7;
#pragma scop
  for (i = 0; i < N; i++) {
    double t = c0[i] * 0.5;   /* a declared scalar */
    for (j = 1; j < M; j++) {
      A[i][j] = A[i][j - 1] + A[i][j] * S1 + t; // a comment
    }
    c0[i] = A[i][M - 1];
  }
  for (j = 0; j < M; j++)
    for (i = 1; i < N; i++)
      c2[i] = A[i][j] + S0[j] + c2[i - 1] * 0.25;
#pragma endscop
  for (i = 0; i < N; i++)
    s += c0[i] + c2[i];
  for (j = 0; j < M; j++)
    s += S0[j];
  printf("%.6f\n", s);
  return 0;
}
"#;

/// Issue 45's reproducer: skewed by 799999999, the loop counters reach
/// 2.4e9, past an `int`.
const BIG_COUNTERS: &str = r#"#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>
int main(void)
{
  int i, j;
  long long s = 0;
#pragma scop
  for (i = 0; i < 3; i++)
    for (j = 0; j < 800000000; j++)
      s += 1;
#pragma endscop
  printf("%lld\n", s);
  return 0;
}
"#;

#[test]
fn counters_that_pass_2_to_the_31_are_long_long_and_the_result_is_the_originals() {
    for args in [
        &[][..],
        &["--no-tile"][..],
        &["--tile", "64", "--parallel"][..],
    ] {
        let got = same_output("big_counters", BIG_COUNTERS, args);
        assert!(
            got.contains("799999999"),
            "{args:?}: not skewed as expected\n{got}"
        );
        assert!(got.contains("for (long long c"), "{args:?}:\n{got}");
        assert!(!got.contains("for (int c"), "{args:?}:\n{got}");
    }
    if let Some(original) = build_and_run(&dir().join("big_counters.c")) {
        assert_eq!(original, "2400000000\n");
    }
    // the same loops without the skew's large values stay int
    let small = BIG_COUNTERS.replace("800000000", "800");
    let got = same_output("small_counters", &small, &["--no-tile"]);
    assert!(got.contains("for (int c"), "{got}");
    assert!(!got.contains("long long c"), "{got}");
}

/// A size `n` of type TYPE, set at run time, in a loop that is not
/// transformed.
fn sized(ty: &str) -> String {
    format!(
        r#"#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>
static double A[100];
static void f({ty} n)
{{
  {ty} i;
#pragma scop
  for (i = 0; i < n; i++)
    A[i] = 2.0 * i;
#pragma endscop
}}
int main(void)
{{
  double s = 0;
  f(37);
  for (int k = 0; k < 100; k++)
    s += A[k];
  printf("%.1f\n", s);
  return 0;
}}
"#
    )
}

#[test]
fn the_parameters_declared_types_decide_the_counters_type() {
    // an int n of any value: c0 fits in an int, n - 1 may not (n = INT_MIN)
    let got = same_output("sized_int", &sized("int"), &[]);
    assert!(
        got.contains("for (int c0 = 0; c0 <= (long long)n - 1; c0 += 1)"),
        "{got}"
    );
    // a long n: so may the counter be
    let got = same_output("sized_long", &sized("long"), &[]);
    assert!(
        got.contains("for (long long c0 = 0; c0 <= n - 1; c0 += 1)"),
        "{got}"
    );
    // an unsigned n: 64-bit values, and n - 1 must not wrap around
    let got = same_output("sized_unsigned", &sized("unsigned"), &[]);
    assert!(
        got.contains("for (long long c0 = 0; c0 <= (long long)n - 1; c0 += 1)"),
        "{got}"
    );
}

#[test]
fn generated_names_avoid_the_files_names() {
    for args in [
        &["--tile", "4", "--parallel"][..],
        &["--parametric", "--tile", "8"][..],
        &["--no-tile"][..],
    ] {
        let got = same_output("collisions", COLLISIONS, args);
        // S0 and S1 are the file's: the statements are S_0, S_1, ...
        assert!(got.contains("#define S_0(i) t = c0[(i)] * 0.5\n"), "{got}");
        assert!(
            got.contains(
                "#define S_1(i, j) A[(i)][(j)] = A[(i)][(j) - 1] + A[(i)][(j)] * S1 + t\n"
            )
        );
        assert!(got.contains("#undef S_3\n"));
        // the declared scalar lives in the generated block
        assert!(got.contains("    double t = 0;\n"), "{got}");
        // iterators declared before the region are used, so no warning
        assert!(got.contains("(void) i;") && got.contains("(void) j;"));
        // no loop iterator is named c0 or c2
        assert!(
            !got.contains("int c0 ") && !got.contains("int c2 "),
            "{got}"
        );
    }
}

const DECLARED: &str = r#"#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>
#define N 50
static double x[N][N], y[N];
int main(void)
{
  double s = 0.0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      x[i][j] = (i + 2 * j) % 9;
#pragma scop
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      x[i][j] = x[i][j] * 0.5 + x[j][i] * 0.25;
  for (int k = 0; k < N; k++)
    y[k] = x[k][k];
#pragma endscop
  for (int k = 0; k < N; k++)
    s += y[k];
  printf("%.6f\n", s);
  return 0;
}
"#;

#[test]
fn iterators_declared_in_the_loops() {
    let got = same_output("declared", DECLARED, &["--parallel", "--tile", "16"]);
    assert!(
        !got.contains("(void) i;") && !got.contains("(void) k;"),
        "{got}"
    );
}

/// Issue 45, item 3: grid-border code, a guard whose disjuncts each fix an
/// iterator, in a function called for N = 0 .. 70 (tiles of 32 and 4 are
/// partly full, empty and single), the guarded statement `stmt`. `main`
/// prints a checksum of `A` and `s` for each N.
fn border(stmt: &str) -> String {
    format!(
        r#"#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>
static long long A[80][80];
static long long s;
static void border(int N)
{{
  int i, j;
#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      if (i == 0 || i == N - 1 || j == 0 || j == N - 1)
        {stmt};
#pragma endscop
}}
static volatile int last = 70;
int main(void)
{{
  for (int N = 0; N <= last; N++) {{
    long long sum = 0;
    for (int i = 0; i < 80; i++)
      for (int j = 0; j < 80; j++)
        A[i][j] = 1;
    s = 0;
    border(N);
    for (int i = 0; i < 80; i++)
      for (int j = 0; j < 80; j++)
        sum = (sum * 31 + A[i][j]) % 1000000007;
    printf("%d %lld %lld\n", N, sum, s);
  }}
  return 0;
}}
"#
    )
}

#[test]
fn grid_border_code_is_optimised_and_gives_the_originals_result() {
    let stmts = [
        // the issue's statement
        "A[i][j] = 0",
        // every instance once: a second run of an instance changes the sum
        "A[i][j] = A[i][j] + i + 2 * j + 1",
        // in the original order: the scalar chains all instances
        "s = (s * 7 + i * 100 + j) % 1000003",
    ];
    for (k, stmt) in stmts.iter().enumerate() {
        for args in [
            &[][..],
            &["--no-tile"][..],
            &["--tile", "4", "--parallel"][..],
        ] {
            let got = same_output(&format!("border_{k}"), &border(stmt), args);
            assert!(got.contains("S0(0, c"), "{args:?}:\n{got}");
        }
    }
}

#[test]
fn bad_command_lines_are_errors() {
    let d = dir();
    let f = d.join("plain.c");
    std::fs::write(&f, "int main(void) { return 0; }\n").unwrap();
    let k = Path::new(env!("CARGO_MANIFEST_DIR")).join("../schedule/tests/kernels/gemm.c");
    let k = k.to_str().unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["opt", f.to_str().unwrap()], "no '#pragma scop'"),
        (vec!["opt", "/nonexistent/x.c"], "cannot read"),
        (vec!["opt", k, "--tile", "0"], "tile size"),
        (vec!["opt", k, "--tile", "x"], "tile size"),
        (vec!["opt", k, "--tile-sizes", "4,,8"], "tile size"),
        (vec!["opt", k, "--tile"], "needs"),
        (vec!["opt", k, "--scheduler", "best"], "unknown scheduler"),
        (vec!["opt", k, "--fuse", "all"], "unknown fusion"),
        (vec!["opt", k, "--frobnicate"], "unknown option"),
        (vec!["opt", k, k], "one input file"),
        (
            vec!["opt", k, "-o", "/nonexistent/dir/out.c"],
            "cannot write",
        ),
    ];
    for (args, want) in cases {
        let o = poly(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{args:?} succeeded");
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn print_schedule_and_verbose() {
    let k = Path::new(env!("CARGO_MANIFEST_DIR")).join("../schedule/tests/kernels/gemm.c");
    let o = poly(&[
        "opt",
        k.to_str().unwrap(),
        "--print-schedule",
        "--tile",
        "16",
    ]);
    assert!(o.status.success());
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.starts_with("schedule: [NI, NJ, NK] -> { S0[i, j] -> ["),
        "{out}"
    );
    assert!(out.contains("\n# parallel: "), "{out}");
    let o = poly(&["opt", k.to_str().unwrap(), "--verbose"]);
    assert!(o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("poly opt: scan "), "{err}");
}

/// Issue 45: a periodic stencil whose neighbours wrap around with `?:` in
/// the subscripts (as Pluto's `jacobi-1d-periodic.c`) and a triangular loop
/// bounded by a `?:` that is a `min`, optimised (tiled, skewed) and run
/// against the original.
const PERIODIC: &str = r#"#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>
#define N 97
#define T 23
static double u[2][N], L[N][N];
int main(void)
{
  int t, i, j;
  double s = 0.0;
  for (i = 0; i < N; i++) {
    u[0][i] = (i * 7) % 11;
    for (j = 0; j < N; j++)
      L[i][j] = (i + 2 * j) % 5;
  }
#pragma scop
  for (t = 1; t < T; t++)
    for (i = 0; i < N; i++)
      u[t % 2][i] = 0.3 * (u[(t - 1) % 2][i == 0 ? N - 1 : i - 1] + u[(t - 1) % 2][i]
                  + u[(t - 1) % 2][i == N - 1 ? 0 : i + 1]);
  for (i = 1; i < N; i++)
    for (j = 0; j < (i < N - 9 ? i : N - 9); j++)
      L[i][j] = L[i - 1][j] * 0.5 + L[i][j > 0 ? j - 1 : 0];
#pragma endscop
  for (i = 0; i < N; i++) {
    s += u[(T - 1) % 2][i] * (i + 1);
    for (j = 0; j < N; j++)
      s += L[i][j] * (j + 1);
  }
  printf("%.6f\n", s);
  return 0;
}
"#;

#[test]
fn conditional_subscripts_and_bounds_run_as_the_original() {
    for args in [&["--tile", "8"][..], &["--no-tile"]] {
        let got = same_output("periodic", PERIODIC, args);
        assert!(got.contains("? N - 1 :"), "{got}");
    }
}

/// A kernel that opens with declarations of several variables (kept in
/// place) and declares two scalars in one statement inside its loops.
const MULTI_DECL: &str = r#"#include <stdio.h>
#define N 41
static double A[N][N], B[N], r[N];
static void kernel(int n)
{
  int i, j, *unused_p = 0, tmp[4];
  double s = 0.5, t;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      double a = A[i][j] * s, b = B[j] + a;
      r[i] = r[i] + b;
    }
}
int main(void)
{
  int i, j;
  double sum = 0.0;
  for (i = 0; i < N; i++) {
    B[i] = i % 3;
    for (j = 0; j < N; j++)
      A[i][j] = (i * j) % 7;
  }
  kernel(N);
  for (i = 0; i < N; i++)
    sum += r[i] * (i + 1);
  printf("%.6f\n", sum);
  return 0;
}
"#;

#[test]
fn a_function_with_multi_declarations_runs_as_the_original() {
    let d = dir();
    let src = d.join("multi_decl.c");
    std::fs::write(&src, MULTI_DECL).unwrap();
    let o = poly(&["scop", "--function", "kernel", src.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let model = String::from_utf8_lossy(&o.stdout);
    assert!(
        model.contains("S0[i, j] -> a[]") && model.contains("S1[i, j] -> b[]"),
        "{model}"
    );
    let opt = d.join("multi_decl_opt.c");
    for args in [&["--tile", "8"][..], &["--no-tile"]] {
        let mut all = vec!["opt", src.to_str().unwrap(), "--function", "kernel"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["-o", opt.to_str().unwrap()]);
        let o = poly(&all);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let got = std::fs::read_to_string(&opt).unwrap();
        assert!(
            got.contains("  int i, j, *unused_p = 0, tmp[4];\n  double s = 0.5, t;"),
            "{got}"
        );
        if let (Some(a), Some(b)) = (build_and_run_lax(&src), build_and_run_lax(&opt)) {
            assert_eq!(a, b, "{got}");
        }
    }
}

/// As [`build_and_run`] without `-Werror` (the kernel leaves variables
/// unused on purpose).
fn build_and_run_lax(src: &Path) -> Option<String> {
    let exe = src.with_extension("lax");
    let out = Command::new("cc")
        .args(["-O2", "-std=c99", "-w"])
        .arg(src)
        .arg("-o")
        .arg(&exe)
        .output()
        .ok()?;
    assert!(
        out.status.success(),
        "{}: {}",
        src.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let run = Command::new(&exe).output().unwrap();
    assert!(run.status.success());
    Some(String::from_utf8_lossy(&run.stdout).into_owned())
}

/// Issue 45: a flat sum of 300 terms is one level of nesting, not 300 (the
/// limit on nesting is 256 levels).
#[test]
fn a_flat_sum_of_300_terms_is_optimised() {
    let terms: Vec<String> = (0..300).map(|k| format!("a[{k}]")).collect();
    let text = format!(
        "#pragma GCC diagnostic ignored \"-Wunknown-pragmas\"\n#include <stdio.h>\nstatic double a[300], s;\nint main(void)\n{{\n  int k;\n  for (k = 0; k < 300; k++)\n    a[k] = k % 13;\n#pragma scop\n  s = {};\n#pragma endscop\n  printf(\"%.1f\\n\", s);\n  return 0;\n}}\n",
        terms.join(" + ")
    );
    let got = same_output("sum300", &text, &[]);
    assert!(got.contains("a[299]"), "{got}");
}

/// Issue 45: a scalar declared without a value in the region (`double t;`,
/// and `b` of `double a = 1.0, b;`) is declared in the generated block, so
/// the optimised file compiles and computes what the original does.
const DECLARED_WITHOUT_VALUE: &str = r#"#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>
#define N 50
static double A[N], B[N], C[N];
int main(void)
{
  int i;
  for (i = 0; i < N; i++)
    B[i] = i % 7;
#pragma scop
  for (i = 0; i < N; i++) {
    double t;
    double a = 1.0, b;
    t = B[i] * 2;
    b = t + a;
    A[i] = t + 1;
    C[i] = b;
  }
#pragma endscop
  double s = 0;
  for (i = 0; i < N; i++)
    s += A[i] + 3 * C[i];
  printf("%.1f\n", s);
  return 0;
}
"#;

#[test]
fn a_scalar_declared_without_a_value_is_declared_in_the_generated_block() {
    for args in [&[][..], &["--no-tile"], &["--parallel"]] {
        let got = same_output("declared_without_value", DECLARED_WITHOUT_VALUE, args);
        assert!(got.contains("    double t = 0;\n"), "{got}");
        assert!(got.contains("    double b = 0;\n"), "{got}");
        assert!(got.contains("    double a = 0;\n"), "{got}");
    }
}

/// Issue 45: a loop stops at the first value where its condition fails;
/// `poly opt` ran `i != 10 && i < 20` from 11 to 19 as well (wrong code).
const STOPPING_CONDITIONS: &str = r#"#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>
#define N 30
static double A[N], B[N][N];
int main(void)
{
  int i, j;
#pragma scop
  for (i = 0; i != 10 && i < 20; i++)
    A[i] = A[i] + 1;
  for (i = 25; i >= 0 && (i < 5 || i > 12); i--)
    A[i] = A[i] + 2 * i;
  for (j = 0; j < N; j++)
    for (i = 0; i != j && i < 20; i++)
      B[j][i] = A[i] + j;
#pragma endscop
  double s = 0;
  for (i = 0; i < N; i++) {
    s += (i + 1) * A[i];
    for (j = 0; j < N; j++)
      s += B[i][j] * (j + 2);
  }
  printf("%.1f\n", s);
  return 0;
}
"#;

/// [`same_output`] tiled, untiled, and tiled small with OpenMP.
fn same_output_tiled_or_not(name: &str, text: &str) {
    for args in [&[][..], &["--no-tile"], &["--tile", "4", "--parallel"]] {
        same_output(name, text, args);
    }
}

#[test]
fn a_loop_stops_at_the_first_value_where_its_condition_fails() {
    same_output_tiled_or_not("stopping_conditions", STOPPING_CONDITIONS);
}

/// C's `/` and `%` truncate towards zero: with negative dividends they are
/// not floor and mod (`(N - 1) / 4` is 0 for N = 0, so the first loop runs
/// once; `i / 2` and `i % 3` of negative `i` pick other elements).
const TRUNCATING_DIVISION: &str = r#"#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>
#define N 0
#define M 9
static double A[40], B[40], C[40];
int main(void)
{
  int i;
  for (i = 0; i < 40; i++)
    B[i] = i % 7;
#pragma scop
  for (i = 0; i <= (N - 1) / 4; i++)
    A[i] = A[i] + 5;
  for (i = -M; i < M; i++)
    A[i / 2 + 20] = A[i / 2 + 20] * 2 + B[i % 3 + 10] + i;
  for (i = -M; i <= (M - 20) / 3; i++)
    C[i + 20] = A[i + 20] + 1;
#pragma endscop
  double s = 0;
  for (i = 0; i < 40; i++)
    s += (i + 1) * (A[i] + 3 * C[i]);
  printf("%.1f\n", s);
  return 0;
}
"#;

#[test]
fn division_and_remainder_truncate_as_in_c() {
    same_output_tiled_or_not("truncating_division", TRUNCATING_DIVISION);
}
