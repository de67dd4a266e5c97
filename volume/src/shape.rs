//! Feed-forward shape inference (paper Sec. 5.3).
//!
//! Every tensor value of a [`Program`] is an array (paper Def. 4.7): its index
//! domain is the box `0 <= i_k < size_k`. [`infer_shapes`] computes the sizes in
//! one pass over the operations in textual (use-def) order, as affine expressions
//! ([`Size`]) in size parameters: a dynamic (`?`) dimension of a function argument
//! becomes the parameter `<volume>_d<k>`, and so does a dynamic size that cannot be
//! derived from the operands (a `tensor.empty` size given by an index value, a `?`
//! in an opaque op's result type). The paper obtains result domains as the domain
//! of the volume element map once the operand domains are applied as facts
//! (Sec. 5.3); for the array-shaped values of MLIR this reduces to the closed-form
//! rules below, and [`crate::element_map::result_domains`] gives the general
//! (arbitrary operand domain) version for `linalg` ops.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use presburger::build::{Constraint, Expr};
use presburger::{DimKind, Set, Space, Tuple, TupleBody};

use crate::error::{Error, Result};
use crate::ir::{AffineExpr, Def, LinalgOp, OpKind, Program, Type, ValueId};

/// An affine expression in size parameters: `constant + sum coeff * param`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Size {
    /// The constant part.
    pub constant: i64,
    /// Nonzero coefficients by parameter name.
    pub terms: BTreeMap<String, i64>,
}

fn overflow() -> Error {
    Error::Invalid("a size does not fit in 64 bits".into())
}

impl Size {
    /// The constant `c`.
    pub fn constant(c: i64) -> Size {
        Size {
            constant: c,
            terms: BTreeMap::new(),
        }
    }

    /// The parameter `name`.
    pub fn param(name: &str) -> Size {
        let mut terms = BTreeMap::new();
        terms.insert(name.to_string(), 1);
        Size { constant: 0, terms }
    }

    /// The value when the size is a constant.
    pub fn as_constant(&self) -> Option<i64> {
        self.terms.is_empty().then_some(self.constant)
    }

    /// `self + other` (an error on overflow).
    pub fn add(&self, other: &Size) -> Result<Size> {
        let mut r = self.clone();
        r.constant = r
            .constant
            .checked_add(other.constant)
            .ok_or_else(overflow)?;
        for (p, c) in &other.terms {
            let e = r.terms.entry(p.clone()).or_insert(0);
            *e = e.checked_add(*c).ok_or_else(overflow)?;
        }
        r.terms.retain(|_, c| *c != 0);
        Ok(r)
    }

    /// `self + c`.
    pub fn add_const(&self, c: i64) -> Result<Size> {
        self.add(&Size::constant(c))
    }

    /// The size with each parameter `subst` names replaced by its size.
    pub fn substitute(&self, subst: &BTreeMap<String, Size>) -> Result<Size> {
        let mut r = Size::constant(self.constant);
        for (p, c) in &self.terms {
            let term = match subst.get(p) {
                Some(v) => v.clone(),
                None => Size::param(p),
            };
            let scaled = Size {
                constant: term.constant.checked_mul(*c).ok_or_else(overflow)?,
                terms: term
                    .terms
                    .iter()
                    .map(|(q, d)| Ok((q.clone(), d.checked_mul(*c).ok_or_else(overflow)?)))
                    .collect::<Result<_>>()?,
            };
            r = r.add(&scaled)?;
        }
        Ok(r)
    }

    /// The parameters it uses.
    pub fn params(&self) -> impl Iterator<Item = &String> {
        self.terms.keys()
    }

    /// The size as an expression over the parameters `params` (parameter `k` of
    /// the space is `params[k]`); an error if it uses a parameter not among them.
    pub fn to_expr(&self, params: &[String]) -> Result<Expr> {
        let mut e = Expr::constant(self.constant);
        for (p, c) in &self.terms {
            let pos = params.iter().position(|q| q == p).ok_or_else(|| {
                Error::Invalid(format!(
                    "the size {self} uses the parameter {p}, which is not among [{}]",
                    params.join(", ")
                ))
            })?;
            e = e + *c * Expr::param(pos);
        }
        Ok(e)
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<String> = self
            .terms
            .iter()
            .map(|(p, c)| {
                if *c == 1 {
                    p.clone()
                } else {
                    format!("{c}*{p}")
                }
            })
            .collect();
        if self.constant != 0 || parts.is_empty() {
            parts.push(self.constant.to_string());
        }
        f.write_str(&parts.join(" + "))
    }
}

