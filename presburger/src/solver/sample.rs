//! Integer sampling on the incremental simplex: an integer point of
//! `{ x in Z^n : eqs·(1,x) = 0, ineqs·(1,x) >= 0 }`, or the proof that there is
//! none. This is the general path of every emptiness test (behind the SDBM fast
//! path of [`crate::sdbm_path`]).
//!
//! The steps, each exact:
//! 0. *Bound propagation* in machine arithmetic (`solver/propagate.rs`):
//!    crossing bounds prove the set empty, and so do equalities without an
//!    integer solution (step 2's test); otherwise a greedy dive through the
//!    propagated box (fix a variable, propagate, go on) often lands on a point,
//!    which is checked against every row. On small tiled and dependence pieces
//!    this decides most calls before any tableau is built (the emptiness test
//!    runs this step in front of the SDBM fast path, and not again after it).
//! 1. *Rational relaxation* on one tableau: when it is empty, so is the integer
//!    set; when its vertex is integral, or rounding the vertex to the nearest
//!    integers gives a point of the set, that point is the answer. The search
//!    of step 4 starts on this tableau when its rows are the same (no
//!    equalities, one group, no row tightened).
//! 2. *Equalities* are compressed once: their integer solutions are
//!    `x = x0 + V z` with `z` free in `Z^(n-r)` (`solver/lattice.rs`); a
//!    failed gcd condition ends it. The inequalities are rewritten over `z` and
//!    tightened (divided by the gcd of their coefficients, the constant rounded
//!    down).
//! 3. *Independent groups* of variables (no inequality links two groups) are
//!    solved separately.
//! 4. *Depth-first search over directions* (Lenstra; Cook, Rutherford, Scarf and
//!    Shallcross 1993): with a basis `b_1, .., b_k` of the lattice, branch on the
//!    integer values of `b_1·z` between its rational minimum and maximum, fix it
//!    with an equality (snapshot/rollback on the one tableau), and go on with
//!    `b_2`. When a direction spans more than one integer value, the narrowest of
//!    the remaining basis directions is taken instead; when even that one spans
//!    three values or more, the remaining basis is first reduced by generalized
//!    basis reduction (`solver/gbr.rs`), which makes `b_i` a thin direction
//!    of the set. The first reduction starts from the normal of the set's
//!    narrowest slab (two rows with opposite linear parts), completed to a
//!    basis of the lattice, when that slab is narrower than the direction at
//!    hand: on a thin set with a thin slab this cut the reduction's rounds,
//!    and the benchmark's slowest thin set, by two thirds. Every
//!    node first checks whether the tableau's vertex, or its rounding, is already
//!    an integer point.
//! 5. *Unbounded sets* (found when a direction's LP is unbounded): the implicit
//!    equalities of the recession cone span the directions along which the set is
//!    bounded; a unimodular change of variables makes these the first `k`
//!    coordinates `y` (`column_echelon` in `solver/lattice.rs`). The search of
//!    step 4 runs over `y` only (slabs, rows with opposite linear parts, enter
//!    the cone as equalities without an LP each). Once `y` is fixed, the rest of the set has a
//!    full-dimensional recession cone, so it contains arbitrarily large balls and
//!    always has integer points: one is found by shrinking each inequality by the
//!    most that rounding the remaining coordinates up can cost it, taking a
//!    rational point of the shrunken set and rounding it up (the "rounding in a
//!    shrunken cone" of isl's sampler and of MLIR's Presburger library, written
//!    here from that description). The slabs alone are tried first as the
//!    bounded directions, without the cone's LPs (on big coefficients those
//!    cost as much as the search): the search is exact with any choice, and
//!    when another direction is bounded after all, the shrunken set of some
//!    leaf is empty, and the search is redone with the cone's implicit
//!    equalities (`Halt::ConeNotFull`).
//!
//! Termination: the search in step 4 enumerates, level by level, finitely many
//! values of bounded directions; basis reduction terminates (Lovász–Scarf). A
//! [`Budget`] bounds the work all the same: one step per search node and a few per
//! reduction round. Running out is an error, never a wrong answer.

use crate::conjunction::{Conjunction, Row};
use crate::error::{Error, Result};
use crate::int::{Int, gcd_all};
use crate::solver::budget::Budget;
use crate::solver::gbr;
use crate::solver::lattice::{
    Compression, basis_with_first, column_echelon, compress_equalities, mat_vec, times,
};
use crate::solver::propagate::Propagator;
use crate::solver::simplex::{LpResult, LpValue, Simplex};
use crate::stats::{self, Counter};

/// An integer point of `{ x in Z^n : eqs·(1,x) = 0, ineqs·(1,x) >= 0 }`, or
/// `None`; see the module doc. Rows have `1 + n` entries, the constant first.
pub fn integer_sample(
    n: usize,
    eqs: &[Row],
    ineqs: &[Row],
    budget: &mut Budget,
) -> Result<Option<Vec<Int>>> {
    sample_steps(n, eqs, ineqs, budget, Propagation::ToRun)
}

/// Whether step 0 (bound propagation) is still to run: the emptiness test
/// runs it in front of the SDBM fast path ([`Conjunction::sample_via`]) and
/// does not repeat it when the general path answers after all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Propagation {
    /// Step 0 runs.
    ToRun,
    /// Step 0 ran on these rows and decided nothing.
    Done,
}

/// [`integer_sample`], with step 0 as `prop` says.
pub(crate) fn sample_steps(
    n: usize,
    eqs: &[Row],
    ineqs: &[Row],
    budget: &mut Budget,
    prop: Propagation,
) -> Result<Option<Vec<Int>>> {
    match first_steps(n, eqs, ineqs, budget, prop)? {
        First::Decided(answer) => Ok(answer),
        First::Open(comp, tab) => search_steps(n, comp, tab, eqs, ineqs, budget),
    }
}

/// A division column of [`integer_sample_with_divs`]: variable `col` (0-based)
/// is `floor(num·(1,x) / den)`.
#[derive(Clone, Debug)]
pub struct DivCol {
    /// The variable that holds the division.
    pub col: usize,
    /// The numerator, over `(1, x)`; it uses only variables before `col`.
    pub num: Row,
    /// The positive denominator.
    pub den: Int,
}

/// As [`integer_sample`] when the last variables are divisions of the others
/// (`divs`, in increasing column order, each row set containing the two
/// defining inequalities of each division). The search of step 4 then branches
/// on the other variables only: once they are fixed, every division has its one
/// value, computed by evaluation, and the rows are checked. On the pieces of a
/// set difference, whose subtracted sides bring one division per constraint
/// with a local, this keeps the search (and the basis reduction) in the
/// dimension of the set instead of the number of columns. An unbounded
/// direction among the other variables falls back to [`integer_sample`].
#[cfg(test)]
pub fn integer_sample_with_divs(
    n: usize,
    eqs: &[Row],
    ineqs: &[Row],
    divs: &[DivCol],
    budget: &mut Budget,
) -> Result<Option<Vec<Int>>> {
    sample_with_divs_steps(n, eqs, ineqs, divs, budget, Propagation::ToRun)
}

