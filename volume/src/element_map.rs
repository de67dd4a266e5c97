//! Volume element maps of single operations (paper Def. 4.11, Sec. 4.2, App. A.2).
//!
//! The volume element map `M_X` of an operation `X` relates each element of each
//! result `R_j` to the operand elements `O_k[..]` it is computed from, as a union of
//! affine maps `{ R_j[..] -> O_k[..] }` with the volumes named by
//! [`crate::ir::Value::volume`]. Maps are built from constraints
//! ([`presburger::build`]) in spaces that carry the volume names, so any volume
//! name works.

use presburger::build::{Constraint, Expr};
use presburger::{DimKind, Map, Set, Space, Tuple, TupleBody, UnionMap};

use crate::error::{Error, Result};
use crate::ir::{AffineMap, OpKind, Program, ValueId};
use crate::shape::{
    Shapes, Size, box_cons, check_linalg, check_slice, in_op, loop_ranges, op_err, tuple,
};

fn vars(prefix: &str, n: usize) -> Vec<String> {
    (0..n).map(|k| format!("{prefix}{k}")).collect()
}

/// The variables `0 .. n` of `kind` as expressions.
fn dims(kind: DimKind, n: usize) -> Vec<Expr> {
    (0..n).map(|k| Expr::dim(kind, k)).collect()
}

/// `out_j = e_j` for the output dimensions of a map.
fn outputs_equal(exprs: impl IntoIterator<Item = Expr>) -> Vec<Constraint> {
    exprs
        .into_iter()
        .enumerate()
        .map(|(j, e)| Expr::dim(DimKind::Out, j).eq(e))
        .collect()
}

fn value_rank(p: &Program, v: ValueId) -> Result<usize> {
    p.values
        .get(v)
        .map(|x| x.ty.rank())
        .ok_or_else(|| Error::Invalid(format!("no value with id {v}")))
}

fn sizes_of<'a>(p: &Program, op: usize, shapes: &'a Shapes, v: ValueId) -> Result<&'a [Size]> {
    shapes.sizes(v).ok_or_else(|| {
        let name = p.values.get(v).map_or("?", |x| x.ssa.as_str());
        op_err(p, op, format!("the shape of %{name} is unknown"))
    })
}

/// `[params] -> { [d0, ...] -> name[I(d)] : box }` for the indexing map `I`,
/// optionally restricted to the box of `ranges`.
fn indexing_map(
    params: &[String],
    m: &AffineMap,
    ranges: Option<&[Size]>,
    name: &str,
) -> Result<Map> {
    let space = Space::map(
        params.to_vec(),
        tuple(None, &vars("d", m.n_dims)),
        Tuple::named(Some(name.to_string()), m.results.len()),
    );
    let d = dims(DimKind::In, m.n_dims);
    let exprs = m
        .results
        .iter()
        .map(|e| e.to_expr(&d, &[]).map_err(Error::Invalid))
        .collect::<Result<Vec<_>>>()?;
    let mut cons = outputs_equal(exprs);
    if let Some(r) = ranges {
        cons.extend(box_cons(&d, r, params)?);
    }
    Ok(Map::from_constraints(&space, cons)?)
}

