//! Affine expressions, maps and integer sets of MLIR (`AffineExpr`,
//! `affine_map<(d0, d1)[s0] -> (d0 + s0, d1 floordiv 2)>`,
//! `affine_set<(d0)[s0] : (d0 - s0 >= 0, d0 mod 2 == 0)>`) and their reader in
//! MLIR's syntax and precedence.

use std::cell::RefCell;
use std::fmt;

use crate::cursor::Cursor;
use crate::error::Result;

/// Deepest nesting of parentheses and unary minus accepted in one expression.
pub const MAX_NESTING: usize = 64;
/// Deepest expression tree accepted (a long chain `d0 + d0 + ...` is as deep as it
/// is long; deep trees would make later recursive walks overflow the stack).
pub const MAX_TREE_DEPTH: usize = 256;

/// `affine_map<(d0, d1)[s0] -> (d0 + s0, d1 floordiv 2)>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AffineMap {
    /// The number of dimensions `d_i`.
    pub n_dims: usize,
    /// The number of symbols `s_i`.
    pub n_symbols: usize,
    /// The result expressions, in order.
    pub results: Vec<AffineExpr>,
}

/// `affine_set<(d0)[s0] : (d0 - s0 >= 0, d0 mod 2 == 0)>`: a conjunction of
/// constraints `e >= 0` or `e == 0` over dims and symbols.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IntegerSet {
    /// The number of dimensions `d_i`.
    pub n_dims: usize,
    /// The number of symbols `s_i`.
    pub n_symbols: usize,
    /// The constraints: the expression and whether it is an equality
    /// (`e == 0`; otherwise `e >= 0`).
    pub constraints: Vec<(AffineExpr, bool)>,
}

/// An affine expression over dims `d_i` and symbols `s_i` (MLIR's `AffineExpr`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AffineExpr {
    /// Dimension `d_i`.
    Dim(usize),
    /// Symbol `s_i`.
    Symbol(usize),
    /// An integer constant.
    Const(i64),
    /// A sum.
    Add(Box<AffineExpr>, Box<AffineExpr>),
    /// A product; at least one side is constant in valid affine maps.
    Mul(Box<AffineExpr>, Box<AffineExpr>),
    /// Division rounding down; right side a positive constant.
    FloorDiv(Box<AffineExpr>, Box<AffineExpr>),
    /// Division rounding up; right side a positive constant.
    CeilDiv(Box<AffineExpr>, Box<AffineExpr>),
    /// The remainder in `0 .. k`; right side a positive constant `k`.
    Mod(Box<AffineExpr>, Box<AffineExpr>),
}

impl AffineMap {
    /// The identity map on `n` dims.
    pub fn identity(n: usize) -> AffineMap {
        AffineMap {
            n_dims: n,
            n_symbols: 0,
            results: (0..n).map(AffineExpr::Dim).collect(),
        }
    }

    /// A map on `n_dims` dims that selects the given dims.
    pub fn select(n_dims: usize, dims: &[usize]) -> AffineMap {
        AffineMap {
            n_dims,
            n_symbols: 0,
            results: dims.iter().map(|&d| AffineExpr::Dim(d)).collect(),
        }
    }
}

impl AffineExpr {
    /// This expression in isl notation, with dims named by `dim(i)` and symbols by
    /// `sym(i)`, for printing (the [`fmt::Display`] of an expression, as in error
    /// messages).
    pub fn to_isl(&self, dim: &dyn Fn(usize) -> String, sym: &dyn Fn(usize) -> String) -> String {
        match self {
            AffineExpr::Dim(i) => dim(*i),
            AffineExpr::Symbol(i) => sym(*i),
            AffineExpr::Const(c) => format!("({c})"),
            AffineExpr::Add(a, b) => format!("({} + {})", a.to_isl(dim, sym), b.to_isl(dim, sym)),
            AffineExpr::Mul(a, b) => format!("({})*({})", a.to_isl(dim, sym), b.to_isl(dim, sym)),
            AffineExpr::FloorDiv(a, b) => {
                format!("floor(({})/({}))", a.to_isl(dim, sym), b.to_isl(dim, sym))
            }
            AffineExpr::CeilDiv(a, b) => {
                format!("ceil(({})/({}))", a.to_isl(dim, sym), b.to_isl(dim, sym))
            }
            AffineExpr::Mod(a, b) => {
                format!("(({}) mod ({}))", a.to_isl(dim, sym), b.to_isl(dim, sym))
            }
        }
    }

