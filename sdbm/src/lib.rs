//! Strided Difference Bound Matrices (SDBM) and their harmonic case (HSDBM).
//!
//! An [`Sdbm`] over the integer variables `x_0 .. x_{n-1}` is a conjunction of
//!
//! - difference constraints `x_i - x_j <= c`,
//! - variable bounds `x_i <= u` and `x_i >= l`,
//! - congruences `x_i ≡ r (mod m)`, `m >= 1`, at most one per variable (two
//!   congruences on the same variable are combined by the Chinese remainder
//!   theorem as they are added).
//!
//! It is *harmonic* (an HSDBM) when the divisors, sorted (a variable without a
//! congruence counts as divisor 1), form a divisibility chain, as tiling
//! produces (8 | 32 | 128).
//!
//! The crate offers satisfiability with a witness (a polynomial algorithm for
//! HSDBMs, a pseudo-polynomial one for general SDBMs, whose satisfiability is
//! NP-hard), canonical normal forms, and the abstract-domain operations:
//! intersection, equality, inclusion and join. It is the fast path that
//! `presburger` asks before running its simplex, and it knows nothing of
//! `presburger` (see `docs/ARCHITECTURE.md` at the root of the repository).
//!
//! Source: the paper "Strided Difference Bound Matrices". Each algorithm's
//! documentation names the section, lemma or figure it follows.
//!
//! # Arithmetic and the `TooLarge` contract
//!
//! Constants are `i64`; the variables range over all integers (not only
//! `i64`). Internally constants are widened to `i128`, so that sums of a few
//! constants, `u - l` and `-i64::MIN` are exact, and every operation is still
//! checked. Whenever an operation would overflow, a result (a witness
//! coordinate, a bound of a normal form or of a join, a combined divisor) does
//! not fit in `i64`, or a pseudo-polynomial algorithm would exceed its work
//! budget ([`STEP_LIMIT`] steps), the operation returns `Err(TooLarge)` so that
//! the caller can fall back to another solver. It never returns a wrong answer
//! and never panics on any constants, including `i64::MIN` and `i64::MAX`.
//! The only panics are documented misuse: a variable index `>= n_vars()`, a
//! point of the wrong length, or two systems of different dimensions.
//!
//! # Example
//!
//! ```
//! use presburger_sdbm::Sdbm;
//! // 0 <= x0 <= 10, x1 - x0 <= -1, x0 ≡ 0 (mod 4), x1 ≡ 1 (mod 8)
//! let mut s = Sdbm::new(2);
//! s.add_lower(0, 0);
//! s.add_upper(0, 10);
//! s.add_difference(1, 0, -1);
//! s.add_congruence(0, 4, 0).unwrap();
//! s.add_congruence(1, 8, 1).unwrap();
//! assert!(s.is_harmonic());
//! let x = s.solve().unwrap().unwrap();
//! assert!(s.contains(&x));
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod arith;
mod general;
mod harmonic;
mod normal;
mod work;

use std::fmt;

pub use general::STEP_LIMIT;

use arith::{crt, lcm, to_i64};
use work::Work;

/// The operation would overflow, or exceed its work budget: answer with
/// another solver. Never a statement about the set itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooLarge;

impl fmt::Display for TooLarge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "SDBM constants or divisors too large for checked machine arithmetic \
             (or the pseudo-polynomial work budget was exceeded); use another solver",
        )
    }
}

impl std::error::Error for TooLarge {}

/// A strided difference bound matrix: difference constraints, variable bounds
/// and one congruence per variable over `n` integer variables.
///
/// Structural equality (`==`) compares the constraints as written; two systems
/// with the same solution set have equal [`normalize`](Sdbm::normalize)d forms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sdbm {
    n: usize,
    /// `diff[i * n + j]`: bound on `x_i - x_j`; the diagonal is always `None`.
    diff: Vec<Option<i64>>,
    upper: Vec<Option<i64>>,
    lower: Vec<Option<i64>>,
    /// Divisor `>= 1` per variable (1: no congruence).
    modulus: Vec<i64>,
    /// Remainder in `[0, modulus)`.
    residue: Vec<i64>,
    /// Known to be empty (contradictory congruences, `x_i - x_i <= c < 0`).
    empty: bool,
}

impl Sdbm {
    /// The system over `n` variables without constraints (all of `Z^n`).
    pub fn new(n: usize) -> Sdbm {
        Sdbm {
            n,
            diff: vec![None; n * n],
            upper: vec![None; n],
            lower: vec![None; n],
            modulus: vec![1; n],
            residue: vec![0; n],
            empty: false,
        }
    }

