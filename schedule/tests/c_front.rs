//! The C front end on whole files in the shapes of Pluto's tests (issue 45,
//! items 5 and 7): `?:` in loop bounds and subscripts (periodic stencils),
//! declarations of several variables, `--function` over a body that opens
//! with such declarations, and long flat sums. Each of these was refused
//! before.

use presburger::{Map, Set, UnionMap};
use presburger_schedule::{Options, dependences, extract_scop};

fn same_set(s: &Set, text: &str) {
    let want: Set = text.parse().unwrap();
    assert!(s.is_equal(&want).unwrap(), "{s} is not {text}");
}

fn same_map(m: &Map, text: &str) {
    let want: Map = text.parse().unwrap();
    assert!(m.is_equal(&want).unwrap(), "{m} is not {text}");
}

/// A periodic 1-d Jacobi step (as Pluto's `jacobi-1d-periodic.c`): the
/// neighbours wrap around with `?:` in the subscripts.
const PERIODIC: &str = "#define N 64
#define T 10
double u[2][N];
int main(void) {
  int t, i;
#pragma scop
  for (t = 1; t < T; t++)
    for (i = 0; i < N; i++)
      u[t % 2][i] = u[(t - 1) % 2][i == 0 ? N - 1 : i - 1] + u[(t - 1) % 2][i]
                  + u[(t - 1) % 2][i == N - 1 ? 0 : i + 1];
#pragma endscop
  return 0;
}
";

#[test]
fn conditional_subscripts_are_piecewise_access_relations() {
    let scop = extract_scop(PERIODIC, &Options::default()).unwrap();
    let st = &scop.statements[0];
    let on_domain = |k: usize| st.reads[k].relation.intersect_domain(&st.domain).unwrap();
    same_map(
        &on_domain(0),
        "[T, N] -> { S0[t, i] -> u[(t - 1) mod 2, o] : 1 <= t < T and 0 <= i < N \
         and ((i = 0 and o = N - 1) or (i > 0 and o = i - 1)) }",
    );
    same_map(
        &on_domain(2),
        "[T, N] -> { S0[t, i] -> u[(t - 1) mod 2, o] : 1 <= t < T and 0 <= i < N \
         and ((i = N - 1 and o = 0) or (i < N - 1 and o = i + 1)) }",
    );
    // the wrap-around is a dependence: (t, N - 1) writes what (t + 1, 0) reads
    let d = dependences(&scop).unwrap();
    let wrap: UnionMap = "[T, N] -> { S0[t, N - 1] -> S0[t + 1, 0] : 1 <= t < T - 1 and N >= 2 }"
        .parse()
        .unwrap();
    assert!(wrap.is_subset(&d.flow).unwrap(), "{}", d.flow);
}

#[test]
fn conditional_loop_bounds_are_min_max_or_split_domains() {
    let src = "double A[100][100];
void f(int n) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < (i < n - 2 ? i : n - 2); j++)
      A[i][j] = A[i][j + 1];
  for (i = 0; i < n; i++)
    for (j = (i > 3 ? 5 : 0); j <= (n >= i ? n : i); j++)
      A[i][j] = 0;
#pragma endscop
}
";
    let scop = extract_scop(src, &Options::default()).unwrap();
    let d0 = &scop.statements[0].domain;
    same_set(
        d0,
        "[n] -> { S0[i, j] : 0 <= i < n and 0 <= j < i and j < n - 2 }",
    );
    assert_eq!(
        d0.n_basic(),
        1,
        "a min bound keeps the domain a conjunction"
    );
    same_set(
        &scop.statements[1].domain,
        "[n] -> { S1[i, j] : 0 <= i < n and j <= n and j <= i + n and \
         ((i > 3 and j >= 5) or (i <= 3 and j >= 0)) }",
    );
    // a bound with a condition on data is refused, naming the ?:
    let bad = src.replace("i < n - 2 ? i", "A[0][0] < n - 2 ? i");
    let e = extract_scop(&bad, &Options::default()).unwrap_err();
    assert_eq!((e.line, e.column), (6, 22), "{e}");
    assert!(
        e.message.contains("(?:)") && e.message.contains("data-dependent"),
        "{e}"
    );
}

