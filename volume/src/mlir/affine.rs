//! `affine_map<(d0, d1)[s0] -> (d0 + s0, d1 floordiv 2)>` in MLIR's syntax and
//! precedence.

use super::cursor::Cursor;
use crate::error::Result;
use crate::ir::{AffineExpr, AffineMap};

/// Deepest nesting of parentheses and unary minus accepted in one expression.
pub(super) const MAX_NESTING: usize = 64;
/// Deepest expression tree accepted (a long chain `d0 + d0 + ...` is as deep as it
/// is long; deep trees would make later recursive walks overflow the stack).
pub(super) const MAX_TREE_DEPTH: usize = 256;

/// An expression with the depth of its tree.
type Expr = (AffineExpr, usize);

/// The dimension and symbol names of the map being read.
struct Names<'n> {
    dims: &'n [&'n str],
    syms: &'n [&'n str],
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
pub(super) fn parse_map_after_open(c: &mut Cursor) -> Result<AffineMap> {
    c.expect("(", "to open the affine map's dimension list")?;
    let dims = name_list(c, ")")?;
    let syms = if c.eat("[") {
        name_list(c, "]")?
    } else {
        Vec::new()
    };
    for (i, s) in syms.iter().enumerate() {
        if dims.contains(s) || syms[..i].contains(s) {
            return Err(c.error(c.pos, format!("`{s}` is declared twice in the affine map")));
        }
    }
    c.expect("->", "after the affine map's dimensions")?;
    c.expect("(", "to open the affine map's results")?;
    let names = Names {
        dims: &dims,
        syms: &syms,
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
            lhs = mul(c, at, lhs, rhs)?;
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
        let (a, b) = (Box::new(lhs.0), Box::new(AffineExpr::Const(k)));
        lhs = (
            match op {
                0 => AffineExpr::FloorDiv(a, b),
                1 => AffineExpr::CeilDiv(a, b),
                _ => AffineExpr::Mod(a, b),
            },
            d,
        );
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
