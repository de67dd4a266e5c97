//! Rectangular tiling, intra-tile loop order and tile wavefronts of a
//! schedule's permutable bands.
//!
//! A [`Schedule`] (crate `schedule`) gives each statement one affine row
//! `θ_d` per time dimension and lists its permutable bands. Tiling band
//! `first..=last` by sizes `s_k` puts, before the band, one *tile* dimension
//! `T_k = floor(θ_k / s_k)` per loop (non-scalar) dimension `k` of the band,
//! then the band's own dimensions (the *point* dimensions):
//!
//! ```text
//! [.., θ_first, .., θ_last, ..]  ->  [.., T_first, .., T_last, θ_first, .., θ_last, ..]
//! ```
//!
//! which is legal because the band is permutable (every dependence not
//! carried before it has a non-negative distance on each of its dimensions,
//! so also on each `floor(θ_k / s_k)`). As a relation the tile dimension is
//! the pair of constraints `s_k·T_k <= θ_k <= s_k·T_k + s_k - 1`, so the scan
//! ([`crate::generate`]) bounds a point loop by `max(s·T, lb)` and
//! `min(s·T + s - 1, ub)`: partial tiles take min/max bounds, not guards.
//!
//! Within a tile the point loops may run in any order (permutability again);
//! [`Layout::reorder_points`] moves inwards the parallel point loop whose
//! accesses are most often stride-1 or invariant (Pluto's intra-tile
//! optimisation, simplified), so the innermost loop can be vectorised; the
//! loop nests that scalar dimensions before the band separate choose
//! apart.
//!
//! A [`Layout::wavefront`] of a tiled band replaces its first tile dimension
//! `T_a` by `T_a + T_b` (`T_b` the second): tiles on one anti-diagonal carry
//! no dependence between them (a dependence has non-negative tile distances
//! on both, so a zero sum means zero on each), so `T_b` becomes parallel
//! (tile-level pipelining for bands without a parallel dimension).
//!
//! The transformed schedule is described by a [`Layout`], a list of
//! [`Dim`]s, and turned into a union map by [`Layout::union_map`].

use crate::error::{Error, Result};
use presburger::build::{Constraint, Expr as Aff};
use presburger::{DimKind, Int, Map, Space, Tuple, UnionMap};
use presburger_schedule::{Schedule, Scop};

/// The tile size used for a band dimension without an explicit size.
pub const DEFAULT_TILE_SIZE: i64 = 32;

/// What to tile.
#[derive(Clone, Debug)]
pub struct TileOptions {
    /// Tile the permutable bands at all.
    pub tile: bool,
    /// The tile size of each loop dimension of a band, outermost first
    /// (the same list for every band); a dimension beyond the list gets
    /// `default_size`. A size of 1 leaves the dimension untiled.
    pub sizes: Vec<i64>,
    /// The size of the dimensions beyond `sizes` ([`DEFAULT_TILE_SIZE`]
    /// by default).
    pub default_size: i64,
    /// Tile bands of a single loop too (by default they are left alone:
    /// one tile loop around one point loop gains nothing).
    pub single: bool,
    /// Reorder the point loops of each tiled band (see
    /// [`Layout::reorder_points`]).
    pub reorder: bool,
}

impl Default for TileOptions {
    fn default() -> TileOptions {
        TileOptions {
            tile: true,
            sizes: Vec::new(),
            default_size: DEFAULT_TILE_SIZE,
            single: false,
            reorder: true,
        }
    }
}

/// One dimension of a transformed schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dim {
    /// The original time dimension `dim` itself, `θ_dim`.
    Point {
        /// The original dimension.
        dim: usize,
    },
    /// A tile dimension: the `T` with `size·(T - Σ others) <= θ_dim <=
    /// size·(T - Σ others) + size - 1`, that is `T = floor(θ_dim / size) +
    /// Σ others`, where `others` are positions of other dimensions of the
    /// layout (empty for a plain tile; the second tile dimension for a
    /// wavefront).
    Tile {
        /// The original dimension tiled.
        dim: usize,
        /// The tile size (at least 1).
        size: i64,
        /// Positions (in the layout) of the dimensions added to the tile
        /// index.
        plus: Vec<usize>,
    },
}

/// A tiled band of a [`Layout`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TiledBand {
    /// The band in the original schedule, `(first, last)` inclusive.
    pub band: (usize, usize),
    /// The positions of its tile dimensions in the layout, outermost
    /// first (consecutive).
    pub tiles: Vec<usize>,
    /// The positions of its point dimensions (consecutive, after the
    /// tiles).
    pub points: Vec<usize>,
    /// Whether its first two tile dimensions form a wavefront.
    pub wavefront: bool,
}

