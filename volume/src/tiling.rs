//! Tiling maps, tiled program maps, interior tiles and slice matching (paper
//! Sec. 5.2–5.3, Algorithms 2 and 3).
//!
//! A tiling of an output volume splits each tiled dimension `d` of size-`T_d` tiles
//! into a tile index `q_d` and an in-tile index `m_d`. Composing the tiling map with
//! the program's map gives the element map of the tiled program; with the tile
//! indices promoted to parameters `Q<d>` (the tile loops' induction variables) the
//! sets of elements a tile writes and reads are parametric slices, which
//! [`match_slice`] recovers as offsets, sizes and strides.
//!
//! Tile parameter domains are returned as sets `{ [Q2, Q3] : ... }` (an anonymous
//! tuple with one dimension per tiled output dimension, in increasing order of the
//! output dimension, named `Q<d>`), so they can be enumerated with `points` and
//! compared directly; [`tiles_as_params`] turns one into a parameter-only set.

use crate::error::{Error, Result};
use crate::regions::{build, inequality_rows};
use crate::shape::tuple;
use presburger::build::Expr;
use presburger::{BasicSet, Conjunction, DimKind, Int, Map, Set, Space, Tuple, UnionMap};
use std::fmt;

fn is_identifier(s: &str) -> bool {
    !s.is_empty()
        && !s.starts_with(|c: char| c.is_ascii_digit())
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The tiling map `M_T = { <output>_tile[..., q_d, m_d, ...] -> output[...,
/// T_d q_d + m_d, ...] : 0 <= m_d < T_d }` (paper Sec. 5.2): every tiled
/// dimension `d` (given as `(d, T_d)`) becomes the pair `(q_d, m_d)`, untiled
/// dimensions are copied. The dimensions of the tiled volume are named `i<d>`,
/// `q<d>`, `m<d>`; [`tiled_program_map`] and the functions below find the tile
/// indices by those names.
///
/// Errors: an output name that is not an identifier, a dimension out of range or
/// tiled twice, a tile size below 1.
pub fn tile_map(output: &str, rank: usize, tiles: &[(usize, i64)]) -> Result<Map> {
    if !is_identifier(output) {
        return Err(Error::Invalid(format!(
            "tile_map: `{output}` is not a volume name"
        )));
    }
    let mut size = vec![None; rank];
    for &(d, t) in tiles {
        if d >= rank {
            return Err(Error::Request(format!(
                "tile_map: dimension {d} of a rank-{rank} volume (the dimensions are 0 to {})",
                rank.saturating_sub(1)
            )));
        }
        if t < 1 {
            return Err(Error::Request(format!(
                "tile_map: tile size {t} for dimension {d}"
            )));
        }
        if size[d].replace(t).is_some() {
            return Err(Error::Request(format!(
                "tile_map: dimension {d} tiled twice"
            )));
        }
    }
    let mut dom = Vec::new();
    let mut ran = Vec::new();
    let mut cons = Vec::new();
    for (d, s) in size.iter().enumerate() {
        match s {
            None => {
                ran.push(Expr::dim(DimKind::In, dom.len()));
                dom.push(format!("i{d}"));
            }
            Some(t) => {
                let q = Expr::dim(DimKind::In, dom.len());
                let m = Expr::dim(DimKind::In, dom.len() + 1);
                dom.push(format!("q{d}"));
                dom.push(format!("m{d}"));
                ran.push(*t * &q + &m);
                cons.push(m.ge(0));
                cons.push(m.lt(*t));
            }
        }
    }
    let space = Space::map(
        Vec::new(),
        tuple(Some(&format!("{output}_tile")), &dom),
        Tuple::named(Some(output.to_string()), rank),
    );
    let mut all: Vec<_> = ran
        .into_iter()
        .enumerate()
        .map(|(j, e)| Expr::dim(DimKind::Out, j).eq(e))
        .collect();
    all.extend(cons);
    Ok(Map::from_constraints(&space, all)?)
}

/// The tuple name of a set's space, `None` for none or an empty one.
fn tuple_name(s: &Set) -> Option<String> {
    s.space()
        .range_tuple()
        .name
        .clone()
        .filter(|n| !n.is_empty())
}

/// The tile indices of a tile map: `(position in the domain tuple, output dim d)`,
/// found by the names `q<d>` given by [`tile_map`].
fn tile_dims(tile: &Map) -> Result<Vec<(usize, usize)>> {
    let dom = tile
        .space()
        .domain_tuple()
        .ok_or_else(|| Error::Invalid("a tile map must be a map".into()))?;
    let dims: Vec<(usize, usize)> = dom
        .dim_names()
        .iter()
        .enumerate()
        .filter_map(|(pos, n)| {
            let n = n.as_ref()?;
            let d = n.strip_prefix('q')?.parse::<usize>().ok()?;
            Some((pos, d))
        })
        .collect();
    if dims.is_empty() {
        return Err(Error::Invalid(
            "not a tile map from tile_map: no tile index dimension q<d>".into(),
        ));
    }
    Ok(dims)
}

/// `[Q..] -> { <tile>[...] : q_d = Q_d }`: the tile-domain context fixing each
/// tile index to its parameter.
fn tile_index_context(tile: &Map) -> Result<Set> {
    let dims = tile_dims(tile)?;
    let dom = tile.domain();
    let n = dom.space().n_out();
    let vars: Vec<String> = (0..n).map(|k| format!("t{k}")).collect();
    let mut params: Vec<String> = Vec::new();
    let mut cons = Vec::new();
    for (pos, d) in &dims {
        let q = format!("Q{d}");
        let k = match params.iter().position(|p| *p == q) {
            Some(k) => k,
            None => {
                params.push(q);
                params.len() - 1
            }
        };
        cons.push(Expr::dim(DimKind::SET, *pos).eq(Expr::param(k)));
    }
    let space = Space::set(params, tuple(tuple_name(&dom).as_deref(), &vars));
    Ok(Set::from_constraints(&space, cons)?)
}

/// The element map of the tiled program, `M_T ∘ M` restricted to the output's
/// domain, with the tile indices promoted to parameters (paper Sec. 5.2–5.3 and
/// Algorithm 2): `[Q2, Q3] -> { act0_tile[i0, i1, q2, m2, q3, m3] -> ifm[...] :
/// q2 = Q2 and q3 = Q3 and ... }`. For fixed parameters it is the map of one tile
/// (the tile loops' body); the tile indices stay in the tuple, equal to their
/// parameters, as in the paper's printout.
pub fn tiled_program_map(
    tile: &Map,
    program_map: &UnionMap,
    output_domain: &Set,
) -> Result<UnionMap> {
    let ctx = tile_index_context(tile)?;
    let mt = tile
        .intersect_range(output_domain)?
        .intersect_domain(&ctx)?;
    let composed = UnionMap::from(mt).apply_range(program_map)?;
    Ok(composed.coalesce()?)
}

/// Projects a set of tiled elements onto its tile indices: `{ [Q..] : ... }`.
fn project_to_tiles(tiled: &Set, dims: &[(usize, usize)]) -> Result<Set> {
    let n = tiled.space().n_out();
    let mut s = tiled.clone();
    let keep: Vec<usize> = dims.iter().map(|(p, _)| *p).collect();
    for pos in (0..n).rev() {
        if !keep.contains(&pos) {
            s = s.project_out_exact(DimKind::Out, pos, 1)?;
        }
    }
    let mut s = s.set_tuple_name(None);
    // positions kept appear in increasing order; name them after the output dim
    let mut order: Vec<&(usize, usize)> = dims.iter().collect();
    order.sort();
    for (k, (_, d)) in order.iter().enumerate() {
        s = s.set_dim_name(DimKind::Out, k, &format!("Q{d}"))?;
    }
    Ok(s.coalesce_fuse_only()?)
}

/// The tiles that meet `output_domain`: `{ [Q..] : tile Q has an element in the
/// domain }` (the loop bounds of Algorithm 2).
pub fn all_tiles(tile: &Map, output_domain: &Set) -> Result<Set> {
    let dims = tile_dims(tile)?;
    project_to_tiles(&tile.intersect_range(output_domain)?.domain(), &dims)
}

/// The interior tiles: those whose elements all lie in `output_domain` and none in
/// `avoid` (normally the constant region `I_c`), as `{ [Q..] : ... }` (paper
/// Sec. 5.3: "We reject all tiles using I_c ... This becomes a bound on the
/// parameter domain").
///
/// Idea: the elements of a tile are taken along the untiled dimensions only where
/// the domain has elements (a tile map leaves those dimensions unbounded): `ext`
/// holds every `(i, q, m)` with `0 <= m < T` such that some `(i, q, m')` is in the
/// domain. A tile is bad when an element of `ext` lies outside the domain or in
/// `avoid`; the bad tiles are the projection of those elements onto the tile
/// indices, and the interior tiles are the tiles meeting the domain minus the bad
/// ones (exact), coalesced by the fuse case alone (boxes stay boxes: the emitter reads
/// boxes). Use [`disjoint_pieces`] when the result has several disjuncts.
pub fn interior_tiles(tile: &Map, output_domain: &Set, avoid: &Set) -> Result<Set> {
    let dims = tile_dims(tile)?;
    let all = all_tiles(tile, output_domain)?;
    let in_domain = tile.intersect_range(output_domain)?.domain();
    let ext = same_tile_and_outer(tile)?.apply_to(&in_domain)?;
    let outside = output_domain.complement()?.union(avoid)?;
    let touching = tile.intersect_range(&outside)?.domain();
    let bad = project_to_tiles(&ext.intersect(&touching)?, &dims)?;
    Ok(all.subtract(&bad)?.coalesce_fuse_only()?)
}

/// `{ t[..] -> t[..'] : equal except in the in-tile dims m<d> }` with the range
/// limited to the tile map's domain (so `0 <= m' < T`).
fn same_tile_and_outer(tile: &Map) -> Result<Map> {
    let dom = tile.domain();
    let names = dom.space().range_tuple().dim_names();
    let name = tuple_name(&dom);
    let n = names.len();
    let a: Vec<String> = (0..n).map(|k| format!("a{k}")).collect();
    let b: Vec<String> = (0..n).map(|k| format!("b{k}")).collect();
    let eqs: Vec<_> = names
        .iter()
        .enumerate()
        .filter(|(_, nm)| !nm.as_deref().is_some_and(|x| x.starts_with('m')))
        .map(|(k, _)| Expr::dim(DimKind::In, k).eq(Expr::dim(DimKind::Out, k)))
        .collect();
    let space = Space::map(
        Vec::new(),
        tuple(name.as_deref(), &a),
        tuple(name.as_deref(), &b),
    );
    let m = Map::from_constraints(&space, eqs)?;
    Ok(m.intersect_range(&dom)?)
}

/// A parameter domain `{ [Q2, Q3] : ... }` as a parameter-only set
/// `[Q2, Q3] -> { [] : ... }`.
pub fn tiles_as_params(tiles: &Set) -> Result<Set> {
    let n = tiles.space().n_out();
    Ok(tiles.move_dims(DimKind::Param, tiles.space().n_param(), DimKind::Out, 0, n)?)
}

/// `set` with its parameters restricted to the tile parameter domain `tiles`
/// (`{ [Q..] : ... }`), then simplified in that context ([`Set::gist`]): for the
/// footprint of interior tiles, constraints that only clip at the volume's
/// boundary become redundant and disappear.
pub fn restrict_to_tiles(set: &Set, tiles: &Set) -> Result<Set> {
    let ctx = tiles_as_params(tiles)?;
    let lifted = ctx
        .flat_product(&Set::universe(set.space().clone())?)?
        .set_tuple_name(set.space().range_tuple().name.as_deref());
    let r = set.intersect(&lifted)?;
    Ok(r.gist(&lifted)?.coalesce_fuse_only()?)
}

/// Cuts a set into pairwise disjoint conjunctions covering it (Sec. 5.3: "If the
/// parameter domain has multiple disjuncts, we can recursively apply the
/// partitioning techniques"; each piece gets its own loop nest).
///
/// Idea: a worklist of conjunctions of the set coalesced by the fuse case alone
/// (so that boxes stay boxes); each one minus what is
/// covered already is either one conjunction (kept, and added to the cover) or
/// several, which go back onto the worklist. An error (not a panic) if that does
/// not settle within a generous number of steps.
pub fn disjoint_pieces(set: &Set) -> Result<Vec<Set>> {
    let space = set.space().clone();
    let mut covered = Set::empty(space.clone())?;
    let mut out = Vec::new();
    let mut work: Vec<Set> = set.coalesce_fuse_only()?.basics().map(Set::from).collect();
    work.reverse();
    let mut steps = 0usize;
    while let Some(b) = work.pop() {
        steps += 1;
        if steps > 10_000 {
            return Err(Error::Invalid(
                "disjoint_pieces: the set does not split into few disjoint pieces".into(),
            ));
        }
        let rest = b.subtract(&covered)?.coalesce_fuse_only()?;
        if rest.is_empty()? {
            continue;
        }
        if rest.n_basic() == 1 {
            covered = covered.union(&rest)?;
            out.push(rest);
        } else {
            let mut parts: Vec<Set> = rest.basics().map(Set::from).collect();
            // the first part is kept at once so the worklist shrinks
            let first = parts.remove(0);
            covered = covered.union(&first)?;
            out.push(first);
            parts.reverse();
            work.extend(parts);
        }
    }
    Ok(out)
}

/// The elements of the volume named `input` that the tiled map reads: the union of
/// the ranges of its members in that volume (parametric in the tile indices).
pub fn footprint(tiled: &UnionMap, input: &str) -> Result<Option<Set>> {
    let mut r: Option<Set> = None;
    for m in tiled.members() {
        if m.space().range_tuple().name.as_deref() == Some(input) {
            let rg = m.range();
            r = Some(match r {
                None => rg,
                Some(x) => x.union(&rg)?,
            });
        }
    }
    r.map(|s| s.coalesce_fuse_only())
        .transpose()
        .map_err(Error::from)
}

/// The read footprint without the clipping to the input's bounds.
///
/// A tile near the boundary reads rows `32Q - 1 ..= 32Q + 33` clipped to
/// `0 ..= 511`; the clipping is a max/min of affine expressions, so the clipped set
/// is not one slice. Here every constraint of each conjunction that the input's
/// domain implies (a clipping candidate, such as `y >= 0`) is dropped when the
/// conjunction stays bounded without it; constraints needed for boundedness (the
/// channel range `0 <= c < 3`, which the operation itself imposes) stay. The result
/// contains `footprint` and agrees with it on `input_domain` for tiles whose
/// unclipped rows lie inside the input. (Sec. 5.3 reads the slice offset
/// `32Q_h - 1` of `%ifm` from such a set.)
pub fn unclipped(footprint: &Set, input_domain: &Set) -> Result<Set> {
    let mut out = Set::empty(footprint.space().clone())?;
    // the input domain in the footprint's parameter space
    let dom = input_domain.intersect(&Set::universe(footprint.space().clone())?)?;
    for b in footprint.basics() {
        let c = b.conjunction();
        let rows = inequality_rows(c);
        let mut keep = vec![true; rows.len()];
        for k in 0..rows.len() {
            keep[k] = false;
            let implied = match single_row(c, &rows[k])? {
                Some(only) => dom.is_subset(&only)?,
                None => false,
            };
            if !implied || !build(c, &rows, &keep)?.is_bounded()? {
                keep[k] = true;
            }
        }
        out = out.union(&build(c, &rows, &keep)?)?;
    }
    Ok(out.coalesce_fuse_only()?)
}

/// `{ x : row(x) >= 0 }` in the space of `c`; `None` when the row uses locals of
/// `c` (then it is not a bound of the input's domain and is never dropped).
fn single_row(c: &Conjunction, row: &[Int]) -> Result<Option<Set>> {
    let nv = 1 + c.space().n_var();
    if row[nv..].iter().any(|x| !x.is_zero()) {
        return Ok(None);
    }
    let mut n = Conjunction::universe(c.space().clone());
    n.add_ineq(row[..nv].to_vec())?;
    Ok(Some(Set::from(BasicSet::from_conjunction(n)?)))
}

/// Offsets, sizes and strides of a slice (paper Def. 4.9), each an affine
/// expression of the parameters (the tile indices), printed as `32Q2 - 1`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Slice {
    pub offsets: Vec<String>,
    pub sizes: Vec<String>,
    pub strides: Vec<String>,
}

