//! `linalg` structured ops (<https://mlir.llvm.org/docs/Dialects/Linalg/>):
//! `linalg.generic` with its body, `linalg.map`/`reduce` with a region,
//! `linalg.index`, and the named ops whose indexing maps and iterator types
//! the reader derives (`crate::mlir`'s lowering, reused here), with the
//! bodies of their OpDSL definitions (`LinalgNamedStructuredOps.yaml`):
//! `O += cast(A) * cast(B)` for matmuls, dots and convolutions,
//! `O = max(O, cast(I))` (or `min`, `+`) for pooling, `O = cast(I)` for
//! `fill`, `copy`, `transpose`, `broadcast`, and the elementwise functions.
//!
//! Execution follows `--convert-linalg-to-loops`: one loop per iterator, the
//! loops nested in order (d0 outermost), the whole domain visited in
//! lexicographic order and the body applied at each point, reading and
//! writing the output elements in place; reductions therefore add in
//! lexicographic order of the reduction loops. Loop sizes come from the first
//! operand dimension indexed by a bare `d_i`; every access is checked to be in
//! bounds before the run (linear indices) or at each point (others).

use std::rc::Rc;

use super::control::{eval_expr, linear};
use super::scalar::{self, convert};
use super::value::{ElemType, Scalar, Tensor, Ty, Value};
use super::{Env, Interp};
use crate::error::Result;
use crate::ir::{AffineExpr, AffineMap};
use crate::mlir::shared::{Attr, generic_traits, is_named, lower_named_op};
use presburger_mlir_syntax::optree::{Block, Op, Token};

