//! Typed construction of sets and maps: affine expressions over the variables
//! of a space, written with operators and compared into constraints, instead
//! of isl text to be parsed.
//!
//! An [`Expr`] is a quasi-affine expression: an integer constant plus integer
//! multiples of parameters, dimensions, existential variables and floor
//! divisions of other expressions by positive constants. Comparing two
//! expressions gives a [`Constraint`]; [`crate::Set::from_constraints`] (and the
//! same on `BasicSet`, `Map`, `BasicMap`) makes the conjunction of a list of
//! them in a space.
//!
//! ```
//! use presburger::build::var;
//! use presburger::{Set, Space, Tuple};
//!
//! // [n] -> { S[i, j] : 0 <= i < n and 0 <= j and i + 2j <= 10 }
//! let space = Space::set(vec!["n".into()], Tuple::new(Some("S"), &["i", "j"]));
//! let (i, j, n) = (var(&space, "i")?, var(&space, "j")?, var(&space, "n")?);
//! let s = Set::from_constraints(
//!     &space,
//!     [i.ge(0), i.lt(&n), j.ge(0), (&i + 2 * &j).le(10)],
//! )?;
//! let text: Set = "[n] -> { S[i, j] : 0 <= i < n and 0 <= j and i + 2j <= 10 }".parse()?;
//! assert!(s.is_equal(&text)?);
//! # Ok::<(), presburger::Error>(())
//! ```
//!
//! Floor divisions become local variables with their division definition (as
//! `floor(e/d)` in isl notation), one per distinct division; [`Expr::exists`]
//! names plain existentially quantified variables (`exists e0, e1 : ...`).
//! Variables outside the space and non-positive divisors are errors when the
//! constraints are turned into a set, never panics.

use crate::conjunction::{Conjunction, Div, Row};
use crate::error::{Error, Result};
use crate::int::Int;
use crate::space::{DimKind, Space};
use std::ops::{Add, Mul, Neg, Sub};

/// A variable or a division that an expression has a coefficient on.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Atom {
    /// A parameter, input or output (set) dimension of the space.
    Var(DimKind, usize),
    /// Existential variable `k` of the conjunction (see [`Expr::exists`]).
    Exists(usize),
    /// `floor(e / d)`.
    Floor(Box<Expr>, Int),
}

/// A quasi-affine expression over the variables of a space (see the module
/// doc).
///
/// Invariant: the atoms of `terms` are distinct and no coefficient is zero
/// (checked by [`Expr::check_invariants`]).
///
/// ```
/// use presburger::build::Expr;
/// use presburger::DimKind;
/// let (x, y) = (Expr::dim(DimKind::SET, 0), Expr::dim(DimKind::SET, 1));
/// let e = x.clone() + 2 * y - 3;
/// assert_eq!(e, 2 * Expr::dim(DimKind::SET, 1) + x - 3);
/// ```
#[derive(Clone, Debug)]
pub struct Expr {
    constant: Int,
    terms: Vec<(Atom, Int)>,
}

/// Equal as expressions: the same constant and coefficients, in any order of
/// the terms (divisions compare by their expression and divisor).
impl PartialEq for Expr {
    fn eq(&self, other: &Expr) -> bool {
        self.constant == other.constant
            && self.terms.len() == other.terms.len()
            && self
                .terms
                .iter()
                .all(|t| other.terms.iter().any(|u| u == t))
    }
}

impl Eq for Expr {}

impl Expr {
    /// The constant `value`.
    pub fn constant(value: impl Into<Int>) -> Expr {
        Expr {
            constant: value.into(),
            terms: Vec::new(),
        }
    }

    /// Variable `pos` of `kind` (`DimKind::Param`, `In`, `Out`, or
    /// `DimKind::SET` for a set's dimensions); `DimKind::Local` is the same
    /// as [`Expr::exists`].
    pub fn dim(kind: DimKind, pos: usize) -> Expr {
        let atom = match kind {
            DimKind::Local => Atom::Exists(pos),
            _ => Atom::Var(kind, pos),
        };
        Expr::atom(atom)
    }

    /// Parameter `pos`.
    pub fn param(pos: usize) -> Expr {
        Expr::dim(DimKind::Param, pos)
    }

