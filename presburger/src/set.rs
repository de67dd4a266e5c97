//! Sets and maps: single conjunctions (`BasicSet`, `BasicMap`), finite unions of
//! conjunctions in one space (`Set`, `Map`), and unions across spaces (`UnionSet`,
//! `UnionMap`), with the structural operations that need no solver.
//!
//! Binary operations first align parameters by name (the union of both lists, in
//! order of first appearance), as isl does, so `[N] -> { .. }` and `[M, N] -> { .. }`
//! combine. Every operation here is exact.

use crate::conjunction::Conjunction;
use crate::error::{Error, Result};
use crate::int::Int;
use crate::space::{DimKind, Space, Tuple, TupleBody};

/// The union of two parameter lists, `a` first, then the new names of `b`.
pub(crate) fn merged_params(a: &[String], b: &[String]) -> Vec<String> {
    let mut out = a.to_vec();
    for p in b {
        if !out.contains(p) {
            out.push(p.clone());
        }
    }
    out
}

impl Conjunction {
    /// The same conjunction over the parameter list `params`, which must contain
    /// every parameter of `self` (the others are new, unconstrained columns).
    pub(crate) fn align_params(&self, params: &[String]) -> Conjunction {
        if self.space.params() == params {
            return self.clone();
        }
        let np = params.len();
        let old = self.space.params();
        let mut colmap = Vec::with_capacity(self.n_col());
        colmap.push(0);
        for p in old {
            let pos = params.iter().position(|q| q == p).unwrap_or(0);
            colmap.push(1 + pos);
        }
        for c in 1 + old.len()..self.n_col() {
            colmap.push(c - old.len() + np);
        }
        self.remap(
            self.space.with_params(params.to_vec()),
            self.n_local(),
            &colmap,
        )
    }
}

/// A finite union of conjunctions in one space: the shared core of `Set` and `Map`.
#[derive(Debug, Clone)]
pub(crate) struct Disjunction {
    pub(crate) space: Space,
    pub(crate) parts: Vec<Conjunction>,
}

impl Disjunction {
    pub(crate) fn empty(space: Space) -> Disjunction {
        Disjunction {
            space,
            parts: Vec::new(),
        }
    }

    pub(crate) fn universe(space: Space) -> Disjunction {
        Disjunction {
            parts: vec![Conjunction::universe(space.clone())],
            space,
        }
    }

    pub(crate) fn from_conj(c: Conjunction) -> Disjunction {
        let mut d = Disjunction {
            space: c.space.clone(),
            parts: vec![c],
        };
        d.simplify();
        d
    }

    /// The same conjunctions in another space with the same column layout.
    pub(crate) fn relabel(&self, space: Space) -> Disjunction {
        Disjunction {
            parts: self
                .parts
                .iter()
                .map(|c| {
                    let mut c = c.clone();
                    c.space = space.clone();
                    c
                })
                .collect(),
            space,
        }
    }

    pub(crate) fn align_params(&self, params: &[String]) -> Disjunction {
        Disjunction {
            space: self.space.with_params(params.to_vec()),
            parts: self.parts.iter().map(|c| c.align_params(params)).collect(),
        }
    }

    fn aligned_pair(&self, other: &Disjunction, what: &str) -> Result<(Disjunction, Disjunction)> {
        if !self.space.same_tuples(&other.space) {
            return Err(Error::SpaceMismatch(format!(
                "{what} of objects in different spaces ({} and {})",
                self.space.tuple_key(),
                other.space.tuple_key()
            )));
        }
        let params = merged_params(self.space.params(), other.space.params());
        Ok((self.align_params(&params), other.align_params(&params)))
    }

    /// True for a parameter set: a set with no dimensions and no tuple name
    /// (isl's `[n] -> { : n > 0 }`).
    pub(crate) fn is_params(&self) -> bool {
        self.space.is_params()
    }

    /// `self` restricted by the parameter set `p` (its constraints added to
    /// every conjunction, the parameters merged).
    pub(crate) fn intersect_params(&self, p: &Disjunction) -> Result<Disjunction> {
        debug_assert!(p.is_params());
        let params = merged_params(self.space.params(), p.space.params());
        let (a, p) = (self.align_params(&params), p.align_params(&params));
        let (np, nd) = (params.len(), a.space.n_var() - params.len());
        let mut parts = Vec::with_capacity(a.parts.len() * p.parts.len());
        for y in &p.parts {
            // the parameter conjunction over a's columns: its locals after a's dims
            let colmap: Vec<usize> = (0..y.n_col())
                .map(|c| if c <= np { c } else { c + nd })
                .collect();
            let lifted = y.remap(a.space.clone(), y.n_local(), &colmap);
            for x in &a.parts {
                parts.push(x.intersect(&lifted)?);
            }
        }
        let mut d = Disjunction {
            space: a.space,
            parts,
        };
        d.simplify();
        Ok(d)
    }

    pub(crate) fn union(&self, other: &Disjunction) -> Result<Disjunction> {
        let (mut a, b) = self.aligned_pair(other, "union")?;
        a.parts.extend(b.parts);
        a.simplify();
        Ok(a)
    }

    pub(crate) fn intersect(&self, other: &Disjunction) -> Result<Disjunction> {
        let (a, b) = self.aligned_pair(other, "intersection")?;
        let mut parts = Vec::with_capacity(a.parts.len() * b.parts.len());
        for x in &a.parts {
            for y in &b.parts {
                parts.push(x.intersect(y)?);
            }
        }
        let mut d = Disjunction {
            space: a.space,
            parts,
        };
        d.simplify();
        Ok(d)
    }

