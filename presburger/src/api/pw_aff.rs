//! `PwMultiAff` and `PwAff`: piecewise quasi-affine functions (isl's
//! `isl_pw_multi_aff` and `isl_pw_aff`), the types and every public method of
//! them. The algorithms are in `src/ops/aff_ops.rs`.

use super::aff::{fn_space, graph_space};
use super::*;
use crate::conjunction::Row;
use crate::lp::Rational;
use crate::ops::aff_ops::{one_dim, set_align};
use crate::solver::budget::Budget;

/// The space of a PwAff on the set space `domain` (a parameter space gives
/// a function of the parameters).
fn pw_aff_space(domain: &Space) -> Space {
    let d = (!domain.is_params()).then(|| domain.range_tuple().clone());
    fn_space(domain.params().to_vec(), d, one_dim())
}

/// A piecewise quasi-affine function (isl's `isl_pw_multi_aff`): pairwise
/// disjoint pieces, each a domain [`Set`] (in the domain space) and a
/// [`MultiAff`] that gives the value there; undefined outside the pieces.
///
/// Invariants (checked by [`PwMultiAff::check_invariants`]): the space is a
/// map space (domain tuple -> range tuple), or the set space of the range for
/// a function of the parameters only (isl's `[N] -> { A[(N)] }`); every
/// piece's set lives in the domain space and its function in the space, with
/// the same parameters; the piece domains are pairwise disjoint.
///
/// ```
/// use presburger::{Int, PwMultiAff};
/// let f: PwMultiAff = "[N] -> { [i] -> [(i + 1), (N)] : i < N; [i] -> [(0), (0)] : i >= N }".parse()?;
/// let at = |n: i64, i: i64| f.eval(&[Int::from(n), Int::from(i)]).unwrap().unwrap();
/// assert_eq!(at(5, 2), vec![Int::from(3).into(), Int::from(5).into()]);
/// assert_eq!(at(5, 7), vec![Int::from(0).into(), Int::from(0).into()]);
/// let g = f.as_map()?; // isl_map_from_pw_multi_aff
/// assert!(PwMultiAff::from_map(&g)?.is_equal(&f)?);
/// # Ok::<(), presburger::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct PwMultiAff {
    /// The space: domain tuple -> range tuple (a set space of the range for
    /// a function of the parameters).
    pub(crate) space: Space,
    pub(crate) pieces: Vec<(Set, MultiAff)>,
}

/// A piecewise quasi-affine expression (isl's `isl_pw_aff`): a
/// [`PwMultiAff`] with one anonymous range dimension, whose pieces are seen
/// as (domain, [`Aff`]) pairs.
///
/// ```
/// use presburger::{Int, PwAff};
/// let f: PwAff = "[N] -> { [i] -> [(i + 1)] : i < N; [i] -> [(0)] : i >= N }".parse()?;
/// assert_eq!(f.eval(&[Int::from(5), Int::from(2)])?, Some(Int::from(3).into()));
/// let g: PwAff = "[N] -> { [i] -> [(N - i)] : i >= 0 }".parse()?;
/// let m = f.min(&g)?; // isl_pw_aff_min: on the common domain
/// assert_eq!(m.eval(&[Int::from(5), Int::from(4)])?, Some(Int::from(1).into()));
/// assert_eq!(m.eval(&[Int::from(5), Int::from(-1)])?, None);
/// # Ok::<(), presburger::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct PwAff(pub(crate) PwMultiAff);

impl PwMultiAff {
    /// The function defined nowhere, in the space `space`: a map space, or
    /// the set space of the range for a function of the parameters only
    /// (isl's `isl_pw_multi_aff_empty`).
    #[doc(alias = "isl_pw_multi_aff_empty")]
    pub fn empty(space: Space) -> Result<PwMultiAff> {
        Ok(PwMultiAff {
            space,
            pieces: Vec::new(),
        })
    }

