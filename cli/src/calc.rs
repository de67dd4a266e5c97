//! The `poly calc` language: statements over union sets and maps, in the style of
//! isl's `iscc` calculator.
//!
//! ```text
//! program  := (stmt)*
//! stmt     := NAME ':=' expr ';'  |  expr ';'           (prints the value)
//!           | 'codegen' expr ';'                        (prints the loops, as C)
//! expr     := sum [ ('<=' | '>=' | '<' | '>' | '=') sum ]
//! sum      := prod (('+' | '-') prod)*                   union, difference
//! prod     := compose (('*' | '%') compose)*             intersection, gist
//! compose  := postfix ('.' postfix)*                     A . B: A, then B
//! postfix  := prefix ( '^-1' | '(' expr ')' )*           reverse, apply
//! prefix   := ('dom' | 'ran') prefix | primary
//! primary  := literal | FUNCTION '(' args ')' | NAME | '(' expr ')'
//! ```
//! A literal is any isl-notation set or map (`{ ... }` or `[N] -> { ... }`),
//! or a piecewise quasi-affine function in isl's notation, told apart by the
//! parenthesised entries of its range tuple (`{ [i] -> [(i + 1)] : i < 10 }`,
//! see [`presburger::is_function_text`]). A function stands for its graph
//! where a map is expected (`F . M`, `F(S)`, `F^-1`, comparisons). A literal
//! `{ rat: .. }` is a [`presburger::RationalSet`], with `lexmin`, `lexmax`,
//! `is_empty`, `+`, `*` and the comparisons; other operations refuse it.
//! Operations that the library does not provide yet give an error that says so.

use presburger::tokens::{Spanned, Tok, tokenize};
use presburger::{
    DimKind, Error, Object, PwAff, PwMultiAff, RationalSet, Set, UnionMap, UnionPwMultiAff,
    UnionSet, is_function_text, parse_object,
};
use std::collections::HashMap;
use std::fmt;

const MAX_DEPTH: usize = 100;

/// A value of the calculator.
#[derive(Debug, Clone)]
pub enum Value {
    Set(UnionSet),
    Map(UnionMap),
    Bool(bool),
    /// A piecewise quasi-affine function, on one or more domain tuples
    /// (isl's `isl_union_pw_multi_aff`; with one output per member it is
    /// also iscc's pw_aff). Operations that compute a function (literals,
    /// `+`, `min`, `pullback`, and later a parametric `lexmin`) give this.
    PwMultiAff(UnionPwMultiAff),
    /// A rational set (isl's `{ rat: [i] : .. }`): its literal, `lexmin`,
    /// `lexmax`, `is_empty`, `+`, `*` and the comparisons; no integer
    /// operation takes it.
    Rational(RationalSet),
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Set(s) => write!(f, "{s}"),
            Value::Map(m) => write!(f, "{m}"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::PwMultiAff(g) => write!(f, "{g}"),
            Value::Rational(r) => write!(f, "{r}"),
        }
    }
}

/// Functions whose names are reserved for operations still to come, with what
/// to use instead.
const NOT_YET: &[(&str, &str)] = &[
    (
        "card",
        "counting points is not implemented yet; `is_empty`, `sample` and `lexmin` give \
         emptiness, a point and the least point",
    ),
    (
        "transitive_closure",
        "is not implemented yet; `M . M` composes a map with itself for a bounded number of steps",
    ),
    (
        "schedule",
        "is not implemented yet in calc; `poly schedule FILE.c` schedules the SCoP of a C file",
    ),
    (
        "last",
        "(iscc's `last W before R under S`, value-based dependences) is not implemented yet; \
         `lexmax` of a map without parameters gives the last source of each sink",
    ),
    (
        "any",
        "(iscc's `any W before R under S`, memory-based dependences) is not implemented yet; \
         `R^-1 . W` composes accesses into memory-based dependences",
    ),
];

/// One entry of `poly calc --help`: a function call or an operator, what it
/// computes, and an example with its value. A test runs every example and
/// compares it with the value (set equality, or the printed boolean), so the
/// help and the calculator cannot drift apart.
pub struct Doc {
    /// The call or operator form, e.g. `intersect_domain(M, S)`.
    pub form: &'static str,
    /// What it computes.
    pub meaning: &'static str,
    /// An example program expression and its value.
    pub example: &'static str,
    pub value: &'static str,
}

const fn doc(
    form: &'static str,
    meaning: &'static str,
    example: &'static str,
    value: &'static str,
) -> Doc {
    Doc {
        form,
        meaning,
        example,
        value,
    }
}

