//! The lexical layer of MLIR's textual IR shared by the MLIR readers of the
//! workspace (`volume` for tensor programs, `schedule` for affine loop nests):
//! a [`Cursor`] over the text (whitespace and `//` comments, identifiers, SSA
//! names, integers, string literals, balanced brackets, types as text,
//! line/column positions), the affine expression, map and integer set types
//! ([`AffineExpr`], [`AffineMap`], [`IntegerSet`]) and their reader in MLIR's
//! syntax and precedence ([`affine`]), and an [`Error`] carrying the line and
//! column; and the conversion of affine expressions into `presburger`'s
//! quasi-affine expressions ([`convert`]), the one dependency. Readers
//! convert its error into their own.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod affine;
pub mod convert;
pub mod cursor;
pub mod error;
pub mod optree;

pub use affine::{AffineExpr, AffineMap, IntegerSet, OperandExprs, parse_operand_bounds};
pub use cursor::{Cursor, isl_name};
pub use error::{Error, Result};
