//! `UnionSet`: the type and every public method of it.

use super::*;
use crate::algebra::{
    algebra_budget, union_is_disjoint, union_is_equal, union_is_subset, union_subtract,
};
use crate::solver::budget::Budget;

/// A union of sets in different spaces (one `Set` per space), as isl's
/// `isl_union_set`. All members share one parameter list.
///
/// ```
/// use presburger::{UnionMap, UnionSet};
/// let d: UnionSet = "[N] -> { S0[i] : 0 <= i < N; S1[i, j] : 0 <= j < i < N }".parse()?;
/// let m: UnionMap = "{ S0[i] -> A[i]; S1[i, j] -> A[j] }".parse()?;
/// let touched = m.apply_to(&d)?; // isl_union_set_apply
/// assert!(touched.is_equal(&"[N] -> { A[a] : 0 <= a < N }".parse()?)?);
/// assert_eq!(d.members().len(), 2);
/// # Ok::<(), presburger::Error>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct UnionSet {
    pub(crate) params: Vec<String>,
    pub(crate) sets: Vec<Set>,
}

impl UnionSet {
    /// The empty union set over the parameters `params` (isl's
    /// `isl_union_set_empty`).
    pub fn empty(params: Vec<String>) -> UnionSet {
        UnionSet::from_parts(params, Vec::new())
    }

    /// The parameters shared by all members.
    pub fn params(&self) -> &[String] {
        &self.params
    }

    /// The members, one Set per space.
    pub fn members(&self) -> &[Set] {
        &self.sets
    }

    /// Adds the set `m` in place: its points join the member of its space
    /// (a new member when there is none), the parameters merged by name
    /// (isl's `isl_union_set_add_set`).
    /// ```
    /// use presburger::{Set, UnionSet};
    /// let mut u = UnionSet::empty(vec![]);
    /// u.add("{ A[i] : 0 <= i <= 2 }".parse::<Set>()?)?;
    /// u.add("{ A[i] : 3 <= i <= 5; B[0] }".parse::<UnionSet>()?.members()[0].clone())?;
    /// assert_eq!(u.members().len(), 1);
    /// assert!(u.is_equal(&"{ A[i] : 0 <= i <= 5 }".parse()?)?);
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_union_set_add_set")]
    pub fn add(&mut self, m: Set) -> Result<()> {
        across::add(self, m)
    }

    /// Adds each set of `ms` in turn, as [`UnionSet::add`] does (the same
    /// result), finding the members of their spaces by hashing their tuples:
    /// the cost grows with the number of members, not with its square.
    pub fn add_all(&mut self, ms: impl IntoIterator<Item = Set>) -> Result<()> {
        across::add_all(self, ms)
    }

    /// The points in either, space by space (isl's `isl_union_set_union`).
    ///
    /// ```
    /// use presburger::UnionSet;
    /// let u: UnionSet = "{ A[i] : 0 <= i < 3 }".parse()?;
    /// let v: UnionSet = "{ A[i] : 3 <= i < 5; B[0] }".parse()?;
    /// assert!(u.union(&v)?.is_equal(&"{ A[i] : 0 <= i < 5; B[0] }".parse()?)?);
    /// # Ok::<(), presburger::Error>(())
    /// ```
    pub fn union(&self, other: &UnionSet) -> Result<UnionSet> {
        across::union(self, other)
    }

    /// Intersection, space by space (isl's `isl_union_set_intersect`): members
    /// without a partner in the other union vanish; when one side is a
    /// parameter set (its one member has no dimensions, `[n] -> { : n > 0 }`),
    /// it restricts the parameters of every member of the other, as in isl.
    ///
    /// ```
    /// use presburger::UnionSet;
    /// let u: UnionSet = "{ A[i] : 0 <= i < 3; B[i] : i = 1 }".parse()?;
    /// let v: UnionSet = "{ A[i] : i >= 2; C[i] }".parse()?;
    /// assert!(u.intersect(&v)?.is_equal(&"{ A[2] }".parse()?)?);
    /// let p: UnionSet = "[n] -> { : n > 0 }".parse()?;
    /// let want: UnionSet = "[n] -> { A[i] : 0 <= i < 3 and n > 0; B[1] : n > 0 }".parse()?;
    /// assert!(u.intersect(&p)?.is_equal(&want)?);
    /// # Ok::<(), presburger::Error>(())
    /// ```
    pub fn intersect(&self, other: &UnionSet) -> Result<UnionSet> {
        across::intersect(self, other)
    }