impl fmt::Display for Slice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "offsets [{}] sizes [{}] strides [{}]",
            self.offsets.join(", "),
            self.sizes.join(", "),
            self.strides.join(", ")
        )
    }
}

/// `row·(1, params)` as text (`32Q2 - 1`, `-Q3 + 4`, `0`).
pub(crate) fn aff_to_string(row: &[Int], params: &[String]) -> String {
    let mut s = String::new();
    for (p, c) in params.iter().zip(&row[1..]) {
        if c.is_zero() {
            continue;
        }
        let neg = c.is_negative();
        let a = c.abs();
        let coef = if a.is_one() {
            String::new()
        } else {
            a.to_string()
        };
        if s.is_empty() {
            s = format!("{}{coef}{p}", if neg { "-" } else { "" });
        } else {
            s = format!("{s} {} {coef}{p}", if neg { "-" } else { "+" });
        }
    }
    let k = &row[0];
    if s.is_empty() {
        return k.to_string();
    }
    if !k.is_zero() {
        s = format!(
            "{s} {} {}",
            if k.is_negative() { "-" } else { "+" },
            k.abs()
        );
    }
    s
}

/// Fourier–Motzkin elimination of every column of `rows` except the constant, the
/// first `keep` variable columns, and column `extra`: a rational projection, so
/// a superset of the integer projection (the candidates it yields are verified
/// by the caller). `None` when the rows grow past a limit.
fn fm_project(rows: &[Vec<Int>], keep: usize, extra: usize) -> Option<Vec<Vec<Int>>> {
    let ncol = rows.first().map_or(0, Vec::len);
    let mut cur: Vec<Vec<Int>> = rows.to_vec();
    for c in (1 + keep..ncol).rev() {
        if c == extra {
            continue;
        }
        let (mut pos, mut neg, mut zero) = (Vec::new(), Vec::new(), Vec::new());
        for r in cur {
            if r[c].is_positive() {
                pos.push(r);
            } else if r[c].is_negative() {
                neg.push(r);
            } else {
                zero.push(r);
            }
        }
        // the combination would exceed the row limit: give up before building it
        if zero.len() + pos.len() * neg.len() > 4000 {
            return None;
        }
        for p in &pos {
            for q in &neg {
                let (a, b) = (q[c].abs(), p[c].clone());
                let mut r: Vec<Int> = p
                    .iter()
                    .zip(q)
                    .map(|(x, y)| &(x * &a) + &(y * &b))
                    .collect();
                let g = r[1..].iter().fold(Int::ZERO, |g, x| gcd(&g, x));
                if g.is_zero() {
                    continue; // a constant row: holds, or the set is empty anyway
                }
                if !g.is_one() {
                    r[0] = r[0].floor_div(&g);
                    for x in &mut r[1..] {
                        *x = x.exact_div(&g);
                    }
                }
                if !zero.contains(&r) {
                    zero.push(r);
                }
            }
        }
        cur = zero;
    }
    Some(cur)
}

