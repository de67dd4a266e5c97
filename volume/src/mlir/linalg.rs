//! `linalg.generic` and the named `linalg` ops, lowered to indexing maps and
//! iterator types as MLIR's `LinalgOp` interface defines them; and the scan of
//! region bodies for SSA names (block arguments, definitions, uses).

use std::collections::HashSet;

use super::attr::{self, Attr, as_iterator, dict_get};
use super::{Built, Parser, type_to_string};
use crate::error::Result;
use crate::ir::{AffineExpr, AffineMap, IteratorType, LinalgOp, OpKind, Type, ValueId};
use presburger_mlir_syntax::cursor::{Cursor, is_ssa_char};

use IteratorType::{Parallel as P, Reduction as R};

/// Elementwise named ops: identity maps on all operands, all loops parallel.
const ELEMENTWISE: &[&str] = &[
    "add",
    "sub",
    "mul",
    "div",
    "div_unsigned",
    "max",
    "min",
    "powf",
    "copy",
    "exp",
    "log",
    "abs",
    "ceil",
    "floor",
    "negf",
    "reciprocal",
    "round",
    "sqrt",
    "rsqrt",
    "square",
    "tanh",
    "erf",
    "select",
];

/// Named ops with their own lowering.
const NAMED: &[&str] = &[
    "matmul",
    "batch_matmul",
    "matvec",
    "vecmat",
    "dot",
    "conv_2d_nchw_fchw",
    "conv_2d_nhwc_hwcf",
    "depthwise_conv_2d_nhwc_hwc",
    "depthwise_conv_2d_nchw_chw",
    "pooling_nhwc_max",
    "pooling_nhwc_min",
    "pooling_nhwc_sum",
    "pooling_nchw_max",
    "pooling_nchw_sum",
    "fill",
    "transpose",
    "broadcast",
    "reduce",
    "map",
];

/// Whether `name` (with its `linalg.` prefix) is a named op the reader lowers.
pub(crate) fn is_named(name: &str) -> bool {
    let short = name.strip_prefix("linalg.").unwrap_or(name);
    NAMED.contains(&short) || ELEMENTWISE.contains(&short)
}

/// SSA names found in a region's text.
#[derive(Debug, Default)]
pub(super) struct RegionScan {
    /// Arguments of the first block label `^bb0(%a: t, ...)`, in order.
    pub args: Vec<String>,
    /// Names defined by ops in the region (`%x = ...`, `%r:2 = ...`).
    pub defs: HashSet<String>,
    /// Every other `%name` token with its byte offset, in order.
    pub uses: Vec<(String, usize)>,
}

impl RegionScan {
    /// Whether `name` (possibly `r#1`) is defined inside the region or is a block
    /// argument of it.
    pub fn defines(&self, name: &str) -> bool {
        let base = name.split('#').next().unwrap_or(name);
        self.defs.contains(base) || self.args.iter().any(|a| a == base) || self.defs.contains(name)
    }
}