    /// The function `f` on its whole domain space (isl's
    /// `isl_pw_multi_aff_from_multi_aff`).
    #[doc(alias = "isl_pw_multi_aff_from_multi_aff")]
    pub fn from_multi_aff(f: MultiAff) -> PwMultiAff {
        let dom = Set(Disjunction::universe(f.domain_space()));
        PwMultiAff {
            space: f.space.clone(),
            pieces: vec![(dom, f)],
        }
    }

    /// The function with the given pieces, in the space `space`. Each
    /// set must live in the domain space of `space` and each function in
    /// `space` (parameters are aligned by name); the domains must be pairwise
    /// disjoint, which is checked (an error otherwise).
    pub fn from_piece_list(space: Space, pieces: Vec<(Set, MultiAff)>) -> Result<PwMultiAff> {
        let mut r = PwMultiAff::empty(space)?;
        let dom = r.domain_space();
        let mut params = r.space.params().to_vec();
        for (s, f) in &pieces {
            if !s.space().same_tuples(&dom) || !f.space.same_tuples(&r.space) {
                return Err(Error::SpaceMismatch(
                    "a piece does not live in the space of the function".into(),
                ));
            }
            params = merged_params(&params, s.space().params());
            params = merged_params(&params, f.space.params());
        }
        r.space = r.space.with_params(params.clone());
        for (s, f) in pieces {
            r.pieces
                .push((set_align(&s, &params), f.align_params(&params)));
        }
        for i in 0..r.pieces.len() {
            for j in 0..i {
                if !r.pieces[i].0.is_disjoint(&r.pieces[j].0)? {
                    return Err(Error::Invalid(format!(
                        "the domains of pieces {j} and {i} overlap"
                    )));
                }
            }
        }
        Ok(r)
    }

