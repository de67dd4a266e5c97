//! A reader for the subset of MLIR's textual IR that tensor programs in the paper
//! use, without MLIR: one `func.func` of `arith`, `tensor` and `linalg` ops on
//! tensors, read into a [`Program`].
//!
//! Accepted at top level: an optional `module { ... }` wrapper (with optional
//! `@name` and `attributes {...}`), attribute aliases `#name = ...` (affine maps,
//! trait dictionaries), type aliases `!name = type`, `//` comments, and functions
//! `func.func @name(%a: tensor<4x?xf32>, %s: f32) -> (types) { ... }`. The first
//! function with a body is read ([`parse_program`]), or the one with a given name
//! ([`parse_function`]); other functions are skipped unread.
//!
//! Operations (pretty form, as `mlir-opt` prints them; `loc(...)` trailers are
//! ignored):
//! - `arith.constant` (scalar or `dense<...>` tensor) → [`OpKind::Constant`];
//! - `tensor.empty(%d...)` → [`OpKind::Empty`];
//! - `tensor.pad` with static `low`/`high` and a region that yields a value
//!   defined outside it → [`OpKind::Pad`];
//! - `tensor.extract_slice`, `tensor.insert_slice` with static offsets, sizes and
//!   strides → [`OpKind::ExtractSlice`], [`OpKind::InsertSlice`];
//! - `linalg.generic` (inline trait dictionary or `#alias`) and the named ops
//!   `matmul`, `batch_matmul`, `matvec`, `vecmat`, `dot`, `conv_2d_nchw_fchw`,
//!   `conv_2d_nhwc_hwcf`, `depthwise_conv_2d_nhwc_hwc`,
//!   `depthwise_conv_2d_nchw_chw`, `pooling_nhwc_{max,min,sum}`,
//!   `pooling_nchw_{max,sum}`, `fill`, `transpose`, `broadcast`, `reduce`, `map`,
//!   `copy` and the elementwise ones (`add`, `sub`, `mul`, `div`, `max`, `min`,
//!   `exp`, ...), lowered to indexing maps and iterator types as MLIR's
//!   `LinalgOp` interface defines them → [`OpKind::Linalg`];
//! - `func.return` / `return`.
//!
//! Anything else is [`Error::Unsupported`] unless [`Options::opaque_unknown`] is
//! set. Errors carry the line and column of the offending text; the reader never
//! panics and bounds its recursion (affine expressions, attributes).
//!
//! Lexing (the [`presburger_mlir_syntax::Cursor`]) and affine maps come from the
//! `mlir-syntax` crate, shared with the MLIR front end of `schedule`; its
//! positioned errors become [`Error::Parse`].
//!
//! Known limits: dynamic pad amounts and slice parameters are refused; block
//! bodies are kept as text (not checked beyond their SSA names); opaque ops must
//! end at the end of a line (outside brackets and regions).

mod attr;
mod linalg;
mod ops;

/// The pieces of this reader that the interpreter ([`crate::interp`]) reuses on
/// the same text: attribute values and aliases, the generic trait dictionary,
/// the named ops' indexing maps, and rank-reducing slices.
pub(crate) mod shared {
    pub(crate) use super::attr::{Aliases, Attr, parse_attr};
    pub(crate) use super::linalg::{generic_traits, is_named, lower_named_op};
    pub(crate) use super::ops::rank_reduction;
}

use std::collections::{HashMap, HashSet};

use crate::error::{Error, Result};
use crate::ir::{AffineMap, Def, Op, OpKind, Program, TensorType, Type, Value, ValueId};
use attr::Aliases;
use presburger_mlir_syntax::Cursor;

/// Reader options.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// Read operations the reader does not model as [`OpKind::Opaque`] instead of
    /// failing with [`Error::Unsupported`]. Such an op is read up to the end of
    /// its line (regions and brackets may span lines): its operands are every
    /// `%value` token before the top-level ` : ` (values defined inside its own
    /// regions excepted, duplicates dropped), and its result types are the last
    /// types of the trailing type (after the last `->`, if any), one per result.
    /// MLIR's generic syntax `"dialect.op"(...) ... : (..) -> ..` is read the
    /// same way.
    pub opaque_unknown: bool,
}

