//! `Int`: the exact integer of the library.
//!
//! A value is held as an `i64` while it fits and as a boxed sign and magnitude
//! ([`Big`]: 64-bit limbs, inline up to 768 bits) otherwise. Every operation
//! on two small values is a checked machine operation; on overflow it redoes
//! the operation in `i128` when the operands and the result fit there, else on
//! the limbs (the kernels are in `nat`: schoolbook arithmetic, Knuth's
//! division, Lehmer's gcd, with intermediate results on the stack), and a
//! result that fits in an `i64` is moved back to the small form. The
//! representation is canonical (a value that fits is always `Small`, a
//! magnitude has no leading zero limb), so the derived `Eq` and `Hash` are
//! value equality. `num-bigint` is used only to convert, print and parse.
//!
//! # Why `Int` everywhere instead of a generic coefficient type
//!
//! MLIR's Presburger library (FPL) runs its algorithms generically over `i64` first
//! and redoes the whole computation in big integers when an overflow is detected.
//! We store `Int` everywhere instead:
//! - the small case costs one well-predicted branch on the tag per operation and no
//!   allocation (the value is 16 bytes, the big case is boxed), and the checked
//!   `i64` operation that FPL needs anyway to detect overflow is the same;
//! - an overflow deep inside a long computation (a simplex after hundreds of
//!   pivots) only makes the affected numbers big, instead of restarting everything;
//! - there is one copy of every algorithm to test, and no path that is exercised
//!   only when a rare overflow happens.
//!
//! This trade-off is to be measured once the simplex exists (see the benchmarks in
//! `benches`); the API is kept narrow enough that switching a hot kernel to a
//! generic coefficient type later does not touch its callers.

mod nat;

use nat::Limbs;
use num_bigint::{BigInt, BigUint, Sign};
use num_integer::Integer;
use num_traits::ToPrimitive;
use smallvec::SmallVec;
use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};
use std::str::FromStr;

/// An exact integer with an `i64` fast path and a big-integer fallback.
///
/// ```
/// use presburger::Int;
/// let big = Int::from(i64::MAX) * &Int::from(i64::MAX);
/// assert_eq!(big.to_string(), "85070591730234615847396907784232501249");
/// assert_eq!(Int::from(-7).floor_div(&Int::from(2)), Int::from(-4));
/// assert_eq!("123456789012345678901234567890".parse::<Int>().unwrap().to_i64(), None);
/// ```
///
/// The representation is private: every value has exactly one form, so the
/// derived equality and hash are value equality.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Int(Repr);

/// The two forms of an [`Int`] (canonical: a value that fits in an `i64` is
/// always `Small`).
#[derive(Clone, PartialEq, Eq, Hash)]
enum Repr {
    /// A value that fits in an `i64`.
    Small(i64),
    /// A value that does not fit in an `i64` (never holds one that does).
    Big(Box<Big>),
}

/// The big form of an [`Int`]: a sign and a magnitude in 64-bit limbs, least
/// significant first. Only `Int`'s operations build one.
///
/// Invariant: the magnitude has no leading zero limb and the value does not
/// fit in an `i64` (so it is never zero, and `-2^63` is never held here).
#[derive(Clone, PartialEq, Eq, Hash)]
struct Big {
    neg: bool,
    mag: SmallVec<[u64; 12]>,
}

impl Big {
    /// Checks the invariant (see the type's doc).
    fn check_invariants(&self) {
        debug_assert!(
            nat::is_trimmed(&self.mag) && !self.mag.is_empty(),
            "a Big magnitude with a leading zero limb"
        );
        debug_assert!(
            self.mag.len() > 1 || self.mag[0] > (i64::MAX as u64) + u64::from(self.neg),
            "a Big holds a value that fits an i64"
        );
    }
}

/// A value's sign and magnitude, borrowed from a big value (a small value's
/// one limb is copied in).
struct Parts<'a> {
    neg: bool,
    word: [u64; 1],
    big: &'a [u64],
}

impl Parts<'_> {
    /// The magnitude (the empty slice for zero).
    #[inline]
    fn mag(&self) -> &[u64] {
        if !self.big.is_empty() {
            self.big
        } else if self.word[0] == 0 {
            &[]
        } else {
            &self.word
        }
    }
}

impl Int {
    /// Zero.
    pub const ZERO: Int = Int(Repr::Small(0));
    /// One.
    pub const ONE: Int = Int(Repr::Small(1));

    /// Builds an `Int` from a big integer, in canonical form.
    pub fn from_big(b: BigInt) -> Int {
        match b.to_i64() {
            Some(v) => Int(Repr::Small(v)),
            None => {
                let mag: Limbs = b.magnitude().iter_u64_digits().collect();
                Int::from_parts(b.sign() == Sign::Minus, &mag)
            }
        }
    }

    /// The value `(-1)^neg · mag` in canonical form (`mag` a magnitude).
    fn from_parts(neg: bool, mag: &[u64]) -> Int {
        debug_assert!(nat::is_trimmed(mag));
        match *mag {
            [] => return Int::ZERO,
            [m] if !neg && m <= i64::MAX as u64 => return Int(Repr::Small(m as i64)),
            // -2^63 is i64::MIN
            [m] if neg && m <= 1u64 << 63 => return Int(Repr::Small((m as i64).wrapping_neg())),
            _ => {}
        }
        crate::stats::count(crate::stats::Counter::BigValue);
        let b = Big {
            neg,
            mag: SmallVec::from_slice(mag),
        };
        b.check_invariants();
        Int(Repr::Big(Box::new(b)))
    }

    /// Sets the value to the one of `(neg, mag)` ([`Int::from_parts`]),
    /// in the allocation the value already has when both are big.
    fn assign_parts(&mut self, neg: bool, mag: &[u64]) {
        debug_assert!(nat::is_trimmed(mag));
        match &mut self.0 {
            Repr::Big(b) if mag.len() > 1 || (mag.len() == 1 && mag[0] > (1u64 << 63)) => {
                crate::stats::count(crate::stats::Counter::BigValue);
                b.neg = neg;
                b.mag.clear();
                b.mag.extend_from_slice(mag);
                b.check_invariants();
            }
            _ => *self = Int::from_parts(neg, mag),
        }
    }