    /// Existentially quantified variable `k` (from 0) of the conjunction the
    /// constraints make: `exists e0, e1, ... : ...` with as many as the
    /// largest `k` used needs.
    pub fn exists(k: usize) -> Expr {
        Expr::atom(Atom::Exists(k))
    }

    fn atom(atom: Atom) -> Expr {
        Expr {
            constant: Int::ZERO,
            terms: vec![(atom, Int::ONE)],
        }
    }

    /// `floor(self / d)`; `d` must be positive (checked when the constraints
    /// are turned into a set). A constant is divided at once.
    pub fn floor_div(&self, d: i64) -> Expr {
        match self.constant_value() {
            Some(v) if d > 0 => Expr::constant(v.floor_div(&Int::from(d))),
            _ => Expr::atom(Atom::Floor(Box::new(self.clone()), Int::from(d))),
        }
    }

    /// `ceil(self / d)`, as `-floor(-self / d)`.
    pub fn ceil_div(&self, d: i64) -> Expr {
        -(-self).floor_div(d)
    }

    /// `self mod m` (between 0 and `m - 1`), as `self - m·floor(self / m)`;
    /// `m` must be positive, as the divisor of [`Expr::floor_div`] (checked
    /// when the constraints are turned into a set: a modulus of 0 or less is
    /// an error there, as in the parser). A modulus of 0 is kept as the
    /// division `floor(self / 0)` so that the error is not lost to the zero
    /// coefficient `0·floor(self / 0)`.
    pub fn modulo(&self, m: i64) -> Expr {
        if m == 0 {
            return Expr::atom(Atom::Floor(Box::new(self.clone()), Int::ZERO));
        }
        self - &(m * self.floor_div(m))
    }

    /// True when the expression is a constant (no variable with a non-zero
    /// coefficient).
    pub fn is_constant(&self) -> bool {
        self.terms.is_empty()
    }

    /// The value of a constant expression, `None` when a variable occurs.
    pub fn constant_value(&self) -> Option<&Int> {
        self.is_constant().then_some(&self.constant)
    }

    /// Checks the invariant stated on the type (distinct atoms, no zero
    /// coefficient), also inside divisions.
    pub fn check_invariants(&self) {
        for (k, (a, c)) in self.terms.iter().enumerate() {
            assert!(!c.is_zero(), "a zero coefficient is kept");
            assert!(
                self.terms[k + 1..].iter().all(|(b, _)| b != a),
                "an atom occurs twice"
            );
            if let Atom::Floor(e, _) = a {
                e.check_invariants();
            }
        }
    }

    /// Adds `c·atom`.
    fn add_term(&mut self, atom: &Atom, c: &Int) {
        match self.terms.iter().position(|(a, _)| a == atom) {
            Some(k) => {
                self.terms[k].1 += c;
                if self.terms[k].1.is_zero() {
                    self.terms.remove(k);
                }
            }
            None if c.is_zero() => {}
            None => self.terms.push((atom.clone(), c.clone())),
        }
    }

    fn add_scaled(&mut self, other: &Expr, factor: &Int) {
        self.constant += &(&other.constant * factor);
        for (a, c) in &other.terms {
            self.add_term(a, &(c * factor));
        }
    }

    /// `factor·self`, for a factor of any size (`*` takes an `i64`).
    pub fn scale(&self, factor: &Int) -> Expr {
        let mut out = Expr::constant(0);
        out.add_scaled(self, factor);
        out
    }

    /// `self >= rhs`.
    pub fn ge(&self, rhs: impl Into<Expr>) -> Constraint {
        Constraint::nonneg(self - &rhs.into())
    }

    /// `self <= rhs`.
    pub fn le(&self, rhs: impl Into<Expr>) -> Constraint {
        Constraint::nonneg(&rhs.into() - self)
    }

    /// `self > rhs`, that is `self >= rhs + 1` on integers.
    pub fn gt(&self, rhs: impl Into<Expr>) -> Constraint {
        Constraint::nonneg(self - &rhs.into() - 1)
    }

    /// `self < rhs`, that is `self + 1 <= rhs` on integers.
    pub fn lt(&self, rhs: impl Into<Expr>) -> Constraint {
        Constraint::nonneg(&rhs.into() - self - 1)
    }

