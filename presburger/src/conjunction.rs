//! `Conjunction`: one conjunction of affine constraints with local variables.
//!
//! This is the shared core of `BasicSet` and `BasicMap`. Its meaning is
//! `{ x : exists locals : E·(1,x,locals) = 0 and I·(1,x,locals) >= 0 }` over the
//! integers, where `x` are the parameters and dimensions of the space (column layout
//! in [`crate::space`]). A local may carry a *division definition*
//! `floor(num·(1,x,locals) / den)`; the constraints always imply it (they contain its
//! defining inequalities `0 <= num - den·l <= den - 1`, or an equality that fixes the
//! local), so the constraints alone fix the meaning and a definition is extra
//! knowledge: for printing, for merging equal locals, and for operations that need the
//! local as a function of the other variables. A definition only refers to columns
//! before its own local (no cycles).
//!
//! Everything here is structural: no operation needs a solver, and none changes the
//! set of integer points (all are exact over the integers).

use crate::elimination::{combine, substitute_unit};
use crate::error::{Error, Result};
use crate::int::{Int, gcd_all};
use crate::space::{DimKind, Space};
use smallvec::SmallVec;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};

/// A constraint row: column 0 is the constant, then one coefficient per variable.
pub type Row = Vec<Int>;

/// A division definition `floor(num·(1,x,locals) / den)` with `den >= 1`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Div {
    /// The numerator over all columns of the conjunction.
    pub num: Row,
    /// The (positive) denominator.
    pub den: Int,
}

/// One conjunction of equalities and inequalities over a space plus local variables.
#[derive(Debug, Clone)]
pub struct Conjunction {
    pub(crate) space: Space,
    /// One entry per local: its division definition, if known.
    pub(crate) divs: Vec<Option<Div>>,
    pub(crate) eqs: Vec<Row>,
    pub(crate) ineqs: Vec<Row>,
}

/// Normalises an inequality `row >= 0`: divides the coefficients by their gcd and
/// rounds the constant down (exact over the integers). Returns `Some(true)` for a
/// constraint that always holds, `Some(false)` for one that never holds, and `None`
/// for a real constraint.
pub(crate) fn normalize_ineq(row: &mut Row) -> Option<bool> {
    let g = gcd_all(&row[1..]);
    if g.is_zero() {
        return Some(!row[0].is_negative());
    }
    if !g.is_one() {
        row[0] = row[0].floor_div(&g);
        for c in &mut row[1..] {
            *c = c.exact_div(&g);
        }
    }
    None
}

/// Normalises an equality `row = 0`: divides by the gcd of the coefficients and makes
/// the last non-zero coefficient positive. Returns `Some(true)` for `0 = 0`,
/// `Some(false)` when no integer point satisfies it (gcd test), `None` otherwise.
pub(crate) fn normalize_eq(row: &mut Row) -> Option<bool> {
    let g = gcd_all(&row[1..]);
    if g.is_zero() {
        return Some(row[0].is_zero());
    }
    if !row[0].is_divisible_by(&g) {
        return Some(false);
    }
    let last_negative = row[1..]
        .iter()
        .rev()
        .find(|c| !c.is_zero())
        .is_some_and(Int::is_negative);
    let g = if last_negative { -g } else { g };
    if !g.is_one() {
        for c in row.iter_mut() {
            *c = c.exact_div(&g);
        }
    }
    None
}

fn last_nonzero(row: &Row) -> Option<usize> {
    (1..row.len()).rev().find(|&c| !row[c].is_zero())
}

impl Conjunction {
    /// The conjunction with no constraints.
    pub fn universe(space: Space) -> Conjunction {
        Conjunction {
            space,
            divs: Vec::new(),
            eqs: Vec::new(),
            ineqs: Vec::new(),
        }
    }

    /// The canonical empty conjunction (`-1 >= 0`).
    pub fn empty(space: Space) -> Conjunction {
        let mut c = Conjunction::universe(space);
        c.set_empty();
        c
    }

    fn set_empty(&mut self) {
        let n = 1 + self.space.n_var();
        self.divs.clear();
        self.eqs.clear();
        let mut row = vec![Int::ZERO; n];
        row[0] = Int::from(-1);
        self.ineqs = vec![row];
    }

    /// The space.
    pub fn space(&self) -> &Space {
        &self.space
    }

    /// Number of local variables.
    pub fn n_local(&self) -> usize {
        self.divs.len()
    }

    /// Number of columns of a row (constant, variables, locals).
    pub fn n_col(&self) -> usize {
        1 + self.space.n_var() + self.divs.len()
    }

    /// The equalities (`row·(1,x) = 0`).
    pub fn equalities(&self) -> &[Row] {
        &self.eqs
    }

    /// The inequalities (`row·(1,x) >= 0`).
    pub fn inequalities(&self) -> &[Row] {
        &self.ineqs
    }

    /// The division definitions of the locals.
    pub fn divs(&self) -> &[Option<Div>] {
        &self.divs
    }

    /// Column of variable `pos` of `kind`.
    pub fn col(&self, kind: DimKind, pos: usize) -> usize {
        self.space.offset(kind) + pos
    }

    fn check_row(&self, row: &[Int]) -> Result<()> {
        if row.len() != self.n_col() {
            return Err(Error::Invalid(format!(
                "a constraint row has {} entries, the conjunction has {} columns",
                row.len(),
                self.n_col()
            )));
        }
        Ok(())
    }

    /// Adds the equality `row·(1,x,locals) = 0`.
    pub fn add_eq(&mut self, row: Row) -> Result<()> {
        self.check_row(&row)?;
        self.eqs.push(row);
        Ok(())
    }

    /// Adds the inequality `row·(1,x,locals) >= 0`.
    pub fn add_ineq(&mut self, row: Row) -> Result<()> {
        self.check_row(&row)?;
        self.ineqs.push(row);
        Ok(())
    }

    /// Appends a local variable, optionally defined as a division, and returns its
    /// column. With a definition, its two defining inequalities are added.
    pub fn add_local(&mut self, div: Option<Div>) -> Result<usize> {
        let col = self.n_col();
        for r in self.eqs.iter_mut().chain(self.ineqs.iter_mut()) {
            r.push(Int::ZERO);
        }
        for d in self.divs.iter_mut().flatten() {
            d.num.push(Int::ZERO);
        }
        match div {
            Some(mut d) => {
                d.num.resize(col + 1, Int::ZERO);
                if d.num.len() != col + 1 || !d.den.is_positive() || !d.num[col].is_zero() {
                    self.remove_cols(col, 1);
                    return Err(Error::Invalid(
                        "a division needs a positive denominator and must not use its own local"
                            .into(),
                    ));
                }
                let (lo, hi) = div_constraints(&d, col);
                self.ineqs.push(lo);
                self.ineqs.push(hi);
                self.divs.push(Some(d));
            }
            None => self.divs.push(None),
        }
        Ok(col)
    }

    /// Fixes variable `pos` of `kind` to `value`.
    pub fn fix(&mut self, kind: DimKind, pos: usize, value: &Int) -> Result<()> {
        self.check_var(kind, pos)?;
        let mut row = vec![Int::ZERO; self.n_col()];
        row[self.col(kind, pos)] = Int::ONE;
        row[0] = -value;
        self.eqs.push(row);
        Ok(())
    }

    /// Adds `x >= value` (`lower = true`) or `x <= value` for variable `pos` of `kind`.
    pub fn bound(&mut self, kind: DimKind, pos: usize, value: &Int, lower: bool) -> Result<()> {
        self.check_var(kind, pos)?;
        let mut row = vec![Int::ZERO; self.n_col()];
        let c = self.col(kind, pos);
        if lower {
            row[c] = Int::ONE;
            row[0] = -value;
        } else {
            row[c] = Int::from(-1);
            row[0] = value.clone();
        }
        self.ineqs.push(row);
        Ok(())
    }

    fn check_var(&self, kind: DimKind, pos: usize) -> Result<()> {
        if kind == DimKind::Local {
            if pos < self.n_local() {
                return Ok(());
            }
            return Err(Error::Invalid(format!(
                "local {pos} does not exist ({} locals)",
                self.n_local()
            )));
        }
        self.space.check_range(kind, pos, 1)
    }

    /// True when a constraint is visibly violated (a constant row that fails).
    /// A conjunction after [`Conjunction::simplify`] is either canonically empty or
    /// has no such row.
    pub fn is_trivially_empty(&self) -> bool {
        self.ineqs
            .iter()
            .any(|r| r[0].is_negative() && r[1..].iter().all(Int::is_zero))
            || self
                .eqs
                .iter()
                .any(|r| !r[0].is_zero() && r[1..].iter().all(Int::is_zero))
    }

