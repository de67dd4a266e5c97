//! The loop AST: loops, conditions, blocks and statement calls over
//! quasi-affine expressions.
//!
//! An [`Ast`] is what code generation produces and what an emitter (C here,
//! see [`crate::print`]; MLIR or others later) consumes. It can also be built
//! by hand, evaluated ([`Ast::execute`], [`Ast::trace`]: the sequence of
//! statement calls for given parameter values) and printed as C
//! ([`Ast::to_c`]):
//!
//! ```
//! use presburger_codegen::{Ast, Bound, Cond, Expr};
//! let n = Expr::var("N");
//! let i = Expr::var("c0");
//! // for (c0 = 0; c0 <= N - 1; c0 += 1) if (c0 % 2 == 0) S(c0);
//! let ast = Ast::For {
//!     var: "c0".into(),
//!     lower: Bound(vec![Expr::int(0)]),
//!     upper: Bound(vec![n - 1]),
//!     stride: 1,
//!     body: Box::new(Ast::If {
//!         conds: vec![Cond::Eq(i.modulo(2).unwrap())],
//!         then: Box::new(Ast::User { name: "S".into(), args: vec![i] }),
//!         otherwise: None,
//!     }),
//! };
//! // N is a 64-bit integer of any value: so may c0 be
//! assert_eq!(
//!     ast.to_c(),
//!     "for (long long c0 = 0; c0 <= N - 1; c0 += 1)\n  if (c0 % 2 == 0)\n    S(c0);\n"
//! );
//! let trace = ast.trace(&[("N", 5)], 1000)?;
//! let visited: Vec<i64> = trace.iter().map(|(_, args)| args[0]).collect();
//! assert_eq!(visited, [0, 2, 4]);
//! # Ok::<(), presburger_codegen::Error>(())
//! ```
//!
//! Integers are `i64`. The checked constructors (`checked_add`,
//! [`Expr::floor_div`], ...) return `None` on overflow; the operators (`+`,
//! `-`, `*` by an integer) panic on overflow as integer arithmetic does, for
//! convenience when building small ASTs by hand.

use crate::error::{Error, Result};
use std::ops::{Add, Mul, Neg, Sub};

/// A quasi-affine expression: an integer constant plus integer multiples of
/// [`Atom`]s (named variables, floor and ceiling divisions by positive
/// constants, remainders, minima and maxima).
///
/// The terms keep the order in which they were first added (the printer
/// follows it, so an expression built from parameters then loop variables
/// prints as isl's do: `-N + c0 + 1`); no coefficient is zero and no atom
/// appears twice. The constructors simplify what they can: divisions of
/// constants and of expressions whose coefficients the divisor divides,
/// `min`/`max` of one item or of constants.
///
/// ```
/// use presburger_codegen::Expr;
/// let e = Expr::var("N") * 2 - Expr::var("c0") + 4;
/// assert_eq!(e.to_string(), "2 * N - c0 + 4");
/// // floord(2N + 4, 2) is N + 2
/// let f = (Expr::var("N") * 2 + 4).floor_div(2).unwrap();
/// assert_eq!(f, Expr::var("N") + 2);
/// assert_eq!(e.eval(&|v| Some(if v == "N" { 3 } else { 1 }))?, 9);
/// # Ok::<(), presburger_codegen::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Expr {
    constant: i64,
    terms: Vec<(i64, Atom)>,
}

/// A non-constant building block of an [`Expr`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Atom {
    /// A named variable: a parameter or a loop iterator.
    Var(String),
    /// `floor(e / d)` with `d >= 1` (printed `floord(e, d)`).
    FloorDiv(Box<Expr>, i64),
    /// `ceil(e / d)` with `d >= 1` (printed `ceild(e, d)`).
    CeilDiv(Box<Expr>, i64),
    /// The floor remainder `e mod m`, in `0 .. m`, with `m >= 1` (printed
    /// `e % m` where C's truncating `%` agrees, that is when only its
    /// equality with zero is tested; else `(e - m * floord(e, m))`).
    Mod(Box<Expr>, i64),
    /// The minimum of at least two expressions.
    Min(Vec<Expr>),
    /// The maximum of at least two expressions.
    Max(Vec<Expr>),
}

fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    i64::try_from(a).unwrap_or(i64::MAX)
}