/// The inferred shapes of all values of a program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shapes {
    /// `sizes[v]`: the sizes of value `v` (empty for a rank-0 volume), `None` when
    /// unknown (index values).
    pub sizes: Vec<Option<Vec<Size>>>,
    /// All size parameters in use, sorted.
    pub params: Vec<String>,
    /// The parameters invented for sizes that could not be derived (a
    /// `tensor.empty` size from an index value, `?` in an opaque result): loop
    /// ranges prefer other sizes to these.
    pub placeholders: BTreeSet<String>,
}

impl Shapes {
    /// The sizes of `v`, if known.
    pub fn sizes(&self, v: ValueId) -> Option<&[Size]> {
        self.sizes.get(v).and_then(|s| s.as_deref())
    }

    /// `[params] -> { vol[i0, ...] : 0 <= i_k < size_k }`, the index domain of `v`
    /// (paper Def. 4.7); `{ vol[] }` for a rank-0 value (Lemma 4.3), including index
    /// values.
    pub fn domain(&self, p: &Program, v: ValueId) -> Result<Set> {
        let val = p
            .values
            .get(v)
            .ok_or_else(|| Error::Invalid(format!("no value with id {v}")))?;
        let sizes: &[Size] = match self.sizes(v) {
            Some(s) => s,
            None if val.ty.rank() == 0 => &[],
            None => {
                return Err(Error::Invalid(format!(
                    "the shape of %{} is unknown",
                    val.ssa
                )));
            }
        };
        box_set(&self.params, &val.volume, sizes)
    }
}

/// `[params] -> { name[i0, ...] : 0 <= i_k < size_k }`; any volume name works.
pub(crate) fn box_set(params: &[String], name: &str, sizes: &[Size]) -> Result<Set> {
    let vars: Vec<String> = (0..sizes.len()).map(|k| format!("i{k}")).collect();
    let space = Space::set(params.to_vec(), tuple(Some(name), &vars));
    let dims: Vec<Expr> = (0..sizes.len())
        .map(|k| Expr::dim(DimKind::SET, k))
        .collect();
    Ok(Set::from_constraints(
        &space,
        box_cons(&dims, sizes, params)?,
    )?)
}

/// A flat tuple with an optional name and named dimensions.
pub(crate) fn tuple(name: Option<&str>, dims: &[String]) -> Tuple {
    Tuple {
        name: name.map(str::to_string),
        body: TupleBody::Dims(dims.iter().cloned().map(Some).collect()),
    }
}

/// `0 <= x_k < size_k` for each pair of a variable and a size (sizes over the
/// parameters `params`).
pub(crate) fn box_cons(x: &[Expr], sizes: &[Size], params: &[String]) -> Result<Vec<Constraint>> {
    let mut cons = Vec::with_capacity(2 * x.len());
    for (x, s) in x.iter().zip(sizes) {
        cons.push(x.ge(0));
        cons.push(x.lt(s.to_expr(params)?));
    }
    Ok(cons)
}

/// `e` with the op's line and name put in front of an [`Error::Invalid`]
/// message.
pub(crate) fn in_op(p: &Program, op: usize, e: Error) -> Error {
    match e {
        Error::Invalid(m) => op_err(p, op, m),
        e => e,
    }
}

/// An `Error::Invalid` naming the op's line and name.
pub(crate) fn op_err(p: &Program, op: usize, msg: String) -> Error {
    match p.ops.get(op) {
        Some(o) => Error::Invalid(format!("line {}: {}: {msg}", o.line, o.name)),
        None => Error::Invalid(msg),
    }
}