    /// The sign and magnitude.
    #[inline]
    fn parts(&self) -> Parts<'_> {
        match self {
            Int(Repr::Small(v)) => Parts {
                neg: *v < 0,
                word: [v.unsigned_abs()],
                big: &[],
            },
            Int(Repr::Big(b)) => Parts {
                neg: b.neg,
                word: [0],
                big: &b.mag,
            },
        }
    }

    /// The value as an `i128` when it fits: every small value, and big values
    /// below `2^127` in magnitude. The operations on big values go through this
    /// first, so that numbers of up to about 38 digits (the subdeterminants of a
    /// tableau on small coefficients, products of two 60-bit values) cost
    /// machine operations and at most one allocation for the result.
    #[inline]
    pub(crate) fn wide(&self) -> Option<i128> {
        match self {
            Int(Repr::Small(v)) => Some(*v as i128),
            Int(Repr::Big(b)) if b.mag.len() <= 2 => {
                let m = nat::to_u128(&b.mag);
                if !b.neg && m <= i128::MAX as u128 {
                    Some(m as i128)
                } else if b.neg && m <= 1u128 << 127 {
                    Some((m as i128).wrapping_neg())
                } else {
                    None
                }
            }
            Int(Repr::Big(_)) => None,
        }
    }

    /// An `Int` from a `u128`, in canonical form.
    fn from_wide_u(v: u128) -> Int {
        Int::from_parts(false, &nat::from_u128(v))
    }

    /// An `Int` from an `i128`, in canonical form.
    pub(crate) fn from_wide(v: i128) -> Int {
        match i64::try_from(v) {
            Ok(s) => Int(Repr::Small(s)),
            Err(_) => Int::from_parts(v < 0, &nat::from_u128(v.unsigned_abs())),
        }
    }

    /// The value as a big integer.
    pub fn to_big(&self) -> BigInt {
        match self {
            Int(Repr::Small(v)) => BigInt::from(*v),
            Int(Repr::Big(b)) => {
                let digits = b
                    .mag
                    .iter()
                    .flat_map(|&l| [l as u32, (l >> 32) as u32])
                    .collect();
                let sign = if b.neg { Sign::Minus } else { Sign::Plus };
                BigInt::from_biguint(sign, BigUint::new(digits))
            }
        }
    }

    /// The value modulo 2^64 (two's complement: the low word of a small value
    /// as it is stored), the same word for equal values. For hashing.
    #[inline]
    pub(crate) fn low_word(&self) -> u64 {
        match self {
            Int(Repr::Small(x)) => *x as u64,
            Int(Repr::Big(b)) => {
                if b.neg {
                    b.mag[0].wrapping_neg()
                } else {
                    b.mag[0]
                }
            }
        }
    }

    /// The value as an `i64`, if it fits.
    pub fn to_i64(&self) -> Option<i64> {
        match self {
            Int(Repr::Small(v)) => Some(*v),
            Int(Repr::Big(_)) => None,
        }
    }

    /// The number of 64-bit limbs of the magnitude (0 for zero, 1 for every
    /// other value held small).
    #[inline]
    pub(crate) fn limbs(&self) -> usize {
        match &self.0 {
            Repr::Small(0) => 0,
            Repr::Small(_) => 1,
            Repr::Big(b) => b.mag.len(),
        }
    }

    /// True when the value is held in the small (machine) form.
    pub fn is_small(&self) -> bool {
        matches!(self, Int(Repr::Small(_)))
    }

    /// The value when it is held small (fits an `i64`).
    #[inline]
    pub(crate) fn small(&self) -> Option<i64> {
        match self {
            Int(Repr::Small(v)) => Some(*v),
            Int(Repr::Big(_)) => None,
        }
    }

    /// True for zero.
    pub fn is_zero(&self) -> bool {
        matches!(self, Int(Repr::Small(0)))
    }

    /// True for one.
    pub fn is_one(&self) -> bool {
        matches!(self, Int(Repr::Small(1)))
    }

    /// True for a strictly positive value.
    pub fn is_positive(&self) -> bool {
        self.signum() > 0
    }

    /// True for a strictly negative value.
    pub fn is_negative(&self) -> bool {
        self.signum() < 0
    }

    /// -1, 0 or 1.
    pub fn signum(&self) -> i32 {
        match self {
            Int(Repr::Small(v)) => v.signum() as i32,
            Int(Repr::Big(b)) => {
                if b.neg {
                    -1
                } else {
                    1
                }
            }
        }
    }

    /// Absolute value.
    pub fn abs(&self) -> Int {
        match self {
            Int(Repr::Small(v)) => match v.checked_abs() {
                Some(a) => Int(Repr::Small(a)),
                None => Int::from_parts(false, &[v.unsigned_abs()]),
            },
            Int(Repr::Big(b)) if !b.neg => self.clone(),
            Int(Repr::Big(b)) => Int::from_parts(false, &b.mag),
        }
    }

    /// Greatest common divisor, always non-negative; `gcd(0, 0) = 0`.
    pub fn gcd(&self, other: &Int) -> Int {
        match (self, other) {
            (Int(Repr::Small(a)), Int(Repr::Small(b))) => {
                Int::from(word_gcd(a.unsigned_abs(), b.unsigned_abs()))
            }
            (Int(Repr::Big(b)), Int(Repr::Small(s))) | (Int(Repr::Small(s)), Int(Repr::Big(b))) => {
                // one remainder by a machine word, then the machine gcd
                let s = s.unsigned_abs();
                if s == 0 {
                    return Int::from_parts(false, &b.mag);
                }
                Int::from(word_gcd(s, nat::rem_word(&b.mag, s)))
            }
            (Int(Repr::Big(a)), Int(Repr::Big(b))) => {
                if a.mag.len() <= 2 && b.mag.len() <= 2 {
                    Int::from_wide_u(nat::gcd_u128(nat::to_u128(&a.mag), nat::to_u128(&b.mag)))
                } else {
                    Int::from_parts(false, &nat::gcd(&a.mag, &b.mag))
                }
            }
        }
    }

    /// Least common multiple, always non-negative; zero if either is zero.
    pub fn lcm(&self, other: &Int) -> Int {
        if self.is_zero() || other.is_zero() {
            return Int::ZERO;
        }
        let g = self.gcd(other);
        (self.exact_div(&g) * other).abs()
    }

    /// `floor(self / d)`. Panics if `d` is zero, like the machine division.
    pub fn floor_div(&self, d: &Int) -> Int {
        match (self, d) {
            (Int(Repr::Small(a)), Int(Repr::Small(b)))
                if *b != 0 && !(*a == i64::MIN && *b == -1) =>
            {
                Int(Repr::Small(a.div_floor(b)))
            }
            _ => match (self.wide(), d.wide()) {
                (Some(a), Some(b)) if b != 0 && !(a == i128::MIN && b == -1) => {
                    Int::from_wide(Integer::div_floor(&a, &b))
                }
                _ => div_round(self, d, Round::Floor).0,
            },
        }
    }

    /// `ceil(self / d)`. Panics if `d` is zero.
    pub fn ceil_div(&self, d: &Int) -> Int {
        match (self, d) {
            (Int(Repr::Small(a)), Int(Repr::Small(b)))
                if *b != 0 && !(*a == i64::MIN && *b == -1) =>
            {
                Int(Repr::Small(a.div_ceil(b)))
            }
            _ => match (self.wide(), d.wide()) {
                (Some(a), Some(b)) if b != 0 && !(a == i128::MIN && b == -1) => {
                    Int::from_wide(Integer::div_ceil(&a, &b))
                }
                _ => div_round(self, d, Round::Ceil).0,
            },
        }
    }

    /// `self / d` when `d` divides `self` (checked in debug builds). Panics if `d` is zero.
    pub fn exact_div(&self, d: &Int) -> Int {
        match (self, d) {
            (Int(Repr::Small(a)), Int(Repr::Small(b)))
                if *b != 0 && !(*a == i64::MIN && *b == -1) =>
            {
                debug_assert!(a % b == 0, "exact_div: {d} does not divide {self}");
                Int(Repr::Small(a / b))
            }
            _ => match (self.wide(), d.wide()) {
                (Some(a), Some(b)) if b != 0 && !(a == i128::MIN && b == -1) => {
                    debug_assert!(a % b == 0, "exact_div: {d} does not divide {self}");
                    Int::from_wide(a / b)
                }
                _ => {
                    let (q, r) = div_round(self, d, Round::Trunc);
                    debug_assert!(r.is_zero(), "exact_div: {d} does not divide {self}");
                    q
                }
            },
        }
    }

    /// Divides in place by a machine word `d > 0` that divides the value
    /// (a debug assertion checks it): no allocation, and one multiplication
    /// per limb (`nat::div_exact_word`).
    pub(crate) fn div_exact_word_assign(&mut self, d: u64) {
        debug_assert!(d != 0);
        match &mut self.0 {
            Repr::Small(x) => {
                debug_assert!(
                    i128::from(*x) % i128::from(d) == 0,
                    "{d} does not divide {x}"
                );
                *x = match i64::try_from(d) {
                    Ok(d) => *x / d,
                    // (only 0, and -2^63 for d = 2^63, have such a divisor;
                    // -2^63 / 2^63 = -1)
                    Err(_) => -(*x / i64::MIN),
                };
            }
            Repr::Big(b) => {
                let exact = nat::div_exact_word(&mut b.mag, d);
                debug_assert!(exact, "div_exact_word_assign: {d} does not divide");
                while b.mag.last() == Some(&0) {
                    b.mag.pop();
                }
                let fits = match *b.mag {
                    [] => true,
                    [m] => m <= i64::MAX as u64 + u64::from(b.neg),
                    _ => false,
                };
                if fits {
                    let v = Int::from_parts(b.neg, &b.mag);
                    *self = v;
                } else {
                    b.check_invariants();
                }
            }
        }
    }

    /// `(floor(self / d), self mod d)` with one division (the remainder has the
    /// sign of `d`, as with [`Int::floor_div`]). Panics if `d` is zero.
    pub fn div_mod_floor(&self, d: &Int) -> (Int, Int) {
        match (self.wide(), d.wide()) {
            (Some(a), Some(b)) if b != 0 && !(a == i128::MIN && b == -1) => {
                let (q, r) = Integer::div_mod_floor(&a, &b);
                (Int::from_wide(q), Int::from_wide(r))
            }
            _ => div_round(self, d, Round::Floor),
        }
    }

    /// The remainder of `self` by `m` in `0 .. |m|` (never negative). Panics if `m` is zero.
    pub fn modulo(&self, m: &Int) -> Int {
        match (self, m) {
            (Int(Repr::Small(a)), Int(Repr::Small(b))) if *b != 0 && *b != -1 && *b != i64::MIN => {
                Int(Repr::Small(a.rem_euclid(*b)))
            }
            _ => match (self.wide(), m.wide()) {
                (Some(a), Some(b)) if b != 0 && b != i128::MIN => {
                    Int::from_wide(a.rem_euclid(b.abs()))
                }
                _ => {
                    let (pa, pm) = (self.parts(), m.parts());
                    let (mut q, mut r) = (Limbs::new(), Limbs::new());
                    nat::divrem(pa.mag(), pm.mag(), &mut q, &mut r);
                    if pa.neg && !r.is_empty() {
                        nat::sub(pm.mag(), &r, &mut q);
                        Int::from_parts(false, &q)
                    } else {
                        Int::from_parts(false, &r)
                    }
                }
            },
        }
    }

    /// True when `d` divides `self` (`d = 0` divides only 0).
    pub fn is_divisible_by(&self, d: &Int) -> bool {
        if d.is_zero() {
            return self.is_zero();
        }
        self.modulo(d).is_zero()
    }

    /// The smaller of two values.
    pub fn min_of(self, other: Int) -> Int {
        std::cmp::min(self, other)
    }

    /// The larger of two values.
    pub fn max_of(self, other: Int) -> Int {
        std::cmp::max(self, other)
    }

    /// `self * a + b * c` with a single normalisation, used by row operations.
    pub fn mul_add_mul(&self, a: &Int, b: &Int, c: &Int) -> Int {
        if let (
            Int(Repr::Small(s)),
            Int(Repr::Small(a)),
            Int(Repr::Small(b)),
            Int(Repr::Small(c)),
        ) = (self, a, b, c)
        {
            // (each product fits an i128; their sum may not, when all four are
            // near i64::MIN)
            let r = ((*s as i128) * (*a as i128)).checked_add((*b as i128) * (*c as i128));
            if let Some(v) = r.and_then(|r| i64::try_from(r).ok()) {
                return Int(Repr::Small(v));
            }
        }
        mul_add_mul_big(self, a, b, c)
    }
}