/// A transformed schedule: its dimensions in order and its tiled bands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The dimensions, outermost first.
    pub dims: Vec<Dim>,
    /// The bands that were tiled.
    pub bands: Vec<TiledBand>,
    /// Point loops reordered for some statements
    /// ([`Layout::reorder_points`]): `(statement, position, dimension)`,
    /// the statement (an index into the schedule's statements) scans
    /// original dimension `dimension` at `position` instead of the one of
    /// [`Layout::dims`].
    pub moved: Vec<(usize, usize, usize)>,
}

impl Layout {
    /// Per dimension: true for a tile dimension ([`Dim::Tile`]), the
    /// dimensions that `poly opt` scans over rational shadows
    /// ([`crate::Options::approximate`]).
    pub fn tile_dims(&self) -> Vec<bool> {
        self.dims
            .iter()
            .map(|d| matches!(d, Dim::Tile { .. }))
            .collect()
    }

    /// The layout of `sched` with each permutable band tiled as `opts`
    /// says (the untransformed schedule when `opts.tile` is false or no band
    /// qualifies): a band is tiled when at least two of its loop dimensions
    /// (one with `opts.single`) get a size above 1.
    pub fn new(sched: &Schedule, opts: &TileOptions) -> Result<Layout> {
        let n = sched.n_dims();
        for &(a, b) in &sched.bands {
            if a > b || b >= n {
                return Err(Error::Input(format!(
                    "the band {a}..{b} does not fit the {n} dimensions of the schedule"
                )));
            }
        }
        if let Some(s) = opts
            .sizes
            .iter()
            .chain([&opts.default_size])
            .find(|&&s| s < 1)
        {
            return Err(Error::Input(format!(
                "a tile size must be at least 1, not {s}"
            )));
        }
        let mut dims = Vec::with_capacity(2 * n);
        let mut bands = Vec::new();
        let mut d = 0;
        while d < n {
            let band = sched.bands.iter().copied().find(|&(a, _)| a == d);
            let Some((a, b)) = band.filter(|_| opts.tile) else {
                dims.push(Dim::Point { dim: d });
                d += 1;
                continue;
            };
            let loops: Vec<usize> = (a..=b).filter(|&k| !sched.is_scalar(k)).collect();
            let tiled: Vec<(usize, i64)> = loops
                .iter()
                .enumerate()
                .map(|(j, &k)| (k, opts.sizes.get(j).copied().unwrap_or(opts.default_size)))
                .filter(|&(_, s)| s > 1)
                .collect();
            let wanted = if opts.single { 1 } else { 2 };
            if tiled.len() < wanted {
                for k in a..=b {
                    dims.push(Dim::Point { dim: k });
                }
                d = b + 1;
                continue;
            }
            let tiles: Vec<usize> = (dims.len()..dims.len() + tiled.len()).collect();
            for &(k, size) in &tiled {
                dims.push(Dim::Tile {
                    dim: k,
                    size,
                    plus: Vec::new(),
                });
            }
            let points: Vec<usize> = (dims.len()..dims.len() + b + 1 - a).collect();
            for k in a..=b {
                dims.push(Dim::Point { dim: k });
            }
            bands.push(TiledBand {
                band: (a, b),
                tiles,
                points,
                wavefront: false,
            });
            d = b + 1;
        }
        Ok(Layout {
            dims,
            bands,
            moved: Vec::new(),
        })
    }

    /// The number of dimensions.
    pub fn len(&self) -> usize {
        self.dims.len()
    }

    /// True when there are no dimensions.
    pub fn is_empty(&self) -> bool {
        self.dims.is_empty()
    }

    /// True when position `k` is a scalar dimension of `sched` kept as it
    /// is (tile dimensions are never scalar).
    pub fn is_scalar(&self, sched: &Schedule, k: usize) -> bool {
        matches!(self.dims.get(k), Some(Dim::Point { dim }) if sched.is_scalar(*dim))
    }

    /// The layout with tiled band `b` (an index into [`Layout::bands`])
    /// run as a wavefront of tiles: its first tile dimension becomes the sum
    /// of its first two (see the module doc). An error when the band has
    /// fewer than two tile dimensions.
    pub fn wavefront(&self, b: usize) -> Result<Layout> {
        let band = self
            .bands
            .get(b)
            .ok_or_else(|| Error::Input(format!("no tiled band {b}")))?;
        let (Some(&t0), Some(&t1)) = (band.tiles.first(), band.tiles.get(1)) else {
            return Err(Error::Input(
                "a wavefront needs a band with two tile dimensions".into(),
            ));
        };
        let mut out = self.clone();
        if let Some(Dim::Tile { plus, .. }) = out.dims.get_mut(t0) {
            plus.push(t1);
        }
        out.bands[b].wavefront = true;
        Ok(out)
    }

