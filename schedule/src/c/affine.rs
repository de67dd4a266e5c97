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
//! comparisons by De Morgan's laws) combine them. A conditional expression
//! `c ? a : b` with an affine condition is a `min` or `max` when `c`
//! compares its branches (`i < N ? i : N`), which keeps a bound a
//! conjunction, and otherwise a [`Bound::Select`]: sums and factors apply
//! to both branches, and a comparison with it holds in the two cases
//! `(c and .. a ..) or (not c and .. b ..)`, so a loop bound splits the
//! domain by `c`. [`Bound::pieces`] turns a tree into a piecewise affine
//! function (for subscripts, whose access relation gets one piece per
//! case). Names are turned into
//! variables by a caller-supplied resolver, so the same walk serves to find
//! the parameters and to build the sets.
//!
//! The sizes are capped so that no input makes the work explode: a bound has
//! at most [`MAX_LEAVES`] affine pieces, and a condition at most
//! [`MAX_DISJUNCTS`] conjunctions once distributed into disjunctive normal form.
//!
//! C's `/` truncates towards zero and its `%` takes the sign of the
//! dividend: both are read as C means them, `floor` and `mod` where the
//! dividend is non-negative and their mirror images where it is negative
//! (a [`Bound::Select`] on its sign, see [`c_division`]); `floord` and
//! `ceild` are floor and ceiling.

use super::ast::{Expr, ExprKind, Pos};
use crate::error::{Error, Result};
use presburger::build::{Constraint, Expr as Aff};
use presburger::{Map, Set, Space};

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

/// The most nodes of the tree of one `?:` (its conditions included): a
/// condition that holds another `?:` holds its conditions twice (as they
/// are and negated), so nesting could double the size at every level.
pub const MAX_NODES: usize = 4096;

