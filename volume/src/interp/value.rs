//! The interpreter's values: scalars of MLIR's builtin element types (`f32`,
//! `f64`, signless integers `i1`..`i64`, `index`), dense row-major tensors of
//! them, and the types as written in the text (`tensor<?x4xf32>`).

use std::fmt;

/// An element type (MLIR's builtin `FloatType`, signless `IntegerType` and
/// `IndexType`; the interpreter gives `index` 64 bits).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ElemType {
    F32,
    F64,
    /// A signless integer of the given width in bits (1 to 64).
    Int(u32),
    Index,
}

impl ElemType {
    /// The type named `name` (`f32`, `i32`, `index`), if modelled.
    pub fn parse(name: &str) -> Option<ElemType> {
        match name {
            "f32" => Some(ElemType::F32),
            "f64" => Some(ElemType::F64),
            "index" => Some(ElemType::Index),
            _ => {
                let w: u32 = name.strip_prefix('i')?.parse().ok()?;
                (1..=64).contains(&w).then_some(ElemType::Int(w))
            }
        }
    }

    /// Whether it is `f32` or `f64`.
    pub fn is_float(self) -> bool {
        matches!(self, ElemType::F32 | ElemType::F64)
    }

    /// The integer width in bits (64 for `index`), `None` for floats.
    pub fn int_width(self) -> Option<u32> {
        match self {
            ElemType::Int(w) => Some(w),
            ElemType::Index => Some(64),
            _ => None,
        }
    }

    /// The zero of the type.
    pub fn zero(self) -> Scalar {
        match self {
            ElemType::F32 => Scalar::F32(0.0),
            ElemType::F64 => Scalar::F64(0.0),
            t => Scalar::Int(0, t),
        }
    }
}

impl fmt::Display for ElemType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ElemType::F32 => f.write_str("f32"),
            ElemType::F64 => f.write_str("f64"),
            ElemType::Int(w) => write!(f, "i{w}"),
            ElemType::Index => f.write_str("index"),
        }
    }
}

/// A scalar. Integers are kept sign-extended from their width (an `i1` true is
/// `-1`), so equal bit patterns compare equal.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scalar {
    F32(f32),
    F64(f64),
    Int(i64, ElemType),
}

/// `v` truncated to `width` bits and sign-extended back.
pub fn wrap(v: i64, width: u32) -> i64 {
    if width >= 64 {
        v
    } else {
        let shift = 64 - width;
        (v << shift) >> shift
    }
}

impl Scalar {
    /// An integer of type `t` (`Int` or `Index`), wrapped to its width.
    pub fn int(v: i64, t: ElemType) -> Scalar {
        Scalar::Int(wrap(v, t.int_width().unwrap_or(64)), t)
    }

    /// An `index` value.
    pub fn index(v: i64) -> Scalar {
        Scalar::Int(v, ElemType::Index)
    }

    /// An `i1`.
    pub fn bool(b: bool) -> Scalar {
        Scalar::Int(-i64::from(b), ElemType::Int(1))
    }

    /// The scalar's type.
    pub fn ty(self) -> ElemType {
        match self {
            Scalar::F32(_) => ElemType::F32,
            Scalar::F64(_) => ElemType::F64,
            Scalar::Int(_, t) => t,
        }
    }

    /// The integer value, if an integer or index.
    pub fn as_int(self) -> Option<i64> {
        match self {
            Scalar::Int(v, _) => Some(v),
            _ => None,
        }
    }

    /// The IEEE bits of a float, or the integer's bits zero-extended from its
    /// width: what the result hash reads.
    pub fn bits(self) -> u64 {
        match self {
            Scalar::F32(x) => u64::from(x.to_bits()),
            Scalar::F64(x) => x.to_bits(),
            Scalar::Int(v, t) => {
                let w = t.int_width().unwrap_or(64);
                if w >= 64 {
                    v as u64
                } else {
                    (v as u64) & ((1u64 << w) - 1)
                }
            }
        }
    }
}

