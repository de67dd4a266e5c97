//! Spaces: the named parameters and tuples an object lives in.
//!
//! A set lives in a space `[params] -> { T[d0, ..., dn] }` and a map in
//! `[params] -> { A[i..] -> B[o..] }`. A tuple has an optional name and either a
//! flat list of dimensions (each with an optional name, used only for printing) or
//! a nested pair of tuples, as isl writes `[A[i] -> B[j]]` for a wrapped map.
//!
//! Two spaces are the *same space* when their parameters, tuple names and tuple
//! shapes agree; dimension names are cosmetic, as in isl.
//!
//! Column layout of a constraint row (shared by the whole crate): column 0 is the
//! constant, then the parameters, the input dimensions (maps only), the output (set)
//! dimensions, and finally the local (existential) variables of the conjunction.

use crate::error::{Error, Result};
use std::fmt;
use std::sync::Arc;

/// The kinds of variables of a conjunction, in column order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DimKind {
    /// A symbolic constant shared by every tuple of the object.
    Param,
    /// An input dimension of a map.
    In,
    /// An output dimension of a map, or a dimension of a set.
    Out,
    /// An existentially quantified variable of one conjunction.
    Local,
}

impl DimKind {
    /// The dimensions of a set are the output dimensions of its space.
    pub const SET: DimKind = DimKind::Out;
}

/// A tuple: an optional name and its dimensions (or a nested pair of
/// tuples, as isl's `[A[i] -> B[j]]`).
///
/// ```
/// use presburger::Tuple;
/// let t = Tuple::new(Some("S"), &["i", "j"]);
/// assert_eq!(t.dim_names(), [Some("i".to_string()), Some("j".to_string())]);
/// assert_eq!(Tuple::anonymous(3).dim_names().len(), 3);
/// ```
#[derive(Debug, Clone)]
pub struct Tuple {
    /// The tuple name (`S` in `S[i, j]`), if any.
    pub name: Option<String>,
    /// The dimensions.
    pub body: TupleBody,
}

/// What a tuple holds.
#[derive(Debug, Clone)]
pub enum TupleBody {
    /// A flat list of dimensions with optional names.
    Dims(Vec<Option<String>>),
    /// A wrapped pair `[A[..] -> B[..]]`.
    Nested(Box<Tuple>, Box<Tuple>),
}

impl Tuple {
    /// A flat tuple with the given name and dimension names.
    pub fn new(name: Option<&str>, dims: &[&str]) -> Tuple {
        Tuple {
            name: name.map(str::to_string),
            body: TupleBody::Dims(dims.iter().map(|d| Some(d.to_string())).collect()),
        }
    }

    /// An anonymous flat tuple of `n` unnamed dimensions.
    pub fn anonymous(n: usize) -> Tuple {
        Tuple {
            name: None,
            body: TupleBody::Dims(vec![None; n]),
        }
    }

    /// A named flat tuple of `n` unnamed dimensions.
    pub fn named(name: Option<String>, n: usize) -> Tuple {
        Tuple {
            name,
            body: TupleBody::Dims(vec![None; n]),
        }
    }

    /// A wrapped pair of tuples.
    pub fn nested(name: Option<String>, domain: Tuple, range: Tuple) -> Tuple {
        Tuple {
            name,
            body: TupleBody::Nested(Box::new(domain), Box::new(range)),
        }
    }

    /// The number of dimensions (summed over a nested pair).
    pub fn len(&self) -> usize {
        match &self.body {
            TupleBody::Dims(d) => d.len(),
            TupleBody::Nested(a, b) => a.len() + b.len(),
        }
    }

    /// True when the tuple has no dimensions.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The dimension names in order, flattened through nested pairs.
    pub fn dim_names(&self) -> Vec<Option<String>> {
        let mut out = Vec::with_capacity(self.len());
        self.collect_names(&mut out);
        out
    }