/// The body of a named op.
#[derive(Clone, Copy)]
enum NamedBody {
    /// `O + cast(A) * cast(B)`.
    MulAdd,
    /// `cast(I)`.
    Copy,
    /// `f(O, cast(I))` for the pooling reductions (`maximumf`/`maxsi`, ...).
    Pool(&'static str, &'static str),
    /// An elementwise unary function.
    Unary(&'static str),
    /// An elementwise binary function: float and integer op names.
    Binary(&'static str, &'static str),
    /// `select(cond, a, b)`.
    Select,
}

/// The body of the named op `linalg.<short>`, if known.
fn named_body(short: &str) -> Option<NamedBody> {
    use NamedBody::*;
    Some(match short {
        "matmul" | "batch_matmul" | "matvec" | "vecmat" | "dot" => MulAdd,
        s if s.starts_with("conv_") || s.starts_with("depthwise_conv_") => MulAdd,
        s if s.starts_with("pooling_") && s.ends_with("_max") => Pool("maximumf", "maxsi"),
        s if s.starts_with("pooling_") && s.ends_with("_min") => Pool("minimumf", "minsi"),
        s if s.starts_with("pooling_") && s.ends_with("_sum") => Pool("addf", "addi"),
        "fill" | "copy" | "transpose" | "broadcast" => Copy,
        "add" => Binary("addf", "addi"),
        "sub" => Binary("subf", "subi"),
        "mul" => Binary("mulf", "muli"),
        "div" => Binary("divf", "divsi"),
        "div_unsigned" => Binary("divf", "divui"),
        "max" => Binary("maximumf", "maxsi"),
        "min" => Binary("minimumf", "minsi"),
        "powf" => Binary("powf", "powf"),
        "exp" | "log" | "ceil" | "floor" | "negf" | "round" | "sqrt" | "rsqrt" | "tanh"
        | "reciprocal" | "square" => Unary(match short {
            "exp" => "exp",
            "log" => "log",
            "ceil" => "ceil",
            "floor" => "floor",
            "negf" => "negf",
            "round" => "round",
            "sqrt" => "sqrt",
            "rsqrt" => "rsqrt",
            "tanh" => "tanh",
            "reciprocal" => "reciprocal",
            _ => "square",
        }),
        "abs" => Unary("absf"),
        "select" => Select,
        _ => return None,
    })
}

/// Applies a named body to the operands' elements (inputs then the output's
/// current value), giving the output's new value of type `out`.
fn apply_named(
    body: NamedBody,
    args: &[Scalar],
    out: ElemType,
) -> std::result::Result<Scalar, String> {
    let c = |k: usize| -> std::result::Result<Scalar, String> {
        convert(*args.get(k).ok_or("too few operands")?, out)
    };
    let pick = |f: &'static str, i: &'static str| if out.is_float() { f } else { i };
    match body {
        NamedBody::MulAdd => {
            // The common cases without conversions, computed directly.
            match (args, out) {
                ([Scalar::F32(a), Scalar::F32(b), Scalar::F32(o)], ElemType::F32) => {
                    return Ok(Scalar::F32(o + a * b));
                }
                ([Scalar::F64(a), Scalar::F64(b), Scalar::F64(o)], ElemType::F64) => {
                    return Ok(Scalar::F64(o + a * b));
                }
                _ => {}
            }
            let p = scalar::binary(pick("mulf", "muli"), c(0)?, c(1)?)?;
            scalar::binary(pick("addf", "addi"), c(2)?, p)
        }
        NamedBody::Copy => c(0),
        NamedBody::Pool(f, i) => {
            scalar::binary(pick(f, i), c(args.len().saturating_sub(1))?, c(0)?)
        }
        NamedBody::Unary("reciprocal") => {
            scalar::binary("divf", scalar::convert(Scalar::F64(1.0), out)?, c(0)?)
        }
        NamedBody::Unary("square") => scalar::binary("mulf", c(0)?, c(0)?),
        NamedBody::Unary(f) if !out.is_float() && f == "absf" => scalar::unary("absi", c(0)?),
        NamedBody::Unary(f) => scalar::unary(f, c(0)?),
        NamedBody::Binary(f, i) => scalar::binary(pick(f, i), c(0)?, c(1)?),
        NamedBody::Select => {
            let cond = args
                .first()
                .and_then(|s| s.as_int())
                .ok_or("select needs an i1 condition")?;
            if cond != 0 { c(1) } else { c(2) }
        }
    }
}

/// What computes a linalg op's outputs at each point.
enum Body<'b> {
    Named(NamedBody),
    /// A region whose block arguments are the ins' elements followed by the
    /// outs' elements (or only the ins' ones, for `linalg.map`).
    Region(&'b Block, Vec<String>),
}

/// An operand of a linalg op: its value and indexing map.
struct Operand {
    value: Rc<Value>,
    map: AffineMap,
}

impl Interp<'_> {
    /// `ins(%a, %b : t1, t2)` or `outs(...)`: the values and declared types.
    fn operand_group(&self, env: &Env, op: &Op, kw: &str) -> Result<(Vec<Rc<Value>>, Vec<Ty>)> {
        let pos = op.tokens.iter().position(|t| t.is_word(kw));
        let Some(Token::Group {
            open: '(', items, ..
        }) = pos.and_then(|p| op.tokens.get(p + 1))
        else {
            return Ok((Vec::new(), Vec::new()));
        };
        let colon = items
            .iter()
            .position(|t| t.is_punct(":"))
            .unwrap_or(items.len());
        let mut vals = Vec::new();
        for t in items.get(..colon).unwrap_or(&[]) {
            if let Token::Value { name, .. } = t {
                vals.push(self.get(env, op, name)?);
            }
        }
        let tys = self
            .types(items.get(colon + 1..).unwrap_or(&[]))
            .map_err(|m| self.op_fail(op, m))?;
        if tys.len() != vals.len() {
            return Err(self.op_fail(
                op,
                format!(
                    "{kw}(...) has {} values but {} types",
                    vals.len(),
                    tys.len()
                ),
            ));
        }
        for (v, t) in vals.iter().zip(&tys) {
            if !t.admits(v) {
                return Err(self.op_fail(op, format!("an operand of {kw}(...) is not a {t}")));
            }
        }
        Ok((vals, tys))
    }

