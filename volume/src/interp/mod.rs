//! A reference interpreter for the MLIR subset of tensor programs: runs a
//! `func.func` on concrete tensors, so that tests can check that a transformed
//! program (the tiled code that the volume model emits) computes bit for bit
//! what the original does, and compare both with MLIR's own execution.
//!
//! The text is read by `mlir-syntax`'s generic op-tree reader
//! ([`presburger_mlir_syntax::optree`]); each op's pretty syntax and semantics are then
//! taken from MLIR's dialect documentation
//! (<https://mlir.llvm.org/docs/Dialects/>):
//! - `func`: `func.func`, `func.return`/`return`, `func.call`/`call`;
//! - `arith` and `math` on scalars ([`scalar`]): IEEE 754 in the operand's own
//!   precision, integers wrapped to their width, `index` as 64 bits;
//! - `tensor` ([`tensor_ops`]): `empty`, `pad`, `extract_slice`,
//!   `insert_slice` (static or dynamic offsets, sizes and strides,
//!   rank-reducing), `extract`, `insert`, `dim`, `cast`, `generate`;
//! - `linalg` ([`linalg`]): `generic` and the named ops the reader lowers
//!   ([`crate::mlir`]), run as `--convert-linalg-to-loops` would: the whole
//!   iteration domain in lexicographic order of the loops, the body applied at
//!   each point, so reductions sum in the same order;
//! - `scf.for` (with `iter_args`), `scf.if`, `scf.forall` (with
//!   `tensor.parallel_insert_slice`), `affine.apply`/`min`/`max`
//!   ([`control`]).
//!
//! Entry points: [`run`] (one function on given inputs),
//! [`pseudo_random_inputs`] (deterministic inputs, values `k/64` for `k` in
//! −128..127, exact in any small sum), [`hash_values`] (an FNV-style hash of
//! the results' bit patterns) and [`compare`] (original against transformed,
//! bit for bit, on the same inputs).
//!
//! Errors name the op and its line and column; unsupported input, undefined
//! behaviour (out-of-bounds slices, division by zero) and malformed text are
//! errors, never panics. Contents of `tensor.empty` are zeros.

mod control;
pub mod harness;
pub mod inputs;
mod linalg;
pub mod scalar;
mod tensor_ops;
pub mod value;

use std::collections::HashMap;
use std::rc::Rc;

use crate::error::{Error, Result};
use crate::mlir::shared::{Aliases, Attr, parse_attr};
use presburger_mlir_syntax::Cursor;
use presburger_mlir_syntax::optree::{self, Block, Module, Op, Token};

pub use inputs::{
    compare, hash_value, hash_values, pseudo_random_inputs, pseudo_random_inputs_sized,
};
pub use value::{ElemType, Scalar, Tensor, Ty, Value};

/// Most loop iterations and body executions one run may take (a guard against
/// runaway loops).
const BUDGET: u64 = 2_000_000_000;

/// Deepest chain of `func.call`s.
const MAX_CALLS: usize = 16;

/// Runs the function `@func` of the MLIR text `text` on `inputs` (one per
/// argument, of the argument's type; a `?` size takes the input's) and returns
/// its results.
pub fn run(text: &str, func: &str, inputs: Vec<Value>) -> Result<Vec<Value>> {
    let module = optree::parse_module(text)?;
    let interp = Interp::new(text, &module)?;
    interp.call(func, inputs, 0, None)
}

/// The argument and result types of `@func` in `text`.
pub fn signature(text: &str, func: &str) -> Result<(Vec<Ty>, Vec<Ty>)> {
    let module = optree::parse_module(text)?;
    let interp = Interp::new(text, &module)?;
    let f = interp.func(func, None)?;
    let (args, results) = interp.func_signature(f)?;
    Ok((args.into_iter().map(|(_, t)| t).collect(), results))
}

/// The values bound to SSA names in a function body.
type Env = HashMap<String, Rc<Value>, std::hash::BuildHasherDefault<NameHasher>>;

/// A fast hasher for SSA names (FNV-1a over the bytes; the names come from
/// the program, and the map is only looked up, so flooding is no concern).
#[derive(Default)]
struct NameHasher(u64);

impl std::hash::Hasher for NameHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 {
            inputs::FNV_BASIS
        } else {
            self.0
        };
        for b in bytes {
            h = (h ^ u64::from(*b)).wrapping_mul(inputs::FNV_PRIME);
        }
        self.0 = h;
    }
}

