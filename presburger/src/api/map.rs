//! `Map`: the type and every public method of it.

use super::*;
use crate::algebra::algebra_budget;
use crate::solve::{empty_parts, sample_of_parts};
use crate::solver::budget::Budget;

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

// Set algebra (subtraction, complement, comparisons, coalescing): the algorithms are in `src/ops/algebra.rs`.
impl Map {
    /// The pairs of `self` that are not in `other` (exact, existentials
    /// included; isl's `isl_map_subtract`). All the work shares one budget
    /// of [`ALGEBRA_DEFAULT_STEPS`](crate::ALGEBRA_DEFAULT_STEPS); running out is [`Error::Budget`].
    ///
    /// ```
    /// use presburger::Map;
    /// let m: Map = "{ [i] -> [j] : 0 <= i, j <= 2 }".parse()?;
    /// let off: Map = "{ [i] -> [j] : 0 <= i, j <= 2 and i != j }".parse()?;
    /// assert!(m.subtract(&"{ [i] -> [i] }".parse()?)?.is_equal(&off)?);
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_map_subtract")]
    pub fn subtract(&self, other: &Map) -> Result<Map> {
        self.subtract_with_budget(other, &mut algebra_budget())
    }

    /// As [`Map::subtract`], spending from `budget`.
    pub fn subtract_with_budget(&self, other: &Map, budget: &mut Budget) -> Result<Map> {
        self.0.subtract_in(&other.0, budget).map(Map)
    }

    /// The pairs of the space (for all parameter values) that are not in
    /// `self` (isl's `isl_map_complement`).
    #[doc(alias = "isl_map_complement")]
    pub fn complement(&self) -> Result<Map> {
        self.complement_with_budget(&mut algebra_budget())
    }

    /// As [`Map::complement`], spending from `budget`.
    pub fn complement_with_budget(&self, budget: &mut Budget) -> Result<Map> {
        self.0.complement_in(budget).map(Map)
    }

    /// True when every pair of `self` is in `other` (isl's
    /// `isl_map_is_subset`).
    #[doc(alias = "isl_map_is_subset")]
    pub fn is_subset(&self, other: &Map) -> Result<bool> {
        self.is_subset_with_budget(other, &mut algebra_budget())
    }

    /// As [`Map::is_subset`], spending from `budget`.
    pub fn is_subset_with_budget(&self, other: &Map, budget: &mut Budget) -> Result<bool> {
        self.0.is_subset_in(&other.0, budget)
    }

    /// True when both have the same pairs (isl's `isl_map_is_equal`).
    #[doc(alias = "isl_map_is_equal")]
    pub fn is_equal(&self, other: &Map) -> Result<bool> {
        self.is_equal_with_budget(other, &mut algebra_budget())
    }

    /// As [`Map::is_equal`], spending from `budget` (both inclusions
    /// together).
    pub fn is_equal_with_budget(&self, other: &Map, budget: &mut Budget) -> Result<bool> {
        self.0.is_equal_in(&other.0, budget)
    }

    /// True when no pair is in both (isl's `isl_map_is_disjoint`).
    #[doc(alias = "isl_map_is_disjoint")]
    pub fn is_disjoint(&self, other: &Map) -> Result<bool> {
        self.is_disjoint_with_budget(other, &mut algebra_budget())
    }

    /// As [`Map::is_disjoint`], spending from `budget`.
    pub fn is_disjoint_with_budget(&self, other: &Map, budget: &mut Budget) -> Result<bool> {
        self.0.is_disjoint_in(&other.0, budget)
    }

    /// The same map with fewer conjunctions where two or more can be
    /// replaced exactly by one (isl's `isl_map_coalesce`; see the module
    /// documentation of the algebra for the cases handled).
    #[doc(alias = "isl_map_coalesce")]
    pub fn coalesce(&self) -> Result<Map> {
        self.coalesce_with_budget(&mut algebra_budget())
    }

    /// As [`Map::coalesce`], spending from `budget`.
    pub fn coalesce_with_budget(&self, budget: &mut Budget) -> Result<Map> {
        self.0.coalesce_in(budget).map(Map)
    }
}

