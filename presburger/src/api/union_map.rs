//! `UnionMap`: the type and every public method of it.

use super::*;
use crate::algebra::{
    algebra_budget, union_is_disjoint, union_is_equal, union_is_subset, union_subtract,
};
use crate::solver::budget::Budget;
use std::collections::HashMap;

/// A union of maps in different spaces (one `Map` per pair of tuples), as
/// isl's `isl_union_map`.
///
/// ```
/// use presburger::UnionMap;
/// let dep: UnionMap = "[N] -> { S0[i] -> S1[i + 1] : 0 <= i < N - 1 }".parse()?;
/// let sched: UnionMap = "{ S0[i] -> [i, 0]; S1[i] -> [i, 1] }".parse()?;
/// // the dependence in time: the schedule of the source to that of the target
/// let in_time = sched.reverse().apply_range(&dep)?.apply_range(&sched)?;
/// assert!(in_time.is_equal(&"[N] -> { [t, 0] -> [t + 1, 1] : 0 <= t < N - 1 }".parse()?)?);
/// # Ok::<(), presburger::Error>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct UnionMap {
    pub(crate) params: Vec<String>,
    pub(crate) maps: Vec<Map>,
}

impl UnionMap {
    /// The empty union map over the parameters `params` (isl's
    /// `isl_union_map_empty`).
    pub fn empty(params: Vec<String>) -> UnionMap {
        UnionMap::from_parts(params, Vec::new())
    }

    /// The parameters shared by all members.
    pub fn params(&self) -> &[String] {
        &self.params
    }

    /// The members, one Map per space.
    pub fn members(&self) -> &[Map] {
        &self.maps
    }

    /// Adds the map `m` in place: its points join the member of its space
    /// (a new member when there is none), the parameters merged by name
    /// (isl's `isl_union_map_add_map`).
    #[doc(alias = "isl_union_map_add_map")]
    pub fn add(&mut self, m: Map) -> Result<()> {
        across::add(self, m)
    }

    /// Adds each map of `ms` in turn, as [`UnionMap::add`] does (the same
    /// result), finding the members of their spaces by hashing their tuples:
    /// the cost grows with the number of members, not with its square.
    pub fn add_all(&mut self, ms: impl IntoIterator<Item = Map>) -> Result<()> {
        across::add_all(self, ms)
    }

    /// The points in either, space by space (isl's `isl_union_map_union`).
    pub fn union(&self, other: &UnionMap) -> Result<UnionMap> {
        across::union(self, other)
    }

    /// Intersection, space by space (isl's `isl_union_map_intersect`): members
    /// without a partner in the other union vanish; when one side is a
    /// parameter set (its one member has no dimensions, `[n] -> { : n > 0 }`),
    /// it restricts the parameters of every member of the other, as in isl.
    ///
    /// ```
    /// use presburger::UnionMap;
    /// let m: UnionMap = "{ A[i] -> B[i + 1]; B[i] -> C[i] }".parse()?;
    /// let n: UnionMap = "{ A[i] -> B[j] : i >= 0 }".parse()?;
    /// assert!(m.intersect(&n)?.is_equal(&"{ A[i] -> B[i + 1] : i >= 0 }".parse()?)?);
    /// # Ok::<(), presburger::Error>(())
    /// ```
    pub fn intersect(&self, other: &UnionMap) -> Result<UnionMap> {
        across::intersect(self, other)
    }

    /// The member in the tuples of `space` (its parameters do not matter),
    /// if any.
    pub fn member_like(&self, space: &Space) -> Option<&Map> {
        across::member_like(self, space)
    }

    /// True when no member has a conjunction left after structural
    /// simplification (no solver involved: `false` does not prove the union
    /// non-empty; see [`UnionMap::is_empty`]).
    pub fn plain_is_empty(&self) -> bool {
        across::plain_is_empty(self)
    }

    /// Structural equality after simplification, member by member (`false`
    /// does not prove the unions differ; see [`UnionMap::is_equal`]).
    pub fn plain_is_equal(&self, other: &UnionMap) -> bool {
        across::plain_is_equal(self, other)
    }
}

impl From<Map> for UnionMap {
    fn from(m: Map) -> UnionMap {
        UnionMap {
            params: m.0.space.params().to_vec(),
            maps: vec![m],
        }
    }
}

impl UnionMap {
    /// The union of the domains.
    pub fn domain(&self) -> Result<UnionSet> {
        let mut r = UnionSet::empty(self.params.clone());
        for m in &self.maps {
            r.add(m.domain())?;
        }
        Ok(r)
    }

