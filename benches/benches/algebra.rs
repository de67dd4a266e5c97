//! The set algebra on unions: `subtract`, `coalesce` and `is_equal`.
//!
//! - `algebra/subtract/*`: tiles minus a strided set, a domain minus a union of
//!   slabs, and a triangle minus a union of diagonals;
//! - `algebra/coalesce/*`: unions of adjacent intervals and boxes that merge, and a
//!   union that does not;
//! - `algebra/is_equal/*`: a union against its coalesced form;
//! - `algebra/is_subset/*`: dependence relations inside the lexicographic order
//!   (gemm, a 2-d stencil, both directions of a tiled gemm dependence), tiled domains
//!   inside their untiled domain, and a strided set that is not inside another.
//!
//! Run with `cargo bench -p presburger-benches --bench algebra`; `RAYON_NUM_THREADS=1` gives
//! the single-threaded figures (the emptiness tests of subtraction run in parallel).

use criterion::{Criterion, criterion_group, criterion_main};
use presburger::{Map, Set};
use std::hint::black_box;
use std::time::Duration;

fn set(s: &str) -> Set {
    s.parse().expect("benchmark set parses")
}

fn map(s: &str) -> Map {
    s.parse().expect("benchmark map parses")
}

/// A union of `k` horizontal slabs of height 2 with gaps of 1.
fn slabs(k: usize) -> Set {
    let parts: Vec<String> = (0..k)
        .map(|t| format!("{} <= i <= {}", 3 * t, 3 * t + 1))
        .collect();
    set(&format!(
        "{{ [i, j] : 0 <= j <= 20 and ({}) }}",
        parts.join(" or ")
    ))
}

fn subtract(c: &mut Criterion) {
    let mut g = c.benchmark_group("algebra/subtract");
    let tiles = set(
        "[N] -> { [ti, i] : exists a : ti = 8a and 0 <= ti < N and ti <= i < ti + 8 and i < N }",
    );
    let strided = set("[N] -> { [ti, i] : exists b : i = 3b + 1 }");
    g.bench_function("tiles_minus_stride", |b| {
        b.iter(|| black_box(tiles.subtract(&strided).expect("subtract")))
    });
    let dom = set("{ [i, j] : 0 <= i <= 30 and 0 <= j <= 20 }");
    let sl = slabs(8);
    g.bench_function("box_minus_8_slabs", |b| {
        b.iter(|| black_box(dom.subtract(&sl).expect("subtract")))
    });
    let tri = set("[N] -> { [i, j] : 0 <= j <= i < N }");
    let diags = set("[N] -> { [i, j] : i = j or i = j + 2 or i = j + 4 or i = j + 6 }");
    g.bench_function("triangle_minus_diagonals", |b| {
        b.iter(|| black_box(tri.subtract(&diags).expect("subtract")))
    });
    g.finish();
}

fn coalesce(c: &mut Criterion) {
    let mut g = c.benchmark_group("algebra/coalesce");
    let intervals =
        set("{ [i] : 0 <= i <= 10 or 11 <= i <= 20 or 21 <= i <= 25 or 26 <= i <= 40 }");
    g.bench_function("adjacent_intervals_4", |b| {
        b.iter(|| black_box(intervals.coalesce().expect("coalesce")))
    });
    let boxes = set(
        "{ [i, j] : (0 <= i <= 4 and 0 <= j <= 9) or (5 <= i <= 9 and 0 <= j <= 9) or \
         (0 <= i <= 9 and 10 <= j <= 12) }",
    );
    g.bench_function("adjacent_boxes_3", |b| {
        b.iter(|| black_box(boxes.coalesce().expect("coalesce")))
    });
    let sl = slabs(6);
    g.bench_function("separate_slabs_6", |b| {
        b.iter(|| black_box(sl.coalesce().expect("coalesce")))
    });
    g.finish();
}