/// [`integer_sample_with_divs`], with step 0 as `prop` says.
pub(crate) fn sample_with_divs_steps(
    n: usize,
    eqs: &[Row],
    ineqs: &[Row],
    divs: &[DivCol],
    budget: &mut Budget,
    prop: Propagation,
) -> Result<Option<Vec<Int>>> {
    let k = n - divs.len();
    debug_assert!(divs.iter().enumerate().all(|(i, d)| d.col == k + i
        && d.den.is_positive()
        && d.num[1 + d.col..].iter().all(Int::is_zero)));
    let (comp, tab) = match first_steps(n, eqs, ineqs, budget, prop)? {
        First::Decided(answer) => return Ok(answer),
        First::Open(comp, tab) => (comp, tab),
    };
    // (the search's system is the relaxation's, so it starts on that tableau)
    let mut search = Search::on_tableau(tab.clone(), ineqs.to_vec(), eqs.to_vec(), n, k, budget);
    search.divs = divs.to_vec();
    match search.run() {
        Err(Halt::Unbounded) => search_steps(n, comp, tab, eqs, ineqs, budget),
        other => searched(other),
    }
}

/// What steps 0 and 1 leave. (The tableau is the payload of the common case
/// and is moved on at once: boxing it would add an allocation per call.)
#[allow(clippy::large_enum_variant)]
enum First {
    /// The answer.
    Decided(Option<Vec<Int>>),
    /// Undecided; the compression of the equalities when there are any (step 2
    /// computes it once, here, where a failed gcd condition already decides),
    /// and the tableau of the relaxation (the search starts on it when its
    /// rows are those of the relaxation).
    Open(Option<Compression>, Simplex),
}

/// Steps 0 and 1: bound propagation (with the gcd test of the equalities) and
/// the rational relaxation.
fn first_steps(
    n: usize,
    eqs: &[Row],
    ineqs: &[Row],
    budget: &mut Budget,
    prop: Propagation,
) -> Result<First> {
    budget.spend(1)?;
    // 0. bound propagation, a proof of emptiness in machine arithmetic
    if prop == Propagation::ToRun {
        if let Some(answer) = propagation_step(n, eqs, ineqs) {
            return Ok(First::Decided(answer));
        }
    }
    // equalities without an integer solution (a gcd that does not divide);
    // after the dive, which cannot succeed then and is often all it takes
    let comp = if eqs.is_empty() {
        None
    } else {
        match compress_equalities(eqs, n) {
            Some(c) => Some(c),
            None => return Ok(First::Decided(None)),
        }
    };
    // 1. the rational relaxation
    let mut tab = Simplex::new(n);
    for e in eqs {
        tab.add_eq(e);
    }
    for r in ineqs {
        tab.add_ineq(r);
    }
    budget.spend(tab.work() as usize)?;
    if tab.is_empty() {
        return Ok(First::Decided(None));
    }
    Ok(match probe(&tab, eqs, ineqs) {
        Some(p) => First::Decided(Some(p)),
        None => First::Open(comp, tab),
    })
}

/// Step 0 alone: `Some(answer)` when bound propagation proves the system
/// empty or its dive lands on a point (checked against every row), `None`
/// when it decides nothing. The emptiness test runs it in front of the SDBM
/// fast path too ([`Conjunction::sample_via`]): on the small sets of loop
/// nests it is cheaper than building a difference-bound matrix.
pub(crate) fn propagation_step(n: usize, eqs: &[Row], ineqs: &[Row]) -> Option<Option<Vec<Int>>> {
    let Some(mut prop) = Propagator::new(n, eqs, ineqs) else {
        return Some(None);
    };
    if !prop.run() {
        return Some(None);
    }
    let x = prop.dive()?;
    let ok = match prop.satisfied_by(&x) {
        Some(ok) => ok,
        None => satisfies(
            &x.iter().map(|&v| Int::from(v)).collect::<Vec<_>>(),
            eqs,
            ineqs,
        ),
    };
    ok.then(|| Some(x.into_iter().map(Int::from).collect()))
}

/// Steps 2 to 5; `comp` is the compression of `eqs` when step 0 made it, `tab`
/// the tableau of the relaxation of step 1.
fn search_steps(
    n: usize,
    comp: Option<Compression>,
    tab: Simplex,
    eqs: &[Row],
    ineqs: &[Row],
    budget: &mut Budget,
) -> Result<Option<Vec<Int>>> {
    // 2. equalities
    let Some(comp) = comp.or_else(|| compress_equalities(eqs, n)) else {
        return Ok(None);
    };
    let d = comp.n_free();
    let Some(rows) = compressed_rows(&comp, ineqs.iter()) else {
        return Ok(None);
    };
    // 3. independent groups
    let mut z = vec![Int::ZERO; d];
    let groups = groups(&rows, d);
    // without equalities, one group and no row changed by tightening, the
    // search's system is the relaxation's: it starts on that tableau (on big
    // coefficients, building it again costs as much as the first LPs)
    let mut tab =
        (eqs.is_empty() && groups.len() == 1 && groups[0].0.len() == d && d == n && rows == ineqs)
            .then_some(tab);
    for (vars, group) in groups {
        let local: Vec<Row> = group
            .iter()
            .map(|&r| {
                let mut row = Vec::with_capacity(1 + vars.len());
                row.push(rows[r][0].clone());
                row.extend(vars.iter().map(|&v| rows[r][1 + v].clone()));
                row
            })
            .collect();
        match group_search(&local, vars.len(), None, tab.take(), budget)?.map(|(p, _)| p) {
            None => return Ok(None),
            Some(p) => {
                for (&v, val) in vars.iter().zip(p) {
                    z[v] = val;
                }
            }
        }
    }
    let x = comp.point(&z);
    debug_assert!(
        satisfies(&x, eqs, ineqs),
        "the sampler's point violates a constraint"
    );
    Ok(Some(x))
}

/// The inequalities in the compressed coordinates, tightened, without those
/// left constant; `None` when one of those is violated.
fn compressed_rows<'a>(
    comp: &Compression,
    ineqs: impl Iterator<Item = &'a Row>,
) -> Option<Vec<Row>> {
    let mut rows = Vec::new();
    for r in ineqs {
        let mut t = comp.apply_row(r);
        if !tighten(&mut t) {
            return None;
        }
        if t[1..].iter().any(|c| !c.is_zero()) {
            rows.push(t);
        }
    }
    Some(rows)
}

/// True when `x` satisfies every row.
fn satisfies(x: &[Int], eqs: &[Row], ineqs: &[Row]) -> bool {
    eqs.iter().all(|r| Conjunction::eval_row(r, x).is_zero())
        && ineqs
            .iter()
            .all(|r| !Conjunction::eval_row(r, x).is_negative())
}

/// The tableau's vertex if it is integral, else its rounding to the nearest
/// integers if that satisfies the rows.
fn probe(tab: &Simplex, eqs: &[Row], ineqs: &[Row]) -> Option<Vec<Int>> {
    if let Some(p) = tab.integer_sample_point() {
        return Some(p);
    }
    let pt = tab.sample_point()?;
    let two = Int::from(2);
    let rounded: Vec<Int> = pt
        .iter()
        .map(|q| (&(&q.num * &two) + &q.den).floor_div(&(&q.den * &two)))
        .collect();
    satisfies(&rounded, eqs, ineqs).then_some(rounded)
}

/// Divides an inequality by the gcd of its coefficients, rounding the constant
/// down (exact over the integers). False when the row is a violated constant.
fn tighten(row: &mut Row) -> bool {
    let g = gcd_all(row[1..].iter());
    if g.is_zero() {
        return !row[0].is_negative();
    }
    if !g.is_one() {
        row[0] = row[0].floor_div(&g);
        for c in &mut row[1..] {
            *c = c.exact_div(&g);
        }
    }
    true
}

