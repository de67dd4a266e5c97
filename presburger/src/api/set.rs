//! `Set`: the type and every public method of it.

use super::*;
use crate::algebra::algebra_budget;
use crate::bounds::Points;
use crate::conjunction::Row;
use crate::solve::{empty_parts, opt_over, sample_of_parts};
use crate::solver::budget::Budget;

/// A finite union of conjunctions in one set space (isl's `isl_set`): the
/// integer points of a Presburger formula, read from and printed in isl
/// notation. Every operation is exact.
///
/// ```
/// use presburger::Set;
/// let a: Set = "[N] -> { [i] : 0 <= i < N }".parse()?;
/// let b: Set = "[N] -> { [i] : i mod 2 = 0 }".parse()?;
/// let odd = a.subtract(&b)?; // isl_set_subtract
/// let want: Set = "[N] -> { [i] : 0 <= i < N and exists e : i = 2e + 1 }".parse()?;
/// assert!(odd.is_equal(&want)?);
/// assert!(a.intersect(&b)?.is_subset(&a)?); // isl_set_intersect, isl_set_is_subset
/// assert!("{ [x, y] : 3x - 3y = 1 }".parse::<Set>()?.is_empty()?); // no integer point
/// let tri: Set = "{ [i, j] : 2 <= i <= 5 and 0 <= j <= i and i + j >= 6 }".parse()?;
/// let lexmin = tri.lexmin()?.unwrap(); // isl_set_lexmin (a point here)
/// assert_eq!(lexmin, [3, 3].map(presburger::Int::from).to_vec());
/// # Ok::<(), presburger::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Set(pub(crate) Disjunction);

impl Set {
    /// The empty set in the set space `space` (isl's `isl_set_empty`). An
    /// error for a map space.
    pub fn empty(space: Space) -> Result<Set> {
        Disjunction::empty(space).of_kind(true).map(Set)
    }

    /// The universe of the set space `space` (isl's `isl_set_universe`). An
    /// error for a map space.
    pub fn universe(space: Space) -> Result<Set> {
        Disjunction::universe(space).of_kind(true).map(Set)
    }

    /// The conjunction of `constraints` (made from the expressions of
    /// [`crate::build`]) in the set space `space`; see the example there.
    pub fn from_constraints(
        space: &Space,
        constraints: impl IntoIterator<Item = crate::build::Constraint>,
    ) -> Result<Set> {
        BasicSet::from_constraints(space, constraints).map(Set::from)
    }

    /// The space.
    pub fn space(&self) -> &Space {
        &self.0.space
    }

