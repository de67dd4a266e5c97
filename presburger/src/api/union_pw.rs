//! `UnionPwMultiAff` and `UnionPwAff`: piecewise functions across domain
//! spaces (isl's `isl_union_pw_multi_aff` and `isl_union_pw_aff`), the types
//! and every public method of them.

use super::*;
use crate::lp::Rational;

/// Piecewise functions on different domain spaces, at most one per domain
/// tuple (isl's `isl_union_pw_multi_aff`). All members share one parameter
/// list.
///
/// ```
/// use presburger::{Int, UnionPwMultiAff};
/// let f: UnionPwMultiAff = "[N] -> { A[i] -> [(N + i)] : i > 0; B[j] -> [(j), (0)] }".parse()?;
/// assert_eq!(f.members().len(), 2);
/// assert_eq!(f.to_string(), "[N] -> { A[i] -> [(N + i)] : i >= 1; B[j] -> [(j), (0)] }");
/// let m = f.as_union_map()?; // isl_union_map_from_union_pw_multi_aff
/// assert_eq!(m.members().len(), 2);
/// # Ok::<(), presburger::Error>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct UnionPwMultiAff {
    pub(crate) params: Vec<String>,
    pub(crate) members: Vec<PwMultiAff>,
}

/// Piecewise expressions on different domain spaces, at most one per domain
/// tuple (isl's `isl_union_pw_aff`).
///
/// ```
/// use presburger::UnionPwAff;
/// let f: UnionPwAff = "{ A[i] -> [(i)]; B[j] -> [(2j)] }".parse()?;
/// let g = f.union_add(&"{ A[i] -> [(1)] }".parse()?)?;
/// assert_eq!(g.to_string(), "{ A[i] -> [(1 + i)]; B[j] -> [(2j)] }");
/// # Ok::<(), presburger::Error>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct UnionPwAff {
    pub(crate) params: Vec<String>,
    pub(crate) members: Vec<PwAff>,
}

/// True when two map spaces have the same domain tuple.
fn same_domain(a: &Space, b: &Space) -> bool {
    match (a.domain_tuple(), b.domain_tuple()) {
        (Some(x), Some(y)) => x.same_shape(y),
        (None, None) => true,
        _ => false,
    }
}

impl UnionPwMultiAff {
    /// The union with no member over the parameters `params`.
    pub fn empty(params: Vec<String>) -> UnionPwMultiAff {
        UnionPwMultiAff {
            params,
            members: Vec::new(),
        }
    }

    /// The parameters shared by all members.
    pub fn params(&self) -> &[String] {
        &self.params
    }

    /// The members, one per domain tuple.
    pub fn members(&self) -> &[PwMultiAff] {
        &self.members
    }

    /// The member whose domain tuple is that of the set space `domain`.
    pub fn member_on(&self, domain: &Space) -> Option<&PwMultiAff> {
        self.members
            .iter()
            .find(|m| m.domain_space().same_tuples(domain))
    }

    /// Adds the function `f` in place (isl's
    /// `isl_union_pw_multi_aff_add_pw_multi_aff`): a new member, or more
    /// pieces of the member with its domain tuple (then the range tuples
    /// must agree and the domains must be disjoint, an error otherwise).
    #[doc(alias = "isl_union_pw_multi_aff_add_pw_multi_aff")]
    pub fn add_pw_multi_aff(&mut self, f: PwMultiAff) -> Result<()> {
        let params = merged_params(&self.params, f.space.params());
        if params != self.params {
            for m in &mut self.members {
                *m = m.align_params(&params);
            }
            self.params = params.clone();
        }
        let f = f.align_params(&params);
        match self
            .members
            .iter_mut()
            .find(|m| same_domain(&m.space, &f.space))
        {
            None => self.members.push(f),
            Some(m) => {
                let mut pieces = m.pieces.clone();
                pieces.extend(f.pieces);
                *m = PwMultiAff::from_piece_list(m.space.clone(), pieces)?;
            }
        }
        Ok(())
    }

    /// Check of the invariants: every member valid, over the shared
    /// parameters, and at most one member per domain tuple.
    pub fn check_invariants(&self) -> Result<()> {
        for (k, m) in self.members.iter().enumerate() {
            m.check_invariants()?;
            if m.space.params() != self.params.as_slice() {
                return Err(Error::Invalid(
                    "UnionPwMultiAff invariant: parameters".into(),
                ));
            }
            if self.members[..k]
                .iter()
                .any(|o| same_domain(&o.space, &m.space))
            {
                return Err(Error::Invalid(
                    "UnionPwMultiAff invariant: two members on one domain".into(),
                ));
            }
        }
        Ok(())
    }