/// The connected components of the variables `0..d` linked by the rows: each is
/// (its variables in increasing order, the indices of its rows). Variables in no
/// row form no group (they can be 0).
fn groups(rows: &[Row], d: usize) -> Vec<(Vec<usize>, Vec<usize>)> {
    let mut parent: Vec<usize> = (0..d).collect();
    fn find(p: &mut [usize], mut a: usize) -> usize {
        while p[a] != a {
            p[a] = p[p[a]];
            a = p[a];
        }
        a
    }
    for r in rows {
        let mut first = None;
        for (j, c) in r[1..].iter().enumerate() {
            if c.is_zero() {
                continue;
            }
            match first {
                None => first = Some(j),
                Some(f) => {
                    let (a, b) = (find(&mut parent, f), find(&mut parent, j));
                    parent[a] = b;
                }
            }
        }
    }
    let mut index = vec![usize::MAX; d];
    let mut out: Vec<(Vec<usize>, Vec<usize>)> = Vec::new();
    for (ri, r) in rows.iter().enumerate() {
        let Some(j) = r[1..].iter().position(|c| !c.is_zero()) else {
            continue;
        };
        let root = find(&mut parent, j);
        if index[root] == usize::MAX {
            index[root] = out.len();
            out.push((Vec::new(), Vec::new()));
        }
        out[index[root]].1.push(ri);
    }
    for v in 0..d {
        let root = find(&mut parent, v);
        if index[root] != usize::MAX {
            out[index[root]].0.push(v);
        }
    }
    out
}

/// Why a search stopped without an answer.
enum Halt {
    /// A direction turned out unbounded: split off the recession cone first.
    Unbounded,
    /// Rounding in the cone found its shrunken set empty: the directions
    /// taken as unbounded do not span a full-dimensional recession cone (some
    /// of them are bounded), so the search is redone with the cone's implicit
    /// equalities detected.
    ConeNotFull,
    /// An error (the budget ran out).
    Fail(Error),
}

impl From<Error> for Halt {
    fn from(e: Error) -> Halt {
        Halt::Fail(e)
    }
}

/// Steps 4 and 5 on `{ z in Z^d : rows·(1,z) >= 0 }`: an integer point, or with
/// an objective `obj·(1,z)` bounded below on the set, a point where it is
/// smallest, with that value (0 without an objective). `tab`, when given, is a
/// tableau of exactly these rows.
fn group_search(
    rows: &[Row],
    d: usize,
    obj: Option<&Row>,
    tab: Option<Simplex>,
    budget: &mut Budget,
) -> Result<Option<(Vec<Int>, Int)>> {
    // First as if bounded (the common case), on the original coordinates.
    let mut search = match tab {
        Some(tab) => Search::on_tableau(tab, rows.to_vec(), Vec::new(), d, d, budget),
        None => Search::new(rows.to_vec(), Vec::new(), d, d, budget),
    };
    search.objective = obj.cloned();
    match search.run() {
        Err(Halt::Unbounded) => {}
        other => return searched(other.map(|p| search.answer(p))),
    }
    // Unbounded: make the bounded directions the first k coordinates.
    // Two rows with opposite linear parts (a slab `a <= e <= b`) are
    // implicit equalities of the cone: they enter it as equalities, and only
    // the other rows are tested (each test is an LP on the cone's tableau).
    let mut paired = vec![false; rows.len()];
    let mut eq_rows: Vec<&[Int]> = Vec::new();
    for i in 0..rows.len() {
        if paired[i] {
            continue;
        }
        let opposite = (i + 1..rows.len()).find(|&j| {
            !paired[j]
                && rows[i][1..]
                    .iter()
                    .zip(&rows[j][1..])
                    .all(|(a, b)| (a + b).is_zero())
        });
        if let Some(j) = opposite {
            paired[i] = true;
            paired[j] = true;
            eq_rows.push(&rows[i][1..]);
        }
    }
    // The slabs are often all the bounded directions there are: first search
    // as if they were (no LP per row on the cone, which costs as much as the
    // search on big coefficients). The search is exact either way; if some
    // other direction is bounded, rounding in the cone meets an empty shrunken
    // set, and the search is redone with the cone's implicit equalities. (Not
    // when minimising: the objective must be constant along the unbounded
    // directions, which needs them all.)
    if obj.is_none() {
        match search_bounded_first(rows, d, &eq_rows, None, budget) {
            Err(Halt::ConeNotFull) => {}
            other => return searched(other),
        }
    }
    let mut cone = Simplex::new(d);
    let homogeneous = |r: &Row| -> Row {
        let mut h = r.clone();
        h[0] = Int::ZERO;
        h
    };
    for r in &eq_rows {
        let mut h = Vec::with_capacity(1 + d);
        h.push(Int::ZERO);
        h.extend_from_slice(r);
        cone.add_eq(&h);
    }
    let others: Vec<usize> = (0..rows.len()).filter(|&i| !paired[i]).collect();
    let first = cone.n_con();
    for &i in &others {
        cone.add_ineq(&homogeneous(&rows[i]));
    }
    for c in cone.detect_implicit_equalities() {
        eq_rows.push(&rows[others[c - first]][1..]);
    }
    searched(search_bounded_first(rows, d, &eq_rows, obj, budget))
}

/// The search of [`group_search`] in coordinates where the span of `eq_rows`
/// (directions along which the set is bounded) comes first: a unimodular
/// change of coordinates makes it the first `k` coordinates, which are
/// searched, and the others are rounded in the cone.
fn search_bounded_first(
    rows: &[Row],
    d: usize,
    eq_rows: &[&[Int]],
    obj: Option<&Row>,
    budget: &mut Budget,
) -> std::result::Result<Option<(Vec<Int>, Int)>, Halt> {
    let ech = column_echelon(eq_rows, d);
    let k = ech.rank;
    let change = |r: &Row| -> Row {
        let mut t = Vec::with_capacity(1 + d);
        t.push(r[0].clone());
        t.extend(times(&r[1..], &ech.u));
        t
    };
    let trows: Vec<Row> = rows.iter().map(change).collect();
    let tobj = obj.map(change);
    if tobj
        .as_ref()
        .is_some_and(|o| o[1 + k..].iter().any(|c| !c.is_zero()))
    {
        // (the objective is bounded on the set, so it is constant along the
        // directions that are not bounded; the callers bound it above)
        return Err(Halt::Fail(Error::Invalid(
            "internal: the objective varies along an unbounded direction".into(),
        )));
    }
    let mut search = Search::new(trows, Vec::new(), d, k, budget);
    search.objective = tobj;
    let t = search.run()?;
    Ok(search.answer(t).map(|(t, v)| (mat_vec(&ech.u, &t), v)))
}

/// The answer of a search whose bounded directions are all there are: a halt
/// for a missing one is an internal error.
fn searched<T>(r: std::result::Result<T, Halt>) -> Result<T> {
    match r {
        Ok(p) => Ok(p),
        Err(Halt::Fail(e)) => Err(e),
        Err(Halt::Unbounded) => Err(Error::Invalid(
            "internal: the integer sampler found an unbounded direction among the bounded ones"
                .into(),
        )),
        Err(Halt::ConeNotFull) => Err(Error::Invalid(
            "internal: the integer sampler's shrunken cone is empty".into(),
        )),
    }
}

