//! Simplification with respect to the set itself and to a context: implicit
//! equalities, redundant constraints, needless existentials, and `gist`.
//!
//! - `detect_equalities`: inequalities that hold with equality at every rational
//!   point (found by the exact simplex) become equalities; rational implicit
//!   equalities are integer ones too.
//! - `simplify_full`: implicit equalities, removal of the locals the set does
//!   not need (`Conjunction::simplify_locals`: exact eliminations, divisions
//!   bounded with coefficient ±1 written out, locals in equalities only
//!   reduced as a lattice (Hermite normal form and Bézout), locals whose
//!   constraints the others make redundant by an exact inclusion test),
//!   redundant inequalities, and empty conjunctions.
//! - `gist(S, C)` (isl's gist): the universe when `C` is empty or inside `S`;
//!   otherwise drops the conjunctions of `S` disjoint from `C`, and from each
//!   other conjunction every constraint that the context `C` and the
//!   remaining constraints imply, then the factors of strides that they
//!   imply, so that `gist(S, C) ∩ C = S ∩ C`, no piece of the gist lies
//!   outside `C`, and `gist(S, C)` is usually much shorter. A constraint `c` is implied when
//!   `C ∩ rest ∩ not c` has no integer point (decided exactly, by the
//!   disjointness test of [`crate::algebra`] with the context). One budget per
//!   call, shared by all these tests (`gist_with_budget` takes the caller's).
//!   The tests that only shorten the result (the context inside `S`, a
//!   stride's factor implied, a local's rows redundant) each run on a quarter
//!   of what is left of it; when that share runs out the longer form is kept
//!   (still exact) instead of failing.

use crate::algebra::budget_context;
use crate::api::Disjunction;
use crate::conjunction::{Conjunction, Row};
use crate::error::Result;
use crate::int::Int;
use crate::omega::Budget;

impl Conjunction {
    /// Turns implicit equalities (inequalities tight at every rational point) into
    /// equalities.
    pub fn detect_equalities(&mut self) {
        self.simplify();
        if self.is_trivially_empty() || self.ineqs.is_empty() {
            return;
        }
        let Some((mut s, first)) = self.rational_tableau() else {
            *self = Conjunction::empty(self.space.clone());
            return;
        };
        let tight = s.detect_implicit_equalities();
        if tight.is_empty() {
            return;
        }
        let mut keep = Vec::with_capacity(self.ineqs.len());
        for (k, r) in self.ineqs.drain(..).enumerate() {
            if tight.contains(&(first + k)) {
                self.eqs.push(r);
            } else {
                keep.push(r);
            }
        }
        self.ineqs = keep;
        self.simplify();
    }
}

impl Disjunction {
    /// Negations of a row, as inequalities whose union is the complement.
    fn negations(row: &Row, is_eq: bool) -> Vec<Row> {
        let mut below: Row = row.iter().map(|v| -v).collect();
        below[0] -= 1;
        if is_eq {
            let mut above = row.clone();
            above[0] -= 1;
            vec![above, below]
        } else {
            vec![below]
        }
    }

    /// isl's gist: a set `G` with `G ∩ C = S ∩ C` (`S` = `self`, `C` = the
    /// context) that keeps as little as it can of what `C` says already.
    ///
    /// - An empty context implies everything, and a context inside `S` leaves
    ///   nothing to say: the gist is then the universe (as isl's
    ///   `isl_set_gist`; this also covers a union `S` that covers `C` while
    ///   none of its pieces does).
    /// - A conjunction of `S` disjoint from `C` contributes nothing to `S ∩ C`
    ///   and is dropped, so no piece of the gist lies outside the context.
    /// - In every other conjunction each constraint in turn is dropped when the
    ///   context and the constraints kept so far imply it: `C ∩ rest ∩ ¬c` has no
    ///   integer point (exact, by the disjointness test of the algebra; an
    ///   equality is implied when both of its strict sides are excluded).
    ///   Dropping one implied constraint keeps `rest ∩ C = S_k ∩ C`, so the
    ///   loop keeps the invariant.
    /// - The locals are then simplified as in [`Disjunction::simplify_full`]
    ///   (which changes no conjunction's points).
    ///
    /// - Strides are then reduced by what the context says about them
    ///   ([`Conjunction::gist_strides`]).
    ///
    /// The invariant `G ∩ C = S ∩ C` is that of isl's `isl_map_gist`; the steps
    /// are the plain per-constraint test (isl uses an LP on the context's
    /// tableau and its own treatment of strides).
    pub(crate) fn gist(&self, context: &Disjunction, budget: &mut Budget) -> Result<Disjunction> {
        let params = crate::api::merged_params(self.space.params(), context.space.params());
        let s = self.align_params(&params);
        let ctx = context.align_params(&params);
        if ctx.is_empty_with(budget)? || budget.optional(|b| ctx.is_subset(&s, b))? == Some(true) {
            return Ok(Disjunction::universe(s.space.clone()));
        }
        let mut parts = Vec::with_capacity(s.parts.len());
        for c in &s.parts {
            let mut c = c.clone();
            c.simplify();
            if c.is_trivially_empty() {
                continue;
            }
            // a piece outside the context adds nothing to S ∩ C
            let whole = Disjunction {
                space: s.space.clone(),
                parts: vec![c.clone()],
            };
            if whole.is_disjoint(&ctx, budget)? {
                continue;
            }
            // Try to drop each constraint in turn (inequalities, then equalities).
            let mut k = 0;
            while k < c.ineqs.len() + c.eqs.len() {
                let is_eq = k >= c.ineqs.len();
                let mut rest = c.clone();
                let row = if is_eq {
                    rest.eqs.remove(k - c.ineqs.len())
                } else {
                    rest.ineqs.remove(k)
                };
                // divisions' defining rows stay (the printer relies on them)
                let defining = !is_eq && is_div_row(&c, &row);
                let implied = !defining && {
                    let mut all_empty = true;
                    for neg in Disjunction::negations(&row, is_eq) {
                        let mut probe = rest.clone();
                        probe.ineqs.push(neg);
                        let probe = Disjunction {
                            space: s.space.clone(),
                            parts: vec![probe],
                        };
                        if !probe.is_disjoint(&ctx, budget)? {
                            all_empty = false;
                            break;
                        }
                    }
                    all_empty
                };
                if implied {
                    c = rest;
                } else {
                    k += 1;
                }
            }
            c.gist_strides(&ctx, budget)?;
            c.simplify_locals(budget)?;
            parts.push(c);
        }
        let mut d = Disjunction {
            space: s.space.clone(),
            parts,
        };
        d.simplify();
        Ok(d)
    }
}