    /// The function from rows (meant for solvers that produce pieces): in the
    /// space `space`, one piece per `(domain, rows, den)`, where `domain`
    /// is a [`Conjunction`] over the domain space (`space.domain_space()`,
    /// columns: constant, parameters, domain dimensions, the conjunction's
    /// locals) and `rows[k]` (`domain.n_col()` entries, same columns) over
    /// the common positive denominator `den` is range dimension `k`. A local
    /// that a row uses must have a division definition (which may use
    /// earlier locals that have one too). The domains must be pairwise
    /// disjoint; this is the caller's promise (checked by
    /// [`PwMultiAff::check_invariants`], not here). For a function of the
    /// parameters only (the lexmin of a set, isl's `[N] -> { [(N)] }`), the
    /// space is the set space `Space::set(params, range)` and the
    /// conjunctions are over the parameter space (`domain_space()`).
    // the entry point of the parametric lexmin solver, to be wired in
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) fn from_pieces(
        space: Space,
        pieces: Vec<(Conjunction, Vec<Row>, Int)>,
    ) -> Result<PwMultiAff> {
        PwMultiAff::from_pieces_impl(space, pieces)
    }

    /// The space: a map space (domain tuple -> range tuple), or the set
    /// space of the range for a function of the parameters only (isl's
    /// `[N] -> { [(N)] }`).
    pub fn space(&self) -> &Space {
        &self.space
    }

    /// The domain space (a set space; the parameter space for a function of
    /// the parameters only).
    pub fn domain_space(&self) -> Space {
        domain_of(&self.space)
    }

    /// The pieces: (domain, function) pairs with disjoint domains.
    pub fn pieces(&self) -> &[(Set, MultiAff)] {
        &self.pieces
    }

    /// The number of pieces (isl's `isl_pw_multi_aff_n_piece`).
    #[doc(alias = "isl_pw_multi_aff_n_piece")]
    pub fn n_piece(&self) -> usize {
        self.pieces.len()
    }

    /// Checks the invariants stated on the type, including (with a solver)
    /// that the piece domains are pairwise disjoint.
    pub fn check_invariants(&self) -> Result<()> {
        let dom = self.domain_space();
        for (s, f) in &self.pieces {
            if !s.space().is_same(&dom) || !f.space.is_same(&self.space) {
                return Err(Error::Invalid("PwMultiAff invariant: piece space".into()));
            }
            f.check_invariants()?;
        }
        for i in 0..self.pieces.len() {
            for j in 0..i {
                if !self.pieces[i].0.is_disjoint(&self.pieces[j].0)? {
                    return Err(Error::Invalid(format!(
                        "PwMultiAff invariant: pieces {j} and {i} overlap"
                    )));
                }
            }
        }
        Ok(())
    }

    /// The same function over the parameters `params` (containing its own).
    pub(crate) fn align_params(&self, params: &[String]) -> PwMultiAff {
        PwMultiAff {
            space: self.space.with_params(params.to_vec()),
            pieces: self
                .pieces
                .iter()
                .map(|(s, f)| (set_align(s, params), f.align_params(params)))
                .collect(),
        }
    }

    /// The set where the function is defined: the union of the piece
    /// domains (isl's `isl_pw_multi_aff_domain`).
    #[doc(alias = "isl_pw_multi_aff_domain")]
    pub fn domain(&self) -> Result<Set> {
        let mut d = Set(Disjunction::empty(self.domain_space()));
        for (s, _) in &self.pieces {
            d = d.union(s)?;
        }
        Ok(d)
    }

    /// The value at `point` (the parameters, then the domain dimensions):
    /// `None` outside the domain.
    pub fn eval(&self, point: &[Int]) -> Result<Option<Vec<Rational>>> {
        if point.len() != self.domain_space().n_var() {
            return Err(Error::Invalid(format!(
                "the point has {} coordinates, the domain has {} parameters and dimensions",
                point.len(),
                self.domain_space().n_var()
            )));
        }
        for (s, f) in &self.pieces {
            if s.contains(point)? {
                return f.eval(point).map(Some);
            }
        }
        Ok(None)
    }

    /// The graph of the function as a map (isl's `isl_map_from_pw_multi_aff`):
    /// per piece and disjunct of its domain, the disjunct with one equality
    /// `den·y_k = num_k` per range dimension. The graph of a rational
    /// expression has only the points where its value is an integer.
    #[doc(alias = "isl_map_from_pw_multi_aff")]
    pub fn as_map(&self) -> Result<Map> {
        let space = graph_space(&self.space);
        let mut parts = Vec::new();
        for (s, f) in &self.pieces {
            for c in &s.0.parts {
                let mut g = f.graph_conj(c)?;
                g.space = space.clone();
                parts.push(g);
            }
        }
        let mut d = Disjunction { space, parts };
        d.simplify();
        Ok(Map(d))
    }

    /// The graph of a function of the parameters only (its domain space is a
    /// parameter space) as a set in the range space (isl's
    /// `isl_set_from_pw_multi_aff`); an error for another domain.
    ///
    /// ```
    /// use presburger::{PwMultiAff, Set};
    /// let f: PwMultiAff = "[N] -> { S[(N), (0)] : N >= 0 }".parse()?;
    /// let want: Set = "[N] -> { S[N, 0] : N >= 0 }".parse()?;
    /// assert!(f.as_set()?.is_equal(&want)?);
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_set_from_pw_multi_aff")]
    pub fn as_set(&self) -> Result<Set> {
        if !self.space.is_set() {
            return Err(Error::Invalid(
                "as_set needs a function of the parameters only (use as_map)".into(),
            ));
        }
        Ok(self.as_map()?.range())
    }

    /// The function whose graph is the map `map` (isl's
    /// `isl_pw_multi_aff_from_map`), for maps where each output is fixed, in
    /// each disjunct, by an equality over the parameters, inputs, other fixed
    /// outputs and division locals. The map must be single-valued (checked;
    /// an error otherwise). Overlapping disjuncts are made disjoint by
    /// subtracting the domains of the earlier pieces. Other single-valued
    /// maps (an output bounded by inequalities only) are converted by their
    /// parametric lexicographic minimum ([`Map::lexmin_pw_multi_aff`]), as
    /// isl does.
    ///
    /// ```
    /// use presburger::{Map, PwMultiAff};
    /// let m: Map = "{ [i] -> [o] : 2o <= i <= 2o + 1 }".parse()?;
    /// assert_eq!(PwMultiAff::from_map(&m)?.to_string(), "{ [i] -> [(floor((i)/2))] }");
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_pw_multi_aff_from_map")]
    pub fn from_map(map: &Map) -> Result<PwMultiAff> {
        PwMultiAff::from_map_impl(map, &mut crate::ops::algebra::algebra_budget())
    }

    /// As [`PwMultiAff::from_map`], spending from `budget` (every query of
    /// the conversion together); running out is [`Error::Budget`].
    ///
    /// ```
    /// use presburger::{Budget, Error, Map, PwMultiAff};
    /// let m: Map = "[N] -> { [i] -> [o] : 0 <= o <= i < N and 2o >= i - 1 and 2o <= i }".parse()?;
    /// assert!(matches!(PwMultiAff::from_map_with_budget(&m, &mut Budget::new(3)), Err(Error::Budget(_))));
    /// assert!(PwMultiAff::from_map_with_budget(&m, &mut Budget::default()).is_ok());
    /// # Ok::<(), presburger::Error>(())
    /// ```
    pub fn from_map_with_budget(map: &Map, budget: &mut Budget) -> Result<PwMultiAff> {
        PwMultiAff::from_map_impl(map, budget)
    }

    /// `ka·self + kb·other` dimension by dimension on the common domain.
    fn lin(&self, other: &PwMultiAff, ka: i64, kb: i64, what: &str) -> Result<PwMultiAff> {
        let range = self.space.range_tuple().clone();
        let (ka, kb) = (Int::from(ka), Int::from(kb));
        self.zip_with_impl(other, what, range, |s, fa, fb| {
            let affs = fa
                .affs
                .iter()
                .zip(&fb.affs)
                .map(|(x, y)| x.combine(y, &ka, &kb))
                .collect::<Result<Vec<_>>>()?;
            Ok(vec![(
                s.clone(),
                MultiAff {
                    space: fa.space.clone(),
                    affs,
                },
            )])
        })
    }

    /// The sum on the intersection of the domains (isl's
    /// `isl_pw_multi_aff_add`).
    #[doc(alias = "isl_pw_multi_aff_add")]
    pub fn add(&self, other: &PwMultiAff) -> Result<PwMultiAff> {
        self.lin(other, 1, 1, "sum")
    }

    /// The difference on the intersection of the domains (isl's
    /// `isl_pw_multi_aff_sub`).
    #[doc(alias = "isl_pw_multi_aff_sub")]
    pub fn sub(&self, other: &PwMultiAff) -> Result<PwMultiAff> {
        self.lin(other, 1, -1, "difference")
    }

    /// The function with every expression changed by `f`.
    fn map_affs(&self, f: impl Fn(&Aff) -> Aff) -> PwMultiAff {
        PwMultiAff {
            space: self.space.clone(),
            pieces: self
                .pieces
                .iter()
                .map(|(s, m)| {
                    (
                        s.clone(),
                        MultiAff {
                            space: m.space.clone(),
                            affs: m.affs.iter().map(&f).collect(),
                        },
                    )
                })
                .collect(),
        }
    }

    /// `-self` (isl's `isl_pw_multi_aff_neg`).
    #[doc(alias = "isl_pw_multi_aff_neg")]
    pub fn neg(&self) -> PwMultiAff {
        self.map_affs(Aff::neg)
    }

    /// `k·self` (isl's `isl_pw_multi_aff_scale_val` with an integer).
    #[doc(alias = "isl_pw_multi_aff_scale_val")]
    pub fn scale(&self, k: &Int) -> PwMultiAff {
        self.map_affs(|a| a.scale(k))
    }

    /// `q·self` for a rational `q`.
    pub fn scale_rational(&self, q: &Rational) -> PwMultiAff {
        self.map_affs(|a| a.scale_rational(q))
    }

    /// The sum where both are defined, either one where only it is (isl's
    /// `isl_pw_multi_aff_union_add`).
    #[doc(alias = "isl_pw_multi_aff_union_add")]
    pub fn union_add(&self, other: &PwMultiAff) -> Result<PwMultiAff> {
        self.union_add_impl(other)
    }

    /// The function restricted to the points of `set` (isl's
    /// `isl_pw_multi_aff_intersect_domain`); `set` lives in the domain space,
    /// or is a parameter set (then isl's `isl_pw_multi_aff_intersect_params`).
    #[doc(alias = "isl_pw_multi_aff_intersect_domain")]
    pub fn intersect_domain(&self, set: &Set) -> Result<PwMultiAff> {
        self.intersect_domain_impl(set)
    }

    /// The function simplified on the assumption that its argument lies in
    /// `context` (isl's `isl_pw_multi_aff_gist`): pieces whose domain misses
    /// the context are dropped and the other domains are simplified with
    /// [`Set::gist`]; the value is only meaningful inside the context.
    #[doc(alias = "isl_pw_multi_aff_gist")]
    pub fn gist(&self, context: &Set) -> Result<PwMultiAff> {
        self.gist_impl(context)
    }

    /// Pieces with structurally equal functions merged, their domains
    /// united and coalesced with [`Set::coalesce`] (isl's
    /// `isl_pw_multi_aff_coalesce`); pieces with an empty domain dropped.
    #[doc(alias = "isl_pw_multi_aff_coalesce")]
    pub fn coalesce(&self) -> Result<PwMultiAff> {
        self.coalesce_affs_impl(&mut crate::ops::algebra::algebra_budget())
    }

    /// The composition `self ∘ g` (isl's
    /// `isl_pw_multi_aff_pullback_pw_multi_aff`): defined where `g` is and
    /// `g`'s value lies in the domain of `self`; `g`'s range tuple must be
    /// `self`'s domain tuple.
    ///
    /// ```
    /// use presburger::{Int, PwMultiAff};
    /// let f: PwMultiAff = "{ A[a] -> [(2a)] : a >= 0 }".parse()?;
    /// let g: PwMultiAff = "{ [i] -> A[(i - 3)] }".parse()?;
    /// let h = f.pullback(&g)?;
    /// assert_eq!(h.to_string(), "{ [i] -> [(-6 + 2i)] : i >= 3 }");
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_pw_multi_aff_pullback_pw_multi_aff")]
    pub fn pullback(&self, g: &PwMultiAff) -> Result<PwMultiAff> {
        self.pullback_impl(g)
    }

    /// As [`PwMultiAff::pullback`] with a function on one piece (isl's
    /// `isl_pw_multi_aff_pullback_multi_aff`).
    #[doc(alias = "isl_pw_multi_aff_pullback_multi_aff")]
    pub fn pullback_multi_aff(&self, g: &MultiAff) -> Result<PwMultiAff> {
        self.pullback(&PwMultiAff::from_multi_aff(g.clone()))
    }

    /// True when both are defined on the same points with the same values
    /// there (isl's `isl_pw_multi_aff_is_equal`): the domains are equal and,
    /// on each intersection of two pieces, no point has a larger or a
    /// smaller value on one side.
    #[doc(alias = "isl_pw_multi_aff_is_equal")]
    pub fn is_equal(&self, other: &PwMultiAff) -> Result<bool> {
        self.is_equal_impl(other)
    }
}

