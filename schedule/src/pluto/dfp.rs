//! pluto-lp-dfp: fusion and permutation decided on the fusion conflict
//! graph, then scaling, shifting and skewing per level.
//!
//! # Idea
//!
//! Acharya, Bondhugula and Cohen ("Polyhedral auto-transformation with no
//! integer linear programming", PLDI 2018; the technical report "An approach
//! for finding permutations quickly: fusion and dimension matching", Sec. 3)
//! split Pluto's search for a row into a combinatorial choice and small LPs:
//!
//! 1. **Fusion conflict graph (FCG).** A vertex per statement dimension
//!    (original loop). A *self edge* on `(S, i)` when loop `i` of `S` alone
//!    cannot be the outermost row (`c_S = σ·e_i + shift`, `σ ≥ 1`, violates
//!    tiling validity on `S`'s own open dependences); an edge between
//!    `(S, i)` and `(T, j)` when the two loops cannot be fused into one row
//!    with any scaling and shifting (the same LP on the dependences between
//!    `S` and `T`). Edges are computed lazily, one LP check each, on the
//!    dependence pairs not yet ordered; a cut drops the edges it makes
//!    stale.
//! 2. **Convex colouring, one colour per level.** The strongly connected
//!    components of the dependence graph are coloured in topological order:
//!    each statement of a component gets an unused dimension with no self
//!    edge and no edge to the dimensions already coloured at this level
//!    (backtracking over the statements of the component, outer dimensions
//!    first; for a statement alone in its component, the loops that carry
//!    none of its own dependences first, so that a parallel loop goes
//!    outermost, as Pluto's objective `u = w = 0` prefers). When a
//!    component cannot be coloured after others were, the loops are
//!    distributed between it and the earlier components (a cut), which
//!    removes the conflicts across, and it is coloured again (the report's
//!    Algorithm 6). Before such a cut (or the distribution of statements
//!    without a colour, below) inside an open band, a pluto-lp row (any
//!    coefficients, skewing included: [`super::lp`]) is tried; when one
//!    exists the band goes on fused, and the rest of that band is found the
//!    same way (the conflicts would recur). A loop written backwards is
//!    taken in its own direction (`σ·dir·e_i` with `dir = -1`).
//! 3. **Scaling and shifting.** The row of each statement is `σ_S·e_i +
//!    shift` with its coloured dimension `i` (a statement without a colour
//!    at this level gets a constant), found by the Pluto LP (tiling validity
//!    and bounding on the band's dependences, lexicographic minimum of `(u,
//!    w, σ, shifts)`).
//! 4. **Skewing.** When no scaling and shifting keeps the band permutable
//!    (some dependence would get a negative distance), the row may add
//!    non-negative multiples `λ` of the statement's rows of the band so far:
//!    `σ_S·e_i + Σ λ_k·row_k + shift` (the report's Algorithm 3, which makes
//!    the band tileable, as time skewing does for stencils). When even that
//!    fails, the band ends and the row is found for the next band.
//!
//! A new row has a component along a dimension the statement's earlier rows
//! do not use, so rows stay linearly independent (the report's Theorem
//! 2.10). What the colouring cannot finish (a component whose every
//! remaining dimension conflicts) is left to the pluto-lp steps
//! ([`super::lp`]).
//!
//! Fusion: [`Fusion::Smart`] here is Pluto's rule: at a level, the
//! components that get a colour are distributed from those that do not (a
//! statement whose loops are all used, like the initialisation of `C[i][j]`
//! in gemm before the `k` loop of the update), unless a pluto-lp row keeps
//! the band going; [`Fusion::Max`] keeps them fused (the row of a statement
//! without colour is a constant); [`Fusion::None`] distributes every
//! component first. (The default policy of [`super::compute`] compares
//! this scheduler's results under several policies with pluto-lp's.) Not
//! implemented: the report's typed fusion (fusing parallel loops only with
//! parallel ones); the cost model of [`super::compute`] plays its part.