    /// The canonical empty system over `n` variables (what [`join`](Sdbm::join)
    /// returns for two empty inputs).
    pub fn empty(n: usize) -> Sdbm {
        let mut s = Sdbm::new(n);
        s.empty = true;
        s
    }

    /// Number of variables.
    pub fn n_vars(&self) -> usize {
        self.n
    }

    fn check_var(&self, i: usize) {
        assert!(
            i < self.n,
            "sdbm: variable index {i} out of range (n = {})",
            self.n
        );
    }

    /// Add `x_i - x_j <= c` (kept if tighter than the existing bound). For
    /// `i == j` the constraint is `0 <= c`: a negative `c` makes the system
    /// empty, otherwise it is ignored.
    ///
    /// # Panics
    /// If `i` or `j` is not below [`n_vars`](Sdbm::n_vars).
    pub fn add_difference(&mut self, i: usize, j: usize, c: i64) {
        self.check_var(i);
        self.check_var(j);
        if i == j {
            if c < 0 {
                self.empty = true;
            }
            return;
        }
        let slot = &mut self.diff[i * self.n + j];
        *slot = Some(slot.map_or(c, |old| old.min(c)));
    }

    /// Add `x_i <= c`.
    ///
    /// # Panics
    /// If `i` is not below [`n_vars`](Sdbm::n_vars).
    pub fn add_upper(&mut self, i: usize, c: i64) {
        self.check_var(i);
        let slot = &mut self.upper[i];
        *slot = Some(slot.map_or(c, |old| old.min(c)));
    }

    /// Add `x_i >= c`.
    ///
    /// # Panics
    /// If `i` is not below [`n_vars`](Sdbm::n_vars).
    pub fn add_lower(&mut self, i: usize, c: i64) {
        self.check_var(i);
        let slot = &mut self.lower[i];
        *slot = Some(slot.map_or(c, |old| old.max(c)));
    }

    /// Add `x_i ≡ r (mod m)`, combined with an existing congruence on `x_i` by
    /// the Chinese remainder theorem; incompatible congruences make the system
    /// empty. `m = 1` adds nothing; a negative `m` means `|m|`; `m = 0` means
    /// `x_i = r` (added as two bounds).
    ///
    /// Returns `Err(TooLarge)` (and leaves the system unchanged) if the combined
    /// divisor does not fit in `i64`, or for `m = i64::MIN`.
    ///
    /// # Panics
    /// If `i` is not below [`n_vars`](Sdbm::n_vars).
    pub fn add_congruence(&mut self, i: usize, m: i64, r: i64) -> Result<(), TooLarge> {
        self.check_var(i);
        if m == 0 {
            self.add_upper(i, r);
            self.add_lower(i, r);
            return Ok(());
        }
        let m = m.checked_abs().ok_or(TooLarge)?;
        let old = (i128::from(self.modulus[i]), i128::from(self.residue[i]));
        match crt(old.0, old.1, i128::from(m), i128::from(r))? {
            None => self.empty = true,
            Some((nm, nr)) => {
                let nm = to_i64(nm)?;
                self.modulus[i] = nm;
                self.residue[i] = to_i64(nr)?;
            }
        }
        Ok(())
    }

    /// The bound on `x_i - x_j`, if any (`None` for `i == j`).
    ///
    /// # Panics
    /// If `i` or `j` is not below [`n_vars`](Sdbm::n_vars).
    pub fn difference(&self, i: usize, j: usize) -> Option<i64> {
        self.check_var(i);
        self.check_var(j);
        self.diff[i * self.n + j]
    }

    /// The upper bound on `x_i`, if any.
    ///
    /// # Panics
    /// If `i` is not below [`n_vars`](Sdbm::n_vars).
    pub fn upper(&self, i: usize) -> Option<i64> {
        self.check_var(i);
        self.upper[i]
    }

    /// The lower bound on `x_i`, if any.
    ///
    /// # Panics
    /// If `i` is not below [`n_vars`](Sdbm::n_vars).
    pub fn lower(&self, i: usize) -> Option<i64> {
        self.check_var(i);
        self.lower[i]
    }

    /// The congruence `(m, r)` on `x_i`: `x_i ≡ r (mod m)` with `0 <= r < m`
    /// (`(1, 0)` when there is none).
    ///
    /// # Panics
    /// If `i` is not below [`n_vars`](Sdbm::n_vars).
    pub fn congruence(&self, i: usize) -> (i64, i64) {
        self.check_var(i);
        (self.modulus[i], self.residue[i])
    }