    /// Whether the expression is exactly dim `d`.
    pub fn is_dim(&self, d: usize) -> bool {
        matches!(self, AffineExpr::Dim(x) if *x == d)
    }
}

impl fmt::Display for AffineExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.to_isl(&|i| format!("d{i}"), &|i| format!("s{i}"));
        f.write_str(&s)
    }
}

/// An expression with the depth of its tree.
type Expr = (AffineExpr, usize);

/// The dimension and symbol names of the map being read.
struct Names<'n> {
    dims: &'n [&'n str],
    syms: &'n [&'n str],
    /// In the inline form of `affine.load` subscripts: the SSA operands met so
    /// far (dims `%x`, symbols `symbol(%x)`), which name new dims and symbols.
    ssa: Option<&'n RefCell<OperandExprs>>,
    /// Semi-affine forms are kept: a product of a symbol expression and
    /// another, a division by a symbol expression (see
    /// [`parse_semi_affine_map_after_open`]).
    semi: bool,
}

/// Affine expressions written over SSA values, as in the subscripts of
/// `affine.load %A[%i + 1, symbol(%n) - 1]`: the expressions use `Dim(k)` for
/// the k-th distinct SSA name used as a dimension (`%i`) and `Symbol(k)` for the
/// k-th used as a symbol (`symbol(%n)`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OperandExprs {
    /// The expressions, in order.
    pub exprs: Vec<AffineExpr>,
    /// The SSA names (without `%`) of the dimensions, with the byte offset of
    /// their first use.
    pub dims: Vec<(String, usize)>,
    /// The SSA names (without `%`) of the symbols, with the byte offset of their
    /// first use.
    pub syms: Vec<(String, usize)>,
}

/// Reads a comma-separated list of affine expressions over SSA values (see
/// [`OperandExprs`]) up to and including `close` (e.g. `]`); the list may be
/// empty. Products, divisors and nesting follow [`parse_map_after_open`].
pub fn parse_operand_exprs(c: &mut Cursor, close: &str) -> Result<OperandExprs> {
    let ops = RefCell::new(OperandExprs::default());
    let names = Names {
        dims: &[],
        syms: &[],
        ssa: Some(&ops),
        semi: false,
    };
    let mut exprs = Vec::new();
    if !c.eat(close) {
        loop {
            exprs.push(expr(c, &names, 0)?.0);
            if c.eat(",") {
                continue;
            }
            c.expect(close, "to close the list of affine subscripts")?;
            break;
        }
    }
    let mut out = ops.into_inner();
    out.exprs = exprs;
    Ok(out)
}

/// Reads the bound list of an `affine.parallel` written over SSA values up
/// to and including `close` (`0, max(%a, %b + 1))`): each entry is one
/// expression, or `kw(e, ...)` (`max` for lower bounds, `min` for upper
/// ones) of several; returns the pieces of each entry, numbered over SSA
/// names as in [`parse_operand_exprs`] (the returned `exprs` stay empty).
pub fn parse_operand_bounds(
    c: &mut Cursor,
    close: &str,
    kw: &str,
) -> Result<(Vec<Vec<AffineExpr>>, OperandExprs)> {
    let ops = RefCell::new(OperandExprs::default());
    let names = Names {
        dims: &[],
        syms: &[],
        ssa: Some(&ops),
        semi: false,
    };
    let mut entries = Vec::new();
    if !c.eat(close) {
        loop {
            let mut pieces = Vec::new();
            if c.eat_kw(kw) {
                c.expect("(", &format!("after `{kw}`"))?;
                loop {
                    pieces.push(expr(c, &names, 0)?.0);
                    if !c.eat(",") {
                        break;
                    }
                }
                c.expect(")", &format!("to close `{kw}(`"))?;
            } else {
                pieces.push(expr(c, &names, 0)?.0);
            }
            entries.push(pieces);
            if c.eat(",") {
                continue;
            }
            c.expect(close, "to close the list of bounds")?;
            break;
        }
    }
    Ok((entries, ops.into_inner()))
}

/// The position of `name` in `list`, added at the end when new.
fn operand_index(list: &mut Vec<(String, usize)>, name: &str, at: usize) -> usize {
    match list.iter().position(|(n, _)| n == name) {
        Some(i) => i,
        None => {
            list.push((name.to_string(), at));
            list.len() - 1
        }
    }
}