/// Binds `name` to `v` in `env`, reusing the key if already bound.
fn bind(env: &mut Env, name: &str, v: Value) {
    match env.get_mut(name) {
        Some(slot) => *slot = Rc::new(v),
        None => {
            env.insert(name.to_string(), Rc::new(v));
        }
    }
}

/// The interpreter: the text, its aliases and functions, and the step budget.
struct Interp<'a> {
    cursor: Cursor<'a>,
    attr_aliases: Aliases,
    type_aliases: HashMap<String, Ty>,
    funcs: HashMap<&'a str, &'a Op>,
    budget: std::cell::Cell<u64>,
    /// The loop indices of the enclosing linalg ops (for `linalg.index`).
    linalg_indices: std::cell::RefCell<Vec<Vec<usize>>>,
    /// Aliases whose value could not be read, with why (reported where used).
    bad_aliases: HashMap<String, Error>,
    /// The shared outputs (names and values so far) of the enclosing
    /// `scf.forall` loops (for `tensor.parallel_insert_slice`).
    forall_outs: std::cell::RefCell<Vec<(Vec<String>, Vec<Tensor>)>>,
}

/// What executing an op gives: result values, or a terminator's operands.
enum Flow {
    Results(Vec<Value>),
    Yield(Vec<Rc<Value>>),
}