/// Reads the first function of `text` with the default [`Options`].
pub fn parse_program(text: &str) -> Result<Program> {
    parse_function_with(text, None, Options::default())
}

/// Reads the first function of `text` with the given options.
pub fn parse_program_with(text: &str, options: Options) -> Result<Program> {
    parse_function_with(text, None, options)
}

/// Reads the function `@name` of `text` with the default [`Options`].
pub fn parse_function(text: &str, name: &str) -> Result<Program> {
    parse_function_with(text, Some(name), Options::default())
}

/// Reads the function `@name` (or the first one with a body, if `name` is
/// `None`) of `text`.
pub fn parse_function_with(text: &str, name: Option<&str>, options: Options) -> Result<Program> {
    let mut p = Parser {
        c: Cursor::new(text),
        opts: options,
        aliases: HashMap::new(),
        type_aliases: HashMap::new(),
        values: Vec::new(),
        scope: HashMap::new(),
        volumes: HashSet::new(),
        ops: Vec::new(),
    };
    p.top(name)
}

/// Reads one affine map written as `affine_map<...>` or just `(d0)[s0] -> (...)`,
/// with the same rules as inside programs.
pub fn parse_affine_map(text: &str) -> Result<AffineMap> {
    Ok(presburger_mlir_syntax::affine::parse_affine_map(text)?)
}

/// MLIR's spelling of a type (`tensor<4x?xf32>`, `f32`, `index`).
pub fn type_to_string(t: &Type) -> String {
    match t {
        Type::Tensor(tt) => {
            let mut s = String::from("tensor<");
            for d in &tt.dims {
                match d {
                    Some(n) => s.push_str(&n.to_string()),
                    None => s.push('?'),
                }
                s.push('x');
            }
            s.push_str(&tt.elem);
            s.push('>');
            s
        }
        Type::Scalar(e) => e.clone(),
        Type::Index => "index".to_string(),
    }
}

/// What an op parser hands back: the op's kind, operands and result types.
struct Built {
    kind: OpKind,
    operands: Vec<ValueId>,
    result_types: Vec<Type>,
}

/// A function's signature as read.
struct Signature<'a> {
    name: String,
    args: Vec<(&'a str, usize, Type)>,
    results: Vec<Type>,
}

/// The reader's state: the cursor, options, aliases and the program being
/// built (values, the SSA scope, used volume names, ops).
struct Parser<'a> {
    c: Cursor<'a>,
    opts: Options,
    aliases: Aliases,
    type_aliases: HashMap<String, Type>,
    values: Vec<Value>,
    scope: HashMap<String, ValueId>,
    volumes: HashSet<String>,
    ops: Vec<Op>,
}

/// Whether `name` is an element type the reader knows.
fn is_elem_type(name: &str) -> bool {
    let int_width = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    matches!(
        name,
        "f16" | "f32" | "f64" | "bf16" | "tf32" | "f80" | "f128" | "index"
    ) || name.starts_with("f8")
        || name.strip_prefix('i').is_some_and(int_width)
        || name.strip_prefix("si").is_some_and(int_width)
        || name.strip_prefix("ui").is_some_and(int_width)
}