    /// Dispatches `linalg.<short>`.
    pub(super) fn linalg_op(
        &self,
        env: &mut Env,
        op: &Op,
        short: &str,
        depth: usize,
    ) -> Result<Vec<Value>> {
        let fail = |m: String| self.op_fail(op, m);
        if short == "index" {
            let d = match op.tokens.first() {
                Some(Token::Number { text, .. }) => text.parse::<usize>().ok(),
                _ => None,
            };
            let stack = self.linalg_indices.borrow();
            let i = d
                .and_then(|d| stack.last().and_then(|idx| idx.get(d)))
                .ok_or_else(|| fail("needs a loop dimension of the enclosing linalg op".into()))?;
            return Ok(vec![Value::Scalar(Scalar::index(*i as i64))]);
        }
        let (ins, in_tys) = self.operand_group(env, op, "ins")?;
        let (outs, out_tys) = self.operand_group(env, op, "outs")?;
        let region = op.entry_block();
        let (maps, body) = if short == "generic" {
            let trait_at = op.tokens.first().map(Token::at).unwrap_or(op.at);
            let Attr::Dict(entries) = self.attr_at(trait_at)? else {
                return Err(fail(
                    "needs a trait dictionary {indexing_maps = ..., iterator_types = ...}".into(),
                ));
            };
            let (maps, _) = generic_traits(&entries).map_err(fail)?;
            let block = region.ok_or_else(|| fail("needs a body".into()))?;
            let args = block.args.iter().map(|(n, _, _)| n.clone()).collect();
            match self.region_as_named(block, &in_tys, &out_tys) {
                Some(b) => (maps, Body::Named(b)),
                None => (maps, Body::Region(block, args)),
            }
        } else if is_named(&format!("linalg.{short}")) {
            let mut attrs = Vec::new();
            let mut explicit = None;
            let mut block_args = Vec::new();
            let mut toks = op.tokens.iter().peekable();
            while let Some(t) = toks.next() {
                match t {
                    Token::Group { open: '{', at, .. } => {
                        if let Attr::Dict(e) = self.attr_at(*at)? {
                            attrs.extend(e);
                        }
                    }
                    Token::Word {
                        text, angle: None, ..
                    } if toks.peek().is_some_and(|n| n.is_punct("=")) => {
                        toks.next();
                        let v = toks
                            .next()
                            .ok_or_else(|| fail(format!("`{text} =` needs a value")))?;
                        let a = self.attr_at(v.at())?;
                        if text == "indexing_maps" {
                            explicit = Some(a);
                        } else {
                            attrs.push((text.clone(), a));
                        }
                    }
                    Token::Group {
                        open: '(', items, ..
                    } if toks
                        .peek()
                        .is_some_and(|n| matches!(n, Token::Region { .. })) =>
                    {
                        block_args = items
                            .iter()
                            .filter_map(|t| match t {
                                Token::Value { name, .. } => Some(name.clone()),
                                _ => None,
                            })
                            .collect();
                    }
                    _ => {}
                }
            }
            let ir = |v: &[Ty]| v.iter().map(Ty::to_ir).collect::<Vec<_>>();
            let (mut maps, _) =
                lower_named_op(short, &ir(&in_tys), &ir(&out_tys), attrs).map_err(fail)?;
            if let Some(Attr::Array(items)) = explicit {
                maps = items
                    .into_iter()
                    .map(|a| match a {
                        Attr::Map(m) => Ok(m),
                        _ => Err(fail("indexing_maps must list affine maps".into())),
                    })
                    .collect::<Result<_>>()?;
            }
            let body = match (region, named_body(short)) {
                (Some(block), _) => Body::Region(block, block_args),
                (None, Some(b)) => Body::Named(b),
                (None, None) => {
                    return Err(fail("the interpreter does not know this op's body".into()));
                }
            };
            (maps, body)
        } else {
            return Err(self.unsupported(op));
        };
        if maps.len() != ins.len() + outs.len() {
            return Err(fail(format!(
                "{} indexing maps for {} operands",
                maps.len(),
                ins.len() + outs.len()
            )));
        }
        let mut operands: Vec<Operand> = ins
            .into_iter()
            .chain(outs)
            .zip(maps)
            .map(|(value, map)| Operand { value, map })
            .collect();
        let n_ins = in_tys.len();
        let results = self.structured(env, op, &mut operands, n_ins, &body, depth)?;
        Ok(results.into_iter().map(Value::Tensor).collect())
    }

