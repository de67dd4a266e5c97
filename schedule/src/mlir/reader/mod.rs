//! The walk over an MLIR function: reads the top level (a `module`, attribute
//! aliases, functions), the selected `func.func`'s arguments and its body's
//! operations one by one, and records each memory access op as a [`RawOp`]
//! (its enclosing loops, the conditions met on the way: loop bounds, steps,
//! `affine.if` sets, negated for `else`; its place in the blocks; its
//! access) and for each store a [`RawStmt`]. [`Reader::finish`] then adds the
//! loads that feed no store as statements of their own (or makes every op a
//! statement, [`Reader::per_op`]) and gives the statements their 2d+1
//! schedule positions from the textual order. Operations are read in MLIR's
//! pretty form, one per line (the rest of an op's line after what the model
//! needs, its types and attributes, is skipped); regions are read
//! recursively, at most [`MAX_DEPTH`] deep.

mod control;
mod data;
mod signature;

use std::collections::{HashMap, HashSet};

use super::values::{Guard, RawAccess, Val, add, constant, quasi_affine, scale, sub, substitute};
use crate::error::{Error, Result};
use presburger_mlir_syntax::affine::{
    parse_operand_bounds, parse_operand_exprs, parse_semi_affine_map_after_open,
    parse_set_after_open,
};
use presburger_mlir_syntax::{AffineExpr, AffineMap, Cursor, IntegerSet, OperandExprs};

/// The ops of the `index` dialect read as index arithmetic (`index.add`
/// is `arith.addi`, ...).
const INDEX_OPS: [&str; 9] = [
    "index.add",
    "index.sub",
    "index.mul",
    "index.floordivs",
    "index.ceildivs",
    "index.rems",
    "index.divs",
    "index.casts",
    "index.castu",
];

/// Deepest nesting of regions (loops and `affine.if`) accepted.
pub const MAX_DEPTH: usize = 64;

/// Most results of a pack `%r:N` read.
pub const MAX_PACK: i64 = 1024;

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

/// Gives each statement its 2d+1 positions: at each level, the number of
/// items (loops and statements) directly in the same loop (or at the top
/// level) that come before it in the text, as the C front end numbers them;
/// `affine.if` regions are transparent.
fn positions(loops: &[LoopMark], stmts: &mut [RawStmt]) {
    let mut items: HashMap<Option<usize>, Vec<usize>> = HashMap::new();
    for l in loops {
        items.entry(l.parent).or_default().push(l.seq);
    }
    for s in stmts.iter() {
        items
            .entry(s.loops.last().copied())
            .or_default()
            .push(s.seq);
    }
    for v in items.values_mut() {
        v.sort_unstable();
    }
    let seq_of: HashMap<usize, usize> = loops.iter().map(|l| (l.id, l.seq)).collect();
    let rank = |parent: Option<usize>, seq: usize| -> i64 {
        let n = items
            .get(&parent)
            .map(|v| v.partition_point(|&x| x < seq))
            .unwrap_or(0);
        i64::try_from(n).unwrap_or(i64::MAX)
    };
    for s in stmts.iter_mut() {
        let mut pos = Vec::with_capacity(s.loops.len() + 1);
        for (k, l) in s.loops.iter().enumerate() {
            let parent = k.checked_sub(1).map(|p| s.loops[p]);
            pos.push(rank(parent, seq_of.get(l).copied().unwrap_or(0)));
        }
        pos.push(rank(s.loops.last().copied(), s.seq));
        s.positions = pos;
    }
}

