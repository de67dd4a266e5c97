//! Integer queries on conjunctions and unions: emptiness, sampling, membership,
//! lexicographic optima and integer optima of affine expressions.
//!
//! Every query works on the full column space of a conjunction (parameters,
//! dimensions and locals are all integer variables), so a set with parameters is
//! empty exactly when no parameter value gives it an integer point, and existentials
//! are honoured exactly. The engine is the integer sampler on the simplex with
//! generalized basis reduction ([`crate::solver::sample`]) behind the SDBM fast path;
//! the Omega test ([`crate::omega`]) stays as an independent oracle
//! ([`Conjunction::sample_omega`]).
//!
//! Where two exact methods suit a conjunction and either can stall where
//! the other answers at once (the search on the non-division columns and the
//! search on all columns, see [`Conjunction::sample_general`]), they run as a
//! portfolio on caps that grow fourfold ([`Budget::portfolio`]); the
//! conjunctions of a union are tested the same way, in rounds, so that one
//! hard empty conjunction does not delay the answer of an easy non-empty one.
//!
//! Optima (`lexmin`, `min` of an affine expression) combine three exact steps: the
//! rational simplex gives a bound (`ceil` of the rational minimum; an unbounded LP on
//! a set with integer points means no integer minimum either, since the integer hull
//! of a rational polyhedron keeps its recession cone — Meyer, 1974), an integer sample
//! gives a feasible value, and a binary search between the two with emptiness tests
//! finds the integer optimum in a logarithmic number of tests.

use crate::api::{BasicSet, Set};
use crate::conjunction::{Conjunction, Row};
use crate::elimination::one_sided_value;
use crate::error::{Error, Result};
use crate::int::Int;
use crate::simplex::Simplex;
use crate::solver::budget::Budget;
use crate::solver::sample::Propagation;

/// The first cap of the sampler's portfolio ([`Budget::portfolio`]), in
/// budget steps: most emptiness tests of loop nests and set differences end
/// in fewer.
const PORTFOLIO_FIRST_CAP: u64 = 10_000;

/// From this many locals on, the Omega test is a method of the sampler's
/// portfolio (see [`Conjunction::sample_general_steps`]).
const OMEGA_MIN_LOCALS: usize = 4;

impl Conjunction {
    /// The exact simplex over all columns (locals included) with the equalities,
    /// then the inequalities, added in order; also the index of the first
    /// inequality. `None` when the conjunction is rationally empty.
    pub(crate) fn rational_tableau(&self) -> Option<(Simplex, usize)> {
        let mut s = Simplex::with_capacity(self.n_col() - 1, self.eqs.len() + self.ineqs.len());
        for e in &self.eqs {
            s.add_eq(e);
        }
        let first = s.n_con();
        for r in &self.ineqs {
            s.add_ineq(r);
        }
        if s.is_empty() { None } else { Some((s, first)) }
    }

    /// An integer assignment of all columns after the constant (parameters,
    /// dimensions, locals) satisfying the constraints, or `None`.
    /// The columns are those of `self` (no simplification that could drop a local).
    /// Bound propagation answers first when it proves the set empty or its
    /// dive finds a point, then the SDBM fast path when the conjunction fits
    /// (see [`crate::sdbm_path`]), then the integer sampler
    /// ([`Conjunction::sample_general`]).
    pub(crate) fn sample_full(&self, budget: &mut Budget) -> Result<Option<Vec<Int>>> {
        self.sample_via(crate::sdbm_path::EmptinessPath::Auto, budget)
    }

    /// As [`Conjunction::sample_full`], always with the general algorithm: the
    /// integer sampler on the simplex with basis reduction ([`crate::solver::sample`]).
    ///
    /// Locals with a division definition go last and the search branches on the
    /// other columns only ([`crate::solver::sample::sample_with_divs_steps`]),
    /// when every definition uses only columns that come before it in that order;
    /// that search and the plain one on all columns run as a portfolio
    /// ([`Budget::portfolio`]), the plain one first when an equality uses a local.
    pub(crate) fn sample_general(&self, budget: &mut Budget) -> Result<Option<Vec<Int>>> {
        self.sample_general_steps(budget, Propagation::ToRun)
    }

    /// [`Conjunction::sample_general`], with the sampler's bound propagation
    /// as `prop` says (the emptiness test runs it first, on the rows as they
    /// are here).
    ///
    /// With [`OMEGA_MIN_LOCALS`] locals or more, the Omega test
    /// ([`Conjunction::sample_omega`]) joins as a second method of the
    /// portfolio: on a conjunction with many division locals (the leaves of
    /// a subtraction from a union whose existentials became Gomory
    /// divisions: 3 variables, 14 locals, 42 rows) the searches ran out of
    /// budget after 31,770 nodes and 14 million big-integer values, where
    /// the Omega test's exact eliminations answered in 3 ms.
    pub(crate) fn sample_general_steps(
        &self,
        budget: &mut Budget,
        prop: Propagation,
    ) -> Result<Option<Vec<Int>>> {
        if self.n_local() < OMEGA_MIN_LOCALS {
            return self.sample_searches(budget, prop);
        }
        let mut searches = |b: &mut Budget| self.sample_searches(b, prop);
        let mut omega = |b: &mut Budget| self.sample_omega(b);
        budget.portfolio(PORTFOLIO_FIRST_CAP, &mut [&mut searches, &mut omega])
    }

