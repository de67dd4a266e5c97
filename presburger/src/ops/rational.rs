//! The algorithms of [`crate::RationalSet`]: rational normalization of rows, exact
//! Fourier–Motzkin elimination of columns, the exact LP of a conjunction,
//! rational inclusion through strict complements, and the parametric rational
//! lexicographic minimum of one polyhedron. Everything here reasons about
//! rational points only; no integer algorithm of `Set` is used.

use crate::api::MAX_RATIONAL_FM_ROWS;
use crate::conjunction::{Conjunction, Row};
use crate::elimination::{combine, fm_pair};
use crate::error::{Error, Result};
use crate::int::{Int, gcd_all};
use crate::lp::{LinearProgram, LpResult};
use crate::space::Space;

/// Divides a row by the gcd of all its entries and, for an equality, makes
/// its last non-zero coefficient positive (both exact over the rationals).
/// `Some(holds)` for a row without variables.
pub(crate) fn normalize_rational_row(row: &mut Row, eq: bool) -> Option<bool> {
    let g = gcd_all(&row[1..]);
    if g.is_zero() {
        return Some(if eq {
            row[0].is_zero()
        } else {
            !row[0].is_negative()
        });
    }
    let mut g = g.gcd(&row[0]);
    if eq
        && row[1..]
            .iter()
            .rev()
            .find(|c| !c.is_zero())
            .is_some_and(Int::is_negative)
    {
        g = -g;
    }
    if !g.is_one() {
        for c in row.iter_mut() {
            *c = c.exact_div(&g);
        }
    }
    None
}

/// The rational normal form of a conjunction without locals (see the
/// invariants of [`RationalSet`]): rows made primitive, constant rows decided,
/// duplicates dropped, a pair `r >= 0`, `-r >= 0` turned into `r = 0`.
/// `None` when a constant row is false (the disjunct is visibly empty).
pub(crate) fn rational_normalize(mut c: Conjunction) -> Option<Conjunction> {
    let mut eqs: Vec<Row> = Vec::with_capacity(c.eqs.len());
    for mut r in std::mem::take(&mut c.eqs) {
        match normalize_rational_row(&mut r, true) {
            Some(true) => {}
            Some(false) => return None,
            None => eqs.push(r),
        }
    }
    let mut ineqs: Vec<Row> = Vec::with_capacity(c.ineqs.len());
    for mut r in std::mem::take(&mut c.ineqs) {
        match normalize_rational_row(&mut r, false) {
            Some(true) => {}
            Some(false) => return None,
            None => ineqs.push(r),
        }
    }
    // opposite inequalities make an equality
    let mut k = 0;
    while k < ineqs.len() {
        let neg: Row = ineqs[k].iter().map(|v| -v).collect();
        if let Some(m) = ineqs.iter().position(|r| *r == neg) {
            let mut e = ineqs[k].clone();
            let (a, b) = (k.max(m), k.min(m));
            ineqs.remove(a);
            ineqs.remove(b);
            normalize_rational_row(&mut e, true);
            eqs.push(e);
            k = 0;
            continue;
        }
        k += 1;
    }
    eqs.sort();
    eqs.dedup();
    ineqs.sort();
    ineqs.dedup();
    // an inequality implied by an equality (the same row, or its negation)
    ineqs.retain(|r| {
        let neg: Row = r.iter().map(|v| -v).collect();
        !eqs.contains(r) && !eqs.contains(&neg)
    });
    c.eqs = eqs;
    c.ineqs = ineqs;
    Some(c)
}

