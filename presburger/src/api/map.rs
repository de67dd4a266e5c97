//! `Map`: the type and every public method of it.

use super::*;

/// A finite union of conjunctions in one map space (isl's `isl_map`): a
/// relation between integer tuples.
///
/// ```
/// use presburger::{DimKind, Map, Set};
/// let w: Map = "[N] -> { S[i, j] -> A[i + j] : 0 <= i, j < N }".parse()?;
/// let r: Map = "{ A[a] -> B[2a] }".parse()?;
/// let both = w.apply_range(&r)?; // isl_map_apply_range: w, then r
/// let want: Map = "[N] -> { S[i, j] -> B[2i + 2j] : 0 <= i, j < N }".parse()?;
/// assert!(both.is_equal(&want)?);
/// // the elements written, and the projection out of j (isl_map_project_out)
/// let written: Set = w.range();
/// assert!(written.is_equal(&"[N] -> { A[a] : 0 <= a <= 2N - 2 }".parse()?)?);
/// let by_i = w.project_out(DimKind::In, 1, 1)?;
/// assert!(by_i.is_equal(&"[N] -> { S[i] -> A[a] : 0 <= i < N and i <= a < i + N }".parse()?)?);
/// # Ok::<(), presburger::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Map(pub(crate) Disjunction);

impl Map {
    /// The empty map in the map space `space` (isl's `isl_map_empty`). An
    /// error for a set space.
    pub fn empty(space: Space) -> Result<Map> {
        Disjunction::empty(space).of_kind(false).map(Map)
    }

    /// The universe of the map space `space` (isl's `isl_map_universe`). An
    /// error for a set space.
    pub fn universe(space: Space) -> Result<Map> {
        Disjunction::universe(space).of_kind(false).map(Map)
    }

    /// The conjunction of `constraints` (made from the expressions of
    /// [`crate::build`]) in the map space `space`.
    pub fn from_constraints(
        space: &Space,
        constraints: impl IntoIterator<Item = crate::build::Constraint>,
    ) -> Result<Map> {
        BasicMap::from_constraints(space, constraints).map(Map::from)
    }

    /// The space.
    pub fn space(&self) -> &Space {
        &self.0.space
    }

