//! The program cloned on one hyperrectangle of the output (a tile, a partition):
//! the body of Algorithm 2's tile loops and each partition of Algorithm 1 (paper
//! Sec. 5.3).
//!
//! Idea: walking the producer chain of the output backwards, each operation's
//! result box gives the box of every operand it reads: a `linalg` op's loops
//! take the result box on the dims its output map names and their full range on
//! the others (the reductions), and each input's box is the interval image of the
//! loop box under its indexing map (`2·d2 + d5` over `d2 ∈ [a, b]`, `d5 ∈ [0, 4]`
//! gives `[2a, 2b + 4]`); a `tensor.pad`'s source box is its result box shifted
//! by the low padding and clipped to the source. A value read by several ops gets
//! the hull of their boxes. Walking forwards, each op is cloned on its box: its
//! operands are `tensor.extract_slice`s of the values computed for the box (or of
//! the live-ins and constants), its indexing maps lose their constant terms (the
//! slice offset absorbs them), and a `tensor.pad` whose box needs no clipping is
//! dropped (its source slice is the padded slice: Sec. 5.3, the interior tiles
//! read their slices straight from the unpadded input); otherwise the pad is kept,
//! with the amounts of padding this box reads.
//!
//! Loop order ([`super::EmitOptions::interchange`]): a cloned op with a long
//! reduction (at least `MIN_REDUCTION` = 32 iterations per element) may have the
//! output's last dimension (a parallel one) moved innermost. Each
//! element's reduction still runs in the original order (only a parallel loop
//! moves), so results stay bit-identical, and the innermost loop runs over
//! consecutive outputs, which LLVM vectorizes.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use super::Ctx;
use super::writer::{Em, Lin, tensor_type};
use crate::error::{Error, Result};
use crate::ir::{AffineExpr, Def, IteratorType, LinalgOp, OpKind, Type, ValueId};
use crate::shape::loop_ranges;

/// A box: per dimension its first index and its size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bx {
    pub lo: Vec<Lin>,
    pub size: Vec<Lin>,
}

/// What a `tensor.pad` becomes on one box.
#[derive(Debug, Clone)]
enum PadPlan {
    /// The box reads no padding: the source slice is the result.
    Dropped,
    /// Pad the source slice by these amounts.
    Kept { low: Vec<Lin>, high: Vec<Lin> },
}

/// The shortest reduction (product of the reduction loops' trip counts) for
/// which an op is cloned with its output's last loop innermost: a short one
/// (a 3x3 window) runs fastest as an unrolled scalar reduction in a register.
const MIN_REDUCTION: i64 = 32;

/// The linear form `(coefficients per dim, constant)` of an affine expression,
/// `None` when it is not linear.
pub(super) fn linear(e: &AffineExpr, n: usize) -> Option<(Vec<i64>, i64)> {
    match e {
        AffineExpr::Dim(d) => {
            let mut v = vec![0; n];
            *v.get_mut(*d)? = 1;
            Some((v, 0))
        }
        AffineExpr::Const(c) => Some((vec![0; n], *c)),
        AffineExpr::Add(a, b) => {
            let (x, c) = linear(a, n)?;
            let (y, d) = linear(b, n)?;
            Some((
                x.iter()
                    .zip(&y)
                    .map(|(p, q)| p.saturating_add(*q))
                    .collect(),
                c.saturating_add(d),
            ))
        }
        AffineExpr::Mul(a, b) => {
            let (x, c) = linear(a, n)?;
            let (y, d) = linear(b, n)?;
            if x.iter().all(|v| *v == 0) {
                Some((
                    y.iter().map(|v| v.saturating_mul(c)).collect(),
                    c.saturating_mul(d),
                ))
            } else if y.iter().all(|v| *v == 0) {
                Some((
                    x.iter().map(|v| v.saturating_mul(d)).collect(),
                    c.saturating_mul(d),
                ))
            } else {
                None
            }
        }
        _ => None,
    }
}

/// The tensor type of a value, or an error for a scalar.
fn elem_of(ctx: &Ctx, v: ValueId) -> Result<String> {
    match &ctx.p.value(v).ty {
        Type::Tensor(t) => Ok(t.elem.clone()),
        Type::Scalar(e) => Ok(e.clone()),
        Type::Index => Err(Error::Invalid(format!(
            "emit: %{} is an index, not a tensor",
            ctx.p.value(v).ssa
        ))),
    }
}

