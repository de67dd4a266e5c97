//! Affine forms of C expressions: loop bounds, conditions and subscripts as
//! `presburger::build` expressions and constraints.
//!
//! An expression becomes a [`Bound`]: a tree of `min` and `max` over
//! quasi-affine expressions. Sums distribute over the tree
//! (`min(a, b) + c = min(a + c, b + c)`), a negative factor swaps `min` and
//! `max`, and `floord`, `ceild`, `/` and `%` by positive constants apply to
//! each leaf (they are monotone). A comparison between two bounds becomes a
//! [`Cond`]: `x <= min(a, b)` is `x <= a && x <= b`, `x <= max(a, b)` is
//! `x <= a || x <= b`, and so on; `&&`, `||` and `!` (pushed to the
//! comparisons by De Morgan's laws) combine them. Names are turned into
//! variables by a caller-supplied resolver, so the same walk serves to find
//! the parameters and to build the sets.
//!
//! The sizes are capped so that no input makes the work explode: a bound has
//! at most [`MAX_LEAVES`] affine pieces, and a condition at most
//! [`MAX_DISJUNCTS`] conjunctions once distributed into disjunctive normal form.
//!
//! C's `/` truncates towards zero; it is read as `floor`, which agrees when
//! the dividend is non-negative (as in loop bounds over natural ranges).

use super::ast::{Expr, ExprKind, Pos};
use crate::error::{Error, Result};
use presburger::build::{Constraint, Expr as Aff};
use presburger::{Set, Space};

/// The most affine pieces a `min`/`max` tree may have.
pub const MAX_LEAVES: usize = 64;

/// The most conjunctions the set of a condition may have while it is built.
pub const MAX_DISJUNCTS: usize = 4096;

/// The largest syntactic expansion of a condition (the product of the
/// alternatives of its conjuncts, [`Cond::disjuncts`]) that is built at all:
/// a cheap bound checked first. The expansion overestimates the set, whose
/// contradictory alternatives vanish as it is built (an iterator equal to
/// the start of a strided loop, a `max` of `min`s, expands to dozens of
/// alternatives of which a few are not empty), so the set itself is held to
/// [`MAX_DISJUNCTS`] as it is built.
pub const MAX_EXPANSION: usize = 1 << 16;

/// A `min`/`max` tree over affine expressions.
#[derive(Clone, Debug, PartialEq)]
pub enum Bound {
    /// One affine expression.
    Leaf(Aff),
    /// The least of the children.
    Min(Vec<Bound>),
    /// The greatest of the children.
    Max(Vec<Bound>),
}

/// A condition: comparisons joined by `and` and `or`.
#[derive(Clone, Debug, PartialEq)]
pub enum Cond {
    /// Always true.
    True,
    /// One constraint.
    Atom(Constraint),
    /// All of them.
    And(Vec<Cond>),
    /// Any of them.
    Or(Vec<Cond>),
}

/// Turns a name at a place into a variable, or refuses it.
pub type Resolver<'a> = dyn FnMut(&str, Pos) -> Result<Aff> + 'a;

fn err(pos: Pos, msg: impl Into<String>) -> Error {
    Error::new(pos.line, pos.col, msg)
}

impl Bound {
    /// The single affine expression, or an error naming `what` at `pos` when
    /// `min`/`max` occur.
    pub fn leaf(self, pos: Pos, what: &str) -> Result<Aff> {
        match self {
            Bound::Leaf(e) => Ok(e),
            _ => Err(err(pos, format!("min/max in {what} is not supported"))),
        }
    }

    fn map(self, f: &mut dyn FnMut(Aff) -> Aff) -> Bound {
        match self {
            Bound::Leaf(e) => Bound::Leaf(f(e)),
            Bound::Min(v) => Bound::Min(v.into_iter().map(|b| b.map(f)).collect()),
            Bound::Max(v) => Bound::Max(v.into_iter().map(|b| b.map(f)).collect()),
        }
    }

    fn neg(self) -> Bound {
        match self {
            Bound::Leaf(e) => Bound::Leaf(-e),
            Bound::Min(v) => Bound::Max(v.into_iter().map(Bound::neg).collect()),
            Bound::Max(v) => Bound::Min(v.into_iter().map(Bound::neg).collect()),
        }
    }

    fn add(self, other: Bound) -> Bound {
        match (self, other) {
            (Bound::Leaf(a), b) => b.map(&mut |x| &a + &x),
            (Bound::Min(v), b) => Bound::Min(v.into_iter().map(|x| x.add(b.clone())).collect()),
            (Bound::Max(v), b) => Bound::Max(v.into_iter().map(|x| x.add(b.clone())).collect()),
        }
    }

