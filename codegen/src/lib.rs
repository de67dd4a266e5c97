//! Loop code generation from schedules.
//!
//! - [`ast`]: the loop AST ([`Ast`]: `for` loops with `max`/`min` bounds and
//!   strides, `if`, blocks and statement calls over quasi-affine [`Expr`]s),
//!   its evaluation ([`Ast::trace`]) and, in [`mod@print`], C printing in isl's
//!   style ([`Ast::to_c`]), with `int` loop counters only where the bounds
//!   prove every value fits, `long long` elsewhere ([`Ast::to_c_with`]).
//! - [`scan`]: [`generate`], the AST that scans a schedule (a union map from
//!   statement instances to times) in lexicographic order: separation,
//!   bounds, strides, fixed dimensions, guards simplified against the
//!   context (Quilleré–Rajopadhye–Wilde 2000; Bastoul 2004; Grosser,
//!   Verdoolaege, Cohen 2015).
//! - [`input`]: the text format of `poly codegen` (iscc's code-generation
//!   input: a schedule, then optionally a context and options).
//! - [`tile`]: rectangular tiling of a schedule's permutable bands (tile
//!   dimensions before point dimensions), intra-tile loop order and
//!   wavefronts of tiles.
//! - [`opt`]: [`optimize`], a SCoP's schedule (crate `schedule`) tiled,
//!   checked, scanned, and its loops marked ([`Mark`]: `#pragma omp
//!   parallel for`, `#pragma omp simd`, `#pragma GCC ivdep`).
//! - [`emit`]: [`emit_c`], the C source with its SCoP region replaced by
//!   the loops (statements as macros), as `poly opt` prints it.
//!
//! ```
//! use presburger_codegen::{generate, Options};
//! let sched: presburger::UnionMap =
//!     "[N] -> { S[i, j] -> [i, j] : 0 <= j <= i < N }".parse()?;
//! let ctx: presburger::Set = "[N] -> { : N >= 1 }".parse()?;
//! let ast = generate(&sched, None, Some(&ctx), &Options::default())?;
//! assert_eq!(
//!     ast.to_c(),
//!     "for (long long c0 = 0; c0 <= N - 1; c0 += 1)\n  for (long long c1 = 0; c1 <= c0; c1 += 1)\n    S(c0, c1);\n"
//! );
//! // `int` counters where the parameters' bounds prove them enough
//! let mut params = presburger_codegen::ParamTypes::default();
//! params.add_context(&"[N] -> { : 1 <= N <= 1000 }".parse()?);
//! assert!(ast.to_c_with(&params).starts_with("for (int c0 = 0; c0 <= N - 1; c0 += 1)"));
//! # Ok::<(), presburger_codegen::Error>(())
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod ast;
pub mod emit;
pub mod error;
pub mod input;
mod invert;
pub mod opt;
mod poly;
pub mod print;
pub mod scan;
pub mod tile;
mod work;

pub use ast::{Ast, Atom, Bound, Cond, Expr, Mark, Visit};
pub use emit::{EmitOptions, emit_c};
pub use error::{Error, Result};
pub use opt::{OptOptions, Optimized, optimize};
pub use print::{CType, Macro, ParamCType, ParamType, ParamTypes};
pub use scan::{Options, generate};
pub use tile::{Layout, TileOptions};
pub use work::DEFAULT_MAX_STEPS;
