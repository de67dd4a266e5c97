//! The internal working form of an SDBM: a dense potential graph over
//! `n + 1` vertices with `i128` weights.
//!
//! Vertex 0 is the extra variable of the paper's reduction to variable-bound-free
//! form (Section 3; `sdbm-notes.md`, "Reductions" 2): a variable bound
//! `x_i <= u` is the edge `x_i - v_0 <= u` and `x_i >= l` is `v_0 - x_i <= -l`.
//! Vertex `k + 1` is the variable `x_k`. Vertex 0 carries the divisor `L` (a
//! common multiple of all divisors, the maximum for a harmonic system) and the
//! remainder 0, so that the system stays harmonic. The harmonic solver treats
//! vertex 0 as a free variable (the VBF system, equisatisfiable by the shifting
//! lemma); the general solver pins it to 0 (the original system). Either way a
//! solution is reported with `v_0 = 0`, so that `v_{k+1}` is the value of `x_k`.
//!
//! Remainders are *not* shifted to zero (reduction 1 of the notes); instead the
//! GCD-tightening rule is applied with the remainder class of the difference:
//! `x_a - x_b ≡ r_a - r_b (mod gcd(m_a, m_b))`, which is the same rule seen
//! through the shift `y = x - r` and avoids rewriting (and overflowing) bounds.

use crate::arith::{add, floor_to, gcd};
use crate::{Sdbm, TooLarge};

/// Outcome of [`Work::close_tight`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Closure {
    /// A negative cycle: the system is empty.
    Empty,
    /// Path-closed and GCD-tight (a fixpoint of both rules).
    Fixpoint,
    /// The round limit was reached before a fixpoint (bounds are valid, but
    /// the matrix may be neither closed nor tight).
    Capped,
}

/// Dense potential graph with divisors; see the module documentation.
#[derive(Debug, Clone)]
pub(crate) struct Work {
    /// Number of vertices (`n_vars + 1`).
    pub(crate) n: usize,
    /// `d[a * n + b]`: bound on `v_a - v_b` (an edge `b -> a`); diagonal `Some(0)`.
    pub(crate) d: Vec<Option<i128>>,
    /// Divisor per vertex (`>= 1`).
    pub(crate) m: Vec<i128>,
    /// Remainder per vertex, in `[0, m)`.
    pub(crate) r: Vec<i128>,
}

impl Work {
    /// The working form of `s` (whose `empty` flag the caller has checked),
    /// with divisor `m0` on vertex 0.
    pub(crate) fn from_sdbm(s: &Sdbm, m0: i128) -> Work {
        let nv = s.n + 1;
        let mut d = vec![None; nv * nv];
        for a in 0..nv {
            d[a * nv + a] = Some(0);
        }
        for i in 0..s.n {
            for j in 0..s.n {
                if let Some(c) = s.diff[i * s.n + j] {
                    d[(i + 1) * nv + (j + 1)] = Some(i128::from(c));
                }
            }
            if let Some(u) = s.upper[i] {
                d[(i + 1) * nv] = Some(i128::from(u));
            }
            if let Some(l) = s.lower[i] {
                // -l is exact in i128, also for l = i64::MIN.
                d[i + 1] = Some(-i128::from(l));
            }
        }
        let mut m = Vec::with_capacity(nv);
        let mut r = Vec::with_capacity(nv);
        m.push(m0);
        r.push(0);
        for i in 0..s.n {
            m.push(i128::from(s.modulus[i]));
            r.push(i128::from(s.residue[i]));
        }
        Work { n: nv, d, m, r }
    }

    /// Bound on `v_a - v_b`.
    pub(crate) fn get(&self, a: usize, b: usize) -> Option<i128> {
        self.d[a * self.n + b]
    }

    /// Add `v_a - v_b <= c` (keeps the tighter bound).
    pub(crate) fn add_edge(&mut self, a: usize, b: usize, c: i128) {
        let slot = &mut self.d[a * self.n + b];
        match *slot {
            Some(old) if old <= c => {}
            _ => *slot = Some(c),
        }
    }