/// The functions of the calculator (their names are `FUNCTIONS[k].form` up to
/// the parenthesis).
pub const FUNCTIONS: &[Doc] = &[
    doc(
        "domain(M)",
        "the domain of a map",
        "domain({ [i] -> [i + 1] : 0 <= i < 3 })",
        "{ [i] : 0 <= i <= 2 }",
    ),
    doc(
        "range(M)",
        "the range of a map",
        "range({ [i] -> [i + 1] : 0 <= i < 3 })",
        "{ [j] : 1 <= j <= 3 }",
    ),
    doc(
        "reverse(M)",
        "the inverse relation",
        "reverse({ [i] -> [i + 1] })",
        "{ [j] -> [j - 1] }",
    ),
    doc(
        "union(A, B)",
        "union (also A + B)",
        "union({ [i] : i = 0 }, { [i] : i = 1 })",
        "{ [i] : 0 <= i <= 1 }",
    ),
    doc(
        "intersect(A, B)",
        "intersection (also A * B; a map and a set: the domain restricted)",
        "intersect({ [i] : i >= 0 }, { [i] : i <= 3 })",
        "{ [i] : 0 <= i <= 3 }",
    ),
    doc(
        "subtract(A, B)",
        "difference (also A - B)",
        "subtract({ [i] : 0 <= i <= 5 }, { [i] : i >= 3 })",
        "{ [i] : 0 <= i <= 2 }",
    ),
    doc(
        "apply(S, M)",
        "the image of S under M (also M(S))",
        "apply({ [i] : 0 <= i < 3 }, { [i] -> [2i] })",
        "{ [j] : exists k : j = 2k and 0 <= k <= 2 }",
    ),
    doc(
        "intersect_domain(M, S)",
        "M restricted to inputs in S",
        "intersect_domain({ [i] -> [i + 1] }, { [i] : 0 <= i < 3 })",
        "{ [i] -> [i + 1] : 0 <= i <= 2 }",
    ),
    doc(
        "intersect_range(M, S)",
        "M restricted to outputs in S",
        "intersect_range({ [i] -> [i + 1] }, { [j] : 0 <= j < 3 })",
        "{ [i] -> [i + 1] : -1 <= i <= 1 }",
    ),
    doc(
        "complement(S)",
        "the complement within the space",
        "complement({ [i] : i >= 0 })",
        "{ [i] : i < 0 }",
    ),
    doc(
        "coalesce(S)",
        "the same set with fewer disjuncts where that is exact",
        "coalesce({ [i] : 0 <= i <= 2 or 3 <= i <= 5 })",
        "{ [i] : 0 <= i <= 5 }",
    ),
    doc(
        "simplify(S)",
        "the same set with simplified constraints",
        "simplify({ [i] : i >= 0 and i >= 1 })",
        "{ [i] : i >= 1 }",
    ),
    doc(
        "gist(A, C)",
        "A simplified under the context C (equal to A within C)",
        "gist({ [i] : 0 <= i <= 10 }, { [i] : i >= 0 })",
        "{ [i] : i <= 10 }",
    ),
    doc(
        "box_hull(S)",
        "the smallest box (bounds per dimension) around S",
        "box_hull({ [i, j] : 0 <= i <= 2 and i <= j <= 2i })",
        "{ [i, j] : 0 <= i <= 2 and 0 <= j <= 4 }",
    ),
    doc(
        "deltas(M)",
        "the differences output - input (in the domain's tuple when it is the range's)",
        "deltas({ A[i, j] -> A[i + 1, j - 1] })",
        "{ A[1, -1] }",
    ),
    doc(
        "wrap(M)",
        "a map as a set of pairs",
        "wrap({ [i] -> [i + 1] : 0 <= i < 2 })",
        "{ [[i] -> [j]] : j = i + 1 and 0 <= i <= 1 }",
    ),
    doc(
        "unwrap(S)",
        "a set of pairs as a map",
        "unwrap({ [[i] -> [j]] : j = i + 1 })",
        "{ [i] -> [i + 1] }",
    ),
    doc(
        "sample(S)",
        "one point of S (empty when S is)",
        "sample({ [i, j] : i = 3 and j = 2i })",
        "{ [3, 6] }",
    ),
    doc(
        "lexmin(S)",
        "the lexicographically smallest point (for every parameter value)",
        "lexmin({ [i, j] : 2 <= i <= 5 and 0 <= j <= i })",
        "{ [2, 0] }",
    ),
    doc(
        "lexmax(S)",
        "the lexicographically largest point (for every parameter value)",
        "lexmax([N] -> { [i, j] : 0 <= i <= N and 0 <= j <= i })",
        "[N] -> { [N, N] : N >= 0 }",
    ),
    doc(
        "lexmin(M)",
        "the lexicographically smallest image of every input",
        "lexmin([N] -> { [i] -> [j] : i <= j <= N })",
        "[N] -> { [i] -> [i] : i <= N }",
    ),
    doc(
        "dim_max(S, k)",
        "the largest value of dimension k, a function of the parameters",
        "dim_max([N, M] -> { [i] : 0 <= i <= N and i <= M }, 0)",
        "[N, M] -> { [(M)] : 0 <= M <= N; [(N)] : N >= 0 and M > N }",
    ),
    doc(
        "dim_min(S, k)",
        "the smallest value of dimension k, a function of the parameters",
        "dim_min([N] -> { [i, j] : N <= i <= 10 and j = 2i and i >= 0 }, 1)",
        "[N] -> { [(2N)] : 0 <= N <= 10; [(0)] : N < 0 }",
    ),
    doc(
        "params(S)",
        "the parameter values for which S (a set or a map) is not empty",
        "params([n] -> { [i] : 0 <= i < n })",
        "[n] -> { : n >= 1 }",
    ),
    doc(
        "is_empty(S)",
        "true when S has no integer point",
        "is_empty({ [i] : 2i = 1 })",
        "true",
    ),
    doc(
        "is_subset(A, B)",
        "true when A is inside B (also A <= B)",
        "is_subset({ [i] : 0 <= i <= 2 }, { [i] : i >= 0 })",
        "true",
    ),
    doc(
        "is_equal(A, B)",
        "true when A and B are the same set (also A = B)",
        "is_equal({ [i] : 0 <= i <= 1 }, { [0]; [1] })",
        "true",
    ),
    doc(
        "is_disjoint(A, B)",
        "true when A and B share no point",
        "is_disjoint({ [i] : i <= 0 }, { [i] : i >= 1 })",
        "true",
    ),
    doc(
        "domain(F)",
        "the domain of a function (also dom F)",
        "domain({ [i] -> [(i + 1)] : 0 <= i < 3 })",
        "{ [i] : 0 <= i <= 2 }",
    ),
    doc(
        "map(F)",
        "the graph of a function, as a map (a map stays itself)",
        "map({ [i] -> [(floor((i)/2))] : 0 <= i < 4 })",
        "{ [0] -> [0]; [1] -> [0]; [2] -> [1]; [3] -> [1] }",
    ),
    doc(
        "min(F, G)",
        "the smaller value of two one-output functions, where both are defined",
        "min({ [i] -> [(i)] }, { [i] -> [(5)] })",
        "{ [i] -> [(i)] : i <= 5; [i] -> [(5)] : i >= 6 }",
    ),
    doc(
        "max(F, G)",
        "the larger value of two one-output functions, where both are defined",
        "max({ [i] -> [(i)] : i >= 0 }, { [i] -> [(5)] })",
        "{ [i] -> [(5)] : 0 <= i <= 5; [i] -> [(i)] : i >= 6 }",
    ),
    doc(
        "pullback(F, G)",
        "F after G: x -> F(G(x)), where G's value is in F's domain (isl's pullback)",
        "pullback({ A[a] -> [(2a)] : a >= 0 }, { [i] -> A[(i - 3)] })",
        "{ [i] -> [(2i - 6)] : i >= 3 }",
    ),
    doc(
        "intersect_domain(F, S)",
        "a function restricted to S (also F * S)",
        "intersect_domain({ [i] -> [(2i)] }, { [i] : 0 <= i < 3 })",
        "{ [i] -> [(2i)] : 0 <= i <= 2 }",
    ),
    doc(
        "gist(F, C)",
        "a function simplified on the assumption that its argument is in C (also F % C)",
        "gist({ [i] -> [(i)] : 0 <= i <= 10 }, { [i] : i >= 0 })",
        "{ [i] -> [(i)] : i <= 10 }",
    ),
    doc(
        "coalesce(F)",
        "a function with its pieces of one expression merged",
        "coalesce({ [i] -> [(i)] : i <= 0; [i] -> [(i)] : i > 0 })",
        "{ [i] -> [(i)] }",
    ),
    doc(
        "is_bounded(S)",
        "true when every dimension of S is bounded",
        "is_bounded({ [i] : i >= 0 })",
        "false",
    ),
];