/// A `min`/`max` tree over affine expressions.
#[derive(Clone, Debug, PartialEq)]
pub enum Bound {
    /// One affine expression.
    Leaf(Aff),
    /// The least of the children.
    Min(Vec<Bound>),
    /// The greatest of the children.
    Max(Vec<Bound>),
    /// `c ? a : b` that is no `min` or `max`: `Select(c, not_c, a, b)` is
    /// `a` where `c` holds and `b` where `not_c` (its negation) holds.
    Select(Box<Cond>, Box<Cond>, Box<Bound>, Box<Bound>),
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
            Bound::Select(..) => Err(err(
                pos,
                format!("a conditional expression (?:) in {what} is not supported"),
            )),
            _ => Err(err(pos, format!("min/max in {what} is not supported"))),
        }
    }

    fn map(self, f: &mut dyn FnMut(Aff) -> Aff) -> Bound {
        match self {
            Bound::Leaf(e) => Bound::Leaf(f(e)),
            Bound::Min(v) => Bound::Min(v.into_iter().map(|b| b.map(f)).collect()),
            Bound::Max(v) => Bound::Max(v.into_iter().map(|b| b.map(f)).collect()),
            Bound::Select(c, n, a, b) => {
                Bound::Select(c, n, Box::new(a.map(f)), Box::new(b.map(f)))
            }
        }
    }

    /// Each leaf replaced by the tree `f` makes of it.
    fn map_leaves(self, f: &mut dyn FnMut(Aff) -> Bound) -> Bound {
        match self {
            Bound::Leaf(e) => f(e),
            Bound::Min(v) => Bound::Min(v.into_iter().map(|b| b.map_leaves(f)).collect()),
            Bound::Max(v) => Bound::Max(v.into_iter().map(|b| b.map_leaves(f)).collect()),
            Bound::Select(c, n, a, b) => {
                Bound::Select(c, n, Box::new(a.map_leaves(f)), Box::new(b.map_leaves(f)))
            }
        }
    }

    fn neg(self) -> Bound {
        match self {
            Bound::Leaf(e) => Bound::Leaf(-e),
            Bound::Min(v) => Bound::Max(v.into_iter().map(Bound::neg).collect()),
            Bound::Max(v) => Bound::Min(v.into_iter().map(Bound::neg).collect()),
            Bound::Select(c, n, a, b) => Bound::Select(c, n, Box::new(a.neg()), Box::new(b.neg())),
        }
    }

    fn add(self, other: Bound) -> Bound {
        match (self, other) {
            (Bound::Leaf(a), b) => b.map(&mut |x| &a + &x),
            (Bound::Min(v), b) => Bound::Min(v.into_iter().map(|x| x.add(b.clone())).collect()),
            (Bound::Max(v), b) => Bound::Max(v.into_iter().map(|x| x.add(b.clone())).collect()),
            (Bound::Select(c, n, x, y), b) => {
                Bound::Select(c, n, Box::new(x.add(b.clone())), Box::new(y.add(b)))
            }
        }
    }

    /// The number of affine pieces.
    pub fn leaves(&self) -> usize {
        match self {
            Bound::Leaf(_) => 1,
            Bound::Min(v) | Bound::Max(v) => v.iter().map(Bound::leaves).sum(),
            Bound::Select(_, _, a, b) => a.leaves() + b.leaves(),
        }
    }

    /// The affine pieces, left to right.
    pub fn leaf_list(&self) -> Vec<&Aff> {
        match self {
            Bound::Leaf(e) => vec![e],
            Bound::Min(v) | Bound::Max(v) => v.iter().flat_map(Bound::leaf_list).collect(),
            Bound::Select(_, _, a, b) => {
                let mut v = a.leaf_list();
                v.extend(b.leaf_list());
                v
            }
        }
    }

    /// The number of nodes, those of the conditions of `Select`s included
    /// (saturating).
    pub fn size(&self) -> usize {
        match self {
            Bound::Leaf(_) => 1,
            Bound::Min(v) | Bound::Max(v) => {
                v.iter().fold(1usize, |n, b| n.saturating_add(b.size()))
            }
            Bound::Select(c, n, a, b) => 1usize
                .saturating_add(c.size())
                .saturating_add(n.size())
                .saturating_add(a.size())
                .saturating_add(b.size()),
        }
    }

    /// True when the tree has a `min` or `max` node.
    fn has_min_max(&self) -> bool {
        match self {
            Bound::Leaf(_) => false,
            Bound::Min(_) | Bound::Max(_) => true,
            Bound::Select(_, _, a, b) => a.has_min_max() || b.has_min_max(),
        }
    }

    /// The value as a piecewise affine function: pairs `(c, e)` such that
    /// the value is `e` wherever `c` holds, the conditions covering every
    /// point. A `Select` gives the pieces of its branches under its
    /// condition and under the negation; `min(a, b, ...)` gives each piece
    /// `e` of a child under the condition that `e` is at most every other
    /// child (`max`: at least), so pieces overlap only where their values
    /// agree and the union of their graphs is still a function. An error
    /// at `pos` when there would be more than [`MAX_LEAVES`] pieces.
    pub fn pieces(&self, pos: Pos) -> Result<Vec<(Cond, Aff)>> {
        let out = match self {
            Bound::Leaf(e) => vec![(Cond::True, e.clone())],
            Bound::Select(c, n, a, b) => {
                let mut v: Vec<(Cond, Aff)> = a
                    .pieces(pos)?
                    .into_iter()
                    .map(|(pc, e)| (Cond::And(vec![(**c).clone(), pc]), e))
                    .collect();
                for (pc, e) in b.pieces(pos)? {
                    v.push((Cond::And(vec![(**n).clone(), pc]), e));
                }
                v
            }
            Bound::Min(v) | Bound::Max(v) => {
                let is_min = matches!(self, Bound::Min(_));
                let mut out = Vec::new();
                for (k, child) in v.iter().enumerate() {
                    for (pc, e) in child.pieces(pos)? {
                        let here = Bound::Leaf(e.clone());
                        let mut all = vec![pc];
                        for (j, other) in v.iter().enumerate() {
                            if j != k {
                                all.push(if is_min {
                                    le(&here, other)
                                } else {
                                    le(other, &here)
                                });
                            }
                        }
                        out.push((Cond::And(all), e));
                    }
                }
                out
            }
        };
        if out.len() > MAX_LEAVES {
            return Err(err(
                pos,
                format!("more than {MAX_LEAVES} pieces in one piecewise affine expression"),
            ));
        }
        Ok(out)
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
        ExprKind::Binary(first, rest) => {
            // fold the chain from the left: (a op1 b) op2 c ...
            let mut acc = bound(first, res)?;
            let mut pos = first.pos;
            for (op, rhs) in rest {
                pos = pos.to(rhs.pos);
                acc = binary(acc, op, rhs, pos, res)?;
            }
            Ok(acc)
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
                        if up { x.ceil_div(d) } else { x.floor_div(d) }
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
        ExprKind::Ternary(c, a, b) => ternary(c, a, b, res),
        ExprKind::Cast(ty, _) => Err(err(
            e.pos,
            format!("a cast to '{ty}' in an affine expression"),
        )),
        ExprKind::Unary(op, _) => Err(err(
            e.pos,
            format!("the operator '{op}' in an affine expression"),
        )),
        _ => Err(err(e.pos, "this expression is not affine")),
    }
}