/// Scans the text `src[start..end]` for SSA names, iteratively: the arguments of
/// block labels `^bbN(...)` (the first label's are kept as `args`), definitions
/// (a run of `%a, %b` or `%r:2` followed by `=`) and uses (every other `%name`,
/// including uses of block arguments and of names defined in the region; use
/// [`RegionScan::defines`] to tell captured values apart).
/// String literals and `//` comments are skipped.
pub(super) fn scan_region(c: &Cursor, start: usize, end: usize) -> RegionScan {
    let src = c.src.as_bytes();
    let end = end.min(src.len());
    let mut scan = RegionScan::default();
    let mut seen_label = false;
    let mut pending: Vec<(String, usize)> = Vec::new();
    let mut i = start;
    let name_at = |i: usize| -> (String, usize) {
        let mut j = i + 1;
        while j < end && src.get(j).copied().is_some_and(is_ssa_char) {
            j += 1;
        }
        if src.get(j) == Some(&b'#') && src.get(j + 1).is_some_and(|b| b.is_ascii_digit()) {
            j += 1;
            while j < end && src.get(j).is_some_and(|b| b.is_ascii_digit()) {
                j += 1;
            }
        }
        (c.src.get(i + 1..j).unwrap_or("").to_string(), j)
    };
    while i < end {
        let Some(&b) = src.get(i) else { break };
        match b {
            b'"' => {
                i += 1;
                while i < end {
                    match src.get(i) {
                        Some(b'\\') => i += 2,
                        Some(b'"') => {
                            i += 1;
                            break;
                        }
                        _ => i += 1,
                    }
                }
            }
            b'/' if src.get(i + 1) == Some(&b'/') => {
                while i < end && src.get(i) != Some(&b'\n') {
                    i += 1;
                }
            }
            b'^' => {
                i += 1;
                while i < end && src.get(i).copied().is_some_and(is_ssa_char) {
                    i += 1;
                }
                if src.get(i) == Some(&b'(') {
                    let mut depth = 0usize;
                    while i < end {
                        match src.get(i) {
                            Some(b'(') => depth += 1,
                            Some(b')') => {
                                depth = depth.saturating_sub(1);
                                if depth == 0 {
                                    i += 1;
                                    break;
                                }
                            }
                            Some(b'%') => {
                                let (n, j) = name_at(i);
                                if !seen_label {
                                    scan.args.push(n.clone());
                                }
                                scan.defs.insert(n);
                                i = j;
                                continue;
                            }
                            _ => {}
                        }
                        i += 1;
                    }
                }
                seen_label = true;
            }
            b'%' => {
                let (n, mut j) = name_at(i);
                if n.is_empty() {
                    i += 1;
                    continue;
                }
                if src.get(j) == Some(&b':') && src.get(j + 1).is_some_and(|b| b.is_ascii_digit()) {
                    j += 1;
                    while src.get(j).is_some_and(|b| b.is_ascii_digit()) {
                        j += 1;
                    }
                }
                let mut k = j;
                while src.get(k).is_some_and(|b| *b == b' ' || *b == b'\t') {
                    k += 1;
                }
                if src.get(k) == Some(&b'=') && src.get(k + 1) != Some(&b'=') {
                    for (p, _) in pending.drain(..) {
                        scan.defs.insert(p);
                    }
                    scan.defs.insert(n);
                } else if src.get(k) == Some(&b',') {
                    pending.push((n, i));
                } else {
                    scan.uses.append(&mut pending);
                    scan.uses.push((n, i));
                }
                i = j;
            }
            _ => i += 1,
        }
    }
    scan.uses.append(&mut pending);
    scan
}

/// Indexing maps, iterator types and `reads_output` of a lowered named op.
type Lowered = (Vec<AffineMap>, Vec<IteratorType>, Vec<bool>);

/// Operands and types of `ins(...)` then `outs(...)`.
type InsOuts = (Vec<ValueId>, Vec<Type>, Vec<ValueId>, Vec<Type>);

/// `d_i * k`, or `d_i` if `k` is 1.
fn scaled(d: usize, k: i64) -> AffineExpr {
    if k == 1 {
        AffineExpr::Dim(d)
    } else {
        AffineExpr::Mul(Box::new(AffineExpr::Dim(d)), Box::new(AffineExpr::Const(k)))
    }
}

/// `d_o * stride + d_k * dilation` (a convolution's input index).
fn window(o: usize, stride: i64, k: usize, dilation: i64) -> AffineExpr {
    AffineExpr::Add(Box::new(scaled(o, stride)), Box::new(scaled(k, dilation)))
}