    /// `self = rhs`.
    pub fn eq(&self, rhs: impl Into<Expr>) -> Constraint {
        Constraint {
            expr: self - &rhs.into(),
            is_eq: true,
        }
    }
}

impl From<i64> for Expr {
    fn from(v: i64) -> Expr {
        Expr::constant(v)
    }
}

impl From<Int> for Expr {
    fn from(v: Int) -> Expr {
        Expr::constant(v)
    }
}

impl From<&Expr> for Expr {
    fn from(e: &Expr) -> Expr {
        e.clone()
    }
}

/// An equality `expr = 0` or an inequality `expr >= 0`, made by comparing
/// expressions ([`Expr::ge`], [`Expr::eq`], ...).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Constraint {
    expr: Expr,
    is_eq: bool,
}

impl Constraint {
    fn nonneg(expr: Expr) -> Constraint {
        Constraint { expr, is_eq: false }
    }

    /// True for an equality.
    pub fn is_equality(&self) -> bool {
        self.is_eq
    }

    /// The expression that is zero (equality) or non-negative (inequality).
    pub fn expr(&self) -> &Expr {
        &self.expr
    }
}

/// The parameter or dimension named `name` in `space` (parameters first, then
/// the input and the output or set dimensions), as an expression.
///
/// ```
/// use presburger::build::{var, Expr};
/// use presburger::{DimKind, Space, Tuple};
/// let space = Space::map(vec!["n".into()], Tuple::new(None, &["i"]), Tuple::new(None, &["j"]));
/// assert_eq!(var(&space, "j")?, Expr::dim(DimKind::Out, 0));
/// assert!(var(&space, "k").is_err());
/// # Ok::<(), presburger::Error>(())
/// ```
pub fn var(space: &Space, name: &str) -> Result<Expr> {
    let mut found = Vec::new();
    for kind in [DimKind::Param, DimKind::In, DimKind::Out] {
        for pos in 0..space.dim(kind) {
            if space.name(kind, pos).as_deref() == Some(name) {
                found.push((kind, pos));
            }
        }
    }
    match found.as_slice() {
        [(kind, pos)] => Ok(Expr::dim(*kind, *pos)),
        [] => Err(Error::Invalid(format!(
            "the space has no parameter or dimension named '{name}'"
        ))),
        _ => Err(Error::Invalid(format!(
            "the space has more than one variable named '{name}'; use Expr::dim"
        ))),
    }
}

/// The conjunction of `constraints` in `space`: existential variables and
/// floor divisions become locals (see the module doc).
pub(crate) fn conjunction(
    space: &Space,
    constraints: impl IntoIterator<Item = Constraint>,
) -> Result<Conjunction> {
    let constraints: Vec<Constraint> = constraints.into_iter().collect();
    let mut n_exists = 0;
    for c in &constraints {
        n_exists = n_exists.max(exists_needed(&c.expr));
    }
    let mut lower = Lowering {
        conj: Conjunction::universe(space.clone()),
        floors: Vec::new(),
        first_local: 1 + space.n_var(),
    };
    for _ in 0..n_exists {
        lower.conj.add_local(None)?;
    }
    for c in &constraints {
        let row = lower.row(&c.expr)?;
        if c.is_eq {
            lower.conj.add_eq(row)?;
        } else {
            lower.conj.add_ineq(row)?;
        }
    }
    let mut conj = lower.conj;
    conj.simplify();
    Ok(conj)
}

/// One more than the largest existential index used (0 when none).
fn exists_needed(e: &Expr) -> usize {
    e.terms
        .iter()
        .map(|(a, _)| match a {
            Atom::Exists(k) => k + 1,
            Atom::Floor(inner, _) => exists_needed(inner),
            Atom::Var(..) => 0,
        })
        .max()
        .unwrap_or(0)
}

/// Expressions turned into rows of one conjunction, with a local per distinct
/// division (`floors` maps each division already made to its column).
struct Lowering {
    conj: Conjunction,
    floors: Vec<(Row, Int, usize)>,
    first_local: usize,
}