#[test]
fn declarations_of_several_variables() {
    let src = "#define N 8
double a[N], s, *p, q[10];
int main(void) {
  int i, j, k;
  double x = 1.0, y;
#pragma scop
  for (i = 0; i < N; i++) {
    double t = a[i], u, v = t * 2;
    a[i] = v + s;
  }
#pragma endscop
  return 0;
}
";
    let scop = extract_scop(src, &Options::default()).unwrap();
    let texts: Vec<&str> = scop.statements.iter().map(|s| s.text.as_str()).collect();
    assert_eq!(
        texts,
        ["double t = a[i];", "double v = t * 2;", "a[i] = v + s;"]
    );
    assert_eq!(scop.array("a").unwrap().sizes, ["N"]);
    assert_eq!(
        scop.array("s").unwrap().element_type.as_deref(),
        Some("double")
    );
    // a pointer or array declarator inside the region is refused at its place
    for (decl, col) in [("int m, *p2;", 12), ("int m, r[4];", 12)] {
        let bad = src.replace("double t = a[i], u, v = t * 2;", decl);
        let e = extract_scop(&bad, &Options::default()).unwrap_err();
        assert_eq!((e.line, e.column), (8, col), "{decl}: {e}");
    }
}

#[test]
fn a_whole_function_that_opens_with_declarations() {
    let src = "#include <stdlib.h>
void kernel(int n, int m, double *x, double y[n][m]) {
  int i, j, *idx, tmp[16];
  double s = 0.0, t, *w = malloc(sizeof(double));
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++) {
      double a = y[i][j], b;
      y[i][j] = a + s;
    }
  free(w);
}
";
    let opts = Options {
        function: Some("kernel".into()),
    };
    // the call at the end is outside the subset, and said so
    let e = extract_scop(src, &opts).unwrap_err();
    assert_eq!((e.line, e.column), (10, 3), "{e}");
    let src = src.replace("  free(w);\n", "");
    let scop = extract_scop(&src, &opts).unwrap();
    assert_eq!(scop.params, ["n", "m"]);
    assert_eq!(scop.statements.len(), 2);
    same_set(
        &scop.statements[1].domain,
        "[n, m] -> { S1[i, j] : 0 <= i < n and 0 <= j < m }",
    );
    // the region is the body after its declarations, which stay in place
    assert!(src[scop.span.0..scop.span.1].starts_with("\n  for (i = 0;"));
    assert!(src[..scop.span.0].ends_with("malloc(sizeof(double));"));
}

/// `s = a[0] + a[1] + ... + a[n - 1];` in a region.
fn flat_sum(n: usize) -> String {
    let terms: Vec<String> = (0..n).map(|k| format!("a[{k}]")).collect();
    format!(
        "double a[{n}], s;\nint main(void) {{\n#pragma scop\ns = {};\n#pragma endscop\nreturn 0;\n}}\n",
        terms.join(" + ")
    )
}

#[test]
fn flat_sums_of_250_to_10000_terms() {
    // the old parser took about 250 terms (a level per '+') and refused 300
    for n in [250, 300, 10_000] {
        let scop = extract_scop(&flat_sum(n), &Options::default()).unwrap();
        let st = &scop.statements[0];
        assert_eq!(st.reads.len(), n);
        same_map(
            &st.reads[n - 1].relation,
            &format!("{{ S0[] -> a[{}] }}", n - 1),
        );
    }
    let scop = extract_scop(&flat_sum(250), &Options::default()).unwrap();
    let d = dependences(&scop).unwrap();
    assert!(d.raw.is_empty().unwrap() && d.waw.is_empty().unwrap());
    // ten thousand nested parentheses are still a clear error
    let deep = format!(
        "double a[1], s;\n#pragma scop\ns = {}a[0]{};\n#pragma endscop\n",
        "(".repeat(10_000),
        ")".repeat(10_000)
    );
    let e = extract_scop(&deep, &Options::default()).unwrap_err();
    assert_eq!(e.line, 3);
    assert!(e.message.contains("nesting deeper than 256 levels"), "{e}");
}