impl From<MultiAff> for PwMultiAff {
    fn from(f: MultiAff) -> PwMultiAff {
        PwMultiAff::from_multi_aff(f)
    }
}

impl From<PwAff> for PwMultiAff {
    fn from(f: PwAff) -> PwMultiAff {
        f.0
    }
}

impl PwAff {
    /// The expression `f` on its whole domain space (isl's
    /// `isl_pw_aff_from_aff`).
    #[doc(alias = "isl_pw_aff_from_aff")]
    pub fn from_aff(f: Aff) -> PwAff {
        let dom = f.space.clone();
        let space = pw_aff_space(&dom);
        PwAff(PwMultiAff::from_multi_aff(MultiAff {
            space,
            affs: vec![f],
        }))
    }

    /// The expression defined nowhere on the set space `domain` (isl's
    /// `isl_pw_aff_empty`); a parameter space gives a function of the
    /// parameters.
    #[doc(alias = "isl_pw_aff_empty")]
    pub fn empty(domain: Space) -> Result<PwAff> {
        if !domain.is_set() {
            return Err(Error::Invalid(
                "the domain of a PwAff is a set space".into(),
            ));
        }
        let space = pw_aff_space(&domain);
        PwMultiAff::empty(space).map(PwAff)
    }

    /// The expression with the given (domain, expression) pieces, as
    /// [`PwMultiAff::from_piece_list`] (domains checked to be disjoint).
    pub fn from_piece_list(domain: Space, pieces: Vec<(Set, Aff)>) -> Result<PwAff> {
        let e = PwAff::empty(domain)?;
        let sp = e.0.space.clone();
        let pieces = pieces
            .into_iter()
            .map(|(s, a)| {
                let params = a.space.params().to_vec();
                Ok((s, MultiAff::from_affs(sp.with_params(params), vec![a])?))
            })
            .collect::<Result<Vec<_>>>()?;
        PwMultiAff::from_piece_list(sp, pieces).map(PwAff)
    }