    /// Simplifies every conjunction, drops the empty ones, collapses to the universe
    /// when one conjunction is universal, and drops exact duplicates.
    pub(crate) fn simplify(&mut self) {
        for p in &mut self.parts {
            p.simplify();
        }
        self.parts.retain(|p| !p.is_trivially_empty());
        if let Some(u) = self
            .parts
            .iter()
            .position(Conjunction::is_trivially_universe)
        {
            let u = self.parts.swap_remove(u);
            self.parts = vec![u];
            return;
        }
        let mut kept: Vec<Conjunction> = Vec::with_capacity(self.parts.len());
        for p in self.parts.drain(..) {
            if !kept
                .iter()
                .any(|k| k.divs == p.divs && k.eqs == p.eqs && k.ineqs == p.ineqs)
            {
                kept.push(p);
            }
        }
        self.parts = kept;
    }

    pub(crate) fn map_parts(
        &self,
        space: Space,
        f: impl Fn(&Conjunction) -> Result<Conjunction>,
    ) -> Result<Disjunction> {
        let parts = self.parts.iter().map(f).collect::<Result<Vec<_>>>()?;
        let mut d = Disjunction { space, parts };
        d.simplify();
        Ok(d)
    }

    pub(crate) fn plain_is_equal(&self, other: &Disjunction) -> bool {
        let (mut a, mut b) = (self.clone(), other.clone());
        a.simplify();
        b.simplify();
        a.space.is_same(&b.space)
            && a.parts.len() == b.parts.len()
            && a.parts
                .iter()
                .all(|p| b.parts.iter().any(|q| p.plain_is_equal(q)))
    }

    /// Moves `n` variables between kinds (parameters, input, output, locals),
    /// building the new space. Names of dimensions that become parameters must be
    /// present and new.
    pub(crate) fn move_dims(
        &self,
        dst: DimKind,
        dst_pos: usize,
        src: DimKind,
        src_pos: usize,
        n: usize,
    ) -> Result<Disjunction> {
        if src == DimKind::Local {
            return Err(Error::Invalid(
                "locals belong to single conjunctions and cannot be moved".into(),
            ));
        }
        self.space.check_range(src, src_pos, n)?;
        let mut params = self.space.params().to_vec();
        let mut domain = self.space.domain_tuple().cloned();
        let mut range = self.space.range_tuple().clone();
        // Take the names out of the source.
        let names: Vec<Option<String>> = match src {
            DimKind::Param => params.drain(src_pos..src_pos + n).map(Some).collect(),
            DimKind::In => take_dims(domain.as_mut(), src_pos, n),
            DimKind::Out => take_dims(Some(&mut range), src_pos, n),
            DimKind::Local => unreachable!(),
        };
        // Put them into the destination.
        match dst {
            DimKind::Param => {
                if dst_pos > params.len() {
                    return Err(Error::Invalid("parameter position out of range".into()));
                }
                let mut new = Vec::new();
                for nm in names {
                    let Some(nm) = nm else {
                        return Err(Error::Invalid(
                            "a dimension without a name cannot become a parameter".into(),
                        ));
                    };
                    if params.contains(&nm) || new.contains(&nm) {
                        return Err(Error::Invalid(format!("parameter {nm} exists already")));
                    }
                    new.push(nm);
                }
                params.splice(dst_pos..dst_pos, new);
            }
            DimKind::In => {
                let Some(d) = domain.as_mut() else {
                    return Err(Error::Invalid("a set has no input dimensions".into()));
                };
                put_dims(d, dst_pos, names)?;
            }
            DimKind::Out => put_dims(&mut range, dst_pos, names)?,
            DimKind::Local => {}
        }
        let space = match domain {
            Some(d) => Space::map(params, d, range),
            None => Space::set(params, range),
        };
        self.map_parts(space.clone(), |c| {
            let mut m = c.move_vars(space.clone(), src, src_pos, dst, dst_pos, n);
            if dst == DimKind::Local {
                m.eliminate_locals_exactly();
            }
            Ok(m)
        })
    }
}

fn take_dims(t: Option<&mut Tuple>, pos: usize, n: usize) -> Vec<Option<String>> {
    let Some(t) = t else { return Vec::new() };
    let mut names = t.dim_names();
    let taken = names.drain(pos..pos + n).collect();
    t.body = TupleBody::Dims(names);
    taken
}

fn put_dims(t: &mut Tuple, pos: usize, new: Vec<Option<String>>) -> Result<()> {
    let mut names = t.dim_names();
    if pos > names.len() {
        return Err(Error::Invalid("dimension position out of range".into()));
    }
    names.splice(pos..pos, new);
    t.body = TupleBody::Dims(names);
    Ok(())
}

/// A single conjunction of constraints in a set space (isl's
/// `isl_basic_set`): affine equalities and inequalities over parameters,
/// dimensions and existentially quantified locals.
///
/// ```
/// use presburger::BasicSet;
/// let b: BasicSet = "[N] -> { [i, j] : 0 <= i < N and j = 2i }".parse()?;
/// assert!(!b.is_empty()?);
/// assert_eq!(b.to_string(), "[N] -> { [i, 2i] : 0 <= i < N }");
/// # Ok::<(), presburger::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct BasicSet(pub(crate) Conjunction);

/// A single conjunction of constraints in a map space (isl's
/// `isl_basic_map`).
///
/// ```
/// use presburger::BasicMap;
/// let b: BasicMap = "{ S[i] -> A[i + 1] : 0 <= i < 10 }".parse()?;
/// assert!(!b.is_empty()?);
/// # Ok::<(), presburger::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct BasicMap(pub(crate) Conjunction);

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

/// `Ok` when `space` is a set space (`is_set`) or a map space (`!is_set`).
fn check_kind(space: &Space, is_set: bool) -> Result<()> {
    if space.is_set() != is_set {
        return Err(Error::SpaceMismatch(format!(
            "expected a {} space",
            if is_set { "set" } else { "map" }
        )));
    }
    Ok(())
}

impl Conjunction {
    /// `self`, or an error when its space is not of the kind asked for.
    fn of_kind(self, is_set: bool) -> Result<Conjunction> {
        check_kind(&self.space, is_set)?;
        Ok(self)
    }

