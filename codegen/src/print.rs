//! C printing of the loop AST, in the style of isl's AST printer:
//!
//! ```text
//! for (int c0 = 0; c0 <= N - 1; c0 += 1) {
//!   S(c0);
//!   if (c0 >= 1)
//!     T(c0 - 1);
//! }
//! ```
//!
//! Two spaces of indentation per level; a loop or `if` whose body is one node
//! takes no braces (an `if` with an `else` always does); expressions list
//! their terms in order with `k * x` products; conditions put the terms with
//! positive coefficients on the left (`N >= c0 + 1`). The helpers `floord`,
//! `ceild`, `min` and `max` are printed as calls (binary: `max(max(a, b), c)`);
//! [`Ast::used_macros`] lists the ones a printed AST needs and
//! [`Macro::definition`] gives their C definitions. A remainder prints as C's
//! `%` where C's truncating remainder gives the same answer (a test of
//! divisibility, `e % m == 0`), and as `(e - m * floord(e, m))` elsewhere.
//! A [`crate::Mark`] prints as its pragma line (`#pragma omp parallel for`)
//! just before the loop it marks, which then always sits in braces when it
//! is the body of a loop or `if`.
//!
//! The loop counters are `int` only where every value the code computes
//! is proven to fit in 32 bits, from the loop bounds and what is known of
//! the parameters ([`ParamTypes`]: bounds, from a context, and C types);
//! otherwise they are `long long`, and an `int` parameter whose arithmetic
//! could overflow is cast (`2 * (long long)N`). See [`Ast::to_c_with`].

use crate::ast::{Ast, Atom, Bound, Cond, Expr};
use presburger::{Int, Set};
use std::collections::{BTreeSet, HashMap};
use std::fmt;

/// A helper macro that printed C code may call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Macro {
    /// `floord(n, d)`: the floor of `n / d` for `d > 0`.
    Floord,
    /// `ceild(n, d)`: the ceiling of `n / d` for `d > 0`.
    Ceild,
    /// `min(x, y)`.
    Min,
    /// `max(x, y)`.
    Max,
}

impl Macro {
    /// The macro's name.
    pub fn name(self) -> &'static str {
        match self {
            Macro::Floord => "floord",
            Macro::Ceild => "ceild",
            Macro::Min => "min",
            Macro::Max => "max",
        }
    }

    /// A C99 definition (a `#define` line, exact for any sign of `n`).
    pub fn definition(self) -> &'static str {
        match self {
            Macro::Floord => {
                "#define floord(n, d) (((n) < 0) ? -((-(n) + (d) - 1) / (d)) : (n) / (d))"
            }
            Macro::Ceild => {
                "#define ceild(n, d) (((n) < 0) ? -((-(n)) / (d)) : ((n) + (d) - 1) / (d))"
            }
            Macro::Min => "#define min(x, y) ((x) < (y) ? (x) : (y))",
            Macro::Max => "#define max(x, y) ((x) > (y) ? (x) : (y))",
        }
    }
}

/// The C integer type of the printed loop counters (see [`Ast::to_c_with`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CType {
    /// `int`: every value the code computes was proven to fit in 32 bits.
    Int,
    /// `long long` (64 bits): some value may not fit in an `int`.
    LongLong,
}

impl CType {
    /// The C spelling: `int` or `long long`.
    pub fn name(self) -> &'static str {
        match self {
            CType::Int => "int",
            CType::LongLong => "long long",
        }
    }
}

/// The C type of a parameter, as far as the printed C may assume it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ParamCType {
    /// `int` (or narrower): values of 32 bits, `int` arithmetic.
    Int,
    /// 64 bits (`long long`, `long`, `int64_t`, ...): 64-bit values and
    /// arithmetic. The default: the code `poly codegen` prints expects its
    /// parameters declared `long long`.
    #[default]
    Wide,
    /// Not known (`poly opt` found no declaration): values of 64 bits, and
    /// arithmetic that may be `int` (so it is cast wherever `int` could
    /// overflow).
    Unknown,
}

/// What the printed C may assume of one parameter: bounds on its values
/// and its C type.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ParamType {
    /// The least value (`None`: the least of its type).
    pub min: Option<i64>,
    /// The largest value (`None`: the largest of its type).
    pub max: Option<i64>,
    /// Its C type.
    pub c_type: ParamCType,
}

/// The parameters of an AST as the printed C may assume them (see
/// [`Ast::to_c_with`]): a parameter not listed is a 64-bit integer of any
/// value ([`ParamCType::Wide`]).
#[derive(Clone, Debug, Default)]
pub struct ParamTypes(HashMap<String, ParamType>);

impl ParamTypes {
    /// What is assumed of `name`.
    pub fn get(&self, name: &str) -> ParamType {
        self.0.get(name).copied().unwrap_or_default()
    }

    /// Narrows the values of `name` to `min ..= max` (`None`: no bound on
    /// that side).
    pub fn bound(&mut self, name: &str, min: Option<i64>, max: Option<i64>) {
        let p = self.0.entry(name.to_string()).or_default();
        if let Some(m) = min {
            p.min = Some(p.min.map_or(m, |q| q.max(m)));
        }
        if let Some(m) = max {
            p.max = Some(p.max.map_or(m, |q| q.min(m)));
        }
    }