/// The indexing maps, iterator types and `reads_output` of a named op given its
/// operand types and attributes (`strides`, `dilations`, `permutation`,
/// `dimensions`), following the definitions of MLIR's Linalg named ops
/// (`LinalgNamedStructuredOps.yaml` and the hand-written `TransposeOp`,
/// `BroadcastOp`, `ReduceOp`, `MapOp`). Returns an error message on operand
/// counts, ranks or attributes that do not fit.
fn lower_named(
    short: &str,
    ins: &[Type],
    outs: &[Type],
    extra: &NamedAttrs,
) -> std::result::Result<Lowered, String> {
    let ranks: Vec<usize> = ins.iter().chain(outs).map(Type::rank).collect();
    let need = |n_in: usize, n_out: usize, want: &[usize]| -> std::result::Result<(), String> {
        if ins.len() != n_in || outs.len() != n_out {
            return Err(format!(
                "linalg.{short} takes {n_in} ins and {n_out} outs, not {} and {}",
                ins.len(),
                outs.len()
            ));
        }
        if ranks != want {
            return Err(format!(
                "linalg.{short} needs operands of ranks {want:?}, not {ranks:?}"
            ));
        }
        Ok(())
    };
    let sel = AffineMap::select;
    match short {
        "matmul" => {
            need(2, 1, &[2, 2, 2])?;
            Ok((
                vec![sel(3, &[0, 2]), sel(3, &[2, 1]), sel(3, &[0, 1])],
                vec![P, P, R],
                vec![true],
            ))
        }
        "batch_matmul" => {
            need(2, 1, &[3, 3, 3])?;
            Ok((
                vec![sel(4, &[0, 1, 3]), sel(4, &[0, 3, 2]), sel(4, &[0, 1, 2])],
                vec![P, P, P, R],
                vec![true],
            ))
        }
        "matvec" => {
            need(2, 1, &[2, 1, 1])?;
            Ok((
                vec![sel(2, &[0, 1]), sel(2, &[1]), sel(2, &[0])],
                vec![P, R],
                vec![true],
            ))
        }
        "vecmat" => {
            need(2, 1, &[1, 2, 1])?;
            Ok((
                vec![sel(2, &[1]), sel(2, &[1, 0]), sel(2, &[0])],
                vec![P, R],
                vec![true],
            ))
        }
        "dot" => {
            need(2, 1, &[1, 1, 0])?;
            Ok((
                vec![sel(1, &[0]), sel(1, &[0]), sel(1, &[])],
                vec![R],
                vec![true],
            ))
        }
        "conv_2d_nchw_fchw" | "conv_2d_nhwc_hwcf" => {
            need(2, 1, &[4, 4, 4])?;
            let (sh, sw) = extra.pair("strides")?;
            let (dh, dw) = extra.pair("dilations")?;
            let its = vec![P, P, P, P, R, R, R];
            let maps = if short == "conv_2d_nchw_fchw" {
                // Loops (n, f, oh, ow, c, kh, kw).
                vec![
                    AffineMap {
                        n_dims: 7,
                        n_symbols: 0,
                        results: vec![
                            AffineExpr::Dim(0),
                            AffineExpr::Dim(4),
                            window(2, sh, 5, dh),
                            window(3, sw, 6, dw),
                        ],
                    },
                    sel(7, &[1, 4, 5, 6]),
                    sel(7, &[0, 1, 2, 3]),
                ]
            } else {
                // Loops (n, oh, ow, f, kh, kw, c).
                vec![
                    AffineMap {
                        n_dims: 7,
                        n_symbols: 0,
                        results: vec![
                            AffineExpr::Dim(0),
                            window(1, sh, 4, dh),
                            window(2, sw, 5, dw),
                            AffineExpr::Dim(6),
                        ],
                    },
                    sel(7, &[4, 5, 6, 3]),
                    sel(7, &[0, 1, 2, 3]),
                ]
            };
            Ok((maps, its, vec![true]))
        }
        "depthwise_conv_2d_nhwc_hwc"
        | "depthwise_conv_2d_nchw_chw"
        | "pooling_nhwc_max"
        | "pooling_nhwc_min"
        | "pooling_nhwc_sum"
        | "pooling_nchw_max"
        | "pooling_nchw_sum" => {
            // Six loops; the window (kernel or shape-only pooling window) is
            // read at (kh, kw) = (d4, d5).
            let depthwise = short.starts_with("depthwise");
            need(2, 1, &[4, if depthwise { 3 } else { 2 }, 4])?;
            let (sh, sw) = extra.pair("strides")?;
            let (dh, dw) = extra.pair("dilations")?;
            let map = |results| AffineMap {
                n_dims: 6,
                n_symbols: 0,
                results,
            };
            let d = AffineExpr::Dim;
            let maps = match short {
                // Loops (n, oh, ow, c, kh, kw).
                "depthwise_conv_2d_nhwc_hwc"
                | "pooling_nhwc_max"
                | "pooling_nhwc_min"
                | "pooling_nhwc_sum" => vec![
                    map(vec![d(0), window(1, sh, 4, dh), window(2, sw, 5, dw), d(3)]),
                    if depthwise {
                        sel(6, &[4, 5, 3])
                    } else {
                        sel(6, &[4, 5])
                    },
                    sel(6, &[0, 1, 2, 3]),
                ],
                // Loops (n, oh, ow, c, kh, kw), channels second in the tensors.
                "depthwise_conv_2d_nchw_chw" => vec![
                    map(vec![d(0), d(3), window(1, sh, 4, dh), window(2, sw, 5, dw)]),
                    sel(6, &[3, 4, 5]),
                    sel(6, &[0, 3, 1, 2]),
                ],
                // Loops (n, c, oh, ow, kh, kw).
                _ => vec![
                    map(vec![d(0), d(1), window(2, sh, 4, dh), window(3, sw, 5, dw)]),
                    sel(6, &[4, 5]),
                    sel(6, &[0, 1, 2, 3]),
                ],
            };
            Ok((maps, vec![P, P, P, P, R, R], vec![true]))
        }
        "fill" => {
            let r = outs.first().map(Type::rank).unwrap_or(0);
            need(1, 1, &[0, r])?;
            Ok((
                vec![sel(r, &[]), AffineMap::identity(r)],
                vec![P; r],
                vec![false],
            ))
        }
        "transpose" => {
            let r = outs.first().map(Type::rank).unwrap_or(0);
            need(1, 1, &[r, r])?;
            let perm = extra.list("permutation")?;
            let mut inv = vec![usize::MAX; r];
            if perm.len() != r {
                return Err(format!("permutation {perm:?} must have {r} entries"));
            }
            for (i, &p) in perm.iter().enumerate() {
                match usize::try_from(p).ok().and_then(|p| inv.get_mut(p)) {
                    Some(slot) if *slot == usize::MAX => *slot = i,
                    _ => return Err(format!("{perm:?} is not a permutation of 0..{r}")),
                }
            }
            Ok((
                vec![sel(r, &inv), AffineMap::identity(r)],
                vec![P; r],
                vec![false],
            ))
        }
        "broadcast" => {
            let r = outs.first().map(Type::rank).unwrap_or(0);
            let dims = extra.dim_set("dimensions", r)?;
            let kept: Vec<usize> = (0..r).filter(|d| !dims.contains(d)).collect();
            need(1, 1, &[kept.len(), r])?;
            Ok((
                vec![sel(r, &kept), AffineMap::identity(r)],
                vec![P; r],
                vec![false],
            ))
        }
        "reduce" => {
            let r = ins.first().map(Type::rank).unwrap_or(0);
            let dims = extra.dim_set("dimensions", r)?;
            let kept: Vec<usize> = (0..r).filter(|d| !dims.contains(d)).collect();
            if ins.is_empty() || ins.len() != outs.len() {
                return Err("linalg.reduce takes as many ins as outs (at least one)".to_string());
            }
            let mut want = vec![r; ins.len()];
            want.extend(std::iter::repeat_n(kept.len(), outs.len()));
            if ranks != want {
                return Err(format!(
                    "linalg.reduce over dimensions {dims:?} needs operands of ranks {want:?}, not {ranks:?}"
                ));
            }
            let mut maps = vec![AffineMap::identity(r); ins.len()];
            maps.extend(std::iter::repeat_n(sel(r, &kept), outs.len()));
            let its = (0..r)
                .map(|d| if dims.contains(&d) { R } else { P })
                .collect();
            Ok((maps, its, vec![true; outs.len()]))
        }
        _ => {
            // map and the elementwise ops: identity maps of the output's rank.
            let r = outs.first().map(Type::rank).unwrap_or(0);
            if outs.len() != 1 || ranks.iter().any(|&k| k != r) {
                return Err(format!(
                    "linalg.{short} needs one outs operand and all operands of the same rank, not ranks {ranks:?}"
                ));
            }
            Ok((
                vec![AffineMap::identity(r); ranks.len()],
                vec![P; r],
                vec![false],
            ))
        }
    }
}

