//! Generalized basis reduction: a basis of the integer lattice in which a
//! bounded polyhedron is thin along the first directions.
//!
//! For a polyhedron `P` and a lattice basis `b_1, .., b_k`, the *generalized
//! width* of a direction `x` after the first `i - 1` basis vectors is
//! `F_i(x) = max { x·(u - v) : u, v in P, b_j·(u - v) = 0 for j < i }`:
//! the width of `P` along `x` once the earlier directions are held fixed. A basis
//! is *reduced* (Lovász and Scarf, "The generalized basis reduction algorithm",
//! Math. of Operations Research 17(3), 1992) when for each `i`
//! 1. `F_i(b_{i+1} + μ b_i) >= F_i(b_{i+1})` for every integer `μ`, and
//! 2. `F_i(b_{i+1}) >= (1 - ε) F_i(b_i)` with `0 < ε < 1/2`.
//!
//! Only `ε < 1/2` bounds `F_i(b_i)` against the narrowest direction: at
//! `ε = 1/2` a pair `F_i(b_i) = W`, `F_i(b_{i+1}) = W/2` counts as reduced
//! while `b_i - 2b_{i+1}` may have width far below 1, and the search then
//! enumerates `W` values of `b_i` on an integer-empty set. Here `ε = 1/4`
//! when `F_{i+1}(b_{i+1}) < 1` and `ε = 1/2` (fewer swaps, each a few LPs)
//! otherwise, which loses no such direction: for `q != 0`,
//! `F_i(p b_i + q b_{i+1}) >= |q| F_{i+1}(b_{i+1})` (on the pairs `u, v` that
//! define `F_{i+1}`, the first term contributes nothing), so when
//! `F_{i+1}(b_{i+1}) >= 1` no direction in the plane of the pair other than
//! `b_i` spans less than one value. Either way each swap shrinks a width by
//! a quarter at least, so the reduction ends.
//!
//! The algorithm alternates the two repairs: replace `b_{i+1}` by
//! `b_{i+1} + μ b_i` with the best integer `μ` next to the LP multiplier of the
//! constraint `b_i·(u - v) = 0` in the problem that defines `F_{i+1}(b_{i+1})`
//! (by duality `F_{i+1}(b_{i+1}) = min_α F_i(b_{i+1} + α b_i)`, attained at that
//! multiplier); then swap `b_i` and `b_{i+1}` when condition 2 fails and step
//! back, else move on. Every `F` is one LP on a tableau holding two copies `u`
//! and `v` of `P`; the constraints `b_j·(u - v) = 0` are added and removed with
//! snapshots as `i` moves. The implementation follows the description in Cook,
//! Rutherford, Scarf and Shallcross, "An implementation of the generalized basis
//! reduction algorithm for integer programming", ORSA J. on Computing 5(2), 1993.
//!
//! Work: a few budget steps per round plus the pivot work of the doubled tableau
//! ([`Simplex::work`]).
//!
//! The reduction stops early once `F_level(b_level) < 1`: the sampler then has at
//! most one value to try for that direction, and on very thin bodies the full
//! reduction would go on shrinking sub-unit widths one swap at a time. For the
//! same reason a later direction of width below 1 is never swapped (condition
//! 2 is taken as met): a reduced basis in the sense above is then not always
//! reached, but every direction the search branches on over more than one
//! value is.
//!
//! The integer sampler ([`crate::solver::sample`]) branches on the values of
//! `b_1·x`; after reduction that direction spans few integer values, which is
//! what keeps the search small on thin sets (Lenstra's idea: H. W. Lenstra,
//! "Integer programming with a fixed number of variables", Math. of OR 8(4), 1983).

use crate::error::Result;
use crate::int::Int;
use crate::solver::budget::Budget;
use crate::solver::simplex::{LpValue, Rational, Simplex};