/// The hull of two boxes.
fn hull(em: &mut Em, a: &Bx, b: &Bx) -> Bx {
    let mut lo = Vec::new();
    let mut size = Vec::new();
    for k in 0..a.lo.len() {
        let l = em.min(&a.lo[k], &b.lo[k]);
        let h = em.max(&a.lo[k].add(&a.size[k]), &b.lo[k].add(&b.size[k]));
        size.push(h.sub(&l));
        lo.push(l);
    }
    Bx { lo, size }
}

/// Computes the output `out` on `bx` (a box of its domain) and returns the SSA
/// value of the result (of type `tensor_type(bx.size)`). `interior`: the box is an
/// interior tile of the model (it reads no padding), so a clipping the symbols'
/// ranges do not decide is known not to happen.
/// Also returns the boxes at which the arguments and constants are read.
///
/// `dest`: the tensor the result will be inserted into (SSA name and type); the
/// `tensor.empty` at the root of the output's chain of `outs` operands becomes
/// the slice of `dest` at `bx` (destination-passing style: the tile is computed
/// in place, with no copy when it is inserted).
pub fn emit_box(
    em: &mut Em,
    ctx: &Ctx,
    out: ValueId,
    bx: &Bx,
    interior: bool,
    dest: Option<(&str, &str)>,
) -> Result<(String, Vec<(ValueId, Bx)>)> {
    let p = ctx.p;
    let dest_empty = dest.and_then(|_| outs_root(ctx, out));
    let mut need: Vec<Option<Bx>> = vec![None; p.values.len()];
    need[out] = Some(bx.clone());
    // per op: the box each operand is read at (for linalg: per operand; for pad:
    // the source box) and the pad plans
    let mut reads: Vec<Vec<Option<Bx>>> = vec![Vec::new(); p.ops.len()];
    let mut pads: Vec<Option<PadPlan>> = vec![None; p.ops.len()];
    let mut leaves = Vec::new();
    for &i in ctx.chain.iter().rev() {
        let op = &p.ops[i];
        let Some(rbox) = op.results.first().and_then(|&r| need[r].clone()) else {
            continue;
        };
        let mut want: Vec<Option<Bx>> = vec![None; op.operands.len()];
        match &op.kind {
            OpKind::Linalg(l) => {
                let lb = loop_box(ctx, i, l, &rbox)?;
                for (k, map) in l.indexing_maps.iter().enumerate() {
                    let v = op.operands[k];
                    if p.value(v).ty.rank() == 0 {
                        continue;
                    }
                    let mut b = Bx {
                        lo: Vec::new(),
                        size: Vec::new(),
                    };
                    for e in &map.results {
                        let (co, c) = linear(e, map.n_dims).ok_or_else(|| {
                            unsupported(ctx, i, "an indexing map that is not linear")
                        })?;
                        let mut lo = Lin::k(c);
                        let mut last = Lin::k(c);
                        for (d, &k) in co.iter().enumerate() {
                            if k < 0 {
                                return Err(unsupported(
                                    ctx,
                                    i,
                                    "an indexing map with a negative coefficient",
                                ));
                            }
                            lo = lo.add_scaled(&lb.lo[d], k);
                            last = last.add_scaled(&lb.lo[d].add(&lb.size[d]).plus(-1), k);
                        }
                        b.size.push(last.sub(&lo).plus(1));
                        b.lo.push(lo);
                    }
                    want[k] = Some(b);
                }
            }
            OpKind::Pad { low, .. } => {
                let src = op.operands[0];
                let ssize = ctx.sizes(src)?;
                if low.len() != ssize.len() || rbox.lo.len() != ssize.len() {
                    return Err(unsupported(
                        ctx,
                        i,
                        "a pad whose amounts do not match its rank",
                    ));
                }
                let (mut lo, mut size, mut lows, mut highs) =
                    (Vec::new(), Vec::new(), Vec::new(), Vec::new());
                let mut dropped = true;
                for k in 0..ssize.len() {
                    let a = rbox.lo[k].plus(-low[k]);
                    let b = a.add(&rbox.size[k]);
                    let inside = matches!(em.le(&Lin::k(0), &a), Some(true))
                        && matches!(em.le(&b, &ssize[k]), Some(true));
                    let undecided =
                        em.le(&Lin::k(0), &a).is_none() || em.le(&b, &ssize[k]).is_none();
                    if inside || (interior && undecided) {
                        lo.push(a);
                        size.push(rbox.size[k].clone());
                        lows.push(Lin::k(0));
                        highs.push(Lin::k(0));
                        continue;
                    }
                    dropped = false;
                    // clip [a, b) to [0, S): first in [0, S], end in [first, S]
                    let z = em.max(&a, &Lin::k(0));
                    let first = em.min(&z, &ssize[k]);
                    let e = em.min(&b, &ssize[k]);
                    let end = em.max(&e, &first);
                    lows.push(first.sub(&a));
                    highs.push(b.sub(&end));
                    size.push(end.sub(&first));
                    lo.push(first);
                }
                want[0] = Some(Bx { lo, size });
                pads[i] = Some(if dropped {
                    PadPlan::Dropped
                } else {
                    PadPlan::Kept {
                        low: lows,
                        high: highs,
                    }
                });
            }
            OpKind::Empty | OpKind::Constant => {}
            _ => {
                return Err(unsupported(
                    ctx,
                    i,
                    "the emitter clones linalg ops, tensor.pad, tensor.empty and constants only",
                ));
            }
        }
        for (k, w) in want.iter().enumerate() {
            let Some(w) = w else { continue };
            let v = op.operands[k];
            if ctx.is_leaf(v) {
                leaves.push((v, w.clone()));
                continue;
            }
            need[v] = Some(match &need[v] {
                None => w.clone(),
                Some(h) => hull(em, h, w),
            });
        }
        reads[i] = want;
    }
    // forwards: clone each op on its box
    let mut have: Vec<Option<String>> = vec![None; p.values.len()];
    for &i in &ctx.chain {
        let op = &p.ops[i];
        let Some(&r) = op.results.first() else {
            continue;
        };
        let Some(rbox) = need[r].clone() else {
            continue;
        };
        let elem = elem_of(ctx, r)?;
        let rty = tensor_type(&rbox.size, &elem);
        let value = match &op.kind {
            OpKind::Empty if dest_empty == Some(r) && &rbox == bx => {
                let (acc, aty) = dest.unwrap_or_default();
                let lists = em.slice_lists(&bx.lo, &bx.size);
                let name = em.fresh();
                em.line(&format!(
                    "{name} = tensor.extract_slice {acc}{lists} : {aty} to {rty}"
                ));
                name
            }
            OpKind::Empty => em.empty(&rbox.size, &elem),
            OpKind::Pad { .. } => {
                let src = op.operands[0];
                let sbox = reads[i][0]
                    .clone()
                    .ok_or_else(|| unsupported(ctx, i, "a pad without a source box"))?;
                let nothing = sbox.size.iter().any(|z| z.as_const() == Some(0));
                let s = if nothing {
                    String::new()
                } else {
                    operand(em, ctx, &have, &need, src, &sbox)?
                };
                match &pads[i] {
                    // all padding: the pad value itself (MLIR refuses the subview
                    // of an empty slice at the end of a dimension)
                    Some(PadPlan::Kept { .. }) | None if nothing => {
                        let e = em.empty(&rbox.size, &elem);
                        let name = em.fresh();
                        em.line(&format!(
                            "{name} = linalg.fill ins(%{} : {elem}) outs({e} : {rty}) -> {rty}",
                            p.value(op.operands[1]).ssa
                        ));
                        name
                    }
                    Some(PadPlan::Kept { low, high }) => {
                        let name = em.fresh();
                        let low: Vec<String> = low.iter().map(|l| em.ofr(l)).collect();
                        let high: Vec<String> = high.iter().map(|l| em.ofr(l)).collect();
                        let pv = op.operands[1];
                        let args: Vec<String> = (0..low.len())
                            .map(|k| format!("{}: index", em.inner(&format!("i{k}"))))
                            .collect();
                        em.line(&format!(
                            "{name} = tensor.pad {s} low[{}] high[{}] {{",
                            low.join(", "),
                            high.join(", ")
                        ));
                        em.line(&format!("^bb0({}):", args.join(", ")));
                        em.line(&format!("  tensor.yield %{} : {elem}", p.value(pv).ssa));
                        em.line(&format!("}} : {} to {rty}", tensor_type(&sbox.size, &elem)));
                        name
                    }
                    _ => s,
                }
            }
            OpKind::Linalg(l) => clone_linalg(em, ctx, i, l, &reads[i], &have, &need, &rbox)?,
            _ => continue,
        };
        have[r] = Some(value);
    }
    let v = have[out]
        .clone()
        .ok_or_else(|| Error::Invalid("emit: the output is not computed by an operation".into()))?;
    Ok((v, leaves))
}