    /// The member in the tuples of `space` (its parameters do not matter),
    /// if any.
    pub fn member_like(&self, space: &Space) -> Option<&Set> {
        across::member_like(self, space)
    }

    /// True when no member has a conjunction left after structural
    /// simplification (no solver involved: `false` does not prove the union
    /// non-empty; see [`UnionSet::is_empty`]).
    pub fn plain_is_empty(&self) -> bool {
        across::plain_is_empty(self)
    }

    /// Structural equality after simplification, member by member (`false`
    /// does not prove the unions differ; see [`UnionSet::is_equal`]).
    pub fn plain_is_equal(&self, other: &UnionSet) -> bool {
        across::plain_is_equal(self, other)
    }
}

impl From<Set> for UnionSet {
    fn from(m: Set) -> UnionSet {
        UnionSet {
            params: m.0.space.params().to_vec(),
            sets: vec![m],
        }
    }
}

// Set algebra (subtraction, complement, comparisons, coalescing): the algorithms are in `src/ops/algebra.rs`.
impl UnionSet {
    /// Subtraction, space by space (isl's `isl_union_set_subtract`): each member
    /// minus the member of `other` in its space, if any. One budget of
    /// [`ALGEBRA_DEFAULT_STEPS`](crate::ALGEBRA_DEFAULT_STEPS) for the whole.
    ///
    /// ```
    /// use presburger::UnionSet;
    /// let u: UnionSet = "{ A[i] : 0 <= i <= 5; B[i] : i = 1 }".parse()?;
    /// let v: UnionSet = "{ A[i] : i >= 2; C[i] }".parse()?;
    /// assert!(u.subtract(&v)?.is_equal(&"{ A[i] : 0 <= i <= 1; B[1] }".parse()?)?);
    /// assert!(u.is_subset(&"{ A[i] : i >= 0; B[i] }".parse()?)?);
    /// assert!(u.is_disjoint(&"{ A[i] : i > 5; C[0] }".parse()?)?);
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_union_set_subtract")]
    pub fn subtract(&self, other: &UnionSet) -> Result<UnionSet> {
        self.subtract_with_budget(other, &mut algebra_budget())
    }

    /// As [`UnionSet::subtract`], spending from `budget`.
    pub fn subtract_with_budget(&self, other: &UnionSet, budget: &mut Budget) -> Result<UnionSet> {
        union_subtract(self, other, budget)
    }

    /// True when every member of `self` is inside the member of `other` in
    /// its space (or empty when there is none; isl's `isl_union_set_is_subset`).
    #[doc(alias = "isl_union_set_is_subset")]
    pub fn is_subset(&self, other: &UnionSet) -> Result<bool> {
        self.is_subset_with_budget(other, &mut algebra_budget())
    }

    /// As [`UnionSet::is_subset`], spending from `budget`.
    pub fn is_subset_with_budget(&self, other: &UnionSet, budget: &mut Budget) -> Result<bool> {
        union_is_subset(self, other, budget)
    }

    /// True when both have the same points in every space (isl's
    /// `isl_union_set_is_equal`).
    #[doc(alias = "isl_union_set_is_equal")]
    pub fn is_equal(&self, other: &UnionSet) -> Result<bool> {
        self.is_equal_with_budget(other, &mut algebra_budget())
    }

    /// As [`UnionSet::is_equal`], spending from `budget`: space by space, a member
    /// without a counterpart must be empty.
    pub fn is_equal_with_budget(&self, other: &UnionSet, budget: &mut Budget) -> Result<bool> {
        union_is_equal(self, other, budget)
    }

    /// True when no point is in both (isl's `isl_union_set_is_disjoint`).
    #[doc(alias = "isl_union_set_is_disjoint")]
    pub fn is_disjoint(&self, other: &UnionSet) -> Result<bool> {
        self.is_disjoint_with_budget(other, &mut algebra_budget())
    }

    /// As [`UnionSet::is_disjoint`], spending from `budget`.
    pub fn is_disjoint_with_budget(&self, other: &UnionSet, budget: &mut Budget) -> Result<bool> {
        union_is_disjoint(self, other, budget)
    }

