//! The walk over an MLIR function: reads the top level (a `module`, attribute
//! aliases, functions), the selected `func.func`'s arguments and its body's
//! operations one by one, and records for each store a [`RawStmt`]: its
//! enclosing iterators, the conditions met on the way (loop bounds, steps,
//! `affine.if` sets, negated for `else`), its 2d+1 schedule positions and its
//! accesses. Operations are read in MLIR's pretty form, one per line (the
//! rest of an op's line after what the model needs, its types and attributes,
//! is skipped); regions are read recursively, at most [`MAX_DEPTH`] deep.

mod control;
mod data;
mod signature;

use std::collections::HashMap;

use super::values::{Guard, RawAccess, Val, add, constant, scale, sub, substitute};
use crate::error::{Error, Result};
use presburger_mlir_syntax::affine::{
    parse_map_after_open, parse_operand_exprs, parse_set_after_open,
};
use presburger_mlir_syntax::{AffineExpr, AffineMap, Cursor, IntegerSet};

/// Deepest nesting of regions (loops and `affine.if`) accepted.
pub const MAX_DEPTH: usize = 64;

/// Largest index expression (in tree nodes) a value may stand for: chains of
/// `affine.apply` or `arith.addi %x, %x` would otherwise double it each time.
pub const MAX_INDEX_NODES: usize = 1024;

/// The number of nodes of `e`, counting no further than `limit + 1`.
fn nodes(e: &AffineExpr, limit: usize) -> usize {
    match e {
        AffineExpr::Dim(_) | AffineExpr::Symbol(_) | AffineExpr::Const(_) => 1,
        AffineExpr::Add(a, b)
        | AffineExpr::Mul(a, b)
        | AffineExpr::FloorDiv(a, b)
        | AffineExpr::CeilDiv(a, b)
        | AffineExpr::Mod(a, b) => {
            let x = 1 + nodes(a, limit);
            if x > limit {
                return x;
            }
            x + nodes(b, limit - x)
        }
    }
}

/// A statement before its sets are built.
#[derive(Clone, Debug)]
pub struct RawStmt {
    /// The enclosing loops' iterators (SSA names without `%`), outermost first.
    pub iters: Vec<String>,
    /// The conjunction of the enclosing conditions.
    pub guard: Guard,
    /// The schedule positions, one per level (one more than iterators).
    pub positions: Vec<i64>,
    /// The reads.
    pub reads: Vec<RawAccess>,
    /// The write.
    pub writes: Vec<RawAccess>,
    /// The text of the store and of the operations that feed it.
    pub text: String,
    /// Byte range from the first feeding operation to the end of the store.
    pub span: (usize, usize),
    /// The store's byte offset (for messages).
    pub at: usize,
}

/// A memref argument: its rank, element type and sizes as written.
#[derive(Clone, Debug)]
pub struct MemrefInfo {
    /// The number of dimensions.
    pub rank: usize,
    /// The element type's text (`f64`).
    pub elem: String,
    /// The sizes' text (`?` or a number), outermost first.
    pub sizes: Vec<String>,
}

/// The walk's state.
pub struct Reader<'a> {
    /// The cursor over the whole text.
    pub c: Cursor<'a>,
    maps: HashMap<String, AffineMap>,
    sets: HashMap<String, IntegerSet>,
    vals: HashMap<String, Val>,
    /// The parameters, in order of first use (`Symbol(p)` is `params[p]`).
    pub params: Vec<String>,
    /// The names of the values that may be parameters, in order of
    /// definition (`index` arguments, then `memref.dim` results).
    pub declared: Vec<String>,
    iters: Vec<String>,
    /// The names defined in each open region, innermost last.
    scopes: Vec<Vec<String>>,
    guards: Vec<Guard>,
    prefix: Vec<i64>,
    counters: Vec<i64>,
    /// The statements, in textual order.
    pub stmts: Vec<RawStmt>,
    /// The memref arguments by name.
    pub memrefs: HashMap<String, MemrefInfo>,
    /// Byte range of the function's body.
    pub span: (usize, usize),
}