impl Lowering {
    /// The row of `e` over the conjunction's current columns (adding the locals
    /// of its divisions first).
    fn row(&mut self, e: &Expr) -> Result<Row> {
        // the columns of the divisions first: adding a local widens every row
        let mut cols = Vec::with_capacity(e.terms.len());
        for (a, _) in &e.terms {
            cols.push(self.column(a)?);
        }
        let mut row = vec![Int::ZERO; self.conj.n_col()];
        row[0] = e.constant.clone();
        for ((_, c), col) in e.terms.iter().zip(cols) {
            row[col] += c;
        }
        Ok(row)
    }

    /// The column of an atom.
    fn column(&mut self, a: &Atom) -> Result<usize> {
        let space = self.conj.space();
        match a {
            Atom::Var(kind, pos) => {
                if *pos >= space.dim(*kind) {
                    return Err(Error::SpaceMismatch(format!(
                        "an expression uses {kind:?} variable {pos}, the space has {}",
                        space.dim(*kind)
                    )));
                }
                Ok(self.conj.col(*kind, *pos))
            }
            Atom::Exists(k) => Ok(self.first_local + k),
            Atom::Floor(inner, d) => {
                if !d.is_positive() {
                    return Err(Error::Invalid(format!(
                        "floor division or modulo by {d}: the divisor must be positive"
                    )));
                }
                let num = self.row(inner)?;
                // (a division made earlier has a shorter row: the locals
                // added since are zero in it)
                let known = self.floors.iter().find(|(n, den, _)| {
                    den == d
                        && n.len() <= num.len()
                        && n[..] == num[..n.len()]
                        && num[n.len()..].iter().all(Int::is_zero)
                });
                if let Some(&(_, _, col)) = known {
                    return Ok(col);
                }
                let col = self.conj.add_local(Some(Div {
                    num: num.clone(),
                    den: d.clone(),
                }))?;
                self.floors.push((num, d.clone(), col));
                Ok(col)
            }
        }
    }
}

// ---- operators: `+`, `-` between expressions (owned or borrowed) and with
// integers, unary `-`, and `*` by an integer on either side

impl Add<&Expr> for &Expr {
    type Output = Expr;
    fn add(self, rhs: &Expr) -> Expr {
        let mut out = self.clone();
        out.add_scaled(rhs, &Int::ONE);
        out
    }
}

impl Sub<&Expr> for &Expr {
    type Output = Expr;
    fn sub(self, rhs: &Expr) -> Expr {
        let mut out = self.clone();
        out.add_scaled(rhs, &Int::from(-1));
        out
    }
}

impl Neg for &Expr {
    type Output = Expr;
    fn neg(self) -> Expr {
        self.scale(&Int::from(-1))
    }
}

impl Neg for Expr {
    type Output = Expr;
    fn neg(self) -> Expr {
        -&self
    }
}

impl Mul<&Expr> for i64 {
    type Output = Expr;
    fn mul(self, rhs: &Expr) -> Expr {
        rhs.scale(&Int::from(self))
    }
}

impl Mul<Expr> for i64 {
    type Output = Expr;
    fn mul(self, rhs: Expr) -> Expr {
        self * &rhs
    }
}

impl Mul<i64> for &Expr {
    type Output = Expr;
    fn mul(self, rhs: i64) -> Expr {
        rhs * self
    }
}

impl Mul<i64> for Expr {
    type Output = Expr;
    fn mul(self, rhs: i64) -> Expr {
        rhs * &self
    }
}

// `+` on the owned forms and with an `i64`, through `&Expr + &Expr` above.
impl Add<Expr> for Expr {
    type Output = Expr;
    fn add(self, rhs: Expr) -> Expr {
        (&self).add(&rhs)
    }
}

impl Add<&Expr> for Expr {
    type Output = Expr;
    fn add(self, rhs: &Expr) -> Expr {
        (&self).add(rhs)
    }
}

impl Add<Expr> for &Expr {
    type Output = Expr;
    fn add(self, rhs: Expr) -> Expr {
        self.add(&rhs)
    }
}

impl Add<i64> for Expr {
    type Output = Expr;
    fn add(self, rhs: i64) -> Expr {
        (&self).add(&Expr::constant(rhs))
    }
}

impl Add<i64> for &Expr {
    type Output = Expr;
    fn add(self, rhs: i64) -> Expr {
        self.add(&Expr::constant(rhs))
    }
}