    /// Whether the constraints as written are already known to be contradictory
    /// (incompatible congruences or `x_i - x_i <= c < 0`). `false` does not
    /// mean non-empty: use [`is_empty`](Sdbm::is_empty).
    pub fn is_trivially_empty(&self) -> bool {
        self.empty
    }

    /// Whether there is no variable bound (the system is variable-bound-free).
    pub fn is_variable_bound_free(&self) -> bool {
        self.upper.iter().chain(&self.lower).all(Option::is_none)
    }

    /// Whether the divisors, sorted (1 for a variable without congruence),
    /// form a divisibility chain `m_1 | m_2 | … | m_n` (an HSDBM).
    pub fn is_harmonic(&self) -> bool {
        let mut ms = self.modulus.clone();
        ms.sort_unstable();
        ms.windows(2).all(|w| w[1] % w[0] == 0)
    }

    /// Whether `point` satisfies every constraint (exact, no overflow).
    ///
    /// # Panics
    /// If `point.len() != n_vars()`.
    pub fn contains(&self, point: &[i64]) -> bool {
        assert_eq!(
            point.len(),
            self.n,
            "sdbm: point of length {} for {} variables",
            point.len(),
            self.n
        );
        if self.empty {
            return false;
        }
        for (i, &x) in point.iter().enumerate() {
            if self.upper[i].is_some_and(|u| x > u) || self.lower[i].is_some_and(|l| x < l) {
                return false;
            }
            let (m, r) = (i128::from(self.modulus[i]), i128::from(self.residue[i]));
            if (i128::from(x) - r).rem_euclid(m) != 0 {
                return false;
            }
            let row = &self.diff[i * self.n..(i + 1) * self.n];
            for (&y, c) in point.iter().zip(row) {
                if c.is_some_and(|c| i128::from(x) - i128::from(y) > i128::from(c)) {
                    return false;
                }
            }
        }
        true
    }

    /// Least common multiple of all divisors (`i128`, checked).
    pub(crate) fn lcm_moduli(&self) -> Result<i128, TooLarge> {
        let mut l: i128 = 1;
        for &m in &self.modulus {
            l = lcm(l, i128::from(m))?;
        }
        Ok(l)
    }

    /// The working graph of this (non-trivially-empty) system, vertex 0 with
    /// divisor `L` = lcm of all divisors (the maximum for an HSDBM).
    pub(crate) fn work(&self) -> Result<Work, TooLarge> {
        Ok(Work::from_sdbm(self, self.lcm_moduli()?))
    }

    /// Turn vertex values (`v_0 = 0`) into a point, checking that it fits.
    fn point_of(&self, v: &[i128]) -> Result<Vec<i64>, TooLarge> {
        debug_assert_eq!(v.first(), Some(&0));
        let x = v[1..]
            .iter()
            .map(|&a| to_i64(a))
            .collect::<Result<Vec<_>, _>>()?;
        debug_assert!(
            self.contains(&x),
            "sdbm: witness {x:?} does not satisfy {self:?}"
        );
        Ok(x)
    }

    /// Satisfiability with a witness: `Ok(None)` if empty, `Ok(Some(x))` with
    /// `contains(&x)` otherwise. Uses [`solve_harmonic`](Sdbm::solve_harmonic)
    /// on harmonic systems and [`solve_general`](Sdbm::solve_general) otherwise.
    pub fn solve(&self) -> Result<Option<Vec<i64>>, TooLarge> {
        if self.is_harmonic() {
            self.solve_harmonic()
        } else {
            self.solve_general()
        }
    }

    /// Satisfiability of a harmonic system in `O(n^4)` time (plus `O(n^2)` for
    /// the witness).
    ///
    /// Algorithm (paper Section 3.2, `SolveHSDBM`; Lemma 6, Corollary 4,
    /// Theorem 3.1; `sdbm-notes.md` "HSDBM satisfiability"): reduce to the
    /// variable-bound-free form with an extra variable of divisor
    /// `L = max m_i` (the chain is kept), alternate Floyd–Warshall path closure
    /// and GCD tightening (`x_i - x_j ≤ c` rounded down into the class of
    /// `r_i - r_j` modulo `gcd(m_i, m_j)`) to a fixpoint; a negative cycle
    /// means empty. Otherwise build the witness from the largest divisor down:
    /// the bounds towards the variables already fixed give an interval whose
    /// endpoints are admissible (HSDBM projection lemma); take its largest
    /// admissible value (preferring one that fits in `i64`).
    ///
    /// On a system that is not harmonic this simply returns
    /// [`solve_general`](Sdbm::solve_general)'s answer (the harmonic fixpoint
    /// would not be a decision procedure there).
    pub fn solve_harmonic(&self) -> Result<Option<Vec<i64>>, TooLarge> {
        if self.empty {
            return Ok(None);
        }
        if !self.is_harmonic() {
            return self.solve_general();
        }
        match solve_work(&self.work()?, true, None)? {
            None => Ok(None),
            Some(v) => self.point_of(&v).map(Some),
        }
    }

