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

use crate::ast::{Ast, Atom, Bound, Cond, Expr};
use std::collections::BTreeSet;
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

/// The printer: the text so far and the macros used.
#[derive(Default)]
struct Printer {
    out: String,
    used: BTreeSet<Macro>,
}

impl Printer {
    fn expr(&mut self, e: &Expr) -> String {
        let mut s = String::new();
        for (k, (c, a)) in e.terms().iter().enumerate() {
            let atom = self.atom(a);
            let mag = c.unsigned_abs();
            if k == 0 {
                if *c < 0 {
                    s.push('-');
                }
            } else {
                s.push_str(if *c < 0 { " - " } else { " + " });
            }
            if mag != 1 {
                s.push_str(&format!("{mag} * "));
            }
            s.push_str(&atom);
        }
        let c = e.constant();
        if e.terms().is_empty() {
            s.push_str(&c.to_string());
        } else if c != 0 {
            s.push_str(if c < 0 { " - " } else { " + " });
            s.push_str(&c.unsigned_abs().to_string());
        }
        s
    }

    /// An expression as an operand of `%` or a product: parenthesised unless
    /// it is a single name or a non-negative number.
    fn operand(&mut self, e: &Expr) -> String {
        let s = self.expr(e);
        let simple = match e.terms() {
            [] => e.constant() >= 0,
            [(1, Atom::Var(_))] => e.constant() == 0,
            _ => false,
        };
        if simple {
            s
        } else {
            format!("({s})")
        }
    }

    fn atom(&mut self, a: &Atom) -> String {
        match a {
            Atom::Var(v) => v.clone(),
            Atom::FloorDiv(e, d) => {
                self.used.insert(Macro::Floord);
                format!("floord({}, {d})", self.expr(e))
            }
            Atom::CeilDiv(e, d) => {
                self.used.insert(Macro::Ceild);
                format!("ceild({}, {d})", self.expr(e))
            }
            Atom::Mod(e, m) => {
                self.used.insert(Macro::Floord);
                let inner = self.expr(e);
                format!("({inner} - {m} * floord({inner}, {m}))")
            }
            Atom::Min(v) => self.fold(v, Macro::Min),
            Atom::Max(v) => self.fold(v, Macro::Max),
        }
    }

    /// `name(name(a, b), c)` over the items.
    fn fold(&mut self, items: &[Expr], m: Macro) -> String {
        let mut it = items.iter();
        let Some(first) = it.next() else {
            return "0".into();
        };
        let mut s = self.expr(first);
        for e in it {
            self.used.insert(m);
            s = format!("{}({s}, {})", m.name(), self.expr(e));
        }
        s
    }

    fn bound(&mut self, b: &Bound, lower: bool) -> String {
        self.fold(&b.0, if lower { Macro::Max } else { Macro::Min })
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
            format!("{} {flipped} {}", self.expr(&neg), self.expr(&pos))
        } else {
            format!("{} {op} {}", self.expr(&pos), self.expr(&neg))
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
        if needs {
            format!("({s})")
        } else {
            s
        }
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
                let a: Vec<String> = args.iter().map(|e| self.expr(e)).collect();
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
                let header = format!("for (int {var} = {lo}; {var} <= {hi}; {var} += {stride})");
                self.body(indent, &header, body, false, false);
            }
            Ast::If {
                conds,
                then,
                otherwise,
            } => {
                let header = format!("if ({})", self.conds(conds));
                match otherwise {
                    None => self.body(indent, &header, then, false, false),
                    Some(o) => {
                        self.body(indent, &header, then, true, true);
                        let items = Printer::flat(o);
                        if let [Ast::If { .. }] = items.as_slice() {
                            // `} else if (...)`: print the inner if after `} else `
                            let mut inner = Printer::default();
                            inner.node(indent, items[0]);
                            self.used.extend(inner.used);
                            let text = inner.out.trim_start().to_string();
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
    /// each line ending in a newline; an empty block prints nothing.
    pub fn to_c(&self) -> String {
        let mut p = Printer::default();
        p.node(0, self);
        p.out
    }

    /// The helper macros ([`Macro`]) that [`Ast::to_c`] calls, in a fixed
    /// order (floord, ceild, min, max).
    ///
    /// ```
    /// use codegen::{Ast, Bound, Expr, Macro};
    /// let ast = Ast::For {
    ///     var: "c0".into(),
    ///     lower: Bound(vec![Expr::int(0), Expr::var("M")]),
    ///     upper: Bound(vec![Expr::var("N").floor_div(2).unwrap()]),
    ///     stride: 1,
    ///     body: Box::new(Ast::User { name: "S".into(), args: vec![Expr::var("c0")] }),
    /// };
    /// assert_eq!(ast.used_macros(), vec![Macro::Floord, Macro::Max]);
    /// assert!(ast.to_c().starts_with("for (int c0 = max(0, M); c0 <= floord(N, 2); c0 += 1)"));
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
        f.write_str(&Printer::default().expr(self))
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
        assert_eq!(ast.to_c(), want);
        assert_eq!(Ast::Block(vec![]).to_c(), "");
        assert!(ast.used_macros().is_empty());
    }
}
