//! Constructions on maps and sets that rearrange spaces: identity, deltas, wrapping
//! and unwrapping, flattening, products, lexicographic order maps and preimages.
//! All are exact rearrangements of columns plus equalities (no solver involved).

use crate::conjunction::Conjunction;
use crate::error::{Error, Result};
use crate::int::Int;
use crate::omega::Budget;
use crate::set::{merged_params, Disjunction, Map, Set};
use crate::space::{Space, Tuple, TupleBody};

impl Map {
    /// The identity map `{ x -> x }` on a set space.
    pub fn identity(space: &Space) -> Result<Map> {
        if !space.is_set() {
            return Err(Error::SpaceMismatch("identity needs a set space".into()));
        }
        Ok(Set::universe(space.clone())?.identity())
    }

    /// `{ y - x : x -> y in self }`, for a map whose input and output have the same
    /// number of dimensions (the tuple of the result is anonymous).
    pub fn deltas(&self) -> Result<Set> {
        let sp = &self.0.space;
        let (np, n) = (sp.n_param(), sp.n_in());
        if n != sp.n_out() {
            return Err(Error::SpaceMismatch(
                "deltas needs as many output dimensions as input dimensions".into(),
            ));
        }
        // the differences live in the space of the domain when it is the range's
        // (isl: `{ A[i] -> A[i + 1] }` gives `{ A[1] }`), else in an anonymous one
        let tuple = match sp.domain_tuple() {
            Some(d) if d.name == sp.range_tuple().name => match &sp.range_tuple().body {
                TupleBody::Dims(_) => Tuple::named(d.name.clone(), n),
                TupleBody::Nested(..) => sp.range_tuple().clone(),
            },
            _ => Tuple::anonymous(n),
        };
        let space = Space::set(sp.params().to_vec(), tuple);
        let parts = self
            .0
            .parts
            .iter()
            .map(|c| {
                // [params | in | out | locals] -> [params | d | (in, out, locals) as locals]
                let first_local = 1 + np + n;
                let colmap: Vec<usize> = (0..c.n_col())
                    .map(|col| {
                        if col <= np {
                            col
                        } else {
                            col - 1 - np + first_local
                        }
                    })
                    .collect();
                let mut m = c.remap(space.clone(), 2 * n + c.n_local(), &colmap);
                for k in 0..n {
                    // d_k - out_k + in_k = 0
                    let mut row = vec![Int::ZERO; m.n_col()];
                    row[1 + np + k] = Int::ONE;
                    row[first_local + n + k] = Int::from(-1);
                    row[first_local + k] = Int::ONE;
                    m.eqs.push(row);
                }
                m.eliminate_locals_exactly();
                m
            })
            .collect();
        let mut d = Disjunction { space, parts };
        d.simplify();
        Ok(Set(d))
    }

    /// The map as a set of pairs `{ [A[..] -> B[..]] }`.
    pub fn wrap(&self) -> Set {
        let sp = &self.0.space;
        let dom = sp
            .domain_tuple()
            .cloned()
            .unwrap_or_else(|| Tuple::anonymous(0));
        let space = Space::set(
            sp.params().to_vec(),
            Tuple::nested(None, dom, sp.range_tuple().clone()),
        );
        Set(self.0.relabel(space))
    }

    /// Flat tuples on both sides (nesting forgotten, dimension names kept).
    pub fn flatten(&self) -> Map {
        let sp = &self.0.space;
        let dom = sp
            .domain_tuple()
            .map(Tuple::flattened)
            .unwrap_or_else(|| Tuple::anonymous(0));
        let space = Space::map(sp.params().to_vec(), dom, sp.range_tuple().flattened());
        Map(self.0.relabel(space))
    }