/// The volume element map `M_X` of operation `op` (paper Def. 4.11): for every
/// result `R_j` and every operand `O_k` it depends on, the pairs
/// `R_j[r] -> O_k[o]` such that element `r` is computed from element `o`.
///
/// Per kind:
/// - `linalg` (Sec. 4.2.1): with the iteration domain `dom X` = the box of the loop
///   ranges ([`loop_ranges`]), `M_X = U_j U_k (I_Rj^-1 ∩_rg dom X) ∘ I_Ok`, i.e.
///   `{ R_j[I_Rj(x)] -> O_k[I_Ok(x)] : x in dom X }` with `x` existentially
///   quantified (computed as `I_Rj^-1` composed with `I_Ok`). `R_j` depends on every
///   `ins` operand and on each `outs` operand whose value the body reads
///   (`reads_output`; the body is opaque, so a result may combine any of them). Each value `U` captured by the body adds the pessimistic
///   `{ dom R_j -> dom U }` (end of Sec. 4.2.1).
/// - `tensor.pad` (App. A.2.6): `{ R[r] -> A[r - lo] : lo <= r < lo + size(A) }`
///   union, for each dimension `d` and side with a nonzero padding, one disjunct
///   `{ R[r] -> v[..] : r in dom R and r_d < lo_d }` (or `r_d >= lo_d + size_d`).
///   The halfspace disjuncts overlap at the corners on purpose, so edges and corners
///   can be read off them later (paper Sec. 5.2). Without a padding-value operand
///   (a value yielded from inside the region) only the first part remains.
/// - `tensor.extract_slice` (App. A.2.1, a view `Π`): `M = Π`,
///   `{ R[i] -> S[offset + stride * i] : i in dom R }`, dropped unit dimensions
///   fixed at their offset.
/// - `tensor.insert_slice` (App. A.2.1): with `Π : dom src -> dom dest` the slice,
///   `{ R[r] -> dest[r] : r in dom R \ Im Π } ∪ { R[r] -> src[Π^-1(r)] : r in Im Π }`.
/// - constants and `tensor.empty`: no dependencies (the empty map).
/// - opaque ops: every result element on every element of every operand.
pub fn op_element_map(p: &Program, op: usize, shapes: &Shapes) -> Result<UnionMap> {
    let o = p
        .ops
        .get(op)
        .ok_or_else(|| Error::Invalid(format!("no operation {op}")))?;
    let params = shapes.params.clone();
    let mut out = UnionMap::empty(params.clone());
    let vol = |v: ValueId| -> Result<&str> {
        p.values
            .get(v)
            .map(|x| x.volume.as_str())
            .ok_or_else(|| Error::Invalid(format!("no value with id {v}")))
    };
    let operand = |k: usize| -> Result<ValueId> {
        o.operands
            .get(k)
            .copied()
            .ok_or_else(|| op_err(p, op, format!("operand {k} is missing")))
    };
    let result = |k: usize| -> Result<ValueId> {
        o.results
            .get(k)
            .copied()
            .ok_or_else(|| op_err(p, op, format!("result {k} is missing")))
    };
    match &o.kind {
        OpKind::Constant | OpKind::Empty => {}
        OpKind::Opaque => {
            for &r in &o.results {
                let dr = shapes.domain(p, r)?;
                for &u in &o.operands {
                    out.add(Map::from_domain_and_range(&dr, &shapes.domain(p, u)?)?)?;
                }
            }
        }
        OpKind::Linalg(l) => {
            check_linalg(p, op, l)?;
            let ranges = loop_ranges(p, op, shapes)?;
            let n = l.n_inputs + l.n_outputs;
            for j in 0..l.n_outputs {
                let r = result(j)?;
                let ir = indexing_map(
                    &params,
                    &l.indexing_maps[n - l.n_outputs + j],
                    Some(&ranges),
                    vol(r)?,
                )
                .map_err(|e| in_op(p, op, e))?;
                let inv = ir.reverse();
                for k in 0..n {
                    // the body is opaque: every result depends on every `outs`
                    // operand whose current value the body reads (an argmax's
                    // index result reads the running maximum too)
                    let out_read =
                        |k: usize| l.reads_output.get(k - l.n_inputs).copied().unwrap_or(true);
                    if k >= l.n_inputs && !out_read(k) {
                        continue;
                    }
                    let ik = indexing_map(&params, &l.indexing_maps[k], None, vol(o.operands[k])?)
                        .map_err(|e| in_op(p, op, e))?;
                    out.add(inv.apply_range(&ik)?)?;
                }
                let dr = shapes.domain(p, r)?;
                for &u in &o.operands[n..] {
                    out.add(Map::from_domain_and_range(&dr, &shapes.domain(p, u)?)?)?;
                }
            }
        }
        OpKind::Pad { low, high } => {
            let (src, r) = (operand(0)?, result(0)?);
            let sa = sizes_of(p, op, shapes, src)?;
            let sr = sizes_of(p, op, shapes, r)?;
            let n = sa.len();
            if low.len() != n || high.len() != n || sr.len() != n {
                return Err(op_err(p, op, "low/high do not match the rank".into()));
            }
            // { R[r] -> A[r - lo] : lo <= r < lo + size(A) }
            let rv = vars("r", n);
            let space = Space::map(
                params.clone(),
                tuple(Some(vol(r)?), &rv),
                Tuple::named(Some(vol(src)?.to_string()), n),
            );
            let x = dims(DimKind::In, n);
            let mut cons = outputs_equal(x.iter().zip(low).map(|(x, lo)| x - *lo));
            for k in 0..n {
                cons.push(x[k].ge(low[k]));
                cons.push(x[k].lt(sa[k].add_const(low[k])?.to_expr(&params)?));
            }
            out.add(Map::from_constraints(&space, cons)?)?;
            if let Some(&v) = o.operands.get(1) {
                let dv = shapes.domain(p, v)?;
                let set_space = Space::set(params.clone(), tuple(Some(vol(r)?), &rv));
                let x = dims(DimKind::SET, n);
                let dom_r = box_cons(&x, sr, &params)?;
                for k in 0..n {
                    let sides = [
                        (low[k] != 0, x[k].lt(low[k])),
                        (
                            high[k] != 0,
                            x[k].ge(sa[k].add_const(low[k])?.to_expr(&params)?),
                        ),
                    ];
                    for (nonzero, half) in sides {
                        if !nonzero {
                            continue;
                        }
                        let mut c = dom_r.clone();
                        c.push(half);
                        let s = Set::from_constraints(&set_space, c)?;
                        out.add(Map::from_domain_and_range(&s, &dv)?)?;
                    }
                }
            }
        }
        OpKind::ExtractSlice {
            offsets,
            sizes,
            strides,
            dropped,
        } => {
            let (src, r) = (operand(0)?, result(0)?);
            check_slice(p, op, value_rank(p, src)?, offsets, sizes, strides, dropped)?;
            let pi = slice_map(
                &params,
                vol(r)?,
                vol(src)?,
                offsets,
                sizes,
                strides,
                dropped,
            )?;
            // within the source's domain: with a dynamic source the slice may not
            // fit for every size, and only elements that exist are read
            let pi = pi.intersect_range(&shapes.domain(p, src)?)?;
            out.add(pi)?;
        }
        OpKind::InsertSlice {
            offsets,
            sizes,
            strides,
            dropped,
        } => {
            let (src, dest, r) = (operand(0)?, operand(1)?, result(0)?);
            check_slice(
                p,
                op,
                value_rank(p, dest)?,
                offsets,
                sizes,
                strides,
                dropped,
            )?;
            // Π: src -> dest, as { src[i] -> R[..] }
            let pi = slice_map(
                &params,
                vol(src)?,
                vol(r)?,
                offsets,
                sizes,
                strides,
                dropped,
            )?;
            let dr = shapes.domain(p, r)?;
            // only the positions that exist in the result (a dynamic destination
            // may be smaller than the slice for some sizes)
            let pi = pi.intersect_range(&dr)?;
            let image = pi.range();
            let dd = dr.set_tuple_name(Some(vol(dest)?));
            let id = Map::from_domain_and_range(&dr, &dd)?;
            // keep only the diagonal r -> r
            let n = value_rank(p, r)?;
            let diag_space = Space::map(
                params.clone(),
                tuple(Some(vol(r)?), &vars("r", n)),
                Tuple::named(Some(vol(dest)?.to_string()), n),
            );
            let diag = Map::from_constraints(&diag_space, outputs_equal(dims(DimKind::In, n)))?;
            let id = id.intersect(&diag)?;
            out.add(id.subtract_domain(&image)?)?;
            out.add(pi.reverse())?;
        }
    }
    Ok(out)
}