    /// The named body that a `linalg.generic` region computes, when it is one
    /// written out on operands and block arguments all of one element type
    /// (no conversion): `yield %in` ([`NamedBody::Copy`]);
    /// `%p = mulf %a, %b; %s = addf %out, %p; yield %s` ([`NamedBody::MulAdd`],
    /// `muli`/`addi` for integers); `%r = maximumf %out, %in; yield %r` (or
    /// `minimumf`, `addf`, `maxsi`, `minsi`, `addi`: [`NamedBody::Pool`]).
    /// The named body applies the same scalar operations to the same operands
    /// in the same order, so results are unchanged; it only runs faster (the
    /// emitter clones named ops as such generics).
    fn region_as_named(&self, block: &Block, in_tys: &[Ty], out_tys: &[Ty]) -> Option<NamedBody> {
        let [out] = out_tys else { return None };
        let elem = out.elem();
        let n_ins = in_tys.len();
        let one_type = in_tys.iter().all(|t| t.elem() == elem)
            && block.args.len() == n_ins + 1
            && block.args.iter().all(|(_, _, ty)| {
                matches!(ty.as_slice(), [t] if self.ty(t).ok() == Some(Ty::Scalar(elem)))
            });
        if !one_type {
            return None;
        }
        let arg = |k: usize| block.args.get(k).map(|(n, _, _)| n.as_str());
        // Each op as (name, results, operands).
        let ops: Vec<(&str, &[String], Vec<&str>)> = block
            .ops
            .iter()
            .map(|op| {
                (
                    op.name.as_str(),
                    op.results.as_slice(),
                    self.operand_names(op),
                )
            })
            .collect();
        let pick = |f: &'static str, i: &'static str| if elem.is_float() { f } else { i };
        let is = |name: &str, want: &str| name.strip_prefix("arith.") == Some(want);
        match ops.as_slice() {
            [("linalg.yield", [], y)] if y.len() == 1 && Some(y[0]) == arg(0) => {
                Some(NamedBody::Copy)
            }
            [(mul, [p], m), (add, [s], a), ("linalg.yield", [], y)]
                if n_ins == 2
                    && is(mul, pick("mulf", "muli"))
                    && is(add, pick("addf", "addi"))
                    && m.iter().map(|x| Some(*x)).eq([arg(0), arg(1)])
                    && a.iter().map(|x| Some(*x)).eq([arg(2), Some(p.as_str())])
                    && y.as_slice() == [s.as_str()] =>
            {
                Some(NamedBody::MulAdd)
            }
            [(f, [r], x), ("linalg.yield", [], y)]
                if x.iter().map(|x| Some(*x)).eq([arg(n_ins), arg(0)])
                    && y.as_slice() == [r.as_str()] =>
            {
                [
                    ("maximumf", "maxsi"),
                    ("minimumf", "minsi"),
                    ("addf", "addi"),
                ]
                .into_iter()
                .find(|(fl, int)| is(f, pick(fl, int)))
                .map(|(fl, int)| NamedBody::Pool(fl, int))
            }
            _ => None,
        }
    }