    /// `[A -> B] x [C -> D]` gives `[A -> C] -> [B -> D]` (isl's product).
    pub fn product(&self, other: &Map) -> Result<Map> {
        let flat = self.flat_product(other)?;
        let (a, b) = (&self.0.space, &other.0.space);
        let (Some(ad), Some(bd)) = (a.domain_tuple(), b.domain_tuple()) else {
            return Err(Error::SpaceMismatch("product of maps needs maps".into()));
        };
        let space = Space::map(
            flat.0.space.params().to_vec(),
            Tuple::nested(None, ad.clone(), bd.clone()),
            Tuple::nested(None, a.range_tuple().clone(), b.range_tuple().clone()),
        );
        Ok(Map(flat.0.relabel(space)))
    }

    /// `A -> B` and `A -> C` give `A -> [B -> C]`: the pairs of images of each input.
    pub fn range_product(&self, other: &Map) -> Result<Map> {
        let (a, b) = (&self.0.space, &other.0.space);
        let same_domain = match (a.domain_tuple(), b.domain_tuple()) {
            (Some(x), Some(y)) => x.same_shape(y),
            _ => false,
        };
        if !same_domain {
            return Err(Error::SpaceMismatch(
                "range_product needs two maps with the same domain".into(),
            ));
        }
        let params = merged_params(a.params(), b.params());
        let x = self.0.align_params(&params);
        let y = other.0.align_params(&params);
        let (np, ni, n1, n2) = (params.len(), a.n_in(), a.n_out(), b.n_out());
        let space = Space::map(
            params.clone(),
            a.domain_tuple()
                .cloned()
                .unwrap_or_else(|| Tuple::anonymous(0)),
            Tuple::nested(None, a.range_tuple().clone(), b.range_tuple().clone()),
        );
        let base = 1 + np + ni + n1 + n2;
        let mut parts = Vec::new();
        for p in &x.parts {
            for q in &y.parts {
                let n_local = p.n_local() + q.n_local();
                let pmap: Vec<usize> = (0..p.n_col())
                    .map(|c| {
                        if c <= np + ni + n1 {
                            c
                        } else {
                            base + (c - 1 - np - ni - n1)
                        }
                    })
                    .collect();
                let qmap: Vec<usize> = (0..q.n_col())
                    .map(|c| match c {
                        c if c <= np + ni => c,
                        c if c <= np + ni + n2 => c + n1,
                        c => base + p.n_local() + (c - 1 - np - ni - n2),
                    })
                    .collect();
                let mut r = p.remap(space.clone(), n_local, &pmap);
                let s = q.remap(space.clone(), n_local, &qmap);
                merge_into(&mut r, s);
                parts.push(r);
            }
        }
        let mut d = Disjunction { space, parts };
        d.simplify();
        Ok(Map(d))
    }

    /// `{ x -> y : x <_lex y }` on a set space (a union over the first position where
    /// they differ), as used for dependences.
    pub fn lex_lt(space: &Space) -> Result<Map> {
        lex_order(space, Ordering::Lt)
    }

    /// `{ x -> y : x <=_lex y }`.
    pub fn lex_le(space: &Space) -> Result<Map> {
        lex_order(space, Ordering::Le)
    }

    /// `{ x -> y : x >_lex y }`.
    pub fn lex_gt(space: &Space) -> Result<Map> {
        lex_order(space, Ordering::Gt)
    }

    /// `{ x -> y : x >=_lex y }`.
    pub fn lex_ge(space: &Space) -> Result<Map> {
        lex_order(space, Ordering::Ge)
    }

    /// The pairs whose input is not in `set` (one budget of
    /// [`ALGEBRA_DEFAULT_STEPS`](crate::algebra::ALGEBRA_DEFAULT_STEPS) for the
    /// complement of `set`).
    pub fn subtract_domain(&self, set: &Set) -> Result<Map> {
        self.subtract_domain_with_budget(set, &mut crate::algebra::algebra_budget())
    }

    /// As `subtract_domain`, spending from `budget`.
    pub fn subtract_domain_with_budget(&self, set: &Set, budget: &mut Budget) -> Result<Map> {
        let dom = self
            .0
            .space
            .domain_space()
            .ok_or_else(|| Error::SpaceMismatch("subtract_domain needs a map".into()))?;
        if !dom.same_tuples(set.space()) {
            return Err(Error::SpaceMismatch(
                "the set does not live in the domain of the map".into(),
            ));
        }
        self.intersect_domain(&set.complement_with_budget(budget)?)
    }