    /// True when there are no constraints at all (after simplification: the universe).
    pub fn is_trivially_universe(&self) -> bool {
        self.eqs.is_empty() && self.ineqs.is_empty()
    }

    /// Inserts `n` zero columns at column `at` (rows and division numerators). The
    /// caller fixes the space and the list of locals.
    pub(crate) fn insert_cols(&mut self, at: usize, n: usize) {
        let ins = |r: &mut Row| {
            r.splice(at..at, std::iter::repeat_n(Int::ZERO, n));
        };
        self.eqs.iter_mut().for_each(ins);
        self.ineqs.iter_mut().for_each(ins);
        self.divs.iter_mut().flatten().for_each(|d| ins(&mut d.num));
    }

    /// Removes columns `at .. at + n` (rows and division numerators). The caller
    /// makes sure they are unused or fixes the meaning otherwise.
    pub(crate) fn remove_cols(&mut self, at: usize, n: usize) {
        let del = |r: &mut Row| {
            r.drain(at..at + n);
        };
        self.eqs.iter_mut().for_each(del);
        self.ineqs.iter_mut().for_each(del);
        self.divs.iter_mut().flatten().for_each(|d| del(&mut d.num));
    }

    /// The local that may be dropped together with its inequalities without
    /// changing whether the conjunction has an integer point: it has no
    /// division definition, occurs in no equality and in no definition, and
    /// every inequality that uses it bounds it from the same side (or none
    /// does). Any values of the other columns then leave it a value
    /// ([`crate::elimination::one_sided_value`]). The last such local, if any.
    pub(crate) fn one_sided_local(&self) -> Option<usize> {
        let first = 1 + self.space.n_var();
        (0..self.n_local()).rev().find(|&l| {
            let col = first + l;
            self.divs[l].is_none()
                && self.eqs.iter().all(|r| r[col].is_zero())
                && self.divs.iter().flatten().all(|d| d.num[col].is_zero())
                && {
                    let mut signs = self
                        .ineqs
                        .iter()
                        .map(|r| r[col].signum())
                        .filter(|&s| s != 0);
                    signs.next().is_none_or(|s| signs.all(|t| t == s))
                }
        })
    }

    /// Removes local `l` and the inequalities that use it, and returns those
    /// (over the columns before the removal): the last step of eliminating a
    /// local ([`Conjunction::one_sided_local`], and the exact eliminations of
    /// projection, which add the rows that replace it first).
    pub(crate) fn drop_local_with_rows(&mut self, l: usize) -> Vec<Row> {
        let col = 1 + self.space.n_var() + l;
        let (with, without): (Vec<Row>, Vec<Row>) = std::mem::take(&mut self.ineqs)
            .into_iter()
            .partition(|r| !r[col].is_zero());
        self.ineqs = without;
        self.remove_cols(col, 1);
        self.divs.remove(l);
        with
    }

    /// Rebuilds the conjunction in another space: source column `c` goes to target
    /// column `colmap[c]` (`colmap[0]` must be 0, targets distinct), the target has
    /// `n_local` locals, and a source local that lands on a target local keeps its
    /// division definition when every column it uses lands before it.
    pub(crate) fn remap(&self, space: Space, n_local: usize, colmap: &[usize]) -> Conjunction {
        debug_assert_eq!(colmap.len(), self.n_col());
        let n_col = 1 + space.n_var() + n_local;
        let first_local = 1 + space.n_var();
        let map_row = |r: &Row| {
            let mut out = vec![Int::ZERO; n_col];
            for (c, v) in r.iter().enumerate() {
                if !v.is_zero() {
                    out[colmap[c]] = v.clone();
                }
            }
            out
        };
        let mut divs = vec![None; n_local];
        let src_first_local = 1 + self.space.n_var();
        for (l, d) in self.divs.iter().enumerate() {
            let target = colmap[src_first_local + l];
            if let Some(d) = d {
                if target >= first_local {
                    let num = map_row(&d.num);
                    if num[target..].iter().all(Int::is_zero) {
                        divs[target - first_local] = Some(Div {
                            num,
                            den: d.den.clone(),
                        });
                    }
                }
            }
        }
        Conjunction {
            space,
            divs,
            eqs: self.eqs.iter().map(map_row).collect(),
            ineqs: self.ineqs.iter().map(map_row).collect(),
        }
    }

    /// The intersection with a conjunction of the same space (locals concatenated).
    pub fn intersect(&self, other: &Conjunction) -> Result<Conjunction> {
        if !self.space.is_same(&other.space) {
            return Err(Error::SpaceMismatch(
                "intersection of conjunctions in different spaces".into(),
            ));
        }
        let nv = 1 + self.space.n_var();
        let n_local = self.n_local() + other.n_local();
        let colmap: Vec<usize> = (0..other.n_col())
            .map(|c| if c < nv { c } else { c + self.n_local() })
            .collect();
        let mut res = self.clone();
        let o = other.remap(self.space.clone(), n_local, &colmap);
        let extra = other.n_local();
        let at = res.n_col();
        res.insert_cols(at, extra);
        res.divs.extend(o.divs[self.n_local()..].iter().cloned());
        res.eqs.extend(o.eqs);
        res.ineqs.extend(o.ineqs);
        Ok(res)
    }

    /// Moves `n` variables of kind `src` starting at `src_pos` to kind `dst` at
    /// position `dst_pos`, giving `space` as the new space (the caller builds it with
    /// the right tuples). Variables moved to locals are put first among the locals,
    /// so that existing division definitions keep referring to earlier columns.
    pub(crate) fn move_vars(
        &self,
        space: Space,
        src: DimKind,
        src_pos: usize,
        dst: DimKind,
        dst_pos: usize,
        n: usize,
    ) -> Conjunction {
        // Enumerate the source variables as (kind, pos) in column order, take the moved
        // block out, insert it at the destination, and read off the new column of each.
        let kinds = [DimKind::Param, DimKind::In, DimKind::Out, DimKind::Local];
        let count = |k: DimKind| {
            if k == DimKind::Local {
                self.n_local()
            } else {
                self.space.dim(k)
            }
        };
        let mut order: Vec<Vec<usize>> = Vec::new(); // per kind: source columns in new order
        let mut moved = Vec::new();
        for k in kinds {
            let off = if k == DimKind::Local {
                1 + self.space.n_var()
            } else {
                self.space.offset(k)
            };
            let mut cols: Vec<usize> = (off..off + count(k)).collect();
            if k == src {
                moved = cols.drain(src_pos..src_pos + n).collect();
            }
            order.push(cols);
        }
        let di = kinds.iter().position(|&k| k == dst).unwrap_or(3);
        let at = if dst == DimKind::Local { 0 } else { dst_pos };
        order[di].splice(at..at, moved);
        let mut colmap = vec![0usize; self.n_col()];
        let mut next = 1;
        for cols in &order {
            for &c in cols {
                colmap[c] = next;
                next += 1;
            }
        }
        let n_local = order[3].len();
        self.remap(space, n_local, &colmap)
    }

    /// Structural simplification, exact over the integers:
    /// gcd normalisation of every row with integer tightening of inequality constants,
    /// detection of violated constant rows (the result is then the canonical empty
    /// conjunction), Gaussian elimination of equalities, merging of duplicate and
    /// opposite inequalities (`a >= 0` and `-a >= 0` become `a = 0`), elimination of
    /// locals fixed by an equality with a unit coefficient, removal of unused locals,
    /// merging of locals with equal division definitions, and a canonical order.
    ///
    /// The equalities end in reduced echelon form (pivot = last non-zero column, which
    /// is zero in every other row), so equal equality systems give equal rows.
    ///
    /// A pass ends by restoring the defining inequalities of divisions, from which
    /// another pass may derive more, so passes repeat until nothing changes (at most
    /// a few times; each pass alone is exact, so stopping early is only less tidy).
    ///
    /// A pass tells when another one could not change anything (always so without
    /// locals; with locals, when it found no new division definition, kept the order
    /// of the locals and restored no division inequality); then the passes stop
    /// without the copy and comparison that detect a fixed point otherwise (the copy
    /// is only made before a pass that follows such an uncertain one). The cost of a pass is near-linear in
    /// the number of rows for a fixed number of columns: every step is a sweep over
    /// the rows per equality, local or division (at most the number of columns), a
    /// hash-based grouping of parallel rows, or a sort.
    pub fn simplify(&mut self) {
        const MAX_PASSES: usize = 4;
        let mut before = None;
        for _ in 0..MAX_PASSES {
            match self.simplify_inner() {
                Err(()) => {
                    self.set_empty();
                    return;
                }
                Ok(true) => {
                    // a conjunction with divisions that one pass leaves final
                    // (see `restore_div_constraints`) is final
                    debug_assert!(
                        self.divs.is_empty() || {
                            let mut again = self.clone();
                            again.simplify_inner().is_ok()
                                && again.divs == self.divs
                                && again.eqs == self.eqs
                                && again.ineqs == self.ineqs
                        },
                        "simplify: a pass after the last one changed the conjunction"
                    );
                    return;
                }
                Ok(false) => {}
            }
            if let Some((divs, eqs, ineqs)) = &before {
                if *divs == self.divs && *eqs == self.eqs && *ineqs == self.ineqs {
                    return;
                }
            }
            before = Some((self.divs.clone(), self.eqs.clone(), self.ineqs.clone()));
        }
    }