impl Expr {
    /// The constant `v`.
    pub fn int(v: i64) -> Expr {
        Expr {
            constant: v,
            terms: Vec::new(),
        }
    }

    /// The variable `name`.
    pub fn var(name: impl Into<String>) -> Expr {
        Expr::atom(Atom::Var(name.into()))
    }

    /// `1 * atom`.
    pub fn atom(atom: Atom) -> Expr {
        Expr {
            constant: 0,
            terms: vec![(1, atom)],
        }
    }

    /// The constant term.
    pub fn constant(&self) -> i64 {
        self.constant
    }

    /// The terms `(coefficient, atom)`, in order (no zero coefficient, no
    /// atom twice).
    pub fn terms(&self) -> &[(i64, Atom)] {
        &self.terms
    }

    /// The value when the expression is a constant.
    pub fn as_int(&self) -> Option<i64> {
        self.terms.is_empty().then_some(self.constant)
    }

    /// True when every atom is a variable (an affine expression).
    pub fn is_affine(&self) -> bool {
        self.terms.iter().all(|(_, a)| matches!(a, Atom::Var(_)))
    }

    /// Adds `coef * atom`, merging it with an equal atom; `None` on overflow.
    pub fn checked_add_term(mut self, coef: i64, atom: Atom) -> Option<Expr> {
        if coef == 0 {
            return Some(self);
        }
        if let Some(k) = self.terms.iter().position(|(_, a)| *a == atom) {
            let c = self.terms[k].0.checked_add(coef)?;
            if c == 0 {
                self.terms.remove(k);
            } else {
                self.terms[k].0 = c;
            }
        } else {
            self.terms.push((coef, atom));
        }
        Some(self)
    }

    /// `self + other`, or `None` on overflow.
    pub fn checked_add(&self, other: &Expr) -> Option<Expr> {
        let mut r = self.clone();
        r.constant = r.constant.checked_add(other.constant)?;
        for (c, a) in &other.terms {
            r = r.checked_add_term(*c, a.clone())?;
        }
        Some(r)
    }

    /// `self - other`, or `None` on overflow.
    pub fn checked_sub(&self, other: &Expr) -> Option<Expr> {
        self.checked_add(&other.checked_mul(-1)?)
    }

    /// `k * self`, or `None` on overflow.
    pub fn checked_mul(&self, k: i64) -> Option<Expr> {
        if k == 0 {
            return Some(Expr::int(0));
        }
        let mut terms = Vec::with_capacity(self.terms.len());
        for (c, a) in &self.terms {
            terms.push((c.checked_mul(k)?, a.clone()));
        }
        Some(Expr {
            constant: self.constant.checked_mul(k)?,
            terms,
        })
    }

    /// The gcd of the coefficients of the terms (0 for a constant).
    fn term_gcd(&self) -> i64 {
        self.terms.iter().fold(0, |g, (c, _)| gcd(g, *c))
    }

    /// The terms divided by `g` (which divides them all) and the constant
    /// replaced by `c`.
    fn terms_div(&self, g: i64, c: i64) -> Expr {
        Expr {
            constant: c,
            terms: self.terms.iter().map(|(k, a)| (k / g, a.clone())).collect(),
        }
    }

    /// `floor(self / d)`: `None` when `d <= 0` or on overflow. A common
    /// factor of the coefficients and `d` is divided out (`floord(2N + 3, 4)`
    /// is `floord(N + 1, 2)`), and a constant or an expression whose
    /// coefficients `d` divides gives an expression without division.
    pub fn floor_div(&self, d: i64) -> Option<Expr> {
        if d <= 0 {
            return None;
        }
        if d == 1 {
            return Some(self.clone());
        }
        if self.terms.is_empty() {
            return Some(Expr::int(self.constant.div_euclid(d)));
        }
        let g = gcd(self.term_gcd(), d);
        let e = self.terms_div(g, self.constant.div_euclid(g));
        let d = d / g;
        if d == 1 {
            return Some(e);
        }
        Some(Expr::atom(Atom::FloorDiv(Box::new(e), d)))
    }