impl Conjunction {
    /// Gist of strides: an equality `a·l + r = 0` whose only local `l` occurs
    /// nowhere else (but in its own division's rows, when that division is the
    /// one the equality defines, `l = -r/a`) says `r ≡ 0 (mod g)` with
    /// `g = |a|`. Split `g` into pairwise coprime blocks `b` ([`coprime_blocks`]);
    /// `r ≡ 0 (mod g)` holds iff `r ≡ 0 (mod b)` for every block. A block that
    /// the context and the other constraints (`base`) imply is dropped from
    /// the stride: `base ∩ C ∩ {r = b·f + t, 1 <= t < b}` has no integer point
    /// (the disjointness test of the algebra). Then for `x` in `C` the new
    /// piece holds iff the old one does. The stride goes when every block is
    /// implied. Example (isl's gist tests): `x mod 3200 = 0` in the context
    /// `x mod 10000 = 0` becomes `x mod 128 = 0` (the block `25` is implied).
    /// The result — keep the prime powers of `g` the context does not imply —
    /// is what isl's gist gives on its tests; the per-block test is ours.
    pub(crate) fn gist_strides(&mut self, ctx: &Disjunction, budget: &mut Budget) -> Result<()> {
        let mut k = 0;
        while k < self.eqs.len() {
            if self.is_trivially_empty() {
                return Ok(());
            }
            let Some((base, r, l)) = self.stride_at(k) else {
                k += 1;
                continue;
            };
            let col = 1 + self.space.n_var() + l;
            let g = self.eqs[k][col].abs();
            let mut keep = Int::from(1i64);
            for b in coprime_blocks(&g) {
                let mut probe = base.clone();
                let f = probe.add_local(None)?;
                let t = probe.add_local(None)?;
                let n = probe.n_col();
                let mut row = r.clone();
                row.resize(n, Int::ZERO);
                row[f] = -&b;
                row[t] = Int::from(-1i64);
                probe.add_eq(row)?;
                let mut lo = vec![Int::ZERO; n];
                lo[0] = Int::from(-1i64);
                lo[t] = Int::from(1i64);
                probe.add_ineq(lo)?;
                let mut hi = vec![Int::ZERO; n];
                hi[0] = &b - 1;
                hi[t] = Int::from(-1i64);
                probe.add_ineq(hi)?;
                let probe = Disjunction {
                    space: self.space.clone(),
                    parts: vec![probe],
                };
                if budget.optional(|bu| probe.is_disjoint(ctx, bu))? != Some(true) {
                    keep = &keep * &b;
                }
            }
            if keep == g {
                k += 1;
                continue;
            }
            if keep.is_one() {
                *self = base;
            } else {
                let sign = self.eqs[k][col].signum();
                self.eqs[k][col] = if sign < 0 { -&keep } else { keep };
                if let Some((lo, hi)) = self.own_div_rows(l) {
                    self.ineqs.retain(|x| *x != lo && *x != hi);
                }
                self.divs[l] = None;
            }
            self.simplify();
            k = 0;
        }
        Ok(())
    }

    /// The normalised defining rows of local `l`'s division, if it has one.
    fn own_div_rows(&self, l: usize) -> Option<(Row, Row)> {
        let col = 1 + self.space.n_var() + l;
        self.divs[l].as_ref().map(|d| {
            let (mut lo, mut hi) = crate::conjunction::div_constraints(d, col);
            crate::conjunction::normalize_ineq(&mut lo);
            crate::conjunction::normalize_ineq(&mut hi);
            (lo, hi)
        })
    }