    /// The conjunctions of the union, as basic sets.
    pub fn basics(&self) -> impl Iterator<Item = BasicSet> + '_ {
        self.0.parts.iter().cloned().map(BasicSet)
    }

    /// The number of conjunctions (isl's `isl_set_n_basic_set`).
    pub fn n_basic(&self) -> usize {
        self.0.parts.len()
    }

    /// The points in either (isl's `isl_set_union`): same tuples, the
    /// parameters aligned by name.
    ///
    /// ```
    /// use presburger::Set;
    /// let a: Set = "{ [i] : 0 <= i <= 2 }".parse()?;
    /// let b: Set = "{ [i] : 3 <= i <= 5 }".parse()?;
    /// assert!(a.union(&b)?.is_equal(&"{ [i] : 0 <= i <= 5 }".parse()?)?);
    /// # Ok::<(), presburger::Error>(())
    /// ```
    pub fn union(&self, other: &Set) -> Result<Set> {
        self.0.union(&other.0).map(Set)
    }

    /// The union of `self` and every set of `others`: the result of
    /// `union` with each in turn, in one simplification at the end
    /// instead of one per step (linear instead of quadratic in the number of
    /// conjunctions).
    ///
    /// ```
    /// use presburger::Set;
    /// let a: Set = "{ [i] : i = 0 }".parse()?;
    /// let rest: Vec<Set> = ["{ [i] : i = 1 }", "{ [i] : i = 2 }"]
    ///     .iter()
    ///     .map(|t| t.parse())
    ///     .collect::<Result<_, _>>()?;
    /// assert!(a.union_all(&rest)?.is_equal(&"{ [i] : 0 <= i <= 2 }".parse()?)?);
    /// # Ok::<(), presburger::Error>(())
    /// ```
    pub fn union_all<'a>(&self, others: impl IntoIterator<Item = &'a Set>) -> Result<Set> {
        self.0.union_all(others.into_iter().map(|s| &s.0)).map(Set)
    }

    /// Intersection: the points in both (isl's `isl_set_intersect`), the
    /// parameters aligned by name. An error ([`Error::SpaceMismatch`]) for
    /// different tuples.
    ///
    /// ```
    /// use presburger::Set;
    /// let a: Set = "[N] -> { S[i] : 0 <= i < N }".parse()?;
    /// let b: Set = "{ S[i] : i mod 2 = 0 }".parse()?;
    /// let want: Set = "[N] -> { S[i] : 0 <= i < N and i mod 2 = 0 }".parse()?;
    /// assert!(a.intersect(&b)?.is_equal(&want)?);
    /// assert!(a.intersect(&"{ T[i] }".parse()?).is_err());
    /// # Ok::<(), presburger::Error>(())
    /// ```
    pub fn intersect(&self, other: &Set) -> Result<Set> {
        self.0.intersect(&other.0).map(Set)
    }

    /// The points with the variable `pos` of `kind` equal to `value` (isl's
    /// `isl_set_fix_si`).
    ///
    /// ```
    /// use presburger::{DimKind, Set};
    /// let s: Set = "{ [i, j] : 0 <= i <= j <= 4 }".parse()?;
    /// assert_eq!(s.fix(DimKind::SET, 0, 3)?.to_string(), "{ [3, j] : 3 <= j <= 4 }");
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_set_fix_si")]
    pub fn fix(&self, kind: DimKind, pos: usize, value: impl Into<Int>) -> Result<Set> {
        let v = value.into();
        self.0.each_part(|c| c.fix(kind, pos, &v)).map(Set)
    }

    /// The points with the variable `pos` of `kind` at least `value` (isl's
    /// `isl_set_lower_bound_si`).
    #[doc(alias = "isl_set_lower_bound_si")]
    pub fn lower_bound(&self, kind: DimKind, pos: usize, value: impl Into<Int>) -> Result<Set> {
        let v = value.into();
        self.0.each_part(|c| c.bound(kind, pos, &v, true)).map(Set)
    }

    /// The points with the variable `pos` of `kind` at most `value` (isl's
    /// `isl_set_upper_bound_si`).
    #[doc(alias = "isl_set_upper_bound_si")]
    pub fn upper_bound(&self, kind: DimKind, pos: usize, value: impl Into<Int>) -> Result<Set> {
        let v = value.into();
        self.0.each_part(|c| c.bound(kind, pos, &v, false)).map(Set)
    }

    /// Moves `n` variables of kind `src` from `src_pos` to kind `dst` at
    /// `dst_pos` (isl's `isl_set_move_dims`: set dimensions to parameters and
    /// back). Moving to `DimKind::Local` quantifies them existentially (exact
    /// projection).
    ///
    /// ```
    /// use presburger::{DimKind, Set};
    /// let s: Set = "{ [n, i] : 0 <= i < n }".parse()?;
    /// let p = s.move_dims(DimKind::Param, 0, DimKind::SET, 0, 1)?;
    /// assert!(p.is_equal(&"[n] -> { [i] : 0 <= i < n }".parse()?)?);
    /// # Ok::<(), presburger::Error>(())
    /// ```
    pub fn move_dims(
        &self,
        dst: DimKind,
        dst_pos: usize,
        src: DimKind,
        src_pos: usize,
        n: usize,
    ) -> Result<Set> {
        (self.0.move_dims(dst, dst_pos, src, src_pos, n)?)
            .of_kind(true)
            .map(Set)
    }

    /// Exact projection: the `n` variables of `kind` from `pos` become
    /// existentially quantified locals, eliminated where that is exact
    /// (isl's `isl_set_project_out`: `{ x : exists y : (x, y) in self }`).
    ///
    /// ```
    /// use presburger::{DimKind, Set};
    /// let s: Set = "{ [i, j] : 0 <= i <= j <= 4 and j = 2i }".parse()?;
    /// // the values of i that have a j
    /// let want: Set = "{ [i] : 0 <= i <= 2 }".parse()?;
    /// assert!(s.project_out(DimKind::SET, 1, 1)?.is_equal(&want)?);
    /// # Ok::<(), presburger::Error>(())
    /// ```
    pub fn project_out(&self, kind: DimKind, pos: usize, n: usize) -> Result<Set> {
        self.0.project_out(kind, pos, n)?.of_kind(true).map(Set)
    }

    /// The same set with its tuple named `name` (`None`: anonymous; isl's
    /// `isl_set_set_tuple_name`).
    pub fn set_tuple_name(&self, name: Option<&str>) -> Set {
        Set(self.0.with_tuple_name(name))
    }

    /// The same set with the parameter or dimension `pos` of `kind` named
    /// `name` (isl's `isl_set_set_dim_name`). Dimension names are cosmetic; a
    /// parameter name must stay unique.
    pub fn set_dim_name(&self, kind: DimKind, pos: usize, name: &str) -> Result<Set> {
        self.0.with_dim_name(kind, pos, name).map(Set)
    }

    /// True when, after structural simplification, no conjunction is left (no
    /// solver involved: `false` does not prove the set non-empty; see
    /// [`Set::is_empty`]).
    pub fn plain_is_empty(&self) -> bool {
        self.0.simplified().parts.is_empty()
    }

    /// True when some conjunction has no constraint after structural
    /// simplification.
    pub fn plain_is_universe(&self) -> bool {
        self.0
            .simplified()
            .parts
            .iter()
            .any(Conjunction::is_trivially_universe)
    }

    /// Structural equality after simplification (isl's
    /// `isl_set_plain_is_equal`; `false` does not prove the sets differ, see
    /// [`Set::is_equal`]).
    pub fn plain_is_equal(&self, other: &Set) -> bool {
        self.0.plain_is_equal(&other.0)
    }

    /// The same set with every conjunction structurally simplified.
    pub fn simplify(&self) -> Set {
        Set(self.0.simplified())
    }
}

impl From<BasicSet> for Set {
    fn from(b: BasicSet) -> Set {
        Set(Disjunction::from_conj(b.0))
    }
}

impl Set {
    /// True for a parameter set: no dimensions and no tuple name (isl's
    /// `[n] -> { : n > 0 }`, printed that way). Intersecting a union with one
    /// restricts the parameters of all its members.
    pub fn is_params(&self) -> bool {
        self.0.is_params()
    }

