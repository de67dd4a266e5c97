//! Operations on unions across spaces, member by member, with isl's meaning:
//! lexicographic optima and a sample point of a union set, complements, gist
//! against a union context (the member of the same space, or a parameter
//! set), and the deltas of a union map.
//!
//! Each is the operation of one member ([`Set`], [`Map`]) applied in turn;
//! what a union adds is which members take part, as isl decides it:
//! `isl_union_set_lexmin` and `_lexmax` give one point per non-empty member,
//! `isl_union_map_gist` keeps only the members that have a context member
//! in their space (a context that is a parameter set applies to every
//! member), `isl_union_map_deltas` only the maps whose domain and range
//! are the same space, and `isl_union_map_zip` only the maps whose domain
//! and range are wrapped pairs (`isl_union_map_domain_map` and `_range_map`
//! keep every member).

use crate::api::{Map, Set, UnionMap, UnionSet};
use crate::error::Result;
use crate::space::Space;

impl UnionSet {
    /// The algorithm of [`UnionSet::sample`].
    pub(crate) fn sample_impl(&self) -> Result<Option<Set>> {
        for m in self.members() {
            if let Some(p) = m.sample()? {
                return Ok(Some(Set::from_point(m.space(), &p)?));
            }
        }
        Ok(None)
    }

    /// The algorithm of [`UnionSet::complement`].
    pub(crate) fn complement_impl(&self) -> Result<UnionSet> {
        let mut r = UnionSet::empty(self.params().to_vec());
        for m in self.members() {
            r.add(m.complement()?)?;
        }
        Ok(r)
    }

    /// The algorithm of [`UnionSet::gist`].
    pub(crate) fn gist_impl(&self, context: &UnionSet) -> Result<UnionSet> {
        let params = params_context(context);
        let mut r = UnionSet::empty(self.params().to_vec());
        for m in self.members() {
            let ctx = match params {
                Some(p) => Set::universe(m.space().clone())?.intersect_params(p)?,
                None => match context.member_like(m.space()) {
                    Some(c) => c.clone(),
                    None => continue,
                },
            };
            r.add(m.gist(&ctx)?)?;
        }
        Ok(r)
    }
}

impl UnionSet {
    /// The algorithm of [`UnionSet::lexmin`] and [`UnionSet::lexmax`]: per
    /// member, its optimum point as a one-point set when it has no
    /// parameters ([`Set::lexmin`]), else its parametric optimum as a set
    /// ([`Set::lexmin_set`]).
    pub(crate) fn lexopt_members(&self, maximize: bool) -> Result<UnionSet> {
        let mut r = UnionSet::empty(self.params().to_vec());
        for m in self.members() {
            if m.space().n_param() > 0 {
                r.add(if maximize {
                    m.lexmax_set()?
                } else {
                    m.lexmin_set()?
                })?;
                continue;
            }
            let p = if maximize { m.lexmax()? } else { m.lexmin()? };
            if let Some(p) = p {
                r.add(Set::from_point(m.space(), &p)?)?;
            }
        }
        Ok(r)
    }
}

impl UnionMap {
    /// The algorithm of [`UnionMap::lexmin`] and [`UnionMap::lexmax`]: the
    /// parametric optimum of each member ([`Map::lexmin`]).
    pub(crate) fn lexopt_members(&self, maximize: bool) -> Result<UnionMap> {
        let mut r = UnionMap::empty(self.params().to_vec());
        for m in self.members() {
            r.add(if maximize { m.lexmax()? } else { m.lexmin()? })?;
        }
        Ok(r)
    }

    /// The algorithm of [`UnionMap::complement`].
    pub(crate) fn complement_impl(&self) -> Result<UnionMap> {
        let mut r = UnionMap::empty(self.params().to_vec());
        for m in self.members() {
            r.add(m.complement()?)?;
        }
        Ok(r)
    }

