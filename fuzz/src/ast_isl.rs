//! Code generation (crate `codegen`) against isl's AST generator: random
//! schedules, our AST and isl's (`isl_ast_build_node_from_schedule_map`,
//! copied out of isl by [`crate::isl::AstNode::tree`] and turned into a
//! `presburger_codegen::Ast` by [`to_ast`]), both run by `codegen`'s interpreter for
//! several parameter values and compared with the enumeration of the
//! scheduled instances sorted by time.

use crate::Source;
use crate::isl::{Ctx, IslAst, IslExpr};
use presburger::{DimKind, Int, Set, UnionMap};
use presburger_codegen::{Ast, Bound, Cond, Expr, Options, Visit};
use std::time::{Duration, Instant};

/// An isl expression as a `codegen` expression (isl's division and
/// remainder operations are floor operations on the values isl generates
/// them for: `div` is exact, `pdiv_q`/`pdiv_r` have a non-negative dividend
/// and `zdiv_r` is only compared with zero).
pub fn to_expr(e: &IslExpr) -> Result<Expr, String> {
    let overflow = || "overflow".to_string();
    Ok(match e {
        IslExpr::Int(v) => Expr::int(*v),
        IslExpr::Id(s) => Expr::var(s.clone()),
        IslExpr::Op(op, args) => {
            let a: Vec<Expr> = args.iter().map(to_expr).collect::<Result<_, _>>()?;
            let constant = |k: usize| -> Result<i64, String> {
                a.get(k)
                    .and_then(Expr::as_int)
                    .ok_or_else(|| format!("a non-constant divisor in {e:?}"))
            };
            match (op, a.as_slice()) {
                (4, _) => Expr::max(a.clone()).ok_or("max of nothing")?,
                (5, _) => Expr::min(a.clone()).ok_or("min of nothing")?,
                (6, [x]) => x.checked_mul(-1).ok_or_else(overflow)?,
                (7, [x, y]) => x.checked_add(y).ok_or_else(overflow)?,
                (8, [x, y]) => x.checked_sub(y).ok_or_else(overflow)?,
                (9, [x, y]) => match (x.as_int(), y.as_int()) {
                    (Some(k), _) => y.checked_mul(k).ok_or_else(overflow)?,
                    (_, Some(k)) => x.checked_mul(k).ok_or_else(overflow)?,
                    _ => return Err(format!("a product of two variables in {e:?}")),
                },
                (10..=12, [x, _]) => x.floor_div(constant(1)?).ok_or("bad division")?,
                (13 | 14, [x, _]) => x.modulo(constant(1)?).ok_or("bad remainder")?,
                _ => return Err(format!("unsupported isl expression {e:?}")),
            }
        }
    })
}

/// An isl condition as a `codegen` condition.
pub fn to_cond(e: &IslExpr) -> Result<Cond, String> {
    let IslExpr::Op(op, args) = e else {
        return Err(format!("not a condition: {e:?}"));
    };
    let two = || -> Result<(Expr, Expr), String> {
        match args.as_slice() {
            [a, b] => Ok((to_expr(a)?, to_expr(b)?)),
            _ => Err(format!("a comparison without two arguments: {e:?}")),
        }
    };
    let sub = |a: &Expr, b: &Expr, c: i64| -> Result<Expr, String> {
        a.checked_sub(b)
            .and_then(|x| x.checked_sub(&Expr::int(c)))
            .ok_or_else(|| "overflow".to_string())
    };
    Ok(match op {
        0 | 1 => Cond::And(args.iter().map(to_cond).collect::<Result<_, _>>()?),
        2 | 3 => Cond::Or(args.iter().map(to_cond).collect::<Result<_, _>>()?),
        17 => {
            let (a, b) = two()?;
            Cond::Eq(sub(&a, &b, 0)?)
        }
        18 => {
            let (a, b) = two()?;
            Cond::Ge(sub(&b, &a, 0)?)
        }
        19 => {
            let (a, b) = two()?;
            Cond::Ge(sub(&b, &a, 1)?)
        }
        20 => {
            let (a, b) = two()?;
            Cond::Ge(sub(&a, &b, 0)?)
        }
        21 => {
            let (a, b) = two()?;
            Cond::Ge(sub(&a, &b, 1)?)
        }
        _ => return Err(format!("unsupported isl condition {e:?}")),
    })
}