/// Eliminates the variables of the columns `first..first + n` (the last
/// columns of every row) from the rows of a conjunction, exactly over the
/// rationals: by an equality that involves the variable when there is one
/// (Gaussian elimination), else by Fourier–Motzkin (every lower bound paired
/// with every upper bound, [`fm_pair`] without the dark shadow), the last
/// column first. Returns the rows without those columns.
///
/// Fourier–Motzkin is exact for rational polyhedra: the projection of
/// `{ (x, y) : A x + b y >= c }` along `y` is described by the bound pairs
/// (J. B. J. Fourier 1826, T. S. Motzkin 1936); it is only for integer points
/// that the "dark shadow" and splinters of the Omega test are needed.
pub(crate) fn eliminate_columns(
    mut eqs: Vec<Row>,
    mut ineqs: Vec<Row>,
    first: usize,
    n: usize,
) -> Result<(Vec<Row>, Vec<Row>)> {
    for col in (first..first + n).rev() {
        if let Some(k) = eqs.iter().position(|e| !e[col].is_zero()) {
            let mut e = eqs.swap_remove(k);
            if e[col].is_negative() {
                e.iter_mut().for_each(|v| *v = -&*v);
            }
            let a = e[col].clone();
            for r in eqs.iter_mut().chain(ineqs.iter_mut()) {
                if !r[col].is_zero() {
                    let b = r[col].clone();
                    // a > 0 keeps the direction of an inequality
                    combine(r, &a, &b, &e);
                }
            }
        } else {
            let (mut lo, mut up, mut rest) = (Vec::new(), Vec::new(), Vec::new());
            for r in ineqs {
                if r[col].is_positive() {
                    lo.push(r);
                } else if r[col].is_negative() {
                    up.push(r);
                } else {
                    rest.push(r);
                }
            }
            if rest.len() + lo.len() * up.len() > MAX_RATIONAL_FM_ROWS {
                return Err(Error::Unsupported(format!(
                    "eliminating an existential of a rational set makes more than \
                     {MAX_RATIONAL_FM_ROWS} constraints (Fourier–Motzkin)"
                )));
            }
            for l in &lo {
                for u in &up {
                    let mut r = fm_pair(l, u, col, false);
                    normalize_rational_row(&mut r, false);
                    rest.push(r);
                }
            }
            rest.sort();
            rest.dedup();
            ineqs = rest;
        }
        for r in eqs.iter_mut().chain(ineqs.iter_mut()) {
            debug_assert!(r[col].is_zero());
            r.truncate(col);
        }
    }
    Ok((eqs, ineqs))
}

/// A linear program holding the rows of `c` (no locals): its variables are
/// the parameters and dimensions, in column order.
pub(crate) fn lp_of(c: &Conjunction) -> LinearProgram {
    lp_rows(c.space.n_var(), &c.eqs, &c.ineqs)
}

/// A linear program over `n_var` variables holding the given rows (each of
/// `1 + n_var` entries).
pub(crate) fn lp_rows(n_var: usize, eqs: &[Row], ineqs: &[Row]) -> LinearProgram {
    let mut lp = LinearProgram::new(n_var);
    for e in eqs {
        lp.add_eq(e);
    }
    for r in ineqs {
        lp.add_ineq(r);
    }
    lp
}

/// Most pieces a parametric rational optimum may have before it gives up.
pub(crate) const MAX_PARAMETRIC_PIECES: usize = 4096;

/// The state of the parametric rational lexmin ([`param_lexmin`]) at one
/// dimension.
pub(crate) struct ParamLevel {
    /// The number of parameters.
    pub(crate) np: usize,
    /// The number of dimensions of the set.
    pub(crate) n: usize,
    /// The constraints over `(1, params, x_k, .., x_{n-1})`: the set with the
    /// dimensions before `k` fixed at their optimum.
    pub(crate) eqs: Vec<Row>,
    pub(crate) ineqs: Vec<Row>,
    /// The parameter values of this branch (rows over `(1, params)`).
    pub(crate) ctx_eqs: Vec<Row>,
    pub(crate) ctx_ineqs: Vec<Row>,
    /// The equalities over `(1, params, dims)` fixing the dimensions before
    /// `k` (`a·x_j + f(params) = 0`).
    pub(crate) fixed: Vec<Row>,
    /// The dimension optimized at this level.
    pub(crate) k: usize,
}

/// Adds the normalized rows to `eqs`/`ineqs`; false when one is a false
/// constant row.
pub(crate) fn push_rows(eqs: &mut Vec<Row>, ineqs: &mut Vec<Row>, rows: Vec<(Row, bool)>) -> bool {
    for (mut r, eq) in rows {
        match normalize_rational_row(&mut r, eq) {
            Some(true) => {}
            Some(false) => return false,
            None => {
                let to = if eq { &mut *eqs } else { &mut *ineqs };
                if !to.contains(&r) {
                    to.push(r);
                }
            }
        }
    }
    true
}