/// Parses an affine map after its `affine_map<` and consumes the closing `>`.
///
/// Grammar (MLIR's): `(dims)[syms]? -> (exprs)` where an expression is a sum of
/// terms joined by `+`/`-`, a term is a chain of unary expressions joined by `*`,
/// `floordiv`, `ceildiv` or `mod` (left-associative, binding tighter than `+`/`-`),
/// and a unary expression is `-` unary, an integer, a dim or symbol name, or a
/// parenthesized expression. `a - b` becomes `a + b * -1` (or `a + (-c)` for a
/// constant `c`); constant subexpressions are folded. Products need a constant
/// factor and divisors must be positive constants, else an error. Nesting deeper
/// than [`MAX_NESTING`] or trees deeper than [`MAX_TREE_DEPTH`] are refused.
pub fn parse_map_after_open(c: &mut Cursor) -> Result<AffineMap> {
    map_after_open(c, false)
}

/// Parses an affine map as [`parse_map_after_open`] does, but keeps MLIR's
/// semi-affine forms: a product one of whose factors is an expression of
/// symbols and constants only (`d0 * s0`), and a `floordiv`, `ceildiv` or
/// `mod` by such an expression (`d0 floordiv s0`). They are affine once the
/// symbols are bound to constants (as `%c2 = arith.constant 2 : index` binds
/// them), which the caller checks after substituting the operands.
pub fn parse_semi_affine_map_after_open(c: &mut Cursor) -> Result<AffineMap> {
    map_after_open(c, true)
}

fn map_after_open(c: &mut Cursor, semi: bool) -> Result<AffineMap> {
    let (dims, syms) = dims_and_symbols(c, "map")?;
    c.expect("->", "after the affine map's dimensions")?;
    c.expect("(", "to open the affine map's results")?;
    let names = Names {
        dims: &dims,
        syms: &syms,
        ssa: None,
        semi,
    };
    let mut results = Vec::new();
    if !c.eat(")") {
        loop {
            results.push(expr(c, &names, 0)?.0);
            if c.eat(",") {
                continue;
            }
            c.expect(")", "to close the affine map's results")?;
            break;
        }
    }
    c.expect(">", "to close `affine_map<`")?;
    Ok(AffineMap {
        n_dims: dims.len(),
        n_symbols: syms.len(),
        results,
    })
}

/// The dimension list `(d0, ...)` and the optional symbol list `[s0, ...]` of a
/// map or set (`what` names it in messages), all names distinct.
fn dims_and_symbols<'a>(c: &mut Cursor<'a>, what: &str) -> Result<(Vec<&'a str>, Vec<&'a str>)> {
    c.expect("(", &format!("to open the affine {what}'s dimension list"))?;
    let dims = name_list(c, ")")?;
    let syms = if c.eat("[") {
        name_list(c, "]")?
    } else {
        Vec::new()
    };
    for (i, s) in syms.iter().enumerate() {
        if dims.contains(s) || syms[..i].contains(s) {
            return Err(c.error(
                c.pos,
                format!("`{s}` is declared twice in the affine {what}"),
            ));
        }
    }
    Ok((dims, syms))
}

