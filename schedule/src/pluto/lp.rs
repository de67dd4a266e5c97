//! A Pluto-style scheduler on the LP relaxation (pluto-lp).
//!
//! # Idea
//!
//! Pluto (Bondhugula, Hartono, Ramanujam, Sadayappan, "A practical automatic
//! polyhedral parallelizer and locality optimizer", PLDI 2008) finds the
//! rows of a schedule one at a time, outermost first. Row `φ_S(x) = c_S·x +
//! d_S·p + c0_S` (per statement `S`, iterators `x`, parameters `p`) must
//! satisfy, for every dependence pair `S[x] -> T[y]` of the polyhedron `D`:
//!
//! - *tiling validity*: `φ_T(y) − φ_S(x) ≥ 0` (each dependence goes forward
//!   or stays, in every row of the band, so the rows can be permuted and
//!   tiled);
//! - *bounding*: `φ_T(y) − φ_S(x) ≤ u·p + w`, with `u ≥ 0`, `w ≥ 0` shared by
//!   all dependences: the lexicographic minimum of `(u, w)` makes dependence
//!   distances short (locality) and zero when it can (`u = 0`, `w = 0` is an
//!   outer parallel row).
//!
//! Both are affine constraints that must hold on every point of `D`; the
//! affine form of Farkas' lemma (Schrijver, "Theory of linear and integer
//! programming", 1986, Cor. 7.1h; used for schedules by Feautrier, "Some
//! efficient solutions to the affine scheduling problem, part I", IJPP
//! 21(5), 1992) turns each into linear constraints on the schedule
//! coefficients: an affine form `ψ` is non-negative on a non-empty
//! polyhedron `{ z : A z + b ≥ 0, E z + f = 0 }` iff `ψ(z) ≡ λ0 + μ·(A z + b) +
//! ν·(E z + f)` for some `λ0 ≥ 0`, `μ ≥ 0` and free `ν`. Equating the
//! coefficients of each variable of `D` (parameters, source and target
//! iterators, existential variables) and of the constant gives equalities in
//! the schedule coefficients and the multipliers; the multipliers stay in the
//! LP as variables. (Existential variables are treated as free rational
//! variables: the relaxation of `D` is larger, so the constraints are
//! sufficient.)
//!
//! Coefficients are non-negative and bounded (as in Pluto); parameter
//! coefficients are first fixed to zero (no parametric shifts, as in
//! Pluto's output); when that band cannot be made valid, a second try
//! allows them (a shift by `N` can stand in for the loop distribution that
//! is not implemented). Row zero is
//! avoided by `Σ c_S ≥ 1` for a statement without rows yet; afterwards the
//! new row must leave the span of the earlier rows of `S`: with `v_1..v_k` a
//! basis of the vectors orthogonal to those rows (the null space of the
//! matrix they form, each oriented to a non-negative sum), `v_i·c_S ≥ 0`
//! and `Σ v_i·c_S ≥ 1` (Pluto's orthogonal-subspace constraint; a heuristic:
//! it can miss independent rows that have a negative component).
//!
//! The objective is the lexicographic minimum of `(u, w, coefficients)`
//! (innermost iterator coefficient first within a statement, so that rows
//! keep the original outer loops when they can), found by a sequence of LPs
//! on `presburger`'s exact simplex, each optimum fixed before the next
//! ([`Simplex::lexmin`]). This is the LP relaxation of Pluto's ILP
//! (pluto-lp: Acharya, Bondhugula, Cohen, "Polyhedral auto-transformation
//! with no integer linear programming", PLDI 2018); the technical report
//! on pluto-lp-dfp (Sec. 2) shows that a
//! rational optimum scaled by a positive factor stays feasible, with `u`,
//! `w` scaled too, and that it finds outer parallel rows and permutable
//! rows exactly when the ILP does. The solution is scaled to integers by the
//! least common multiple of its denominators and divided by the gcd of the
//! coefficients.
//!
//! Rows are added while some statement has fewer linearly independent rows
//! than loops, and the LP is feasible; a statement already complete takes
//! part in later rows (validity must hold for it) without the independence
//! constraint. All rows form one band: no loop distribution or fusion is
//! decided (dependences are not removed as rows satisfy them). When the band
//! leaves dependences between different statements unordered, a last scalar
//! dimension with the statements' textual order is appended. The result is
//! checked with [`crate::validity::check`]; an invalid one is an error.

