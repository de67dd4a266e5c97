//! Sets and maps: single conjunctions (`BasicSet`, `BasicMap`), finite unions of
//! conjunctions in one space (`Set`, `Map`), and unions across spaces (`UnionSet`,
//! `UnionMap`), with the structural operations that need no solver.
//!
//! Each type has one file here holding the type and every public method of it
//! (`basic_set.rs`, `basic_map.rs`, `set.rs`, `map.rs`, `union_set.rs`,
//! `union_map.rs`); a method whose algorithm lives in `ops/` or `solver/`
//! delegates to it. This file holds what the types share: `Disjunction` and
//! the `Across` trait with its generic functions (`across`). `Display` is in
//! `notation/print.rs`, `FromStr` in `notation/parse.rs`.
//!
//! Binary operations first align parameters by name (the union of both lists, in
//! order of first appearance), as isl does, so `[N] -> { .. }` and `[M, N] -> { .. }`
//! combine. Every operation here is exact.

use crate::conjunction::Conjunction;
use crate::error::{Error, Result};
use crate::int::Int;
use crate::space::{DimKind, Space, Tuple, TupleBody};
use std::collections::HashMap;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

mod aff;
#[cfg(test)]
mod aff_tests;
mod basic_map;
mod basic_set;
mod map;
mod pw_aff;
mod rational_set;
mod set;
mod union_map;
mod union_pw;
mod union_set;

