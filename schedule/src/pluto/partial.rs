//! A schedule under construction, shared by the Pluto schedulers: the rows
//! found so far, the permutable bands, and the dependence pairs that the
//! rows do not order yet.
//!
//! # Invariants
//!
//! - Every statement has [`Partial::n_dims`] rows, each of
//!   [`Layout::row_len`] entries (iterators, parameters, constant).
//! - `band_deps` are the dependence pairs not ordered by a dimension before
//!   the open band (which starts at `band_start`); `open_deps` are the pairs
//!   not ordered by any dimension so far: the pairs of `band_deps` with equal
//!   times on every row of the open band. Every row of the open band has a
//!   non-negative distance on every pair of `band_deps` (tiling validity),
//!   so a pair leaves `open_deps` exactly when some row gives it a positive
//!   distance, which orders it: restricting to equal times is exact and
//!   needs no subtraction.
//! - Bands are disjoint, increasing and end before `band_start`; scalar
//!   dimensions added by [`Partial::cut`] belong to no band.

use super::farkas::{FarkasMethod, FarkasPiece, Generator, Layout, Lp, farkas_piece};
use super::graph::sccs;
use super::independence::rank_of;
use crate::deps::Dependences;
use crate::schedule::{Schedule, StatementSchedule, identity_rows, parallel_dims};
use crate::scop::Scop;
use crate::validity::{Validity, check};
use presburger::BuildRowHasher;
use presburger::{BasicMap, DimKind, Error, Int, Map, Result};
use std::cell::OnceCell;
use std::collections::HashSet;
use std::rc::Rc;

/// Dependence pairs from statement `src` to statement `dst`: one basic
/// piece of a dependence relation.
#[derive(Clone, Debug)]
pub(crate) struct Dep {
    /// The source statement (its index in the SCoP).
    pub src: usize,
    /// The target statement.
    pub dst: usize,
    /// The pairs (not empty).
    pub map: Rc<BasicMap>,
    /// The piece for Farkas' lemma, computed on first use (shared by the
    /// copies of this `Dep` in the band's and the open pairs).
    piece: Rc<OnceCell<FarkasPiece>>,
}

impl Dep {
    fn new(src: usize, dst: usize, map: BasicMap) -> Dep {
        Dep {
            src,
            dst,
            map: Rc::new(map),
            piece: Rc::new(OnceCell::new()),
        }
    }

    /// The piece for Farkas' lemma ([`farkas_piece`]).
    pub fn piece(&self, params: &[String], method: FarkasMethod) -> Result<&FarkasPiece> {
        if self.piece.get().is_none() {
            let _ = self.piece.set(farkas_piece(&self.map, params, method)?);
        }
        Ok(self.piece.get().expect("set above"))
    }

    /// The row `φ_T(y) − φ_S(x) + shift` over the columns of `map`, for the
    /// rows `rs` of the source and `rt` of the target (over the SCoP's
    /// `params`).
    fn distance_row(
        &self,
        rs: &[Int],
        rt: &[Int],
        params: &[String],
        shift: i64,
    ) -> Result<Vec<Int>> {
        let c = self.map.conjunction();
        let sp = c.space();
        let np = params.len();
        let (ns, nt) = (sp.n_in(), sp.n_out());
        let mut row = vec![Int::ZERO; c.n_col()];
        row[0] = &(&rt[nt + np] - &rs[ns + np]) + &Int::from(shift);
        for (k, name) in sp.params().iter().enumerate() {
            let Some(q) = params.iter().position(|p| p == name) else {
                return Err(Error::Invalid(format!(
                    "a dependence uses the unknown parameter {name}"
                )));
            };
            row[c.col(DimKind::Param, k)] = &rt[nt + q] - &rs[ns + q];
        }
        for k in 0..ns {
            row[c.col(DimKind::In, k)] = -rs[k].clone();
        }
        for k in 0..nt {
            row[c.col(DimKind::Out, k)] = rt[k].clone();
        }
        Ok(row)
    }
}

/// The dependence pieces a schedule starts from ([`Partial::pieces_of`]).
#[derive(Clone, Debug)]
pub(crate) struct InitialDeps(Vec<Dep>);