    /// The union of the ranges.
    pub fn range(&self) -> Result<UnionSet> {
        let mut r = UnionSet::empty(self.params.clone());
        for m in &self.maps {
            r.add(m.range())?;
        }
        Ok(r)
    }

    /// Every member reversed.
    pub fn reverse(&self) -> UnionMap {
        UnionMap {
            params: self.params.clone(),
            maps: self.maps.iter().map(Map::reverse).collect(),
        }
    }

    /// The image of a union set: each map applied to the member of its domain
    /// space (isl's `isl_union_set_apply(set, map)`).
    ///
    /// ```
    /// use presburger::{UnionMap, UnionSet};
    /// let m: UnionMap = "{ S[i] -> A[i]; T[i] -> A[i + 10]; U[i] -> B[i] }".parse()?;
    /// let s: UnionSet = "{ S[i] : 0 <= i <= 1; T[0] }".parse()?;
    /// assert!(m.apply_to(&s)?.is_equal(&"{ A[a] : 0 <= a <= 1 or a = 10 }".parse()?)?);
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_union_set_apply")]
    pub fn apply_to(&self, set: &UnionSet) -> Result<UnionSet> {
        self.intersect_domain(set)?.range()
    }

    /// Each map with its parameters restricted by the parameter sets of
    /// `params` (its members without dimensions, `[n] -> { : n > 0 }`); the
    /// other members of `params` are ignored.
    pub fn intersect_params(&self, params: &UnionSet) -> Result<UnionMap> {
        let mut r = self.clone();
        for p in params.sets.iter().filter(|p| p.0.is_params()) {
            let mut next = UnionMap::empty(merged_params(&r.params, p.0.space.params()));
            for m in &r.maps {
                next.add(Map(m.0.intersect_params(&p.0)?))?;
            }
            r = next;
        }
        Ok(r)
    }

    /// Each map with its domain restricted to the member of `set` in its domain
    /// space (maps without one vanish).
    pub fn intersect_domain(&self, set: &UnionSet) -> Result<UnionMap> {
        let at = across::Index::new(set);
        let mut out = Vec::new();
        for m in &self.maps {
            let Some(dom) = m.0.space.domain_space() else {
                continue;
            };
            if let Some(s) = at.member(&dom) {
                out.push(m.intersect_domain(s)?);
            }
        }
        let mut r = UnionMap::empty(merged_params(&self.params, &set.params));
        r.add_all(out)?;
        Ok(r)
    }

    /// Each map with its range restricted to the member of `set` in its range space.
    pub fn intersect_range(&self, set: &UnionSet) -> Result<UnionMap> {
        let at = across::Index::new(set);
        let mut out = Vec::new();
        for m in &self.maps {
            if let Some(s) = at.member(&m.0.space.range_space()) {
                out.push(m.intersect_range(s)?);
            }
        }
        let mut r = UnionMap::empty(merged_params(&self.params, &set.params));
        r.add_all(out)?;
        Ok(r)
    }

    /// Composition: each pair of members whose middle spaces match (isl's
    /// `isl_union_map_apply_range`).
    ///
    /// ```
    /// use presburger::UnionMap;
    /// let m: UnionMap = "{ A[i] -> B[i + 1]; B[i] -> C[i] }".parse()?;
    /// let want: UnionMap = "{ A[i] -> C[i + 1] }".parse()?;
    /// assert!(m.apply_range(&m)?.is_equal(&want)?);
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_union_map_apply_range")]
    pub fn apply_range(&self, next: &UnionMap) -> Result<UnionMap> {
        // the members of `next` by the shape of their domain tuple (equal
        // shapes give equal keys; each candidate is checked)
        let mut by_domain: HashMap<String, Vec<&Map>> = HashMap::new();
        for b in &next.maps {
            if let Some(bd) = b.0.space.domain_tuple() {
                by_domain.entry(bd.shape_key()).or_default().push(b);
            }
        }
        let mut out = Vec::new();
        for a in &self.maps {
            let ar = a.0.space.range_tuple();
            for b in by_domain.get(&ar.shape_key()).into_iter().flatten() {
                if b.0.space.domain_tuple().is_some_and(|bd| bd.same_shape(ar)) {
                    out.push(a.apply_range(b)?);
                }
            }
        }
        let mut r = UnionMap::empty(merged_params(&self.params, &next.params));
        r.add_all(out)?;
        Ok(r)
    }
}

