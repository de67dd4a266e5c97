//! `Set`: the type and every public method of it.

use super::*;

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