pub use aff::{Aff, MultiAff};
pub(crate) use aff::{domain_of, fn_space};
pub use basic_map::BasicMap;
pub use basic_set::BasicSet;
pub use map::Map;
pub use pw_aff::{PwAff, PwMultiAff};
pub use rational_set::{MAX_RATIONAL_FM_ROWS, RationalSet};
pub use set::Set;
pub use union_map::UnionMap;
pub use union_pw::{UnionPwAff, UnionPwMultiAff};
pub use union_set::UnionSet;

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

    /// `self` united with each of `others` in turn, simplified once at the
    /// end (the conjunctions of each step's result are already simplified,
    /// so simplifying them again in every step changes nothing).
    pub(crate) fn union_all<'a>(
        &self,
        others: impl IntoIterator<Item = &'a Disjunction>,
    ) -> Result<Disjunction> {
        let mut acc = self.clone();
        for o in others {
            if acc.space.params() == o.space.params() && acc.space.same_tuples(&o.space) {
                acc.parts.extend(o.parts.iter().cloned());
            } else {
                let (mut a, b) = acc.aligned_pair(o, "union")?;
                a.parts.extend(b.parts);
                acc = a;
            }
        }
        acc.simplify();
        Ok(acc)
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
        // exact duplicates go, the first of each kept: among a few
        // conjunctions by comparing each with those kept, among many through
        // a hash table of their rows
        let same = |k: &Conjunction, p: &Conjunction| {
            k.divs == p.divs && k.eqs == p.eqs && k.ineqs == p.ineqs
        };
        let mut kept: Vec<Conjunction> = Vec::with_capacity(self.parts.len());
        if self.parts.len() <= 8 {
            for p in self.parts.drain(..) {
                if !kept.iter().any(|k| same(k, &p)) {
                    kept.push(p);
                }
            }
        } else {
            let mut at: HashMap<u64, Vec<usize>> = HashMap::new();
            for p in self.parts.drain(..) {
                let mut h = DefaultHasher::new();
                (&p.divs, &p.eqs, &p.ineqs).hash(&mut h);
                let bucket = at.entry(h.finish()).or_default();
                if !bucket.iter().any(|&k| same(&kept[k], &p)) {
                    bucket.push(kept.len());
                    kept.push(p);
                }
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
    use super::{Across, Disjunction, merged_params};
    use crate::error::Result;
    use crate::space::Space;
    use std::collections::HashMap;

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

    /// The members of a union found by their tuples, for many look-ups: a
    /// hash table from [`Space::tuple_key`] to the first member of that key.
    /// Equal tuples give equal keys; where one key stands for tuples that
    /// differ (a tuple named `""` and an unnamed one), the members are
    /// searched one by one, so a look-up finds what [`member_like`] finds.
    pub(crate) struct Index<'a, U: Across> {
        members: &'a [U::Member],
        at: HashMap<String, usize>,
    }

    impl<'a, U: Across> Index<'a, U> {
        /// The index of the members of `u`.
        pub(crate) fn new(u: &'a U) -> Index<'a, U> {
            let members = u.parts().1.as_slice();
            Index {
                members,
                at: keys::<U>(members),
            }
        }

        /// The member in the tuples of `space`.
        pub(crate) fn member(&self, space: &Space) -> Option<&'a U::Member> {
            find::<U>(self.members, &self.at, &space.tuple_key(), space).map(|i| &self.members[i])
        }

        /// The disjunction of the member in the tuples of `space`.
        pub(crate) fn get(&self, space: &Space) -> Option<&'a Disjunction> {
            self.member(space).map(U::disj)
        }
    }

    /// The first member of each tuple key (see [`Index`]).
    fn keys<U: Across>(members: &[U::Member]) -> HashMap<String, usize> {
        let mut at = HashMap::with_capacity(members.len());
        for (i, x) in members.iter().enumerate() {
            at.entry(U::disj(x).space.tuple_key()).or_insert(i);
        }
        at
    }

    /// The position in `members` of the member in the tuples of `space`,
    /// whose key is `key`, with `at` the first member of each key (see
    /// [`Index`]).
    fn find<U: Across>(
        members: &[U::Member],
        at: &HashMap<String, usize>,
        key: &str,
        space: &Space,
    ) -> Option<usize> {
        let i = *at.get(key)?;
        if U::disj(&members[i]).space.same_tuples(space) {
            return Some(i);
        }
        members
            .iter()
            .position(|x| U::disj(x).space.same_tuples(space))
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

    /// Adds every member of `ms` to `u` as [`add`] does, one after the other,
    /// with the same result. The members are found by their [`Space::tuple_key`]
    /// in a hash table built once, and what joins a member is united with it
    /// in one step at the end ([`Disjunction::union_all`]), so the cost grows
    /// with the number of members and conjunctions added and present, not
    /// with their product.
    pub(crate) fn add_all<U: Across>(
        u: &mut U,
        ms: impl IntoIterator<Item = U::Member>,
    ) -> Result<()> {
        let mut at = keys::<U>(u.parts().1);
        // what joins an existing member, by its position, in order
        let mut pending: HashMap<usize, Vec<Disjunction>> = HashMap::new();
        for m in ms {
            let (params, members) = u.parts_mut();
            let merged = merged_params(params, U::disj(&m).space.params());
            if merged != *params {
                for x in members.iter_mut() {
                    *x = U::wrap(U::disj(x).align_params(&merged));
                }
                *params = merged;
            }
            let m = U::disj(&m).align_params(params);
            let key = m.space.tuple_key();
            match find::<U>(members.as_slice(), &at, &key, &m.space) {
                Some(i) => pending.entry(i).or_default().push(m),
                None => {
                    at.entry(key).or_insert(members.len());
                    members.push(U::wrap(m.simplified()));
                }
            }
        }
        // the unions with members already there, each in one step
        let members = u.parts_mut().1;
        for (i, more) in pending {
            let x = &mut members[i];
            *x = U::wrap(U::disj(x).union_all(&more)?);
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
        let mut out = Vec::new();
        for x in disjs(a) {
            if let Some(d) = each(x)? {
                out.push(U::wrap(d));
            }
        }
        let mut r = U::from_parts(params.clone(), Vec::new());
        add_all(&mut r, out)?;
        Ok(with_params(r, &params))
    }

    /// Space by space union.
    pub(crate) fn union<U: Across>(a: &U, b: &U) -> Result<U> {
        let mut r = a.clone();
        add_all(&mut r, b.parts().1.iter().cloned())?;
        let params = merged_params(r.parts().0, b.parts().0);
        Ok(with_params(r, &params))
    }

    /// Space by space intersection; a parameter set on either side
    /// restricts every member of the other.
    pub(crate) fn intersect<U: Across>(a: &U, b: &U) -> Result<U> {
        let params = merged_params(a.parts().0, b.parts().0);
        let only_params = |u: &U| u.parts().1.len() == 1 && U::disj(&u.parts().1[0]).is_params();
        let mut out = Vec::new();
        if only_params(a) || only_params(b) {
            for x in disjs(a) {
                for y in disjs(b) {
                    out.push(U::wrap(if x.space.same_tuples(&y.space) {
                        x.intersect(y)?
                    } else if only_params(b) {
                        x.intersect_params(y)?
                    } else {
                        y.intersect_params(x)?
                    }));
                }
            }
        } else {
            // the partner of each member of `a`: the one member of `b` in its
            // space, if any
            let at = Index::new(b);
            for x in disjs(a) {
                if let Some(y) = at.get(&x.space) {
                    out.push(U::wrap(x.intersect(y)?));
                }
            }
        }
        let mut r = U::from_parts(params.clone(), Vec::new());
        add_all(&mut r, out)?;
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
        let at = Index::new(b);
        for x in disjs(a) {
            if !each(x, at.get(&x.space))? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{Box as PBox, map_points, set_points};
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