/// The slice view `Π` (paper Def. 4.9, App. A.2.1) as
/// `{ dom[i] -> ran[offset + stride * x] : 0 <= i < size }`, where `x` is `i` with
/// a 0 inserted at each dropped (unit) dimension (the dimensions of `dom` are
/// named `i<k>` after the position `k` in `ran`).
pub(crate) fn slice_map(
    params: &[String],
    dom: &str,
    ran: &str,
    offsets: &[i64],
    sizes: &[i64],
    strides: &[i64],
    dropped: &[usize],
) -> Result<Map> {
    let n = sizes.len();
    if offsets.len() != n || strides.len() != n {
        return Err(Error::Invalid(
            "a slice needs as many offsets and strides as sizes".into(),
        ));
    }
    let mut iv = Vec::new();
    let mut cons = Vec::new();
    let mut exprs = Vec::new();
    for k in 0..n {
        if dropped.contains(&k) {
            exprs.push(Expr::constant(offsets[k]));
        } else {
            let x = Expr::dim(DimKind::In, iv.len());
            cons.push(x.ge(0));
            cons.push(x.lt(sizes[k]));
            exprs.push(Expr::constant(offsets[k]) + strides[k] * &x);
            iv.push(format!("i{k}"));
        }
    }
    let space = Space::map(
        params.to_vec(),
        tuple(Some(dom), &iv),
        Tuple::named(Some(ran.to_string()), n),
    );
    let mut all = outputs_equal(exprs);
    all.extend(cons);
    Ok(Map::from_constraints(&space, all)?)
}