    /// `ceil(self / d)`: `None` when `d <= 0` or on overflow; simplified as
    /// [`Expr::floor_div`].
    pub fn ceil_div(&self, d: i64) -> Option<Expr> {
        if d <= 0 {
            return None;
        }
        if d == 1 {
            return Some(self.clone());
        }
        if self.terms.is_empty() {
            let c = self.constant.checked_neg()?.div_euclid(d).checked_neg()?;
            return Some(Expr::int(c));
        }
        let g = gcd(self.term_gcd(), d);
        let c = self.constant.checked_neg()?.div_euclid(g).checked_neg()?;
        let e = self.terms_div(g, c);
        let d = d / g;
        if d == 1 {
            return Some(e);
        }
        Some(Expr::atom(Atom::CeilDiv(Box::new(e), d)))
    }

    /// `self mod m` (the floor remainder, in `0 .. m`): `None` when `m <= 0`.
    /// Coefficients are reduced modulo `m` (`(3c0 + 5) mod 2` is
    /// `(c0 + 1) mod 2`), so a multiple of `m` gives the constant remainder.
    pub fn modulo(&self, m: i64) -> Option<Expr> {
        if m <= 0 {
            return None;
        }
        let mut r = Expr::int(self.constant.rem_euclid(m));
        for (c, a) in &self.terms {
            r = r.checked_add_term(c.rem_euclid(m), a.clone())?;
        }
        if r.terms.is_empty() {
            return Some(r);
        }
        Some(Expr::atom(Atom::Mod(Box::new(r), m)))
    }

    /// The minimum of `items`: `None` when there are none. Nested minima are
    /// flattened, duplicates and all constants but the least dropped, and one
    /// item left is returned as it is.
    pub fn min(items: Vec<Expr>) -> Option<Expr> {
        Expr::extremum(items, false)
    }

    /// The maximum of `items`, as [`Expr::min`].
    pub fn max(items: Vec<Expr>) -> Option<Expr> {
        Expr::extremum(items, true)
    }

    fn extremum(items: Vec<Expr>, is_max: bool) -> Option<Expr> {
        let mut flat: Vec<Expr> = Vec::new();
        let mut constant: Option<i64> = None;
        let mut push = |e: Expr, flat: &mut Vec<Expr>| {
            if let Some(v) = e.as_int() {
                constant = Some(match constant {
                    None => v,
                    Some(c) if is_max => c.max(v),
                    Some(c) => c.min(v),
                });
            } else if !flat.contains(&e) {
                flat.push(e);
            }
        };
        for e in items {
            let nested = match e.terms.as_slice() {
                [(1, Atom::Max(v))] if is_max && e.constant == 0 => Some(v.clone()),
                [(1, Atom::Min(v))] if !is_max && e.constant == 0 => Some(v.clone()),
                _ => None,
            };
            match nested {
                Some(v) => v.into_iter().for_each(|x| push(x, &mut flat)),
                None => push(e, &mut flat),
            }
        }
        if let Some(c) = constant {
            flat.insert(0, Expr::int(c));
        }
        match flat.len() {
            0 => None,
            1 => flat.pop(),
            _ => Some(Expr::atom(if is_max {
                Atom::Max(flat)
            } else {
                Atom::Min(flat)
            })),
        }
    }

    /// The expression with every variable `v` for which `f(v)` is `Some(e)`
    /// replaced by `e` (the others stay); `None` on overflow.
    pub fn substitute(&self, f: &dyn Fn(&str) -> Option<Expr>) -> Option<Expr> {
        let mut r = Expr::int(self.constant);
        for (c, a) in &self.terms {
            let e = match a {
                Atom::Var(v) => match f(v) {
                    Some(e) => e,
                    None => Expr::var(v.clone()),
                },
                Atom::FloorDiv(e, d) => e.substitute(f)?.floor_div(*d)?,
                Atom::CeilDiv(e, d) => e.substitute(f)?.ceil_div(*d)?,
                Atom::Mod(e, m) => e.substitute(f)?.modulo(*m)?,
                Atom::Min(v) => Expr::min(substitute_all(v, f)?)?,
                Atom::Max(v) => Expr::max(substitute_all(v, f)?)?,
            };
            r = r.checked_add(&e.checked_mul(*c)?)?;
        }
        Some(r)
    }

    /// The value with the variables given by `env`; an error for an unbound
    /// variable or an overflow.
    pub fn eval(&self, env: &dyn Fn(&str) -> Option<i64>) -> Result<i64> {
        let overflow = || Error::Eval(format!("overflow in {self}"));
        let mut acc = i128::from(self.constant);
        for (c, a) in &self.terms {
            let v = a.eval(env)?;
            acc = acc
                .checked_add(i128::from(*c) * i128::from(v))
                .ok_or_else(overflow)?;
        }
        i64::try_from(acc).map_err(|_| overflow())
    }