use crate::deps::Dependences;
use crate::schedule::{parallel_dims, Schedule, StatementSchedule};
use crate::scop::Scop;
use crate::validity::{check, Validity};
use presburger::simplex::{LpResult, Simplex};
use presburger::{DimKind, Error, Int, Map, Result};

/// The bound on each schedule coefficient (iterators, parameters) and on the
/// constant, in the LP (before scaling to integers).
pub const COEFF_BOUND: i64 = 4;

/// A linear constraint of the LP: equality or `>= 0`, a sparse form over
/// its variables, a constant.
type LinCon = (bool, Vec<(usize, Int)>, Int);

/// One statement's block of LP variables.
struct Block {
    /// First variable: `n` iterator coefficients, `np` parameter
    /// coefficients, the constant.
    first: usize,
    n: usize,
}

/// The pluto-lp schedule of `scop` (see the module doc): one permutable band
/// of hyperplanes, then a scalar dimension when needed; bands and parallel
/// dimensions filled in. Fails when the LP finds no valid band that orders
/// every dependence (distribution is not implemented) or a `presburger`
/// operation fails.
pub fn pluto_lp(scop: &Scop, deps: &Dependences) -> Result<Schedule> {
    match band(scop, deps, false) {
        Ok(s) => Ok(s),
        // without distribution, a parametric shift (`N + i`) can sometimes
        // order what a cut would separate
        Err(first) => band(scop, deps, true).map_err(|_| first),
    }
}

/// One try of [`pluto_lp`], with parameter coefficients allowed
/// (`parametric`) or fixed to zero.
fn band(scop: &Scop, deps: &Dependences, parametric: bool) -> Result<Schedule> {
    let np = scop.params.len();
    // the dependence polyhedra, with the context's constraints on parameters
    let all = deps.raw.union(&deps.war)?.union(&deps.waw)?.coalesce()?;
    let mut polys: Vec<(usize, usize, Map)> = Vec::new();
    for m in all.members() {
        let sp = m.space();
        let find =
            |name: Option<&String>| scop.statements.iter().position(|s| Some(&s.name) == name);
        let (Some(s), Some(t)) = (
            find(sp.domain_tuple().and_then(|t| t.name.as_ref())),
            find(sp.range_tuple().name.as_ref()),
        ) else {
            return Err(Error::Invalid(format!(
                "a dependence between unknown statements: {m}"
            )));
        };
        polys.push((s, t, m.intersect_params(&scop.context)?));
    }
    // the variable layout: u (np), w, then one block per statement
    let mut blocks = Vec::new();
    let mut n_var = np + 1;
    for s in &scop.statements {
        let n = s.iterators.len();
        blocks.push(Block { first: n_var, n });
        n_var += n + np + 1;
    }
    let n_sched = n_var;
    let mut rows: Vec<Vec<Vec<Int>>> = vec![Vec::new(); scop.statements.len()];
    let max_depth = blocks.iter().map(|b| b.n).max().unwrap_or(0);
    let mut band_rows = 0;
    for _ in 0..max_depth {
        let needs: Vec<bool> = blocks
            .iter()
            .zip(&rows)
            .map(|(b, r)| b.n > 0 && rank_of(r, b.n) < b.n)
            .collect();
        if !needs.iter().any(|&x| x) {
            break;
        }
        // Pluto's combined independence constraint first (choice 0); when
        // it is infeasible, one basis vector with one sign for every
        // statement at once (choice j: vector (j-1)/2, sign by parity)
        let max_choice = blocks.iter().map(|b| 2 * b.n).max().unwrap_or(0);
        let mut found = None;
        for choice in 0..=max_choice {
            found = solve_row(
                scop, &polys, &blocks, &rows, &needs, n_sched, np, choice, parametric,
            )?;
            if found.is_some() {
                break;
            }
        }
        let Some(sol) = found else {
            break;
        };
        for (k, b) in blocks.iter().enumerate() {
            rows[k].push(sol[b.first..b.first + b.n + np + 1].to_vec());
        }
        band_rows += 1;
    }
    if band_rows == 0 && max_depth > 0 {
        return Err(Error::Invalid(
            "pluto-lp: no hyperplane satisfies the tiling validity constraints (distribution is not implemented)".into(),
        ));
    }
    let statements: Vec<StatementSchedule> = scop
        .statements
        .iter()
        .zip(&rows)
        .map(|(s, r)| StatementSchedule {
            tuple: s.domain.space().range_tuple().clone(),
            iterators: s.iterators.clone(),
            rows: r.clone(),
        })
        .collect();
    let mut sched = Schedule {
        params: scop.params.clone(),
        statements,
        bands: if band_rows > 0 {
            vec![(0, band_rows - 1)]
        } else {
            Vec::new()
        },
        parallel: Vec::new(),
    };
    let mut verdict = check(scop, deps, &sched.to_union_map()?)?;
    if !verdict.is_valid() || band_rows == 0 {
        // order what the band leaves equal by the statements' textual order
        for (k, st) in sched.statements.iter_mut().enumerate() {
            let mut row = vec![Int::ZERO; st.n_iter() + np + 1];
            row[st.n_iter() + np] = Int::from(k as i64);
            st.rows.push(row);
        }
        verdict = check(scop, deps, &sched.to_union_map()?)?;
    }
    if let Validity::Invalid(v) = verdict {
        return Err(Error::Invalid(format!(
            "pluto-lp: the band found ({band_rows} rows) is not a valid schedule (distribution is not implemented): {v}"
        )));
    }
    let n = sched.n_dims();
    sched.parallel = parallel_dims(scop, deps, &sched.to_union_map()?, n)?;
    Ok(sched)
}