// Gist and simplification: the algorithms are in `src/ops/gist.rs`.
impl Map {
    /// `self` simplified in the context `context` (isl's `isl_map_gist`), as
    /// [`Set::gist`].
    #[doc(alias = "isl_map_gist")]
    pub fn gist(&self, context: &Map) -> Result<Map> {
        self.gist_with_budget(context, &mut algebra_budget())
    }

    /// As [`Map::gist`], spending from `budget`.
    pub fn gist_with_budget(&self, context: &Map, budget: &mut Budget) -> Result<Map> {
        self.0.gist_in(&context.0, budget).map(Map)
    }

    /// The same map with the implicit equalities of every conjunction made
    /// explicit (isl's `isl_map_detect_equalities`).
    #[doc(alias = "isl_map_detect_equalities")]
    pub fn detect_equalities(&self) -> Map {
        Map(self.0.with_each(Conjunction::detect_equalities))
    }

    /// The same map with implicit equalities, redundant constraints and
    /// eliminable locals removed from every conjunction and the empty
    /// conjunctions dropped, as [`Set::simplify_full`].
    pub fn simplify_full(&self) -> Result<Map> {
        self.simplify_full_with_budget(&mut Budget::default())
    }

    /// As [`Map::simplify_full`], spending from `budget`.
    pub fn simplify_full_with_budget(&self, budget: &mut Budget) -> Result<Map> {
        self.0.simplify_full(budget).map(Map)
    }
}

// Map and product operations: the algorithms are in `src/ops/maps.rs`.
impl Map {
    /// The identity map `{ x -> x }` on a set space.
    pub fn identity(space: &Space) -> Result<Map> {
        Self::identity_impl(space)
    }

    /// `{ y - x : x -> y in self }`, for a map whose input and output have the same
    /// number of dimensions (the tuple of the result is anonymous).
    pub fn deltas(&self) -> Result<Set> {
        self.deltas_impl()
    }

    /// The map as a set of pairs `{ [A[..] -> B[..]] }`.
    pub fn wrap(&self) -> Set {
        self.wrap_impl()
    }

    /// Flat tuples on both sides (nesting forgotten, dimension names kept).
    pub fn flatten(&self) -> Map {
        self.flatten_impl()
    }

    /// `[A -> B] x [C -> D]` gives `[A -> C] -> [B -> D]` (isl's product).
    pub fn product(&self, other: &Map) -> Result<Map> {
        self.product_impl(other)
    }

    /// `A -> B` and `A -> C` give `A -> [B -> C]`: the pairs of images of each input.
    pub fn range_product(&self, other: &Map) -> Result<Map> {
        self.range_product_impl(other)
    }

    /// `{ x -> y : x <_lex y }` on a set space (a union over the first position where
    /// they differ), as used for dependences.
    pub fn lex_lt(space: &Space) -> Result<Map> {
        Self::lex_lt_impl(space)
    }

    /// `{ x -> y : x <=_lex y }`.
    pub fn lex_le(space: &Space) -> Result<Map> {
        Self::lex_le_impl(space)
    }

    /// `{ x -> y : x >_lex y }`.
    pub fn lex_gt(space: &Space) -> Result<Map> {
        Self::lex_gt_impl(space)
    }

    /// `{ x -> y : x >=_lex y }`.
    pub fn lex_ge(space: &Space) -> Result<Map> {
        Self::lex_ge_impl(space)
    }

    /// The pairs whose input is not in `set` (one budget of
    /// [`ALGEBRA_DEFAULT_STEPS`](crate::algebra::ALGEBRA_DEFAULT_STEPS) for the
    /// complement of `set`).
    pub fn subtract_domain(&self, set: &Set) -> Result<Map> {
        self.subtract_domain_with_budget(set, &mut crate::algebra::algebra_budget())
    }

    /// As `subtract_domain`, spending from `budget`.
    pub fn subtract_domain_with_budget(&self, set: &Set, budget: &mut Budget) -> Result<Map> {
        self.subtract_domain_with_budget_impl(set, budget)
    }

    /// The pairs whose output is not in `set`.
    pub fn subtract_range(&self, set: &Set) -> Result<Map> {
        self.subtract_range_with_budget(set, &mut crate::algebra::algebra_budget())
    }

