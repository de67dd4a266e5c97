//! Replays random problems through our library and isl and requires the same
//! answers: pairs of sets, and triples of maps (see `compare_maps`). Needs the
//! system isl (`apt-get install libisl-dev`).

use presburger_fuzz::{
    Ops, Rng, Shape, Tally, compare, differential_case, isl::Ctx, map_case, random_set,
};

const ISL_MAX_OPERATIONS: u64 = 150_000;

#[test]
fn random_pairs_agree_with_isl() {
    let cases: u64 = std::env::var("ISL_DIFF_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    let ctx = Ctx::new();
    // a per-case limit on isl's work: comparing some compositions by isl's
    // equality takes isl seconds; those count as skipped ("isl: quota")
    ctx.set_max_operations(ISL_MAX_OPERATIONS);
    let mut rng = Rng::new(20261122);
    let mut tally = Tally::default();
    // the committed inputs of the fuzz target first
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("seeds/isl_differential");
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let data = std::fs::read(entry.path()).unwrap_or_default();
        differential_case(&data, &ctx, &mut tally);
    }
    for k in 0..cases {
        if k % 2 == 0 {
            let shape = Shape::random(&mut rng);
            let a = random_set(&mut rng, shape);
            let b = random_set(&mut rng, shape);
            compare(&ctx, &a, &b, &mut tally);
        } else {
            map_case(&mut rng, &ctx, &mut tally, Ops::ALL, 3);
        }
    }
    eprintln!(
        "isl differential: {} comparisons, {} skipped, {} mismatches",
        tally.compared,
        tally.skipped,
        tally.mismatches.len()
    );
    eprintln!("  per kind: {:?}", tally.per_kind);
    eprintln!("  time per kind: {:?}", tally.time);
    eprintln!("  skipped: {:?}", tally.skip_reasons);
    for m in tally.mismatches.iter().take(10) {
        eprintln!("  {m}");
    }
    assert!(
        tally.mismatches.is_empty(),
        "{} mismatches",
        tally.mismatches.len()
    );
    assert!(
        tally.compared > cases,
        "too few comparisons: {}",
        tally.compared
    );
    assert!(
        tally.per_kind.keys().any(|k| k.starts_with("map ")),
        "no map comparison made"
    );
}