    /// The searches of [`Conjunction::sample_general_steps`] (simplex and
    /// basis reduction), without the Omega test.
    fn sample_searches(&self, budget: &mut Budget, prop: Propagation) -> Result<Option<Vec<Int>>> {
        use crate::solver::sample::{DivCol, sample_steps, sample_with_divs_steps};
        let n = self.n_col() - 1;
        if self.is_trivially_universe() {
            return Ok(Some(vec![Int::ZERO; n]));
        }
        if self.one_sided_local().is_some() {
            return self.sample_without_one_sided_locals(budget, prop);
        }
        let first = self.space.n_var();
        let defined = |l: usize| self.divs[l].is_some();
        if !(0..self.n_local()).any(defined) {
            return sample_steps(n, &self.eqs, &self.ineqs, budget, prop);
        }
        // new position of each variable: the others in order, then the divisions
        let mut pos = vec![0; n];
        let mut next = 0;
        for (j, p) in pos.iter_mut().enumerate() {
            if j < first || !defined(j - first) {
                *p = next;
                next += 1;
            }
        }
        let k = next;
        for l in (0..self.n_local()).filter(|&l| defined(l)) {
            pos[first + l] = next;
            next += 1;
        }
        let permute = |r: &Row| -> Row {
            let mut out = vec![Int::ZERO; 1 + n];
            out[0] = r[0].clone();
            for (j, v) in r[1..].iter().enumerate() {
                out[1 + pos[j]] = v.clone();
            }
            out
        };
        let mut divs = Vec::with_capacity(n - k);
        for (l, d) in self.divs.iter().enumerate() {
            let Some(d) = d else { continue };
            let col = pos[first + l];
            let num = permute(&d.num);
            if num[1 + col..].iter().any(|v| !v.is_zero()) {
                // a definition that uses a later division: the plain search
                return sample_steps(n, &self.eqs, &self.ineqs, budget, prop);
            }
            divs.push(DivCol {
                col,
                num,
                den: d.den.clone(),
            });
        }
        let eqs: Vec<Row> = self.eqs.iter().map(permute).collect();
        let ineqs: Vec<Row> = self.ineqs.iter().map(permute).collect();
        // Both searches are exact. The one on the non-division columns stays
        // in the set's dimension, but it does not see the lattice that
        // equalities on the divisions make (`x = 32 e` with `e` the division
        // `floor(x / 32)`), where the plain search, which compresses those
        // equalities first, may answer in one node: a portfolio of the two.
        let mut with_divs = |b: &mut Budget| {
            Ok(sample_with_divs_steps(n, &eqs, &ineqs, &divs, b, prop)?
                .map(|p| pos.iter().map(|&q| p[q].clone()).collect()))
        };
        let mut plain = |b: &mut Budget| sample_steps(n, &self.eqs, &self.ineqs, b, prop);
        // the plain search goes first where an equality involves a division
        let lattice = self
            .eqs
            .iter()
            .any(|e| e[1 + first..].iter().any(|v| !v.is_zero()));
        if lattice {
            budget.portfolio(PORTFOLIO_FIRST_CAP, &mut [&mut plain, &mut with_divs])
        } else {
            budget.portfolio(PORTFOLIO_FIRST_CAP, &mut [&mut with_divs, &mut plain])
        }
    }

    /// [`Conjunction::sample_general_steps`] after dropping the locals bounded
    /// on one side only, with their inequalities, one after another (a drop can
    /// make another local one-sided); each dropped local then gets the value its
    /// rows allow at the sample of the rest, in the reverse order of the drops.
    ///
    /// Exact: with the other columns fixed, a local that only has lower bounds
    /// (or only upper bounds) is satisfied by any large (small) enough integer
    /// (the Omega test's first rule, W. Pugh, "The Omega test", CACM 35(8),
    /// 1992). Such a local widens the search for nothing: the basis reduction
    /// sees a direction of huge width and runs dozens of rounds on big numbers
    /// before the search can start.
    fn sample_without_one_sided_locals(
        &self,
        budget: &mut Budget,
        prop: Propagation,
    ) -> Result<Option<Vec<Int>>> {
        let mut rest = self.clone();
        let mut dropped = Vec::new();
        while let Some(l) = rest.one_sided_local() {
            let v = rest.space.n_var() + l;
            dropped.push((v, rest.drop_local_with_rows(l)));
        }
        let Some(mut p) = rest.sample_searches(budget, prop)? else {
            return Ok(None);
        };
        for (v, rows) in dropped.iter().rev() {
            p.insert(*v, Int::ZERO);
            p[*v] = one_sided_value(rows, *v, &p);
        }
        debug_assert!(
            self.satisfied_by(&p),
            "a lifted one-sided local violates a row"
        );
        Ok(Some(p))
    }