    /// Sets the C type of `name`.
    pub fn set_type(&mut self, name: &str, c_type: ParamCType) {
        self.0.entry(name.to_string()).or_default().c_type = c_type;
    }

    /// Narrows every parameter of `context` (a parameter set) to the bounds
    /// the context gives it. A parameter the context does not bound (or a
    /// bound the solver cannot find) keeps its range; an empty context
    /// changes nothing.
    pub fn add_context(&mut self, context: &Set) {
        let params = context.space().params().to_vec();
        let width = 1 + context.space().n_var();
        for (k, name) in params.iter().enumerate() {
            let mut aff = vec![Int::from(0); width];
            aff[1 + k] = Int::from(1);
            let value = |v: presburger::Result<Option<Int>>| match v {
                Ok(Some(v)) => v.to_i64(),
                _ => None,
            };
            let (lo, hi) = (value(context.min(&aff)), value(context.max(&aff)));
            self.bound(name, lo, hi);
        }
    }

    /// The values of `name`, from its bounds and its type.
    fn range(&self, name: &str) -> Iv {
        let p = self.get(name);
        let (lo, hi) = if p.c_type == ParamCType::Int {
            (i128::from(i32::MIN), i128::from(i32::MAX))
        } else {
            (i128::from(i64::MIN), i128::from(i64::MAX))
        };
        Iv::new(
            p.min.map_or(lo, |m| i128::from(m).max(lo)),
            p.max.map_or(hi, |m| i128::from(m).min(hi)),
        )
    }
}

/// Magnitudes from here on stand for "unbounded".
const BIG: i128 = 1 << 100;

/// An interval of integers (clamped to `-BIG ..= BIG`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Iv {
    lo: i128,
    hi: i128,
}

impl Iv {
    fn new(lo: i128, hi: i128) -> Iv {
        Iv {
            lo: lo.clamp(-BIG, BIG),
            hi: hi.clamp(-BIG, BIG),
        }
    }

    fn point(v: i128) -> Iv {
        Iv::new(v, v)
    }

    fn any() -> Iv {
        Iv::new(-BIG, BIG)
    }

    fn add(self, o: Iv) -> Iv {
        Iv::new(self.lo.saturating_add(o.lo), self.hi.saturating_add(o.hi))
    }

    fn neg(self) -> Iv {
        Iv::new(-self.hi, -self.lo)
    }

    fn scale(self, k: i128) -> Iv {
        let (a, b) = (self.lo.saturating_mul(k), self.hi.saturating_mul(k));
        Iv::new(a.min(b), a.max(b))
    }

    fn floor_div(self, d: i128) -> Iv {
        Iv::new(self.lo.div_euclid(d), self.hi.div_euclid(d))
    }

    fn ceil_div(self, d: i128) -> Iv {
        Iv::new(-(-self.lo).div_euclid(d), -(-self.hi).div_euclid(d))
    }

    fn min(self, o: Iv) -> Iv {
        Iv::new(self.lo.min(o.lo), self.hi.min(o.hi))
    }

    fn max(self, o: Iv) -> Iv {
        Iv::new(self.lo.max(o.lo), self.hi.max(o.hi))
    }

    fn fits_int(self) -> bool {
        self.lo >= i128::from(i32::MIN) && self.hi <= i128::from(i32::MAX)
    }
}

/// A literal's C type is wider than `int` when its value does not fit.
fn wide_literal(v: i128) -> bool {
    !Iv::point(v).fits_int()
}

/// A printed expression: its text, the values it may take and whether its
/// C type is wider than `int`.
struct Val {
    text: String,
    iv: Iv,
    wide: bool,
}

/// The state of the type analysis done while printing: the C type of the
/// counters being tried, the values of the counters in scope (and of the
/// parameters narrowed by enclosing conditions), and what went wrong.
struct Typing<'a> {
    params: &'a ParamTypes,
    counter: CType,
    /// `(name, values, is a counter)`, innermost last.
    scope: Vec<(String, Iv, bool)>,
    /// The current expression is printed with its `int` parameters cast to
    /// `long long`.
    cast: bool,
    /// An `int` intermediate of the current expression may overflow.
    overflow: bool,
    /// A value cannot be computed in the counter type tried.
    failed: bool,
}

/// The printer: the text so far, the macros used and, when the C types are
/// checked ([`Ast::to_c_with`]), the type analysis.
#[derive(Default)]
struct Printer<'a> {
    out: String,
    used: BTreeSet<Macro>,
    typing: Option<Typing<'a>>,
}