fn unsupported(p: &Program, op: usize, msg: String) -> Error {
    match p.ops.get(op) {
        Some(o) => Error::Unsupported {
            op: o.name.clone(),
            line: o.line,
            message: msg,
        },
        None => Error::Invalid(msg),
    }
}

/// Feed-forward shape inference over the whole program (paper Sec. 5.3).
///
/// Rules, per operation in textual order:
/// - function arguments: static dims are constants, `?` dims the parameter
///   `<volume>_d<k>`;
/// - `tensor.pad`: `lo + size + hi` per dimension;
/// - `tensor.extract_slice`: its static sizes without the dropped dimensions;
///   `tensor.insert_slice`: the destination's sizes;
/// - constants and `tensor.empty`: their type, with a fresh placeholder parameter
///   `<volume>_d<k>` for a dynamic size (its index value is not tracked);
/// - `linalg`: the loop ranges ([`loop_ranges`]), and for each result dimension the
///   extent of the output indexing map's expression over those ranges;
/// - opaque ops: their result types (fresh placeholders for `?`).
///
/// A result type's static size that disagrees with a constant inferred size is an
/// [`Error::Invalid`] naming the op's line; when the inferred size involves
/// parameters, a static type size wins (the program asserts it).
///
/// Placeholders are then unified: where a `linalg` op's loop range comes from a
/// real size and an operand's size for that loop is a placeholder (the dynamic
/// size of a `tensor.empty(%n)` used as `outs`, say), a valid program must have
/// them equal, so the placeholder is replaced by that size and inference runs
/// again; every round removes a placeholder, so this ends.
pub fn infer_shapes(p: &Program) -> Result<Shapes> {
    let mut subst: BTreeMap<String, Size> = BTreeMap::new();
    loop {
        let sh = infer_once(p, &subst)?;
        let found = placeholder_equalities(p, &sh)?;
        let mut changed = false;
        for (ph, size) in found {
            if subst.contains_key(&ph) {
                continue;
            }
            // keep the substitution resolved: its values name no substituted
            // placeholder, and a placeholder equal to an expression of itself
            // tells nothing
            let size = size.substitute(&subst)?;
            if size.terms.contains_key(&ph) {
                continue;
            }
            let one = BTreeMap::from([(ph.clone(), size.clone())]);
            for v in subst.values_mut() {
                *v = v.substitute(&one)?;
            }
            subst.insert(ph, size);
            changed = true;
        }
        if !changed {
            return Ok(sh);
        }
    }
}

/// The placeholders that a `linalg` op's loop ranges determine: pairs of a
/// placeholder that is an operand's size along a loop, and the loop's range when
/// that is not a placeholder itself.
fn placeholder_equalities(p: &Program, sh: &Shapes) -> Result<Vec<(String, Size)>> {
    let mut out = Vec::new();
    for (i, op) in p.ops.iter().enumerate() {
        let OpKind::Linalg(l) = &op.kind else {
            continue;
        };
        let ranges = loop_ranges(p, i, sh)?;
        for (k, map) in l.indexing_maps.iter().enumerate() {
            let Some(sizes) = op.operands.get(k).and_then(|&v| sh.sizes(v)) else {
                continue;
            };
            for (pos, e) in map.results.iter().enumerate() {
                let (Some(size), Some(d)) =
                    (sizes.get(pos), (0..ranges.len()).find(|&d| e.is_dim(d)))
                else {
                    continue;
                };
                if let Some(ph) = sh.placeholder_name(size) {
                    if sh.placeholder_name(&ranges[d]).is_none() {
                        out.push((ph.to_string(), ranges[d].clone()));
                    }
                }
            }
        }
    }
    Ok(out)
}

impl Shapes {
    /// The placeholder parameter a size is exactly, if it is one.
    fn placeholder_name<'a>(&self, s: &'a Size) -> Option<&'a str> {
        match (s.constant, s.terms.iter().next()) {
            (0, Some((n, 1))) if s.terms.len() == 1 && self.placeholders.contains(n) => {
                Some(n.as_str())
            }
            _ => None,
        }
    }
}

