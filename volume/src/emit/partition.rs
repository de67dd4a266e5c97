//! The loop structure of the emitted code: the interior tile loops (Algorithm 2)
//! and the partitions around them (Algorithm 1), paper Sec. 5.3.
//!
//! Idea: every dimension of the output is cut at the bounds of the dense region
//! (its box hull, from the model's [`crate::regions::Regions::dense`]) and, for a
//! tiled dimension, at the bounds of the interior tiles (`T·Q_lo` and
//! `T·(Q_hi + 1)`, where `Q_lo`, `Q_hi` are read off the model's interior tile
//! set). The cuts are made monotone (each clamped between the previous one and
//! the size), so the cells of the grid they make partition the output exactly
//! once for every value of the size parameters. The cells whose tiled
//! dimensions all lie in the interior range are the interior tiles: one
//! `scf.for` nest over the tile indices `Q` computes them. When the interior
//! tiles form several disjoint boxes (Sec. 5.3: "recursively apply the
//! partitioning"), each gets its own loop nest and the cuts of all of them
//! (constants then: static sizes only) are sorted; a cell is interior when it
//! lies in one box. Every other cell is a
//! partition, computed by the chain cloned on its box ([`super::clone`]); in a
//! tiled emission a partition longer than a tile along a tiled dimension is
//! itself tiled (full tiles in a loop and a remainder when the length is
//! constant; a loop whose last tile is cut by `affine.min` when it is not).

use presburger::{Int, Set};

use super::Ctx;
use super::clone::{Bx, emit_box};
use super::writer::{Em, Lin, tensor_type};
use crate::error::{Error, Result};
use crate::ir::{Type, ValueId};
use crate::model::{Model, TileReport};
use crate::tiling::Slice;

/// A leaf volume's footprint for an interior tile and its slice (from
/// [`TileReport::slices`]).
type ModelSlice = (String, Set, Option<Slice>);
use crate::regions::{build, inequality_rows};
use crate::tiling::aff_to_string;

/// One tiled dimension's interior range: tile indices `[q_lo, q_end)`.
struct Interior {
    dim: usize,
    tile: i64,
    q_lo: Lin,
    q_end: Lin,
}

