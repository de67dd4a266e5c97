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
//! The idea, in two steps.
//!
//! 1. *One function for all times.* The equalities of each conjunction of
//!    the inverse relation `{ t -> x }` are brought to reduced echelon form
//!    over the unknowns (the iterators and the existential variables that
//!    are not divisions of known values), eliminating the existentials
//!    first; an iterator whose row has no other unknown is `x_k = -(rest) /
//!    c`, exact on the domain. The candidate function is then checked
//!    exactly: the inverse relation must lie inside the graph `{ t -> x : x
//!    = g(t) }` (inclusion by the `presburger` crate). The first candidate
//!    that passes is the statement's one piece.
//! 2. *A piecewise inverse* when no candidate covers every time (a domain
//!    with a disjunct that fixes an iterator: `{ S[i] -> [i] : i = 0 or i =
//!    3 }` has the inverses `x = 0` on `t = 0` and `x = 3` on `t = 3`; the
//!    border of a grid has one per side). The injective schedule's inverse
//!    is a single-valued map, whose piecewise quasi-affine form
//!    ([`PwMultiAff::from_map`], isl's `isl_pw_multi_aff_from_map`: one
//!    piece per disjunct, each domain minus the ones before it, pieces with
//!    equal functions merged, parametric integer programming where the
//!    equalities do not fix the iterators) has pairwise disjoint pieces
//!    covering all scheduled times. Each piece is checked as in step 1 on
//!    its own times and becomes a piece of the statement: the scanner treats
//!    the pieces as statements of their own (with the statement's name and
//!    its place in the statement order), so their loops are merged or
//!    separated per level as for any statements, and since the pieces'
//!    times are disjoint, every instance runs exactly once, even where the
//!    disjuncts of the input overlap.
//!
//! A schedule that is not injective, or whose inverse has a piece that is
//! not such a function, is an error that says which.
//!
//! This is the step that isl performs when it builds a call's arguments from
//! the inverse schedule as a piecewise multi-affine function (Grosser,
//! Verdoolaege, Cohen, TOPLAS 2015, §5); where isl prints a piecewise
//! argument as a conditional expression (`c0 == 0 ? 0 : c0`, its test
//! `dwt`), the pieces here are scanned apart, as isl's generator does with
//! the basic maps of one statement's schedule (each basic map's domain
//! treated separately, the loops merged per level).

use crate::ast::{Atom, Expr};
use crate::error::{Error, Result};
use crate::poly::{Env, try_coalesce};
use crate::work::Work;
use presburger::build::Expr as PExpr;
use presburger::{Aff, Conjunction, DimKind, Div, Int, Map, PwMultiAff, Set, Space};

/// The name standing for time dimension `j` in the argument expressions
/// before the iterators replace it (not a C identifier, so no parameter can
/// have it).
pub(crate) fn time_var(j: usize) -> String {
    format!("#t{j}")
}

/// One piece of a statement's inverse schedule: the scheduled times where
/// it holds (`None`: all of them) and the iterators there, as expressions
/// of the parameters and the time variables [`time_var`].
#[derive(Debug)]
pub(crate) struct Piece {
    pub(crate) time: Option<Set>,
    pub(crate) args: Vec<Expr>,
}