impl<'a> Parser<'a> {
    /// The top level: aliases, `module` wrappers and functions, in any order;
    /// reads the selected function's body and skips the others.
    fn top(&mut self, want: Option<&str>) -> Result<Program> {
        let mut modules: Vec<usize> = Vec::new();
        let mut result: Option<Program> = None;
        loop {
            if self.c.at_eof() {
                break;
            }
            let at = self.c.pos;
            if self.c.byte() == Some(b'#') {
                self.attr_alias()?;
            } else if self.c.byte() == Some(b'!') {
                self.type_alias()?;
            } else if self.c.eat_kw("module") {
                if self.c.peek("@") {
                    self.symbol()?;
                }
                if self.c.eat_kw("attributes") {
                    attr::parse_dict(&mut self.c, &self.aliases, 0)?;
                }
                self.c.skip_ws();
                modules.push(self.c.pos);
                self.c.expect("{", "to open the module body")?;
            } else if self.c.eat("}") {
                if modules.pop().is_none() {
                    return Err(self.c.error(at, "`}` without a matching `{`"));
                }
            } else if self.c.eat_kw("func.func") || self.c.eat_kw("func") {
                let sig = self.signature()?;
                let selected = result.is_none() && want.is_none_or(|w| w == sig.name);
                let has_body = self.c.peek("{");
                if selected && has_body {
                    result = Some(self.body(sig)?);
                } else if has_body {
                    self.c.skip_balanced(b'{', b'}')?;
                } else if selected && want.is_some() {
                    return Err(self.c.error(
                        at,
                        format!(
                            "function @{} is only declared here, it has no body",
                            sig.name
                        ),
                    ));
                }
            } else {
                let found = self.c.found();
                return Err(self.c.error(
                    at,
                    format!(
                        "expected `func.func`, `module`, `#alias = ...` or `!alias = ...` at top level, found {found}"
                    ),
                ));
            }
        }
        if let Some(&open) = modules.last() {
            return Err(self.c.error(
                open,
                "the module body opened here is never closed (missing `}`)",
            ));
        }
        result.ok_or_else(|| {
            let msg = match want {
                Some(w) => format!("no function named @{w} with a body"),
                None => "no `func.func` with a body in the input".to_string(),
            };
            self.c.error(self.c.src.len(), msg)
        })
    }

    /// `#name = attribute`.
    fn attr_alias(&mut self) -> Result<()> {
        let at = self.c.pos;
        self.c.pos += 1;
        let Some((name, _)) = self.c.ident() else {
            return Err(self.c.error(at, "expected an alias name after `#`"));
        };
        self.c.expect("=", &format!("after `#{name}`"))?;
        let value = attr::parse_attr(&mut self.c, &self.aliases, 0)?;
        if self.aliases.insert(name.to_string(), value).is_some() {
            return Err(self
                .c
                .error(at, format!("attribute alias #{name} is defined twice")));
        }
        Ok(())
    }

    /// `!name = type`.
    fn type_alias(&mut self) -> Result<()> {
        let at = self.c.pos;
        self.c.pos += 1;
        let Some((name, _)) = self.c.ident() else {
            return Err(self.c.error(at, "expected a type alias name after `!`"));
        };
        self.c.expect("=", &format!("after `!{name}`"))?;
        let ty = self.ty()?;
        if self.type_aliases.insert(name.to_string(), ty).is_some() {
            return Err(self
                .c
                .error(at, format!("type alias !{name} is defined twice")));
        }
        Ok(())
    }

    /// `@name` or `@"name"`.
    fn symbol(&mut self) -> Result<String> {
        let at = self.c.pos;
        self.c.expect("@", "before a symbol name")?;
        if self.c.byte() == Some(b'"') {
            return Ok(self.c.string_lit()?);
        }
        let start = self.c.pos;
        while self
            .c
            .byte()
            .is_some_and(presburger_mlir_syntax::cursor::is_ssa_char)
        {
            self.c.pos += 1;
        }
        if self.c.pos == start {
            return Err(self.c.error(at, "expected a symbol name after `@`"));
        }
        Ok(self.c.src.get(start..self.c.pos).unwrap_or("").to_string())
    }