impl fmt::Display for Scalar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Scalar::F32(x) => write!(f, "{x:?}"),
            Scalar::F64(x) => write!(f, "{x:?}"),
            Scalar::Int(v, _) => write!(f, "{v}"),
        }
    }
}

/// The most elements one tensor may have in the interpreter (a guard against
/// sizes that would exhaust memory).
pub const MAX_ELEMENTS: usize = 1 << 28;

/// The number of elements of `shape`, if at most [`MAX_ELEMENTS`].
pub fn element_count(shape: &[usize]) -> Option<usize> {
    shape
        .iter()
        .try_fold(1usize, |n, &s| n.checked_mul(s))
        .filter(|&n| n <= MAX_ELEMENTS)
}

/// A dense tensor in row-major order.
#[derive(Debug, Clone, PartialEq)]
pub struct Tensor {
    /// The element type.
    pub elem: ElemType,
    /// The sizes.
    pub shape: Vec<usize>,
    /// The elements, row-major (`shape.iter().product()` of them), all of type `elem`.
    pub data: Vec<Scalar>,
}

impl Tensor {
    /// A tensor of the given shape filled with `value`; `None` if it would
    /// have more than [`MAX_ELEMENTS`] elements.
    pub fn filled(elem: ElemType, shape: Vec<usize>, value: Scalar) -> Option<Tensor> {
        let n = element_count(&shape)?;
        Some(Tensor {
            elem,
            shape,
            data: vec![value; n],
        })
    }

    /// A tensor from its elements; `None` if their number does not fit the shape.
    pub fn new(elem: ElemType, shape: Vec<usize>, data: Vec<Scalar>) -> Option<Tensor> {
        (element_count(&shape)? == data.len()).then_some(Tensor { elem, shape, data })
    }

    /// The row-major strides.
    pub fn strides(&self) -> Vec<usize> {
        strides(&self.shape)
    }

    /// The flat position of `index`, if inside the shape.
    pub fn offset(&self, index: &[i64]) -> Option<usize> {
        if index.len() != self.shape.len() {
            return None;
        }
        let mut off = 0usize;
        for (&i, &s) in index.iter().zip(&self.shape) {
            let i = usize::try_from(i).ok().filter(|&i| i < s)?;
            off = off * s + i;
        }
        Some(off)
    }
}

/// Row-major strides of `shape`.
pub fn strides(shape: &[usize]) -> Vec<usize> {
    let mut st = vec![1usize; shape.len()];
    for d in (0..shape.len().saturating_sub(1)).rev() {
        st[d] = st[d + 1].saturating_mul(shape[d + 1]);
    }
    st
}

/// A value: a scalar (including `index`) or a tensor.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Scalar(Scalar),
    Tensor(Tensor),
}

impl Value {
    /// The tensor, if one.
    pub fn tensor(&self) -> Option<&Tensor> {
        match self {
            Value::Tensor(t) => Some(t),
            Value::Scalar(_) => None,
        }
    }

    /// The scalar, if one.
    pub fn scalar(&self) -> Option<Scalar> {
        match self {
            Value::Scalar(s) => Some(*s),
            Value::Tensor(_) => None,
        }
    }
}

impl From<Tensor> for Value {
    fn from(t: Tensor) -> Value {
        Value::Tensor(t)
    }
}

impl From<Scalar> for Value {
    fn from(s: Scalar) -> Value {
        Value::Scalar(s)
    }
}

/// A type as written: a scalar type or `tensor<dims x elem>` (`None` for `?`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ty {
    Scalar(ElemType),
    Tensor(Vec<Option<usize>>, ElemType),
}

impl Ty {
    /// The element type.
    pub fn elem(&self) -> ElemType {
        match self {
            Ty::Scalar(e) | Ty::Tensor(_, e) => *e,
        }
    }

