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

use crate::error::{Error, Result};
use crate::int::{gcd_all, Int};
use crate::space::{DimKind, Space};
use std::collections::HashMap;

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

/// `dst := a·dst - b·src`, the elimination step of Gaussian and Fourier–Motzkin.
pub(crate) fn combine(dst: &mut Row, a: &Int, b: &Int, src: &Row) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d = d.mul_add_mul(a, &-b, s);
    }
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
            .any(|r| r[1..].iter().all(Int::is_zero) && r[0].is_negative())
            || self
                .eqs
                .iter()
                .any(|r| r[1..].iter().all(Int::is_zero) && !r[0].is_zero())
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
    pub fn simplify(&mut self) {
        const MAX_PASSES: usize = 4;
        for _ in 0..MAX_PASSES {
            let before = (self.divs.clone(), self.eqs.clone(), self.ineqs.clone());
            if self.simplify_inner().is_err() {
                self.set_empty();
                return;
            }
            if before.0 == self.divs && before.1 == self.eqs && before.2 == self.ineqs {
                return;
            }
        }
    }

    fn simplify_inner(&mut self) -> std::result::Result<(), ()> {
        self.normalize_divs();
        loop {
            self.normalize_rows()?;
            // before Gaussian elimination, which may scale unit coefficients away
            if self.eliminate_unit_locals() {
                continue;
            }
            self.gauss()?;
            self.normalize_rows()?;
            let before = self.eqs.len();
            self.merge_ineqs()?;
            if self.eqs.len() != before {
                continue;
            }
            if self.affine_divs_to_equalities()
                || self.eliminate_unit_locals()
                || self.merge_equal_divs()
            {
                continue;
            }
            break;
        }
        self.remove_unused_locals();
        self.divs_from_equalities();
        self.canonical_local_order();
        self.restore_div_constraints();
        self.eqs.sort();
        self.ineqs.sort();
        Ok(())
    }

    /// Ends simplification with the defining inequalities of every division present
    /// verbatim (they are implied, so adding them changes nothing). The printer leaves
    /// them out and the parser adds them back, so printed text reads back to the
    /// same rows.
    fn restore_div_constraints(&mut self) {
        let first_local = 1 + self.space.n_var();
        for l in 0..self.divs.len() {
            let Some(d) = &self.divs[l] else { continue };
            let (mut lo, mut hi) = div_constraints(d, first_local + l);
            for mut r in [lo.clone(), hi.clone()] {
                normalize_ineq(&mut r);
                if !self.ineqs.contains(&r) {
                    self.ineqs.push(r);
                }
            }
            normalize_ineq(&mut lo);
            normalize_ineq(&mut hi);
        }
    }

    /// A plain local `l` whose last equality coefficient sits in an equality
    /// `a·l + rest = 0` (no later local in it) equals `floor(-rest / a)`: the equality
    /// makes `-rest` a multiple of `a`. Records that definition (as isl detects
    /// divisions from equalities).
    fn divs_from_equalities(&mut self) {
        let first_local = 1 + self.space.n_var();
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
            }
        }
    }

    /// Puts the locals in a canonical order, so that equal conjunctions built in
    /// different ways compare equal structurally: a topological order of the division
    /// definitions in which, among the locals whose definition only uses placed
    /// columns, divisions come first, smallest definition first (over the non-local
    /// columns, then the new positions of the locals they use, then the denominator),
    /// and plain existentials keep their relative order.
    fn canonical_local_order(&mut self) {
        let first_local = 1 + self.space.n_var();
        let n = self.n_local();
        if n < 2 {
            return;
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
            let Some((_, l)) = best else { return };
            new_pos[l] = Some(order.len());
            order.push(l);
        }
        if order.iter().enumerate().all(|(k, &l)| k == l) {
            return;
        }
        let mut colmap: Vec<usize> = (0..self.n_col()).collect();
        for (l, p) in new_pos.iter().enumerate() {
            colmap[first_local + l] = first_local + p.unwrap_or(l);
        }
        *self = self.remap(self.space.clone(), n, &colmap);
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

    fn normalize_rows(&mut self) -> std::result::Result<(), ()> {
        let mut err = false;
        self.eqs.retain_mut(|r| match normalize_eq(r) {
            Some(true) => false,
            Some(false) => {
                err = true;
                false
            }
            None => true,
        });
        self.ineqs.retain_mut(|r| match normalize_ineq(r) {
            Some(true) => false,
            Some(false) => {
                err = true;
                false
            }
            None => true,
        });
        if err {
            Err(())
        } else {
            Ok(())
        }
    }

    /// Exact Gaussian elimination: each equality eliminates its pivot (last non-zero
    /// column) from every other row; inequalities are scaled by the positive pivot
    /// coefficient first, which keeps their direction, and the equality stays in the
    /// system, so the set of integer points does not change.
    fn gauss(&mut self) -> std::result::Result<(), ()> {
        let mut k = 0;
        while k < self.eqs.len() {
            match normalize_eq(&mut self.eqs[k]) {
                Some(true) => {
                    self.eqs.remove(k);
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
                    if normalize_ineq(r) == Some(false) {
                        return Err(());
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
        let a = eq[col].clone(); // ±1
        let subst = |r: &mut Row| {
            if !r[col].is_zero() {
                let b = r[col].clone();
                // r := a·r - b·eq, then divide by a (= ±1) to keep r's scale and sign.
                combine(r, &a, &b, &eq);
                if a.is_negative() {
                    for v in r.iter_mut() {
                        *v = -&*v;
                    }
                }
            }
        };
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
    fn merge_equal_divs(&mut self) -> bool {
        let first_local = 1 + self.space.n_var();
        let mut seen: HashMap<&Div, usize> = HashMap::new();
        let mut pair = None;
        for (l, d) in self.divs.iter().enumerate() {
            if let Some(d) = d {
                if let Some(&k) = seen.get(d) {
                    pair = Some((k, l));
                    break;
                }
                seen.insert(d, l);
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
        let first_local = 1 + self.space.n_var();
        let mut l = self.n_local();
        while l > 0 {
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
            let users: Vec<usize> = (0..self.ineqs.len())
                .filter(|&i| !self.ineqs[i][col].is_zero())
                .collect();
            let removable = users.is_empty()
                || self.divs[l].as_ref().is_some_and(|d| {
                    users
                        .iter()
                        .all(|&i| implied_by_div(&self.ineqs[i], d, col))
                });
            if removable {
                for &i in users.iter().rev() {
                    self.ineqs.remove(i);
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

    /// Evaluates a row at a full assignment of the columns after the constant.
    pub fn eval_row(row: &Row, vals: &[Int]) -> Int {
        let mut s = row[0].clone();
        for (c, v) in row[1..].iter().zip(vals) {
            if !c.is_zero() {
                s += c * v;
            }
        }
        s
    }
}

/// Merges normalised inequalities: of parallel ones (same coefficients) keeps the
/// tightest, turns a pair `a + c >= 0`, `-a - c >= 0` into the equality `a + c = 0`,
/// and returns `None` for a pair that leaves no room (`a + c1 >= 0`, `-a + c2 >= 0`
/// with `c1 + c2 < 0`). Returns the new equalities and the remaining inequalities, in
/// their first order of appearance.
pub(crate) fn merge_parallel(ineqs: Vec<Row>) -> Option<(Vec<Row>, Vec<Row>)> {
    let mut best: HashMap<Vec<Int>, Int> = HashMap::with_capacity(ineqs.len());
    let mut order: Vec<Vec<Int>> = Vec::with_capacity(ineqs.len());
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
    let mut out = Vec::with_capacity(order.len());
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
                let mut row = vec![c];
                row.extend(key);
                eqs.push(row);
                continue;
            }
        }
        let mut row = vec![c];
        row.extend(key);
        out.push(row);
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

    fn space1() -> Space {
        Space::set(vec![], Tuple::new(None, &["i"]))
    }

    fn row(v: &[i64]) -> Row {
        v.iter().map(|&x| Int::from(x)).collect()
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
}