/// A non-zero divisor prepared once for many exact divisions, as when the
/// simplex divides every entry of a row by one common factor: a big divisor's
/// odd part and a 2-adic inverse are computed once, and each division is then
/// the exact division from the low end (`nat::div_exact`), with no trial
/// quotients.
pub(crate) struct ExactDivisor {
    value: Int,
    magnitude: Prepared,
}

/// The magnitude of an [`ExactDivisor`], as its divisions use it.
enum Prepared {
    /// A value held small: its magnitude, a machine word.
    Word(u64),
    /// A big value: its odd part and 2-adic inverse.
    Odd(Box<nat::Odd>),
}

impl ExactDivisor {
    /// Prepares `d`. Panics if `d` is zero.
    pub(crate) fn new(d: &Int) -> ExactDivisor {
        assert!(!d.is_zero(), "division by zero");
        let magnitude = match d {
            Int(Repr::Small(w)) => Prepared::Word(w.unsigned_abs()),
            Int(Repr::Big(b)) => Prepared::Odd(Box::new(nat::Odd::new(&b.mag))),
        };
        ExactDivisor {
            value: d.clone(),
            magnitude,
        }
    }

    /// `Some(v / d)` when `d` divides `v`, else `None`.
    pub(crate) fn divide(&self, v: &Int) -> Option<Int> {
        if let (Some(a), Some(b)) = (v.wide(), self.value.wide()) {
            if !(a == i128::MIN && b == -1) {
                return (a % b == 0).then(|| Int::from_wide(a / b));
            }
        }
        let (pv, pd) = (v.parts(), self.value.parts());
        let mut q = Limbs::new();
        let exact = match &self.magnitude {
            Prepared::Odd(odd) => nat::div_exact(pv.mag(), odd, &mut q),
            Prepared::Word(w) => {
                q.extend_from_slice(pv.mag());
                let exact = nat::div_exact_word(&mut q, *w);
                nat::trim(&mut q);
                exact
            }
        };
        exact.then(|| Int::from_parts(pv.neg != pd.neg, &q))
    }