    /// When equality `k` is a stride `a·l + r = 0` as [`Conjunction::gist_strides`]
    /// wants it (one local `l`, `|a| > 1`, `l` nowhere else but in its own
    /// division's rows, that division being `-r/a`): the conjunction without
    /// the stride (`base`, without `l`), `r` over `base`'s columns, and `l`.
    fn stride_at(&self, k: usize) -> Option<(Conjunction, Row, usize)> {
        let first_local = 1 + self.space.n_var();
        let eq = &self.eqs[k];
        let mut locs = (0..self.n_local()).filter(|&l| !eq[first_local + l].is_zero());
        let l = locs.next()?;
        if locs.next().is_some() {
            return None;
        }
        let col = first_local + l;
        let a = &eq[col];
        if a.abs().is_one() {
            return None;
        }
        let own = self.own_div_rows(l);
        if let Some(d) = &self.divs[l] {
            // the division must be the value the equality gives: num/den = -r/a
            let same = (0..eq.len())
                .filter(|&j| j != col)
                .all(|j| &d.num[j] * a == -(&eq[j] * &d.den))
                && d.num[col].is_zero();
            if !same {
                return None;
            }
        }
        let elsewhere = self
            .eqs
            .iter()
            .enumerate()
            .any(|(j, r)| j != k && !r[col].is_zero())
            || self.divs.iter().flatten().any(|d| !d.num[col].is_zero())
            || self.ineqs.iter().any(|r| {
                !r[col].is_zero() && own.as_ref().is_none_or(|(lo, hi)| r != lo && r != hi)
            });
        if elsewhere {
            return None;
        }
        let mut base = self.clone();
        let mut r = base.eqs.remove(k);
        if let Some((lo, hi)) = &own {
            base.ineqs.retain(|x| x != lo && x != hi);
        }
        base.remove_cols(col, 1);
        base.divs.remove(l);
        r.remove(col);
        Some((base, r, l))
    }
}

/// Pairwise coprime factors of `|g|` whose product is `|g|`: the prime powers
/// found by trial division by the numbers up to 1000, and what is left as one
/// factor (or `|g|` whole when it does not fit in 64 bits).
fn coprime_blocks(g: &Int) -> Vec<Int> {
    let g = g.abs();
    let Some(mut n) = g.to_i64() else {
        return vec![g];
    };
    let mut out = Vec::new();
    let mut p = 2i64;
    while p <= 1000 && p * p <= n {
        if n % p == 0 {
            let mut q = 1i64;
            while n % p == 0 {
                n /= p;
                q *= p;
            }
            out.push(Int::from(q));
        }
        p += 1;
    }
    if n > 1 {
        out.push(Int::from(n));
    }
    out
}

fn is_div_row(c: &Conjunction, row: &Row) -> bool {
    let first_local = 1 + c.space.n_var();
    c.divs.iter().enumerate().any(|(l, d)| {
        d.as_ref().is_some_and(|d| {
            let (mut lo, mut hi) = crate::conjunction::div_constraints(d, first_local + l);
            crate::conjunction::normalize_ineq(&mut lo);
            crate::conjunction::normalize_ineq(&mut hi);
            *row == lo || *row == hi
        })
    })
}

impl Disjunction {
    /// The gist in `context`, a budget error reworded for the user.
    pub(crate) fn gist_in(
        &self,
        context: &Disjunction,
        budget: &mut Budget,
    ) -> Result<Disjunction> {
        self.gist(context, budget)
            .map_err(|e| budget_context("gist", e))
    }

    /// Every conjunction with its implicit equalities, redundant constraints
    /// and removable locals removed; the empty ones dropped.
    ///
    /// Per conjunction: implicit equalities ([`Conjunction::detect_equalities`]),
    /// then [`Conjunction::simplify_locals`] (the locals the set does not
    /// need), then rationally redundant inequalities, then an exact emptiness
    /// test.
    pub(crate) fn simplify_full(&self, budget: &mut Budget) -> Result<Disjunction> {
        let mut d = self.clone();
        let mut parts = Vec::with_capacity(d.parts.len());
        for mut c in d.parts.drain(..) {
            c.detect_equalities();
            c.simplify_locals(budget)?;
            c.remove_redundancies();
            if !c.is_empty_with(budget)? {
                parts.push(c);
            }
        }
        d.parts = parts;
        d.simplify();
        Ok(d)
    }
}

