//! The `arith.constant` and `tensor` operations.

use super::attr::{self, Attr};
use super::{Built, Parser, type_to_string};
use crate::error::{Error, Result};
use crate::ir::{OpKind, Type};

/// Which source dimensions a rank-reducing slice drops: walks `sizes` (one per
/// source dimension) against the `reduced` type's dimensions, keeping a size when
/// it equals the next reduced dimension and the rest can still be matched,
/// otherwise dropping it if it is 1. `None` if the sizes cannot be matched.
pub(crate) fn rank_reduction(sizes: &[i64], reduced: &[Option<i64>]) -> Option<Vec<usize>> {
    let mut dropped = Vec::new();
    let mut j = 0;
    for (i, &s) in sizes.iter().enumerate() {
        if reduced.get(j) == Some(&Some(s)) && rest_matches(sizes, i + 1, reduced, j + 1) {
            j += 1;
        } else if s == 1 {
            dropped.push(i);
        } else {
            return None;
        }
    }
    (j == reduced.len()).then_some(dropped)
}

/// Whether `sizes[i..]` can match `reduced[j..]` by keeping equal sizes in order
/// and dropping unit sizes (greedy, keeping first).
fn rest_matches(sizes: &[i64], i: usize, reduced: &[Option<i64>], j: usize) -> bool {
    let mut jj = j;
    for &s in sizes.iter().skip(i) {
        if reduced.get(jj) == Some(&Some(s)) {
            jj += 1;
        } else if s != 1 {
            return false;
        }
    }
    jj == reduced.len()
}

