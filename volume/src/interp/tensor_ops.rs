//! The `tensor` dialect's ops (<https://mlir.llvm.org/docs/Dialects/TensorOps/>):
//! `empty` (zeros here), `dim`, `cast`, `extract`, `insert`, `extract_slice`
//! and `insert_slice` (offsets, sizes and strides static or dynamic; the
//! rank-reducing forms drop unit sizes as the reader's rank reduction finds
//! them), `pad` (the region gives each padding element, from its indices) and
//! `generate`. Any element read or written outside its tensor is an error.

use std::rc::Rc;

use super::value::{ElemType, Scalar, Tensor, Ty, Value, element_count};
use super::{Env, Interp};
use crate::error::Result;
use crate::mlir::shared::rank_reduction;
use presburger_mlir_syntax::optree::{Block, Op, Token};

/// Moves `idx` to the next index of the box `shape` in row-major order;
/// `false` after the last.
pub(super) fn next_index(idx: &mut [usize], shape: &[usize]) -> bool {
    advance(idx, shape).is_some()
}

/// Moves `idx` to the next index of the box `shape` in row-major order and
/// returns the dimension that was incremented (the ones after it wrap to 0);
/// `None` after the last index.
pub(super) fn advance(idx: &mut [usize], shape: &[usize]) -> Option<usize> {
    for d in (0..idx.len()).rev() {
        idx[d] += 1;
        if idx[d] < shape[d] {
            return Some(d);
        }
        idx[d] = 0;
    }
    None
}