    /// The set with its parameters restricted to the parameter set `params`
    /// (`[n] -> { : n > 0 }`; isl's `isl_set_intersect_params`). The
    /// parameters of both are merged. An error when `params` is not a
    /// parameter set.
    ///
    /// ```
    /// use presburger::Set;
    /// let s: Set = "[n] -> { [i] : 0 <= i < n }".parse()?;
    /// let p: Set = "[n] -> { : n <= 2 }".parse()?;
    /// let want: Set = "[n] -> { [i] : 0 <= i < n <= 2 }".parse()?;
    /// assert!(s.intersect_params(&p)?.is_equal(&want)?);
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_set_intersect_params")]
    pub fn intersect_params(&self, params: &Set) -> Result<Set> {
        check_params_set(params)?;
        Ok(Set(self.0.intersect_params(&params.0)?))
    }
}

impl Set {
    /// Cartesian product `{ [a, b] : a in self, b in other }` with a flat anonymous
    /// tuple (isl's flat product).
    pub fn flat_product(&self, other: &Set) -> Result<Set> {
        let params = merged_params(self.0.space.params(), other.0.space.params());
        let a = self.0.align_params(&params);
        let b = other.0.align_params(&params);
        let tuple = Tuple::concat(a.space.range_tuple(), b.space.range_tuple());
        let space = Space::set(params, tuple);
        let mut parts = Vec::new();
        for x in &a.parts {
            for y in &b.parts {
                parts.push(product_conj(&space, x, None, y, None)?);
            }
        }
        let mut d = Disjunction { space, parts };
        d.simplify();
        Ok(Set(d))
    }

    /// The identity map on this set's space, restricted to this set.
    pub fn identity(&self) -> Map {
        let sp = &self.0.space;
        let t = sp.range_tuple().clone();
        let space = Space::map(sp.params().to_vec(), t.clone(), t);
        let np = sp.n_param();
        let n = sp.n_out();
        let mut parts = Vec::new();
        for c in &self.0.parts {
            // the set constrains the input tuple; outputs equal inputs
            let colmap: Vec<usize> = (0..c.n_col())
                .map(|col| if col <= np + n { col } else { col + n })
                .collect();
            let mut m = c.remap(space.clone(), c.n_local(), &colmap);
            for i in 0..n {
                let mut row = vec![Int::ZERO; m.n_col()];
                row[1 + np + i] = Int::ONE;
                row[1 + np + n + i] = Int::from(-1);
                m.eqs.push(row);
            }
            parts.push(m);
        }
        let mut d = Disjunction { space, parts };
        d.simplify();
        Map(d)
    }
}

// Set algebra (subtraction, complement, comparisons, coalescing): the algorithms are in `src/ops/algebra.rs`.
impl Set {
    /// The points of `self` that are not in `other` (exact, existentials
    /// included; isl's `isl_set_subtract`). All the work shares one budget
    /// of [`ALGEBRA_DEFAULT_STEPS`](crate::ALGEBRA_DEFAULT_STEPS); running out is [`Error::Budget`].
    ///
    /// ```
    /// use presburger::Set;
    /// let a: Set = "[N] -> { [i] : 0 <= i < N }".parse()?;
    /// let b: Set = "{ [i] : i mod 3 = 0 }".parse()?;
    /// let want: Set = "[N] -> { [i] : 0 <= i < N and i mod 3 != 0 }".parse()?;
    /// assert!(a.subtract(&b)?.is_equal(&want)?);
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_set_subtract")]
    pub fn subtract(&self, other: &Set) -> Result<Set> {
        self.subtract_with_budget(other, &mut algebra_budget())
    }

    /// As [`Set::subtract`], spending from `budget`.
    pub fn subtract_with_budget(&self, other: &Set, budget: &mut Budget) -> Result<Set> {
        self.0.subtract_in(&other.0, budget).map(Set)
    }

    /// The points of the space (for all parameter values) that are not in
    /// `self` (isl's `isl_set_complement`).
    ///
    /// ```
    /// use presburger::Set;
    /// let s: Set = "[n] -> { [i] : i >= n }".parse()?;
    /// assert!(s.complement()?.is_equal(&"[n] -> { [i] : i < n }".parse()?)?);
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_set_complement")]
    pub fn complement(&self) -> Result<Set> {
        self.complement_with_budget(&mut algebra_budget())
    }

    /// As [`Set::complement`], spending from `budget`.
    pub fn complement_with_budget(&self, budget: &mut Budget) -> Result<Set> {
        self.0.complement_in(budget).map(Set)
    }

    /// True when every point of `self` is in `other` (isl's
    /// `isl_set_is_subset`).
    ///
    /// ```
    /// use presburger::Set;
    /// let a: Set = "{ [i] : 0 <= i <= 4 and i mod 2 = 0 }".parse()?;
    /// assert!(a.is_subset(&"{ [i] : 0 <= i <= 4 }".parse()?)?);
    /// assert!(a.is_equal(&"{ [0]; [2]; [4] }".parse()?)?);
    /// assert!(a.is_disjoint(&"{ [i] : i mod 2 = 1 }".parse()?)?);
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_set_is_subset")]
    pub fn is_subset(&self, other: &Set) -> Result<bool> {
        self.is_subset_with_budget(other, &mut algebra_budget())
    }

    /// As [`Set::is_subset`], spending from `budget`.
    pub fn is_subset_with_budget(&self, other: &Set, budget: &mut Budget) -> Result<bool> {
        self.0.is_subset_in(&other.0, budget)
    }

