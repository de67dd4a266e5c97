//! Checked integer helpers.
//!
//! The public API speaks `i64`; internally every constant is widened to `i128`
//! so that sums of a few `i64` constants (path weights, `u - l`, `-i64::MIN`)
//! are exact. Every operation is still checked: anything that would overflow
//! `i128` reports [`TooLarge`], and so does every conversion back to `i64` that
//! does not fit. Nothing here panics.

use crate::TooLarge;

/// Checked `a + b`.
pub(crate) fn add(a: i128, b: i128) -> Result<i128, TooLarge> {
    a.checked_add(b).ok_or(TooLarge)
}

/// Checked `a - b`.
pub(crate) fn sub(a: i128, b: i128) -> Result<i128, TooLarge> {
    a.checked_sub(b).ok_or(TooLarge)
}

/// Checked `a * b`.
pub(crate) fn mul(a: i128, b: i128) -> Result<i128, TooLarge> {
    a.checked_mul(b).ok_or(TooLarge)
}

/// Checked `-a`.
pub(crate) fn neg(a: i128) -> Result<i128, TooLarge> {
    a.checked_neg().ok_or(TooLarge)
}

/// Narrow to `i64`, or [`TooLarge`].
pub(crate) fn to_i64(a: i128) -> Result<i64, TooLarge> {
    i64::try_from(a).map_err(|_| TooLarge)
}

/// Non-negative greatest common divisor (`gcd(0, 0) = 0`).
pub(crate) fn gcd(a: i128, b: i128) -> Result<i128, TooLarge> {
    let (mut x, mut y) = (a.unsigned_abs(), b.unsigned_abs());
    while y != 0 {
        let t = x % y;
        x = y;
        y = t;
    }
    i128::try_from(x).map_err(|_| TooLarge)
}

/// Least common multiple of two positive numbers.
pub(crate) fn lcm(a: i128, b: i128) -> Result<i128, TooLarge> {
    debug_assert!(a >= 1 && b >= 1);
    let g = gcd(a, b)?;
    mul(a / g, b)
}

/// `a mod g` in `[0, g)`, for `g >= 1`.
pub(crate) fn modulo(a: i128, g: i128) -> i128 {
    debug_assert!(g >= 1);
    a.rem_euclid(g)
}

/// The largest `v <= c` with `v ≡ t (mod g)`, `g >= 1`.
pub(crate) fn floor_to(c: i128, g: i128, t: i128) -> Result<i128, TooLarge> {
    sub(c, modulo(sub(c, t)?, g))
}

/// The smallest `v >= c` with `v ≡ t (mod g)`, `g >= 1`.
pub(crate) fn ceil_to(c: i128, g: i128, t: i128) -> Result<i128, TooLarge> {
    add(c, modulo(sub(t, c)?, g))
}

/// Modular inverse of `a` modulo `m` (`m >= 1`, `gcd(a, m) = 1`), in `[0, m)`.
fn inverse(a: i128, m: i128) -> Result<i128, TooLarge> {
    if m == 1 {
        return Ok(0);
    }
    // Extended Euclid on (a mod m, m); all quantities stay below m in absolute value.
    let (mut old_r, mut r) = (modulo(a, m), m);
    let (mut old_s, mut s) = (1i128, 0i128);
    while r != 0 {
        let q = old_r / r;
        let nr = sub(old_r, mul(q, r)?)?;
        old_r = r;
        r = nr;
        let ns = sub(old_s, mul(q, s)?)?;
        old_s = s;
        s = ns;
    }
    debug_assert_eq!(old_r, 1);
    Ok(modulo(old_s, m))
}

/// Chinese remainder theorem for two congruences `x ≡ r1 (mod m1)`,
/// `x ≡ r2 (mod m2)` with `m1, m2 >= 1`: `Ok(None)` if they are incompatible,
/// otherwise the combined `(lcm, r)` with `0 <= r < lcm`.
pub(crate) fn crt(
    m1: i128,
    r1: i128,
    m2: i128,
    r2: i128,
) -> Result<Option<(i128, i128)>, TooLarge> {
    debug_assert!(m1 >= 1 && m2 >= 1);
    let g = gcd(m1, m2)?;
    let diff = sub(r2, r1)?;
    if diff % g != 0 {
        return Ok(None);
    }
    let m1g = m1 / g;
    let m2g = m2 / g;
    let l = mul(m1g, m2)?;
    // r1 + m1 * k ≡ r2 (mod m2)  <=>  m1g * k ≡ diff / g (mod m2g).
    let k = modulo(mul(modulo(diff / g, m2g), inverse(m1g, m2g)?)?, m2g);
    let r = modulo(add(r1, mul(m1, k)?)?, l);
    Ok(Some((l, r)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floor_and_ceil_to_class() {
        assert_eq!(floor_to(7, 3, 1), Ok(7));
        assert_eq!(floor_to(8, 3, 1), Ok(7));
        assert_eq!(floor_to(-1, 4, 0), Ok(-4));
        assert_eq!(ceil_to(-1, 4, 0), Ok(0));
        assert_eq!(ceil_to(5, 4, 2), Ok(6));
        assert_eq!(floor_to(i128::MIN, 2, 1), Err(TooLarge));
    }

    #[test]
    fn crt_combines_and_detects_conflicts() {
        for m1 in 1..=12i128 {
            for m2 in 1..=12i128 {
                for r1 in 0..m1 {
                    for r2 in 0..m2 {
                        let got = crt(m1, r1, m2, r2).unwrap();
                        let l = lcm(m1, m2).unwrap();
                        let sols: Vec<i128> =
                            (0..l).filter(|x| x % m1 == r1 && x % m2 == r2).collect();
                        match got {
                            None => assert!(sols.is_empty()),
                            Some((lm, r)) => {
                                assert_eq!(lm, l);
                                assert_eq!(sols, vec![r]);
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn gcd_and_lcm() {
        assert_eq!(gcd(0, 0), Ok(0));
        assert_eq!(gcd(-12, 18), Ok(6));
        assert_eq!(lcm(4, 6), Ok(12));
        assert_eq!(lcm(i128::MAX, 2), Err(TooLarge));
        assert_eq!(to_i64(i128::from(i64::MAX) + 1), Err(TooLarge));
    }
}