/// A schedule under construction (see the module doc).
pub(crate) struct Partial<'a> {
    /// The SCoP.
    pub scop: &'a Scop,
    /// The LP variables of its statements.
    pub layout: Layout,
    /// Per statement, its rows so far.
    rows: Vec<Vec<Vec<Int>>>,
    /// The closed permutable bands, `(first, last)` inclusive.
    bands: Vec<(usize, usize)>,
    /// Per dimension: true when it orders no pair that the dimensions
    /// before it leave open (it carries no dependence).
    parallel: Vec<bool>,
    /// The first dimension of the open band.
    band_start: usize,
    /// The pairs not ordered before the open band.
    band_deps: Vec<Dep>,
    /// The pairs not ordered by any dimension so far.
    open_deps: Vec<Dep>,
    /// The LP with the Farkas constraints of `band_deps` (validity and
    /// bounding), built on first use and dropped when `band_deps` changes.
    band_lp: Option<Lp>,
    /// How the LPs state Farkas' lemma.
    method: FarkasMethod,
}

impl<'a> Partial<'a> {
    /// No rows yet; every pair of `initial` (from [`Partial::pieces_of`]) is
    /// open.
    pub fn new(scop: &'a Scop, initial: &InitialDeps, method: FarkasMethod) -> Partial<'a> {
        Partial {
            scop,
            layout: Layout::new(scop),
            rows: vec![Vec::new(); scop.statements.len()],
            bands: Vec::new(),
            parallel: Vec::new(),
            band_start: 0,
            band_deps: initial.0.clone(),
            open_deps: initial.0.clone(),
            band_lp: None,
            method,
        }
    }

    /// The dependence pairs of `deps` (RAW, WAR, WAW, for the context's
    /// parameter values) as non-empty basic pieces, for [`Partial::new`]
    /// (several schedulers may start from them: their pieces' generators are
    /// computed once and shared).
    pub fn pieces_of(scop: &Scop, deps: &Dependences) -> Result<InitialDeps> {
        let mut list: Vec<Dep> = Vec::new();
        for m in [&deps.raw, &deps.war, &deps.waw]
            .into_iter()
            .flat_map(|u| u.members())
        {
            let sp = m.space();
            let find =
                |name: Option<&String>| scop.statements.iter().position(|s| Some(&s.name) == name);
            let (Some(src), Some(dst)) = (
                find(sp.domain_tuple().and_then(|t| t.name.as_ref())),
                find(sp.range_tuple().name.as_ref()),
            ) else {
                return Err(Error::Invalid(format!(
                    "a dependence between unknown statements: {m}"
                )));
            };
            // the context's constraints added to each piece directly when
            // it is one conjunction without existentials (the usual sizes
            // `N >= 1`), else by intersection
            let ctx: Vec<_> = scop.context.basics().collect();
            let simple = ctx.len() == 1 && ctx[0].conjunction().n_local() == 0;
            let pieces: Vec<BasicMap> = if scop.context.plain_is_universe() || simple {
                m.basics().collect()
            } else {
                m.intersect_params(&scop.context)?.basics().collect()
            };
            for mut bm in pieces {
                if simple && !scop.context.plain_is_universe() {
                    let c = ctx[0].conjunction();
                    let into = |row: &[Int], bm: &BasicMap| -> Option<Vec<Int>> {
                        let b = bm.conjunction();
                        let mut out = vec![Int::ZERO; b.n_col()];
                        out[0] = row[0].clone();
                        for (k, name) in c.space().params().iter().enumerate() {
                            let x = &row[c.col(DimKind::Param, k)];
                            if x.is_zero() {
                                continue;
                            }
                            let q = b.space().params().iter().position(|p| p == name)?;
                            out[b.col(DimKind::Param, q)] = x.clone();
                        }
                        Some(out)
                    };
                    let rows: Option<Vec<(bool, Vec<Int>)>> = c
                        .equalities()
                        .iter()
                        .map(|r| into(r, &bm).map(|r| (true, r)))
                        .chain(
                            c.inequalities()
                                .iter()
                                .map(|r| into(r, &bm).map(|r| (false, r))),
                        )
                        .collect();
                    match rows {
                        Some(rows) => {
                            for (eq, r) in rows {
                                if eq {
                                    bm.add_eq(r)?;
                                } else {
                                    bm.add_ineq(r)?;
                                }
                            }
                        }
                        // a parameter of the context the piece lacks
                        None => {
                            for piece in Map::from(bm.clone())
                                .intersect_params(&scop.context)?
                                .basics()
                            {
                                if !piece.is_empty()? {
                                    list.push(Dep::new(src, dst, piece));
                                }
                            }
                            continue;
                        }
                    }
                }
                if !bm.is_empty()? {
                    list.push(Dep::new(src, dst, bm));
                }
            }
        }
        Ok(InitialDeps(list))
    }

    /// Checks the invariants of the module doc that are cheap to check.
    pub fn check_invariants(&self) {
        let n = self.n_dims();
        for (s, r) in self.rows.iter().enumerate() {
            assert_eq!(r.len(), n, "statement {s} has {} rows, not {n}", r.len());
            for row in r {
                assert_eq!(row.len(), self.layout.row_len(s));
            }
        }
        let mut end = 0;
        for &(a, b) in &self.bands {
            assert!(a >= end && a <= b && b < self.band_start);
            end = b + 1;
        }
        assert!(self.band_start <= n);
        assert_eq!(self.parallel.len(), n);
    }

    /// The number of dimensions so far.
    pub fn n_dims(&self) -> usize {
        self.rows.first().map_or(0, Vec::len)
    }

    /// The number of statements.
    pub fn n_stmt(&self) -> usize {
        self.rows.len()
    }

    /// Statement `s`'s rows.
    pub fn rows(&self, s: usize) -> &[Vec<Int>] {
        &self.rows[s]
    }

    /// Statement `s`'s rows in the open band.
    pub fn band_rows(&self, s: usize) -> &[Vec<Int>] {
        &self.rows[s][self.band_start..]
    }

    /// True when statement `s` has as many independent rows as iterators.
    pub fn is_complete(&self, s: usize) -> bool {
        let n = self.layout.n_iter(s);
        rank_of(&self.rows[s], n) == n
    }

    /// True when every statement is complete.
    pub fn all_complete(&self) -> bool {
        (0..self.n_stmt()).all(|s| self.is_complete(s))
    }

    /// The pairs not ordered by any dimension so far.
    pub fn open_deps(&self) -> &[Dep] {
        &self.open_deps
    }

    /// The first dimension of the open band.
    pub fn band_start(&self) -> usize {
        self.band_start
    }

    /// True when the open band has rows.
    pub fn band_is_open(&self) -> bool {
        self.band_start < self.n_dims()
    }

    /// The LP whose constraints are tiling validity and bounding on every
    /// pair of `band_deps` (built once per band).
    pub fn band_lp(&mut self) -> Result<&mut Lp> {
        if self.band_lp.is_none() {
            let mut lp = Lp::new(&self.layout);
            self.add_deps(&mut lp, &self.layout, &self.band_deps, true)?;
            self.band_lp = Some(lp);
        }
        Ok(self.band_lp.as_mut().expect("built above"))
    }

    /// The SCoP's parameters.
    pub fn params(&self) -> &[String] {
        &self.scop.params
    }

    /// How the LPs state Farkas' lemma.
    pub fn method(&self) -> FarkasMethod {
        self.method
    }

    /// The pairs not ordered before the open band.
    pub fn band_deps(&self) -> &[Dep] {
        &self.band_deps
    }

    /// Adds to `lp` (over `layout`) tiling validity, and the bounding
    /// function when `bounding`, on every pair of `deps`.
    pub fn add_deps<'d>(
        &self,
        lp: &mut Lp,
        layout: &Layout,
        deps: impl IntoIterator<Item = &'d Dep>,
        bounding: bool,
    ) -> Result<()> {
        // the generators of the pieces of each pair of statements, merged
        // (the pieces of the relations between two statements share many)
        let mut groups: Vec<((usize, usize), Vec<&Generator>)> = Vec::new();
        let mut seen: HashSet<(usize, usize, &Generator), BuildRowHasher> = HashSet::default();
        for d in deps {
            match d.piece(&self.scop.params, self.method)? {
                FarkasPiece::Generators(gens) => {
                    let k = match groups.iter().position(|(p, _)| *p == (d.src, d.dst)) {
                        Some(k) => k,
                        None => {
                            groups.push(((d.src, d.dst), Vec::new()));
                            groups.len() - 1
                        }
                    };
                    for g in gens {
                        if seen.insert((d.src, d.dst, g)) {
                            groups[k].1.push(g);
                        }
                    }
                }
                piece => {
                    lp.add_dependence(layout, (d.src, d.dst), piece, false);
                    if bounding {
                        lp.add_dependence(layout, (d.src, d.dst), piece, true);
                    }
                }
            }
        }
        for (pair, gens) in &groups {
            lp.add_generators(layout, *pair, gens, false);
            if bounding {
                lp.add_generators(layout, *pair, gens, true);
            }
        }
        Ok(())
    }

