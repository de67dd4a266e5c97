//! `BasicSet`: the type and every public method of it.

use super::*;
use crate::solve::{contains_in, opt_over, sample_of_parts};
use crate::solver::budget::Budget;

/// A single conjunction of constraints in a set space (isl's
/// `isl_basic_set`): affine equalities and inequalities over parameters,
/// dimensions and existentially quantified locals.
///
/// ```
/// use presburger::BasicSet;
/// let b: BasicSet = "[N] -> { [i, j] : 0 <= i < N and j = 2i }".parse()?;
/// assert!(!b.is_empty()?);
/// assert_eq!(b.to_string(), "[N] -> { [i, 2i] : 0 <= i < N }");
/// # Ok::<(), presburger::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct BasicSet(pub(crate) Conjunction);

impl BasicSet {
    /// The basic set with no constraints in the set space `space` (isl's
    /// `isl_basic_set_universe`). An error for a map space.
    pub fn universe(space: Space) -> Result<BasicSet> {
        Conjunction::universe(space).of_kind(true).map(BasicSet)
    }

    /// The empty basic set in the set space `space` (isl's
    /// `isl_basic_set_empty`). An error for a map space.
    pub fn empty(space: Space) -> Result<BasicSet> {
        Conjunction::empty(space).of_kind(true).map(BasicSet)
    }

    /// The basic set of the conjunction `c`. An error when its space is a map
    /// space.
    pub fn from_conjunction(c: Conjunction) -> Result<BasicSet> {
        c.of_kind(true).map(BasicSet)
    }

    /// The conjunction of `constraints` (made from the expressions of
    /// [`crate::build`]) in the set space `space`.
    ///
    /// ```
    /// use presburger::build::var;
    /// use presburger::{BasicSet, Space, Tuple};
    /// let space = Space::set(vec!["n".into()], Tuple::new(Some("S"), &["i"]));
    /// let (i, n) = (var(&space, "i")?, var(&space, "n")?);
    /// let b = BasicSet::from_constraints(&space, [i.ge(0), i.lt(&n)])?;
    /// assert_eq!(b.to_string(), "[n] -> { S[i] : 0 <= i < n }");
    /// # Ok::<(), presburger::Error>(())
    /// ```
    pub fn from_constraints(
        space: &Space,
        constraints: impl IntoIterator<Item = crate::build::Constraint>,
    ) -> Result<BasicSet> {
        check_kind(space, true)?;
        crate::build::conjunction(space, constraints).map(BasicSet)
    }

    /// The underlying conjunction (its rows in the layout of the crate
    /// documentation).
    pub fn conjunction(&self) -> &Conjunction {
        &self.0
    }

    /// The space.
    pub fn space(&self) -> &Space {
        &self.0.space
    }

    /// Intersection: one conjunction of the constraints of both (isl's
    /// `isl_basic_set_intersect`), the parameters aligned by name. An error
    /// for different tuples.
    ///
    /// ```
    /// use presburger::BasicSet;
    /// let a: BasicSet = "[N] -> { [i] : 0 <= i < N }".parse()?;
    /// let b: BasicSet = "{ [i] : i >= 5 }".parse()?;
    /// let want: BasicSet = "[N] -> { [i] : 5 <= i < N }".parse()?;
    /// assert!(a.intersect(&b)?.plain_is_equal(&want));
    /// assert!(a.intersect(&"{ T[i] }".parse()?).is_err());
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_basic_set_intersect")]
    pub fn intersect(&self, other: &BasicSet) -> Result<BasicSet> {
        self.0.intersect_aligned(&other.0).map(BasicSet)
    }

    /// Adds the equality `row·(1, params, dims, locals) = 0` in place.
    pub fn add_eq(&mut self, row: Vec<Int>) -> Result<()> {
        self.0.add_eq(row)
    }

    /// Adds the inequality `row·(1, params, dims, locals) >= 0` in place.
    pub fn add_ineq(&mut self, row: Vec<Int>) -> Result<()> {
        self.0.add_ineq(row)
    }

    /// The points with the variable `pos` of `kind` equal to `value` (isl's
    /// `isl_basic_set_fix_si`).
    ///
    /// ```
    /// use presburger::{BasicSet, DimKind};
    /// let b: BasicSet = "{ [i, j] : 0 <= i <= j <= 4 }".parse()?;
    /// assert_eq!(b.fix(DimKind::SET, 0, 3)?.to_string(), "{ [3, j] : 3 <= j <= 4 }");
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_basic_set_fix_si")]
    pub fn fix(&self, kind: DimKind, pos: usize, value: impl Into<Int>) -> Result<BasicSet> {
        let v = value.into();
        self.0.changed(|c| c.fix(kind, pos, &v)).map(BasicSet)
    }

    /// The points with the variable `pos` of `kind` at least `value` (isl's
    /// `isl_basic_set_lower_bound_val`).
    #[doc(alias = "isl_basic_set_lower_bound_val")]
    pub fn lower_bound(
        &self,
        kind: DimKind,
        pos: usize,
        value: impl Into<Int>,
    ) -> Result<BasicSet> {
        let v = value.into();
        self.0
            .changed(|c| c.bound(kind, pos, &v, true))
            .map(BasicSet)
    }

    /// The points with the variable `pos` of `kind` at most `value` (isl's
    /// `isl_basic_set_upper_bound_val`).
    #[doc(alias = "isl_basic_set_upper_bound_val")]
    pub fn upper_bound(
        &self,
        kind: DimKind,
        pos: usize,
        value: impl Into<Int>,
    ) -> Result<BasicSet> {
        let v = value.into();
        self.0
            .changed(|c| c.bound(kind, pos, &v, false))
            .map(BasicSet)
    }