impl<'a> Interp<'a> {
    /// Indexes the functions and decodes the aliases of `module` (read from `src`).
    fn new(src: &'a str, module: &'a Module) -> Result<Interp<'a>> {
        let mut it = Interp {
            cursor: Cursor::new(src),
            attr_aliases: Aliases::new(),
            type_aliases: HashMap::new(),
            funcs: HashMap::new(),
            budget: std::cell::Cell::new(BUDGET),
            linalg_indices: std::cell::RefCell::new(Vec::new()),
            forall_outs: std::cell::RefCell::new(Vec::new()),
            bad_aliases: HashMap::new(),
        };
        for a in &module.aliases {
            // (Location aliases `#loc = loc(...)` have no tokens left.)
            let Some(first) = a.tokens.first() else {
                continue;
            };
            if let Some(name) = a.name.strip_prefix('!') {
                match it.ty(first) {
                    Ok(ty) => {
                        it.type_aliases.insert(name.to_string(), ty);
                    }
                    Err(m) => {
                        let e = it.fail(a.at, &a.name, m);
                        it.bad_aliases.insert(a.name.clone(), e);
                    }
                }
            } else if let Some(name) = a.name.strip_prefix('#') {
                match it.attr_at(first.at()) {
                    Ok(attr) => {
                        it.attr_aliases.insert(name.to_string(), attr);
                    }
                    Err(e) => {
                        it.bad_aliases.insert(a.name.clone(), e);
                    }
                }
            }
        }
        for op in &module.ops {
            if op.name == "func.func" || op.name == "func" {
                if let Some(Token::Symbol { name, .. }) =
                    op.tokens.iter().find(|t| matches!(t, Token::Symbol { .. }))
                {
                    it.funcs.insert(name.as_str(), op);
                }
            }
        }
        Ok(it)
    }

    /// An error at byte offset `at` in op `op`.
    fn fail(&self, at: usize, op: &str, msg: impl std::fmt::Display) -> Error {
        let (line, column) = self.cursor.line_col(at);
        Error::Invalid(format!("line {line}, column {column}: {op}: {msg}"))
    }

    /// An error for `op` at its name.
    fn op_fail(&self, op: &Op, msg: impl std::fmt::Display) -> Error {
        self.fail(op.at, &op.name, msg)
    }

    /// The attribute starting at byte offset `at`, read by the reader's
    /// attribute parser with this module's aliases.
    fn attr_at(&self, at: usize) -> Result<Attr> {
        let mut c = Cursor::new(self.cursor.src);
        c.pos = at;
        parse_attr(&mut c, &self.attr_aliases, 0).map_err(|e| {
            // An alias that could not be read reports why.
            let name: String = self
                .cursor
                .src
                .get(at..)
                .unwrap_or("")
                .chars()
                .take_while(|&ch| {
                    ch == '#' || presburger_mlir_syntax::cursor::is_ssa_char(ch as u8)
                })
                .collect();
            self.bad_aliases.get(&name).cloned().unwrap_or(e)
        })
    }

    /// The type a token spells: a scalar type, `tensor<...>`, `!alias`, or a
    /// one-type group `(t)`.
    fn ty(&self, t: &Token) -> std::result::Result<Ty, String> {
        match t {
            Token::Word { text, angle, .. } => {
                if let Some(alias) = text.strip_prefix('!') {
                    return self.type_aliases.get(alias).cloned().ok_or_else(|| {
                        match self.bad_aliases.get(text) {
                            Some(e) => e.to_string(),
                            None => format!("type alias !{alias} is not defined"),
                        }
                    });
                }
                match (text.as_str(), angle) {
                    ("tensor", Some((s, e))) => {
                        Ty::parse_tensor(self.cursor.src.get(*s..*e).unwrap_or(""))
                    }
                    (name, None) => ElemType::parse(name)
                        .map(Ty::Scalar)
                        .ok_or_else(|| format!("type `{name}` is not modelled")),
                    (name, Some(_)) => Err(format!("type `{name}<...>` is not modelled")),
                }
            }
            Token::Group {
                open: '(', items, ..
            } if items.len() == 1 => self.ty(&items[0]),
            _ => Err("expected a type".to_string()),
        }
    }

    /// The types of a type list (`t1, t2`, `t1 to t2`, `(t1, t2) -> t3`,
    /// flattened).
    fn types(&self, toks: &[Token]) -> std::result::Result<Vec<Ty>, String> {
        let mut out = Vec::new();
        for t in toks {
            match t {
                Token::Punct { .. } => {}
                Token::Word {
                    text, angle: None, ..
                } if matches!(text.as_str(), "to" | "into") => {}
                Token::Group {
                    open: '(', items, ..
                } => out.extend(self.types(items)?),
                Token::Group { open: '{', .. } => {}
                t => out.push(self.ty(t)?),
            }
        }
        Ok(out)
    }

    /// The function `@name`.
    fn func(&self, name: &str, caller: Option<&Op>) -> Result<&'a Op> {
        self.funcs.get(name).copied().ok_or_else(|| match caller {
            Some(op) => self.op_fail(op, format!("no function @{name} in the module")),
            None => Error::Invalid(format!("no function @{name} with a body in the module")),
        })
    }

    /// The arguments (names and types) and result types of a `func.func`.
    fn func_signature(&self, f: &Op) -> Result<FuncSig> {
        let mut toks = f
            .tokens
            .iter()
            .skip_while(|t| !matches!(t, Token::Symbol { .. }));
        toks.next();
        let Some(Token::Group {
            open: '(', items, ..
        }) = toks.next()
        else {
            return Err(self.op_fail(f, "expected the argument list"));
        };
        let mut args = Vec::new();
        for part in items.split(|t| t.is_punct(",")) {
            match part {
                [] => {}
                [Token::Value { name, .. }, colon, ty, ..] if colon.is_punct(":") => {
                    args.push((name.clone(), self.ty(ty).map_err(|m| self.op_fail(f, m))?));
                }
                _ => return Err(self.op_fail(f, "expected arguments `%name: type`")),
            }
        }
        let mut results = Vec::new();
        if toks.next().is_some_and(|t| t.is_punct("->")) {
            for t in toks {
                match t {
                    Token::Region { .. } => break,
                    Token::Word { text, .. } if text == "attributes" => break,
                    Token::Group {
                        open: '(', items, ..
                    } => results.extend(self.types(items).map_err(|m| self.op_fail(f, m))?),
                    Token::Group { .. } | Token::Punct { .. } => {}
                    t => results.push(self.ty(t).map_err(|m| self.op_fail(f, m))?),
                }
            }
        }
        Ok((args, results))
    }

    /// Calls `@name` with `inputs`, checking them and the results against
    /// the signature.
    fn call(
        &self,
        name: &str,
        inputs: Vec<Value>,
        depth: usize,
        caller: Option<&Op>,
    ) -> Result<Vec<Value>> {
        let f = self.func(name, caller)?;
        if depth > MAX_CALLS {
            return Err(self.op_fail(f, format!("calls nested more than {MAX_CALLS} deep")));
        }
        let (args, results) = self.func_signature(f)?;
        if args.len() != inputs.len() {
            return Err(self.op_fail(
                f,
                format!(
                    "@{name} takes {} arguments but {} were given",
                    args.len(),
                    inputs.len()
                ),
            ));
        }
        let mut env = Env::default();
        for (k, ((arg, ty), v)) in args.iter().zip(inputs).enumerate() {
            if !ty.admits(&v) {
                return Err(self.op_fail(
                    f,
                    format!("argument {k} (%{arg}: {ty}) given {}", describe(&v)),
                ));
            }
            env.insert(arg.clone(), Rc::new(v));
        }
        let Some(body) = f.entry_block() else {
            return Err(self.op_fail(f, format!("@{name} has no body")));
        };
        let out = self.block(&mut env, body, depth)?;
        if out.len() != results.len() {
            return Err(self.op_fail(
                f,
                format!(
                    "@{name} returned {} values but declares {}",
                    out.len(),
                    results.len()
                ),
            ));
        }
        let mut values = Vec::new();
        for (k, (v, ty)) in out.into_iter().zip(&results).enumerate() {
            let v = Rc::try_unwrap(v).unwrap_or_else(|rc| (*rc).clone());
            if !ty.admits(&v) {
                return Err(self.op_fail(
                    f,
                    format!("result {k} should be {ty} but is {}", describe(&v)),
                ));
            }
            values.push(v);
        }
        Ok(values)
    }

    /// Runs a block's ops in `env` up to its terminator and returns the
    /// terminator's operands (none if the block has no terminator).
    fn block(&self, env: &mut Env, block: &Block, depth: usize) -> Result<Vec<Rc<Value>>> {
        for op in &block.ops {
            match self.exec(env, op, depth)? {
                Flow::Yield(v) => return Ok(v),
                Flow::Results(vals) => {
                    if vals.len() != op.results.len() {
                        return Err(self.op_fail(
                            op,
                            format!(
                                "gives {} results but {} names are bound",
                                vals.len(),
                                op.results.len()
                            ),
                        ));
                    }
                    for (n, v) in op.results.iter().zip(vals) {
                        bind(env, n, v);
                    }
                }
            }
        }
        Ok(Vec::new())
    }

    /// Takes one step from the budget.
    fn tick(&self, op: &Op, n: u64) -> Result<()> {
        let left = self.budget.get();
        if left < n {
            return Err(self.op_fail(op, "the run takes too many steps (budget exhausted)"));
        }
        self.budget.set(left - n);
        Ok(())
    }

    /// The value of `%name` used by `op`.
    fn get(&self, env: &Env, op: &Op, name: &str) -> Result<Rc<Value>> {
        env.get(name)
            .cloned()
            .or_else(|| env.get(&format!("{name}#0")).cloned())
            .ok_or_else(|| self.op_fail(op, format!("%{name} is not defined")))
    }

    /// The scalar value of `%name`.
    fn scalar(&self, env: &Env, op: &Op, name: &str) -> Result<Scalar> {
        self.get(env, op, name)?.scalar().ok_or_else(|| {
            self.op_fail(
                op,
                format!("%{name} is a tensor where a scalar is expected"),
            )
        })
    }

    /// The `index` (or integer) value of `%name`.
    fn int(&self, env: &Env, op: &Op, name: &str) -> Result<i64> {
        self.scalar(env, op, name)?
            .as_int()
            .ok_or_else(|| self.op_fail(op, format!("%{name} is not an integer or index")))
    }

    /// The top-level operand names of `op` before its first top-level `:`.
    fn operand_names<'t>(&self, op: &'t Op) -> Vec<&'t str> {
        op.tokens
            .iter()
            .take_while(|t| !t.is_punct(":"))
            .filter_map(|t| match t {
                Token::Value { name, .. } => Some(name.as_str()),
                _ => None,
            })
            .collect()
    }

    /// The types after `op`'s first top-level `:`.
    fn trailing_types(&self, op: &Op) -> Result<Vec<Ty>> {
        let Some(colon) = op.tokens.iter().position(|t| t.is_punct(":")) else {
            return Ok(Vec::new());
        };
        let rest = op.tokens.get(colon + 1..).unwrap_or(&[]);
        let end = rest
            .iter()
            .position(|t| matches!(t, Token::Region { .. }))
            .unwrap_or(rest.len());
        self.types(rest.get(..end).unwrap_or(&[]))
            .map_err(|m| self.op_fail(op, m))
    }

    /// Executes one op.
    fn exec(&self, env: &mut Env, op: &Op, depth: usize) -> Result<Flow> {
        let name = op.name.as_str();
        if matches!(
            name,
            "func.return"
                | "return"
                | "scf.yield"
                | "linalg.yield"
                | "tensor.yield"
                | "affine.yield"
        ) {
            let vals = self
                .operand_names(op)
                .into_iter()
                .map(|n| self.get(env, op, n))
                .collect::<Result<Vec<_>>>()?;
            return Ok(Flow::Yield(vals));
        }
        if name == "scf.forall.in_parallel" {
            // The terminator of scf.forall: its parallel_insert_slice ops
            // write into the loop's shared outputs.
            if let Some(block) = op.entry_block() {
                for inner in &block.ops {
                    self.exec(env, inner, depth)?;
                }
            }
            return Ok(Flow::Yield(Vec::new()));
        }
        let (dialect, short) = name.split_once('.').unwrap_or(("", name));
        let results = match dialect {
            "arith" | "math" => vec![self.arith(env, op, short)?],
            "tensor" => self.tensor_op(env, op, short, depth)?,
            "linalg" => self.linalg_op(env, op, short, depth)?,
            "scf" | "affine" | "func" | "" => self.control(env, op, depth)?,
            _ => return Err(self.unsupported(op)),
        };
        Ok(Flow::Results(results))
    }

    /// The error for an op the interpreter does not implement.
    fn unsupported(&self, op: &Op) -> Error {
        let (line, column) = self.cursor.line_col(op.at);
        Error::Unsupported {
            op: op.name.clone(),
            line,
            message: format!("(column {column}) not implemented by the interpreter"),
        }
    }

    /// `arith.*` and `math.*` ops on scalars.
    fn arith(&self, env: &Env, op: &Op, short: &str) -> Result<Value> {
        if short == "constant" {
            return self.constant(op);
        }
        let names = self.operand_names(op);
        let args = names
            .iter()
            .map(|n| self.get(env, op, n))
            .collect::<Result<Vec<_>>>()?;
        let fail = |m: String| self.op_fail(op, m);
        if short == "select" {
            let [c, a, b] = args.as_slice() else {
                return Err(fail("expected `%cond, %a, %b`".to_string()));
            };
            let c = c.scalar().and_then(Scalar::as_int).ok_or_else(|| {
                fail(
                    "the condition must be an i1 scalar (tensor conditions are not implemented)"
                        .to_string(),
                )
            })?;
            return Ok(if c != 0 { (**a).clone() } else { (**b).clone() });
        }
        let scalars = args
            .iter()
            .zip(&names)
            .map(|(v, n)| {
                v.scalar().ok_or_else(|| {
                    fail(format!(
                        "%{n} is a tensor; arith and math on tensors are not implemented"
                    ))
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let result = match (short, scalars.as_slice()) {
            ("cmpf" | "cmpi", [a, b]) => {
                let pred = match op.tokens.first() {
                    Some(Token::Word { text, .. }) | Some(Token::Str { text, .. }) => text.as_str(),
                    _ => return Err(fail("expected a predicate".to_string())),
                };
                let r = if short == "cmpf" {
                    scalar::cmpf(pred, *a, *b)
                } else {
                    scalar::cmpi(pred, *a, *b)
                };
                Scalar::bool(r.map_err(fail)?)
            }
            (
                "index_cast" | "index_castui" | "sitofp" | "uitofp" | "fptosi" | "fptoui" | "extf"
                | "truncf" | "extsi" | "extui" | "trunci" | "bitcast",
                [a],
            ) => {
                let to = self.trailing_types(op)?;
                let Some(to) = to.last() else {
                    return Err(fail("expected `: from to to`".to_string()));
                };
                scalar::cast(short, *a, to.elem()).map_err(fail)?
            }
            ("fma", [a, b, c]) => match (a, b, c) {
                (Scalar::F32(x), Scalar::F32(y), Scalar::F32(z)) => Scalar::F32(x.mul_add(*y, *z)),
                (Scalar::F64(x), Scalar::F64(y), Scalar::F64(z)) => Scalar::F64(x.mul_add(*y, *z)),
                _ => return Err(fail("math.fma needs three floats of one type".to_string())),
            },
            (_, [a]) => scalar::unary(short, *a).map_err(fail)?,
            (_, [a, b]) => scalar::binary(short, *a, *b).map_err(fail)?,
            _ => return Err(self.unsupported(op)),
        };
        Ok(Value::Scalar(result))
    }

    /// `arith.constant {attrs}? value : type`: a scalar, or a `dense<...>`
    /// tensor (a splat or all elements, nested brackets flattened row-major).
    fn constant(&self, op: &Op) -> Result<Value> {
        let fail = |m: String| self.op_fail(op, m);
        let mut toks = op
            .tokens
            .iter()
            .filter(|t| !matches!(t, Token::Group { open: '{', .. }));
        let value = toks
            .next()
            .ok_or_else(|| fail("expected a value".to_string()))?;
        let ty = match (toks.next(), toks.next()) {
            (Some(c), Some(t)) if c.is_punct(":") => self.ty(t).map_err(fail)?,
            (None, _) if value.is_word("true") || value.is_word("false") => {
                Ty::Scalar(ElemType::Int(1))
            }
            _ => return Err(fail("expected `value : type`".to_string())),
        };
        match (value, &ty) {
            (
                Token::Word {
                    text,
                    angle: Some((s, e)),
                    ..
                },
                Ty::Tensor(dims, elem),
            ) if text == "dense" => {
                let shape: Vec<usize> = dims
                    .iter()
                    .map(|d| {
                        d.ok_or_else(|| fail("a dense constant needs a static shape".to_string()))
                    })
                    .collect::<Result<_>>()?;
                let inner = self.cursor.src.get(*s..*e).unwrap_or("");
                let elems = inner
                    .split([',', '[', ']'])
                    .map(str::trim)
                    .filter(|x| !x.is_empty())
                    .map(|x| parse_scalar(x, *elem))
                    .collect::<std::result::Result<Vec<_>, _>>()
                    .map_err(fail)?;
                let n = value::element_count(&shape)
                    .ok_or_else(|| fail("the tensor is too large".to_string()))?;
                let data = match elems.as_slice() {
                    [one] => vec![*one; n],
                    _ if elems.len() == n => elems,
                    _ => {
                        return Err(fail(format!(
                            "dense<...> has {} elements but {ty} needs {n}",
                            elems.len()
                        )));
                    }
                };
                Ok(Value::Tensor(Tensor {
                    elem: *elem,
                    shape,
                    data,
                }))
            }
            (
                Token::Number { text, .. }
                | Token::Word {
                    text, angle: None, ..
                },
                Ty::Scalar(e),
            ) => Ok(Value::Scalar(parse_scalar(text, *e).map_err(fail)?)),
            _ => Err(fail(format!("unsupported constant of type {ty}"))),
        }
    }
}

/// A function's arguments (names and types) and result types.
type FuncSig = (Vec<(String, Ty)>, Vec<Ty>);

/// A short description of a value's type, for messages.
fn describe(v: &Value) -> String {
    match v {
        Value::Scalar(s) => s.ty().to_string(),
        Value::Tensor(t) => {
            Ty::Tensor(t.shape.iter().map(|&d| Some(d)).collect(), t.elem).to_string()
        }
    }
}

/// A literal of type `t`: a decimal or `0x` hexadecimal number (for floats,
/// hexadecimal gives the IEEE bits), or `true`/`false`. Decimal floats are
/// rounded once, to `t`'s precision, as MLIR's parser does.
fn parse_scalar(text: &str, t: ElemType) -> std::result::Result<Scalar, String> {
    let bad = || format!("`{text}` is not a literal of type {t}");
    if text == "true" || text == "false" {
        return match t {
            ElemType::Int(_) | ElemType::Index => Ok(Scalar::int(i64::from(text == "true"), t)),
            _ => Err(bad()),
        };
    }
    let (neg, digits) = match text.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, text),
    };
    let hex = digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
        .map(|h| u64::from_str_radix(h, 16).map_err(|_| bad()));
    match (t, hex) {
        (ElemType::F32, Some(bits)) if !neg => Ok(Scalar::F32(f32::from_bits(
            u32::try_from(bits?).map_err(|_| bad())?,
        ))),
        (ElemType::F64, Some(bits)) if !neg => Ok(Scalar::F64(f64::from_bits(bits?))),
        (ElemType::F32, None) => text.parse::<f32>().map(Scalar::F32).map_err(|_| bad()),
        (ElemType::F64, None) => text.parse::<f64>().map(Scalar::F64).map_err(|_| bad()),
        (ElemType::Int(_) | ElemType::Index, Some(bits)) => {
            let v = bits? as i64;
            Ok(Scalar::int(if neg { v.wrapping_neg() } else { v }, t))
        }
        (ElemType::Int(_) | ElemType::Index, None) => text
            .parse::<i64>()
            .or_else(|_| text.parse::<u64>().map(|u| u as i64))
            .map(|v| Scalar::int(v, t))
            .map_err(|_| bad()),
        _ => Err(bad()),
    }
}