/// The number of linearly independent rows among `r` (each `n` iterator
/// coefficients first).
fn rank_of(r: &[Vec<Int>], n: usize) -> usize {
    let m: Vec<Vec<Int>> = r.iter().map(|row| row[..n].to_vec()).collect();
    n - null_space(&m, n).len()
}

/// Solves the LP for the next row: returns the integer coefficients of every
/// statement's row laid out as the LP's schedule variables (`u`, `w`,
/// blocks), or `None` when infeasible. `choice` selects the independence
/// constraint of statements with earlier rows: 0 Pluto's combined one
/// (`v_i·c ≥ 0`, `Σ v_i·c ≥ 1`), `j > 0` the single `±v·c ≥ 1` with `v`
/// the basis vector `(j − 1) / 2`, `+` for odd `j` (the combined one when the
/// statement has fewer vectors).
#[allow(clippy::too_many_arguments)]
fn solve_row(
    scop: &Scop,
    polys: &[(usize, usize, Map)],
    blocks: &[Block],
    rows: &[Vec<Vec<Int>>],
    needs: &[bool],
    n_sched: usize,
    np: usize,
    choice: usize,
    parametric: bool,
) -> Result<Option<Vec<Int>>> {
    // the Farkas constraints, as (equality?, sparse row over a growing set
    // of variables); multipliers are numbered from n_sched on
    let mut cons: Vec<LinCon> = Vec::new();
    let mut n_var = n_sched;
    for (s, t, m) in polys {
        let (bs, bt) = (&blocks[*s], &blocks[*t]);
        for bm in m.basics() {
            // an empty piece adds nothing (and Farkas' affine form needs a
            // non-empty polyhedron)
            if bm.is_empty()? {
                continue;
            }
            let c = bm.conjunction();
            let sp = c.space();
            // position of each of D's parameters among the SCoP's
            let mut pmap = Vec::with_capacity(sp.n_param());
            for k in 0..sp.n_param() {
                let name = sp.params()[k].clone();
                let Some(q) = scop.params.iter().position(|p| *p == name) else {
                    return Err(Error::Invalid(format!(
                        "a dependence uses the unknown parameter {name}"
                    )));
                };
                pmap.push(q);
            }
            for bounding in [false, true] {
                // ψ's coefficient at each column of D, as a sparse linear
                // form in the schedule variables
                let n_col = c.n_col();
                let mut psi: Vec<Vec<(usize, Int)>> = vec![Vec::new(); n_col];
                let sign = if bounding { -1i64 } else { 1 };
                // target minus source (negated for the bound)
                for (k, &q) in pmap.iter().enumerate() {
                    let col = c.col(DimKind::Param, k);
                    psi[col].push((bt.first + bt.n + q, Int::from(sign)));
                    psi[col].push((bs.first + bs.n + q, Int::from(-sign)));
                    if bounding {
                        psi[col].push((q, Int::ONE));
                    }
                }
                for k in 0..bs.n {
                    psi[c.col(DimKind::In, k)].push((bs.first + k, Int::from(-sign)));
                }
                for k in 0..bt.n {
                    psi[c.col(DimKind::Out, k)].push((bt.first + k, Int::from(sign)));
                }
                psi[0].push((bt.first + bt.n + np, Int::from(sign)));
                psi[0].push((bs.first + bs.n + np, Int::from(-sign)));
                if bounding {
                    psi[0].push((np, Int::ONE));
                }
                // ψ − λ0 − μ·ineqs − ν·eqs = 0, column by column
                let lambda0 = n_var;
                n_var += 1;
                cons.push((false, vec![(lambda0, Int::ONE)], Int::ZERO));
                let first_mu = n_var;
                let n_ineq = c.inequalities().len();
                for k in 0..n_ineq {
                    cons.push((false, vec![(first_mu + k, Int::ONE)], Int::ZERO));
                }
                n_var += n_ineq;
                let first_nu = n_var;
                n_var += c.equalities().len();
                for (col, form) in psi.into_iter().enumerate() {
                    let mut row = form;
                    if col == 0 {
                        row.push((lambda0, Int::from(-1)));
                    }
                    for (k, ineq) in c.inequalities().iter().enumerate() {
                        if !ineq[col].is_zero() {
                            row.push((first_mu + k, -ineq[col].clone()));
                        }
                    }
                    for (k, eq) in c.equalities().iter().enumerate() {
                        if !eq[col].is_zero() {
                            row.push((first_nu + k, -eq[col].clone()));
                        }
                    }
                    if !row.is_empty() {
                        cons.push((true, row, Int::ZERO));
                    }
                }
            }
        }
    }
    // bounds on u, w and the coefficients
    for v in 0..np + 1 {
        cons.push((false, vec![(v, Int::ONE)], Int::ZERO));
    }
    for b in blocks {
        for v in b.first..b.first + b.n + np + 1 {
            cons.push((false, vec![(v, Int::ONE)], Int::ZERO));
            // no parametric shifts unless asked: parameter coefficients
            // are then fixed to 0
            let param = v >= b.first + b.n && v < b.first + b.n + np;
            let ub = if param && !parametric { 0 } else { COEFF_BOUND };
            cons.push((false, vec![(v, Int::from(-1))], Int::from(ub)));
        }
    }
    // non-triviality and linear independence
    for (k, b) in blocks.iter().enumerate() {
        if !needs[k] {
            continue;
        }
        let h: Vec<Vec<Int>> = rows[k].iter().map(|r| r[..b.n].to_vec()).collect();
        let basis = if h.is_empty() {
            (0..b.n)
                .map(|i| {
                    let mut v = vec![Int::ZERO; b.n];
                    v[i] = Int::ONE;
                    v
                })
                .collect()
        } else {
            null_space(&h, b.n)
        };
        let form_of = |v: &Vec<Int>, sign: i64| -> Vec<(usize, Int)> {
            v.iter()
                .enumerate()
                .filter(|(_, x)| !x.is_zero())
                .map(|(i, x)| (b.first + i, x * &Int::from(sign)))
                .collect()
        };
        if choice > 0 && !h.is_empty() && (choice - 1) / 2 < basis.len() {
            let sign = if choice % 2 == 1 { 1 } else { -1 };
            cons.push((
                false,
                form_of(&basis[(choice - 1) / 2], sign),
                Int::from(-1),
            ));
            continue;
        }
        let mut sum: Vec<(usize, Int)> = Vec::new();
        for v in &basis {
            let form: Vec<(usize, Int)> = v
                .iter()
                .enumerate()
                .filter(|(_, x)| !x.is_zero())
                .map(|(i, x)| (b.first + i, x.clone()))
                .collect();
            if !h.is_empty() {
                cons.push((false, form.clone(), Int::ZERO));
            }
            sum.extend(form);
        }
        cons.push((false, sum, Int::from(-1)));
    }
    let mut lp = Simplex::new(n_var);
    for (is_eq, form, constant) in &cons {
        let mut row = vec![Int::ZERO; n_var + 1];
        row[0] = constant.clone();
        for (v, x) in form {
            row[v + 1] += x;
        }
        if *is_eq {
            lp.add_eq(&row);
        } else {
            lp.add_ineq(&row);
        }
        if lp.is_empty() {
            return Ok(None);
        }
    }
    // lexmin of (u, w, each statement's coefficients innermost iterator first)
    let unit = |v: usize| {
        let mut o = vec![Int::ZERO; n_var + 1];
        o[v + 1] = Int::ONE;
        o
    };
    let mut objs: Vec<Vec<Int>> = (0..np + 1).map(unit).collect();
    for b in blocks {
        for i in (0..b.n).rev() {
            objs.push(unit(b.first + i));
        }
        for v in b.first + b.n..b.first + b.n + np + 1 {
            objs.push(unit(v));
        }
    }
    let LpResult::Optimum { point, .. } = lp.lexmin(&objs) else {
        return Ok(None);
    };
    // scale to integers, then divide by the gcd of the schedule coefficients
    let mut den = Int::ONE;
    for x in &point[..n_sched] {
        den = den.lcm(&x.den);
    }
    let ints: Vec<Int> = point[..n_sched]
        .iter()
        .map(|x| (&x.num * &den).exact_div(&x.den))
        .collect();
    let mut g = Int::ZERO;
    for x in &ints[np + 1..] {
        g = g.gcd(x);
    }
    if g.is_zero() || g.is_one() {
        return Ok(Some(ints));
    }
    // u and w are not used after the solve: divide the coefficients only
    let (uw, coeffs) = ints.split_at(np + 1);
    let mut out = uw.to_vec();
    out.extend(coeffs.iter().map(|x| x.exact_div(&g)));
    Ok(Some(out))
}