    /// The number of affine pieces.
    pub fn leaves(&self) -> usize {
        match self {
            Bound::Leaf(_) => 1,
            Bound::Min(v) | Bound::Max(v) => v.iter().map(Bound::leaves).sum(),
        }
    }

    /// The affine pieces, left to right.
    pub fn leaf_list(&self) -> Vec<&Aff> {
        match self {
            Bound::Leaf(e) => vec![e],
            Bound::Min(v) | Bound::Max(v) => v.iter().flat_map(Bound::leaf_list).collect(),
        }
    }

    fn constant(&self) -> Option<i64> {
        match self {
            Bound::Leaf(e) => e.constant_value().and_then(|v| v.to_i64()),
            _ => None,
        }
    }
}

/// The positive integer constant that `e` must be (a divisor or modulus).
fn positive_constant(e: &Expr, res: &mut Resolver, what: &str) -> Result<i64> {
    match bound(e, res)?.constant() {
        Some(v) if v > 0 => Ok(v),
        _ => Err(err(
            e.pos,
            format!("{what} must be a positive integer constant"),
        )),
    }
}

/// The `min`/`max` tree of an affine C expression (see the module doc).
pub fn bound(e: &Expr, res: &mut Resolver) -> Result<Bound> {
    match &e.kind {
        ExprKind::Int(Some(v)) => Ok(Bound::Leaf(Aff::constant(*v))),
        ExprKind::Int(None) => Err(err(
            e.pos,
            "an integer constant that is malformed or does not fit in 64 bits",
        )),
        ExprKind::Ident(name) => Ok(Bound::Leaf(res(name, e.pos)?)),
        ExprKind::Unary("-", x) => Ok(bound(x, res)?.neg()),
        ExprKind::Unary("+", x) => bound(x, res),
        ExprKind::Cast(ty, x) if is_integer_type(ty) => bound(x, res),
        ExprKind::Binary(op @ ("+" | "-"), a, b) => {
            let (x, y) = (bound(a, res)?, bound(b, res)?);
            if x.leaves().saturating_mul(y.leaves()) > MAX_LEAVES {
                return Err(err(
                    e.pos,
                    format!("more than {MAX_LEAVES} min/max combinations in one expression"),
                ));
            }
            Ok(x.add(if *op == "+" { y } else { y.neg() }))
        }
        ExprKind::Binary("*", a, b) => {
            let (x, y) = (bound(a, res)?, bound(b, res)?);
            let (c, other) = match (x.constant(), y.constant()) {
                (Some(c), _) => (c, y),
                (_, Some(c)) => (c, x),
                _ => {
                    return Err(err(
                        e.pos,
                        "non-affine product: one factor must be an integer constant",
                    ))
                }
            };
            let scaled = if c < 0 { other.neg() } else { other };
            let c = c
                .checked_abs()
                .ok_or_else(|| err(e.pos, "integer constant too large"))?;
            Ok(scaled.map(&mut |x| x * c))
        }
        ExprKind::Binary("/", a, d) => {
            let d = positive_constant(d, res, "a divisor in an affine expression")?;
            Ok(bound(a, res)?.map(&mut |x| x.floor_div(d)))
        }
        ExprKind::Binary("%", a, d) => {
            let d = positive_constant(d, res, "a modulus in an affine expression")?;
            let x = bound(a, res)?.leaf(e.pos, "a modulo")?;
            Ok(Bound::Leaf(x.modulo(d)))
        }
        ExprKind::Call(f, args) => {
            let name = match &f.kind {
                ExprKind::Ident(n) => n.as_str(),
                _ => "",
            };
            match (name, args.as_slice()) {
                ("floord" | "ceild", [a, d]) => {
                    let d = positive_constant(d, res, &format!("the divisor of {name}"))?;
                    let up = name == "ceild";
                    Ok(bound(a, res)?.map(&mut |x| {
                        if up {
                            x.ceil_div(d)
                        } else {
                            x.floor_div(d)
                        }
                    }))
                }
                ("min" | "max" | "MIN" | "MAX", [_, _, ..]) => {
                    let v = args
                        .iter()
                        .map(|a| bound(a, res))
                        .collect::<Result<Vec<_>>>()?;
                    Ok(if name.eq_ignore_ascii_case("min") {
                        Bound::Min(v)
                    } else {
                        Bound::Max(v)
                    })
                }
                _ => Err(err(
                    e.pos,
                    format!(
                        "the call of '{name}' is not affine (only min, max, floord and ceild are)"
                    ),
                )),
            }
        }
        ExprKind::Index(..) => Err(err(
            e.pos,
            "data-dependent value: an array element in an affine expression",
        )),
        ExprKind::OtherLiteral => Err(err(e.pos, "a non-integer literal in an affine expression")),
        ExprKind::Ternary(..) => Err(err(
            e.pos,
            "a conditional expression (?:) in an affine expression is not supported",
        )),
        ExprKind::Cast(ty, _) => Err(err(
            e.pos,
            format!("a cast to '{ty}' in an affine expression"),
        )),
        ExprKind::Unary(op, _) | ExprKind::Binary(op, ..) => Err(err(
            e.pos,
            format!("the operator '{op}' in an affine expression"),
        )),
        _ => Err(err(e.pos, "this expression is not affine")),
    }
}