    /// As [`Conjunction::sample_general`] with the Omega test ([`crate::omega`]), the
    /// independent algorithm kept as a test oracle.
    pub(crate) fn sample_omega(&self, budget: &mut Budget) -> Result<Option<Vec<Int>>> {
        let n = self.n_col() - 1;
        if self.is_trivially_universe() {
            return Ok(Some(vec![Int::ZERO; n]));
        }
        crate::omega::integer_sample(n, self.eqs.clone(), self.ineqs.clone(), budget)
    }

    /// True when the conjunction has no integer point (any parameter value).
    pub fn is_empty_with(&self, budget: &mut Budget) -> Result<bool> {
        Ok(self.sample_full(budget)?.is_none())
    }

    /// The integer minimum (`maximize = false`) or maximum of the affine expression
    /// `aff·(1, params, dims, locals)` over the conjunction; `None` if empty,
    /// `Error::Unbounded` if there is no optimum.
    pub fn optimize(
        &self,
        aff: &[Int],
        maximize: bool,
        budget: &mut Budget,
    ) -> Result<Option<Int>> {
        if aff.len() != self.n_col() {
            return Err(Error::Invalid(format!(
                "the objective has {} entries, the conjunction has {} columns",
                aff.len(),
                self.n_col()
            )));
        }
        Ok(self.optimize_point(aff, maximize, budget)?.map(|(v, _)| v))
    }

    /// As [`Conjunction::optimize`], with a point (all columns) where the optimum is
    /// reached: one branch-and-bound search of the integer sampler
    /// ([`crate::solver::sample::integer_minimum`]).
    fn optimize_point(
        &self,
        aff: &[Int],
        maximize: bool,
        budget: &mut Budget,
    ) -> Result<Option<(Int, Vec<Int>)>> {
        // Minimise `obj`; for a maximum, minimise `-aff` and negate.
        let obj: Row = if maximize {
            aff.iter().map(|v| -v).collect()
        } else {
            aff.to_vec()
        };
        if self.is_trivially_empty() {
            return Ok(None);
        }
        let n = self.n_col() - 1;
        match crate::solver::sample::integer_minimum(n, &self.eqs, &self.ineqs, &obj, budget) {
            Ok(r) => Ok(r.map(|(v, p)| (if maximize { -v } else { v }, p))),
            Err(Error::Unbounded(_)) => Err(Error::Unbounded(format!(
                "the {} is not attained: the set is unbounded in that direction",
                if maximize { "maximum" } else { "minimum" }
            ))),
            Err(e) => Err(e),
        }
    }
}

fn no_params(c: &Conjunction, what: &str) -> Result<()> {
    if c.space().n_param() > 0 {
        return Err(Error::Unsupported(format!(
            "{what} of a set with parameters: fix the parameters first (the parametric \
             form is not implemented)"
        )));
    }
    Ok(())
}

/// Steps of [`empty_within_cap`]'s emptiness test.
const EMPTY_TEST_CAP: u64 = 50_000;

/// True when `c` is found without integer points within a small cap of
/// steps ([`EMPTY_TEST_CAP`]); false when it has one, or when the test ran
/// out (the steps spent are charged to `budget` either way). The cheap
/// sufficient test in front of an optimum: an empty part adds nothing to
/// it, and an optimizing search can take long to find that out (on big
/// coefficients the emptiness test's equality compression or basis
/// reduction answers at once where a parametric problem gathers Gomory
/// divisions of hundreds of bits, or a branch-and-bound search branches
/// on every coordinate).
fn empty_within_cap(c: &Conjunction, budget: &mut Budget) -> Result<bool> {
    Ok(budget.capped(EMPTY_TEST_CAP, |b| c.is_empty_with(b))? == Some(true))
}

/// The lexicographic optimum over a union, coordinate by coordinate: each part
/// that still ties with the best prefix is optimised on the next coordinate, and
/// only the parts reaching the best value go on (fixed to it). A part that loses on
/// an earlier coordinate therefore cannot make the answer unbounded; a part that
/// ties and is unbounded on the next coordinate does.
pub(crate) fn lex_of_parts<'a>(
    parts: impl Iterator<Item = &'a Conjunction>,
    maximize: bool,
    what: &str,
    budget: &mut Budget,
) -> Result<Option<Vec<Int>>> {
    let parts: Vec<&Conjunction> = parts.collect();
    for c in &parts {
        no_params(c, what)?;
    }
    let alive = nonempty_parts(parts.into_iter(), budget)?;
    lex_of_nonempty(alive, maximize, budget)
}