// Set algebra (subtraction, complement, comparisons, coalescing): the algorithms are in `src/ops/algebra.rs`.
impl UnionMap {
    /// Subtraction, space by space (isl's `isl_union_map_subtract`): each member
    /// minus the member of `other` in its space, if any. One budget of
    /// [`ALGEBRA_DEFAULT_STEPS`](crate::ALGEBRA_DEFAULT_STEPS) for the whole.
    #[doc(alias = "isl_union_map_subtract")]
    pub fn subtract(&self, other: &UnionMap) -> Result<UnionMap> {
        self.subtract_with_budget(other, &mut algebra_budget())
    }

    /// As [`UnionMap::subtract`], spending from `budget`.
    pub fn subtract_with_budget(&self, other: &UnionMap, budget: &mut Budget) -> Result<UnionMap> {
        union_subtract(self, other, budget)
    }

    /// True when every member of `self` is inside the member of `other` in
    /// its space (or empty when there is none; isl's `isl_union_map_is_subset`).
    #[doc(alias = "isl_union_map_is_subset")]
    pub fn is_subset(&self, other: &UnionMap) -> Result<bool> {
        self.is_subset_with_budget(other, &mut algebra_budget())
    }

    /// As [`UnionMap::is_subset`], spending from `budget`.
    pub fn is_subset_with_budget(&self, other: &UnionMap, budget: &mut Budget) -> Result<bool> {
        union_is_subset(self, other, budget)
    }

    /// True when both have the same points in every space (isl's
    /// `isl_union_map_is_equal`).
    #[doc(alias = "isl_union_map_is_equal")]
    pub fn is_equal(&self, other: &UnionMap) -> Result<bool> {
        self.is_equal_with_budget(other, &mut algebra_budget())
    }

    /// As [`UnionMap::is_equal`], spending from `budget`: space by space, a member
    /// without a counterpart must be empty.
    pub fn is_equal_with_budget(&self, other: &UnionMap, budget: &mut Budget) -> Result<bool> {
        union_is_equal(self, other, budget)
    }

    /// True when no point is in both (isl's `isl_union_map_is_disjoint`).
    #[doc(alias = "isl_union_map_is_disjoint")]
    pub fn is_disjoint(&self, other: &UnionMap) -> Result<bool> {
        self.is_disjoint_with_budget(other, &mut algebra_budget())
    }

    /// As [`UnionMap::is_disjoint`], spending from `budget`.
    pub fn is_disjoint_with_budget(&self, other: &UnionMap, budget: &mut Budget) -> Result<bool> {
        union_is_disjoint(self, other, budget)
    }

    /// Every member coalesced (isl's `isl_union_map_coalesce`), with one budget
    /// for the whole.
    #[doc(alias = "isl_union_map_coalesce")]
    pub fn coalesce(&self) -> Result<UnionMap> {
        self.coalesce_with_budget(&mut algebra_budget())
    }

    /// As [`UnionMap::coalesce`], spending from `budget`.
    pub fn coalesce_with_budget(&self, budget: &mut Budget) -> Result<UnionMap> {
        across::collect(self, self, |d| d.coalesce_in(budget).map(Some))
    }

    /// Every member coalesced by the fuse case alone (see
    /// [`Set::coalesce_fuse_only`](crate::Set::coalesce_fuse_only)): each
    /// constraint of the result is one of the input. For relations that feed
    /// further algebra: the stronger merges of [`UnionMap::coalesce`] write
    /// wrapped and relaxed constraints, on which a later subtraction can cost
    /// far more (the dependence analysis of `schedule` uses this).
    pub fn coalesce_fuse_only(&self) -> Result<UnionMap> {
        let mut budget = algebra_budget();
        across::collect(self, self, |d| d.coalesce_fuse_in(&mut budget).map(Some))
    }
}

// Operations on unions: the algorithms are in `src/ops/unions.rs`.
impl UnionMap {
    /// The lexicographic minimum of the image of every input, member by
    /// member (isl's `isl_union_map_lexmin`; see [`Map::lexmin`]).
    ///
    /// ```
    /// use presburger::UnionMap;
    /// let u: UnionMap = "[N] -> { A[i] -> B[j] : i <= j <= N; C[] -> D[k] : k >= 3 }".parse()?;
    /// let want: UnionMap = "[N] -> { A[i] -> B[i] : i <= N; C[] -> D[3] }".parse()?;
    /// assert!(u.lexmin()?.is_equal(&want)?);
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_union_map_lexmin")]
    pub fn lexmin(&self) -> Result<UnionMap> {
        self.lexopt_members(false)
    }

    /// The lexicographic maximum of the image of every input, member by
    /// member (isl's `isl_union_map_lexmax`), as [`UnionMap::lexmin`].
    #[doc(alias = "isl_union_map_lexmax")]
    pub fn lexmax(&self) -> Result<UnionMap> {
        self.lexopt_members(true)
    }