fn is_integer_type(ty: &str) -> bool {
    !ty.contains('*') && !ty.contains("float") && !ty.contains("double")
}

impl Cond {
    /// The number of conjunctions of its disjunctive normal form (saturating).
    pub fn disjuncts(&self) -> usize {
        match self {
            Cond::True | Cond::Atom(_) => 1,
            Cond::And(v) => v
                .iter()
                .fold(1usize, |n, c| n.saturating_mul(c.disjuncts())),
            Cond::Or(v) => v
                .iter()
                .fold(0usize, |n, c| n.saturating_add(c.disjuncts())),
        }
    }
}

/// `l <= r` for `min`/`max` trees.
pub fn le(l: &Bound, r: &Bound) -> Cond {
    match (l, r) {
        (_, Bound::Min(v)) => Cond::And(v.iter().map(|x| le(l, x)).collect()),
        (_, Bound::Max(v)) => Cond::Or(v.iter().map(|x| le(l, x)).collect()),
        (Bound::Max(v), _) => Cond::And(v.iter().map(|x| le(x, r)).collect()),
        (Bound::Min(v), _) => Cond::Or(v.iter().map(|x| le(x, r)).collect()),
        (Bound::Leaf(a), Bound::Leaf(b)) => Cond::Atom(a.le(b)),
    }
}

fn plus(b: &Bound, c: i64) -> Bound {
    b.clone().map(&mut |x| x + c)
}

/// The comparison `l op r` (`op` one of `<`, `<=`, `>`, `>=`, `==`, `!=`).
pub fn compare(l: &Bound, op: &str, r: &Bound) -> Cond {
    match op {
        "<=" => le(l, r),
        ">=" => le(r, l),
        "<" => le(&plus(l, 1), r),
        ">" => le(&plus(r, 1), l),
        "==" => Cond::And(vec![le(l, r), le(r, l)]),
        _ => Cond::Or(vec![le(&plus(l, 1), r), le(&plus(r, 1), l)]),
    }
}

/// The condition of a C expression made of comparisons of affine
/// expressions, `&&`, `||` and `!`; `negate` asks for its negation.
pub fn cond(e: &Expr, negate: bool, res: &mut Resolver) -> Result<Cond> {
    const FLIP: [(&str, &str); 6] = [
        ("<", ">="),
        (">=", "<"),
        (">", "<="),
        ("<=", ">"),
        ("==", "!="),
        ("!=", "=="),
    ];
    match &e.kind {
        ExprKind::Binary(op @ ("&&" | "||"), a, b) => {
            let (x, y) = (cond(a, negate, res)?, cond(b, negate, res)?);
            Ok(if (*op == "&&") != negate {
                Cond::And(vec![x, y])
            } else {
                Cond::Or(vec![x, y])
            })
        }
        ExprKind::Unary("!", a) => cond(a, !negate, res),
        ExprKind::Binary(op, a, b) if FLIP.iter().any(|(o, _)| o == op) => {
            let op = if negate {
                FLIP.iter().find(|(o, _)| o == op).map(|(_, n)| *n).unwrap_or(op)
            } else {
                op
            };
            Ok(compare(&bound(a, res)?, op, &bound(b, res)?))
        }
        ExprKind::Int(Some(v)) => Ok(if (*v != 0) != negate {
            Cond::True
        } else {
            Cond::Or(Vec::new())
        }),
        _ => Err(err(
            e.pos,
            "a condition must compare affine expressions (with <, <=, >, >=, ==, != joined by &&, ||, !)",
        )),
    }
}