    /// Calls `f` on every variable name, in order of appearance (repeats
    /// included).
    pub fn for_each_var(&self, f: &mut dyn FnMut(&str)) {
        for (_, a) in &self.terms {
            match a {
                Atom::Var(v) => f(v),
                Atom::FloorDiv(e, _) | Atom::CeilDiv(e, _) | Atom::Mod(e, _) => e.for_each_var(f),
                Atom::Min(v) | Atom::Max(v) => v.iter().for_each(|e| e.for_each_var(f)),
            }
        }
    }
}

fn substitute_all(v: &[Expr], f: &dyn Fn(&str) -> Option<Expr>) -> Option<Vec<Expr>> {
    v.iter().map(|e| e.substitute(f)).collect()
}

impl Atom {
    /// The value with the variables given by `env`.
    pub fn eval(&self, env: &dyn Fn(&str) -> Option<i64>) -> Result<i64> {
        match self {
            Atom::Var(v) => env(v).ok_or_else(|| Error::Eval(format!("unbound variable {v}"))),
            Atom::FloorDiv(e, d) | Atom::CeilDiv(e, d) | Atom::Mod(e, d) => {
                if *d <= 0 {
                    return Err(Error::Eval(format!("division by {d}")));
                }
                let x = e.eval(env)?;
                Ok(match self {
                    Atom::FloorDiv(..) => x.div_euclid(*d),
                    Atom::CeilDiv(..) => {
                        // ceil(x / d) = -floor(-x / d), in i128 to avoid -i64::MIN
                        let r = -(-i128::from(x)).div_euclid(i128::from(*d));
                        i64::try_from(r).map_err(|_| Error::Eval("overflow".into()))?
                    }
                    _ => x.rem_euclid(*d),
                })
            }
            Atom::Min(v) | Atom::Max(v) => {
                let mut best: Option<i64> = None;
                for e in v {
                    let x = e.eval(env)?;
                    best = Some(match best {
                        None => x,
                        Some(b) if matches!(self, Atom::Max(_)) => b.max(x),
                        Some(b) => b.min(x),
                    });
                }
                best.ok_or_else(|| Error::Eval("min or max of nothing".into()))
            }
        }
    }
}

impl From<i64> for Expr {
    fn from(v: i64) -> Expr {
        Expr::int(v)
    }
}

/// `a + b`; panics on overflow (use [`Expr::checked_add`] to avoid it).
impl Add<Expr> for Expr {
    type Output = Expr;
    fn add(self, rhs: Expr) -> Expr {
        self.checked_add(&rhs).expect("overflow in Expr addition")
    }
}

/// `a + k`; panics on overflow.
impl Add<i64> for Expr {
    type Output = Expr;
    fn add(self, rhs: i64) -> Expr {
        self + Expr::int(rhs)
    }
}

/// `a - b`; panics on overflow (use [`Expr::checked_sub`] to avoid it).
impl Sub<Expr> for Expr {
    type Output = Expr;
    fn sub(self, rhs: Expr) -> Expr {
        self.checked_sub(&rhs)
            .expect("overflow in Expr subtraction")
    }
}

/// `a - k`; panics on overflow.
impl Sub<i64> for Expr {
    type Output = Expr;
    fn sub(self, rhs: i64) -> Expr {
        self - Expr::int(rhs)
    }
}

/// `k * a`; panics on overflow (use [`Expr::checked_mul`] to avoid it).
impl Mul<i64> for Expr {
    type Output = Expr;
    fn mul(self, rhs: i64) -> Expr {
        self.checked_mul(rhs).expect("overflow in Expr product")
    }
}

/// `-a`; panics on overflow.
impl Neg for Expr {
    type Output = Expr;
    fn neg(self) -> Expr {
        self * -1
    }
}

/// A condition on parameters and iterators.
///
/// ```
/// use presburger_codegen::{Cond, Expr};
/// let c = Cond::ge(Expr::var("N"), Expr::var("c0") + 1).unwrap(); // N >= c0 + 1
/// assert_eq!(c.to_string(), "N >= c0 + 1");
/// assert!(c.eval(&|v| Some(if v == "N" { 4 } else { 3 }))?);
/// # Ok::<(), presburger_codegen::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Cond {
    /// `e >= 0`.
    Ge(Expr),
    /// `e == 0`.
    Eq(Expr),
    /// All of the conditions (true when empty).
    And(Vec<Cond>),
    /// At least one of the conditions (false when empty).
    Or(Vec<Cond>),
}