/// The `tensor.empty` reached from `out` through the `outs` operands of linalg
/// ops (the buffer the output is computed in), if any.
fn outs_root(ctx: &Ctx, out: ValueId) -> Option<ValueId> {
    let mut v = out;
    for _ in 0..ctx.p.ops.len() {
        let Def::Op { op, .. } = ctx.p.value(v).def else {
            return None;
        };
        match &ctx.p.ops[op].kind {
            OpKind::Empty => return Some(v),
            OpKind::Linalg(l) if l.n_outputs == 1 => v = *ctx.p.ops[op].operands.get(l.n_inputs)?,
            _ => return None,
        }
    }
    None
}

/// The loop box of linalg op `i` for result box `rbox`.
fn loop_box(ctx: &Ctx, i: usize, l: &LinalgOp, rbox: &Bx) -> Result<Bx> {
    let p = ctx.p;
    if l.n_outputs != 1 {
        return Err(unsupported(ctx, i, "linalg ops with several outputs"));
    }
    let ranges = loop_ranges(p, i, ctx.shapes)?;
    let omap = &l.indexing_maps[l.n_inputs];
    if omap.results.len() != rbox.lo.len() {
        return Err(unsupported(
            ctx,
            i,
            "a result whose rank differs from its outs operand's",
        ));
    }
    let mut lo = Vec::new();
    let mut size = Vec::new();
    for (d, r) in ranges.iter().enumerate() {
        match omap.results.iter().position(|e| e.is_dim(d)) {
            Some(pos) => {
                lo.push(rbox.lo[pos].clone());
                size.push(rbox.size[pos].clone());
            }
            None => {
                lo.push(Lin::k(0));
                size.push(ctx.size_lin(r)?);
            }
        }
    }
    if omap
        .results
        .iter()
        .any(|e| !matches!(e, AffineExpr::Dim(_)))
    {
        return Err(unsupported(
            ctx,
            i,
            "an output indexing map that is not a permutation of loops",
        ));
    }
    Ok(Bx { lo, size })
}