impl<'a> Printer<'a> {
    fn typed(params: &'a ParamTypes, counter: CType) -> Printer<'a> {
        Printer {
            out: String::new(),
            used: BTreeSet::new(),
            typing: Some(Typing {
                params,
                counter,
                scope: Vec::new(),
                cast: false,
                overflow: false,
                failed: false,
            }),
        }
    }

    /// Notes an intermediate value `iv` of a C type wider than `int` when
    /// `wide`: an `int` one must fit in 32 bits.
    fn check(&mut self, iv: Iv, wide: bool) {
        if let Some(t) = &mut self.typing {
            if !wide && !iv.fits_int() {
                t.overflow = true;
            }
        }
    }

    fn var(&mut self, v: &str) -> Val {
        let Some(t) = &self.typing else {
            return Val {
                text: v.to_string(),
                iv: Iv::any(),
                wide: true,
            };
        };
        let scoped = t.scope.iter().rev().find(|(n, ..)| n == v);
        if let Some((_, iv, true)) = scoped {
            return Val {
                text: v.to_string(),
                iv: *iv,
                wide: t.counter == CType::LongLong,
            };
        }
        let iv = scoped.map_or_else(|| t.params.range(v), |(_, iv, _)| *iv);
        let wide = t.params.get(v).c_type == ParamCType::Wide;
        if !wide && t.cast {
            Val {
                text: format!("(long long){v}"),
                iv,
                wide: true,
            }
        } else {
            Val {
                text: v.to_string(),
                iv,
                wide,
            }
        }
    }

    /// An expression that is evaluated on its own (a bound, a side of a
    /// comparison, a statement argument): when one of its `int`
    /// intermediates may overflow, it is printed again with its `int`
    /// parameters cast to `long long`; if that is not enough (an `int`
    /// counter overflows), the counter type tried fails.
    fn top(&mut self, e: &Expr) -> Val {
        let Some(t) = &mut self.typing else {
            return self.expr(e);
        };
        t.overflow = false;
        t.cast = false;
        let v = self.expr(e);
        let t = self.typing.as_mut().expect("typing");
        if !t.overflow {
            return v;
        }
        t.overflow = false;
        t.cast = true;
        let v = self.expr(e);
        let t = self.typing.as_mut().expect("typing");
        if t.overflow {
            t.failed = true;
        }
        t.overflow = false;
        t.cast = false;
        v
    }

    fn expr(&mut self, e: &Expr) -> Val {
        let mut s = String::new();
        let mut acc: Option<(Iv, bool)> = None;
        for (k, (c, a)) in e.terms().iter().enumerate() {
            let mag = c.unsigned_abs();
            // when casting, an `int` parameter is cast where its own
            // arithmetic is: first, in a product, or added to an `int`
            let casting = self.typing.as_ref().is_some_and(|t| t.cast);
            if casting && matches!(a, Atom::Var(_)) {
                let needed = k == 0 || mag != 1 || !acc.is_some_and(|(_, wide)| wide);
                self.typing.as_mut().expect("typing").cast = needed;
            }
            let atom = self.atom(a);
            if casting {
                self.typing.as_mut().expect("typing").cast = true;
            }
            if k == 0 {
                if *c < 0 {
                    s.push('-');
                }
            } else {
                s.push_str(if *c < 0 { " - " } else { " + " });
            }
            let term = if mag != 1 {
                s.push_str(&format!("{mag} * "));
                // `-k * x` first is `(-k) * x`; later ones `acc - k * x`
                let factor = if k == 0 {
                    i128::from(*c)
                } else {
                    i128::from(mag)
                };
                let wide = atom.wide || wide_literal(i128::from(mag));
                let p = atom.iv.scale(factor);
                self.check(p, wide);
                (p, wide)
            } else if k == 0 && *c < 0 {
                let p = atom.iv.neg();
                self.check(p, atom.wide);
                (p, atom.wide)
            } else {
                (atom.iv, atom.wide)
            };
            s.push_str(&atom.text);
            acc = Some(match acc {
                None => term,
                Some((iv, wide)) => {
                    let t = if *c < 0 { term.0.neg() } else { term.0 };
                    let (sum, wide) = (iv.add(t), wide || term.1);
                    self.check(sum, wide);
                    (sum, wide)
                }
            });
        }
        let c = e.constant();
        let (iv, wide) = match acc {
            None => {
                s.push_str(&c.to_string());
                (Iv::point(i128::from(c)), wide_literal(i128::from(c)))
            }
            Some((iv, wide)) if c != 0 => {
                s.push_str(if c < 0 { " - " } else { " + " });
                s.push_str(&c.unsigned_abs().to_string());
                let wide = wide || wide_literal(i128::from(c.unsigned_abs()));
                let sum = iv.add(Iv::point(i128::from(c)));
                self.check(sum, wide);
                (sum, wide)
            }
            Some(x) => x,
        };
        Val { text: s, iv, wide }
    }

    /// The values of `floord(n, d)` and whether its type is wide, checking
    /// the intermediates of the macro (`-(n) + (d) - 1` for a negative `n`).
    fn floord(&mut self, n: &Val, d: i64) -> (Iv, bool) {
        let d = i128::from(d.max(1));
        let wide = n.wide || wide_literal(d);
        if n.iv.lo < 0 {
            let neg = Iv::new(-n.iv.hi.min(-1), -n.iv.lo);
            self.check(neg, n.wide);
            self.check(neg.add(Iv::point(d)), wide);
            self.check(neg.add(Iv::point(d - 1)), wide);
        }
        (n.iv.floor_div(d), wide)
    }

    /// As [`Printer::floord`] for `ceild(n, d)` (`-(n)` for a negative `n`,
    /// `(n) + (d) - 1` for the others).
    fn ceild(&mut self, n: &Val, d: i64) -> (Iv, bool) {
        let d = i128::from(d.max(1));
        let wide = n.wide || wide_literal(d);
        if n.iv.lo < 0 {
            self.check(Iv::new(-n.iv.hi.min(-1), -n.iv.lo), n.wide);
        }
        if n.iv.hi >= 0 {
            let pos = Iv::new(n.iv.lo.max(0), n.iv.hi);
            self.check(pos.add(Iv::point(d)), wide);
            self.check(pos.add(Iv::point(d - 1)), wide);
        }
        (n.iv.ceil_div(d), wide)
    }

    /// An expression as an operand of `%` or a product: parenthesised unless
    /// it is a single name or a non-negative number (evaluated on its own).
    fn operand(&mut self, e: &Expr) -> String {
        let v = self.top(e);
        let simple = match e.terms() {
            [] => e.constant() >= 0,
            [(1, Atom::Var(_))] => e.constant() == 0,
            _ => false,
        };
        if simple {
            v.text
        } else {
            format!("({})", v.text)
        }
    }

    fn atom(&mut self, a: &Atom) -> Val {
        match a {
            Atom::Var(v) => self.var(v),
            Atom::FloorDiv(e, d) => {
                self.used.insert(Macro::Floord);
                let n = self.expr(e);
                let (iv, wide) = self.floord(&n, *d);
                Val {
                    text: format!("floord({}, {d})", n.text),
                    iv,
                    wide,
                }
            }
            Atom::CeilDiv(e, d) => {
                self.used.insert(Macro::Ceild);
                let n = self.expr(e);
                let (iv, wide) = self.ceild(&n, *d);
                Val {
                    text: format!("ceild({}, {d})", n.text),
                    iv,
                    wide,
                }
            }
            Atom::Mod(e, m) => {
                self.used.insert(Macro::Floord);
                let inner = self.expr(e);
                let (f, wide) = self.floord(&inner, *m);
                let m128 = i128::from((*m).max(1));
                self.check(f.scale(m128), wide);
                let x = &inner.text;
                Val {
                    text: format!("({x} - {m} * floord({x}, {m}))"),
                    iv: Iv::new(0, m128 - 1),
                    wide: wide || inner.wide,
                }
            }
            Atom::Min(v) => self.fold(v, Macro::Min, false),
            Atom::Max(v) => self.fold(v, Macro::Max, false),
        }
    }

    /// `name(name(a, b), c)` over the items (each one evaluated on its own
    /// when `top`).
    fn fold(&mut self, items: &[Expr], m: Macro, top: bool) -> Val {
        let mut it = items.iter();
        let Some(first) = it.next() else {
            return Val {
                text: "0".into(),
                iv: Iv::point(0),
                wide: false,
            };
        };
        let mut acc = if top {
            self.top(first)
        } else {
            self.expr(first)
        };
        for e in it {
            self.used.insert(m);
            let v = if top { self.top(e) } else { self.expr(e) };
            acc = Val {
                text: format!("{}({}, {})", m.name(), acc.text, v.text),
                iv: if m == Macro::Min {
                    acc.iv.min(v.iv)
                } else {
                    acc.iv.max(v.iv)
                },
                wide: acc.wide || v.wide,
            };
        }
        acc
    }

    fn bound(&mut self, b: &Bound, lower: bool) -> Val {
        self.fold(&b.0, if lower { Macro::Max } else { Macro::Min }, true)
    }

    /// `e >= 0` or `e == 0` with the positive terms on the left.
    fn comparison(&mut self, e: &Expr, op: &str) -> String {
        if op == "==" {
            // `k * (x mod m) + c == 0` with `0 <= -c/k < m`: `(x - r) % m == 0`
            if let [(k, Atom::Mod(x, m))] = e.terms() {
                let c = e.constant();
                if c % k == 0 {
                    let r = -c / k;
                    if (0..*m).contains(&r) {
                        if let Some(shifted) = x.checked_sub(&Expr::int(r)) {
                            return format!("{} % {m} == 0", self.operand(&shifted));
                        }
                    }
                }
            }
        }
        let mut pos = Expr::int(0);
        let mut neg = Expr::int(0);
        for (c, a) in e.terms() {
            let side = if *c > 0 { &mut pos } else { &mut neg };
            if let Some(s) = side.clone().checked_add_term(c.saturating_abs(), a.clone()) {
                *side = s;
            }
        }
        let c = e.constant();
        if c > 0 {
            pos = pos.checked_add(&Expr::int(c)).unwrap_or(pos);
        } else if c < 0 {
            neg = neg
                .checked_add(&Expr::int(c.saturating_neg()))
                .unwrap_or(neg);
        }
        if pos.terms().is_empty() && !neg.terms().is_empty() {
            let flipped = if op == ">=" { "<=" } else { op };
            let (l, r) = (self.top(&neg).text, self.top(&pos).text);
            format!("{l} {flipped} {r}")
        } else {
            let (l, r) = (self.top(&pos).text, self.top(&neg).text);
            format!("{l} {op} {r}")
        }
    }

    fn cond(&mut self, c: &Cond) -> String {
        match c {
            Cond::Ge(e) => self.comparison(e, ">="),
            Cond::Eq(e) => self.comparison(e, "=="),
            Cond::And(v) if v.is_empty() => "1".into(),
            Cond::Or(v) if v.is_empty() => "0".into(),
            Cond::And(v) => {
                let parts: Vec<String> = v.iter().map(|x| self.nested_cond(x, true)).collect();
                parts.join(" && ")
            }
            Cond::Or(v) => {
                let parts: Vec<String> = v.iter().map(|x| self.nested_cond(x, false)).collect();
                parts.join(" || ")
            }
        }
    }

    /// A condition inside `&&` (`in_and`) or `||`: parenthesised when it is
    /// the other connective (gcc's -Wparentheses wants `&&` inside `||`
    /// parenthesised).
    fn nested_cond(&mut self, c: &Cond, in_and: bool) -> String {
        let s = self.cond(c);
        let needs = match c {
            Cond::Or(v) => in_and && v.len() > 1,
            Cond::And(v) => !in_and && v.len() > 1,
            _ => false,
        };
        if needs { format!("({s})") } else { s }
    }

    fn conds(&mut self, v: &[Cond]) -> String {
        if v.is_empty() {
            return "1".into();
        }
        if let [c] = v {
            return self.cond(c);
        }
        let parts: Vec<String> = v.iter().map(|x| self.nested_cond(x, true)).collect();
        parts.join(" && ")
    }

    /// The values of the variables the conditions bound on their own
    /// (`c0 >= 1`, `N <= 7`, `c1 == 3`), pushed on the scope for the branch
    /// where they hold; returns how many were pushed.
    fn narrow(&mut self, conds: &[Cond]) -> usize {
        let mut pushed = 0;
        for c in conds {
            let (e, eq) = match c {
                Cond::Ge(e) => (e, false),
                Cond::Eq(e) => (e, true),
                Cond::And(v) => {
                    pushed += self.narrow(v);
                    continue;
                }
                Cond::Or(_) => continue,
            };
            let [(k, Atom::Var(v))] = e.terms() else {
                continue;
            };
            let (k, c) = (i128::from(*k), i128::from(e.constant()));
            // k * v + c >= 0 (or == 0)
            let (lo, hi) = if eq {
                if c % k != 0 {
                    continue;
                }
                (-c / k, -c / k)
            } else if k > 0 {
                (-(c.div_euclid(k)), BIG)
            } else {
                (-BIG, c.div_euclid(-k))
            };
            let cur = self.var(v);
            let Some(t) = &mut self.typing else {
                return pushed;
            };
            let counter = t
                .scope
                .iter()
                .rev()
                .find(|(n, ..)| n == v)
                .is_some_and(|x| x.2);
            let iv = Iv::new(cur.iv.lo.max(lo), cur.iv.hi.min(hi));
            if iv.lo <= iv.hi {
                t.scope.push((v.clone(), iv, counter));
                pushed += 1;
            }
        }
        pushed
    }

    fn pop(&mut self, n: usize) {
        if let Some(t) = &mut self.typing {
            let keep = t.scope.len().saturating_sub(n);
            t.scope.truncate(keep);
        }
    }

    fn line(&mut self, indent: usize, text: &str) {
        for _ in 0..indent {
            self.out.push_str("  ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    /// The children of a node as a flat list (nested blocks opened).
    fn flat(ast: &Ast) -> Vec<&Ast> {
        match ast {
            Ast::Block(v) => v.iter().flat_map(Printer::flat).collect(),
            a => vec![a],
        }
    }

    /// A body after a `for (...)` or `if (...)` header: one node indented on
    /// its own line, or a braced block. `header` is printed first; with
    /// `force_braces` the block always has braces. Returns whether braces
    /// were opened (and closed by the caller's next text when `keep_open`).
    fn body(
        &mut self,
        indent: usize,
        header: &str,
        body: &Ast,
        force_braces: bool,
        keep_open: bool,
    ) {
        let items = Printer::flat(body);
        // a pragma line is no statement: a marked loop is always in braces
        let marked = matches!(items.as_slice(), [Ast::Mark { .. }]);
        if items.len() == 1 && !force_braces && !marked {
            self.line(indent, header);
            self.node(indent + 1, items[0]);
        } else {
            self.line(indent, &format!("{header} {{"));
            for a in items {
                self.node(indent + 1, a);
            }
            if !keep_open {
                self.line(indent, "}");
            }
        }
    }

    fn node(&mut self, indent: usize, ast: &Ast) {
        match ast {
            Ast::Block(_) => {
                for a in Printer::flat(ast) {
                    self.node(indent, a);
                }
            }
            Ast::User { name, args } => {
                let a: Vec<String> = args.iter().map(|e| self.top(e).text).collect();
                self.line(indent, &format!("{name}({});", a.join(", ")));
            }
            Ast::Mark { mark, body } => {
                self.line(indent, mark.pragma());
                self.node(indent, body);
            }
            Ast::For {
                var,
                lower,
                upper,
                stride,
                body,
            } => {
                let lo = self.bound(lower, true);
                let hi = self.bound(upper, false);
                let mut ty = CType::Int;
                if let Some(t) = &mut self.typing {
                    ty = t.counter;
                    // the counter holds the lower bound, then each value up
                    // to the upper one, then that plus the stride
                    let last = hi.iv.hi.saturating_add(i128::from(*stride));
                    let reach = Iv::new(lo.iv.lo, lo.iv.hi.max(last));
                    if ty == CType::Int && !reach.fits_int() {
                        t.failed = true;
                    }
                    let inside = Iv::new(lo.iv.lo, hi.iv.hi.max(lo.iv.lo));
                    t.scope.push((var.clone(), inside, true));
                }
                let header = format!(
                    "for ({} {var} = {}; {var} <= {}; {var} += {stride})",
                    ty.name(),
                    lo.text,
                    hi.text
                );
                self.body(indent, &header, body, false, false);
                self.pop(1);
            }
            Ast::If {
                conds,
                then,
                otherwise,
            } => {
                let header = format!("if ({})", self.conds(conds));
                let narrowed = self.narrow(conds);
                match otherwise {
                    None => {
                        self.body(indent, &header, then, false, false);
                        self.pop(narrowed);
                    }
                    Some(o) => {
                        self.body(indent, &header, then, true, true);
                        self.pop(narrowed);
                        let items = Printer::flat(o);
                        if let [Ast::If { .. }] = items.as_slice() {
                            // `} else if (...)`: print the inner if after `} else `
                            let before = std::mem::take(&mut self.out);
                            self.node(indent, items[0]);
                            let inner = std::mem::replace(&mut self.out, before);
                            let text = inner.trim_start().to_string();
                            self.line(indent, &format!("}} else {}", text.trim_end()));
                        } else {
                            self.line(indent, "} else {");
                            for a in items {
                                self.node(indent + 1, a);
                            }
                            self.line(indent, "}");
                        }
                    }
                }
            }
        }
    }
}

impl Ast {
    /// The AST as C statements in isl's printing style (see the module doc),
    /// each line ending in a newline; an empty block prints nothing. The
    /// parameters are 64-bit integers of any value (to be declared `long
    /// long`): [`Ast::to_c_with`] with the default [`ParamTypes`].
    pub fn to_c(&self) -> String {
        self.to_c_with(&ParamTypes::default())
    }

    /// The AST as C, as [`Ast::to_c`], for parameters as `params` describes
    /// them. The loop counters are `int` when every value the code computes
    /// fits in 32 bits for those parameter values: the counters (from their
    /// lower bound to their upper bound plus the stride) and every
    /// intermediate of every expression in C's order of evaluation and
    /// types, the helper macros' included; the values are bounded by
    /// interval arithmetic over the loop bounds, the parameters' ranges and
    /// the conditions on one variable. Otherwise they are `long long`
    /// ([`Ast::counter_type`]), and an expression in which an `int`
    /// parameter could still overflow `int` arithmetic (`2 * N`, `N + M`,
    /// `N - 1` for `N` the least `int`) has its `int` parameters cast where
    /// their arithmetic is done, `2 * (long long)N`, `(long long)N + M`.
    /// Values beyond 64 bits are not checked.
    ///
    /// ```
    /// use presburger_codegen::{generate, Options, ParamCType, ParamTypes};
    /// let sched: presburger::UnionMap =
    ///     "{ S[i, j] -> [i, 799999999 i + j] : 0 <= i < 3 and 0 <= j < 800000000 }".parse()?;
    /// let ast = generate(&sched, None, None, &Options::default())?;
    /// assert!(ast.to_c().starts_with("for (long long c0 = 0; c0 <= 2; c0 += 1)"));
    ///
    /// let sched: presburger::UnionMap = "[N] -> { S[i] -> [2i] : 0 <= i < N }".parse()?;
    /// let ast = generate(&sched, None, None, &Options::default())?;
    /// // a 64-bit N (the default): the counter may pass 2^31
    /// assert!(ast.to_c().starts_with("for (long long c0 = 0; c0 <= 2 * N - 2; c0 += 2)"));
    /// // an int N: so may 2N - 2, computed in 64 bits
    /// let mut params = ParamTypes::default();
    /// params.set_type("N", ParamCType::Int);
    /// assert!(ast.to_c_with(&params).starts_with("for (long long c0 = 0; c0 <= 2 * (long long)N - 2;"));
    /// // an int N between 0 and 1000: all fits in an int
    /// params.bound("N", Some(0), Some(1000));
    /// assert!(ast.to_c_with(&params).starts_with("for (int c0 = 0; c0 <= 2 * N - 2;"));
    /// # Ok::<(), presburger_codegen::Error>(())
    /// ```
    pub fn to_c_with(&self, params: &ParamTypes) -> String {
        self.print_typed(params).0
    }

    /// The C type of the loop counters that [`Ast::to_c_with`] prints.
    pub fn counter_type(&self, params: &ParamTypes) -> CType {
        self.print_typed(params).1
    }

    fn print_typed(&self, params: &ParamTypes) -> (String, CType) {
        let mut p = Printer::typed(params, CType::Int);
        p.node(0, self);
        if p.typing.as_ref().is_some_and(|t| t.failed) {
            p = Printer::typed(params, CType::LongLong);
            p.node(0, self);
            return (p.out, CType::LongLong);
        }
        (p.out, CType::Int)
    }

    /// The helper macros ([`Macro`]) that [`Ast::to_c`] calls, in a fixed
    /// order (floord, ceild, min, max).
    ///
    /// ```
    /// use presburger_codegen::{Ast, Bound, Expr, Macro};
    /// let ast = Ast::For {
    ///     var: "c0".into(),
    ///     lower: Bound(vec![Expr::int(0), Expr::var("M")]),
    ///     upper: Bound(vec![Expr::var("N").floor_div(2).unwrap()]),
    ///     stride: 1,
    ///     body: Box::new(Ast::User { name: "S".into(), args: vec![Expr::var("c0")] }),
    /// };
    /// assert_eq!(ast.used_macros(), vec![Macro::Floord, Macro::Max]);
    /// assert!(ast.to_c().starts_with("for (long long c0 = max(0, M); c0 <= floord(N, 2); c0 += 1)"));
    /// ```
    pub fn used_macros(&self) -> Vec<Macro> {
        let mut p = Printer::default();
        p.node(0, self);
        p.used.into_iter().collect()
    }
}

impl fmt::Display for Ast {
    /// The C text of [`Ast::to_c`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_c())
    }
}

impl fmt::Display for Expr {
    /// The expression in C syntax (see the module doc).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&Printer::default().expr(self).text)
    }
}

impl fmt::Display for Cond {
    /// The condition in C syntax (see the module doc).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&Printer::default().cond(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(n: &str) -> Expr {
        Expr::var(n)
    }

    #[test]
    fn expressions_print_like_isl() {
        assert_eq!((v("N") - 1).to_string(), "N - 1");
        assert_eq!((-v("N") + v("c0") + 1).to_string(), "-N + c0 + 1");
        assert_eq!((v("c0") * -2 + 3).to_string(), "-2 * c0 + 3");
        assert_eq!(Expr::int(-4).to_string(), "-4");
        let f = (v("N") + 1).floor_div(2).unwrap() * 2;
        assert_eq!(f.to_string(), "2 * floord(N + 1, 2)");
        let m = Expr::max(vec![Expr::int(0), v("a"), v("b")]).unwrap();
        assert_eq!(m.to_string(), "max(max(0, a), b)");
    }

    #[test]
    fn conditions_put_positive_terms_left() {
        let c = Cond::Ge(v("N") - v("c0") - 1);
        assert_eq!(c.to_string(), "N >= c0 + 1");
        assert_eq!(Cond::Ge(-v("c0")).to_string(), "c0 <= 0");
        assert_eq!(Cond::Ge(v("c0") - 5).to_string(), "c0 >= 5");
        assert_eq!(Cond::Eq(v("c0") - v("N")).to_string(), "c0 == N");
        let m = v("c0").modulo(2).unwrap();
        assert_eq!(Cond::Eq(m.clone()).to_string(), "c0 % 2 == 0");
        assert_eq!(Cond::Eq(m.clone() - 1).to_string(), "(c0 - 1) % 2 == 0");
        assert_eq!(Cond::Ge(m - 1).to_string(), "(c0 - 2 * floord(c0, 2)) >= 1");
        let or = Cond::Or(vec![
            Cond::And(vec![Cond::Ge(v("a")), Cond::Ge(v("b"))]),
            Cond::Ge(v("c")),
        ]);
        assert_eq!(or.to_string(), "(a >= 0 && b >= 0) || c >= 0");
    }

    #[test]
    fn nesting_and_braces() {
        let s = |n: &str| Ast::User {
            name: n.into(),
            args: vec![v("c0")],
        };
        let ast = Ast::For {
            var: "c0".into(),
            lower: Bound(vec![Expr::int(0)]),
            upper: Bound(vec![v("N") - 1]),
            stride: 1,
            body: Box::new(Ast::Block(vec![
                s("S"),
                Ast::If {
                    conds: vec![Cond::Ge(v("c0") - 1)],
                    then: Box::new(s("T")),
                    otherwise: Some(Box::new(s("U"))),
                },
            ])),
        };
        let want = "\
for (int c0 = 0; c0 <= N - 1; c0 += 1) {
  S(c0);
  if (c0 >= 1) {
    T(c0);
  } else {
    U(c0);
  }
}
";
        let mut small = ParamTypes::default();
        small.bound("N", Some(0), Some(1000));
        assert_eq!(ast.to_c_with(&small), want);
        // a 64-bit N of any value: the counter may not fit in an int
        let wide = want.replace("for (int", "for (long long");
        assert_eq!(ast.to_c(), wide);
        assert_eq!(Ast::Block(vec![]).to_c(), "");
        assert!(ast.used_macros().is_empty());
    }