    /// As `subtract_range`, spending from `budget`.
    pub fn subtract_range_with_budget(&self, set: &Set, budget: &mut Budget) -> Result<Map> {
        self.subtract_range_with_budget_impl(set, budget)
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
        self.is_injective_impl()
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
        self.curry_impl()
    }

    /// `{ A -> [B -> C] }` as `{ [A -> B] -> C }` (isl's `isl_map_uncurry`),
    /// the inverse of [`Map::curry`]. An error when the range is not a pair.
    #[doc(alias = "isl_map_uncurry")]
    pub fn uncurry(&self) -> Result<Map> {
        self.uncurry_impl()
    }

    /// `{ [A -> B] -> A : A -> B in self }` (isl's `isl_map_domain_map`): each
    /// pair of the map, wrapped, to its input. The domain of the result is the
    /// map's space wrapped, `[A -> B]`, with the tuple names and nesting of
    /// `A` and `B` as they are (isl prints the same); its range is `A`.
    ///
    /// ```
    /// use presburger::Map;
    /// let m: Map = "{ S[i] -> T[j] : j = i + 1 }".parse()?;
    /// let want: Map = "{ [S[i] -> T[j]] -> S[i] : j = i + 1 }".parse()?;
    /// assert!(m.domain_map().is_equal(&want)?);
    /// assert_eq!(m.domain_map().to_string(), "{ [S[i] -> T[j]] -> S[i] : j = i + 1 }");
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_map_domain_map")]
    pub fn domain_map(&self) -> Map {
        self.domain_map_impl()
    }

    /// `{ [A -> B] -> B : A -> B in self }` (isl's `isl_map_range_map`): each
    /// pair of the map, wrapped, to its output, as [`Map::domain_map`].
    ///
    /// ```
    /// use presburger::Map;
    /// let m: Map = "[N] -> { S[i] -> T[j] : 0 <= i < N and j = i + 1 }".parse()?;
    /// let want: Map = "[N] -> { [S[i] -> T[j]] -> T[j] : 0 <= i < N and j = i + 1 }".parse()?;
    /// assert!(m.range_map().is_equal(&want)?);
    /// // the range of the range map is the range of the map
    /// assert!(m.range_map().range().is_equal(&m.range())?);
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_map_range_map")]
    pub fn range_map(&self) -> Map {
        self.range_map_impl()
    }

    /// True when both the domain and the range are wrapped pairs, so that
    /// [`Map::zip`] applies (isl's `isl_map_can_zip`).
    #[doc(alias = "isl_map_can_zip")]
    pub fn can_zip(&self) -> bool {
        self.can_zip_impl()
    }

    /// `{ [A -> C] -> [B -> D] : [A -> B] -> [C -> D] in self }` (isl's
    /// `isl_map_zip`): the inner parts exchanged, for a map whose domain and
    /// range are both wrapped pairs. The names of the four inner tuples stay;
    /// the names of the two wrapped tuples themselves (`F` in `F[A[i] ->
    /// B[j]]`) are dropped, as isl drops them. An error
    /// ([`Error::SpaceMismatch`]) when the domain or the range is not a pair.
    ///
    /// ```
    /// use presburger::Map;
    /// let m: Map = "{ [A[a] -> B[b]] -> [C[c] -> D[d]] : a + b = c and d = 2a }".parse()?;
    /// let want: Map = "{ [A[a] -> C[c]] -> [B[b] -> D[d]] : a + b = c and d = 2a }".parse()?;
    /// assert!(m.zip()?.is_equal(&want)?);
    /// assert!(m.zip()?.zip()?.is_equal(&m)?);
    /// assert!("{ A[a] -> [C[c] -> D[d]] }".parse::<Map>()?.zip().is_err());
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_map_zip")]
    pub fn zip(&self) -> Result<Map> {
        self.zip_impl()
    }

