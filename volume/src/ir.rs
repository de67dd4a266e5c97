//! The program representation shared by the MLIR reader ([`crate::mlir`]), the
//! element maps ([`crate::element_map`]) and the program analysis
//! ([`crate::program`]).
//!
//! A [`Program`] is one `func.func` body in SSA form: live-in values (the
//! function's arguments), a list of operations in textual order, and live-out
//! values (the operands of `func.return`). Every value has a type and a unique
//! volume name (an isl tuple name derived from its SSA name). Named `linalg` ops
//! are lowered by the reader to the generic form ([`LinalgOp`]: indexing maps and
//! iterator types), as MLIR's `LinalgOp` interface presents them, so the element
//! map construction needs one rule for all of them (paper Sec. 4.2.1).

pub use presburger_mlir_syntax::{AffineExpr, AffineMap};

/// Index of a value in [`Program::values`].
pub type ValueId = usize;

/// A whole program: one function.
#[derive(Debug, Clone, PartialEq)]
pub struct Program {
    /// The function's name (without `@`).
    pub name: String,
    /// Every SSA value, indexed by [`ValueId`].
    pub values: Vec<Value>,
    /// The function's arguments (live-ins), in order.
    pub args: Vec<ValueId>,
    /// The operations in textual order (a valid SSA order: every operand is
    /// defined before its use).
    pub ops: Vec<Op>,
    /// The values returned by `func.return` (live-outs), in order.
    pub returns: Vec<ValueId>,
}

/// One SSA value.
#[derive(Debug, Clone, PartialEq)]
pub struct Value {
    /// The SSA name without `%`, as written (`act0`, `conv0.init`, `0`, `r#1`).
    pub ssa: String,
    /// The volume name used in isl notation: `ssa` made an identifier (letters,
    /// digits, `_`, not starting with a digit), unique within the program.
    pub volume: String,
    pub ty: Type,
    pub def: Def,
}

/// Where a value is defined.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Def {
    /// The function argument at this position.
    Arg(usize),
    /// Result `result` of operation `op` (index into [`Program::ops`]).
    Op { op: usize, result: usize },
}

/// The type of a value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Type {
    /// `tensor<4x?x8xf32>`: one entry per dimension, `None` for `?`.
    Tensor(TensorType),
    /// A scalar of an element type (`f32`, `i64`, ...): a rank-0 volume.
    Scalar(String),
    /// `index`.
    Index,
}

/// `tensor<...>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TensorType {
    /// Static sizes, `None` for a dynamic (`?`) size.
    pub dims: Vec<Option<i64>>,
    /// The element type as written (`f32`).
    pub elem: String,
}

impl Type {
    /// The rank of the volume a value of this type is: 0 for scalars and indices.
    pub fn rank(&self) -> usize {
        match self {
            Type::Tensor(t) => t.dims.len(),
            Type::Scalar(_) | Type::Index => 0,
        }
    }
}

/// One operation (assignment, paper Def. 4.13).
#[derive(Debug, Clone, PartialEq)]
pub struct Op {
    /// The operation's name as written (`linalg.matmul`, `tensor.pad`).
    pub name: String,
    /// Line of the operation in the source text (from 1), for messages.
    pub line: usize,
    pub kind: OpKind,
    /// SSA operands in the order the kind documents.
    pub operands: Vec<ValueId>,
    /// The values it defines.
    pub results: Vec<ValueId>,
}