/// The set of the points of `space` where `c` holds (an error at `pos` when
/// it would have more than [`MAX_DISJUNCTS`] conjunctions).
pub fn to_set(c: &Cond, space: &Space, pos: Pos) -> Result<Set> {
    if c.disjuncts() > MAX_EXPANSION {
        return Err(too_many(pos));
    }
    build_set(c, space, pos)
}

/// The error of a condition whose set has too many conjunctions.
fn too_many(pos: Pos) -> Error {
    err(
        pos,
        format!("the conditions on this statement expand to more than {MAX_DISJUNCTS} cases"),
    )
}

/// `Ok(s)` while `s` has at most [`MAX_DISJUNCTS`] conjunctions.
fn within_limit(s: Set, pos: Pos) -> Result<Set> {
    if s.n_basic() > MAX_DISJUNCTS {
        return Err(too_many(pos));
    }
    Ok(s)
}

fn build_set(c: &Cond, space: &Space, pos: Pos) -> Result<Set> {
    let pb = |e| Error::from_presburger(pos.line, pos.col, e);
    match c {
        Cond::True => Set::universe(space.clone()).map_err(pb),
        Cond::Atom(a) => Set::from_constraints(space, [a.clone()]).map_err(pb),
        Cond::And(v) => {
            let mut s = Set::universe(space.clone()).map_err(pb)?;
            for x in v {
                s = within_limit(s.intersect(&build_set(x, space, pos)?).map_err(pb)?, pos)?;
            }
            Ok(s)
        }
        Cond::Or(v) => {
            let mut s = Set::empty(space.clone()).map_err(pb)?;
            for x in v {
                s = within_limit(s.union(&build_set(x, space, pos)?).map_err(pb)?, pos)?;
            }
            Ok(s)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::c::ast::StmtKind;
    use crate::c::{lexer::lex, parser::parse_stmts};
    use presburger::{DimKind, Tuple};

    /// The condition of `if (text) ;` over `[n] -> S[i, j]`.
    fn set_of(text: &str) -> Result<Set> {
        let src = format!("if ({text}) ;");
        let s = parse_stmts(&lex(&src)?, Pos::default())?;
        let StmtKind::If { cond: c, .. } = &s[0].kind else {
            unreachable!()
        };
        let space = Space::set(vec!["n".into()], Tuple::new(Some("S"), &["i", "j"]));
        let mut res = |name: &str, pos: Pos| match name {
            "n" => Ok(Aff::param(0)),
            "i" => Ok(Aff::dim(DimKind::SET, 0)),
            "j" => Ok(Aff::dim(DimKind::SET, 1)),
            _ => Err(err(pos, "unknown")),
        };
        to_set(&cond(c, false, &mut res)?, &space, Pos::default())
    }

    #[test]
    fn conditions_match_isl_text() {
        for (c, isl) in [
            (
                "i < min(n, j + 2)",
                "[n] -> { S[i, j] : i < n and i < j + 2 }",
            ),
            (
                "i >= max(0, j - 1) && !(j > 3)",
                "[n] -> { S[i, j] : i >= 0 and i >= j - 1 and j <= 3 }",
            ),
            (
                "i <= max(n, 2*j) || i == 7",
                "[n] -> { S[i, j] : i <= n or i <= 2j or i = 7 }",
            ),
            (
                "floord(i, 2) + ceild(j, 3) != n",
                "[n] -> { S[i, j] : floor(i/2) + ceil(j/3) < n or floor(i/2) + ceil(j/3) > n }",
            ),
            (
                "!(i < 0 || (j - 1) / 2 > -n) ",
                "[n] -> { S[i, j] : i >= 0 and floor((j-1)/2) <= -n }",
            ),
            (
                "-(i * 3) % 4 == 1 - i",
                "[n] -> { S[i, j] : (-3i) mod 4 = 1 - i }",
            ),
        ] {
            let want: Set = isl.parse().unwrap();
            let got = set_of(c).unwrap();
            assert!(got.is_equal(&want).unwrap(), "{c}: {got}");
        }
    }

    #[test]
    fn non_affine_is_an_error() {
        for (c, col) in [
            ("i * j < 2", 5),
            ("A[i] < n", 5),
            ("i / j > 0", 9),
            ("i < 2.0", 9),
            ("f(i) > 0", 5),
            ("i", 5),
        ] {
            let e = set_of(c).unwrap_err();
            assert_eq!(e.column, col, "{c}: {e}");
        }
    }
}