use super::farkas::{FarkasPiece, Form, Layout, Lp};
use super::independence::rank_of;
use super::lp::{COEFF_BOUND, lp_rows, next_row};
use super::partial::{Dep, InitialDeps, Partial};
use super::{Fusion, SchedulerOptions};
use crate::deps::Dependences;
use crate::schedule::Schedule;
use crate::scop::Scop;
use presburger::{Int, Result};
use std::collections::HashMap;

/// The pluto-lp-dfp schedule of `scop` for its dependences `deps` (see the
/// module doc), with the fusion policy `fuse`. Fails only when a
/// `presburger` operation does.
pub fn pluto_dfp(scop: &Scop, deps: &Dependences, opts: &SchedulerOptions) -> Result<Schedule> {
    dfp_from(scop, deps, &Partial::pieces_of(scop, deps)?, opts)
}

/// [`pluto_dfp`] from the dependence pieces `initial` of `deps`.
pub(crate) fn dfp_from(
    scop: &Scop,
    deps: &Dependences,
    initial: &InitialDeps,
    opts: &SchedulerOptions,
) -> Result<Schedule> {
    let fuse = opts.fuse;
    let mut st = Partial::new(scop, initial, opts.farkas);
    if fuse == Fusion::None {
        st.cut_all_sccs()?;
    }
    let max_depth = (0..st.n_stmt())
        .map(|s| st.layout.n_iter(s))
        .max()
        .unwrap_or(0);
    // the band in which pluto-lp rows took over from the colouring: they
    // continue it without colouring again (the conflicts would recur)
    let mut lp_band: Option<usize> = None;
    for _ in 0..3 * max_depth + 2 {
        if st.all_complete() {
            break;
        }
        if lp_band == Some(st.band_start()) && st.band_is_open() {
            if let Some(rows) = next_row(&mut st)? {
                st.push_rows(rows)?;
                continue;
            }
        }
        let used = used_loops(&st);
        let colors = match color_level(&mut st, &used, fuse, false)? {
            Some(c) => c,
            None => {
                // before distributing conflicting components, a pluto-lp
                // row (any coefficients, skewing included) may continue the
                // band with everything fused
                if st.band_is_open() {
                    if let Some(rows) = next_row(&mut st)? {
                        st.push_rows(rows)?;
                        lp_band = Some(st.band_start());
                        continue;
                    }
                }
                match color_level(&mut st, &used, fuse, true)? {
                    Some(c) => c,
                    None => break,
                }
            }
        };
        if colors.iter().all(Option::is_none) {
            break;
        }
        let Some(rows) = scale_and_shift(&mut st, &colors)? else {
            break;
        };
        st.push_rows(rows)?;
    }
    lp_rows(&mut st)?;
    st.finish(deps)
}

/// Per statement, per loop `i`: true when `e_i` is in the span of the
/// statement's rows (a row along loop `i` would not be independent).
fn used_loops(st: &Partial) -> Vec<Vec<bool>> {
    (0..st.n_stmt())
        .map(|s| {
            let n = st.layout.n_iter(s);
            let rows = st.rows(s);
            let r = rank_of(rows, n);
            (0..n)
                .map(|i| {
                    let mut with = rows.to_vec();
                    let mut e = vec![Int::ZERO; n];
                    e[i] = Int::ONE;
                    with.push(e);
                    rank_of(&with, n) == r
                })
                .collect()
        })
        .collect()
}

/// A vertex of the fusion conflict graph: a statement and one of its loops.
type Vertex = (usize, usize);

/// The direction of loop `i` of statement `s` in the source: `1` for an
/// increasing loop, `-1` for a decreasing one. A colour gives the loop in
/// its own direction, `σ·dir·e_i` (so a loop written backwards, as in
/// back substitution, can still be chosen; Pluto+ allows such negative
/// coefficients in general, Bondhugula, Acharya, Cohen, TOPLAS 38(3),
/// 2016).
fn direction(st: &Partial, s: usize, i: usize) -> i64 {
    st.scop.statements[s].signs.get(i).copied().unwrap_or(1)
}

