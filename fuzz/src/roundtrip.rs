//! The parser's round trip: text that parses prints to text that parses back to an
//! equal object.

use presburger::{Object, UnionMap, UnionSet, parse_object};

/// Parses `text`; if it parses, prints it and parses the printed text again, which
/// must succeed and give a plainly equal object. With `must_parse`, text that does
/// not parse is an error too (for generated text, which is always valid).
pub fn check_round_trip(text: &str, must_parse: bool) -> Result<(), String> {
    let obj = match parse_object(text) {
        Ok(o) => o,
        Err(e) if must_parse => return Err(format!("generated text does not parse: {text}: {e}")),
        Err(_) => return Ok(()),
    };
    match obj {
        Object::Set(s) => {
            let printed = s.to_string();
            let back: UnionSet = printed
                .parse()
                .map_err(|e| format!("printed set does not parse: {printed}: {e}"))?;
            if !back.plain_is_equal(&s) {
                return Err(format!("round trip changed {printed} into {back}"));
            }
        }
        Object::Map(m) => {
            let printed = m.to_string();
            let back: UnionMap = printed
                .parse()
                .map_err(|e| format!("printed map does not parse: {printed}: {e}"))?;
            if !back.plain_is_equal(&m) {
                return Err(format!("round trip changed {printed} into {back}"));
            }
        }
    }
    Ok(())
}