    /// The algorithm of [`UnionMap::gist`].
    pub(crate) fn gist_impl(&self, context: &UnionMap) -> Result<UnionMap> {
        let mut r = UnionMap::empty(self.params().to_vec());
        for m in self.members() {
            if let Some(c) = context.member_like(m.space()) {
                r.add(m.gist(c)?)?;
            }
        }
        Ok(r)
    }

    /// The algorithm of [`UnionMap::gist_params`].
    pub(crate) fn gist_params_impl(&self, params: &Set) -> Result<UnionMap> {
        let mut r = UnionMap::empty(self.params().to_vec());
        for m in self.members() {
            let ctx = Map::universe(m.space().clone())?.intersect_params(params)?;
            r.add(m.gist(&ctx)?)?;
        }
        Ok(r)
    }

    /// The algorithm of [`UnionMap::deltas`].
    pub(crate) fn deltas_impl(&self) -> Result<UnionSet> {
        let mut r = UnionSet::empty(self.params().to_vec());
        for m in self.members() {
            let sp = m.space();
            let same = sp
                .domain_space()
                .is_some_and(|d| same_tuple(&d, &sp.range_space()));
            if same {
                r.add(m.deltas()?)?;
            }
        }
        Ok(r)
    }

    /// The algorithm of [`UnionMap::domain_map`].
    pub(crate) fn domain_map_impl(&self) -> UnionMap {
        UnionMap {
            params: self.params().to_vec(),
            maps: self.members().iter().map(Map::domain_map).collect(),
        }
    }

    /// The algorithm of [`UnionMap::range_map`].
    pub(crate) fn range_map_impl(&self) -> UnionMap {
        UnionMap {
            params: self.params().to_vec(),
            maps: self.members().iter().map(Map::range_map).collect(),
        }
    }

    /// The algorithm of [`UnionMap::zip`].
    pub(crate) fn zip_impl(&self) -> UnionMap {
        let mut r = UnionMap::empty(self.params().to_vec());
        for m in self.members() {
            let Ok(z) = m.zip() else { continue };
            let z = z.0.align_params(&r.params);
            match r.maps.iter_mut().find(|x| x.0.space.same_tuples(&z.space)) {
                Some(x) => {
                    x.0.parts.extend(z.parts);
                    x.0.simplify();
                }
                None => r.maps.push(Map(z)),
            }
        }
        r
    }
}

/// The parameter set of `context` when that is all it is: one member, a
/// parameter set.
fn params_context(context: &UnionSet) -> Option<&Set> {
    match context.members() {
        [p] if p.is_params() => Some(p),
        _ => None,
    }
}