    /// True when both have the same points (isl's `isl_set_is_equal`).
    #[doc(alias = "isl_set_is_equal")]
    pub fn is_equal(&self, other: &Set) -> Result<bool> {
        self.is_equal_with_budget(other, &mut algebra_budget())
    }

    /// As [`Set::is_equal`], spending from `budget` (both inclusions
    /// together).
    pub fn is_equal_with_budget(&self, other: &Set, budget: &mut Budget) -> Result<bool> {
        self.0.is_equal_in(&other.0, budget)
    }

    /// True when no point is in both (isl's `isl_set_is_disjoint`).
    #[doc(alias = "isl_set_is_disjoint")]
    pub fn is_disjoint(&self, other: &Set) -> Result<bool> {
        self.is_disjoint_with_budget(other, &mut algebra_budget())
    }

    /// As [`Set::is_disjoint`], spending from `budget`.
    pub fn is_disjoint_with_budget(&self, other: &Set, budget: &mut Budget) -> Result<bool> {
        self.0.is_disjoint_in(&other.0, budget)
    }

    /// The same set with fewer conjunctions where two or more can be
    /// replaced exactly by one (isl's `isl_set_coalesce`; see the module
    /// documentation of the algebra for the cases handled).
    ///
    /// ```
    /// use presburger::Set;
    /// let s: Set = "{ [i] : 0 <= i <= 2; [i] : 3 <= i <= 5 }".parse()?;
    /// assert_eq!(s.coalesce()?.to_string(), "{ [i] : 0 <= i <= 5 }");
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_set_coalesce")]
    pub fn coalesce(&self) -> Result<Set> {
        self.coalesce_with_budget(&mut algebra_budget())
    }

    /// As [`Set::coalesce`], spending from `budget`.
    pub fn coalesce_with_budget(&self, budget: &mut Budget) -> Result<Set> {
        self.0.coalesce_in(budget).map(Set)
    }

    /// Coalescing by the fuse case alone (the coalescing of before issue 14):
    /// two disjuncts without locals are replaced by the constraints of each
    /// that hold on the other when that is exact. Every constraint of the
    /// result is one of the input, so a union of boxes stays a union of
    /// boxes, split as it used to be (for callers that rely on that shape).
    ///
    /// ```
    /// use presburger::Set;
    /// let s: Set = "{ [x, y] : 0 <= x, y <= 10 or 1 <= x, y <= 11 }".parse()?;
    /// assert_eq!(s.coalesce_fuse_only()?.n_basic(), 2);
    /// assert_eq!(s.coalesce()?.n_basic(), 1);
    /// # Ok::<(), presburger::Error>(())
    /// ```
    pub fn coalesce_fuse_only(&self) -> Result<Set> {
        self.0.coalesce_fuse_in(&mut algebra_budget()).map(Set)
    }
}

// Bounds, boxes and points: the algorithms are in `src/ops/bounds.rs`.
impl Set {
    /// True when the set is finite for every parameter value.
    pub fn is_bounded(&self) -> Result<bool> {
        self.is_bounded_with_budget(&mut algebra_budget())
    }

    /// As `is_bounded`, spending from `budget`.
    pub fn is_bounded_with_budget(&self, budget: &mut Budget) -> Result<bool> {
        self.is_bounded_with_budget_impl(budget)
    }

    /// The smallest box (conjunction of bounds on single dimensions, affine in the
    /// parameters) containing the set. Sides without a bound are left open.
    pub fn box_hull(&self) -> Result<Set> {
        self.box_hull_with_budget(&mut algebra_budget())
    }

    /// As `box_hull`, spending from `budget`.
    pub fn box_hull_with_budget(&self, budget: &mut Budget) -> Result<Set> {
        self.box_hull_with_budget_impl(budget)
    }

    /// All points (set dimensions) of a bounded set without parameters, in
    /// lexicographic order; an error when there are more than `limit`. For a
    /// lazy walk over the points, see [`Set::point_iter`].
    pub fn points(&self, limit: usize) -> Result<Vec<Vec<Int>>> {
        self.points_with_budget(limit, &mut algebra_budget())
    }

    /// As `points`, spending from `budget` (all the emptiness tests and optima of
    /// the enumeration).
    pub fn points_with_budget(&self, limit: usize, budget: &mut Budget) -> Result<Vec<Vec<Int>>> {
        self.points_with_budget_impl(limit, budget)
    }

    /// The points of a bounded set without parameters, one at a time in
    /// lexicographic order (isl's `isl_set_foreach_point`, as an iterator).
    /// Each item is a point (the values of the set's dimensions) or, once, the
    /// error that ends the walk: a set with parameters or an unbounded set at
    /// the first item, or the walk's budget ([`ALGEBRA_DEFAULT_STEPS`](crate::algebra::ALGEBRA_DEFAULT_STEPS) for all
    /// of it; see [`Set::point_iter_with_budget`]) running out. Points come
    /// as they are found: taking the first few of a large set costs only
    /// their share of the work.
    ///
    /// ```
    /// use presburger::{Int, Set};
    /// let s: Set = "{ [i, j] : 0 <= i <= 2 and i <= j <= 2 and (i + j) mod 2 = 0 }".parse()?;
    /// let pts: Vec<Vec<Int>> = s.point_iter().collect::<Result<_, _>>()?;
    /// let want = [[0, 0], [0, 2], [1, 1], [2, 2]];
    /// assert_eq!(pts, want.map(|p| p.map(Int::from).to_vec()));
    /// // lazily: the first point of a set with a billion of them
    /// let big: Set = "{ [i] : 0 <= i < 1000000000 }".parse()?;
    /// assert_eq!(big.point_iter().next().unwrap()?, vec![Int::from(0)]);
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "foreach_point")]
    pub fn point_iter(&self) -> Points {
        self.point_iter_with_budget(algebra_budget())
    }

    /// As [`Set::point_iter`], the whole walk spending from `budget`.
    pub fn point_iter_with_budget(&self, budget: Budget) -> Points {
        self.point_iter_with_budget_impl(budget)
    }
}