    fn collect_names(&self, out: &mut Vec<Option<String>>) {
        match &self.body {
            TupleBody::Dims(d) => out.extend(d.iter().cloned()),
            TupleBody::Nested(a, b) => {
                a.collect_names(out);
                b.collect_names(out);
            }
        }
    }

    /// Sets the name of flattened dimension `pos` (no effect if out of range).
    pub fn set_dim_name(&mut self, pos: usize, name: Option<String>) {
        match &mut self.body {
            TupleBody::Dims(d) => {
                if let Some(slot) = d.get_mut(pos) {
                    *slot = name;
                }
            }
            TupleBody::Nested(a, b) => {
                let n = a.len();
                if pos < n {
                    a.set_dim_name(pos, name)
                } else {
                    b.set_dim_name(pos - n, name)
                }
            }
        }
    }

    /// True when the two tuples have the same name and shape (dimension names ignored).
    pub fn same_shape(&self, other: &Tuple) -> bool {
        if self.name != other.name {
            return false;
        }
        match (&self.body, &other.body) {
            (TupleBody::Dims(a), TupleBody::Dims(b)) => a.len() == b.len(),
            (TupleBody::Nested(a1, b1), TupleBody::Nested(a2, b2)) => {
                a1.same_shape(a2) && b1.same_shape(b2)
            }
            _ => false,
        }
    }

    /// A flat tuple with the same dimension names, and no nesting.
    pub fn flattened(&self) -> Tuple {
        Tuple {
            name: None,
            body: TupleBody::Dims(self.dim_names()),
        }
    }

    /// Flat concatenation of two tuples (anonymous).
    pub fn concat(a: &Tuple, b: &Tuple) -> Tuple {
        let mut names = a.dim_names();
        names.extend(b.dim_names());
        Tuple {
            name: None,
            body: TupleBody::Dims(names),
        }
    }

    /// A hashable key of the name and shape.
    /// A key that identifies the name and shape: equal for tuples that
    /// [`Tuple::same_shape`] calls equal.
    pub(crate) fn shape_key(&self) -> String {
        let mut k = String::new();
        self.push_shape_key(&mut k);
        k
    }

    fn push_shape_key(&self, out: &mut String) {
        if let Some(n) = &self.name {
            out.push_str(n);
        }
        match &self.body {
            TupleBody::Dims(d) => {
                out.push('[');
                out.push_str(&d.len().to_string());
                out.push(']');
            }
            TupleBody::Nested(a, b) => {
                out.push('[');
                a.push_shape_key(out);
                out.push_str("->");
                b.push_shape_key(out);
                out.push(']');
            }
        }
    }
}

/// The space of a set (`domain` is `None`) or of a map: its parameters and
/// tuples (isl's `isl_space`). Constraints are rows over its columns: the
/// constant first, then the parameters, the input and output dimensions and
/// the locals (unlike MLIR's layout, which puts the constant last).
///
/// ```
/// use presburger::{DimKind, Set, Space, Tuple};
/// let sp = Space::set(vec!["N".into()], Tuple::new(Some("S"), &["i", "j"]));
/// assert_eq!((sp.n_param(), sp.n_out()), (1, 2));
/// let s: Set = "[N] -> { S[i, j] : 0 <= i, j < N }".parse()?;
/// assert!(s.space().is_same(&sp));
/// let m = Space::map(vec![], Tuple::new(Some("S"), &["i"]), Tuple::anonymous(2));
/// assert_eq!(m.dim(DimKind::In) + m.dim(DimKind::Out), 3);
/// # Ok::<(), presburger::Error>(())
/// ```
///
/// The names are shared between copies (copied only when a copy is
/// changed): every conjunction holds its space, and the algebra copies
/// conjunctions often (in coalescing the random unions of
/// `isl_coalesce_tables`, 230,000 name strings were copied for 2,000 unions
/// before the names were shared).
#[derive(Clone)]
pub struct Space {
    data: Arc<SpaceData>,
}