impl Conjunction {
    /// Removes the locals that the set does not need, keeping its points:
    ///
    /// 1. the exact eliminations of [`Conjunction::eliminate_locals_exactly`];
    /// 2. divisions bounded with coefficient ±1 only, written out
    ///    ([`Conjunction::expand_unit_div_bounds`]);
    /// 3. locals in equalities only, as a lattice
    ///    ([`Conjunction::drop_free_locals`]);
    /// 4. each remaining local `l` that no division definition uses is tried
    ///    alone: `W` = the conjunction without the rows that mention `l` (and
    ///    without `l`) always contains the set, since it only forgets
    ///    constraints; when `W ⊆ self` (the exact inclusion test of the
    ///    algebra, on a share of `budget`: see `Budget::optional`) the set is `W`,
    ///    and `l` goes. This
    ///    covers a local whose constraints are implied by the others and a
    ///    stride that the others make redundant.
    ///
    /// Each step is an equivalence, so the points never change. The idea of
    /// removing existentials whose constraints are redundant is isl's (its
    /// `isl_map_simplify.c` drops redundant divisions); the inclusion test as the
    /// criterion is ours and covers every case where one local's constraints can
    /// go at once.
    pub(crate) fn simplify_locals(&mut self, budget: &mut Budget) -> Result<()> {
        self.eliminate_locals_exactly();
        self.expand_unit_div_bounds();
        self.drop_free_locals();
        let first_local = 1 + self.space.n_var();
        let mut l = self.n_local();
        while l > 0 {
            l -= 1;
            if self.is_trivially_empty() || l >= self.n_local() {
                continue;
            }
            let col = first_local + l;
            if self.divs.iter().flatten().any(|d| !d.num[col].is_zero()) {
                continue;
            }
            let mut w = self.clone();
            w.eqs.retain(|r| r[col].is_zero());
            w.ineqs.retain(|r| r[col].is_zero());
            w.remove_cols(col, 1);
            w.divs.remove(l);
            w.simplify();
            let wd = Disjunction {
                space: self.space.clone(),
                parts: vec![w.clone()],
            };
            let sd = Disjunction {
                space: self.space.clone(),
                parts: vec![self.clone()],
            };
            if budget.optional(|b| wd.is_subset(&sd, b))? == Some(true) {
                *self = w;
                self.eliminate_locals_exactly();
                self.drop_free_locals();
                l = self.n_local();
            }
        }
        Ok(())
    }

    /// A division `e = floor(n/d)` whose other rows are inequalities with
    /// coefficient ±1 on `e` (in no equality, no other division) is written
    /// out: `e + r >= 0` is `floor(n/d) >= -r`, that is `n + d·r >= 0`, and
    /// `-e + r >= 0` is `floor(n/d) <= r`, that is `d·r + d - 1 - n >= 0` (for
    /// an integer `k`, `floor(n/d) >= k ⟺ n >= k·d`). The division is then
    /// left with its defining rows only and `simplify` drops it. Example:
    /// `exists e0 = floor(-3x/2) : e0 >= 0` is `-3x >= 0`. Returns true when
    /// it rewrote a row.
    pub(crate) fn expand_unit_div_bounds(&mut self) -> bool {
        let first_local = 1 + self.space.n_var();
        let mut any = false;
        for l in 0..self.n_local() {
            let Some(d) = self.divs[l].clone() else {
                continue;
            };
            let col = first_local + l;
            if self.eqs.iter().any(|r| !r[col].is_zero())
                || self.divs.iter().flatten().any(|x| !x.num[col].is_zero())
            {
                continue;
            }
            let (lo2, hi2) = crate::conjunction::div_constraints(&d, col);
            let Some((lo, hi)) = self.own_div_rows(l) else {
                continue;
            };
            let defining = |r: &Row| *r == lo || *r == hi || *r == lo2 || *r == hi2;
            let others: Vec<usize> = (0..self.ineqs.len())
                .filter(|&k| !self.ineqs[k][col].is_zero() && !defining(&self.ineqs[k]))
                .collect();
            if others.is_empty() || others.iter().any(|&k| !self.ineqs[k][col].abs().is_one()) {
                continue;
            }
            for k in others {
                let row = &mut self.ineqs[k];
                let plus = row[col].is_positive();
                row[col] = Int::ZERO;
                // row is now r; the new row is n + d·r or d·r + d - 1 - n
                let mut out: Row = row.iter().map(|v| v * &d.den).collect();
                for (j, v) in out.iter_mut().enumerate() {
                    if plus {
                        *v += &d.num[j];
                    } else {
                        *v -= &d.num[j];
                    }
                }
                if !plus {
                    out[0] += &d.den - 1;
                }
                *row = out;
                any = true;
            }
        }
        if any {
            self.simplify();
        }
        any
    }