/// The parametric lexicographic minimum of the rational points of one
/// polyhedron, as pieces (each a conjunction over `(1, params, dims)`: the
/// parameter values of the piece and one equality per dimension giving its
/// optimum), pushed to `out`. [`Error::Unbounded`] when, for some parameter
/// value with a point, a dimension is unbounded below.
///
/// The idea (parametric Fourier–Motzkin): the least `x_k` over the points is
/// the largest of the lower bounds `l_j(params)` of `x_k` in the projection
/// of the set on `(params, x_k)` (Fourier–Motzkin of the later dimensions,
/// exact rationally); the parameter values where that projection is not
/// empty are its constraints without `x_k`. The parameter space is split
/// into the closed regions where `l_j` is the largest (`l_j >= l_i` for every
/// `i`, rational LP emptiness prunes the empty ones); on each, `x_k = l_j`
/// is substituted and the next dimension optimized. Regions overlap only
/// where their optima agree, so the union of the pieces is the graph of the
/// optimum. That graph is closed for one polyhedron (each successive
/// optimum is continuous on its closed domain: on each closed region where
/// the previous optima are affine it is the value of a parametric LP, and
/// finitely many closed regions paste continuously), which is why closed
/// pieces describe it exactly; for a union of polyhedra it need not be.
pub(crate) fn param_lexmin(
    level: ParamLevel,
    out: &mut Vec<Conjunction>,
    space: &Space,
) -> Result<()> {
    let ParamLevel {
        np,
        n,
        eqs,
        ineqs,
        ctx_eqs,
        ctx_ineqs,
        fixed,
        k,
    } = level;
    if out.len() > MAX_PARAMETRIC_PIECES {
        return Err(Error::Unsupported(format!(
            "a parametric rational optimum of more than {MAX_PARAMETRIC_PIECES} pieces"
        )));
    }
    let lift = |r: &Row| -> Row {
        let mut x = r.clone();
        x.resize(1 + np + n, Int::ZERO);
        x
    };
    if k == n {
        // the rows left are over the parameters alone (all of them when the
        // set has no dimension)
        let mut c = Conjunction::universe(space.clone());
        c.eqs = fixed;
        c.eqs.extend(ctx_eqs.iter().chain(&eqs).map(lift));
        c.ineqs = ctx_ineqs.iter().chain(&ineqs).map(lift).collect();
        out.push(c);
        return Ok(());
    }
    let m = n - k;
    let col = 1 + np;
    // the projection on (params, x_k)
    let (qe, qi) = eliminate_columns(eqs.clone(), ineqs.clone(), col + 1, m - 1)?;
    let (mut ce, mut ci) = (ctx_eqs, ctx_ineqs);
    let mut lowers: Vec<Row> = Vec::new();
    let mut params_rows = Vec::new();
    for (r, eq) in qe
        .into_iter()
        .map(|r| (r, true))
        .chain(qi.into_iter().map(|r| (r, false)))
    {
        if r[col].is_zero() {
            params_rows.push((r[..col].to_vec(), eq));
        } else if r[col].is_positive() {
            lowers.push(r);
        } else if eq {
            lowers.push(r.iter().map(|v| -v).collect());
        }
    }
    if !push_rows(&mut ce, &mut ci, params_rows) || lp_rows(np, &ce, &ci).is_empty() {
        return Ok(());
    }
    if lowers.is_empty() {
        return Err(Error::Unbounded(format!(
            "dimension {k} of the rational set is unbounded in the optimizing direction              for some parameter values"
        )));
    }
    for lo in &mut lowers {
        normalize_rational_row(lo, false);
    }
    lowers.sort();
    lowers.dedup();
    for (j, lj) in lowers.iter().enumerate() {
        // l_j >= l_i: a_j·f_i - a_i·f_j >= 0 (x >= -f/a for a lower a·x + f >= 0)
        let (mut ke, mut ki) = (ce.clone(), ci.clone());
        let rows: Vec<(Row, bool)> = lowers
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != j)
            .map(|(_, li)| {
                let r: Row = (0..col)
                    .map(|c| &(&lj[col] * &li[c]) - &(&li[col] * &lj[c]))
                    .collect();
                (r, false)
            })
            .collect();
        if !push_rows(&mut ke, &mut ki, rows) || lp_rows(np, &ke, &ki).is_empty() {
            continue;
        }
        // substitute x_k = -f_j / a_j into the rows, dropping its column
        let a = lj[col].clone();
        let sub = |r: &Row| -> Row {
            let mut r = r.clone();
            if !r[col].is_zero() {
                let b = r[col].clone();
                let mut e = lj.clone();
                e.resize(r.len(), Int::ZERO);
                combine(&mut r, &a, &b, &e);
            }
            r.remove(col);
            r
        };
        let (mut ne, mut ni) = (Vec::new(), Vec::new());
        let rows: Vec<(Row, bool)> = eqs
            .iter()
            .map(|r| (sub(r), true))
            .chain(ineqs.iter().map(|r| (sub(r), false)))
            .collect();
        if !push_rows(&mut ne, &mut ni, rows) {
            continue;
        }
        let mut f = vec![Int::ZERO; 1 + np + n];
        f[..col].clone_from_slice(&lj[..col]);
        f[col + k] = a.clone();
        let mut fixed = fixed.clone();
        fixed.push(f);
        param_lexmin(
            ParamLevel {
                np,
                n,
                eqs: ne,
                ineqs: ni,
                ctx_eqs: ke,
                ctx_ineqs: ki,
                fixed,
                k: k + 1,
            },
            out,
            space,
        )?;
    }
    Ok(())
}