/// Attributes of a named op: the leading dictionary and `name = [..]` entries.
#[derive(Default)]
struct NamedAttrs {
    entries: Vec<(String, Attr)>,
}

impl NamedAttrs {
    /// The integers of attribute `key` (`[1, 0]`, `array<i64: ..>`, `dense<..>`).
    fn ints(&self, key: &str) -> Option<std::result::Result<Vec<i64>, String>> {
        let a = dict_get(&self.entries, key)?;
        Some(match a {
            Attr::Dense(Some(v)) => Ok(v.clone()),
            Attr::Array(items) => items
                .iter()
                .map(|x| match x {
                    Attr::Int(i) => Ok(*i),
                    _ => Err(format!("`{key}` must list integers")),
                })
                .collect(),
            _ => Err(format!("`{key}` must be dense<...> or a list of integers")),
        })
    }

    /// A two-entry attribute (`strides`, `dilations`); a splat `dense<k>` counts
    /// twice; defaults to `(1, 1)`; entries must be positive.
    fn pair(&self, key: &str) -> std::result::Result<(i64, i64), String> {
        let v = match self.ints(key) {
            None => return Ok((1, 1)),
            Some(v) => v?,
        };
        let (a, b) = match v.as_slice() {
            [a] => (*a, *a),
            [a, b] => (*a, *b),
            _ => return Err(format!("`{key}` must have 2 entries, not {}", v.len())),
        };
        if a < 1 || b < 1 {
            return Err(format!("`{key}` must be positive"));
        }
        Ok((a, b))
    }