    /// One pass of [`Conjunction::simplify`].
    ///
    /// Rows are normalised when they are new: `fresh` holds the first equality and
    /// inequality that may not be normalised yet. Gaussian elimination leaves every
    /// row normalised and merging only picks rows, so after them only the equalities
    /// they add are new; a substitution of a local touches any row, so everything is
    /// normalised again after it (normalising a normalised row changes nothing, so
    /// this only saves the work).
    ///
    /// Returns `Ok(true)` when another pass would leave the conjunction as it is:
    /// the loop below stops at a state that it maps to itself, and of the steps
    /// after it only new division definitions (from equalities), a new order of the
    /// locals (which moves the pivots of the equalities), restored division
    /// inequalities and division definitions that are not reduced (a substitution
    /// does not reduce them) give a later pass something to do; dropping unused
    /// locals reaches its own fixed point and sorting does not matter to the loop.
    /// Without locals none of these can happen.
    fn simplify_inner(&mut self) -> std::result::Result<bool, ()> {
        self.normalize_divs();
        let mut fresh = (0, 0);
        loop {
            self.normalize_rows_from(fresh.0, fresh.1)?;
            // before Gaussian elimination, which may scale unit coefficients away
            if self.eliminate_unit_locals() {
                fresh = (0, 0);
                continue;
            }
            self.gauss()?;
            let before = self.eqs.len();
            self.merge_ineqs()?;
            if self.eqs.len() != before {
                fresh = (before, self.ineqs.len());
                continue;
            }
            if self.affine_divs_to_equalities() {
                fresh = (before, self.ineqs.len());
                continue;
            }
            if self.eliminate_unit_locals() || self.merge_equal_divs() {
                fresh = (0, 0);
                continue;
            }
            break;
        }
        self.remove_unused_locals();
        let new_defs = self.divs_from_equalities();
        let reordered = self.canonical_local_order();
        // rows are distinct here (merged inequalities, reduced equalities), and equal
        // rows are interchangeable anyway: an unstable sort gives the same result
        self.ineqs.sort_unstable();
        let restored = self.restore_div_constraints();
        self.eqs.sort_unstable();
        let reduced_divs = self
            .divs
            .iter()
            .flatten()
            .all(|d| gcd_all(d.num.iter()).gcd(&d.den).is_one());
        Ok(!new_defs && !reordered && !restored && reduced_divs)
    }

    /// Ends simplification with the defining inequalities of every division present
    /// verbatim (they are implied, so adding them changes nothing). The printer leaves
    /// them out and the parser adds them back, so printed text reads back to the
    /// same rows. Expects the inequalities sorted (a missing row is found by binary
    /// search) and leaves them sorted, and the equalities reduced (after
    /// [`Conjunction::gauss`]). Returns whether it added a row that the equalities
    /// do not reduce to a constant: one they do (a division defined by an
    /// equality, `x = 2e` with `e = floor(x/2)`) is dropped again by the next
    /// pass's elimination and restored as it was, so that pass would change
    /// nothing (on the random unions of `isl_coalesce_tables`, 6,653 of 7,833
    /// simplifications with divisions took such a second pass).
    fn restore_div_constraints(&mut self) -> bool {
        let first_local = 1 + self.space.n_var();
        let mut missing = Vec::new();
        for l in 0..self.divs.len() {
            let Some(d) = &self.divs[l] else { continue };
            let (lo, hi) = div_constraints(d, first_local + l);
            for mut r in [lo, hi] {
                normalize_ineq(&mut r);
                if self.ineqs.binary_search(&r).is_err() {
                    missing.push(r);
                }
            }
        }
        if missing.is_empty() {
            return false;
        }
        let reduced_to_constant = |r: &Row| {
            let mut r = r.clone();
            for e in &self.eqs {
                if let Some(p) = last_nonzero(e) {
                    if !r[p].is_zero() {
                        let b = r[p].clone();
                        combine(&mut r, &e[p], &b, e);
                    }
                }
            }
            r[1..].iter().all(Int::is_zero)
        };
        let again = !missing.iter().all(reduced_to_constant);
        self.ineqs.extend(missing);
        self.ineqs.sort_unstable();
        again
    }

    /// A plain local `l` whose last equality coefficient sits in an equality
    /// `a·l + rest = 0` (no later local in it) equals `floor(-rest / a)`: the equality
    /// makes `-rest` a multiple of `a`. Records that definition (as isl detects
    /// divisions from equalities). Returns whether it recorded one.
    fn divs_from_equalities(&mut self) -> bool {
        let first_local = 1 + self.space.n_var();
        let mut found_any = false;
        for l in 0..self.n_local() {
            if self.divs[l].is_some() {
                continue;
            }
            let col = first_local + l;
            let found = self
                .eqs
                .iter()
                .find(|e| !e[col].is_zero() && e[col + 1..].iter().all(Int::is_zero));
            if let Some(e) = found {
                let a = e[col].clone();
                let sign = if a.is_negative() { 1 } else { -1 };
                let mut num: Row = e.iter().map(|v| v * sign).collect();
                num[col] = Int::ZERO;
                let mut d = Div { num, den: a.abs() };
                let g = gcd_all(d.num.iter()).gcd(&d.den);
                if !g.is_one() && !g.is_zero() {
                    d.num.iter_mut().for_each(|v| *v = v.exact_div(&g));
                    d.den = d.den.exact_div(&g);
                }
                self.divs[l] = Some(d);
                found_any = true;
            }
        }
        found_any
    }

    /// A plain local `l` held between a pair of opposite inequalities
    /// `m·l + f >= 0` and `-m·l - f + c >= 0` with `c < m` (`f` free of `l`)
    /// has one value at each point, the least its lower bound allows:
    /// `ceil(-f / m) = floor((-f + m - 1) / m)`, since the upper bound allows
    /// less than one more. Records that definition when every other local of
    /// `f` is an earlier division and no definition uses `l` (isl reads
    /// divisions off such pairs in its simplification the same way). The
    /// rewriting of existentials into divisions then needs no split for `l`:
    /// a conjunction of the random near-row shapes, rewritten into 294
    /// pieces by the Omega test's splits, is one piece once a narrow pair
    /// defines its last plain local. Expects normalised inequalities, merged
    /// (one row per direction and sign, pairs with `c = 0` turned into
    /// equalities). Returns whether it recorded a definition.
    pub(crate) fn divs_from_narrow_pairs(&mut self) -> bool {
        let first_local = 1 + self.space.n_var();
        let n = self.n_local();
        let plain = |c: &Conjunction, col: usize| c.divs[col - first_local].is_none();
        if (0..n).all(|l| self.divs[l].is_some()) {
            return false;
        }
        let mut found_any = false;
        for (i, j) in self.opposite_pairs_with_plain_locals() {
            let c = &self.ineqs[i][0] + &self.ineqs[j][0];
            let row = &self.ineqs[i];
            let pick = (first_local..self.n_col()).find(|&col| {
                let m = row[col].abs();
                plain(self, col)
                    && c < m
                    && (first_local..self.n_col())
                        .all(|k| k == col || row[k].is_zero() || (k < col && !plain(self, k)))
                    && self.divs.iter().flatten().all(|d| d.num[col].is_zero())
            });
            let Some(col) = pick else { continue };
            let lower = if row[col].is_positive() { i } else { j };
            let m = self.ineqs[lower][col].clone();
            let mut num: Row = self.ineqs[lower].iter().map(|v| -v).collect();
            num[col] = Int::ZERO;
            num[0] += &m - Int::ONE;
            let mut d = Div { num, den: m };
            let g = gcd_all(d.num.iter()).gcd(&d.den);
            if !g.is_one() && !g.is_zero() {
                d.num.iter_mut().for_each(|v| *v = v.exact_div(&g));
                d.den = d.den.exact_div(&g);
            }
            self.divs[col - first_local] = Some(d);
            found_any = true;
        }
        found_any
    }

