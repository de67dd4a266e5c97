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

use crate::algebra::algebra_budget;
use crate::conjunction::{Conjunction, Row};
use crate::error::{Error, Result};
use crate::int::Int;
use crate::omega::Budget;
use crate::set::Set;
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
    /// True when the set is finite for every parameter value.
    pub fn is_bounded(&self) -> Result<bool> {
        self.is_bounded_with_budget(&mut algebra_budget())
    }

    /// As `is_bounded`, spending from `budget`.
    pub fn is_bounded_with_budget(&self, budget: &mut Budget) -> Result<bool> {
        for c in &self.0.parts {
            if !c.is_empty_with(budget)? && !c.cone_is_bounded() {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The smallest value of dimension `pos` as an affine expression
    /// `row·(1, params)`; `None` for an empty set. `Error::Unbounded` when there is
    /// no minimum, `Error::Unsupported` when it is not one affine expression.
    pub fn dim_min(&self, pos: usize) -> Result<Option<Row>> {
        self.dim_opt(pos, false, &mut algebra_budget())
    }

    /// The largest value of dimension `pos`, as [`Set::dim_min`].
    pub fn dim_max(&self, pos: usize) -> Result<Option<Row>> {
        self.dim_opt(pos, true, &mut algebra_budget())
    }

    /// As `dim_min`, spending from `budget`.
    pub fn dim_min_with_budget(&self, pos: usize, budget: &mut Budget) -> Result<Option<Row>> {
        self.dim_opt(pos, false, budget)
    }

    /// As `dim_max`, spending from `budget`.
    pub fn dim_max_with_budget(&self, pos: usize, budget: &mut Budget) -> Result<Option<Row>> {
        self.dim_opt(pos, true, budget)
    }

    fn dim_opt(&self, pos: usize, maximize: bool, budget: &mut Budget) -> Result<Option<Row>> {
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

    /// The smallest box (conjunction of bounds on single dimensions, affine in the
    /// parameters) containing the set. Sides without a bound are left open.
    pub fn box_hull(&self) -> Result<Set> {
        self.box_hull_with_budget(&mut algebra_budget())
    }

    /// As `box_hull`, spending from `budget`.
    pub fn box_hull_with_budget(&self, budget: &mut Budget) -> Result<Set> {
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
        Ok(Set::from(crate::set::BasicSet(c)))
    }

    /// All points (set dimensions) of a bounded set without parameters, in
    /// lexicographic order; an error when there are more than `limit`.
    pub fn points(&self, limit: usize) -> Result<Vec<Vec<Int>>> {
        self.points_with_budget(limit, &mut algebra_budget())
    }

    /// As `points`, spending from `budget` (all the emptiness tests and optima of
    /// the enumeration).
    pub fn points_with_budget(&self, limit: usize, budget: &mut Budget) -> Result<Vec<Vec<Int>>> {
        if self.0.space.n_param() > 0 {
            return Err(Error::Unsupported("points of a set with parameters".into()));
        }
        if !self.is_bounded_with_budget(budget)? {
            return Err(Error::Unbounded(
                "the set has infinitely many points".into(),
            ));
        }
        let mut out = Vec::new();
        // the enumeration checks emptiness per coordinate; a set without coordinates
        // has none to check, so its emptiness is asked here
        if self.0.space.n_out() == 0 && self.0.is_empty_with(budget)? {
            return Ok(out);
        }
        let mut prefix = Vec::new();
        enumerate(self, &mut prefix, &mut out, limit, budget)?;
        Ok(out)
    }
}

fn enumerate(
    s: &Set,
    prefix: &mut Vec<Int>,
    out: &mut Vec<Vec<Int>>,
    limit: usize,
    budget: &mut Budget,
) -> Result<()> {
    let n = s.0.space.n_out();
    if prefix.len() == n {
        if out.len() >= limit {
            return Err(Error::Budget(format!(
                "the set has more than {limit} points"
            )));
        }
        out.push(prefix.clone());
        return Ok(());
    }
    let k = prefix.len();
    let mut fixed = s.clone();
    for (j, v) in prefix.iter().enumerate() {
        fixed = fixed.fix(DimKind::Out, j, v.clone())?;
    }
    let mut aff = vec![Int::ZERO; 1 + n];
    aff[1 + k] = Int::ONE;
    let (Some(lo), Some(hi)) = (
        opt_over(fixed.0.parts.iter(), &aff, false, budget)?,
        opt_over(fixed.0.parts.iter(), &aff, true, budget)?,
    ) else {
        return Ok(());
    };
    let mut v = lo;
    while v <= hi {
        if !fixed
            .fix(DimKind::Out, k, v.clone())?
            .0
            .is_empty_with(budget)?
        {
            prefix.push(v.clone());
            enumerate(s, prefix, out, limit, budget)?;
            prefix.pop();
        }
        v += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{set_points, Box as PBox};

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
        assert!(set("{ [i, j] : 0 <= i <= 10 and i <= j <= 2i }")
            .is_bounded()
            .unwrap());
        assert!(!set("{ [i, j] : 0 <= i and i <= j }").is_bounded().unwrap());
        assert!(set("[N] -> { [i] : 0 <= i < N }").is_bounded().unwrap());
        assert!(!set("[N] -> { [i, j] : 0 <= i < N and j >= i }")
            .is_bounded()
            .unwrap());
        // unbounded rationally but integer-empty: bounded
        assert!(set("{ [x, y] : 3x - 3y = 1 }").is_bounded().unwrap());
    }

    #[test]
    fn extreme_values_and_box() {
        let s = set("{ [i, j] : 0 <= i <= 10 and i <= j <= 2i and j <= 7 }");
        assert_eq!(s.dim_min(1).unwrap(), Some(ints(&[0])));
        assert_eq!(s.dim_max(1).unwrap(), Some(ints(&[7])));
        assert_eq!(s.dim_max(0).unwrap(), Some(ints(&[7])));
        let p = set("[N] -> { [i, j] : 0 <= i < N and 0 <= j <= i }");
        assert_eq!(p.dim_max(1).unwrap(), Some(ints(&[-1, 1]))); // N - 1
        assert_eq!(p.dim_min(0).unwrap(), Some(ints(&[0, 0])));
        assert_eq!(
            p.box_hull().unwrap().to_string(),
            "[N] -> { [i, j] : 0 <= j < N and 0 <= i < N }"
        );
        assert!(matches!(
            set("[N, M] -> { [i] : 0 <= i and i <= N and i <= M }").dim_max(0),
            Err(Error::Unsupported(_))
        ));
        assert!(matches!(
            set("{ [i] : i >= 0 }").dim_max(0),
            Err(Error::Unbounded(_))
        ));
        let bh = set("{ [i, j] : i + j <= 4 and i >= 0 and j >= 0 }")
            .box_hull()
            .unwrap();
        assert!(bh
            .is_equal(&set("{ [i, j] : 0 <= i <= 4 and 0 <= j <= 4 }"))
            .unwrap());
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
}