// Gist and simplification: the algorithms are in `src/ops/gist.rs`.
impl Set {
    /// `self` simplified in the context `context` (isl's `isl_set_gist`): the
    /// result `g` satisfies `g ∩ context = self ∩ context`, has no constraint
    /// that the context implies and no disjunct outside the context (those of
    /// `self` are dropped); strides lose the factors the context implies, and
    /// the gist is the universe when the context is empty or inside `self`
    /// (see the documentation of `ops/gist.rs`).
    /// One budget of [`crate::algebra::ALGEBRA_DEFAULT_STEPS`] for all the
    /// tests.
    ///
    /// ```
    /// use presburger::Set;
    /// let s: Set = "[N] -> { [i] : 0 <= i < N and N >= 10 }".parse()?;
    /// let g = s.gist(&"[N] -> { [i] : N >= 10 and i >= 0 }".parse()?)?;
    /// assert_eq!(g.to_string(), "[N] -> { [i] : i < N }");
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_set_gist")]
    pub fn gist(&self, context: &Set) -> Result<Set> {
        self.gist_with_budget(context, &mut algebra_budget())
    }

    /// As [`Set::gist`], spending from `budget`.
    pub fn gist_with_budget(&self, context: &Set, budget: &mut Budget) -> Result<Set> {
        self.0.gist_in(&context.0, budget).map(Set)
    }

    /// The same set with the implicit equalities of every conjunction made
    /// explicit (isl's `isl_set_detect_equalities`).
    #[doc(alias = "isl_set_detect_equalities")]
    pub fn detect_equalities(&self) -> Set {
        Set(self.0.with_each(Conjunction::detect_equalities))
    }

    /// The same set with implicit equalities, redundant constraints and
    /// needless locals removed from every conjunction and the empty
    /// conjunctions dropped. A local goes when it can be eliminated exactly,
    /// when its constraints are implied by the others (or are a stride the
    /// others make redundant), and locals in equalities only are reduced to
    /// the fewest strides their lattice needs (`exists e0, e1 : 32e1 = 31 +
    /// 31a + 31e0` is the universe). One budget of [`Budget::DEFAULT_STEPS`]
    /// for all the emptiness and inclusion tests.
    ///
    /// ```
    /// use presburger::Set;
    /// let s: Set = "{ [a] : exists e0, e1 : 32e1 = 31 + 31a + 31e0 }".parse()?;
    /// assert_eq!(s.simplify_full()?.to_string(), "{ [a] }");
    /// # Ok::<(), presburger::Error>(())
    /// ```
    pub fn simplify_full(&self) -> Result<Set> {
        self.simplify_full_with_budget(&mut Budget::default())
    }

    /// As [`Set::simplify_full`], spending from `budget`.
    pub fn simplify_full_with_budget(&self, budget: &mut Budget) -> Result<Set> {
        self.0.simplify_full(budget).map(Set)
    }
}

// Map and product operations: the algorithms are in `src/ops/maps.rs`.
impl Set {
    /// The set with `n` new unconstrained dimensions inserted before position
    /// `pos` (`kind` is `DimKind::SET`, that is `DimKind::Out`; isl's
    /// `isl_set_insert_dims`). As in isl, the tuple loses its name and
    /// nesting, even when `n` is 0 (its dimensions keep their names, the new
    /// ones have none).
    ///
    /// Errors ([`Error::Invalid`]): `pos` beyond the number of dimensions
    /// (isl accepts any `pos` when `n` is 0; here it must be in range
    /// always); `DimKind::In` (a set has no input tuple); `DimKind::Param`,
    /// because parameters are identified by name here (use
    /// [`Set::insert_params`]); and `DimKind::Local`.
    ///
    /// ```
    /// use presburger::{DimKind, Set};
    /// let s: Set = "{ S[i, j] : 0 <= i < j <= 3 }".parse()?;
    /// let t = s.insert_dims(DimKind::SET, 1, 1)?;
    /// assert!(t.is_equal(&"{ [i, k, j] : 0 <= i < j <= 3 }".parse()?)?);
    /// assert!(s.insert_dims(DimKind::SET, 3, 1).is_err());
    /// assert!(s.insert_dims(DimKind::Param, 0, 1).is_err());
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_set_insert_dims")]
    pub fn insert_dims(&self, kind: DimKind, pos: usize, n: usize) -> Result<Set> {
        self.insert_dims_impl(kind, pos, n)
    }

    /// The set with new unconstrained parameters `names` inserted before
    /// position `pos`, as [`Map::insert_params`] (isl's
    /// `isl_set_insert_dims` with `isl_dim_param`, then the names).
    ///
    /// ```
    /// use presburger::Set;
    /// let s: Set = "[N] -> { S[i] : 0 <= i < N }".parse()?;
    /// let t = s.insert_params(1, &["M"])?;
    /// assert_eq!(t.to_string(), "[N, M] -> { S[i] : 0 <= i < N }");
    /// # Ok::<(), presburger::Error>(())
    /// ```
    pub fn insert_params(&self, pos: usize, names: &[&str]) -> Result<Set> {
        self.insert_params_impl(pos, names)
    }

