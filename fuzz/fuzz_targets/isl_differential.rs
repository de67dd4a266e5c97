//! Fuzz target `isl_differential`: the fuzzer's bytes choose the problem (see
//! `presburger_fuzz::differential_case`: the first byte picks sets or maps); any
//! disagreement panics. Run with `RUSTC_BOOTSTRAP=1 cargo fuzz run isl_differential`
//! from `fuzz/`. Every 1000 inputs it prints the running totals of comparisons and
//! skips to stderr (`isl_differential totals: ...`), for counting a campaign.
#![no_main]

use libfuzzer_sys::fuzz_target;
use presburger_fuzz::{Tally, differential_case, isl::Ctx};
use std::sync::atomic::{AtomicU64, Ordering};

static INPUTS: AtomicU64 = AtomicU64::new(0);
static COMPARED: AtomicU64 = AtomicU64::new(0);
static SKIPPED: AtomicU64 = AtomicU64::new(0);

fuzz_target!(|data: &[u8]| {
    let ctx = Ctx::new();
    // as the replay test: a bounded amount of isl work per comparison (past it the
    // comparison is skipped, never a mismatch)
    ctx.set_max_operations(250_000);
    let mut tally = Tally::default();
    differential_case(data, &ctx, &mut tally);
    assert!(tally.mismatches.is_empty(), "{:?}", tally.mismatches);
    let n = INPUTS.fetch_add(1, Ordering::Relaxed) + 1;
    let c = COMPARED.fetch_add(tally.compared, Ordering::Relaxed) + tally.compared;
    let s = SKIPPED.fetch_add(tally.skipped, Ordering::Relaxed) + tally.skipped;
    if n.is_multiple_of(1000) {
        eprintln!("isl_differential totals: {n} inputs, {c} comparisons, {s} skipped");
    }
});