    /// Simplifies the locals that occur in equalities only (no inequality but
    /// their own division's rows, no division definition), as a lattice: the
    /// set says `exists q ∈ Z^n : B·q = -A·x`, and only the lattice `B·Z^n`
    /// matters.
    ///
    /// One round, on a copy: division definitions that an equality implies
    /// are forgotten (`den·l = num` makes `l = floor(num/den)` hold anyway);
    /// column operations with determinant ±1 on these locals (a change of
    /// variables `q = U·q'`, exact over the integers) bring their equality
    /// columns to echelon form by Euclid's algorithm, row by row (Hermite
    /// normal form, Schrijver, Theory of Linear and Integer Programming,
    /// §4.1), so that a pivot of 1 is substituted away and a zero column is an
    /// unused local; then every equality `Σ a_j·e_j + r = 0` whose locals `e_j`
    /// occur nowhere else is, by Bézout, `exists e : g·e + r = 0` with
    /// `g = gcd(a_j)`: the equality goes when `g = 1`, and otherwise keeps one
    /// local and has the coefficients of `r` reduced modulo `g` (the shift
    /// `e' = e + (r - r mod g)/g` is an integer change of variables). The
    /// round is kept when it leaves fewer locals, or as many with smaller
    /// equality coefficients, and repeated; so the rounds end.
    ///
    /// Example: `exists e0, e1 : 32e1 = 31 + 31a + 31e0` is the universe
    /// (`gcd(32, 31) = 1`); `exists e0, e1, e2 : 32e1 = 31 + 31a + 31e0 and
    /// 32e2 = 31 + 31e0` is `a mod 32 = 0` (isl's `test_affine_hull`). The
    /// same lattice view underlies isl's treatment of equalities with
    /// existentials (its variable compression); this code is ours. Returns
    /// true when it changed something.
    pub(crate) fn drop_free_locals(&mut self) -> bool {
        let mut changed = false;
        self.simplify();
        for _ in 0..64 {
            if self.is_trivially_empty() {
                return changed;
            }
            let mut w = self.clone();
            w.forget_implied_divs();
            w.echelon_equality_locals();
            w.simplify();
            w.forget_implied_divs();
            w.bezout_free_locals();
            w.simplify();
            if local_measure(&w) < local_measure(self) {
                *self = w;
                changed = true;
            } else {
                return changed;
            }
        }
        changed
    }

    /// Forgets the division definitions that an equality `den·l - num = 0`
    /// (either sign) implies, with their defining rows.
    fn forget_implied_divs(&mut self) {
        let first_local = 1 + self.space.n_var();
        for l in 0..self.n_local() {
            let Some(d) = self.divs[l].clone() else {
                continue;
            };
            let col = first_local + l;
            let implied = self.eqs.iter().any(|e| {
                let plus = e[col] == d.den;
                if !plus && e[col] != -&d.den {
                    return false;
                }
                (0..e.len()).filter(|&j| j != col).all(|j| {
                    if plus {
                        e[j] == -&d.num[j]
                    } else {
                        e[j] == d.num[j]
                    }
                })
            });
            if implied {
                let (lo2, hi2) = crate::conjunction::div_constraints(&d, col);
                let (lo, hi) = self.own_div_rows(l).unwrap_or((lo2.clone(), hi2.clone()));
                self.ineqs
                    .retain(|r| *r != lo && *r != hi && *r != lo2 && *r != hi2);
                self.divs[l] = None;
            }
        }
    }

    /// The plain locals in no inequality and no division definition (their
    /// columns).
    fn equality_only_locals(&self) -> Vec<usize> {
        let first_local = 1 + self.space.n_var();
        (0..self.n_local())
            .filter(|&l| {
                let col = first_local + l;
                self.divs[l].is_none()
                    && self.ineqs.iter().all(|r| r[col].is_zero())
                    && self.divs.iter().flatten().all(|d| d.num[col].is_zero())
            })
            .map(|l| first_local + l)
            .collect()
    }

    /// Column echelon form of the equality-only locals' columns (see
    /// [`Conjunction::drop_free_locals`]): for each equality in turn, Euclid's
    /// algorithm on its entries in the columns not yet used as pivots, by
    /// unimodular column operations `col_k -= f·col_p` applied to every row.
    fn echelon_equality_locals(&mut self) {
        let q = self.equality_only_locals();
        if q.len() < 2 {
            return;
        }
        let mut used = vec![false; q.len()];
        for i in 0..self.eqs.len() {
            loop {
                let nz: Vec<usize> = (0..q.len())
                    .filter(|&k| !used[k] && !self.eqs[i][q[k]].is_zero())
                    .collect();
                if nz.len() <= 1 {
                    if let Some(&k) = nz.first() {
                        used[k] = true;
                    }
                    break;
                }
                let Some(&p) = nz
                    .iter()
                    .min_by(|&&x, &&y| self.eqs[i][q[x]].abs().cmp(&self.eqs[i][q[y]].abs()))
                else {
                    break;
                };
                let pivot = self.eqs[i][q[p]].clone();
                for &k in &nz {
                    if k == p {
                        continue;
                    }
                    let f = self.eqs[i][q[k]].floor_div(&pivot);
                    let (ck, cp) = (q[k], q[p]);
                    for r in self.eqs.iter_mut().chain(self.ineqs.iter_mut()) {
                        if !r[cp].is_zero() {
                            let v = &r[ck] - &(&f * &r[cp]);
                            r[ck] = v;
                        }
                    }
                }
            }
        }
    }