/// Emits the whole output of `out` (model value `mout`) into a fresh tensor and
/// returns the final value.
pub fn emit_output(
    em: &mut Em,
    ctx: &Ctx,
    model: &Model,
    mout: ValueId,
    out: ValueId,
    tiles: &[(usize, i64)],
) -> Result<String> {
    let sizes = ctx.sizes(out)?;
    let rank = sizes.len();
    let elem = match &ctx.p.value(out).ty {
        Type::Tensor(t) => t.elem.clone(),
        _ => return Err(Error::Invalid("emit: the output is not a tensor".into())),
    };
    let aty = tensor_type(&sizes, &elem);
    let mut acc = em.empty(&sizes, &elem);
    // the dense region's bounds per dimension
    let regions = model.regions(mout)?;
    let mut dense: Vec<Option<(Lin, Lin)>> = vec![None; rank];
    if !regions.dense.is_empty()? {
        let names = regions.dense.space().params().to_vec();
        for (k, d) in dense.iter_mut().enumerate() {
            if let (Ok(Some(lo)), Ok(Some(hi))) = (
                regions.dense.dim_min_affine(k),
                regions.dense.dim_max_affine(k),
            ) {
                *d = Some((
                    row_lin(ctx, &lo, &names)?,
                    row_lin(ctx, &hi, &names)?.plus(1),
                ));
            }
        }
    }
    let mut tile_of = vec![None; rank];
    for &(d, t) in tiles {
        if d >= rank {
            return Err(Error::Invalid(format!(
                "emit: dimension {d} of a rank-{rank} output"
            )));
        }
        tile_of[d] = Some(t);
    }
    let report = if tiles.is_empty() {
        None
    } else {
        Some(model.tile(mout, tiles)?)
    };
    let pieces = match &report {
        None => Vec::new(),
        Some(r) => interior_bounds(em, ctx, r, tiles)?,
    };
    // the cells of every dimension: intervals [a, b) with, per piece, whether
    // the interval lies in the piece's interior range along the dimension
    let mut cells_per_dim: Vec<Vec<Cell>> = Vec::new();
    for k in 0..rank {
        let dense_k = dense[k].as_ref();
        cells_per_dim.push(if pieces.len() > 1 {
            static_cells(k, &sizes[k], dense_k, &pieces)?
        } else {
            monotone_cells(em, k, &sizes[k], dense_k, pieces.first())
        });
    }
    // Algorithm 2: the interior tiles, one loop nest per piece
    let slices = report.as_ref().map_or(&[][..], |r| &r.slices[..]);
    for (n, piece) in pieces.iter().enumerate() {
        em.line(&format!(
            "// Algorithm 2: the interior tiles{} (no padding read)",
            if pieces.len() > 1 {
                format!(", piece {}", n + 1)
            } else {
                String::new()
            }
        ));
        acc = interior_loops(em, ctx, slices, out, piece, 0, Vec::new(), acc, &aty)?;
    }
    // Algorithm 1: the partitions
    let mut idx = vec![0usize; rank];
    let mut count = 0usize;
    if cells_per_dim.iter().any(Vec::is_empty) {
        return Ok(acc);
    }
    loop {
        let cell: Vec<&Cell> = (0..rank).map(|k| &cells_per_dim[k][idx[k]]).collect();
        let is_interior = pieces.iter().enumerate().any(|(p, piece)| {
            !piece.is_empty() && piece.iter().all(|it| cell[it.dim].2.get(p) == Some(&true))
        });
        let empty = cell.iter().any(|(a, b, _)| em.le(b, a) == Some(true));
        if !is_interior && !empty {
            count += 1;
            em.line(&format!("// Algorithm 1: partition {count}"));
            let lo: Vec<Lin> = cell.iter().map(|c| c.0.clone()).collect();
            let hi: Vec<Lin> = cell.iter().map(|c| c.1.clone()).collect();
            acc = partition_cell(em, ctx, out, &tile_of, lo, hi, 0, acc, &aty)?;
        }
        // next cell
        let mut k = rank;
        loop {
            if k == 0 {
                return Ok(acc);
            }
            k -= 1;
            idx[k] += 1;
            if idx[k] < cells_per_dim[k].len() {
                break;
            }
            idx[k] = 0;
        }
    }
}

/// An interval `[a, b)` of one dimension and, per interior piece, whether it
/// lies in the piece's range along the dimension.
type Cell = (Lin, Lin, Vec<bool>);

/// The cells of dimension `k` with at most one interior piece: cuts at 0, the
/// dense region's bounds, the piece's range and the size, made monotone (each
/// clamped between the previous cut and the size) so that the cells partition
/// `[0, size)` for every value of the size parameters.
fn monotone_cells(
    em: &mut Em,
    k: usize,
    size: &Lin,
    dense: Option<&(Lin, Lin)>,
    piece: Option<&Vec<Interior>>,
) -> Vec<Cell> {
    let mut cuts: Vec<(Lin, bool)> = vec![(Lin::k(0), false)];
    if let Some((lo, _)) = dense {
        cuts.push((lo.clone(), false));
    }
    if let Some(it) = piece.and_then(|p| p.iter().find(|i| i.dim == k)) {
        cuts.push((it.q_lo.scale(it.tile), true));
        cuts.push((it.q_end.scale(it.tile), false));
    }
    if let Some((_, hi)) = dense {
        cuts.push((hi.clone(), false));
    }
    cuts.push((size.clone(), false));
    let mut mono: Vec<(Lin, bool)> = Vec::new();
    for (c, starts_interior) in cuts {
        let c = match mono.last() {
            None => c,
            Some((prev, _)) => {
                let m = em.max(&c, prev);
                em.min(&m, size)
            }
        };
        mono.push((c, starts_interior));
    }
    let mut cells = Vec::new();
    for w in mono.windows(2) {
        let (a, b) = (&w[0].0, &w[1].0);
        if a == b && !w[0].1 {
            continue;
        }
        cells.push((a.clone(), b.clone(), vec![w[0].1]));
    }
    cells
}