/// The description of a memref type's text `memref<4x?xf64, ...>`.
fn memref_info(ty: &str) -> Option<MemrefInfo> {
    let inner = ty.strip_prefix("memref<")?.strip_suffix('>')?;
    let shape = inner.split(',').next()?.trim();
    let mut parts: Vec<&str> = shape.split('x').map(str::trim).collect();
    let elem = parts.pop()?.to_string();
    Some(MemrefInfo {
        rank: parts.len(),
        elem,
        sizes: parts.iter().map(|s| s.to_string()).collect(),
    })
}

impl<'a> Reader<'a> {
    /// A reader at the start of `src`.
    pub fn new(src: &'a str) -> Reader<'a> {
        Reader {
            c: Cursor::new(src),
            maps: HashMap::new(),
            sets: HashMap::new(),
            vals: HashMap::new(),
            params: Vec::new(),
            declared: Vec::new(),
            iters: Vec::new(),
            scopes: Vec::new(),
            guards: Vec::new(),
            prefix: Vec::new(),
            counters: vec![0],
            stmts: Vec::new(),
            memrefs: HashMap::new(),
            span: (0, 0),
        }
    }

    pub(super) fn err<T>(&self, at: usize, msg: impl Into<String>) -> Result<T> {
        Err(self.c.error(at, msg))
    }

    /// Defines `%name` in the current region (it goes out of scope at the
    /// region's end, as MLIR's names do). An index value larger than
    /// [`MAX_INDEX_NODES`] becomes [`Val::NonAffine`].
    pub(super) fn define(&mut self, name: &str, val: Val) {
        let val = match val {
            Val::Index(e) if nodes(&e, MAX_INDEX_NODES) > MAX_INDEX_NODES => Val::NonAffine(
                format!("its expression has more than {MAX_INDEX_NODES} terms"),
            ),
            v => v,
        };
        self.vals.insert(name.to_string(), val);
        if let Some(top) = self.scopes.last_mut() {
            top.push(name.to_string());
        }
    }

    /// The value `%name`.
    pub(super) fn value(&self, name: &str, at: usize) -> Result<Val> {
        match self.vals.get(name) {
            Some(v) => Ok(v.clone()),
            None => self.err(at, format!("%{name} is not defined")),
        }
    }

    /// An SSA operand: its name and offset.
    pub(super) fn operand(&mut self, what: &str) -> Result<(&'a str, usize)> {
        match self.c.ssa() {
            Some(x) => Ok(x),
            None => {
                let found = self.c.found();
                self.err(self.c.pos, format!("expected {what}, found {found}"))
            }
        }
    }

    /// The affine index expression of `%name` used in `op` (a parameter gets
    /// its number at its first use).
    pub(super) fn index(&mut self, name: &str, at: usize, op: &str) -> Result<AffineExpr> {
        match self.value(name, at)? {
            Val::Index(e) => Ok(e),
            Val::Param(p) => {
                let k = match self.params.iter().position(|q| *q == p) {
                    Some(k) => k,
                    None => {
                        self.params.push(p);
                        self.params.len() - 1
                    }
                };
                Ok(AffineExpr::Symbol(k))
            }
            Val::NonAffine(why) => self.err(
                at,
                format!("{op}: the index %{name} is not affine ({why})"),
            ),
            Val::Data { .. } | Val::Scalar(_) => self.err(
                at,
                format!("{op}: the index %{name} is data-dependent (computed from memory or a non-index argument)"),
            ),
            Val::Memref(_) => self.err(at, format!("{op}: %{name} is a memref, not an index")),
            Val::Cond(_) => self.err(at, format!("{op}: %{name} is a condition, not an index")),
            Val::Extremum { max, .. } => self.err(
                at,
                format!(
                    "{op}: the index %{name} is not affine (an `arith.{}si`, only a loop bound of scf.for)",
                    if max { "max" } else { "min" }
                ),
            ),
        }
    }

    /// Skips spaces and tabs (not line ends).
    pub(super) fn skip_blanks(&mut self) {
        while matches!(self.c.byte(), Some(b' ' | b'\t' | b'\r')) {
            self.c.pos += 1;
        }
    }

    /// Moves to the end of the current line (the rest of an op: its types,
    /// attributes, a trailing comment).
    pub(super) fn end_of_line(&mut self) {
        while let Some(b) = self.c.byte() {
            if b == b'\n' {
                break;
            }
            self.c.bump();
        }
    }

    /// Fails unless only whitespace, a `:` type suffix or a comment is left on
    /// the line (so that what the model ignores is only types).
    pub(super) fn rest_is_type(&mut self, op: &str) -> Result<()> {
        self.skip_blanks();
        match self.c.byte() {
            None | Some(b'\n' | b':') => {}
            Some(b'/') if self.c.byte_at(self.c.pos + 1) == Some(b'/') => {}
            Some(b'{') => {}
            _ => {
                let found = self.c.found();
                return self.err(self.c.pos, format!("unexpected {found} in `{op}`"));
            }
        }
        self.end_of_line();
        Ok(())
    }

    /// One operation.
    pub(super) fn op(&mut self) -> Result<()> {
        self.c.skip_ws();
        let start = self.c.pos;
        let mut results: Vec<(&'a str, usize)> = Vec::new();
        if self.c.byte() == Some(b'%') {
            loop {
                let r = self.operand("a result name")?;
                if self.c.peek(":") {
                    return self.err(
                        r.1,
                        "operations with result packs (`%r:2`) are not supported",
                    );
                }
                if self.vals.contains_key(r.0) {
                    return self.err(r.1, format!("%{} is defined twice", r.0));
                }
                results.push(r);
                if !self.c.eat(",") {
                    break;
                }
            }
            self.c.expect("=", "after the result names")?;
        }
        self.c.skip_ws();
        let name_at = self.c.pos;
        let name = match self.c.ident() {
            Some((n, _)) => n,
            None if self.c.byte() == Some(b'"') => {
                let n = self.c.string_lit()?;
                return self.err(
                    name_at,
                    format!("unsupported operation `{n}` (the generic form is not read)"),
                );
            }
            None => {
                let found = self.c.found();
                return self.err(name_at, format!("expected an operation, found {found}"));
            }
        };
        let one_result = |r: &Self| -> Result<&'a str> {
            match results.as_slice() {
                [(n, _)] => Ok(*n),
                _ => r.err(start, format!("`{name}` has one result")),
            }
        };
        let no_result = |r: &Self| -> Result<()> {
            match results.first() {
                None => Ok(()),
                Some((_, at)) => r.err(*at, format!("`{name}` has no result here")),
            }
        };
        if !results.is_empty() && matches!(name, "affine.for" | "scf.for" | "affine.if" | "scf.if")
        {
            return self.err(
                name_at,
                format!("`{name}` with results (loop-carried values, iter_args) is not supported"),
            );
        }
        match name {
            "affine.for" | "scf.for" => self.for_loop(name, name_at),
            "affine.if" => self.if_op(name_at),
            "scf.if" => self.scf_if(),
            "arith.cmpi" => {
                let r = one_result(self)?;
                self.cmpi(r)
            }
            "affine.load" | "memref.load" => {
                let r = one_result(self)?;
                self.load(name, start, r)
            }
            "affine.store" | "memref.store" => {
                no_result(self)?;
                self.store(name, start)
            }
            "affine.apply" => {
                let r = one_result(self)?;
                self.apply(r)
            }
            "memref.alloca" | "memref.alloc" => {
                let r = one_result(self)?;
                self.alloc(name, r)
            }
            "memref.dim" => {
                let r = one_result(self)?;
                let (m, m_at) = self.operand("a memref")?;
                if !matches!(self.value(m, m_at)?, Val::Memref(_)) {
                    return self.err(m_at, format!("memref.dim: %{m} is not a memref argument"));
                }
                self.end_of_line();
                self.declared.push(r.to_string());
                self.define(r, Val::Param(r.to_string()));
                Ok(())
            }
            "affine.yield" | "scf.yield" | "func.return" | "return" => {
                self.skip_blanks();
                if self.c.byte() == Some(b'%') && name.ends_with("yield") {
                    return self.err(
                        name_at,
                        format!(
                            "`{name}` with values (loop-carried or region results) is not supported"
                        ),
                    );
                }
                self.end_of_line();
                Ok(())
            }
            "arith.constant" => {
                let r = one_result(self)?;
                self.constant(r)
            }
            n if n.starts_with("arith.") || n.starts_with("math.") => {
                let r = one_result(self)?;
                self.arith(n, r, start)
            }
            _ => self.err(name_at, format!("unsupported operation `{name}` in a SCoP")),
        }
    }
}