    /// Whether `v` has this type (a `?` accepts any size).
    pub fn admits(&self, v: &Value) -> bool {
        match (self, v) {
            (Ty::Scalar(e), Value::Scalar(s)) => s.ty() == *e,
            (Ty::Tensor(dims, e), Value::Tensor(t)) => {
                t.elem == *e
                    && dims.len() == t.shape.len()
                    && dims
                        .iter()
                        .zip(&t.shape)
                        .all(|(d, s)| d.is_none_or(|d| d == *s))
            }
            _ => false,
        }
    }

    /// The type in the form `ir` uses, for the reader's shared functions.
    pub fn to_ir(&self) -> crate::ir::Type {
        match self {
            Ty::Scalar(ElemType::Index) => crate::ir::Type::Index,
            Ty::Scalar(e) => crate::ir::Type::Scalar(e.to_string()),
            Ty::Tensor(dims, e) => crate::ir::Type::Tensor(crate::ir::TensorType {
                dims: dims.iter().map(|d| d.map(|d| d as i64)).collect(),
                elem: e.to_string(),
            }),
        }
    }

    /// Reads the inside of `tensor<...>` (`4x?xf32`); an error message if malformed.
    pub fn parse_tensor(inner: &str) -> Result<Ty, String> {
        let mut dims = Vec::new();
        let mut rest = inner.trim();
        loop {
            let n = rest.bytes().take_while(|b| b.is_ascii_digit()).count();
            let dim = if rest.starts_with('?') {
                rest = &rest[1..];
                None
            } else if n > 0 {
                let d = rest[..n]
                    .parse::<usize>()
                    .map_err(|_| format!("size {} is too large", &rest[..n]))?;
                rest = &rest[n..];
                Some(d)
            } else {
                break;
            };
            rest = rest
                .strip_prefix('x')
                .ok_or_else(|| format!("expected `x` after a size in tensor<{inner}>"))?;
            dims.push(dim);
        }
        let elem = ElemType::parse(rest.trim())
            .ok_or_else(|| format!("tensor<{inner}>: element type not modelled"))?;
        Ok(Ty::Tensor(dims, elem))
    }
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Scalar(e) => write!(f, "{e}"),
            Ty::Tensor(dims, e) => {
                f.write_str("tensor<")?;
                for d in dims {
                    match d {
                        Some(n) => write!(f, "{n}x")?,
                        None => f.write_str("?x")?,
                    }
                }
                write!(f, "{e}>")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tensor_types_and_shapes() {
        assert_eq!(
            Ty::parse_tensor("4x?xf32"),
            Ok(Ty::Tensor(vec![Some(4), None], ElemType::F32))
        );
        assert_eq!(
            Ty::parse_tensor("index"),
            Ok(Ty::Tensor(vec![], ElemType::Index))
        );
        assert_eq!(
            Ty::parse_tensor("2xi1"),
            Ok(Ty::Tensor(vec![Some(2)], ElemType::Int(1)))
        );
        assert!(Ty::parse_tensor("4xbf16").is_err());
        assert!(Ty::parse_tensor("4x").is_err());
        assert!(Ty::parse_tensor("99999999999999999999999x4xf32").is_err());
        assert_eq!(
            Ty::Tensor(vec![Some(4), None], ElemType::F64).to_string(),
            "tensor<4x?xf64>"
        );
        assert_eq!(element_count(&[1 << 20, 1 << 20]), None);
        assert_eq!(strides(&[2, 3, 4]), [12, 4, 1]);
        let t = Tensor::filled(
            ElemType::Int(8),
            vec![2, 3],
            Scalar::int(300, ElemType::Int(8)),
        )
        .unwrap();
        assert_eq!(t.data[0], Scalar::int(44, ElemType::Int(8)));
        assert_eq!(t.offset(&[1, 2]), Some(5));
        assert_eq!(t.offset(&[2, 0]), None);
        assert_eq!(t.offset(&[-1, 0]), None);
        assert_eq!(Scalar::int(-1, ElemType::Int(8)).bits(), 255);
        assert_eq!(Scalar::bool(true).bits(), 1);
    }
}
