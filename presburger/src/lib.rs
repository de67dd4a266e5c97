//! Exact Presburger arithmetic in pure Rust.
//!
//! Integer sets and relations defined by affine constraints, with symbolic
//! parameters and existentially quantified (local) variables, in the notation of
//! isl:
//!
//! ```
//! use presburger::Set;
//! let s: Set = "[N] -> { S[i, j] : 0 <= i < N and 0 <= j <= i and exists e : j = 2e }"
//!     .parse()
//!     .unwrap();
//! assert_eq!(s.space().n_param(), 1);
//! // printing gives isl notation that parses back to the same set
//! let again: Set = s.to_string().parse().unwrap();
//! assert!(again.plain_is_equal(&s));
//! ```
//!
//! Layers (bottom up): [`int`] exact integers with an `i64` fast path;
//! [`space`] parameters and tuples; [`conjunction`] one conjunction of constraints
//! with locals and its structural simplification; [`set`] the user types
//! `BasicSet`/`BasicMap`/`Set`/`Map`/`UnionSet`/`UnionMap`; [`parse`] and the
//! printer (`Display`) for isl notation. Everything is exact; bad input gives an
//! [`Error`] (with line and column for text), never a panic.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod build;
pub mod conjunction;
pub(crate) mod elimination;
pub mod error;
pub mod int;
pub mod notation;
pub mod ops;
pub mod set;
pub mod solver;
pub mod space;
pub mod stats;
#[cfg(any(test, feature = "testing"))]
pub mod testing;

// The modules' former paths, kept for users and for the code inside the crate.
pub use bounds::Points;
pub use notation::{lexer, parse};
pub use ops::{algebra, bounds, gist, maps, project};
pub use solver::{omega, sdbm_path, simplex, solve};

pub use conjunction::{BuildRowHasher, Conjunction, Div, RowHasher};
pub use error::{Error, Result};
pub use int::Int;
pub use parse::{parse_object, Object};
pub use sdbm_path::EmptinessPath;
pub use set::{BasicMap, BasicSet, Map, Set, UnionMap, UnionSet};
pub use solver::budget::Budget;
pub use space::{DimKind, Space, Tuple, TupleBody};