/// The SSA value of operand `v` read at `want`: the value computed for its box
/// (or the live-in / constant itself), sliced when `want` is smaller.
fn operand(
    em: &mut Em,
    ctx: &Ctx,
    have: &[Option<String>],
    need: &[Option<Bx>],
    v: ValueId,
    want: &Bx,
) -> Result<String> {
    let (src, sbox) = if ctx.is_leaf(v) {
        let sizes = ctx.sizes(v)?;
        (
            format!("%{}", ctx.p.value(v).ssa),
            Bx {
                lo: vec![Lin::k(0); sizes.len()],
                size: sizes,
            },
        )
    } else {
        match (&have[v], &need[v]) {
            (Some(h), Some(b)) => (h.clone(), b.clone()),
            _ => {
                return Err(Error::Invalid(format!(
                    "emit: %{} is used before it is computed",
                    ctx.p.value(v).ssa
                )));
            }
        }
    };
    if &sbox == want {
        return Ok(src);
    }
    let elem = elem_of(ctx, v)?;
    let rel: Vec<Lin> = want
        .lo
        .iter()
        .zip(&sbox.lo)
        .map(|(a, b)| a.sub(b))
        .collect();
    let lists = em.slice_lists(&rel, &want.size);
    let name = em.fresh();
    em.line(&format!(
        "{name} = tensor.extract_slice {src}{lists} : {} to {}",
        tensor_type(&sbox.size, &elem),
        tensor_type(&want.size, &elem)
    ));
    Ok(name)
}