    /// A type: `tensor<...>`, a scalar type, `index` or `!alias`.
    fn ty(&mut self) -> Result<Type> {
        self.c.skip_ws();
        let at = self.c.pos;
        if self.c.eat("!") {
            let Some((name, _)) = self.c.ident() else {
                return Err(self.c.error(at, "expected a type alias name after `!`"));
            };
            return self.type_aliases.get(name).cloned().ok_or_else(|| {
                self.c
                    .error(at, format!("type alias !{name} is not defined"))
            });
        }
        if self.c.eat("tensor<") {
            return self.tensor_body(at);
        }
        let Some((name, _)) = self.c.ident() else {
            let found = self.c.found();
            return Err(self.c.error(at, format!("expected a type, found {found}")));
        };
        if name == "index" {
            return Ok(Type::Index);
        }
        if is_elem_type(name) {
            return Ok(Type::Scalar(name.to_string()));
        }
        Err(Error::Unsupported {
            op: format!("type {name}"),
            line: self.c.line(at),
            message: format!(
                "only tensor<...>, scalar (f32, i64, ...) and index types are modelled (column {})",
                self.c.line_col(at).1
            ),
        })
    }

    /// The inside of `tensor<...>` after `tensor<`: sizes (`4x`, `?x`) then the
    /// element type, then `>`.
    fn tensor_body(&mut self, at: usize) -> Result<Type> {
        let mut dims = Vec::new();
        loop {
            self.c.skip_ws();
            if self.c.byte() == Some(b'?') {
                self.c.pos += 1;
                dims.push(None);
            } else if self.c.byte().is_some_and(|b| b.is_ascii_digit()) {
                dims.push(Some(self.c.int()?));
            } else {
                break;
            }
            if self.c.byte() != Some(b'x') {
                let found = self.c.found();
                return Err(self.c.error(
                    self.c.pos,
                    format!("expected `x` after a tensor dimension, found {found}"),
                ));
            }
            self.c.pos += 1;
        }
        let elem_at = self.c.pos;
        let Some((elem, _)) = self.c.ident() else {
            let found = self.c.found();
            return Err(self.c.error(
                elem_at,
                format!("expected the tensor's element type, found {found}"),
            ));
        };
        if !is_elem_type(elem) {
            return Err(self
                .c
                .error(elem_at, format!("unknown element type `{elem}`")));
        }
        if self.c.peek(",") {
            return Err(Error::Unsupported {
                op: "tensor encoding".to_string(),
                line: self.c.line(at),
                message: "tensor types with an encoding are not modelled".to_string(),
            });
        }
        self.c.expect(">", "to close `tensor<`")?;
        Ok(Type::Tensor(TensorType {
            dims,
            elem: elem.to_string(),
        }))
    }

    /// A comma-separated list of types, `(t1, t2)` or `t1, t2` (at least one).
    fn type_list(&mut self) -> Result<Vec<Type>> {
        let paren = self.c.eat("(");
        let mut tys = Vec::new();
        if paren && self.c.eat(")") {
            return Ok(tys);
        }
        loop {
            tys.push(self.ty()?);
            if self.c.peek("{") && paren {
                attr::parse_dict(&mut self.c, &self.aliases, 0)?;
            }
            if self.c.eat(",") {
                continue;
            }
            break;
        }
        if paren {
            self.c.expect(")", "to close the type list")?;
        }
        Ok(tys)
    }