    /// Satisfiability of any SDBM, pseudo-polynomial in `L` = lcm of the divisors.
    ///
    /// Algorithm (paper Section 3.3, `SolveSDBM`; Lemmas 8 and 9;
    /// `sdbm-notes.md` "General SDBM satisfiability"): take an integral point
    /// `z` of the inequalities (shortest-path potentials), bound every variable
    /// to `|x_i - z_i| ≤ (n+1)·L` (proximity: if a solution exists, one is that
    /// close), then lower the upper bounds with a worklist — round `u_i` down
    /// into the class of `x_i`, and `u_i := min(u_i, u_j + c)` for every
    /// `x_i - x_j ≤ c` — until a fixpoint (`x = u` is a solution) or some
    /// `u_i < l_i` (empty). Path closure + GCD tightening (at most `2n + 6`
    /// rounds of `O(n^3)`) run first: both rules are sound, they catch most
    /// empty systems early and shrink the box.
    ///
    /// Cost `O(n^3 · L)`; more than [`STEP_LIMIT`] relaxations give
    /// `Err(TooLarge)`.
    pub fn solve_general(&self) -> Result<Option<Vec<i64>>, TooLarge> {
        if self.empty {
            return Ok(None);
        }
        match general::solve(self.work()?, None)? {
            None => Ok(None),
            Some(v) => self.point_of(&v).map(Some),
        }
    }

    /// Whether the solution set is empty (via [`solve`](Sdbm::solve)).
    pub fn is_empty(&self) -> Result<bool, TooLarge> {
        Ok(self.solve()?.is_none())
    }

    /// The canonical normal form: `Ok(None)` if the system is empty, otherwise
    /// the system with the same solution set `S` in which
    ///
    /// - every bound (all `n(n-1)` differences, all upper and lower bounds) is
    ///   the tightest valid one, `max` over `S`, and is absent exactly when `S`
    ///   is unbounded in that direction (inequality-normalized);
    /// - every variable carries its sparsest valid congruence: the divisor is
    ///   the gcd of the differences of the values `x_i` takes in `S`, the
    ///   remainder is reduced into `[0, m)` (congruence-normalized); a variable
    ///   that takes a single value gets the canonical `(1, 0)`.
    ///
    /// Each part depends only on `S`, so two systems with the same solution set
    /// have `==` normal forms; this holds for every SDBM, harmonic or not.
    ///
    /// Algorithm (paper Section 4; `sdbm-notes.md` "Normal forms"):
    /// path closure + GCD tightening give valid upper estimates (and decide
    /// boundedness: a missing path means unbounded, since `w + kL·1_R` stays a
    /// solution for the set `R` of variables reachable from `x_i`); every
    /// witness met gives a lower estimate; the tightest bound in between is
    /// found by binary search, one satisfiability check per step, the upper
    /// estimate probed first (it is exact for the variable bounds of an HSDBM,
    /// Lemma 10). For the congruence of `x_i`: start from a known multiple
    /// `D` of the sparsest divisor (`u_i - l_i` for a bounded variable, `L`
    /// otherwise), reduce it by the gcd with every witness, and ask the general
    /// solver for a solution with `x_i ≢ w_i (mod D)`; none means `D` is the
    /// divisor, one (`v`) means `D := gcd(D, v_i - w_i)`, at least halving it.
    ///
    /// Cost: `O(n^2 log(range))` satisfiability checks for the bounds (harmonic
    /// checks for an HSDBM) plus `O(n log D)` general checks for the
    /// congruences. This differs from the paper's Theorem 4.1 (one HSDBM check
    /// per variable, from the largest divisor down): the gcd refinement is
    /// exact for every SDBM and needs no harmonic-specific case analysis, at the
    /// price of pseudo-polynomial congruence checks.
    pub fn normalize(&self) -> Result<Option<Sdbm>, TooLarge> {
        normal::normalize(self)
    }