    /// `x = (x·a + b·c) / d` when `d` divides `x·a + b·c` (true), else
    /// `x = x·a + b·c` (false): a pivot's entry update and its exact
    /// division in one step. On big values the sum (twice the size of the
    /// result) is formed and divided in stack buffers, and a big `x` keeps
    /// its allocation when the result is big too, so a pivot's update of a
    /// row of big entries allocates nothing.
    pub(crate) fn divide_mul_add_mul_assign(&self, x: &mut Int, a: &Int, b: &Int, c: &Int) -> bool {
        if let (Some(s), Some(a), Some(b), Some(c)) = (x.wide(), a.wide(), b.wide(), c.wide()) {
            if let Some(v) = s
                .checked_mul(a)
                .zip(b.checked_mul(c))
                .and_then(|(x, y)| x.checked_add(y))
            {
                let v = Int::from_wide(v);
                return match self.divide(&v) {
                    Some(q) => {
                        *x = q;
                        true
                    }
                    None => {
                        *x = v;
                        false
                    }
                };
            }
        }
        let (exact, neg, mag) = self.divide_mul_add_mul_limbs(x, a, b, c);
        x.assign_parts(neg, &mag);
        exact
    }

    /// The big path of [`ExactDivisor::divide_mul_add_mul_assign`]: whether
    /// `d` divides `s·a + b·c`, and the sign and magnitude of the quotient
    /// when it does, of the sum when it does not.
    fn divide_mul_add_mul_limbs(&self, s: &Int, a: &Int, b: &Int, c: &Int) -> (bool, bool, Limbs) {
        let (ps, pa, pb, pc) = (s.parts(), a.parts(), b.parts(), c.parts());
        let (mut x, mut y, mut sum) = (Limbs::new(), Limbs::new(), Limbs::new());
        let form = |x: &mut Limbs, y: &mut Limbs, sum: &mut Limbs| {
            nat::mul(ps.mag(), pa.mag(), x);
            nat::mul(pb.mag(), pc.mag(), y);
            nat::signed_add(ps.neg != pa.neg, x, pb.neg != pc.neg, y, sum)
        };
        let neg = form(&mut x, &mut y, &mut sum);
        let pd = self.value.parts();
        // the division consumes the sum (no copy); x is free to take the
        // quotient, and the sum is formed again in the rare inexact case
        let exact = match &self.magnitude {
            Prepared::Odd(odd) => nat::div_exact_consuming(&mut sum, odd, &mut x),
            Prepared::Word(w) => {
                let exact = nat::div_exact_word(&mut sum, *w);
                nat::trim(&mut sum);
                std::mem::swap(&mut x, &mut sum);
                exact
            }
        };
        if exact {
            (true, neg != pd.neg, x)
        } else {
            let neg = form(&mut x, &mut y, &mut sum);
            (false, neg, sum)
        }
    }
}

/// How [`div_round`] rounds the quotient.
#[derive(Clone, Copy)]
enum Round {
    Trunc,
    Floor,
    Ceil,
}

