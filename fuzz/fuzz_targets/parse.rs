//! The isl-notation parser and printer, on two kinds of input chosen by the first
//! byte: arbitrary bytes as text (never a panic or a hang; anything that parses
//! prints to text that parses back to an equal object), and structured text made by
//! the set generator of `src/lib.rs` from the remaining bytes (which must parse, and
//! round-trip the same way).
#![no_main]

use libfuzzer_sys::fuzz_target;
use presburger_fuzz::{Bytes, Shape, check_round_trip, random_set};

fuzz_target!(|data: &[u8]| {
    match data.split_first() {
        Some((first, rest)) if first % 2 == 1 => {
            let mut b = Bytes(rest);
            let shape = Shape::random(&mut b);
            let text = random_set(&mut b, shape);
            if let Err(e) = check_round_trip(&text, true) {
                panic!("{e}");
            }
        }
        _ => {
            let Ok(text) = std::str::from_utf8(data) else {
                return;
            };
            if let Err(e) = check_round_trip(text, false) {
                panic!("{e}");
            }
        }
    }
});