    /// The map with `n` new unconstrained dimensions of `kind` (`DimKind::In`
    /// or `DimKind::Out`) inserted before position `pos` of that tuple (isl's
    /// `isl_map_insert_dims`). As in isl, the tuple that receives them loses
    /// its name and nesting, even when `n` is 0 (its dimensions keep their
    /// names, the new ones have none); the other tuple is unchanged.
    ///
    /// Errors ([`Error::Invalid`]): `pos` beyond the number of dimensions of
    /// `kind` (isl accepts any `pos` when `n` is 0; here it must be in range
    /// always); `DimKind::Param`, because parameters are identified by name
    /// here (use [`Map::insert_params`]); and `DimKind::Local`.
    ///
    /// ```
    /// use presburger::{DimKind, Map};
    /// let m: Map = "{ S[i] -> T[j] : j = i + 1 }".parse()?;
    /// let want: Map = "{ [i, k] -> T[j] : j = i + 1 }".parse()?;
    /// assert!(m.insert_dims(DimKind::In, 1, 1)?.is_equal(&want)?);
    /// assert!(m.insert_dims(DimKind::Out, 2, 1).is_err());
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_map_insert_dims")]
    pub fn insert_dims(&self, kind: DimKind, pos: usize, n: usize) -> Result<Map> {
        self.insert_dims_impl(kind, pos, n)
    }

    /// The map with new unconstrained parameters `names` inserted before
    /// position `pos` of the parameter list: isl's `isl_map_insert_dims` with
    /// `isl_dim_param`, whose new parameters have no name in isl, and then
    /// the names set (`isl_map_set_dim_name`). The tuples are unchanged.
    /// Errors ([`Error::Invalid`]) for `pos` beyond the number of parameters,
    /// a name that is not an identifier, and a name already taken.
    ///
    /// ```
    /// use presburger::Map;
    /// let m: Map = "[N] -> { S[i] -> T[i] : i < N }".parse()?;
    /// let p = m.insert_params(0, &["M"])?;
    /// assert_eq!(p.space().params(), ["M", "N"]);
    /// assert!(m.insert_params(0, &["N"]).is_err());
    /// # Ok::<(), presburger::Error>(())
    /// ```
    pub fn insert_params(&self, pos: usize, names: &[&str]) -> Result<Map> {
        self.insert_params_impl(pos, names)
    }
}

// Exact projection and redundancy removal: the algorithms are in `src/ops/project.rs`.
impl Map {
    /// Exact projection, as [`Set::project_out_exact`]: the same map as
    /// [`Map::project_out`] (isl's `isl_map_project_out`), with the locals
    /// eliminated where that is exact.
    pub fn project_out_exact(&self, kind: DimKind, pos: usize, n: usize) -> Result<Map> {
        Ok(self.project_out(kind, pos, n)?.eliminate_locals())
    }

    /// The same map with the locals of every conjunction eliminated where
    /// that is exact, as [`Set::eliminate_locals`].
    pub fn eliminate_locals(&self) -> Map {
        Map(self.0.with_each(Conjunction::eliminate_locals_exactly))
    }

    /// The same map without the redundant inequalities of each conjunction.
    pub fn remove_redundancies(&self) -> Map {
        Map(self.0.with_each(Conjunction::remove_redundancies))
    }
}

// Emptiness, sampling and optimisation (the solver): the algorithms are in `src/solver/solve.rs`.
impl Map {
    /// True when no disjunct has an integer pair (isl's `isl_map_is_empty`).
    ///
    /// ```
    /// use presburger::Map;
    /// let m: Map = "[N] -> { [i] -> [j] : 0 <= i < N and j = 2i + 1 and j mod 2 = 0 }".parse()?;
    /// assert!(m.is_empty()?);
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_map_is_empty")]
    pub fn is_empty(&self) -> Result<bool> {
        empty_parts(self.0.parts.iter(), &mut Budget::default())
    }

    /// As [`BasicMap::sample`].
    pub fn sample(&self) -> Result<Option<Vec<Int>>> {
        sample_of_parts(self.0.parts.iter(), &mut Budget::default())
    }

