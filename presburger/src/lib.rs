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
//! # The API
//!
//! - Objects: [`BasicSet`] and [`BasicMap`] (one conjunction), [`Set`] and [`Map`]
//!   (finite unions of conjunctions in one space), [`UnionSet`] and [`UnionMap`]
//!   (unions across spaces, keyed by tuple names), all parsed from and printed in
//!   isl notation (`FromStr`, `Display`, [`parse_object`] when the kind is not known,
//!   [`is_function_text`] to tell a function's text from a set's or a map's).
//! - Quasi-affine functions: [`Aff`] (one expression with floor divisions and
//!   a denominator, isl's `isl_aff`), [`MultiAff`] (a tuple of them),
//!   [`PwAff`] and [`PwMultiAff`] (disjoint pieces, each a domain [`Set`] and a
//!   function), [`UnionPwAff`] and [`UnionPwMultiAff`] (across domain
//!   tuples), in isl notation (`{ [i] -> [(floor((i)/2))] : i >= 0 }`), with
//!   evaluation, arithmetic, `min`/`max`, `pullback`, `union_add`, `gist`,
//!   `coalesce` and conversion to and from the graph [`Map`]. Their `add`
//!   and `sub` are isl's sums (new objects), not the in-place `add` of the
//!   union types.
//! - Spaces: [`Space`], [`Tuple`], [`TupleBody`], and [`DimKind`], which names a
//!   kind of variable (parameter, input, output or set dimension, local).
//! - Constraints: the typed builder [`build`] (`x + 2 * y - n` over the named
//!   variables of a space, `e.ge(0)`, `Set::from_constraints`) and, at the
//!   level of rows, [`Conjunction`] with its [`Div`] locals.
//! - Numbers and limits: [`Int`] (exact integers), [`Budget`] (a step budget
//!   for the operations that can be exponential), [`Error`] and [`Result`].
//! - An exact rational LP solver: [`lp`].
//! - The tokens of isl's notation, for tools that embed it in a larger
//!   language (as `poly calc` does): [`tokens`].
//!
//! Everything is exact; bad input gives an [`Error`] (with line and column for
//! text), never a panic.
//!
//! # Column layout
//!
//! A row of a [`Conjunction`] (and of the `add_eq`/`add_ineq` methods of the
//! basic types) has one coefficient per column, in the order *constant,
//! parameters, input dimensions, output (or set) dimensions, locals*: the
//! constant comes first, unlike MLIR's layout where it comes last. An equality
//! row `r` states `r·(1, params, dims, locals) = 0`, an inequality `>= 0`.
//!
//! # Receivers
//!
//! One convention for every object type (`BasicSet`, `BasicMap`, `Set`,
//! `Map`, `UnionSet`, `UnionMap`): an operation that computes a new object
//! takes `&self` (and `&Other` for its operands) and returns the new object,
//! leaving its operands unchanged, so `a.fix(..)` and `a.intersect(&b)` read
//! the same on `BasicSet`, `Set` and `UnionSet`. Only the methods named
//! `add` or `add_*` change an object in place (`&mut self`). The two low-level
//! builders, [`Conjunction`] (rows) and [`lp::LinearProgram`], are changed in
//! place by their methods.
//!
//! The design of the workspace (crates, data flow, the invariants of
//! `Conjunction`, where each algorithm lives and its source) is in
//! `docs/ARCHITECTURE.md` at the root of the repository.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod api;
pub mod build;
mod conjunction;
pub(crate) mod elimination;
mod error;
mod int;
pub mod internals;
pub mod lp;
mod notation;
mod ops;
#[cfg(test)]
mod sampler_oracle;
mod solver;
mod space;
mod stats;
#[cfg(any(test, feature = "testing"))]
mod testing;

/// The tokens of isl's notation, for tools that read isl objects embedded in
/// a larger language (the `poly calc` language is one): [`tokenize`](crate::tokens::tokenize) splits a
/// text into [`Spanned`](crate::tokens::Spanned) tokens, each with its line, column and byte offset, so
/// that the text of an object can be cut out and given to [`crate::parse_object`].
///
/// ```
/// use presburger::tokens::{tokenize, Tok};
/// let toks = tokenize("S := { [i] : i >= 0 };")?;
/// assert_eq!(toks[0].tok, Tok::Ident("S".into()));
/// assert_eq!(toks[1].tok, Tok::Assign);
/// assert_eq!(toks[2].offset, 5); // the '{'
/// # Ok::<(), presburger::Error>(())
/// ```
///
/// As in isl, keywords are recognised in any letter case; [`is_keyword`](crate::tokens::is_keyword)
/// tells whether a word is one (then it cannot name a variable or a tuple).
pub mod tokens {
    pub use crate::notation::lexer::{Spanned, Tok, tokenize};
    pub use crate::notation::parse::is_keyword;
}

// The modules' former paths, for the code inside the crate.
pub(crate) use notation::{lexer, parse};
pub(crate) use ops::{algebra, bounds, project};
pub(crate) use solver::{omega, sdbm_path, simplex, solve};

pub use algebra::ALGEBRA_DEFAULT_STEPS;
pub use api::{
    Aff, BasicMap, BasicSet, MAX_RATIONAL_FM_ROWS, Map, MultiAff, PwAff, PwMultiAff, RationalSet,
    Set, UnionMap, UnionPwAff, UnionPwMultiAff, UnionSet,
};
pub use bounds::Points;
pub use conjunction::{BuildRowHasher, Conjunction, Div, RowHasher};
pub use error::{Error, Result};
pub use int::{Int, ParseIntError, gcd_all};
pub use notation::kind::is_function_text;
pub use parse::{Object, parse_object};
pub use solver::budget::Budget;
pub use space::{DimKind, Space, Tuple, TupleBody};