    /// The conjunctions of the union, as basic maps.
    pub fn basics(&self) -> impl Iterator<Item = BasicMap> + '_ {
        self.0.parts.iter().cloned().map(BasicMap)
    }

    /// The number of conjunctions (isl's `isl_map_n_basic_map`).
    pub fn n_basic(&self) -> usize {
        self.0.parts.len()
    }

    /// The pairs in either (isl's `isl_map_union`): same tuples, the
    /// parameters aligned by name.
    pub fn union(&self, other: &Map) -> Result<Map> {
        self.0.union(&other.0).map(Map)
    }

    /// Intersection: the pairs in both (isl's `isl_map_intersect`), the
    /// parameters aligned by name. An error ([`Error::SpaceMismatch`]) for
    /// different tuples.
    ///
    /// ```
    /// use presburger::Map;
    /// let m: Map = "{ A[i] -> B[j] : j >= i }".parse()?;
    /// let diag: Map = "{ A[i] -> B[i] }".parse()?;
    /// assert!(m.intersect(&"{ A[i] -> B[j] : j <= i }".parse()?)?.is_equal(&diag)?);
    /// # Ok::<(), presburger::Error>(())
    /// ```
    pub fn intersect(&self, other: &Map) -> Result<Map> {
        self.0.intersect(&other.0).map(Map)
    }

    /// The pairs with the variable `pos` of `kind` equal to `value` (isl's
    /// `isl_map_fix_si`).
    #[doc(alias = "isl_map_fix_si")]
    pub fn fix(&self, kind: DimKind, pos: usize, value: impl Into<Int>) -> Result<Map> {
        let v = value.into();
        self.0.each_part(|c| c.fix(kind, pos, &v)).map(Map)
    }

    /// The pairs with the variable `pos` of `kind` at least `value` (isl's
    /// `isl_map_lower_bound_si`).
    #[doc(alias = "isl_map_lower_bound_si")]
    pub fn lower_bound(&self, kind: DimKind, pos: usize, value: impl Into<Int>) -> Result<Map> {
        let v = value.into();
        self.0.each_part(|c| c.bound(kind, pos, &v, true)).map(Map)
    }

    /// The pairs with the variable `pos` of `kind` at most `value` (isl's
    /// `isl_map_upper_bound_si`).
    #[doc(alias = "isl_map_upper_bound_si")]
    pub fn upper_bound(&self, kind: DimKind, pos: usize, value: impl Into<Int>) -> Result<Map> {
        let v = value.into();
        self.0.each_part(|c| c.bound(kind, pos, &v, false)).map(Map)
    }

    /// Moves `n` variables of kind `src` from `src_pos` to kind `dst` at
    /// `dst_pos` (isl's `isl_map_move_dims`). Moving to `DimKind::Local`
    /// quantifies them existentially (exact projection).
    pub fn move_dims(
        &self,
        dst: DimKind,
        dst_pos: usize,
        src: DimKind,
        src_pos: usize,
        n: usize,
    ) -> Result<Map> {
        (self.0.move_dims(dst, dst_pos, src, src_pos, n)?)
            .of_kind(false)
            .map(Map)
    }

    /// Exact projection: the `n` variables of `kind` from `pos` become
    /// existentially quantified locals, eliminated where that is exact
    /// (isl's `isl_map_project_out`).
    ///
    /// ```
    /// use presburger::{DimKind, Map};
    /// let m: Map = "{ [i] -> [j, k] : j = 2i and k = i + 1 }".parse()?;
    /// let even: Map = "{ [i] -> [j] : j = 2i }".parse()?;
    /// assert!(m.project_out(DimKind::Out, 1, 1)?.is_equal(&even)?);
    /// # Ok::<(), presburger::Error>(())
    /// ```
    pub fn project_out(&self, kind: DimKind, pos: usize, n: usize) -> Result<Map> {
        self.0.project_out(kind, pos, n)?.of_kind(false).map(Map)
    }

    /// The same map with its output tuple named `name` (`None`: anonymous;
    /// isl's `isl_map_set_tuple_name` on the output).
    pub fn set_tuple_name(&self, name: Option<&str>) -> Map {
        Map(self.0.with_tuple_name(name))
    }

    /// The same map with the parameter or dimension `pos` of `kind` named
    /// `name` (isl's `isl_map_set_dim_name`). Dimension names are cosmetic; a
    /// parameter name must stay unique.
    pub fn set_dim_name(&self, kind: DimKind, pos: usize, name: &str) -> Result<Map> {
        self.0.with_dim_name(kind, pos, name).map(Map)
    }

    /// True when, after structural simplification, no conjunction is left (no
    /// solver involved: `false` does not prove the map non-empty; see
    /// [`Map::is_empty`]).
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
    /// `isl_map_plain_is_equal`; `false` does not prove the maps differ, see
    /// [`Map::is_equal`]).
    pub fn plain_is_equal(&self, other: &Map) -> bool {
        self.0.plain_is_equal(&other.0)
    }

    /// The same map with every conjunction structurally simplified.
    pub fn simplify(&self) -> Map {
        Map(self.0.simplified())
    }
}

impl From<BasicMap> for Map {
    fn from(b: BasicMap) -> Map {
        Map(Disjunction::from_conj(b.0))
    }
}

impl Map {
    /// The map with its parameters restricted to the parameter set `params`
    /// (isl's `isl_map_intersect_params`), as [`Set::intersect_params`].
    #[doc(alias = "isl_map_intersect_params")]
    pub fn intersect_params(&self, params: &Set) -> Result<Map> {
        check_params_set(params)?;
        Ok(Map(self.0.intersect_params(&params.0)?))
    }
}