    /// The Bézout step of [`Conjunction::drop_free_locals`] on every equality
    /// whose equality-only locals occur in no other equality.
    fn bezout_free_locals(&mut self) {
        let q = self.equality_only_locals();
        let first_local = 1 + self.space.n_var();
        // the equality of each local, when it is in exactly one
        let mut home: Vec<Option<usize>> = vec![None; q.len()];
        let mut single = vec![true; q.len()];
        for (k, e) in self.eqs.iter().enumerate() {
            for (x, &col) in q.iter().enumerate() {
                if !e[col].is_zero() {
                    if home[x].is_some() {
                        single[x] = false;
                    }
                    home[x] = Some(k);
                }
            }
        }
        let mut drop_eqs = Vec::new();
        let mut drop_cols = Vec::new();
        for k in 0..self.eqs.len() {
            let free: Vec<usize> = (0..q.len())
                .filter(|&x| single[x] && home[x] == Some(k))
                .map(|x| q[x])
                .collect();
            if free.is_empty() {
                continue;
            }
            let mut g = Int::ZERO;
            for &col in &free {
                g = g.gcd(&self.eqs[k][col]);
            }
            if g.is_one() {
                drop_eqs.push(k);
                drop_cols.extend(free.iter().copied());
                continue;
            }
            let row = &mut self.eqs[k];
            if row[free[0]].is_negative() {
                for v in row.iter_mut() {
                    *v = -&*v;
                }
            }
            for &col in &free[1..] {
                row[col] = Int::ZERO;
                drop_cols.push(col);
            }
            row[free[0]] = g.clone();
            for (j, v) in row.iter_mut().enumerate() {
                if j != free[0] && !free.contains(&j) {
                    *v = v.modulo(&g);
                }
            }
            unit_scale(row, free[0], &g);
        }
        for k in drop_eqs.into_iter().rev() {
            self.eqs.remove(k);
        }
        drop_cols.sort_unstable();
        for col in drop_cols.into_iter().rev() {
            for r in self.eqs.iter_mut().chain(self.ineqs.iter_mut()) {
                r[col] = Int::ZERO;
            }
            self.remove_cols(col, 1);
            self.divs.remove(col - first_local);
        }
    }
}

/// `r ≡ 0 (mod g)` is `u·r ≡ 0 (mod g)` for any `u` prime to `g`: with the
/// first non-zero coefficient `c` of `r` after the constant (not in column
/// `skip`), `d = gcd(c, g)`, picks such a `u` with `u·c ≡ d (mod g)` (the
/// inverse of `c/d` modulo `g/d`, lifted by multiples of `g/d` until it is
/// prime to `g`) and rewrites the row `g·e + r` as `g·e + (u·r mod g)`, so
/// that `31a ≡ 0 (mod 32)` reads `a ≡ 0 (mod 32)`. Only for `g` up to 10⁶ (a
/// short search); the row is left as it is otherwise.
fn unit_scale(row: &mut Row, skip: usize, g: &Int) {
    let Some(gi) = g.to_i64().filter(|&x| x > 1 && x <= 1_000_000) else {
        return;
    };
    let Some(c) = (1..row.len())
        .filter(|&j| j != skip)
        .find_map(|j| (!row[j].is_zero()).then(|| row[j].to_i64()))
        .flatten()
    else {
        return;
    };
    let gcd = |mut a: i64, mut b: i64| {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a.abs()
    };
    let c = c.rem_euclid(gi);
    let d = gcd(c, gi);
    if c == d {
        return;
    }
    let m = gi / d;
    let cm = (c / d).rem_euclid(m);
    // inverse of c/d modulo m (m > 1 here, since c != d and c < g)
    let Some(inv) = (1..m).find(|&u| (u as i128 * cm as i128).rem_euclid(m as i128) == 1) else {
        return;
    };
    let Some(u) = (0..gi).map(|t| inv + t * m).find(|&u| gcd(u, gi) == 1) else {
        return;
    };
    let u = Int::from(u);
    for (j, v) in row.iter_mut().enumerate() {
        if j != skip {
            *v = (&*v * &u).modulo(g);
        }
    }
}

/// What [`Conjunction::drop_free_locals`] makes smaller: the number of locals,
/// then the size of the equalities' coefficients.
fn local_measure(c: &Conjunction) -> (usize, Int) {
    let mut size = Int::ZERO;
    for e in &c.eqs {
        for v in e {
            size += v.abs();
        }
    }
    (c.n_local(), size)
}

#[cfg(test)]
mod tests {
    use crate::api::Set;
    use crate::testing::{Box as PBox, set_points};
    use proptest::prelude::*;

    fn set(s: &str) -> Set {
        s.parse().unwrap()
    }

    #[test]
    fn gist_drops_what_the_context_implies() {
        let g = set("[N] -> { [i] : 0 <= i < N and N >= 10 }")
            .gist(&set("[N] -> { [i] : N >= 10 and i >= 0 }"))
            .unwrap();
        assert_eq!(g.to_string(), "[N] -> { [i] : i < N }");
        let e = set("{ [i, j] : i >= 0 and j >= 0 and i + j <= 0 }").detect_equalities();
        assert_eq!(e.to_string(), "{ [0, 0] }");
        let s = set("{ [i] : 0 <= i <= 10 and i <= 20 and 2i >= -5 }")
            .simplify_full()
            .unwrap();
        assert_eq!(s.to_string(), "{ [i] : 0 <= i <= 10 }");
    }