/// The result domains of the `linalg` op `op` given arbitrary operand domains (one
/// set per `ins` and `outs` operand, in order; extra entries for captured values
/// are ignored): the iteration points `x` whose every access `I_Ok(x)` lies in
/// `operand_domains[k]`, mapped by each result's indexing map `I_Rj`.
///
/// This is the paper's feed-forward shape inference (Sec. 5.3) with the operand
/// domains as facts, and its iteration domain `dom X` (Sec. 4.2.1) computed from
/// the operand side: for an elementwise op it gives `dom R = dom U ∩ dom V`
/// (App. A.1). The operand sets may have any tuple name; the results are named
/// after the result volumes.
pub fn result_domains(p: &Program, op: usize, operand_domains: &[Set]) -> Result<Vec<Set>> {
    let o = p
        .ops
        .get(op)
        .ok_or_else(|| Error::Invalid(format!("no operation {op}")))?;
    let OpKind::Linalg(l) = &o.kind else {
        return Err(Error::Unsupported {
            op: o.name.clone(),
            line: o.line,
            message: "result domains from arbitrary operand domains are only for linalg ops".into(),
        });
    };
    let n_loops = check_linalg(p, op, l)?;
    let n = l.n_inputs + l.n_outputs;
    if operand_domains.len() < n {
        return Err(op_err(
            p,
            op,
            format!(
                "{n} operand domains needed, {} given",
                operand_domains.len()
            ),
        ));
    }
    let mut iter = Set::universe(Space::set(Vec::new(), Tuple::anonymous(n_loops)))?;
    for (k, d) in operand_domains.iter().take(n).enumerate() {
        if d.space().n_out() != l.indexing_maps[k].results.len() {
            return Err(op_err(
                p,
                op,
                format!("operand domain {k} does not have the operand's rank"),
            ));
        }
        let ik = indexing_map(&[], &l.indexing_maps[k], None, "T").map_err(|e| in_op(p, op, e))?;
        let pre = d.set_tuple_name(Some("T")).preimage(&ik)?;
        iter = iter.intersect(&pre)?;
    }
    let mut out = Vec::new();
    for j in 0..l.n_outputs {
        let ir = indexing_map(&[], &l.indexing_maps[l.n_inputs + j], None, "T")
            .map_err(|e| in_op(p, op, e))?;
        let r = o.results[j];
        let d = ir
            .apply_to(&iter)?
            .set_tuple_name(Some(&p.values[r].volume));
        out.push(d.coalesce()?);
    }
    Ok(out)
}