    /// The pairs whose output is not in `set`.
    pub fn subtract_range(&self, set: &Set) -> Result<Map> {
        self.subtract_range_with_budget(set, &mut crate::algebra::algebra_budget())
    }

    /// As `subtract_range`, spending from `budget`.
    pub fn subtract_range_with_budget(&self, set: &Set, budget: &mut Budget) -> Result<Map> {
        Ok(self
            .reverse()
            .subtract_domain_with_budget(set, budget)?
            .reverse())
    }

    /// The inputs with an image in `set`: `{ x : exists y in set : x -> y }` (for a
    /// function, the preimage of `set`).
    pub fn preimage_of(&self, set: &Set) -> Result<Set> {
        Ok(self.intersect_range(set)?.domain())
    }

    /// True when every input has at most one image (isl's
    /// `isl_map_is_single_valued`): the pairs of images of one input,
    /// `{ y -> y' : x -> y and x -> y' }` (the reverse, then the map), all lie
    /// on the identity. Exact: one composition and one inclusion test.
    ///
    /// ```
    /// use presburger::Map;
    /// let f: Map = "{ [i] -> [j] : j = 2i }".parse()?;
    /// let r: Map = "{ [i] -> [j] : 0 <= j <= i }".parse()?;
    /// assert!(f.is_single_valued()?);
    /// assert!(!r.is_single_valued()?);
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_map_is_single_valued")]
    pub fn is_single_valued(&self) -> Result<bool> {
        let pairs = self.reverse().apply_range(self)?;
        pairs.is_subset(&Map::identity(&self.0.space.range_space())?)
    }

    /// True when no two inputs share an image (isl's `isl_map_is_injective`):
    /// the map, then its reverse, `{ x -> x' : x -> y and x' -> y }`, lies on
    /// the identity.
    ///
    /// ```
    /// use presburger::Map;
    /// assert!("{ [i] -> [2i + 1] }".parse::<Map>()?.is_injective()?);
    /// assert!(!"{ [i, j] -> [i + j] }".parse::<Map>()?.is_injective()?);
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_map_is_injective")]
    pub fn is_injective(&self) -> Result<bool> {
        let pairs = self.apply_range(&self.reverse())?;
        let domain = self
            .0
            .space
            .domain_space()
            .ok_or_else(|| Error::SpaceMismatch("is_injective needs a map".into()))?;
        pairs.is_subset(&Map::identity(&domain)?)
    }

    /// `{ [A -> B] -> C }` as `{ A -> [B -> C] }` (isl's `isl_map_curry`): the
    /// same relation with the domain's second part moved into the range. The
    /// columns keep their order, so only the space changes. An error when the
    /// domain is not a pair.
    ///
    /// ```
    /// use presburger::Map;
    /// let m: Map = "{ [S[i] -> T[j]] -> A[i + j] }".parse()?;
    /// let want: Map = "{ S[i] -> [T[j] -> A[i + j]] }".parse()?;
    /// assert!(m.curry()?.is_equal(&want)?);
    /// assert!(m.curry()?.uncurry()?.is_equal(&m)?);
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_map_curry")]
    pub fn curry(&self) -> Result<Map> {
        let sp = &self.0.space;
        let Some(TupleBody::Nested(a, b)) = sp.domain_tuple().map(|t| &t.body) else {
            return Err(Error::SpaceMismatch(
                "curry needs a map whose domain is a pair, such as { [A[i] -> B[j]] -> C[k] }"
                    .into(),
            ));
        };
        let range = Tuple::nested(None, (**b).clone(), sp.range_tuple().clone());
        let space = Space::map(sp.params().to_vec(), (**a).clone(), range);
        Ok(Map(self.0.relabel(space)))
    }

