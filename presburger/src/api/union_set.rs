//! `UnionSet`: the type and every public method of it.

use super::*;

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
