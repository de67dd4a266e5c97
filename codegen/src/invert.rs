//! The iterators of a statement as functions of the schedule's time
//! dimensions: the arguments of the statement's calls in the AST.
//!
//! A schedule `S[x] -> [t]` that is injective on the domain has an inverse
//! `t -> x`, a function on the scheduled times. When each `x_k` is a
//! quasi-affine function of `t` and the parameters (an affine expression,
//! possibly divided exactly by an integer, possibly over floor divisions of
//! the parameters and `t`), the call's arguments are those expressions with
//! `t` replaced by the loop iterators.
//!
//! The idea: the equalities of each conjunction of the inverse relation
//! `{ t -> x }` are brought to reduced echelon form over the unknowns (the
//! iterators and the existential variables that are not divisions of known
//! values), eliminating the existentials first; an iterator whose row has no
//! other unknown is `x_k = -(rest) / c`, exact on the domain. The candidate
//! function is then checked exactly: the inverse relation must lie inside the
//! graph `{ t -> x : x = g(t) }` (inclusion by the `presburger` crate). A
//! schedule that is not injective, or whose inverse is not such a function,
//! is an error that says which.
//!
//! This is the step that isl performs when it builds a call's arguments from
//! the inverse schedule as a piecewise multi-affine function (Grosser,
//! Verdoolaege, Cohen, TOPLAS 2015, §5); here only one piece is supported.

use crate::ast::{Atom, Expr};
use crate::error::{Error, Result};
use crate::poly::Env;
use presburger::build::Expr as PExpr;
use presburger::{Conjunction, DimKind, Int, Map, Space};

/// The name standing for time dimension `j` in the argument expressions
/// before the iterators replace it (not a C identifier, so no parameter can
/// have it).
pub(crate) fn time_var(j: usize) -> String {
    format!("#t{j}")
}

/// The iterators of a statement as expressions of the parameters and the
/// time variables [`time_var`]. `inverse` is the statement's schedule
/// reversed, `{ [t] -> [x] }` in the space `[params] -> { [n] -> [k] }`,
/// restricted to the domain; `name` is for messages.
pub(crate) fn invert(
    inverse: &Map,
    params: &[String],
    n: usize,
    name: &str,
    schedule_text: &dyn Fn() -> String,
) -> Result<Vec<Expr>> {
    let k = inverse.space().n_out();
    if k == 0 {
        return Ok(Vec::new());
    }
    let simplified = inverse.detect_equalities().coalesce()?;
    let mut tried: Vec<Vec<Expr>> = Vec::new();
    for c in map_conjs(&simplified) {
        let Some(cand) = solve(&c, params, n, k)? else {
            continue;
        };
        if tried.contains(&cand) {
            continue;
        }
        if graph_contains(inverse, params, n, &cand)? {
            return Ok(cand);
        }
        tried.push(cand);
    }
    // explain the failure
    let forward = inverse.reverse();
    if !forward.is_injective()? {
        return Err(Error::Unsupported(format!(
            "the schedule of {name} is not injective on its domain (two instances share \
             a time): {}",
            schedule_text()
        )));
    }
    Err(Error::Unsupported(format!(
        "the iterators of {name} are not one quasi-affine function of the schedule's \
         time dimensions: {}",
        schedule_text()
    )))
}

fn map_conjs(m: &Map) -> Vec<Conjunction> {
    m.basics().map(|b| b.conjunction().clone()).collect()
}

/// Fraction-free elimination: `r := p[col]·r - r[col]·p`, divided by the gcd
/// of its entries.
fn eliminate(r: &mut [Int], p: &[Int], col: usize) {
    let (a, b) = (p[col].clone(), r[col].clone());
    let mut g = Int::ZERO;
    for (x, y) in r.iter_mut().zip(p) {
        *x = &(&a * &*x) - &(&b * y);
        g = g.gcd(x);
    }
    if !g.is_zero() && !g.is_one() {
        for x in r.iter_mut() {
            *x = x.exact_div(&g);
        }
    }
}