    /// The pairs of opposite inequalities (the same coefficients up to sign,
    /// `a + c1 >= 0` and `-a + c2 >= 0`) that have a plain local, as indices
    /// into the inequalities, increasing; one pair per direction (the first
    /// row of each sign), by a hash of the directions.
    pub(crate) fn opposite_pairs_with_plain_locals(&self) -> Vec<(usize, usize)> {
        let first_local = 1 + self.space.n_var();
        let plain = |col: usize| self.divs[col - first_local].is_none();
        // the rows with a plain local, by direction up to sign: [as found, flipped]
        let mut sides: HashMap<Direction, [Option<usize>; 2], BuildRowHasher> = HashMap::default();
        for (i, r) in self.ineqs.iter().enumerate() {
            if !(first_local..self.n_col()).any(|col| !r[col].is_zero() && plain(col)) {
                continue;
            }
            let d = Direction::of(r);
            let slot = usize::from(d.flip);
            sides.entry(d).or_default()[slot].get_or_insert(i);
        }
        let mut pairs: Vec<(usize, usize)> = sides
            .values()
            .filter_map(|s| Some((s[0]?, s[1]?)))
            .collect();
        pairs.sort_unstable();
        pairs
    }

    /// Puts the locals in a canonical order, so that equal conjunctions built in
    /// different ways compare equal structurally: a topological order of the division
    /// definitions in which, among the locals whose definition only uses placed
    /// columns, divisions come first, smallest definition first (over the non-local
    /// columns, then the new positions of the locals they use, then the denominator),
    /// and plain existentials keep their relative order. Returns whether the order
    /// changed.
    fn canonical_local_order(&mut self) -> bool {
        let first_local = 1 + self.space.n_var();
        let n = self.n_local();
        if n < 2 {
            return false;
        }
        let mut new_pos: Vec<Option<usize>> = vec![None; n];
        let mut order = Vec::with_capacity(n);
        type Key = (u8, Vec<Int>, Vec<(usize, Int)>, Int, usize);
        while order.len() < n {
            let mut best: Option<(Key, usize)> = None;
            for l in 0..n {
                if new_pos[l].is_some() {
                    continue;
                }
                let key: Key = match &self.divs[l] {
                    None => (1, Vec::new(), Vec::new(), Int::ZERO, l),
                    Some(d) => {
                        let mut refs = Vec::new();
                        let mut ready = true;
                        for (k, v) in d.num[first_local..].iter().enumerate() {
                            if !v.is_zero() {
                                match new_pos[k] {
                                    Some(p) => refs.push((p, v.clone())),
                                    None => ready = false,
                                }
                            }
                        }
                        if !ready {
                            continue;
                        }
                        refs.sort();
                        (0, d.num[..first_local].to_vec(), refs, d.den.clone(), l)
                    }
                };
                if best.as_ref().is_none_or(|(b, _)| key < *b) {
                    best = Some((key, l));
                }
            }
            let Some((_, l)) = best else { return false };
            new_pos[l] = Some(order.len());
            order.push(l);
        }
        if order.iter().enumerate().all(|(k, &l)| k == l) {
            return false;
        }
        let mut colmap: Vec<usize> = (0..self.n_col()).collect();
        for (l, p) in new_pos.iter().enumerate() {
            colmap[first_local + l] = first_local + p.unwrap_or(l);
        }
        *self = self.remap(self.space.clone(), n, &colmap);
        true
    }

    /// Reduces each division definition by the gcd of numerator and denominator.
    /// A denominator of 1 leaves an affine function, which the defining inequalities
    /// turn into an equality that eliminates the local.
    fn normalize_divs(&mut self) {
        for d in self.divs.iter_mut().flatten() {
            let g = gcd_all(d.num.iter()).gcd(&d.den);
            if !g.is_zero() && !g.is_one() {
                for c in &mut d.num {
                    *c = c.exact_div(&g);
                }
                d.den = d.den.exact_div(&g);
            }
        }
    }

    /// Normalises the equalities from `eq_from` on and the inequalities from
    /// `ineq_from` on (the earlier ones are normalised already), dropping those that
    /// always hold; `Err` when one never holds.
    fn normalize_rows_from(
        &mut self,
        eq_from: usize,
        ineq_from: usize,
    ) -> std::result::Result<(), ()> {
        normalize_tail(&mut self.eqs, eq_from, normalize_eq)?;
        normalize_tail(&mut self.ineqs, ineq_from, normalize_ineq)
    }

    /// Exact Gaussian elimination: each equality eliminates its pivot (last non-zero
    /// column) from every other row; inequalities are scaled by the positive pivot
    /// coefficient first, which keeps their direction, and the equality stays in the
    /// system, so the set of integer points does not change.
    ///
    /// Every row it changes is normalised, and rows that become constant (and hold)
    /// are dropped at the end in one sweep, so redundant equalities cost a sweep
    /// each only until they are reduced to zero, not a removal from the middle.
    fn gauss(&mut self) -> std::result::Result<(), ()> {
        let mut k = 0;
        let (mut zero_eqs, mut const_ineqs) = (false, false);
        while k < self.eqs.len() {
            match normalize_eq(&mut self.eqs[k]) {
                Some(true) => {
                    zero_eqs = true;
                    k += 1;
                    continue;
                }
                Some(false) => return Err(()),
                None => {}
            }
            let Some(p) = last_nonzero(&self.eqs[k]) else {
                return Err(());
            };
            let pivot = self.eqs[k].clone();
            let a = &pivot[p];
            // An earlier row keeps its own pivot: this row is zero there, and its
            // pivot lies either beyond the earlier row's last column or before it.
            for (j, r) in self.eqs.iter_mut().enumerate() {
                if j != k && !r[p].is_zero() {
                    let b = r[p].clone();
                    combine(r, a, &b, &pivot);
                    if normalize_eq(r) == Some(false) {
                        return Err(());
                    }
                }
            }
            for r in self.ineqs.iter_mut() {
                if !r[p].is_zero() {
                    let b = r[p].clone();
                    combine(r, a, &b, &pivot);
                    match normalize_ineq(r) {
                        Some(false) => return Err(()),
                        Some(true) => const_ineqs = true,
                        None => {}
                    }
                }
            }
            // A division numerator may use the equality too (it holds wherever the
            // division is evaluated): floor(n/d) = floor((a·n - n_p·eq) / (a·d)),
            // when the equality only uses columns before the division's own.
            let first_local = 1 + self.space.n_var();
            for (l, d) in self.divs.iter_mut().enumerate() {
                if let Some(d) = d {
                    if p < first_local + l && !d.num[p].is_zero() {
                        let b = d.num[p].clone();
                        combine(&mut d.num, a, &b, &pivot);
                        d.den = &d.den * a;
                        let g = gcd_all(d.num.iter()).gcd(&d.den);
                        if !g.is_one() && !g.is_zero() {
                            d.num.iter_mut().for_each(|v| *v = v.exact_div(&g));
                            d.den = d.den.exact_div(&g);
                        }
                    }
                }
            }
            k += 1;
        }
        let non_constant = |r: &Row| r[1..].iter().any(|v| !v.is_zero());
        if zero_eqs {
            self.eqs.retain(non_constant);
        }
        if const_ineqs {
            self.ineqs.retain(non_constant);
        }
        Ok(())
    }

    /// Merges parallel inequalities and opposite pairs (see [`merge_parallel`]).
    fn merge_ineqs(&mut self) -> std::result::Result<(), ()> {
        let (eqs, ineqs) = merge_parallel(std::mem::take(&mut self.ineqs)).ok_or(())?;
        self.ineqs = ineqs;
        self.eqs.extend(eqs);
        Ok(())
    }