    /// A required integer list.
    fn list(&self, key: &str) -> std::result::Result<Vec<i64>, String> {
        self.ints(key)
            .unwrap_or_else(|| Err(format!("missing `{key} = [...]`")))
    }

    /// A required list of distinct dimensions below `rank`.
    fn dim_set(&self, key: &str, rank: usize) -> std::result::Result<Vec<usize>, String> {
        let v = self.list(key)?;
        let mut out: Vec<usize> = Vec::new();
        for x in v {
            match usize::try_from(x) {
                Ok(d) if d < rank && !out.contains(&d) => out.push(d),
                _ => {
                    return Err(format!(
                        "`{key}`: {x} is not a distinct dimension below {rank}"
                    ));
                }
            }
        }
        Ok(out)
    }
}

/// Checks the maps of a linalg op against its operands: one map per operand,
/// each over the loops, with one result per operand dimension; loop sizes
/// implied by plain `d_i` results must agree; results that are sums of
/// non-negative multiples of loops plus a constant must stay inside their static
/// dimension. Returns an error message.
fn verify(lin: &LinalgOp, types: &[Type]) -> std::result::Result<(), String> {
    let n_loops = lin.iterator_types.len();
    if lin.indexing_maps.len() != types.len() {
        return Err(format!(
            "{} indexing maps for {} ins/outs operands",
            lin.indexing_maps.len(),
            types.len()
        ));
    }
    let mut size: Vec<Option<(i64, usize, usize)>> = vec![None; n_loops];
    for (k, (m, t)) in lin.indexing_maps.iter().zip(types).enumerate() {
        if m.n_dims != n_loops {
            return Err(format!(
                "indexing map {k} has {} dims but there are {n_loops} iterator types",
                m.n_dims
            ));
        }
        if m.n_symbols != 0 {
            return Err(format!(
                "indexing map {k} has symbols, which are not modelled"
            ));
        }
        if m.results.len() != t.rank() {
            return Err(format!(
                "indexing map {k} has {} results but operand {k} ({}) has rank {}",
                m.results.len(),
                type_to_string(t),
                t.rank()
            ));
        }
        let Type::Tensor(tt) = t else { continue };
        for (i, (e, d)) in m.results.iter().zip(&tt.dims).enumerate() {
            if let (AffineExpr::Dim(l), Some(d)) = (e, d) {
                match size.get(*l).copied().flatten() {
                    Some((s, k0, i0)) if s != *d => {
                        return Err(format!(
                            "loop d{l} has size {s} from operand {k0} (dim {i0}) but {d} from operand {k} (dim {i})"
                        ));
                    }
                    Some(_) => {}
                    None => {
                        if let Some(slot) = size.get_mut(*l) {
                            *slot = Some((*d, k, i));
                        }
                    }
                }
            }
        }
    }
    let sizes: Vec<Option<i64>> = size.iter().map(|s| s.map(|x| x.0)).collect();
    for (k, (m, t)) in lin.indexing_maps.iter().zip(types).enumerate() {
        let Type::Tensor(tt) = t else { continue };
        for (i, (e, d)) in m.results.iter().zip(&tt.dims).enumerate() {
            if let (Some(max), Some(d)) = (max_index(e, &sizes, 0), d) {
                if max >= i128::from(*d) {
                    return Err(format!(
                        "operand {k} ({}) is read at index {max} in dimension {i}, past its size {d}",
                        type_to_string(t)
                    ));
                }
            }
        }
    }
    Ok(())
}

/// The largest value of `e` over loops `0 <= d_l < sizes[l]` when `e` is a sum of
/// non-negative multiples of loops and constants; `None` otherwise.
fn max_index(e: &AffineExpr, sizes: &[Option<i64>], depth: usize) -> Option<i128> {
    if depth > 300 {
        return None;
    }
    match e {
        AffineExpr::Dim(l) => sizes.get(*l).copied().flatten().map(|s| i128::from(s) - 1),
        AffineExpr::Const(c) => Some(i128::from(*c)),
        AffineExpr::Add(a, b) => {
            max_index(a, sizes, depth + 1)?.checked_add(max_index(b, sizes, depth + 1)?)
        }
        AffineExpr::Mul(a, b) => match (a.as_ref(), b.as_ref()) {
            (x, AffineExpr::Const(c)) | (AffineExpr::Const(c), x) if *c >= 0 => {
                Some(max_index(x, sizes, depth + 1)?.checked_mul(i128::from(*c))?)
            }
            _ => None,
        },
        _ => None,
    }
}

