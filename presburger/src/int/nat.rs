//! Natural numbers as slices of 64-bit limbs, least significant first: the
//! arithmetic kernels behind `Int`'s big form.
//!
//! A *magnitude* here is a limb slice without leading (most significant) zero
//! limbs; zero is the empty slice. Every function takes magnitudes and returns
//! one. Results are built in a [`Limbs`] buffer that lives on the stack up to
//! 32 limbs (2048 bits), so a chain of operations on tableau entries, such
//! as `s·a + b·c` or a division with its remainder, allocates nothing until
//! `Int` boxes the final value.
//!
//! The algorithms are the classical ones of D. E. Knuth, *The Art of Computer
//! Programming* vol. 2, sec. 4.3.1 (schoolbook addition, subtraction,
//! multiplication, and division with normalised trial quotients, Algorithm D)
//! and sec. 4.5.2 (Lehmer's gcd, Algorithm L). At the sizes a tableau reaches
//! (up to about a thousand bits) the quadratic methods are the fast ones.

use smallvec::SmallVec;
use std::cmp::Ordering;

/// A limb buffer: on the stack up to 2048 bits (the product of two
/// 1000-bit tableau entries).
pub(super) type Limbs = SmallVec<[u64; 32]>;

/// Sets `v` to `n` zero limbs (a copy from a zero block: faster than
/// `resize`'s element-wise fill).
#[inline]
fn zeros(v: &mut Limbs, n: usize) {
    const ZERO: [u64; 64] = [0; 64];
    v.clear();
    if n <= ZERO.len() {
        v.extend_from_slice(&ZERO[..n]);
    } else {
        v.resize(n, 0);
    }
}

/// Removes leading zero limbs, making `v` a magnitude.
#[inline]
pub(super) fn trim(v: &mut Limbs) {
    while v.last() == Some(&0) {
        v.pop();
    }
}

/// True when `v` has no leading zero limb.
#[inline]
pub(super) fn is_trimmed(v: &[u64]) -> bool {
    v.last() != Some(&0)
}

/// Compares two magnitudes.
#[inline]
pub(super) fn cmp(a: &[u64], b: &[u64]) -> Ordering {
    debug_assert!(is_trimmed(a) && is_trimmed(b));
    a.len()
        .cmp(&b.len())
        .then_with(|| a.iter().rev().cmp(b.iter().rev()))
}

/// `out = a + b`.
pub(super) fn add(a: &[u64], b: &[u64], out: &mut Limbs) {
    let (a, b) = if a.len() >= b.len() { (a, b) } else { (b, a) };
    out.clear();
    let mut carry = false;
    for (i, &x) in a.iter().enumerate() {
        let (s, c1) = x.overflowing_add(b.get(i).copied().unwrap_or(0));
        let (s, c2) = s.overflowing_add(u64::from(carry));
        out.push(s);
        carry = c1 || c2;
    }
    if carry {
        out.push(1);
    }
}

/// `out = a - b`, for `a >= b`.
pub(super) fn sub(a: &[u64], b: &[u64], out: &mut Limbs) {
    debug_assert!(cmp(a, b) != Ordering::Less, "sub: a < b");
    out.clear();
    let mut borrow = false;
    for (i, &x) in a.iter().enumerate() {
        let (s, b1) = x.overflowing_sub(b.get(i).copied().unwrap_or(0));
        let (s, b2) = s.overflowing_sub(u64::from(borrow));
        out.push(s);
        borrow = b1 || b2;
    }
    debug_assert!(!borrow);
    trim(out);
}

/// `out = a · b`.
pub(super) fn mul(a: &[u64], b: &[u64], out: &mut Limbs) {
    out.clear();
    if a.is_empty() || b.is_empty() {
        return;
    }
    zeros(out, a.len() + b.len());
    let o = out.as_mut_slice();
    for (i, &x) in a.iter().enumerate() {
        let mut carry = 0u64;
        for (z, &y) in o[i..i + b.len()].iter_mut().zip(b) {
            // (2^64 - 1)^2 + 2 (2^64 - 1) = 2^128 - 1: no overflow
            let t = x as u128 * y as u128 + *z as u128 + carry as u128;
            *z = t as u64;
            carry = (t >> 64) as u64;
        }
        o[i + b.len()] = carry;
    }
    trim(out);
}