/// What a [`Space`] holds (printed by `Space`'s `Debug`, field by field).
#[derive(Clone)]
struct SpaceData {
    params: Vec<String>,
    domain: Option<Tuple>,
    range: Tuple,
}

impl fmt::Debug for Space {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Space")
            .field("params", &self.data.params)
            .field("domain", &self.data.domain)
            .field("range", &self.data.range)
            .finish()
    }
}

impl Space {
    fn from_data(params: Vec<String>, domain: Option<Tuple>, range: Tuple) -> Space {
        Space {
            data: Arc::new(SpaceData {
                params,
                domain,
                range,
            }),
        }
    }

    /// The space of a set with the given parameters and tuple.
    pub fn set(params: Vec<String>, tuple: Tuple) -> Space {
        Space::from_data(params, None, tuple)
    }

    /// The space of a map with the given parameters and tuples.
    pub fn map(params: Vec<String>, domain: Tuple, range: Tuple) -> Space {
        Space::from_data(params, Some(domain), range)
    }

    /// True for the space of a parameter set: a set with no dimensions, no
    /// tuple name and a flat tuple (isl's `[n] -> { : n > 0 }`).
    pub fn is_params(&self) -> bool {
        self.is_set()
            && self.data.range.name.is_none()
            && matches!(&self.data.range.body, TupleBody::Dims(d) if d.is_empty())
    }

    /// True for the space of a set.
    pub fn is_set(&self) -> bool {
        self.data.domain.is_none()
    }

    /// The parameter names.
    pub fn params(&self) -> &[String] {
        &self.data.params
    }

    /// The input tuple of a map (`None` for a set).
    pub fn domain_tuple(&self) -> Option<&Tuple> {
        self.data.domain.as_ref()
    }

    /// The tuple of a set, or the output tuple of a map.
    pub fn range_tuple(&self) -> &Tuple {
        &self.data.range
    }

    /// Mutable access to the tuple of a set or the output tuple of a map.
    pub fn range_tuple_mut(&mut self) -> &mut Tuple {
        &mut Arc::make_mut(&mut self.data).range
    }

    /// Mutable access to the input tuple of a map.
    pub fn domain_tuple_mut(&mut self) -> Option<&mut Tuple> {
        Arc::make_mut(&mut self.data).domain.as_mut()
    }

    /// Number of parameters.
    pub fn n_param(&self) -> usize {
        self.data.params.len()
    }

    /// Number of input dimensions (0 for a set).
    pub fn n_in(&self) -> usize {
        self.data.domain.as_ref().map_or(0, Tuple::len)
    }

    /// Number of output dimensions (the dimensions of a set).
    pub fn n_out(&self) -> usize {
        self.data.range.len()
    }

    /// Number of parameters and dimensions (the variables of the space, locals excluded).
    pub fn n_var(&self) -> usize {
        self.n_param() + self.n_in() + self.n_out()
    }

    /// Number of variables of a kind (`Local` is not part of a space: 0).
    pub fn dim(&self, kind: DimKind) -> usize {
        match kind {
            DimKind::Param => self.n_param(),
            DimKind::In => self.n_in(),
            DimKind::Out => self.n_out(),
            DimKind::Local => 0,
        }
    }

    /// Column of the first variable of a kind (column 0 is the constant).
    pub fn offset(&self, kind: DimKind) -> usize {
        match kind {
            DimKind::Param => 1,
            DimKind::In => 1 + self.n_param(),
            DimKind::Out => 1 + self.n_param() + self.n_in(),
            DimKind::Local => 1 + self.n_var(),
        }
    }

    /// Checks that `pos .. pos + n` is a valid range of variables of `kind`.
    pub fn check_range(&self, kind: DimKind, pos: usize, n: usize) -> Result<()> {
        let have = self.dim(kind);
        if kind == DimKind::In && self.is_set() && n > 0 {
            return Err(Error::Invalid("a set has no input dimensions".into()));
        }
        if pos.checked_add(n).is_none_or(|end| end > have) {
            return Err(Error::Invalid(format!(
                "{kind:?} range {pos}..{} is out of bounds (the space has {have})",
                pos.saturating_add(n)
            )));
        }
        Ok(())
    }