/// The operators, in the same form.
pub const OPERATORS: &[Doc] = &[
    doc(
        "A + B",
        "union",
        "{ [i] : i = 0 } + { [i] : i = 1 }",
        "{ [i] : 0 <= i <= 1 }",
    ),
    doc(
        "A - B",
        "difference",
        "{ [i] : 0 <= i <= 5 } - { [i] : i >= 3 }",
        "{ [i] : 0 <= i <= 2 }",
    ),
    doc(
        "A * B",
        "intersection (a map and a set: the domain restricted)",
        "{ [i] -> [i + 1] } * { [i] : 0 <= i < 2 }",
        "{ [i] -> [i + 1] : 0 <= i <= 1 }",
    ),
    doc(
        "S * P",
        "a set or map and a parameter set `[n] -> { : .. }`: the parameters restricted",
        "[n] -> { [i] : 0 <= i < n } * [n] -> { : n > 2 }",
        "[n] -> { [i] : n >= 3 and 0 <= i < n }",
    ),
    doc(
        "M(S)",
        "application: the image of S (of a map: composition)",
        "{ [i] -> [i + 1] }({ [i] : 0 <= i < 2 })",
        "{ [j] : 1 <= j <= 2 }",
    ),
    doc(
        "A . B",
        "composition: A, then B",
        "{ [i] -> [i + 1] } . { [j] -> [2j] }",
        "{ [i] -> [2i + 2] }",
    ),
    doc(
        "f S",
        "a one-argument function without parentheses, as in iscc",
        "lexmin { [i, j] : 2 <= i <= 5 and 0 <= j <= i }",
        "{ [2, 0] }",
    ),
    doc(
        "M^-1",
        "the inverse relation",
        "{ [i] -> [i + 1] }^-1",
        "{ [j] -> [j - 1] }",
    ),
    doc(
        "dom M",
        "the domain",
        "dom { [i] -> [i + 1] : 0 <= i < 3 }",
        "{ [i] : 0 <= i <= 2 }",
    ),
    doc(
        "ran M",
        "the range",
        "ran { [i] -> [i + 1] : 0 <= i < 3 }",
        "{ [j] : 1 <= j <= 3 }",
    ),
    doc(
        "A % C",
        "gist: A simplified in the context C (sets, maps, a function and a set)",
        "{ [i] : 0 <= i <= 10 } % { [i] : i >= 0 }",
        "{ [i] : i <= 10 }",
    ),
    doc(
        "F + G",
        "two functions: their sum where both are defined (a map with a function: union)",
        "{ [i] -> [(i)] : i >= 0 } + { [i] -> [(1)] : i <= 5 }",
        "{ [i] -> [(i + 1)] : 0 <= i <= 5 }",
    ),
    doc(
        "F - G",
        "two functions: their difference where both are defined",
        "{ [i] -> [(2i), (i)] } - { [i] -> [(i), (1)] }",
        "{ [i] -> [(i), (i - 1)] }",
    ),
    doc(
        "F * S",
        "a function restricted to the domain S (or to a parameter set)",
        "{ [i] -> [(i + 1)] } * { [i] : 0 <= i < 2 }",
        "{ [i] -> [(i + 1)] : 0 <= i <= 1 }",
    ),
    doc(
        "F(S)",
        "a function applied to a set: its values there (its graph, as a map)",
        "{ [i] -> [(floor((i)/2))] }({ [7]; [8] })",
        "{ [3]; [4] }",
    ),
    doc(
        "F . M",
        "a function, then a map (a function stands for its graph)",
        "{ [i] -> [(i + 1)] } . { [j] -> [2j] }",
        "{ [i] -> [2i + 2] }",
    ),
    doc(
        "dom F",
        "the domain of a function",
        "dom { [i] -> [(i + 1)] : 0 <= i < 3 }",
        "{ [i] : 0 <= i <= 2 }",
    ),
    doc(
        "A <= B",
        "inclusion (also >=, < and > for strict inclusion)",
        "{ [i] : i = 1 } <= { [i] : i >= 0 }",
        "true",
    ),
    doc(
        "A = B",
        "equality",
        "{ [i] : 0 <= i <= 1 } = { [0]; [1] }",
        "true",
    ),
];

/// The text of `poly calc --help`.
pub fn help() -> String {
    let mut out = String::from(
        "usage: poly calc [FILE|-]\n\n\
         A program is a sequence of statements `NAME := EXPR;` (assignment) and `EXPR;`\n\
         (prints the value; iscc's `print EXPR;` too). Values are sets, maps (unions\n\
         over named spaces, in isl notation), piecewise quasi-affine functions (a\n\
         literal with parenthesised range entries, `{ [i] -> [(i + 1)] : i < 10 }`,\n\
         as isl prints them; a function stands for its graph where a map is\n\
         expected), rational sets (`{ rat: [i] : 1 <= 2i <= 9 }`: lexmin, lexmax,\n\
         is_empty, +, * and the comparisons only) and booleans. A one-argument function\n\
         also reads as a prefix (`lexmin S;`). iscc's `codegen EXPR;` prints, as C,\n\
         the loops that scan a schedule map from statement instances to times (the\n\
         domain constraints in it), as `poly codegen` does. Each entry below has an\n\
         example and its value.\n",
    );
    for (title, docs) in [("functions", FUNCTIONS), ("operators", OPERATORS)] {
        out.push_str(&format!("\n{title}:\n"));
        for d in docs {
            out.push_str(&format!("  {:<24} {}\n", d.form, d.meaning));
            out.push_str(&format!("      {}  ==  {}\n", d.example, d.value));
        }
    }
    out.push_str("\nnot implemented yet:\n");
    for (name, what) in NOT_YET {
        out.push_str(&format!("  {name}: {what}\n"));
    }
    out
}

/// Runs a calculator program, writing the printed values to `out`.
pub fn run(text: &str, out: &mut impl std::io::Write) -> Result<(), Error> {
    let toks = tokenize(text)?;
    let mut c = Calc {
        text,
        toks,
        pos: 0,
        depth: 0,
        vars: HashMap::new(),
    };
    while c.peek() != &Tok::Eof {
        if c.eat(&Tok::Semi) {
            continue;
        }
        if let (Tok::Ident(name), Tok::Assign) = (c.peek().clone(), c.peek_at(1).clone()) {
            c.advance();
            c.advance();
            let v = c.expr()?;
            c.end_stmt()?;
            c.vars.insert(name, v);
        } else {
            // iscc's `codegen S;` prints the loops that scan schedule S
            if c.peek() == &Tok::Ident("codegen".into()) && c.peek_at(1) != &Tok::Assign {
                let at = c.cur().clone();
                c.advance();
                let v = c.expr()?;
                c.end_stmt()?;
                let v = match v {
                    Value::PwMultiAff(f) => Value::Map(f.as_union_map()?),
                    v => v,
                };
                let Value::Map(m) = v else {
                    return Err(err_at(
                        &at,
                        "codegen needs a schedule: a map from statement instances to times",
                    ));
                };
                let ast = presburger_codegen::generate(
                    &m,
                    None,
                    None,
                    &presburger_codegen::Options::default(),
                )
                .map_err(|e| err_at(&at, format!("codegen: {e}")))?;
                write!(out, "{}", ast.to_c())
                    .map_err(|e| Error::Invalid(format!("cannot write: {e}")))?;
                continue;
            }
            // iscc's `print X;` prints X, as an expression statement does
            if c.peek() == &Tok::Ident("print".into()) && c.peek_at(1) != &Tok::Assign {
                c.advance();
            }
            let v = c.expr()?;
            c.end_stmt()?;
            // results print compactly: disjuncts coalesced where that is exact
            let v = match v {
                Value::Set(s) => Value::Set(s.coalesce().unwrap_or(s)),
                Value::Map(m) => Value::Map(m.coalesce().unwrap_or(m)),
                Value::PwMultiAff(f) => Value::PwMultiAff(f.coalesce().unwrap_or(f)),
                b => b,
            };
            writeln!(out, "{v}").map_err(|e| Error::Invalid(format!("cannot write: {e}")))?;
        }
    }
    Ok(())
}