/// A basis of the null space `{ v : h·v = 0 }` of the rows `h` (each of `n`
/// entries), integer vectors each oriented to a non-negative sum (a zero sum:
/// first non-zero entry positive). Exact rational Gauss–Jordan elimination.
fn null_space(h: &[Vec<Int>], n: usize) -> Vec<Vec<Int>> {
    // rows as fractions over a common denominator: keep integer rows and
    // eliminate fraction-free
    let mut m: Vec<Vec<Int>> = h.iter().map(|r| r[..n].to_vec()).collect();
    let mut pivots: Vec<usize> = Vec::new();
    let mut r = 0;
    for col in 0..n {
        let Some(p) = (r..m.len()).find(|&i| !m[i][col].is_zero()) else {
            continue;
        };
        m.swap(r, p);
        for i in 0..m.len() {
            if i != r && !m[i][col].is_zero() {
                let (a, b) = (m[r][col].clone(), m[i][col].clone());
                let new: Vec<Int> = (0..n)
                    .map(|j| &(&m[i][j] * &a) - &(&m[r][j] * &b))
                    .collect();
                let g = presburger::int::gcd_all(new.iter());
                m[i] = if g.is_zero() || g.is_one() {
                    new
                } else {
                    new.iter().map(|x| x.exact_div(&g)).collect()
                };
            }
        }
        pivots.push(col);
        r += 1;
        if r == m.len() {
            break;
        }
    }
    let mut basis = Vec::new();
    for free in (0..n).filter(|c| !pivots.contains(c)) {
        // v[free] = L, v[pivot_k] = -m[k][free] * L / m[k][pivot_k]
        let mut l = Int::ONE;
        for (k, &pc) in pivots.iter().enumerate() {
            l = l.lcm(&m[k][pc].abs());
        }
        let mut v = vec![Int::ZERO; n];
        v[free] = l.clone();
        for (k, &pc) in pivots.iter().enumerate() {
            v[pc] = -(&m[k][free] * &l).exact_div(&m[k][pc]);
        }
        let g = presburger::int::gcd_all(v.iter());
        if !g.is_zero() && !g.is_one() {
            v = v.iter().map(|x| x.exact_div(&g)).collect();
        }
        let s: Int = v.iter().fold(Int::ZERO, |acc, x| &acc + x);
        let first_neg = v
            .iter()
            .find(|x| !x.is_zero())
            .is_some_and(|x| x.is_negative());
        if s.is_negative() || (s.is_zero() && first_neg) {
            v = v.iter().map(|x| -x.clone()).collect();
        }
        basis.push(v);
    }
    basis
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(v: &[&[i64]]) -> Vec<Vec<Int>> {
        v.iter()
            .map(|r| r.iter().map(|&x| Int::from(x)).collect())
            .collect()
    }

    #[test]
    fn null_spaces() {
        assert_eq!(
            null_space(&ints(&[&[1, 0, 0]]), 3),
            ints(&[&[0, 1, 0], &[0, 0, 1]])
        );
        assert_eq!(null_space(&ints(&[&[1, 1]]), 2), ints(&[&[1, -1]]));
        assert_eq!(
            null_space(&ints(&[&[1, 1, 0], &[1, 0, 0]]), 3),
            ints(&[&[0, 0, 1]])
        );
        assert!(null_space(&ints(&[&[1, 2], &[3, 4]]), 2).is_empty());
        assert_eq!(null_space(&ints(&[&[2, 1, 1]]), 3).len(), 2);
    }
}