/// The parts of a union that may have integer points: each simplified,
/// without those found empty structurally or by [`empty_within_cap`].
pub(crate) fn nonempty_parts<'a>(
    parts: impl Iterator<Item = &'a Conjunction>,
    budget: &mut Budget,
) -> Result<Vec<Conjunction>> {
    let mut alive = Vec::new();
    for c in parts {
        let mut c = c.clone();
        c.simplify();
        if !c.is_trivially_empty() && !empty_within_cap(&c, budget)? {
            alive.push(c);
        }
    }
    Ok(alive)
}

/// [`lex_of_parts`] on parts without parameters that [`nonempty_parts`]
/// has filtered.
pub(crate) fn lex_of_nonempty(
    mut alive: Vec<Conjunction>,
    maximize: bool,
    budget: &mut Budget,
) -> Result<Option<Vec<Int>>> {
    let Some(first) = alive.first() else {
        return Ok(None);
    };
    let (off, n) = (
        first.space().offset(crate::space::DimKind::Out),
        first.space().n_out(),
    );
    let mut out = Vec::with_capacity(n);
    for k in 0..n {
        let mut best: Option<Int> = None;
        let mut values = Vec::with_capacity(alive.len());
        for c in &alive {
            let mut aff = vec![Int::ZERO; c.n_col()];
            aff[off + k] = Int::ONE;
            let v = c.optimize_point(&aff, maximize, budget)?.map(|(v, _)| v);
            if let Some(v) = &v {
                let better = match &best {
                    None => true,
                    Some(b) => (maximize && v > b) || (!maximize && v < b),
                };
                if better {
                    best = Some(v.clone());
                }
            }
            values.push(v);
        }
        let Some(best) = best else {
            return Ok(None);
        };
        alive = alive
            .into_iter()
            .zip(values)
            .filter(|(_, v)| v.as_ref() == Some(&best))
            .map(|(mut c, _)| {
                let mut fix = vec![Int::ZERO; c.n_col()];
                fix[off + k] = Int::ONE;
                fix[0] = -&best;
                c.eqs.push(fix);
                c
            })
            .collect();
        out.push(best);
    }
    Ok(Some(out))
}

/// An integer point (parameters, then dimensions) of one of `parts`, or
/// `None` when none has one.
pub(crate) fn sample_of_parts<'a>(
    parts: impl Iterator<Item = &'a Conjunction>,
    budget: &mut Budget,
) -> Result<Option<Vec<Int>>> {
    // In rounds, as a portfolio over the conjunctions (see
    // [`Budget::portfolio`]): each open one on a cap that grows fourfold per
    // round, so that a union with one easy non-empty conjunction is answered
    // at about that conjunction's cost times their number, whatever the
    // empty ones before it cost; the last open conjunction gets the rest.
    let mut open: Vec<&Conjunction> = parts.filter(|c| !c.is_trivially_empty()).collect();
    let mut cap = PORTFOLIO_FIRST_CAP;
    while open.len() > 1 {
        let mut left = Vec::with_capacity(open.len());
        for c in open {
            match budget.capped(cap, |b| c.sample_full(b))? {
                Some(Some(mut p)) => {
                    p.truncate(c.space().n_var());
                    return Ok(Some(p));
                }
                Some(None) => {}
                None => left.push(c),
            }
        }
        // (one step per round: an error once the budget is spent)
        budget.spend(1)?;
        open = left;
        cap = cap.saturating_mul(4);
    }
    match open.pop() {
        Some(c) => Ok(c.sample_full(budget)?.map(|mut p| {
            p.truncate(c.space().n_var());
            p
        })),
        None => Ok(None),
    }
}

/// True when none of `parts` has an integer point ([`sample_of_parts`]).
pub(crate) fn empty_parts<'a>(
    parts: impl Iterator<Item = &'a Conjunction>,
    budget: &mut Budget,
) -> Result<bool> {
    Ok(sample_of_parts(parts, budget)?.is_none())
}

pub(crate) fn contains_in(c: &Conjunction, point: &[Int], budget: &mut Budget) -> Result<bool> {
    let nv = c.space().n_var();
    if point.len() != nv {
        return Err(Error::Invalid(format!(
            "the point has {} values, the space has {nv} (parameters, then dimensions)",
            point.len()
        )));
    }
    let mut d = c.clone();
    for (k, v) in point.iter().enumerate() {
        let mut row = vec![Int::ZERO; d.n_col()];
        row[1 + k] = Int::ONE;
        row[0] = -v;
        d.eqs.push(row);
    }
    Ok(!d.is_empty_with(budget)?)
}

impl BasicSet {
    /// [`BasicSet::is_empty`] along a chosen path (for tests and benchmarks: the SDBM
    /// fast path alone, or the general path alone).
    pub(crate) fn is_empty_via(&self, path: crate::sdbm_path::EmptinessPath) -> Result<bool> {
        Ok(self.0.sample_via(path, &mut Budget::default())?.is_none())
    }