/// What an operation does, as far as element dependencies go.
#[derive(Debug, Clone, PartialEq)]
pub enum OpKind {
    /// `arith.constant`: a scalar, or a tensor (splat or not); no operands.
    Constant,
    /// `tensor.empty(%d0, ...)`: operands are the dynamic sizes (index values);
    /// its elements depend on nothing.
    Empty,
    /// `tensor.pad %src low[..] high[..] { yield %v }`: operands `[src, v]` where
    /// `v` is the yielded value (a scalar defined outside the region).
    Pad { low: Vec<i64>, high: Vec<i64> },
    /// `tensor.extract_slice %src[offsets] [sizes] [strides]`: operands `[src]`.
    /// The result has rank `sizes.len()` minus the dropped unit dimensions listed
    /// in `dropped` (positions in the source's dimensions).
    ExtractSlice {
        offsets: Vec<i64>,
        sizes: Vec<i64>,
        strides: Vec<i64>,
        dropped: Vec<usize>,
    },
    /// `tensor.insert_slice %src into %dest[offsets] [sizes] [strides]`: operands
    /// `[src, dest]`; `dropped` as for [`OpKind::ExtractSlice`] (unit dimensions of
    /// the destination that the source lacks).
    InsertSlice {
        offsets: Vec<i64>,
        sizes: Vec<i64>,
        strides: Vec<i64>,
        dropped: Vec<usize>,
    },
    /// Any `linalg` op in generic form. Operands: the `ins` then the `outs`
    /// (`n_inputs` of the former), then any values captured by the body.
    Linalg(LinalgOp),
    /// An op the reader does not model: every result element depends on every
    /// element of every operand (a pessimistic all-to-all map).
    Opaque,
}

/// A `linalg` operation as the `LinalgOp` interface sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct LinalgOp {
    /// How many of the operands are `ins`; the next `n_outputs` are `outs`; the
    /// rest are values from outside used in the body (`captured`).
    pub n_inputs: usize,
    pub n_outputs: usize,
    /// One indexing map per `ins` and `outs` operand, in that order; all have the
    /// same number of dims (the loops).
    pub indexing_maps: Vec<AffineMap>,
    pub iterator_types: Vec<IteratorType>,
    /// For each `outs` operand: whether the body reads its current value (the
    /// block argument is used, as in `matmul`'s accumulation). A result depends on
    /// its `outs` operand's elements only if so.
    pub reads_output: Vec<bool>,
    /// The body as written (without the braces), kept opaque; `None` for named
    /// ops.
    pub body: Option<String>,
}

/// `parallel` or `reduction`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IteratorType {
    Parallel,
    Reduction,
}

impl Program {
    /// The value with this id.
    pub fn value(&self, id: ValueId) -> &Value {
        &self.values[id]
    }

    /// The value whose SSA name (without `%`) is `ssa`.
    pub fn find(&self, ssa: &str) -> Option<ValueId> {
        self.values.iter().position(|v| v.ssa == ssa)
    }

    /// The ops that use each value: `uses[v]` lists `(op index, operand position)`.
    pub fn uses(&self) -> Vec<Vec<(usize, usize)>> {
        let mut u = vec![Vec::new(); self.values.len()];
        for (i, op) in self.ops.iter().enumerate() {
            for (k, &v) in op.operands.iter().enumerate() {
                u[v].push((i, k));
            }
        }
        u
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn volume_names_are_identifiers() {
        use presburger_mlir_syntax::isl_name as volume_name;
        assert_eq!(volume_name("conv0.init"), "conv0_init");
        assert_eq!(volume_name("0"), "v0");
        assert_eq!(volume_name("r#1"), "r_1");
        assert_eq!(volume_name("max"), "max_");
        assert_eq!(volume_name("And"), "And_");
        assert_eq!(volume_name("maximum"), "maximum");
    }

    #[test]
    fn affine_expr_prints_as_isl() {
        let e = AffineExpr::Add(
            Box::new(AffineExpr::Mul(
                Box::new(AffineExpr::Dim(0)),
                Box::new(AffineExpr::Const(2)),
            )),
            Box::new(AffineExpr::FloorDiv(
                Box::new(AffineExpr::Dim(1)),
                Box::new(AffineExpr::Const(4)),
            )),
        );
        assert_eq!(e.to_string(), "((d0)*((2)) + floor((d1)/((4))))");
    }
}
