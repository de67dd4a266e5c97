//! Integer sampling on the incremental simplex: an integer point of
//! `{ x in Z^n : eqs·(1,x) = 0, ineqs·(1,x) >= 0 }`, or the proof that there is
//! none. This is the general path of every emptiness test (behind the SDBM fast
//! path of [`crate::sdbm_path`]).
//!
//! The steps, each exact:
//! 0. *Bound propagation* in machine arithmetic ([`crate::solver::propagate`]):
//!    crossing bounds prove the set empty; otherwise a greedy dive through the
//!    propagated box (fix a variable, propagate, go on) often lands on a point,
//!    which is checked against every row. On small tiled and dependence pieces
//!    this decides most calls before any tableau is built.
//! 1. *Rational relaxation* on one tableau: when it is empty, so is the integer
//!    set; when its vertex is integral, or rounding the vertex to the nearest
//!    integers gives a point of the set, that point is the answer.
//! 2. *Equalities* are compressed once: their integer solutions are
//!    `x = x0 + V z` with `z` free in `Z^(n-r)` ([`crate::solver::lattice`]); a
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
//!    basis reduction ([`crate::solver::gbr`]), which makes `b_i` a thin direction
//!    of the set. Every
//!    node first checks whether the tableau's vertex, or its rounding, is already
//!    an integer point.
//! 5. *Unbounded sets* (found when a direction's LP is unbounded): the implicit
//!    equalities of the recession cone span the directions along which the set is
//!    bounded; a unimodular change of variables makes these the first `k`
//!    coordinates `y` ([`crate::solver::lattice::column_echelon`]). The search of
//!    step 4 runs over `y` only. Once `y` is fixed, the rest of the set has a
//!    full-dimensional recession cone, so it contains arbitrarily large balls and
//!    always has integer points: one is found by shrinking each inequality by the
//!    most that rounding the remaining coordinates up can cost it, taking a
//!    rational point of the shrunken set and rounding it up (the "rounding in a
//!    shrunken cone" of isl's sampler and of MLIR's Presburger library, written
//!    here from that description).
//!
//! Termination: the search in step 4 enumerates, level by level, finitely many
//! values of bounded directions; basis reduction terminates (Lovász–Scarf). A
//! [`Budget`] bounds the work all the same: one step per search node and a few per
//! reduction round. Running out is an error, never a wrong answer.

use crate::conjunction::Row;
use crate::error::{Error, Result};
use crate::int::{gcd_all, Int};
use crate::solver::budget::Budget;
use crate::solver::gbr;
use crate::solver::lattice::{column_echelon, compress_equalities, mat_vec, times};
use crate::solver::propagate::Propagator;
use crate::solver::simplex::{LpResult, Rational, Simplex};
use crate::stats::{self, Counter};