    /// `{ A -> [B -> C] }` as `{ [A -> B] -> C }` (isl's `isl_map_uncurry`),
    /// the inverse of [`Map::curry`]. An error when the range is not a pair.
    #[doc(alias = "isl_map_uncurry")]
    pub fn uncurry(&self) -> Result<Map> {
        let sp = &self.0.space;
        let (Some(a), TupleBody::Nested(b, c)) = (sp.domain_tuple(), &sp.range_tuple().body) else {
            return Err(Error::SpaceMismatch(
                "uncurry needs a map whose range is a pair, such as { A[i] -> [B[j] -> C[k]] }"
                    .into(),
            ));
        };
        let domain = Tuple::nested(None, a.clone(), (**b).clone());
        let space = Space::map(sp.params().to_vec(), domain, (**c).clone());
        Ok(Map(self.0.relabel(space)))
    }
}

/// Adds the rows and division definitions of `s` (same columns) to `r`.
fn merge_into(r: &mut Conjunction, s: Conjunction) {
    for (l, d) in s.divs.into_iter().enumerate() {
        if d.is_some() {
            r.divs[l] = d;
        }
    }
    r.eqs.extend(s.eqs);
    r.ineqs.extend(s.ineqs);
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Ordering {
    Lt,
    Le,
    Gt,
    Ge,
}

fn lex_order(space: &Space, ord: Ordering) -> Result<Map> {
    if !space.is_set() {
        return Err(Error::SpaceMismatch(
            "lexicographic order maps need a set space".into(),
        ));
    }
    let t = space.range_tuple().clone();
    let mspace = Space::map(space.params().to_vec(), t.clone(), t);
    let (np, n) = (space.n_param(), space.n_out());
    let mut parts = Vec::new();
    let eq_row = |k: usize| {
        let mut row = vec![Int::ZERO; 1 + np + 2 * n];
        row[1 + np + k] = Int::ONE;
        row[1 + np + n + k] = Int::from(-1);
        row
    };
    for k in 0..n {
        let mut c = Conjunction::universe(mspace.clone());
        for j in 0..k {
            c.eqs.push(eq_row(j));
        }
        // x_k < y_k  is  y_k - x_k - 1 >= 0;  x_k > y_k  is  x_k - y_k - 1 >= 0
        let mut row = eq_row(k);
        if matches!(ord, Ordering::Lt | Ordering::Le) {
            row.iter_mut().for_each(|v| *v = -&*v);
        }
        row[0] = Int::from(-1);
        c.ineqs.push(row);
        parts.push(c);
    }
    if matches!(ord, Ordering::Le | Ordering::Ge) {
        let mut c = Conjunction::universe(mspace.clone());
        for j in 0..n {
            c.eqs.push(eq_row(j));
        }
        parts.push(c);
    }
    let mut d = Disjunction {
        space: mspace,
        parts,
    };
    d.simplify();
    Ok(Map(d))
}

impl Set {
    /// A set of pairs `{ [A[..] -> B[..]] }` as the map `{ A[..] -> B[..] }`.
    pub fn unwrap(&self) -> Result<Map> {
        let sp = &self.0.space;
        let TupleBody::Nested(a, b) = &sp.range_tuple().body else {
            return Err(Error::SpaceMismatch(
                "unwrap needs a set of pairs such as { [A[i] -> B[j]] }".into(),
            ));
        };
        let space = Space::map(sp.params().to_vec(), (**a).clone(), (**b).clone());
        Ok(Map(self.0.relabel(space)))
    }

    /// A flat tuple (nesting forgotten, dimension names kept).
    pub fn flatten(&self) -> Set {
        let sp = &self.0.space;
        let space = Space::set(sp.params().to_vec(), sp.range_tuple().flattened());
        Set(self.0.relabel(space))
    }

    /// `A x B` as the set of pairs `{ [A[..] -> B[..]] }` (isl's product of sets).
    pub fn product(&self, other: &Set) -> Result<Set> {
        let flat = self.flat_product(other)?;
        let space = Space::set(
            flat.0.space.params().to_vec(),
            Tuple::nested(
                None,
                self.0.space.range_tuple().clone(),
                other.0.space.range_tuple().clone(),
            ),
        );
        Ok(Set(flat.0.relabel(space)))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{map_points, set_points, Box as PBox};
    use std::collections::BTreeSet;

    fn pts(v: &[&[i64]]) -> BTreeSet<Vec<i64>> {
        v.iter().map(|p| p.to_vec()).collect()
    }

    #[test]
    fn deltas_wrap_and_products() {
        let m: Map = "{ [i, j] -> [i + 1, j - 2] : 0 <= i, j <= 1 }"
            .parse()
            .unwrap();
        assert_eq!(m.deltas().unwrap().to_string(), "{ [1, -2] }");
        let w = m.wrap();
        assert_eq!(w.space().n_out(), 4);
        let back = w.unwrap().unwrap();
        assert!(back.is_equal(&m).unwrap());
        assert!(w.flatten().unwrap().is_err()); // a flat set is not a set of pairs
        let a: Map = "{ A[i] -> B[i + 1] : 0 <= i <= 1 }".parse().unwrap();
        let b: Map = "{ C[k] -> D[2k] : k = 3 }".parse().unwrap();
        let p = a.product(&b).unwrap();
        let b2 = PBox::new(vec![], -1, 7);
        assert_eq!(map_points(&p, &b2), pts(&[&[0, 3, 1, 6], &[1, 3, 2, 6]]));
        assert_eq!(
            p.to_string(),
            "{ [A[i] -> C[k]] -> [B[i + 1] -> D[6]] : k = 3 and 0 <= i <= 1 }"
        );
        let r = a
            .range_product(&"{ A[i] -> E[i, i] }".parse().unwrap())
            .unwrap();
        assert_eq!(map_points(&r, &b2), pts(&[&[0, 1, 0, 0], &[1, 2, 1, 1]]));
        let s: Set = "{ A[i] : 0 <= i <= 1 }".parse().unwrap();
        let sp = s.product(&"{ B[j] : j = 5 }".parse().unwrap()).unwrap();
        assert_eq!(sp.to_string(), "{ [A[i] -> B[5]] : 0 <= i <= 1 }");
        assert_eq!(set_points(&sp, &b2), pts(&[&[0, 5], &[1, 5]]));
    }

    #[test]
    fn lexicographic_orders() {
        let space = "{ S[i, j] }".parse::<Set>().unwrap().space().clone();
        let b = PBox::new(vec![], 0, 1);
        let all = map_points(
            &Map::from_domain_and_range(
                &Set::universe(space.clone()).unwrap(),
                &Set::universe(space.clone()).unwrap(),
            )
            .unwrap(),
            &b,
        );
        for (m, f) in [
            (
                Map::lex_lt(&space).unwrap(),
                (|x: &[i64], y: &[i64]| x < y) as fn(&[i64], &[i64]) -> bool,
            ),
            (Map::lex_le(&space).unwrap(), |x, y| x <= y),
            (Map::lex_gt(&space).unwrap(), |x, y| x > y),
            (Map::lex_ge(&space).unwrap(), |x, y| x >= y),
        ] {
            let want: BTreeSet<Vec<i64>> = all
                .iter()
                .filter(|p| f(&p[..2], &p[2..]))
                .cloned()
                .collect();
            assert_eq!(map_points(&m, &b), want);
        }
    }

    #[test]
    fn dependence_with_lex_lt_and_accesses() {
        // for i in 1..N: A[i] = A[i - 1]
        let dom: Set = "[N] -> { S[i] : 1 <= i < N }".parse().unwrap();
        let write = "{ S[i] -> A[i] }"
            .parse::<Map>()
            .unwrap()
            .intersect_domain(&dom)
            .unwrap();
        let read = "{ S[i] -> A[i - 1] }"
            .parse::<Map>()
            .unwrap()
            .intersect_domain(&dom)
            .unwrap();
        let raw = write
            .apply_range(&read.reverse())
            .unwrap()
            .intersect(&Map::lex_lt(dom.space()).unwrap())
            .unwrap();
        assert!(!raw.is_empty().unwrap());
        let want: Map = "[N] -> { S[i] -> S[i + 1] : 1 <= i and i + 1 < N }"
            .parse()
            .unwrap();
        assert!(raw.is_equal(&want).unwrap(), "{raw}");
        assert!(raw
            .deltas()
            .unwrap()
            .is_equal(&"[N] -> { S[1] : N >= 3 }".parse().unwrap())
            .unwrap());
        // the iterations whose write is not read by a later iteration
        let last = write.subtract_range(&read.range()).unwrap();
        assert!(last
            .domain()
            .is_equal(&"[N] -> { S[i] : i = N - 1 and N >= 2 }".parse().unwrap())
            .unwrap());
        let first = read
            .subtract_domain(&"[N] -> { S[i] : i >= 2 }".parse().unwrap())
            .unwrap();
        assert!(first
            .is_equal(&"[N] -> { S[1] -> A[0] : N >= 2 }".parse().unwrap())
            .unwrap());
        // the preimage of the read elements under the write map
        let pre = "[N] -> { A[a] : a >= 5 }"
            .parse::<Set>()
            .unwrap()
            .preimage(&write)
            .unwrap();
        assert!(pre
            .is_equal(&"[N] -> { S[i] : 5 <= i < N }".parse().unwrap())
            .unwrap());
    }

    /// Single-valuedness and injectivity against their definitions, checked
    /// by enumeration on a box; curry and uncurry keep the relation.
    #[test]
    fn single_valued_injective_curry() {
        let maps = [
            "{ [i] -> [j] : j = 2i and 0 <= i <= 3 }",
            "{ [i] -> [j] : 0 <= j <= i <= 3 }",
            "{ [i, j] -> [i + j] : 0 <= i, j <= 2 }",
            "{ [i] -> [j, k] : j = i and k = i mod 2 and -3 <= i <= 3 }",
            "{ [i] -> [j] : exists e : i = 2e and j = e and 0 <= i <= 6 }",
            "{ [i] -> [j] : j = floor(i / 2) and 0 <= i <= 6 }",
            "{ [i] -> [j] : 0 <= i <= 3 and (j = i or j = i + 1) }",
            "{ [i] -> [j] : 1 = 0 }",
        ];
        let b = PBox::new(vec![], -4, 8);
        for text in maps {
            let m: Map = text.parse().unwrap();
            let pairs = map_points(&m, &b);
            let ni = m.0.space.n_in();
            let mut image: std::collections::BTreeMap<Vec<i64>, BTreeSet<Vec<i64>>> =
                Default::default();
            let mut preimage: std::collections::BTreeMap<Vec<i64>, BTreeSet<Vec<i64>>> =
                Default::default();
            for p in &pairs {
                let (x, y) = p.split_at(ni);
                image.entry(x.to_vec()).or_default().insert(y.to_vec());
                preimage.entry(y.to_vec()).or_default().insert(x.to_vec());
            }
            let single = image.values().all(|ys| ys.len() <= 1);
            let injective = preimage.values().all(|xs| xs.len() <= 1);
            assert_eq!(m.is_single_valued().unwrap(), single, "{text}");
            assert_eq!(m.is_injective().unwrap(), injective, "{text}");
        }
        let m: Map = "[N] -> { [S[i] -> T[j]] -> A[i + j, N] : 0 <= i < N and j >= i }"
            .parse()
            .unwrap();
        let c = m.curry().unwrap();
        assert_eq!(c.0.space.n_in(), 1);
        assert_eq!(c.0.space.n_out(), 3);
        let back = c.uncurry().unwrap();
        assert!(back.is_equal(&m).unwrap());
        assert_eq!(back.to_string(), m.to_string());
        let flat: Map = "{ [i] -> [j] }".parse().unwrap();
        assert!(flat.curry().is_err());
        assert!(flat.uncurry().is_err());
        let s: Set = "{ S[i] : 0 <= i <= 4 }".parse().unwrap();
        let f: Map = "{ S[i] -> A[i, 2i] }".parse().unwrap();
        assert_eq!(
            set_points(&s.apply(&f).unwrap(), &PBox::new(vec![], -2, 9)),
            pts(&[&[0, 0], &[1, 2], &[2, 4], &[3, 6], &[4, 8]])
        );
    }
}