/// Parses an integer set after its `affine_set<` and consumes the closing `>`.
///
/// Grammar: `(dims)[syms]? : (constraints)` where a constraint is `e >= f`,
/// `e <= f` or `e == f` with affine expressions as in [`parse_map_after_open`]
/// (MLIR writes `f` as `0`; another right side is moved to the left). An empty
/// constraint list, `() : ()`, is the universe (MLIR prints it `(0 == 0)`).
pub fn parse_set_after_open(c: &mut Cursor) -> Result<IntegerSet> {
    let (dims, syms) = dims_and_symbols(c, "set")?;
    c.expect(":", "after the integer set's dimensions")?;
    c.expect("(", "to open the integer set's constraints")?;
    let names = Names {
        dims: &dims,
        syms: &syms,
        ssa: None,
        semi: false,
    };
    let mut constraints = Vec::new();
    // no constraint, `affine_set<() : ()>`, is the universe (MLIR reads it
    // as `0 == 0`)
    let mut more = !c.eat(")");
    while more {
        let lhs = expr(c, &names, 0)?;
        c.skip_ws();
        let at = c.pos;
        let (is_eq, flip) = if c.eat(">=") {
            (false, false)
        } else if c.eat("<=") {
            (false, true)
        } else if c.eat("==") {
            (true, false)
        } else {
            let found = c.found();
            return Err(c.error(
                at,
                format!(
                    "expected `>=`, `<=` or `==` in the integer set's constraint, found {found}"
                ),
            ));
        };
        let rhs = expr(c, &names, 0)?;
        let e = if !flip && rhs.0 == AffineExpr::Const(0) {
            lhs
        } else if flip {
            let l = negate(c, at, lhs)?;
            add(c, at, rhs, l)?
        } else {
            let r = negate(c, at, rhs)?;
            add(c, at, lhs, r)?
        };
        constraints.push((e.0, is_eq));
        if !c.eat(",") {
            c.expect(")", "to close the integer set's constraints")?;
            more = false;
        }
    }
    c.expect(">", "to close `affine_set<`")?;
    Ok(IntegerSet {
        n_dims: dims.len(),
        n_symbols: syms.len(),
        constraints,
    })
}

/// Reads one affine map written as `affine_map<...>` or just `(d0)[s0] -> (...)`,
/// and nothing else (whitespace and comments aside).
pub fn parse_affine_map(text: &str) -> Result<AffineMap> {
    let mut c = Cursor::new(text);
    let map = if c.eat("affine_map<") {
        parse_map_after_open(&mut c)?
    } else {
        // Parse `(..) -> (..)` by pretending the closing `>` is there.
        let owned = format!("{text}>");
        let mut c2 = Cursor::new(&owned);
        let m = parse_map_after_open(&mut c2)?;
        if !c2.at_eof() {
            return Err(c2.error(c2.pos, "unexpected text after the affine map"));
        }
        return Ok(m);
    };
    if !c.at_eof() {
        return Err(c.error(c.pos, "unexpected text after the affine map"));
    }
    Ok(map)
}

/// A comma-separated list of distinct identifiers closed by `close`.
fn name_list<'a>(c: &mut Cursor<'a>, close: &str) -> Result<Vec<&'a str>> {
    let mut names: Vec<&'a str> = Vec::new();
    if c.eat(close) {
        return Ok(names);
    }
    loop {
        let Some((n, at)) = c.ident() else {
            let found = c.found();
            return Err(c.error(
                c.pos,
                format!("expected a dimension or symbol name, found {found}"),
            ));
        };
        if names.contains(&n) {
            return Err(c.error(at, format!("`{n}` is declared twice in the affine map")));
        }
        names.push(n);
        if c.eat(",") {
            continue;
        }
        c.expect(close, "to close the affine map's name list")?;
        return Ok(names);
    }
}

/// Refuses trees deeper than [`MAX_TREE_DEPTH`].
fn deeper(c: &Cursor, at: usize, d: usize) -> Result<usize> {
    if d > MAX_TREE_DEPTH {
        Err(c.error(
            at,
            format!("affine expression is too large (tree deeper than {MAX_TREE_DEPTH})"),
        ))
    } else {
        Ok(d)
    }
}

/// `a + b`, folded when both are constants (checked for overflow).
fn add(c: &Cursor, at: usize, a: Expr, b: Expr) -> Result<Expr> {
    if let (AffineExpr::Const(x), AffineExpr::Const(y)) = (&a.0, &b.0) {
        let v = x
            .checked_add(*y)
            .ok_or_else(|| c.error(at, "constant overflows 64 bits in affine expression"))?;
        return Ok((AffineExpr::Const(v), 1));
    }
    let d = deeper(c, at, a.1.max(b.1) + 1)?;
    Ok((AffineExpr::Add(Box::new(a.0), Box::new(b.0)), d))
}

/// `a * b`: folded when both are constants; otherwise one factor must be a
/// constant (else the product is not affine).
fn mul(c: &Cursor, at: usize, a: Expr, b: Expr) -> Result<Expr> {
    mul_in(c, at, a, b, false)
}

/// Whether `e` uses no dimension (constants and symbols only).
fn symbolic(e: &AffineExpr) -> bool {
    match e {
        AffineExpr::Dim(_) => false,
        AffineExpr::Symbol(_) | AffineExpr::Const(_) => true,
        AffineExpr::Add(a, b)
        | AffineExpr::Mul(a, b)
        | AffineExpr::FloorDiv(a, b)
        | AffineExpr::CeilDiv(a, b)
        | AffineExpr::Mod(a, b) => symbolic(a) && symbolic(b),
    }
}