/// The signed sum `(-1)^an · a + (-1)^bn · b`: its magnitude in `out`, its
/// sign returned (zero is never negative).
pub(super) fn signed_add(an: bool, a: &[u64], bn: bool, b: &[u64], out: &mut Limbs) -> bool {
    if an == bn {
        add(a, b, out);
        return an;
    }
    match cmp(a, b) {
        Ordering::Equal => {
            out.clear();
            false
        }
        Ordering::Greater => {
            sub(a, b, out);
            an
        }
        Ordering::Less => {
            sub(b, a, out);
            bn
        }
    }
}

/// `a mod w` for a non-zero word.
pub(super) fn rem_word(a: &[u64], w: u64) -> u64 {
    debug_assert!(w != 0);
    a.iter().rev().fold(0u64, |r, &l| {
        ((((r as u128) << 64) | l as u128) % w as u128) as u64
    })
}

/// `q = a / w`, returning `a mod w`, for a non-zero word.
fn divrem_word(a: &[u64], w: u64, q: &mut Limbs) -> u64 {
    zeros(q, a.len());
    let mut r = 0u64;
    for i in (0..a.len()).rev() {
        let cur = ((r as u128) << 64) | a[i] as u128;
        q[i] = (cur / w as u128) as u64;
        r = (cur % w as u128) as u64;
    }
    trim(q);
    r
}

/// `q = a / b` and `r = a mod b` for a non-zero `b` (Knuth's Algorithm D).
///
/// Both numbers are shifted left until `b`'s top limb has its high bit set;
/// then each quotient limb is estimated from the top two limbs of the current
/// remainder and the top limb of `b`, corrected with `b`'s second limb (after
/// which the estimate is at most one too large), and the rare remaining excess
/// is caught by a negative partial remainder and undone by adding `b` back.
pub(super) fn divrem(a: &[u64], b: &[u64], q: &mut Limbs, r: &mut Limbs) {
    assert!(!b.is_empty(), "division by zero");
    q.clear();
    r.clear();
    if cmp(a, b) == Ordering::Less {
        r.extend_from_slice(a);
        return;
    }
    if b.len() == 1 {
        let rem = divrem_word(a, b[0], q);
        if rem != 0 {
            r.push(rem);
        }
        return;
    }
    let s = b[b.len() - 1].leading_zeros();
    let mut bn_buf = Limbs::new();
    shl(b, s, 0, &mut bn_buf);
    // the shifted dividend is built in r, which ends as the remainder
    shl(a, s, 1, r);
    let (bn, an) = (bn_buf.as_slice(), r.as_mut_slice());
    let n = bn.len();
    let m = an.len() - n;
    let (btop, bsec) = (bn[n - 1] as u128, bn[n - 2] as u128);
    zeros(q, m);
    for j in (0..m).rev() {
        // the trial quotient from the top two limbs (at most 2 too large)
        let top = ((an[j + n] as u128) << 64) | an[j + n - 1] as u128;
        let mut qhat = top / btop;
        let mut rhat = top % btop;
        while qhat >> 64 != 0 || qhat * bsec > ((rhat << 64) | an[j + n - 2] as u128) {
            qhat -= 1;
            rhat += btop;
            if rhat >> 64 != 0 {
                break;
            }
        }
        // an[j ..= j + n] -= qhat · bn
        let window = &mut an[j..=j + n];
        let mut carry = 0u64;
        let mut borrow = false;
        for (z, &y) in window.iter_mut().zip(bn) {
            let p = qhat * y as u128 + carry as u128;
            carry = (p >> 64) as u64;
            let (t, b1) = z.overflowing_sub(p as u64);
            let (t, b2) = t.overflowing_sub(u64::from(borrow));
            *z = t;
            borrow = b1 || b2;
        }
        let (t, b1) = window[n].overflowing_sub(carry);
        let (t, b2) = t.overflowing_sub(u64::from(borrow));
        window[n] = t;
        if b1 || b2 {
            // one too many: add b back (the carry out cancels the borrow; the
            // top limb is not read again)
            qhat -= 1;
            let mut c = false;
            for (z, &y) in window.iter_mut().zip(bn) {
                let (v, c1) = z.overflowing_add(y);
                let (v, c2) = v.overflowing_add(u64::from(c));
                *z = v;
                c = c1 || c2;
            }
        }
        q[j] = qhat as u64;
    }
    trim(q);
    r.truncate(n);
    shr_in_place(r, s);
}