/// The cells of dimension `k` with several interior pieces, whose bounds must
/// all be constants: the sorted cuts of the dense region and of every piece.
fn static_cells(
    k: usize,
    size: &Lin,
    dense: Option<&(Lin, Lin)>,
    pieces: &[Vec<Interior>],
) -> Result<Vec<Cell>> {
    let constant = |l: &Lin| {
        l.as_const().ok_or_else(|| {
            Error::Invalid(
                "emit: the interior tiles form several pieces and the output has a dynamic size; the emitter handles several pieces for static sizes only"
                    .into(),
            )
        })
    };
    let mut cuts = vec![0, constant(size)?];
    if let Some((lo, hi)) = dense {
        cuts.push(constant(lo)?);
        cuts.push(constant(hi)?);
    }
    let ranges: Vec<Option<(i64, i64)>> = pieces
        .iter()
        .map(|p| {
            p.iter()
                .find(|i| i.dim == k)
                .map(|it| {
                    Ok((
                        constant(&it.q_lo)?.saturating_mul(it.tile),
                        constant(&it.q_end)?.saturating_mul(it.tile),
                    ))
                })
                .transpose()
        })
        .collect::<Result<_>>()?;
    for &(a, b) in ranges.iter().flatten() {
        cuts.push(a);
        cuts.push(b);
    }
    let end = constant(size)?;
    cuts.retain(|&c| (0..=end).contains(&c));
    cuts.sort_unstable();
    cuts.dedup();
    Ok(cuts
        .windows(2)
        .map(|w| {
            let flags = ranges
                .iter()
                .map(|r| r.is_some_and(|(a, b)| a <= w[0] && w[1] <= b))
                .collect();
            (Lin::k(w[0]), Lin::k(w[1]), flags)
        })
        .collect())
}

/// An affine row `(const, params...)` of the model as a form.
fn row_lin(ctx: &Ctx, row: &[Int], names: &[String]) -> Result<Lin> {
    let int = |x: &Int| {
        x.to_i64()
            .ok_or_else(|| Error::Invalid("emit: a bound does not fit in 64 bits".into()))
    };
    let mut l = Lin::k(int(&row[0])?);
    for (name, c) in names.iter().zip(&row[1..]) {
        if c.is_zero() {
            continue;
        }
        let mut s = crate::shape::Size::default();
        s.terms.insert(name.clone(), int(c)?);
        l = l.add(&ctx.size_lin(&s)?);
    }
    Ok(l)
}

/// The interior tile ranges, read off the model's interior tile set (one
/// conjunction, a box in the tile indices: `Q_d >= ceil(..)`, `Q_d <= floor(..)`).
fn interior_bounds(
    em: &mut Em,
    ctx: &Ctx,
    report: &TileReport,
    tiles: &[(usize, i64)],
) -> Result<Vec<Vec<Interior>>> {
    report
        .interior_pieces
        .iter()
        .map(|piece| piece_bounds(em, ctx, piece, &report.interior, tiles))
        .collect()
}

/// The ranges of one piece of the interior tiles (one conjunction, a box in the
/// tile indices): `Q_d >= ceil(..)`, `Q_d <= floor(..)`.
fn piece_bounds(
    em: &mut Em,
    ctx: &Ctx,
    piece: &Set,
    all: &Set,
    tiles: &[(usize, i64)],
) -> Result<Vec<Interior>> {
    let not_box = || {
        Error::Invalid(format!(
            "emit: the interior tiles {all} are not boxes in the tile indices"
        ))
    };
    let basic = piece.basics().next().ok_or_else(not_box)?;
    let c = basic.conjunction();
    if c.n_local() > 0 {
        return Err(not_box());
    }
    let sp = piece.space();
    let (np, n) = (sp.n_param(), sp.n_out());
    let names = sp.params().to_vec();
    let rows = inequality_rows(c);
    // constraints on the parameters alone must be implied by the others
    let keep: Vec<bool> = rows
        .iter()
        .map(|r| r[1 + np..].iter().any(|x| !x.is_zero()))
        .collect();
    if !build(c, &rows, &keep)?.is_equal(piece)? {
        return Err(Error::Invalid(format!(
            "emit: the interior tiles {all} hold only for some sizes; the emitter needs bounds on the tile indices alone"
        )));
    }
    let mut order: Vec<(usize, i64)> = tiles.to_vec();
    order.sort();
    let mut out = Vec::new();
    for (k, &(dim, tile)) in order.iter().enumerate().take(n) {
        let (mut lo, mut hi): (Option<Lin>, Option<Lin>) = (None, None);
        for r in &rows {
            let a = &r[1 + np + k];
            if a.is_zero() {
                continue;
            }
            if (0..n).any(|j| j != k && !r[1 + np + j].is_zero()) {
                return Err(not_box());
            }
            let f = row_lin(ctx, &r[..=np], &names)?;
            let a = a
                .to_i64()
                .ok_or_else(|| Error::Invalid("emit: a bound does not fit in 64 bits".into()))?;
            if a > 0 {
                // a·Q + f >= 0: Q >= ceil(-f / a)
                let b = em.ceil_div(&f.scale(-1), a);
                lo = Some(match lo {
                    None => b,
                    Some(x) => em.max(&x, &b),
                });
            } else {
                // Q <= floor(f / -a)
                let b = em.floor_div(&f, -a);
                hi = Some(match hi {
                    None => b,
                    Some(x) => em.min(&x, &b),
                });
            }
        }
        let (Some(q_lo), Some(q_hi)) = (lo, hi) else {
            return Err(not_box());
        };
        out.push(Interior {
            dim,
            tile,
            q_lo,
            q_end: q_hi.plus(1),
        });
    }
    Ok(out)
}