    /// A local `l` with a unit coefficient in an equality equals an affine expression
    /// of the other columns; substitute it everywhere and drop it (locals without a
    /// division definition first). A division
    /// definition that would then refer to itself or a later column is forgotten
    /// (its defining inequalities stay, so the meaning does not change).
    fn eliminate_unit_locals(&mut self) -> bool {
        let first_local = 1 + self.space.n_var();
        // Prefer a local without a division definition: eliminating it loses nothing.
        let unit = |plain: bool| {
            self.eqs.iter().enumerate().find_map(|(i, r)| {
                (first_local..r.len())
                    .rev()
                    .find(|&c| {
                        r[c].abs().is_one() && (!plain || self.divs[c - first_local].is_none())
                    })
                    .map(|c| (i, c))
            })
        };
        let found = unit(true).or_else(|| unit(false));
        let Some((i, col)) = found else {
            return false;
        };
        let eq = self.eqs.remove(i);
        let subst = |r: &mut Row| substitute_unit(r, &eq, col);
        self.eqs.iter_mut().for_each(subst);
        self.ineqs.iter_mut().for_each(subst);
        let mut forget = Vec::new();
        for (l, d) in self.divs.iter_mut().enumerate() {
            if let Some(div) = d {
                subst(&mut div.num);
                let own = first_local + l;
                if div.num[own..].iter().any(|v| !v.is_zero()) {
                    forget.push(l);
                }
            }
        }
        for l in forget {
            self.divs[l] = None;
        }
        self.remove_local(col - first_local);
        true
    }

    fn remove_local(&mut self, l: usize) {
        let col = 1 + self.space.n_var() + l;
        self.remove_cols(col, 1);
        self.divs.remove(l);
    }

    /// A division with denominator 1 (e.g. after an equality was substituted into
    /// it) is an affine function: state `l = num` as an equality, which the unit-local
    /// elimination then uses to remove the local.
    fn affine_divs_to_equalities(&mut self) -> bool {
        let first_local = 1 + self.space.n_var();
        let mut changed = false;
        for l in 0..self.divs.len() {
            if self.divs[l].as_ref().is_some_and(|d| d.den.is_one()) {
                if let Some(d) = self.divs[l].take() {
                    let mut row = d.num;
                    row[first_local + l] = Int::from(-1);
                    self.eqs.push(row);
                    changed = true;
                }
            }
        }
        changed
    }

    /// Two locals with the same division definition are the same value: rewrite the
    /// later one as the earlier one.
    ///
    /// The pair found is the first local whose definition occurred before, with that
    /// first occurrence; few locals are compared pairwise, many through a hash map.
    fn merge_equal_divs(&mut self) -> bool {
        const PAIRWISE: usize = 8;
        let first_local = 1 + self.space.n_var();
        let mut pair = None;
        if self.divs.len() <= PAIRWISE {
            'found: for (l, d) in self.divs.iter().enumerate() {
                let Some(d) = d else { continue };
                for k in 0..l {
                    if self.divs[k].as_ref() == Some(d) {
                        pair = Some((k, l));
                        break 'found;
                    }
                }
            }
        } else {
            let mut seen: HashMap<&Div, usize, BuildRowHasher> = HashMap::default();
            for (l, d) in self.divs.iter().enumerate() {
                if let Some(d) = d {
                    if let Some(&k) = seen.get(d) {
                        pair = Some((k, l));
                        break;
                    }
                    seen.insert(d, l);
                }
            }
        }
        let Some((keep, drop)) = pair else {
            return false;
        };
        let (ck, cd) = (first_local + keep, first_local + drop);
        let fold = |r: &mut Row| {
            if !r[cd].is_zero() {
                let v = std::mem::take(&mut r[cd]);
                r[ck] += v;
            }
        };
        self.eqs.iter_mut().for_each(fold);
        self.ineqs.iter_mut().for_each(fold);
        self.divs
            .iter_mut()
            .flatten()
            .for_each(|d| fold(&mut d.num));
        self.remove_local(drop);
        true
    }

    /// Drops locals that no constraint uses, and division locals whose constraints
    /// are all implied by their definition (those always have a solution), unless
    /// another definition or an equality uses them.
    fn remove_unused_locals(&mut self) {
        self.remove_unused_locals_from(0);
    }

    /// As [`Conjunction::remove_unused_locals`], for the locals from index
    /// `from` on only: the columns before them keep their places. The same
    /// set (a dropped local always has a value: it is unconstrained, or a
    /// division whose rows its definition satisfies). One pass from the last
    /// local down drops a chain of definitions that only each other use.
    pub(crate) fn remove_unused_locals_from(&mut self, from: usize) {
        let first_local = 1 + self.space.n_var();
        let mut l = self.n_local();
        while l > from {
            l -= 1;
            let col = first_local + l;
            let referenced = self
                .divs
                .iter()
                .flatten()
                .any(|d| d.num.get(col).is_some_and(|v| !v.is_zero()));
            if referenced || self.eqs.iter().any(|r| !r[col].is_zero()) {
                continue;
            }
            let mut users = self.ineqs.iter().filter(|r| !r[col].is_zero()).peekable();
            let unused = users.peek().is_none();
            let removable = unused
                || self.divs[l]
                    .as_ref()
                    .is_some_and(|d| users.all(|r| implied_by_div(r, d, col)));
            if removable {
                // the users are exactly the inequalities that use the column
                if !unused {
                    self.ineqs.retain(|r| r[col].is_zero());
                }
                self.remove_local(l);
            }
        }
    }

    /// Structural equality after simplification of both sides: same space, same
    /// locals and definitions, same rows. `false` does not mean the sets differ.
    pub fn plain_is_equal(&self, other: &Conjunction) -> bool {
        let mut a = self.clone();
        let mut b = other.clone();
        a.simplify();
        b.simplify();
        a.space.is_same(&b.space) && a.divs == b.divs && a.eqs == b.eqs && a.ineqs == b.ineqs
    }

    /// Structural inclusion as the rows stand (no simplification): the same
    /// space and locals with the same definitions, every equality of `other`
    /// among those of `self` (also as its negation), and every inequality of
    /// `other` implied by one of `self` with the same coefficients and a
    /// constant as small or smaller, so every point of `self` is one of `other`. `false` does not mean it is not a subset.
    /// Costs a comparison of rows, no solver call.
    pub fn plain_is_subset(&self, other: &Conjunction) -> bool {
        if !self.space.is_same(&other.space)
            || self.divs != other.divs
            || other.eqs.len() > self.eqs.len()
            || other.ineqs.len() > self.ineqs.len()
        {
            return false;
        }
        let negated = |r: &Row| -> Row { r.iter().map(|v| -v).collect() };
        other
            .eqs
            .iter()
            .all(|e| self.eqs.contains(e) || self.eqs.contains(&negated(e)))
            && other
                .ineqs
                .iter()
                .all(|r| self.ineqs.iter().any(|t| implies_row(t, r)))
    }

    /// The values at `x` (parameters and dimensions) of all the columns after
    /// the constant: `x`, then each local as its division evaluated at the
    /// columns before it. `None` when a local has no such definition (a plain
    /// existential, or a definition using a later local): then the value of
    /// a local at `x` is not fixed.
    pub(crate) fn with_div_values(&self, x: &[Int]) -> Option<Vec<Int>> {
        let nv = self.space.n_var();
        let mut vals: Vec<Int> = Vec::with_capacity(nv + self.divs.len());
        vals.extend_from_slice(x.get(..nv)?);
        for (l, d) in self.divs.iter().enumerate() {
            let d = d.as_ref()?;
            if d.num.iter().skip(1 + nv + l).any(|v| !v.is_zero()) || !d.den.is_positive() {
                return None;
            }
            vals.push(Conjunction::eval_row(&d.num, &vals).floor_div(&d.den));
        }
        Some(vals)
    }

    /// True when `vals`, values of all the columns after the constant, gives
    /// each local the value of its division at the columns before it: then
    /// `vals` is [`Conjunction::with_div_values`] of its first values (the
    /// same test, without building the vector). False when a local has no
    /// such definition, or `vals` has not one value per column.
    pub(crate) fn has_div_values(&self, vals: &[Int]) -> bool {
        let nv = self.space.n_var();
        if vals.len() != nv + self.divs.len() {
            return false;
        }
        self.divs.iter().enumerate().all(|(l, d)| {
            d.as_ref().is_some_and(|d| {
                d.num.iter().skip(1 + nv + l).all(Int::is_zero)
                    && d.den.is_positive()
                    && Conjunction::eval_row(&d.num, &vals[..nv + l]).floor_div(&d.den)
                        == vals[nv + l]
            })
        })
    }

    /// True when every equality is zero and every inequality non-negative at
    /// `vals`, a full assignment of the columns after the constant.
    pub(crate) fn satisfied_by(&self, vals: &[Int]) -> bool {
        self.eqs
            .iter()
            .all(|e| Conjunction::eval_row(e, vals).is_zero())
            && self
                .ineqs
                .iter()
                .all(|r| !Conjunction::eval_row(r, vals).is_negative())
    }

    /// Evaluates a row at a full assignment of the columns after the constant.
    pub fn eval_row(row: &Row, vals: &[Int]) -> Int {
        // in machine words while every entry is small and the sum fits
        // (a product of two `i64` fits an `i128`)
        let small = || -> Option<i128> {
            let mut s = i128::from(row[0].small()?);
            for (c, v) in row[1..].iter().zip(vals) {
                let c = c.small()?;
                if c != 0 {
                    s = s.checked_add(i128::from(c) * i128::from(v.small()?))?;
                }
            }
            Some(s)
        };
        if let Some(s) = small() {
            return Int::from_wide(s);
        }
        let mut s = row[0].clone();
        for (c, v) in row[1..].iter().zip(vals) {
            if !c.is_zero() {
                s += c * v;
            }
        }
        s
    }
}