    /// A simplified copy with `change` applied.
    fn changed(&self, change: impl FnOnce(&mut Conjunction) -> Result<()>) -> Result<Conjunction> {
        let mut c = self.clone();
        change(&mut c)?;
        c.simplify();
        Ok(c)
    }

    /// A copy with `change` applied.
    pub(crate) fn with(&self, change: impl FnOnce(&mut Conjunction)) -> Conjunction {
        let mut c = self.clone();
        change(&mut c);
        c
    }

    /// A simplified copy.
    fn simplified(&self) -> Conjunction {
        let mut c = self.clone();
        c.simplify();
        c
    }

    /// The conjunction of the constraints of both, the parameters aligned by
    /// name; an error for different tuples.
    fn intersect_aligned(&self, other: &Conjunction) -> Result<Conjunction> {
        if !self.space.same_tuples(&other.space) {
            return Err(Error::SpaceMismatch(
                "intersection of objects in different spaces".into(),
            ));
        }
        let params = merged_params(self.space.params(), other.space.params());
        let mut c = self
            .align_params(&params)
            .intersect(&other.align_params(&params))?;
        c.simplify();
        Ok(c)
    }
}

impl BasicSet {
    /// The basic set with no constraints in the set space `space` (isl's
    /// `isl_basic_set_universe`). An error for a map space.
    pub fn universe(space: Space) -> Result<BasicSet> {
        Conjunction::universe(space).of_kind(true).map(BasicSet)
    }

    /// The empty basic set in the set space `space` (isl's
    /// `isl_basic_set_empty`). An error for a map space.
    pub fn empty(space: Space) -> Result<BasicSet> {
        Conjunction::empty(space).of_kind(true).map(BasicSet)
    }

    /// The basic set of the conjunction `c`. An error when its space is a map
    /// space.
    pub fn from_conjunction(c: Conjunction) -> Result<BasicSet> {
        c.of_kind(true).map(BasicSet)
    }

    /// The conjunction of `constraints` (made from the expressions of
    /// [`crate::build`]) in the set space `space`.
    ///
    /// ```
    /// use presburger::build::var;
    /// use presburger::{BasicSet, Space, Tuple};
    /// let space = Space::set(vec!["n".into()], Tuple::new(Some("S"), &["i"]));
    /// let (i, n) = (var(&space, "i")?, var(&space, "n")?);
    /// let b = BasicSet::from_constraints(&space, [i.ge(0), i.lt(&n)])?;
    /// assert_eq!(b.to_string(), "[n] -> { S[i] : 0 <= i < n }");
    /// # Ok::<(), presburger::Error>(())
    /// ```
    pub fn from_constraints(
        space: &Space,
        constraints: impl IntoIterator<Item = crate::build::Constraint>,
    ) -> Result<BasicSet> {
        check_kind(space, true)?;
        crate::build::conjunction(space, constraints).map(BasicSet)
    }

    /// The underlying conjunction (its rows in the layout of the crate
    /// documentation).
    pub fn conjunction(&self) -> &Conjunction {
        &self.0
    }

    /// The space.
    pub fn space(&self) -> &Space {
        &self.0.space
    }

    /// Intersection: one conjunction of the constraints of both (isl's
    /// `isl_basic_set_intersect`), the parameters aligned by name. An error
    /// for different tuples.
    ///
    /// ```
    /// use presburger::BasicSet;
    /// let a: BasicSet = "[N] -> { [i] : 0 <= i < N }".parse()?;
    /// let b: BasicSet = "{ [i] : i >= 5 }".parse()?;
    /// let want: BasicSet = "[N] -> { [i] : 5 <= i < N }".parse()?;
    /// assert!(a.intersect(&b)?.plain_is_equal(&want));
    /// assert!(a.intersect(&"{ T[i] }".parse()?).is_err());
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_basic_set_intersect")]
    pub fn intersect(&self, other: &BasicSet) -> Result<BasicSet> {
        self.0.intersect_aligned(&other.0).map(BasicSet)
    }

    /// Adds the equality `row·(1, params, dims, locals) = 0` in place.
    pub fn add_eq(&mut self, row: Vec<Int>) -> Result<()> {
        self.0.add_eq(row)
    }

    /// Adds the inequality `row·(1, params, dims, locals) >= 0` in place.
    pub fn add_ineq(&mut self, row: Vec<Int>) -> Result<()> {
        self.0.add_ineq(row)
    }

    /// The points with the variable `pos` of `kind` equal to `value` (isl's
    /// `isl_basic_set_fix_si`).
    ///
    /// ```
    /// use presburger::{BasicSet, DimKind};
    /// let b: BasicSet = "{ [i, j] : 0 <= i <= j <= 4 }".parse()?;
    /// assert_eq!(b.fix(DimKind::SET, 0, 3)?.to_string(), "{ [3, j] : 3 <= j <= 4 }");
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_basic_set_fix_si")]
    pub fn fix(&self, kind: DimKind, pos: usize, value: impl Into<Int>) -> Result<BasicSet> {
        let v = value.into();
        self.0.changed(|c| c.fix(kind, pos, &v)).map(BasicSet)
    }

    /// The points with the variable `pos` of `kind` at least `value` (isl's
    /// `isl_basic_set_lower_bound_val`).
    #[doc(alias = "isl_basic_set_lower_bound_val")]
    pub fn lower_bound(
        &self,
        kind: DimKind,
        pos: usize,
        value: impl Into<Int>,
    ) -> Result<BasicSet> {
        let v = value.into();
        self.0
            .changed(|c| c.bound(kind, pos, &v, true))
            .map(BasicSet)
    }

    /// The points with the variable `pos` of `kind` at most `value` (isl's
    /// `isl_basic_set_upper_bound_val`).
    #[doc(alias = "isl_basic_set_upper_bound_val")]
    pub fn upper_bound(
        &self,
        kind: DimKind,
        pos: usize,
        value: impl Into<Int>,
    ) -> Result<BasicSet> {
        let v = value.into();
        self.0
            .changed(|c| c.bound(kind, pos, &v, false))
            .map(BasicSet)
    }