/// The iterators of a statement as expressions of the parameters and the
/// time variables [`time_var`], piece by piece (see the module doc): one
/// piece with `time: None` when one function serves every time, else
/// pieces whose times are pairwise disjoint and cover the domain of
/// `inverse`. `inverse` is the statement's schedule reversed, `{ [t] -> [x]
/// }` in the space `[params] -> { [n] -> [k] }`, restricted to the domain;
/// `name` is for messages; every query spends from `w`.
pub(crate) fn invert(
    w: &Work,
    inverse: &Map,
    params: &[String],
    n: usize,
    name: &str,
    schedule_text: &dyn Fn() -> String,
) -> Result<Vec<Piece>> {
    let k = inverse.space().n_out();
    if k == 0 {
        return Ok(vec![Piece {
            time: None,
            args: Vec::new(),
        }]);
    }
    let simplified = w.required(|b| inverse.detect_equalities().coalesce_with_budget(b))?;
    let mut tried: Vec<Vec<Expr>> = Vec::new();
    for c in map_conjs(&simplified) {
        let Some(cand) = solve(&c, params, n, k)? else {
            continue;
        };
        if tried.contains(&cand) {
            continue;
        }
        if graph_contains(w, inverse, params, n, &cand)? {
            return Ok(vec![Piece {
                time: None,
                args: cand,
            }]);
        }
        tried.push(cand);
    }
    // injective: the pairs of instances at one time lie on the identity
    // (as `Map::is_injective`, on the work limit)
    let forward = inverse.reverse();
    let pairs = forward.apply_range(inverse)?;
    let same = Map::identity(
        &forward
            .space()
            .domain_space()
            .ok_or_else(|| Error::Input(format!("the schedule of {name} is not a map")))?,
    )?;
    if !w.required(|b| pairs.is_subset_with_budget(&same, b))? {
        return Err(Error::Unsupported(format!(
            "the schedule of {name} is not injective on its domain (two instances share \
             a time): {}",
            schedule_text()
        )));
    }
    let not_function = |why: &str| {
        Error::Unsupported(format!(
            "the iterators of {name} are not a piecewise quasi-affine function of the \
             schedule's time dimensions ({why}): {}",
            schedule_text()
        ))
    };
    let pw = match w.required(|b| PwMultiAff::from_map_with_budget(&inverse.detect_equalities(), b))
    {
        Ok(pw) => pw,
        Err(Error::Presburger(e)) if !matches!(e, presburger::Error::Budget(_)) => {
            return Err(not_function(&e.to_string()));
        }
        Err(e) => return Err(e),
    };
    let mut pieces = Vec::with_capacity(pw.n_piece());
    for (dom, f) in pw.pieces() {
        let mut args = Vec::with_capacity(k);
        for a in f.affs() {
            match aff_expr(a, params, n)? {
                Some(e) => args.push(e),
                None => {
                    return Err(not_function(
                        "an iterator's expression does not fit in 64 bits",
                    ));
                }
            }
        }
        let part = inverse.intersect_domain(dom)?;
        if !graph_contains(w, &part, params, n, &args)? {
            return Err(not_function(
                "a piece's expression does not match its relation",
            ));
        }
        pieces.push(Piece {
            time: Some(try_coalesce(w, dom.clone())?),
            args,
        });
    }
    Ok(pieces)
}

