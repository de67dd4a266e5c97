//! Control flow and index arithmetic: `scf.for` with `iter_args`, `scf.if`
//! with results and `scf.forall` with shared outputs (<https://mlir.llvm.org/docs/Dialects/SCFDialect/>),
//! `affine.apply`, `affine.min` and `affine.max` on affine maps with dims and
//! symbols (<https://mlir.llvm.org/docs/Dialects/Affine/>; maps read by
//! `mlir-syntax`), and `func.call`. Affine expressions evaluate with MLIR's
//! rules: `floordiv` and `ceildiv` round down and up, `mod` is non-negative
//! for a positive divisor.

use std::rc::Rc;

use super::value::{ElemType, Scalar, Tensor, Value};
use super::{Env, Interp};
use crate::error::Result;
use crate::ir::{AffineExpr, AffineMap};
use crate::mlir::shared::Attr;
use presburger_mlir_syntax::optree::{Op, Token};

/// The value of `e` at dims `dims` and symbols `syms`; `None` on overflow, a
/// zero or negative divisor, or an unknown dim or symbol.
pub(super) fn eval_expr(e: &AffineExpr, dims: &[i64], syms: &[i64]) -> Option<i64> {
    Some(match e {
        AffineExpr::Dim(d) => *dims.get(*d)?,
        AffineExpr::Symbol(s) => *syms.get(*s)?,
        AffineExpr::Const(c) => *c,
        AffineExpr::Add(a, b) => {
            eval_expr(a, dims, syms)?.checked_add(eval_expr(b, dims, syms)?)?
        }
        AffineExpr::Mul(a, b) => {
            eval_expr(a, dims, syms)?.checked_mul(eval_expr(b, dims, syms)?)?
        }
        AffineExpr::FloorDiv(a, b) | AffineExpr::CeilDiv(a, b) | AffineExpr::Mod(a, b) => {
            let x = eval_expr(a, dims, syms)?;
            let y = eval_expr(b, dims, syms)?;
            if y <= 0 {
                return None;
            }
            match e {
                AffineExpr::FloorDiv(..) => x.div_euclid(y),
                AffineExpr::CeilDiv(..) => x.checked_add(y - 1)?.div_euclid(y),
                _ => x.rem_euclid(y),
            }
        }
    })
}

/// `e` as coefficients of `n_dims` dims plus a constant, if it is linear in
/// the dims (no symbols, no division).
pub(super) fn linear(e: &AffineExpr, n_dims: usize) -> Option<(Vec<i64>, i64)> {
    match e {
        AffineExpr::Dim(d) if *d < n_dims => {
            let mut c = vec![0; n_dims];
            c[*d] = 1;
            Some((c, 0))
        }
        AffineExpr::Const(k) => Some((vec![0; n_dims], *k)),
        AffineExpr::Add(a, b) => {
            let (ca, ka) = linear(a, n_dims)?;
            let (cb, kb) = linear(b, n_dims)?;
            let c = ca
                .iter()
                .zip(&cb)
                .map(|(x, y)| x.checked_add(*y))
                .collect::<Option<_>>()?;
            Some((c, ka.checked_add(kb)?))
        }
        AffineExpr::Mul(a, b) => {
            let (ca, ka) = linear(a, n_dims)?;
            let (cb, kb) = linear(b, n_dims)?;
            let (c, k, s) = if ca.iter().all(|&x| x == 0) {
                (cb, kb, ka)
            } else if cb.iter().all(|&x| x == 0) {
                (ca, ka, kb)
            } else {
                return None;
            };
            let c = c.iter().map(|x| x.checked_mul(s)).collect::<Option<_>>()?;
            Some((c, k.checked_mul(s)?))
        }
        _ => None,
    }
}