    /// The order in which the Pluto LPs minimise: `u`, `w`, then each
    /// statement's iterator coefficients (innermost first, so that rows keep
    /// the original outer loops when they can), parameters and constant.
    pub fn objective(&self) -> Vec<usize> {
        let l = &self.layout;
        let mut order: Vec<usize> = (0..l.np).map(|q| l.u(q)).collect();
        order.push(l.w());
        for s in 0..l.n_stmt() {
            let n = l.n_iter(s);
            order.extend((0..n).rev().filter_map(|k| l.coeff(s, k)));
            order.extend((n..l.row_len(s)).filter_map(|k| l.coeff(s, k)));
        }
        order
    }

    /// Appends `rows` (one per statement) to the open band; they must have a
    /// non-negative distance on every pair of `band_deps`. The open pairs are
    /// restricted to those with equal times on the new row; the row is
    /// parallel when that removes none of them (every open pair has distance
    /// 0, as no distance is negative).
    pub fn push_rows(&mut self, rows: Vec<Vec<Int>>) -> Result<()> {
        let mut open = Vec::with_capacity(self.open_deps.len());
        let mut parallel = true;
        let params = &self.scop.params;
        let np = params.len();
        for d in std::mem::take(&mut self.open_deps) {
            let (rs, rt) = (&rows[d.src], &rows[d.dst]);
            // the generators decide the common cases without an integer
            // test: a distance zero on every generator leaves the piece as
            // it is; a face without a vertex is empty
            let face = d.piece(params, self.method)?.face(rs, rt, np);
            if let Some(FarkasPiece::Generators(kept)) = &face {
                let all = match d.piece(params, self.method)? {
                    FarkasPiece::Generators(gens) => gens.len(),
                    FarkasPiece::Multipliers { .. } => usize::MAX,
                };
                if kept.len() == all {
                    open.push(d);
                    continue;
                }
                if kept.iter().all(|g| g.constant.is_zero()) {
                    parallel = false;
                    continue;
                }
            }
            if parallel {
                let mut later = (*d.map).clone();
                later.add_ineq(d.distance_row(rs, rt, params, -1)?)?;
                if !later.is_empty()? {
                    parallel = false;
                }
            }
            let mut map = (*d.map).clone();
            map.add_eq(d.distance_row(rs, rt, params, 0)?)?;
            if !map.is_empty()? {
                let next = Dep::new(d.src, d.dst, map);
                if let Some(face) = face {
                    let _ = next.piece.set(face);
                }
                open.push(next);
            }
        }
        self.open_deps = open;
        self.parallel.push(parallel);
        for (s, row) in rows.into_iter().enumerate() {
            self.rows[s].push(row);
        }
        Ok(())
    }