// `-` on the owned forms and with an `i64`, through `&Expr - &Expr` above.
impl Sub<Expr> for Expr {
    type Output = Expr;
    fn sub(self, rhs: Expr) -> Expr {
        (&self).sub(&rhs)
    }
}

impl Sub<&Expr> for Expr {
    type Output = Expr;
    fn sub(self, rhs: &Expr) -> Expr {
        (&self).sub(rhs)
    }
}

impl Sub<Expr> for &Expr {
    type Output = Expr;
    fn sub(self, rhs: Expr) -> Expr {
        self.sub(&rhs)
    }
}

impl Sub<i64> for Expr {
    type Output = Expr;
    fn sub(self, rhs: i64) -> Expr {
        (&self).sub(&Expr::constant(rhs))
    }
}

impl Sub<i64> for &Expr {
    type Output = Expr;
    fn sub(self, rhs: i64) -> Expr {
        self.sub(&Expr::constant(rhs))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::Tuple;
    use crate::{Map, Set};

    fn set_space(params: &[&str], dims: &[&str]) -> Space {
        Space::set(
            params.iter().map(|p| p.to_string()).collect(),
            Tuple::new(Some("S"), dims),
        )
    }

    #[test]
    fn operators_combine_terms() {
        let (x, y) = (Expr::dim(DimKind::SET, 0), Expr::dim(DimKind::SET, 1));
        let e = &x + &(3 * &y) - &x + 2;
        e.check_invariants();
        assert_eq!(e, 3 * y.clone() + 2);
        let zero = &e - &e;
        zero.check_invariants();
        assert_eq!(zero.constant_value(), Some(&Int::ZERO));
        assert_eq!(e.constant_value(), None);
        assert_eq!(-(-&e), e);
        let big = Int::from(i64::MAX) * Int::from(4);
        assert_eq!(y.scale(&big).scale(&Int::from(-1)), -(y.scale(&big)));
        // constants are divided at once, as isl would fold them
        assert_eq!(Expr::constant(-7).floor_div(2), Expr::constant(-4));
        assert_eq!(Expr::constant(-7).ceil_div(2), Expr::constant(-3));
        assert_eq!(Expr::constant(-7).modulo(3), Expr::constant(2));
        assert!(
            !Expr::constant(7).floor_div(0).is_constant(),
            "left for the error"
        );
    }

    #[test]
    fn sets_equal_their_text() {
        let space = set_space(&["n"], &["i", "j"]);
        let v = |s| var(&space, s).unwrap();
        let (i, j, n) = (v("i"), v("j"), v("n"));
        let cases: Vec<(Vec<Constraint>, &str)> = vec![
            (
                vec![i.ge(0), i.lt(&n), j.eq(&i + 1)],
                "[n] -> { S[i, j] : 0 <= i < n and j = i + 1 }",
            ),
            (
                vec![i.modulo(4).eq(1), i.ge(0), i.le(20), j.eq(0)],
                "{ S[i, 0] : i mod 4 = 1 and 0 <= i <= 20 }",
            ),
            (
                vec![
                    j.eq(i.floor_div(3)),
                    i.ge(-5),
                    i.le(&n),
                    i.ceil_div(2).le(4),
                ],
                "[n] -> { S[i, j] : j = floor(i/3) and -5 <= i <= n and ceil(i/2) <= 4 }",
            ),
            (
                vec![
                    i.eq(2 * Expr::exists(0) + 1),
                    j.eq(3 * Expr::exists(1)),
                    i.ge(0),
                    j.ge(0),
                    (&i + &j).le(&n),
                ],
                "[n] -> { S[i, j] : exists a, b : i = 2a + 1 and j = 3b and i, j >= 0 and i + j <= n }",
            ),
            (vec![i.gt(&j), j.gt(&i)], "[n] -> { S[i, j] : false }"),
        ];
        for (cons, text) in cases {
            let built = Set::from_constraints(&space, cons).unwrap();
            let read: Set = text.parse().unwrap();
            assert!(
                built.is_equal(&read).unwrap(),
                "{built} differs from {text}"
            );
        }
    }

    #[test]
    fn maps_and_nested_divisions() {
        let space = Space::map(
            vec![],
            Tuple::new(Some("A"), &["i"]),
            Tuple::new(Some("B"), &["j"]),
        );
        let (i, j) = (var(&space, "i").unwrap(), var(&space, "j").unwrap());
        let m = Map::from_constraints(
            &space,
            [j.eq((i.floor_div(2) + 1).floor_div(3)), i.ge(0), i.le(30)],
        )
        .unwrap();
        let read: Map = "{ A[i] -> B[floor((floor(i/2) + 1)/3)] : 0 <= i <= 30 }"
            .parse()
            .unwrap();
        assert!(m.is_equal(&read).unwrap(), "{m}");
    }

    /// The value of `e` at the set point `x` (no parameters, no existentials).
    fn eval(e: &Expr, x: &[i64]) -> i64 {
        let mut v = e.constant.to_i64().unwrap();
        for (a, c) in &e.terms {
            let c = c.to_i64().unwrap();
            v += c * match a {
                Atom::Var(_, pos) => x[*pos],
                Atom::Floor(inner, d) => eval(inner, x).div_euclid(d.to_i64().unwrap()),
                Atom::Exists(_) => unreachable!(),
            };
        }
        v
    }

    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        /// Built sets hold exactly the points where every constraint, evaluated
        /// directly, holds (divisions nested one level).
        #[test]
        fn built_sets_against_evaluation(
            rows in prop::collection::vec(
                (-3i64..=3, -3i64..=3, -2i64..=2, -3i64..=3, 1i64..=4, -3i64..=3, -6i64..=6, any::<bool>()),
                1..4,
            )
        ) {
            let space = set_space(&[], &["i", "j"]);
            let (i, j) = (Expr::dim(DimKind::SET, 0), Expr::dim(DimKind::SET, 1));
            let cons: Vec<Constraint> = rows
                .iter()
                .map(|&(a, b, c, f, m, g, k, eq)| {
                    let inner = (&(a * &i) + &(f * &j)).floor_div(m) + g;
                    let e = &(b * &j) + &(c * inner.floor_div(2)) + k;
                    if eq { e.eq(0) } else { e.ge(0) }
                })
                .collect();
            let s = Set::from_constraints(&space, cons.clone()).unwrap();
            let b = crate::testing::Box::new(vec![], -6, 6);
            let got = crate::testing::set_points(&s, &b);
            for x in -6..=6 {
                for y in -6..=6 {
                    let p = [x, y];
                    let holds = cons.iter().all(|c| {
                        let v = eval(c.expr(), &p);
                        if c.is_equality() { v == 0 } else { v >= 0 }
                    });
                    prop_assert_eq!(holds, got.contains(p.as_slice()), "at {:?}", p);
                }
            }
        }
    }