/// The upper bounds of a loop on `it` from isl's loop condition: a
/// conjunction of `it <= e`, `it < e`, `e >= it`, `e > it`.
fn upper_bounds(it: &str, cond: &IslExpr, out: &mut Vec<Expr>) -> Result<(), String> {
    let is_it = |x: &IslExpr| matches!(x, IslExpr::Id(s) if s == it);
    match cond {
        IslExpr::Op(0 | 1, args) => {
            for a in args {
                upper_bounds(it, a, out)?;
            }
        }
        IslExpr::Op(op @ (18 | 19), args) if args.len() == 2 && is_it(&args[0]) => {
            let e = to_expr(&args[1])?;
            out.push(if *op == 19 { e - 1 } else { e });
        }
        IslExpr::Op(op @ (20 | 21), args) if args.len() == 2 && is_it(&args[1]) => {
            let e = to_expr(&args[0])?;
            out.push(if *op == 21 { e - 1 } else { e });
        }
        _ => {
            return Err(format!(
                "a loop condition that is not an upper bound: {cond:?}"
            ));
        }
    }
    Ok(())
}

/// isl's AST as a `presburger_codegen::Ast`.
pub fn to_ast(t: &IslAst) -> Result<Ast, String> {
    Ok(match t {
        IslAst::For {
            iterator,
            init,
            cond,
            inc,
            body,
        } => {
            let mut upper = Vec::new();
            upper_bounds(iterator, cond, &mut upper)?;
            let stride = match inc {
                IslExpr::Int(k) if *k >= 1 => *k,
                _ => return Err(format!("a loop increment {inc:?}")),
            };
            Ast::For {
                var: iterator.clone(),
                lower: Bound(vec![to_expr(init)?]),
                upper: Bound(upper),
                stride,
                body: Box::new(to_ast(body)?),
            }
        }
        IslAst::If {
            cond,
            then,
            otherwise,
        } => Ast::If {
            conds: vec![to_cond(cond)?],
            then: Box::new(to_ast(then)?),
            otherwise: match otherwise {
                Some(o) => Some(Box::new(to_ast(o)?)),
                None => None,
            },
        },
        IslAst::Block(v) => Ast::Block(v.iter().map(to_ast).collect::<Result<_, _>>()?),
        IslAst::Mark(c) => to_ast(c)?,
        IslAst::User(IslExpr::Op(22, args)) => match args.split_first() {
            Some((IslExpr::Id(name), rest)) => Ast::User {
                name: name.clone(),
                args: rest.iter().map(to_expr).collect::<Result<_, _>>()?,
            },
            _ => return Err(format!("a user statement {args:?}")),
        },
        IslAst::User(e) => return Err(format!("a user statement {e:?}")),
    })
}

/// The scheduled instances for the parameter values `pv` (in the order of
/// `sched.params()`), sorted by time, ties in statement order.
pub fn expected(sched: &UnionMap, pv: &[i64]) -> Result<Vec<Visit>, String> {
    Ok(timed(sched, pv)?.into_iter().map(|(_, v)| v).collect())
}

/// True when `trace` runs the instances of `want` (time, instance) in an
/// order that respects time: each group of instances with one time, in any
/// order within the group (isl leaves the order of statements at the same
/// time open).
pub fn same_up_to_ties(trace: &[Visit], want: &[(Vec<i64>, Visit)]) -> bool {
    if trace.len() != want.len() {
        return false;
    }
    let mut k = 0;
    while k < want.len() {
        let end = (k..want.len())
            .find(|&j| want[j].0 != want[k].0)
            .unwrap_or(want.len());
        let mut a: Vec<&Visit> = trace[k..end].iter().collect();
        let mut b: Vec<&Visit> = want[k..end].iter().map(|(_, v)| v).collect();
        a.sort();
        b.sort();
        if a != b {
            return false;
        }
        k = end;
    }
    true
}

/// The instances with their times, sorted as [`expected`].
pub fn timed(sched: &UnionMap, pv: &[i64]) -> Result<Vec<(Vec<i64>, Visit)>, String> {
    let mut all: Vec<(Vec<i64>, usize, Visit)> = Vec::new();
    for (k, m) in sched.members().iter().enumerate() {
        let name = m
            .space()
            .domain_tuple()
            .and_then(|t| t.name.clone())
            .unwrap_or_default();
        let params = m.space().params().to_vec();
        let mut fixed = m.clone();
        for (j, p) in params.iter().enumerate() {
            let pos = sched
                .params()
                .iter()
                .position(|q| q == p)
                .ok_or("unknown parameter")?;
            fixed = fixed
                .fix(DimKind::Param, j, pv[pos])
                .map_err(|e| e.to_string())?;
        }
        let fixed = fixed
            .project_out(DimKind::Param, 0, params.len())
            .map_err(|e| e.to_string())?;
        let k_in = fixed.space().n_in();
        let pairs: Set = fixed.wrap();
        for p in pairs.point_iter() {
            let p = p.map_err(|e| e.to_string())?;
            let p: Vec<i64> = p
                .iter()
                .map(|v| Int::to_i64(v).unwrap_or(i64::MAX))
                .collect();
            let (x, t) = p.split_at(k_in);
            all.push((t.to_vec(), k, (name.clone(), x.to_vec())));
        }
    }
    all.sort_by(|a, b| (&a.0, a.1).cmp(&(&b.0, b.1)));
    Ok(all.into_iter().map(|(t, _, v)| (t, v)).collect())
}

