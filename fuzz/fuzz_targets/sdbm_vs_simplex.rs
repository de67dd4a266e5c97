//! Fuzz target `sdbm_vs_simplex`: the fuzzer's bytes choose the problem (see
//! `presburger_fuzz::Bytes`); any disagreement panics. Run with
//! `RUSTC_BOOTSTRAP=1 cargo fuzz run sdbm_vs_simplex` from `fuzz/`.
#![no_main]

use libfuzzer_sys::fuzz_target;
#[allow(unused_imports)]
use presburger_fuzz::{
    Bytes, Shape, Tally, check_algebra, check_emptiness, check_sdbm, compare, isl::Ctx,
    random_sdbm, random_set, random_set_in,
};

fuzz_target!(|data: &[u8]| {
    let text = random_sdbm(&mut Bytes(data));
    if let Err(m) = check_sdbm(&text) {
        panic!("{m}");
    }
});
