//! Constructions on maps and sets that rearrange spaces: identity, deltas, wrapping
//! and unwrapping, flattening, products, lexicographic order maps, preimages,
//! currying, domain and range maps, zip, and the insertion of dimensions and
//! parameters. All are exact rearrangements of columns plus equalities (no solver
//! involved).

use crate::api::{BasicMap, BasicSet, Disjunction, Map, Set, merged_params};
use crate::conjunction::Conjunction;
use crate::error::{Error, Result};
use crate::int::Int;
use crate::omega::Budget;
use crate::space::{DimKind, Space, Tuple, TupleBody};

impl Map {
    /// The algorithm of [`Map::identity`].
    pub(crate) fn identity_impl(space: &Space) -> Result<Map> {
        if !space.is_set() {
            return Err(Error::SpaceMismatch("identity needs a set space".into()));
        }
        Ok(Set::universe(space.clone())?.identity())
    }

    /// The algorithm of [`Map::deltas`].
    pub(crate) fn deltas_impl(&self) -> Result<Set> {
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

    /// The algorithm of [`Map::wrap`].
    pub(crate) fn wrap_impl(&self) -> Set {
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

    /// The algorithm of [`Map::flatten`].
    pub(crate) fn flatten_impl(&self) -> Map {
        let sp = &self.0.space;
        let dom = sp
            .domain_tuple()
            .map(Tuple::flattened)
            .unwrap_or_else(|| Tuple::anonymous(0));
        let space = Space::map(sp.params().to_vec(), dom, sp.range_tuple().flattened());
        Map(self.0.relabel(space))
    }

    /// The algorithm of [`Map::product`].
    pub(crate) fn product_impl(&self, other: &Map) -> Result<Map> {
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

    /// The algorithm of [`Map::range_product`].
    pub(crate) fn range_product_impl(&self, other: &Map) -> Result<Map> {
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

    /// The algorithm of [`Map::lex_lt`].
    pub(crate) fn lex_lt_impl(space: &Space) -> Result<Map> {
        lex_order(space, Ordering::Lt)
    }

    /// The algorithm of [`Map::lex_le`].
    pub(crate) fn lex_le_impl(space: &Space) -> Result<Map> {
        lex_order(space, Ordering::Le)
    }

    /// The algorithm of [`Map::lex_gt`].
    pub(crate) fn lex_gt_impl(space: &Space) -> Result<Map> {
        lex_order(space, Ordering::Gt)
    }

    /// The algorithm of [`Map::lex_ge`].
    pub(crate) fn lex_ge_impl(space: &Space) -> Result<Map> {
        lex_order(space, Ordering::Ge)
    }

    /// The algorithm of [`Map::subtract_domain_with_budget`].
    pub(crate) fn subtract_domain_with_budget_impl(
        &self,
        set: &Set,
        budget: &mut Budget,
    ) -> Result<Map> {
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

    /// The algorithm of [`Map::subtract_range_with_budget`].
    pub(crate) fn subtract_range_with_budget_impl(
        &self,
        set: &Set,
        budget: &mut Budget,
    ) -> Result<Map> {
        Ok(self
            .reverse()
            .subtract_domain_with_budget(set, budget)?
            .reverse())
    }

    /// The algorithm of [`Map::is_injective`].
    pub(crate) fn is_injective_impl(&self) -> Result<bool> {
        let pairs = self.apply_range(&self.reverse())?;
        let domain = self
            .0
            .space
            .domain_space()
            .ok_or_else(|| Error::SpaceMismatch("is_injective needs a map".into()))?;
        pairs.is_subset(&Map::identity(&domain)?)
    }

    /// The algorithm of [`Map::curry`].
    pub(crate) fn curry_impl(&self) -> Result<Map> {
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

    /// The algorithm of [`Map::uncurry`].
    pub(crate) fn uncurry_impl(&self) -> Result<Map> {
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

impl Map {
    /// The algorithm of [`Map::domain_map`].
    pub(crate) fn domain_map_impl(&self) -> Map {
        let (space, from, len) = side_map_space(&self.0.space, true);
        Map(self
            .0
            .map_parts_infallible(&space, |c| append_copy(c, &space, from, len)))
    }

    /// The algorithm of [`Map::range_map`].
    pub(crate) fn range_map_impl(&self) -> Map {
        let (space, from, len) = side_map_space(&self.0.space, false);
        Map(self
            .0
            .map_parts_infallible(&space, |c| append_copy(c, &space, from, len)))
    }

    /// The algorithm of [`Map::can_zip`].
    pub(crate) fn can_zip_impl(&self) -> bool {
        zip_space(&self.0.space).is_ok()
    }

    /// The algorithm of [`Map::zip`].
    pub(crate) fn zip_impl(&self) -> Result<Map> {
        let (space, colmap) = zip_space(&self.0.space)?;
        Ok(Map(self.0.map_parts_infallible(&space, |c| {
            c.remap(space.clone(), c.n_local(), &extend_colmap(&colmap, c))
        })))
    }

    /// The algorithm of [`Map::insert_dims`].
    pub(crate) fn insert_dims_impl(&self, kind: DimKind, pos: usize, n: usize) -> Result<Map> {
        let (space, col) = inserted_dims_space(&self.0.space, kind, pos, n)?;
        Ok(Map(self.0.map_parts_infallible(&space, |c| {
            insert_columns(c, &space, col, n)
        })))
    }

    /// The algorithm of [`Map::insert_params`].
    pub(crate) fn insert_params_impl(&self, pos: usize, names: &[&str]) -> Result<Map> {
        let space = inserted_params_space(&self.0.space, pos, names)?;
        Ok(Map(self.0.map_parts_infallible(&space, |c| {
            insert_columns(c, &space, 1 + pos, names.len())
        })))
    }
}

impl BasicMap {
    /// The algorithm of [`BasicMap::domain_map`].
    pub(crate) fn domain_map_impl(&self) -> BasicMap {
        let (space, from, len) = side_map_space(&self.0.space, true);
        BasicMap(simplified(append_copy(&self.0, &space, from, len)))
    }

    /// The algorithm of [`BasicMap::range_map`].
    pub(crate) fn range_map_impl(&self) -> BasicMap {
        let (space, from, len) = side_map_space(&self.0.space, false);
        BasicMap(simplified(append_copy(&self.0, &space, from, len)))
    }

    /// The algorithm of [`BasicMap::zip`].
    pub(crate) fn zip_impl(&self) -> Result<BasicMap> {
        let (space, colmap) = zip_space(&self.0.space)?;
        let c = &self.0;
        Ok(BasicMap(simplified(c.remap(
            space,
            c.n_local(),
            &extend_colmap(&colmap, c),
        ))))
    }

    /// The algorithm of [`BasicMap::insert_dims`].
    pub(crate) fn insert_dims_impl(&self, kind: DimKind, pos: usize, n: usize) -> Result<BasicMap> {
        let (space, col) = inserted_dims_space(&self.0.space, kind, pos, n)?;
        Ok(BasicMap(simplified(insert_columns(
            &self.0, &space, col, n,
        ))))
    }

    /// The algorithm of [`BasicMap::insert_params`].
    pub(crate) fn insert_params_impl(&self, pos: usize, names: &[&str]) -> Result<BasicMap> {
        let space = inserted_params_space(&self.0.space, pos, names)?;
        Ok(BasicMap(simplified(insert_columns(
            &self.0,
            &space,
            1 + pos,
            names.len(),
        ))))
    }
}

impl Set {
    /// The algorithm of [`Set::insert_dims`].
    pub(crate) fn insert_dims_impl(&self, kind: DimKind, pos: usize, n: usize) -> Result<Set> {
        let (space, col) = inserted_dims_space(&self.0.space, kind, pos, n)?;
        Ok(Set(self.0.map_parts_infallible(&space, |c| {
            insert_columns(c, &space, col, n)
        })))
    }

    /// The algorithm of [`Set::insert_params`].
    pub(crate) fn insert_params_impl(&self, pos: usize, names: &[&str]) -> Result<Set> {
        let space = inserted_params_space(&self.0.space, pos, names)?;
        Ok(Set(self.0.map_parts_infallible(&space, |c| {
            insert_columns(c, &space, 1 + pos, names.len())
        })))
    }
}

impl BasicSet {
    /// The algorithm of [`BasicSet::insert_dims`].
    pub(crate) fn insert_dims_impl(&self, kind: DimKind, pos: usize, n: usize) -> Result<BasicSet> {
        let (space, col) = inserted_dims_space(&self.0.space, kind, pos, n)?;
        Ok(BasicSet(simplified(insert_columns(
            &self.0, &space, col, n,
        ))))
    }

    /// The algorithm of [`BasicSet::insert_params`].
    pub(crate) fn insert_params_impl(&self, pos: usize, names: &[&str]) -> Result<BasicSet> {
        let space = inserted_params_space(&self.0.space, pos, names)?;
        Ok(BasicSet(simplified(insert_columns(
            &self.0,
            &space,
            1 + pos,
            names.len(),
        ))))
    }
}

impl Disjunction {
    /// Every conjunction rebuilt by `f` in `space`, then simplified.
    fn map_parts_infallible(
        &self,
        space: &Space,
        f: impl Fn(&Conjunction) -> Conjunction,
    ) -> Disjunction {
        let mut d = Disjunction {
            space: space.clone(),
            parts: self.parts.iter().map(f).collect(),
        };
        d.simplify();
        d
    }
}

fn simplified(mut c: Conjunction) -> Conjunction {
    c.simplify();
    c
}

/// The space of `domain_map` (`domain`) or `range_map` of a map space, with
/// the first column and the number of the dimensions the range copies.
fn side_map_space(sp: &Space, domain: bool) -> (Space, usize, usize) {
    let dom = sp
        .domain_tuple()
        .cloned()
        .unwrap_or_else(|| Tuple::anonymous(0));
    let ran = sp.range_tuple().clone();
    let (np, ni) = (sp.n_param(), sp.n_in());
    let (target, from, len) = if domain {
        (dom.clone(), 1 + np, ni)
    } else {
        (ran.clone(), 1 + np + ni, sp.n_out())
    };
    let wrapped = Tuple::nested(None, dom, ran);
    (Space::map(sp.params().to_vec(), wrapped, target), from, len)
}

/// `c` in `space`, whose dimensions are those of `c` followed by a copy of
/// `len` of them from column `from`, each copy equated to its original.
fn append_copy(c: &Conjunction, space: &Space, from: usize, len: usize) -> Conjunction {
    let first_new = 1 + c.space.n_var();
    let colmap: Vec<usize> = (0..c.n_col())
        .map(|col| if col < first_new { col } else { col + len })
        .collect();
    let mut r = c.remap(space.clone(), c.n_local(), &colmap);
    for k in 0..len {
        let mut row = vec![Int::ZERO; r.n_col()];
        row[first_new + k] = Int::ONE;
        row[from + k] = Int::from(-1);
        r.eqs.push(row);
    }
    r
}

/// The space of `zip` of a map space `[A -> B] -> [C -> D]`, and where each
/// dimension column (from 1 + the parameters) goes; an error when the domain
/// or the range is not a pair.
fn zip_space(sp: &Space) -> Result<(Space, Vec<usize>)> {
    let (Some(TupleBody::Nested(a, b)), TupleBody::Nested(c, d)) =
        (sp.domain_tuple().map(|t| &t.body), &sp.range_tuple().body)
    else {
        return Err(Error::SpaceMismatch(format!(
            "zip needs a map whose domain and range are pairs, such as \
             {{ [A[i] -> B[j]] -> [C[k] -> D[l]] }}, not one in {}",
            sp.tuple_key()
        )));
    };
    let (na, nb, nc, nd) = (a.len(), b.len(), c.len(), d.len());
    let o = 1 + sp.n_param();
    // old order A B C D, new order A C B D
    let mut colmap: Vec<usize> = (0..o).collect();
    colmap.extend(o..o + na);
    colmap.extend(o + na + nc..o + na + nc + nb);
    colmap.extend(o + na..o + na + nc);
    colmap.extend(o + na + nc + nb..o + na + nc + nb + nd);
    let space = Space::map(
        sp.params().to_vec(),
        Tuple::nested(None, (**a).clone(), (**c).clone()),
        Tuple::nested(None, (**b).clone(), (**d).clone()),
    );
    Ok((space, colmap))
}

/// `colmap` (over the constant, parameters and dimensions) extended by the
/// identity on the locals of `c`.
fn extend_colmap(colmap: &[usize], c: &Conjunction) -> Vec<usize> {
    let mut m = colmap.to_vec();
    m.extend(colmap.len()..c.n_col());
    m
}

/// The space with `n` dimensions of `kind` inserted at `pos` (the tuple
/// made flat and anonymous, as isl's `isl_space_insert_dims` does), and the
/// column of the first new dimension.
fn inserted_dims_space(sp: &Space, kind: DimKind, pos: usize, n: usize) -> Result<(Space, usize)> {
    let tuple = match kind {
        DimKind::In => sp.domain_tuple().ok_or_else(|| {
            Error::Invalid("insert_dims: a set has no input dimensions (use DimKind::SET)".into())
        })?,
        DimKind::Out => sp.range_tuple(),
        DimKind::Param => {
            return Err(Error::Invalid(
                "insert_dims: parameters are identified by name here; \
                 use insert_params(pos, names)"
                    .into(),
            ));
        }
        DimKind::Local => {
            return Err(Error::Invalid(
                "insert_dims: locals belong to single conjunctions; \
                 insert dimensions of kind In or Out"
                    .into(),
            ));
        }
    };
    let have = tuple.len();
    if pos > have {
        return Err(Error::Invalid(format!(
            "insert_dims: position {pos} is out of range (the {kind:?} tuple has {have} \
             dimensions; positions 0..={have} are valid)"
        )));
    }
    // (rows are allocated with one entry per column)
    if sp
        .n_var()
        .checked_add(n)
        .is_none_or(|v| v > u32::MAX as usize)
    {
        return Err(Error::Invalid(format!(
            "insert_dims: {n} dimensions are too many"
        )));
    }
    let mut names = tuple.dim_names();
    names.splice(pos..pos, std::iter::repeat_n(None, n));
    let flat = Tuple {
        name: None,
        body: TupleBody::Dims(names),
    };
    let space = match (kind, sp.domain_tuple()) {
        (DimKind::In, _) => Space::map(sp.params().to_vec(), flat, sp.range_tuple().clone()),
        (_, Some(d)) => Space::map(sp.params().to_vec(), d.clone(), flat),
        (_, None) => Space::set(sp.params().to_vec(), flat),
    };
    Ok((space, sp.offset(kind) + pos))
}

/// The space with the parameters `names` inserted at `pos`.
fn inserted_params_space(sp: &Space, pos: usize, names: &[&str]) -> Result<Space> {
    let have = sp.n_param();
    if pos > have {
        return Err(Error::Invalid(format!(
            "insert_params: position {pos} is out of range (there are {have} parameters; \
             positions 0..={have} are valid)"
        )));
    }
    let mut params = sp.params().to_vec();
    for (k, name) in names.iter().enumerate() {
        let mut cs = name.chars();
        let ident = cs.next().is_some_and(crate::lexer::is_ident_start)
            && cs.all(crate::lexer::is_ident_char)
            && !crate::parse::is_keyword(name);
        if !ident {
            return Err(Error::Invalid(format!(
                "insert_params: {name:?} is not a valid parameter name"
            )));
        }
        if params.iter().any(|p| p == name) || names[..k].contains(name) {
            return Err(Error::Invalid(format!(
                "insert_params: parameter {name} exists already"
            )));
        }
    }
    params.splice(pos..pos, names.iter().map(|s| s.to_string()));
    Ok(sp.with_params(params))
}

/// `c` in `space`, which has `n` more columns before column `col`.
fn insert_columns(c: &Conjunction, space: &Space, col: usize, n: usize) -> Conjunction {
    let colmap: Vec<usize> = (0..c.n_col())
        .map(|k| if k < col { k } else { k + n })
        .collect();
    c.remap(space.clone(), c.n_local(), &colmap)
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
    /// The algorithm of [`Set::unwrap`].
    pub(crate) fn unwrap_impl(&self) -> Result<Map> {
        let sp = &self.0.space;
        let TupleBody::Nested(a, b) = &sp.range_tuple().body else {
            return Err(Error::SpaceMismatch(
                "unwrap needs a set of pairs such as { [A[i] -> B[j]] }".into(),
            ));
        };
        let space = Space::map(sp.params().to_vec(), (**a).clone(), (**b).clone());
        Ok(Map(self.0.relabel(space)))
    }

    /// The algorithm of [`Set::product`].
    pub(crate) fn product_impl(&self, other: &Set) -> Result<Set> {
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{Box as PBox, basic_map_points, map_points, set_points};
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
        assert!(
            raw.deltas()
                .unwrap()
                .is_equal(&"[N] -> { S[1] : N >= 3 }".parse().unwrap())
                .unwrap()
        );
        // the iterations whose write is not read by a later iteration
        let last = write.subtract_range(&read.range()).unwrap();
        assert!(
            last.domain()
                .is_equal(&"[N] -> { S[i] : i = N - 1 and N >= 2 }".parse().unwrap())
                .unwrap()
        );
        let first = read
            .subtract_domain(&"[N] -> { S[i] : i >= 2 }".parse().unwrap())
            .unwrap();
        assert!(
            first
                .is_equal(&"[N] -> { S[1] -> A[0] : N >= 2 }".parse().unwrap())
                .unwrap()
        );
        // the preimage of the read elements under the write map
        let pre = "[N] -> { A[a] : a >= 5 }"
            .parse::<Set>()
            .unwrap()
            .preimage(&write)
            .unwrap();
        assert!(
            pre.is_equal(&"[N] -> { S[i] : 5 <= i < N }".parse().unwrap())
                .unwrap()
        );
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

    /// domain_map, range_map and zip: the relation by enumeration, and the
    /// spaces and printing isl gives (isl 0.25's answers, checked by hand:
    /// `isl_map_domain_map` keeps a named wrapped tuple, `isl_map_zip` drops
    /// the names of the wrapped tuples).
    #[test]
    fn domain_range_maps_and_zip() {
        let b = PBox::new(vec![3], -2, 4);
        let m: Map = "[N] -> { S[i] -> T[j, k] : 0 <= i < N and i <= j <= i + 1 and k = j mod 2 }"
            .parse()
            .unwrap();
        let pm = map_points(&m, &b);
        let dm = m.domain_map();
        let want: BTreeSet<Vec<i64>> = pm.iter().map(|p| [&p[..], &p[..1]].concat()).collect();
        assert_eq!(map_points(&dm, &b), want);
        assert_eq!(dm.space().n_in(), 3);
        assert!(dm.domain().unwrap().unwrap().is_equal(&m).unwrap());
        let rm = m.range_map();
        let want: BTreeSet<Vec<i64>> = pm.iter().map(|p| [&p[..], &p[1..]].concat()).collect();
        assert_eq!(map_points(&rm, &b), want);
        assert!(rm.range().is_equal(&m.range()).unwrap());
        // the printed forms read back as the same maps
        for x in [&dm, &rm] {
            let back: Map = x.to_string().parse().unwrap();
            assert!(back.is_equal(x).unwrap(), "{x}");
        }
        // nested and named tuples stay as they are
        let n: Map = "{ F[S[i] -> U[k]] -> T[j] : j = i + k }".parse().unwrap();
        assert_eq!(
            n.domain_map().to_string(),
            "{ [F[S[i] -> U[k]] -> T[j]] -> F[S[i] -> U[k]] : j = i + k }"
        );
        assert_eq!(
            n.range_map().to_string(),
            "{ [F[S[i] -> U[k]] -> T[j]] -> T[i + k] : j = i + k }"
        );
        // the empty map gives the empty map
        let e: Map = "{ S[i] -> T[j] : 1 = 0 }".parse().unwrap();
        assert!(e.domain_map().is_empty().unwrap());
        // zip: [A -> B] -> [C -> D] to [A -> C] -> [B -> D], with divisions
        let z: Map =
            "[N] -> { F[A[a] -> B[b0, b1]] -> G[C[] -> D[d]] : 0 <= a < N and b0 = floor(a / 2) and b1 = d and 0 <= d <= 1 }"
                .parse()
                .unwrap();
        assert!(z.can_zip());
        let zz = z.zip().unwrap();
        assert_eq!(
            zz.space().domain_tuple().unwrap().dim_names().len(),
            1,
            "A and C"
        );
        let pz = map_points(&z, &b);
        // columns A B0 B1 D (C is empty) to A C B0 B1 D: the same order here
        assert_eq!(map_points(&zz, &b), pz);
        let s = zz.to_string();
        assert!(s.starts_with("[N] -> { [A[a] -> C[]] -> [B["), "{s}");
        assert!(zz.zip().unwrap().zip().unwrap().is_equal(&zz).unwrap());
        let w: Map = "{ [A[a] -> B[b]] -> [C[c] -> D[d]] : a = 1 and b = 2 and c = 3 and d = 4 }"
            .parse()
            .unwrap();
        assert_eq!(
            map_points(&w.zip().unwrap(), &PBox::new(vec![], 0, 4)),
            pts(&[&[1, 3, 2, 4]])
        );
        for bad in [
            "{ A[a] -> [C[c] -> D[d]] }",
            "{ [A[a] -> B[b]] -> C[c] }",
            "{ A[a] -> C[c] }",
        ] {
            let m: Map = bad.parse().unwrap();
            assert!(!m.can_zip());
            assert!(matches!(m.zip(), Err(Error::SpaceMismatch(_))), "{bad}");
            let bm: BasicMap = bad.parse().unwrap();
            assert!(bm.zip().is_err());
        }
    }

    /// insert_dims as isl does it: the receiving tuple flat and anonymous (even
    /// for n = 0), the old dimension names kept, positions checked, divisions
    /// kept; parameters by name.
    #[test]
    fn inserting_dimensions_and_parameters() {
        let s: Set = "[N] -> { S[i, j] : 0 <= i < j < N and j mod 3 = 0 }"
            .parse()
            .unwrap();
        let b = PBox::new(vec![5], -1, 5);
        let ps = set_points(&s, &b);
        for pos in 0..=2 {
            for n in 0..=2 {
                let t = s.insert_dims(DimKind::SET, pos, n).unwrap();
                assert_eq!(t.space().range_tuple().name, None);
                assert_eq!(t.space().n_out(), 2 + n);
                let names = t.space().range_tuple().dim_names();
                assert_eq!(names.iter().flatten().count(), 2);
                let got = set_points(&t, &b);
                let want: BTreeSet<Vec<i64>> = got
                    .iter()
                    .filter(|p| ps.contains(&[&p[..pos], &p[pos + n..]].concat()))
                    .cloned()
                    .collect();
                assert_eq!(got, want);
                // every value of the new dimensions in the box
                assert_eq!(got.len(), ps.len() * 7usize.pow(n as u32));
            }
        }
        assert_eq!(
            s.insert_dims(DimKind::SET, 0, 0).unwrap().to_string(),
            "[N] -> { [i, j] : 0 <= i < j < N and j mod 3 = 0 }"
                .parse::<Set>()
                .unwrap()
                .to_string()
        );
        assert_eq!(
            s.insert_dims(DimKind::SET, 1, 1).unwrap().to_string(),
            "[N] -> { [i, i1, j] : 0 <= i < j < N and j mod 3 = 0 }"
                .parse::<Set>()
                .unwrap()
                .to_string()
        );
        for (kind, pos) in [
            (DimKind::SET, 3),
            (DimKind::In, 0),
            (DimKind::Param, 0),
            (DimKind::Local, 0),
        ] {
            assert!(
                matches!(s.insert_dims(kind, pos, 1), Err(Error::Invalid(_))),
                "{kind:?} {pos}"
            );
        }
        assert!(s.insert_dims(DimKind::SET, 3, 0).is_err());
        assert!(s.insert_dims(DimKind::SET, 0, usize::MAX).is_err());
        // a nested tuple is flattened, its names kept
        let w: Set = "{ [S[i] -> T[j]] : i < j }".parse().unwrap();
        let t = w.insert_dims(DimKind::SET, 1, 1).unwrap();
        assert!(
            t.is_equal(&"{ [i, k, j] : i < j }".parse().unwrap())
                .unwrap()
        );
        // maps: only the receiving tuple changes
        let m: Map = "{ S[i] -> [T[j] -> U[k]] : j = i + 1 and k = 2i }"
            .parse()
            .unwrap();
        let mi = m.insert_dims(DimKind::In, 0, 1).unwrap();
        assert!(mi.space().range_tuple().same_shape(m.space().range_tuple()));
        assert!(
            mi.is_equal(
                &"{ [x, i] -> [T[j] -> U[k]] : j = i + 1 and k = 2i }"
                    .parse()
                    .unwrap()
            )
            .unwrap()
        );
        let mo = m.insert_dims(DimKind::Out, 1, 1).unwrap();
        assert_eq!(
            mo.space().domain_tuple().unwrap().name.as_deref(),
            Some("S")
        );
        assert!(
            mo.is_equal(
                &"{ S[i] -> [j, x, k] : j = i + 1 and k = 2i }"
                    .parse()
                    .unwrap()
            )
            .unwrap()
        );
        assert!(m.insert_dims(DimKind::In, 2, 1).is_err());
        assert!(m.insert_dims(DimKind::Out, 3, 0).is_err());
        let bm: BasicMap = "{ S[i] -> T[j] : j = floor(i / 2) }".parse().unwrap();
        let bi = bm.insert_dims(DimKind::In, 0, 2).unwrap();
        assert_eq!(
            basic_map_points(&bi, &PBox::new(vec![], 0, 1)),
            pts(&[
                &[0, 0, 0, 0],
                &[0, 0, 1, 0],
                &[0, 1, 0, 0],
                &[0, 1, 1, 0],
                &[1, 0, 0, 0],
                &[1, 0, 1, 0],
                &[1, 1, 0, 0],
                &[1, 1, 1, 0],
            ])
        );
        // parameters: by name, new and valid
        let p = s.insert_params(0, &["M", "K"]).unwrap();
        assert_eq!(p.space().params(), ["M", "K", "N"]);
        assert_eq!(
            set_points(&p, &PBox::new(vec![-3, 9, 5], -1, 5)),
            ps,
            "the new parameters are unconstrained"
        );
        assert!(
            p.is_equal(&s).is_ok_and(|e| e),
            "equal after aligning by name"
        );
        for (pos, names) in [
            (2, &["M"][..]),
            (0, &["N"][..]),
            (0, &["M", "M"][..]),
            (0, &["2x"][..]),
            (0, &[""][..]),
            (0, &["and"][..]),
        ] {
            assert!(
                matches!(s.insert_params(pos, names), Err(Error::Invalid(_))),
                "{pos} {names:?}"
            );
        }
        let bs: BasicSet = "[N] -> { [i] : i < N }".parse().unwrap();
        assert_eq!(
            bs.insert_params(1, &["M"]).unwrap().to_string(),
            "[N, M] -> { [i] : i < N }"
        );
        assert_eq!(m.insert_params(0, &["P"]).unwrap().space().params(), ["P"]);
    }
}