/// `v · 2^s` for `s < 64`, with `extra` more zero limbs on top (the result is
/// not trimmed).
fn shl(v: &[u64], s: u32, extra: usize, out: &mut Limbs) {
    zeros(out, v.len() + extra);
    let o = out.as_mut_slice();
    if s == 0 {
        o[..v.len()].copy_from_slice(v);
        return;
    }
    let mut prev = 0u64;
    for (z, &l) in o.iter_mut().zip(v) {
        *z = (l << s) | (prev >> (64 - s));
        prev = l;
    }
    let high = prev >> (64 - s);
    if extra > 0 {
        o[v.len()] = high;
    } else {
        debug_assert!(high == 0, "shl: bits shifted out");
    }
}

/// A non-zero divisor prepared for exact division: its odd part and the
/// inverse of that part's low limb modulo 2^64.
pub(super) struct Odd {
    odd: Limbs,
    shift: u32,
    inv: u64,
}

impl Odd {
    /// Prepares the magnitude `d` (non-zero).
    pub(super) fn new(d: &[u64]) -> Odd {
        assert!(!d.is_empty(), "division by zero");
        let zero_limbs = d.iter().take_while(|&&l| l == 0).count();
        let bits = d[zero_limbs].trailing_zeros();
        let shift = 64 * zero_limbs as u32 + bits;
        let mut odd = Limbs::new();
        shr_bits(d, shift, &mut odd);
        let inv = word_inverse(odd[0]);
        Odd { odd, shift, inv }
    }
}

/// The inverse of an odd word modulo 2^64: Newton's iteration
/// `x <- x (2 - d x)` doubles the correct low bits, and an odd `d` is its own
/// inverse modulo 8.
fn word_inverse(d: u64) -> u64 {
    debug_assert!(d % 2 == 1);
    let mut inv = d;
    for _ in 0..5 {
        inv = inv.wrapping_mul(2u64.wrapping_sub(d.wrapping_mul(inv)));
    }
    debug_assert_eq!(d.wrapping_mul(inv), 1);
    inv
}

/// `v = v / d` in place for a word `d > 0`, and true when `d` divides `v`
/// (else false, with `v` unspecified); leading zero limbs are left for the
/// caller to trim. The single-word case of [`div_exact`]: the power of two
/// is shifted out, then each quotient limb is the current limb (less the
/// borrow from below) times the inverse of the odd part, and only the high
/// word of its product with the odd part moves on as the next borrow. The
/// borrow left at the end is `(q·d - v) / 2^(64n)`, zero exactly when the
/// division is exact.
pub(super) fn div_exact_word(v: &mut [u64], d: u64) -> bool {
    debug_assert!(d != 0);
    let s = d.trailing_zeros();
    if s != 0 {
        if v.first().is_some_and(|&l| l.trailing_zeros() < s) {
            return false;
        }
        for i in 0..v.len() {
            let hi = v.get(i + 1).map_or(0, |&h| h << (64 - s));
            v[i] = (v[i] >> s) | hi;
        }
    }
    let o = d >> s;
    let inv = word_inverse(o);
    let mut borrow = 0u64;
    for z in v.iter_mut() {
        let (t, under) = z.overflowing_sub(borrow);
        let q = t.wrapping_mul(inv);
        *z = q;
        // (the high word is at most o - 1 < 2^64 - 1: no overflow)
        borrow = ((q as u128 * o as u128) >> 64) as u64 + u64::from(under);
    }
    borrow == 0
}

/// `q = a / d` when `d` divides `a` (and then true), else false with `q`
/// unspecified: exact division from the low end (T. Jebelean, "An algorithm
/// for exact division", J. Symbolic Computation 15, 1993). Each quotient limb
/// is the current low limb times the inverse of `d`'s low limb modulo 2^64,
/// so no trial quotient and no normalising shift is needed; `d` divides `a`
/// exactly when nothing is left above the quotient's limbs once they are all
/// subtracted (and no partial difference went negative: with an exact
/// quotient every partial one is at most it).
pub(super) fn div_exact(a: &[u64], d: &Odd, q: &mut Limbs) -> bool {
    let mut buf = Limbs::new();
    buf.extend_from_slice(a);
    div_exact_consuming(&mut buf, d, q)
}