    fn one_loop(lower: Expr, upper: Expr, stride: i64, arg: Expr) -> Ast {
        Ast::For {
            var: "c0".into(),
            lower: Bound(vec![lower]),
            upper: Bound(vec![upper]),
            stride,
            body: Box::new(Ast::User {
                name: "S".into(),
                args: vec![arg],
            }),
        }
    }

    fn int_params(names: &[&str]) -> ParamTypes {
        let mut p = ParamTypes::default();
        for n in names {
            p.set_type(n, ParamCType::Int);
        }
        p
    }

    #[test]
    fn counters_are_int_only_when_every_value_fits() {
        let none = ParamTypes::default();
        let max = i64::from(i32::MAX);
        // the counter ends at the upper bound plus the stride
        let a = one_loop(Expr::int(0), Expr::int(max - 1), 1, v("c0"));
        assert_eq!(a.counter_type(&none), CType::Int);
        let a = one_loop(Expr::int(0), Expr::int(max - 1), 2, v("c0"));
        assert_eq!(a.counter_type(&none), CType::LongLong);
        assert!(
            a.to_c()
                .starts_with("for (long long c0 = 0; c0 <= 2147483646; c0 += 2)")
        );
        let a = one_loop(Expr::int(i64::from(i32::MIN)), Expr::int(0), 1, v("c0"));
        assert_eq!(a.counter_type(&none), CType::Int);
        // an argument overflows although the counter does not
        let a = one_loop(Expr::int(0), Expr::int(3), 1, v("c0") * 1_000_000_000);
        assert_eq!(a.counter_type(&none), CType::LongLong);
        let a = one_loop(Expr::int(0), Expr::int(2), 1, v("c0") * 1_000_000_000);
        assert_eq!(a.counter_type(&none), CType::Int);
        // the intermediates of floord: -(n) + d - 1 for a negative n
        let f = |n: i64| (v("c0") - n).floor_div(7).unwrap();
        let lo = i64::from(i32::MIN);
        let a = one_loop(Expr::int(lo + 10), Expr::int(0), 1, f(0));
        assert_eq!(a.counter_type(&none), CType::Int);
        let a = one_loop(Expr::int(lo), Expr::int(0), 1, f(0));
        assert_eq!(
            a.counter_type(&none),
            CType::LongLong,
            "-(INT_MIN) overflows"
        );
        // ceild: n + d - 1 for a non-negative n
        let c = (v("c0")).ceil_div(7).unwrap();
        let a = one_loop(Expr::int(0), Expr::int(max - 7), 1, c.clone());
        assert_eq!(a.counter_type(&none), CType::Int);
        let a = one_loop(Expr::int(0), Expr::int(max - 2), 1, c);
        assert_eq!(a.counter_type(&none), CType::LongLong);
    }