/// True when some rational point satisfies the rows of `c` and every row of
/// `strict` strictly (`r > 0`).
///
/// The idea: with a new variable `t`, the rows `r - t >= 0` and `t <= 1`, the
/// system has a point with every strict row positive iff the largest `t` is
/// positive (a point with all `r > 0` gives `t = min(1, r)`; conversely
/// `t > 0` makes every `r >= t > 0`). One exact LP decides it.
pub(crate) fn feasible_with_strict(c: &Conjunction, strict: &[Row]) -> bool {
    let mut lp = lp_of(c);
    if lp.is_empty() {
        return false;
    }
    if strict.is_empty() {
        return true;
    }
    let n = c.space.n_var();
    let t = lp.add_var();
    for r in strict {
        let mut row = r.clone();
        row.push(-Int::ONE);
        lp.add_ineq(&row);
    }
    let mut cap = vec![Int::ZERO; n + 2];
    cap[0] = Int::ONE;
    cap[1 + t] = -Int::ONE;
    lp.add_ineq(&cap);
    let mut obj = vec![Int::ZERO; n + 2];
    obj[1 + t] = -Int::ONE;
    match lp.minimize(&obj) {
        LpResult::Optimum { value, .. } => value.numer().is_negative(),
        LpResult::Empty => false,
        // t <= 1 bounds the objective; an unbounded answer cannot happen
        LpResult::Unbounded => true,
    }
}

/// True when the rational points of `base` where every row of `strict` is
/// positive all lie in the union of `others`.
///
/// The idea: a point of `base` is either in `others[0]` (every constraint
/// `c >= 0` of it holds) or violates a first constraint of it; so `base` is
/// covered iff, for each constraint `c_k` of `others[0]` in turn, the part of
/// `base` where `c_1..c_{k-1} >= 0` and `c_k < 0` is covered by the rest of
/// `others` (an equality is its two inequalities). A part that is empty
/// ([`feasible_with_strict`]) is covered. Exponential in the number of
/// disjuncts in the worst case, exact; `budget` counts the LPs solved, and
/// running out of it is [`Error::Budget`].
pub(crate) fn covered(
    base: &Conjunction,
    strict: &mut Vec<Row>,
    others: &[Conjunction],
    budget: &mut u64,
) -> Result<bool> {
    if *budget == 0 {
        return Err(Error::Budget(format!(
            "rational inclusion: more than {MAX_INCLUSION_LPS} linear programs (the pieces \
             of the complement multiply with the disjuncts)"
        )));
    }
    *budget -= 1;
    if !feasible_with_strict(base, strict) {
        return Ok(true);
    }
    let Some((q, rest)) = others.split_first() else {
        return Ok(false);
    };
    let mut cons: Vec<Row> = q.ineqs.clone();
    for e in &q.eqs {
        cons.push(e.clone());
        cons.push(e.iter().map(|v| -v).collect());
    }
    let mut b = base.clone();
    for c in cons {
        strict.push(c.iter().map(|v| -v).collect()); // c < 0
        let ok = covered(&b, strict, rest, budget);
        strict.pop();
        if !ok? {
            return Ok(false);
        }
        b.ineqs.push(c);
    }
    Ok(true)
}

/// Most linear programs one rational inclusion test may solve.
pub(crate) const MAX_INCLUSION_LPS: u64 = 1_000_000;