struct Calc<'a> {
    text: &'a str,
    toks: Vec<Spanned>,
    pos: usize,
    depth: usize,
    vars: HashMap<String, Value>,
}

fn err_at(t: &Spanned, msg: impl Into<String>) -> Error {
    Error::Parse {
        line: t.line,
        column: t.col,
        message: msg.into(),
    }
}

impl Calc<'_> {
    fn cur(&self) -> &Spanned {
        &self.toks[self.pos.min(self.toks.len() - 1)]
    }

    fn peek(&self) -> &Tok {
        &self.cur().tok
    }

    fn peek_at(&self, k: usize) -> &Tok {
        &self.toks[(self.pos + k).min(self.toks.len() - 1)].tok
    }

    fn advance(&mut self) {
        if self.pos < self.toks.len() - 1 {
            self.pos += 1;
        }
    }

    fn eat(&mut self, t: &Tok) -> bool {
        if self.peek() == t {
            self.advance();
            true
        } else {
            false
        }
    }

    fn err(&self, msg: impl Into<String>) -> Error {
        err_at(self.cur(), msg)
    }

    fn expected(&self, what: &str) -> Error {
        self.err(format!("expected {what}, found {}", self.peek().describe()))
    }

    fn expect(&mut self, t: &Tok) -> Result<(), Error> {
        if self.eat(t) {
            Ok(())
        } else {
            Err(self.expected(&t.describe()))
        }
    }

    fn end_stmt(&mut self) -> Result<(), Error> {
        if self.peek() == &Tok::Eof || self.eat(&Tok::Semi) {
            Ok(())
        } else {
            Err(self.expected("';'"))
        }
    }

    fn nest<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T, Error>) -> Result<T, Error> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.err(format!("nesting deeper than {MAX_DEPTH} levels")));
        }
        let r = f(self);
        self.depth -= 1;
        r
    }

    fn expr(&mut self) -> Result<Value, Error> {
        self.nest(|c| {
            let lhs = c.sum()?;
            let op = c.peek().clone();
            if matches!(op, Tok::Le | Tok::Ge | Tok::Lt | Tok::Gt | Tok::Eq) {
                let at = c.cur().clone();
                c.advance();
                let rhs = c.sum()?;
                return compare(lhs, &op, rhs).map_err(|m| err_at(&at, m));
            }
            Ok(lhs)
        })
    }

    fn sum(&mut self) -> Result<Value, Error> {
        let mut acc = self.prod()?;
        loop {
            let at = self.cur().clone();
            if self.eat(&Tok::Plus) {
                let rhs = self.prod()?;
                acc = union(acc, rhs).map_err(|m| err_at(&at, m))?;
            } else if self.eat(&Tok::Minus) {
                let rhs = self.prod()?;
                acc = subtract(acc, rhs).map_err(|m| err_at(&at, m))?;
            } else {
                return Ok(acc);
            }
        }
    }

    fn prod(&mut self) -> Result<Value, Error> {
        let mut acc = self.compose()?;
        loop {
            let at = self.cur().clone();
            if self.eat(&Tok::Star) {
                let rhs = self.compose()?;
                acc = intersect(acc, rhs).map_err(|m| err_at(&at, m))?;
            } else if self.eat(&Tok::Percent) {
                let rhs = self.compose()?;
                acc = gist(acc, rhs).map_err(|m| err_at(&at, m))?;
            } else {
                return Ok(acc);
            }
        }
    }

    fn compose(&mut self) -> Result<Value, Error> {
        let mut acc = self.postfix()?;
        loop {
            let at = self.cur().clone();
            if !self.eat(&Tok::Dot) {
                return Ok(acc);
            }
            let rhs = self.postfix()?;
            let a = as_map(acc, "'.'").map_err(|m| err_at(&at, m))?;
            let b = as_map(rhs, "'.'").map_err(|m| err_at(&at, m))?;
            acc = Value::Map(a.apply_range(&b)?);
        }
    }

    fn postfix(&mut self) -> Result<Value, Error> {
        let mut v = self.prefix()?;
        loop {
            let at = self.cur().clone();
            match self.peek() {
                Tok::Caret => {
                    self.advance();
                    if self.peek() == &Tok::Plus {
                        return Err(self.err(String::from(
                            "'M^+' (transitive closure) is not implemented yet; \
                             `M . M` composes a map with itself for a bounded number of steps",
                        )));
                    }
                    let minus = self.eat(&Tok::Minus);
                    match self.peek() {
                        Tok::Num(n) if minus && n.is_one() => self.advance(),
                        Tok::Num(n) => {
                            let n = format!("{}{n}", if minus { "-" } else { "" });
                            return Err(err_at(
                                &at,
                                format!(
                                    "'^{n}': a power of a map is not supported; '^' takes \
                                 '-1' (the reverse, 'M^-1') only, and `M . M` composes a map \
                                 with itself"
                                ),
                            ));
                        }
                        _ => {
                            return Err(self.expected(if minus {
                                "'1' in '^-1'"
                            } else {
                                "'-1' after '^' ('M^-1', the reverse)"
                            }));
                        }
                    }
                    v = Value::Map(as_map(v, "'^-1'").map_err(|m| err_at(&at, m))?.reverse());
                }
                Tok::LParen => {
                    self.advance();
                    let arg = self.expr()?;
                    self.expect(&Tok::RParen)?;
                    v = apply(v, arg).map_err(|m| err_at(&at, m))?;
                }
                _ => return Ok(v),
            }
        }
    }

    fn prefix(&mut self) -> Result<Value, Error> {
        let at = self.cur().clone();
        match self.peek().clone() {
            // iscc's prefix form of a one-argument function: `lexmin S`
            Tok::Ident(w)
                if is_function(&w)
                    && expected_arity(&w) == 1
                    && matches!(self.peek_at(1), Tok::LBrace | Tok::LBracket | Tok::Ident(_)) =>
            {
                self.advance();
                let v = self.nest(|c| c.prefix())?;
                call(&w, vec![v]).map_err(|m| err_at(&at, m))
            }
            Tok::Ident(w) if (w == "dom" || w == "ran") && self.peek_at(1) != &Tok::Assign => {
                self.advance();
                let v = self.nest(|c| c.prefix())?;
                if let (Value::PwMultiAff(f), true) = (&v, w == "dom") {
                    return Ok(Value::Set(f.domain()?));
                }
                let m = as_map(v, &w).map_err(|m| err_at(&at, m))?;
                Ok(Value::Set(if w == "dom" {
                    m.domain()?
                } else {
                    m.range()?
                }))
            }
            _ => self.primary(),
        }
    }

    fn primary(&mut self) -> Result<Value, Error> {
        let at = self.cur().clone();
        match self.peek().clone() {
            Tok::LBrace | Tok::LBracket => self.literal(),
            Tok::LParen => {
                self.advance();
                let v = self.expr()?;
                self.expect(&Tok::RParen)?;
                Ok(v)
            }
            Tok::Ident(name)
                if (name == "dim_min" || name == "dim_max") && self.peek_at(1) == &Tok::LParen =>
            {
                // `dim_max(S, k)`: a set and the position of a dimension
                self.advance();
                self.advance();
                let s = self.expr()?;
                self.expect(&Tok::Comma)?;
                let pos_at = self.cur().clone();
                let pos = match self.peek().clone() {
                    Tok::Num(k) => k.to_i64().and_then(|k| usize::try_from(k).ok()),
                    _ => None,
                }
                .ok_or_else(|| {
                    err_at(
                        &pos_at,
                        format!(
                            "'{name}' needs a dimension position (0, 1, ...) as its second argument"
                        ),
                    )
                })?;
                self.advance();
                self.expect(&Tok::RParen)?;
                dim_opt(&name, s, pos).map_err(|m| err_at(&at, m))
            }
            Tok::Ident(name) if self.peek_at(1) == &Tok::LParen && is_function(&name) => {
                self.advance();
                self.advance();
                let mut args = Vec::new();
                if self.peek() != &Tok::RParen {
                    loop {
                        args.push(self.expr()?);
                        if !self.eat(&Tok::Comma) {
                            break;
                        }
                    }
                }
                self.expect(&Tok::RParen)?;
                call(&name, args).map_err(|m| err_at(&at, m))
            }
            Tok::Ident(name) => match self.vars.get(&name) {
                Some(v) => {
                    let v = v.clone();
                    self.advance();
                    Ok(v)
                }
                // a reserved function in iscc's prefix form (`card S`,
                // `last W before R under S`): say what to use instead
                None => match NOT_YET.iter().find(|(n, _)| *n == name) {
                    Some((n, what)) => Err(self.err(format!("'{n}' {what}"))),
                    None => Err(self.err(format!("unknown name '{name}'"))),
                },
            },
            _ => Err(self.expected("a set, a map, a name or '('")),
        }
    }

    /// A set, map or function literal: the text from here to the matching '}'.
    fn literal(&mut self) -> Result<Value, Error> {
        let start = self.cur().clone();
        if self.peek() == &Tok::LBracket {
            // parameter list: up to the matching ']' and then '->'
            let mut depth = 0usize;
            loop {
                match self.peek() {
                    Tok::LBracket => depth += 1,
                    Tok::RBracket => depth -= 1,
                    Tok::Eof => return Err(self.expected("']'")),
                    _ => {}
                }
                self.advance();
                if depth == 0 {
                    break;
                }
            }
            if self.peek() != &Tok::Arrow {
                return Err(self.expected("'->' after the parameter list"));
            }
            self.advance();
        }
        if self.peek() != &Tok::LBrace {
            return Err(self.expected("'{'"));
        }
        let rational =
            self.peek_at(1) == &Tok::Ident("rat".into()) && self.peek_at(2) == &Tok::Colon;
        let mut depth = 0usize;
        loop {
            match self.peek() {
                Tok::LBrace => depth += 1,
                Tok::RBrace => depth -= 1,
                Tok::Eof => return Err(err_at(&start, "this '{' is never closed")),
                _ => {}
            }
            self.advance();
            if depth == 0 {
                break;
            }
        }
        let end = self.toks[self.pos - 1].offset + 1;
        let text = &self.text[start.offset..end];
        let at = |e: Error| e.offset_by(start.line, start.col);
        if rational {
            return text.parse::<RationalSet>().map(Value::Rational).map_err(at);
        }
        if is_function_text(text).map_err(at)? {
            // a function; a map with parenthesised outputs that is not one
            // (`{ [i] -> [(i), j] : j > i }`) reads as the map
            return match text.parse::<UnionPwMultiAff>() {
                Ok(f) => Ok(Value::PwMultiAff(f)),
                Err(e) => match parse_object(text) {
                    Ok(Object::Map(m)) => Ok(Value::Map(m)),
                    _ => Err(at(e)),
                },
            };
        }
        match parse_object(text).map_err(at)? {
            Object::Set(s) => Ok(Value::Set(s)),
            Object::Map(m) => Ok(Value::Map(m)),
        }
    }
}

