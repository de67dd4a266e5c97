//! Integer emptiness (`BasicSet::is_empty`) on four families of problems (see
//! `benches/src/lib.rs` for the sets and their expected answers):
//!
//! - `emptiness/random_small`: 20 small random conjunctions, all checked in one
//!   iteration;
//! - `emptiness/integer_gap/NAME`: rationally non-empty sets without integer points;
//! - `emptiness/dependences/NAME`: dependence polyhedra of gemm, lu and jacobi-2d;
//! - `emptiness/tiled/NAME`: tiled domains with strides 8 and 32;
//! - `general_path/{sampler,omega}/FAMILY`: each family whole (random_small has 200
//!   sets here), on the general path only (no SDBM fast path), once with the
//!   integer sampler (simplex + generalized basis reduction, the engine) and once
//!   with the Omega test (the oracle it replaced), in the same run.
//!
//! Run with `cargo bench -p presburger-benches --bench emptiness` (a filter narrows it, e.g.
//! `-- emptiness/tiled`). Sets are parsed outside the timed loop. Before timing, each
//! answer is compared with the expected one and a mismatch or error is reported on
//! stderr (the timing of an erroring call would be meaningless).

use criterion::{Criterion, criterion_group, criterion_main};
use presburger::Budget;
use presburger::internals::{sample_general, sample_omega};
use presburger_benches::{Problem, dependences, integer_gap, random_small, tiled};
use std::hint::black_box;
use std::time::Duration;

/// Warns (once per set, before timing) when the solver errs or disagrees.
fn check(family: &str, problems: &[Problem]) {
    for (name, set, empty) in problems {
        match set.is_empty() {
            Ok(e) if e == *empty => {}
            Ok(e) => eprintln!("warning: {family}/{name}: is_empty = {e}, expected {empty}"),
            Err(err) => eprintln!("warning: {family}/{name}: {err}"),
        }
    }
}

fn random_small_family(c: &mut Criterion) {
    let problems = random_small(20, 42);
    check("random_small", &problems);
    c.benchmark_group("emptiness")
        .bench_function("random_small", |b| {
            b.iter(|| {
                for (_, set, _) in &problems {
                    let _ = black_box(set.is_empty());
                }
            })
        });
}

/// One benchmark per set: `emptiness/FAMILY/NAME`.
fn per_set(c: &mut Criterion, family: &str, problems: Vec<Problem>) {
    check(family, &problems);
    let mut group = c.benchmark_group(format!("emptiness/{family}"));
    for (name, set, _) in &problems {
        group.bench_function(name.as_str(), |b| b.iter(|| black_box(set.is_empty())));
    }
    group.finish();
}

fn integer_gap_family(c: &mut Criterion) {
    per_set(c, "integer_gap", integer_gap());
}

fn dependences_family(c: &mut Criterion) {
    per_set(c, "dependences", dependences());
}

fn tiled_family(c: &mut Criterion) {
    per_set(c, "tiled", tiled());
}

/// The general path alone, sampler against Omega test, on whole families.
fn general_path(c: &mut Criterion) {
    let families: [(&str, Vec<Problem>); 4] = [
        ("random_small", random_small(200, 7)),
        ("integer_gap", integer_gap()),
        ("dependences", dependences()),
        ("tiled", tiled()),
    ];
    let mut group = c.benchmark_group("general_path");
    for (family, problems) in &families {
        for (name, set, empty) in problems {
            let conj = set.conjunction();
            let ours = sample_general(conj, &mut Budget::default()).map(|p| p.is_none());
            let omega = sample_omega(conj, &mut Budget::default()).map(|p| p.is_none());
            if ours.as_ref().ok() != Some(empty) || omega.as_ref().ok() != Some(empty) {
                eprintln!(
                    "warning: {family}/{name}: sampler {ours:?}, omega {omega:?}, expected {empty}"
                );
            }
        }
        group.bench_function(format!("sampler/{family}"), |b| {
            b.iter(|| {
                for (_, set, _) in problems {
                    let _ = black_box(sample_general(set.conjunction(), &mut Budget::default()));
                }
            })
        });
        group.bench_function(format!("omega/{family}"), |b| {
            b.iter(|| {
                for (_, set, _) in problems {
                    let _ = black_box(sample_omega(set.conjunction(), &mut Budget::default()));
                }
            })
        });
    }
    group.finish();
}

fn config() -> Criterion {
    // 31 benchmarks at about 2.5 s each (each iteration is well under a millisecond):
    // the suite stays around a minute and a half
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(30)
}

criterion_group! {
    name = emptiness;
    config = config();
    targets = random_small_family, integer_gap_family, dependences_family, tiled_family, general_path
}
criterion_main!(emptiness);