/// True when the inequality `t >= 0` implies `r >= 0` because they have the
/// same coefficients and `t`'s constant is not larger (the same row, or a
/// tighter parallel one).
pub(crate) fn implies_row(t: &Row, r: &Row) -> bool {
    t.len() == r.len() && t[1..] == r[1..] && t[0] <= r[0]
}

/// Normalises `rows[from..]` with `norm` in place, dropping the rows that always
/// hold (order kept); `Err` when one never holds.
fn normalize_tail(
    rows: &mut Vec<Row>,
    from: usize,
    norm: fn(&mut Row) -> Option<bool>,
) -> std::result::Result<(), ()> {
    let mut w = from;
    for r in from..rows.len() {
        match norm(&mut rows[r]) {
            Some(true) => {}
            Some(false) => return Err(()),
            None => {
                rows.swap(w, r);
                w += 1;
            }
        }
    }
    rows.truncate(w);
    Ok(())
}

/// A small, fast, non-cryptographic hasher for rows of integers (the
/// multiply-and-rotate scheme of rustc's "Fx" hash, written here): each word is
/// mixed in with one rotation, one xor and one multiplication. The default SipHash
/// costs more than the rest of a small simplification; a hash-flooding attack on
/// these maps would only make one simplification slow, not wrong.
#[derive(Default, Clone, Copy)]
pub struct RowHasher(u64);

impl RowHasher {
    const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

    #[inline]
    fn add(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(Self::SEED);
    }
}

impl Hasher for RowHasher {
    #[inline]
    fn finish(&self) -> u64 {
        // the multiplication leaves the low bits weakest; hash tables index by them
        self.0.rotate_left(26)
    }

    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes([
                c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7],
            ]));
        }
        for &b in chunks.remainder() {
            self.add(u64::from(b));
        }
    }

    #[inline]
    fn write_u64(&mut self, v: u64) {
        self.add(v);
    }

    #[inline]
    fn write_i64(&mut self, v: i64) {
        self.add(v as u64);
    }

    #[inline]
    fn write_usize(&mut self, v: usize) {
        self.add(v as u64);
    }

    #[inline]
    fn write_isize(&mut self, v: isize) {
        self.add(v as u64);
    }
}

/// Hash-map builder for [`RowHasher`].
pub type BuildRowHasher = BuildHasherDefault<RowHasher>;

/// The value `s·v` modulo 2⁶⁴ (`s = -1` when `flip`): the same word for equal values
/// whatever their representation (`-i64::MIN` is big, and so is its word's source).
#[inline]
fn signed_word(v: &Int, flip: bool) -> u64 {
    let w = v.low_word();
    if flip { w.wrapping_neg() } else { w }
}

/// `a == -b` without building `-b` in the common case.
#[inline]
fn is_negation(a: &Int, b: &Int) -> bool {
    match (a.small(), b.small()) {
        (Some(x), Some(y)) => i128::from(x) == -i128::from(y),
        _ => *a == -b,
    }
}

/// The direction of an inequality up to its sign: the coefficients (row without the
/// constant), multiplied by -1 when `flip`. Rows are flipped when their first
/// non-zero coefficient is negative, so a row and its opposite get equal keys;
/// hashing and comparison read the row in place (no key is built).
#[derive(Clone, Copy)]
struct Direction<'a> {
    coefs: &'a [Int],
    flip: bool,
}

impl<'a> Direction<'a> {
    fn of(row: &'a [Int]) -> Direction<'a> {
        let coefs = &row[1..];
        let flip = coefs
            .iter()
            .find(|v| !v.is_zero())
            .is_some_and(Int::is_negative);
        Direction { coefs, flip }
    }
}

impl PartialEq for Direction<'_> {
    fn eq(&self, o: &Self) -> bool {
        self.coefs.len() == o.coefs.len()
            && if self.flip == o.flip {
                self.coefs == o.coefs
            } else {
                self.coefs
                    .iter()
                    .zip(o.coefs)
                    .all(|(a, b)| is_negation(a, b))
            }
    }
}

impl Eq for Direction<'_> {}

impl Hash for Direction<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        for v in self.coefs {
            state.write_u64(signed_word(v, self.flip));
        }
    }
}

/// Merges normalised inequalities: of parallel ones (same coefficients) keeps the
/// tightest, turns a pair `a + c >= 0`, `-a - c >= 0` into the equality `a + c = 0`,
/// and returns `None` for a pair that leaves no room (`a + c1 >= 0`, `-a + c2 >= 0`
/// with `c1 + c2 < 0`). Returns the new equalities and the remaining inequalities, in
/// their first order of appearance: an equality where the first row of its pair
/// appeared (written with that row's coefficients), an inequality where the first
/// row of its coefficients appeared.
///
/// The idea: a row and its opposite fall in one group, keyed by the direction up to
/// sign ([`Direction`], hashed with [`RowHasher`] straight from the row), and each
/// group remembers per sign the first row and the tightest row; nothing is allocated
/// per row and the rows are moved, not copied, to the result. A handful of rows is
/// grouped by comparing with every group found so far instead of hashing.
pub(crate) fn merge_parallel(mut ineqs: Vec<Row>) -> Option<(Vec<Row>, Vec<Row>)> {
    /// Per sign (index 0: as found first-positive, 1: flipped): (first row, tightest row).
    type Sides = [Option<(usize, usize)>; 2];
    const PAIRWISE: usize = 16;
    let n = ineqs.len();
    let mut groups: SmallVec<[Sides; PAIRWISE]> = SmallVec::with_capacity(n);
    // (group, side) in the order in which each side first appeared
    let mut order: SmallVec<[(usize, usize); PAIRWISE]> = SmallVec::with_capacity(n);
    {
        // few rows: the groups' directions with their hashes, scanned in turn
        let mut reps: SmallVec<[(u64, Direction); PAIRWISE]> = SmallVec::new();
        let mut map: HashMap<Direction, usize, BuildRowHasher> = HashMap::default();
        if n > PAIRWISE {
            map.reserve(n);
        }
        for i in 0..n {
            let dir = Direction::of(&ineqs[i]);
            let g = if n <= PAIRWISE {
                let mut h = RowHasher::default();
                dir.hash(&mut h);
                let h = h.finish();
                match reps.iter().position(|(hr, r)| *hr == h && *r == dir) {
                    Some(g) => g,
                    None => {
                        reps.push((h, dir));
                        groups.push([None, None]);
                        reps.len() - 1
                    }
                }
            } else {
                let next = groups.len();
                let g = *map.entry(dir).or_insert(next);
                if g == next {
                    groups.push([None, None]);
                }
                g
            };
            let side = usize::from(dir.flip);
            match &mut groups[g][side] {
                None => {
                    groups[g][side] = Some((i, i));
                    order.push((g, side));
                }
                Some((_, best)) => {
                    if ineqs[i][0] < ineqs[*best][0] {
                        *best = i;
                    }
                }
            }
        }
    }
    let mut eqs = Vec::new();
    let mut out = Vec::with_capacity(order.len());
    // whether the pair of sides of a group was looked at (and kept as inequalities)
    let mut looked_at: SmallVec<[bool; PAIRWISE]> = smallvec::smallvec![false; groups.len()];
    for (g, side) in order {
        let Some((_, best)) = groups[g][side] else {
            continue;
        };
        if !looked_at[g] {
            looked_at[g] = true;
            // a row without coefficients is its own opposite
            let other = if ineqs[best][1..].iter().all(Int::is_zero) {
                Some(best)
            } else {
                groups[g][1 - side].map(|(_, b)| b)
            };
            if let Some(o) = other {
                let s = &ineqs[best][0] + &ineqs[o][0];
                if s.is_negative() {
                    return None;
                }
                if s.is_zero() {
                    // the opposite side's first row comes later: it is skipped
                    groups[g] = [None, None];
                    eqs.push(std::mem::take(&mut ineqs[best]));
                    continue;
                }
            }
        }
        out.push(std::mem::take(&mut ineqs[best]));
    }
    Some((eqs, out))
}