fn is_function(name: &str) -> bool {
    FUNCTIONS
        .iter()
        .any(|d| d.form.split('(').next() == Some(name))
        || NOT_YET.iter().any(|(n, _)| *n == name)
}

/// `sample`, `lexmin` or `lexmax` of a union set, space by space (as iscc
/// does): the union of the points found. `lexmin` and `lexmax` are the
/// library's ([`UnionSet::lexmin`]); `sample` gives a point of every
/// non-empty member.
fn point_query(s: &UnionSet, name: &str) -> Result<Value, String> {
    let err = |e: presburger::Error| e.to_string();
    match name {
        "lexmin" => return s.lexmin().map(Value::Set).map_err(err),
        "lexmax" => return s.lexmax().map(Value::Set).map_err(err),
        _ => {}
    }
    let mut out = UnionSet::empty(s.params().to_vec());
    for m in s.members() {
        if let Some(p) = m.sample().map_err(err)? {
            out.add(Set::from_point(m.space(), &p).map_err(err)?)
                .map_err(err)?;
        }
    }
    Ok(Value::Set(out))
}

fn as_map(v: Value, what: &str) -> Result<UnionMap, String> {
    match v {
        Value::Map(m) => Ok(m),
        Value::PwMultiAff(f) => f.as_union_map().map_err(err),
        Value::Set(s) if s.members().is_empty() => Ok(UnionMap::empty(s.params().to_vec())),
        Value::Rational(_) => Err(not_rational(what)),
        _ => Err(format!("{what} needs a map")),
    }
}