impl Cond {
    /// `lhs >= rhs`; `None` on overflow.
    pub fn ge(lhs: Expr, rhs: Expr) -> Option<Cond> {
        Some(Cond::Ge(lhs.checked_sub(&rhs)?))
    }

    /// `lhs <= rhs`; `None` on overflow.
    pub fn le(lhs: Expr, rhs: Expr) -> Option<Cond> {
        Cond::ge(rhs, lhs)
    }

    /// `lhs == rhs`; `None` on overflow.
    pub fn eq(lhs: Expr, rhs: Expr) -> Option<Cond> {
        Some(Cond::Eq(lhs.checked_sub(&rhs)?))
    }

    /// The truth value with the variables given by `env`.
    pub fn eval(&self, env: &dyn Fn(&str) -> Option<i64>) -> Result<bool> {
        Ok(match self {
            Cond::Ge(e) => e.eval(env)? >= 0,
            Cond::Eq(e) => e.eval(env)? == 0,
            Cond::And(v) => {
                for c in v {
                    if !c.eval(env)? {
                        return Ok(false);
                    }
                }
                true
            }
            Cond::Or(v) => {
                for c in v {
                    if c.eval(env)? {
                        return Ok(true);
                    }
                }
                false
            }
        })
    }
}

/// A loop bound: for a lower bound the maximum of the expressions, for an
/// upper bound their minimum (at least one expression; typically affine
/// expressions or `ceild`/`floord` of them).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Bound(pub Vec<Expr>);

impl Bound {
    /// The value as a lower bound (the maximum).
    pub fn eval_lower(&self, env: &dyn Fn(&str) -> Option<i64>) -> Result<i64> {
        self.eval_with(env, true)
    }

    /// The value as an upper bound (the minimum).
    pub fn eval_upper(&self, env: &dyn Fn(&str) -> Option<i64>) -> Result<i64> {
        self.eval_with(env, false)
    }

    fn eval_with(&self, env: &dyn Fn(&str) -> Option<i64>, is_max: bool) -> Result<i64> {
        let mut best: Option<i64> = None;
        for e in &self.0 {
            let v = e.eval(env)?;
            best = Some(match best {
                None => v,
                Some(b) if is_max => b.max(v),
                Some(b) => b.min(v),
            });
        }
        best.ok_or_else(|| Error::Eval("a loop bound without expressions".into()))
    }
}

/// A loop AST node.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ast {
    /// `for (var = lower; var <= upper; var += stride) body`, where `lower`
    /// is the maximum of its expressions and `upper` the minimum of its own;
    /// `stride >= 1`. The bounds are evaluated once, before the first
    /// iteration (they never depend on `var`).
    For {
        /// The iterator's name (`c0`, `c1`, ... for generated code: the
        /// time dimension it scans).
        var: String,
        /// The lower bound (maximum of the expressions).
        lower: Bound,
        /// The upper bound, inclusive (minimum of the expressions).
        upper: Bound,
        /// The step.
        stride: i64,
        /// The body.
        body: Box<Ast>,
    },
    /// `if (conds) then else otherwise`: `conds` is a conjunction.
    If {
        /// The conditions, all of which must hold.
        conds: Vec<Cond>,
        /// The branch taken when they hold.
        then: Box<Ast>,
        /// The `else` branch, if any.
        otherwise: Option<Box<Ast>>,
    },
    /// A sequence.
    Block(Vec<Ast>),
    /// A statement instance: the statement's name and its iterators' values,
    /// as expressions of the loop iterators and the parameters.
    User {
        /// The statement's name (the schedule's domain tuple name).
        name: String,
        /// The statement's iterators, in order.
        args: Vec<Expr>,
    },
    /// An annotation of the node inside (a loop): how it may be run, printed
    /// as a pragma line before it (see [`Mark`]). It does not change what
    /// the node does.
    Mark {
        /// The annotation.
        mark: Mark,
        /// The annotated node.
        body: Box<Ast>,
    },
}

