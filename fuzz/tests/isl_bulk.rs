//! Bulk differential against isl, for counting: many cheap comparisons (emptiness,
//! inclusion, equality, lexmin) of small random sets and maps of all the
//! generators' shapes, and the heavier ones (subtract, coalesce, parsing isl's
//! output, reverse, domain, range, composition) on a fraction of the cases.
//! Ignored by default; run with
//!
//!     ISL_BULK_CASES=200000 ISL_BULK_SEED=1 cargo test --release --test isl_bulk -- --ignored --nocapture
//!
//! Settings (environment): `ISL_BULK_CASES` (default 200000), `ISL_BULK_SEED`
//! (default 1), `ISL_BULK_HEAVY` (percent of cases with subtract and coalesce,
//! default 10), `ISL_BULK_STRUCTURAL` (percent with the structural comparisons,
//! default 10), `ISL_BULK_CASE_MS` (per-case time cap: comparisons started after
//! it are skipped, default 2000), `ISL_BULK_ISL_OPS` (isl's operation limit per
//! comparison, default 150000), `ISL_BULK_MAX_DISJ` (most disjuncts per space,
//! 1–3, default 2: our inclusion test costs grow fast with the disjuncts). Our library's own limit is its `Budget`: an
//! `Error::Budget` counts as skipped ("ours: budget"), never as a mismatch.

use presburger_fuzz::{
    Features, Ops, Rng, Shape, Source, Tally, compare_with, isl::Ctx, map_case, random_set_features,
};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
#[ignore]
fn bulk_agrees_with_isl() {
    let cases = env("ISL_BULK_CASES", 200_000);
    let seed = env("ISL_BULK_SEED", 1);
    let heavy = env("ISL_BULK_HEAVY", 10);
    let structural = env("ISL_BULK_STRUCTURAL", 10);
    let max_disj = env("ISL_BULK_MAX_DISJ", 2).clamp(1, 3) as i64;
    let seconds = env("ISL_BULK_SECONDS", 0);
    let cap = Duration::from_millis(env("ISL_BULK_CASE_MS", 2000));
    let ctx = Ctx::new();
    ctx.set_max_operations(env("ISL_BULK_ISL_OPS", 150_000));
    let mut rng = Rng::new(seed);
    let mut tally = Tally::default();
    let mut per_shape: BTreeMap<String, u64> = BTreeMap::new();
    let mut per_feature: BTreeMap<&str, u64> = BTreeMap::new();
    let mut slowest = (Duration::ZERO, String::new());
    let mut out_of_time = 0u64;
    let start = Instant::now();
    let mut done = 0;
    for case in 0..cases {
        if seconds > 0 && start.elapsed().as_secs() >= seconds {
            break;
        }
        done += 1;
        let ops = Ops {
            heavy: rng.chance(heavy),
            structural: rng.chance(structural),
        };
        let before = tally.compared;
        let t = Instant::now();
        tally.deadline = Some(t + cap);
        let f: Features = if rng.chance(50) {
            let shape = Shape::random(&mut rng);
            let bounded = rng.chance(30);
            let (a, fa) = random_set_features(&mut rng, shape, bounded, max_disj);
            let (b, fb) = random_set_features(&mut rng, shape, bounded, max_disj);
            compare_with(&ctx, &a, &b, &mut tally, ops);
            fa.join(fb)
        } else {
            map_case(&mut rng, &ctx, &mut tally, ops, max_disj)
        };
        let took = t.elapsed();
        if took > cap {
            out_of_time += 1;
        }
        if took > slowest.0 {
            slowest = (took, format!("case {case} ({})", f.label()));
        }
        let n = tally.compared - before;
        *per_shape.entry(f.label()).or_default() += n;
        for (yes, name) in [
            (f.map, "map"),
            (!f.map, "set"),
            (f.param, "param"),
            (!f.param, "noparam"),
            (f.bounded, "bounded"),
            (!f.bounded, "unbounded"),
            (f.strides, "strides"),
            (!f.strides, "nostrides"),
        ] {
            if yes {
                *per_feature.entry(name).or_default() += n;
            }
        }
    }
    let elapsed = start.elapsed();
    eprintln!(
        "isl bulk: {done} cases (seed {seed}), {} comparisons, {} skipped, {} mismatches in {:.1} s: {:.0} comparisons/s",
        tally.compared,
        tally.skipped,
        tally.mismatches.len(),
        elapsed.as_secs_f64(),
        tally.compared as f64 / elapsed.as_secs_f64()
    );
    eprintln!("per kind (comparisons, time):");
    for (k, n) in &tally.per_kind {
        let t = tally.time.get(k).copied().unwrap_or_default();
        eprintln!("  {k:24} {n:>9} {:>8.1} s", t.as_secs_f64());
    }
    eprintln!("per shape:");
    for (k, n) in &per_shape {
        eprintln!("  {k:40} {n:>9}");
    }
    eprintln!("per feature:");
    for (k, n) in &per_feature {
        eprintln!("  {k:12} {n:>9}");
    }
    eprintln!("skipped:");
    for (k, n) in &tally.skip_reasons {
        eprintln!("  {k:40} {n:>9}");
    }
    eprintln!(
        "slowest case: {:?} {}; {out_of_time} cases over the cap",
        slowest.0, slowest.1
    );
    for m in tally.mismatches.iter().take(10) {
        eprintln!("MISMATCH {m}");
    }
    assert!(
        tally.mismatches.is_empty(),
        "{} mismatches",
        tally.mismatches.len()
    );
}