    /// The union of the graphs (isl's `isl_union_map_from_union_pw_multi_aff`).
    #[doc(alias = "isl_union_map_from_union_pw_multi_aff")]
    pub fn as_union_map(&self) -> Result<UnionMap> {
        let mut u = UnionMap::empty(self.params.clone());
        for m in &self.members {
            u.add(m.as_map()?)?;
        }
        Ok(u)
    }

    /// The functions of the maps of `u`, as [`PwMultiAff::from_map`] (isl's
    /// `isl_union_pw_multi_aff_from_union_map`); two maps with one domain
    /// tuple must have disjoint domains.
    #[doc(alias = "isl_union_pw_multi_aff_from_union_map")]
    pub fn from_union_map(u: &UnionMap) -> Result<UnionPwMultiAff> {
        let mut r = UnionPwMultiAff::empty(u.params().to_vec());
        for m in u.members() {
            r.add_pw_multi_aff(PwMultiAff::from_map(m)?)?;
        }
        Ok(r)
    }

    /// The union of the domains (isl's `isl_union_pw_multi_aff_domain`).
    #[doc(alias = "isl_union_pw_multi_aff_domain")]
    pub fn domain(&self) -> Result<UnionSet> {
        let mut u = UnionSet::empty(self.params.clone());
        for m in &self.members {
            u.add(m.domain()?)?;
        }
        Ok(u)
    }

    /// The value at `point` (the parameters, then the dimensions) of the
    /// member on the domain tuple of the set space `domain`; `None` where it
    /// is not defined.
    pub fn eval(&self, domain: &Space, point: &[Int]) -> Result<Option<Vec<Rational>>> {
        match self.member_on(domain) {
            Some(m) => m.eval(point),
            None => Ok(None),
        }
    }

    /// Member by member with the member of `other` on the same domain
    /// tuple: `both` where both have one, `only` otherwise.
    fn zip(
        &self,
        other: &UnionPwMultiAff,
        both: impl Fn(&PwMultiAff, &PwMultiAff) -> Result<PwMultiAff>,
        keep_unmatched: bool,
    ) -> Result<UnionPwMultiAff> {
        let params = merged_params(&self.params, &other.params);
        let mut r = UnionPwMultiAff::empty(params);
        for m in &self.members {
            match other
                .members
                .iter()
                .find(|o| same_domain(&o.space, &m.space))
            {
                Some(o) => r.add_pw_multi_aff(both(m, o)?)?,
                None if keep_unmatched => r.add_pw_multi_aff(m.clone())?,
                None => {}
            }
        }
        if keep_unmatched {
            for o in &other.members {
                if !self.members.iter().any(|m| same_domain(&o.space, &m.space)) {
                    r.add_pw_multi_aff(o.clone())?;
                }
            }
        }
        Ok(r)
    }

    /// The sum where both are defined (isl's `isl_union_pw_multi_aff_add`):
    /// members on a common domain tuple are added, the others dropped.
    #[doc(alias = "isl_union_pw_multi_aff_add")]
    pub fn sum(&self, other: &UnionPwMultiAff) -> Result<UnionPwMultiAff> {
        self.zip(other, PwMultiAff::add, false)
    }

    /// The sum where both are defined, either one elsewhere (isl's
    /// `isl_union_pw_multi_aff_union_add`).
    #[doc(alias = "isl_union_pw_multi_aff_union_add")]
    pub fn union_add(&self, other: &UnionPwMultiAff) -> Result<UnionPwMultiAff> {
        self.zip(other, PwMultiAff::union_add, true)
    }

    /// Every member restricted to the member of `set` in its domain space
    /// (isl's `isl_union_pw_multi_aff_intersect_domain`); members without
    /// one are dropped.
    #[doc(alias = "isl_union_pw_multi_aff_intersect_domain")]
    pub fn intersect_domain(&self, set: &UnionSet) -> Result<UnionPwMultiAff> {
        let mut r = UnionPwMultiAff::empty(merged_params(&self.params, set.params()));
        for m in &self.members {
            if let Some(s) = set.member_like(&m.domain_space()) {
                r.add_pw_multi_aff(m.intersect_domain(s)?)?;
            }
        }
        Ok(r)
    }

    /// Every member coalesced (isl's `isl_union_pw_multi_aff_coalesce`).
    #[doc(alias = "isl_union_pw_multi_aff_coalesce")]
    pub fn coalesce(&self) -> Result<UnionPwMultiAff> {
        let mut r = self.clone();
        for m in &mut r.members {
            *m = m.coalesce()?;
        }
        Ok(r)
    }
}

impl From<PwMultiAff> for UnionPwMultiAff {
    fn from(f: PwMultiAff) -> UnionPwMultiAff {
        UnionPwMultiAff {
            params: f.space.params().to_vec(),
            members: vec![f],
        }
    }
}

