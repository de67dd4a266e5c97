//! The walk over an MLIR function: reads the top level (a `module`, attribute
//! aliases, functions), the selected `func.func`'s arguments and its body's
//! operations one by one, and records for each store a [`RawStmt`]: its
//! enclosing iterators, the conditions met on the way (loop bounds, steps,
//! `affine.if` sets, negated for `else`), its 2d+1 schedule positions and its
//! accesses. Operations are read in MLIR's pretty form, one per line (the
//! rest of an op's line after what the model needs, its types and attributes,
//! is skipped); regions are read recursively, at most [`MAX_DEPTH`] deep.

use std::collections::HashMap;

use super::values::{add, constant, scale, sub, substitute, Guard, RawAccess, Val};
use crate::error::{Error, Result};
use mlir_syntax::affine::{parse_map_after_open, parse_operand_exprs, parse_set_after_open};
use mlir_syntax::{AffineExpr, AffineMap, Cursor, IntegerSet};

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

    fn err<T>(&self, at: usize, msg: impl Into<String>) -> Result<T> {
        Err(self.c.error(at, msg))
    }

    /// Reads the top level and the function named `want` (or the first one
    /// with a body).
    pub fn top(&mut self, want: Option<&str>) -> Result<()> {
        let mut open_modules = 0usize;
        loop {
            if self.c.at_eof() {
                break;
            }
            let at = self.c.pos;
            if self.c.byte() == Some(b'#') {
                self.alias()?;
            } else if self.c.eat_kw("module") {
                if self.c.eat("@") {
                    self.c.ident();
                }
                if self.c.eat_kw("attributes") {
                    self.c.skip_balanced(b'{', b'}')?;
                }
                self.c.expect("{", "to open the module body")?;
                open_modules += 1;
            } else if open_modules > 0 && self.c.eat("}") {
                open_modules -= 1;
            } else if self.c.eat_kw("func.func") {
                if self.function(want)? {
                    return Ok(());
                }
            } else {
                let found = self.c.found();
                return self.err(
                    at,
                    format!("expected `func.func`, `module` or an attribute alias, found {found}"),
                );
            }
        }
        match want {
            Some(w) => Err(Error::new(
                1,
                1,
                format!("no function @{w} with a body in the file"),
            )),
            None => Err(Error::new(1, 1, "no function with a body in the file")),
        }
    }

    /// `#name = affine_map<...>` or `affine_set<...>` (other aliases are skipped).
    fn alias(&mut self) -> Result<()> {
        let at = self.c.pos;
        self.c.pos += 1;
        let Some((name, _)) = self.c.ident() else {
            return self.err(at, "expected an alias name after `#`");
        };
        self.c.expect("=", "after the alias name")?;
        if self.c.eat("affine_map<") {
            let m = parse_map_after_open(&mut self.c)?;
            self.maps.insert(name.to_string(), m);
        } else if self.c.eat("affine_set<") {
            let s = parse_set_after_open(&mut self.c)?;
            self.sets.insert(name.to_string(), s);
        } else {
            self.c.ident();
            if self.c.byte() == Some(b'<') {
                self.c.skip_balanced(b'<', b'>')?;
            }
        }
        Ok(())
    }

    /// One `func.func`; reads its body when it is the one wanted (true).
    fn function(&mut self, want: Option<&str>) -> Result<bool> {
        for kw in ["private", "public", "nested"] {
            self.c.eat_kw(kw);
        }
        self.c.expect("@", "before the function name")?;
        let name = if self.c.peek("\"") {
            self.c.string_lit()?
        } else {
            match self.c.ident() {
                Some((n, _)) => n.to_string(),
                None => return self.err(self.c.pos, "expected the function name after `@`"),
            }
        };
        self.c.skip_ws();
        let args_at = self.c.pos;
        let (_, e) = self.c.skip_balanced(b'(', b')')?;
        // results and attributes, up to the body (or the end of a declaration)
        let mut has_body = false;
        loop {
            self.c.skip_ws();
            match self.c.byte() {
                Some(b'{') => {
                    has_body = true;
                    break;
                }
                Some(b'(') => {
                    self.c.skip_balanced(b'(', b')')?;
                }
                Some(b'<') => {
                    self.c.skip_balanced(b'<', b'>')?;
                }
                _ if self.c.eat("->") || self.c.eat(",") => {}
                _ if self.c.eat_kw("attributes") => {
                    self.c.skip_balanced(b'{', b'}')?;
                }
                Some(b'#') => break,
                _ if self.c.peek_kw("func.func") || self.c.peek("}") || self.c.at_eof() => break,
                _ => {
                    if self.c.byte() == Some(b'!') {
                        self.c.pos += 1;
                    }
                    if self.c.ident().is_none() {
                        let found = self.c.found();
                        return self.err(
                            self.c.pos,
                            format!("unexpected {found} in the signature of @{name}"),
                        );
                    }
                }
            }
        }
        let wanted = has_body && want.is_none_or(|w| w == name);
        if !wanted {
            if has_body {
                self.c.skip_balanced(b'{', b'}')?;
            }
            return Ok(false);
        }
        let body_at = self.c.pos;
        self.arguments(args_at, e)?;
        self.c.pos = body_at;
        let end = self.block()?;
        self.span = (body_at, end);
        Ok(true)
    }

    /// The arguments from the `(` at `args_at` to the `)` at `e`: memrefs,
    /// `index` parameters and scalars.
    fn arguments(&mut self, args_at: usize, e: usize) -> Result<()> {
        self.c.pos = args_at + 1;
        while self.c.pos < e {
            let Some((name, at)) = self.c.ssa() else {
                if self.c.eat(")") {
                    break;
                }
                let found = self.c.found();
                return self.err(
                    self.c.pos,
                    format!("expected an argument `%name: type`, found {found}"),
                );
            };
            self.c.expect(":", "after the argument's name")?;
            self.c.skip_ws();
            let ty_at = self.c.pos;
            self.c.skip_type()?;
            let ty = self.c.src.get(ty_at..self.c.pos).unwrap_or("").to_string();
            if self.c.peek("{") {
                self.c.skip_balanced(b'{', b'}')?;
            }
            if self.c.eat_kw("loc") {
                self.c.skip_balanced(b'(', b')')?;
            }
            let val = if ty == "index" {
                self.declared.push(name.to_string());
                Val::Param(name.to_string())
            } else if ty.starts_with("memref<") {
                let Some(info) = memref_info(&ty) else {
                    return self.err(ty_at, format!("cannot read the memref type `{ty}`"));
                };
                self.memrefs.insert(name.to_string(), info);
                Val::Memref(name.to_string())
            } else if ty.starts_with("tensor<") || ty.starts_with("vector<") {
                return self.err(
                    ty_at,
                    format!("argument %{name}: only memrefs, `index` and scalars are modelled, not `{ty}`"),
                );
            } else {
                Val::Scalar(name.to_string())
            };
            if self.vals.insert(name.to_string(), val).is_some() {
                return self.err(at, format!("argument %{name} is declared twice"));
            }
            if !self.c.eat(",") {
                self.c.skip_ws();
                if self.c.pos < e {
                    let found = self.c.found();
                    return self.err(
                        self.c.pos,
                        format!("expected `,` between arguments, found {found}"),
                    );
                }
            }
        }
        Ok(())
    }

    /// A region `{ ops }`; returns the offset after its `}`.
    fn block(&mut self) -> Result<usize> {
        if self.iters.len() + self.guards.len() > MAX_DEPTH {
            return self.err(
                self.c.pos,
                format!("regions nested more than {MAX_DEPTH} deep"),
            );
        }
        self.c.expect("{", "to open the region")?;
        self.scopes.push(Vec::new());
        let r = self.ops_until_close();
        for name in self.scopes.pop().unwrap_or_default() {
            self.vals.remove(&name);
        }
        r
    }

    /// The operations of a region up to its `}`.
    fn ops_until_close(&mut self) -> Result<usize> {
        loop {
            if self.c.eat("}") {
                return Ok(self.c.pos);
            }
            if self.c.at_eof() {
                return self.err(self.c.pos, "the region is never closed (missing `}`)");
            }
            self.op()?;
        }
    }

    /// Defines `%name` in the current region (it goes out of scope at the
    /// region's end, as MLIR's names do). An index value larger than
    /// [`MAX_INDEX_NODES`] becomes [`Val::NonAffine`].
    fn define(&mut self, name: &str, val: Val) {
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
    fn value(&self, name: &str, at: usize) -> Result<Val> {
        match self.vals.get(name) {
            Some(v) => Ok(v.clone()),
            None => self.err(at, format!("%{name} is not defined")),
        }
    }

    /// An SSA operand: its name and offset.
    fn operand(&mut self, what: &str) -> Result<(&'a str, usize)> {
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
    fn index(&mut self, name: &str, at: usize, op: &str) -> Result<AffineExpr> {
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
        }
    }

    /// Skips spaces and tabs (not line ends).
    fn skip_blanks(&mut self) {
        while matches!(self.c.byte(), Some(b' ' | b'\t' | b'\r')) {
            self.c.pos += 1;
        }
    }

    /// Moves to the end of the current line (the rest of an op: its types,
    /// attributes, a trailing comment).
    fn end_of_line(&mut self) {
        while let Some(b) = self.c.byte() {
            if b == b'\n' {
                break;
            }
            self.c.bump();
        }
    }

    /// Fails unless only whitespace, a `:` type suffix or a comment is left on
    /// the line (so that what the model ignores is only types).
    fn rest_is_type(&mut self, op: &str) -> Result<()> {
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
    fn op(&mut self) -> Result<()> {
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
                        format!("`{name}` with values (loop-carried or region results) is not supported"),
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

    /// `%r = memref.alloca(%sizes) : memref<...>`: a local array named by its
    /// SSA name (its sizes are not modelled).
    fn alloc(&mut self, op: &str, r: &str) -> Result<()> {
        while let Some(b) = self.c.byte() {
            if b == b':' || b == b'\n' {
                break;
            }
            self.c.bump();
        }
        if !self.c.eat(":") {
            return self.err(
                self.c.pos,
                format!("expected `:` and the memref type of {op}"),
            );
        }
        self.c.skip_ws();
        let ty_at = self.c.pos;
        self.c.skip_type()?;
        let ty = self.c.src.get(ty_at..self.c.pos).unwrap_or("");
        let Some(info) = memref_info(ty) else {
            return self.err(ty_at, format!("{op}: cannot read the memref type `{ty}`"));
        };
        self.end_of_line();
        self.memrefs.insert(r.to_string(), info);
        self.define(r, Val::Memref(r.to_string()));
        Ok(())
    }

    /// `%r = arith.constant 3 : index` (an index constant) or any other
    /// constant (data without reads).
    fn constant(&mut self, r: &str) -> Result<()> {
        let val = if self.c.peek_int() {
            let v = self.c.int()?;
            self.c.skip_ws();
            if self.c.eat(":") && (self.c.peek_kw("index") || self.c.peek("i")) {
                Val::Index(AffineExpr::Const(v))
            } else {
                Val::Data {
                    reads: Vec::new(),
                    spans: Vec::new(),
                }
            }
        } else {
            Val::Data {
                reads: Vec::new(),
                spans: Vec::new(),
            }
        };
        self.end_of_line();
        self.define(r, val);
        Ok(())
    }

    /// An `arith` or `math` op: index arithmetic when all operands are
    /// indices, otherwise a computation on data (its reads are its operands').
    fn arith(&mut self, name: &str, r: &str, start: usize) -> Result<()> {
        let mut operands: Vec<(&'a str, usize)> = Vec::new();
        while let Some(b) = self.c.byte() {
            if b == b'\n' || (b == b'/' && self.c.byte_at(self.c.pos + 1) == Some(b'/')) {
                break;
            }
            if b == b':' {
                break;
            }
            if b == b'%' {
                operands.push(self.operand("an operand")?);
            } else {
                self.c.bump();
            }
        }
        self.end_of_line();
        let end = self.c.pos;
        let mut vals = Vec::new();
        for (n, at) in &operands {
            vals.push(self.value(n, *at)?);
        }
        if vals.iter().any(|v| matches!(v, Val::Cond(_))) {
            let conds: Vec<Guard> = vals
                .iter()
                .filter_map(|v| match v {
                    Val::Cond(g) => Some(g.clone()),
                    _ => None,
                })
                .collect();
            let why = vals.iter().find_map(|v| match v {
                Val::NonAffine(w) => Some(w.clone()),
                _ => None,
            });
            let val = match name {
                _ if why.is_some() => Val::NonAffine(why.unwrap_or_default()),
                "arith.andi" if conds.len() == vals.len() => Val::Cond(Guard::And(conds)),
                "arith.ori" if conds.len() == vals.len() => Val::Cond(Guard::Or(conds)),
                _ => Val::NonAffine(format!("`{name}` of a condition")),
            };
            self.define(r, val);
            return Ok(());
        }
        let is_index = |v: &Val| matches!(v, Val::Index(_) | Val::Param(_) | Val::NonAffine(_));
        let val = if !vals.is_empty() && vals.iter().all(is_index) && name.starts_with("arith.") {
            self.index_arith(name, &operands)?
        } else {
            // merged without repeats, so that `%y = arith.addf %x, %x` chains
            // stay as large as the loads they read
            let mut reads: Vec<(usize, RawAccess)> = Vec::new();
            let mut spans = vec![(start, end)];
            let mut merge = |key: usize, a: RawAccess| {
                if !reads.iter().any(|(k, b)| *k == key && b.array == a.array) {
                    reads.push((key, a));
                }
            };
            for v in vals {
                match v {
                    Val::Data { reads: r, spans: s } => {
                        for (key, a) in r {
                            merge(key, a);
                        }
                        spans.extend(s);
                    }
                    Val::Scalar(s) => merge(
                        start,
                        RawAccess {
                            array: s,
                            subs: Vec::new(),
                        },
                    ),
                    _ => {}
                }
            }
            spans.sort_unstable();
            spans.dedup();
            Val::Data { reads, spans }
        };
        self.define(r, val);
        Ok(())
    }

    /// Index arithmetic: `addi`, `subi`, `muli` (by a constant), `floordivsi`,
    /// `ceildivsi` (by a positive constant), `index_cast`; anything else, or a
    /// non-affine result, is [`Val::NonAffine`] (an error only if used as an
    /// index).
    fn index_arith(&mut self, name: &str, operands: &[(&'a str, usize)]) -> Result<Val> {
        let mut es = Vec::new();
        for (n, at) in operands {
            if let Some(Val::NonAffine(why)) = self.vals.get(*n) {
                return Ok(Val::NonAffine(why.clone()));
            }
            match self.index(n, *at, name) {
                Ok(e) => es.push(e),
                Err(_) => {
                    return Ok(Val::NonAffine(format!(
                        "computed by `{name}` from a non-affine value"
                    )))
                }
            }
        }
        let short = name.trim_start_matches("arith.");
        let bin = |es: &[AffineExpr]| match es {
            [a, b] => Some((a.clone(), b.clone())),
            _ => None,
        };
        let div = |k: Option<i64>| k.filter(|k| *k > 0);
        Ok(match (short, bin(&es)) {
            ("addi", Some((a, b))) => Val::Index(add(a, b)),
            ("subi", Some((a, b))) => Val::Index(sub(a, b)),
            ("muli", Some((a, b))) => match (constant(&a), constant(&b)) {
                (Some(k), _) => Val::Index(scale(b, k)),
                (None, Some(k)) => Val::Index(scale(a, k)),
                _ => Val::NonAffine(format!("`{name}` of two non-constant values")),
            },
            ("floordivsi" | "ceildivsi", Some((a, b))) => match div(constant(&b)) {
                Some(k) => {
                    let (a, k) = (Box::new(a), Box::new(AffineExpr::Const(k)));
                    Val::Index(if short == "floordivsi" {
                        AffineExpr::FloorDiv(a, k)
                    } else {
                        AffineExpr::CeilDiv(a, k)
                    })
                }
                None => Val::NonAffine(format!(
                    "`{name}` by a value that is not a positive constant"
                )),
            },
            ("index_cast" | "index_castui", None) if es.len() == 1 => Val::Index(es[0].clone()),
            _ => Val::NonAffine(format!("`{name}` is not an affine operation")),
        })
    }

    /// `%r = affine.apply #map(%d...)[%s...]`.
    fn apply(&mut self, r: &str) -> Result<()> {
        let at = self.c.pos;
        let map = self.map_ref()?;
        if map.results.len() != 1 {
            return self.err(at, "affine.apply needs a map with one result");
        }
        let (dims, syms) = self.map_operands(&map, at, "affine.apply")?;
        let e = self.compose(&map.results[0], &dims, &syms, at)?;
        self.end_of_line();
        self.define(r, Val::Index(e));
        Ok(())
    }

    /// `#alias` or an inline `affine_map<...>`.
    fn map_ref(&mut self) -> Result<AffineMap> {
        self.c.skip_ws();
        let at = self.c.pos;
        if self.c.eat("affine_map<") {
            return Ok(parse_map_after_open(&mut self.c)?);
        }
        if self.c.eat("#") {
            if let Some((n, _)) = self.c.ident() {
                return match self.maps.get(n) {
                    Some(m) => Ok(m.clone()),
                    None => self.err(at, format!("#{n} is not an affine map alias")),
                };
            }
        }
        let found = self.c.found();
        self.err(at, format!("expected an affine map, found {found}"))
    }

    /// The `(%d, ...)[%s, ...]` operands of a map, as index expressions; their
    /// numbers must match the map's.
    fn map_operands(
        &mut self,
        map_dims: &AffineMap,
        at: usize,
        op: &str,
    ) -> Result<(Vec<AffineExpr>, Vec<AffineExpr>)> {
        let dims = self.operand_list("(", ")", op)?;
        let syms = if self.c.peek("[") {
            self.operand_list("[", "]", op)?
        } else {
            Vec::new()
        };
        if dims.len() != map_dims.n_dims || syms.len() != map_dims.n_symbols {
            return self.err(
                at,
                format!(
                    "{op}: the map takes {} dims and {} symbols, given {} and {}",
                    map_dims.n_dims,
                    map_dims.n_symbols,
                    dims.len(),
                    syms.len()
                ),
            );
        }
        Ok((dims, syms))
    }

    /// `open %a, %b close` as index expressions.
    fn operand_list(&mut self, open: &str, close: &str, op: &str) -> Result<Vec<AffineExpr>> {
        self.c
            .expect(open, &format!("to open the operands of {op}"))?;
        let mut out = Vec::new();
        if self.c.eat(close) {
            return Ok(out);
        }
        loop {
            let (n, at) = self.operand("an index operand")?;
            out.push(self.index(n, at, op)?);
            if self.c.eat(",") {
                continue;
            }
            self.c
                .expect(close, &format!("to close the operands of {op}"))?;
            return Ok(out);
        }
    }

    /// `e` with the map's dims and symbols replaced by the operands.
    fn compose(
        &self,
        e: &AffineExpr,
        dims: &[AffineExpr],
        syms: &[AffineExpr],
        at: usize,
    ) -> Result<AffineExpr> {
        match substitute(e, dims, syms) {
            Some(x) if nodes(&x, MAX_INDEX_NODES) > MAX_INDEX_NODES => self.err(
                at,
                format!("the index expression has more than {MAX_INDEX_NODES} terms"),
            ),
            Some(x) => Ok(x),
            None => self.err(at, "the affine map uses more operands than given"),
        }
    }

    /// The subscripts of a load or store: `[exprs over %values]` for the
    /// affine ops, `[%i, %j]` for memref's.
    fn subscripts(&mut self, op: &str) -> Result<Vec<AffineExpr>> {
        self.c.skip_ws();
        if op.starts_with("affine.") {
            self.c
                .expect("[", &format!("to open the subscripts of {op}"))?;
            let o = parse_operand_exprs(&mut self.c, "]")
                .map_err(|e| Error::new(e.line, e.column, format!("{op}: {}", e.message)))?;
            let mut dims = Vec::new();
            for (n, at) in &o.dims {
                dims.push(self.index(n, *at, op)?);
            }
            let mut syms = Vec::new();
            for (n, at) in &o.syms {
                syms.push(self.index(n, *at, op)?);
            }
            let at = self.c.pos;
            o.exprs
                .iter()
                .map(|e| self.compose(e, &dims, &syms, at))
                .collect()
        } else {
            self.operand_list("[", "]", op)
        }
    }

    /// The memref operand of a load or store: its name and rank.
    fn memref(&mut self, op: &str) -> Result<(String, usize, usize)> {
        let (m, at) = self.operand("a memref")?;
        match self.value(m, at)? {
            Val::Memref(k) => {
                let rank = self.memrefs.get(&k).map(|i| i.rank).unwrap_or(0);
                Ok((k, rank, at))
            }
            _ => self.err(at, format!("{op}: %{m} is not a memref argument")),
        }
    }

    /// `%r = affine.load %A[...] : type` (or `memref.load`).
    fn load(&mut self, op: &str, start: usize, r: &str) -> Result<()> {
        let (array, rank, at) = self.memref(op)?;
        let subs = self.subscripts(op)?;
        if subs.len() != rank {
            return self.err(
                at,
                format!(
                    "{op}: %{array} has {rank} dimensions, given {} subscripts",
                    subs.len()
                ),
            );
        }
        self.rest_is_type(op)?;
        let end = self.c.pos;
        self.define(
            r,
            Val::Data {
                reads: vec![(start, RawAccess { array, subs })],
                spans: vec![(start, end)],
            },
        );
        Ok(())
    }

    /// `affine.store %v, %A[...] : type` (or `memref.store`): a statement.
    fn store(&mut self, op: &str, start: usize) -> Result<()> {
        let (v, v_at) = self.operand("the stored value")?;
        let value = self.value(v, v_at)?;
        self.c
            .expect(",", &format!("after the value stored by {op}"))?;
        let (array, rank, at) = self.memref(op)?;
        let subs = self.subscripts(op)?;
        if subs.len() != rank {
            return self.err(
                at,
                format!(
                    "{op}: %{array} has {rank} dimensions, given {} subscripts",
                    subs.len()
                ),
            );
        }
        self.rest_is_type(op)?;
        let end = self.c.pos;
        let (reads, mut spans) = match value {
            Val::Data { reads, spans } => (reads.into_iter().map(|(_, a)| a).collect(), spans),
            Val::Scalar(s) => (
                vec![RawAccess {
                    array: s,
                    subs: Vec::new(),
                }],
                Vec::new(),
            ),
            Val::Memref(_) => return self.err(v_at, format!("{op}: cannot store the memref %{v}")),
            _ => (Vec::new(), Vec::new()),
        };
        spans.push((start, end));
        spans.sort_unstable();
        spans.dedup();
        let text = spans
            .iter()
            .map(|(s, e)| self.c.src.get(*s..*e).unwrap_or("").trim())
            .collect::<Vec<_>>()
            .join("\n");
        let first = spans.first().map(|s| s.0).unwrap_or(start);
        let position = self.next_position();
        let mut positions = self.prefix.clone();
        positions.push(position);
        self.stmts.push(RawStmt {
            iters: self.iters.clone(),
            guard: Guard::And(self.guards.clone()),
            positions,
            reads,
            writes: vec![RawAccess { array, subs }],
            text,
            span: (first, end),
            at: start,
        });
        Ok(())
    }

    /// The next schedule position at the current level.
    fn next_position(&mut self) -> i64 {
        match self.counters.last_mut() {
            Some(c) => {
                *c += 1;
                *c - 1
            }
            None => 0,
        }
    }

    /// One bound of an `affine.for`: a constant, an SSA value, or a map (under
    /// `max` for lower bounds, `min` for upper ones) applied to operands; the
    /// pieces, in terms of iterators and parameters.
    fn affine_bound(&mut self, lower: bool) -> Result<Vec<AffineExpr>> {
        self.c.skip_ws();
        let at = self.c.pos;
        let (good, bad) = if lower {
            ("max", "min")
        } else {
            ("min", "max")
        };
        if self.c.peek_kw(bad) {
            let which = if lower { "lower" } else { "upper" };
            return self.err(at, format!("affine.for: `{bad}` in a {which} bound"));
        }
        self.c.eat_kw(good);
        if self.c.peek_int() {
            return Ok(vec![AffineExpr::Const(self.c.int()?)]);
        }
        if self.c.peek("%") {
            let (n, n_at) = self.operand("a bound")?;
            return Ok(vec![self.index(n, n_at, "affine.for")?]);
        }
        let map = self.map_ref()?;
        if map.results.is_empty() {
            return self.err(at, "affine.for: a bound map needs at least one result");
        }
        let (dims, syms) = self.map_operands(&map, at, "affine.for")?;
        map.results
            .iter()
            .map(|e| self.compose(e, &dims, &syms, at))
            .collect()
    }

    /// `affine.for %i = lb to ub step s { ... }` or
    /// `scf.for %i = %lb to %ub step %s { ... }`.
    fn for_loop(&mut self, op: &str, op_at: usize) -> Result<()> {
        let (iv, iv_at) = self.operand("the loop's induction variable")?;
        if self.vals.contains_key(iv) {
            return self.err(iv_at, format!("{op}: %{iv} is already defined"));
        }
        self.c
            .expect("=", &format!("after the induction variable of {op}"))?;
        let (lowers, uppers, step) = if op == "affine.for" {
            let l = self.affine_bound(true)?;
            if !self.c.eat_kw("to") {
                let found = self.c.found();
                return self.err(
                    self.c.pos,
                    format!("expected `to` in affine.for, found {found}"),
                );
            }
            let u = self.affine_bound(false)?;
            let step = if self.c.eat_kw("step") {
                self.c.skip_ws();
                let at = self.c.pos;
                let s = self.c.int()?;
                if s <= 0 {
                    return self.err(at, format!("affine.for: the step {s} must be positive"));
                }
                s
            } else {
                1
            };
            (l, u, step)
        } else {
            let (l, l_at) = self.operand("the lower bound")?;
            let l = self.index(l, l_at, op)?;
            if !self.c.eat_kw("to") {
                let found = self.c.found();
                return self.err(
                    self.c.pos,
                    format!("expected `to` in scf.for, found {found}"),
                );
            }
            let (u, u_at) = self.operand("the upper bound")?;
            let u = self.index(u, u_at, op)?;
            if !self.c.eat_kw("step") {
                let found = self.c.found();
                return self.err(
                    self.c.pos,
                    format!("expected `step` in scf.for, found {found}"),
                );
            }
            let (s, s_at) = self.operand("the step")?;
            let s_e = self.index(s, s_at, op)?;
            let Some(step) = constant(&s_e).filter(|k| *k > 0) else {
                return self.err(
                    s_at,
                    format!("scf.for: the step %{s} must be a positive constant"),
                );
            };
            (vec![l], vec![u], step)
        };
        if self.c.peek_kw("iter_args") || self.c.peek("->") {
            return self.err(
                op_at,
                format!("{op} with iter_args or results (loop-carried values) is not supported"),
            );
        }
        if self.c.eat(":") {
            self.c.skip_type()?;
        }
        let depth = self.iters.len();
        let x = AffineExpr::Dim(depth);
        let mut parts: Vec<Guard> = lowers
            .iter()
            .map(|l| Guard::Ge(sub(x.clone(), l.clone())))
            .collect();
        parts.extend(
            uppers
                .iter()
                .map(|u| Guard::Ge(add(sub(u.clone(), x.clone()), AffineExpr::Const(-1)))),
        );
        if step > 1 {
            // the iterator is the start plus a multiple of the step; the start
            // is the lower bound piece that is the largest
            let cases = lowers
                .iter()
                .map(|l| {
                    let mut c: Vec<Guard> = lowers
                        .iter()
                        .map(|o| Guard::Ge(sub(l.clone(), o.clone())))
                        .collect();
                    c.push(Guard::Eq(AffineExpr::Mod(
                        Box::new(sub(x.clone(), l.clone())),
                        Box::new(AffineExpr::Const(step)),
                    )));
                    Guard::And(c)
                })
                .collect();
            parts.push(Guard::Or(cases));
        }
        let position = self.next_position();
        self.iters.push(iv.to_string());
        self.vals.insert(iv.to_string(), Val::Index(x));
        self.guards.push(Guard::And(parts));
        self.prefix.push(position);
        self.counters.push(0);
        let r = self.block();
        self.counters.pop();
        self.prefix.pop();
        self.guards.pop();
        self.iters.pop();
        self.vals.remove(iv);
        r.map(|_| ())
    }

    /// `affine.if #set(%d...)[%s...] { ... } else { ... }`.
    fn if_op(&mut self, op_at: usize) -> Result<()> {
        self.c.skip_ws();
        let at = self.c.pos;
        let set = if self.c.eat("affine_set<") {
            parse_set_after_open(&mut self.c)?
        } else if self.c.eat("#") {
            match self.c.ident() {
                Some((n, _)) => match self.sets.get(n) {
                    Some(s) => s.clone(),
                    None => return self.err(at, format!("#{n} is not an integer set alias")),
                },
                None => return self.err(at, "expected an integer set alias after `#`"),
            }
        } else {
            let found = self.c.found();
            return self.err(
                at,
                format!("expected an integer set in affine.if, found {found}"),
            );
        };
        let shape = AffineMap {
            n_dims: set.n_dims,
            n_symbols: set.n_symbols,
            results: Vec::new(),
        };
        let (dims, syms) = self.map_operands(&shape, at, "affine.if")?;
        if self.c.peek("->") {
            return self.err(op_at, "affine.if with results is not supported");
        }
        let mut atoms = Vec::new();
        for (e, is_eq) in &set.constraints {
            let e = self.compose(e, &dims, &syms, at)?;
            atoms.push(if *is_eq { Guard::Eq(e) } else { Guard::Ge(e) });
        }
        self.branches(Guard::And(atoms))
    }

    /// `scf.if %c { ... } else { ... }` on a condition from `arith.cmpi` of
    /// affine indices (and `arith.andi`/`ori` of such).
    fn scf_if(&mut self) -> Result<()> {
        let (c, at) = self.operand("the condition of scf.if")?;
        let cond = match self.value(c, at)? {
            Val::Cond(g) => g,
            Val::NonAffine(why) => {
                return self.err(at, format!("scf.if: the condition %{c} is not affine ({why})"))
            }
            _ => {
                return self.err(
                    at,
                    format!("scf.if: the condition %{c} is not an arith.cmpi of affine indices (data-dependent?)"),
                )
            }
        };
        self.branches(cond)
    }

    /// `%r = arith.cmpi pred, %a, %b : index` with a signed or equality
    /// predicate on affine indices: a condition ([`Val::NonAffine`] otherwise).
    fn cmpi(&mut self, r: &str) -> Result<()> {
        let pred = self.c.ident().map(|(p, _)| p).unwrap_or("");
        self.c.expect(",", "after the predicate of arith.cmpi")?;
        let (a, a_at) = self.operand("an operand of arith.cmpi")?;
        self.c.expect(",", "between the operands of arith.cmpi")?;
        let (b, b_at) = self.operand("an operand of arith.cmpi")?;
        self.end_of_line();
        let (va, vb) = (self.value(a, a_at)?, self.value(b, b_at)?);
        let indices = |v: &Val| matches!(v, Val::Index(_) | Val::Param(_));
        let val = if let (Val::NonAffine(why), _) | (_, Val::NonAffine(why)) = (&va, &vb) {
            Val::NonAffine(why.clone())
        } else if !(indices(&va) && indices(&vb)) {
            Val::NonAffine(format!(
                "`arith.cmpi` of %{a} and %{b}, not both affine indices"
            ))
        } else {
            let (x, y) = (
                self.index(a, a_at, "arith.cmpi")?,
                self.index(b, b_at, "arith.cmpi")?,
            );
            let minus1 = |e| add(e, AffineExpr::Const(-1));
            match pred {
                "eq" => Val::Cond(Guard::Eq(sub(x, y))),
                "ne" => Val::Cond(Guard::Eq(sub(x, y)).negate()),
                "sge" => Val::Cond(Guard::Ge(sub(x, y))),
                "sle" => Val::Cond(Guard::Ge(sub(y, x))),
                "sgt" => Val::Cond(Guard::Ge(minus1(sub(x, y)))),
                "slt" => Val::Cond(Guard::Ge(minus1(sub(y, x)))),
                _ => Val::NonAffine(format!(
                    "`arith.cmpi {pred}` (unsigned or unknown predicate)"
                )),
            }
        };
        self.define(r, val);
        Ok(())
    }

    /// The `{ then }` region under `cond` and an optional `else { ... }` under
    /// its negation.
    fn branches(&mut self, cond: Guard) -> Result<()> {
        self.guards.push(cond.clone());
        let r = self.block();
        self.guards.pop();
        r?;
        if self.c.eat_kw("else") {
            self.guards.push(cond.negate());
            let r = self.block();
            self.guards.pop();
            r?;
        }
        Ok(())
    }
}