    /// Intersection: the tighter bound of each pair, congruences combined by
    /// the Chinese remainder theorem (the result may leave the harmonic class,
    /// or be empty). Paper Section 5.0.1.
    ///
    /// # Panics
    /// If the two systems have different numbers of variables.
    pub fn intersect(&self, other: &Sdbm) -> Result<Sdbm, TooLarge> {
        assert_eq!(
            self.n, other.n,
            "sdbm: intersect of systems over {} and {} variables",
            self.n, other.n
        );
        let mut s = self.clone();
        s.empty |= other.empty;
        for i in 0..self.n {
            for j in 0..self.n {
                if let Some(c) = other.diff[i * self.n + j] {
                    s.add_difference(i, j, c);
                }
            }
            if let Some(u) = other.upper[i] {
                s.add_upper(i, u);
            }
            if let Some(l) = other.lower[i] {
                s.add_lower(i, l);
            }
            s.add_congruence(i, other.modulus[i], other.residue[i])?;
        }
        Ok(s)
    }

    /// Whether both systems have the same solution set: their normal forms are
    /// equal (paper Section 5.0.2).
    ///
    /// # Panics
    /// If the two systems have different numbers of variables.
    pub fn is_equal(&self, other: &Sdbm) -> Result<bool, TooLarge> {
        assert_eq!(
            self.n, other.n,
            "sdbm: is_equal of systems over {} and {} variables",
            self.n, other.n
        );
        Ok(self.normalize()? == other.normalize()?)
    }

    /// Whether the solution set of `self` is included in that of `other`:
    /// `A ⊆ B` iff `A ∩ B = A` (paper Section 5.0.3).
    ///
    /// # Panics
    /// If the two systems have different numbers of variables.
    pub fn is_subset(&self, other: &Sdbm) -> Result<bool, TooLarge> {
        self.intersect(other)?.is_equal(self)
    }

    /// Join: the smallest SDBM whose solution set contains both. Both inputs
    /// are normalized; then each bound is the looser of the two (absent if
    /// either is absent), and per variable `x ≡ r1 (mod m1)` or
    /// `x ≡ r2 (mod m2)` joins to `x ≡ r1 (mod gcd(m1, m2, r1 - r2))`, where a
    /// variable fixed to a value `v` counts as `x ≡ v (mod 0)`. The result is
    /// itself in normal form. The join with an empty system is the other
    /// system's normal form; two empty inputs give [`Sdbm::empty`].
    /// Paper Section 5.0.4.
    ///
    /// # Panics
    /// If the two systems have different numbers of variables.
    pub fn join(&self, other: &Sdbm) -> Result<Sdbm, TooLarge> {
        assert_eq!(
            self.n, other.n,
            "sdbm: join of systems over {} and {} variables",
            self.n, other.n
        );
        normal::join(self, other)
    }

    /// `true` if the harmonic closure (path closure + GCD tightening on the
    /// variable-bound-free form, to a fixpoint) finds no contradiction. For an
    /// HSDBM this decides non-emptiness; for a general SDBM it may say `true`
    /// on an empty system (the paper's example 1). Test helper.
    #[cfg(test)]
    pub(crate) fn harmonic_fixpoint_nonempty(&self) -> Result<bool, TooLarge> {
        if self.empty {
            return Ok(false);
        }
        let mut w = self.work()?;
        match w.close_tight(work::round_limit(w.n))? {
            work::Closure::Empty => Ok(false),
            work::Closure::Fixpoint => Ok(true),
            work::Closure::Capped => panic!("no fixpoint within the round limit"),
        }
    }
}

/// Solve a working graph: the harmonic algorithm when asked (and no exclusion),
/// the general one otherwise. Vertex values with `v_0 = 0`.
pub(crate) fn solve_work(
    w: &Work,
    harmonic: bool,
    excl: Option<general::Exclusion>,
) -> Result<Option<Vec<i128>>, TooLarge> {
    if harmonic && excl.is_none() {
        match harmonic::solve(w.clone())? {
            harmonic::Outcome::Empty => return Ok(None),
            harmonic::Outcome::Solution(v) => return Ok(Some(v)),
            harmonic::Outcome::Fallback => {
                debug_assert!(
                    !w.is_chain(),
                    "sdbm: harmonic algorithm failed on a harmonic system"
                );
            }
        }
    }
    general::solve(w.clone(), excl)
}

#[cfg(test)]
mod tests;