    /// Every member coalesced (isl's `isl_union_set_coalesce`), with one budget
    /// for the whole.
    #[doc(alias = "isl_union_set_coalesce")]
    pub fn coalesce(&self) -> Result<UnionSet> {
        self.coalesce_with_budget(&mut algebra_budget())
    }

    /// As [`UnionSet::coalesce`], spending from `budget`.
    pub fn coalesce_with_budget(&self, budget: &mut Budget) -> Result<UnionSet> {
        across::collect(self, self, |d| d.coalesce_in(budget).map(Some))
    }
}

// Operations on unions: the algorithms are in `src/ops/unions.rs`.
impl UnionSet {
    /// The lexicographic minimum of each member (isl's
    /// `isl_union_set_lexmin`): a one-point set for a member without
    /// parameters, and for a member with parameters its minimum for every
    /// parameter value where it is not empty ([`Set::lexmin_set`]); empty
    /// members give nothing. `Unbounded` when a member has no minimum.
    ///
    /// ```
    /// use presburger::UnionSet;
    /// let u: UnionSet = "{ A[i] : 2 <= i <= 5; B[i, j] : 0 <= j <= i <= 3 and i + j >= 2 }".parse()?;
    /// let want: UnionSet = "{ A[2]; B[1, 1] }".parse()?;
    /// assert!(u.lexmin()?.is_equal(&want)?);
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_union_set_lexmin")]
    pub fn lexmin(&self) -> Result<UnionSet> {
        self.lexopt_members(false)
    }

    /// The lexicographic maximum of each member (isl's
    /// `isl_union_set_lexmax`), as [`UnionSet::lexmin`].
    ///
    /// ```
    /// use presburger::UnionSet;
    /// let u: UnionSet = "{ A[i] : 2 <= i <= 5; B[i, j] : 0 <= j <= i <= 3 }".parse()?;
    /// assert!(u.lexmax()?.is_equal(&"{ A[5]; B[3, 3] }".parse()?)?);
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_union_set_lexmax")]
    pub fn lexmax(&self) -> Result<UnionSet> {
        self.lexopt_members(true)
    }

    /// A point of the union, as a one-point set in its member's space, or
    /// `None` when every member is empty (isl's
    /// `isl_union_set_sample_point`). Members are tried in order.
    #[doc(alias = "isl_union_set_sample_point")]
    pub fn sample(&self) -> Result<Option<Set>> {
        self.sample_impl()
    }

    /// The complement of each member within its own space.
    pub fn complement(&self) -> Result<UnionSet> {
        self.complement_impl()
    }

    /// Each member simplified against the context of its space (isl's
    /// `isl_union_set_gist`): the member of `context` in the same space, or,
    /// when `context` is a parameter set (`[n] -> { : n > 0 }`), that set for
    /// every member. A member with no context in its space is dropped, as
    /// isl does.
    ///
    /// ```
    /// use presburger::UnionSet;
    /// let u: UnionSet = "[n] -> { A[i] : 0 <= i < n; B[i] : i >= 0 }".parse()?;
    /// let ctx: UnionSet = "[n] -> { A[i] : i >= 0 }".parse()?;
    /// let want: UnionSet = "[n] -> { A[i] : i < n }".parse()?;
    /// assert!(u.gist(&ctx)?.is_equal(&want)?);
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_union_set_gist")]
    pub fn gist(&self, context: &UnionSet) -> Result<UnionSet> {
        self.gist_impl(context)
    }
}

// Emptiness, sampling and optimisation (the solver): the algorithms are in `src/solver/solve.rs`.
impl UnionSet {
    /// True when every member is empty (isl's `isl_union_set_is_empty`).
    ///
    /// ```
    /// use presburger::UnionSet;
    /// assert!("{ A[i] : 2i = 1; B[i, j] : i > j > i }".parse::<UnionSet>()?.is_empty()?);
    /// assert!(!"{ A[i] : 2i = 1; B[] }".parse::<UnionSet>()?.is_empty()?);
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_union_set_is_empty")]
    pub fn is_empty(&self) -> Result<bool> {
        self.sets
            .iter()
            .try_fold(true, |acc, s| Ok(acc && s.is_empty()?))
    }
}