impl Parser<'_> {
    /// `arith.constant {attrs}? value : type`: a scalar or a `dense<...>`
    /// tensor; the value's kind must fit the type.
    pub(super) fn constant(&mut self) -> Result<Built> {
        if self.c.peek("{") {
            attr::parse_dict(&mut self.c, &self.aliases, 0)?;
        }
        self.c.skip_ws();
        let at = self.c.pos;
        let value = attr::literal(&mut self.c)?;
        self.c.expect(":", "before the constant's type")?;
        let ty_at = self.c.pos;
        let ty = self.ty()?;
        match (&value, &ty) {
            (Attr::Dense(_), Type::Tensor(t)) if t.dims.iter().any(Option::is_none) => {
                return Err(self
                    .c
                    .error(ty_at, "a dense constant needs a static tensor type"));
            }
            (Attr::Dense(_), Type::Tensor(_)) => {}
            (Attr::Dense(_), _) => {
                return Err(self.c.error(
                    at,
                    format!(
                        "dense<...> needs a tensor type, not {}",
                        type_to_string(&ty)
                    ),
                ));
            }
            (_, Type::Tensor(_)) => {
                return Err(self
                    .c
                    .error(at, "a tensor constant is written dense<...>".to_string()));
            }
            (Attr::Float, Type::Index) => {
                return Err(self.c.error(at, "an index constant must be an integer"));
            }
            _ => {}
        }
        Ok(Built {
            kind: OpKind::Constant,
            operands: Vec::new(),
            result_types: vec![ty],
        })
    }

    /// `tensor.empty(%d0, ...) : tensor<..>`: one `index` operand per `?` size.
    pub(super) fn empty(&mut self) -> Result<Built> {
        self.c.expect("(", "after tensor.empty")?;
        let mut operands = Vec::new();
        if !self.c.eat(")") {
            loop {
                let (v, at) = self.operand()?;
                self.check_type(v, &Type::Index, at)?;
                operands.push(v);
                if self.c.eat(",") {
                    continue;
                }
                self.c.expect(")", "to close the sizes of tensor.empty")?;
                break;
            }
        }
        if self.c.peek("{") {
            attr::parse_dict(&mut self.c, &self.aliases, 0)?;
        }
        self.c.expect(":", "before the type of tensor.empty")?;
        let ty_at = self.c.pos;
        let ty = self.ty()?;
        let Type::Tensor(t) = &ty else {
            return Err(self.c.error(ty_at, "tensor.empty needs a tensor type"));
        };
        let dynamic = t.dims.iter().filter(|d| d.is_none()).count();
        if dynamic != operands.len() {
            return Err(self.c.error(
                ty_at,
                format!(
                    "{} has {dynamic} dynamic size(s) but tensor.empty has {} operand(s)",
                    type_to_string(&ty),
                    operands.len()
                ),
            ));
        }
        Ok(Built {
            kind: OpKind::Empty,
            operands,
            result_types: vec![ty],
        })
    }

    /// `tensor.pad %src nofold? low[..] high[..] { ^bb0(%i: index, ...):
    /// tensor.yield %v : f32 } : T to T2`. Static amounts only; the yielded value
    /// must come from outside the region. Checks ranks, element types and
    /// `result = source + low + high` on static sizes.
    pub(super) fn pad(&mut self, op: &str, line: usize) -> Result<Built> {
        let (src, src_at) = self.operand()?;
        self.c.eat_kw("nofold");
        let low_at = self.c.pos;
        if !self.c.eat_kw("low") {
            let found = self.c.found();
            return Err(self.c.error(
                low_at,
                format!("expected `low[...]` in tensor.pad, found {found}"),
            ));
        }
        let low = self.static_list(op, line, "low padding amounts")?;
        if !self.c.eat_kw("high") {
            let found = self.c.found();
            return Err(self.c.error(
                self.c.pos,
                format!("expected `high[...]` in tensor.pad, found {found}"),
            ));
        }
        let high = self.static_list(op, line, "high padding amounts")?;
        // The region.
        self.c.skip_ws();
        let (s, e) = self.c.skip_balanced(b'{', b'}')?;
        let after = self.c.pos;
        self.c.pos = s;
        let mut block_args: Vec<&str> = Vec::new();
        if self.c.eat("^") {
            self.c.ident();
            if self.c.eat("(") && !self.c.eat(")") {
                loop {
                    let Some((a, _)) = self.c.ssa() else {
                        return Err(self.c.error(self.c.pos, "expected a block argument"));
                    };
                    block_args.push(a);
                    self.c.expect(":", "after the block argument")?;
                    let ty_at = self.c.pos;
                    if self.ty()? != Type::Index {
                        return Err(self
                            .c
                            .error(ty_at, "tensor.pad's block arguments must be index"));
                    }
                    if self.c.eat(",") {
                        continue;
                    }
                    self.c.expect(")", "to close the block arguments")?;
                    break;
                }
            }
            self.c.expect(":", "after the block label")?;
        }
        if !self.c.eat_kw("tensor.yield") {
            return Err(Error::Unsupported {
                op: op.to_string(),
                line,
                message: "the padding region must hold only `tensor.yield %v` of a value defined outside it".to_string(),
            });
        }
        let Some((yname, yat)) = self.c.ssa() else {
            return Err(self
                .c
                .error(self.c.pos, "expected the yielded value after tensor.yield"));
        };
        if block_args.contains(&yname) {
            return Err(Error::Unsupported {
                op: op.to_string(),
                line,
                message: "a padding value that depends on the index is not modelled".to_string(),
            });
        }
        let yielded = self.lookup(yname, yat)?;
        self.c.expect(":", "before the yielded value's type")?;
        let yty_at = self.c.pos;
        let yty = self.ty()?;
        self.check_type(yielded, &yty, yat)?;
        if !self.c.at_eof() && self.c.pos < e {
            let found = self.c.found();
            return Err(self.c.error(
                self.c.pos,
                format!(
                    "expected `}}` to close the padding region opened on line {}, found {found}",
                    self.c.line(s)
                ),
            ));
        }
        self.c.pos = after;
        if self.c.peek("{") {
            attr::parse_dict(&mut self.c, &self.aliases, 0)?;
        }
        self.c.expect(":", "before the types of tensor.pad")?;
        let sty_at = self.c.pos;
        let sty = self.ty()?;
        self.check_type(src, &sty, src_at)?;
        if !self.c.eat_kw("to") {
            let found = self.c.found();
            return Err(self.c.error(
                self.c.pos,
                format!("expected `to` in tensor.pad's type, found {found}"),
            ));
        }
        let rty_at = self.c.pos;
        let rty = self.ty()?;
        let (Type::Tensor(st), Type::Tensor(rt)) = (&sty, &rty) else {
            return Err(self.c.error(sty_at, "tensor.pad needs tensor types"));
        };
        if Type::Scalar(st.elem.clone()) != yty {
            return Err(self.c.error(
                yty_at,
                format!("the padding value must be {}, the element type", st.elem),
            ));
        }
        let rank = st.dims.len();
        if low.len() != rank || high.len() != rank || rt.dims.len() != rank {
            return Err(self.c.error(
                low_at,
                format!(
                    "tensor.pad of a rank-{rank} tensor needs {rank} low and high amounts and a rank-{rank} result (got {}, {}, {})",
                    low.len(),
                    high.len(),
                    rt.dims.len()
                ),
            ));
        }
        if rt.elem != st.elem {
            return Err(self
                .c
                .error(rty_at, "tensor.pad must keep the element type"));
        }
        for i in 0..rank {
            let (l, h) = (
                low.get(i).copied().unwrap_or(0),
                high.get(i).copied().unwrap_or(0),
            );
            if l < 0 || h < 0 {
                return Err(self
                    .c
                    .error(low_at, format!("negative padding in dimension {i}")));
            }
            if let (Some(Some(sd)), Some(Some(rd))) = (st.dims.get(i), rt.dims.get(i)) {
                let want = i128::from(*sd) + i128::from(l) + i128::from(h);
                if i128::from(*rd) != want {
                    return Err(self.c.error(
                        rty_at,
                        format!(
                            "dimension {i} of the result is {rd} but {sd} + {l} + {h} = {want}"
                        ),
                    ));
                }
            }
        }
        Ok(Built {
            kind: OpKind::Pad { low, high },
            operands: vec![src, yielded],
            result_types: vec![rty],
        })
    }

    /// `[offsets] [sizes] [strides]` of a slice op.
    fn slice_params(&mut self, op: &str, line: usize) -> Result<(Vec<i64>, Vec<i64>, Vec<i64>)> {
        let offsets = self.static_list(op, line, "offsets")?;
        let sizes = self.static_list(op, line, "sizes")?;
        let strides = self.static_list(op, line, "strides")?;
        if self.c.peek("{") {
            attr::parse_dict(&mut self.c, &self.aliases, 0)?;
        }
        Ok((offsets, sizes, strides))
    }

    /// Checks a slice's parameters against the full tensor `full` and finds the
    /// dropped unit dims from the (possibly rank-reduced) `part` type; errors at
    /// `at`.
    fn check_slice(
        &self,
        at: usize,
        full: &Type,
        part: &Type,
        params: (&[i64], &[i64], &[i64]),
    ) -> Result<Vec<usize>> {
        let (offsets, sizes, strides) = params;
        let (Type::Tensor(ft), Type::Tensor(pt)) = (full, part) else {
            return Err(self.c.error(at, "slices need tensor types"));
        };
        let rank = ft.dims.len();
        if offsets.len() != rank || sizes.len() != rank || strides.len() != rank {
            return Err(self.c.error(
                at,
                format!(
                    "a slice of a rank-{rank} tensor needs {rank} offsets, sizes and strides (got {}, {}, {})",
                    offsets.len(),
                    sizes.len(),
                    strides.len()
                ),
            ));
        }
        if ft.elem != pt.elem {
            return Err(self.c.error(at, "a slice must keep the element type"));
        }
        for i in 0..rank {
            let (o, s, t) = (
                offsets.get(i).copied().unwrap_or(0),
                sizes.get(i).copied().unwrap_or(0),
                strides.get(i).copied().unwrap_or(1),
            );
            if o < 0 || s < 0 || t < 1 {
                return Err(self.c.error(
                    at,
                    format!("dimension {i}: offset and size must be non-negative and the stride positive"),
                ));
            }
            if let Some(Some(d)) = ft.dims.get(i) {
                let last = i128::from(o) + (i128::from(s) - 1) * i128::from(t);
                if s > 0 && last >= i128::from(*d) {
                    return Err(self.c.error(
                        at,
                        format!("dimension {i}: the slice reaches index {last} but the tensor has size {d}"),
                    ));
                }
            }
        }
        rank_reduction(sizes, &pt.dims).ok_or_else(|| {
            self.c.error(
                at,
                format!(
                    "sizes {sizes:?} do not fit the slice type {} (only unit sizes may be dropped)",
                    type_to_string(part)
                ),
            )
        })
    }

    /// `tensor.extract_slice %src[offsets] [sizes] [strides] : T to T2`.
    pub(super) fn extract_slice(&mut self, op: &str, line: usize) -> Result<Built> {
        let (src, src_at) = self.operand()?;
        let (offsets, sizes, strides) = self.slice_params(op, line)?;
        self.c
            .expect(":", "before the types of tensor.extract_slice")?;
        let ty_at = self.c.pos;
        let sty = self.ty()?;
        self.check_type(src, &sty, src_at)?;
        if !self.c.eat_kw("to") {
            let found = self.c.found();
            return Err(self
                .c
                .error(self.c.pos, format!("expected `to`, found {found}")));
        }
        let rty = self.ty()?;
        let dropped = self.check_slice(ty_at, &sty, &rty, (&offsets, &sizes, &strides))?;
        Ok(Built {
            kind: OpKind::ExtractSlice {
                offsets,
                sizes,
                strides,
                dropped,
            },
            operands: vec![src],
            result_types: vec![rty],
        })
    }

    /// `tensor.insert_slice %src into %dest[offsets] [sizes] [strides] : T into
    /// T2`; the result has the destination's type.
    pub(super) fn insert_slice(&mut self, op: &str, line: usize) -> Result<Built> {
        let (src, src_at) = self.operand()?;
        if !self.c.eat_kw("into") {
            let found = self.c.found();
            return Err(self
                .c
                .error(self.c.pos, format!("expected `into`, found {found}")));
        }
        let (dest, dest_at) = self.operand()?;
        let (offsets, sizes, strides) = self.slice_params(op, line)?;
        self.c
            .expect(":", "before the types of tensor.insert_slice")?;
        let ty_at = self.c.pos;
        let sty = self.ty()?;
        self.check_type(src, &sty, src_at)?;
        if !self.c.eat_kw("into") {
            let found = self.c.found();
            return Err(self
                .c
                .error(self.c.pos, format!("expected `into`, found {found}")));
        }
        let dty = self.ty()?;
        self.check_type(dest, &dty, dest_at)?;
        let dropped = self.check_slice(ty_at, &dty, &sty, (&offsets, &sizes, &strides))?;
        Ok(Built {
            kind: OpKind::InsertSlice {
                offsets,
                sizes,
                strides,
                dropped,
            },
            operands: vec![src, dest],
            result_types: vec![dty],
        })
    }
}