/// What a [`Ast::Mark`] says of the loop it wraps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mark {
    /// The iterations are independent and may run on threads:
    /// `#pragma omp parallel for` (the iterators of the inner loops are
    /// declared inside it, hence private to each thread).
    OmpParallelFor,
    /// The iterations are independent and may run as vector lanes:
    /// `#pragma omp simd`.
    OmpSimd,
    /// The iterations carry no dependence, for the vectorizer:
    /// `#pragma GCC ivdep` (no OpenMP needed).
    Ivdep,
}

impl Mark {
    /// The pragma line that prints the mark, without indentation.
    pub fn pragma(self) -> &'static str {
        match self {
            Mark::OmpParallelFor => "#pragma omp parallel for",
            Mark::OmpSimd => "#pragma omp simd",
            Mark::Ivdep => "#pragma GCC ivdep",
        }
    }
}

/// One statement call of a trace: the statement's name and its iterators'
/// values.
pub type Visit = (String, Vec<i64>);

impl Ast {
    /// Runs the AST with the given parameter values, calling `visit` on each
    /// statement instance in order. At most `max_steps` loop iterations and
    /// statement calls (together) are run; beyond, an error. Returns the
    /// number of steps.
    pub fn execute(
        &self,
        params: &[(&str, i64)],
        max_steps: u64,
        visit: &mut dyn FnMut(&str, &[i64]),
    ) -> Result<u64> {
        let mut env: Vec<(String, i64)> = params.iter().map(|(n, v)| (n.to_string(), *v)).collect();
        let mut steps = 0;
        self.run(&mut env, &mut steps, max_steps, visit)?;
        Ok(steps)
    }

    /// The sequence of statement calls for the given parameter values (see
    /// [`Ast::execute`]).
    pub fn trace(&self, params: &[(&str, i64)], max_steps: u64) -> Result<Vec<Visit>> {
        let mut out = Vec::new();
        self.execute(params, max_steps, &mut |name, args| {
            out.push((name.to_string(), args.to_vec()))
        })?;
        Ok(out)
    }

    fn run(
        &self,
        env: &mut Vec<(String, i64)>,
        steps: &mut u64,
        max_steps: u64,
        visit: &mut dyn FnMut(&str, &[i64]),
    ) -> Result<()> {
        let tick = |steps: &mut u64| {
            *steps += 1;
            if *steps > max_steps {
                Err(Error::Eval(format!("more than {max_steps} steps")))
            } else {
                Ok(())
            }
        };
        match self {
            Ast::User { name, args } => {
                tick(steps)?;
                let vals = {
                    let lookup = lookup_in(env);
                    args.iter()
                        .map(|a| a.eval(&lookup))
                        .collect::<Result<Vec<i64>>>()?
                };
                visit(name, &vals);
            }
            Ast::Block(v) => {
                for a in v {
                    a.run(env, steps, max_steps, visit)?;
                }
            }
            Ast::Mark { body, .. } => body.run(env, steps, max_steps, visit)?,
            Ast::If {
                conds,
                then,
                otherwise,
            } => {
                let holds = {
                    let lookup = lookup_in(env);
                    let mut all = true;
                    for c in conds {
                        if !c.eval(&lookup)? {
                            all = false;
                            break;
                        }
                    }
                    all
                };
                if holds {
                    then.run(env, steps, max_steps, visit)?;
                } else if let Some(o) = otherwise {
                    o.run(env, steps, max_steps, visit)?;
                }
            }
            Ast::For {
                var,
                lower,
                upper,
                stride,
                body,
            } => {
                if *stride < 1 {
                    return Err(Error::Eval(format!("loop on {var} with stride {stride}")));
                }
                let (lo, hi) = {
                    let lookup = lookup_in(env);
                    (lower.eval_lower(&lookup)?, upper.eval_upper(&lookup)?)
                };
                let mut v = i128::from(lo);
                while v <= i128::from(hi) {
                    tick(steps)?;
                    env.push((var.clone(), v as i64));
                    let r = body.run(env, steps, max_steps, visit);
                    env.pop();
                    r?;
                    v += i128::from(*stride);
                }
            }
        }
        Ok(())
    }