/// The smallest integer value of `obj·(1,x)` over
/// `{ x in Z^n : eqs·(1,x) = 0, ineqs·(1,x) >= 0 }` and a point where it is
/// reached; `Ok(None)` when the set is empty, [`Error::Unbounded`] when the
/// objective has no minimum.
///
/// One search, guided by LPs (branch and bound on the sampler's search): a
/// first integer point gives an upper bound `u`; the rational minimum gives the
/// lower bound `l`, and a sample on `obj = l` (often there is one) ends it
/// early. Otherwise, with `obj <= u` added, the depth-first search of step 4 runs
/// with the objective: every point it reaches becomes the incumbent and the
/// cut `obj <= incumbent - 1` is added at every node from then on, so a node
/// whose tableau becomes empty is pruned; when the search ends, the incumbent
/// is the minimum. An unbounded set goes through the recession cone as in
/// step 5: with `obj <= u` the objective is constant along the unbounded
/// directions, so it depends only on the coordinates the search fixes. (Source:
/// branch and bound, Land and Doig 1960, on the lattice search of Cook,
/// Rutherford, Scarf and Shallcross 1993.)
pub fn integer_minimum(
    n: usize,
    eqs: &[Row],
    ineqs: &[Row],
    obj: &Row,
    budget: &mut Budget,
) -> Result<Option<(Int, Vec<Int>)>> {
    let Some(first) = integer_sample(n, eqs, ineqs, budget)? else {
        return Ok(None);
    };
    let upper = Conjunction::eval_row(obj, &first);
    let mut tab = Simplex::new(n);
    for e in eqs {
        tab.add_eq(e);
    }
    for r in ineqs {
        tab.add_ineq(r);
    }
    let lower = match tab.minimize(obj) {
        LpResult::Optimum { value, .. } => value.ceil(),
        LpResult::Unbounded => {
            return Err(Error::Unbounded(
                "the minimum is not attained: the set is unbounded in that direction".into(),
            ));
        }
        LpResult::Empty => return Ok(None),
    };
    budget.spend(tab.work() as usize)?;
    drop(tab);
    if upper == lower {
        return Ok(Some((upper, first)));
    }
    // the rational bound is often reached (loop bounds, tiles): one sample on
    // the hyperplane `obj = lower` settles it with the cheap steps of the sampler
    let mut on_bound = eqs.to_vec();
    let mut at: Row = obj.clone();
    at[0] -= &lower;
    on_bound.push(at);
    if let Some(p) = integer_sample(n, &on_bound, ineqs, budget)? {
        return Ok(Some((lower, p)));
    }
    // the search, in the coordinates where the equalities hold
    let Some(comp) = compress_equalities(eqs, n) else {
        return Ok(None);
    };
    let d = comp.n_free();
    let mut cut: Row = obj.iter().map(|v| -v).collect();
    cut[0] += &upper; // obj <= upper
    let Some(rows) = compressed_rows(&comp, ineqs.iter().chain(std::iter::once(&cut))) else {
        return Ok(None);
    };
    let zobj = comp.apply_row(obj);
    match group_search(&rows, d, Some(&zobj), None, budget)? {
        Some((z, v)) => {
            let x = comp.point(&z);
            debug_assert!(satisfies(&x, eqs, ineqs) && Conjunction::eval_row(obj, &x) == v);
            Ok(Some((v, x)))
        }
        // the first point satisfies the cut, so the search finds at least it
        None => Err(Error::Invalid(
            "internal: the minimum search lost its first point".into(),
        )),
    }
}

/// The depth-first search of step 4 on one tableau.
struct Search<'b> {
    tab: Simplex,
    /// The inequalities of the set (over `d` variables).
    rows: Vec<Row>,
    /// The equalities of the set (none after compression).
    eqs: Vec<Row>,
    /// The equalities of the set, then those fixing the directions of the levels
    /// above the current one.
    fixed: Vec<Row>,
    /// Division variables `k..d`, when the search is over the others only (see
    /// [`integer_sample_with_divs`]).
    divs: Vec<DivCol>,
    /// Pivot work of `tab` ([`Simplex::work`]) already charged to the budget.
    paid: u64,
    /// When minimising (see [`integer_minimum`]): the objective over `(1, z)`.
    objective: Option<Row>,
    /// The best point found so far and its objective value.
    best: Option<(Vec<Int>, Int)>,
    d: usize,
    /// The directions searched are over the first `k` variables.
    k: usize,
    /// `k` vectors of `k` entries, a basis of `Z^k`.
    basis: Vec<Vec<Int>>,
    /// In the greedy descent: one value per level, no reduction.
    greedy: bool,
    /// The greedy descent has been tried (it runs once per search).
    tried_greedy: bool,
    /// The shallowest level at which a generalized basis reduction ran to the
    /// end (so `basis[level..]` is reduced for that level's polyhedron); the
    /// root starts its first reduction from a slab only while it is `None`.
    reduced_at: Option<usize>,
    budget: &'b mut Budget,
}