fn infer_once(p: &Program, subst: &BTreeMap<String, Size>) -> Result<Shapes> {
    let mut sh = Shapes {
        sizes: vec![None; p.values.len()],
        params: Vec::new(),
        placeholders: BTreeSet::new(),
    };
    let mut params = BTreeSet::new();
    for &a in &p.args {
        let v = p
            .values
            .get(a)
            .ok_or_else(|| Error::Invalid(format!("no value with id {a}")))?;
        sh.sizes[a] = from_type(&v.ty, &v.volume, &mut params, None, subst);
    }
    for (i, op) in p.ops.iter().enumerate() {
        for &v in op.operands.iter().chain(&op.results) {
            if v >= p.values.len() {
                return Err(op_err(p, i, format!("no value with id {v}")));
            }
        }
        let inferred: Vec<Option<Vec<Size>>> = match &op.kind {
            OpKind::Constant | OpKind::Empty | OpKind::Opaque => op
                .results
                .iter()
                .map(|&r| {
                    let v = &p.values[r];
                    from_type(
                        &v.ty,
                        &v.volume,
                        &mut params,
                        Some(&mut sh.placeholders),
                        subst,
                    )
                })
                .collect(),
            OpKind::Pad { low, high } => {
                let src = operand(p, i, 0)?;
                let s = known(p, i, &sh, src)?;
                if low.len() != s.len() || high.len() != s.len() {
                    return Err(op_err(p, i, "low/high do not match the source rank".into()));
                }
                let mut out = Vec::new();
                for k in 0..s.len() {
                    if low[k] < 0 || high[k] < 0 {
                        return Err(op_err(p, i, "negative padding".into()));
                    }
                    out.push(s[k].add_const(low[k])?.add_const(high[k])?);
                }
                vec![Some(out)]
            }
            OpKind::ExtractSlice {
                offsets,
                sizes,
                strides,
                dropped,
            } => {
                let src = operand(p, i, 0)?;
                check_slice(
                    p,
                    i,
                    p.values[src].ty.rank(),
                    offsets,
                    sizes,
                    strides,
                    dropped,
                )?;
                let out = (0..sizes.len())
                    .filter(|k| !dropped.contains(k))
                    .map(|k| Size::constant(sizes[k]))
                    .collect();
                vec![Some(out)]
            }
            OpKind::InsertSlice {
                offsets,
                sizes,
                strides,
                dropped,
            } => {
                let dest = operand(p, i, 1)?;
                check_slice(
                    p,
                    i,
                    p.values[dest].ty.rank(),
                    offsets,
                    sizes,
                    strides,
                    dropped,
                )?;
                vec![Some(known(p, i, &sh, dest)?.to_vec())]
            }
            OpKind::Linalg(l) => {
                let ranges = loop_ranges(p, i, &sh)?;
                let mut outs = Vec::new();
                for j in 0..l.n_outputs {
                    let map = l
                        .indexing_maps
                        .get(l.n_inputs + j)
                        .ok_or_else(|| op_err(p, i, "missing indexing map".into()))?;
                    let mut sizes = Vec::new();
                    for e in &map.results {
                        sizes.push(extent(p, i, e, &ranges)?);
                    }
                    outs.push(Some(sizes));
                }
                outs
            }
        };
        if inferred.len() != op.results.len() {
            return Err(op_err(
                p,
                i,
                format!(
                    "{} results expected, {} given",
                    inferred.len(),
                    op.results.len()
                ),
            ));
        }
        for (&r, s) in op.results.iter().zip(inferred) {
            sh.sizes[r] = reconcile(p, i, r, s)?;
        }
    }
    for s in sh.sizes.iter().flatten() {
        for z in s {
            params.extend(z.params().cloned());
        }
    }
    sh.params = params.into_iter().collect();
    Ok(sh)
}