/// The big path of the divisions: `(q, a - q·d)` with `q` the quotient
/// `a / d` rounded as asked, from one division of the magnitudes. Panics if
/// `d` is zero.
#[cold]
#[inline(never)]
fn div_round(a: &Int, d: &Int, round: Round) -> (Int, Int) {
    let (pa, pd) = (a.parts(), d.parts());
    let (mut qm, mut rm) = (Limbs::new(), Limbs::new());
    nat::divrem(pa.mag(), pd.mag(), &mut qm, &mut rm);
    let qneg = pa.neg != pd.neg;
    let away = !rm.is_empty()
        && match round {
            Round::Trunc => false,
            Round::Floor => qneg,
            Round::Ceil => !qneg,
        };
    if !away {
        // truncation: the remainder has the sign of a
        return (Int::from_parts(qneg, &qm), Int::from_parts(pa.neg, &rm));
    }
    // one step further from zero: |q| + 1, and the remainder moves by d to
    // the other sign, |d| - |r|
    let mut t = Limbs::new();
    nat::add(&qm, &[1], &mut t);
    let q = Int::from_parts(qneg, &t);
    nat::sub(pd.mag(), &rm, &mut t);
    (q, Int::from_parts(!pa.neg, &t))
}

impl Default for Int {
    fn default() -> Self {
        Int::ZERO
    }
}

impl From<i64> for Int {
    fn from(v: i64) -> Self {
        Int(Repr::Small(v))
    }
}

impl From<i32> for Int {
    fn from(v: i32) -> Self {
        Int(Repr::Small(v as i64))
    }
}

impl From<u64> for Int {
    fn from(v: u64) -> Self {
        match i64::try_from(v) {
            Ok(s) => Int(Repr::Small(s)),
            Err(_) => Int::from_parts(false, &[v]),
        }
    }
}

impl From<usize> for Int {
    fn from(v: usize) -> Self {
        Int::from(v as u64)
    }
}

impl From<i128> for Int {
    fn from(v: i128) -> Self {
        Int::from_wide(v)
    }
}

impl From<BigInt> for Int {
    fn from(b: BigInt) -> Self {
        Int::from_big(b)
    }
}

impl From<&Int> for BigInt {
    fn from(v: &Int) -> Self {
        v.to_big()
    }
}

impl PartialOrd for Int {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Int {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (Int(Repr::Small(a)), Int(Repr::Small(b))) => a.cmp(b),
            // A big value is outside the i64 range, so its sign decides.
            (Int(Repr::Small(_)), Int(Repr::Big(b))) => {
                if b.neg {
                    Ordering::Greater
                } else {
                    Ordering::Less
                }
            }
            (Int(Repr::Big(a)), Int(Repr::Small(_))) => {
                if a.neg {
                    Ordering::Less
                } else {
                    Ordering::Greater
                }
            }
            (Int(Repr::Big(a)), Int(Repr::Big(b))) => match (a.neg, b.neg) {
                (false, false) => nat::cmp(&a.mag, &b.mag),
                (true, true) => nat::cmp(&b.mag, &a.mag),
                (true, false) => Ordering::Less,
                (false, true) => Ordering::Greater,
            },
        }
    }
}

impl PartialEq<i64> for Int {
    fn eq(&self, other: &i64) -> bool {
        matches!(self, Int(Repr::Small(v)) if v == other)
    }
}

impl PartialOrd<i64> for Int {
    fn partial_cmp(&self, other: &i64) -> Option<Ordering> {
        Some(self.cmp(&Int(Repr::Small(*other))))
    }
}

impl fmt::Display for Int {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Int(Repr::Small(v)) => fmt::Display::fmt(v, f),
            Int(Repr::Big(_)) => fmt::Display::fmt(&self.to_big(), f),
        }
    }
}

impl fmt::Debug for Int {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Error of [`Int::from_str`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseIntError;

impl fmt::Display for ParseIntError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a decimal integer")
    }
}

impl std::error::Error for ParseIntError {}

impl FromStr for Int {
    type Err = ParseIntError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if let Ok(v) = s.parse::<i64>() {
            return Ok(Int(Repr::Small(v)));
        }
        s.parse::<BigInt>()
            .map(Int::from_big)
            .map_err(|_| ParseIntError)
    }
}

// The arithmetic: the small case is inlined at the call site, the big case (rare)
// is a separate cold function, so a row operation on small values is a few
// machine instructions per entry.

#[inline]
fn add_ref(a: &Int, b: &Int) -> Int {
    if let (Int(Repr::Small(x)), Int(Repr::Small(y))) = (a, b) {
        if let Some(v) = x.checked_add(*y) {
            return Int(Repr::Small(v));
        }
    }
    add_big(a, b, false)
}

/// The slow path of `a + b` (of `a - b` when `negate_b`): in `i128` when both
/// operands and the result fit there, else on the limbs.
#[cold]
#[inline(never)]
fn add_big(a: &Int, b: &Int, negate_b: bool) -> Int {
    if let (Some(x), Some(y)) = (a.wide(), b.wide()) {
        let v = if negate_b {
            x.checked_sub(y)
        } else {
            x.checked_add(y)
        };
        if let Some(v) = v {
            return Int::from_wide(v);
        }
    }
    let (pa, pb) = (a.parts(), b.parts());
    let mut mag = Limbs::new();
    let neg = nat::signed_add(pa.neg, pa.mag(), pb.neg != negate_b, pb.mag(), &mut mag);
    Int::from_parts(neg, &mag)
}

#[cold]
#[inline(never)]
fn mul_add_mul_big(s: &Int, a: &Int, b: &Int, c: &Int) -> Int {
    if let (Some(s), Some(a), Some(b), Some(c)) = (s.wide(), a.wide(), b.wide(), c.wide()) {
        if let Some(v) = s
            .checked_mul(a)
            .zip(b.checked_mul(c))
            .and_then(|(x, y)| x.checked_add(y))
        {
            return Int::from_wide(v);
        }
    }
    let (ps, pa, pb, pc) = (s.parts(), a.parts(), b.parts(), c.parts());
    let (mut x, mut y, mut mag) = (Limbs::new(), Limbs::new(), Limbs::new());
    nat::mul(ps.mag(), pa.mag(), &mut x);
    nat::mul(pb.mag(), pc.mag(), &mut y);
    let neg = nat::signed_add(ps.neg != pa.neg, &x, pb.neg != pc.neg, &y, &mut mag);
    Int::from_parts(neg, &mag)
}