/// Whether two set spaces have the same tuple (names and shape).
fn same_tuple(a: &Space, b: &Space) -> bool {
    a.same_tuples(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn us(s: &str) -> UnionSet {
        s.parse().unwrap()
    }

    fn um(s: &str) -> UnionMap {
        s.parse().unwrap()
    }

    #[test]
    fn optima_and_samples_space_by_space() {
        let u =
            us("{ A[i] : 2 <= i <= 5; B[i, j] : 0 <= j <= i <= 3 and i + j >= 2; C[i] : 1 = 0 }");
        assert!(
            u.lexmin()
                .unwrap()
                .is_equal(&us("{ A[2]; B[1, 1] }"))
                .unwrap()
        );
        assert!(
            u.lexmax()
                .unwrap()
                .is_equal(&us("{ A[5]; B[3, 3] }"))
                .unwrap()
        );
        let p = u.sample().unwrap().unwrap();
        assert!(UnionSet::from(p).is_subset(&u).unwrap());
        assert!(us("{ A[i] : 1 = 0 }").sample().unwrap().is_none());
        assert!(us("{ A[i] : i >= 0 }").lexmax().is_err());
    }

    #[test]
    fn complements_gists_and_deltas() {
        let u = us("{ A[i] : i >= 0; B[i] : i = 0 }");
        assert!(
            u.complement()
                .unwrap()
                .is_equal(&us("{ A[i] : i < 0; B[i] : i != 0 }"))
                .unwrap()
        );
        let m = um("{ A[i] -> A[j] : j > i }");
        assert!(
            m.complement()
                .unwrap()
                .is_equal(&um("{ A[i] -> A[j] : j <= i }"))
                .unwrap()
        );
        // gist: the member of the same space; members without one are dropped
        let g = us("[n] -> { A[i] : 0 <= i < n; B[i] : i >= 0 }")
            .gist(&us("[n] -> { A[i] : i >= 0 }"))
            .unwrap();
        assert!(g.is_equal(&us("[n] -> { A[i] : i < n }")).unwrap(), "{g}");
        // a parameter context applies to every member
        let g = us("[n] -> { A[i] : 0 <= i < n and n > 0; B[i] : i = n and n > 0 }")
            .gist(&us("[n] -> { : n > 0 }"))
            .unwrap();
        assert!(
            g.is_equal(&us("[n] -> { A[i] : 0 <= i < n; B[i] : i = n }"))
                .unwrap(),
            "{g}"
        );
        let gm = um("{ A[i] -> B[j] : 0 <= i <= 10 and j = i; C[i] -> C[i] }")
            .gist(&um("{ A[i] -> B[j] : 0 <= i <= 10 }"))
            .unwrap();
        assert!(gm.is_equal(&um("{ A[i] -> B[i] }")).unwrap(), "{gm}");
        let p: Set = "[n] -> { : n >= 0 }".parse().unwrap();
        let gp = um("[n] -> { A[i] -> A[i + 1] : 0 <= i < n and n >= 0 }")
            .gist_params(&p)
            .unwrap();
        assert!(
            gp.is_equal(&um("[n] -> { A[i] -> A[i + 1] : 0 <= i < n }"))
                .unwrap()
        );
        let d = um("{ S[i, j] -> S[i + 1, j - 1]; S[i, j] -> T[i, j]; [i] -> [i + 2] }")
            .deltas()
            .unwrap();
        assert!(d.is_equal(&us("{ S[1, -1]; [2] }")).unwrap(), "{d}");
    }

    /// The union versions of domain_map, range_map and zip: every member for
    /// the first two; zip drops the members that are not pairs of pairs and
    /// unites the members that zip to one space (isl 0.25 does the same: its
    /// zip of this union is `{ [A[a = 1] -> C[c]] -> [B[b] -> D[d]]; [A[a = 0]
    /// -> C[c]] -> [B[b] -> D[d]] }`, one map of two conjunctions).
    #[test]
    fn domain_range_maps_and_zip_of_unions() {
        let u = um("{ F[A[a] -> B[b]] -> [C[c] -> D[d]] : a = 0; \
                    [A[a] -> B[b]] -> [C[c] -> D[d]] : a = 1; S[i] -> T[i]; [A[a] -> B[b]] -> T[j] }");
        let z = u.zip();
        assert_eq!(z.members().len(), 1);
        assert!(
            z.is_equal(&um("{ [A[a] -> C[c]] -> [B[b] -> D[d]] : 0 <= a <= 1 }"))
                .unwrap()
        );
        assert!(um("{ S[i] -> T[i] }").zip().members().is_empty());
        let d = u.domain_map();
        assert_eq!(d.members().len(), 4);
        for (m, dm) in u.members().iter().zip(d.members()) {
            assert!(dm.is_equal(&m.domain_map()).unwrap());
        }
        let r = u.range_map();
        assert_eq!(r.members().len(), 4);
        assert!(r.range().unwrap().is_equal(&u.range().unwrap()).unwrap());
        // parameters stay shared
        let p = um("[N] -> { S[i] -> T[i] : i < N; [A[] -> B[]] -> [C[] -> D[]] }");
        assert_eq!(p.domain_map().params(), ["N"]);
        assert_eq!(p.zip().params(), ["N"]);
        assert_eq!(p.zip().members()[0].space().params(), ["N"]);
    }
}