impl UnionPwAff {
    /// The union with no member over the parameters `params`.
    pub fn empty(params: Vec<String>) -> UnionPwAff {
        UnionPwAff {
            params,
            members: Vec::new(),
        }
    }

    /// The parameters shared by all members.
    pub fn params(&self) -> &[String] {
        &self.params
    }

    /// The members, one per domain tuple.
    pub fn members(&self) -> &[PwAff] {
        &self.members
    }

    /// The member whose domain tuple is that of the set space `domain`.
    pub fn member_on(&self, domain: &Space) -> Option<&PwAff> {
        self.members
            .iter()
            .find(|m| m.domain_space().same_tuples(domain))
    }

    /// As a union of functions with one range dimension.
    pub fn to_union_pw_multi_aff(&self) -> UnionPwMultiAff {
        UnionPwMultiAff {
            params: self.params.clone(),
            members: self.members.iter().map(|m| m.0.clone()).collect(),
        }
    }

    /// A union of functions with one range dimension each as a UnionPwAff.
    pub fn from_union_pw_multi_aff(u: UnionPwMultiAff) -> Result<UnionPwAff> {
        Ok(UnionPwAff {
            params: u.params,
            members: u
                .members
                .into_iter()
                .map(PwAff::from_pw_multi_aff)
                .collect::<Result<Vec<_>>>()?,
        })
    }

    /// Adds the expression `f` in place (isl's
    /// `isl_union_pw_aff_add_pw_aff`), as
    /// [`UnionPwMultiAff::add_pw_multi_aff`].
    #[doc(alias = "isl_union_pw_aff_add_pw_aff")]
    pub fn add_pw_aff(&mut self, f: PwAff) -> Result<()> {
        let mut u = self.to_union_pw_multi_aff();
        u.add_pw_multi_aff(f.0)?;
        *self = UnionPwAff::from_union_pw_multi_aff(u)?;
        Ok(())
    }

    /// The union of the graphs (isl's `isl_union_map_from_union_pw_aff`).
    #[doc(alias = "isl_union_map_from_union_pw_aff")]
    pub fn as_union_map(&self) -> Result<UnionMap> {
        self.to_union_pw_multi_aff().as_union_map()
    }

    /// The union of the domains (isl's `isl_union_pw_aff_domain`).
    #[doc(alias = "isl_union_pw_aff_domain")]
    pub fn domain(&self) -> Result<UnionSet> {
        self.to_union_pw_multi_aff().domain()
    }

    /// The value at `point` of the member on the domain tuple of `domain`.
    pub fn eval(&self, domain: &Space, point: &[Int]) -> Result<Option<Rational>> {
        match self.member_on(domain) {
            Some(m) => m.eval(point),
            None => Ok(None),
        }
    }

    /// The sum where both are defined (isl's `isl_union_pw_aff_add`).
    #[doc(alias = "isl_union_pw_aff_add")]
    pub fn sum(&self, other: &UnionPwAff) -> Result<UnionPwAff> {
        UnionPwAff::from_union_pw_multi_aff(
            self.to_union_pw_multi_aff()
                .sum(&other.to_union_pw_multi_aff())?,
        )
    }

    /// The sum where both are defined, either one elsewhere (isl's
    /// `isl_union_pw_aff_union_add`).
    #[doc(alias = "isl_union_pw_aff_union_add")]
    pub fn union_add(&self, other: &UnionPwAff) -> Result<UnionPwAff> {
        UnionPwAff::from_union_pw_multi_aff(
            self.to_union_pw_multi_aff()
                .union_add(&other.to_union_pw_multi_aff())?,
        )
    }

    /// Every member restricted to `set` (isl's
    /// `isl_union_pw_aff_intersect_domain`).
    #[doc(alias = "isl_union_pw_aff_intersect_domain")]
    pub fn intersect_domain(&self, set: &UnionSet) -> Result<UnionPwAff> {
        UnionPwAff::from_union_pw_multi_aff(self.to_union_pw_multi_aff().intersect_domain(set)?)
    }

    /// Every member coalesced (isl's `isl_union_pw_aff_coalesce`).
    #[doc(alias = "isl_union_pw_aff_coalesce")]
    pub fn coalesce(&self) -> Result<UnionPwAff> {
        UnionPwAff::from_union_pw_multi_aff(self.to_union_pw_multi_aff().coalesce()?)
    }
}

impl From<PwAff> for UnionPwAff {
    fn from(f: PwAff) -> UnionPwAff {
        UnionPwAff {
            params: f.0.space.params().to_vec(),
            members: vec![f],
        }
    }
}