/// The gcd of two machine words: one remainder to bring the larger down to
/// the size of the smaller (the entries of a tableau row are often far apart:
/// a small denominator against a large coefficient), then the binary algorithm
/// (Stein; D. E. Knuth, *The Art of Computer Programming* vol. 2, 4.5.2 B),
/// shifting out all trailing zeros at once.
#[inline]
pub(crate) fn word_gcd(a: u64, b: u64) -> u64 {
    let (mut u, mut v) = if a < b { (a, b) } else { (b, a) };
    if u == 0 {
        return v;
    }
    v %= u;
    if v == 0 {
        return u;
    }
    let shift = (u | v).trailing_zeros();
    u >>= u.trailing_zeros();
    loop {
        v >>= v.trailing_zeros();
        if u > v {
            std::mem::swap(&mut u, &mut v);
        }
        v -= u;
        if v == 0 {
            return u << shift;
        }
    }
}

#[inline]
fn sub_ref(a: &Int, b: &Int) -> Int {
    if let (Int(Repr::Small(x)), Int(Repr::Small(y))) = (a, b) {
        if let Some(v) = x.checked_sub(*y) {
            return Int(Repr::Small(v));
        }
    }
    add_big(a, b, true)
}

#[inline]
fn mul_ref(a: &Int, b: &Int) -> Int {
    if let (Int(Repr::Small(x)), Int(Repr::Small(y))) = (a, b) {
        if let Some(v) = x.checked_mul(*y) {
            return Int(Repr::Small(v));
        }
    }
    mul_big(a, b)
}

#[cold]
#[inline(never)]
fn mul_big(a: &Int, b: &Int) -> Int {
    if let Some(v) = a.wide().zip(b.wide()).and_then(|(x, y)| x.checked_mul(y)) {
        return Int::from_wide(v);
    }
    let (pa, pb) = (a.parts(), b.parts());
    let mut mag = Limbs::new();
    nat::mul(pa.mag(), pb.mag(), &mut mag);
    Int::from_parts(pa.neg != pb.neg, &mag)
}

#[inline]
fn neg_ref(a: &Int) -> Int {
    match a {
        Int(Repr::Small(v)) if *v != i64::MIN => Int(Repr::Small(-v)),
        _ => neg_big(a),
    }
}

#[cold]
#[inline(never)]
fn neg_big(a: &Int) -> Int {
    let p = a.parts();
    Int::from_parts(!p.neg, p.mag())
}

macro_rules! binop {
    ($tr:ident, $method:ident, $f:ident, $atr:ident, $amethod:ident) => {
        impl $tr<&Int> for &Int {
            type Output = Int;
            fn $method(self, rhs: &Int) -> Int {
                $f(self, rhs)
            }
        }
        impl $tr<Int> for &Int {
            type Output = Int;
            fn $method(self, rhs: Int) -> Int {
                $f(self, &rhs)
            }
        }
        impl $tr<&Int> for Int {
            type Output = Int;
            fn $method(self, rhs: &Int) -> Int {
                $f(&self, rhs)
            }
        }
        impl $tr<Int> for Int {
            type Output = Int;
            fn $method(self, rhs: Int) -> Int {
                $f(&self, &rhs)
            }
        }
        impl $tr<i64> for &Int {
            type Output = Int;
            fn $method(self, rhs: i64) -> Int {
                $f(self, &Int(Repr::Small(rhs)))
            }
        }
        impl $tr<i64> for Int {
            type Output = Int;
            fn $method(self, rhs: i64) -> Int {
                $f(&self, &Int(Repr::Small(rhs)))
            }
        }
        impl $atr<&Int> for Int {
            fn $amethod(&mut self, rhs: &Int) {
                *self = $f(self, rhs);
            }
        }
        impl $atr<Int> for Int {
            fn $amethod(&mut self, rhs: Int) {
                *self = $f(self, &rhs);
            }
        }
        impl $atr<i64> for Int {
            fn $amethod(&mut self, rhs: i64) {
                *self = $f(self, &Int(Repr::Small(rhs)));
            }
        }
    };
}

binop!(Add, add, add_ref, AddAssign, add_assign);
binop!(Sub, sub, sub_ref, SubAssign, sub_assign);
binop!(Mul, mul, mul_ref, MulAssign, mul_assign);

impl Neg for Int {
    type Output = Int;
    fn neg(self) -> Int {
        neg_ref(&self)
    }
}

impl Neg for &Int {
    type Output = Int;
    fn neg(self) -> Int {
        neg_ref(self)
    }
}

impl std::iter::Sum for Int {
    fn sum<I: Iterator<Item = Int>>(iter: I) -> Int {
        iter.fold(Int::ZERO, |a, b| a + b)
    }
}

/// The product of the primes below 50 (it fits 63 bits).
const SMALL_PRIMES: u64 = 2 * 3 * 5 * 7 * 11 * 13 * 17 * 19 * 23 * 29 * 31 * 37 * 41 * 43 * 47;

/// The product of the primes below 50 that divide every value (1 when there
/// is none, the product of all of them for an all-zero sequence): one
/// remainder by a machine word per value, and no gcd of big numbers. It finds
/// the small factors that a cheaper search for a common divisor leaves (see the
/// simplex's row normalisation after a pivot).
pub fn small_common_primes<'a>(values: impl IntoIterator<Item = &'a Int>) -> u64 {
    let mut g = SMALL_PRIMES;
    for v in values {
        let r = match v {
            Int(Repr::Small(x)) => x.unsigned_abs() % SMALL_PRIMES,
            Int(Repr::Big(b)) => {
                // the magnitude's limbs, most significant first, folded mod the word
                b.mag.iter().rev().fold(0u64, |r, &d| {
                    (((r as u128) << 64 | d as u128) % SMALL_PRIMES as u128) as u64
                })
            }
        };
        g = word_gcd(g, r);
        if g == 1 {
            break;
        }
    }
    g
}