fn gcd(a: &Int, b: &Int) -> Int {
    let (mut a, mut b) = (a.abs(), b.abs());
    while !b.is_zero() {
        let r = &a - &(&a.floor_div(&b) * &b);
        a = b;
        b = r;
    }
    a
}

/// A candidate `(offset, size, stride)` of one dimension for [`match_slice`].
type Candidate = (Vec<Int>, Vec<Int>, Int);

/// Matches a set to a slice: for each dimension the offset (smallest value), the
/// stride and the number of elements, as affine expressions of the parameters
/// (paper Algorithm 3, MatchSlice). `None` when the set is not a slice. The slice
/// describes the set for the parameter values where the set is not empty (for
/// tiles: the tiles in the set's parameter domain).
///
/// Idea (Algorithm 3): the offset is a lower bound of the dimension, affine in the
/// parameters; the stride is the coefficient of the single local in an equality
/// `x_d = offset + s·e` that involves no other set dimension (1 without one); the
/// size is `(max - min)/stride + 1`. The candidate bounds of dimension `d` are the
/// unit-coefficient bounds left after a Fourier–Motzkin projection onto the
/// parameters and `x_d` (existentials such as in-tile indices included). Instead
/// of trusting the pattern, each candidate slice (at most 256 combinations) is
/// rebuilt as a set and compared with `set` exactly ([`Set::is_equal`], within the
/// set's parameter domain): any set that is not a slice (holes, coupled
/// dimensions, a max/min of bounds such as a footprint clipped at the volume's
/// boundary) gives `None`.
pub fn match_slice(set: &Set) -> Result<Option<Slice>> {
    let set = set.coalesce_fuse_only()?;
    if set.is_empty()? || set.n_basic() != 1 {
        return Ok(None);
    }
    let sp = set.space().clone();
    let params = sp.params().to_vec();
    let (np, n) = (sp.n_param(), sp.n_out());
    let basic = set.basics().next().map(|b| b.conjunction().clone());
    let Some(conj) = basic else { return Ok(None) };
    let rows = inequality_rows(&conj);
    let nv = 1 + np + n;
    // per dimension: candidate (offset, size, stride) rows
    let mut cands: Vec<Vec<Candidate>> = Vec::new();
    for d in 0..n {
        let col = 1 + np + d;
        let Some(proj) = fm_project(&rows, np, col) else {
            return Ok(None);
        };
        let mut los = Vec::new();
        let mut his = Vec::new();
        for r in &proj {
            // c·x + f >= 0
            if r[col].is_one() {
                los.push(r[..=np].iter().map(|x| -x).collect::<Vec<Int>>());
            } else if (-&r[col]).is_one() {
                his.push(r[..=np].to_vec());
            }
        }
        // stride from an equality x_d = ... + s e with one local and no other dim
        let mut stride = Int::ONE;
        for e in conj.equalities() {
            if !e[col].abs().is_one() || (1 + np..nv).any(|c| c != col && !e[c].is_zero()) {
                continue;
            }
            let locals: Vec<&Int> = e[nv..].iter().filter(|x| !x.is_zero()).collect();
            if let [l] = locals.as_slice() {
                stride = l.abs();
            }
        }
        let mut c = Vec::new();
        for lo in &los {
            for hi in &his {
                let diff: Vec<Int> = hi.iter().zip(lo).map(|(a, b)| a - b).collect();
                if diff.iter().any(|x| !x.is_divisible_by(&stride)) {
                    continue;
                }
                let mut size: Vec<Int> = diff.iter().map(|x| x.exact_div(&stride)).collect();
                size[0] += Int::ONE;
                c.push((lo.clone(), size, stride.clone()));
            }
        }
        if c.is_empty() {
            return Ok(None);
        }
        cands.push(c);
    }
    let total = cands
        .iter()
        .try_fold(1usize, |acc, c| acc.checked_mul(c.len()));
    if total.is_none_or(|t| t > 256) {
        return Ok(None);
    }
    // the parameter domain of the set, lifted into its space
    let pdom = set.project_out_exact(DimKind::Out, 0, n)?;
    let context = pdom
        .flat_product(&Set::universe(sp.clone())?)?
        .set_tuple_name(sp.range_tuple().name.as_deref());
    let vars: Vec<String> = (0..n).map(|d| format!("x{d}")).collect();
    let rebuilt_space = Space::set(params.clone(), tuple(tuple_name(&set).as_deref(), &vars));
    // `row·(1, params)` as an expression
    let aff = |row: &[Int]| -> Expr {
        row[1..]
            .iter()
            .enumerate()
            .fold(Expr::from(row[0].clone()), |e, (i, c)| {
                e + Expr::param(i).scale(c)
            })
    };
    let mut choice = vec![0usize; n];
    loop {
        let pick: Vec<&Candidate> = choice.iter().zip(&cands).map(|(&k, c)| &c[k]).collect();
        // x_d = offset_d + stride_d·k_d with 0 <= k_d < size_d
        let mut cons = Vec::new();
        for (d, (lo, size, st)) in pick.iter().enumerate() {
            let k = Expr::exists(d);
            cons.push(Expr::dim(DimKind::SET, d).eq(aff(lo) + k.scale(st)));
            cons.push(k.ge(0));
            cons.push((&k + 1).le(aff(size)));
        }
        let rebuilt = Set::from_constraints(&rebuilt_space, cons)?;
        let rebuilt = rebuilt.intersect(&context)?;
        if rebuilt.is_equal(&set)? {
            return Ok(Some(Slice {
                offsets: pick.iter().map(|c| aff_to_string(&c.0, &params)).collect(),
                sizes: pick.iter().map(|c| aff_to_string(&c.1, &params)).collect(),
                strides: pick.iter().map(|c| c.2.to_string()).collect(),
            }));
        }
        // next combination
        let mut k = 0;
        loop {
            if k == n {
                return Ok(None);
            }
            choice[k] += 1;
            if choice[k] < cands[k].len() {
                break;
            }
            choice[k] = 0;
            k += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(s: &str) -> Set {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    #[test]
    fn tile_map_rejects_bad_input() {
        assert!(tile_map("a b", 2, &[(0, 4)]).is_err());
        assert!(tile_map("a", 2, &[(2, 4)]).is_err());
        assert!(tile_map("a", 2, &[(0, 0)]).is_err());
        assert!(tile_map("a", 2, &[(0, 4), (0, 8)]).is_err());
        let m = tile_map("a", 2, &[(1, 4)]).unwrap();
        let want: Map = "{ a_tile[i, q, m] -> a[i, 4q + m] : 0 <= m < 4 }"
            .parse()
            .unwrap();
        assert!(m.is_equal(&want).unwrap());
    }

    /// The tile index context fixes each tile index `q<d>` (wherever it stands in
    /// the tiled tuple) to its parameter `Q<d>`; the same-tile relation frees
    /// only the in-tile dimensions `m<d>`.
    #[test]
    fn tile_contexts_follow_the_dimension_names() {
        let m = tile_map("a", 3, &[(2, 4), (0, 8)]).unwrap();
        let want: Map =
            "{ a_tile[q0, m0, i1, q2, m2] -> a[8q0 + m0, i1, 4q2 + m2] : 0 <= m0 < 8 and 0 <= m2 < 4 }"
                .parse()
                .unwrap();
        assert!(m.is_equal(&want).unwrap(), "{m}");
        let ctx = tile_index_context(&m).unwrap();
        let want = set("[Q0, Q2] -> { a_tile[t0, t1, t2, t3, t4] : t0 = Q0 and t3 = Q2 }");
        assert!(ctx.is_equal(&want).unwrap(), "{ctx}");
        assert_eq!(ctx.space().params(), ["Q0", "Q2"]);
        let same = same_tile_and_outer(&m).unwrap();
        let want: Map = "{ a_tile[q0, m0, i1, q2, m2] -> a_tile[q0, m0', i1, q2, m2'] : \
                         0 <= m0' < 8 and 0 <= m2' < 4 }"
            .parse()
            .unwrap();
        assert!(same.is_equal(&want).unwrap(), "{same}");
    }

    #[test]
    fn slices_are_matched_and_non_slices_rejected() {
        let s = match_slice(&set(
            "[Q] -> { A[y, x] : exists e : y = 8Q + 2e and 0 <= e < 5 and x = 3 }",
        ))
        .unwrap()
        .unwrap();
        assert_eq!(s.offsets, ["8Q", "3"]);
        assert_eq!(s.sizes, ["5", "1"]);
        assert_eq!(s.strides, ["2", "1"]);
        // clipped at 0: max(0, 32Q - 1) is not affine
        let clipped = set("[Q] -> { A[y] : 0 <= y and 32Q - 1 <= y <= 32Q + 33 and 0 <= Q <= 15 }");
        assert_eq!(match_slice(&clipped).unwrap(), None);
        // a hole
        assert_eq!(
            match_slice(&set("{ A[y] : 0 <= y <= 9 and y != 4 }")).unwrap(),
            None
        );
        // coupled dimensions
        assert_eq!(
            match_slice(&set("{ A[y, x] : 0 <= y <= 3 and 0 <= x <= y }")).unwrap(),
            None
        );
        // without the clipping it is one slice
        let open = unclipped(&clipped, &set("{ A[y] : 0 <= y <= 511 }")).unwrap();
        let s = match_slice(&open).unwrap().unwrap();
        assert_eq!(
            (s.offsets[0].as_str(), s.sizes[0].as_str()),
            ("32Q - 1", "35")
        );
    }

    #[test]
    fn disjoint_pieces_cover_without_overlap() {
        let s = set("{ [a, b] : 0 <= a <= 5 and 0 <= b <= 5 and (a <= 1 or b <= 1) }");
        let p = disjoint_pieces(&s).unwrap();
        let mut u = Set::empty(s.space().clone()).unwrap();
        for (i, x) in p.iter().enumerate() {
            for y in &p[i + 1..] {
                assert!(x.is_disjoint(y).unwrap());
            }
            u = u.union(x).unwrap();
        }
        assert!(u.is_equal(&s).unwrap());
    }
}