    /// Ends the open band (when it has rows): its pairs left open are the
    /// next band's.
    pub fn close_band(&mut self) {
        let n = self.n_dims();
        if self.band_start < n {
            self.bands.push((self.band_start, n - 1));
        }
        self.band_start = n;
        self.band_deps = self.open_deps.clone();
        self.band_lp = None;
    }

    /// Loop distribution: ends the open band and appends a scalar dimension
    /// with the constant `group[s]` for statement `s`. Every open pair must
    /// go from a group to the same or a later one; the pairs between
    /// different groups are then ordered and leave.
    pub fn cut(&mut self, group: &[usize]) -> Result<()> {
        self.close_band();
        let np = self.layout.np;
        for d in &self.open_deps {
            if group[d.src] > group[d.dst] {
                return Err(Error::Invalid(format!(
                    "a cut would put statement {} after statement {} that depends on it",
                    d.src, d.dst
                )));
            }
        }
        for (s, r) in self.rows.iter_mut().enumerate() {
            let mut row = vec![Int::ZERO; self.layout.n_iter(s) + np + 1];
            row[self.layout.n_iter(s) + np] = Int::from(group[s] as i64);
            r.push(row);
        }
        let before = self.open_deps.len();
        self.open_deps.retain(|d| group[d.src] == group[d.dst]);
        self.parallel.push(before == self.open_deps.len());
        self.band_start = self.n_dims();
        self.band_deps = self.open_deps.clone();
        self.band_lp = None;
        Ok(())
    }

    /// The strongly connected components of the graph of the open pairs,
    /// in a topological order (`prefer` first among the ready ones, then
    /// textual order; see [`sccs`]).
    pub fn sccs(&self, prefer: impl Fn(&[usize]) -> bool) -> Vec<Vec<usize>> {
        let edges: Vec<(usize, usize)> = self.open_deps.iter().map(|d| (d.src, d.dst)).collect();
        sccs(self.n_stmt(), &edges, prefer)
    }