impl Map {
    /// The map with domain and range swapped.
    pub fn reverse(&self) -> Map {
        let sp = &self.0.space;
        let space = sp.reversed().unwrap_or_else(|| sp.clone());
        let (np, ni, no) = (sp.n_param(), sp.n_in(), sp.n_out());
        let parts = self
            .0
            .parts
            .iter()
            .map(|c| {
                let colmap: Vec<usize> = (0..c.n_col())
                    .map(|col| match col {
                        col if col <= np => col,
                        col if col <= np + ni => col + no,
                        col if col <= np + ni + no => col - ni,
                        col => col,
                    })
                    .collect();
                c.remap(space.clone(), c.n_local(), &colmap)
            })
            .collect();
        Map(Disjunction { space, parts })
    }

    /// The domain: the set of inputs that have an image (outputs quantified).
    pub fn domain(&self) -> Set {
        let no = self.0.space.n_out();
        let d = self.0.project_to(true, no);
        Set(d)
    }

    /// The range: the set of outputs that have a preimage (inputs quantified).
    pub fn range(&self) -> Set {
        let ni = self.0.space.n_in();
        Set(self.0.project_to(false, ni))
    }

    /// Restricts the domain to `set`.
    pub fn intersect_domain(&self, set: &Set) -> Result<Map> {
        let dom = self
            .0
            .space
            .domain_space()
            .unwrap_or_else(|| self.0.space.clone());
        if !dom.same_tuples(&set.0.space) {
            return Err(Error::SpaceMismatch(
                "the set does not live in the domain of the map".into(),
            ));
        }
        let lifted = Set::universe(self.0.space.range_space())?;
        let prod = set.flat_product(&lifted)?;
        let as_map = prod
            .0
            .relabel(self.0.space.with_params(prod.0.space.params().to_vec()));
        Ok(Map(self.0.intersect(&as_map)?))
    }

    /// Restricts the range to `set`.
    pub fn intersect_range(&self, set: &Set) -> Result<Map> {
        Ok(self.reverse().intersect_domain(set)?.reverse())
    }

    /// The image of `set` under the map: `{ y : exists x in set : x -> y }`
    /// (isl's `isl_set_apply(set, map)`).
    ///
    /// ```
    /// use presburger::{Map, Set};
    /// let m: Map = "{ S[i] -> A[i + 1] }".parse()?;
    /// let s: Set = "[N] -> { S[i] : 0 <= i < N }".parse()?;
    /// assert!(m.apply_to(&s)?.is_equal(&"[N] -> { A[a] : 1 <= a <= N }".parse()?)?);
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_set_apply")]
    pub fn apply_to(&self, set: &Set) -> Result<Set> {
        Ok(self.intersect_domain(set)?.range())
    }

