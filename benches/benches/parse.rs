//! Parsing and simplifying one long conjunction: `{ [x0, ..., x9] : C1 and ... }`
//! with `n` random constraints (1,000 / 10,000 / 100,000).
//!
//! - `parse/parse/N`: the text to the conjunction as written
//!   (`presburger::internals::parse_unsimplified`: lexing, parsing, normal form, rows);
//! - `parse/parse_simplify/N`: the text to a simplified `BasicSet` (what
//!   `text.parse::<BasicSet>()` does for a user);
//! - `parse/simplify/N`: `Conjunction::simplify` alone on the rows as parsed.
//!
//! The constraints hold at a planted point, so the set is never empty: each is an
//! inequality on 1 to 3 variables with coefficients in -4..4 and a slack of 5 to 40
//! at the point, written in one of three forms (`a·x + c >= 0`, `-c <= a·x`,
//! `a·x > -c - 1`); two equalities through the point (at a third and two thirds of
//! the text) give the Gaussian elimination something to do. Simplification keeps
//! the tightest row of each direction: about half of the rows for 1,000
//! constraints, a tenth for 100,000.
//!
//! The texts are built before timing. Run with `cargo bench -p presburger-benches --bench
//! parse`; before the criterion groups it prints plain wall-clock figures for
//! 200,000 constraints (best of 3), parse and simplify separately and together.

use criterion::{BatchSize, BenchmarkId, Criterion, criterion_group};
use presburger::{BasicSet, Conjunction};
use presburger_benches::{XorShift, affine};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Number of variables.
const NV: usize = 10;
/// Seed of the generator (the same texts on every run).
const SEED: u64 = 7;

/// One constraint `a·x + c >= 0` (`= 0` when `eq`), written in text form `form`.
struct Constraint {
    a: [i64; NV],
    c: i64,
    eq: bool,
    form: u8,
}

/// `n` constraints through a planted point (see the module comment).
fn constraints(n: usize, seed: u64) -> Vec<Constraint> {
    let mut rng = XorShift::new(seed);
    let p: Vec<i64> = (0..NV).map(|_| rng.range(-10, 10)).collect();
    let mut out = Vec::with_capacity(n);
    for t in 0..n {
        let mut a = [0i64; NV];
        let eq = n >= 4 && (t == n / 3 || t == 2 * n / 3);
        if eq && t == n / 3 {
            a[8] = 1;
            a[9] = -1;
        } else if eq {
            a[0] = 1;
            a[1] = 1;
            a[2] = 1;
        } else {
            for _ in 0..rng.range(1, 3) {
                let v = rng.range(0, NV as i64 - 1) as usize;
                let mut x = 0;
                while x == 0 {
                    x = rng.range(-4, 4);
                }
                a[v] = x;
            }
        }
        let dot: i64 = a.iter().zip(&p).map(|(x, y)| x * y).sum();
        let c = if eq { -dot } else { -dot + rng.range(5, 40) };
        let form = rng.range(0, 2) as u8;
        out.push(Constraint { a, c, eq, form });
    }
    out
}

/// The isl text `{ [x0, ..., x9] : C1 and C2 and ... }`.
fn text(cs: &[Constraint]) -> String {
    let dims: Vec<String> = (0..NV).map(|k| format!("x{k}")).collect();
    let mut s = format!("{{ [{}] : ", dims.join(", "));
    for (i, k) in cs.iter().enumerate() {
        if i > 0 {
            s += " and ";
        }
        let lin = affine(&k.a, 0);
        if k.eq {
            s += &format!("{lin} = {}", -k.c);
        } else {
            match k.form {
                0 => s += &format!("{} >= 0", affine(&k.a, k.c)),
                1 => s += &format!("{} <= {lin}", -k.c),
                _ => s += &format!("{lin} > {}", -k.c - 1),
            }
        }
    }
    s += " }";
    s
}

/// The text of `n` constraints.
fn conjunction_text(n: usize) -> String {
    text(&constraints(n, SEED))
}

/// The conjunction as parsed (not simplified).
fn parse_raw(text: &str) -> Conjunction {
    presburger::internals::parse_unsimplified(text)
        .expect("benchmark text parses")
        .expect("one part with one disjunct")
}

fn parse_simplified(text: &str) -> BasicSet {
    text.parse().expect("benchmark text parses")
}

/// Warns (before timing) when the parsed rows or the simplified set look wrong.
fn check(n: usize, text: &str) {
    let raw = parse_raw(text);
    let rows = raw.equalities().len() + raw.inequalities().len();
    if rows != n {
        eprintln!("warning: {n} constraints parsed to {rows} rows");
    }
    let mut simplified = raw.clone();
    simplified.simplify();
    let b = parse_simplified(text);
    if b.conjunction().equalities() != simplified.equalities()
        || b.conjunction().inequalities() != simplified.inequalities()
    {
        eprintln!("warning: {n}: parse and parse_unsimplified + simplify differ");
    }
    if simplified.is_trivially_empty() {
        eprintln!("warning: {n}: the planted point's set simplified to empty");
    }
}

/// Best of three wall-clock times of `f`.
fn best_of_3(mut f: impl FnMut()) -> Duration {
    (0..3)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .min()
        .unwrap_or_default()
}

/// Plain figures for 200,000 constraints.
fn plain_200k() {
    let n = 200_000;
    let text = conjunction_text(n);
    let raw = parse_raw(&text);
    let parse = best_of_3(|| {
        black_box(parse_raw(&text));
    });
    let simplify = best_of_3(|| {
        let mut c = raw.clone();
        c.simplify();
        black_box(c);
    });
    let both = best_of_3(|| {
        black_box(parse_simplified(&text));
    });
    let b = parse_simplified(&text);
    println!(
        "parse/plain/200000 ({} bytes): parse {:.3} s, simplify {:.3} s, parse + simplify \
         (text.parse::<BasicSet>()) {:.3} s; {} rows -> {} equalities, {} inequalities",
        text.len(),
        parse.as_secs_f64(),
        simplify.as_secs_f64(),
        both.as_secs_f64(),
        raw.equalities().len() + raw.inequalities().len(),
        b.conjunction().equalities().len(),
        b.conjunction().inequalities().len(),
    );
}

const SIZES: [usize; 3] = [1_000, 10_000, 100_000];

fn parse_groups(c: &mut Criterion) {
    let texts: Vec<(usize, String)> = SIZES.iter().map(|&n| (n, conjunction_text(n))).collect();
    for (n, t) in &texts {
        check(*n, t);
    }
    let mut g = c.benchmark_group("parse/parse");
    for (n, t) in &texts {
        g.bench_with_input(BenchmarkId::from_parameter(n), t, |b, t| {
            b.iter(|| black_box(parse_raw(t)))
        });
    }
    g.finish();
    let mut g = c.benchmark_group("parse/parse_simplify");
    for (n, t) in &texts {
        g.bench_with_input(BenchmarkId::from_parameter(n), t, |b, t| {
            b.iter(|| black_box(parse_simplified(t)))
        });
    }
    g.finish();
    let mut g = c.benchmark_group("parse/simplify");
    for (n, t) in &texts {
        let raw = parse_raw(t);
        g.bench_function(BenchmarkId::from_parameter(n), |b| {
            b.iter_batched(
                || raw.clone(),
                |mut c| {
                    c.simplify();
                    c
                },
                BatchSize::LargeInput,
            )
        });
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    targets = parse_groups
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` runs each benchmark
    // once without it, and then the long plain timing is skipped
    if std::env::args().any(|a| a == "--bench") {
        plain_200k();
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