/// The expression of a quasi-affine function `num / den` of the time
/// dimensions (the columns of `a`: constant, parameters, time, divisions),
/// with the division by `den` written as a floor division, exact where the
/// function is integral; `None` when it cannot be written (a denominator
/// beyond 64 bits, an overflow); an error for a coefficient beyond 64 bits.
fn aff_expr(a: &Aff, params: &[String], n: usize) -> Result<Option<Expr>> {
    let dims: Vec<Expr> = (0..n).map(|j| Expr::var(time_var(j))).collect();
    let env = Env {
        params,
        dims: &dims,
    };
    let divs: Vec<Option<Div>> = a.divs().iter().cloned().map(Some).collect();
    let Some(num) = env.row_over(&divs, a.numerator())? else {
        return Ok(None);
    };
    let den = a.denominator();
    if den.is_one() {
        return Ok(Some(num));
    }
    Ok(den.to_i64().and_then(|d| num.floor_div(d)))
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
fn graph_contains(
    w: &Work,
    inverse: &Map,
    params: &[String],
    n: usize,
    g: &[Expr],
) -> Result<bool> {
    let space: Space = inverse.space().clone();
    let mut cons = Vec::with_capacity(g.len());
    for (i, e) in g.iter().enumerate() {
        let Some(pe) = to_pexpr(e, params, n) else {
            return Ok(false);
        };
        cons.push(PExpr::dim(DimKind::Out, i).eq(pe));
    }
    let graph = Map::from_constraints(&space, cons)?;
    w.required(|b| inverse.is_subset_with_budget(&graph, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(text: &str) -> Result<Vec<Piece>> {
        let m: Map = text.parse().unwrap();
        let params = m.space().params().to_vec();
        let n = m.space().n_out();
        let w = Work::new(crate::DEFAULT_MAX_STEPS);
        invert(&w, &m.reverse(), &params, n, "S", &|| text.to_string())
    }

    /// The one function that inverts the schedule `text`.
    fn inv(text: &str) -> Result<Vec<String>> {
        let r = pieces(text)?;
        assert_eq!(r.len(), 1, "{text}: {r:?}");
        assert!(r[0].time.is_none(), "{text}: {r:?}");
        Ok(r[0].args.iter().map(|e| e.to_string()).collect())
    }

    /// The pieces of the inverse of the schedule `text` (no parameters),
    /// checked point by point: every scheduled time lies in exactly one
    /// piece, no piece has a time that is not scheduled, and the piece's
    /// expressions give the instance scheduled at that time. Returns the
    /// pieces' expressions.
    fn checked_pieces(text: &str) -> Vec<Vec<String>> {
        let m: Map = text.parse().unwrap();
        let k = m.space().n_in();
        let r = pieces(text).unwrap();
        let graph = m.wrap().points(100_000).unwrap();
        let times: Vec<Vec<Int>> = graph.iter().map(|p| p[k..].to_vec()).collect();
        for p in &r {
            if let Some(s) = &p.time {
                for t in s.points(100_000).unwrap() {
                    assert!(
                        times.contains(&t),
                        "{text}: {t:?} is in a piece, not scheduled"
                    );
                }
            }
        }
        for point in &graph {
            let (x, t) = point.split_at(k);
            let holders: Vec<&Piece> = r
                .iter()
                .filter(|p| p.time.as_ref().is_none_or(|s| s.contains(t).unwrap()))
                .collect();
            assert_eq!(
                holders.len(),
                1,
                "{text}: time {t:?} in {} pieces",
                holders.len()
            );
            let env = |v: &str| {
                (0..t.len())
                    .find(|&j| time_var(j) == v)
                    .and_then(|j| t[j].to_i64())
            };
            let got: Vec<i64> = holders[0]
                .args
                .iter()
                .map(|e| e.eval(&env).unwrap())
                .collect();
            let want: Vec<i64> = x.iter().map(|v| v.to_i64().unwrap()).collect();
            assert_eq!(got, want, "{text}: at time {t:?}");
        }
        r.iter()
            .map(|p| p.args.iter().map(|e| e.to_string()).collect())
            .collect()
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
        // injective on each disjunct, not on their union: no piecewise escape
        let e = pieces("{ S[i] -> [0] : i = 0 or i = 1 }").unwrap_err();
        assert!(e.to_string().contains("not injective"), "{e}");
    }

    /// Issue 45, item 3: a disjunct that fixes an iterator. Each disjunct
    /// inverts to a constant; no one function serves both.
    #[test]
    fn fixed_iterator_disjuncts_invert_piecewise() {
        let mut r = checked_pieces("{ S[i] -> [i] : i = 0 or i = 3 }");
        r.sort();
        assert_eq!(r, [["0"], ["3"]]);
        // the iterator also fixed by the time of another dimension
        let r = checked_pieces("{ S[i, j] -> [j, i] : (i = 0 or i = 4) and 0 <= j <= 3 }");
        assert_eq!(r.len(), 2);
    }

    /// The border of a 5 x 5 grid: one piece per side, the corners (in two
    /// disjuncts each) in exactly one piece.
    #[test]
    fn grid_border_inverts_piecewise() {
        let r = checked_pieces(
            "{ S[i, j] -> [i, j] : 0 <= i, j <= 4 and (i = 0 or i = 4 or j = 0 or j = 4) }",
        );
        assert!((2..=4).contains(&r.len()), "{r:?}");
        // with the parameter: the pieces are the sides, whatever N is
        let text = "[N] -> { S[i, j] -> [i, j] : 0 <= i, j < N and \
                    (i = 0 or i = N - 1 or j = 0 or j = N - 1) }";
        let r = pieces(text).unwrap();
        assert!((2..=4).contains(&r.len()), "{r:?}");
        let mut args: Vec<String> = r
            .iter()
            .map(|p| {
                p.args
                    .iter()
                    .map(|e| e.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .collect();
        args.sort();
        for a in &args {
            assert!(a.contains("#t"), "{a}: each side has one varying iterator");
        }
        // and the pieces' times are disjoint
        for (a, p) in r.iter().enumerate() {
            for q in &r[a + 1..] {
                let (Some(s), Some(t)) = (&p.time, &q.time) else {
                    panic!("a piece without its times: {r:?}");
                };
                assert!(s.is_disjoint(t).unwrap(), "{s} and {t}");
            }
        }
    }

    /// Overlapping disjuncts with different inverses: the instance in both
    /// belongs to one piece.
    #[test]
    fn overlapping_disjuncts_are_made_disjoint() {
        let r = checked_pieces(
            "{ S[i, j] -> [i, j] : (i = 0 and 0 <= j <= 5) or (j = 0 and 0 <= i <= 5) or \
             (i = 2 and 0 <= j <= 3) }",
        );
        assert!(r.len() >= 2, "{r:?}");
        // the same disjuncts as one function where they coalesce
        assert_eq!(
            inv("{ S[i] -> [i] : 0 <= i <= 5 or 3 <= i <= 8 }").unwrap(),
            ["#t0"]
        );
        checked_pieces("{ S[i] -> [i] : 0 <= i <= 5 or 3 <= i <= 8 }");
    }

    /// Issue 38's `dwt` (isl's test_inputs/codegen/dwt.in): three disjuncts
    /// with different constant second iterators, one time dimension.
    #[test]
    fn isl_dwt_inverts_piecewise() {
        let r =
            checked_pieces("{ S[j, 28] -> [j] : 1 <= j <= 8; S[0, 26] -> [0]; S[9, 27] -> [9] }");
        let mut r: Vec<String> = r.iter().map(|a| a.join(", ")).collect();
        r.sort();
        assert_eq!(r, ["#t0, 28", "0, 26", "9, 27"]);
    }
}
