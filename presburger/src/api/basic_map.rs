//! `BasicMap`: the type and every public method of it.

use super::*;
use crate::solve::sample_of_parts;
use crate::solver::budget::Budget;

/// A single conjunction of constraints in a map space (isl's
/// `isl_basic_map`).
///
/// ```
/// use presburger::BasicMap;
/// let b: BasicMap = "{ S[i] -> A[i + 1] : 0 <= i < 10 }".parse()?;
/// assert!(!b.is_empty()?);
/// # Ok::<(), presburger::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct BasicMap(pub(crate) Conjunction);

impl BasicMap {
    /// The basic map with no constraints in the map space `space` (isl's
    /// `isl_basic_map_universe`). An error for a set space.
    pub fn universe(space: Space) -> Result<BasicMap> {
        Conjunction::universe(space).of_kind(false).map(BasicMap)
    }

    /// The empty basic map in the map space `space` (isl's
    /// `isl_basic_map_empty`). An error for a set space.
    pub fn empty(space: Space) -> Result<BasicMap> {
        Conjunction::empty(space).of_kind(false).map(BasicMap)
    }

    /// The basic map of the conjunction `c`. An error when its space is a set
    /// space.
    pub fn from_conjunction(c: Conjunction) -> Result<BasicMap> {
        c.of_kind(false).map(BasicMap)
    }

    /// The conjunction of `constraints` (made from the expressions of
    /// [`crate::build`]) in the map space `space`.
    pub fn from_constraints(
        space: &Space,
        constraints: impl IntoIterator<Item = crate::build::Constraint>,
    ) -> Result<BasicMap> {
        check_kind(space, false)?;
        crate::build::conjunction(space, constraints).map(BasicMap)
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
    /// `isl_basic_map_intersect`), the parameters aligned by name. An error
    /// for different tuples.
    ///
    /// ```
    /// use presburger::BasicMap;
    /// let m: BasicMap = "{ S[i] -> T[j] : j >= i }".parse()?;
    /// let n: BasicMap = "{ S[i] -> T[j] : j <= i }".parse()?;
    /// assert!(m.intersect(&n)?.plain_is_equal(&"{ S[i] -> T[i] }".parse()?));
    /// assert!(m.intersect(&"{ S[i] -> U[j] }".parse()?).is_err());
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_basic_map_intersect")]
    pub fn intersect(&self, other: &BasicMap) -> Result<BasicMap> {
        self.0.intersect_aligned(&other.0).map(BasicMap)
    }

    /// Adds the equality `row·(1, params, in, out, locals) = 0` in place.
    pub fn add_eq(&mut self, row: Vec<Int>) -> Result<()> {
        self.0.add_eq(row)
    }

    /// Adds the inequality `row·(1, params, in, out, locals) >= 0` in place.
    pub fn add_ineq(&mut self, row: Vec<Int>) -> Result<()> {
        self.0.add_ineq(row)
    }

    /// The pairs with the variable `pos` of `kind` equal to `value` (isl's
    /// `isl_basic_map_fix_si`).
    #[doc(alias = "isl_basic_map_fix_si")]
    pub fn fix(&self, kind: DimKind, pos: usize, value: impl Into<Int>) -> Result<BasicMap> {
        let v = value.into();
        self.0.changed(|c| c.fix(kind, pos, &v)).map(BasicMap)
    }

    /// The pairs with the variable `pos` of `kind` at least `value` (isl's
    /// `isl_basic_map_lower_bound_si`).
    #[doc(alias = "isl_basic_map_lower_bound_si")]
    pub fn lower_bound(
        &self,
        kind: DimKind,
        pos: usize,
        value: impl Into<Int>,
    ) -> Result<BasicMap> {
        let v = value.into();
        self.0
            .changed(|c| c.bound(kind, pos, &v, true))
            .map(BasicMap)
    }

    /// The pairs with the variable `pos` of `kind` at most `value` (isl's
    /// `isl_basic_map_upper_bound_si`).
    #[doc(alias = "isl_basic_map_upper_bound_si")]
    pub fn upper_bound(
        &self,
        kind: DimKind,
        pos: usize,
        value: impl Into<Int>,
    ) -> Result<BasicMap> {
        let v = value.into();
        self.0
            .changed(|c| c.bound(kind, pos, &v, false))
            .map(BasicMap)
    }

    /// The same basic map after structural simplification (see
    /// [`Conjunction::simplify`]).
    pub fn simplify(&self) -> BasicMap {
        BasicMap(self.0.simplified())
    }

    /// True when the constraints are visibly contradictory after structural
    /// simplification (no solver involved: `false` does not prove the basic
    /// map non-empty; see [`BasicMap::is_empty`]).
    pub fn plain_is_empty(&self) -> bool {
        self.0.simplified().is_trivially_empty()
    }

    /// True when no constraint is left after structural simplification.
    pub fn plain_is_universe(&self) -> bool {
        self.0.simplified().is_trivially_universe()
    }

    /// Structural equality after simplification (isl's
    /// `isl_basic_map_plain_is_equal`; `false` does not prove the maps differ).
    pub fn plain_is_equal(&self, other: &BasicMap) -> bool {
        self.0.plain_is_equal(&other.0)
    }
}

// Map and product operations: the algorithms are in `src/ops/maps.rs`.
impl BasicMap {
    /// As [`Map::domain_map`] (isl's `isl_basic_map_domain_map`).
    ///
    /// ```
    /// use presburger::BasicMap;
    /// let m: BasicMap = "{ S[i] -> T[j] : j = 2i }".parse()?;
    /// let want: BasicMap = "{ [S[i] -> T[j]] -> S[i] : j = 2i }".parse()?;
    /// assert!(m.domain_map().plain_is_equal(&want));
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_basic_map_domain_map")]
    pub fn domain_map(&self) -> BasicMap {
        self.domain_map_impl()
    }