/// `a * b` as [`mul`]; with `semi`, a product of a symbol expression and
/// another is kept too (semi-affine).
fn mul_in(c: &Cursor, at: usize, a: Expr, b: Expr, semi: bool) -> Result<Expr> {
    match (&a.0, &b.0) {
        (AffineExpr::Const(x), AffineExpr::Const(y)) => {
            let v = x
                .checked_mul(*y)
                .ok_or_else(|| c.error(at, "constant overflows 64 bits in affine expression"))?;
            Ok((AffineExpr::Const(v), 1))
        }
        (AffineExpr::Const(_), _) | (_, AffineExpr::Const(_)) => {
            let d = deeper(c, at, a.1.max(b.1) + 1)?;
            Ok((AffineExpr::Mul(Box::new(a.0), Box::new(b.0)), d))
        }
        (x, y) if semi && (symbolic(x) || symbolic(y)) => {
            let d = deeper(c, at, a.1.max(b.1) + 1)?;
            Ok((AffineExpr::Mul(Box::new(a.0), Box::new(b.0)), d))
        }
        _ => Err(c.error(
            at,
            format!(
                "`{} * {}` is not affine: one factor must be a constant",
                a.0, b.0
            ),
        )),
    }
}

/// `-a`: a negated constant, or `a * -1`.
fn negate(c: &Cursor, at: usize, a: Expr) -> Result<Expr> {
    if let AffineExpr::Const(x) = a.0 {
        let v = x
            .checked_neg()
            .ok_or_else(|| c.error(at, "constant overflows 64 bits in affine expression"))?;
        return Ok((AffineExpr::Const(v), 1));
    }
    mul(c, at, a, (AffineExpr::Const(-1), 1))
}

/// A sum: terms joined by `+` and `-`, left-associative.
fn expr(c: &mut Cursor, n: &Names, nest: usize) -> Result<Expr> {
    let mut lhs = term(c, n, nest)?;
    loop {
        c.skip_ws();
        let at = c.pos;
        if c.peek("->") {
            return Ok(lhs);
        }
        if c.eat("+") {
            let rhs = term(c, n, nest)?;
            lhs = add(c, at, lhs, rhs)?;
        } else if c.eat("-") {
            let rhs = term(c, n, nest)?;
            let rhs = negate(c, at, rhs)?;
            lhs = add(c, at, lhs, rhs)?;
        } else {
            return Ok(lhs);
        }
    }
}

/// A term: unary expressions joined by `*`, `floordiv`, `ceildiv`, `mod`
/// (left-associative); divisors must be positive constants; constant operands
/// are folded with floor/ceil/Euclidean-remainder semantics.
fn term(c: &mut Cursor, n: &Names, nest: usize) -> Result<Expr> {
    let mut lhs = unary(c, n, nest)?;
    loop {
        c.skip_ws();
        let at = c.pos;
        if c.eat("*") {
            let rhs = unary(c, n, nest)?;
            lhs = mul_in(c, at, lhs, rhs, n.semi)?;
            continue;
        }
        let op = if c.eat_kw("floordiv") {
            0
        } else if c.eat_kw("ceildiv") {
            1
        } else if c.eat_kw("mod") {
            2
        } else {
            return Ok(lhs);
        };
        let rhs = unary(c, n, nest)?;
        if n.semi && !matches!(rhs.0, AffineExpr::Const(_)) && symbolic(&rhs.0) {
            let d = deeper(c, at, lhs.1.max(rhs.1) + 1)?;
            lhs = (division(op, lhs.0, rhs.0), d);
            continue;
        }
        let AffineExpr::Const(k) = rhs.0 else {
            return Err(c.error(
                at,
                format!("the divisor `{}` must be a positive constant", rhs.0),
            ));
        };
        if k <= 0 {
            return Err(c.error(at, format!("the divisor {k} must be a positive constant")));
        }
        if let AffineExpr::Const(x) = lhs.0 {
            let v = match op {
                0 => x.div_euclid(k),
                1 => -((-x).div_euclid(k)),
                _ => x.rem_euclid(k),
            };
            lhs = (AffineExpr::Const(v), 1);
            continue;
        }
        let d = deeper(c, at, lhs.1 + 1)?;
        lhs = (division(op, lhs.0, AffineExpr::Const(k)), d);
    }
}