    /// The layout with the point loops of each tiled band reordered for
    /// locality, per group of statements that the scalar dimensions before
    /// the band separate into loop nests of their own (statements of one
    /// nest keep one order): the parallel (`sched.parallel`) loop dimension
    /// of the band with the best access score over the group's statements
    /// (per access of a statement whose row on the dimension is one
    /// iterator: 2 when the iterator is only in the last subscript with a
    /// coefficient ±1, 1 when it is in no subscript, -4 otherwise) moves
    /// innermost when its score beats that of the current innermost loop,
    /// the loops between moving outwards.
    /// Legal for any order, since the band is permutable and the nests are
    /// ordered by the scalar dimensions before it.
    pub fn reorder_points(&self, scop: &Scop, sched: &Schedule) -> Layout {
        let mut out = self.clone();
        for band in &self.bands {
            let loops: Vec<usize> = band
                .points
                .iter()
                .copied()
                .filter(|&p| !self.is_scalar(sched, p))
                .collect();
            let Some(&last) = loops.last() else {
                continue;
            };
            if loops.iter().any(|&p| p >= self.dims.len()) {
                continue;
            }
            let dim_at = |p: usize| match self.dims[p] {
                Dim::Point { dim } => dim,
                Dim::Tile { dim, .. } => dim,
            };
            // the nests: statements with equal values on the scalar
            // dimensions before the band
            let mut groups: Vec<(Vec<Int>, Vec<usize>)> = Vec::new();
            for (si, st) in sched.statements.iter().enumerate() {
                let key: Vec<Int> = (0..band.band.0)
                    .filter(|&d| sched.is_scalar(d))
                    .map(|d| {
                        st.rows
                            .get(d)
                            .and_then(|r| r.last())
                            .cloned()
                            .unwrap_or(Int::ZERO)
                    })
                    .collect();
                match groups.iter_mut().find(|(k, _)| *k == key) {
                    Some((_, v)) => v.push(si),
                    None => groups.push((key, vec![si])),
                }
            }
            for (_, members) in &groups {
                let current = locality_score(scop, sched, dim_at(last), members);
                let best = loops
                    .iter()
                    .copied()
                    .filter(|&p| sched.parallel.get(dim_at(p)).copied().unwrap_or(false))
                    .filter_map(|p| locality_score(scop, sched, dim_at(p), members).map(|s| (s, p)))
                    .max_by_key(|&(s, p)| (s, std::cmp::Reverse(p)));
                let Some((score, p)) = best else {
                    continue;
                };
                if p == last
                    || current.is_some_and(|c| c >= score)
                    || (p..=last).any(|k| self.is_scalar(sched, k))
                {
                    continue;
                }
                // the dimension at p goes to the place of the last loop, the
                // ones between shift outwards
                let mut order: Vec<usize> = (p..=last).map(dim_at).collect();
                order.rotate_left(1);
                for &si in members {
                    for (k, &d) in (p..=last).zip(&order) {
                        out.moved.push((si, k, d));
                    }
                }
            }
        }
        out
    }

    /// The transformed schedule as a union map from each statement's
    /// instances (intersected with its domain in `scop`) to the layout's
    /// dimensions, over the parameters of `sched`.
    pub fn union_map(&self, scop: &Scop, sched: &Schedule) -> Result<UnionMap> {
        let mut u = UnionMap::empty(sched.params.clone());
        for (si, st) in sched.statements.iter().enumerate() {
            let domain = scop
                .statements
                .iter()
                .find(|s| s.name == st.name())
                .map(|s| &s.domain)
                .ok_or_else(|| {
                    Error::Input(format!(
                        "the schedule has a statement {} that the SCoP does not",
                        st.name()
                    ))
                })?;
            let n = st.n_iter();
            let np = sched.params.len();
            let row = |d: usize| -> Result<Aff> {
                let r = st.rows.get(d).ok_or_else(|| {
                    Error::Input(format!("{} has no schedule row {d}", st.name()))
                })?;
                if r.len() != n + np + 1 {
                    return Err(Error::Input(format!(
                        "schedule row {d} of {} has {} entries, not {}",
                        st.name(),
                        r.len(),
                        n + np + 1
                    )));
                }
                let mut e = Aff::constant(r[n + np].clone());
                for (k, c) in r[..n + np].iter().enumerate() {
                    if c.is_zero() {
                        continue;
                    }
                    let v = if k < n {
                        Aff::dim(DimKind::In, k)
                    } else {
                        Aff::param(k - n)
                    };
                    e = &e + &v.scale(c);
                }
                Ok(e)
            };
            let space = Space::map(
                sched.params.clone(),
                st.tuple.clone(),
                Tuple::anonymous(self.dims.len()),
            );
            let mut cons: Vec<Constraint> = Vec::new();
            for (k, dim) in self.dims.iter().enumerate() {
                let out = Aff::dim(DimKind::Out, k);
                match dim {
                    Dim::Point { dim } => {
                        let d = self
                            .moved
                            .iter()
                            .find(|&&(s, q, _)| s == si && q == k)
                            .map_or(*dim, |m| m.2);
                        cons.push(out.eq(row(d)?))
                    }
                    Dim::Tile { dim, size, plus } => {
                        if *size < 1 {
                            return Err(Error::Input(format!(
                                "a tile size must be at least 1, not {size}"
                            )));
                        }
                        let mut t = out;
                        for &q in plus {
                            t = &t - &Aff::dim(DimKind::Out, q);
                        }
                        let low = t.scale(&Int::from(*size));
                        let high = &low + &Aff::constant(Int::from(*size) - Int::ONE);
                        let r = row(*dim)?;
                        cons.push(r.ge(low));
                        cons.push(r.le(high));
                    }
                }
            }
            let m = Map::from_constraints(&space, cons)?.intersect_domain(domain)?;
            u.add(m)?;
        }
        Ok(u)
    }
}