impl Interp<'_> {
    /// Dispatches `scf.*`, `affine.*` and `func.call`.
    pub(super) fn control(&self, env: &mut Env, op: &Op, depth: usize) -> Result<Vec<Value>> {
        match op.name.as_str() {
            "scf.for" => self.scf_for(env, op, depth),
            "scf.if" => self.scf_if(env, op, depth),
            "scf.forall" => self.scf_forall(env, op, depth),
            "affine.apply" | "affine.min" | "affine.max" => self.affine(env, op),
            "func.call" | "call" => {
                let callee = op.tokens.iter().find_map(|t| match t {
                    Token::Symbol { name, .. } => Some(name.as_str()),
                    _ => None,
                });
                let args: Vec<Value> = match op.tokens.get(1) {
                    Some(Token::Group {
                        open: '(', items, ..
                    }) => items
                        .iter()
                        .filter_map(|t| match t {
                            Token::Value { name, .. } => {
                                Some(self.get(env, op, name).map(|v| (*v).clone()))
                            }
                            _ => None,
                        })
                        .collect::<Result<_>>()?,
                    _ => return Err(self.op_fail(op, "expected `@callee(%args)`")),
                };
                let callee = callee.ok_or_else(|| self.op_fail(op, "expected `@callee`"))?;
                self.call(callee, args, depth + 1, Some(op))
            }
            _ => Err(self.unsupported(op)),
        }
    }

    /// The names and values of `kw(%a = %init, ...)` in `op` (`iter_args`,
    /// `shared_outs`); none if `op` has no `kw`.
    fn bindings(&self, env: &Env, op: &Op, kw: &str) -> Result<(Vec<String>, Vec<Rc<Value>>)> {
        let (mut names, mut values) = (Vec::new(), Vec::new());
        let Some(p) = op.tokens.iter().position(|x| x.is_word(kw)) else {
            return Ok((names, values));
        };
        let bad = || self.op_fail(op, format!("expected `{kw}(%a = %init, ...)`"));
        let Some(Token::Group {
            open: '(', items, ..
        }) = op.tokens.get(p + 1)
        else {
            return Err(bad());
        };
        for part in items.split(|x| x.is_punct(",")) {
            match part {
                [
                    Token::Value { name: a, .. },
                    eq,
                    Token::Value { name: init, .. },
                ] if eq.is_punct("=") => {
                    names.push(a.clone());
                    values.push(self.get(env, op, init)?);
                }
                _ => return Err(bad()),
            }
        }
        Ok((names, values))
    }

    /// `scf.for %iv = %lb to %ub step %s (: type)? (iter_args(%a = %init, ...)
    /// -> (types))? { body }`: runs the body for `iv = lb, lb + s, ...` below
    /// `ub`, threading the iteration arguments through `scf.yield`.
    fn scf_for(&self, env: &mut Env, op: &Op, depth: usize) -> Result<Vec<Value>> {
        let fail = |m: &str| self.op_fail(op, m);
        let t = &op.tokens;
        let (
            Some(Token::Value { name: iv, .. }),
            Some(Token::Value { name: lb, .. }),
            Some(Token::Value { name: ub, .. }),
            Some(Token::Value { name: step, .. }),
        ) = (t.first(), t.get(2), t.get(4), t.get(6))
        else {
            return Err(fail("expected `%iv = %lb to %ub step %step`"));
        };
        if !(t.get(1).is_some_and(|x| x.is_punct("="))
            && t.get(3).is_some_and(|x| x.is_word("to"))
            && t.get(5).is_some_and(|x| x.is_word("step")))
        {
            return Err(fail("expected `%iv = %lb to %ub step %step`"));
        }
        let (lb_s, ub, step) = (
            self.scalar(env, op, lb)?,
            self.int(env, op, ub)?,
            self.int(env, op, step)?,
        );
        let lb = lb_s
            .as_int()
            .ok_or_else(|| fail("the bounds must be integers"))?;
        if step <= 0 {
            return Err(fail("the step must be positive"));
        }
        let (names, mut carried) = self.bindings(env, op, "iter_args")?;
        let body = op.entry_block().ok_or_else(|| fail("needs a body"))?;
        let iv_ty = lb_s.ty();
        let mut i = lb;
        while i < ub {
            self.tick(op, 1)?;
            env.insert(iv.clone(), Rc::new(Value::Scalar(Scalar::int(i, iv_ty))));
            for (n, v) in names.iter().zip(&carried) {
                env.insert(n.clone(), v.clone());
            }
            let out = self.block(env, body, depth)?;
            if out.len() != names.len() {
                return Err(fail("scf.yield must give one value per iter_args"));
            }
            carried = out;
            match i.checked_add(step) {
                Some(n) => i = n,
                None => break,
            }
        }
        Ok(carried
            .into_iter()
            .map(|v| Rc::try_unwrap(v).unwrap_or_else(|rc| (*rc).clone()))
            .collect())
    }

    /// `scf.forall (%i, ...) in (ubs) | = (lbs) to (ubs) step (steps)
    /// shared_outs(%o = %init, ...) -> (types) { ... scf.forall.in_parallel {
    /// tensor.parallel_insert_slice ... } }`: the iterations run one after
    /// the other in lexicographic order (any order is valid for the programs
    /// MLIR accepts: their inserts are disjoint); each sees the shared outputs
    /// as they were before the loop, and the results are the initial values
    /// with every iteration's inserts.
    fn scf_forall(&self, env: &mut Env, op: &Op, depth: usize) -> Result<Vec<Value>> {
        let fail = |m: &str| self.op_fail(op, m);
        let t = &op.tokens;
        let Some(Token::Group {
            open: '(', items, ..
        }) = t.first()
        else {
            return Err(fail("expected the induction variables `(%i, ...)`"));
        };
        let ivs: Vec<&str> = items
            .iter()
            .filter_map(|x| match x {
                Token::Value { name, .. } => Some(name.as_str()),
                _ => None,
            })
            .collect();
        let (lbs, ubs, steps) = if t.get(1).is_some_and(|x| x.is_word("in")) {
            let ubs = self.int_list(env, op, t.get(2))?;
            (vec![0; ubs.len()], ubs.clone(), vec![1; ubs.len()])
        } else if t.get(1).is_some_and(|x| x.is_punct("="))
            && t.get(3).is_some_and(|x| x.is_word("to"))
            && t.get(5).is_some_and(|x| x.is_word("step"))
        {
            (
                self.int_list(env, op, t.get(2))?,
                self.int_list(env, op, t.get(4))?,
                self.int_list(env, op, t.get(6))?,
            )
        } else {
            return Err(fail(
                "expected `in (ubs)` or `= (lbs) to (ubs) step (steps)`",
            ));
        };
        if lbs.len() != ivs.len() || ubs.len() != ivs.len() || steps.len() != ivs.len() {
            return Err(fail("one bound and step per induction variable"));
        }
        if steps.iter().any(|&s| s <= 0) {
            return Err(fail("the steps must be positive"));
        }
        let (names, inits) = self.bindings(env, op, "shared_outs")?;
        let body = op.entry_block().ok_or_else(|| fail("needs a body"))?;
        let outs: Vec<Tensor> = inits
            .iter()
            .map(|v| {
                v.tensor()
                    .cloned()
                    .ok_or_else(|| fail("shared outputs must be tensors"))
            })
            .collect::<Result<_>>()?;
        self.forall_outs.borrow_mut().push((names.clone(), outs));
        let result = (|| -> Result<()> {
            let counts: Vec<usize> = (0..ivs.len())
                .map(|d| {
                    let span = ubs[d].saturating_sub(lbs[d]).max(0);
                    let n = span / steps[d] + i64::from(span % steps[d] != 0);
                    usize::try_from(n).unwrap_or(0)
                })
                .collect();
            if counts.contains(&0) {
                return Ok(());
            }
            let mut idx = vec![0usize; ivs.len()];
            loop {
                self.tick(op, 1)?;
                for (d, iv) in ivs.iter().enumerate() {
                    let i = lbs[d] + steps[d] * idx[d] as i64;
                    super::bind(env, iv, Value::Scalar(Scalar::index(i)));
                }
                for (n, v) in names.iter().zip(&inits) {
                    env.insert(n.clone(), v.clone());
                }
                self.block(env, body, depth)?;
                if !super::tensor_ops::next_index(&mut idx, &counts) {
                    return Ok(());
                }
            }
        })();
        let (_, outs) = self.forall_outs.borrow_mut().pop().unwrap_or_default();
        result?;
        Ok(outs.into_iter().map(Value::Tensor).collect())
    }

    /// `scf.if %cond (-> (types))? { then } (else { else })?`.
    fn scf_if(&self, env: &mut Env, op: &Op, depth: usize) -> Result<Vec<Value>> {
        let cond = match op.tokens.first() {
            Some(Token::Value { name, .. }) => self.int(env, op, name)?,
            _ => return Err(self.op_fail(op, "expected a condition")),
        };
        let mut regions = op.regions();
        let (then, other) = (regions.next(), regions.next());
        let region = if cond != 0 { then } else { other };
        let Some(block) = region.and_then(|r| r.blocks.first()) else {
            if op.results.is_empty() {
                return Ok(Vec::new());
            }
            return Err(self.op_fail(op, "an scf.if with results needs both branches"));
        };
        Ok(self
            .block(env, block, depth)?
            .into_iter()
            .map(|v| Rc::try_unwrap(v).unwrap_or_else(|rc| (*rc).clone()))
            .collect())
    }

    /// `affine.apply #map(%d...)[%s...]`, and `affine.min`/`affine.max` (the
    /// least or greatest result of the map).
    fn affine(&self, env: &Env, op: &Op) -> Result<Vec<Value>> {
        let fail = |m: String| self.op_fail(op, m);
        let map_at = op
            .tokens
            .first()
            .map(Token::at)
            .ok_or_else(|| fail("expected a map".into()))?;
        let Attr::Map(map) = self.attr_at(map_at)? else {
            return Err(fail("expected an affine map".into()));
        };
        let list = |open: char| -> Result<Vec<i64>> {
            for t in op.tokens.iter().skip(1) {
                if let Token::Group { open: o, items, .. } = t {
                    if *o == open {
                        return items
                            .iter()
                            .filter_map(|x| match x {
                                Token::Value { name, .. } => Some(self.int(env, op, name)),
                                _ => None,
                            })
                            .collect();
                    }
                }
            }
            Ok(Vec::new())
        };
        let (dims, syms) = (list('(')?, list('[')?);
        if dims.len() != map.n_dims || syms.len() != map.n_symbols {
            return Err(fail(format!(
                "the map takes {} dims and {} symbols, given {} and {}",
                map.n_dims,
                map.n_symbols,
                dims.len(),
                syms.len()
            )));
        }
        let values = eval_map(&map, &dims, &syms)
            .ok_or_else(|| fail("the map overflows or divides by a non-positive value".into()))?;
        let v = match op.name.as_str() {
            "affine.apply" if values.len() == 1 => values[0],
            "affine.min" => values
                .iter()
                .copied()
                .min()
                .ok_or_else(|| fail("the map has no results".into()))?,
            "affine.max" => values
                .iter()
                .copied()
                .max()
                .ok_or_else(|| fail("the map has no results".into()))?,
            _ => return Err(fail("affine.apply needs a map with one result".into())),
        };
        Ok(vec![Value::Scalar(Scalar::int(v, ElemType::Index))])
    }
}