/// An integer point of `{ x in Z^n : eqs·(1,x) = 0, ineqs·(1,x) >= 0 }`, or
/// `None`; see the module doc. Rows have `1 + n` entries, the constant first.
pub fn integer_sample(
    n: usize,
    eqs: &[Row],
    ineqs: &[Row],
    budget: &mut Budget,
) -> Result<Option<Vec<Int>>> {
    match first_steps(n, eqs, ineqs, budget)? {
        Some(answer) => Ok(answer),
        None => search_steps(n, eqs, ineqs, budget),
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
pub fn integer_sample_with_divs(
    n: usize,
    eqs: &[Row],
    ineqs: &[Row],
    divs: &[DivCol],
    budget: &mut Budget,
) -> Result<Option<Vec<Int>>> {
    let k = n - divs.len();
    debug_assert!(divs.iter().enumerate().all(|(i, d)| d.col == k + i
        && d.den.is_positive()
        && d.num[1 + d.col..].iter().all(Int::is_zero)));
    if let Some(answer) = first_steps(n, eqs, ineqs, budget)? {
        return Ok(answer);
    }
    let mut search = Search::new(ineqs.to_vec(), eqs.to_vec(), n, k, budget);
    search.divs = divs.to_vec();
    match search.run() {
        Ok(p) => Ok(p),
        Err(Halt::Fail(e)) => Err(e),
        Err(Halt::Unbounded) => search_steps(n, eqs, ineqs, budget),
    }
}

/// Steps 0 and 1: `Some(answer)` when bound propagation or the rational
/// relaxation decides, `None` to go on.
fn first_steps(
    n: usize,
    eqs: &[Row],
    ineqs: &[Row],
    budget: &mut Budget,
) -> Result<Option<Option<Vec<Int>>>> {
    budget.spend(1)?;
    // 0. bound propagation, a proof of emptiness in machine arithmetic
    let Some(mut prop) = Propagator::new(n, eqs, ineqs) else {
        return Ok(Some(None));
    };
    if !prop.run() {
        return Ok(Some(None));
    }
    if let Some(p) = prop.dive() {
        let p: Vec<Int> = p.into_iter().map(Int::from).collect();
        if satisfies(&p, eqs, ineqs) {
            return Ok(Some(Some(p)));
        }
    }
    // 1. the rational relaxation
    let mut tab = Simplex::new(n);
    for e in eqs {
        tab.add_eq(e);
    }
    for r in ineqs {
        tab.add_ineq(r);
    }
    budget.spend(tab.pivots() as usize)?;
    if tab.is_empty() {
        return Ok(Some(None));
    }
    Ok(probe(&tab, eqs, ineqs).map(Some))
}

/// Steps 2 to 5.
fn search_steps(
    n: usize,
    eqs: &[Row],
    ineqs: &[Row],
    budget: &mut Budget,
) -> Result<Option<Vec<Int>>> {
    // 2. equalities
    let Some(comp) = compress_equalities(eqs, n) else {
        return Ok(None);
    };
    let d = comp.n_free();
    let mut rows: Vec<Row> = Vec::with_capacity(ineqs.len());
    for r in ineqs {
        let mut t = comp.apply_row(r);
        if !tighten(&mut t) {
            return Ok(None);
        }
        if t[1..].iter().any(|c| !c.is_zero()) {
            rows.push(t);
        }
    }
    // 3. independent groups
    let mut z = vec![Int::ZERO; d];
    for (vars, group) in groups(&rows, d) {
        let local: Vec<Row> = group
            .iter()
            .map(|&r| {
                let mut row = Vec::with_capacity(1 + vars.len());
                row.push(rows[r][0].clone());
                row.extend(vars.iter().map(|&v| rows[r][1 + v].clone()));
                row
            })
            .collect();
        match sample_group(&local, vars.len(), budget)? {
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

/// True when `x` satisfies every row.
fn satisfies(x: &[Int], eqs: &[Row], ineqs: &[Row]) -> bool {
    let val = |r: &Row| {
        let mut s = r[0].clone();
        for (a, v) in r[1..].iter().zip(x) {
            if !a.is_zero() && !v.is_zero() {
                s += a * v;
            }
        }
        s
    };
    eqs.iter().all(|r| val(r).is_zero()) && ineqs.iter().all(|r| !val(r).is_negative())
}

/// The tableau's vertex if it is integral, else its rounding to the nearest
/// integers if that satisfies the rows.
fn probe(tab: &Simplex, eqs: &[Row], ineqs: &[Row]) -> Option<Vec<Int>> {
    let pt = tab.sample_point()?;
    if pt.iter().all(Rational::is_integer) {
        return Some(pt.into_iter().map(|q| q.num).collect());
    }
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
    /// An error (the budget ran out).
    Fail(Error),
}

impl From<Error> for Halt {
    fn from(e: Error) -> Halt {
        Halt::Fail(e)
    }
}

/// An integer point of `{ z in Z^d : rows·(1,z) >= 0 }` (steps 4 and 5).
fn sample_group(rows: &[Row], d: usize, budget: &mut Budget) -> Result<Option<Vec<Int>>> {
    // First as if bounded (the common case), on the original coordinates.
    match Search::new(rows.to_vec(), Vec::new(), d, d, budget).run() {
        Ok(p) => return Ok(p),
        Err(Halt::Fail(e)) => return Err(e),
        Err(Halt::Unbounded) => {}
    }
    // Unbounded: make the bounded directions the first k coordinates.
    let mut cone = Simplex::new(d);
    for r in rows {
        let mut h = r.clone();
        h[0] = Int::ZERO;
        cone.add_ineq(&h);
    }
    let implicit = cone.detect_implicit_equalities();
    let eq_rows: Vec<&[Int]> = implicit.iter().map(|&i| &rows[i][1..]).collect();
    let ech = column_echelon(&eq_rows, d);
    let k = ech.rank;
    let trows: Vec<Row> = rows
        .iter()
        .map(|r| {
            let mut t = Vec::with_capacity(1 + d);
            t.push(r[0].clone());
            t.extend(times(&r[1..], &ech.u));
            t
        })
        .collect();
    match Search::new(trows, Vec::new(), d, k, budget).run() {
        Ok(Some(t)) => Ok(Some(mat_vec(&ech.u, &t))),
        Ok(None) => Ok(None),
        Err(Halt::Fail(e)) => Err(e),
        Err(Halt::Unbounded) => Err(Error::Invalid(
            "internal: the integer sampler found an unbounded direction among the bounded ones"
                .into(),
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
    /// Pivots of `tab` already charged to the budget.
    paid: u64,
    d: usize,
    /// The directions searched are over the first `k` variables.
    k: usize,
    /// `k` vectors of `k` entries, a basis of `Z^k`.
    basis: Vec<Vec<Int>>,
    /// In the greedy descent: one value per level, no reduction.
    greedy: bool,
    /// The greedy descent has been tried (it runs once per search).
    tried_greedy: bool,
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
            paid: 0,
            d,
            k,
            basis,
            greedy: false,
            tried_greedy: false,
            budget,
        }
    }

    fn run(&mut self) -> std::result::Result<Option<Vec<Int>>, Halt> {
        self.node(0)
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
        let lo = match self.tab.minimize(&obj) {
            LpResult::Optimum { value, .. } => value.ceil(),
            LpResult::Unbounded => return Err(Halt::Unbounded),
            LpResult::Empty => return Ok((Int::ONE, Int::ZERO)),
        };
        let hi = match self.tab.maximize(&obj) {
            LpResult::Optimum { value, .. } => value.floor(),
            LpResult::Unbounded => return Err(Halt::Unbounded),
            LpResult::Empty => return Ok((Int::ONE, Int::ZERO)),
        };
        Ok((lo, hi))
    }

    /// Charges the pivots made since the last charge (one step each).
    fn charge(&mut self) -> Result<()> {
        let p = self.tab.pivots();
        let fresh = p - self.paid;
        self.paid = p;
        self.budget.spend(fresh as usize)
    }

    fn node(&mut self, level: usize) -> std::result::Result<Option<Vec<Int>>, Halt> {
        self.budget.spend(1)?;
        self.charge()?;
        stats::count(Counter::SampleNode);
        if self.tab.is_empty() {
            return Ok(None);
        }
        if let Some(p) = probe(&self.tab, &self.eqs, &self.rows) {
            return Ok(Some(p));
        }
        if level == self.k {
            if !self.divs.is_empty() {
                return Ok(self.complete_divs());
            }
            return self.round_in_cone().map_err(Halt::Fail);
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
            let snap = self.tab.snapshot();
            let eq = self.dir_row(level, -&mid);
            self.tab.add_eq(&eq);
            self.fixed.push(eq);
            let found = self.node(level + 1);
            self.fixed.pop();
            self.tab.rollback(snap);
            if outer {
                self.greedy = false;
            }
            let found = found?;
            if found.is_some() || !outer {
                return Ok(found);
            }
        }
        if &hi - &lo >= Int::from(2) && level + 1 < self.k {
            gbr::reduce(
                &self.rows,
                &self.fixed,
                self.d,
                &mut self.basis,
                level,
                self.budget,
            )?;
            (lo, hi) = self.range(level)?;
            if lo > hi {
                return Ok(None);
            }
        }
        let mut v = lo;
        while v <= hi {
            let snap = self.tab.snapshot();
            let eq = self.dir_row(level, -&v);
            self.tab.add_eq(&eq);
            self.fixed.push(eq);
            let found = self.node(level + 1);
            self.fixed.pop();
            self.tab.rollback(snap);
            if let Some(p) = found? {
                return Ok(Some(p));
            }
            v += 1;
        }
        Ok(None)
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
            let mut v = dv.num[0].clone();
            for (a, xv) in dv.num[1..=dv.col].iter().zip(&x) {
                if !a.is_zero() && !xv.is_zero() {
                    v += a * xv;
                }
            }
            x.push(v.floor_div(&dv.den));
        }
        satisfies(&x, &self.eqs, &self.rows).then_some(x)
    }

    /// All `k` bounded directions are fixed and the tableau is not empty: the
    /// remaining coordinates `k..d` span a full-dimensional recession cone. Round
    /// up a rational point of the set shrunk by what rounding up can cost each
    /// row (step 5 of the module doc).
    fn round_in_cone(&mut self) -> Result<Option<Vec<Int>>> {
        let snap = self.tab.snapshot();
        for r in &self.rows {
            let mut s = r.clone();
            for c in &r[1 + self.k..] {
                if c.is_negative() {
                    s[0] += c; // s0 - |c|
                }
            }
            self.tab.add_ineq(&s);
        }
        let pt = self.tab.sample_point();
        self.tab.rollback(snap);
        let Some(pt) = pt else {
            return Err(Error::Invalid(
                "internal: the integer sampler's shrunken cone is empty".into(),
            ));
        };
        let p: Vec<Int> = pt
            .iter()
            .enumerate()
            .map(|(j, q)| {
                if j < self.k {
                    debug_assert!(q.is_integer());
                    q.floor()
                } else {
                    q.ceil()
                }
            })
            .collect();
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
        assert!(sample(
            2,
            &[],
            &[
                &[0, 100_000_000_007, -99_999_999_991],
                &[3, -100_000_000_007, 99_999_999_991],
                &[0, 1, 0],
                &[1_000_000_000_000, -1, 0]
            ]
        )
        .is_some());
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