    /// The index in `comps` of each statement's component.
    pub fn component_of(&self, comps: &[Vec<usize>]) -> Vec<usize> {
        let mut of = vec![0; self.n_stmt()];
        for (k, c) in comps.iter().enumerate() {
            for &s in c {
                of[s] = k;
            }
        }
        of
    }

    /// Distributes every strongly connected component of the open pairs
    /// into a loop of its own, in topological order (a cut); true when it
    /// did, false (and nothing done) when no open pair goes between two
    /// components.
    pub fn cut_all_sccs(&mut self) -> Result<bool> {
        let group = self.component_of(&self.sccs(|_| false));
        if self.open_deps.iter().all(|d| group[d.src] == group[d.dst]) {
            return Ok(false);
        }
        self.cut(&group)?;
        Ok(true)
    }

    /// Pluto's dimension-based cut (its default `smartfuse` in pluto-lp):
    /// the components in topological order, a cut between two consecutive
    /// ones whose loop depths (most iterators of a statement) differ.
    pub fn cut_by_depth(&mut self) -> Result<()> {
        let comps = self.sccs(|_| false);
        let depth = |c: &Vec<usize>| c.iter().map(|&s| self.layout.n_iter(s)).max();
        let mut group = vec![0; self.n_stmt()];
        let mut g = 0;
        for (k, c) in comps.iter().enumerate() {
            if k > 0 && depth(c) != depth(&comps[k - 1]) {
                g += 1;
            }
            for &s in c {
                group[s] = g;
            }
        }
        if g > 0 {
            self.cut(&group)?;
        }
        Ok(())
    }

    /// The schedule: the open band closed; pairs still open ordered by a
    /// last scalar dimension (the components of their graph in topological
    /// order) when their graph has no cycle. When that is not enough (or a
    /// scheduler gave up before every statement was complete), the original
    /// 2d+1 schedule is appended, which orders every pair the rows leave
    /// equal. The schedule is valid by construction (every row keeps the
    /// distances of the pairs it does not order at zero or more, every pair
    /// ends up ordered); debug builds check it with [`check`] and compare
    /// the parallel dimensions with [`parallel_dims`], and a difference is
    /// an error (a bug of the scheduler, not of the input).
    pub fn finish(mut self, deps: &Dependences) -> Result<Schedule> {
        self.close_band();
        if !self.open_deps.is_empty() {
            let comps = self.sccs(|_| false);
            let group = self.component_of(&comps);
            if self.open_deps.iter().all(|d| group[d.src] != group[d.dst]) {
                self.cut(&group)?;
            }
        }
        if !self.open_deps.is_empty() || !self.all_complete() {
            // the original 2d+1 rows, one at a time: a pair still open is
            // equal on every row so far, and the original order is
            // lexicographically increasing on it, so its distance on the
            // next original row is not negative; each row is a band of its
            // own (a loop) or a scalar dimension
            let extra = identity_rows(self.scop);
            let n_extra = extra.first().map_or(0, Vec::len);
            for d in 0..n_extra {
                let rows: Vec<Vec<Int>> = extra.iter().map(|r| r[d].clone()).collect();
                let scalar = rows
                    .iter()
                    .all(|r| r[..r.len() - 1].iter().all(Int::is_zero));
                self.push_rows(rows)?;
                if scalar {
                    self.band_start = self.n_dims();
                }
                self.close_band();
            }
            if !self.open_deps.is_empty() {
                return Err(Error::Invalid(
                    "the original schedule leaves dependence pairs unordered (a bug)".into(),
                ));
            }
        }
        self.check_invariants();
        let scop = self.scop;
        let statements: Vec<StatementSchedule> = scop
            .statements
            .iter()
            .zip(self.rows)
            .map(|(s, rows)| StatementSchedule {
                tuple: s.domain.space().range_tuple().clone(),
                iterators: s.iterators.clone(),
                rows,
            })
            .collect();
        let sched = Schedule {
            params: scop.params.clone(),
            statements,
            bands: self.bands,
            parallel: self.parallel,
        };
        if cfg!(debug_assertions) {
            let map = sched.to_union_map()?;
            if let Validity::Invalid(v) = check(scop, deps, &map)? {
                return Err(Error::Invalid(format!(
                    "the scheduler produced an invalid schedule (a bug): {v}"
                )));
            }
            let exact = parallel_dims(scop, deps, &map, sched.n_dims())?;
            if exact != sched.parallel {
                return Err(Error::Invalid(format!(
                    "the scheduler's parallel dimensions {:?} differ from the exact ones {exact:?} (a bug)",
                    sched.parallel
                )));
            }
        }
        Ok(sched)
    }
}