    #[test]
    fn bad_input_is_an_error() {
        let space = set_space(&[], &["i"]);
        let i = var(&space, "i").unwrap();
        assert!(Set::from_constraints(&space, [i.floor_div(0).ge(0)]).is_err());
        assert!(Set::from_constraints(&space, [i.floor_div(-2).ge(0)]).is_err());
        // a modulus as a divisor: `i mod 0` is no more `i` than `floor(i/0)` is
        for m in [0, -3] {
            let e = Set::from_constraints(&space, [i.modulo(m).eq(1)]).unwrap_err();
            assert!(
                e.to_string().contains("the divisor must be positive"),
                "{e}"
            );
            let c = Expr::constant(7).modulo(m);
            assert!(Set::from_constraints(&space, [c.eq(&i)]).is_err(), "{m}");
        }
        assert!("{ [i] : i mod 0 = 1 }".parse::<Set>().is_err());
        assert!(Set::from_constraints(&space, [Expr::dim(DimKind::SET, 1).ge(0)]).is_err());
        assert!(Set::from_constraints(&space, [Expr::param(0).ge(0)]).is_err());
        assert!(var(&space, "k").is_err());
        let twice = Space::map(vec![], Tuple::new(None, &["x"]), Tuple::new(None, &["x"]));
        assert!(var(&twice, "x").is_err(), "an ambiguous name");
        // a map space for a set, and the other way round
        let ms = Space::map(vec![], Tuple::new(None, &["x"]), Tuple::new(None, &["y"]));
        assert!(Set::from_constraints(&ms, []).is_err());
        assert!(Map::from_constraints(&space, []).is_err());
    }
}
