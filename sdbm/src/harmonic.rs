//! Satisfiability of harmonic SDBMs in polynomial time.
//!
//! Source: "Strided Difference Bound Matrices", Section 3.2 (Lemma 6, the
//! HSDBM projection lemma; Corollary 4; Theorem 3.1 and `SolveHSDBM` in
//! Figure 1).
//!
//! Idea: on the variable-bound-free form (vertex 0 free, divisor `L = max m_i`),
//! alternate Floyd–Warshall path closure and GCD tightening until a fixpoint
//! or a negative cycle. A negative cycle means empty. A path-closed, GCD-tight
//! harmonic system is non-empty, and a solution is built one variable at a
//! time from the largest divisor down: the constraints towards the variables
//! already fixed give an interval whose finite endpoints are in the variable's
//! remainder class (projection lemma for suffixes of the divisor chain), so the
//! largest admissible value below the upper end is always inside.
//!
//! Cost: `O(n^3)` per round, at most `n` rounds to the fixpoint: `O(n^4)`;
//! the witness costs `O(n^2)`.

use crate::TooLarge;
use crate::arith::{ceil_to, floor_to, modulo};
use crate::work::{Closure, Work, round_limit};

/// Result of the harmonic algorithm.
#[derive(Debug)]
pub(crate) enum Outcome {
    /// A negative cycle: empty.
    Empty,
    /// Vertex values with `v_0 = 0` (so `v_{k+1}` is `x_k`).
    Solution(Vec<i128>),
    /// The theory's guarantees did not hold (the system was not harmonic, or
    /// the round limit was hit): the caller must use the general algorithm.
    Fallback,
}

/// Run the harmonic algorithm on `w` (vertex 0 must carry the largest divisor).
pub(crate) fn solve(mut w: Work) -> Result<Outcome, TooLarge> {
    let nv = w.n;
    if !w.is_chain() {
        return Ok(Outcome::Fallback);
    }
    match w.close_tight(round_limit(nv))? {
        Closure::Empty => return Ok(Outcome::Empty),
        Closure::Capped => return Ok(Outcome::Fallback),
        Closure::Fixpoint => {}
    }
    // Vertex 0 first (it has the largest divisor), then by divisor, largest
    // first; ties in any order (equal divisors still form a chain).
    let mut order: Vec<usize> = (1..nv).collect();
    order.sort_by(|&a, &b| w.m[b].cmp(&w.m[a]));
    order.insert(0, 0);
    let mut val = vec![0i128; nv];
    let mut fixed = vec![false; nv];
    for &k in &order {
        let mut lo: Option<i128> = None;
        let mut hi: Option<i128> = None;
        for a in 0..nv {
            if !fixed[a] {
                continue;
            }
            // v_a - v_k <= c  =>  v_k >= v_a - c
            if let Some(c) = w.get(a, k) {
                let t = val[a].checked_sub(c).ok_or(TooLarge)?;
                lo = Some(lo.map_or(t, |x| x.max(t)));
            }
            // v_k - v_a <= c  =>  v_k <= v_a + c
            if let Some(c) = w.get(k, a) {
                let t = val[a].checked_add(c).ok_or(TooLarge)?;
                hi = Some(hi.map_or(t, |x| x.min(t)));
            }
        }
        let (m, r) = (w.m[k], w.r[k]);
        // Any admissible value of the interval extends (Lemma 6); prefer one
        // that fits in i64, so that the witness can be reported.
        let (small, big) = (i128::from(i64::MIN), i128::from(i64::MAX));
        let v = match (lo, hi) {
            (_, Some(h)) => {
                let v = floor_to(h.min(big), m, r)?;
                if lo.is_some_and(|l| v < l) {
                    floor_to(h, m, r)?
                } else {
                    v
                }
            }
            (Some(l), None) => ceil_to(l.max(small), m, r)?,
            (None, None) => modulo(r, m),
        };
        if lo.is_some_and(|l| v < l) {
            return Ok(Outcome::Fallback);
        }
        val[k] = v;
        fixed[k] = true;
    }
    debug_assert_eq!(val[0], 0);
    debug_assert!(w.satisfied_by(&val));
    Ok(Outcome::Solution(val))
}