/// `x op rhs` for an operator of a chain, `pos` the place of the
/// expression so far: `+` and `-` distribute over the tree, `*` needs one
/// constant factor, `/` and `%` a positive constant divisor.
fn binary(x: Bound, op: &str, rhs: &Expr, pos: Pos, res: &mut Resolver) -> Result<Bound> {
    match op {
        "+" | "-" => {
            let y = bound(rhs, res)?;
            if x.leaves().saturating_mul(y.leaves()) > MAX_LEAVES {
                return Err(err(
                    pos,
                    format!(
                        "more than {MAX_LEAVES} pieces in one expression (min/max, ?: and \
                         each C division, split by the sign of its dividend, multiply them)"
                    ),
                ));
            }
            Ok(x.add(if op == "+" { y } else { y.neg() }))
        }
        "*" => {
            let y = bound(rhs, res)?;
            let (c, other) = match (x.constant(), y.constant()) {
                (Some(c), _) => (c, y),
                (_, Some(c)) => (c, x),
                _ => {
                    return Err(err(
                        pos,
                        "non-affine product: one factor must be an integer constant",
                    ));
                }
            };
            let scaled = if c < 0 { other.neg() } else { other };
            let c = c
                .checked_abs()
                .ok_or_else(|| err(pos, "integer constant too large"))?;
            Ok(scaled.map(&mut |x| x * c))
        }
        "/" => {
            let d = positive_constant(rhs, res, "a divisor in an affine expression")?;
            // truncation is monotone: it applies to each leaf of a min/max
            Ok(x.map_leaves(&mut |a| c_division(a, d, false)))
        }
        "%" => {
            let d = positive_constant(rhs, res, "a modulus in an affine expression")?;
            if x.has_min_max() {
                // not monotone: min(a, b) % d is no min of remainders
                return Err(err(pos, "min/max in a modulo is not supported"));
            }
            // pointwise, so a ?: takes the remainder of each branch
            Ok(x.map_leaves(&mut |a| c_division(a, d, true)))
        }
        _ => Err(err(
            pos,
            format!("the operator '{op}' in an affine expression"),
        )),
    }
}

/// C's `a / d` (or `a % d` when `remainder`) for a positive constant `d`:
/// the quotient truncated towards zero, the remainder with the sign of `a`.
/// That is `floor(a / d)` and `a mod d` where `a >= 0`, and `-floor(-a / d)`
/// and `-((-a) mod d)` where `a < 0`: a [`Bound::Select`] on the sign of
/// `a`, whose case `a < 0` vanishes from the sets where `a` cannot be
/// negative. A constant is divided at once.
fn c_division(a: Aff, d: i64, remainder: bool) -> Bound {
    if let Some(c) = a.constant_value().and_then(|v| v.to_i64()) {
        // i64 division truncates as C's does; d > 0 cannot overflow it
        return Bound::Leaf(Aff::constant(if remainder { c % d } else { c / d }));
    }
    let (pos, neg) = if remainder {
        (a.modulo(d), -(-&a).modulo(d))
    } else {
        (a.floor_div(d), -(-&a).floor_div(d))
    };
    Bound::Select(
        Box::new(Cond::Atom(a.ge(0))),
        Box::new(Cond::Atom(a.le(-1))),
        Box::new(Bound::Leaf(pos)),
        Box::new(Bound::Leaf(neg)),
    )
}