    /// The name of a parameter or dimension, if it has one.
    pub fn name(&self, kind: DimKind, pos: usize) -> Option<String> {
        match kind {
            DimKind::Param => self.data.params.get(pos).cloned(),
            DimKind::In => self
                .data
                .domain
                .as_ref()?
                .dim_names()
                .get(pos)
                .cloned()
                .flatten(),
            DimKind::Out => self.data.range.dim_names().get(pos).cloned().flatten(),
            DimKind::Local => None,
        }
    }

    /// True when the two spaces have the same parameters (in the same order), tuple
    /// names and shapes; dimension names are ignored.
    pub fn is_same(&self, other: &Space) -> bool {
        Arc::ptr_eq(&self.data, &other.data)
            || (self.data.params == other.data.params && self.same_tuples(other))
    }

    /// True when the tuples agree (parameters ignored).
    pub fn same_tuples(&self, other: &Space) -> bool {
        self.data.range.same_shape(&other.data.range)
            && match (&self.data.domain, &other.data.domain) {
                (None, None) => true,
                (Some(a), Some(b)) => a.same_shape(b),
                _ => false,
            }
    }

    /// A key that identifies the tuples (not the parameters): equal keys mean
    /// `same_tuples`. Used to match the members of unions.
    pub fn tuple_key(&self) -> String {
        let mut k = String::new();
        if let Some(d) = &self.data.domain {
            d.push_shape_key(&mut k);
            k.push_str("->");
        }
        self.data.range.push_shape_key(&mut k);
        k
    }

    /// The same space with other parameters.
    pub fn with_params(&self, params: Vec<String>) -> Space {
        Space::from_data(params, self.data.domain.clone(), self.data.range.clone())
    }

    /// The set space of a map's domain, or `None` for a set.
    pub fn domain_space(&self) -> Option<Space> {
        Some(Space::set(
            self.data.params.clone(),
            self.data.domain.clone()?,
        ))
    }

    /// The set space of a map's range, or the space itself for a set.
    pub fn range_space(&self) -> Space {
        Space::set(self.data.params.clone(), self.data.range.clone())
    }

    /// The map space with domain and range swapped (`None` for a set).
    pub fn reversed(&self) -> Option<Space> {
        Some(Space::map(
            self.data.params.clone(),
            self.data.range.clone(),
            self.data.domain.clone()?,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::{Space, Tuple};

    /// A copy shares the names until it is changed; changing it leaves the
    /// original as it was.
    #[test]
    fn copies_share_names_until_changed() {
        let a = Space::map(
            vec!["N".into()],
            Tuple::new(Some("S"), &["i"]),
            Tuple::new(None, &["x", "y"]),
        );
        let mut b = a.clone();
        assert!(std::sync::Arc::ptr_eq(&a.data, &b.data));
        assert!(a.is_same(&b));
        b.range_tuple_mut().set_dim_name(0, Some("z".into()));
        if let Some(d) = b.domain_tuple_mut() {
            d.set_dim_name(0, Some("j".into()));
        }
        assert!(!std::sync::Arc::ptr_eq(&a.data, &b.data));
        assert_eq!(a.range_tuple().dim_names()[0].as_deref(), Some("x"));
        assert_eq!(b.range_tuple().dim_names()[0].as_deref(), Some("z"));
        assert_eq!(
            a.domain_tuple().map(|t| t.dim_names()[0].clone()),
            Some(Some("i".into()))
        );
        assert_eq!(
            b.domain_tuple().map(|t| t.dim_names()[0].clone()),
            Some(Some("j".into()))
        );
        // dimension names do not count for sameness
        assert!(a.is_same(&b));
    }
}