fn as_set(v: Value, what: &str) -> Result<UnionSet, String> {
    match v {
        Value::Set(s) => Ok(s),
        Value::Rational(_) => Err(not_rational(what)),
        _ => Err(format!("{what} needs a set")),
    }
}

fn err(e: Error) -> String {
    e.to_string()
}

/// What a value is, for the messages about a wrong kind.
fn kind(v: &Value) -> &'static str {
    match v {
        Value::Set(_) => "a set",
        Value::Map(_) => "a map",
        Value::Bool(_) => "a boolean",
        Value::PwMultiAff(_) => "a function",
        Value::Rational(_) => "a rational set",
    }
}

/// A function: a function value, or a map that is one (single-valued, as
/// [`UnionPwMultiAff::from_union_map`] reads it).
fn as_function(v: Value, what: &str) -> Result<UnionPwMultiAff, String> {
    match v {
        Value::PwMultiAff(f) => Ok(f),
        Value::Map(m) => UnionPwMultiAff::from_union_map(&m)
            .map_err(|e| format!("{what} needs a function; this map is not one: {e}")),
        v => Err(format!(
            "{what} needs a function (e.g. {{ [i] -> [(i + 1)] }}), got {}",
            kind(&v)
        )),
    }
}

/// `op` on the members of `a` and `b` with the same domain tuple; members
/// of one of them only are dropped (isl's binary operations on union
/// functions, defined where both are).
fn zip_functions(
    a: &UnionPwMultiAff,
    b: &UnionPwMultiAff,
    op: impl Fn(&PwMultiAff, &PwMultiAff) -> Result<PwMultiAff, Error>,
) -> Result<UnionPwMultiAff, String> {
    let mut r = UnionPwMultiAff::empty(a.params().to_vec());
    for m in a.members() {
        if let Some(o) = b.member_on(&m.domain_space()) {
            r.add_pw_multi_aff(op(m, o).map_err(err)?).map_err(err)?;
        }
    }
    Ok(r)
}

/// `min(F, G)` or `max(F, G)` of two functions with one output each (isl's
/// `isl_union_pw_aff_min` and `_max`), where both are defined.
fn min_max(name: &str, a: Value, b: Value) -> Result<Value, String> {
    let mut fs = Vec::new();
    for v in [a, b] {
        let f = match v {
            Value::PwMultiAff(f) => f,
            v => {
                return Err(format!(
                    "'{name}' needs two functions with one output (e.g. {{ [i] -> [(i)] }}), got {}",
                    kind(&v)
                ));
            }
        };
        if let Some(m) = f.members().iter().find(|m| m.space().n_out() != 1) {
            return Err(format!(
                "'{name}' needs functions with one output; {m} has {}",
                m.space().n_out()
            ));
        }
        fs.push(f);
    }
    let r = zip_functions(&fs[0], &fs[1], |x, y| {
        let (x, y) = (
            PwAff::from_pw_multi_aff(x.clone())?,
            PwAff::from_pw_multi_aff(y.clone())?,
        );
        Ok(PwMultiAff::from(if name == "min" {
            x.min(&y)?
        } else {
            x.max(&y)?
        }))
    })?;
    Ok(Value::PwMultiAff(r))
}

/// `pullback(F, G)`: F after G, member by member where G's range tuple is
/// F's domain tuple (isl's `isl_union_pw_multi_aff_pullback_union_pw_multi_aff`).
fn pullback(f: Value, g: Value) -> Result<Value, String> {
    let f = as_function(f, "'pullback'")?;
    let g = as_function(g, "'pullback'")?;
    let mut r = UnionPwMultiAff::empty(g.params().to_vec());
    for gm in g.members() {
        if let Some(fm) = f.member_on(&gm.space().range_space()) {
            r.add_pw_multi_aff(fm.pullback(gm).map_err(err)?)
                .map_err(err)?;
        }
    }
    Ok(Value::PwMultiAff(r))
}

/// A function restricted to a set of its domain tuples, or to a parameter
/// set (isl's `intersect_domain` and `intersect_params`).
fn restrict_function(f: &UnionPwMultiAff, s: &UnionSet) -> Result<UnionPwMultiAff, String> {
    if s.members().is_empty() || !s.members().iter().all(Set::is_params) {
        return f.intersect_domain(s).map_err(err);
    }
    let mut r = UnionPwMultiAff::empty(f.params().to_vec());
    for m in f.members() {
        let mut m = m.clone();
        for p in s.members() {
            m = m.intersect_domain(p).map_err(err)?;
        }
        r.add_pw_multi_aff(m).map_err(err)?;
    }
    Ok(r)
}

/// `gist(A, C)` and `A % C`: a set in a set, a map in a map, a function in a
/// set of its domain (member by member; a member without a context in its
/// domain tuple is dropped, as in isl's union gist) or in a parameter set.
fn gist(a: Value, c: Value) -> Result<Value, String> {
    match (a, c) {
        (Value::Set(a), Value::Set(b)) => a.gist(&b).map(Value::Set).map_err(err),
        (Value::PwMultiAff(f), Value::Set(c)) => {
            let params: Vec<&Set> = c.members().iter().filter(|s| s.is_params()).collect();
            let mut r = UnionPwMultiAff::empty(f.params().to_vec());
            for m in f.members() {
                let g = match c.member_like(&m.domain_space()) {
                    Some(s) => m.gist(s).map_err(err)?,
                    None if !params.is_empty() => {
                        // the parameter context on the domain space
                        let mut ctx = Set::universe(m.domain_space()).map_err(err)?;
                        for p in &params {
                            ctx = ctx.intersect_params(p).map_err(err)?;
                        }
                        m.gist(&ctx).map_err(err)?
                    }
                    None => continue,
                };
                r.add_pw_multi_aff(g).map_err(err)?;
            }
            Ok(Value::PwMultiAff(r))
        }
        (Value::PwMultiAff(_), c) => Err(format!(
            "the gist of a function needs a set as its context, got {}",
            kind(&c)
        )),
        (a, b) => {
            let (a, b) = (as_map(a, "'gist'")?, as_map(b, "'gist'")?);
            a.gist(&b).map(Value::Map).map_err(err)
        }
    }
}

fn subtract(a: Value, b: Value) -> Result<Value, String> {
    match (a, b) {
        (Value::PwMultiAff(f), Value::PwMultiAff(g)) => {
            zip_functions(&f, &g, PwMultiAff::sub).map(Value::PwMultiAff)
        }
        (Value::Set(a), Value::Set(b)) => a.subtract(&b).map(Value::Set).map_err(err),
        (a, b) => {
            let (a, b) = (as_map(a, "'-'")?, as_map(b, "'-'")?);
            a.subtract(&b).map(Value::Map).map_err(err)
        }
    }
}