/// True when the inequality `r >= 0`, which uses local column `col`, follows from the
/// definition `l = floor(num / den)` alone, i.e. `0 <= num - den·l <= den - 1`.
/// With `q = r[col]`, such an `r` is `k·(num - den·l) + c` (`k = -q/den`), so
/// `t = den·r + q·(num - den·l)` must be the constant `den·c`; the inequality holds
/// for every value of `num - den·l` in its range when `c >= 0` (`q < 0`) or
/// `c >= k·(den-1)` (`q > 0`).
pub(crate) fn implied_by_div(r: &Row, d: &Div, col: usize) -> bool {
    let q = &r[col];
    let t: Row = r
        .iter()
        .zip(&d.num)
        .enumerate()
        .map(|(c, (rv, nv))| {
            let n = if c == col { -&d.den } else { nv.clone() };
            rv.mul_add_mul(&d.den, q, &n)
        })
        .collect();
    if t[1..].iter().any(|v| !v.is_zero()) {
        return false;
    }
    if q.is_negative() {
        !t[0].is_negative()
    } else {
        t[0] >= q * (&d.den - 1)
    }
}

/// The two inequalities that define local column `col` as `floor(num / den)`:
/// `num - den·l >= 0` and `-num + den·l + den - 1 >= 0`.
pub(crate) fn div_constraints(d: &Div, col: usize) -> (Row, Row) {
    let mut lo = d.num.clone();
    lo[col] = -&d.den;
    let mut hi: Row = d.num.iter().map(|v| -v).collect();
    hi[col] = d.den.clone();
    hi[0] += &d.den - 1;
    (lo, hi)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::Tuple;
    use proptest::prelude::*;

    fn space1() -> Space {
        Space::set(vec![], Tuple::new(None, &["i"]))
    }

    fn row(v: &[i64]) -> Row {
        v.iter().map(|&x| Int::from(x)).collect()
    }

    proptest! {
        /// `eval_row` in machine words agrees with the sum on `Int`s, also
        /// where products and sums leave `i64` (and `i128` for the sum).
        #[test]
        fn eval_row_matches_int_arithmetic(
            r in proptest::collection::vec(prop_oneof![-3i64..3, Just(i64::MAX), Just(i64::MIN)], 4),
            x in proptest::collection::vec(prop_oneof![-3i64..3, Just(i64::MAX), Just(i64::MIN)], 3),
        ) {
            let (r, x) = (row(&r), row(&x));
            let mut want = r[0].clone();
            for (c, v) in r[1..].iter().zip(&x) {
                want += c * v;
            }
            prop_assert_eq!(Conjunction::eval_row(&r, &x), want);
        }

        /// `has_div_values` says whether the values are those that
        /// `with_div_values` builds: at the division values, and with a
        /// division column moved by one.
        #[test]
        fn has_div_values_matches_with_div_values(i in -20i64..20, l in 0usize..2, delta in -1i64..=1) {
            let mut c = Conjunction::universe(space1());
            // d0 = floor(i / 3), d1 = floor((i + 2·d0 + 1) / 2)
            c.add_local(Some(Div { num: row(&[0, 1, 0]), den: Int::from(3) })).unwrap();
            c.add_local(Some(Div { num: row(&[1, 1, 2, 0]), den: Int::from(2) })).unwrap();
            let mut vals = c.with_div_values(&row(&[i])).unwrap();
            prop_assert!(c.has_div_values(&vals));
            vals[1 + l] += Int::from(delta);
            prop_assert_eq!(c.has_div_values(&vals), delta == 0);
            prop_assert!(!c.has_div_values(&vals[..2]));
        }
    }

    #[test]
    fn plain_inclusion_compares_rows() {
        let mut big = Conjunction::universe(space1());
        big.add_eq(row(&[-4, 2])).unwrap(); // 2i - 4 = 0
        big.add_ineq(row(&[0, 1])).unwrap();
        big.add_ineq(row(&[7, -1])).unwrap();
        let mut small = Conjunction::universe(space1());
        small.add_eq(row(&[4, -2])).unwrap(); // the same equality, negated
        small.add_ineq(row(&[7, -1])).unwrap();
        assert!(big.plain_is_subset(&small));
        assert!(!small.plain_is_subset(&big));
        small.add_ineq(row(&[1, 1])).unwrap(); // i >= -1: implied by `big`'s i >= 0
        assert!(big.plain_is_subset(&small));
        small.add_ineq(row(&[-1, 1])).unwrap(); // i >= 1: not
        assert!(!big.plain_is_subset(&small));
    }

    #[test]
    fn tightening_and_opposite_pairs() {
        let mut c = Conjunction::universe(space1());
        c.add_ineq(row(&[1, 2])).unwrap(); // 2i + 1 >= 0  ->  i >= 0
        c.add_ineq(row(&[0, -3])).unwrap(); // -3i >= 0  ->  i <= 0
        c.simplify();
        assert_eq!(c.eqs, vec![row(&[0, 1])]);
        assert!(c.ineqs.is_empty());
    }

    #[test]
    fn gcd_test_empties() {
        let mut c = Conjunction::universe(space1());
        c.add_eq(row(&[1, 2])).unwrap(); // 2i + 1 = 0
        c.simplify();
        assert!(c.is_trivially_empty());
    }

    #[test]
    fn crossing_bounds_empty() {
        let mut c = Conjunction::universe(space1());
        c.add_ineq(row(&[-5, 1])).unwrap(); // i >= 5
        c.add_ineq(row(&[4, -1])).unwrap(); // i <= 4
        c.simplify();
        assert!(c.is_trivially_empty());
    }

    #[test]
    fn unit_local_is_substituted() {
        // { [i] : exists e : e = i + 1 and e >= 3 }  ==  { [i] : i >= 2 }
        let mut c = Conjunction::universe(space1());
        let e = c.add_local(None).unwrap();
        assert_eq!(e, 2);
        c.add_eq(row(&[1, 1, -1])).unwrap();
        c.add_ineq(row(&[-3, 0, 1])).unwrap();
        c.simplify();
        assert_eq!(c.n_local(), 0);
        assert_eq!(c.ineqs, vec![row(&[-2, 1])]);
    }

    #[test]
    fn stride_local_is_kept() {
        // { [i] : exists e : i = 2e }
        let mut c = Conjunction::universe(space1());
        c.add_local(None).unwrap();
        c.add_eq(row(&[0, 1, -2])).unwrap();
        c.simplify();
        assert_eq!(c.n_local(), 1);
        assert_eq!(c.eqs.len(), 1);
    }

    #[test]
    fn unused_division_is_dropped_and_equal_divs_merge() {
        let mut c = Conjunction::universe(space1());
        let d = Div {
            num: row(&[0, 1]),
            den: Int::from(2),
        };
        c.add_local(Some(d.clone())).unwrap();
        c.simplify();
        assert_eq!(c.n_local(), 0);
        assert!(c.is_trivially_universe());

        let mut c = Conjunction::universe(space1());
        let a = c.add_local(Some(d.clone())).unwrap();
        let b = c.add_local(Some(d)).unwrap();
        let mut r = row(&[0, 0, 1, 1]);
        r[0] = Int::from(-1);
        let _ = (a, b);
        c.add_ineq(r).unwrap(); // floor(i/2) + floor(i/2) >= 1
        c.simplify();
        assert_eq!(c.n_local(), 1);
    }

    #[test]
    fn gauss_reduces_all_equalities() {
        // i + j = 3, j = 1 (in a 2-d space) gives i = 2, j = 1
        let s = Space::set(vec![], Tuple::new(None, &["i", "j"]));
        let mut c = Conjunction::universe(s);
        c.add_eq(row(&[-3, 1, 1])).unwrap();
        c.add_eq(row(&[-1, 0, 1])).unwrap();
        c.add_ineq(row(&[5, 1, 1])).unwrap(); // i + j + 5 >= 0: implied, becomes constant
        c.simplify();
        assert_eq!(c.eqs, vec![row(&[-2, 1, 0]), row(&[-1, 0, 1])]);
        assert!(c.ineqs.is_empty());
    }

    /// The straightforward merge: a map from the coefficient vector to the tightest
    /// constant, then a look-up of each negated vector (the implementation
    /// `merge_parallel` replaced, kept here as the reference).
    fn reference_merge_parallel(ineqs: Vec<Row>) -> Option<(Vec<Row>, Vec<Row>)> {
        let mut best: HashMap<Vec<Int>, Int> = HashMap::new();
        let mut order: Vec<Vec<Int>> = Vec::new();
        for mut r in ineqs {
            let c = std::mem::take(&mut r[0]);
            let key = r.split_off(1);
            match best.get_mut(&key) {
                Some(old) => {
                    if c < *old {
                        *old = c;
                    }
                }
                None => {
                    order.push(key.clone());
                    best.insert(key, c);
                }
            }
        }
        let mut eqs = Vec::new();
        let mut out = Vec::new();
        let mut paired: std::collections::HashSet<Vec<Int>> = Default::default();
        for key in order {
            if paired.contains(&key) {
                continue;
            }
            let c = best[&key].clone();
            let neg: Vec<Int> = key.iter().map(|v| -v).collect();
            if let Some(c2) = best.get(&neg) {
                let s = &c + c2;
                if s.is_negative() {
                    return None;
                }
                if s.is_zero() {
                    paired.insert(neg);
                    eqs.push([vec![c], key].concat());
                    continue;
                }
            }
            out.push([vec![c], key].concat());
        }
        Some((eqs, out))
    }

    fn big(v: i128) -> Int {
        Int::from(v)
    }

    #[test]
    fn merge_parallel_equal_parallel_opposite_and_big() {
        let two63 = 1i128 << 63;
        let cases: Vec<Vec<Row>> = vec![
            // duplicates keep the tightest, in first order
            vec![
                row(&[5, 1, 2]),
                row(&[3, 1, 2]),
                row(&[0, 0, 1]),
                row(&[7, 1, 2]),
            ],
            // an opposite pair with a zero sum is an equality, written as the first
            vec![row(&[0, 1]), row(&[-2, 1]), row(&[3, -1]), row(&[-3, 1])],
            // opposite with room, and opposite without room
            vec![row(&[4, 1, -1]), row(&[-1, -1, 1])],
            vec![row(&[4, 1, -1]), row(&[-5, -1, 1])],
            // a row without coefficients is its own opposite
            vec![row(&[0, 0, 0]), row(&[1, 2, 3])],
            vec![row(&[2, 0, 0])],
            vec![row(&[-1, 0, 0]), row(&[1, 2, 3])],
            // i64::MIN (small) against 2^63 (big): opposite coefficients
            vec![
                vec![big(5), big(-two63)],
                vec![big(-5), big(two63)],
                vec![big(1), big(two63)],
            ],
            // beyond i64 on both sides, equal and opposite
            vec![
                vec![big(1 << 70), big(3 << 64), big(-(1 << 66))],
                vec![big(2), big(3 << 64), big(-(1 << 66))],
                vec![big(-2), big(-(3 << 64)), big(1 << 66)],
                vec![big(9), big(i64::MAX as i128), big(i64::MIN as i128)],
                vec![big(-9), big(-(i64::MAX as i128)), big(two63)],
            ],
            vec![],
        ];
        for rows in cases {
            let want = reference_merge_parallel(rows.clone());
            let got = merge_parallel(rows.clone());
            assert_eq!(got, want, "rows {rows:?}");
        }
        // a few concrete answers
        let (e, i) = merge_parallel(vec![row(&[5, 1, 2]), row(&[3, 1, 2])]).unwrap();
        assert!(e.is_empty());
        assert_eq!(i, vec![row(&[3, 1, 2])]);
        let (e, i) =
            merge_parallel(vec![vec![big(5), big(-two63)], vec![big(-5), big(two63)]]).unwrap();
        assert_eq!(e, vec![vec![big(5), big(-two63)]]);
        assert!(i.is_empty());
        assert_eq!(merge_parallel(vec![row(&[4, 1]), row(&[-5, -1])]), None);
    }

    /// Coefficients and constants near the ends of the small form and beyond.
    fn value() -> impl Strategy<Value = Int> {
        prop_oneof![
            6 => (-3i64..=3).prop_map(Int::from),
            1 => prop_oneof![
                Just(i64::MIN as i128),
                Just(i64::MAX as i128),
                Just(1i128 << 63),
                Just(-(1i128 << 63) - 1),
                Just(1i128 << 90),
                Just(-(1i128 << 90)),
            ]
            .prop_map(Int::from),
        ]
    }

    /// Rows built from a few directions: multiples (1, -1, 2, -2) of them with
    /// independent constants, so equal, parallel and opposite rows are frequent.
    fn parallel_rows() -> impl Strategy<Value = Vec<Row>> {
        (1usize..4, 1usize..4).prop_flat_map(|(width, n_dirs)| {
            let dirs = proptest::collection::vec(proptest::collection::vec(value(), width), n_dirs);
            (
                dirs,
                proptest::collection::vec((0usize..4, 0usize..4, value(), -4i64..=4), 0..24),
            )
                .prop_map(|(dirs, picks)| {
                    picks
                        .into_iter()
                        .map(|(d, m, c, dc)| {
                            let k = [1i64, -1, 2, -2][m];
                            let mut r = vec![c + dc];
                            r.extend(dirs[d % dirs.len()].iter().map(|v| v * k));
                            r
                        })
                        .collect()
                })
        })
    }

    /// A conjunction without locals over 3 variables with the given rows.
    fn conj3(eqs: Vec<Row>, ineqs: Vec<Row>) -> Conjunction {
        let s = Space::set(vec![], Tuple::new(None, &["a", "b", "c"]));
        let mut c = Conjunction::universe(s);
        for r in eqs {
            c.add_eq(r).unwrap();
        }
        for r in ineqs {
            c.add_ineq(r).unwrap();
        }
        c
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        /// The hashed grouping gives exactly the reference's equalities, inequalities
        /// and order (also on rows that are not normalised).
        #[test]
        fn merge_parallel_matches_the_reference(rows in parallel_rows()) {
            prop_assert_eq!(merge_parallel(rows.clone()), reference_merge_parallel(rows));
        }

        /// Without locals one pass is final: another pass changes nothing (this is
        /// what lets `simplify` stop after one pass, without a copy).
        #[test]
        fn one_pass_without_locals_is_final(
            eqs in proptest::collection::vec(proptest::collection::vec(-3i64..=3, 4), 0..3),
            ineqs in proptest::collection::vec(proptest::collection::vec(-3i64..=3, 4), 0..10),
        ) {
            let mut c = conj3(
                eqs.iter().map(|r| row(r)).collect(),
                ineqs.iter().map(|r| row(r)).collect(),
            );
            c.simplify();
            let once = (c.eqs.clone(), c.ineqs.clone());
            let fin = c.simplify_inner();
            prop_assert!(fin != Ok(false));
            if fin.is_ok() {
                prop_assert_eq!((c.eqs.clone(), c.ineqs.clone()), once);
            } else {
                prop_assert!(c.is_trivially_empty());
            }
        }
    }

    #[test]
    fn many_redundant_equalities_and_rows() {
        // 20,000 copies of two equalities and of a few inequalities simplify to the
        // same rows as one copy (the copies are reduced to zero and dropped together)
        let eqs = [row(&[-1, 1, -1, 0]), row(&[0, 0, 1, -2])];
        let ineqs = [
            row(&[10, -1, 0, 0]),
            row(&[0, 0, 0, 1]),
            row(&[30, -2, 0, 1]),
        ];
        let mut one = conj3(eqs.to_vec(), ineqs.to_vec());
        one.simplify();
        let n = 20_000;
        let mut many = conj3(
            eqs.iter().cycle().take(2 * n).cloned().collect(),
            ineqs.iter().cycle().take(3 * n).cloned().collect(),
        );
        many.simplify();
        assert_eq!(many.eqs, one.eqs);
        assert_eq!(many.ineqs, one.ineqs);
        assert_eq!(one.eqs.len(), 2);
    }
}