    #[test]
    fn int_parameters_are_cast_where_int_arithmetic_could_overflow() {
        let p = int_params(&["N", "M"]);
        // N - 1 overflows for N = INT_MIN
        let a = one_loop(Expr::int(0), v("N") - 1, 1, v("c0"));
        assert_eq!(
            a.to_c_with(&p),
            "for (int c0 = 0; c0 <= (long long)N - 1; c0 += 1)\n  S(c0);\n"
        );
        let mut q = p.clone();
        q.bound("N", Some(0), None);
        assert_eq!(
            a.to_c_with(&q),
            "for (int c0 = 0; c0 <= N - 1; c0 += 1)\n  S(c0);\n"
        );
        // N + M may pass 2^31 even for non-negative N and M
        q.bound("M", Some(0), None);
        let a = one_loop(Expr::int(0), v("N") + v("M"), 1, v("c0"));
        assert_eq!(
            a.to_c_with(&q),
            "for (long long c0 = 0; c0 <= (long long)N + M; c0 += 1)\n  S(c0);\n"
        );
        // a 64-bit parameter needs no cast
        let a = one_loop(Expr::int(0), v("N") * 2, 1, v("c0"));
        assert_eq!(
            a.to_c(),
            "for (long long c0 = 0; c0 <= 2 * N; c0 += 1)\n  S(c0);\n"
        );
        // an unknown type: 64-bit values, perhaps int arithmetic
        let mut u = ParamTypes::default();
        u.set_type("N", ParamCType::Unknown);
        assert_eq!(
            a.to_c_with(&u),
            "for (long long c0 = 0; c0 <= 2 * (long long)N; c0 += 1)\n  S(c0);\n"
        );
    }