/// The candidate inverse from the equalities of one conjunction of `{ t -> x
/// }` (columns: constant, parameters, `t`, `x`, locals), or `None` when some
/// iterator is not fixed by them.
fn solve(c: &Conjunction, params: &[String], n: usize, k: usize) -> Result<Option<Vec<Expr>>> {
    let np = params.len();
    let first_x = 1 + np + n;
    let first_local = first_x + k;
    let nl = c.n_local();
    // a local is known when it is a division of known columns
    let mut known = vec![false; nl];
    for l in 0..nl {
        if let Some(d) = &c.divs()[l] {
            known[l] = d.num.iter().enumerate().all(|(j, v)| {
                v.is_zero() || j < first_x || (j >= first_local && known[j - first_local])
            });
        }
    }
    let mut unknown: Vec<usize> = (0..nl)
        .filter(|&l| !known[l])
        .map(|l| first_local + l)
        .collect();
    unknown.extend(first_x..first_local);
    let mut rows: Vec<Vec<Int>> = c
        .equalities()
        .iter()
        .map(|r| {
            let mut r = r.clone();
            r.resize(c.n_col(), Int::ZERO);
            r
        })
        .collect();
    let mut pivot_of: Vec<Option<usize>> = vec![None; c.n_col()];
    let mut used = vec![false; rows.len()];
    for &u in &unknown {
        let Some(p) = (0..rows.len()).find(|&i| !used[i] && !rows[i][u].is_zero()) else {
            continue;
        };
        used[p] = true;
        pivot_of[u] = Some(p);
        let prow = rows[p].clone();
        for (i, r) in rows.iter_mut().enumerate() {
            if i != p && !r[u].is_zero() {
                eliminate(r, &prow, u);
            }
        }
    }
    let mut dims: Vec<Expr> = (0..n).map(|j| Expr::var(time_var(j))).collect();
    dims.extend((0..k).map(|i| Expr::var(format!("#x{i}"))));
    let env = Env {
        params,
        dims: &dims,
    };
    let mut out = Vec::with_capacity(k);
    for i in 0..k {
        let col = first_x + i;
        let Some(p) = pivot_of[col] else {
            return Ok(None);
        };
        let row = &rows[p];
        if unknown.iter().any(|&u| u != col && !row[u].is_zero()) {
            return Ok(None);
        }
        // c·x + rest = 0
        let coef = row[col].clone();
        let mut rest = row.clone();
        rest[col] = Int::ZERO;
        let Some(rest) = env.row(c, &rest)? else {
            return Ok(None);
        };
        let Some(coef) = coef.to_i64() else {
            return Ok(None);
        };
        let value = if coef > 0 {
            rest.checked_mul(-1).and_then(|e| e.floor_div(coef))
        } else {
            coef.checked_neg().and_then(|d| rest.floor_div(d))
        };
        match value {
            Some(v) => out.push(v),
            None => return Ok(None),
        }
    }
    Ok(Some(out))
}

/// The `presburger` expression of an argument expression (time variables
/// become input dimensions); `None` for `min`/`max` or an unknown name.
fn to_pexpr(e: &Expr, params: &[String], n: usize) -> Option<PExpr> {
    let mut r = PExpr::constant(e.constant());
    for (c, a) in e.terms() {
        let t = match a {
            Atom::Var(v) => {
                if let Some(p) = params.iter().position(|p| p == v) {
                    PExpr::param(p)
                } else {
                    let j = (0..n).find(|&j| time_var(j) == *v)?;
                    PExpr::dim(DimKind::In, j)
                }
            }
            Atom::FloorDiv(x, d) => to_pexpr(x, params, n)?.floor_div(*d),
            Atom::CeilDiv(x, d) => to_pexpr(x, params, n)?.ceil_div(*d),
            Atom::Mod(x, m) => to_pexpr(x, params, n)?.modulo(*m),
            Atom::Min(_) | Atom::Max(_) => return None,
        };
        r = &r + &(t * *c);
    }
    Some(r)
}

/// True when `inverse` lies in `{ t -> x : x = g(t) }`.
fn graph_contains(inverse: &Map, params: &[String], n: usize, g: &[Expr]) -> Result<bool> {
    let space: Space = inverse.space().clone();
    let mut cons = Vec::with_capacity(g.len());
    for (i, e) in g.iter().enumerate() {
        let Some(pe) = to_pexpr(e, params, n) else {
            return Ok(false);
        };
        cons.push(PExpr::dim(DimKind::Out, i).eq(pe));
    }
    let graph = Map::from_constraints(&space, cons)?;
    Ok(inverse.is_subset(&graph)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inv(text: &str) -> Result<Vec<String>> {
        let m: Map = text.parse().unwrap();
        let params = m.space().params().to_vec();
        let n = m.space().n_out();
        let r = invert(&m.reverse(), &params, n, "S", &|| text.to_string())?;
        Ok(r.iter().map(|e| e.to_string()).collect())
    }

    #[test]
    fn affine_inverses() {
        assert_eq!(
            inv("[N] -> { S[i] -> [i + 1] : 0 <= i < N }").unwrap(),
            ["#t0 - 1"]
        );
        assert_eq!(
            inv("{ S[i, j] -> [i, i + j] : 0 <= i, j < 5 }").unwrap(),
            ["#t0", "-#t0 + #t1"]
        );
        assert_eq!(
            inv("{ S[i] -> [2i] : 0 <= i < 5 }").unwrap(),
            ["floord(#t0, 2)"]
        );
        assert_eq!(
            inv("[N] -> { S[i, j] -> [j, N - i, 0] : 0 <= i, j < 5 }").unwrap(),
            ["N - #t1", "#t0"]
        );
        // the iterators through divisions of the time: i = 2t0 + t1
        assert_eq!(
            inv("{ S[i] -> [floor(i/2), i mod 2] : 0 <= i < 8 }").unwrap(),
            ["2 * #t0 + #t1"]
        );
        assert!(inv("{ S[] -> [0] }").unwrap().is_empty());
    }

    #[test]
    fn non_injective_and_non_affine() {
        let e = inv("[N] -> { S[i, j] -> [i] : 0 <= i, j < N }").unwrap_err();
        assert!(e.to_string().contains("not injective"), "{e}");
        let e = inv("{ S[i] -> [floor(i/2)] : 0 <= i < 8 }").unwrap_err();
        assert!(e.to_string().contains("not injective"), "{e}");
    }
}