/// `a <= b` (subset), `a >= b`, `a < b` (strict), `a > b`, `a = b` (equality).
fn compare(a: Value, op: &Tok, b: Value) -> Result<Value, String> {
    let (sub, sup, strict) = match op {
        Tok::Le => (a, b, false),
        Tok::Lt => (a, b, true),
        Tok::Ge => (b, a, false),
        Tok::Gt => (b, a, true),
        _ => {
            let fwd = compare(a.clone(), &Tok::Le, b.clone())?;
            let back = compare(b, &Tok::Le, a)?;
            return Ok(Value::Bool(
                matches!(fwd, Value::Bool(true)) && matches!(back, Value::Bool(true)),
            ));
        }
    };
    let le = |x: &Value, y: &Value| -> Result<bool, String> {
        match (x.clone(), y.clone()) {
            (Value::Set(x), Value::Set(y)) => x.is_subset(&y).map_err(err),
            (Value::Rational(x), Value::Rational(y)) => x.is_subset(&y).map_err(err),
            (Value::Rational(_), _) | (_, Value::Rational(_)) => {
                Err("a rational set compares only with a rational set".into())
            }
            (x, y) => as_map(x, "a comparison")?
                .is_subset(&as_map(y, "a comparison")?)
                .map_err(err),
        }
    };
    let forward = le(&sub, &sup)?;
    Ok(Value::Bool(forward && (!strict || !le(&sup, &sub)?)))
}

/// A one-argument operation applied to every member of a union.
/// The parameter values for which a set or map is not empty, as a parameter
/// set (iscc's `params`): every dimension projected out.
fn params_of(v: Value) -> Result<UnionSet, String> {
    let v = match v {
        Value::PwMultiAff(f) => Value::Map(f.as_union_map().map_err(err)?),
        v => v,
    };
    let sets: Vec<Set> = match v {
        Value::Set(s) => s.members().to_vec(),
        Value::Map(m) => m.members().iter().map(|x| x.domain()).collect(),
        _ => return Err("'params' needs a set or a map".into()),
    };
    let mut out: Option<Set> = None;
    for s in sets {
        let n = s.space().n_out();
        let p = s
            .project_out(DimKind::Out, 0, n)
            .map_err(err)?
            .set_tuple_name(None);
        out = Some(match out {
            None => p,
            Some(o) => o.union(&p).map_err(err)?,
        });
    }
    let mut r = UnionSet::empty(Vec::new());
    if let Some(o) = out {
        r = UnionSet::empty(o.space().params().to_vec());
        r.add(o).map_err(err)?;
    }
    Ok(r)
}

fn per_member(name: &str, v: Value) -> Result<Value, String> {
    match v {
        // a function stands for its graph
        Value::PwMultiAff(f) => per_member(name, Value::Map(f.as_union_map().map_err(err)?)),
        Value::Set(s) => {
            if name == "is_bounded" {
                let mut all = true;
                for m in s.members() {
                    all &= m.is_bounded().map_err(err)?;
                }
                return Ok(Value::Bool(all));
            }
            if name == "unwrap" {
                let mut r = UnionMap::empty(s.params().to_vec());
                for m in s.members() {
                    r.add(m.unwrap().map_err(err)?).map_err(err)?;
                }
                return Ok(Value::Map(r));
            }
            if name == "complement" {
                return s.complement().map(Value::Set).map_err(err);
            }
            let mut r = UnionSet::empty(s.params().to_vec());
            for m in s.members() {
                r.add(match name {
                    "simplify" => m.simplify_full().map_err(err)?,
                    "box_hull" => m.box_hull().map_err(err)?,
                    _ => return Err(format!("'{name}' needs a map")),
                })
                .map_err(err)?;
            }
            Ok(Value::Set(r))
        }
        Value::Map(m) => {
            match name {
                "deltas" => return m.deltas().map(Value::Set).map_err(err),
                "complement" => return m.complement().map(Value::Map).map_err(err),
                "wrap" => {
                    let mut r = UnionSet::empty(m.params().to_vec());
                    for x in m.members() {
                        r.add(x.wrap()).map_err(err)?;
                    }
                    return Ok(Value::Set(r));
                }
                _ => {}
            }
            let mut r = UnionMap::empty(m.params().to_vec());
            for x in m.members() {
                r.add(match name {
                    "simplify" => x.simplify_full().map_err(err)?,
                    _ => return Err(format!("'{name}' needs a set")),
                })
                .map_err(err)?;
            }
            Ok(Value::Map(r))
        }
        Value::Bool(_) => Err(format!("'{name}' needs a set or a map")),
        Value::Rational(_) => Err(not_rational(&format!("'{name}'"))),
    }
}

/// The message for an integer operation given a rational set.
fn not_rational(what: &str) -> String {
    format!(
        "{what} is not defined on a rational set (a rational set has lexmin, lexmax, \
         is_empty, +, * and the comparisons)"
    )
}

fn union(a: Value, b: Value) -> Result<Value, String> {
    match (a, b) {
        // isl's `isl_union_pw_multi_aff_add`: the sum on the common domain
        (Value::PwMultiAff(f), Value::PwMultiAff(g)) => {
            f.sum(&g).map(Value::PwMultiAff).map_err(err)
        }
        (Value::Set(a), Value::Set(b)) => a.union(&b).map(Value::Set).map_err(|e| e.to_string()),
        (Value::Rational(a), Value::Rational(b)) => a.union(&b).map(Value::Rational).map_err(err),
        (a, b) => {
            let (a, b) = (as_map(a, "'+'")?, as_map(b, "'+'")?);
            a.union(&b).map(Value::Map).map_err(|e| e.to_string())
        }
    }
}

fn intersect(a: Value, b: Value) -> Result<Value, String> {
    match (a, b) {
        (Value::PwMultiAff(f), Value::Set(s)) => restrict_function(&f, &s).map(Value::PwMultiAff),
        (Value::Set(a), Value::Set(b)) => {
            a.intersect(&b).map(Value::Set).map_err(|e| e.to_string())
        }
        (Value::Rational(a), Value::Rational(b)) => {
            a.intersect(&b).map(Value::Rational).map_err(err)
        }
        (Value::Map(m), Value::Set(s))
            if !s.members().is_empty() && s.members().iter().all(Set::is_params) =>
        {
            m.intersect_params(&s)
                .map(Value::Map)
                .map_err(|e| e.to_string())
        }
        (Value::Map(m), Value::Set(s)) if !s.members().is_empty() => m
            .intersect_domain(&s)
            .map(Value::Map)
            .map_err(|e| e.to_string()),
        (a, b) => {
            let (a, b) = (as_map(a, "'*'")?, as_map(b, "'*'")?);
            a.intersect(&b).map(Value::Map).map_err(|e| e.to_string())
        }
    }
}

