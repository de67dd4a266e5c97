//! Bounds of sets: boundedness, the extreme values of a dimension (as affine
//! expressions of the parameters where they are), box hulls, and enumeration of the
//! points of bounded sets.
//!
//! `is_bounded`: a set is bounded (for every parameter value) when its rational
//! recession cone, with the parameter directions fixed to zero, has no direction that
//! moves a dimension; by Meyer's theorem the integer points of a rational polyhedron
//! that has one are unbounded along such a direction, so the test is exact. Each
//! direction is tested with the exact simplex (maximise and minimise `d_k` over the
//! homogenised constraints, which is unbounded iff such a direction exists).
//!
//! `dim_min` / `dim_max`: without parameters, the exact integer optimum. With
//! parameters, the set is projected exactly onto the parameters and the dimension;
//! if one conjunction without locals remains whose only lower (upper) bound on the
//! dimension has coefficient 1, that bound is the answer, else the answer is not a
//! single affine expression and an error says so.
//!
//! Work limit: each query (`is_bounded`, `dim_min`, `dim_max`, `box_hull`,
//! `points`) spends from one budget of
//! [`ALGEBRA_DEFAULT_STEPS`](crate::algebra::ALGEBRA_DEFAULT_STEPS) for all its
//! integer tests and optima; the `_with_budget` variants take the caller's.

use crate::api::Set;
use crate::conjunction::{Conjunction, Row};
use crate::error::{Error, Result};
use crate::int::Int;
use crate::omega::Budget;
use crate::simplex::{LpResult, Simplex};
use crate::solve::opt_over;
use crate::space::DimKind;

impl Conjunction {
    /// True when no direction of the recession cone with zero parameter components
    /// moves a dimension (see the module doc). Does not check emptiness.
    fn cone_is_bounded(&self) -> bool {
        let n = self.n_col() - 1;
        let np = self.space.n_param();
        let nd = self.space.n_in() + self.space.n_out();
        let homog = |r: &Row| {
            let mut h = r.clone();
            h[0] = Int::ZERO;
            h
        };
        let mut s = Simplex::new(n);
        for e in &self.eqs {
            s.add_eq(&homog(e));
        }
        for r in &self.ineqs {
            s.add_ineq(&homog(r));
        }
        for p in 0..np {
            let mut e = vec![Int::ZERO; n + 1];
            e[1 + p] = Int::ONE;
            s.add_eq(&e);
        }
        for k in 0..nd {
            let mut obj = vec![Int::ZERO; n + 1];
            obj[1 + np + k] = Int::ONE;
            if matches!(s.maximize(&obj), LpResult::Unbounded)
                || matches!(s.minimize(&obj), LpResult::Unbounded)
            {
                return false;
            }
        }
        true
    }
}

impl Set {
    /// The algorithm of [`Set::is_bounded_with_budget`].
    pub(crate) fn is_bounded_with_budget_impl(&self, budget: &mut Budget) -> Result<bool> {
        for c in &self.0.parts {
            if !c.is_empty_with(budget)? && !c.cone_is_bounded() {
                return Ok(false);
            }
        }
        Ok(true)
    }

    pub(crate) fn dim_opt(
        &self,
        pos: usize,
        maximize: bool,
        budget: &mut Budget,
    ) -> Result<Option<Row>> {
        let sp = &self.0.space;
        sp.check_range(DimKind::Out, pos, 1)?;
        let np = sp.n_param();
        if np == 0 {
            let mut aff = vec![Int::ZERO; 1 + sp.n_out()];
            aff[1 + pos] = Int::ONE;
            let v = opt_over(self.0.parts.iter(), &aff, maximize, budget)?;
            return Ok(v.map(|v| vec![v]));
        }
        // project onto (params, dim pos)
        let n = sp.n_out();
        let mut p = self.project_out_exact(DimKind::Out, pos + 1, n - pos - 1)?;
        p = p.project_out_exact(DimKind::Out, 0, pos)?;
        let p = p.coalesce_with_budget(budget)?;
        let parts = &p.0.parts;
        if parts.is_empty() {
            return Ok(None);
        }
        let not_affine = || {
            Error::Unsupported(format!(
                "the {} of dimension {pos} is not a single affine expression of the parameters",
                if maximize { "maximum" } else { "minimum" }
            ))
        };
        if parts.len() > 1 || parts[0].n_local() > 0 {
            return Err(not_affine());
        }
        let c = &parts[0];
        let col = 1 + np;
        // an equality fixes it
        if let Some(e) = c.eqs.iter().find(|e| e[col].abs().is_one()) {
            let sign = if e[col].is_negative() { 1 } else { -1 };
            let mut out: Row = e[..col].iter().map(|v| v * sign).collect();
            out.truncate(col);
            return Ok(Some(out));
        }
        let want_sign = if maximize { -1 } else { 1 };
        let bounds: Vec<&Row> = c
            .ineqs
            .iter()
            .filter(|r| r[col].signum() == want_sign)
            .collect();
        match bounds.as_slice() {
            [] => Err(Error::Unbounded(format!(
                "dimension {pos} has no {}",
                if maximize { "maximum" } else { "minimum" }
            ))),
            [r] if r[col].abs().is_one() => {
                // ±x + f >= 0: min x = -f (x >= -f), max x = f (x <= f)
                let s = if maximize { 1 } else { -1 };
                Ok(Some(r[..col].iter().map(|v| v * s).collect()))
            }
            _ => Err(not_affine()),
        }
    }

