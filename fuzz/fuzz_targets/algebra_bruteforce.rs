//! Fuzz target `algebra_bruteforce`: the fuzzer's bytes choose the problem (see
//! `presburger_fuzz::Bytes`); any disagreement panics. Run with
//! `RUSTC_BOOTSTRAP=1 cargo fuzz run algebra_bruteforce` from `fuzz/`.
#![no_main]

use libfuzzer_sys::fuzz_target;
#[allow(unused_imports)]
use presburger_fuzz::{
    Bytes, Shape, Tally, check_algebra, check_emptiness, check_sdbm, compare, isl::Ctx,
    random_sdbm, random_set, random_set_in,
};

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes(data);
    let shape = Shape::random(&mut b);
    let x = random_set_in(&mut b, shape, true);
    let y = random_set_in(&mut b, shape, true);
    if let Err(m) = check_algebra(&x, &y) {
        panic!("{m}");
    }
});