    /// The complement of each member within its own space.
    pub fn complement(&self) -> Result<UnionMap> {
        self.complement_impl()
    }

    /// Each map simplified against the context of its space (isl's
    /// `isl_union_map_gist`), as [`UnionSet::gist`]: maps with no context
    /// in their space are dropped.
    #[doc(alias = "isl_union_map_gist")]
    pub fn gist(&self, context: &UnionMap) -> Result<UnionMap> {
        self.gist_impl(context)
    }

    /// Each map restricted by a parameter set (`[n] -> { : n > 0 }`) and
    /// simplified against it (isl's `isl_union_map_gist_params`).
    #[doc(alias = "isl_union_map_gist_params")]
    pub fn gist_params(&self, params: &Set) -> Result<UnionMap> {
        self.gist_params_impl(params)
    }

    /// `{ y - x : x -> y }` of each map whose domain and range are the same
    /// space (isl's `isl_union_map_deltas`; other maps are left out), in that
    /// space.
    ///
    /// ```
    /// use presburger::UnionMap;
    /// let m: UnionMap = "{ S[i, j] -> S[i + 1, j - 1]; S[i, j] -> T[i] }".parse()?;
    /// let want: presburger::UnionSet = "{ S[1, -1] }".parse()?;
    /// assert!(m.deltas()?.is_equal(&want)?);
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_union_map_deltas")]
    pub fn deltas(&self) -> Result<UnionSet> {
        self.deltas_impl()
    }

    /// `{ [A -> B] -> A }` of every member (isl's
    /// `isl_union_map_domain_map`): each pair of each map, wrapped, to its
    /// input; see [`Map::domain_map`].
    ///
    /// ```
    /// use presburger::UnionMap;
    /// let m: UnionMap = "{ S[i] -> A[i + 1]; T[i, j] -> A[j] : i < j }".parse()?;
    /// let want: UnionMap =
    ///     "{ [S[i] -> A[a]] -> S[i] : a = i + 1; [T[i, j] -> A[a]] -> T[i, j] : a = j and j > i }"
    ///         .parse()?;
    /// assert!(m.domain_map().is_equal(&want)?);
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_union_map_domain_map")]
    pub fn domain_map(&self) -> UnionMap {
        self.domain_map_impl()
    }

    /// `{ [A -> B] -> B }` of every member (isl's
    /// `isl_union_map_range_map`); see [`Map::range_map`].
    ///
    /// ```
    /// use presburger::UnionMap;
    /// let m: UnionMap = "{ S[i] -> A[i + 1]; T[i, j] -> A[j] : i < j }".parse()?;
    /// let want: UnionMap =
    ///     "{ [S[i] -> A[a]] -> A[a] : a = i + 1; [T[i, j] -> A[a]] -> A[a] : a = j and j > i }"
    ///         .parse()?;
    /// assert!(m.range_map().is_equal(&want)?);
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_union_map_range_map")]
    pub fn range_map(&self) -> UnionMap {
        self.range_map_impl()
    }

    /// [`Map::zip`] of every member whose domain and range are both wrapped
    /// pairs (isl's `isl_union_map_zip`); the other members are dropped, as
    /// isl drops them (no error). Members that zip to the same space (their
    /// wrapped tuples differ only by the names that zip drops) are united.
    ///
    /// ```
    /// use presburger::UnionMap;
    /// let m: UnionMap = "{ [A[a] -> B[b]] -> [C[c] -> D[d]] : a = d; S[i] -> T[i] }".parse()?;
    /// let want: UnionMap = "{ [A[a] -> C[c]] -> [B[b] -> D[d]] : a = d }".parse()?;
    /// assert!(m.zip().is_equal(&want)?);
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_union_map_zip")]
    pub fn zip(&self) -> UnionMap {
        self.zip_impl()
    }
}

// Emptiness, sampling and optimisation (the solver): the algorithms are in `src/solver/solve.rs`.
impl UnionMap {
    /// True when every member is empty (isl's `isl_union_map_is_empty`).
    ///
    /// ```
    /// use presburger::UnionMap;
    /// assert!("{ A[i] -> B[i] : 2i = 1; A[i] -> C[] : 1 = 0 }".parse::<UnionMap>()?.is_empty()?);
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_union_map_is_empty")]
    pub fn is_empty(&self) -> Result<bool> {
        self.maps
            .iter()
            .try_fold(true, |acc, m| Ok(acc && m.is_empty()?))
    }
}