/// Checks that a helper's tuple is valid.
fn check_axis(what: &str, ok: bool) -> Result<()> {
    if ok {
        Ok(())
    } else {
        Err(Error::Invalid(format!("{what}: axis out of range")))
    }
}

/// `{ dom[r0, ..., r<n_in - 1>] -> rng[r<src_0>, r<src_1>, ...] }`.
fn simple_map(dom: &str, n_in: usize, rng: &str, src: &[usize]) -> Result<Map> {
    let space = Space::map(
        Vec::new(),
        tuple(Some(dom), &vars("r", n_in)),
        Tuple::named(Some(rng.to_string()), src.len()),
    );
    let cons = outputs_equal(src.iter().map(|&k| Expr::dim(DimKind::In, k)));
    Ok(Map::from_constraints(&space, cons)?)
}

/// The reduction `R <- red_{⊕,j} O` (paper App. A.2.2): `O` has rank
/// `operand_rank`, `R` drops axis `j` (0-based), and
/// `M = { R[r] -> O[r_0, ..., r_{j-1}, k, r_j, ...] : k in Z }` (every element
/// along the axis).
pub fn reduction_map(result: &str, operand: &str, operand_rank: usize, j: usize) -> Result<Map> {
    check_axis("reduction", j < operand_rank)?;
    // `k` is an output dimension of its own, unconstrained
    let mut names = vec![None; operand_rank];
    names[j] = Some("k".to_string());
    let space = Space::map(
        Vec::new(),
        tuple(Some(result), &vars("r", operand_rank - 1)),
        Tuple {
            name: Some(operand.to_string()),
            body: TupleBody::Dims(names),
        },
    );
    let cons = (0..operand_rank)
        .filter(|&q| q != j)
        .map(|q| {
            let r = if q < j { q } else { q - 1 };
            Expr::dim(DimKind::Out, q).eq(Expr::dim(DimKind::In, r))
        })
        .collect::<Vec<_>>();
    Ok(Map::from_constraints(&space, cons)?)
}

/// The `s, t` (`s < t`, 0-based, axes of the operand) diagonal of a volume (paper
/// App. A.2.3): a view of `O` (rank `operand_rank`) whose indices at `s` and `t`
/// are equal, `M = { R[r] -> O[r_0, ..., r_{t-1}, r_s, r_t, ...] }` (`R` has rank
/// `operand_rank - 1`).
pub fn diagonal_map(
    result: &str,
    operand: &str,
    operand_rank: usize,
    s: usize,
    t: usize,
) -> Result<Map> {
    check_axis("diagonal", s < t && t < operand_rank)?;
    let mut src: Vec<usize> = (0..operand_rank - 1).collect();
    src.insert(t, s);
    simple_map(result, operand_rank - 1, operand, &src)
}

/// The outer product `R <- A ⊗ B` (paper App. A.2.4): `R[a ++ b] = A[a] B[b]`,
/// `M = { R[a ++ b] -> A[a] } ∪ { R[a ++ b] -> B[b] }`.
pub fn outer_product_map(
    result: &str,
    a: &str,
    rank_a: usize,
    b: &str,
    rank_b: usize,
) -> Result<UnionMap> {
    let n = rank_a + rank_b;
    let mut u = UnionMap::empty(Vec::new());
    u.add(simple_map(result, n, a, &(0..rank_a).collect::<Vec<_>>())?)?;
    u.add(simple_map(result, n, b, &(rank_a..n).collect::<Vec<_>>())?)?;
    Ok(u)
}