    /// As [`PwMultiAff::from_pieces`] with one row per piece: pieces
    /// `(domain conjunction, row, den)` over the set space `domain`.
    // the entry point of the parametric lexmin solver, to be wired in
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) fn from_pieces(
        domain: Space,
        pieces: Vec<(Conjunction, Row, Int)>,
    ) -> Result<PwAff> {
        let e = PwAff::empty(domain)?;
        let pieces = pieces
            .into_iter()
            .map(|(c, r, d)| (c, vec![r], d))
            .collect();
        PwMultiAff::from_pieces(e.0.space, pieces).map(PwAff)
    }

    /// The PwMultiAff with one range dimension as a PwAff (an error for
    /// another number of range dimensions).
    pub fn from_pw_multi_aff(f: PwMultiAff) -> Result<PwAff> {
        if f.space.n_out() != 1 {
            return Err(Error::Invalid(format!(
                "a PwAff has one output, this function has {}",
                f.space.n_out()
            )));
        }
        let space = f.space.clone();
        let mut f = f;
        let sp = fn_space(
            space.params().to_vec(),
            space.domain_tuple().cloned(),
            one_dim(),
        );
        f.space = sp.clone();
        for (_, m) in &mut f.pieces {
            m.space = sp.clone();
        }
        Ok(PwAff(f))
    }

    /// The domain space (a set space).
    pub fn domain_space(&self) -> Space {
        self.0.domain_space()
    }

    /// The space `domain -> [1 dimension]` (isl's `isl_pw_aff_get_space`;
    /// the set space of one dimension for a function of the parameters).
    pub fn space(&self) -> &Space {
        &self.0.space
    }

    /// The pieces as (domain, expression) pairs.
    pub fn pieces(&self) -> impl Iterator<Item = (&Set, &Aff)> + '_ {
        self.0.pieces.iter().map(|(s, m)| (s, &m.affs[0]))
    }

    /// The number of pieces (isl's `isl_pw_aff_n_piece`).
    #[doc(alias = "isl_pw_aff_n_piece")]
    pub fn n_piece(&self) -> usize {
        self.0.pieces.len()
    }

    /// Checks the invariants (those of [`PwMultiAff`], one range dimension).
    pub fn check_invariants(&self) -> Result<()> {
        if self.0.space.n_out() != 1 {
            return Err(Error::Invalid("PwAff invariant: one output".into()));
        }
        self.0.check_invariants()
    }

    /// The set where the expression is defined (isl's `isl_pw_aff_domain`).
    #[doc(alias = "isl_pw_aff_domain")]
    pub fn domain(&self) -> Result<Set> {
        self.0.domain()
    }

    /// The value at `point` (parameters, then domain dimensions), `None`
    /// outside the domain (isl's `isl_pw_aff_eval` on a point).
    #[doc(alias = "isl_pw_aff_eval")]
    pub fn eval(&self, point: &[Int]) -> Result<Option<Rational>> {
        Ok(self.0.eval(point)?.map(|mut v| v.swap_remove(0)))
    }

    /// The graph as a map (isl's `isl_map_from_pw_aff`); see
    /// [`PwMultiAff::as_map`].
    #[doc(alias = "isl_map_from_pw_aff")]
    pub fn as_map(&self) -> Result<Map> {
        self.0.as_map()
    }

    /// The expression whose graph is the map `map` with one output (see
    /// [`PwMultiAff::from_map`]).
    pub fn from_map(map: &Map) -> Result<PwAff> {
        PwAff::from_pw_multi_aff(PwMultiAff::from_map(map)?)
    }

    /// The sum on the common domain (isl's `isl_pw_aff_add`).
    #[doc(alias = "isl_pw_aff_add")]
    pub fn add(&self, other: &PwAff) -> Result<PwAff> {
        self.0.add(&other.0).map(PwAff)
    }

    /// The difference on the common domain (isl's `isl_pw_aff_sub`).
    #[doc(alias = "isl_pw_aff_sub")]
    pub fn sub(&self, other: &PwAff) -> Result<PwAff> {
        self.0.sub(&other.0).map(PwAff)
    }

    /// `-self` (isl's `isl_pw_aff_neg`).
    #[doc(alias = "isl_pw_aff_neg")]
    pub fn neg(&self) -> PwAff {
        PwAff(self.0.neg())
    }

    /// `k·self` (isl's `isl_pw_aff_scale`).
    #[doc(alias = "isl_pw_aff_scale")]
    pub fn scale(&self, k: &Int) -> PwAff {
        PwAff(self.0.scale(k))
    }

    /// `q·self` for a rational `q` (isl's `isl_pw_aff_scale_val`).
    #[doc(alias = "isl_pw_aff_scale_val")]
    pub fn scale_rational(&self, q: &Rational) -> PwAff {
        PwAff(self.0.scale_rational(q))
    }

    /// `floor(self)` piece by piece (isl's `isl_pw_aff_floor`).
    #[doc(alias = "isl_pw_aff_floor")]
    pub fn floor(&self) -> PwAff {
        PwAff(self.0.map_affs(Aff::floor))
    }

    /// The minimum or maximum on the common domain: each pair of pieces is
    /// split by one inequality between the two expressions (see
    /// [`Aff::ge_set`]).
    fn min_max(&self, other: &PwAff, is_max: bool) -> Result<PwAff> {
        self.min_max_impl(other, is_max)
    }

    /// The minimum where both are defined (isl's `isl_pw_aff_min`).
    #[doc(alias = "isl_pw_aff_min")]
    pub fn min(&self, other: &PwAff) -> Result<PwAff> {
        self.min_max(other, false)
    }

    /// The maximum where both are defined (isl's `isl_pw_aff_max`).
    #[doc(alias = "isl_pw_aff_max")]
    pub fn max(&self, other: &PwAff) -> Result<PwAff> {
        self.min_max(other, true)
    }

    /// The sum where both are defined, either one elsewhere (isl's
    /// `isl_pw_aff_union_add`).
    #[doc(alias = "isl_pw_aff_union_add")]
    pub fn union_add(&self, other: &PwAff) -> Result<PwAff> {
        self.0.union_add(&other.0).map(PwAff)
    }

    /// The expression restricted to `set` (isl's `isl_pw_aff_intersect_domain`,
    /// or `isl_pw_aff_intersect_params` for a parameter set).
    #[doc(alias = "isl_pw_aff_intersect_domain")]
    pub fn intersect_domain(&self, set: &Set) -> Result<PwAff> {
        self.0.intersect_domain(set).map(PwAff)
    }

    /// The expression simplified in `context` (isl's `isl_pw_aff_gist`), as
    /// [`PwMultiAff::gist`].
    #[doc(alias = "isl_pw_aff_gist")]
    pub fn gist(&self, context: &Set) -> Result<PwAff> {
        self.0.gist(context).map(PwAff)
    }

    /// Pieces with equal expressions merged (isl's `isl_pw_aff_coalesce`).
    #[doc(alias = "isl_pw_aff_coalesce")]
    pub fn coalesce(&self) -> Result<PwAff> {
        self.0.coalesce().map(PwAff)
    }

    /// The composition `self ∘ g` (isl's `isl_pw_aff_pullback_pw_multi_aff`).
    #[doc(alias = "isl_pw_aff_pullback_pw_multi_aff")]
    pub fn pullback(&self, g: &PwMultiAff) -> Result<PwAff> {
        PwAff::from_pw_multi_aff(self.0.pullback(g)?)
    }

    /// The composition with a function on one piece (isl's
    /// `isl_pw_aff_pullback_multi_aff`).
    #[doc(alias = "isl_pw_aff_pullback_multi_aff")]
    pub fn pullback_multi_aff(&self, g: &MultiAff) -> Result<PwAff> {
        PwAff::from_pw_multi_aff(self.0.pullback_multi_aff(g)?)
    }

    /// True when both are defined on the same points with the same values
    /// (isl's `isl_pw_aff_is_equal`).
    #[doc(alias = "isl_pw_aff_is_equal")]
    pub fn is_equal(&self, other: &PwAff) -> Result<bool> {
        self.0.is_equal(&other.0)
    }
}