/// The edges of the fusion conflict graph found so far, for the current
/// open dependences (cleared by a cut).
#[derive(Default)]
struct Fcg {
    /// `((S, i), (T, j))` with `S <= T` to whether there is an edge.
    edges: HashMap<(Vertex, Vertex), bool>,
    /// The positions in the open dependences of those between each pair of
    /// statements `(S, T)`, `S <= T` (made at the first query).
    by_pair: Option<HashMap<(usize, usize), Vec<usize>>>,
}

impl Fcg {
    /// True when loop `i` of `s` and loop `j` of `t` conflict (a self edge
    /// when `(s, i) == (t, j)`): no row `σ_s·e_i + shift` for `s` and
    /// `σ_t·e_j + shift` for `t` satisfies tiling validity on the open
    /// dependences among the two statements.
    fn conflict(&mut self, st: &Partial, a: (usize, usize), b: (usize, usize)) -> Result<bool> {
        let (a, b) = if a <= b { (a, b) } else { (b, a) };
        if let Some(&e) = self.edges.get(&(a, b)) {
            return Ok(e);
        }
        let (s, t) = (a.0, b.0);
        let open = st.open_deps();
        let by_pair = self.by_pair.get_or_insert_with(|| {
            let mut m: HashMap<(usize, usize), Vec<usize>> = HashMap::new();
            for (k, d) in open.iter().enumerate() {
                m.entry((d.src.min(d.dst), d.src.max(d.dst)))
                    .or_default()
                    .push(k);
            }
            m
        });
        // the dependences among `s` and `t`, in their order
        let mut at: Vec<usize> = Vec::new();
        let keys = if s == t {
            vec![(s, s)]
        } else {
            vec![(s, s), (s, t), (t, t)]
        };
        for key in keys {
            at.extend(by_pair.get(&key).into_iter().flatten());
        }
        at.sort_unstable();
        let deps: Vec<&Dep> = at.iter().map(|&k| &open[k]).collect();
        let related = deps.iter().any(|d| s == t || d.src != d.dst);
        if a == b {
            // a self edge: loop i alone has a negative distance on a ray (or
            // a non-zero one on a line) of one of the statement's own
            // dependence pieces (no LP needed: the shift cancels)
            let mut scanned = true;
            let mut edge = false;
            for d in &deps {
                match d.piece(st.params(), st.method())? {
                    FarkasPiece::Generators(gens) => {
                        let sign = Int::from(direction(st, s, a.1));
                        edge |= gens.iter().any(|g| {
                            let x = &(&g.dst[a.1] - &g.src[a.1]) * &sign;
                            x.is_negative() || (g.line && !x.is_zero())
                        })
                    }
                    FarkasPiece::Multipliers { .. } => scanned = false,
                }
            }
            if scanned {
                self.edges.insert((a, b), edge);
                return Ok(edge);
            }
        }
        let edge = related && {
            // rows σ_s·e_i + shift_s and σ_t·e_j + shift_t, σ ≥ 1
            let l = &st.layout;
            let mut tpl = Layout::template(
                l.np,
                &(0..l.n_stmt()).map(|x| l.n_iter(x)).collect::<Vec<_>>(),
            );
            let mut lp_sigmas = Vec::new();
            for (stmt, dim) in if s == t { vec![a] } else { vec![a, b] } {
                let sigma = tpl.new_var();
                let shift = tpl.new_var();
                tpl.set(
                    stmt,
                    dim,
                    vec![(sigma, Int::from(direction(st, stmt, dim)))],
                );
                tpl.set(stmt, tpl.n_iter(stmt) + tpl.np, vec![(shift, Int::ONE)]);
                lp_sigmas.push(sigma);
            }
            let mut lp = Lp::new(&tpl);
            for v in lp_sigmas {
                lp.ge(&[(v, Int::ONE)], -1);
            }
            // a statement's own pieces constrain σ alone (σ times a
            // distance that is never negative, as the loop has no self edge:
            // `blocked` asks that first), so only the pieces between the two
            // statements matter
            let across = deps.iter().copied().filter(|d| s == t || d.src != d.dst);
            st.add_deps(&mut lp, &tpl, across, false)?;
            lp.is_empty()
        };
        self.edges.insert((a, b), edge);
        Ok(edge)
    }

