//! Numbers given as option values (`--max-steps 100000`, `--run N=4`,
//! `--repeat 3`, `--tile 2=16`, ...), read the same way by every subcommand.
//!
//! [`integer`] tells a text that is not an integer (`--reps ten`: "'ten' is
//! not an integer") from an integer out of the option's range (`--reps
//! 2^200` written out: "... is too large (the largest is ...)"), so
//! a huge number is never called "not a number".

/// The integer written `text` (an optional sign, decimal digits, `_`
/// between digits allowed) as the value of `what` (`--max-steps`, `--run:
/// N`), if it lies in `min..=max`; otherwise a message naming `what`, the
/// text and the range.
///
/// The digits are checked first, then the value: a text of digits of any
/// length that does not fit `min..=max` (nor `i128`) is "too large" or
/// "too small", never "not an integer".
pub fn integer(what: &str, text: &str, min: i128, max: i128) -> Result<i128, String> {
    let t = text.trim();
    let (negative, digits) = match t.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let well_formed = !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit() || b == b'_')
        && digits.as_bytes()[0].is_ascii_digit()
        && !digits.ends_with('_');
    if !well_formed {
        return Err(format!("{what}: '{text}' is not an integer"));
    }
    let clean: String = digits.chars().filter(|&c| c != '_').collect();
    let value = clean
        .parse::<i128>()
        .ok()
        .map(|v| if negative { -v } else { v });
    match value {
        Some(v) if (min..=max).contains(&v) => Ok(v),
        Some(v) if v < min => Err(format!("{what}: {t} is too small (the least is {min})")),
        None if negative => Err(format!("{what}: {t} is too small (the least is {min})")),
        _ => Err(format!("{what}: {t} is too large (the largest is {max})")),
    }
}

/// [`integer`] for a `u64` value from `min` up.
pub fn unsigned(what: &str, text: &str, min: u64) -> Result<u64, String> {
    integer(what, text, i128::from(min), i128::from(u64::MAX)).map(|v| v as u64)
}

/// [`integer`] for any `i64` value.
pub fn signed(what: &str, text: &str) -> Result<i64, String> {
    integer(what, text, i128::from(i64::MIN), i128::from(i64::MAX)).map(|v| v as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_in_range_and_out_of_it() {
        assert_eq!(integer("--x", "42", 1, 100), Ok(42));
        assert_eq!(integer("--x", " 1_000 ", 1, 10_000), Ok(1000));
        assert_eq!(integer("--x", "-3", -5, 5), Ok(-3));
        assert_eq!(integer("--x", "+3", -5, 5), Ok(3));
        for bad in ["", "ten", "1e9", "0x10", "1_", "_1", "--3", "1.5", "-"] {
            let e = integer("--x", bad, 0, 9).unwrap_err();
            assert!(e.ends_with("is not an integer"), "{bad}: {e}");
        }
        let huge = "1606938044258990275541962092341162602522202993782792835301376";
        let e = unsigned("--max-steps", huge, 1).unwrap_err();
        assert_eq!(
            e,
            format!("--max-steps: {huge} is too large (the largest is 18446744073709551615)")
        );
        let e = signed("--run: N", &format!("-{huge}")).unwrap_err();
        assert!(e.contains("is too small"), "{e}");
        let e = unsigned("--repeat", "0", 1).unwrap_err();
        assert_eq!(e, "--repeat: 0 is too small (the least is 1)");
        assert_eq!(signed("--run: N", "-9223372036854775808"), Ok(i64::MIN));
        assert!(signed("--run: N", "9223372036854775808").is_err());
    }
}