    /// As [`Map::range_map`] (isl's `isl_basic_map_range_map`).
    ///
    /// ```
    /// use presburger::BasicMap;
    /// let m: BasicMap = "{ S[i] -> T[j] : j = 2i }".parse()?;
    /// let want: BasicMap = "{ [S[i] -> T[j]] -> T[j] : j = 2i }".parse()?;
    /// assert!(m.range_map().plain_is_equal(&want));
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_basic_map_range_map")]
    pub fn range_map(&self) -> BasicMap {
        self.range_map_impl()
    }

    /// As [`Map::zip`] (isl's `isl_basic_map_zip`).
    ///
    /// ```
    /// use presburger::BasicMap;
    /// let m: BasicMap = "{ [A[a] -> B[b]] -> [C[c] -> D[d]] : a = d }".parse()?;
    /// let want: BasicMap = "{ [A[a] -> C[c]] -> [B[b] -> D[d]] : a = d }".parse()?;
    /// assert!(m.zip()?.plain_is_equal(&want));
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_basic_map_zip")]
    pub fn zip(&self) -> Result<BasicMap> {
        self.zip_impl()
    }

    /// As [`Map::insert_dims`] (isl's `isl_basic_map_insert_dims`).
    ///
    /// ```
    /// use presburger::{BasicMap, DimKind};
    /// let m: BasicMap = "{ S[i] -> T[j] : j = i + 1 }".parse()?;
    /// let want: BasicMap = "{ S[i] -> [j, k] : j = i + 1 }".parse()?;
    /// assert!(m.insert_dims(DimKind::Out, 1, 1)?.plain_is_equal(&want));
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_basic_map_insert_dims")]
    pub fn insert_dims(&self, kind: DimKind, pos: usize, n: usize) -> Result<BasicMap> {
        self.insert_dims_impl(kind, pos, n)
    }

    /// As [`Map::insert_params`].
    ///
    /// ```
    /// use presburger::BasicMap;
    /// let m: BasicMap = "{ S[i] -> T[i] }".parse()?;
    /// assert_eq!(m.insert_params(0, &["N"])?.to_string(), "[N] -> { S[i] -> T[i] }");
    /// # Ok::<(), presburger::Error>(())
    /// ```
    pub fn insert_params(&self, pos: usize, names: &[&str]) -> Result<BasicMap> {
        self.insert_params_impl(pos, names)
    }
}

// Exact projection and redundancy removal: the algorithms are in `src/ops/project.rs`.
impl BasicMap {
    /// The same basic map without its redundant inequalities.
    pub fn remove_redundancies(&self) -> BasicMap {
        BasicMap(self.0.with(Conjunction::remove_redundancies))
    }
}

// Emptiness, sampling and optimisation (the solver): the algorithms are in `src/solver/solve.rs`.
impl BasicMap {
    /// True when no integer pair satisfies the constraints (isl's
    /// `isl_basic_map_is_empty`).
    ///
    /// ```
    /// use presburger::BasicMap;
    /// assert!("{ [i] -> [j] : j = 2i and j = 2i + 1 }".parse::<BasicMap>()?.is_empty()?);
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_basic_map_is_empty")]
    pub fn is_empty(&self) -> Result<bool> {
        self.0.is_empty_with(&mut Budget::default())
    }

    /// An integer pair: parameters, input dimensions, output dimensions.
    pub fn sample(&self) -> Result<Option<Vec<Int>>> {
        sample_of_parts(std::iter::once(&self.0), &mut Budget::default())
    }
}