    /// The algorithm of [`Set::box_hull_with_budget`].
    pub(crate) fn box_hull_with_budget_impl(&self, budget: &mut Budget) -> Result<Set> {
        let sp = self.0.space.clone();
        let (np, n) = (sp.n_param(), sp.n_out());
        let mut c = Conjunction::universe(sp.clone());
        if self.0.is_empty_with(budget)? {
            return Set::empty(sp);
        }
        for k in 0..n {
            for maximize in [false, true] {
                let b = match self.dim_opt(k, maximize, budget) {
                    Ok(Some(b)) => b,
                    Ok(None) => return Set::empty(sp),
                    Err(Error::Unbounded(_)) => continue,
                    Err(e) => return Err(e),
                };
                // x_k >= b  or  x_k <= b, over (1, params)
                let mut row = vec![Int::ZERO; c.n_col()];
                for (j, v) in b.iter().enumerate().take(1 + np) {
                    row[j] = if maximize { v.clone() } else { -v };
                }
                row[1 + np + k] = Int::from(if maximize { -1 } else { 1 });
                c.ineqs.push(row);
            }
        }
        Ok(Set::from(crate::api::BasicSet(c)))
    }

    /// The algorithm of [`Set::points_with_budget`].
    pub(crate) fn points_with_budget_impl(
        &self,
        limit: usize,
        budget: &mut Budget,
    ) -> Result<Vec<Vec<Int>>> {
        let mut walk = PointWalk::new(self, budget)?;
        let mut out = Vec::new();
        while let Some(p) = walk.advance(budget)? {
            if out.len() >= limit {
                return Err(Error::Budget(format!(
                    "the set has more than {limit} points"
                )));
            }
            out.push(p);
        }
        Ok(out)
    }

    /// The algorithm of [`Set::point_iter_with_budget`].
    pub(crate) fn point_iter_with_budget_impl(&self, mut budget: Budget) -> Points {
        let walk = PointWalk::new(self, &mut budget);
        Points {
            state: Some(walk),
            budget,
        }
    }
}

/// The iterator of [`Set::point_iter`]: the points of a set in lexicographic
/// order, then `None`; an error is the last item.
#[derive(Debug)]
pub struct Points {
    /// The walk, or why it could not start; `None` once it is over.
    state: Option<Result<PointWalk>>,
    budget: Budget,
}

impl Iterator for Points {
    type Item = Result<Vec<Int>>;

    fn next(&mut self) -> Option<Self::Item> {
        let item = match self.state.as_mut()? {
            Ok(walk) => walk.advance(&mut self.budget).transpose(),
            Err(e) => Some(Err(e.clone())),
        };
        if !matches!(item, Some(Ok(_))) {
            self.state = None;
        }
        item
    }
}

/// One home of the enumeration of a bounded set's points (for
/// [`Set::points`] and [`Set::point_iter`]): depth first over the
/// dimensions in order, each level the set with the dimensions before it
/// fixed, its integer range `lo..=hi` for the next dimension (the exact
/// integer minimum and maximum), and the next value to try. A value is
/// taken when the set with it fixed is not empty, so every leaf is a point
/// and no branch is walked in vain.
#[derive(Debug)]
struct PointWalk {
    /// The levels from the outermost; `levels[k]` ranges over dimension `k`.
    levels: Vec<Level>,
    /// The values taken by the levels above the innermost one.
    prefix: Vec<Int>,
    /// For a set without dimensions: whether its one point (if any) is yet
    /// to be given.
    rank_zero: Option<bool>,
}