    /// The same basic set after structural simplification (see
    /// [`Conjunction::simplify`]).
    pub fn simplify(&self) -> BasicSet {
        BasicSet(self.0.simplified())
    }

    /// True when the constraints are visibly contradictory after structural
    /// simplification (no solver involved: `false` does not prove the basic
    /// set non-empty; see [`BasicSet::is_empty`]).
    pub fn plain_is_empty(&self) -> bool {
        self.0.simplified().is_trivially_empty()
    }

    /// True when no constraint is left after structural simplification.
    pub fn plain_is_universe(&self) -> bool {
        self.0.simplified().is_trivially_universe()
    }

    /// Structural equality after simplification (isl's
    /// `isl_basic_set_plain_is_equal`; `false` does not prove the sets differ).
    pub fn plain_is_equal(&self, other: &BasicSet) -> bool {
        self.0.plain_is_equal(&other.0)
    }
}

// Map and product operations: the algorithms are in `src/ops/maps.rs`.
impl BasicSet {
    /// As [`Set::insert_dims`] (isl's `isl_basic_set_insert_dims`).
    ///
    /// ```
    /// use presburger::{BasicSet, DimKind};
    /// let s: BasicSet = "{ S[i] : 0 <= i <= 3 }".parse()?;
    /// let want: BasicSet = "{ [k, i] : 0 <= i <= 3 }".parse()?;
    /// assert!(s.insert_dims(DimKind::SET, 0, 1)?.plain_is_equal(&want));
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_basic_set_insert_dims")]
    pub fn insert_dims(&self, kind: DimKind, pos: usize, n: usize) -> Result<BasicSet> {
        self.insert_dims_impl(kind, pos, n)
    }

    /// As [`Set::insert_params`].
    ///
    /// ```
    /// use presburger::BasicSet;
    /// let s: BasicSet = "{ S[i] : i >= 0 }".parse()?;
    /// assert_eq!(s.insert_params(0, &["N"])?.space().params(), ["N"]);
    /// # Ok::<(), presburger::Error>(())
    /// ```
    pub fn insert_params(&self, pos: usize, names: &[&str]) -> Result<BasicSet> {
        self.insert_params_impl(pos, names)
    }
}

// Exact projection and redundancy removal: the algorithms are in `src/ops/project.rs`.
impl BasicSet {
    /// The same basic set without its redundant inequalities.
    pub fn remove_redundancies(&self) -> BasicSet {
        BasicSet(self.0.with(Conjunction::remove_redundancies))
    }
}

// Emptiness, sampling and optimisation (the solver): the algorithms are in `src/solver/solve.rs`.
impl BasicSet {
    /// True when no integer point (for any parameter value) satisfies the
    /// constraints (isl's `isl_basic_set_is_empty`): exact, existentials
    /// included.
    ///
    /// ```
    /// use presburger::BasicSet;
    /// assert!("{ [x, y] : 3x - 3y = 1 }".parse::<BasicSet>()?.is_empty()?); // rationals only
    /// assert!(!"[N] -> { [i] : 0 <= i < N }".parse::<BasicSet>()?.is_empty()?); // for N >= 1
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_basic_set_is_empty")]
    pub fn is_empty(&self) -> Result<bool> {
        self.0.is_empty_with(&mut Budget::default())
    }

    /// An integer point: parameter values followed by set dimensions; `None` if empty.
    pub fn sample(&self) -> Result<Option<Vec<Int>>> {
        sample_of_parts(std::iter::once(&self.0), &mut Budget::default())
    }

    /// True when the point (parameter values, then set dimensions) belongs to the set.
    pub fn contains(&self, point: &[Int]) -> Result<bool> {
        contains_in(&self.0, point, &mut Budget::default())
    }

    /// The lexicographically smallest point (set dimensions) of a set without
    /// parameters; `None` if empty, `Error::Unbounded` if there is none. isl's
    /// `isl_basic_set_lexmin` gives the same point as a one-point set (and,
    /// with parameters, a function of them, not computed here).
    ///
    /// ```
    /// use presburger::{BasicSet, Int};
    /// let b: BasicSet = "{ [i, j] : 0 <= j <= i <= 5 and i + j >= 3 }".parse()?;
    /// assert_eq!(b.lexmin()?, Some(vec![Int::from(2), Int::from(1)]));
    /// assert_eq!(b.lexmax()?, Some(vec![Int::from(5), Int::from(5)]));
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_basic_set_lexmin")]
    pub fn lexmin(&self) -> Result<Option<Vec<Int>>> {
        self.lexmin_impl()
    }

    /// The lexicographically largest point, as [`BasicSet::lexmin`] (isl's
    /// `isl_basic_set_lexmax`).
    #[doc(alias = "isl_basic_set_lexmax")]
    pub fn lexmax(&self) -> Result<Option<Vec<Int>>> {
        self.lexmax_impl()
    }

    /// The integer minimum of `aff·(1, params, dims)` over the set (parameters are
    /// variables too); `None` if empty, `Error::Unbounded` if not attained.
    pub fn min(&self, aff: &[Int]) -> Result<Option<Int>> {
        opt_over(std::iter::once(&self.0), aff, false, &mut Budget::default())
    }

    /// The integer maximum, as [`BasicSet::min`].
    pub fn max(&self, aff: &[Int]) -> Result<Option<Int>> {
        opt_over(std::iter::once(&self.0), aff, true, &mut Budget::default())
    }
}
