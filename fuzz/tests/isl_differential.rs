//! Replays random problems through our library and isl and requires the same
//! answers. Needs the system isl (`apt-get install libisl-dev`).

use presburger_fuzz::{compare, isl::Ctx, random_set, Bytes, Rng, Shape, Tally};

#[test]
fn random_pairs_agree_with_isl() {
    let cases: u64 = std::env::var("ISL_DIFF_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1500);
    let ctx = Ctx::new();
    let mut rng = Rng::new(20261122);
    let mut tally = Tally::default();
    // the committed inputs of the fuzz target first
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("seeds/isl_differential");
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let data = std::fs::read(entry.path()).unwrap_or_default();
        let mut b = Bytes(&data);
        let shape = Shape::random(&mut b);
        let (a, c) = (random_set(&mut b, shape), random_set(&mut b, shape));
        compare(&ctx, &a, &c, &mut tally);
    }
    for _ in 0..cases {
        let shape = Shape::random(&mut rng);
        let a = random_set(&mut rng, shape);
        let b = random_set(&mut rng, shape);
        compare(&ctx, &a, &b, &mut tally);
    }
    eprintln!(
        "isl differential: {} comparisons, {} skipped, {} mismatches",
        tally.compared,
        tally.skipped,
        tally.mismatches.len()
    );
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
}