/// The tree of `c ? a : b` in an affine position. When `c` compares the two
/// branches (`i < N ? i : N`, `N >= i ? N : i`, also with `<=`/`<` shifted
/// by one, `i <= N - 1 ? i : N - 1` or `i < N + 1 ? i : N`) it is a `min` or
/// a `max` (see [`min_max_form`]), which keeps a loop bound a conjunction;
/// otherwise it is a [`Bound::Select`] on the affine condition and its
/// negation, which makes the constraints on it disjunctions (a domain split
/// by the condition, an access relation with one piece per branch). A
/// condition that is not affine is an error at its place that names the
/// `?:`.
fn ternary(c: &Expr, a: &Expr, b: &Expr, res: &mut Resolver) -> Result<Bound> {
    let (x, y) = (bound(a, res)?, bound(b, res)?);
    let explain = |e: Error| {
        Error::new(
            e.line,
            e.column,
            format!(
                "the condition of a conditional expression (?:) in an affine position must be affine: {}",
                e.message
            ),
        )
    };
    let (yes, no) = match comparison(c) {
        Some((op, l, r)) => {
            let l = bound(l, res).map_err(explain)?;
            let r = bound(r, res).map_err(explain)?;
            if let (Bound::Leaf(p), Bound::Leaf(q), Bound::Leaf(l), Bound::Leaf(r)) =
                (&x, &y, &l, &r)
            {
                if let Some(m) = min_max_form(op, l, r, p, q) {
                    return Ok(m);
                }
            }
            compare_both(&l, op, &r)
        }
        None => cond_both(c, res).map_err(explain)?,
    };
    let size = yes
        .size()
        .saturating_add(no.size())
        .saturating_add(x.size())
        .saturating_add(y.size());
    if size > MAX_NODES {
        return Err(err(
            c.pos,
            format!(
                "this conditional expression (?:) is too large (more than {MAX_NODES} nodes with its nested conditions)"
            ),
        ));
    }
    if x.leaves().saturating_add(y.leaves()) > MAX_LEAVES {
        return Err(err(
            c.pos,
            format!("more than {MAX_LEAVES} pieces in one piecewise affine expression"),
        ));
    }
    Ok(Bound::Select(
        Box::new(yes),
        Box::new(no),
        Box::new(x),
        Box::new(y),
    ))
}

/// `min(p, q)` or `max(p, q)` when the condition `c` of `c ? p : q` is,
/// up to the integer shift between `<` and `<=`, `p <= q` (a `min`) or
/// `q <= p` (a `max`): `c` is `l op r` over affine `l` and `r` and reads as
/// `D >= 0` with `D = r - l` (`l <= r`), `r - l - 1` (`l < r`) and the
/// mirror images for `>=` and `>`; it is `p <= q` when `D` is `q - p` or
/// `q - p - 1` (then `p < q`, and where `p = q` both branches agree), and
/// `q <= p` when `D` is `p - q` or `p - q - 1`. `None` for anything else
/// (and for `==`, `!=`).
fn min_max_form(op: &str, l: &Aff, r: &Aff, p: &Aff, q: &Aff) -> Option<Bound> {
    let d = match op {
        "<=" => r - l,
        "<" => r - l - 1i64,
        ">=" => l - r,
        ">" => l - r - 1i64,
        _ => return None,
    };
    let off = |e: Aff| (&d - &e).constant_value().and_then(|v| v.to_i64());
    let pair = vec![Bound::Leaf(p.clone()), Bound::Leaf(q.clone())];
    if matches!(off(q - p), Some(0 | -1)) {
        Some(Bound::Min(pair))
    } else if matches!(off(p - q), Some(0 | -1)) {
        Some(Bound::Max(pair))
    } else {
        None
    }
}

/// The comparison `l op r` (one operator of [`FLIP`]) that `e` is.
fn comparison(e: &Expr) -> Option<(&'static str, &Expr, &Expr)> {
    let (op, l, r) = e.single_binary()?;
    FLIP.iter().any(|(o, _)| *o == op).then_some((op, l, r))
}

/// `l op r` and its negation.
fn compare_both(l: &Bound, op: &str, r: &Bound) -> (Cond, Cond) {
    let not = FLIP
        .iter()
        .find(|(o, _)| *o == op)
        .map(|(_, n)| *n)
        .unwrap_or(op);
    (compare(l, op, r), compare(l, not, r))
}