/// The `indexing_maps` and `iterator_types` of a `linalg.generic` trait
/// dictionary; an error message if either is missing or malformed.
pub(crate) fn generic_traits(
    entries: &[(String, Attr)],
) -> std::result::Result<(Vec<AffineMap>, Vec<IteratorType>), String> {
    let maps = match dict_get(entries, "indexing_maps") {
        Some(Attr::Array(items)) => items
            .iter()
            .map(|a| match a {
                Attr::Map(m) => Ok(m.clone()),
                _ => Err("indexing_maps must list affine maps".to_string()),
            })
            .collect::<std::result::Result<Vec<_>, _>>()?,
        _ => return Err("linalg.generic needs `indexing_maps = [...]`".to_string()),
    };
    let iters = match dict_get(entries, "iterator_types") {
        Some(Attr::Array(items)) => items
            .iter()
            .map(|a| {
                as_iterator(a).ok_or_else(|| {
                    "iterator_types must list \"parallel\" or \"reduction\"".to_string()
                })
            })
            .collect::<std::result::Result<Vec<_>, _>>()?,
        _ => return Err("linalg.generic needs `iterator_types = [...]`".to_string()),
    };
    Ok((maps, iters))
}

/// The indexing maps and iterator types of the named op `linalg.<short>` on
/// operands of the given types, with its attributes (`strides`, `dilations`,
/// `permutation`, `dimensions`) as read by [`attr::parse_attr`]: the lowering
/// of [`lower_named`], for readers other than this one (the interpreter).
pub(crate) fn lower_named_op(
    short: &str,
    ins: &[Type],
    outs: &[Type],
    attrs: Vec<(String, Attr)>,
) -> std::result::Result<(Vec<AffineMap>, Vec<IteratorType>), String> {
    let (maps, iters, _) = lower_named(short, ins, outs, &NamedAttrs { entries: attrs })?;
    Ok((maps, iters))
}