    /// The algorithm of [`BasicSet::lexmin`].
    pub(crate) fn lexmin_impl(&self) -> Result<Option<Vec<Int>>> {
        lex_of_parts(
            std::iter::once(&self.0),
            false,
            "lexmin",
            &mut Budget::default(),
        )
    }

    /// The algorithm of [`BasicSet::lexmax`].
    pub(crate) fn lexmax_impl(&self) -> Result<Option<Vec<Int>>> {
        lex_of_parts(
            std::iter::once(&self.0),
            true,
            "lexmax",
            &mut Budget::default(),
        )
    }
}

/// The optimum of `aff` (over params and dims; locals get 0 coefficients) over the
/// union of `parts` (`None` when all are empty), spending from `budget`.
pub(crate) fn opt_over<'a>(
    parts: impl Iterator<Item = &'a Conjunction>,
    aff: &[Int],
    maximize: bool,
    budget: &mut Budget,
) -> Result<Option<Int>> {
    let mut best: Option<Int> = None;
    for c in parts {
        let nv = c.space().n_var();
        if aff.len() != 1 + nv {
            return Err(Error::Invalid(format!(
                "the expression has {} entries, expected {} (constant, parameters, dimensions)",
                aff.len(),
                1 + nv
            )));
        }
        let mut full = aff.to_vec();
        full.resize(c.n_col(), Int::ZERO);
        if let Some(v) = c.optimize(&full, maximize, budget)? {
            best = Some(match best {
                None => v,
                Some(b) if maximize => b.max_of(v),
                Some(b) => b.min_of(v),
            });
        }
    }
    Ok(best)
}

impl Set {
    /// The algorithm of [`Set::from_point`].
    pub(crate) fn from_point_impl(space: &crate::space::Space, point: &[Int]) -> Result<Set> {
        use crate::space::DimKind;
        let (np, nd) = (space.n_param(), space.n_out());
        let with_params = match point.len() {
            n if n == nd => false,
            n if n == np + nd => true,
            n => {
                return Err(Error::Invalid(format!(
                    "a point of {n} values does not fit a space of {np} parameters and {nd} dimensions"
                )));
            }
        };
        let mut s = Set::universe(space.clone())?;
        let (params, dims) = point.split_at(if with_params { np } else { 0 });
        for (k, v) in params.iter().enumerate() {
            s = s.fix(DimKind::Param, k, v.clone())?;
        }
        for (k, v) in dims.iter().enumerate() {
            s = s.fix(DimKind::Out, k, v.clone())?;
        }
        Ok(s)
    }

    /// The algorithm of [`Set::contains`].
    pub(crate) fn contains_impl(&self, point: &[Int]) -> Result<bool> {
        let mut budget = Budget::default();
        for c in &self.0.parts {
            if contains_in(c, point, &mut budget)? {
                return Ok(true);
            }
        }
        if point.len() != self.0.space.n_var() {
            return Err(Error::Invalid("the point does not fit the space".into()));
        }
        Ok(false)
    }

    /// The algorithm of [`Set::lexmin`].
    pub(crate) fn lexmin_impl(&self) -> Result<Option<Vec<Int>>> {
        if self.0.space.n_param() > 0 {
            return Err(Error::Unsupported(
                "lexmin of a set with parameters: fix the parameters first".into(),
            ));
        }
        lex_of_parts(self.0.parts.iter(), false, "lexmin", &mut Budget::default())
    }