/// The results of `map` at `dims` and `syms`.
fn eval_map(map: &AffineMap, dims: &[i64], syms: &[i64]) -> Option<Vec<i64>> {
    map.results
        .iter()
        .map(|e| eval_expr(e, dims, syms))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn affine_division_rounds_down_and_mod_is_non_negative() {
        let d = |i| Box::new(AffineExpr::Dim(i));
        let k = |c| Box::new(AffineExpr::Const(c));
        let e = |f: fn(Box<AffineExpr>, Box<AffineExpr>) -> AffineExpr, c| f(d(0), k(c));
        assert_eq!(eval_expr(&e(AffineExpr::FloorDiv, 4), &[-7], &[]), Some(-2));
        assert_eq!(eval_expr(&e(AffineExpr::CeilDiv, 4), &[-7], &[]), Some(-1));
        assert_eq!(eval_expr(&e(AffineExpr::CeilDiv, 4), &[7], &[]), Some(2));
        assert_eq!(eval_expr(&e(AffineExpr::Mod, 4), &[-7], &[]), Some(1));
        assert_eq!(eval_expr(&e(AffineExpr::Mod, 0), &[-7], &[]), None);
        let sum = AffineExpr::Add(
            Box::new(AffineExpr::Mul(d(1), k(3))),
            Box::new(AffineExpr::Symbol(0)),
        );
        assert_eq!(eval_expr(&sum, &[0, 5], &[2]), Some(17));
        assert_eq!(linear(&sum, 2), None);
        let lin = AffineExpr::Add(Box::new(AffineExpr::Mul(k(-2), d(1))), k(4));
        assert_eq!(linear(&lin, 2), Some((vec![0, -2], 4)));
    }
}
