//! The MLIR front end: builds the [`Scop`] of a `func.func` written with the
//! `affine` dialect (or `scf.for` and `memref` ops with affine indices), as
//! the C front end does for a `#pragma scop` region.
//!
//! The function is the first one with a body, or the one named by
//! [`Options::function`]. Read in MLIR's pretty form (lexing and affine maps
//! and sets from the `mlir-syntax` crate):
//! - `affine.for %i = lb to ub step k` with constant, SSA or affine-map bounds
//!   (`max` of several results below, `min` above), `affine.parallel (%i, %j)
//!   = (lbs) to (ubs) step (s, t)` (one loop per iterator; bounds over SSA
//!   values, `max(...)`/`min(...)` of several), and `scf.for %i = %lb to %ub
//!   step %k` with affine bounds (or an `arith.maxsi` of them below, an
//!   `arith.minsi` above, or an `affine.max`/`affine.min` op) and a
//!   constant step;
//! - `affine.if` with an integer set (inline `affine_set<...>` or `#alias`;
//!   `affine_set<() : ()>` is the universe) and an optional `else`;
//! - `scf.if` (with an optional `else`) on `arith.cmpi` (`eq`, `ne`, `slt`,
//!   `sle`, `sgt`, `sge`) of affine indices, joined by `arith.andi`/`ori`;
//! - `affine.load`/`affine.store` with affine subscripts over SSA values,
//!   `memref.load`/`memref.store` whose indices are affine index values;
//!   `affine.vector_load`/`vector_store` are read (for [`mlir_remarks`],
//!   which does not count them) but a statement with one is an error: it
//!   touches several elements per instance;
//! - loop-carried values (`iter_args` of `affine.for`/`scf.for`), the
//!   results of `affine.if`/`scf.if` and the reductions of `affine.parallel`
//!   are scalars, as C accumulators are:
//!   written by a statement before the loop (the initial value) and by each
//!   `yield` (one statement per yield, writing all its values; a reduction's
//!   also reads them), read where they are used;
//! - `memref.alloca`/`memref.alloc`/`gpu.alloc`: local arrays, named like
//!   arguments; `memref.cast` is the same array;
//!   memref types are read by MLIR's grammar (`memref<?x?xindex>`,
//!   `memref<2 x 2 x i32>`, layouts and memory spaces after the element
//!   type);
//! - index values: loop iterators, `index` arguments and `memref.dim` results
//!   (the parameters, named by their SSA names without `%`), `arith.constant`,
//!   `affine.apply` (with `floordiv`, `ceildiv`, `mod`, symbols, chains of
//!   applies; usable wherever an affine operand is: subscripts, loop bounds,
//!   `affine.if` operands; also in the generic form `"affine.apply"(%i)
//!   {map = ...} : (index) -> index`); a semi-affine map (a symbol as a
//!   divisor or a factor) is read when its symbols are constants there,
//!   and is an error otherwise; `arith.addi`/`subi`/`muli` (by a constant),
//!   `floordivsi`/`ceildivsi` (by a positive constant), `index_cast`, and
//!   the same ops of the `index` dialect (`index.add`, `index.mul`, ...);
//! - `arith.select` on an affine condition computes data from its two values
//!   (on index values it is piecewise, not affine);
//! - any other `arith` or `math` op computes data from its operands, and so
//!   does an op of another dialect in MLIR's generic form (`"op0"(%v) : (f32)
//!   -> ()`) or a `func.call`, without regions or memref operands; an
//!   `index` computed so at the function's top level is a parameter (MLIR's
//!   valid symbol); `memref.dealloc` and `affine.prefetch` touch no
//!   element; `index.constant` is an index constant;
//! - `affine.delinearize_index` and `affine.linearize_index` with a basis
//!   of constants, as their `floordiv`/`mod` and weighted-sum forms;
//! - a value that is not affine (a min or max of several values, a
//!   semi-affine map whose symbols are not constants, a basis with a
//!   symbol) is an error only where it is used as an index.
//!
//! Each store is one statement (`S0`, `S1`, ... in textual order); its reads
//! are the loads that feed the stored value (through `arith`/`math` ops) and
//! the non-index scalar arguments it uses (as 0-d arrays, like C scalars); its
//! text is the text of those operations. A load that feeds no store (its
//! value unused, or used by no store) is a statement of its own, with that
//! one read, so that every access is in the model; with
//! [`MlirOptions::per_op`] every load and store is a statement of its own,
//! as MLIR's dependence test counts accesses. Arrays are the memref
//! arguments and allocations, named by their SSA names without `%`.
//! Schedules are 2d+1 from the nesting and textual order, as for C. The
//! parameters are listed in the order of the arguments (then of the
//! `memref.dim`s). The context has no constraints (MLIR types say nothing
//! about the parameters). Other operations (`scf.while`, calls on memrefs, ...),
//! loop-carried memrefs, non-affine or data-dependent indices are errors
//! with the line and column and the op named; the reader never panics.
//!
//! [`mlir_remarks`] prints MLIR's own dependence report
//! (`-test-memref-dependence-check`) for a module (see `remarks.rs`).

mod build;
mod reader;
mod remarks;
mod values;

pub use remarks::{mlir_remarks, mlir_remarks_with};

use crate::c::Options;
use crate::error::Result;
use crate::scop::Scop;

/// The SCoP of the MLIR text `src` (see the module doc).
pub fn extract_scop_mlir(src: &str, options: &Options) -> Result<Scop> {
    extract_scop_mlir_with(src, options, &MlirOptions::default())
}

/// Options of the MLIR front end beyond the C front end's [`Options`].
#[derive(Clone, Debug, Default)]
pub struct MlirOptions {
    /// One statement per load and per store op (with its one access), in
    /// textual order, as MLIR's dependence test counts accesses, instead of
    /// one per store with the loads that feed it.
    pub per_op: bool,
}

/// The SCoP of the MLIR text `src` with the front end's own options.
pub fn extract_scop_mlir_with(src: &str, options: &Options, mlir: &MlirOptions) -> Result<Scop> {
    let mut r = reader::Reader::new(src);
    r.per_op = mlir.per_op;
    r.top(options.function.as_deref())?;
    r.finish();
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