/// `a floordiv b` (`op` 0), `a ceildiv b` (1) or `a mod b` (2).
fn division(op: u8, a: AffineExpr, b: AffineExpr) -> AffineExpr {
    let (a, b) = (Box::new(a), Box::new(b));
    match op {
        0 => AffineExpr::FloorDiv(a, b),
        1 => AffineExpr::CeilDiv(a, b),
        _ => AffineExpr::Mod(a, b),
    }
}

/// A unary expression: `-` unary, a parenthesized expression, an integer, or a
/// dimension or symbol name; counts nesting against [`MAX_NESTING`].
fn unary(c: &mut Cursor, n: &Names, nest: usize) -> Result<Expr> {
    c.skip_ws();
    let at = c.pos;
    if nest > MAX_NESTING {
        return Err(c.error(
            at,
            format!("affine expression nested too deeply (more than {MAX_NESTING} levels)"),
        ));
    }
    if c.byte() == Some(b'-') && !c.peek("->") {
        c.pos += 1;
        let e = unary(c, n, nest + 1)?;
        return negate(c, at, e);
    }
    if c.eat("(") {
        let e = expr(c, n, nest + 1)?;
        c.expect(")", "to close the parenthesized affine expression")?;
        return Ok(e);
    }
    if c.peek_int() {
        return Ok((AffineExpr::Const(c.int()?), 1));
    }
    if let Some(ops) = n.ssa {
        if let Some((name, at)) = c.ssa() {
            let i = operand_index(&mut ops.borrow_mut().dims, name, at);
            return Ok((AffineExpr::Dim(i), 1));
        }
        if c.eat_kw("symbol") {
            c.expect("(", "after `symbol`")?;
            let Some((name, at)) = c.ssa() else {
                let found = c.found();
                return Err(c.error(
                    c.pos,
                    format!("expected an SSA value in `symbol(...)`, found {found}"),
                ));
            };
            c.expect(")", "to close `symbol(`")?;
            let i = operand_index(&mut ops.borrow_mut().syms, name, at);
            return Ok((AffineExpr::Symbol(i), 1));
        }
    }
    if let Some((name, at)) = c.ident() {
        if let Some(i) = n.dims.iter().position(|d| *d == name) {
            return Ok((AffineExpr::Dim(i), 1));
        }
        if let Some(i) = n.syms.iter().position(|d| *d == name) {
            return Ok((AffineExpr::Symbol(i), 1));
        }
        return Err(c.error(
            at,
            format!("`{name}` is neither a dimension nor a symbol of the affine map"),
        ));
    }
    let found = c.found();
    Err(c.error(at, format!("expected an affine expression, found {found}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(text: &str) -> Result<IntegerSet> {
        let mut c = Cursor::new(text);
        assert!(c.eat("affine_set<"));
        parse_set_after_open(&mut c)
    }

    #[test]
    fn maps_read_with_mlir_precedence() {
        let m =
            parse_affine_map("affine_map<(d0, d1)[s0] -> (d0 + s0 * 2, d1 floordiv 4)>").unwrap();
        assert_eq!((m.n_dims, m.n_symbols), (2, 1));
        assert_eq!(m.results[1].to_string(), "floor((d1)/((4)))");
        assert_eq!(
            parse_affine_map("(d0) -> (d0 - 1)").unwrap().results.len(),
            1
        );
        assert_eq!(
            AffineMap::identity(2),
            parse_affine_map("(a, b) -> (a, b)").unwrap()
        );
    }

    #[test]
    fn semi_affine_forms_only_where_asked_for() {
        let semi = |t: &str| {
            let mut c = Cursor::new(t);
            parse_semi_affine_map_after_open(&mut c)
        };
        let plain = |t: &str| {
            let mut c = Cursor::new(t);
            parse_map_after_open(&mut c)
        };
        for t in [
            "(d0)[s0] -> (d0 floordiv s0)>",
            "(d0)[s0] -> (d0 * s0, s0 * (d0 + 1))>",
            "(d0)[s0, s1] -> (d0 mod (s0 + 2 * s1), d0 ceildiv s1)>",
        ] {
            assert!(semi(t).is_ok(), "{t}");
            assert!(plain(t).is_err(), "{t}");
        }
        let m = semi("(d0)[s0] -> (d0 floordiv s0)>").unwrap();
        assert_eq!(
            m.results[0],
            AffineExpr::FloorDiv(
                Box::new(AffineExpr::Dim(0)),
                Box::new(AffineExpr::Symbol(0))
            )
        );
        // a dimension is never a divisor or a factor of another dimension
        assert!(semi("(d0, d1) -> (d0 * d1)>").is_err());
        assert!(semi("(d0, d1) -> (d0 floordiv d1)>").is_err());
        assert!(semi("(d0)[s0] -> (d0 floordiv (s0 + d0))>").is_err());
    }

    #[test]
    fn an_empty_constraint_list_is_the_universe() {
        let s = set("affine_set<() : ()>").unwrap();
        assert_eq!((s.n_dims, s.n_symbols), (0, 0));
        assert!(s.constraints.is_empty());
        let s = set("affine_set<(d0) : ()>").unwrap();
        assert_eq!((s.n_dims, s.constraints.len()), (1, 0));
        assert!(set("affine_set<(d0) : (d0 >= 0,)>").is_err());
    }

    #[test]
    fn sets_move_right_sides_to_the_left() {
        let s = set("affine_set<(d0)[s0] : (d0 - s0 >= 0, d0 <= 5, d0 mod 2 == 0)>").unwrap();
        assert_eq!((s.n_dims, s.n_symbols), (1, 1));
        let shown: Vec<String> = s
            .constraints
            .iter()
            .map(|(e, q)| format!("{e} {q}"))
            .collect();
        assert_eq!(
            shown,
            [
                "(d0 + (s0)*((-1))) false",
                "((5) + (d0)*((-1))) false",
                "((d0) mod ((2))) true"
            ]
        );
    }

    #[test]
    fn subscripts_over_ssa_values() {
        let mut c = Cursor::new("%i + 1, symbol(%n) - %i * 2, 3]");
        let o = parse_operand_exprs(&mut c, "]").unwrap();
        assert_eq!(o.exprs.len(), 3);
        assert_eq!(o.dims, [("i".to_string(), 0)]);
        assert_eq!(o.syms, [("n".to_string(), 15)]);
        assert_eq!(o.exprs[1].to_string(), "(s0 + ((d0)*((2)))*((-1)))");
        let mut c = Cursor::new("]");
        assert!(parse_operand_exprs(&mut c, "]").unwrap().exprs.is_empty());
        let mut c = Cursor::new("%i * %j]");
        assert!(parse_operand_exprs(&mut c, "]").is_err());
    }

    #[test]
    fn parallel_bounds_with_min_and_max() {
        let mut c = Cursor::new("0, max(%a, %b + 1), symbol(%n) - 1) {");
        let (e, o) = parse_operand_bounds(&mut c, ")", "max").unwrap();
        assert_eq!(e.iter().map(Vec::len).collect::<Vec<_>>(), [1, 2, 1]);
        assert_eq!(o.dims.len(), 2);
        assert_eq!(o.syms.len(), 1);
        assert!(c.peek("{"));
        let mut c = Cursor::new("min(1, 2), %i)");
        assert!(parse_operand_bounds(&mut c, ")", "max").is_err());
    }

    #[test]
    fn peek_on_line_stays_on_the_line() {
        let mut c = Cursor::new("(%i)  \n[%x] = 1");
        c.pos = 4;
        assert!(!c.peek_on_line("["));
        assert_eq!(c.byte(), Some(b'\n'));
        let mut c = Cursor::new("(%i) [%n]");
        c.pos = 4;
        assert!(c.peek_on_line("["));
    }

    #[test]
    fn bad_sets_and_maps_are_placed_errors() {
        let e = set("affine_set<(d0) : (d0 > 0)>").unwrap_err();
        assert_eq!((e.line, e.column), (1, 23));
        let e = set("affine_set<(d0) : (d0 * d0 >= 0)>").unwrap_err();
        assert!(e.message.contains("not affine"), "{e}");
        let e = set("affine_set<(d0)[d0] : (d0 >= 0)>").unwrap_err();
        assert!(e.message.contains("twice"), "{e}");
        let e = parse_affine_map("(d0) -> (d1)").unwrap_err();
        assert!(e.to_string().starts_with("line 1, column 10:"), "{e}");
    }
}