    /// True when giving `s` its loop `i` at this level conflicts with a
    /// loop already coloured there (`color`), or `i` has a self edge.
    fn blocked(
        &mut self,
        st: &Partial,
        color: &[Option<usize>],
        s: usize,
        i: usize,
    ) -> Result<bool> {
        if self.conflict(st, (s, i), (s, i))? {
            return Ok(true);
        }
        for (t, c) in color.iter().enumerate() {
            if let Some(j) = *c {
                if t != s && self.conflict(st, (s, i), (t, j))? {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }
}

/// Colours the statements of component `comp` on top of `color`
/// (backtracking, each statement's unused loops outermost first); `true`
/// when every statement of it that is not complete got a loop.
fn color_component(
    st: &Partial,
    fcg: &mut Fcg,
    comp: &[usize],
    used: &[Vec<bool>],
    color: &mut Vec<Option<usize>>,
) -> Result<bool> {
    let todo: Vec<usize> = comp
        .iter()
        .copied()
        .filter(|&s| !st.is_complete(s))
        .collect();
    // the loops to try per statement: for a statement alone in its
    // component, the loops that carry none of its own dependences first
    // (an outer parallel loop, as Pluto's objective prefers), else outer
    // loops first
    let mut orders: Vec<Vec<usize>> = vec![Vec::new(); st.n_stmt()];
    for &s in &todo {
        let n = used[s].len();
        let mut order: Vec<usize> = (0..n).collect();
        if comp.len() == 1 {
            let mut carries = vec![false; n];
            for d in st.open_deps().iter().filter(|d| d.src == s && d.dst == s) {
                match d.piece(st.params(), st.method())? {
                    FarkasPiece::Generators(gens) => {
                        for g in gens {
                            for (i, c) in carries.iter_mut().enumerate() {
                                *c |= g.dst[i] != g.src[i];
                            }
                        }
                    }
                    FarkasPiece::Multipliers { .. } => carries = vec![true; n],
                }
            }
            order.sort_by_key(|&i| carries[i]);
        }
        orders[s] = order;
    }
    fn go(
        st: &Partial,
        fcg: &mut Fcg,
        todo: &[usize],
        orders: &[Vec<usize>],
        used: &[Vec<bool>],
        color: &mut Vec<Option<usize>>,
    ) -> Result<bool> {
        let Some((&s, rest)) = todo.split_first() else {
            return Ok(true);
        };
        for &i in &orders[s] {
            if used[s][i] || fcg.blocked(st, color, s, i)? {
                continue;
            }
            color[s] = Some(i);
            if go(st, fcg, rest, orders, used, color)? {
                return Ok(true);
            }
            color[s] = None;
        }
        Ok(false)
    }
    go(st, fcg, &todo, &orders, used, color)
}

/// The colouring of one level (step 2 of the module doc): a loop (or none)
/// per statement; cuts are added to `st` where components had to be
/// distributed. `None` when that needs a cut between components and
/// `may_cut` is false (nothing is changed then).
fn color_level(
    st: &mut Partial,
    used: &[Vec<bool>],
    fuse: Fusion,
    may_cut: bool,
) -> Result<Option<Vec<Option<usize>>>> {
    let n = st.n_stmt();
    let mut color: Vec<Option<usize>> = vec![None; n];
    let mut fcg = Fcg::default();
    let comps = st.sccs(|_| false);
    let mut colored_before = false;
    for k in 0..comps.len() {
        let comp = &comps[k];
        if comp.iter().all(|&s| st.is_complete(s)) {
            continue;
        }
        if color_component(st, &mut fcg, comp, used, &mut color)? {
            colored_before = true;
            continue;
        }
        if colored_before {
            if !may_cut {
                return Ok(None);
            }
            // distribute the components coloured so far from the rest,
            // which removes the conflicts across, and try again
            let mut group = vec![1; n];
            for c in &comps[..k] {
                for &s in c {
                    group[s] = 0;
                }
            }
            st.cut(&group)?;
            fcg = Fcg::default();
            if color_component(st, &mut fcg, comp, used, &mut color)? {
                continue;
            }
        }
        for &s in comp {
            color[s] = None;
        }
    }
    if fuse != Fusion::Max && color.iter().any(Option::is_some) {
        // distribute the components without a colour from those with one
        let comps = st.sccs(|c| c.iter().any(|&s| color[s].is_some()));
        let has = |c: &Vec<usize>| c.iter().any(|&s| color[s].is_some());
        let mut group = vec![0; n];
        let mut g = 0;
        for (k, c) in comps.iter().enumerate() {
            if k > 0 && has(c) != has(&comps[k - 1]) {
                g += 1;
            }
            for &s in c {
                group[s] = g;
            }
        }
        if st.open_deps().iter().any(|d| group[d.src] != group[d.dst]) {
            if !may_cut {
                return Ok(None);
            }
            st.cut(&group)?;
        }
    }
    Ok(Some(color))
}

/// The rows of one level (steps 3 and 4 of the module doc) for the colours
/// `color`: scaling and shifting, then with skewing, then in a new band;
/// `None` when none is feasible.
fn scale_and_shift(st: &mut Partial, color: &[Option<usize>]) -> Result<Option<Vec<Vec<Int>>>> {
    for attempt in 0..2 {
        if attempt == 1 {
            if !st.band_is_open() {
                break;
            }
            st.close_band();
        }
        // λ variables when the band has rows: first tried at zero (scaling
        // and shifting alone), then free (skewing)
        let skew = st.band_is_open();
        let l = &st.layout;
        let np = l.np;
        let mut tpl = Layout::template(
            np,
            &(0..l.n_stmt()).map(|x| l.n_iter(x)).collect::<Vec<_>>(),
        );
        let mut order: Vec<usize> = (0..np).map(|q| tpl.u(q)).collect();
        order.push(tpl.w());
        let mut sigmas = Vec::new();
        let mut all_lambdas = Vec::new();
        for (s, c) in color.iter().enumerate() {
            let n = tpl.n_iter(s);
            let band = st.band_rows(s);
            // row = σ·e_i + Σ_j λ_j·band_j + shift
            let sigma = c.map(|i| (tpl.new_var(), i));
            let lambdas: Vec<usize> = if skew {
                band.iter().map(|_| tpl.new_var()).collect()
            } else {
                Vec::new()
            };
            let shift = tpl.new_var();
            for k in 0..tpl.row_len(s) {
                let mut form: Form = Vec::new();
                if let Some((v, i)) = sigma {
                    if i == k {
                        form.push((v, Int::from(direction(st, s, i))));
                    }
                }
                for (&lam, row) in lambdas.iter().zip(band) {
                    if !row[k].is_zero() {
                        form.push((lam, row[k].clone()));
                    }
                }
                if k == n + np {
                    form.push((shift, Int::ONE));
                }
                tpl.set(s, k, form);
            }
            sigmas.extend(sigma.map(|(v, _)| v));
            all_lambdas.extend(lambdas.iter().copied());
            order.extend(sigma.map(|(v, _)| v));
            order.extend(lambdas.iter().copied());
            order.push(shift);
        }
        let mut lp = Lp::new(&tpl);
        for v in np + 1..tpl.n_var {
            lp.ge(&[(v, Int::ONE)], 0);
        }
        for v in sigmas {
            lp.ge(&[(v, Int::ONE)], -1);
            lp.ge(&[(v, Int::from(-1))], COEFF_BOUND);
        }
        st.add_deps(&mut lp, &tpl, st.band_deps(), true)?;
        let snap = lp.snapshot();
        for &v in &all_lambdas {
            lp.eq(&[(v, Int::ONE)], 0);
        }
        // (the LP is dropped after, or rolled back to before the λ = 0
        // constraints when skewing is needed)
        let found = match lp.lexmin_fixing(&order) {
            Some(p) => Some(p),
            None => {
                lp.rollback(snap);
                lp.lexmin_fixing(&order)
            }
        };
        if let Some(point) = found {
            return Ok(Some(tpl.integer_rows(&point)));
        }
    }
    Ok(None)
}