    /// No local left in the printed set.
    fn no_locals(s: &Set) -> bool {
        let t = s.to_string();
        !t.contains("exists") && !t.contains("mod") && !t.contains("floor")
    }

    /// Issue 14: a piece outside the context is dropped by gist.
    #[test]
    fn gist_drops_pieces_outside_the_context() {
        let s = set("{ [t0, t1] : t1 <= -1 or (t1 >= 0 and t0 >= 5) }");
        let c = set("{ [t0, t1] : t1 >= 0 }");
        let g = s.gist(&c).unwrap();
        assert!(g.is_equal(&set("{ [t0, t1] : t0 >= 5 }")).unwrap(), "{g}");
        assert!(
            g.intersect(&c)
                .unwrap()
                .is_equal(&s.intersect(&c).unwrap())
                .unwrap()
        );
        // a piece of the input that lies entirely outside the context
        let g = set("{ [0, 0, q, p] : -5 <= q <= 5 and p >= 0 }")
            .gist(&set("{ [a, b, q, p] : b >= 1 + a }"))
            .unwrap();
        assert!(g.is_empty().unwrap(), "{g}");
        // an empty context implies everything
        let g = set("{ [i] : i >= 3 }")
            .gist(&set("{ [i] : 1 = 0 }"))
            .unwrap();
        assert_eq!(g.to_string(), "{ [i] }");
    }

    /// Strides lose the prime powers the context implies (isl's gist tests).
    #[test]
    fn gist_reduces_strides() {
        let cases = [
            (
                "{ [x] : x mod 6 = 0 }",
                "{ [x] : x mod 3 = 0 }",
                "{ [x] : x mod 2 = 0 }",
            ),
            (
                "{ [x] : x mod 3200 = 0 }",
                "{ [x] : x mod 10000 = 0 }",
                "{ [x] : x mod 128 = 0 }",
            ),
            (
                "{ [x] : x mod 3200 = 0 }",
                "{ [x] : x mod 10 = 0 }",
                "{ [x] : x mod 3200 = 0 }",
            ),
            (
                "{ [a, b, c] : a mod 6 = 0 and a = c }",
                "{ [a, b, c] : b mod 2 = 0 and b = c }",
                "{ [a, b, c] : a = c and a mod 3 = 0 }",
            ),
            ("{ [x] : x mod 4 = 0 }", "{ [x] : x mod 8 = 0 }", "{ [x] }"),
        ];
        for (s, c, want) in cases {
            let g = set(s).gist(&set(c)).unwrap();
            assert!(g.is_equal(&set(want)).unwrap(), "{s} in {c}: {g}");
        }
    }

    /// Issue 14: existentials that the set does not need are removed.
    #[test]
    fn simplify_removes_needless_existentials() {
        // 32e1 = 31(1 + a + e0) holds for every a with e0 = -1 - a
        let s = set("{ [a] : exists e0, e1 : 32e1 = 31 + 31a + 31e0 }");
        let f = s.simplify_full().unwrap();
        assert_eq!(f.to_string(), "{ [a] }");
        // the constraints on e hold for some integer e whenever i >= 10
        let s = set("{ [i] : i >= 10 and exists e : 2e <= i and 3e >= i - 10 }");
        let f = s.simplify_full().unwrap();
        assert!(no_locals(&f) && f.is_equal(&s).unwrap(), "{f}");
        assert_eq!(f.to_string(), "{ [i] : i >= 10 }");
        // a stride that another equality makes redundant
        let s = set("{ [i, j] : i = 4j and exists e : i = 2e }");
        let f = s.simplify_full().unwrap();
        assert!(no_locals(&f) && f.is_equal(&s).unwrap(), "{f}");
        // two locals free in one equality: one stride with their gcd is left
        let s = set("{ [a] : exists e0, e1 : 6e0 + 4e1 = a }");
        let f = s.simplify_full().unwrap();
        assert!(f.is_equal(&set("{ [a] : a mod 2 = 0 }")).unwrap(), "{f}");
        // isl's test_affine_hull: the lattice of three locals is one stride
        let s = set("{ [a] : exists e0, e1, e2 : 32e1 = 31 + 31a + 31e0 and 32e2 = 31 + 31e0 }");
        let f = s.simplify_full().unwrap();
        assert!(f.is_equal(&set("{ [a] : a mod 32 = 0 }")).unwrap(), "{f}");
        assert_eq!(
            f.basics().map(|b| b.conjunction().n_local()).sum::<usize>(),
            1,
            "{f}"
        );
        // a division bounded with coefficient one is written out
        let s = set("{ [x] : exists (e0 = floor((-3x)/2) : e0 >= 0 and x >= -1) }");
        let f = s.simplify_full().unwrap();
        assert!(no_locals(&f) && f.is_equal(&s).unwrap(), "{f}");
        assert_eq!(f.to_string(), "{ [x] : -1 <= x <= 0 }");
        // a stride that is needed stays
        let s = set("{ [i] : exists e : i = 3e and 0 <= i <= 10 }");
        let f = s.simplify_full().unwrap();
        assert!(f.is_equal(&s).unwrap() && !no_locals(&f), "{f}");
    }