fn is_integer_type(ty: &str) -> bool {
    !ty.contains('*') && !ty.contains("float") && !ty.contains("double")
}

impl Cond {
    /// The number of nodes (saturating).
    pub fn size(&self) -> usize {
        match self {
            Cond::True | Cond::Atom(_) => 1,
            Cond::And(v) | Cond::Or(v) => v.iter().fold(1usize, |n, c| n.saturating_add(c.size())),
        }
    }

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

/// `l <= r` for `min`/`max` trees; a `c ? a : b` side gives the two cases
/// `(c and .. a ..) or (not c and .. b ..)`.
pub fn le(l: &Bound, r: &Bound) -> Cond {
    match (l, r) {
        (_, Bound::Select(c, n, a, b)) => Cond::Or(vec![
            Cond::And(vec![(**c).clone(), le(l, a)]),
            Cond::And(vec![(**n).clone(), le(l, b)]),
        ]),
        (Bound::Select(c, n, a, b), _) => Cond::Or(vec![
            Cond::And(vec![(**c).clone(), le(a, r)]),
            Cond::And(vec![(**n).clone(), le(b, r)]),
        ]),
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
    let (yes, no) = cond_both(e, res)?;
    Ok(if negate { no } else { yes })
}

/// The comparison operators with their negations.
const FLIP: [(&str, &str); 6] = [
    ("<", ">="),
    (">=", "<"),
    (">", "<="),
    ("<=", ">"),
    ("==", "!="),
    ("!=", "=="),
];

/// The condition of `e` and its negation (De Morgan's laws down to the
/// comparisons, whose operators flip), from one walk: every operand is
/// turned into a tree once, so that a `?:` nested in the condition of
/// another costs its size, not a walk per polarity and level.
fn cond_both(e: &Expr, res: &mut Resolver) -> Result<(Cond, Cond)> {
    if let Some((op, l, r)) = comparison(e) {
        let (l, r) = (bound(l, res)?, bound(r, res)?);
        return Ok(compare_both(&l, op, &r));
    }
    match &e.kind {
        ExprKind::Binary(first, rest) if matches!(rest[0].0, "&&" | "||") => {
            // one chain holds one operator (`&&` binds tighter than `||`)
            let (y, n) = cond_both(first, res)?;
            let (mut yes, mut no) = (vec![y], vec![n]);
            for (_, x) in rest {
                let (y, n) = cond_both(x, res)?;
                yes.push(y);
                no.push(n);
            }
            Ok(if rest[0].0 == "&&" {
                (Cond::And(yes), Cond::Or(no))
            } else {
                (Cond::Or(yes), Cond::And(no))
            })
        }
        ExprKind::Unary("!", a) => {
            let (y, n) = cond_both(a, res)?;
            Ok((n, y))
        }
        ExprKind::Binary(_, rest) if FLIP.iter().any(|(o, _)| *o == rest[0].0) => Err(err(
            e.pos,
            "a chain of comparisons such as 'a < b < c' is not supported",
        )),
        ExprKind::Int(Some(v)) => Ok(if *v != 0 {
            (Cond::True, Cond::Or(Vec::new()))
        } else {
            (Cond::Or(Vec::new()), Cond::True)
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

/// The relation of the pairs of `space` (a map space) where `c` holds, as
/// [`to_set`] for sets: the condition of a piece of an access relation, over
/// the parameters and the input dimensions.
pub fn to_map(c: &Cond, space: &Space, pos: Pos) -> Result<Map> {
    if c.disjuncts() > MAX_EXPANSION {
        return Err(too_many(pos));
    }
    build_set(c, space, pos)
}

/// What [`build_set`] needs of sets and maps alike.
trait Region: Sized {
    fn universe(space: Space) -> presburger::Result<Self>;
    fn empty(space: Space) -> presburger::Result<Self>;
    fn from_constraints(space: &Space, c: Vec<Constraint>) -> presburger::Result<Self>;
    fn intersect(&self, other: &Self) -> presburger::Result<Self>;
    fn union(&self, other: &Self) -> presburger::Result<Self>;
    fn n_basic(&self) -> usize;
}

macro_rules! region {
    ($t:ty) => {
        impl Region for $t {
            fn universe(space: Space) -> presburger::Result<Self> {
                <$t>::universe(space)
            }
            fn empty(space: Space) -> presburger::Result<Self> {
                <$t>::empty(space)
            }
            fn from_constraints(space: &Space, c: Vec<Constraint>) -> presburger::Result<Self> {
                <$t>::from_constraints(space, c)
            }
            fn intersect(&self, other: &Self) -> presburger::Result<Self> {
                <$t>::intersect(self, other)
            }
            fn union(&self, other: &Self) -> presburger::Result<Self> {
                <$t>::union(self, other)
            }
            fn n_basic(&self) -> usize {
                <$t>::n_basic(self)
            }
        }
    };
}
region!(Set);
region!(Map);

/// `Ok(s)` while `s` has at most [`MAX_DISJUNCTS`] conjunctions.
fn within_limit<R: Region>(s: R, pos: Pos) -> Result<R> {
    if s.n_basic() > MAX_DISJUNCTS {
        return Err(too_many(pos));
    }
    Ok(s)
}

/// The points of `space` where `c` holds, built bottom-up: conjunctions by
/// intersection, disjunctions by union, each step held to
/// [`MAX_DISJUNCTS`].
fn build_set<R: Region>(c: &Cond, space: &Space, pos: Pos) -> Result<R> {
    let pb = |e| Error::from_presburger(pos.line, pos.col, e);
    match c {
        Cond::True => R::universe(space.clone()).map_err(pb),
        Cond::Atom(a) => R::from_constraints(space, vec![a.clone()]).map_err(pb),
        Cond::And(v) => {
            let mut s = R::universe(space.clone()).map_err(pb)?;
            for x in v {
                s = within_limit(s.intersect(&build_set(x, space, pos)?).map_err(pb)?, pos)?;
            }
            Ok(s)
        }
        Cond::Or(v) => {
            let mut s = R::empty(space.clone()).map_err(pb)?;
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
            // C's `/` and `%` truncate towards zero
            (
                "!(i < 0 || (j - 1) / 2 > -n) ",
                "[n] -> { S[i, j] : i >= 0 and ((j >= 1 and floor((j-1)/2) <= -n) or (j <= 0 and -floor((1-j)/2) <= -n)) }",
            ),
            (
                "-(i * 3) % 4 == 1 - i",
                "[n] -> { S[i, j] : (i <= 0 and (-3i) mod 4 = 1 - i) or (i >= 1 and -((3i) mod 4) = 1 - i) }",
            ),
            (
                "i / 3 == j % 5",
                "[n] -> { S[i, j] : (i >= 0 and j >= 0 and floor(i/3) = j mod 5) or (i >= 0 and j < 0 and floor(i/3) = -((-j) mod 5)) or (i < 0 and j >= 0 and -floor(-i/3) = j mod 5) or (i < 0 and j < 0 and -floor(-i/3) = -((-j) mod 5)) }",
            ),
            ("-7 / 2 == i && -7 % 2 == j", "[n] -> { S[-3, -1] }"),
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

    #[test]
    fn conditional_bounds_are_min_max_when_they_compare_their_branches() {
        // each is a min or max: the set is one conjunction
        for (c, isl) in [
            (
                "j < (i < n ? i : n)",
                "[n] -> { S[i, j] : j < i and j < n }",
            ),
            (
                "j < (i <= n ? i : n)",
                "[n] -> { S[i, j] : j < i and j < n }",
            ),
            (
                "j < (n > i ? i : n)",
                "[n] -> { S[i, j] : j < i and j < n }",
            ),
            (
                "j <= (i < n + 1 ? i : n)",
                "[n] -> { S[i, j] : j <= i and j <= n }",
            ),
            (
                "j >= (i > n ? i : n)",
                "[n] -> { S[i, j] : j >= i and j >= n }",
            ),
            (
                "j >= (i < n ? n : i)",
                "[n] -> { S[i, j] : j >= i and j >= n }",
            ),
            (
                "j > (i - 1 >= 0 ? i - 1 : 0)",
                "[n] -> { S[i, j] : j > i - 1 and j > 0 }",
            ),
        ] {
            let want: Set = isl.parse().unwrap();
            let got = set_of(c).unwrap();
            assert!(got.is_equal(&want).unwrap(), "{c}: {got}");
            assert_eq!(got.n_basic(), 1, "{c}: {got}");
        }
    }

    #[test]
    fn other_conditional_expressions_split_by_their_condition() {
        for (c, isl) in [
            (
                "j < (i > 0 ? n : 2)",
                "[n] -> { S[i, j] : (i > 0 and j < n) or (i <= 0 and j < 2) }",
            ),
            (
                "j == (i == n - 1 ? 0 : i + 1)",
                "[n] -> { S[i, j] : (i = n - 1 and j = 0) or (i != n - 1 and j = i + 1) }",
            ),
            (
                "(i > 3 ? 5 : 0) + 2 * (j < 1 ? 1 : -1) <= n",
                "[n] -> { S[i, j] : (i > 3 and j < 1 and n >= 7) or (i > 3 and j >= 1 and n >= 3) \
                 or (i <= 3 and j < 1 and n >= 2) or (i <= 3 and j >= 1 and n >= -2) }",
            ),
            (
                "(i < 0 ? -i : i) % 2 == 0",
                "[n] -> { S[i, j] : (-i) mod 2 = 0 }",
            ),
        ] {
            let want: Set = isl.parse().unwrap();
            let got = set_of(c).unwrap();
            assert!(got.is_equal(&want).unwrap(), "{c}: {got}");
        }
        // a condition that is not affine names the ?: at its own place
        let e = set_of("j < (i * j > 0 ? i : n)").unwrap_err();
        assert_eq!(e.column, 10, "{e}");
        assert!(e.message.contains("(?:)"), "{e}");
        // min/max under a modulo is still refused
        assert!(set_of("min(i, j) % 2 == 0").is_err());
        // conditions that nest ?: double in size at each level: capped
        let mut t = "i".to_string();
        for _ in 0..40 {
            t = format!("(({t}) < n ? 1 : 2)");
        }
        let e = set_of(&format!("j < {t}")).unwrap_err();
        assert!(e.message.contains("too large"), "{e}");
    }

    #[test]
    fn pieces_of_min_max_and_select() {
        let space = Space::set(vec!["n".into()], Tuple::new(Some("S"), &["i", "j"]));
        let src = "x = min(i, n) + (j > 0 ? 1 : 0);";
        let s = parse_stmts(&lex(src).unwrap(), Pos::default()).unwrap();
        let StmtKind::Assign { rhs, .. } = &s[0].kind else {
            unreachable!()
        };
        let mut res = |name: &str, pos: Pos| match name {
            "n" => Ok(Aff::param(0)),
            "i" => Ok(Aff::dim(DimKind::SET, 0)),
            "j" => Ok(Aff::dim(DimKind::SET, 1)),
            _ => Err(err(pos, "unknown")),
        };
        let b = bound(rhs, &mut res).unwrap();
        let pieces = b.pieces(Pos::default()).unwrap();
        assert_eq!(pieces.len(), 4);
        // the pieces cover every point, and where two overlap they agree
        let mut all = Set::empty(space.clone()).unwrap();
        for (c, _) in &pieces {
            all = all
                .union(&to_set(c, &space, Pos::default()).unwrap())
                .unwrap();
        }
        assert!(
            all.is_equal(&Set::universe(space.clone()).unwrap())
                .unwrap()
        );
        // the graph of the pieces is the graph of the function
        let graph_space = Space::set(vec!["n".into()], Tuple::new(Some("S"), &["i", "j", "v"]));
        let v = Aff::dim(DimKind::SET, 2);
        let mut graph = Set::empty(graph_space.clone()).unwrap();
        for (c, e) in &pieces {
            let piece = Cond::And(vec![c.clone(), Cond::Atom(v.clone().eq(e.clone()))]);
            graph = graph
                .union(&to_set(&piece, &graph_space, Pos::default()).unwrap())
                .unwrap();
        }
        let want: Set = "[n] -> { S[i, j, v] : (i <= n and j > 0 and v = i + 1) \
             or (i <= n and j <= 0 and v = i) or (i > n and j > 0 and v = n + 1) \
             or (i > n and j <= 0 and v = n) }"
            .parse()
            .unwrap();
        assert!(graph.is_equal(&want).unwrap(), "{graph}");
    }
}