/// `c·v` terms as isl text.
fn affine(coefs: &[i64], vars: &[String], constant: i64) -> String {
    let mut t = String::new();
    for (c, v) in coefs.iter().zip(vars) {
        if *c != 0 {
            t.push_str(&format!(" + {c}{v}"));
        }
    }
    if constant != 0 || t.is_empty() {
        t.push_str(&format!(" + {constant}"));
    }
    t[3..].replace("+ -", "- ")
}

/// A random code-generation problem as isl text: 1-3 statements `S0`,
/// `S1`, ... of 0-3 iterators in boxes (constant bounds or `N - c`),
/// sometimes with an extra affine or modulo constraint, scheduled by a
/// unimodular matrix (the identity through swaps, skews and reversals) with
/// constant or parametric shifts, rows sometimes scaled by 2 or 3 (strides),
/// padded with constant (2d+1-like) dimensions before or after; the
/// parameter `N` or none. Every schedule is injective and bounded.
pub fn random_schedule(rng: &mut impl Source) -> String {
    let param = rng.chance(60);
    let n_stmt = rng.range(1, 3) as usize;
    let dims: Vec<usize> = (0..n_stmt)
        .map(|_| {
            if rng.chance(10) {
                3
            } else {
                rng.range(0, 2) as usize
            }
        })
        .collect();
    let max_k = *dims.iter().max().unwrap_or(&0);
    let n = (max_k + rng.range(0, 1) as usize).max(1);
    let scalar_first = rng.chance(50);
    let mut pieces = Vec::new();
    for (s, &k) in dims.iter().enumerate() {
        let xs: Vec<String> = (0..k).map(|j| format!("i{j}")).collect();
        let mut cons = Vec::new();
        for x in &xs {
            let lo = rng.range(-1, 1);
            let hi = if param && rng.chance(60) {
                match rng.range(0, 1) {
                    0 => "N".to_string(),
                    _ => "N - 1".to_string(),
                }
            } else {
                rng.range(0, 3).to_string()
            };
            cons.push(format!("{lo} <= {x} <= {hi}"));
        }
        if k > 0 && rng.chance(40) {
            let mut vars = xs.clone();
            let mut coefs: Vec<i64> = (0..k).map(|_| rng.range(-2, 2)).collect();
            if param {
                vars.push("N".into());
                coefs.push(rng.range(-1, 1));
            }
            cons.push(format!(
                "{} >= {}",
                affine(&coefs, &vars, 0),
                rng.range(-3, 2)
            ));
        }
        if k > 0 && rng.chance(15) {
            let coefs: Vec<i64> = (0..k).map(|_| rng.range(1, 2)).collect();
            let m = rng.range(2, 3);
            cons.push(format!(
                "({}) mod {m} = {}",
                affine(&coefs, &xs, 0),
                rng.range(0, m - 1)
            ));
        }
        let mut u: Vec<Vec<i64>> = (0..k)
            .map(|r| (0..k).map(|c| i64::from(r == c)).collect())
            .collect();
        for _ in 0..rng.range(0, 3) {
            if k == 0 {
                break;
            }
            let (a, b) = (
                rng.range(0, k as i64 - 1) as usize,
                rng.range(0, k as i64 - 1) as usize,
            );
            match rng.range(0, 2) {
                0 => u.swap(a, b),
                1 if a != b => {
                    let f = if rng.chance(50) { 1 } else { -1 };
                    let row_a = u[a].clone();
                    for (x, y) in u[b].iter_mut().zip(&row_a) {
                        *x += f * y;
                    }
                }
                _ => u[a].iter_mut().for_each(|x| *x = -*x),
            }
        }
        let mut rows: Vec<String> = Vec::new();
        for r in &u {
            let scale = if rng.chance(12) { rng.range(2, 3) } else { 1 };
            let coefs: Vec<i64> = r.iter().map(|c| c * scale).collect();
            let mut e = affine(&coefs, &xs, rng.range(-2, 2));
            if param && rng.chance(20) {
                e = format!("{e} + N");
            }
            rows.push(e);
        }
        let consts: Vec<String> = (0..n - k)
            .map(|_| {
                if rng.chance(80) {
                    rng.range(0, 2).to_string()
                } else {
                    s.to_string()
                }
            })
            .collect();
        let time: Vec<String> = if scalar_first {
            consts.into_iter().chain(rows).collect()
        } else {
            rows.into_iter().chain(consts).collect()
        };
        let cond = if cons.is_empty() {
            String::new()
        } else {
            format!(" : {}", cons.join(" and "))
        };
        pieces.push(format!(
            "S{s}[{}] -> [{}]{cond}",
            xs.join(", "),
            time.join(", ")
        ));
    }
    let pre = if param { "[N] -> " } else { "" };
    format!("{pre}{{ {} }}", pieces.join("; "))
}

