//! `UnionMap`: the type and every public method of it.

use super::*;

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
        let mut r = UnionMap::empty(merged_params(&self.params, &set.params));
        for m in &self.maps {
            let Some(dom) = m.0.space.domain_space() else {
                continue;
            };
            if let Some(s) = set.member_like(&dom) {
                r.add(m.intersect_domain(s)?)?;
            }
        }
        Ok(r)
    }

    /// Each map with its range restricted to the member of `set` in its range space.
    pub fn intersect_range(&self, set: &UnionSet) -> Result<UnionMap> {
        let mut r = UnionMap::empty(merged_params(&self.params, &set.params));
        for m in &self.maps {
            if let Some(s) = set.member_like(&m.0.space.range_space()) {
                r.add(m.intersect_range(s)?)?;
            }
        }
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
        let mut r = UnionMap::empty(merged_params(&self.params, &next.params));
        for a in &self.maps {
            for b in &next.maps {
                let (ar, bd) = (a.0.space.range_tuple(), b.0.space.domain_tuple());
                if bd.is_some_and(|bd| bd.same_shape(ar)) {
                    r.add(a.apply_range(b)?)?;
                }
            }
        }
        Ok(r)
    }
}