    /// A set of pairs `{ [A[..] -> B[..]] }` as the map `{ A[..] -> B[..] }`.
    pub fn unwrap(&self) -> Result<Map> {
        self.unwrap_impl()
    }

    /// A flat tuple (nesting forgotten, dimension names kept).
    pub fn flatten(&self) -> Set {
        let sp = &self.0.space;
        let space = Space::set(sp.params().to_vec(), sp.range_tuple().flattened());
        Set(self.0.relabel(space))
    }

    /// `A x B` as the set of pairs `{ [A[..] -> B[..]] }` (isl's product of sets).
    pub fn product(&self, other: &Set) -> Result<Set> {
        self.product_impl(other)
    }

    /// The preimage of the set under the map `f`: `{ x : f(x) in self }` (for a
    /// relation: the inputs with some image in the set).
    pub fn preimage(&self, f: &Map) -> Result<Set> {
        f.preimage_of(self)
    }

    /// The image of the set under `m`: `{ y : exists x in self : x -> y in m }`
    /// (isl's `isl_set_apply`; the same as [`Map::apply_to`]).
    ///
    /// ```
    /// use presburger::{Map, Set};
    /// let s: Set = "[N] -> { S[i] : 0 <= i < N }".parse()?;
    /// let m: Map = "{ S[i] -> A[2i] }".parse()?;
    /// let want: Set = "[N] -> { A[a] : 0 <= a < 2N and a mod 2 = 0 }".parse()?;
    /// assert!(s.apply(&m)?.is_equal(&want)?);
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_set_apply")]
    pub fn apply(&self, m: &Map) -> Result<Set> {
        m.apply_to(self)
    }
}

// Exact projection and redundancy removal: the algorithms are in `src/ops/project.rs`.
impl Set {
    /// Exact projection: the `n` variables of `kind` from `pos` are eliminated
    /// where an exact integer elimination exists and stay existentially
    /// quantified otherwise (see the module documentation); the same set as
    /// [`Set::project_out`] (isl's `isl_set_project_out`), with the locals
    /// left by earlier operations eliminated too where that is exact.
    ///
    /// ```
    /// use presburger::{DimKind, Set};
    /// let s: Set = "{ [i, j] : 0 <= i and i + 1 <= j <= 5 }".parse()?;
    /// let p = s.project_out_exact(DimKind::SET, 1, 1)?;
    /// assert_eq!(p.to_string(), "{ [i] : 0 <= i <= 4 }");
    /// // a stride has no exact elimination: it stays an existential
    /// let t: Set = "{ [i, j] : i = 2j }".parse()?;
    /// assert!(t.project_out_exact(DimKind::SET, 1, 1)?.is_equal(&"{ [i] : i mod 2 = 0 }".parse()?)?);
    /// # Ok::<(), presburger::Error>(())
    /// ```
    pub fn project_out_exact(&self, kind: DimKind, pos: usize, n: usize) -> Result<Set> {
        Ok(self.project_out(kind, pos, n)?.eliminate_locals())
    }

    /// The same set with the locals of every conjunction eliminated where
    /// that is exact (see the module documentation). isl has no operation of
    /// this name: its closest, `isl_set_remove_divs`, over-approximates,
    /// while this keeps a local that has no exact elimination.
    ///
    /// ```
    /// use presburger::Set;
    /// let s: Set = "{ [i] : exists e : 0 <= e <= 3 and i = e + 1 }".parse()?;
    /// assert_eq!(s.eliminate_locals().to_string(), "{ [i] : 1 <= i <= 4 }");
    /// # Ok::<(), presburger::Error>(())
    /// ```
    pub fn eliminate_locals(&self) -> Set {
        Set(self.0.with_each(Conjunction::eliminate_locals_exactly))
    }

    /// The same set without the redundant inequalities of each conjunction
    /// (those implied by the others of the conjunction).
    pub fn remove_redundancies(&self) -> Set {
        Set(self.0.with_each(Conjunction::remove_redundancies))
    }
}

// Emptiness, sampling and optimisation (the solver): the algorithms are in `src/solver/solve.rs`.
impl Set {
    /// The set holding one point of `space`: `point` lists the set dimensions, or the
    /// parameters followed by the set dimensions (then the parameters are fixed too).
    pub fn from_point(space: &crate::space::Space, point: &[Int]) -> Result<Set> {
        Self::from_point_impl(space, point)
    }

    /// True when no disjunct has an integer point, for any parameter value
    /// (isl's `isl_set_is_empty`).
    ///
    /// ```
    /// use presburger::Set;
    /// let s: Set = "{ [i] : 0 <= i <= 10 and exists e : i = 4e + 1 and i mod 3 = 2 }".parse()?;
    /// assert!(!s.is_empty()?); // 5
    /// assert!("{ [i] : 2i = 1 or (i > 0 and i < 1) }".parse::<Set>()?.is_empty()?);
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_set_is_empty")]
    pub fn is_empty(&self) -> Result<bool> {
        empty_parts(self.0.parts.iter(), &mut Budget::default())
    }