    #[test]
    fn conditions_on_one_variable_narrow_its_values() {
        let p = int_params(&["N"]);
        let inner = one_loop(Expr::int(0), v("N") * 2, 1, v("c0"));
        let guarded = Ast::If {
            conds: vec![Cond::Ge(v("N")), Cond::Ge(-v("N") + 1000)],
            then: Box::new(inner.clone()),
            otherwise: None,
        };
        assert_eq!(
            guarded.to_c_with(&p),
            "if (N >= 0 && N <= 1000)\n  for (int c0 = 0; c0 <= 2 * N; c0 += 1)\n    S(c0);\n"
        );
        assert_eq!(inner.counter_type(&p), CType::LongLong);
        // not in the else branch
        let both = Ast::If {
            conds: vec![Cond::Ge(v("N")), Cond::Ge(-v("N") + 1000)],
            then: Box::new(Ast::Block(vec![])),
            otherwise: Some(Box::new(inner)),
        };
        assert_eq!(both.counter_type(&p), CType::LongLong);
    }

    #[test]
    fn context_bounds_the_parameters() {
        let ctx: Set = "[N, M] -> { : 0 <= N <= 100 and M >= 5 }".parse().unwrap();
        let mut p = int_params(&["N", "M"]);
        p.add_context(&ctx);
        assert_eq!(p.get("N").min, Some(0));
        assert_eq!(p.get("N").max, Some(100));
        assert_eq!(p.get("M").min, Some(5));
        assert_eq!(p.get("M").max, None);
        assert_eq!(p.get("M").c_type, ParamCType::Int);
    }
}