impl From<Aff> for PwAff {
    fn from(f: Aff) -> PwAff {
        PwAff::from_aff(f)
    }
}

impl Aff {
    /// The composition `self ∘ g` (isl's `isl_aff_pullback_multi_aff`):
    /// `g`'s range tuple must be the domain tuple of `self`.
    ///
    /// ```
    /// use presburger::{Aff, Int, MultiAff};
    /// let f: Aff = "{ A[a, b] -> [(floor((a + b)/2))] }".parse()?;
    /// let g: MultiAff = "{ [i] -> A[(2i), (i + 1)] }".parse()?;
    /// let h = f.pullback(&g)?;
    /// assert_eq!(h.eval(&[Int::from(3)])?, Int::from(5).into());
    /// # Ok::<(), presburger::Error>(())
    /// ```
    #[doc(alias = "isl_aff_pullback_multi_aff")]
    pub fn pullback(&self, g: &MultiAff) -> Result<Aff> {
        if !self.space.range_tuple().same_shape(g.space.range_tuple()) {
            return Err(Error::SpaceMismatch(
                "pullback: the range of the inner function is not the domain of the expression"
                    .into(),
            ));
        }
        let params = merged_params(self.space.params(), g.space.params());
        self.align_params(&params)
            .pullback_impl(&g.align_params(&params))
    }
}

impl MultiAff {
    /// The composition `self ∘ g` (isl's `isl_multi_aff_pullback_multi_aff`).
    #[doc(alias = "isl_multi_aff_pullback_multi_aff")]
    pub fn pullback(&self, g: &MultiAff) -> Result<MultiAff> {
        let ok = self
            .space
            .domain_tuple()
            .is_some_and(|d| d.same_shape(g.space.range_tuple()));
        if !ok {
            return Err(Error::SpaceMismatch(
                "pullback: the range of the inner function is not the domain of the outer one"
                    .into(),
            ));
        }
        let params = merged_params(self.space.params(), g.space.params());
        self.align_params(&params)
            .pullback_impl(&g.align_params(&params))
    }
}