/// Sizes from a type: constants, and `<volume>_d<k>` for `?` (recorded as a
/// placeholder when `placeholders` is given, unless `subst` gives its size).
/// `None` for index values.
fn from_type(
    ty: &Type,
    volume: &str,
    params: &mut BTreeSet<String>,
    placeholders: Option<&mut BTreeSet<String>>,
    subst: &BTreeMap<String, Size>,
) -> Option<Vec<Size>> {
    match ty {
        Type::Index => None,
        Type::Scalar(_) => Some(Vec::new()),
        Type::Tensor(t) => {
            let mut fresh = Vec::new();
            let s = t
                .dims
                .iter()
                .enumerate()
                .map(|(k, d)| match d {
                    Some(c) => Size::constant(*c),
                    None => {
                        let name = format!("{volume}_d{k}");
                        if let Some(known) = subst.get(&name) {
                            return known.clone();
                        }
                        params.insert(name.clone());
                        fresh.push(name.clone());
                        Size::param(&name)
                    }
                })
                .collect();
            if let Some(ph) = placeholders {
                ph.extend(fresh);
            }
            Some(s)
        }
    }
}

/// Checks an inferred result shape against the result's type.
fn reconcile(
    p: &Program,
    op: usize,
    r: ValueId,
    s: Option<Vec<Size>>,
) -> Result<Option<Vec<Size>>> {
    let v = &p.values[r];
    let Some(mut s) = s else { return Ok(None) };
    match &v.ty {
        Type::Index => Ok(None),
        Type::Scalar(_) if s.is_empty() => Ok(Some(s)),
        Type::Tensor(t) if t.dims.len() == s.len() => {
            for (k, d) in t.dims.iter().enumerate() {
                if let Some(c) = d {
                    match s[k].as_constant() {
                        Some(x) if x != *c => {
                            return Err(op_err(
                                p,
                                op,
                                format!(
                                    "result %{} has static size {c} in dimension {k}, but {x} is inferred",
                                    v.ssa
                                ),
                            ));
                        }
                        Some(_) => {}
                        None => s[k] = Size::constant(*c),
                    }
                }
            }
            Ok(Some(s))
        }
        _ => Err(op_err(
            p,
            op,
            format!(
                "result %{} has rank {}, but rank {} is inferred",
                v.ssa,
                v.ty.rank(),
                s.len()
            ),
        )),
    }
}

fn operand(p: &Program, op: usize, k: usize) -> Result<ValueId> {
    p.ops
        .get(op)
        .and_then(|o| o.operands.get(k).copied())
        .ok_or_else(|| op_err(p, op, format!("operand {k} is missing")))
}

fn known<'a>(p: &Program, op: usize, sh: &'a Shapes, v: ValueId) -> Result<&'a [Size]> {
    sh.sizes(v).ok_or_else(|| {
        op_err(
            p,
            op,
            format!("the shape of operand %{} is unknown", p.values[v].ssa),
        )
    })
}

/// Validates the static slice attributes against the rank of the big side.
pub(crate) fn check_slice(
    p: &Program,
    op: usize,
    rank: usize,
    offsets: &[i64],
    sizes: &[i64],
    strides: &[i64],
    dropped: &[usize],
) -> Result<()> {
    if offsets.len() != rank || sizes.len() != rank || strides.len() != rank {
        return Err(op_err(
            p,
            op,
            format!("offsets, sizes and strides must have {rank} entries"),
        ));
    }
    if sizes.iter().any(|&s| s < 0) {
        return Err(op_err(p, op, "negative slice size".into()));
    }
    for &d in dropped {
        if sizes.get(d) != Some(&1) {
            return Err(op_err(
                p,
                op,
                format!("dropped dimension {d} is not of size 1"),
            ));
        }
    }
    Ok(())
}