/// The polyhedron `P` given as rows over `d` variables (constant first;
/// inequalities `row·(1,x) >= 0` and equalities `row·(1,x) = 0`), and a basis of
/// directions over its first `k` variables (`basis[j]` has `k` entries); `P` must
/// be bounded along each of them. Reduces `basis[level..]` in place (a
/// unimodular change: the vectors stay a basis of the same lattice). True when
/// the reduction ran to the end (every `basis[i]`, `i >= level`, is reduced);
/// false when it stopped early (a first width below 1, an unbounded or empty
/// problem).
pub(crate) fn reduce(
    ineqs: &[Vec<Int>],
    eqs: &[Vec<Int>],
    d: usize,
    basis: &mut [Vec<Int>],
    level: usize,
    budget: &mut Budget,
) -> Result<bool> {
    let k = basis.len();
    if level + 1 >= k {
        return Ok(true);
    }
    let mut g = Simplex::new(2 * d);
    for (rows, is_eq) in [(ineqs, false), (eqs, true)] {
        for r in rows {
            for copy in 0..2 {
                let mut row = vec![Int::ZERO; 1 + 2 * d];
                row[0] = r[0].clone();
                row[1 + copy * d..1 + copy * d + d].clone_from_slice(&r[1..]);
                if is_eq {
                    g.add_eq(&row);
                } else {
                    g.add_ineq(&row);
                }
            }
        }
    }
    if g.is_empty() {
        return Ok(false);
    }
    // `b·(u - v)` as a row over (1, u, v)
    let diff = |b: &[Int]| -> Vec<Int> {
        let mut row = vec![Int::ZERO; 1 + 2 * d];
        for (j, c) in b.iter().enumerate() {
            row[1 + j] = c.clone();
            row[1 + d + j] = -c;
        }
        row
    };
    let width = |g: &mut Simplex, b: &[Int]| -> Option<Rational> {
        match g.max_value(&diff(b)) {
            LpValue::Optimum(value) => Some(value),
            _ => None,
        }
    };
    let mut fixed = Vec::new(); // snapshots before the equality of b_level.. b_{i-1}
    let mut i = level;
    let mut paid = 0; // pivot work of `g` charged so far

    // F_i(b_i) when already known from the round before: after a step forward
    // it is the F_{i+1}(b_{i+1}) of that round (the new equality is the one that
    // problem had), after a swap without a step back the width of the new b_i
    let mut known: Option<Rational> = None;
    while i + 1 < k {
        budget.spend(4 + (g.work() - paid) as usize)?;
        paid = g.work();
        let f_i = match known.take() {
            Some(f) => f,
            None => match width(&mut g, &basis[i]) {
                Some(f) => f,
                None => return Ok(false), // not bounded along b_i: leave the basis as it is
            },
        };
        if i == level && f_i < Rational::from(Int::ONE) {
            // The first direction spans at most one integer value: that is all the
            // search needs from this level (on thin bodies, going on would shrink
            // widths far below 1 one swap at a time).
            return Ok(false);
        }
        // F_{i+1}(b_{i+1}) and the multiplier of b_i·(u - v) = 0
        let snap = g.snapshot();
        let id = g.n_con();
        g.add_eq(&diff(&basis[i]));
        let (res, duals) = g.max_value_with_duals(&diff(&basis[i + 1]), &[id]);
        g.rollback(snap);
        let LpValue::Optimum(f_next) = res else {
            return Ok(false);
        };
        // F_{i+1}(b_{i+1}) = F_i(b_{i+1} - dual·b_i)
        let alpha = Rational::new(-&duals[0].num, duals[0].den.clone());
        let (lo, hi) = (alpha.floor(), alpha.ceil());
        let mut best: Option<(Int, Rational)> = None;
        for mu in [lo, hi] {
            if best.as_ref().is_some_and(|(m, _)| *m == mu) {
                continue;
            }
            let cand: Vec<Int> = basis[i + 1]
                .iter()
                .zip(&basis[i])
                .map(|(a, b)| a + &(&mu * b))
                .collect();
            if let Some(w) = width(&mut g, &cand) {
                if best.as_ref().is_none_or(|(_, bw)| w < *bw) {
                    best = Some((mu, w));
                }
            }
        }
        let Some((mu, f_i1)) = best else {
            return Ok(false);
        };
        if !mu.is_zero() {
            let bi = basis[i].clone();
            for (a, b) in basis[i + 1].iter_mut().zip(&bi) {
                *a += &mu * b;
            }
        }
        // condition 2: F_i(b_{i+1}) >= (1 - ε) F_i(b_i), else swap and step
        // back; ε = 1/4 when the plane of the pair may hold a direction of
        // width below 1, that is when F_{i+1}(b_{i+1}) < 1 (module comment).
        // A direction of width below 1 already spans at most one integer value
        // at every node of the search below the earlier directions, so making
        // it narrower cannot shrink the search: condition 2 counts as met there.
        // (On thin bodies with big coefficients, shrinking sub-unit widths goes
        // on for dozens of rounds, each a few LPs on a tableau of big entries.)
        let (num, den) = if f_next < Rational::from(Int::ONE) {
            // 4 F_i(b_{i+1}) < 3 F_i(b_i)
            (4, 3)
        } else {
            // 2 F_i(b_{i+1}) < F_i(b_i)
            (2, 1)
        };
        let lhs = Rational::new(&f_i1.num * &Int::from(num), f_i1.den.clone());
        let rhs = Rational::new(&f_i.num * &Int::from(den), f_i.den.clone());
        if lhs < rhs && f_i >= Rational::from(Int::ONE) {
            basis.swap(i, i + 1);
            if i > level {
                i -= 1;
                if let Some(s) = fixed.pop() {
                    g.rollback(s);
                }
            } else {
                known = Some(f_i1);
            }
        } else {
            fixed.push(g.snapshot());
            g.add_eq(&diff(&basis[i]));
            i += 1;
            known = Some(f_next);
        }
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::simplex::LpResult;

    fn ints(v: &[i64]) -> Vec<Int> {
        v.iter().map(|&x| Int::from(x)).collect()
    }

    fn width(ineqs: &[Vec<Int>], b: &[Int]) -> Rational {
        let mut s = Simplex::new(b.len());
        for r in ineqs {
            s.add_ineq(r);
        }
        let mut o = vec![Int::ZERO];
        o.extend(b.iter().cloned());
        let LpResult::Optimum { value: hi, .. } = s.maximize(&o) else {
            panic!()
        };
        let LpResult::Optimum { value: lo, .. } = s.minimize(&o) else {
            panic!()
        };
        Rational::new(&hi.num * &lo.den - &lo.num * &hi.den, &hi.den * &lo.den)
    }

    /// A thin strip along (1000, 999): the reduced first direction is narrow, and
    /// the basis stays unimodular.
    #[test]
    fn thin_wedge_gets_a_thin_direction() {
        // 0 <= 999x - 1000y <= 2, 0 <= x <= 10^6
        let ineqs = vec![
            ints(&[0, 999, -1000]),
            ints(&[2, -999, 1000]),
            ints(&[0, 1, 0]),
            ints(&[1_000_000, -1, 0]),
        ];
        let mut basis = vec![ints(&[1, 0]), ints(&[0, 1])];
        let before = width(&ineqs, &basis[0]);
        reduce(&ineqs, &[], 2, &mut basis, 0, &mut Budget::default()).unwrap();
        let after = width(&ineqs, &basis[0]);
        assert!(after < before, "{after} !< {before}");
        assert!(after <= Rational::from(Int::from(3)), "width {after}");
        let det = &basis[0][0] * &basis[1][1] - &basis[0][1] * &basis[1][0];
        assert!(det == Int::ONE || det == Int::from(-1));
    }
    /// A pair with `F(b_2)` half of `F(b_1)` while `b_1 - 2b_2` (that is,
    /// `-2u + 5w`) is far thinner than 1: the swap condition with `ε = 1/2` takes the pair
    /// as reduced (and the sampler enumerated the 4,000 values of `w`); as
    /// `F_2(b_2) < 1`, the reduction takes `ε = 1/4` and goes on to the thin
    /// direction.
    #[test]
    fn half_width_pair_is_not_taken_as_reduced() {
        // 1.00000004 <= -2u + 5w <= 1.00000009, 0 <= w <= 4000
        let ineqs = vec![
            ints(&[-100_000_004, -200_000_000, 500_000_000]),
            ints(&[100_000_009, 200_000_000, -500_000_000]),
            ints(&[0, 0, 1]),
            ints(&[4000, 0, -1]),
        ];
        let mut basis = vec![ints(&[0, 1]), ints(&[1, -2])];
        assert_eq!(width(&ineqs, &basis[0]), Rational::from(Int::from(4000)));
        reduce(&ineqs, &[], 2, &mut basis, 0, &mut Budget::default()).unwrap();
        let after = width(&ineqs, &basis[0]);
        assert!(after < Rational::from(Int::ONE), "width {after}");
    }
}