/// [`div_exact`] with `a` as the work area (its value is lost): no copy.
pub(super) fn div_exact_consuming(buf: &mut Limbs, d: &Odd, q: &mut Limbs) -> bool {
    q.clear();
    if buf.is_empty() {
        return true;
    }
    // the powers of two first
    let (zl, zb) = ((d.shift / 64) as usize, d.shift % 64);
    if buf.len() <= zl || buf[..zl].iter().any(|&l| l != 0) || buf[zl].trailing_zeros() < zb {
        return false;
    }
    if zl > 0 {
        buf.drain(..zl);
    }
    shr_in_place(buf, zb);
    let (f, k, n) = (&d.odd[..], d.odd.len(), buf.len());
    if n < k {
        return false;
    }
    let len = n - k + 1;
    zeros(q, len);
    let b = buf.as_mut_slice();
    for i in 0..len {
        let qi = b[i].wrapping_mul(d.inv);
        q[i] = qi;
        // b[i..] -= qi · f, with the carry and the borrow in one word: the
        // subtrahend qi·y + carry is at most 2^128 - 2^64, so its high word
        // plus a borrow is at most 2^64 - 1 (the high word reaches 2^64 - 1
        // only at exactly 2^128 - 2^64, whose low word 0 borrows nothing)
        let mut carry = 0u64;
        for (z, &y) in b[i..i + k].iter_mut().zip(f) {
            let p = qi as u128 * y as u128 + carry as u128;
            let (t, under) = z.overflowing_sub(p as u64);
            *z = t;
            carry = ((p >> 64) as u64) + u64::from(under);
        }
        debug_assert_eq!(b[i], 0);
        // the carry runs on into the limbs above
        let mut sub = carry as u128;
        for z in &mut b[i + k..] {
            if sub == 0 {
                break;
            }
            let (t, under) = z.overflowing_sub(sub as u64);
            *z = t;
            sub = (sub >> 64) + u128::from(under);
        }
        if sub != 0 {
            // below zero: the quotient is larger than any exact one
            return false;
        }
    }
    if b[len..].iter().any(|&l| l != 0) {
        return false;
    }
    trim(q);
    true
}

/// `out = v / 2^s` (any `s`), trimmed.
fn shr_bits(v: &[u64], s: u32, out: &mut Limbs) {
    let limbs = (s / 64) as usize;
    out.clear();
    if limbs < v.len() {
        out.extend_from_slice(&v[limbs..]);
    }
    shr_in_place(out, s % 64);
}

/// `v = v / 2^s` for `s < 64`, trimmed.
fn shr_in_place(v: &mut Limbs, s: u32) {
    if s != 0 {
        let o = v.as_mut_slice();
        for i in 0..o.len() {
            let hi = o.get(i + 1).map_or(0, |&h| h << (64 - s));
            o[i] = (o[i] >> s) | hi;
        }
    }
    trim(v);
}

/// A number of at most two limbs as a `u128`.
#[inline]
pub(super) fn to_u128(v: &[u64]) -> u128 {
    debug_assert!(v.len() <= 2);
    v.iter()
        .rev()
        .fold(0u128, |acc, &l| (acc << 64) | l as u128)
}

/// The limbs of a `u128`, trimmed.
#[inline]
pub(super) fn from_u128(v: u128) -> Limbs {
    let mut out: Limbs = smallvec::smallvec![v as u64, (v >> 64) as u64];
    trim(&mut out);
    out
}

/// The 64 bits of `v` starting at bit `shift` (zeros beyond the end).
fn window(v: &[u64], shift: u32) -> u64 {
    let (i, s) = ((shift / 64) as usize, shift % 64);
    let lo = v.get(i).copied().unwrap_or(0) >> s;
    let hi = if s == 0 {
        0
    } else {
        v.get(i + 1).copied().unwrap_or(0) << (64 - s)
    };
    lo | hi
}

/// The gcd of two magnitudes of at most two limbs each.
pub(super) fn gcd_u128(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        if let (Ok(x), Ok(y)) = (u64::try_from(a), u64::try_from(b)) {
            return super::word_gcd(x, y) as u128;
        }
        (a, b) = (b, a % b);
    }
    a
}