/// The loop nest over the interior tiles; `qs` are the tile indices of the
/// enclosing loops.
#[allow(clippy::too_many_arguments)]
fn interior_loops(
    em: &mut Em,
    ctx: &Ctx,
    slices: &[ModelSlice],
    out: ValueId,
    interior: &[Interior],
    k: usize,
    qs: Vec<Lin>,
    acc: String,
    aty: &str,
) -> Result<String> {
    if k == interior.len() {
        let sizes = ctx.sizes(out)?;
        let mut bx = Bx {
            lo: vec![Lin::k(0); sizes.len()],
            size: sizes,
        };
        for (it, q) in interior.iter().zip(&qs) {
            bx.lo[it.dim] = q.scale(it.tile);
            bx.size[it.dim] = Lin::k(it.tile);
        }
        for (leaf, _, s) in slices {
            if let Some(s) = s {
                if ctx.p.args.iter().any(|&a| ctx.p.value(a).volume == *leaf) {
                    em.line(&format!("// slice %{leaf} (model): {s}"));
                }
            }
        }
        let (tile, reads) = emit_box(em, ctx, out, &bx, true, Some((&acc, aty)))?;
        check_slices(ctx, interior, &qs, &reads, slices)?;
        return insert(em, ctx, out, &tile, &bx, &acc, aty);
    }
    let it = &interior[k];
    let r = (em.range(&it.q_lo).0, em.range(&it.q_end).1.map(|h| h - 1));
    let (lo, end) = (it.q_lo.clone(), it.q_end.clone());
    em.for_loop(&lo, &end, 1, r, (&acc, aty), |em, q, a| {
        let mut qs = qs;
        qs.push(q);
        interior_loops(em, ctx, slices, out, interior, k + 1, qs, a, aty)
    })
}

/// Checks that the slices the cloned chain reads from the arguments are the ones
/// the model's slice matching found for an interior tile.
fn check_slices(
    ctx: &Ctx,
    interior: &[Interior],
    qs: &[Lin],
    reads: &[(ValueId, Bx)],
    slices: &[ModelSlice],
) -> Result<()> {
    let text = |l: &Lin| -> Option<String> {
        // the form in the tile indices Q<d>; a tile index with one value is
        // that value (the model simplifies its slices in the tiles' domain)
        let mut k = l.c;
        let mut row = vec![Int::ZERO];
        let mut names = Vec::new();
        let mut rest = l.clone();
        for (it, q) in interior.iter().zip(qs) {
            let (&s, _) = q.t.iter().next()?;
            let c = l.t.get(&s).copied().unwrap_or(0);
            match (it.q_lo.as_const(), it.q_end.as_const()) {
                (Some(a), Some(b)) if b == a + 1 => {
                    k = k.saturating_add(c.saturating_mul(a));
                    row.push(Int::ZERO);
                }
                _ => row.push(Int::from(c)),
            }
            names.push(format!("Q{}", it.dim));
            rest.t.remove(&s);
        }
        row[0] = Int::from(k);
        rest.t.is_empty().then(|| aff_to_string(&row, &names))
    };
    for (v, bx) in reads {
        let vol = &ctx.p.value(*v).volume;
        let Some((_, _, Some(s))) = slices.iter().find(|(l, _, _)| l == vol) else {
            continue;
        };
        let ours: Option<Vec<String>> = bx.lo.iter().map(text).collect();
        let sizes: Option<Vec<String>> = bx.size.iter().map(text).collect();
        if let (Some(o), Some(z)) = (ours, sizes) {
            if o != s.offsets || z != s.sizes {
                return Err(Error::Invalid(format!(
                    "emit: the interior tile reads %{vol} at offsets [{}] sizes [{}], but the model's slice is {s}",
                    o.join(", "),
                    z.join(", ")
                )));
            }
        }
    }
    Ok(())
}