/// The loop ranges of the `linalg` op `op`, as MLIR computes them
/// (`LinalgOp::getStaticLoopRanges` / `createLoopRanges`): for each loop dim `d`,
/// the size of the first operand (the `ins`, then the `outs`) whose indexing map
/// has exactly `d` as a result, at that position, preferring constant sizes (a
/// static size asserts the dynamic ones it meets). Sizes that are placeholder
/// parameters ([`Shapes::placeholders`]) are used only when no other operand gives
/// the range. The iteration domain is the box of these ranges (paper Sec. 4.2.1,
/// where dom X is implied by the operands' domains).
pub fn loop_ranges(p: &Program, op: usize, shapes: &Shapes) -> Result<Vec<Size>> {
    let o = p
        .ops
        .get(op)
        .ok_or_else(|| Error::Invalid(format!("no operation {op}")))?;
    let OpKind::Linalg(l) = &o.kind else {
        return Err(op_err(p, op, "not a linalg operation".into()));
    };
    let n_loops = check_linalg(p, op, l)?;
    let mut ranges = Vec::with_capacity(n_loops);
    for d in 0..n_loops {
        let mut found: Option<Size> = None;
        // constants first (a static size in a type is what the program asserts),
        // then inferred sizes, then placeholders
        'pass: for pass in 0..3 {
            for (k, map) in l.indexing_maps.iter().enumerate() {
                let Some(sizes) = shapes.sizes(o.operands[k]) else {
                    continue;
                };
                for (pos, e) in map.results.iter().enumerate() {
                    if !e.is_dim(d) {
                        continue;
                    }
                    if let Some(s) = sizes.get(pos) {
                        let fits = match pass {
                            0 => s.as_constant().is_some(),
                            1 => shapes.placeholder_name(s).is_none(),
                            _ => true,
                        };
                        if fits {
                            found = Some(s.clone());
                            break 'pass;
                        }
                    }
                }
            }
        }
        match found {
            Some(s) => ranges.push(s),
            None => {
                return Err(unsupported(
                    p,
                    op,
                    format!("no operand gives the range of loop d{d}"),
                ));
            }
        }
    }
    Ok(ranges)
}

/// Checks the structure of a `linalg` op and returns its number of loops.
pub(crate) fn check_linalg(p: &Program, op: usize, l: &LinalgOp) -> Result<usize> {
    let o = p
        .ops
        .get(op)
        .ok_or_else(|| Error::Invalid(format!("no operation {op}")))?;
    if let Some(v) = o
        .operands
        .iter()
        .chain(&o.results)
        .find(|&&v| v >= p.values.len())
    {
        return Err(op_err(p, op, format!("no value with id {v}")));
    }
    let n = l.n_inputs + l.n_outputs;
    if l.indexing_maps.len() != n || o.operands.len() < n || o.results.len() != l.n_outputs {
        return Err(op_err(
            p,
            op,
            "indexing maps, operands and results do not match".into(),
        ));
    }
    let n_loops = l.indexing_maps.first().map_or(0, |m| m.n_dims);
    for (k, m) in l.indexing_maps.iter().enumerate() {
        if m.n_dims != n_loops {
            return Err(op_err(p, op, "indexing maps differ in their dims".into()));
        }
        if m.n_symbols > 0 {
            return Err(unsupported(p, op, "indexing maps with symbols".into()));
        }
        if m.results.len() != p.values[o.operands[k]].ty.rank() {
            return Err(op_err(
                p,
                op,
                format!("indexing map {k} does not match the rank of its operand"),
            ));
        }
    }
    Ok(n_loops)
}

/// The extent `max + 1` of the affine expression `e` over the box of `ranges`
/// (`0 <= d_k < range_k`); the size of a result dimension indexed by `e`. A plain
/// dim gives its range; anything else is computed exactly with `presburger`
/// (`dim_max` of the image of the box).
fn extent(p: &Program, op: usize, e: &AffineExpr, ranges: &[Size]) -> Result<Size> {
    if let AffineExpr::Dim(d) = e {
        return ranges
            .get(*d)
            .cloned()
            .ok_or_else(|| op_err(p, op, format!("loop d{d} does not exist")));
    }
    let mut params = BTreeSet::new();
    for r in ranges {
        params.extend(r.params().cloned());
    }
    let params: Vec<String> = params.into_iter().collect();
    // { [e] : exists d : 0 <= d_k < range_k and e = expr(d) }
    let d: Vec<Expr> = (0..ranges.len()).map(Expr::exists).collect();
    let expr = e
        .to_expr(&d, &[])
        .map_err(|err| in_op(p, op, Error::Invalid(err)))?;
    let mut cons = box_cons(&d, ranges, &params)?;
    cons.push(Expr::dim(DimKind::SET, 0).eq(expr));
    let space = Space::set(params.clone(), tuple(None, &["e".to_string()]));
    let set = Set::from_constraints(&space, cons)?;
    let max = set
        .dim_max_affine(0)
        .map_err(|err| unsupported(p, op, format!("the extent of {e}: {err}")))?
        .ok_or_else(|| op_err(p, op, "an empty iteration domain".into()))?;
    let mut s = Size::constant(1);
    for (k, v) in max.iter().enumerate() {
        let v = v.to_i64().ok_or_else(overflow)?;
        let term = if k == 0 {
            Size::constant(v)
        } else {
            let mut t = Size::default();
            if v != 0 {
                t.terms.insert(params[k - 1].clone(), v);
            }
            t
        };
        s = s.add(&term)?;
    }
    Ok(s)
}