    /// Runs a structured op: loops over the iteration domain in lexicographic
    /// order, applies `body` at each point and returns the outs' final values.
    fn structured(
        &self,
        env: &mut Env,
        op: &Op,
        operands: &mut [Operand],
        n_ins: usize,
        body: &Body,
        depth: usize,
    ) -> Result<Vec<Tensor>> {
        let fail = |m: String| self.op_fail(op, m);
        let n_loops = operands.first().map(|o| o.map.n_dims).unwrap_or(0);
        // Loop sizes from bare `d_i` results.
        let mut sizes: Vec<Option<usize>> = vec![None; n_loops];
        for o in operands.iter() {
            if o.map.n_dims != n_loops || o.map.n_symbols != 0 {
                return Err(fail(
                    "indexing maps must share their dims and have no symbols".into(),
                ));
            }
            let shape = match &*o.value {
                Value::Tensor(t) => t.shape.clone(),
                Value::Scalar(_) => Vec::new(),
            };
            if shape.len() != o.map.results.len() {
                return Err(fail(format!(
                    "a map with {} results for an operand of rank {}",
                    o.map.results.len(),
                    shape.len()
                )));
            }
            for (e, s) in o.map.results.iter().zip(&shape) {
                if let AffineExpr::Dim(d) = e {
                    if let Some(slot) = sizes.get_mut(*d) {
                        if *slot.get_or_insert(*s) != *s {
                            return Err(fail(format!(
                                "loop d{d} has size {} from one operand but {s} from another",
                                slot.unwrap_or(0)
                            )));
                        }
                    }
                }
            }
        }
        let sizes: Vec<usize> = sizes
            .iter()
            .enumerate()
            .map(|(d, s)| {
                s.ok_or_else(|| fail(format!("no operand dimension gives the size of loop d{d}")))
            })
            .collect::<Result<_>>()?;
        let total = sizes
            .iter()
            .try_fold(1u64, |a, &s| a.checked_mul(s as u64))
            .unwrap_or(u64::MAX);
        self.tick(op, total)?;
        // Per operand: flat coefficients if every index is linear (checked in
        // bounds over the whole box), else checked at each point.
        let mut outs: Vec<Tensor> = operands[n_ins..]
            .iter()
            .map(|o| {
                o.value
                    .tensor()
                    .cloned()
                    .ok_or_else(|| fail("outs operands must be tensors".into()))
            })
            .collect::<Result<_>>()?;
        if total == 0 {
            return Ok(outs);
        }
        let mut flat: Vec<Option<(Vec<i64>, i64)>> = Vec::new();
        for (k, o) in operands.iter().enumerate() {
            flat.push(self.flat_access(op, k, o, &sizes)?);
        }
        let n_ops = operands.len();
        let mut idx = vec![0usize; n_loops];
        let mut idx64 = vec![0i64; n_loops];
        // Linear accesses move by a fixed step when loop d advances (and the
        // inner loops wrap to 0): coef[d] - sum over e > d of coef[e] * (size[e] - 1).
        let steps: Vec<Option<Vec<i64>>> = flat
            .iter()
            .map(|f| {
                f.as_ref().map(|(coef, _)| {
                    (0..n_loops)
                        .map(|d| {
                            // Wrapping: a size-1 loop's coefficient may be
                            // anything, but its step is never taken.
                            coef[d].wrapping_sub(
                                (d + 1..n_loops)
                                    .map(|e| coef[e].wrapping_mul(sizes[e] as i64 - 1))
                                    .fold(0i64, i64::wrapping_add),
                            )
                        })
                        .collect()
                })
            })
            .collect();
        let mut cur: Vec<i64> = flat
            .iter()
            .map(|f| f.as_ref().map(|(_, base)| *base).unwrap_or(0))
            .collect();
        let mut offsets = vec![0usize; n_ops];
        let mut args: Vec<Scalar> = Vec::with_capacity(n_ops);
        let out_elem = outs.first().map(|t| t.elem).unwrap_or(ElemType::F32);
        if let (Body::Named(b), true, [out]) = (
            body,
            n_ops <= 4 && flat.iter().all(Option::is_some),
            outs.as_mut_slice(),
        ) {
            // The common case, without the general loop's bookkeeping: a
            // named op whose accesses are all linear.
            let ins: Vec<&Value> = operands[..n_ins].iter().map(|o| &*o.value).collect();
            let mut args = [out_elem.zero(); 4];
            let args = args
                .get_mut(..n_ops)
                .ok_or_else(|| fail(format!("{n_ops} operands")))?;
            loop {
                for (k, v) in ins.iter().enumerate() {
                    args[k] = match v {
                        Value::Scalar(s) => *s,
                        Value::Tensor(t) => t.data[cur[k] as usize],
                    };
                }
                let o = cur[n_ins] as usize;
                args[n_ins] = out.data[o];
                out.data[o] = apply_named(*b, args, out_elem).map_err(fail)?;
                let Some(d) = super::tensor_ops::advance(&mut idx, &sizes) else {
                    return Ok(outs);
                };
                for (c, st) in cur.iter_mut().zip(&steps) {
                    if let Some(st) = st {
                        *c = c.wrapping_add(st[d]);
                    }
                }
            }
        }
        self.linalg_indices.borrow_mut().push(Vec::new());
        let result = (|| -> Result<()> {
            loop {
                args.clear();
                for (k, o) in operands.iter().enumerate() {
                    let off = match &flat[k] {
                        Some(_) => cur[k] as usize,
                        None => {
                            for (d, &i) in idx.iter().enumerate() {
                                idx64[d] = i as i64;
                            }
                            self.point_offset(op, o, &idx64)?
                        }
                    };
                    offsets[k] = off;
                    let x = if k >= n_ins {
                        outs[k - n_ins].data[off]
                    } else {
                        match &*o.value {
                            Value::Scalar(s) => *s,
                            Value::Tensor(t) => t.data[off],
                        }
                    };
                    args.push(x);
                }
                match body {
                    Body::Named(b) => {
                        let x = apply_named(*b, &args, out_elem).map_err(fail)?;
                        let t = outs
                            .first_mut()
                            .ok_or_else(|| fail("needs one output".into()))?;
                        t.data[offsets[n_ins]] = x;
                    }
                    Body::Region(block, names) => {
                        if let Some(top) = self.linalg_indices.borrow_mut().last_mut() {
                            top.clone_from(&idx);
                        }
                        let n_args = names.len();
                        if n_args != n_ops && n_args != n_ins {
                            return Err(fail(format!(
                                "the body has {n_args} arguments for {n_ops} operands"
                            )));
                        }
                        for (name, x) in names.iter().zip(&args) {
                            super::bind(env, name, Value::Scalar(*x));
                        }
                        let new = self.block(env, block, depth)?;
                        if new.len() != outs.len() {
                            return Err(fail(format!(
                                "the body yields {} values for {} outputs",
                                new.len(),
                                outs.len()
                            )));
                        }
                        for (j, v) in new.iter().enumerate() {
                            let t = &mut outs[j];
                            match v.scalar() {
                                Some(x) if x.ty() == t.elem => t.data[offsets[n_ins + j]] = x,
                                _ => {
                                    return Err(fail(format!(
                                        "the body must yield scalars of the outputs' types ({})",
                                        t.elem
                                    )));
                                }
                            }
                        }
                    }
                }
                let Some(d) = super::tensor_ops::advance(&mut idx, &sizes) else {
                    return Ok(());
                };
                for (c, st) in cur.iter_mut().zip(&steps) {
                    if let Some(st) = st {
                        *c = c.wrapping_add(st[d]);
                    }
                }
            }
        })();
        self.linalg_indices.borrow_mut().pop();
        result?;
        Ok(outs)
    }

