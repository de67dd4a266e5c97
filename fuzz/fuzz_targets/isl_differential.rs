//! Fuzz target `isl_differential`: the fuzzer's bytes choose the problem (see
//! `presburger_fuzz::differential_case`: the first byte picks sets or maps); any
//! disagreement panics. Run with `RUSTC_BOOTSTRAP=1 cargo fuzz run isl_differential`
//! from `fuzz/`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use presburger_fuzz::{differential_case, isl::Ctx, Tally};

fuzz_target!(|data: &[u8]| {
    let ctx = Ctx::new();
    let mut tally = Tally::default();
    differential_case(data, &ctx, &mut tally);
    assert!(tally.mismatches.is_empty(), "{:?}", tally.mismatches);
});
