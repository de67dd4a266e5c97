//! The MLIR front end: builds the [`Scop`] of a `func.func` written with the
//! `affine` dialect (or `scf.for` and `memref` ops with affine indices), as
//! the C front end does for a `#pragma scop` region.
//!
//! The function is the first one with a body, or the one named by
//! [`Options::function`]. Read in MLIR's pretty form (lexing and affine maps
//! and sets from the `mlir-syntax` crate):
//! - `affine.for %i = lb to ub step k` with constant, SSA or affine-map bounds
//!   (`max` of several results below, `min` above), and `scf.for %i = %lb to
//!   %ub step %k` with affine bounds (or an `arith.maxsi` of them below, an
//!   `arith.minsi` above) and a constant step;
//! - `affine.if` with an integer set (inline `affine_set<...>` or `#alias`)
//!   and an optional `else`;
//! - `scf.if` (with an optional `else`) on `arith.cmpi` (`eq`, `ne`, `slt`,
//!   `sle`, `sgt`, `sge`) of affine indices, joined by `arith.andi`/`ori`;
//! - `affine.load`/`affine.store` with affine subscripts over SSA values,
//!   `memref.load`/`memref.store` whose indices are affine index values;
//! - `memref.alloca`/`memref.alloc`: local arrays, named like arguments;
//! - index values: loop iterators, `index` arguments and `memref.dim` results
//!   (the parameters, named by their SSA names without `%`), `arith.constant`,
//!   `affine.apply`, `arith.addi`/`subi`/`muli` (by a constant),
//!   `floordivsi`/`ceildivsi` (by a positive constant), `index_cast`;
//! - any other `arith` or `math` op computes data from its operands.
//!
//! Each store is one statement (`S0`, `S1`, ... in textual order); its reads
//! are the loads that feed the stored value (through `arith`/`math` ops) and
//! the non-index scalar arguments it uses (as 0-d arrays, like C scalars); its
//! text is the text of those operations. Arrays are the memref arguments and
//! allocations, named by their SSA names without `%`. Schedules are 2d+1 from the nesting
//! and textual order, as for C. The parameters are listed in the order of
//! the arguments (then of the `memref.dim`s). The context has no constraints (MLIR types
//! say nothing about the parameters). Other operations (`scf.while`,
//! `arith.select`, calls, ...), loop-carried values, non-affine or data-dependent
//! indices are errors with the line and column and the op named; the reader
//! never panics.

mod build;
mod reader;
mod values;

use crate::c::Options;
use crate::error::Result;
use crate::scop::Scop;

/// The SCoP of the MLIR text `src` (see the module doc).
pub fn extract_scop_mlir(src: &str, options: &Options) -> Result<Scop> {
    let mut r = reader::Reader::new(src);
    r.top(options.function.as_deref())?;
    build::build(src, &r.params, &r.declared, &r.stmts, &r.memrefs, r.span)
}

/// Whether `text` looks like MLIR: after blank lines and `//` comments it
/// starts with `func.func`, `module`, or an attribute alias `#name =`.
pub fn looks_like_mlir(text: &str) -> bool {
    let mut c = presburger_mlir_syntax::Cursor::new(text);
    c.skip_ws();
    if c.peek_kw("func.func") || c.peek_kw("module") {
        return true;
    }
    if c.eat("#") && c.ident().is_some() {
        return c.peek("=");
    }
    false
}