    /// The AST with every variable `v` (loop iterator or parameter) for
    /// which `vars(v)` is `Some(w)` renamed `w`, and every statement `s` for
    /// which `stmts(s)` is `Some(t)` renamed `t`; an error on an overflow
    /// while rebuilding an expression.
    pub fn renamed(
        &self,
        vars: &dyn Fn(&str) -> Option<String>,
        stmts: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Ast> {
        let f = |v: &str| vars(v).map(Expr::var);
        let expr = |e: &Expr| {
            e.substitute(&f)
                .ok_or_else(|| Error::Eval(format!("overflow while renaming in {e}")))
        };
        let bound = |b: &Bound| -> Result<Bound> {
            Ok(Bound(b.0.iter().map(expr).collect::<Result<Vec<_>>>()?))
        };
        /// The condition with `expr` applied to its expressions.
        fn cond(c: &Cond, expr: &dyn Fn(&Expr) -> Result<Expr>) -> Result<Cond> {
            Ok(match c {
                Cond::Ge(e) => Cond::Ge(expr(e)?),
                Cond::Eq(e) => Cond::Eq(expr(e)?),
                Cond::And(v) => Cond::And(v.iter().map(|c| cond(c, expr)).collect::<Result<_>>()?),
                Cond::Or(v) => Cond::Or(v.iter().map(|c| cond(c, expr)).collect::<Result<_>>()?),
            })
        }
        Ok(match self {
            Ast::For {
                var,
                lower,
                upper,
                stride,
                body,
            } => Ast::For {
                var: vars(var).unwrap_or_else(|| var.clone()),
                lower: bound(lower)?,
                upper: bound(upper)?,
                stride: *stride,
                body: Box::new(body.renamed(vars, stmts)?),
            },
            Ast::If {
                conds,
                then,
                otherwise,
            } => Ast::If {
                conds: conds
                    .iter()
                    .map(|c| cond(c, &expr))
                    .collect::<Result<_>>()?,
                then: Box::new(then.renamed(vars, stmts)?),
                otherwise: match otherwise {
                    Some(o) => Some(Box::new(o.renamed(vars, stmts)?)),
                    None => None,
                },
            },
            Ast::Block(v) => Ast::Block(
                v.iter()
                    .map(|a| a.renamed(vars, stmts))
                    .collect::<Result<_>>()?,
            ),
            Ast::User { name, args } => Ast::User {
                name: stmts(name).unwrap_or_else(|| name.clone()),
                args: args.iter().map(expr).collect::<Result<_>>()?,
            },
            Ast::Mark { mark, body } => Ast::Mark {
                mark: *mark,
                body: Box::new(body.renamed(vars, stmts)?),
            },
        })
    }

    /// The number of nodes of each kind: `(for, if, block, user)` (marks
    /// are not counted).
    pub fn count_nodes(&self) -> (usize, usize, usize, usize) {
        let mut n = (0, 0, 0, 0);
        self.walk(&mut |a| match a {
            Ast::For { .. } => n.0 += 1,
            Ast::If { .. } => n.1 += 1,
            Ast::Block(_) => n.2 += 1,
            Ast::User { .. } => n.3 += 1,
            Ast::Mark { .. } => {}
        });
        n
    }

    /// Calls `f` on every node, parents before children.
    pub fn walk(&self, f: &mut dyn FnMut(&Ast)) {
        f(self);
        match self {
            Ast::For { body, .. } => body.walk(f),
            Ast::If {
                then, otherwise, ..
            } => {
                then.walk(f);
                if let Some(o) = otherwise {
                    o.walk(f);
                }
            }
            Ast::Block(v) => v.iter().for_each(|a| a.walk(f)),
            Ast::Mark { body, .. } => body.walk(f),
            Ast::User { .. } => {}
        }
    }
}

/// A lookup of the innermost binding of a name in `env`.
fn lookup_in(env: &[(String, i64)]) -> impl Fn(&str) -> Option<i64> + '_ {
    move |name: &str| env.iter().rev().find(|(n, _)| n == name).map(|(_, v)| *v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(n: &str) -> Expr {
        Expr::var(n)
    }

    #[test]
    fn terms_merge_and_cancel() {
        let e = v("a") + v("b") * 2 - v("a") + 3;
        assert_eq!(e.terms(), &[(2, Atom::Var("b".into()))]);
        assert_eq!(e.constant(), 3);
        assert_eq!((v("a") - v("a")).as_int(), Some(0));
    }

    #[test]
    fn divisions_simplify() {
        assert_eq!(Expr::int(-7).floor_div(2), Some(Expr::int(-4)));
        assert_eq!(Expr::int(-7).ceil_div(2), Some(Expr::int(-3)));
        assert_eq!((v("N") * 4 + 6).floor_div(2), Some(v("N") * 2 + 3));
        let f = (v("N") * 2 + 3).floor_div(4).unwrap();
        assert_eq!(f, Expr::atom(Atom::FloorDiv(Box::new(v("N") + 1), 2)));
        let f = (v("N") * 3 + 3).floor_div(4).unwrap();
        assert_eq!(f, Expr::atom(Atom::FloorDiv(Box::new(v("N") * 3 + 3), 4)));
        let g = (v("N") * 2 + 2).floor_div(4).unwrap();
        assert_eq!(g, Expr::atom(Atom::FloorDiv(Box::new(v("N") + 1), 2)));
        let h = (v("N") * 2 + 1).ceil_div(4).unwrap();
        // ceil((2N + 1)/4) = ceil(ceil((2N + 1)/2)/2) = ceil((N + 1)/2)
        assert_eq!(h, Expr::atom(Atom::CeilDiv(Box::new(v("N") + 1), 2)));
        assert_eq!((v("c") * 3 + 5).modulo(3), Some(Expr::int(2)));
        assert_eq!(v("c").floor_div(0), None);
        // every simplification keeps the value
        for n in -9..=9 {
            for (e, d) in [
                (v("N") * 2 + 3, 4),
                (v("N") * 6 - 4, 4),
                (v("N") * 3 + 1, 2),
            ] {
                let env = |_: &str| Some(n);
                let x = e.eval(&env).unwrap();
                assert_eq!(e.floor_div(d).unwrap().eval(&env).unwrap(), x.div_euclid(d));
                let c = -(-x).div_euclid(d);
                assert_eq!(e.ceil_div(d).unwrap().eval(&env).unwrap(), c);
                assert_eq!(e.modulo(d).unwrap().eval(&env).unwrap(), x.rem_euclid(d));
            }
        }
    }

    #[test]
    fn extrema_flatten_and_fold() {
        let m = Expr::max(vec![Expr::int(0), v("a"), Expr::int(3)]).unwrap();
        assert_eq!(m, Expr::atom(Atom::Max(vec![Expr::int(3), v("a")])));
        let m2 = Expr::max(vec![m.clone(), v("b"), v("a")]).unwrap();
        assert_eq!(
            m2,
            Expr::atom(Atom::Max(vec![Expr::int(3), v("a"), v("b")]))
        );
        assert_eq!(Expr::min(vec![v("x")]), Some(v("x")));
        assert_eq!(Expr::min(vec![]), None);
        assert_eq!(
            Expr::min(vec![Expr::int(2), Expr::int(-1)]),
            Some(Expr::int(-1))
        );
    }

    #[test]
    fn substitution() {
        let e = (v("c0") * 2 + v("N")).floor_div(2).unwrap();
        let s = e.substitute(&|n| (n == "N").then(|| v("c1") * 2)).unwrap();
        assert_eq!(s, v("c0") + v("c1"));
    }

    #[test]
    fn execution_and_limits() {
        let ast = Ast::For {
            var: "i".into(),
            lower: Bound(vec![Expr::int(0), v("M")]),
            upper: Bound(vec![v("N"), Expr::int(10)]),
            stride: 3,
            body: Box::new(Ast::User {
                name: "S".into(),
                args: vec![v("i"), v("i").modulo(2).unwrap()],
            }),
        };
        let t = ast.trace(&[("N", 20), ("M", -5)], 100).unwrap();
        let want: Vec<Visit> = [0, 3, 6, 9]
            .iter()
            .map(|&i| ("S".to_string(), vec![i, i % 2]))
            .collect();
        assert_eq!(t, want);
        assert!(ast.trace(&[("N", 20), ("M", -5)], 5).is_err());
        assert!(matches!(ast.trace(&[("N", 20)], 100), Err(Error::Eval(_))));
        let bad = Ast::For {
            var: "i".into(),
            lower: Bound(vec![Expr::int(0)]),
            upper: Bound(vec![Expr::int(1)]),
            stride: 0,
            body: Box::new(Ast::Block(vec![])),
        };
        assert!(bad.trace(&[], 100).is_err());
        let ov = Ast::User {
            name: "S".into(),
            args: vec![v("x") * 2],
        };
        assert!(ov.trace(&[("x", i64::MAX)], 10).is_err());
    }
}