/// Clones linalg op `i` on result box `rbox` as a `linalg.generic`.
#[allow(clippy::too_many_arguments)]
fn clone_linalg(
    em: &mut Em,
    ctx: &Ctx,
    i: usize,
    l: &LinalgOp,
    reads: &[Option<Bx>],
    have: &[Option<String>],
    need: &[Option<Bx>],
    rbox: &Bx,
) -> Result<String> {
    let p = ctx.p;
    let op = &p.ops[i];
    let n = l.n_inputs + l.n_outputs;
    let mut names = Vec::new();
    let mut types = Vec::new();
    for (&v, read) in op.operands.iter().zip(reads).take(n) {
        let elem = elem_of(ctx, v)?;
        match read {
            None => {
                names.push(format!("%{}", p.value(v).ssa));
                types.push(elem);
            }
            Some(b) => {
                names.push(operand(em, ctx, have, need, v, b)?);
                types.push(tensor_type(&b.size, &elem));
            }
        }
    }
    let body = match &l.body {
        Some(b) => b.clone(),
        None => named_body(ctx, i, em, &types)?,
    };
    // the loop order: the original's, or with the output's last dim innermost
    let n_loops = l.iterator_types.len();
    let mut order: Vec<usize> = (0..n_loops).collect();
    if ctx.interchange && !body.contains("linalg.index") {
        if let Some(AffineExpr::Dim(last)) = l.indexing_maps[l.n_inputs].results.last() {
            // the reduction's trip count (a symbolic range counts as long)
            let ranges = loop_ranges(ctx.p, i, ctx.shapes)?;
            let trips = l
                .iterator_types
                .iter()
                .zip(&ranges)
                .filter(|(t, _)| **t == IteratorType::Reduction)
                .map(|(_, r)| r.as_constant().unwrap_or(i64::MAX))
                .fold(1i64, i64::saturating_mul);
            if trips >= MIN_REDUCTION
                && l.iterator_types.get(*last) == Some(&IteratorType::Parallel)
            {
                order.retain(|d| d != last);
                order.push(*last);
            }
        }
    }
    let mut pos = vec![0; n_loops];
    for (k, &d) in order.iter().enumerate() {
        pos[d] = k;
    }
    let dims: Vec<String> = (0..n_loops).map(|d| format!("d{d}")).collect();
    let maps: Vec<String> = l
        .indexing_maps
        .iter()
        .map(|m| {
            let res: Vec<String> = m
                .results
                .iter()
                .map(|e| {
                    let (co, _) = linear(e, m.n_dims).unwrap_or_default();
                    let mut moved = vec![0; n_loops];
                    for (d, c) in co.iter().enumerate() {
                        if let Some(slot) = pos.get(d).and_then(|&q| moved.get_mut(q)) {
                            *slot = *c;
                        }
                    }
                    linear_text(&moved)
                })
                .collect();
            format!("affine_map<({}) -> ({})>", dims.join(", "), res.join(", "))
        })
        .collect();
    let iters: Vec<&str> = order
        .iter()
        .map(|&d| match l.iterator_types[d] {
            IteratorType::Parallel => "\"parallel\"",
            IteratorType::Reduction => "\"reduction\"",
        })
        .collect();
    let name = em.fresh();
    let rty = tensor_type(&rbox.size, &elem_of(ctx, op.results[0])?);
    em.line(&format!(
        "{name} = linalg.generic {{indexing_maps = [{}], iterator_types = [{}]}} ins({} : {}) outs({} : {}) {{",
        maps.join(", "),
        iters.join(", "),
        names[..l.n_inputs].join(", "),
        types[..l.n_inputs].join(", "),
        names[l.n_inputs..].join(", "),
        types[l.n_inputs..].join(", "),
    ));
    em.line(body.trim_matches('\n'));
    em.line(&format!("}} -> {rty}"));
    Ok(name)
}