/// The gcd of a sequence of integers (0 for an empty or all-zero sequence).
///
/// Machine-word values are folded in first: once the running gcd is a machine
/// word, every big value costs one remainder by it instead of a Euclid run on two
/// big numbers (which dominated simplex pivots on big coefficients).
pub fn gcd_all<'a>(values: impl IntoIterator<Item = &'a Int>) -> Int {
    let mut w = 0u64;
    let mut bigs: smallvec::SmallVec<[&Int; 8]> = smallvec::SmallVec::new();
    for v in values {
        match v {
            Int(Repr::Small(0)) => {}
            Int(Repr::Small(x)) => {
                w = word_gcd(w, x.unsigned_abs());
                if w == 1 {
                    return Int::ONE;
                }
            }
            Int(Repr::Big(_)) => bigs.push(v),
        }
    }
    let mut g = Int::from(w);
    for v in bigs {
        g = g.gcd(v);
        if g.is_one() {
            break;
        }
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_traits::{Signed, Zero};
    use proptest::prelude::*;

    /// Values that stress the boundaries of the small form.
    fn edge_value() -> impl Strategy<Value = BigInt> {
        let near = prop_oneof![
            Just(i64::MIN as i128),
            Just(i64::MAX as i128),
            // the edges of the i128 path of big values
            Just(i128::MIN),
            Just(i128::MAX),
            Just(1i128 << 64),
            Just(-(1i128 << 64)),
            Just(0i128),
            Just(1),
            Just(-1),
        ];
        prop_oneof![
            (near, -3i128..=3).prop_map(|(b, d)| BigInt::from(b) + BigInt::from(d)),
            any::<i64>().prop_map(BigInt::from),
            any::<i32>().prop_map(BigInt::from),
            (any::<i128>(), any::<i64>()).prop_map(|(a, b)| BigInt::from(a) * BigInt::from(b)),
            (-20i64..20).prop_map(BigInt::from),
        ]
    }

    /// Magnitudes of up to about 600 bits: independent, sharing a large
    /// factor, or close to each other (long runs of small quotients).
    fn huge_pair() -> impl Strategy<Value = (BigInt, BigInt)> {
        let limbs = || proptest::collection::vec(any::<u64>(), 1..10);
        (limbs(), limbs(), limbs(), 0..3u8).prop_map(|(x, y, g, kind)| {
            let num = |v: &[u64]| {
                v.iter()
                    .fold(BigInt::from(0), |acc, &l| (acc << 64) + BigInt::from(l))
            };
            let (x, y) = (num(&x), num(&y));
            match kind {
                0 => (x, y),
                1 => {
                    let g = num(&g);
                    (x * &g, -(y * g))
                }
                _ => {
                    let close = &x + (&y >> 300u32) + 1;
                    (x, close)
                }
            }
        })
    }

    fn check_canonical(v: &Int) {
        if let Int(Repr::Big(b)) = v {
            assert!(
                Int::from_big(v.to_big()) == *v && v.to_i64().is_none(),
                "a Big that is not canonical: {v}"
            );
            assert!(nat::is_trimmed(&b.mag) && !b.mag.is_empty());
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn ring_ops_agree_with_bigint(a in edge_value(), b in edge_value()) {
            let (x, y) = (Int::from_big(a.clone()), Int::from_big(b.clone()));
            for (got, want) in [
                (&x + &y, &a + &b),
                (&x - &y, &a - &b),
                (&x * &y, &a * &b),
                (-&x, -a.clone()),
                (x.abs(), a.abs()),
            ] {
                check_canonical(&got);
                prop_assert_eq!(got.to_big(), want);
            }
            prop_assert_eq!(x.cmp(&y), a.cmp(&b));
            prop_assert_eq!(x == y, a == b);
            prop_assert_eq!(x.signum(), a.signum().to_i32().unwrap());
        }

        #[test]
        fn word_gcd_agrees_with_euclid(a in any::<u64>(), b in any::<u64>(), s in 0u32..40) {
            // also with common powers of two, which the binary steps shift out
            let (a, b) = (a >> s << s, b >> (s / 2) << s);
            prop_assert_eq!(word_gcd(a, b), a.gcd(&b));
            prop_assert_eq!(word_gcd(a % 1000, b), (a % 1000).gcd(&b));
        }

        #[test]
        fn small_common_primes_divide_every_value((a, b) in huge_pair(), k in 0u64..5000) {
            let vals = [Int::from_big(a * k), Int::from_big(b * k), Int::from(k * 6)];
            let g = small_common_primes(vals.iter());
            let all = gcd_all(vals.iter());
            if all.is_zero() {
                prop_assert_eq!(g, SMALL_PRIMES);
            } else {
                // g is the part of gcd(all, SMALL_PRIMES)
                prop_assert_eq!(Int::from(g), all.gcd(&Int::from(SMALL_PRIMES)));
            }
        }

        #[test]
        fn division_ops_agree_with_bigint(a in edge_value(), b in edge_value()) {
            prop_assume!(!b.is_zero());
            let (x, y) = (Int::from_big(a.clone()), Int::from_big(b.clone()));
            let fl = x.floor_div(&y);
            let ce = x.ceil_div(&y);
            let md = x.modulo(&y);
            for v in [&fl, &ce, &md] {
                check_canonical(v);
            }
            prop_assert_eq!(fl.to_big(), a.div_floor(&b));
            prop_assert_eq!(ce.to_big(), Integer::div_ceil(&a, &b));
            prop_assert_eq!(md.to_big(), a.mod_floor(&b.abs()));
            prop_assert!(!md.is_negative() && md < y.abs());
            let (q, r) = x.div_mod_floor(&y);
            check_canonical(&q);
            check_canonical(&r);
            prop_assert_eq!((q.to_big(), r.to_big()), a.div_mod_floor(&b));
            let prod = &a * &b;
            let p = Int::from_big(prod.clone());
            prop_assert_eq!(p.exact_div(&y).to_big(), a.clone());
            prop_assert!(p.is_divisible_by(&y));
        }

        #[test]
        fn word_division_agrees_with_bigint(a in edge_value(), k in 0u32..64, w in 1u64..u64::MAX, t in 0u32..64) {
            // w·2^t wraps to a word divisor; a·d is then divided back in place
            let d = (w | 1).wrapping_shl(t % 64).max(1);
            let prod = &a * BigInt::from(d);
            let mut v = Int::from_big(prod);
            v.div_exact_word_assign(d);
            check_canonical(&v);
            prop_assert_eq!(v.to_big(), a.clone());
            // and the bare kernel reports a remainder
            let m: Limbs = (&a * BigInt::from(d) + BigInt::from(1u64 << (k % 63)) * (d > 1) as u8)
                .magnitude()
                .iter_u64_digits()
                .collect();
            let mut m2 = m.clone();
            let exact = nat::div_exact_word(&mut m2, d);
            prop_assert_eq!(exact, d == 1 || (BigInt::from(1u64 << (k % 63)) % BigInt::from(d)).is_zero());
        }

        #[test]
        fn exact_divisor_agrees_with_bigint(a in edge_value(), b in edge_value(), (c, d) in huge_pair()) {
            for (a, b) in [(a, b), (c, d)] {
                prop_assume!(!b.is_zero());
                let div = ExactDivisor::new(&Int::from_big(b.clone()));
                let prod = &a * &b;
                let got = div.divide(&Int::from_big(prod));
                prop_assert_eq!(got.map(|q| q.to_big()), Some(a.clone()));
                let got = div.divide(&Int::from_big(a.clone()));
                if (&a % &b).is_zero() {
                    let q = got.expect("exact");
                    check_canonical(&q);
                    prop_assert_eq!(q.to_big(), &a / &b);
                } else {
                    prop_assert!(got.is_none());
                }
            }
        }

        #[test]
        fn gcd_lcm_agree_with_bigint(a in edge_value(), b in edge_value()) {
            let (x, y) = (Int::from_big(a.clone()), Int::from_big(b.clone()));
            let g = x.gcd(&y);
            let l = x.lcm(&y);
            check_canonical(&g);
            check_canonical(&l);
            prop_assert_eq!(g.to_big(), a.gcd(&b));
            prop_assert_eq!(l.to_big(), a.lcm(&b));
        }

        #[test]
        fn gcd_of_huge_values_agrees_with_bigint((a, b) in huge_pair()) {
            let (x, y) = (Int::from_big(a.clone()), Int::from_big(b.clone()));
            let g = x.gcd(&y);
            check_canonical(&g);
            prop_assert_eq!(g.to_big(), a.gcd(&b));
        }

        #[test]
        fn mul_add_mul_agrees(a in edge_value(), b in edge_value(), c in edge_value(), d in edge_value()) {
            let got = Int::from_big(a.clone()).mul_add_mul(
                &Int::from_big(b.clone()), &Int::from_big(c.clone()), &Int::from_big(d.clone()));
            check_canonical(&got);
            prop_assert_eq!(got.to_big(), a * b + c * d);
        }

        /// The in-place pivot update against `BigInt`, on divisible sums
        /// (`d` times a value) and on others, with big and small `x` (a big
        /// `x` keeps its allocation, whatever the size of the result).
        #[test]
        fn divide_mul_add_mul_assign_agrees(
            x in edge_value(), a in edge_value(), b in edge_value(), c in edge_value(),
            (d, _) in huge_pair(), divisible in any::<bool>(),
        ) {
            prop_assume!(!d.is_zero());
            let sum = &x * &a + &b * &c;
            // shift b·c so that d divides the sum
            let b_c = if divisible { &b * &c - &sum % &d } else { &b * &c };
            let want = &x * &a + &b_c;
            let div = ExactDivisor::new(&Int::from_big(d.clone()));
            let mut got = Int::from_big(x.clone());
            let exact = div.divide_mul_add_mul_assign(
                &mut got, &Int::from_big(a), &Int::from_big(b_c), &Int::ONE);
            check_canonical(&got);
            let divides = (&want % &d).is_zero();
            prop_assert_eq!(exact, divides);
            prop_assert_eq!(got.to_big(), if divides { want / &d } else { want });
        }

        #[test]
        fn display_parse_round_trip(a in edge_value()) {
            let x = Int::from_big(a.clone());
            prop_assert_eq!(x.to_string(), a.to_string());
            prop_assert_eq!(x.to_string().parse::<Int>().unwrap(), x);
        }
    }

    #[test]
    fn word_division_edges() {
        let mut m = Int::from(i64::MIN);
        m.div_exact_word_assign(1 << 63);
        assert_eq!(m, Int::from(-1));
        let mut z = Int::ZERO;
        z.div_exact_word_assign(u64::MAX);
        assert!(z.is_zero());
        // a big value that becomes small, and -2^63 as a quotient
        let mut b = Int::from(i64::MIN) * &Int::from(3);
        b.div_exact_word_assign(3);
        check_canonical(&b);
        assert_eq!(b, Int::from(i64::MIN));
    }

    #[test]
    fn boundary_cases() {
        let min = Int::from(i64::MIN);
        assert!(min.is_small());
        let neg = -&min;
        assert!(!neg.is_small());
        assert_eq!(neg.to_big(), BigInt::from(i64::MAX) + 1);
        // back to small when the value fits again
        assert!((&neg - 1).is_small());
        assert_eq!(min.abs().to_big(), BigInt::from(i64::MAX) + 1);
        assert_eq!(min.floor_div(&Int::from(-1)), neg);
        assert_eq!(min.modulo(&Int::from(i64::MIN)), Int::ZERO);
        assert_eq!(min.gcd(&Int::ZERO), neg);
        assert_eq!(Int::from(-7).modulo(&Int::from(3)), Int::from(2));
        assert_eq!(Int::from(-7).modulo(&Int::from(-3)), Int::from(2));
        assert_eq!(Int::from(-7).floor_div(&Int::from(2)), Int::from(-4));
        assert_eq!(Int::from(-7).ceil_div(&Int::from(2)), Int::from(-3));
        assert_eq!(Int::from(7).floor_div(&Int::from(-2)), Int::from(-4));
        assert_eq!(std::mem::size_of::<Int>(), 16);
        // s·a + b·c with all four at i64::MIN: each product fits an i128, the
        // sum 2^127 does not
        let m = Int::from(i64::MIN);
        assert_eq!(
            m.mul_add_mul(&m, &m, &m).to_big(),
            BigInt::from(1) << 127u32
        );
    }
}