    /// As [`BasicSet::sample`].
    pub fn sample(&self) -> Result<Option<Vec<Int>>> {
        sample_of_parts(self.0.parts.iter(), &mut Budget::default())
    }

    /// As [`BasicSet::contains`].
    pub fn contains(&self, point: &[Int]) -> Result<bool> {
        self.contains_impl(point)
    }

    /// As [`BasicSet::lexmin`], over all disjuncts: the lexicographically
    /// smallest point of a set without parameters (isl's `isl_set_lexmin`
    /// gives it as a one-point set); `Error::Unsupported` with parameters.
    ///
    /// ```
    /// use presburger::{Int, Set};
    /// let s: Set = "{ [i, j] : 0 <= i, j <= 3 and (i + j = 4 or i = j + 3) }".parse()?;
    /// assert_eq!(s.lexmin()?, Some(vec![Int::from(1), Int::from(3)]));
    /// assert_eq!("{ [i] : 1 = 0 }".parse::<Set>()?.lexmin()?, None);
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_set_lexmin")]
    pub fn lexmin(&self) -> Result<Option<Vec<Int>>> {
        self.lexmin_impl()
    }

    /// The lexicographically smallest point for every parameter value, as a
    /// set (isl's `isl_set_lexmin`, parameters allowed): for each parameter
    /// value where the set is not empty, the one point that is its lexicographic
    /// minimum, given piecewise by quasi-affine expressions of the parameters.
    /// [`Error::Unbounded`] when for some parameter value there is no smallest
    /// point. Parametric integer programming (Feautrier, 1988), see
    /// `src/solver/pip.rs`. Unlike [`Set::lexmin`], which gives one point of a
    /// set without parameters.
    ///
    /// ```
    /// use presburger::Set;
    /// let s: Set = "[N] -> { [i] : 3i >= N and i <= 10 }".parse()?;
    /// let want: Set = "[N] -> { [i] : N <= 30 and N <= 3i <= N + 2 }".parse()?;
    /// assert!(s.lexmin_set()?.is_equal(&want)?);
    /// let down: Set = "[N] -> { [i] : i <= N }".parse()?;
    /// assert!(matches!(down.lexmin_set(), Err(presburger::Error::Unbounded(_))));
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_set_lexmin")]
    #[doc(alias = "parametric_lexmin")]
    pub fn lexmin_set(&self) -> Result<Set> {
        self.lexmin_set_with_budget(&mut Budget::default())
    }

    /// As [`Set::lexmin_set`], spending from `budget`.
    pub fn lexmin_set_with_budget(&self, budget: &mut Budget) -> Result<Set> {
        self.lexopt_set_impl(false, budget)
    }

    /// The lexicographically largest point for every parameter value, as a set
    /// (isl's `isl_set_lexmax`), as [`Set::lexmin_set`].
    ///
    /// ```
    /// use presburger::Set;
    /// let s: Set = "[N, M] -> { [i, j] : 0 <= i <= N and 0 <= j <= M - i }".parse()?;
    /// let want: Set = "[N, M] -> { [i, j] : 0 <= N <= M and i = N and j = M - N; \
    ///     [i, j] : 0 <= M < N and i = M and j = 0 }".parse()?;
    /// assert!(s.lexmax_set()?.is_equal(&want)?);
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_set_lexmax")]
    #[doc(alias = "parametric_lexmax")]
    pub fn lexmax_set(&self) -> Result<Set> {
        self.lexmax_set_with_budget(&mut Budget::default())
    }

    /// As [`Set::lexmax_set`], spending from `budget`.
    pub fn lexmax_set_with_budget(&self, budget: &mut Budget) -> Result<Set> {
        self.lexopt_set_impl(true, budget)
    }

    /// The lexicographic minimum as a function of the parameters (isl's
    /// `isl_set_lexmin_pw_multi_aff`): a [`PwMultiAff`] defined on the
    /// parameter values where the set is not empty, giving its smallest
    /// point there; pieces with equal expressions are merged.
    /// [`Error::Unbounded`] when for some parameter value there is no
    /// smallest point. Parametric integer programming (Feautrier, 1988).
    ///
    /// ```
    /// use presburger::Set;
    /// let s: Set = "[N] -> { [i, j] : i >= 0 and i >= N and 0 <= j <= 2 }".parse()?;
    /// assert_eq!(
    ///     s.lexmin_pw_multi_aff()?.to_string(),
    ///     "[N] -> { [(N), (0)] : N >= 0; [(0), (0)] : N <= -1 }"
    /// );
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_set_lexmin_pw_multi_aff")]
    pub fn lexmin_pw_multi_aff(&self) -> Result<PwMultiAff> {
        Ok(self.lexopt_function_impl(false, &mut Budget::default())?.0)
    }

    /// The lexicographic maximum as a function of the parameters (isl's
    /// `isl_set_lexmax_pw_multi_aff`), as [`Set::lexmin_pw_multi_aff`].
    #[doc(alias = "isl_set_lexmax_pw_multi_aff")]
    pub fn lexmax_pw_multi_aff(&self) -> Result<PwMultiAff> {
        Ok(self.lexopt_function_impl(true, &mut Budget::default())?.0)
    }