    /// Composition `self` then `next`: `{ x -> z : exists y : x -> y in self and
    /// y -> z in next }` (isl's `isl_map_apply_range`).
    ///
    /// ```
    /// use presburger::Map;
    /// let m: Map = "{ S[i] -> A[2i] }".parse()?;
    /// let n: Map = "{ A[a] -> B[a + 1] }".parse()?;
    /// assert!(m.apply_range(&n)?.is_equal(&"{ S[i] -> B[2i + 1] }".parse()?)?);
    /// assert!(n.apply_range(&n).is_err()); // B is not A
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_map_apply_range")]
    pub fn apply_range(&self, next: &Map) -> Result<Map> {
        let (a, b) = (&self.0.space, &next.0.space);
        let (Some(bd), ar) = (b.domain_tuple(), a.range_tuple()) else {
            return Err(Error::SpaceMismatch("apply_range needs maps".into()));
        };
        if !bd.same_shape(ar) {
            return Err(Error::SpaceMismatch(
                "the range of the first map is not the domain of the second".into(),
            ));
        }
        let params = merged_params(a.params(), b.params());
        let x = self.0.align_params(&params);
        let y = next.0.align_params(&params);
        let (np, ni, nm, no) = (params.len(), a.n_in(), a.n_out(), b.n_out());
        // Work space [params | in | mid | out], then the middle becomes local.
        let work = Space::map(
            params.clone(),
            Tuple::concat(x.space.domain_tuple().unwrap_or(ar), ar),
            y.space.range_tuple().clone(),
        );
        let mut parts = Vec::new();
        for p in &x.parts {
            for q in &y.parts {
                // p: [params | in | mid | locals_p]  -> work columns, locals first p then q
                let base = 1 + np + ni + nm + no;
                let pmap: Vec<usize> = (0..p.n_col())
                    .map(|c| {
                        if c <= np + ni + nm {
                            c
                        } else {
                            base + (c - 1 - np - ni - nm)
                        }
                    })
                    .collect();
                let qmap: Vec<usize> = (0..q.n_col())
                    .map(|c| match c {
                        c if c <= np => c,
                        c if c <= np + nm + no => c + ni,
                        c => base + p.n_local() + (c - 1 - np - nm - no),
                    })
                    .collect();
                let n_local = p.n_local() + q.n_local();
                let mut r = p.remap(work.clone(), n_local, &pmap);
                let s = q.remap(work.clone(), n_local, &qmap);
                for (l, d) in s.divs.into_iter().enumerate() {
                    if d.is_some() {
                        r.divs[l] = d;
                    }
                }
                r.eqs.extend(s.eqs);
                r.ineqs.extend(s.ineqs);
                parts.push(r);
            }
        }
        let d = Disjunction { space: work, parts };
        // Move the middle (last `nm` dims of the work input tuple) to locals.
        let moved = d.move_dims(DimKind::Local, 0, DimKind::In, ni, nm)?;
        let space = Space::map(
            params,
            x.space
                .domain_tuple()
                .cloned()
                .unwrap_or_else(|| Tuple::anonymous(0)),
            y.space.range_tuple().clone(),
        );
        Ok(Map(moved.relabel(space)))
    }

    /// isl's `isl_map_apply_domain`: `self` (`A -> B`) and `other` (`A -> C`)
    /// give `C -> B`, `{ z -> y : exists x : x -> z in other and x -> y in self }`.
    ///
    /// ```
    /// use presburger::Map;
    /// let access: Map = "{ S[i] -> A[i] }".parse()?;
    /// let schedule: Map = "{ S[i] -> [t] : t = 2i }".parse()?;
    /// let by_time: Map = "{ [t] -> A[a] : t = 2a }".parse()?;
    /// assert!(access.apply_domain(&schedule)?.is_equal(&by_time)?);
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_map_apply_domain")]
    pub fn apply_domain(&self, other: &Map) -> Result<Map> {
        other.reverse().apply_range(self)
    }

    /// `{ x -> y : x in self.domain-side set, y in other }`, the cross product of
    /// two sets as a map.
    pub fn from_domain_and_range(domain: &Set, range: &Set) -> Result<Map> {
        let prod = domain.flat_product(range)?;
        let params = prod.0.space.params().to_vec();
        let space = Space::map(
            params,
            domain.0.space.range_tuple().clone(),
            range.0.space.range_tuple().clone(),
        );
        Ok(Map(prod.0.relabel(space)))
    }

    /// Flat product of maps: `[a -> b] x [c -> d]` gives `[a, c] -> [b, d]`.
    pub fn flat_product(&self, other: &Map) -> Result<Map> {
        let params = merged_params(self.0.space.params(), other.0.space.params());
        let a = self.0.align_params(&params);
        let b = other.0.align_params(&params);
        let (Some(ad), Some(bd)) = (a.space.domain_tuple(), b.space.domain_tuple()) else {
            return Err(Error::SpaceMismatch(
                "flat_product of maps needs maps".into(),
            ));
        };
        let space = Space::map(
            params,
            Tuple::concat(ad, bd),
            Tuple::concat(a.space.range_tuple(), b.space.range_tuple()),
        );
        let mut parts = Vec::new();
        for x in &a.parts {
            for y in &b.parts {
                parts.push(product_conj(
                    &space,
                    x,
                    Some(x.space.n_in()),
                    y,
                    Some(y.space.n_in()),
                )?);
            }
        }
        let mut d = Disjunction { space, parts };
        d.simplify();
        Ok(Map(d))
    }
}