/// What one comparison found.
pub enum Outcome {
    /// Our trace equals the enumeration (and isl's, when isl gave one) for
    /// every parameter value; the sizes of the two programs (lines of C)
    /// and the two generation times.
    Same {
        ours_lines: usize,
        isl_lines: Option<usize>,
        ours_time: Duration,
        isl_time: Option<Duration>,
    },
    /// Our code is wrong (or fails): the description, with isl's code.
    Mismatch(String),
    /// isl's code, read back by us, disagrees with the enumeration: a
    /// problem of this harness (the conversion of isl's AST), not of ours.
    IslHarness(String),
}

/// The comparison of our code for `text` with the enumeration and with
/// isl's code, for the parameter values `-1 ..= 4` of each parameter.
pub fn compare(ctx: &Ctx, text: &str) -> Outcome {
    let sched: UnionMap = match text.parse() {
        Ok(s) => s,
        Err(e) => return Outcome::Mismatch(format!("we cannot read {text}: {e}")),
    };
    let t0 = Instant::now();
    let ours = presburger_codegen::generate(&sched, None, None, &Options::default());
    let ours_time = t0.elapsed();
    let isl_ast = ctx.union_map(text).and_then(|m| {
        let params = sched.params().join(", ");
        let t1 = Instant::now();
        let node = ctx.ast_from_schedule_map(&format!("[{params}] -> {{ : }}"), &m)?;
        let took = t1.elapsed();
        Some((node.to_c(), node.tree(), took))
    });
    let isl_code = isl_ast
        .as_ref()
        .map(|(c, _, _)| c.clone())
        .unwrap_or_else(|| "(isl failed)".into());
    let ours = match ours {
        Ok(a) => a,
        Err(e) => return Outcome::Mismatch(format!("{text}\nours fails: {e}\nisl:\n{isl_code}")),
    };
    let theirs = match &isl_ast {
        Some((_, Some(tree), _)) => match to_ast(tree) {
            Ok(a) => Some(a),
            Err(e) => return Outcome::IslHarness(format!("{text}: {e}\n{isl_code}")),
        },
        _ => None,
    };
    let values: Vec<Vec<i64>> = if sched.params().is_empty() {
        vec![vec![]]
    } else {
        (-1..=4).map(|v| vec![v]).collect()
    };
    for pv in &values {
        let with_times = match timed(&sched, pv) {
            Ok(w) => w,
            Err(e) => return Outcome::Mismatch(format!("{text}: enumeration: {e}")),
        };
        let want: Vec<Visit> = with_times.iter().map(|(_, v)| v.clone()).collect();
        let names: Vec<(&str, i64)> = sched
            .params()
            .iter()
            .map(String::as_str)
            .zip(pv.iter().copied())
            .collect();
        let got = ours.trace(&names, 1_000_000);
        if got.as_ref() != Ok(&want) {
            return Outcome::Mismatch(format!(
                "{text} at {names:?}:\n  ours {got:?}\n  want {want:?}\nours:\n{}isl:\n{isl_code}",
                ours.to_c()
            ));
        }
        if let Some(t) = &theirs {
            let got = t.trace(&names, 1_000_000);
            if !got.as_ref().is_ok_and(|g| same_up_to_ties(g, &with_times)) {
                return Outcome::IslHarness(format!(
                    "{text} at {names:?}: isl's code read back gives {got:?}, want {want:?}\n{isl_code}"
                ));
            }
        }
    }
    Outcome::Same {
        ours_lines: ours.to_c().lines().count(),
        isl_lines: isl_ast.as_ref().map(|(c, _, _)| c.lines().count()),
        ours_time,
        isl_time: isl_ast.as_ref().map(|(_, _, t)| *t),
    }
}