/// `tensor.insert_slice` of a computed box into the accumulator.
fn insert(
    em: &mut Em,
    ctx: &Ctx,
    out: ValueId,
    tile: &str,
    bx: &Bx,
    acc: &str,
    aty: &str,
) -> Result<String> {
    let elem = match &ctx.p.value(out).ty {
        Type::Tensor(t) => t.elem.clone(),
        _ => return Err(Error::Invalid("emit: the output is not a tensor".into())),
    };
    let lists = em.slice_lists(&bx.lo, &bx.size);
    let name = em.fresh();
    em.line(&format!(
        "{name} = tensor.insert_slice {tile} into {acc}{lists} : {} into {aty}",
        tensor_type(&bx.size, &elem)
    ));
    Ok(name)
}

/// One partition `[lo, hi)`, tiled along the tiled dimensions from `k` on.
#[allow(clippy::too_many_arguments)]
fn partition_cell(
    em: &mut Em,
    ctx: &Ctx,
    out: ValueId,
    tile_of: &[Option<i64>],
    lo: Vec<Lin>,
    hi: Vec<Lin>,
    k: usize,
    acc: String,
    aty: &str,
) -> Result<String> {
    if k == lo.len() {
        let bx = Bx {
            size: hi.iter().zip(&lo).map(|(h, l)| h.sub(l)).collect(),
            lo,
        };
        let (tile, _) = emit_box(em, ctx, out, &bx, false, Some((&acc, aty)))?;
        return insert(em, ctx, out, &tile, &bx, &acc, aty);
    }
    let Some(t) = tile_of[k] else {
        return partition_cell(em, ctx, out, tile_of, lo, hi, k + 1, acc, aty);
    };
    let ext = hi[k].sub(&lo[k]);
    match ext.as_const() {
        Some(e) if e <= t => partition_cell(em, ctx, out, tile_of, lo, hi, k + 1, acc, aty),
        Some(e) => {
            let n = e / t;
            let split = lo[k].plus(n * t);
            let mut acc = acc;
            if n == 1 {
                let mut h = hi.clone();
                h[k] = split.clone();
                acc = partition_cell(em, ctx, out, tile_of, lo.clone(), h, k + 1, acc, aty)?;
            } else {
                let (rl, rh) = em.range(&lo[k]);
                let r = (rl, rh.map(|h| h + (n - 1) * t));
                let (l0, h0) = (lo.clone(), hi.clone());
                acc = em.for_loop(&lo[k], &split, t, r, (&acc, aty), |em, iv, a| {
                    let (mut l, mut h) = (l0, h0);
                    h[k] = iv.plus(t);
                    l[k] = iv;
                    partition_cell(em, ctx, out, tile_of, l, h, k + 1, a, aty)
                })?;
            }
            if e % t != 0 {
                let mut l = lo;
                l[k] = split;
                acc = partition_cell(em, ctx, out, tile_of, l, hi, k + 1, acc, aty)?;
            }
            Ok(acc)
        }
        None => {
            let r = (em.range(&lo[k]).0, em.range(&hi[k]).1.map(|h| h - 1));
            let (l0, h0) = (lo.clone(), hi.clone());
            em.for_loop(&lo[k], &hi[k], t, r, (&acc, aty), |em, iv, a| {
                let (mut l, mut h) = (l0, h0);
                let end = iv.plus(t);
                let e = em.min(&end, &h[k]);
                let size = e.sub(&iv);
                h[k] = iv.add(&size);
                l[k] = iv;
                partition_cell(em, ctx, out, tile_of, l, h, k + 1, a, aty)
            })
        }
    }
}