    /// The same basic set after structural simplification (see
    /// [`Conjunction::simplify`]).
    pub fn simplify(&self) -> BasicSet {
        BasicSet(self.0.simplified())
    }

    /// True when the constraints are visibly contradictory after structural
    /// simplification (no solver involved: `false` does not prove the basic
    /// set non-empty; see [`BasicSet::is_empty`]).
    pub fn plain_is_empty(&self) -> bool {
        self.0.simplified().is_trivially_empty()
    }

    /// True when no constraint is left after structural simplification.
    pub fn plain_is_universe(&self) -> bool {
        self.0.simplified().is_trivially_universe()
    }

    /// Structural equality after simplification (isl's
    /// `isl_basic_set_plain_is_equal`; `false` does not prove the sets differ).
    pub fn plain_is_equal(&self, other: &BasicSet) -> bool {
        self.0.plain_is_equal(&other.0)
    }
}

impl BasicMap {
    /// The basic map with no constraints in the map space `space` (isl's
    /// `isl_basic_map_universe`). An error for a set space.
    pub fn universe(space: Space) -> Result<BasicMap> {
        Conjunction::universe(space).of_kind(false).map(BasicMap)
    }

    /// The empty basic map in the map space `space` (isl's
    /// `isl_basic_map_empty`). An error for a set space.
    pub fn empty(space: Space) -> Result<BasicMap> {
        Conjunction::empty(space).of_kind(false).map(BasicMap)
    }

    /// The basic map of the conjunction `c`. An error when its space is a set
    /// space.
    pub fn from_conjunction(c: Conjunction) -> Result<BasicMap> {
        c.of_kind(false).map(BasicMap)
    }

    /// The conjunction of `constraints` (made from the expressions of
    /// [`crate::build`]) in the map space `space`.
    pub fn from_constraints(
        space: &Space,
        constraints: impl IntoIterator<Item = crate::build::Constraint>,
    ) -> Result<BasicMap> {
        check_kind(space, false)?;
        crate::build::conjunction(space, constraints).map(BasicMap)
    }

    /// The underlying conjunction (its rows in the layout of the crate
    /// documentation).
    pub fn conjunction(&self) -> &Conjunction {
        &self.0
    }

    /// The space.
    pub fn space(&self) -> &Space {
        &self.0.space
    }

    /// Intersection: one conjunction of the constraints of both (isl's
    /// `isl_basic_map_intersect`), the parameters aligned by name. An error
    /// for different tuples.
    ///
    /// ```
    /// use presburger::BasicMap;
    /// let m: BasicMap = "{ S[i] -> T[j] : j >= i }".parse()?;
    /// let n: BasicMap = "{ S[i] -> T[j] : j <= i }".parse()?;
    /// assert!(m.intersect(&n)?.plain_is_equal(&"{ S[i] -> T[i] }".parse()?));
    /// assert!(m.intersect(&"{ S[i] -> U[j] }".parse()?).is_err());
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_basic_map_intersect")]
    pub fn intersect(&self, other: &BasicMap) -> Result<BasicMap> {
        self.0.intersect_aligned(&other.0).map(BasicMap)
    }

    /// Adds the equality `row·(1, params, in, out, locals) = 0` in place.
    pub fn add_eq(&mut self, row: Vec<Int>) -> Result<()> {
        self.0.add_eq(row)
    }

    /// Adds the inequality `row·(1, params, in, out, locals) >= 0` in place.
    pub fn add_ineq(&mut self, row: Vec<Int>) -> Result<()> {
        self.0.add_ineq(row)
    }

    /// The pairs with the variable `pos` of `kind` equal to `value` (isl's
    /// `isl_basic_map_fix_si`).
    #[doc(alias = "isl_basic_map_fix_si")]
    pub fn fix(&self, kind: DimKind, pos: usize, value: impl Into<Int>) -> Result<BasicMap> {
        let v = value.into();
        self.0.changed(|c| c.fix(kind, pos, &v)).map(BasicMap)
    }

    /// The pairs with the variable `pos` of `kind` at least `value` (isl's
    /// `isl_basic_map_lower_bound_si`).
    #[doc(alias = "isl_basic_map_lower_bound_si")]
    pub fn lower_bound(
        &self,
        kind: DimKind,
        pos: usize,
        value: impl Into<Int>,
    ) -> Result<BasicMap> {
        let v = value.into();
        self.0
            .changed(|c| c.bound(kind, pos, &v, true))
            .map(BasicMap)
    }

    /// The pairs with the variable `pos` of `kind` at most `value` (isl's
    /// `isl_basic_map_upper_bound_si`).
    #[doc(alias = "isl_basic_map_upper_bound_si")]
    pub fn upper_bound(
        &self,
        kind: DimKind,
        pos: usize,
        value: impl Into<Int>,
    ) -> Result<BasicMap> {
        let v = value.into();
        self.0
            .changed(|c| c.bound(kind, pos, &v, false))
            .map(BasicMap)
    }

    /// The same basic map after structural simplification (see
    /// [`Conjunction::simplify`]).
    pub fn simplify(&self) -> BasicMap {
        BasicMap(self.0.simplified())
    }

    /// True when the constraints are visibly contradictory after structural
    /// simplification (no solver involved: `false` does not prove the basic
    /// map non-empty; see [`BasicMap::is_empty`]).
    pub fn plain_is_empty(&self) -> bool {
        self.0.simplified().is_trivially_empty()
    }

    /// True when no constraint is left after structural simplification.
    pub fn plain_is_universe(&self) -> bool {
        self.0.simplified().is_trivially_universe()
    }

    /// Structural equality after simplification (isl's
    /// `isl_basic_map_plain_is_equal`; `false` does not prove the maps differ).
    pub fn plain_is_equal(&self, other: &BasicMap) -> bool {
        self.0.plain_is_equal(&other.0)
    }
}