/// The locality score of original dimension `d` as the innermost loop of
/// the statements `members` (indices into the schedule's statements): per
/// access of a statement whose row on `d` is one iterator, 2 when that
/// iterator is only in the last subscript with a coefficient ±1 (stride
/// one), 1 when it is in no subscript (the same element), -4 otherwise (a
/// large stride); statements whose row on `d` is constant count nothing.
/// `None` when some row is neither (no simple answer).
fn locality_score(scop: &Scop, sched: &Schedule, d: usize, members: &[usize]) -> Option<i64> {
    let mut score = 0;
    for &si in members {
        let st = sched.statements.get(si)?;
        let n = st.n_iter();
        let row = st.rows.get(d)?;
        let nz: Vec<usize> = (0..row.len().saturating_sub(1))
            .filter(|&k| !row[k].is_zero())
            .collect();
        let k = match nz.as_slice() {
            [] => continue,
            [k] if *k < n && row[*k].abs().is_one() => *k,
            _ => return None,
        };
        let stmt = scop.statements.iter().find(|s| s.name == st.name())?;
        for acc in stmt.reads.iter().chain(&stmt.writes) {
            score += access_score(&acc.relation, k);
        }
    }
    Some(score)
}

/// 2 when input dimension `k` of the access `S[x] -> A[f(x)]` appears only
/// in the last subscript with a coefficient ±1 (stride one), 1 when in no
/// subscript (the same element: reuse), -4 otherwise or when the
/// subscripts cannot be read as affine functions of the iterators.
fn access_score(rel: &Map, k: usize) -> i64 {
    let Some(coefs) = subscript_coefficients(rel, k) else {
        return -4;
    };
    let n_out = coefs.len();
    match coefs.iter().rposition(|c| *c != 0) {
        None => 1,
        Some(last)
            if last + 1 == n_out
                && coefs[last].abs() == 1
                && coefs[..last].iter().all(|c| *c == 0) =>
        {
            2
        }
        Some(_) => -4,
    }
}

/// Per output dimension (subscript) of the access `rel`, the coefficient of
/// input dimension `k` in it: read from the equalities `out_o = f(x)` of
/// its one conjunction (`None` when it has several, locals, or a subscript
/// without such an equality).
fn subscript_coefficients(rel: &Map, k: usize) -> Option<Vec<i64>> {
    let basics: Vec<_> = rel.basics().collect();
    let [b] = basics.as_slice() else {
        return None;
    };
    let c = b.conjunction();
    if c.n_local() > 0 {
        return None;
    }
    let n_out = rel.space().n_out();
    let out_cols: Vec<usize> = (0..n_out).map(|o| c.col(DimKind::Out, o)).collect();
    let in_col = c.col(DimKind::In, k);
    let mut coefs = Vec::with_capacity(n_out);
    for &oc in &out_cols {
        let row = c.equalities().iter().find(|r| {
            r[oc].abs().is_one() && out_cols.iter().all(|&q| q == oc || r[q].is_zero())
        })?;
        // out = -(rest) / coef: the coefficient of the iterator is -r[in] / r[out]
        let v = row[in_col].to_i64()?;
        coefs.push(if row[oc].is_negative() { v } else { -v });
    }
    Some(coefs)
}