/// A level of [`PointWalk`].
#[derive(Debug)]
struct Level {
    /// The set with the dimensions before this level fixed to the prefix.
    fixed: Set,
    next: Int,
    hi: Int,
}

impl PointWalk {
    /// The walk over `s`: an error for a set with parameters or an unbounded
    /// set.
    fn new(s: &Set, budget: &mut Budget) -> Result<PointWalk> {
        if s.0.space.n_param() > 0 {
            return Err(Error::Unsupported("points of a set with parameters".into()));
        }
        if !s.is_bounded_with_budget(budget)? {
            return Err(Error::Unbounded(
                "the set has infinitely many points".into(),
            ));
        }
        let mut walk = PointWalk {
            levels: Vec::new(),
            prefix: Vec::new(),
            rank_zero: None,
        };
        if s.0.space.n_out() == 0 {
            // no coordinate to range over: the emptiness is asked here
            walk.rank_zero = Some(!s.0.is_empty_with(budget)?);
        } else if let Some(level) = Level::new(s.clone(), 0, budget)? {
            walk.levels.push(level);
        }
        Ok(walk)
    }

    /// The next point, or `None` when the walk is over.
    fn advance(&mut self, budget: &mut Budget) -> Result<Option<Vec<Int>>> {
        if let Some(left) = self.rank_zero.as_mut() {
            let give = std::mem::replace(left, false);
            return Ok(give.then(Vec::new));
        }
        loop {
            let depth = self.levels.len();
            let Some(top) = self.levels.last_mut() else {
                return Ok(None);
            };
            if top.next > top.hi {
                self.levels.pop();
                self.prefix.pop();
                continue;
            }
            let v = top.next.clone();
            top.next += 1;
            let k = depth - 1;
            let child = top.fixed.fix(DimKind::Out, k, v.clone())?;
            if child.0.is_empty_with(budget)? {
                continue;
            }
            if depth == child.0.space.n_out() {
                let mut p = self.prefix.clone();
                p.push(v);
                return Ok(Some(p));
            }
            if let Some(level) = Level::new(child, depth, budget)? {
                self.levels.push(level);
                self.prefix.push(v);
            }
        }
    }
}

