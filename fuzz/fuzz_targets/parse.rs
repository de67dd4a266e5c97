//! Arbitrary bytes into the isl-notation parser and printer: never a panic or a hang,
//! and anything that parses prints to text that parses back to an equal object.
#![no_main]

use libfuzzer_sys::fuzz_target;
use presburger::{parse_object, Object};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(obj) = parse_object(text) else { return };
    match obj {
        Object::Set(s) => {
            let printed = s.to_string();
            let back: presburger::UnionSet = printed
                .parse()
                .unwrap_or_else(|e| panic!("printed set does not parse: {printed}: {e}"));
            assert!(
                back.plain_is_equal(&s),
                "round trip changed {printed} into {back}"
            );
        }
        Object::Map(m) => {
            let printed = m.to_string();
            let back: presburger::UnionMap = printed
                .parse()
                .unwrap_or_else(|e| panic!("printed map does not parse: {printed}: {e}"));
            assert!(
                back.plain_is_equal(&m),
                "round trip changed {printed} into {back}"
            );
        }
    }
});