    /// The flat coefficients and base offset of operand `k`'s accesses when
    /// all its indices are linear in the loops, after checking that the whole
    /// domain `sizes` stays inside its shape; `None` when some index is not
    /// linear (then checked at each point).
    fn flat_access(
        &self,
        op: &Op,
        k: usize,
        o: &Operand,
        sizes: &[usize],
    ) -> Result<Option<(Vec<i64>, i64)>> {
        let Value::Tensor(t) = &*o.value else {
            return Ok(Some((vec![0; sizes.len()], 0)));
        };
        let strides = super::value::strides(&t.shape);
        let mut coef = vec![0i64; sizes.len()];
        let mut base = 0i64;
        for (r, e) in o.map.results.iter().enumerate() {
            let Some((c, c0)) = linear(e, sizes.len()) else {
                return Ok(None);
            };
            let (mut lo, mut hi) = (c0, c0);
            for (d, &x) in c.iter().enumerate() {
                let span = x.saturating_mul(sizes[d] as i64 - 1);
                if span < 0 {
                    lo = lo.saturating_add(span);
                } else {
                    hi = hi.saturating_add(span);
                }
            }
            if lo < 0 || hi >= t.shape[r] as i64 {
                return Err(self.op_fail(
                    op,
                    format!(
                        "operand {k} is read at indices {lo}..={hi} in dimension {r}, outside its size {}",
                        t.shape[r]
                    ),
                ));
            }
            let s = strides[r] as i64;
            for (d, &x) in c.iter().enumerate() {
                coef[d] = coef[d].saturating_add(x.saturating_mul(s));
            }
            base += c0 * s;
        }
        Ok(Some((coef, base)))
    }

    /// The flat offset of operand `o` at loop point `idx`, checked.
    fn point_offset(&self, op: &Op, o: &Operand, idx: &[i64]) -> Result<usize> {
        let Value::Tensor(t) = &*o.value else {
            return Ok(0);
        };
        let at = o
            .map
            .results
            .iter()
            .map(|e| eval_expr(e, idx, &[]))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| self.op_fail(op, "an index overflows"))?;
        t.offset(&at).ok_or_else(|| {
            self.op_fail(
                op,
                format!("index {at:?} is outside the shape {:?}", t.shape),
            )
        })
    }
}