fn is_equal(c: &mut Criterion) {
    let mut g = c.benchmark_group("algebra/is_equal");
    let u = set("{ [i, j] : (0 <= i <= 4 and 0 <= j <= 9) or (5 <= i <= 9 and 0 <= j <= 9) }");
    let v = set("{ [i, j] : 0 <= i <= 9 and 0 <= j <= 9 }");
    g.bench_function("two_boxes_vs_one", |b| {
        b.iter(|| black_box(u.is_equal(&v).expect("is_equal")))
    });
    let odd = set("{ [i] : 0 <= i < 100 } ")
        .subtract(&set("{ [i] : exists e : i = 2e }"))
        .expect("subtract");
    let odd2 = set("{ [i] : exists e : i = 2e + 1 and 0 <= i <= 99 }");
    g.bench_function("odd_numbers", |b| {
        b.iter(|| black_box(odd.is_equal(&odd2).expect("is_equal")))
    });
    g.finish();
}

fn is_subset(c: &mut Criterion) {
    let mut g = c.benchmark_group("algebra/is_subset");
    let lex3 = map(
        "{ [i, j, k] -> [i', j', k'] : i < i' or (i = i' and j < j') or \
         (i = i' and j = j' and k < k') }",
    );
    let gemm = map(
        "[N] -> { [i, j, k] -> [i', j', k'] : 0 <= i, j, k < N and 0 <= i', j', k' < N and \
         i' = i and j' = j and k < k' }",
    );
    g.bench_function("gemm_dep_in_lex", |b| {
        b.iter(|| assert!(black_box(gemm.is_subset(&lex3).expect("is_subset"))))
    });
    let jacobi = map(
        "[N, T] -> { [t, i, j] -> [t', i', j'] : 0 <= t < T and 1 <= i, j <= N - 2 and \
         0 <= t' < T and 1 <= i', j' <= N - 2 and t' = t + 1 and -1 <= i' - i <= 1 and \
         -1 <= j' - j <= 1 }",
    );
    g.bench_function("jacobi_dep_in_lex", |b| {
        b.iter(|| assert!(black_box(jacobi.is_subset(&lex3).expect("is_subset"))))
    });
    let tiled_dep = map(
        "[N] -> { [i, j, k] -> [i', j', k'] : 0 <= i, j, k < N and 0 <= i', j', k' < N and \
         i' = i and j' = j and k < k' and exists a, b : 8a <= k <= 8a + 7 and \
         8b <= k' <= 8b + 7 and a <= b }",
    );
    g.bench_function("tiled_gemm_dep_in_lex", |b| {
        b.iter(|| assert!(black_box(tiled_dep.is_subset(&lex3).expect("is_subset"))))
    });
    let tiled = set(
        "[N] -> { [ti, tj, i, j] : exists a, b : ti = 8a and tj = 8b and 0 <= ti < N and \
         0 <= tj < N and ti <= i < ti + 8 and tj <= j < tj + 8 and i < N and j < N }",
    );
    let untiled = set(
        "[N] -> { [ti, tj, i, j] : 0 <= i < N and 0 <= j < N and i - 7 <= ti <= i and \
         j - 7 <= tj <= j }",
    );
    g.bench_function("tiles_in_domain", |b| {
        b.iter(|| assert!(black_box(tiled.is_subset(&untiled).expect("is_subset"))))
    });
    let by6 = set("{ [i, j] : 0 <= i < 60 and 0 <= j <= i and exists e : i = 6e }");
    let by4 = set("{ [i, j] : exists e : i = 4e or j >= 1 }");
    g.bench_function("stride_not_in_union", |b| {
        b.iter(|| assert!(!black_box(by6.is_subset(&by4).expect("is_subset"))))
    });
    g.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20)
}

criterion_group! {
    name = algebra;
    config = config();
    targets = subtract, coalesce, is_equal, is_subset
}
criterion_main!(algebra);