/// The gcd of two magnitudes by Lehmer's algorithm (Knuth vol. 2, 4.5.2,
/// Algorithm L): the quotients of Euclid's algorithm on the numbers are mostly
/// those of Euclid on their leading 62 bits, so a run of machine-word steps
/// (while the two estimates of each quotient agree) is applied to the big
/// numbers at once as a 2x2 matrix; when no step is certain, or the numbers
/// differ in length by more than a limb, one full remainder. Once the smaller
/// number fits in 128 bits, one remainder and the machine gcd finish. The
/// matrix steps run in place on the limbs, with no allocation. (A binary gcd
/// costs one round per bit, plain Euclid a long division per quotient: both
/// dominated simplex pivots on rows of 700-bit numbers.)
pub(super) fn gcd(a: &[u64], b: &[u64]) -> Limbs {
    let (mut a, mut b) = if cmp(a, b) != Ordering::Less {
        (Limbs::from_slice(a), Limbs::from_slice(b))
    } else {
        (Limbs::from_slice(b), Limbs::from_slice(a))
    };
    // invariant: a >= b, both magnitudes
    let (mut q, mut r) = (Limbs::new(), Limbs::new());
    loop {
        if b.is_empty() {
            return a;
        }
        if b.len() <= 2 {
            let y = to_u128(&b);
            let rem = if a.len() <= 2 {
                to_u128(&a) % y
            } else {
                divrem(&a, &b, &mut q, &mut r);
                to_u128(&r)
            };
            return from_u128(gcd_u128(y, rem));
        }
        if a.len() > b.len() + 1 {
            divrem(&a, &b, &mut q, &mut r);
            std::mem::swap(&mut a, &mut b);
            std::mem::swap(&mut b, &mut r);
            continue;
        }
        // the leading 62 bits of a, and b at the same scale (b > 2^128, so both
        // estimates are non-zero); with 62 bits every sum below fits an i64
        let shift = 64 * a.len() as u32 - a[a.len() - 1].leading_zeros() - 62;
        let mut ah = window(&a, shift) as i64;
        let mut bh = window(&b, shift) as i64;
        let (mut x0, mut y0, mut x1, mut y1) = (1i64, 0i64, 0i64, 1i64);
        // invariant: the exact a, b after the steps are x0·a + y0·b, x1·a + y1·b
        while bh + x1 != 0 && bh + y1 != 0 {
            let (n0, d0) = (ah + x0, bh + x1);
            let (n1, d1) = (ah + y0, bh + y1);
            // the two quotients, the second checked by multiplication (mostly
            // 1 or 2: one machine division per step instead of two)
            let q = n0 / d0;
            let same = if d1 > 0 && n1 >= 0 {
                // q = floor(n1 / d1) <=> q·d1 <= n1 < (q + 1)·d1 (no overflow:
                // |q|, |d1| < 2^62 and q·d1 is near n1 when it holds)
                q >= 0 && q.checked_mul(d1).is_some_and(|m| m <= n1 && n1 - m < d1)
            } else {
                q == n1 / d1
            };
            if !same {
                break;
            }
            (x0, x1) = (x1, x0 - q * x1);
            (y0, y1) = (y1, y0 - q * y1);
            (ah, bh) = (bh, ah - q * bh);
        }
        if y0 == 0 {
            // no certain step: one division
            divrem(&a, &b, &mut q, &mut r);
            std::mem::swap(&mut a, &mut b);
            std::mem::swap(&mut b, &mut r);
            continue;
        }
        // (a, b) <- (x0·a + y0·b, x1·a + y1·b): every |coefficient| < 2^62, so
        // each limb's sum with its carry fits an i128; both results are
        // non-negative and at most a, so the last carries are zero
        let (mut ca, mut cb) = (0i128, 0i128);
        if b.len() < a.len() {
            b.resize(a.len(), 0);
        }
        for (ai, bi) in a.iter_mut().zip(b.iter_mut()) {
            let (av, bv) = (*ai as i128, *bi as i128);
            let ta = x0 as i128 * av + y0 as i128 * bv + ca;
            let tb = x1 as i128 * av + y1 as i128 * bv + cb;
            *ai = ta as u64;
            *bi = tb as u64;
            ca = ta >> 64;
            cb = tb >> 64;
        }
        debug_assert!(ca == 0 && cb == 0, "Lehmer step left a carry");
        trim(&mut a);
        trim(&mut b);
        if cmp(&a, &b) == Ordering::Less {
            std::mem::swap(&mut a, &mut b);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigUint;
    use num_integer::Integer;
    use proptest::prelude::*;

    fn big(v: &[u64]) -> BigUint {
        v.iter().rev().fold(BigUint::from(0u32), |acc, &l| {
            (acc << 64) + BigUint::from(l)
        })
    }

    /// Magnitudes of 0 to 10 limbs, with limbs drawn to hit the corner cases
    /// of the trial quotient (all ones, a lone high bit, zero, small).
    fn magnitude() -> impl Strategy<Value = Limbs> {
        let limb = prop_oneof![
            any::<u64>(),
            Just(u64::MAX),
            Just(1u64 << 63),
            Just(0u64),
            Just(1u64),
            (0u64..1000),
        ];
        proptest::collection::vec(limb, 0..10).prop_map(|v| {
            let mut l = Limbs::from_vec(v);
            trim(&mut l);
            l
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        #[test]
        fn kernels_agree_with_num_bigint(a in magnitude(), b in magnitude()) {
            let (x, y) = (big(&a), big(&b));
            // the outputs start dirty: the kernels must clear them
            let dirty = || Limbs::from_slice(&[7, 7, 7]);
            let mut s = dirty();
            add(&a, &b, &mut s);
            prop_assert!(is_trimmed(&s));
            prop_assert_eq!(big(&s), &x + &y);
            let mut p = dirty();
            mul(&a, &b, &mut p);
            prop_assert!(is_trimmed(&p));
            prop_assert_eq!(big(&p), &x * &y);
            prop_assert_eq!(cmp(&a, &b), x.cmp(&y));
            if x >= y {
                let mut d = dirty();
                sub(&a, &b, &mut d);
                prop_assert!(is_trimmed(&d));
                prop_assert_eq!(big(&d), &x - &y);
            }
            if !b.is_empty() {
                let (mut q, mut r) = (dirty(), dirty());
                divrem(&a, &b, &mut q, &mut r);
                prop_assert!(is_trimmed(&q) && is_trimmed(&r));
                prop_assert_eq!((big(&q), big(&r)), x.div_rem(&y));
                // an exact quotient: a·b / b
                divrem(&p, &b, &mut q, &mut r);
                prop_assert!(r.is_empty());
                prop_assert_eq!(big(&q), x.clone());
                prop_assert_eq!(BigUint::from(rem_word(&a, b[0].max(1))), &x % b[0].max(1));
            }
            if !b.is_empty() {
                // exact division: by b of a·b (true), and of a (as divrem says)
                let odd = Odd::new(&b);
                let mut q = dirty();
                prop_assert!(div_exact(&p, &odd, &mut q));
                prop_assert_eq!(big(&q), x.clone());
                let divides = (&x % &y) == BigUint::from(0u32);
                prop_assert_eq!(div_exact(&a, &odd, &mut q), divides);
                if divides {
                    prop_assert_eq!(big(&q), &x / &y);
                }
                // with powers of two in the divisor, and a dividend off by 2^k
                let mut b2 = dirty();
                shl(&b, 7, 1, &mut b2);
                trim(&mut b2);
                let mut p2 = dirty();
                mul(&a, &b2, &mut p2);
                let odd2 = Odd::new(&b2);
                prop_assert!(div_exact(&p2, &odd2, &mut q));
                prop_assert_eq!(big(&q), x.clone());
                if !a.is_empty() {
                    let mut p3 = dirty();
                    add(&p2, &[1u64 << 3], &mut p3);
                    prop_assert!(!div_exact(&p3, &odd2, &mut q));
                }
            }
            let g = gcd(&a, &b);
            prop_assert!(is_trimmed(&g));
            prop_assert_eq!(big(&g), x.gcd(&y));
        }
    }

    #[test]
    fn trial_quotient_corrections() {
        // b's top limb has its high bit set and its second limb is large: the
        // trial quotient from the top limb alone is too large and the
        // add-back step runs (Knuth's test values, scaled to 64-bit limbs)
        let b = [u64::MAX, 1u64 << 63];
        let a = [0, u64::MAX - 1, (1u64 << 63) - 1];
        let (mut q, mut r) = (Limbs::new(), Limbs::new());
        divrem(&a, &b, &mut q, &mut r);
        let (x, y) = (big(&a), big(&b));
        assert_eq!((big(&q), big(&r)), x.div_rem(&y));
        let a = [0, 0, 1u64 << 63, 1];
        let b = [1, 0, 1u64 << 63];
        divrem(&a, &b, &mut q, &mut r);
        assert_eq!((big(&q), big(&r)), big(&a).div_rem(&big(&b)));
    }
}