    /// `@name(%a: t {attrs}, ...) -> results attributes {...}` after `func.func`.
    fn signature(&mut self) -> Result<Signature<'a>> {
        for vis in ["private", "public", "nested"] {
            if self.c.eat_kw(vis) {
                break;
            }
        }
        let name = self.symbol()?;
        self.c
            .expect("(", &format!("to open the arguments of @{name}"))?;
        let mut args = Vec::new();
        if !self.c.eat(")") {
            loop {
                let Some((arg, at)) = self.c.ssa() else {
                    let found = self.c.found();
                    return Err(self.c.error(
                        self.c.pos,
                        format!("expected an argument `%name: type`, found {found}"),
                    ));
                };
                self.c.expect(":", &format!("after argument %{arg}"))?;
                let ty = self.ty()?;
                if self.c.peek("{") {
                    attr::parse_dict(&mut self.c, &self.aliases, 0)?;
                }
                self.skip_loc()?;
                args.push((arg, at, ty));
                if self.c.eat(",") {
                    continue;
                }
                self.c.expect(")", "to close the argument list")?;
                break;
            }
        }
        let results = if self.c.eat("->") {
            self.type_list()?
        } else {
            Vec::new()
        };
        if self.c.eat_kw("attributes") {
            attr::parse_dict(&mut self.c, &self.aliases, 0)?;
        }
        Ok(Signature {
            name,
            args,
            results,
        })
    }

    /// Skips a `loc(...)` trailer if one follows.
    fn skip_loc(&mut self) -> Result<()> {
        if self.c.peek_kw("loc") {
            let save = self.c.pos;
            self.c.pos += 3;
            if self.c.peek("(") {
                self.c.skip_balanced(b'(', b')')?;
            } else {
                self.c.pos = save;
            }
        }
        Ok(())
    }

    /// Defines a new SSA value (error if the name is taken) with a unique volume
    /// name: [`presburger_mlir_syntax::isl_name`] plus `_1`, `_2`, ... on a collision.
    fn define(&mut self, ssa: &str, at: usize, ty: Type, def: Def) -> Result<ValueId> {
        if let Some(&old) = self.scope.get(ssa) {
            let first = match self.values.get(old).map(|v| v.def) {
                Some(Def::Op { op, .. }) => self.ops.get(op).map(|o| o.line).unwrap_or(0),
                _ => 0,
            };
            let msg = if first > 0 {
                format!("%{ssa} is defined twice (first on line {first})")
            } else {
                format!("%{ssa} is defined twice (first as a function argument)")
            };
            return Err(self.c.error(at, msg));
        }
        let base = presburger_mlir_syntax::isl_name(ssa);
        let mut volume = base.clone();
        let mut k = 1;
        while self.volumes.contains(&volume) {
            volume = format!("{base}_{k}");
            k += 1;
        }
        self.volumes.insert(volume.clone());
        let id = self.values.len();
        self.values.push(Value {
            ssa: ssa.to_string(),
            volume,
            ty,
            def,
        });
        self.scope.insert(ssa.to_string(), id);
        Ok(id)
    }

    /// The value named `ssa` (without `%`), or an error at `at`.
    fn lookup(&self, ssa: &str, at: usize) -> Result<ValueId> {
        if let Some(&v) = self.scope.get(ssa) {
            return Ok(v);
        }
        if self.scope.contains_key(&format!("{ssa}#0")) {
            return Err(self.c.error(
                at,
                format!("%{ssa} has several results; name one as %{ssa}#0, %{ssa}#1, ..."),
            ));
        }
        Err(self.c.error(at, format!("use of undefined value %{ssa}")))
    }

    /// An SSA operand at the cursor, resolved.
    fn operand(&mut self) -> Result<(ValueId, usize)> {
        let Some((name, at)) = self.c.ssa() else {
            let found = self.c.found();
            return Err(self.c.error(
                self.c.pos,
                format!("expected an SSA value `%name`, found {found}"),
            ));
        };
        Ok((self.lookup(name, at)?, at))
    }

    /// The type of value `v`.
    fn type_of(&self, v: ValueId) -> Type {
        self.values
            .get(v)
            .map(|x| x.ty.clone())
            .unwrap_or(Type::Index)
    }

    /// Checks that value `v` (used at `at`) has type `ty`.
    fn check_type(&self, v: ValueId, ty: &Type, at: usize) -> Result<()> {
        let actual = self.type_of(v);
        if &actual != ty {
            let name = self.values.get(v).map(|x| x.ssa.as_str()).unwrap_or("?");
            return Err(self.c.error(
                at,
                format!(
                    "%{name} has type {} but is used here as {}",
                    type_to_string(&actual),
                    type_to_string(ty)
                ),
            ));
        }
        Ok(())
    }

    /// The function body: operations up to the closing `}`, ending with
    /// `func.return`.
    fn body(&mut self, sig: Signature<'a>) -> Result<Program> {
        let mut args = Vec::new();
        for (i, (name, at, ty)) in sig.args.iter().enumerate() {
            args.push(self.define(name, *at, ty.clone(), Def::Arg(i))?);
        }
        self.c.skip_ws();
        let open = self.c.pos;
        self.c.expect("{", "to open the function body")?;
        let mut returns: Option<Vec<ValueId>> = None;
        loop {
            if self.c.at_eof() {
                return Err(self.c.error(
                    open,
                    format!(
                        "the body of @{} opened here is never closed (missing `}}`)",
                        sig.name
                    ),
                ));
            }
            let at = self.c.pos;
            if self.c.eat("}") {
                if returns.is_none() {
                    return Err(self.c.error(
                        at,
                        format!("the body of @{} ends without `func.return`", sig.name),
                    ));
                }
                break;
            }
            if returns.is_some() {
                return Err(self.c.error(at, "operation after `func.return`"));
            }
            if self.c.peek_kw("func.return") || self.c.peek_kw("return") {
                returns = Some(self.ret(&sig.results)?);
            } else {
                self.statement()?;
            }
            self.skip_loc()?;
        }
        Ok(Program {
            name: sig.name,
            values: std::mem::take(&mut self.values),
            args,
            ops: std::mem::take(&mut self.ops),
            returns: returns.unwrap_or_default(),
        })
    }

    /// `func.return %a, %b : t1, t2`, checked against the signature.
    fn ret(&mut self, expected: &[Type]) -> Result<Vec<ValueId>> {
        let at = self.c.pos;
        if !self.c.eat_kw("func.return") {
            self.c.eat_kw("return");
        }
        let mut vals = Vec::new();
        if self.c.peek("%") {
            loop {
                vals.push(self.operand()?);
                if !self.c.eat(",") {
                    break;
                }
            }
            self.c.expect(":", "before the returned values' types")?;
            let tys_at = self.c.pos;
            let tys = self.type_list()?;
            if tys.len() != vals.len() {
                return Err(self.c.error(
                    tys_at,
                    format!(
                        "{} values returned but {} types given",
                        vals.len(),
                        tys.len()
                    ),
                ));
            }
            for ((v, vat), t) in vals.iter().zip(&tys) {
                self.check_type(*v, t, *vat)?;
            }
        }
        if vals.len() != expected.len() {
            return Err(self.c.error(
                at,
                format!(
                    "the function returns {} values but its signature declares {}",
                    vals.len(),
                    expected.len()
                ),
            ));
        }
        for ((v, vat), t) in vals.iter().zip(expected) {
            let actual = self.type_of(*v);
            if &actual != t {
                return Err(self.c.error(
                    *vat,
                    format!(
                        "returned value has type {} but the signature declares {}",
                        type_to_string(&actual),
                        type_to_string(t)
                    ),
                ));
            }
        }
        Ok(vals.into_iter().map(|(v, _)| v).collect())
    }

    /// One operation: result names, `=`, the op; defines the results.
    fn statement(&mut self) -> Result<()> {
        self.c.skip_ws();
        let start = self.c.pos;
        let mut names: Vec<(String, usize)> = Vec::new();
        if self.c.peek("%") {
            loop {
                let Some((name, at)) = self.c.ssa() else {
                    return Err(self.c.error(self.c.pos, "expected a result name `%name`"));
                };
                if name.contains('#') {
                    return Err(self
                        .c
                        .error(at, format!("result name %{name} cannot carry a `#` suffix")));
                }
                if self.c.byte() == Some(b':')
                    && self
                        .c
                        .byte_at(self.c.pos + 1)
                        .is_some_and(|b| b.is_ascii_digit())
                {
                    self.c.pos += 1;
                    let n_at = self.c.pos;
                    let n = self.c.int()?;
                    if !(1..=4096).contains(&n) {
                        return Err(self.c.error(n_at, format!("bad result count {n}")));
                    }
                    for k in 0..n {
                        names.push((format!("{name}#{k}"), at));
                    }
                } else {
                    names.push((name.to_string(), at));
                }
                if self.c.eat(",") {
                    continue;
                }
                self.c.expect("=", "after the result names")?;
                break;
            }
        }
        self.c.skip_ws();
        let name_at = self.c.pos;
        let (opname, generic) = if self.c.peek("\"") {
            (self.c.string_lit()?, true)
        } else if let Some((n, _)) = self.c.ident() {
            (n.to_string(), false)
        } else {
            let found = self.c.found();
            return Err(self.c.error(
                name_at,
                format!("expected an operation name, found {found}"),
            ));
        };
        let line = self.c.line(name_at);
        let built = if generic {
            self.opaque(&opname, name_at, names.len(), true)?
        } else {
            match opname.as_str() {
                "arith.constant" => self.constant()?,
                "tensor.empty" => self.empty()?,
                "tensor.pad" => self.pad(&opname, line)?,
                "tensor.extract_slice" => self.extract_slice(&opname, line)?,
                "tensor.insert_slice" => self.insert_slice(&opname, line)?,
                "linalg.generic" => self.generic(name_at)?,
                n if n.starts_with("linalg.") && linalg::is_named(n) => {
                    self.named(&opname, name_at)?
                }
                _ => self.opaque(&opname, name_at, names.len(), false)?,
            }
        };
        if built.result_types.len() != names.len() {
            return Err(self.c.error(
                start,
                format!(
                    "{opname} produces {} result(s) but {} name(s) are given",
                    built.result_types.len(),
                    names.len()
                ),
            ));
        }
        let op_index = self.ops.len();
        let mut results = Vec::new();
        for (k, ((name, at), ty)) in names.iter().zip(built.result_types).enumerate() {
            results.push(self.define(
                name,
                *at,
                ty,
                Def::Op {
                    op: op_index,
                    result: k,
                },
            )?);
        }
        self.ops.push(Op {
            name: opname,
            line,
            kind: built.kind,
            operands: built.operands,
            results,
        });
        Ok(())
    }

    /// An integer list `[1, 2]` whose entries must be static; a `%value` entry
    /// is unsupported (dynamic) and reported for `op` on `line`.
    fn static_list(&mut self, op: &str, line: usize, what: &str) -> Result<Vec<i64>> {
        self.c
            .expect("[", &format!("to open the {what} list of {op}"))?;
        let mut out = Vec::new();
        if self.c.eat("]") {
            return Ok(out);
        }
        loop {
            if self.c.peek("%") {
                return Err(Error::Unsupported {
                    op: op.to_string(),
                    line,
                    message: format!("dynamic {what} are not modelled; only integer constants"),
                });
            }
            out.push(self.c.int()?);
            if self.c.eat(",") {
                continue;
            }
            self.c
                .expect("]", &format!("to close the {what} list of {op}"))?;
            return Ok(out);
        }
    }

    /// The unknown operation `name`: [`Error::Unsupported`], or an
    /// [`OpKind::Opaque`] op under [`Options::opaque_unknown`] (see there for
    /// how its extent, operands and result types are found).
    fn opaque(
        &mut self,
        name: &str,
        name_at: usize,
        n_results: usize,
        generic: bool,
    ) -> Result<Built> {
        let line = self.c.line(name_at);
        if !self.opts.opaque_unknown {
            let message = if generic {
                "operations in MLIR's generic syntax are not modelled (print with the pretty form, or read it as an opaque all-to-all op: `poly volume --opaque-unknown`, or Options::opaque_unknown)".to_string()
            } else {
                "not modelled; to read it as an opaque all-to-all op use `poly volume --opaque-unknown` (Options::opaque_unknown in the library)"
                    .to_string()
            };
            return Err(Error::Unsupported {
                op: name.to_string(),
                line,
                message,
            });
        }
        let (end, colon) = self.opaque_extent()?;
        let operand_end = colon.unwrap_or(end);
        let scan = linalg::scan_region(&self.c, self.c.pos, operand_end);
        let mut operands = Vec::new();
        for (u, at) in &scan.uses {
            if scan.defines(u) {
                continue;
            }
            let v = self.lookup(u, *at)?;
            if !operands.contains(&v) {
                operands.push(v);
            }
        }
        let mut result_types = Vec::new();
        if let Some(colon) = colon {
            // The trailing type: after the last top-level `->`, else all of it.
            let text = self.c.src.get(colon + 1..end).unwrap_or("");
            let mut start = colon + 1;
            let mut depth = 0i64;
            let bytes = text.as_bytes();
            let mut i = 0;
            while i < bytes.len() {
                match bytes.get(i) {
                    Some(b'-') if bytes.get(i + 1) == Some(&b'>') => {
                        if depth == 0 {
                            start = colon + 1 + i + 2;
                        }
                        i += 1;
                    }
                    Some(b'(' | b'<' | b'[') => depth += 1,
                    Some(b')' | b'>' | b']') => depth -= 1,
                    _ => {}
                }
                i += 1;
            }
            self.c.pos = start;
            let tys = self.type_list()?;
            if !self.c.at_eof() && self.c.pos < end {
                return Err(self
                    .c
                    .error(self.c.pos, format!("unexpected text in the type of {name}")));
            }
            if tys.len() < n_results {
                return Err(self.c.error(
                    start,
                    format!(
                        "{name} has {n_results} result(s) but its type names only {}",
                        tys.len()
                    ),
                ));
            }
            result_types = tys[tys.len() - n_results..].to_vec();
        } else if n_results > 0 {
            return Err(self.c.error(
                name_at,
                format!("cannot tell the result type of {name}: no ` : type` on its line"),
            ));
        }
        self.c.pos = end;
        let kind = if name == "arith.constant" {
            OpKind::Constant
        } else {
            OpKind::Opaque
        };
        Ok(Built {
            kind,
            operands,
            result_types,
        })
    }

    /// The end of an opaque op starting at the cursor (the end of the line, or a
    /// `}` closing the function body, outside brackets and regions) and the first
    /// top-level `:`.
    fn opaque_extent(&mut self) -> Result<(usize, Option<usize>)> {
        let mut stack: Vec<(u8, usize)> = Vec::new();
        let mut colon = None;
        let mut i = self.c.pos;
        let src = self.c.src.as_bytes();
        while let Some(&b) = src.get(i) {
            match b {
                b'"' => {
                    let save = self.c.pos;
                    self.c.pos = i;
                    self.c.string_lit()?;
                    i = self.c.pos;
                    self.c.pos = save;
                    continue;
                }
                b'/' if src.get(i + 1) == Some(&b'/') && stack.is_empty() => break,
                b'\n' if stack.is_empty() => break,
                b'-' if src.get(i + 1) == Some(&b'>') => i += 1,
                b'(' | b'[' | b'{' | b'<' => stack.push((b, i)),
                b')' | b']' | b'}' | b'>' => {
                    let want = match b {
                        b')' => b'(',
                        b']' => b'[',
                        b'}' => b'{',
                        _ => b'<',
                    };
                    match stack.pop() {
                        Some((o, _)) if o == want => {}
                        Some((o, at)) => {
                            return Err(self.c.error(
                                at,
                                format!("`{}` is closed by `{}`", o as char, b as char),
                            ));
                        }
                        None if b == b'}' => break,
                        None => return Err(self.c.error(i, format!("unmatched `{}`", b as char))),
                    }
                }
                b':' if stack.is_empty() && colon.is_none() => colon = Some(i),
                _ => {}
            }
            i += 1;
        }
        if let Some((o, at)) = stack.last() {
            return Err(self
                .c
                .error(*at, format!("`{}` is never closed", *o as char)));
        }
        Ok((i, colon))
    }
}