/// A statement before its sets are built.
#[derive(Clone, Debug)]
pub struct RawStmt {
    /// The enclosing loops' iterators (SSA names without `%`), outermost first.
    pub iters: Vec<String>,
    /// The enclosing loops (their [`LoopMark::id`]s), outermost first.
    pub loops: Vec<usize>,
    /// The number of the op that makes the statement, in textual order.
    pub seq: usize,
    /// The conjunction of the enclosing conditions.
    pub guard: Guard,
    /// The schedule positions, one per level (one more than iterators),
    /// given by [`Reader::finish`].
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

/// One load or store op, in textual order: what MLIR's dependence test
/// calls an access (every op is one, whether or not its value is used).
#[derive(Clone, Debug)]
pub struct RawOp {
    /// The op's name (`affine.load`, `memref.store`, ...).
    pub name: String,
    /// Whether it writes.
    pub write: bool,
    /// The element accessed.
    pub access: RawAccess,
    /// The enclosing loops' iterators, outermost first.
    pub iters: Vec<String>,
    /// The enclosing loops (their [`LoopMark::id`]s), outermost first.
    pub loops: Vec<usize>,
    /// The conjunction of the enclosing conditions.
    pub guard: Guard,
    /// The same as MLIR's dependence analysis takes it: an `else` region
    /// has its `affine.if`'s condition, not its negation (MLIR's
    /// `getIndexSet` adds every enclosing `affine.if` set, whatever the
    /// region).
    pub mlir_guard: Guard,
    /// For each enclosing block, outermost first: its number and the
    /// number, within it, of the op that holds the access (for the textual
    /// order of two ops: the one whose ancestor comes first in their
    /// innermost common block runs first).
    pub path: Vec<(usize, usize)>,
    /// Byte offsets of the op's start (its result name), of its name, and
    /// of its end.
    pub start: usize,
    /// The offset of the op's name (where MLIR places its remarks).
    pub name_at: usize,
    /// The end of the op's text.
    pub end: usize,
    /// The number of the op, in textual order.
    pub seq: usize,
}

/// A loop (one induction variable of `affine.for`, `scf.for` or
/// `affine.parallel`), for the schedule positions.
#[derive(Clone, Copy, Debug)]
pub struct LoopMark {
    /// Its number.
    pub id: usize,
    /// The loop it is directly in (`None` at the top level).
    pub parent: Option<usize>,
    /// The number of its op, in textual order.
    pub seq: usize,
    /// Whether it is an `affine.for` or `affine.parallel` loop (MLIR's
    /// dependence test counts only those).
    pub affine: bool,
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
    /// The enclosing loops' [`LoopMark::id`]s, one per iterator.
    loop_ids: Vec<usize>,
    /// Every loop read, in textual order.
    loop_marks: Vec<LoopMark>,
    /// The open blocks: each one's number and the number of its current op.
    path: Vec<(usize, usize)>,
    /// How many blocks were opened.
    n_blocks: usize,
    /// How many ops were read.
    seq: usize,
    /// The names defined in each open region, innermost last.
    scopes: Vec<Vec<String>>,
    guards: Vec<Guard>,
    /// The open `else` regions: the place of each one's condition in
    /// `guards` and the `then` condition it negates (for MLIR's own view of
    /// the region, [`RawOp::mlir_guard`]).
    else_guards: Vec<(usize, Guard)>,
    /// The start offsets of the loads whose value feeds a store.
    consumed: HashSet<usize>,
    /// For each open region op, the scalars its `yield` values are written
    /// to (its `iter_args`, the results of an `if` or of an
    /// `affine.parallel` reduction; empty without results), and whether a
    /// yield accumulates into them (a reduction reads them too).
    yields: Vec<(Vec<String>, bool)>,
    /// Make every load and store a statement of its own (with its one
    /// access), in textual order, instead of one statement per store.
    pub per_op: bool,
    /// The statements, in textual order.
    pub stmts: Vec<RawStmt>,
    /// The load and store ops, in textual order.
    pub ops: Vec<RawOp>,
    /// The memref arguments by name.
    pub memrefs: HashMap<String, MemrefInfo>,
    /// Byte range of the function's body.
    pub span: (usize, usize),
}

/// The description of a memref type's text `memref<4x?xf64, layout, space>`,
/// read by MLIR's grammar: dimensions (`?` or a decimal size, each followed
/// by `x`, spaces allowed around it), then the element type (which may hold
/// an `x` itself: `index`, `vector<4xf32>`), then an optional layout and
/// memory space after a comma at the top level (ignored). `None` for an
/// unranked `memref<*xf32>` or a type without an element type.
fn memref_info(ty: &str) -> Option<MemrefInfo> {
    let inner = ty.strip_prefix("memref<")?.strip_suffix('>')?;
    let (sizes, elem) = shape(inner)?;
    if elem.starts_with('*') {
        return None;
    }
    Some(MemrefInfo {
        rank: sizes.len(),
        elem,
        sizes,
    })
}

/// The shape of a shaped type's text inside its `<...>` (`4x?xf32, layout`):
/// its sizes (`?` or decimal, each followed by `x`, spaces allowed) and its
/// element type, up to the first top-level comma; `None` without an element
/// type.
fn shape(inner: &str) -> Option<(Vec<String>, String)> {
    // the shape and element type end at the first top-level comma
    let mut depth = 0i32;
    let mut end = inner.len();
    for (i, b) in inner.bytes().enumerate() {
        match b {
            b'<' | b'(' | b'[' | b'{' => depth += 1,
            b'>' | b')' | b']' | b'}' => depth -= 1,
            b',' if depth == 0 => {
                end = i;
                break;
            }
            _ => {}
        }
    }
    let mut rest = inner.get(..end)?.trim_start();
    let mut sizes = Vec::new();
    loop {
        let size_len = if rest.starts_with('?') {
            1
        } else {
            rest.bytes().take_while(u8::is_ascii_digit).count()
        };
        if size_len == 0 {
            break;
        }
        let after = rest.get(size_len..)?.trim_start();
        let Some(next) = after.strip_prefix('x') else {
            break;
        };
        sizes.push(rest.get(..size_len)?.to_string());
        rest = next.trim_start();
    }
    let elem = rest.trim();
    if elem.is_empty() {
        return None;
    }
    Some((sizes, elem.to_string()))
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
            loop_ids: Vec::new(),
            loop_marks: Vec::new(),
            path: Vec::new(),
            n_blocks: 0,
            seq: 0,
            scopes: Vec::new(),
            guards: Vec::new(),
            else_guards: Vec::new(),
            consumed: HashSet::new(),
            yields: Vec::new(),
            per_op: false,
            stmts: Vec::new(),
            ops: Vec::new(),
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
                    "{op}: the index %{name} is not affine (a {} of several values, only a loop bound)",
                    if max { "max" } else { "min" }
                ),
            ),
        }
    }

    /// The `, read|write, locality<0..3>, data|instr` of an `affine.prefetch`.
    fn prefetch_specifiers(&mut self) -> Result<()> {
        let kinds: [(&str, &[&str]); 3] = [
            ("the access kind", &["read", "write"]),
            ("the locality", &["locality"]),
            ("the cache type", &["data", "instr"]),
        ];
        for (what, words) in kinds {
            self.c
                .expect(",", &format!("before {what} of affine.prefetch"))?;
            self.c.skip_ws();
            let at = self.c.pos;
            match self.c.ident() {
                Some((w, _)) if words.contains(&w) => {}
                _ => {
                    let want = words.join("` or `");
                    return self.err(at, format!("affine.prefetch: {what} is `{want}`"));
                }
            }
            if words == ["locality"] {
                self.c.expect("<", "after `locality`")?;
                let k_at = self.c.pos;
                if !(0..=3).contains(&self.c.int()?) {
                    return self.err(k_at, "affine.prefetch: the locality is 0 to 3");
                }
                self.c.expect(">", "to close `locality<`")?;
            }
        }
        Ok(())
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

    /// For each loop read (by [`LoopMark::id`]), whether it is affine.
    pub fn affine_loops(&self) -> Vec<bool> {
        self.loop_marks.iter().map(|m| m.affine).collect()
    }

    /// Completes the statements after the walk: the loads whose value feeds
    /// no store become statements of their own (a read and no write), or,
    /// with [`Reader::per_op`], every load and store is one; then each
    /// statement gets its 2d+1 positions (see [`positions`]).
    pub fn finish(&mut self) {
        let lone = |o: &RawOp, src: &str| RawStmt {
            iters: o.iters.clone(),
            loops: o.loops.clone(),
            seq: o.seq,
            guard: o.guard.clone(),
            positions: Vec::new(),
            reads: if o.write {
                Vec::new()
            } else {
                vec![o.access.clone()]
            },
            writes: if o.write {
                vec![o.access.clone()]
            } else {
                Vec::new()
            },
            text: src.get(o.start..o.end).unwrap_or("").trim().to_string(),
            span: (o.start, o.end),
            at: o.start,
        };
        let src = self.c.src;
        if self.per_op {
            self.stmts = self.ops.iter().map(|o| lone(o, src)).collect();
        } else {
            let unused = self
                .ops
                .iter()
                .filter(|o| !o.write && !self.consumed.contains(&o.start))
                .map(|o| lone(o, src))
                .collect::<Vec<_>>();
            self.stmts.extend(unused);
            self.stmts.sort_by_key(|s| s.seq);
        }
        positions(&self.loop_marks, &mut self.stmts);
    }

    /// Fails unless only whitespace, a `:` type suffix or a comment is left on
    /// the line (so that what the model ignores is only types); a type
    /// suffix may also start the next line (`%v = affine.load %A[...]` then
    /// `  : memref<...>`, as MLIR allows an op to go on over lines).
    pub(super) fn rest_is_type(&mut self, op: &str) -> Result<()> {
        self.skip_blanks();
        let here = self.c.pos;
        if !self.c.peek(":") {
            self.c.pos = here;
        }
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

    /// The names `r#0`, ..., `r#{N-1}` of the results of the pack `%r:N`
    /// whose `:` was just read (`alone`: no result name came before it);
    /// the uses `%r#k` are these names.
    fn pack_names(&mut self, (r, at): (&str, usize), alone: bool) -> Result<Vec<String>> {
        if !alone {
            return self.err(
                at,
                "a result pack (`%r:N`) must be the op's only result name",
            );
        }
        self.c.skip_ws();
        let n_at = self.c.pos;
        let n = self.c.int()?;
        if !(1..=MAX_PACK).contains(&n) {
            return self.err(
                n_at,
                format!("%{r}: a result pack of {n} results (1 to {MAX_PACK} are read)"),
            );
        }
        let names: Vec<String> = (0..n).map(|k| format!("{r}#{k}")).collect();
        if let Some(d) = names.iter().find(|d| self.vals.contains_key(d.as_str())) {
            return self.err(at, format!("%{d} is defined twice"));
        }
        Ok(names)
    }

    /// Skips the op's attribute dictionary after its region's `}` on the
    /// same line (`} {slice_fusion_barrier = true}`): attributes do not
    /// change the model.
    fn attributes_after_region(&mut self) -> Result<()> {
        if self.c.peek_on_line("{") {
            self.c.skip_balanced(b'{', b'}')?;
        }
        Ok(())
    }

    /// One operation.
    pub(super) fn op(&mut self) -> Result<()> {
        self.c.skip_ws();
        let start = self.c.pos;
        self.seq += 1;
        if let Some(top) = self.path.last_mut() {
            top.1 += 1;
        }
        let mut results: Vec<(&'a str, usize)> = Vec::new();
        // a result pack `%r:N`: its name, offset, and its results' names
        let mut pack: Option<(&'a str, usize, Vec<String>)> = None;
        if self.c.byte() == Some(b'%') {
            loop {
                let r = self.operand("a result name")?;
                if self.vals.contains_key(r.0) {
                    return self.err(r.1, format!("%{} is defined twice", r.0));
                }
                if self.c.eat(":") {
                    pack = Some((r.0, r.1, self.pack_names(r, results.is_empty())?));
                    break;
                }
                results.push(r);
                if !self.c.eat(",") {
                    break;
                }
            }
            self.c.expect("=", "after the result names")?;
        }
        let result_names: Vec<&str> = match &pack {
            Some((_, _, names)) => names.iter().map(String::as_str).collect(),
            None => results.iter().map(|r| r.0).collect(),
        };
        self.c.skip_ws();
        let name_at = self.c.pos;
        let name = match self.c.ident() {
            Some((n, _)) => n,
            None if self.c.byte() == Some(b'"') => {
                let n = self.c.string_lit()?;
                if n == "affine.apply" {
                    return match result_names.as_slice() {
                        [r] => self.generic_apply(r),
                        _ => self.err(start, "`affine.apply` has one result"),
                    };
                }
                // the dialects whose ops are read in their pretty form
                let known = [
                    "affine.", "scf.", "memref.", "func.", "arith.", "math.", "cf.",
                ];
                if known.iter().any(|d| n.starts_with(d)) {
                    return self.err(
                        name_at,
                        format!("unsupported operation `{n}` (the generic form is not read)"),
                    );
                }
                if !self.c.peek_on_line("(") {
                    return self.err(
                        name_at,
                        format!("unsupported operation `{n}` (expected its operands `(...)`)"),
                    );
                }
                return self.generic(&n, name_at, &result_names, start);
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
        if let Some((r, at, _)) = &pack {
            let with_packs = [
                "affine.for",
                "scf.for",
                "affine.parallel",
                "affine.if",
                "scf.if",
                "func.call",
                "call",
                "affine.delinearize_index",
            ];
            if !with_packs.contains(&name) {
                return self.err(
                    *at,
                    format!("%{r}: `{name}` with a result pack (`%r:N`) is not read"),
                );
            }
        }
        match name {
            "affine.for" | "scf.for" => {
                self.for_loop(name, name_at, &result_names)?;
                self.attributes_after_region()
            }
            "affine.parallel" => {
                self.parallel(name_at, &result_names)?;
                self.attributes_after_region()
            }
            "affine.if" => {
                self.if_op(name_at, &result_names)?;
                self.attributes_after_region()
            }
            "scf.if" => {
                self.scf_if(name_at, &result_names)?;
                self.attributes_after_region()
            }
            // computes a value that nothing uses
            n if (n.starts_with("arith.")
                || n.starts_with("math.")
                || INDEX_OPS.contains(&n)
                || n == "index.constant")
                && results.is_empty() =>
            {
                self.unnamed_arith()
            }
            "arith.cmpi" => {
                let r = one_result(self)?;
                self.cmpi(r)
            }
            "affine.load" | "memref.load" | "affine.vector_load" => {
                // a load whose value is unused may have no result name
                let r = match results.as_slice() {
                    [] => None,
                    _ => Some(one_result(self)?),
                };
                self.load(name, start, name_at, r)
            }
            "affine.store" | "memref.store" | "affine.vector_store" => {
                no_result(self)?;
                self.store(name, start, name_at)
            }
            "affine.apply" => {
                let r = one_result(self)?;
                self.apply(r)
            }
            "affine.delinearize_index" => self.delinearize(&result_names),
            "affine.linearize_index" => {
                let r = one_result(self)?;
                self.linearize(r)
            }
            "affine.min" | "affine.max" => {
                let r = one_result(self)?;
                self.min_max(name, r)
            }
            "memref.cast" => {
                // the same buffer under another type: the same array
                let r = one_result(self)?;
                let (m, m_at) = self.operand("a memref")?;
                let Val::Memref(k) = self.value(m, m_at)? else {
                    return self.err(m_at, format!("memref.cast: %{m} is not a memref"));
                };
                self.end_of_line();
                self.define(r, Val::Memref(k));
                Ok(())
            }
            "memref.alloca" | "memref.alloc" | "gpu.alloc" => {
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
                    return self.yield_values(name, name_at, start);
                }
                self.end_of_line();
                Ok(())
            }
            "arith.constant" | "index.constant" => {
                let r = one_result(self)?;
                self.constant(r, name == "index.constant")
            }
            // a call on values only computes data, as a generic op does (one
            // on a memref is an error there)
            "func.call" | "call" => self.generic(name, name_at, &result_names, start),
            // freeing a buffer touches none of its elements
            // a hint to the cache: it reads and writes no element (MLIR's
            // dependence test does not count it either)
            "affine.prefetch" => {
                no_result(self)?;
                let (m, m_at) = self.operand("a memref")?;
                if !matches!(self.value(m, m_at)?, Val::Memref(_)) {
                    return self.err(m_at, format!("affine.prefetch: %{m} is not a memref"));
                }
                self.subscripts(name)?;
                self.prefetch_specifiers()?;
                self.rest_is_type(name)
            }
            "memref.dealloc" | "gpu.dealloc" => {
                no_result(self)?;
                let (m, m_at) = self.operand("a memref")?;
                if !matches!(self.value(m, m_at)?, Val::Memref(_)) {
                    return self.err(m_at, format!("memref.dealloc: %{m} is not a memref"));
                }
                self.rest_is_type(name)
            }
            n if n.starts_with("arith.") || n.starts_with("math.") || INDEX_OPS.contains(&n) => {
                let r = one_result(self)?;
                self.arith(n, r, start)
            }
            _ => self.err(name_at, format!("unsupported operation `{name}` in a SCoP")),
        }
    }
}