/// The inner product `R <- A · B` (paper App. A.2.5): a contraction (a reduction
/// over a diagonal) of `A ⊗ B` over the straddling axes, consistent with matrix
/// multiplication: `M = M_red,N ∘ M_diag,N=N+1 ∘ M_⊗` with `N = rank_a` (here,
/// 0-based, the diagonal of axes `N-1, N` of the outer product, then the reduction
/// of axis `N-1`). Needs `rank_a, rank_b >= 1`.
pub fn inner_product_map(
    result: &str,
    a: &str,
    rank_a: usize,
    b: &str,
    rank_b: usize,
) -> Result<UnionMap> {
    check_axis("inner product", rank_a >= 1 && rank_b >= 1)?;
    let n = rank_a + rank_b;
    // placeholder names for the intermediates, renamed away by composition
    let red = reduction_map(result, "Xdiag", n - 1, rank_a - 1)?;
    let diag = diagonal_map("Xdiag", "Xouter", n, rank_a - 1, rank_a)?;
    let outer = outer_product_map("Xouter", a, rank_a, b, rank_b)?;
    UnionMap::from(red.apply_range(&diag)?)
        .apply_range(&outer)
        .map_err(Error::from)
}

/// `m` restricted to the single domain point `point` (its image of that point is
/// then the range), for inspecting which operand elements one result element uses.
pub fn fix_domain_point(m: &Map, point: &[i64]) -> Result<Map> {
    let mut m = m.clone();
    for (k, v) in point.iter().enumerate() {
        m = m.fix(DimKind::In, k, *v)?;
    }
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The dimension names of a tuple.
    fn names(t: &Tuple) -> Vec<Option<String>> {
        t.dim_names()
    }

    fn named(v: &[Option<&str>]) -> Vec<Option<String>> {
        v.iter().map(|n| n.map(str::to_string)).collect()
    }

    /// Dropped (unit) dimensions are fixed at their offset and have no input
    /// dimension; the kept ones are named after their position in the source.
    #[test]
    fn slice_map_fixes_dropped_dimensions() {
        let m = slice_map(
            &["N".to_string()],
            "sub",
            "src",
            &[3, 2, 5],
            &[1, 4, 1],
            &[1, 2, 7],
            &[0, 2],
        )
        .unwrap();
        let want: Map = "[N] -> { sub[i1] -> src[3, 2 + 2i1, 5] : 0 <= i1 < 4 }"
            .parse()
            .unwrap();
        assert!(m.is_equal(&want).unwrap(), "{m}");
        let sp = m.space();
        assert_eq!(sp.domain_tuple().unwrap().name.as_deref(), Some("sub"));
        assert_eq!(names(sp.domain_tuple().unwrap()), named(&[Some("i1")]));
        assert_eq!(sp.range_tuple().name.as_deref(), Some("src"));
        assert_eq!(names(sp.range_tuple()), named(&[None, None, None]));
        // everything dropped: a map from the rank-0 slice to one element
        let one = slice_map(&[], "s", "t", &[4, -1], &[1, 1], &[1, 1], &[0, 1]).unwrap();
        let want: Map = "{ s[] -> t[4, -1] }".parse().unwrap();
        assert!(one.is_equal(&want).unwrap(), "{one}");
        assert!(slice_map(&[], "s", "t", &[0], &[1, 1], &[1, 1], &[]).is_err());
    }

    /// The reduced axis is an output dimension of its own named `k`, with no
    /// constraint; the other output dimensions copy the inputs.
    #[test]
    fn reduction_axis_is_free_and_named_k() {
        let m = reduction_map("R", "O", 3, 1).unwrap();
        let want: Map = "{ R[r0, r1] -> O[r0, k, r1] }".parse().unwrap();
        assert!(m.is_equal(&want).unwrap(), "{m}");
        assert_eq!(
            names(m.space().range_tuple()),
            named(&[None, Some("k"), None])
        );
        let d = diagonal_map("R", "O", 3, 0, 2).unwrap();
        let want: Map = "{ R[r0, r1] -> O[r0, r1, r0] }".parse().unwrap();
        assert!(d.is_equal(&want).unwrap(), "{d}");
    }
}