    /// The algorithm of [`Set::lexmax`].
    pub(crate) fn lexmax_impl(&self) -> Result<Option<Vec<Int>>> {
        if self.0.space.n_param() > 0 {
            return Err(Error::Unsupported(
                "lexmax of a set with parameters: fix the parameters first".into(),
            ));
        }
        lex_of_parts(self.0.parts.iter(), true, "lexmax", &mut Budget::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{Box as PBox, basic_set_points};
    use proptest::prelude::*;

    fn bs(s: &str) -> BasicSet {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    fn ints(v: &[i64]) -> Vec<Int> {
        v.iter().map(|&x| Int::from(x)).collect()
    }

    /// A partial tile of a triangular domain: empty, and the search on the
    /// non-division columns enumerates about 10^6 nodes before it knows,
    /// where the search that compresses the tile equalities first needs one.
    /// The portfolio answers on a small budget.
    #[test]
    fn tile_lattice_answers_through_the_portfolio() {
        let c = bs(
            "{ [x0, x1, x2] : exists (e0, e1, e2, e3, e4, e5 : x0 - 32*e0 = 0 and \
                    x1 - 8*e1 = 0 and x2 - 8*e2 = 0 and -x0 + e3 >= 0 and x0 - e3 + 31 >= 0 and \
                    -x1 + e4 >= 0 and x1 - e4 + 7 >= 0 and -x2 + e5 >= 0 and x2 - e5 + 7 >= 0 and \
                    e5 >= 0 and e4 - e5 >= 0 and e3 - e4 >= 0 and -e3 + 31 >= 0 and \
                    -x1 + x2 - 1 >= 0) }",
        );
        let c = c.conjunction();
        assert!(c.divs.iter().any(Option::is_some), "{c:?}");
        assert!(c.is_empty_with(&mut Budget::new(20_000)).unwrap());
        // the same with one tile wider: points, found as quickly
        let d = bs(
            "{ [x0, x1, x2] : exists (e3, e4, e5 : x0 = 0 and x1 = 0 and x2 = 8 and \
                    -x1 + e4 >= 0 and x1 - e4 + 15 >= 0 and -x2 + e5 >= 0 and \
                    x2 - e5 + 7 >= 0 and e5 >= 0 and e4 - e5 >= 0 and e3 - e4 >= 0 and \
                    -e3 + 31 >= 0 and -x1 + x2 - 1 >= 0) }",
        );
        assert!(
            !d.conjunction()
                .is_empty_with(&mut Budget::new(20_000))
                .unwrap()
        );
    }

    /// Locals bounded on one side only are dropped with their rows before the
    /// search and get their values back after it.
    #[test]
    fn one_sided_locals_are_dropped_and_lifted() {
        // e only has upper bounds (and f only lower ones once e is gone)
        let c = bs(
            "{ [x] : exists (e, f : x - 3e >= 1 and x - 5e - f >= 2 and 0 <= x <= 10 and \
                    f - x >= 4) }",
        );
        let c = c.conjunction();
        assert!(c.one_sided_local().is_some(), "{c:?}");
        let p = c
            .sample_full(&mut Budget::default())
            .unwrap()
            .expect("non-empty");
        assert!(c.satisfied_by(&p), "{p:?}");
        // empty for another reason than the dropped local
        let c = bs("{ [x, y] : exists (e : 2e >= x + y + 1 and 2x + 2y = 7) }");
        assert!(
            c.conjunction()
                .is_empty_with(&mut Budget::default())
                .unwrap()
        );
        // a local that also bounds the other side is kept
        let c = bs("{ [x] : exists (e : x - 3e >= 0 and 3e - x + 2 >= 0 and 0 <= x <= 10) }");
        assert!(c.conjunction().one_sided_local().is_none());
    }

    /// A set of the hunt's `bigcoef` family whose last local has one upper
    /// bound. Kept in the search, that local gives the basis reduction a
    /// direction of huge width, and it runs out of this budget (in dozens of
    /// rounds on big numbers) before the search starts; dropped, the search
    /// answers well within it.
    #[test]
    fn one_sided_big_local_does_not_stall_the_reduction() {
        let c = bs(
            "{ [x0, x1] : exists (e0, e1, e2, e3 : -18446744633411851450x0 + 281704546705342x1 - 71377763189806e0 + 1868316410763e1 - 18662194326989e2 + 37181401773647834659 >= 0 \
            and 18446744633411851450x0 - 281704546705342x1 + 71377763189806e0 - 1868316410763e1 + 18662194326989e2 - 36604941021344411170 >= 0 \
            and 147573952636725659328x0 + 18014474314167559x1 - 282320377459370e0 + 141450038439400e1 - 36893488971427336134e2 - 376321945415293605508 >= 0 \
            and -36029048403248770x0 - 144116192305803466x1 + 18446745072717629844e0 - 1152922143478282025e1 + 9745213240182e2 + 45093669318394204679 >= 0 \
            and 36029048403248770x0 + 144116192305803466x1 - 18446745072717629844e0 + 1152922143478282025e1 - 9745213240183e2 - 45093669318394204680 >= 0 \
            and 147573952636725659328x0 + 18014474314167559x1 - 282320377459370e0 + 141450038439400e1 - 36893488971427336135e2 - 376321945415293605510 >= 0 \
            and -55340233900235554350x0 + 845113640116026x1 - 214133289569419e0 + 5604949232289e1 - 55986582980967e2 + 110679514192488368743 >= 0 \
            and 2252433128884478x0 - 18014996339023782x1 - 36000088913050e0 - 147573953218783898323e1 - 140903040624769e3 + 560783136912514796306 >= 0 \
            and 147573952636725659328x0 + 18014474314167559x1 - 282320377459370e0 + 141450038439399e1 - 36893488971427336134e2 - 376321945415293605504 >= 0 \
            and x0 + 1 >= 0 and -x0 + 5 >= 0 and x1 + 2 >= 0 and -x1 + 3 >= 0) }",
        );
        let c = c.conjunction();
        assert!(c.one_sided_local().is_some(), "{c:?}");
        let p = c.sample_full(&mut Budget::new(BIG_LOCAL_BUDGET)).unwrap();
        assert!(p.is_some_and(|p| c.satisfied_by(&p)));
    }

    const BIG_LOCAL_BUDGET: u64 = 100_000;

    #[test]
    fn issue_cases_unbounded_and_parametric() {
        assert!(bs("{ [x, y] : 3x - 3y = 1 }").is_empty().unwrap());
        assert!(
            bs("[N] -> { [i] : 2i = N and N mod 2 = 1 }")
                .is_empty()
                .unwrap()
        );
        assert!(
            bs("{ [x, y] : x >= 0 and 2y = 2x + 1 }")
                .is_empty()
                .unwrap()
        );
        let s = bs("{ [x, y] : 7x + 11y >= 1 and 7x + 11y <= 1 }");
        assert!(!s.is_empty().unwrap());
        let p = s.sample().unwrap().unwrap();
        assert_eq!(&p[0] * 7 + &p[1] * 11, Int::from(1));
        assert!(s.contains(&p).unwrap());
        // parametric: empty iff no parameter value works
        assert!(!bs("[N] -> { [i] : 0 <= i < N }").is_empty().unwrap());
        assert!(
            bs("[N] -> { [i] : 0 <= i < N and N <= 0 }")
                .is_empty()
                .unwrap()
        );
        assert!(
            bs("{ [x] : exists a, b : x = 2a + 1 and x = 4b }")
                .is_empty()
                .unwrap()
        );
        assert!(
            bs("{ [x, y] : 0 <= x, y <= 100 and 2 <= 4x - 4y <= 3 }")
                .is_empty()
                .unwrap()
        );
    }

    #[test]
    fn optima() {
        let s = bs("{ [i, j] : 0 <= i <= 3 and i <= j <= 5 and i + j >= 4 }");
        assert_eq!(s.lexmin().unwrap(), Some(ints(&[0, 4])));
        assert_eq!(s.lexmax().unwrap(), Some(ints(&[3, 5])));
        assert_eq!(s.min(&ints(&[0, 1, 1])).unwrap(), Some(Int::from(4)));
        assert_eq!(s.max(&ints(&[0, 1, -2])).unwrap(), Some(Int::from(-2))); // i = j = 2
        // integer optimum differs from the rational one
        let t = bs("{ [x, y] : 2x + 2y >= 3 and x >= 0 and y >= 0 and 3x - 3y <= 1 }");
        assert_eq!(t.min(&ints(&[0, 1, 1])).unwrap(), Some(Int::from(2)));
        assert!(matches!(
            bs("{ [i] : i <= 5 }").lexmin(),
            Err(Error::Unbounded(_))
        ));
        assert_eq!(bs("{ [i] : i <= 5 }").lexmax().unwrap(), Some(ints(&[5])));
        assert_eq!(bs("{ [i] : i <= 5 and i >= 6 }").lexmin().unwrap(), None);
        assert!(matches!(
            bs("[N] -> { [i] : i = N }").lexmin(),
            Err(Error::Unsupported(_))
        ));
        // strides and locals
        let st = bs("{ [i] : exists e : i = 8e + 3 and 10 <= i <= 100 }");
        assert_eq!(st.lexmin().unwrap(), Some(ints(&[11])));
        assert_eq!(st.lexmax().unwrap(), Some(ints(&[99])));
        // unions
        let u: Set = "{ [i, j] : i = 5 and j = 0; [i, j] : i = 2 and j = 9 }"
            .parse()
            .unwrap();
        assert_eq!(u.lexmin().unwrap(), Some(ints(&[2, 9])));
        assert_eq!(u.lexmax().unwrap(), Some(ints(&[5, 0])));
    }

    #[test]
    fn coefficients_beyond_machine_integers() {
        // (2^62)·x - (2^62)·y = 1 overflows i64 when combined; (2^70 + 1)·x = 2^70 + 1 + 2^70·(...)
        let big = "4611686018427387904"; // 2^62
        assert!(
            bs(&format!("{{ [x, y] : {big}x - {big}y = 1 }}"))
                .is_empty()
                .unwrap()
        );
        let huge = "1180591620717411303424"; // 2^70
        let s = bs(&format!(
            "{{ [x, y] : {huge}x + 3y = {huge} + 6 and 0 <= y <= 10 }}"
        ));
        let p = s.sample().unwrap().unwrap();
        assert_eq!(p, ints(&[1, 2]));
        assert_eq!(s.lexmin().unwrap(), Some(ints(&[1, 2])));
        // products that overflow i128 midway: (2^100)x with 2^100 bounds
        let t = "1267650600228229401496703205376"; // 2^100
        let s = bs(&format!(
            "{{ [x, y] : {t}x - {t}y >= 1 and {t}x - {t}y <= {t} - 1 and 0 <= x <= 5 }}"
        ));
        assert!(s.is_empty().unwrap());
        let s = bs(&format!(
            "{{ [x, y] : {t}x + {t}y = 2 * {t} and {t}x - y >= {t} and y >= 0 }}"
        ));
        // x + y = 2 and 2^100·(x - 1) >= y >= 0 leave only y = 0
        assert_eq!(s.lexmin().unwrap(), Some(ints(&[2, 0])));
        assert_eq!(s.lexmax().unwrap(), Some(ints(&[2, 0])));
        let p = s.sample().unwrap().unwrap();
        assert!(s.contains(&p).unwrap());
    }

    /// Random bounded conjunctions: 1–4 dims in [-4, 4], 0–2 parameters, 0–2 locals
    /// (strides or free existentials tied to dims), as isl text.
    fn arb_conj() -> impl Strategy<Value = (String, usize, usize)> {
        (1usize..=4, 0usize..=2, 0usize..=2).prop_flat_map(|(nd, np, nl)| {
            let names: Vec<String> = (0..nd).map(|k| format!("x{k}")).collect();
            let params: Vec<String> = (0..np).map(|k| format!("P{k}")).collect();
            let nvars = nd + np;
            let con = (
                prop::collection::vec(-3i64..=3, nvars),
                -6i64..=6,
                prop::bool::weighted(0.25),
            );
            (
                Just((names, params)),
                prop::collection::vec(con, 0..4),
                prop::collection::vec(
                    (prop::collection::vec(-2i64..=2, nvars), 2i64..=4, 0i64..=3),
                    nl,
                ),
            )
                .prop_map(move |((names, params), cons, locals)| {
                    let all: Vec<String> = names.iter().chain(params.iter()).cloned().collect();
                    let lin = |coefs: &[i64]| {
                        let mut t = String::from("0");
                        for (c, n) in coefs.iter().zip(&all) {
                            t.push_str(&format!(" + {c}{n}"));
                        }
                        t
                    };
                    let mut parts: Vec<String> =
                        names.iter().map(|n| format!("-4 <= {n} <= 4")).collect();
                    for (coefs, c, eq) in &cons {
                        parts.push(format!(
                            "{} {} {}",
                            lin(coefs),
                            if *eq { "=" } else { ">=" },
                            c
                        ));
                    }
                    let mut text = parts.join(" and ");
                    for (k, (coefs, m, r)) in locals.iter().enumerate() {
                        text = format!("exists e{k} : {} = {m}e{k} + {r} and {text}", lin(coefs));
                    }
                    let pre = if params.is_empty() {
                        String::new()
                    } else {
                        format!("[{}] -> ", params.join(", "))
                    };
                    (
                        format!("{pre}{{ [{}] : {text} }}", names.join(", ")),
                        nd,
                        params.len(),
                    )
                })
        })
    }

    fn param_values(np: usize) -> Vec<Vec<i64>> {
        match np {
            0 => vec![vec![]],
            1 => (-2..=2).map(|a| vec![a]).collect(),
            _ => (-1..=1)
                .flat_map(|a| (-1..=1).map(move |b| vec![a, b]))
                .collect(),
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]

        #[test]
        fn queries_agree_with_enumeration((text, nd, np) in arb_conj()) {
            let s = bs(&text);
            let mut any = false;
            for pv in param_values(np) {
                let pts = basic_set_points(&s, &PBox::new(pv.clone(), -4, 4));
                // fix the parameters to get a non-parametric set
                let mut fixed = Set::from(s.clone());
                for (k, v) in pv.iter().enumerate() {
                    fixed = fixed.fix(crate::space::DimKind::Param, k, *v).unwrap();
                }
                let fixed = fixed.project_out(crate::space::DimKind::Param, 0, np).unwrap();
                prop_assert_eq!(fixed.is_empty().unwrap(), pts.is_empty(), "{} at {:?}", text, pv);
                let want_min = pts.iter().next().map(|p| ints(p));
                let want_max = pts.iter().next_back().map(|p| ints(p));
                prop_assert_eq!(fixed.lexmin().unwrap(), want_min, "lexmin {} at {:?}", text, pv);
                prop_assert_eq!(fixed.lexmax().unwrap(), want_max, "lexmax {} at {:?}", text, pv);
                if let Some(p) = fixed.sample().unwrap() {
                    let dims: Vec<i64> = p.iter().map(|v| v.to_i64().unwrap()).collect();
                    prop_assert!(pts.contains(&dims), "sample {:?} of {}", dims, text);
                }
                // an affine objective: the sum of the dims
                let mut aff = vec![Int::ZERO; 1 + nd];
                aff.iter_mut().skip(1).for_each(|v| *v = Int::ONE);
                let want = pts.iter().map(|p| p.iter().sum::<i64>()).min().map(Int::from);
                prop_assert_eq!(fixed.min(&aff).unwrap(), want);
                any |= !pts.is_empty();
            }
            // the parametric set is empty iff no enumerated parameter value has a point
            // (parameters are unbounded in the set, so only the "non-empty" direction
            // is decided by the enumeration)
            if any {
                prop_assert!(!s.is_empty().unwrap(), "{}", text);
            }
            if let Some(p) = s.sample().unwrap() {
                prop_assert!(s.contains(&p).unwrap());
            }
        }
    }
}