/// `d0 * 2 + d4` from coefficients (the constant term is dropped: the operand's
/// slice starts at it).
fn linear_text(co: &[i64]) -> String {
    let mut s = String::new();
    for (d, &k) in co.iter().enumerate() {
        if k == 0 {
            continue;
        }
        if !s.is_empty() {
            s.push_str(" + ");
        }
        if k == 1 {
            let _ = write!(s, "d{d}");
        } else {
            let _ = write!(s, "d{d} * {k}");
        }
    }
    if s.is_empty() {
        s.push('0');
    }
    s
}

/// The body of a named op, written out (the generic form MLIR's named ops are
/// defined by): a copy for `fill`/`copy`/`transpose`/`broadcast`, multiply and
/// accumulate for the contractions and convolutions, one arith op for the binary
/// elementwise ops.
fn named_body(ctx: &Ctx, i: usize, em: &Em, types: &[String]) -> Result<String> {
    let op = &ctx.p.ops[i];
    let short = op.name.strip_prefix("linalg.").unwrap_or(&op.name);
    let elems: Vec<String> = types
        .iter()
        .map(|t| {
            t.rsplit(['x', '<'])
                .next()
                .unwrap_or(t)
                .trim_end_matches('>')
                .to_string()
        })
        .collect();
    let e = elems.last().cloned().unwrap_or_default();
    let float = e.starts_with('f') || e.starts_with("bf");
    let args: Vec<String> = elems
        .iter()
        .enumerate()
        .map(|(k, t)| format!("{}: {t}", em.inner(&format!("a{k}"))))
        .collect();
    let a = |k: usize| em.inner(&format!("a{k}"));
    let (m, s) = (em.inner("m"), em.inner("s"));
    let mut b = format!("^bb0({}):\n", args.join(", "));
    let arith = |f: &str, int: &str| {
        if float {
            f.to_string()
        } else {
            int.to_string()
        }
    };
    match short {
        "fill" | "copy" | "transpose" | "broadcast" => {
            let _ = writeln!(b, "  linalg.yield {} : {e}", a(0));
        }
        "matmul" | "batch_matmul" | "matvec" | "vecmat" | "dot" | "conv_2d_nchw_fchw"
        | "conv_2d_nhwc_hwcf" => {
            if elems.iter().any(|t| *t != e) {
                return Err(unsupported(ctx, i, "mixed element types"));
            }
            let _ = writeln!(
                b,
                "  {m} = arith.{} {}, {} : {e}",
                arith("mulf", "muli"),
                a(0),
                a(1)
            );
            let _ = writeln!(
                b,
                "  {s} = arith.{} {}, {m} : {e}",
                arith("addf", "addi"),
                a(2)
            );
            let _ = writeln!(b, "  linalg.yield {s} : {e}");
        }
        "add" | "sub" | "mul" | "div" | "max" | "min" => {
            let f = match short {
                "add" => arith("addf", "addi"),
                "sub" => arith("subf", "subi"),
                "mul" => arith("mulf", "muli"),
                "div" => arith("divf", "divsi"),
                "max" => arith("maximumf", "maxsi"),
                _ => arith("minimumf", "minsi"),
            };
            let _ = writeln!(b, "  {m} = arith.{f} {}, {} : {e}", a(0), a(1));
            let _ = writeln!(b, "  linalg.yield {m} : {e}");
        }
        _ => {
            return Err(unsupported(
                ctx,
                i,
                "the emitter does not know this named op's body; write it as linalg.generic",
            ));
        }
    }
    Ok(b)
}

fn unsupported(ctx: &Ctx, i: usize, what: &str) -> Error {
    let op = &ctx.p.ops[i];
    Error::Unsupported {
        op: op.name.clone(),
        line: op.line,
        message: format!("emit: {what}"),
    }
}

/// The ops the value `out` depends on, in textual order (its producer chain).
pub fn chain(p: &crate::ir::Program, out: ValueId) -> Vec<usize> {
    let mut ops = BTreeSet::new();
    let mut work = vec![out];
    let mut seen = vec![false; p.values.len()];
    while let Some(v) = work.pop() {
        if std::mem::replace(&mut seen[v], true) {
            continue;
        }
        if let Def::Op { op, .. } = p.value(v).def {
            if ops.insert(op) {
                work.extend(p.ops[op].operands.iter().copied());
            }
        }
    }
    ops.into_iter().collect()
}