    fn arb() -> impl Strategy<Value = String> {
        let con =
            (-2i64..=2, -2i64..=2, -3i64..=3).prop_map(|(a, b, c)| format!("{a}i + {b}j >= {c}"));
        (prop::collection::vec(con, 0..4), prop::option::of(2i64..=3)).prop_map(|(cs, m)| {
            let mut parts = vec!["-3 <= i <= 3".to_string(), "-3 <= j <= 3".to_string()];
            parts.extend(cs);
            let body = parts.join(" and ");
            match m {
                Some(m) => format!("{{ [i, j] : exists e : i + j = {m}e and {body} }}"),
                None => format!("{{ [i, j] : {body} }}"),
            }
        })
    }

    /// Sets with two locals bounded by inequalities with coefficients other
    /// than one (often out of reach of the exact Fourier–Motzkin step); the
    /// locals stay in a box the brute-force oracle searches.
    fn arb_exists() -> impl Strategy<Value = String> {
        let con = (-2i64..=2, -2i64..=2, -3i64..=3, -3i64..=3, -4i64..=4)
            .prop_map(|(a, b, c, d, k)| format!("{a}i + {b}j + {c}e + {d}f >= {k}"));
        prop::collection::vec(con, 1..4).prop_map(|cs| {
            format!(
                "{{ [i, j] : -3 <= i <= 3 and -3 <= j <= 3 and exists e, f : \
                 -6 <= e <= 6 and -6 <= f <= 6 and {} }}",
                cs.join(" and ")
            )
        })
    }

    /// Sets whose two locals occur in equalities only (a lattice).
    fn arb_lattice() -> impl Strategy<Value = String> {
        let eq = (-3i64..=3, -3i64..=3, -6i64..=6, -6i64..=6, -5i64..=5)
            .prop_map(|(a, b, c, d, k)| format!("{a}i + {b}j + {c}e + {d}f = {k}"));
        prop::collection::vec(eq, 1..3).prop_map(|es| {
            format!(
                "{{ [i, j] : -3 <= i <= 3 and -3 <= j <= 3 and exists e, f : {} }}",
                es.join(" and ")
            )
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(150))]

        /// gist(S, C) ∩ C = S ∩ C, and the simplifications keep the points.
        #[test]
        fn simplifications_keep_the_meaning(a in arb(), a2 in arb(), c in arb(), c2 in arb()) {
            // unions of two pieces on each side
            let (s, ctx) = (set(&a).union(&set(&a2)).unwrap(), set(&c).union(&set(&c2)).unwrap());
            let b = PBox::new(vec![], -4, 4);
            let g = s.gist(&ctx).unwrap();
            prop_assert_eq!(
                set_points(&g.intersect(&ctx).unwrap(), &b),
                set_points(&s.intersect(&ctx).unwrap(), &b)
            );
            prop_assert!(g.intersect(&ctx).unwrap().is_equal(&s.intersect(&ctx).unwrap()).unwrap());
            // no piece of the gist outside the context (unless the context is empty)
            if !ctx.is_empty().unwrap() {
                for b in g.basics() {
                    prop_assert!(!Set::from(b.clone()).is_disjoint(&ctx).unwrap(), "{} outside {}", b, ctx);
                }
            }
            let p = set_points(&s, &b);
            prop_assert_eq!(set_points(&s.detect_equalities(), &b), p.clone());
            let f = s.simplify_full().unwrap();
            prop_assert_eq!(set_points(&f, &b), p);
            prop_assert!(f.is_equal(&s).unwrap());
        }

        /// simplify_full keeps lattices of locals (checked by the exact algebra).
        #[test]
        fn simplify_full_keeps_lattices(a in arb_lattice()) {
            let s = set(&a);
            let f = s.simplify_full().unwrap();
            prop_assert!(f.is_equal(&s).unwrap(), "{} -> {}", a, f);
            let n = |x: &Set| x.basics().map(|b| b.conjunction().n_local()).sum::<usize>();
            prop_assert!(n(&f) <= n(&s.simplify()), "{} -> {}", a, f);
        }

        /// simplify_full keeps the points of sets with existentials.
        #[test]
        fn simplify_full_keeps_existential_sets(a in arb_exists()) {
            let s = set(&a);
            let b = PBox::new(vec![], -4, 4);
            let f = s.simplify_full().unwrap();
            prop_assert_eq!(set_points(&f, &b), set_points(&s, &b), "{} -> {}", a, f);
            prop_assert!(f.is_equal(&s).unwrap());
        }
    }
}
