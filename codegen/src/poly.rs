//! Helpers on `presburger` objects for code generation: conjunctions rebuilt
//! in other spaces (more dimensions, renamed parameters, two sets side by
//! side), projections onto the outer dimensions, the simple hull of a
//! union, and constraint rows turned into AST expressions and conditions.
//!
//! Everything here works on the public API of `presburger` (rows of a
//! [`Conjunction`]: the constant, the parameters, the dimensions, then the
//! locals) and is exact.

use crate::ast::{Cond, Expr};
use crate::error::{Error, Result};
use crate::work::Work;
use presburger::{BasicSet, Conjunction, DimKind, Div, Int, Set, Space, Tuple};

/// The work allowed to one optional simplification (a gist, a coalescing,
/// an inclusion test that may remove a guard): beyond it the simplification
/// is not made, and the code stays correct with a test more.
pub(crate) const OPTIONAL_STEPS: u64 = 200_000;

/// The work allowed to one emptiness test whose "don't know" has a safe
/// answer (a piece kept, two pieces taken to be ordered both ways).
pub(crate) const TEST_STEPS: u64 = 2_000_000;

/// The result of a step that may run out of its budget: `None` then.
pub(crate) fn optional<T>(r: presburger::Result<T>) -> Result<Option<T>> {
    match r {
        Ok(x) => Ok(Some(x)),
        Err(presburger::Error::Budget(_)) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// `s` coalesced, or `s` when that takes more than [`OPTIONAL_STEPS`] of
/// the work `w`.
pub(crate) fn try_coalesce(w: &Work, s: Set) -> Result<Set> {
    Ok(w.capped(OPTIONAL_STEPS, |b| s.coalesce_with_budget(b))?
        .unwrap_or(s))
}

/// `s` gisted in `ctx`, or `s` when that takes more than [`OPTIONAL_STEPS`]
/// of the work `w`.
pub(crate) fn try_gist(w: &Work, s: &Set, ctx: &Set) -> Result<Set> {
    Ok(w.capped(OPTIONAL_STEPS, |b| s.gist_with_budget(ctx, b))?
        .unwrap_or_else(|| s.clone()))
}

/// True when `c` is shown to have no integer point within [`TEST_STEPS`] of
/// the work `w`.
pub(crate) fn proved_empty_conj(w: &Work, c: &Conjunction) -> Result<bool> {
    Ok(w.capped(TEST_STEPS, |b| c.is_empty_with(b))? == Some(true))
}

/// True when `s` is shown to be empty within [`TEST_STEPS`] per conjunction.
pub(crate) fn proved_empty(w: &Work, s: &Set) -> Result<bool> {
    for c in conjs(s) {
        if !proved_empty_conj(w, &c)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// True when `a` and `b` are shown to be disjoint within [`TEST_STEPS`] of
/// the work `w`.
pub(crate) fn proved_disjoint(w: &Work, a: &Set, b: &Set) -> Result<bool> {
    Ok(w.capped(TEST_STEPS, |bg| a.is_disjoint_with_budget(b, bg))? == Some(true))
}

/// True when `a ⊆ b` is shown within [`OPTIONAL_STEPS`] of the work `w`.
pub(crate) fn proved_subset(w: &Work, a: &Set, b: &Set) -> Result<bool> {
    Ok(w.capped(OPTIONAL_STEPS, |bg| a.is_subset_with_budget(b, bg))? == Some(true))
}

/// The set space `[params] -> { [n anonymous dimensions] }`.
pub(crate) fn set_space(params: &[String], n: usize) -> Space {
    Space::set(params.to_vec(), Tuple::anonymous(n))
}

/// A conjunction under construction in a target space: conjunctions of other
/// spaces are added with a map of their variable columns, their locals
/// appended after the locals already there.
pub(crate) struct Builder {
    space: Space,
    /// `1 + number of variables` of the target.
    n_fixed: usize,
    divs: Vec<Option<(Vec<Int>, Int)>>,
    eqs: Vec<Vec<Int>>,
    ineqs: Vec<Vec<Int>>,
}

impl Builder {
    pub(crate) fn new(space: &Space) -> Builder {
        Builder {
            n_fixed: 1 + space.n_var(),
            space: space.clone(),
            divs: Vec::new(),
            eqs: Vec::new(),
            ineqs: Vec::new(),
        }
    }

    /// Adds the constraints and locals of `c`: its column `j` (`1 <= j <=
    /// n_var` of its space) goes to target column `varmap[j - 1]`; the
    /// constant stays in column 0.
    pub(crate) fn add(&mut self, c: &Conjunction, varmap: &[usize]) {
        let nv = c.space().n_var();
        let base = self.n_fixed + self.divs.len();
        let map_row = |r: &[Int]| -> Vec<Int> {
            let mut out = vec![Int::ZERO; base + c.n_local()];
            for (j, v) in r.iter().enumerate() {
                if v.is_zero() {
                    continue;
                }
                let t = match j {
                    0 => 0,
                    j if j <= nv => varmap[j - 1],
                    j => base + (j - 1 - nv),
                };
                out[t] = v.clone();
            }
            out
        };
        let new_divs: Vec<Option<(Vec<Int>, Int)>> = c
            .divs()
            .iter()
            .map(|d| d.as_ref().map(|d| (map_row(&d.num), d.den.clone())))
            .collect();
        self.divs.extend(new_divs);
        let eqs: Vec<Vec<Int>> = c.equalities().iter().map(|r| map_row(r)).collect();
        let ineqs: Vec<Vec<Int>> = c.inequalities().iter().map(|r| map_row(r)).collect();
        self.eqs.extend(eqs);
        self.ineqs.extend(ineqs);
    }

    /// Adds `row >= 0` over the target's variables (no locals).
    pub(crate) fn ineq(&mut self, row: Vec<Int>) {
        self.ineqs.push(row);
    }

    /// Adds the locals of `c` (a conjunction of the target's space) with
    /// their divisions, and none of its constraints: rows of `c` can then be
    /// added as they are ([`Builder::eq_full`], [`Builder::ineq_full`]).
    pub(crate) fn add_locals(&mut self, c: &Conjunction) {
        self.divs.extend(
            c.divs()
                .iter()
                .map(|d| d.as_ref().map(|d| (d.num.clone(), d.den.clone()))),
        );
    }

    /// Adds one local with an optional division `(num, den)` over the
    /// target's columns.
    pub(crate) fn local(&mut self, div: Option<(Vec<Int>, Int)>) {
        self.divs.push(div);
    }

    /// Adds the equality `row = 0` over the target's columns, locals included.
    pub(crate) fn eq_full(&mut self, row: Vec<Int>) {
        self.eqs.push(row);
    }

    /// Adds the inequality `row >= 0` over the target's columns, locals included.
    pub(crate) fn ineq_full(&mut self, row: Vec<Int>) {
        self.ineqs.push(row);
    }

    pub(crate) fn build(self) -> Result<Conjunction> {
        let mut c = Conjunction::universe(self.space);
        for d in self.divs {
            let div = d.map(|(mut num, den)| {
                num.truncate(c.n_col() + 1);
                Div { num, den }
            });
            c.add_local(div)?;
        }
        let n = c.n_col();
        for mut r in self.eqs {
            r.resize(n, Int::ZERO);
            c.add_eq(r)?;
        }
        for mut r in self.ineqs {
            r.resize(n, Int::ZERO);
            c.add_ineq(r)?;
        }
        c.simplify();
        Ok(c)
    }
}

/// The union of the conjunctions (in `space`).
pub(crate) fn to_set(space: &Space, conjs: Vec<Conjunction>) -> Result<Set> {
    let mut s = Set::empty(space.clone())?;
    for c in conjs {
        let b = BasicSet::from_conjunction(c)?;
        s = s.union(&Set::from(b))?;
    }
    Ok(s)
}

/// The conjunctions of a set.
pub(crate) fn conjs(s: &Set) -> Vec<Conjunction> {
    s.basics().map(|b| b.conjunction().clone()).collect()
}

/// `s` (over `k` dimensions) with `m` unconstrained dimensions appended
/// (`presburger`'s `insert_dims`, isl's `isl_set_insert_dims`).
pub(crate) fn lift(s: &Set, m: usize) -> Result<Set> {
    if m == 0 {
        return Ok(s.clone());
    }
    Ok(s.insert_dims(DimKind::Out, s.space().n_out(), m)?)
}

/// The projection of `s` onto its first `k` dimensions (exact; what cannot
/// be eliminated stays existentially quantified).
pub(crate) fn project_onto(w: &Work, s: &Set, k: usize) -> Result<Set> {
    let n = s.space().n_out();
    if k >= n {
        return Ok(s.clone());
    }
    tidy(w, &s.project_out_exact(DimKind::Out, k, n - k)?)
}

/// A conjunction of the space `[params] -> { [k dims] }` as a set.
pub(crate) fn conj_set(c: Conjunction) -> Result<Set> {
    Ok(Set::from(BasicSet::from_conjunction(c)?))
}

/// `s` with the existential blocks that say nothing about its dimensions
/// tidied (see [`tidy_conj`]); conjunctions found empty are dropped.
pub(crate) fn tidy(w: &Work, s: &Set) -> Result<Set> {
    let parts = conjs(s);
    if parts.iter().all(|c| c.n_local() == 0) {
        return Ok(s.clone());
    }
    let mut out = Vec::with_capacity(parts.len());
    let mut changed = false;
    for c in parts {
        match tidy_conj(w, &c)? {
            Some(t) => {
                changed |= t.n_local() != c.n_local();
                out.push(t);
            }
            None => changed = true,
        }
    }
    if !changed {
        return Ok(s.clone());
    }
    to_set(s.space(), out)
}

/// Union-find root.
fn root(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}

/// One conjunction with its existential blocks tidied: the locals are split
/// into blocks (connected through the rows and divisions that use them); a
/// block whose rows involve no dimension and no parameter is a closed
/// statement, dropped when it holds and making the conjunction empty
/// (`None`) when it does not; a block that repeats an earlier one (the same
/// rows up to the numbering of its locals) is dropped. Projections and intersections of sets with existentials make
/// such blocks, and each copy makes every later emptiness test harder.
pub(crate) fn tidy_conj(w: &Work, c: &Conjunction) -> Result<Option<Conjunction>> {
    let nl = c.n_local();
    if nl == 0 {
        return Ok(Some(c.clone()));
    }
    let np = c.space().n_param();
    let nv = 1 + c.space().n_var();
    let n = c.n_col();
    let pad = |r: &Vec<Int>| {
        let mut r = r.clone();
        r.resize(n, Int::ZERO);
        r
    };
    let eqs: Vec<Vec<Int>> = c.equalities().iter().map(pad).collect();
    let ineqs: Vec<Vec<Int>> = c.inequalities().iter().map(pad).collect();
    let divs: Vec<Option<Vec<Int>>> = c
        .divs()
        .iter()
        .map(|d| d.as_ref().map(|d| pad(&d.num)))
        .collect();
    let mut parent: Vec<usize> = (0..nl).collect();
    let join = |r: &[Int], parent: &mut Vec<usize>| {
        let ls: Vec<usize> = (0..nl).filter(|&l| !r[nv + l].is_zero()).collect();
        for w in ls.windows(2) {
            let (a, b) = (root(parent, w[0]), root(parent, w[1]));
            parent[a] = b;
        }
    };
    for r in eqs.iter().chain(&ineqs) {
        join(r, &mut parent);
    }
    for (l, d) in divs.iter().enumerate() {
        if let Some(num) = d {
            let mut r = num.clone();
            r[nv + l] = Int::ONE;
            join(&r, &mut parent);
        }
    }
    let block: Vec<usize> = (0..nl).map(|l| root(&mut parent, l)).collect();
    let row_block = |r: &[Int]| (0..nl).find(|&l| !r[nv + l].is_zero()).map(|l| block[l]);
    let mut drop = vec![false; nl];
    let mut seen: Vec<Vec<Vec<Int>>> = Vec::new();
    let mut roots: Vec<usize> = block.clone();
    roots.sort_unstable();
    roots.dedup();
    for b in roots {
        let members: Vec<usize> = (0..nl).filter(|&l| block[l] == b).collect();
        let rows: Vec<(bool, &Vec<Int>)> = eqs
            .iter()
            .map(|r| (true, r))
            .chain(ineqs.iter().map(|r| (false, r)))
            .filter(|(_, r)| row_block(r) == Some(b))
            .collect();
        let div_rows = members.iter().filter_map(|&l| divs[l].as_ref());
        let touches = |lo: usize, hi: usize| {
            rows.iter()
                .any(|(_, r)| r[lo..hi].iter().any(|v| !v.is_zero()))
                || div_rows
                    .clone()
                    .any(|r| r[lo..hi].iter().any(|v| !v.is_zero()))
        };
        if !touches(1 + np, nv) && !touches(1, 1 + np) {
            // closed: true or false
            let mut b2 = Builder::new(c.space());
            b2.add_locals(c);
            for (is_eq, r) in &rows {
                if *is_eq {
                    b2.eq_full((*r).clone());
                } else {
                    b2.ineq_full((*r).clone());
                }
            }
            let closed = b2.build()?;
            match w.capped(TEST_STEPS, |b| closed.is_empty_with(b))? {
                Some(true) => return Ok(None),
                Some(false) => {}
                None => continue,
            }
            for &l in &members {
                drop[l] = true;
            }
            continue;
        }
        // a repeat of an earlier block (the same rows up to the numbering of
        // its locals) says nothing new
        let sig = block_signature(&rows, &members, nv);
        if seen.contains(&sig) {
            for &l in &members {
                drop[l] = true;
            }
        } else {
            seen.push(sig);
        }
    }
    if !drop.iter().any(|&d| d) {
        return Ok(Some(c.clone()));
    }
    // rebuild without the dropped locals and their rows
    let kept: Vec<usize> = (0..nl).filter(|&l| !drop[l]).collect();
    let remap = |r: &[Int]| -> Vec<Int> {
        let mut out: Vec<Int> = r[..nv].to_vec();
        out.extend(kept.iter().map(|&l| r[nv + l].clone()));
        out
    };
    let mut b = Builder::new(c.space());
    for &l in &kept {
        b.local(divs[l].as_ref().map(|num| {
            (
                remap(num),
                c.divs()[l]
                    .as_ref()
                    .map(|d| d.den.clone())
                    .unwrap_or(Int::ONE),
            )
        }));
    }
    for r in &eqs {
        if row_block(r).is_none_or(|bk| !drop[bk]) {
            b.eq_full(remap(r));
        }
    }
    for r in &ineqs {
        if row_block(r).is_none_or(|bk| !drop[bk]) {
            b.ineq_full(remap(r));
        }
    }
    Ok(Some(b.build()?))
}

/// A canonical form of a block of rows over the locals `members`: the rows
/// (kind, the columns before the locals, the members' coefficients) sorted,
/// the least over the orders of the members (up to 5 of them; beyond, the
/// order of first appearance).
fn block_signature(rows: &[(bool, &Vec<Int>)], members: &[usize], nv: usize) -> Vec<Vec<Int>> {
    let sig_for = |order: &[usize]| -> Vec<Vec<Int>> {
        let mut v: Vec<Vec<Int>> = rows
            .iter()
            .map(|(is_eq, r)| {
                let mut x: Vec<Int> = vec![Int::from(i64::from(*is_eq))];
                x.extend(r[..nv].iter().cloned());
                x.extend(order.iter().map(|&l| r[nv + l].clone()));
                x
            })
            .collect();
        v.sort();
        v
    };
    if members.len() > 5 {
        return sig_for(members);
    }
    let mut best: Option<Vec<Vec<Int>>> = None;
    let mut perm: Vec<usize> = members.to_vec();
    // Heap's algorithm over the orders of the members
    let k = perm.len();
    let mut c = vec![0usize; k];
    let consider = |p: &[usize], best: &mut Option<Vec<Vec<Int>>>| {
        let s = sig_for(p);
        if best.as_ref().is_none_or(|b| s < *b) {
            *best = Some(s);
        }
    };
    consider(&perm, &mut best);
    let mut i = 0;
    while i < k {
        if c[i] < i {
            if i % 2 == 0 {
                perm.swap(0, i);
            } else {
                perm.swap(c[i], i);
            }
            consider(&perm, &mut best);
            c[i] += 1;
            i = 0;
        } else {
            c[i] = 0;
            i += 1;
        }
    }
    best.unwrap_or_default()
}

/// `row >= 0` normalised: coefficients divided by their gcd, the constant
/// rounded down (an equivalent constraint over the integers).
pub(crate) fn normalized(row: &[Int]) -> Vec<Int> {
    let mut g = Int::ZERO;
    for v in &row[1..] {
        g = g.gcd(v);
    }
    if g.is_zero() || g.is_one() {
        return row.to_vec();
    }
    let mut out = Vec::with_capacity(row.len());
    out.push(row[0].floor_div(&g));
    out.extend(row[1..].iter().map(|v| v.exact_div(&g)));
    out
}

/// True when the inequality `row >= 0` is one of the two defining
/// inequalities of a division local of `c` (a tautology given the division).
pub(crate) fn is_div_row(c: &Conjunction, row: &[Int]) -> bool {
    let first_local = 1 + c.space().n_var();
    let row = normalized(row);
    c.divs().iter().enumerate().any(|(l, d)| {
        let Some(d) = d else { return false };
        let col = first_local + l;
        // num - den·l >= 0 and -num + den·l + den - 1 >= 0
        let mut lo: Vec<Int> = d.num.clone();
        lo.resize(row.len(), Int::ZERO);
        lo[col] = -&d.den;
        let mut hi: Vec<Int> = lo.iter().map(|v| -v).collect();
        hi[0] = &hi[0] + &d.den - 1;
        normalized(&lo) == row || normalized(&hi) == row
    })
}

/// How the variables of rows become AST expressions: a name per parameter
/// and an expression per set dimension.
pub(crate) struct Env<'a> {
    pub(crate) params: &'a [String],
    pub(crate) dims: &'a [Expr],
}

fn int64(v: &Int) -> Result<i64> {
    v.to_i64()
        .ok_or_else(|| Error::Unsupported(format!("the coefficient {v} does not fit in 64 bits")))
}

impl Env<'_> {
    /// The expression of local `l` of `divs`: `floor(num / den)` of its
    /// division; `None` for a local without one.
    fn local(&self, divs: &[Option<Div>], l: usize) -> Result<Option<Expr>> {
        let Some(d) = &divs[l] else {
            return Ok(None);
        };
        let Some(num) = self.row_over(divs, &d.num)? else {
            return Ok(None);
        };
        let den = int64(&d.den)?;
        Ok(num.floor_div(den))
    }

    /// `row · (1, params, dims, locals)` as an expression (the columns past
    /// the row's end count as zero); `None` when a local without a division
    /// has a non-zero coefficient. A term `k · (num - den · floor(num/den))`
    /// hidden in the row is written `k · (num mod den)` when that leaves
    /// fewer terms.
    pub(crate) fn row(&self, c: &Conjunction, row: &[Int]) -> Result<Option<Expr>> {
        self.row_over(c.divs(), row)
    }

    /// As [`Env::row`], over the columns `(1, params, dims)` followed by one
    /// local per entry of `divs` (a conjunction's divisions, or those of a
    /// quasi-affine expression).
    pub(crate) fn row_over(&self, divs: &[Option<Div>], row: &[Int]) -> Result<Option<Expr>> {
        let np = self.params.len();
        let nd = self.dims.len();
        let first_local = 1 + np + nd;
        let mut row = row.to_vec();
        row.resize(first_local + divs.len(), Int::ZERO);
        let mut extra = Expr::int(0);
        // remainders
        for (l, d) in divs.iter().enumerate() {
            let col = first_local + l;
            let Some(d) = d else { continue };
            if row[col].is_zero() || !row[col].is_divisible_by(&d.den) {
                continue;
            }
            // row = k·(num - den·l) + rest
            let k = -row[col].exact_div(&d.den);
            let mut rest = row.clone();
            for (j, v) in d.num.iter().enumerate() {
                if !v.is_zero() {
                    rest[j] = &rest[j] - &(&k * v);
                }
            }
            rest[col] = Int::ZERO;
            let count = |r: &[Int]| r[1..].iter().filter(|v| !v.is_zero()).count();
            if count(&rest) < count(&row) - 1 {
                let Some(num) = self.row_over(divs, &d.num)? else {
                    continue;
                };
                let m = num
                    .modulo(int64(&d.den)?)
                    .and_then(|m| m.checked_mul(int64(&k).ok()?));
                let Some(m) = m.and_then(|m| extra.checked_add(&m)) else {
                    return Err(overflow());
                };
                extra = m;
                row = rest;
            }
        }
        let mut e = Expr::int(int64(&row[0])?);
        for (j, v) in row.iter().enumerate().skip(1) {
            if v.is_zero() {
                continue;
            }
            let k = int64(v)?;
            let term = if j <= np {
                Expr::var(self.params[j - 1].clone())
            } else if j < first_local {
                self.dims[j - 1 - np].clone()
            } else {
                match self.local(divs, j - first_local)? {
                    Some(x) => x,
                    None => return Ok(None),
                }
            };
            e = term
                .checked_mul(k)
                .and_then(|t| e.checked_add(&t))
                .ok_or_else(overflow)?;
        }
        Ok(Some(e.checked_add(&extra).ok_or_else(overflow)?))
    }

    /// The conditions of one conjunction whose locals all have divisions
    /// (`None` when one does not): one per equality and per inequality that
    /// is not a division's defining inequality.
    fn conj_conds(&self, c: &Conjunction) -> Result<Option<Vec<Cond>>> {
        let mut out = Vec::new();
        for r in c.equalities() {
            let Some(e) = self.row(c, r)? else {
                return Ok(None);
            };
            out.push(Cond::Eq(e));
        }
        for r in c.inequalities() {
            if is_div_row(c, r) {
                continue;
            }
            let Some(e) = self.row(c, r)? else {
                return Ok(None);
            };
            out.push(Cond::Ge(e));
        }
        Ok(Some(out))
    }

    /// A condition list that holds exactly on the points of `s` (in this
    /// environment's space): the constraints of its one conjunction, or a
    /// disjunction of the conjunctions' constraints with the constraints
    /// common to all of them taken out. Existentials without a division are
    /// rewritten as divisions first ([`Conjunction::explicit_locals`]). An empty list
    /// means "always"; `[Or([])]` means "never".
    pub(crate) fn conds(&self, s: &Set) -> Result<Vec<Cond>> {
        let mut disjuncts: Vec<Vec<Cond>> = Vec::new();
        for c in conjs(s) {
            let parts = if c.divs().iter().all(Option::is_some) {
                vec![c]
            } else {
                c.explicit_locals()?
            };
            for p in parts {
                match self.conj_conds(&p)? {
                    Some(v) => disjuncts.push(v),
                    None => {
                        return Err(Error::Unsupported(format!(
                            "cannot write the condition {s} without existential variables"
                        )));
                    }
                }
            }
        }
        if disjuncts.iter().any(Vec::is_empty) {
            return Ok(Vec::new());
        }
        if disjuncts.len() == 1 {
            return Ok(disjuncts.pop().unwrap_or_default());
        }
        // conditions common to every disjunct go outside the disjunction
        let common: Vec<Cond> = disjuncts[0]
            .iter()
            .filter(|c| disjuncts[1..].iter().all(|d| d.contains(c)))
            .cloned()
            .collect();
        let mut alternatives = Vec::new();
        for d in disjuncts {
            let rest: Vec<Cond> = d.into_iter().filter(|c| !common.contains(c)).collect();
            if rest.is_empty() {
                // one alternative is just the common part: the disjunction holds
                return Ok(common);
            }
            let alt = if rest.len() == 1 {
                rest.into_iter().next().unwrap_or(Cond::And(Vec::new()))
            } else {
                Cond::And(rest)
            };
            if !alternatives.contains(&alt) {
                alternatives.push(alt);
            }
        }
        let mut out = common;
        out.push(Cond::Or(alternatives));
        Ok(out)
    }
}

pub(crate) fn overflow() -> Error {
    Error::Unsupported("an expression overflows 64-bit integers".into())
}

/// The simple hull of a set: the constraints without locals of its
/// conjunctions (their rational [`shadow`]s) that hold on all of them (a
/// single conjunction is its own hull). A conjunction that contains the
/// set, exact when the set is convex in the way its constraints show. (As
/// isl's `isl_set_simple_hull`, with the validity of each candidate decided
/// by an exact emptiness test.)
pub(crate) fn simple_hull(w: &Work, s: &Set) -> Result<Conjunction> {
    let parts = conjs(s);
    if parts.len() == 1 {
        return Ok(parts
            .into_iter()
            .next()
            .unwrap_or_else(|| Conjunction::empty(s.space().clone())));
    }
    let space = s.space().clone();
    if parts.is_empty() {
        return Ok(Conjunction::empty(space));
    }
    // candidate inequalities: the local-free consequences of each part
    let mut cands: Vec<Vec<Int>> = Vec::new();
    for c in &parts {
        let (eqs, ineqs) = shadow(c);
        for r in eqs {
            let neg: Vec<Int> = r.iter().map(|v| -v).collect();
            cands.push(normalized(&r));
            cands.push(normalized(&neg));
        }
        cands.extend(ineqs.iter().map(|r| normalized(r)));
    }
    let mut kept: Vec<Vec<Int>> = Vec::new();
    for r in cands {
        if kept.contains(&r) {
            continue;
        }
        let mut valid = true;
        for c in &parts {
            if !holds_on(w, c, &r)? {
                valid = false;
                break;
            }
        }
        if valid {
            kept.push(r);
        }
    }
    let mut b = Builder::new(&space);
    for r in kept {
        b.ineq(r);
    }
    b.build()
}

/// `r := |m|·r - sign(m)·r[col]·e` where `m = e[col]`: `col` eliminated from
/// `r` using the equality `e = 0` (a positive multiple of `r`, so an
/// inequality keeps its direction), then normalised.
pub(crate) fn eliminate_with(r: &[Int], e: &[Int], col: usize, is_eq: bool) -> Vec<Int> {
    let m = &e[col];
    let am = m.abs();
    let f = if m.is_negative() {
        -&r[col]
    } else {
        r[col].clone()
    };
    let out: Vec<Int> = r
        .iter()
        .zip(e)
        .map(|(x, y)| &(&am * x) - &(&f * y))
        .collect();
    if is_eq {
        let mut g = Int::ZERO;
        for v in &out {
            g = g.gcd(v);
        }
        if g.is_zero() || g.is_one() {
            return out;
        }
        out.iter().map(|v| v.exact_div(&g)).collect()
    } else {
        normalized(&out)
    }
}

/// Most rows one Fourier–Motzkin step of [`shadow`] may create; a local
/// that would need more is dropped with its rows (a weaker, still valid,
/// shadow).
pub(crate) const MAX_SHADOW_ROWS: usize = 64;

/// The cap of [`shadow_capped`] where [`shadow`]'s lost a bound that a loop
/// needs: a local with 11 lower and 11 upper bounds (121 rows) is
/// eliminated, one with more than 4096 combinations still dropped.
pub(crate) const MAX_SHADOW_ROWS_FOR_BOUNDS: usize = 4096;

/// [`shadow_capped`] with the cap [`MAX_SHADOW_ROWS`].
pub(crate) fn shadow(c: &Conjunction) -> (Vec<Vec<Int>>, Vec<Vec<Int>>) {
    shadow_capped(c, MAX_SHADOW_ROWS)
}

/// The rational shadow of `c` on its variables: equalities and inequalities
/// without locals (over the constant and the variables) implied by `c` over
/// the rationals, hence by its integer points. Each local is eliminated by
/// an equality that contains it when there is one (Gaussian elimination),
/// else by Fourier–Motzkin, which makes one row per pair of a lower and an
/// upper bound of the local; a local with more than `cap` pairs is dropped
/// with its rows instead (the shadow is then weaker, still implied by `c`,
/// and may have lost every bound of a variable that the local carried).
pub(crate) fn shadow_capped(c: &Conjunction, cap: usize) -> (Vec<Vec<Int>>, Vec<Vec<Int>>) {
    let nv = 1 + c.space().n_var();
    let n = c.n_col();
    let pad = |r: &Vec<Int>| {
        let mut r = r.clone();
        r.resize(n, Int::ZERO);
        r
    };
    let mut eqs: Vec<Vec<Int>> = c.equalities().iter().map(pad).collect();
    let mut ineqs: Vec<Vec<Int>> = c.inequalities().iter().map(pad).collect();
    for col in (nv..n).rev() {
        if let Some(k) = eqs.iter().position(|r| !r[col].is_zero()) {
            let e = eqs.swap_remove(k);
            for r in eqs.iter_mut().filter(|r| !r[col].is_zero()) {
                *r = eliminate_with(r, &e, col, true);
            }
            for r in ineqs.iter_mut().filter(|r| !r[col].is_zero()) {
                *r = eliminate_with(r, &e, col, false);
            }
            continue;
        }
        let (with, without): (Vec<Vec<Int>>, Vec<Vec<Int>>) =
            ineqs.into_iter().partition(|r| !r[col].is_zero());
        ineqs = without;
        let lowers: Vec<&Vec<Int>> = with.iter().filter(|r| r[col].is_positive()).collect();
        let uppers: Vec<&Vec<Int>> = with.iter().filter(|r| r[col].is_negative()).collect();
        if lowers.len() * uppers.len() <= cap {
            for lo in &lowers {
                for up in &uppers {
                    // |up[col]|·lo + lo[col]·up
                    let (a, b) = (up[col].abs(), lo[col].clone());
                    let row: Vec<Int> = lo
                        .iter()
                        .zip(up.iter())
                        .map(|(x, y)| &(&a * x) + &(&b * y))
                        .collect();
                    ineqs.push(normalized(&row));
                }
            }
        }
    }
    let cut = |r: Vec<Int>| r[..nv].to_vec();
    let eqs: Vec<Vec<Int>> = eqs.into_iter().map(cut).collect();
    let mut out: Vec<Vec<Int>> = Vec::new();
    for r in ineqs.into_iter().map(cut) {
        let r = normalized(&r);
        if r[1..].iter().any(|v| !v.is_zero()) && !out.contains(&r) {
            out.push(r);
        }
    }
    (eqs, out)
}

/// `s` with each conjunction replaced by its rational [`shadow`]: a set
/// without locals that contains `s` (strides and other existential
/// conditions dropped; exact for a set without locals).
pub(crate) fn shadow_set(w: &Work, s: &Set) -> Result<Set> {
    let space = s.space().clone();
    let mut parts = Vec::new();
    for c in conjs(s) {
        if c.n_local() == 0 {
            parts.push(c);
            continue;
        }
        let (eqs, ineqs) = shadow(&c);
        let mut b = Builder::new(&space);
        for r in eqs {
            b.eq_full(r);
        }
        for r in ineqs {
            b.ineq(r);
        }
        parts.push(b.build()?);
    }
    try_coalesce(w, to_set(&space, parts)?)
}

/// True when every conjunction of `s` bounds set dimension `d` on both
/// sides by its own rows: an equality on it, or an inequality with a
/// positive and one with a negative coefficient on it. A [`shadow_set`]
/// that dropped a local with too many rows ([`MAX_SHADOW_ROWS`]) may have
/// lost every bound of `d` that the local carried; a loop on `d` needs
/// them.
pub(crate) fn bounds_dim(s: &Set, d: usize) -> bool {
    conjs(s).iter().all(|c| {
        let col = c.col(DimKind::SET, d);
        let eq = c.equalities().iter().any(|r| !r[col].is_zero());
        let lower = c.inequalities().iter().any(|r| r[col].is_positive());
        let upper = c.inequalities().iter().any(|r| r[col].is_negative());
        eq || (lower && upper)
    })
}

/// True when every integer point of `c` satisfies `row >= 0` (a row over the
/// constant and the variables).
pub(crate) fn holds_on(w: &Work, c: &Conjunction, row: &[Int]) -> Result<bool> {
    let mut probe = c.clone();
    let mut neg: Vec<Int> = row.iter().map(|v| -v).collect();
    neg[0] = &neg[0] - 1;
    neg.resize(c.n_col(), Int::ZERO);
    probe.add_ineq(neg)?;
    proved_empty_conj(w, &probe)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(s: &str) -> Set {
        s.parse().unwrap()
    }

    #[test]
    fn lift_and_project() {
        let s = set("[N] -> { [i] : 0 <= i < N }");
        let l = lift(&s, 2).unwrap();
        assert_eq!(l.space().n_out(), 3);
        assert!(
            l.is_equal(&set("[N] -> { [i, a, b] : 0 <= i < N }"))
                .unwrap()
        );
        let p = project_onto(
            &Work::new(crate::DEFAULT_MAX_STEPS),
            &set("[N] -> { [i, j] : 0 <= j <= i < N }"),
            1,
        )
        .unwrap();
        assert!(p.is_equal(&set("[N] -> { [i] : 0 <= i < N }")).unwrap());
    }

    #[test]
    fn rows_become_expressions() {
        let s = set("[N] -> { [i] : exists e : i = 2e and 0 <= i <= N }");
        let params = vec!["N".to_string()];
        let dims = vec![Expr::var("c0")];
        let env = Env {
            params: &params,
            dims: &dims,
        };
        let conds = env.conds(&s).unwrap();
        let text: Vec<String> = conds.iter().map(|c| c.to_string()).collect();
        assert!(text.contains(&"c0 % 2 == 0".to_string()), "{text:?}");
        assert!(text.contains(&"c0 >= 0".to_string()), "{text:?}");
        assert!(text.contains(&"N >= c0".to_string()), "{text:?}");
        // a union: the common part outside
        let u = set("[N] -> { [i] : 0 <= i <= N and (i <= 2 or i >= 7) }");
        let c = env.conds(&u).unwrap();
        let all: Vec<String> = c.iter().map(|c| c.to_string()).collect();
        assert_eq!(all, ["N >= c0", "(c0 >= 0 && c0 <= 2) || c0 >= 7"]);
    }

    #[test]
    fn hull_of_a_union() {
        let u = set("[N] -> { [i] : 0 <= i <= 3 or 5 <= i <= 9 }");
        let h = simple_hull(&Work::new(crate::DEFAULT_MAX_STEPS), &u).unwrap();
        let hs = conj_set(h).unwrap();
        assert!(hs.is_equal(&set("[N] -> { [i] : 0 <= i <= 9 }")).unwrap());
    }
}