impl Level {
    /// The level ranging over dimension `k` of `fixed`; `None` when `fixed`
    /// is empty.
    fn new(fixed: Set, k: usize, budget: &mut Budget) -> Result<Option<Level>> {
        let n = fixed.0.space.n_out();
        let mut aff = vec![Int::ZERO; 1 + n];
        aff[1 + k] = Int::ONE;
        let (Some(lo), Some(hi)) = (
            opt_over(fixed.0.parts.iter(), &aff, false, budget)?,
            opt_over(fixed.0.parts.iter(), &aff, true, budget)?,
        ) else {
            return Ok(None);
        };
        Ok(Some(Level {
            fixed,
            next: lo,
            hi,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{Box as PBox, set_points};

    fn set(s: &str) -> Set {
        s.parse().unwrap()
    }

    #[test]
    fn points_of_rank_zero_sets() {
        assert_eq!(
            set("{ A[] : 1 = 0 }").points(10).unwrap(),
            Vec::<Vec<Int>>::new()
        );
        assert_eq!(set("{ A[] }").points(10).unwrap(), vec![Vec::<Int>::new()]);
        let empty_by_locals = set("{ A[] : exists e : 2e = 1 }");
        assert!(empty_by_locals.points(10).unwrap().is_empty());
    }

    fn ints(v: &[i64]) -> Vec<Int> {
        v.iter().map(|&x| Int::from(x)).collect()
    }

    #[test]
    fn boundedness() {
        assert!(
            set("{ [i, j] : 0 <= i <= 10 and i <= j <= 2i }")
                .is_bounded()
                .unwrap()
        );
        assert!(!set("{ [i, j] : 0 <= i and i <= j }").is_bounded().unwrap());
        assert!(set("[N] -> { [i] : 0 <= i < N }").is_bounded().unwrap());
        assert!(
            !set("[N] -> { [i, j] : 0 <= i < N and j >= i }")
                .is_bounded()
                .unwrap()
        );
        // unbounded rationally but integer-empty: bounded
        assert!(set("{ [x, y] : 3x - 3y = 1 }").is_bounded().unwrap());
    }

    #[test]
    fn extreme_values_and_box() {
        let s = set("{ [i, j] : 0 <= i <= 10 and i <= j <= 2i and j <= 7 }");
        let opt = |s: &Set, k: usize, max: bool| s.dim_opt(k, max, &mut Budget::default());
        assert_eq!(opt(&s, 1, false).unwrap(), Some(ints(&[0])));
        assert_eq!(opt(&s, 1, true).unwrap(), Some(ints(&[7])));
        assert_eq!(opt(&s, 0, true).unwrap(), Some(ints(&[7])));
        assert_eq!(s.dim_max(0).unwrap().to_string(), "{ [(7)] }");
        let p = set("[N] -> { [i, j] : 0 <= i < N and 0 <= j <= i }");
        assert_eq!(opt(&p, 1, true).unwrap(), Some(ints(&[-1, 1]))); // N - 1
        assert_eq!(opt(&p, 0, false).unwrap(), Some(ints(&[0, 0])));
        assert_eq!(
            p.dim_max(1).unwrap().to_string(),
            "[N] -> { [(-1 + N)] : N >= 1 }"
        );
        assert_eq!(
            p.box_hull().unwrap().to_string(),
            "[N] -> { [i, j] : 0 <= j < N and 0 <= i < N }"
        );
        let two = set("[N, M] -> { [i] : 0 <= i and i <= N and i <= M }");
        assert!(matches!(opt(&two, 0, true), Err(Error::Unsupported(_))));
        // as a piecewise function the minimum of two bounds is fine
        assert_eq!(two.dim_max(0).unwrap().n_piece(), 2);
        assert!(matches!(
            set("{ [i] : i >= 0 }").dim_max(0),
            Err(Error::Unbounded(_))
        ));
        assert!(matches!(
            opt(&set("{ [i] : i >= 0 }"), 0, true),
            Err(Error::Unbounded(_))
        ));
        let bh = set("{ [i, j] : i + j <= 4 and i >= 0 and j >= 0 }")
            .box_hull()
            .unwrap();
        assert!(
            bh.is_equal(&set("{ [i, j] : 0 <= i <= 4 and 0 <= j <= 4 }"))
                .unwrap()
        );
    }

    #[test]
    fn point_listing() {
        let s = set("{ [i, j] : 0 <= i <= 2 and i <= j <= 2 and exists e : i + j = 2e }");
        let pts = s.points(100).unwrap();
        let want: Vec<Vec<Int>> = set_points(&s, &PBox::new(vec![], -1, 3))
            .into_iter()
            .map(|p| ints(&p))
            .collect();
        assert_eq!(pts, want);
        assert!(matches!(s.points(2), Err(Error::Budget(_))));
        assert!(set("{ [i] : i >= 0 }").points(10).is_err());
    }

    /// The iterator gives the points of `points`, in the same order, lazily;
    /// errors end it; a budget too small fails cleanly.
    #[test]
    fn point_iterator() {
        for text in [
            "{ [i, j] : 0 <= i <= 2 and i <= j <= 2 and exists e : i + j = 2e }",
            "{ [i, j, k] : 0 <= i <= 3 and 0 <= j <= i and k = i - j or i = 7 and j = -1 and k = 0 }",
            "{ [i, j] : 0 <= i <= 5 and 2j = i and j >= 4 }",
            "{ A[] }",
            "{ A[] : exists e : 2e = 1 }",
            "{ [i] : 1 = 0 }",
        ] {
            let s = set(text);
            let want: Vec<Vec<Int>> = set_points(&s, &PBox::new(vec![], -2, 8))
                .into_iter()
                .map(|p| ints(&p))
                .collect();
            let got: Vec<Vec<Int>> = s.point_iter().collect::<Result<_>>().unwrap();
            assert_eq!(got, want, "{text}");
            assert_eq!(s.points(100).unwrap(), want, "{text}");
        }
        // a lazy walk: the first points of a set far too large to list
        let big = set("{ [i, j] : 0 <= i, j < 1000000000 }");
        let first: Vec<Vec<Int>> = big.point_iter().take(3).map(|p| p.unwrap()).collect();
        assert_eq!(first, vec![ints(&[0, 0]), ints(&[0, 1]), ints(&[0, 2])]);
        // errors come once, first, and end the walk
        for bad in ["{ [i] : i >= 0 }", "[N] -> { [i] : 0 <= i < N }"] {
            let mut it = set(bad).point_iter();
            assert!(it.next().unwrap().is_err(), "{bad}");
            assert!(it.next().is_none(), "{bad}");
        }
        let mut starved = big.point_iter_with_budget(Budget::new(3));
        let items: Vec<Result<Vec<Int>>> = starved.by_ref().take(10).collect();
        assert!(matches!(items.last(), Some(Err(Error::Budget(_)))));
        assert!(starved.next().is_none());
    }
}