impl Disjunction {
    /// `self`, or an error when its space is not of the kind asked for.
    fn of_kind(self, is_set: bool) -> Result<Disjunction> {
        check_kind(&self.space, is_set)?;
        Ok(self)
    }

    /// A simplified copy.
    pub(crate) fn simplified(&self) -> Disjunction {
        let mut d = self.clone();
        d.simplify();
        d
    }

    /// A copy with `change` applied to every conjunction, simplified.
    pub(crate) fn with_each<R>(&self, change: impl Fn(&mut Conjunction) -> R) -> Disjunction {
        let mut d = self.clone();
        for c in &mut d.parts {
            change(c);
        }
        d.simplify();
        d
    }

    /// A copy with the fallible `change` applied to every conjunction,
    /// simplified.
    fn each_part(&self, change: impl Fn(&mut Conjunction) -> Result<()>) -> Result<Disjunction> {
        self.map_parts(self.space.clone(), |c| {
            let mut c = c.clone();
            change(&mut c)?;
            Ok(c)
        })
    }

    /// The `n` variables of `kind` from `pos` made existentially quantified
    /// locals, eliminated where that is exact.
    fn project_out(&self, kind: DimKind, pos: usize, n: usize) -> Result<Disjunction> {
        if kind == DimKind::Param {
            self.space.check_range(kind, pos, n)?;
        }
        self.move_dims(DimKind::Local, 0, kind, pos, n)
    }

    /// A copy in the space `space` (the same column layout).
    fn in_space(&self, space: Space) -> Disjunction {
        let mut d = self.clone();
        for p in &mut d.parts {
            p.space = space.clone();
        }
        d.space = space;
        d
    }

    /// A copy with the (output / set) tuple named `name`.
    fn with_tuple_name(&self, name: Option<&str>) -> Disjunction {
        let mut space = self.space.clone();
        space.range_tuple_mut().name = name.map(str::to_string);
        self.in_space(space)
    }

    /// A copy with the parameter or dimension `pos` of `kind` named `name`.
    fn with_dim_name(&self, kind: DimKind, pos: usize, name: &str) -> Result<Disjunction> {
        self.space.check_range(kind, pos, 1)?;
        let mut space = self.space.clone();
        match kind {
            DimKind::Param => {
                if space.params().iter().any(|p| p == name) {
                    return Err(Error::Invalid(format!("parameter {name} exists already")));
                }
                let mut params = space.params().to_vec();
                params[pos] = name.to_string();
                space = space.with_params(params);
            }
            DimKind::In => {
                if let Some(t) = space.domain_tuple_mut() {
                    t.set_dim_name(pos, Some(name.to_string()));
                }
            }
            DimKind::Out => space
                .range_tuple_mut()
                .set_dim_name(pos, Some(name.to_string())),
            DimKind::Local => {}
        }
        Ok(self.in_space(space))
    }
}

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

impl Map {
    /// The map with its parameters restricted to the parameter set `params`
    /// (isl's `isl_map_intersect_params`), as [`Set::intersect_params`].
    #[doc(alias = "isl_map_intersect_params")]
    pub fn intersect_params(&self, params: &Set) -> Result<Map> {
        check_params_set(params)?;
        Ok(Map(self.0.intersect_params(&params.0)?))
    }
}