    /// Whether the divisors, sorted, form a divisibility chain.
    pub(crate) fn is_chain(&self) -> bool {
        let mut ms = self.m.clone();
        ms.sort_unstable();
        ms.windows(2).all(|w| w[1] % w[0] == 0)
    }

    /// Floyd–Warshall path closure in place (the path inference rule to a
    /// fixpoint). Returns `Ok(false)` on a negative cycle. The diagonal is
    /// checked after every pivot, so every value ever computed is a sum of two
    /// simple-path weights and cannot blow up (CLRS 25.2).
    pub(crate) fn floyd(&mut self) -> Result<bool, TooLarge> {
        let n = self.n;
        for k in 0..n {
            for a in 0..n {
                let Some(dak) = self.d[a * n + k] else {
                    continue;
                };
                for b in 0..n {
                    let Some(dkb) = self.d[k * n + b] else {
                        continue;
                    };
                    let s = add(dak, dkb)?;
                    let slot = &mut self.d[a * n + b];
                    match *slot {
                        Some(old) if old <= s => {}
                        _ => *slot = Some(s),
                    }
                }
            }
            if (0..n).any(|a| self.d[a * n + a].is_some_and(|x| x < 0)) {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// One pass of the GCD-tightening rule over all bounds: `v_a - v_b` lies in
    /// the class `r_a - r_b (mod gcd(m_a, m_b))`, so its bound can be rounded
    /// down into that class (paper Section 3.1). Returns whether a bound changed.
    pub(crate) fn gcd_tighten(&mut self) -> Result<bool, TooLarge> {
        let n = self.n;
        let mut changed = false;
        for a in 0..n {
            for b in 0..n {
                if a == b {
                    continue;
                }
                let Some(c) = self.d[a * n + b] else { continue };
                let g = gcd(self.m[a], self.m[b])?;
                if g <= 1 {
                    continue;
                }
                let t = floor_to(c, g, self.r[a] - self.r[b])?;
                if t < c {
                    self.d[a * n + b] = Some(t);
                    changed = true;
                }
            }
        }
        Ok(changed)
    }

    /// Path closure and GCD tightening, alternated until neither changes
    /// anything, a negative cycle appears, or `max_rounds` rounds were run.
    /// Both rules are sound for every SDBM; for a harmonic one the fixpoint is
    /// reached within `n` rounds (paper Theorem 3.1), so each round costs
    /// `O(n^3)` and the whole `O(n^4)`.
    pub(crate) fn close_tight(&mut self, max_rounds: usize) -> Result<Closure, TooLarge> {
        for _ in 0..max_rounds {
            if !self.floyd()? {
                return Ok(Closure::Empty);
            }
            if !self.gcd_tighten()? {
                return Ok(Closure::Fixpoint);
            }
        }
        Ok(Closure::Capped)
    }

    /// Whether the vertex values `v` satisfy every bound and congruence
    /// (used in debug assertions).
    pub(crate) fn satisfied_by(&self, v: &[i128]) -> bool {
        let n = self.n;
        // no intermediate overflows: witnesses of systems with huge constants
        // may be near the ends of i128
        for a in 0..n {
            if v[a].rem_euclid(self.m[a]) != self.r[a].rem_euclid(self.m[a]) {
                return false;
            }
            for b in 0..n {
                if let Some(c) = self.d[a * n + b] {
                    // v_a - v_b <= c  <=>  v_a <= v_b + c; an overflowing sum is
                    // above every value when c > 0 and below every value otherwise
                    let holds = match v[b].checked_add(c) {
                        Some(t) => v[a] <= t,
                        None => c > 0,
                    };
                    if !holds {
                        return false;
                    }
                }
            }
        }
        true
    }
}

/// Round limit for [`Work::close_tight`]: generous next to the `n` rounds of
/// Theorem 3.1 for harmonic systems.
pub(crate) fn round_limit(n_vertices: usize) -> usize {
    2 * n_vertices + 4
}