fn apply(f: Value, arg: Value) -> Result<Value, String> {
    let m = as_map(f, "application")?;
    let arg = match arg {
        Value::PwMultiAff(g) => Value::Map(g.as_union_map().map_err(err)?),
        a => a,
    };
    match arg {
        Value::Set(s) => m.apply_to(&s).map(Value::Set).map_err(|e| e.to_string()),
        Value::Map(n) => m.apply_range(&n).map(Value::Map).map_err(|e| e.to_string()),
        _ => Err("a map applies to a set or a map, not a boolean".into()),
    }
}

fn call(name: &str, args: Vec<Value>) -> Result<Value, String> {
    if let Some((_, what)) = NOT_YET.iter().find(|(n, _)| *n == name) {
        return Err(format!("'{name}' {what}"));
    }
    let n = args.len();
    let mut it = args.into_iter();
    let mut arg = |k: usize| {
        it.next()
            .ok_or_else(|| format!("'{name}' takes {k} argument(s), got {n}"))
    };
    let v = match name {
        // the domain of a function's graph, as iscc reads the text as a map:
        // a rational value (`[(i + j)/2]`) has a value in the map only where
        // it is an integer
        "domain" => Value::Set(as_map(arg(1)?, name)?.domain().map_err(err)?),
        "map" => match arg(1)? {
            Value::PwMultiAff(f) => Value::Map(f.as_union_map().map_err(err)?),
            Value::Map(m) => Value::Map(m),
            v => {
                return Err(format!(
                    "'map' needs a function (e.g. {{ [i] -> [(i + 1)] }}), got {}",
                    kind(&v)
                ));
            }
        },
        "min" | "max" => min_max(name, arg(2)?, arg(2)?)?,
        "pullback" => pullback(arg(2)?, arg(2)?)?,
        "range" | "reverse" => {
            let m = as_map(arg(1)?, name)?;
            match name {
                "domain" => Value::Set(m.domain().map_err(|e| e.to_string())?),
                "range" => Value::Set(m.range().map_err(|e| e.to_string())?),
                _ => Value::Map(m.reverse()),
            }
        }
        "is_empty" => match arg(1)? {
            Value::Set(s) => Value::Bool(s.is_empty().map_err(|e| e.to_string())?),
            Value::Map(m) => Value::Bool(m.is_empty().map_err(|e| e.to_string())?),
            Value::PwMultiAff(f) => Value::Bool(f.members().iter().all(|m| m.n_piece() == 0)),
            Value::Rational(r) => Value::Bool(r.is_empty().map_err(err)?),
            Value::Bool(_) => return Err("'is_empty' needs a set or a map".into()),
        },
        "lexmin" | "lexmax" => match arg(1)? {
            Value::Set(s) => point_query(&s, name)?,
            Value::Rational(r) => Value::Rational(
                if name == "lexmin" {
                    r.lexmin()
                } else {
                    r.lexmax()
                }
                .map_err(err)?,
            ),
            v => {
                let m = as_map(v, name)?;
                Value::Map(
                    if name == "lexmin" {
                        m.lexmin()
                    } else {
                        m.lexmax()
                    }
                    .map_err(err)?,
                )
            }
        },
        "sample" => point_query(&as_set(arg(1)?, name)?, name)?,
        "params" => Value::Set(params_of(arg(1)?)?),
        "union" => union(arg(2)?, arg(2)?)?,
        "intersect" => intersect(arg(2)?, arg(2)?)?,
        "subtract" => subtract(arg(2)?, arg(2)?)?,
        "apply" => {
            let s = arg(2)?;
            apply(arg(2)?, s)?
        }
        "intersect_domain" | "intersect_range" => {
            let m = arg(2)?;
            if let (Value::PwMultiAff(f), "intersect_domain") = (&m, name) {
                let s = as_set(arg(2)?, name)?;
                return finish(name, n, restrict_function(f, &s).map(Value::PwMultiAff)?);
            }
            let m = as_map(m, name)?;
            let s = as_set(arg(2)?, name)?;
            Value::Map(
                if name == "intersect_domain" {
                    m.intersect_domain(&s)
                } else {
                    m.intersect_range(&s)
                }
                .map_err(err)?,
            )
        }
        "is_subset" => compare(arg(2)?, &Tok::Le, arg(2)?)?,
        "is_equal" => compare(arg(2)?, &Tok::Eq, arg(2)?)?,
        "is_disjoint" => match (arg(2)?, arg(2)?) {
            (Value::Set(a), Value::Set(b)) => Value::Bool(a.is_disjoint(&b).map_err(err)?),
            (a, b) => Value::Bool(
                as_map(a, name)?
                    .is_disjoint(&as_map(b, name)?)
                    .map_err(err)?,
            ),
        },
        "coalesce" => match arg(1)? {
            Value::Set(s) => Value::Set(s.coalesce().map_err(err)?),
            Value::PwMultiAff(f) => Value::PwMultiAff(f.coalesce().map_err(err)?),
            v => Value::Map(as_map(v, name)?.coalesce().map_err(err)?),
        },
        "complement" | "simplify" | "box_hull" | "is_bounded" | "wrap" | "deltas" | "unwrap" => {
            per_member(name, arg(1)?)?
        }
        "gist" => gist(arg(2)?, arg(2)?)?,
        _ => return Err(format!("unknown function '{name}'")),
    };
    finish(name, n, v)
}

/// `dim_min(S, k)` / `dim_max(S, k)`: the smallest or largest value of
/// dimension `k` of the one set of `s`, as a function of the parameters
/// (isl's `isl_set_dim_min` / `isl_set_dim_max`).
fn dim_opt(name: &str, s: Value, pos: usize) -> Result<Value, String> {
    let s = as_set(s, name)?;
    let [m] = s.members() else {
        return Err(format!(
            "'{name}' needs a set in one space, got {} spaces",
            s.members().len()
        ));
    };
    if pos >= m.space().n_out() {
        return Err(format!(
            "'{name}': the set has {} dimension(s), there is no dimension {pos}",
            m.space().n_out()
        ));
    }
    let f = if name == "dim_min" {
        m.dim_min(pos)
    } else {
        m.dim_max(pos)
    }
    .map_err(err)?;
    let f = PwMultiAff::from(f);
    Ok(Value::PwMultiAff(UnionPwMultiAff::from(f)))
}

/// The value of a call, or the error of a wrong number of arguments.
fn finish(name: &str, n: usize, v: Value) -> Result<Value, String> {
    if n != expected_arity(name) {
        return Err(format!(
            "'{name}' takes {} argument(s), got {n}",
            expected_arity(name)
        ));
    }
    Ok(v)
}

fn expected_arity(name: &str) -> usize {
    match name {
        "params" | "domain" | "range" | "reverse" | "is_empty" | "sample" | "lexmin" | "lexmax"
        | "complement" | "coalesce" | "deltas" | "wrap" | "unwrap" | "box_hull" | "is_bounded"
        | "simplify" | "map" => 1,
        _ => 2,
    }
}