impl<'b> Search<'b> {
    fn new(
        rows: Vec<Row>,
        eqs: Vec<Row>,
        d: usize,
        k: usize,
        budget: &'b mut Budget,
    ) -> Search<'b> {
        let mut tab = Simplex::new(d);
        for e in &eqs {
            tab.add_eq(e);
        }
        for r in &rows {
            tab.add_ineq(r);
        }
        let mut search = Search::on_tableau(tab, rows, eqs, d, k, budget);
        // (building this tableau is charged with the first node)
        search.paid = 0;
        search
    }

    /// As [`Search::new`] on `tab`, a tableau of exactly `eqs` and `rows` (whose
    /// pivot work was paid for already).
    fn on_tableau(
        tab: Simplex,
        rows: Vec<Row>,
        eqs: Vec<Row>,
        d: usize,
        k: usize,
        budget: &'b mut Budget,
    ) -> Search<'b> {
        debug_assert_eq!(tab.n_var(), d);
        let paid = tab.work();
        let basis = (0..k)
            .map(|i| {
                let mut b = vec![Int::ZERO; k];
                b[i] = Int::ONE;
                b
            })
            .collect();
        Search {
            tab,
            rows,
            fixed: eqs.clone(),
            eqs,
            divs: Vec::new(),
            paid,
            objective: None,
            best: None,
            d,
            k,
            basis,
            greedy: false,
            tried_greedy: false,
            reduced_at: None,
            budget,
        }
    }

    fn run(&mut self) -> std::result::Result<Option<Vec<Int>>, Halt> {
        self.node(0)
    }

    /// A basis of `Z^k` whose first vector is the normal of the narrowest
    /// slab of the set (two rows with opposite linear parts over the first `k`
    /// variables, `-c1 <= a·z <= c2`), when that slab spans fewer values of
    /// `(a / gcd(a))·z` than `width`; `None` otherwise.
    fn slab_basis(&self, width: &Int) -> Option<Vec<Vec<Int>>> {
        let k = self.k;
        let mut best: Option<(Int, &[Int])> = None;
        for (i, r) in self.rows.iter().enumerate() {
            if r[1 + k..].iter().any(|c| !c.is_zero()) || r[1..=k].iter().all(Int::is_zero) {
                continue;
            }
            for s in &self.rows[i + 1..] {
                if s[1..].iter().zip(&r[1..]).all(|(a, b)| (a + b).is_zero()) {
                    let g = gcd_all(r[1..=k].iter());
                    let w = (&r[0] + &s[0]).floor_div(&g);
                    if &w < width && best.as_ref().is_none_or(|(bw, _)| w < *bw) {
                        best = Some((w, &r[1..=k]));
                    }
                }
            }
        }
        best.and_then(|(_, a)| basis_with_first(a))
    }

    /// `b·(1,z)` as a row with constant `c`.
    fn dir_row(&self, level: usize, c: Int) -> Row {
        let mut row = vec![Int::ZERO; 1 + self.d];
        row[0] = c;
        row[1..=self.k].clone_from_slice(&self.basis[level]);
        row
    }

    /// The integer range `ceil(min) ..= floor(max)` of basis direction `level`.
    fn range(&mut self, level: usize) -> std::result::Result<(Int, Int), Halt> {
        let obj = self.dir_row(level, Int::ZERO);
        let lo = match self.tab.min_value(&obj) {
            LpValue::Optimum(value) => value.ceil(),
            LpValue::Unbounded => return Err(Halt::Unbounded),
            LpValue::Empty => return Ok((Int::ONE, Int::ZERO)),
        };
        let hi = match self.tab.max_value(&obj) {
            LpValue::Optimum(value) => value.floor(),
            LpValue::Unbounded => return Err(Halt::Unbounded),
            LpValue::Empty => return Ok((Int::ONE, Int::ZERO)),
        };
        Ok((lo, hi))
    }

    /// Charges the pivot work done since the last charge.
    fn charge(&mut self) -> Result<()> {
        let p = self.tab.work();
        let fresh = p - self.paid;
        self.paid = p;
        self.budget.spend(fresh as usize)
    }

    /// The result of a finished search: the point found (sampling) or the best
    /// one (minimising), with its objective value (0 when sampling).
    fn answer(&mut self, found: Option<Vec<Int>>) -> Option<(Vec<Int>, Int)> {
        match found {
            Some(p) => Some((p, Int::ZERO)),
            None => self.best.take(),
        }
    }

    /// When minimising with an incumbent: adds `obj <= best - 1` to the tableau
    /// (rolled back with the node that added it).
    fn add_cut(&mut self) {
        if let (Some(obj), Some((_, best))) = (&self.objective, &self.best) {
            let mut cut: Row = obj.iter().map(|v| -v).collect();
            cut[0] += best - 1;
            self.tab.add_ineq(&cut);
        }
    }

    /// A point found at a node. Sampling: `Some(p)`, the answer. Minimising:
    /// `None`, after keeping `p` as the incumbent when it is better (the second
    /// value says so).
    fn found(&mut self, p: Vec<Int>) -> (Option<Vec<Int>>, bool) {
        let Some(obj) = &self.objective else {
            return (Some(p), false);
        };
        let v = Conjunction::eval_row(obj, &p);
        if self.best.as_ref().is_none_or(|(_, b)| v < *b) {
            self.best = Some((p, v));
            (None, true)
        } else {
            (None, false)
        }
    }

    fn node(&mut self, level: usize) -> std::result::Result<Option<Vec<Int>>, Halt> {
        self.budget.spend(1)?;
        self.charge()?;
        stats::count(Counter::SampleNode);
        loop {
            self.add_cut();
            if self.tab.is_empty() {
                return Ok(None);
            }
            let Some(p) = probe(&self.tab, &self.eqs, &self.rows) else {
                break;
            };
            match self.found(p) {
                (Some(p), _) => return Ok(Some(p)),
                // a better incumbent: cut again here
                (None, true) => continue,
                (None, false) => break,
            }
        }
        if level == self.k {
            let p = if !self.divs.is_empty() {
                self.complete_divs()
            } else {
                self.round_in_cone()?
            };
            // (minimising: every point of this leaf has the same objective value)
            return Ok(p.and_then(|p| self.found(p).0));
        }
        let (mut lo, mut hi) = self.range(level)?;
        if lo > hi {
            return Ok(None);
        }
        if lo < hi && level + 1 < self.k {
            // The narrowest of the remaining basis directions first: when one spans
            // at most two values, branch on it and skip the reduction, whose LPs on
            // the doubled tableau cost far more than these.
            let mut best = (&hi - &lo, level);
            let mut best_range = (lo.clone(), hi.clone());
            for j in level + 1..self.k {
                let (l, h) = self.range(j)?;
                if l > h {
                    return Ok(None);
                }
                if &h - &l < best.0 {
                    best = (&h - &l, j);
                    best_range = (l, h);
                }
            }
            if best.1 != level {
                self.basis.swap(level, best.1);
                (lo, hi) = best_range;
            }
        }
        if self.greedy || (&hi - &lo >= Int::from(2) && level + 1 < self.k && !self.tried_greedy) {
            // one value per level, the middle one, no reduction: on a fat set this
            // finds a point at the cost of a few LPs; tried once per search,
            // before the first reduction
            let outer = !self.greedy;
            self.tried_greedy = true;
            self.greedy = true;
            let mid = (&lo + &hi).floor_div(&Int::from(2));
            let found = self.child(level, &mid);
            if outer {
                self.greedy = false;
            }
            let found = found?;
            if found.is_some() || !outer {
                return Ok(found);
            }
        }
        // The reduction runs again at every level where the direction at
        // hand spans three values or more (isl's sampler does so with its
        // option `gbr` set to `always`; its default reduces once): a basis
        // reduced for the whole set need not stay thin on a slice of it. A leaf of a set difference (3 variables, 12 locals) took 27,472
        // nodes with the root's basis kept below a full reduction, and 128
        // with a reduction per level.
        if &hi - &lo >= Int::from(2) && level + 1 < self.k {
            if level == 0 && self.reduced_at.is_none() {
                // the reduction starts from the narrowest slab of the set when
                // it is narrower than this direction (any basis of Z^k will do
                // at the root): on thin sets it then needs fewer rounds
                if let Some(b) = self.slab_basis(&(&hi - &lo)) {
                    self.basis = b;
                }
            }
            let full = gbr::reduce(
                &self.rows,
                &self.fixed,
                self.d,
                &mut self.basis,
                level,
                self.budget,
            )?;
            if full && self.reduced_at.is_none_or(|r| level < r) {
                self.reduced_at = Some(level);
            }
            (lo, hi) = self.range(level)?;
            if lo > hi {
                return Ok(None);
            }
        }
        if self.objective.is_some() {
            // minimising: in increasing order (any order is exact)
            let mut v = lo;
            while v <= hi {
                if let Some(p) = self.child(level, &v)? {
                    return Ok(Some(p));
                }
                v += 1;
            }
            return Ok(None);
        }
        // sampling: from the middle outwards. The slices of a convex set are
        // longest in the middle; near an acute vertex they can stay shorter than
        // the lattice spacing for many values (a 2-variable slab of width 10^10
        // had its first 690 slices empty), which an order from the lowest value
        // walks through one by one.
        let mid = (&lo + &hi).floor_div(&Int::from(2));
        let (mut up, mut down) = (mid.clone(), &mid - 1);
        while up <= hi || down >= lo {
            if up <= hi {
                if let Some(p) = self.child(level, &up)? {
                    return Ok(Some(p));
                }
                up += 1;
            }
            if down >= lo {
                if let Some(p) = self.child(level, &down)? {
                    return Ok(Some(p));
                }
                down -= 1;
            }
        }
        Ok(None)
    }

    /// The node below `level` where its direction takes the value `v` (added as
    /// an equality, rolled back after).
    fn child(&mut self, level: usize, v: &Int) -> std::result::Result<Option<Vec<Int>>, Halt> {
        let snap = self.tab.snapshot();
        let eq = self.dir_row(level, -v);
        self.tab.add_eq(&eq);
        self.fixed.push(eq);
        let found = self.node(level + 1);
        if !matches!(found, Ok(None)) {
            // a point (sampling), or a halt: the search ends here, and the
            // tableau with it (rolling back costs a pivot per constraint)
            return found;
        }
        self.fixed.pop();
        self.tab.rollback(snap);
        found
    }

    /// All `k` directions are fixed, so the first `k` variables are integers, and
    /// the rest are divisions: their values follow by evaluation, in column
    /// order; the point is the answer when it satisfies every row, and otherwise
    /// no point has these first `k` values.
    fn complete_divs(&self) -> Option<Vec<Int>> {
        let pt = self.tab.sample_point()?;
        let mut x: Vec<Int> = pt[..self.k]
            .iter()
            .map(|q| {
                debug_assert!(q.is_integer());
                q.floor()
            })
            .collect();
        for dv in &self.divs {
            debug_assert_eq!(dv.col, x.len());
            // (the numerator's entries from its own column on are zero)
            x.push(Conjunction::eval_row(&dv.num, &x).floor_div(&dv.den));
        }
        satisfies(&x, &self.eqs, &self.rows).then_some(x)
    }

    /// All `k` bounded directions are fixed and the tableau is not empty: the
    /// remaining coordinates `k..d` span a full-dimensional recession cone. Round
    /// up a rational point of the set shrunk by what rounding up can cost each
    /// row (step 5 of the module doc). The shrunken rows are added lazily: the
    /// tableau's point is rounded up and checked, and only the rows that point
    /// violates are shrunk and added before the next try (a shrunken row keeps
    /// its original satisfied by the rounding, so each try adds new rows and the
    /// last try, with every row shrunk, is the plain method). On big
    /// coefficients each added row costs pivots on long numbers, and most rows
    /// are never violated.
    fn round_in_cone(&mut self) -> std::result::Result<Option<Vec<Int>>, Halt> {
        let snap = self.tab.snapshot();
        let mut added = vec![false; self.rows.len()];
        let k = self.k;
        let p = loop {
            let Some(pt) = self.tab.sample_point() else {
                self.tab.rollback(snap);
                return Err(Halt::ConeNotFull);
            };
            let p: Vec<Int> = pt
                .iter()
                .enumerate()
                .map(|(j, q)| {
                    if j < k {
                        debug_assert!(q.is_integer());
                        q.floor()
                    } else {
                        q.ceil()
                    }
                })
                .collect();
            let mut violated = false;
            for (i, r) in self.rows.iter().enumerate() {
                if Conjunction::eval_row(r, &p).is_negative() {
                    debug_assert!(!added[i], "a shrunken row is violated after rounding");
                    added[i] = true;
                    violated = true;
                    let mut s = r.clone();
                    for c in &r[1 + k..] {
                        if c.is_negative() {
                            s[0] += c; // s0 - |c|
                        }
                    }
                    self.tab.add_ineq(&s);
                }
            }
            if !violated {
                break p;
            }
        };
        if self.objective.is_some() {
            // (sampling ends with this point; minimising goes on from here)
            self.tab.rollback(snap);
        }
        debug_assert!(satisfies(&p, &[], &self.rows));
        Ok(Some(p))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::omega;

    fn ints(v: &[i64]) -> Vec<Int> {
        v.iter().map(|&x| Int::from(x)).collect()
    }

    fn sample(n: usize, eqs: &[&[i64]], ineqs: &[&[i64]]) -> Option<Vec<Int>> {
        let eqs: Vec<Row> = eqs.iter().map(|r| ints(r)).collect();
        let ineqs: Vec<Row> = ineqs.iter().map(|r| ints(r)).collect();
        let p = integer_sample(n, &eqs, &ineqs, &mut Budget::default()).unwrap();
        if let Some(p) = &p {
            assert!(satisfies(p, &eqs, &ineqs), "{p:?}");
        }
        p
    }

    #[test]
    fn minimum_on_unbounded_sets() {
        let min = |n: usize, ineqs: &[&[i64]], obj: &[i64]| {
            let ineqs: Vec<Row> = ineqs.iter().map(|r| ints(r)).collect();
            integer_minimum(n, &[], &ineqs, &ints(obj), &mut Budget::default())
        };
        // x >= 0, 2x + 3y >= 7, y free: min x = 0 (y = 3), the set is unbounded in y
        let (v, p) = min(2, &[&[0, 1, 0], &[-7, 2, 3]], &[0, 1, 0])
            .unwrap()
            .unwrap();
        assert_eq!(v, Int::ZERO);
        assert!(&p[0] * &Int::from(2) + &p[1] * &Int::from(3) >= Int::from(7));
        // 3x - 2y >= 1, x - y <= 5, x >= 0 (unbounded as x grows): min x + y is
        // -5 at x = 0, y = -5
        let (v, _) = min(2, &[&[-1, 3, -2], &[5, -1, 1], &[0, 1, 0]], &[0, 1, 1])
            .unwrap()
            .unwrap();
        assert_eq!(v, Int::from(-5));
        // no minimum: x <= 3 and min x
        assert!(matches!(
            min(1, &[&[3, -1]], &[0, 1]),
            Err(Error::Unbounded(_))
        ));
        // empty
        assert_eq!(min(1, &[&[-1, 2], &[1, -2]], &[0, 1]).unwrap(), None);
    }

    /// Unbounded sets whose bounded directions come from slabs (two rows with
    /// opposite linear parts, which enter the recession cone as equalities),
    /// alone or with a bounded direction that only the cone's LPs find.
    #[test]
    fn unbounded_sets_with_slabs() {
        // 1 <= 2x - 2y <= 1 has no integer point, whatever z
        assert_eq!(
            sample(3, &[], &[&[-1, 2, -2, 0], &[1, -2, 2, 0], &[0, 0, 0, 1]]),
            None
        );
        // 4x - 6y + 3z = 5 (a slab of width 0) and z >= x: x = -1, y = -2, z = 3
        assert!(sample(3, &[], &[&[-5, 4, -6, 3], &[5, -4, 6, -3], &[0, -1, 0, 1]]).is_some());
        // a slab on 3x - 3y, and x + y = 0 given by rows that are not opposite
        // (2x + 2y >= 0, -x - y >= 0), which the cone's LPs find; z >= 0 free above
        let with = |c: i64| {
            sample(
                3,
                &[],
                &[
                    &[-c, 3, -3, 0],
                    &[c, -3, 3, 0],
                    &[0, 2, 2, 0],
                    &[0, -1, -1, 0],
                    &[0, 0, 0, 1],
                ],
            )
        };
        // 3x - 3y = 2: no integer point
        assert_eq!(with(2), None);
        // x - y = 1 and x + y = 0: no integer point either
        assert_eq!(with(3), None);
        // x - y = 2 and x + y = 0: x = 1, y = -1
        let p = with(6).expect("x = 1, y = -1");
        assert_eq!((p[0].clone(), p[1].clone()), (Int::ONE, Int::from(-1)));
    }

    /// The minimum of a thin lattice problem: branch and bound must go past the
    /// rational optimum by many values.
    #[test]
    fn minimum_far_from_the_rational_optimum() {
        // 0 <= 999x - 1000y <= 2, 1 <= x <= 10^6: the smallest x with a y
        let ineqs = vec![
            ints(&[0, 999, -1000]),
            ints(&[2, -999, 1000]),
            ints(&[-1, 1, 0]),
            ints(&[1_000_000, -1, 0]),
        ];
        let (v, p) = integer_minimum(2, &[], &ineqs, &ints(&[0, 1, 0]), &mut Budget::default())
            .unwrap()
            .unwrap();
        // 999x - 1000y in [0, 2] with x >= 1: x = 998, y = 997 gives 999·998 - 1000·997 = 2
        let brute = (1..=1000i64)
            .find(|&x| (0..=x).any(|y| (0..=2).contains(&(999 * x - 1000 * y))))
            .unwrap();
        assert_eq!(v, Int::from(brute));
        assert!(satisfies(&p, &[], &ineqs));
    }

    #[test]
    fn small_cases() {
        // 2x = 1: none
        assert!(sample(1, &[&[-1, 2]], &[]).is_none());
        // 1 <= 3x <= 2: rationally non-empty, no integer
        assert!(sample(1, &[], &[&[-1, 3], &[2, -3]]).is_none());
        // the universe of 3 variables
        assert!(sample(3, &[], &[]).is_some());
        // unbounded: x >= y + 1/2 in disguise: 2x - 2y >= 1, no upper bounds
        assert!(sample(2, &[], &[&[-1, 2, -2]]).is_some());
        // unbounded strip with no integer point: 1 <= 3x - 3y <= 2
        assert!(sample(2, &[], &[&[-1, 3, -3], &[2, -3, 3]]).is_none());
        // unbounded in y, gap in x: 1 <= 2x <= 1 and y >= x
        assert!(sample(2, &[], &[&[-1, 2, 0], &[1, -2, 0], &[0, -1, 1]]).is_none());
        // thin wedge with big coefficients
        assert!(
            sample(
                2,
                &[],
                &[
                    &[0, 100_000_000_007, -99_999_999_991],
                    &[3, -100_000_000_007, 99_999_999_991],
                    &[0, 1, 0],
                    &[1_000_000_000_000, -1, 0]
                ]
            )
            .is_some()
        );
    }

    /// A wide slab whose slices near its lowest values are shorter than the
    /// lattice spacing for hundreds of values (a leaf of a subtraction on the
    /// benchmark's lattice family): sampling from the middle outwards finds a
    /// point within a small budget, from the lowest value it did not.
    #[test]
    fn slices_are_tried_from_the_middle() {
        let c: crate::conjunction::Conjunction =
            "{ [x, y, z] : 10000000000047z = -9999999999976x + 10000000000014y \
             + 2922630000007446405 and 0 <= y <= 1000000000000 and 0 <= x <= 1000000000000 and \
             4999999999988x - 1461315000003723202 <= 5000000000007y <= 4999999999988x \
             + 4999998538708499996276797 and x >= 99999 }"
                .parse::<crate::api::Set>()
                .unwrap()
                .0
                .parts
                .remove(0);
        let mut budget = Budget::new(3_000);
        let p = c.sample_full(&mut budget).unwrap().expect("a point");
        assert!(satisfies(&p, &c.eqs, &c.ineqs));
    }

    /// An integer-empty slab: `x - y` lies strictly between 2 and 2 + 10^-7
    /// once `z = 1`, and `x + y = 5e + 3` makes `2x - 5e` the thin direction
    /// of the compressed lattice. The reduced basis must find it within a
    /// small budget; a basis that counts a half-width pair as reduced
    /// enumerated about `x / 2.5` slices (1.25 M nodes at `x <= 10^8`).
    #[test]
    fn thin_direction_through_a_congruence() {
        let c: crate::conjunction::Conjunction =
            "{ [x, y, z, e0, e2] : 100000027x - 100000027y + 5z - 200000063 >= 0 and \
             -100000027x + 100000027y - 5z + 200000068 >= 0 and x - 323 >= 0 and \
             -x + 100000323 >= 0 and z >= 0 and -z + 3 >= 0 and z - 9e2 - 1 = 0 and \
             x + y - 5e0 - 3 = 0 }"
                .parse::<crate::api::Set>()
                .unwrap()
                .0
                .parts
                .remove(0);
        let mut budget = Budget::new(3_000);
        assert_eq!(c.sample_full(&mut budget).unwrap(), None);
    }

    /// A family that makes the Omega test splinter: the sampler answers it.
    #[test]
    fn gap_between_two_planes() {
        // 1 <= 7x + 11y + 13z <= 1 (an equality in disguise) with a box
        let p = sample(
            3,
            &[],
            &[
                &[-1, 7, 11, 13],
                &[1, -7, -11, -13],
                &[5, 1, 0, 0],
                &[5, -1, 0, 0],
                &[5, 0, 1, 0],
                &[5, 0, -1, 0],
                &[5, 0, 0, 1],
                &[5, 0, 0, -1],
            ],
        );
        assert!(p.is_some());
    }

    use proptest::prelude::*;

    fn arb_system() -> impl Strategy<Value = (usize, Vec<Row>, Vec<Row>)> {
        (1usize..=4).prop_flat_map(|n| {
            let row = proptest::collection::vec(-6i64..=6, n + 1).prop_map(|r| ints(&r));
            (
                Just(n),
                proptest::collection::vec(row.clone(), 0..2),
                proptest::collection::vec(row, 0..7),
            )
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        /// Same answer as the Omega test (bounded and unbounded systems).
        #[test]
        /// The search over the non-division variables gives the same answer as
        /// the plain one on systems with one or two divisions of the others
        /// (their defining rows included), and its point satisfies every row.
        #[test]
        fn divisions_agree_with_the_plain_search(
            (n, eqs, mut ineqs) in arb_system(),
            defs in proptest::collection::vec((proptest::collection::vec(-4i64..=4, 5), 2i64..=5), 1..=2),
            extra in proptest::collection::vec(proptest::collection::vec(-4i64..=4, 7), 0..3),
        ) {
            let total = n + defs.len();
            let widen = |r: &Row| { let mut r = r.clone(); r.resize(1 + total, Int::ZERO); r };
            let eqs: Vec<Row> = eqs.iter().map(widen).collect();
            ineqs = ineqs.iter().map(widen).collect();
            let mut divs = Vec::new();
            for (k, (num, den)) in defs.iter().enumerate() {
                let col = n + k;
                let mut num_row = vec![Int::ZERO; 1 + total];
                for (j, v) in num.iter().enumerate().take(1 + col) {
                    num_row[j] = Int::from(*v);
                }
                let den = Int::from(*den);
                // 0 <= num - den·q <= den - 1
                let mut lo = num_row.clone();
                lo[1 + col] = -&den;
                let mut hi: Row = lo.iter().map(|v| -v).collect();
                hi[0] += &den - 1;
                ineqs.push(lo);
                ineqs.push(hi);
                divs.push(DivCol { col, num: num_row, den });
            }
            for e in &extra {
                let mut r = vec![Int::ZERO; 1 + total];
                for (j, v) in e.iter().enumerate().take(1 + total) {
                    r[j] = Int::from(*v);
                }
                ineqs.push(r);
            }
            let plain = integer_sample(total, &eqs, &ineqs, &mut Budget::default()).unwrap();
            let with = integer_sample_with_divs(total, &eqs, &ineqs, &divs, &mut Budget::default()).unwrap();
            prop_assert_eq!(plain.is_some(), with.is_some());
            if let Some(p) = with {
                prop_assert!(satisfies(&p, &eqs, &ineqs));
            }
        }

        /// Equalities with coefficients near 2^40 (the kernels that equality
        /// compression reduces with LLL) in a box of side 7: the sampler's
        /// answer agrees with enumeration, and its point solves the system.
        /// Half of the systems are built through a chosen point, so that both
        /// answers occur.
        #[test]
        fn big_equalities_agree_with_enumeration(
            n in 2usize..=3,
            coeffs in proptest::collection::vec((1i64 << 38..1i64 << 40, -3i64..=3, any::<bool>()), 6),
            two in any::<bool>(),
            point in proptest::collection::vec(0i64..=6, 3),
            through in any::<bool>(),
            c0 in -(1i64 << 41)..(1i64 << 41),
            extra in proptest::collection::vec(-3i64..=3, 4),
        ) {
            // near-equal large coefficients (the thin lattices of `vs_isl`'s
            // family) or spread ones
            let row = |k: usize| -> Row {
                let mut r = vec![Int::ZERO; 1 + n];
                for j in 0..n {
                    let (big, small, neg) = coeffs[k * 3 + j];
                    let v = if k == 0 { big } else { (1i64 << 39) + small * 1000 + big % 97 };
                    r[1 + j] = Int::from(if neg { -v } else { v });
                }
                let at: Int = (0..n).map(|j| &r[1 + j] * &Int::from(point[j])).fold(Int::ZERO, |a, b| a + b);
                r[0] = if through { -at } else { Int::from(c0) - at };
                r
            };
            let mut eqs = vec![row(0)];
            if two && n == 3 {
                eqs.push(row(1));
            }
            let mut ineqs: Vec<Row> = Vec::new();
            for j in 0..n {
                let mut lo = vec![Int::ZERO; 1 + n];
                lo[1 + j] = Int::ONE;
                let mut hi = vec![Int::from(6); 1 + n];
                hi[1..].iter_mut().for_each(|v| *v = Int::ZERO);
                hi[1 + j] = Int::from(-1);
                ineqs.push(lo);
                ineqs.push(hi);
            }
            ineqs.push(ints(&extra[..=n]));
            let mut found = false;
            let mut x = vec![0i64; n];
            'enumerate: loop {
                if satisfies(&ints(&x), &eqs, &ineqs) {
                    found = true;
                    break;
                }
                let mut j = 0;
                while j < n && x[j] == 6 {
                    x[j] = 0;
                    j += 1;
                }
                if j == n {
                    break 'enumerate;
                }
                x[j] += 1;
            }
            let got = integer_sample(n, &eqs, &ineqs, &mut Budget::default()).unwrap();
            prop_assert_eq!(got.is_some(), found);
            if let Some(p) = got {
                prop_assert!(satisfies(&p, &eqs, &ineqs));
            }
        }

        /// The minimum of a random objective over a random system in a box agrees
        /// with enumeration, and the point reaches it.
        #[test]
        fn minimum_agrees_with_enumeration(
            (n, eqs, mut ineqs) in arb_system(),
            obj in proptest::collection::vec(-5i64..=5, 5),
        ) {
            for j in 0..n {
                for sign in [1i64, -1] {
                    let mut r = vec![Int::from(5); n + 1];
                    r[1..].iter_mut().for_each(|v| *v = Int::ZERO);
                    r[1 + j] = Int::from(sign);
                    ineqs.push(r);
                }
            }
            let obj = ints(&obj[..=n]);
            let mut best: Option<Int> = None;
            let mut x = vec![-5i64; n];
            loop {
                let xi = ints(&x);
                if satisfies(&xi, &eqs, &ineqs) {
                    let v = Conjunction::eval_row(&obj, &xi);
                    if best.as_ref().is_none_or(|b| v < *b) {
                        best = Some(v);
                    }
                }
                let mut j = 0;
                while j < n && x[j] == 5 {
                    x[j] = -5;
                    j += 1;
                }
                if j == n {
                    break;
                }
                x[j] += 1;
            }
            let got = integer_minimum(n, &eqs, &ineqs, &obj, &mut Budget::default()).unwrap();
            prop_assert_eq!(got.as_ref().map(|(v, _)| v.clone()), best);
            if let Some((v, p)) = got {
                prop_assert!(satisfies(&p, &eqs, &ineqs));
                prop_assert_eq!(Conjunction::eval_row(&obj, &p), v);
            }
        }

        /// On systems that may be unbounded, the minimum agrees with a bisection
        /// over the objective's values by integer sampling (the method this
        /// search replaced), including "no minimum".
        #[test]
        fn minimum_agrees_with_bisection(
            (n, eqs, ineqs) in arb_system(),
            obj in proptest::collection::vec(-3i64..=3, 5),
        ) {
            let obj = ints(&obj[..=n]);
            let budget = &mut Budget::default();
            let reference = (|| -> Result<Option<Int>> {
                let Some(p) = integer_sample(n, &eqs, &ineqs, budget)? else {
                    return Ok(None);
                };
                let mut hi = Conjunction::eval_row(&obj, &p);
                let mut tab = Simplex::new(n);
                eqs.iter().for_each(|e| tab.add_eq(e));
                ineqs.iter().for_each(|r| { tab.add_ineq(r); });
                let mut lo = match tab.minimize(&obj) {
                    LpResult::Optimum { value, .. } => value.ceil(),
                    _ => return Err(Error::Unbounded(String::new())),
                };
                while lo < hi {
                    let mid = (&lo + &hi).floor_div(&Int::from(2));
                    let mut cut: Row = obj.iter().map(|v| -v).collect();
                    cut[0] += &mid;
                    let mut rows = ineqs.clone();
                    rows.push(cut);
                    match integer_sample(n, &eqs, &rows, budget)? {
                        Some(p) => hi = Conjunction::eval_row(&obj, &p),
                        None => lo = mid + 1,
                    }
                }
                Ok(Some(hi))
            })();
            let got = integer_minimum(n, &eqs, &ineqs, &obj, &mut Budget::default());
            match (reference, got) {
                (Ok(r), Ok(g)) => prop_assert_eq!(r, g.map(|(v, _)| v)),
                (Err(Error::Unbounded(_)), Err(Error::Unbounded(_))) => {}
                (r, g) => prop_assert!(false, "reference {:?}, search {:?}", r, g),
            }
        }

        #[test]
        fn agrees_with_omega((n, eqs, ineqs) in arb_system()) {
            let ours = integer_sample(n, &eqs, &ineqs, &mut Budget::default()).unwrap();
            let theirs = omega::integer_sample(n, eqs.clone(), ineqs.clone(), &mut Budget::default()).unwrap();
            prop_assert_eq!(ours.is_some(), theirs.is_some());
            if let Some(p) = ours {
                prop_assert!(satisfies(&p, &eqs, &ineqs));
            }
        }
    }
}