/// `Ok` when `s` is a parameter set (see [`Set::is_params`]).
fn check_params_set(s: &Set) -> Result<()> {
    if s.is_params() {
        Ok(())
    } else {
        Err(Error::SpaceMismatch(format!(
            "intersect_params needs a parameter set such as [n] -> {{ : n > 0 }}, not a set in {}",
            s.0.space.tuple_key()
        )))
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

/// Builds the conjunction of `x` and `y` in a product space whose columns are
/// `[params | x dims (split at x_split) | y dims ...]`: with `x_split = Some(k)` and
/// `y_split = Some(m)` (maps) the layout is `[x_in | y_in | x_out | y_out]`.
fn product_conj(
    space: &Space,
    x: &Conjunction,
    x_split: Option<usize>,
    y: &Conjunction,
    y_split: Option<usize>,
) -> Result<Conjunction> {
    let np = space.n_param();
    let (xd, yd) = (
        x.space.n_in() + x.space.n_out(),
        y.space.n_in() + y.space.n_out(),
    );
    let (xi, yi) = (x_split.unwrap_or(0), y_split.unwrap_or(0));
    // target column of dimension k of x / y
    let x_dim = |k: usize| if k < xi { k } else { yi + k };
    let y_dim = |k: usize| if k < yi { xi + k } else { xd + k };
    let nv = 1 + np + xd + yd;
    let n_local = x.n_local() + y.n_local();
    let xmap: Vec<usize> = (0..x.n_col())
        .map(|c| match c {
            0 => 0,
            c if c <= np => c,
            c if c <= np + xd => 1 + np + x_dim(c - 1 - np),
            c => nv + (c - 1 - np - xd),
        })
        .collect();
    let ymap: Vec<usize> = (0..y.n_col())
        .map(|c| match c {
            0 => 0,
            c if c <= np => c,
            c if c <= np + yd => 1 + np + y_dim(c - 1 - np),
            c => nv + x.n_local() + (c - 1 - np - yd),
        })
        .collect();
    let a = x.remap(space.clone(), n_local, &xmap);
    let b = y.remap(space.clone(), n_local, &ymap);
    let mut r = a;
    for (l, d) in b.divs.into_iter().enumerate() {
        if d.is_some() {
            r.divs[l] = d;
        }
    }
    r.eqs.extend(b.eqs);
    r.ineqs.extend(b.ineqs);
    Ok(r)
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

impl Disjunction {
    /// Projects a map onto its domain (`keep_domain`) or range, quantifying the `n`
    /// dimensions of the other side.
    fn project_to(&self, keep_domain: bool, n: usize) -> Disjunction {
        let sp = &self.space;
        let (src, pos, kept) = if keep_domain {
            (DimKind::Out, 0, sp.domain_tuple().cloned())
        } else {
            (DimKind::In, 0, Some(sp.range_tuple().clone()))
        };
        let space = Space::set(
            sp.params().to_vec(),
            kept.unwrap_or_else(|| Tuple::anonymous(0)),
        );
        let mut d = Disjunction {
            space: space.clone(),
            parts: self
                .parts
                .iter()
                .map(|c| {
                    // move the dropped side to the locals, in the set space
                    let mut m = c.move_vars(space.clone(), src, pos, DimKind::Local, 0, n);
                    m.eliminate_locals_exactly();
                    m
                })
                .collect(),
        };
        d.simplify();
        d
    }
}

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

/// The shared shape of [`UnionSet`] and [`UnionMap`] (the parameters and one
/// member per space), over which the bodies of their methods are written once,
/// in the generic functions of the module `across`.
pub(crate) trait Across: Clone + Sized {
    /// The member type: [`Set`] or [`Map`].
    type Member: Clone;
    /// The union of `members` (at most one per space) over `params`.
    fn from_parts(params: Vec<String>, members: Vec<Self::Member>) -> Self;
    /// The parameters and the members.
    fn parts(&self) -> (&Vec<String>, &Vec<Self::Member>);
    /// The parameters and the members, to change.
    fn parts_mut(&mut self) -> (&mut Vec<String>, &mut Vec<Self::Member>);
    /// The disjunction of a member.
    fn disj(m: &Self::Member) -> &Disjunction;
    /// The member of a disjunction.
    fn wrap(d: Disjunction) -> Self::Member;
}

impl Across for UnionSet {
    type Member = Set;
    fn from_parts(params: Vec<String>, sets: Vec<Set>) -> UnionSet {
        UnionSet { params, sets }
    }
    fn parts(&self) -> (&Vec<String>, &Vec<Set>) {
        (&self.params, &self.sets)
    }
    fn parts_mut(&mut self) -> (&mut Vec<String>, &mut Vec<Set>) {
        (&mut self.params, &mut self.sets)
    }
    fn disj(m: &Set) -> &Disjunction {
        &m.0
    }
    fn wrap(d: Disjunction) -> Set {
        Set(d)
    }
}

impl Across for UnionMap {
    type Member = Map;
    fn from_parts(params: Vec<String>, maps: Vec<Map>) -> UnionMap {
        UnionMap { params, maps }
    }
    fn parts(&self) -> (&Vec<String>, &Vec<Map>) {
        (&self.params, &self.maps)
    }
    fn parts_mut(&mut self) -> (&mut Vec<String>, &mut Vec<Map>) {
        (&mut self.params, &mut self.maps)
    }
    fn disj(m: &Map) -> &Disjunction {
        &m.0
    }
    fn wrap(d: Disjunction) -> Map {
        Map(d)
    }
}

/// The bodies of the methods that [`UnionSet`] and [`UnionMap`] share.
pub(crate) mod across {
    use super::{merged_params, Across, Disjunction};
    use crate::error::Result;
    use crate::space::Space;

    /// The members of `u` as disjunctions.
    fn disjs<U: Across>(u: &U) -> impl Iterator<Item = &Disjunction> {
        u.parts().1.iter().map(U::disj)
    }

    /// The member of `u` in the tuples of `space`.
    pub(crate) fn member_like<'a, U: Across>(u: &'a U, space: &Space) -> Option<&'a U::Member> {
        u.parts()
            .1
            .iter()
            .find(|m| U::disj(m).space.same_tuples(space))
    }

    /// The disjunction of the member of `u` in the tuples of `space`.
    pub(crate) fn disj_like<'a, U: Across>(u: &'a U, space: &Space) -> Option<&'a Disjunction> {
        member_like(u, space).map(U::disj)
    }

    /// Adds `m` to `u`, merged (by union) with the member of the same space.
    pub(crate) fn add<U: Across>(u: &mut U, m: U::Member) -> Result<()> {
        let (params, members) = u.parts_mut();
        let merged = merged_params(params, U::disj(&m).space.params());
        if merged != *params {
            for x in members.iter_mut() {
                *x = U::wrap(U::disj(x).align_params(&merged));
            }
            *params = merged;
        }
        let m = U::disj(&m).align_params(params);
        match members
            .iter_mut()
            .find(|x| U::disj(x).space.same_tuples(&m.space))
        {
            Some(x) => *x = U::wrap(U::disj(x).union(&m)?),
            None => members.push(U::wrap(m.simplified())),
        }
        Ok(())
    }

    /// `u` with every member over the parameters `params` followed by its own.
    fn with_params<U: Across>(mut u: U, params: &[String]) -> U {
        let (own, members) = u.parts_mut();
        let merged = merged_params(params, own);
        for x in members.iter_mut() {
            *x = U::wrap(U::disj(x).align_params(&merged));
        }
        *own = merged;
        u
    }

    /// The union of the disjunctions that `each` makes of the members of `a`,
    /// over the parameters of `a` and `b` (a member for which `each` gives
    /// `None` is left out).
    pub(crate) fn collect<U: Across>(
        a: &U,
        b: &U,
        mut each: impl FnMut(&Disjunction) -> Result<Option<Disjunction>>,
    ) -> Result<U> {
        let params = merged_params(a.parts().0, b.parts().0);
        let mut r = U::from_parts(params.clone(), Vec::new());
        for x in disjs(a) {
            if let Some(d) = each(x)? {
                add(&mut r, U::wrap(d))?;
            }
        }
        Ok(with_params(r, &params))
    }

    /// Space by space union.
    pub(crate) fn union<U: Across>(a: &U, b: &U) -> Result<U> {
        let mut r = a.clone();
        for m in b.parts().1 {
            add(&mut r, m.clone())?;
        }
        let params = merged_params(r.parts().0, b.parts().0);
        Ok(with_params(r, &params))
    }

    /// Space by space intersection; a parameter set on either side
    /// restricts every member of the other.
    pub(crate) fn intersect<U: Across>(a: &U, b: &U) -> Result<U> {
        let params = merged_params(a.parts().0, b.parts().0);
        let only_params = |u: &U| u.parts().1.len() == 1 && U::disj(&u.parts().1[0]).is_params();
        let mut r = U::from_parts(params.clone(), Vec::new());
        for x in disjs(a) {
            for y in disjs(b) {
                let d = if x.space.same_tuples(&y.space) {
                    x.intersect(y)?
                } else if only_params(b) {
                    x.intersect_params(y)?
                } else if only_params(a) {
                    y.intersect_params(x)?
                } else {
                    continue;
                };
                add(&mut r, U::wrap(d))?;
            }
        }
        Ok(with_params(r, &params))
    }

    /// True when no member has a conjunction left after structural
    /// simplification.
    pub(crate) fn plain_is_empty<U: Across>(u: &U) -> bool {
        disjs(u).all(|d| d.simplified().parts.is_empty())
    }

    /// Structural equality after simplification, member by member.
    pub(crate) fn plain_is_equal<U: Across>(a: &U, b: &U) -> bool {
        let params = merged_params(a.parts().0, b.parts().0);
        let nonempty = |u: &U| -> Vec<Disjunction> {
            disjs(u)
                .filter(|d| !d.simplified().parts.is_empty())
                .map(|d| d.align_params(&params))
                .collect()
        };
        let (x, y) = (nonempty(a), nonempty(b));
        x.len() == y.len() && x.iter().all(|p| y.iter().any(|q| p.plain_is_equal(q)))
    }

    /// True when `each` holds for every member of `a` with the member of `b`
    /// in its space (`None` when there is none).
    pub(crate) fn all_members<U: Across>(
        a: &U,
        b: &U,
        mut each: impl FnMut(&Disjunction, Option<&Disjunction>) -> Result<bool>,
    ) -> Result<bool> {
        for x in disjs(a) {
            if !each(x, disj_like(b, &x.space))? {
                return Ok(false);
            }
        }
        Ok(true)
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{map_points, set_points, Box as PBox};
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    fn pts(s: &Set, params: &[i64]) -> BTreeSet<Vec<i64>> {
        set_points(s, &PBox::new(params.to_vec(), -6, 6))
    }

    /// A random bounded set over `[i, j]` (within -5..=5) as isl text, with optional
    /// stride and disjunction, and the parameter `N`.
    fn arb_set_text() -> impl Strategy<Value = String> {
        let con = (-2i64..=2, -2i64..=2, -1i64..=1, -4i64..=4, prop::bool::ANY).prop_map(
            |(a, b, n, c, eq)| {
                format!("{a}i + {b}j + {n}N + {c} {} 0", if eq { "=" } else { ">=" })
            },
        );
        let conj = (
            prop::collection::vec(con, 0..3),
            prop::option::of((2i64..=3, 0i64..=2)),
        )
            .prop_map(|(cs, stride)| {
                let mut parts = vec!["-5 <= i <= 5".to_string(), "-5 <= j <= 5".to_string()];
                parts.extend(cs);
                if let Some((m, r)) = stride {
                    parts.push(format!("exists e : i + j = {m}e + {r}"));
                }
                format!("({})", parts.join(" and "))
            });
        prop::collection::vec(conj, 1..3)
            .prop_map(|ds| format!("[N] -> {{ [i, j] : {} }}", ds.join(" or ")))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(150))]

        #[test]
        fn boolean_ops_match_enumeration(a in arb_set_text(), b in arb_set_text(), n in -2i64..=2) {
            let (x, y): (Set, Set) = (a.parse().unwrap(), b.parse().unwrap());
            let (px, py) = (pts(&x, &[n]), pts(&y, &[n]));
            let i = x.intersect(&y).unwrap();
            prop_assert_eq!(pts(&i, &[n]), px.intersection(&py).cloned().collect::<BTreeSet<_>>());
            let u = x.union(&y).unwrap();
            prop_assert_eq!(pts(&u, &[n]), px.union(&py).cloned().collect::<BTreeSet<_>>());
        }

        #[test]
        fn map_ops_match_enumeration(a in arb_set_text(), b in arb_set_text(), n in -2i64..=2) {
            // read the sets as relations i -> j
            let ma: Map = a.replace("[i, j]", "[i] -> [j]").parse().unwrap();
            let mb: Map = b.replace("[i, j]", "[i] -> [j]").parse().unwrap();
            let bx = PBox::new(vec![n], -6, 6);
            let (pa, pb) = (map_points(&ma, &bx), map_points(&mb, &bx));
            let dom: BTreeSet<Vec<i64>> = pa.iter().map(|p| vec![p[0]]).collect();
            let ran: BTreeSet<Vec<i64>> = pa.iter().map(|p| vec![p[1]]).collect();
            prop_assert_eq!(set_points(&ma.domain(), &bx), dom);
            prop_assert_eq!(set_points(&ma.range(), &bx), ran);
            let rev: BTreeSet<Vec<i64>> = pa.iter().map(|p| vec![p[1], p[0]]).collect();
            prop_assert_eq!(map_points(&ma.reverse(), &bx), rev);
            let comp: BTreeSet<Vec<i64>> = pa
                .iter()
                .flat_map(|p| pb.iter().filter(move |q| q[0] == p[1]).map(move |q| vec![p[0], q[1]]))
                .collect();
            prop_assert_eq!(map_points(&ma.apply_range(&mb).unwrap(), &bx), comp);
            // image of the domain of b under a
            let s = mb.domain();
            let ps = set_points(&s, &bx);
            let img: BTreeSet<Vec<i64>> = pa.iter().filter(|p| ps.contains(&vec![p[0]])).map(|p| vec![p[1]]).collect();
            prop_assert_eq!(set_points(&ma.apply_to(&s).unwrap(), &bx), img);
            let restricted: BTreeSet<Vec<i64>> = pa.iter().filter(|p| ps.contains(&vec![p[1]])).cloned().collect();
            prop_assert_eq!(map_points(&ma.intersect_range(&s).unwrap(), &bx), restricted);
        }

        #[test]
        fn moving_dims_to_params_and_back(a in arb_set_text(), n in -2i64..=2, jv in -5i64..=5) {
            let x: Set = a.parse().unwrap();
            let px = pts(&x, &[n]);
            // j becomes a parameter: [N, j] -> { [i] }
            let moved = x.move_dims(DimKind::Param, 1, DimKind::Out, 1, 1).unwrap();
            prop_assert_eq!(moved.space().params(), &["N".to_string(), "j".to_string()][..]);
            let slice: BTreeSet<Vec<i64>> = px.iter().filter(|p| p[1] == jv).map(|p| vec![p[0]]).collect();
            prop_assert_eq!(pts(&moved, &[n, jv]), slice);
            let back = moved.move_dims(DimKind::Out, 1, DimKind::Param, 1, 1).unwrap();
            prop_assert_eq!(pts(&back, &[n]), px.clone());
            // projection and fixing
            let proj = x.project_out(DimKind::Out, 0, 1).unwrap();
            let js: BTreeSet<Vec<i64>> = px.iter().map(|p| vec![p[1]]).collect();
            prop_assert_eq!(pts(&proj, &[n]), js);
            let fixed = x.fix(DimKind::Out, 0, jv).unwrap();
            let f: BTreeSet<Vec<i64>> = px.iter().filter(|p| p[0] == jv).cloned().collect();
            prop_assert_eq!(pts(&fixed, &[n]), f);
            let lb = x.lower_bound(DimKind::Param, 0, 1).unwrap();
            prop_assert_eq!(pts(&lb, &[n]), if n >= 1 { px.clone() } else { BTreeSet::new() });
        }
    }

    #[test]
    fn params_align_by_name() {
        let a: Set = "[N] -> { [i] : 0 <= i < N }".parse().unwrap();
        let b: Set = "[M, N] -> { [i] : i >= M }".parse().unwrap();
        let c = a.intersect(&b).unwrap();
        assert_eq!(c.space().params(), &["N".to_string(), "M".to_string()][..]);
        let want: BTreeSet<Vec<i64>> = (2..5).map(|i| vec![i]).collect();
        assert_eq!(set_points(&c, &PBox::new(vec![5, 2], -1, 8)), want);
    }

    #[test]
    fn products_and_identity() {
        let a: Set = "{ A[i] : 0 <= i < 2 }".parse().unwrap();
        let b: Set = "{ B[j] : j = 7 or j = 9 }".parse().unwrap();
        let p = a.flat_product(&b).unwrap();
        let want: BTreeSet<Vec<i64>> = [[0, 7], [0, 9], [1, 7], [1, 9]]
            .iter()
            .map(|v| v.to_vec())
            .collect();
        assert_eq!(set_points(&p, &PBox::new(vec![], -1, 10)), want);
        let id = a.identity();
        let want: BTreeSet<Vec<i64>> = [[0, 0], [1, 1]].iter().map(|v| v.to_vec()).collect();
        assert_eq!(map_points(&id, &PBox::new(vec![], -3, 3)), want);
        let m: Map = "{ A[i] -> B[i + 1] }".parse().unwrap();
        let n: Map = "{ C[k] -> D[2k] : 0 <= k <= 1 }".parse().unwrap();
        let prod = m.flat_product(&n).unwrap();
        assert_eq!(prod.space().n_in(), 2);
        let dom = prod
            .intersect_domain(&"{ [i, k] : 0 <= i <= 1 }".parse().unwrap())
            .unwrap();
        let want: BTreeSet<Vec<i64>> = [[0, 0, 1, 0], [0, 1, 1, 2], [1, 0, 2, 0], [1, 1, 2, 2]]
            .iter()
            .map(|v| v.to_vec())
            .collect();
        assert_eq!(map_points(&dom, &PBox::new(vec![], -3, 3)), want);
    }

    #[test]
    fn unions_match_by_space() {
        let u: UnionSet = "{ A[i] : 0 <= i < 3; B[i] : i = 1 }".parse().unwrap();
        let v: UnionSet = "{ A[i] : i >= 2; C[i] }".parse().unwrap();
        let w = u.intersect(&v).unwrap();
        assert_eq!(w.members().len(), 1);
        assert_eq!(w.to_string(), "{ A[2] }");
        let x = u.union(&v).unwrap();
        assert_eq!(x.members().len(), 3);
        let m: UnionMap = "{ A[i] -> B[i + 1]; B[i] -> C[i] }".parse().unwrap();
        let img = m.apply_to(&u).unwrap();
        assert_eq!(img.to_string(), "{ B[i0] : 1 <= i0 <= 3; C[1] }");
        let comp = m.apply_range(&m).unwrap();
        assert_eq!(comp.to_string(), "{ A[i] -> C[i + 1] }");
        assert!(u.plain_is_equal(&u.union(&u).unwrap()));
    }

    #[test]
    fn errors_instead_of_panics() {
        let a: Set = "{ A[i] }".parse().unwrap();
        let b: Set = "{ B[i] }".parse().unwrap();
        assert!(matches!(a.intersect(&b), Err(Error::SpaceMismatch(_))));
        assert!(matches!(a.fix(DimKind::Out, 3, 0), Err(Error::Invalid(_))));
        assert!(matches!(a.fix(DimKind::In, 0, 0), Err(Error::Invalid(_))));
        assert!(matches!(
            a.move_dims(DimKind::Param, 0, DimKind::Out, 0, 2),
            Err(Error::Invalid(_))
        ));
        let unnamed: Set = "[N] -> { [N + 1] }".parse().unwrap();
        assert!(matches!(
            unnamed.move_dims(DimKind::Param, 0, DimKind::Out, 0, 1),
            Err(Error::Invalid(_))
        ));
        let m: Map = "{ A[i] -> B[j] }".parse().unwrap();
        assert!(m.apply_range(&m).is_err());
        assert!(m.intersect_domain(&b).is_err());
    }
}