    /// The lexicographic minimum of the image of every input (isl's
    /// `isl_map_lexmin`): the map taking each input and parameter value with a
    /// non-empty image to the lexicographically smallest output, as a
    /// piecewise quasi-affine function (its pieces may use divisions of the
    /// inputs and parameters). [`Error::Unbounded`] when some image has no
    /// smallest element. Parametric integer programming (Feautrier, 1988), see
    /// `src/solver/pip.rs`.
    ///
    /// ```
    /// use presburger::Map;
    /// let m: Map = "[N] -> { [i] -> [j] : j >= i and j >= 0 and 3j >= N and j <= 10 }".parse()?;
    /// let want: Map = "[N] -> { [i] -> [j] : i <= 10 and N <= 30 and j >= i and j >= 0 \
    ///     and 3j >= N and (j = i or j = 0 or 3j <= N + 2) }".parse()?;
    /// assert!(m.lexmin()?.is_equal(&want)?);
    /// let down: Map = "{ [i] -> [j] : j <= i }".parse()?;
    /// assert!(matches!(down.lexmin(), Err(presburger::Error::Unbounded(_))));
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_map_lexmin")]
    #[doc(alias = "lexmin_map")]
    pub fn lexmin(&self) -> Result<Map> {
        self.lexmin_with_budget(&mut Budget::default())
    }

    /// As [`Map::lexmin`], spending from `budget`.
    pub fn lexmin_with_budget(&self, budget: &mut Budget) -> Result<Map> {
        self.lexopt_impl(false, budget)
    }

    /// The lexicographic maximum of the image of every input (isl's
    /// `isl_map_lexmax`), as [`Map::lexmin`].
    ///
    /// ```
    /// use presburger::Map;
    /// let m: Map = "{ [i] -> [j, k] : 0 <= j <= i and 0 <= k <= 2j and k <= 7 }".parse()?;
    /// let want: Map = "{ [i] -> [i, k] : i >= 0 and k = min(2i, 7) }".parse()?;
    /// assert!(m.lexmax()?.is_equal(&want)?);
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_map_lexmax")]
    #[doc(alias = "lexmax_map")]
    pub fn lexmax(&self) -> Result<Map> {
        self.lexmax_with_budget(&mut Budget::default())
    }

    /// As [`Map::lexmax`], spending from `budget`.
    pub fn lexmax_with_budget(&self, budget: &mut Budget) -> Result<Map> {
        self.lexopt_impl(true, budget)
    }

    /// The lexicographic minimum of the image of every input as a function
    /// of the inputs and parameters (isl's `isl_map_lexmin_pw_multi_aff`): a
    /// [`PwMultiAff`] defined where the image is not empty; pieces with equal
    /// expressions are merged. [`Error::Unbounded`] as [`Map::lexmin`].
    ///
    /// ```
    /// use presburger::Map;
    /// let m: Map = "{ [i] -> [j] : j >= i and j >= 0 and j <= 10 }".parse()?;
    /// assert_eq!(
    ///     m.lexmin_pw_multi_aff()?.to_string(),
    ///     "{ [i] -> [(i)] : 0 <= i <= 10; [i] -> [(0)] : i <= -1 }"
    /// );
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_map_lexmin_pw_multi_aff")]
    pub fn lexmin_pw_multi_aff(&self) -> Result<PwMultiAff> {
        Ok(self.lexopt_function_impl(false, &mut Budget::default())?.0)
    }

    /// The lexicographic maximum of the image of every input as a function
    /// (isl's `isl_map_lexmax_pw_multi_aff`), as [`Map::lexmin_pw_multi_aff`].
    #[doc(alias = "isl_map_lexmax_pw_multi_aff")]
    pub fn lexmax_pw_multi_aff(&self) -> Result<PwMultiAff> {
        Ok(self.lexopt_function_impl(true, &mut Budget::default())?.0)
    }

    /// [`Map::lexmin_pw_multi_aff`] (or the maximum when `maximize`) together
    /// with the inputs and parameter values whose image is empty (isl's
    /// `isl_map_partial_lexmin_pw_multi_aff` with its `empty` result),
    /// spending from `budget`.
    #[doc(alias = "isl_map_partial_lexmin_pw_multi_aff")]
    #[doc(alias = "isl_map_partial_lexmax_pw_multi_aff")]
    pub fn partial_lexopt(&self, maximize: bool, budget: &mut Budget) -> Result<(PwMultiAff, Set)> {
        self.lexopt_function_impl(maximize, budget)
    }
}