impl Parser<'_> {
    /// `ins(%a, %b : t1, t2)` (or `outs(...)`): operands and their types, checked.
    fn operand_group(&mut self, kw: &str) -> Result<(Vec<ValueId>, Vec<Type>)> {
        self.c.expect("(", &format!("after `{kw}`"))?;
        let mut vals: Vec<(ValueId, usize)> = Vec::new();
        let mut tys = Vec::new();
        if self.c.eat(")") {
            return Ok((Vec::new(), tys));
        }
        loop {
            vals.push(self.operand()?);
            if !self.c.eat(",") {
                break;
            }
        }
        self.c
            .expect(":", &format!("before the types in `{kw}(...)`"))?;
        let tys_at = self.c.pos;
        loop {
            tys.push(self.ty()?);
            if !self.c.eat(",") {
                break;
            }
        }
        if tys.len() != vals.len() {
            return Err(self.c.error(
                tys_at,
                format!(
                    "{kw}(...) has {} operands but {} types",
                    vals.len(),
                    tys.len()
                ),
            ));
        }
        for ((v, at), t) in vals.iter().zip(&tys) {
            self.check_type(*v, t, *at)?;
        }
        self.c.expect(")", &format!("to close `{kw}(`"))?;
        Ok((vals.into_iter().map(|(v, _)| v).collect(), tys))
    }

    /// `ins(...)? outs(...)`.
    fn ins_outs(&mut self) -> Result<InsOuts> {
        let (ins, in_tys) = if self.c.eat_kw("ins") {
            self.operand_group("ins")?
        } else {
            (Vec::new(), Vec::new())
        };
        if !self.c.eat_kw("outs") {
            let found = self.c.found();
            return Err(self
                .c
                .error(self.c.pos, format!("expected `outs(...)`, found {found}")));
        }
        let (outs, out_tys) = self.operand_group("outs")?;
        Ok((ins, in_tys, outs, out_tys))
    }

    /// The results of a linalg op: the tensor `outs` types; an explicit
    /// `-> types` must agree with them.
    fn linalg_results(&mut self, out_tys: &[Type]) -> Result<Vec<Type>> {
        let implied: Vec<Type> = out_tys
            .iter()
            .filter(|t| matches!(t, Type::Tensor(_)))
            .cloned()
            .collect();
        self.c.skip_ws();
        let at = self.c.pos;
        if self.c.eat("->") {
            let tys = self.type_list()?;
            if tys != implied {
                let show = |v: &[Type]| v.iter().map(type_to_string).collect::<Vec<_>>().join(", ");
                return Err(self.c.error(
                    at,
                    format!(
                        "result types ({}) must be the outs types ({})",
                        show(&tys),
                        show(&implied)
                    ),
                ));
            }
        }
        Ok(implied)
    }

    /// Analyses a body region `src[s..e]` whose block arguments are `args` (or
    /// the first `^bb0(...)` label's if `args` is `None`): checks the argument
    /// count against `n_args` (when given), finds which `outs` arguments are read
    /// and resolves captured values (names neither defined in the body nor block
    /// arguments) in the enclosing scope, without duplicates.
    fn body_region(
        &self,
        (s, e): (usize, usize),
        args: Option<Vec<String>>,
        n_ins: usize,
        n_args: Option<(usize, usize)>,
    ) -> Result<(Vec<bool>, Vec<ValueId>)> {
        let mut scan = scan_region(&self.c, s, e);
        if let Some(a) = args {
            scan.args = a;
        }
        let n_outs_args = scan.args.len().saturating_sub(n_ins);
        if let Some((lo, hi)) = n_args {
            if scan.args.len() < lo || scan.args.len() > hi {
                let want = if lo == hi {
                    lo.to_string()
                } else {
                    format!("{lo} or {hi}")
                };
                return Err(self.c.error(
                    s,
                    format!(
                        "the body has {} block arguments but the op needs {want} (one per ins/outs operand)",
                        scan.args.len()
                    ),
                ));
            }
        }
        let mut reads = vec![false; n_outs_args];
        for (j, r) in reads.iter_mut().enumerate() {
            if let Some(a) = scan.args.get(n_ins + j) {
                *r = scan.uses.iter().any(|(u, _)| u == a);
            }
        }
        let mut captured = Vec::new();
        for (u, at) in &scan.uses {
            if scan.defines(u) {
                continue;
            }
            let v = self.lookup(u, *at)?;
            if !captured.contains(&v) {
                captured.push(v);
            }
        }
        Ok((reads, captured))
    }

    /// `linalg.generic {trait} | #alias ins(...) outs(...) attrs = {...}? {
    /// body } -> types`.
    pub(super) fn generic(&mut self, name_at: usize) -> Result<Built> {
        self.c.skip_ws();
        let trait_at = self.c.pos;
        let traits = attr::parse_attr(&mut self.c, &self.aliases, 0)?;
        let Attr::Dict(entries) = traits else {
            return Err(self.c.error(
                trait_at,
                "linalg.generic needs a trait dictionary {indexing_maps = [...], iterator_types = [...]}",
            ));
        };
        let (maps, iters) =
            generic_traits(&entries).map_err(|m| self.c.syntax_error(trait_at, m))?;
        let (ins, in_tys, outs, out_tys) = self.ins_outs()?;
        if self.c.eat_kw("attrs") {
            self.c.expect("=", "after `attrs`")?;
            attr::parse_dict(&mut self.c, &self.aliases, 0)?;
        }
        self.c.skip_ws();
        let (s, e) = self.c.skip_balanced(b'{', b'}')?;
        let n = ins.len() + outs.len();
        let (reads, captured) = self.body_region((s, e), None, ins.len(), Some((n, n)))?;
        let result_types = self.linalg_results(&out_tys)?;
        let lin = LinalgOp {
            n_inputs: ins.len(),
            n_outputs: outs.len(),
            indexing_maps: maps,
            iterator_types: iters,
            reads_output: reads,
            body: Some(self.c.src.get(s..e).unwrap_or("").trim().to_string()),
        };
        self.finish_linalg(
            name_at,
            lin,
            ins,
            outs,
            captured,
            &in_tys,
            &out_tys,
            result_types,
        )
    }

    /// Verifies a linalg op and assembles its operands (ins, outs, captured).
    #[allow(clippy::too_many_arguments)]
    fn finish_linalg(
        &self,
        name_at: usize,
        lin: LinalgOp,
        ins: Vec<ValueId>,
        outs: Vec<ValueId>,
        captured: Vec<ValueId>,
        in_tys: &[Type],
        out_tys: &[Type],
        result_types: Vec<Type>,
    ) -> Result<Built> {
        let types: Vec<Type> = in_tys.iter().chain(out_tys).cloned().collect();
        verify(&lin, &types).map_err(|m| self.c.syntax_error(name_at, m))?;
        let mut operands = ins;
        operands.extend(outs);
        operands.extend(captured);
        Ok(Built {
            kind: OpKind::Linalg(lin),
            operands,
            result_types,
        })
    }

    /// A named linalg op: optional `{attrs}` (or, for `map`/`reduce`, a short
    /// body `{ arith.addf }`), optional `indexing_maps = [...]`, `ins(...)
    /// outs(...)`, `permutation`/`dimensions = [...]`, an optional region
    /// `(%a: t, ...) { ... }` (`map`, `reduce`) and optional `-> types`; lowered
    /// by [`lower_named`] (explicit `indexing_maps` replace the default maps).
    pub(super) fn named(&mut self, name: &str, name_at: usize) -> Result<Built> {
        let short = name.strip_prefix("linalg.").unwrap_or(name).to_string();
        let with_region = short == "map" || short == "reduce";
        let mut extra = NamedAttrs::default();
        let mut short_body: Option<(usize, usize)> = None;
        let mut explicit_maps: Option<(Vec<AffineMap>, usize)> = None;
        loop {
            self.c.skip_ws();
            let at = self.c.pos;
            if self.c.peek("{") {
                if with_region {
                    short_body = Some(self.c.skip_balanced(b'{', b'}')?);
                } else {
                    extra
                        .entries
                        .extend(attr::parse_dict(&mut self.c, &self.aliases, 0)?);
                }
            } else if self.c.eat_kw("indexing_maps") {
                self.c.expect("=", "after `indexing_maps`")?;
                let a = attr::parse_attr(&mut self.c, &self.aliases, 0)?;
                let maps = match a {
                    Attr::Array(items) => items
                        .into_iter()
                        .map(|x| match x {
                            Attr::Map(m) => Ok(m),
                            _ => Err(self.c.error(at, "indexing_maps must list affine maps")),
                        })
                        .collect::<Result<Vec<_>>>()?,
                    _ => return Err(self.c.error(at, "indexing_maps must be a list")),
                };
                explicit_maps = Some((maps, at));
            } else {
                break;
            }
        }
        let (ins, in_tys, outs, out_tys) = self.ins_outs()?;
        for key in ["permutation", "dimensions"] {
            if self.c.eat_kw(key) {
                self.c.expect("=", &format!("after `{key}`"))?;
                let a = attr::parse_attr(&mut self.c, &self.aliases, 0)?;
                extra.entries.push((key.to_string(), a));
            }
        }
        if !with_region && self.c.peek("{") {
            extra
                .entries
                .extend(attr::parse_dict(&mut self.c, &self.aliases, 0)?);
        }
        let (mut maps, iters, mut reads) = lower_named(&short, &in_tys, &out_tys, &extra)
            .map_err(|m| self.c.syntax_error(name_at, m))?;
        if let Some((m, at)) = explicit_maps {
            if m.len() != maps.len() {
                return Err(self.c.error(
                    at,
                    format!("{name} needs {} indexing maps, not {}", maps.len(), m.len()),
                ));
            }
            maps = m;
        }
        let mut captured = Vec::new();
        let mut body = None;
        if with_region && short_body.is_none() {
            // `(%in: f32, %init: f32) { ... }`
            self.c
                .expect("(", &format!("to open the block arguments of {name}"))?;
            let mut args = Vec::new();
            if !self.c.eat(")") {
                loop {
                    let Some((a, _)) = self.c.ssa() else {
                        let found = self.c.found();
                        return Err(self.c.error(
                            self.c.pos,
                            format!("expected a block argument, found {found}"),
                        ));
                    };
                    args.push(a.to_string());
                    self.c.expect(":", "after the block argument")?;
                    self.ty()?;
                    if self.c.eat(",") {
                        continue;
                    }
                    self.c.expect(")", "to close the block arguments")?;
                    break;
                }
            }
            self.c.skip_ws();
            let (s, e) = self.c.skip_balanced(b'{', b'}')?;
            let n = ins.len() + outs.len();
            let range = if short == "map" {
                (ins.len(), n)
            } else {
                (n, n)
            };
            let (r, cap) = self.body_region((s, e), Some(args), ins.len(), Some(range))?;
            if short == "map" {
                reads = vec![r.first().copied().unwrap_or(false)];
            }
            captured = cap;
            body = Some(self.c.src.get(s..e).unwrap_or("").trim().to_string());
        } else if let Some((s, e)) = short_body {
            body = Some(self.c.src.get(s..e).unwrap_or("").trim().to_string());
        }
        let result_types = self.linalg_results(&out_tys)?;
        let lin = LinalgOp {
            n_inputs: ins.len(),
            n_outputs: outs.len(),
            indexing_maps: maps,
            iterator_types: iters,
            reads_output: reads,
            body,
        };
        self.finish_linalg(
            name_at,
            lin,
            ins,
            outs,
            captured,
            &in_tys,
            &out_tys,
            result_types,
        )
    }
}