/// The op that defines `v`, if any.
pub fn defining_op(p: &Program, v: ValueId) -> Option<usize> {
    match p.values.get(v)?.def {
        Def::Op { op, .. } => Some(op),
        Def::Arg(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn empty_program() -> Program {
        Program {
            name: "f".into(),
            values: Vec::new(),
            args: Vec::new(),
            ops: Vec::new(),
            returns: Vec::new(),
        }
    }

    /// Extents of results indexed by `floordiv`, `ceildiv` and `mod`, with
    /// values below zero rounded down (MLIR's semantics, not truncation).
    #[test]
    fn extents_of_divisions_round_down() {
        let p = empty_program();
        let d = |i| Box::new(AffineExpr::Dim(i));
        let c = |k| Box::new(AffineExpr::Const(k));
        let ranges = [Size::constant(4), Size::constant(5)];
        let cases = [
            // (d0 - 6) floordiv 4 over 0..=3 is at most -1 (truncation: 0)
            (
                AffineExpr::FloorDiv(Box::new(AffineExpr::Add(d(0), c(-6))), c(4)),
                0,
            ),
            // (d0 - 5) ceildiv 2 over 0..=3 is at most -1
            (
                AffineExpr::CeilDiv(Box::new(AffineExpr::Add(d(0), c(-5))), c(2)),
                0,
            ),
            // d1 mod 3 over 0..=4: at most 2
            (AffineExpr::Mod(d(1), c(3)), 3),
            // (d0 - 3) mod 4 + d1 over 0..=3, 0..=4: 3 + 4
            (
                AffineExpr::Add(
                    Box::new(AffineExpr::Mod(
                        Box::new(AffineExpr::Add(d(0), c(-3))),
                        c(4),
                    )),
                    d(1),
                ),
                8,
            ),
        ];
        for (e, want) in cases {
            assert_eq!(
                extent(&p, 0, &e, &ranges).unwrap(),
                Size::constant(want),
                "{e}"
            );
        }
        // a product with a constant: 2·d0 + d1 is at most 2·3 + 4
        let e = AffineExpr::Add(Box::new(AffineExpr::Mul(c(2), d(0))), d(1));
        assert_eq!(extent(&p, 0, &e, &ranges).unwrap(), Size::constant(11));
        // not quasi-affine: an error, not a panic
        let bad = AffineExpr::Mul(d(0), d(1));
        assert!(extent(&p, 0, &bad, &ranges).is_err());
    }

    /// A box over sizes in parameters, under any name; sizes must use only the
    /// given parameters.
    #[test]
    fn box_sets_take_any_name() {
        let params = vec!["N".to_string()];
        let mut n_plus_1 = Size::param("N");
        n_plus_1.constant = 1;
        let s = box_set(&params, "my.vol", &[n_plus_1, Size::constant(3)]).unwrap();
        let want: Set = "[N] -> { V[i0, i1] : 0 <= i0 <= N and 0 <= i1 < 3 }"
            .parse()
            .unwrap();
        assert!(
            s.is_equal(&want.set_tuple_name(Some("my.vol"))).unwrap(),
            "{s}"
        );
        let scalar = box_set(&[], "x", &[]).unwrap();
        assert!(scalar.is_equal(&"{ x[] }".parse().unwrap()).unwrap());
        let err = box_set(&[], "x", &[Size::param("M")]).unwrap_err();
        assert!(err.to_string().contains("M"), "{err}");
    }
}