    /// [`Set::lexmin_pw_multi_aff`] together with the parameter values where
    /// the set is empty (isl's `isl_set_partial_lexmin_pw_multi_aff` with its
    /// `empty` result), spending from `budget`; the lexicographic maximum
    /// when `maximize`.
    ///
    /// ```
    /// use presburger::{Budget, Set};
    /// let s: Set = "[N] -> { [i] : 0 <= i <= N }".parse()?;
    /// let (f, empty) = s.partial_lexopt(false, &mut Budget::default())?;
    /// assert_eq!(f.to_string(), "[N] -> { [(0)] : N >= 0 }");
    /// assert_eq!(empty.to_string(), "[N] -> { : N <= -1 }");
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_set_partial_lexmin_pw_multi_aff")]
    #[doc(alias = "isl_set_partial_lexmax_pw_multi_aff")]
    pub fn partial_lexopt(&self, maximize: bool, budget: &mut Budget) -> Result<(PwMultiAff, Set)> {
        self.lexopt_function_impl(maximize, budget)
    }

    /// The smallest value of dimension `pos` as a function of the parameters
    /// (isl's `isl_set_dim_min`): a [`PwAff`] defined where the set is not
    /// empty. [`Error::Unbounded`] when for some parameter value the
    /// dimension has no minimum.
    ///
    /// ```
    /// use presburger::Set;
    /// let s: Set = "[N, M] -> { [i, j] : 0 <= i <= N and i <= M and j = 2i }".parse()?;
    /// assert_eq!(
    ///     s.dim_max(1)?.to_string(),
    ///     "[N, M] -> { [(2M)] : 0 <= M <= N; [(2N)] : M > N and N >= 0 }"
    /// );
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_set_dim_min")]
    pub fn dim_min(&self, pos: usize) -> Result<PwAff> {
        self.dim_opt_pw(pos, false, &mut Budget::default())
    }

    /// The largest value of dimension `pos` as a function of the parameters
    /// (isl's `isl_set_dim_max`), as [`Set::dim_min`].
    #[doc(alias = "isl_set_dim_max")]
    pub fn dim_max(&self, pos: usize) -> Result<PwAff> {
        self.dim_opt_pw(pos, true, &mut Budget::default())
    }

    /// The smallest value of dimension `pos` as one affine expression
    /// `row·(1, params)`; `None` for an empty set. `Error::Unbounded` when
    /// there is no minimum, `Error::Unsupported` when it is not one affine
    /// expression of the parameters (then [`Set::dim_min`] gives it
    /// piecewise).
    ///
    /// ```
    /// use presburger::{Int, Set};
    /// let s: Set = "[N] -> { [i, j] : 0 <= i < N and 0 <= j <= i }".parse()?;
    /// assert_eq!(s.dim_max_affine(1)?, Some(vec![Int::from(-1), Int::from(1)])); // N - 1
    /// # Ok::<(), presburger::Error>(())
    /// ```
    pub fn dim_min_affine(&self, pos: usize) -> Result<Option<Row>> {
        self.dim_opt(pos, false, &mut algebra_budget())
    }

    /// The largest value of dimension `pos` as one affine expression, as
    /// [`Set::dim_min_affine`].
    pub fn dim_max_affine(&self, pos: usize) -> Result<Option<Row>> {
        self.dim_opt(pos, true, &mut algebra_budget())
    }

    /// As [`Set::dim_min`], spending from `budget`.
    pub fn dim_min_with_budget(&self, pos: usize, budget: &mut Budget) -> Result<PwAff> {
        self.dim_opt_pw(pos, false, budget)
    }

    /// As [`Set::dim_max`], spending from `budget`.
    pub fn dim_max_with_budget(&self, pos: usize, budget: &mut Budget) -> Result<PwAff> {
        self.dim_opt_pw(pos, true, budget)
    }

    /// The integer minimum of the affine expression `obj` (defined on the
    /// set's space) over the set, as a function of the parameters: a
    /// [`PwAff`] defined where the set is not empty (isl's
    /// `isl_set_min_val` with parameters allowed). [`Error::Unbounded`]
    /// when for some parameter value there is no minimum.
    ///
    /// ```
    /// use presburger::{Aff, Set};
    /// let s: Set = "[N] -> { [i, j] : 0 <= i <= N and 0 <= j <= i }".parse()?;
    /// let obj: Aff = "[N] -> { [i, j] -> [(i - 2j)] }".parse()?;
    /// assert_eq!(s.min_aff(&obj)?.to_string(), "[N] -> { [(-N)] : N >= 0 }");
    /// # Ok::<(), presburger::Error>(())
    /// ```
    pub fn min_aff(&self, obj: &Aff) -> Result<PwAff> {
        self.aff_opt_pw(obj, false, &mut Budget::default())
    }

    /// The integer maximum of `obj` over the set, as [`Set::min_aff`].
    pub fn max_aff(&self, obj: &Aff) -> Result<PwAff> {
        self.aff_opt_pw(obj, true, &mut Budget::default())
    }

    /// As [`BasicSet::lexmax`], over all disjuncts (isl's `isl_set_lexmax`),
    /// as [`Set::lexmin`].
    #[doc(alias = "isl_set_lexmax")]
    pub fn lexmax(&self) -> Result<Option<Vec<Int>>> {
        self.lexmax_impl()
    }

    /// As [`BasicSet::min`], over all disjuncts.
    pub fn min(&self, aff: &[Int]) -> Result<Option<Int>> {
        opt_over(self.0.parts.iter(), aff, false, &mut Budget::default())
    }

    /// As [`BasicSet::max`], over all disjuncts.
    pub fn max(&self, aff: &[Int]) -> Result<Option<Int>> {
        opt_over(self.0.parts.iter(), aff, true, &mut Budget::default())
    }
}