impl Interp<'_> {
    /// The tensor value of `%name`.
    pub(super) fn tensor(&self, env: &Env, op: &Op, name: &str) -> Result<Rc<Value>> {
        let v = self.get(env, op, name)?;
        if v.tensor().is_none() {
            return Err(self.op_fail(
                op,
                format!("%{name} is a scalar where a tensor is expected"),
            ));
        }
        Ok(v)
    }

    /// The integers of a `[...]` (or `(...)`) group of constants and
    /// `%index` values.
    pub(super) fn int_list(&self, env: &Env, op: &Op, group: Option<&Token>) -> Result<Vec<i64>> {
        let Some(Token::Group {
            open: '[' | '(',
            items,
            ..
        }) = group
        else {
            return Err(self.op_fail(op, "expected a list `[...]`"));
        };
        let mut out = Vec::new();
        for t in items {
            match t {
                Token::Punct { text: ",", .. } => {}
                Token::Number { text, .. } => out.push(
                    text.parse::<i64>()
                        .map_err(|_| self.op_fail(op, format!("`{text}` is not an integer")))?,
                ),
                Token::Value { name, .. } => out.push(self.int(env, op, name)?),
                _ => return Err(self.op_fail(op, "expected integers or index values in the list")),
            }
        }
        Ok(out)
    }

    /// The result type (the last trailing type) of `op`.
    fn result_type(&self, op: &Op) -> Result<Ty> {
        self.trailing_types(op)?
            .pop()
            .ok_or_else(|| self.op_fail(op, "expected `: type`"))
    }

    /// Runs the single-block region `block` with its arguments bound to
    /// `index` values `idx` and returns the yielded scalar.
    fn region_scalar(
        &self,
        env: &mut Env,
        op: &Op,
        block: &Block,
        idx: &[usize],
        depth: usize,
    ) -> Result<Scalar> {
        if block.args.len() != idx.len() {
            return Err(self.op_fail(
                op,
                format!(
                    "the region takes {} indices, not {}",
                    idx.len(),
                    block.args.len()
                ),
            ));
        }
        for ((name, _, _), &i) in block.args.iter().zip(idx) {
            super::bind(env, name, Value::Scalar(Scalar::index(i as i64)));
        }
        let out = self.block(env, block, depth)?;
        match out.as_slice() {
            [v] => v
                .scalar()
                .ok_or_else(|| self.op_fail(op, "the region must yield a scalar")),
            _ => Err(self.op_fail(op, "the region must yield one value")),
        }
    }

    /// Checks that `v`'s element type is `elem`.
    fn check_elem(&self, op: &Op, elem: ElemType, got: ElemType) -> Result<()> {
        if elem != got {
            return Err(self.op_fail(op, format!("element type {got} where {elem} is expected")));
        }
        Ok(())
    }

    /// Dispatches the `tensor.<short>` op.
    pub(super) fn tensor_op(
        &self,
        env: &mut Env,
        op: &Op,
        short: &str,
        depth: usize,
    ) -> Result<Vec<Value>> {
        let names = self.operand_names(op);
        let fail = |m: String| self.op_fail(op, m);
        let v = match short {
            "empty" => {
                let Ty::Tensor(dims, elem) = self.result_type(op)? else {
                    return Err(fail("needs a tensor type".into()));
                };
                let dynamic: Vec<i64> = match op.tokens.first() {
                    Some(Token::Group {
                        open: '(', items, ..
                    }) => items
                        .iter()
                        .filter_map(|t| match t {
                            Token::Value { name, .. } => Some(self.int(env, op, name)),
                            _ => None,
                        })
                        .collect::<Result<_>>()?,
                    _ => Vec::new(),
                };
                let shape = self.shape_of(op, &dims, &dynamic)?;
                Value::Tensor(
                    Tensor::filled(elem, shape, elem.zero())
                        .ok_or_else(|| fail("the tensor is too large".into()))?,
                )
            }
            "dim" => {
                let t = self.tensor(env, op, names.first().copied().unwrap_or(""))?;
                let d = match (names.get(1), op.tokens.get(2)) {
                    (Some(n), _) => self.int(env, op, n)?,
                    (None, Some(Token::Number { text, .. })) => text.parse().unwrap_or(-1),
                    _ => return Err(fail("expected `%tensor, %dim`".into())),
                };
                let shape = &t.tensor().map(|t| t.shape.clone()).unwrap_or_default();
                let size = usize::try_from(d)
                    .ok()
                    .and_then(|d| shape.get(d))
                    .ok_or_else(|| {
                        fail(format!("dimension {d} of a rank-{} tensor", shape.len()))
                    })?;
                Value::Scalar(Scalar::index(*size as i64))
            }
            "cast" => {
                let v = self.tensor(env, op, names.first().copied().unwrap_or(""))?;
                let ty = self.result_type(op)?;
                if !ty.admits(&v) {
                    return Err(fail(format!("the operand does not fit {ty}")));
                }
                (*v).clone()
            }
            "extract" => {
                let v = self.tensor(env, op, names.first().copied().unwrap_or(""))?;
                let idx = self.int_list(env, op, op.tokens.get(1))?;
                let t = v.tensor().ok_or_else(|| fail("expected a tensor".into()))?;
                let off = t.offset(&idx).ok_or_else(|| {
                    fail(format!("index {idx:?} is outside the shape {:?}", t.shape))
                })?;
                Value::Scalar(t.data[off])
            }
            "insert" => {
                let s = self.scalar(env, op, names.first().copied().unwrap_or(""))?;
                let v = self.tensor(env, op, names.get(1).copied().unwrap_or(""))?;
                let idx = self.int_list(env, op, op.tokens.get(3))?;
                let mut t = v
                    .tensor()
                    .cloned()
                    .ok_or_else(|| fail("expected a tensor".into()))?;
                self.check_elem(op, t.elem, s.ty())?;
                let off = t.offset(&idx).ok_or_else(|| {
                    fail(format!("index {idx:?} is outside the shape {:?}", t.shape))
                })?;
                t.data[off] = s;
                Value::Tensor(t)
            }
            "extract_slice" => {
                let v = self.tensor(env, op, names.first().copied().unwrap_or(""))?;
                let src = v.tensor().ok_or_else(|| fail("expected a tensor".into()))?;
                let (offs, sizes, strides) = self.slice_params(env, op, 1)?;
                let Ty::Tensor(rdims, elem) = self.result_type(op)? else {
                    return Err(fail("needs a tensor result type".into()));
                };
                self.check_elem(op, elem, src.elem)?;
                let positions = self.slice_positions(op, &src.shape, &offs, &sizes, &strides)?;
                let data = positions.iter().map(|&p| src.data[p]).collect();
                let shape = self.reduced_shape(op, &sizes, &rdims)?;
                Value::Tensor(Tensor { elem, shape, data })
            }
            "insert_slice" => {
                let s = self.tensor(env, op, names.first().copied().unwrap_or(""))?;
                let d = self.tensor(env, op, names.get(1).copied().unwrap_or(""))?;
                let mut dst = d
                    .tensor()
                    .cloned()
                    .ok_or_else(|| fail("expected a tensor".into()))?;
                self.insert_into(env, op, &s, &mut dst)?;
                Value::Tensor(dst)
            }
            "parallel_insert_slice" => {
                // Into the enclosing scf.forall's shared output.
                let s = self.tensor(env, op, names.first().copied().unwrap_or(""))?;
                let dest = names.get(1).copied().unwrap_or("");
                let mut stack = self.forall_outs.borrow_mut();
                let top = stack
                    .last_mut()
                    .ok_or_else(|| fail("outside an scf.forall".into()))?;
                let j = top.0.iter().position(|n| n == dest).ok_or_else(|| {
                    fail(format!("%{dest} is not a shared output of the scf.forall"))
                })?;
                let dst = top
                    .1
                    .get_mut(j)
                    .ok_or_else(|| fail("no shared output".into()))?;
                self.insert_into(env, op, &s, dst)?;
                return Ok(Vec::new());
            }
            "pad" => self.pad(env, op, depth)?,
            "generate" => {
                let Ty::Tensor(dims, elem) = self.result_type(op)? else {
                    return Err(fail("needs a tensor type".into()));
                };
                let dynamic = names
                    .iter()
                    .map(|n| self.int(env, op, n))
                    .collect::<Result<Vec<_>>>()?;
                let shape = self.shape_of(op, &dims, &dynamic)?;
                self.build(env, op, elem, shape, depth, |_| None)?
            }
            _ => return Err(self.unsupported(op)),
        };
        Ok(vec![v])
    }

    /// Writes the tensor `src` into `dst` at the slice that `op`'s offsets,
    /// sizes and strides (its tokens 3 to 5, after `%src into %dst`) give
    /// (`tensor.insert_slice`, `tensor.parallel_insert_slice`).
    fn insert_into(&self, env: &Env, op: &Op, src: &Value, dst: &mut Tensor) -> Result<()> {
        let fail = |m: String| self.op_fail(op, m);
        let (offs, sizes, strides) = self.slice_params(env, op, 3)?;
        let src = src
            .tensor()
            .ok_or_else(|| fail("expected a tensor".into()))?;
        self.check_elem(op, dst.elem, src.elem)?;
        let src_dims: Vec<Option<usize>> = src.shape.iter().map(|&x| Some(x)).collect();
        let shape = self.reduced_shape(op, &sizes, &src_dims)?;
        if shape != src.shape {
            return Err(fail(format!(
                "the source's shape {:?} is not the slice's {sizes:?}",
                src.shape
            )));
        }
        let positions = self.slice_positions(op, &dst.shape, &offs, &sizes, &strides)?;
        for (p, x) in positions.into_iter().zip(&src.data) {
            dst.data[p] = *x;
        }
        Ok(())
    }

    /// The shape of a tensor type with its `?` sizes taken from `dynamic`, in order.
    fn shape_of(&self, op: &Op, dims: &[Option<usize>], dynamic: &[i64]) -> Result<Vec<usize>> {
        let mut dynamic = dynamic.iter();
        let shape = dims
            .iter()
            .map(|d| match d {
                Some(d) => Ok(*d),
                None => dynamic
                    .next()
                    .and_then(|&x| usize::try_from(x).ok())
                    .ok_or_else(|| {
                        self.op_fail(op, "a `?` size needs a non-negative index operand")
                    }),
            })
            .collect::<Result<Vec<_>>>()?;
        if dynamic.next().is_some() {
            return Err(self.op_fail(op, "more size operands than `?` sizes"));
        }
        Ok(shape)
    }

    /// The offsets, sizes and strides lists starting at token `first`.
    fn slice_params(
        &self,
        env: &Env,
        op: &Op,
        first: usize,
    ) -> Result<(Vec<i64>, Vec<i64>, Vec<i64>)> {
        let offs = self.int_list(env, op, op.tokens.get(first))?;
        let sizes = self.int_list(env, op, op.tokens.get(first + 1))?;
        let strides = self.int_list(env, op, op.tokens.get(first + 2))?;
        if offs.len() != sizes.len() || sizes.len() != strides.len() {
            return Err(self.op_fail(op, "offsets, sizes and strides must have the same length"));
        }
        Ok((offs, sizes, strides))
    }

    /// The shape of a slice of `sizes` as the (possibly rank-reduced) type
    /// with dims `reduced` has it.
    fn reduced_shape(
        &self,
        op: &Op,
        sizes: &[i64],
        reduced: &[Option<usize>],
    ) -> Result<Vec<usize>> {
        let kept: Vec<usize> = if reduced.len() == sizes.len() {
            (0..sizes.len()).collect()
        } else {
            let r: Vec<Option<i64>> = reduced.iter().map(|d| d.map(|d| d as i64)).collect();
            // A `?` in the reduced type matches any size: rank_reduction wants
            // static sizes, so give it the actual ones in their place.
            let dropped = rank_reduction(sizes, &fill_dynamic(&r, sizes)).ok_or_else(|| {
                self.op_fail(
                    op,
                    format!(
                        "sizes {sizes:?} cannot be rank-reduced to {} dims",
                        reduced.len()
                    ),
                )
            })?;
            (0..sizes.len()).filter(|d| !dropped.contains(d)).collect()
        };
        let shape: Vec<usize> = kept.iter().map(|&d| sizes[d] as usize).collect();
        for (s, r) in shape.iter().zip(reduced) {
            if r.is_some_and(|r| r != *s) {
                return Err(self.op_fail(
                    op,
                    format!("slice sizes {sizes:?} do not fit the type's {reduced:?}"),
                ));
            }
        }
        Ok(shape)
    }

    /// The flat positions in a tensor of shape `shape` of the slice `offs`,
    /// `sizes`, `strides`, in row-major order of the slice; an error if any is
    /// outside.
    fn slice_positions(
        &self,
        op: &Op,
        shape: &[usize],
        offs: &[i64],
        sizes: &[i64],
        strides: &[i64],
    ) -> Result<Vec<usize>> {
        if offs.len() != shape.len() {
            return Err(self.op_fail(
                op,
                format!(
                    "a rank-{} slice of a rank-{} tensor",
                    offs.len(),
                    shape.len()
                ),
            ));
        }
        let st = super::value::strides(shape);
        let mut box_shape = Vec::new();
        for d in 0..shape.len() {
            let (o, s, k) = (offs[d], sizes[d], strides[d]);
            let last = o.checked_add(s.saturating_sub(1).checked_mul(k).unwrap_or(i64::MAX));
            if s < 0
                || o < 0
                || k < 0
                || (s > 0 && last.is_none_or(|l| l < 0 || l >= shape[d] as i64))
            {
                return Err(self.op_fail(
                    op,
                    format!(
                        "the slice offset {o}, size {s}, stride {k} leaves dimension {d} of size {}",
                        shape[d]
                    ),
                ));
            }
            box_shape.push(s as usize);
        }
        let n =
            element_count(&box_shape).ok_or_else(|| self.op_fail(op, "the slice is too large"))?;
        self.tick(op, n as u64)?;
        let mut out = Vec::with_capacity(n);
        if n == 0 {
            return Ok(out);
        }
        let mut idx = vec![0usize; shape.len()];
        loop {
            let p: usize = (0..shape.len())
                .map(|d| (offs[d] as usize + idx[d] * strides[d] as usize) * st[d])
                .sum();
            out.push(p);
            if !next_index(&mut idx, &box_shape) {
                return Ok(out);
            }
        }
    }

    /// `tensor.pad %src nofold? low[...] high[...] { region } : T to T2`.
    fn pad(&self, env: &mut Env, op: &Op, depth: usize) -> Result<Value> {
        let fail = |m: String| self.op_fail(op, m);
        let names = self.operand_names(op);
        let v = self.tensor(env, op, names.first().copied().unwrap_or(""))?;
        let src = v.tensor().ok_or_else(|| fail("expected a tensor".into()))?;
        let list_after = |kw: &str| {
            op.tokens
                .iter()
                .position(|t| t.is_word(kw))
                .and_then(|i| op.tokens.get(i + 1))
        };
        let low = self.int_list(env, op, list_after("low"))?;
        let high = self.int_list(env, op, list_after("high"))?;
        let r = src.shape.len();
        if low.len() != r || high.len() != r {
            return Err(fail(format!("needs {r} low and high amounts")));
        }
        if low.iter().chain(&high).any(|&x| x < 0) {
            return Err(fail("negative padding".into()));
        }
        let shape: Vec<usize> = (0..r)
            .map(|d| {
                usize::try_from(low[d].checked_add(high[d])?)
                    .ok()?
                    .checked_add(src.shape[d])
            })
            .collect::<Option<_>>()
            .ok_or_else(|| fail("the padded size overflows".into()))?;
        let Ty::Tensor(rdims, elem) = self.result_type(op)? else {
            return Err(fail("needs a tensor result type".into()));
        };
        self.check_elem(op, elem, src.elem)?;
        if rdims.len() != r
            || rdims
                .iter()
                .zip(&shape)
                .any(|(d, s)| d.is_some_and(|d| d != *s))
        {
            return Err(fail(format!(
                "the padded shape {shape:?} does not fit the result type"
            )));
        }
        let mut inner = vec![0i64; r];
        self.build(env, op, elem, shape, depth, |idx| {
            for d in 0..r {
                inner[d] = idx[d] as i64 - low[d];
            }
            src.offset(&inner).map(|p| src.data[p])
        })
    }

    /// The tensor of type `elem` and shape `shape` whose element at each index
    /// is `given(index)` if some, else what `op`'s region yields for the
    /// index (`tensor.generate`, the padding of `tensor.pad`).
    fn build(
        &self,
        env: &mut Env,
        op: &Op,
        elem: ElemType,
        shape: Vec<usize>,
        depth: usize,
        mut given: impl FnMut(&[usize]) -> Option<Scalar>,
    ) -> Result<Value> {
        let block = op
            .entry_block()
            .ok_or_else(|| self.op_fail(op, "needs a region"))?;
        let n = element_count(&shape).ok_or_else(|| self.op_fail(op, "the tensor is too large"))?;
        self.tick(op, n as u64)?;
        let mut data = Vec::with_capacity(n);
        let mut idx = vec![0usize; shape.len()];
        if n > 0 {
            loop {
                let x = match given(&idx) {
                    Some(x) => x,
                    None => {
                        let x = self.region_scalar(env, op, block, &idx, depth)?;
                        self.check_elem(op, elem, x.ty())?;
                        x
                    }
                };
                data.push(x);
                if !next_index(&mut idx, &shape) {
                    break;
                }
            }
        }
        Ok(Value::Tensor(Tensor { elem, shape, data }))
    }
}

/// The dims `reduced` with each `?` replaced by a size of `sizes` that lets
/// the rank reduction match: the `?` takes the size of the first not yet
/// matched source dimension that is not a dropped unit (a `?` keeps a
/// dimension in order).
fn fill_dynamic(reduced: &[Option<i64>], sizes: &[i64]) -> Vec<Option<i64>> {
    let mut out = Vec::with_capacity(reduced.len());
    let mut i = 0;
    for r in reduced {
        match r {
            Some(x) => {
                while i < sizes.len() && sizes[i] != *x {
                    i += 1;
                }
                out.push(Some(*x));
                i += 1;
            }
            None => {
                while i < sizes.len()
                    && sizes[i] == 1
                    && sizes.len() - i > reduced.len() - out.len()
                {
                    i += 1;
                }
                out.push(sizes.get(i).copied());
                i += 1;
            }
        }
    }
    out
}
