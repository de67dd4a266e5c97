//! Parser for isl notation.
//!
//! Grammar (isl's, for the parts users write):
//! ```text
//! object   := [ params '->' ] '{' [ 'Sym' '=' params ] [ part (';' part)* ] '}'
//! params   := '[' [ id ['=' number] (',' id ['=' number])* ] ']'
//! part     := [ 'rat' ':' ] ( tuple [ '->' tuple ] [ ':' formula ]   |   ':' formula )
//!                     (`rat:`: a rational part, read only by `RationalSet`; no
//!                      division may be written in it, and it is not simplified)
//! tuple    := [name] '[' [ tuple '->' tuple | elem (',' elem)* ] ']'
//! elem     := new-identifier | new-identifier '=' value | value | '*'
//!                                             (a value adds constraints)
//! value    := ':' [expr] | piece (';' piece)*
//! piece    := xexpr [ ':' ( formula | [expr] ) ]  (a condition, or a range lo:hi, lo:)
//! xexpr    := expr | expr cmp .. formula '?' xexpr ':' xexpr        (`i > 0 ? 4 : 5`)
//! formula  := or ('implies' formula)?
//! or       := and (('or' | '||') and)*
//! and      := unary (('and' | '&&') unary)*
//! unary    := ('not' | '!') unary | 'exists' vars ':' formula | 'exists' '(' vars ':' formula ')'
//!           | 'true' | 'false' | '(' formula ')' | exprs (cmp exprs)+
//! exprs    := expr (',' expr)*                (`0 <= i, j < N` compares every pair)
//! expr     := term (('+' | '-') term)*
//! term     := '-'* islfactor (('*' | <implicit>) factor | ('//' | '/' | 'mod' | '%') number)*
//! islfactor:= number ('*' ['-'] | <implicit>) islfactor postfix | (number | factor) postfix
//! postfix  := ('mod' | '%') number | ['*' ['-'] number]* ['/' number] ['//' number]
//! factor   := number | variable | '(' cpiece (';' cpiece)* ')' | '(' formula '?' xexpr ':' xexpr ')'
//!           | 'floor' '(' expr ['/' number] ')' | 'ceil' '(' .. ')' | '[' expr '/' number ']'
//!           | ('floord' | 'ceild') '(' expr ',' number ')' | ('min' | 'max') '(' expr, expr.. ')'
//! cpiece   := expr [':' formula]                 (a value where the condition holds)
//! number   := literal ['^' literal]                    (a constant power, `2^3`)
//! ```
//!
//! The idea: expressions evaluate to *piecewise* affine values (a list of
//! (condition, affine expression) pairs; `min`/`max` and conditional values make
//! more than one piece),
//! `floor` introduces a local variable with a division definition (shared by equal
//! divisions), comparisons become formulas, and the formula is put in disjunctive
//! normal form with negation pushed to the atoms. Division locals are functions of
//! the other variables, so a negation may pass over them; an existential under a
//! negation is rewritten into a division when an equality of its body determines it
//! (`not exists e : i = 2e` is `i != 2 floor(i/2)`), and is refused otherwise until
//! set complement exists. Nesting depth, pieces and disjuncts are bounded, so no
//! input overflows the stack or blows up silently.
//!
//! Cost: linear in the length of a conjunction. The normal form appends a conjunct
//! that has one disjunct (an atom, a comparison) to the disjuncts collected so far
//! in place, so only a real disjunction copies atoms (one copy per disjunct it
//! multiplies); expressions are consumed by the normal form rather than copied.

use crate::api::{BasicMap, BasicSet, Disjunction, Map, Set, UnionMap, UnionSet};
use crate::conjunction::{Conjunction, Div};
use crate::error::{Error, Result};
use crate::int::Int;
use crate::lexer::{MAX_LITERAL_DIGITS, Spanned, Tok, tokenize};
use crate::space::{Space, Tuple, TupleBody};
use smallvec::{SmallVec, smallvec};
use std::collections::HashMap;
use std::str::FromStr;

/// Deepest nesting of parentheses, negations and quantifiers accepted.
pub const MAX_DEPTH: usize = 100;
/// Most disjuncts a formula may expand to.
pub const MAX_DISJUNCTS: usize = 4096;
/// Most pieces a `min`/`max` expression may expand to.
pub const MAX_PIECES: usize = 256;

/// Words that cannot name a variable or a tuple, in the spelling the parser
/// matches. As in isl, a keyword is recognised in any letter case (`AND`,
/// `False`, `Exists`): the lexer turns each into this spelling.
pub const KEYWORDS: &[&str] = &[
    "and", "or", "not", "exists", "floor", "ceil", "floord", "ceild", "mod", "min", "max", "true",
    "false", "implies", "NaN", "rat", "infty", "infinity",
];

/// The keyword `word` spells in some letter case, in the spelling of
/// [`KEYWORDS`].
pub fn keyword(word: &str) -> Option<&'static str> {
    KEYWORDS
        .iter()
        .copied()
        .find(|k| k.eq_ignore_ascii_case(word))
}

/// True when `word` is a keyword in some letter case (so it cannot name a
/// variable or a tuple).
pub fn is_keyword(word: &str) -> bool {
    keyword(word).is_some()
}

/// What a text in isl notation denotes.
#[derive(Debug, Clone)]
pub enum Object {
    /// A set, or a union of sets in several spaces (also the empty `{ }`).
    Set(UnionSet),
    /// A map, or a union of maps.
    Map(UnionMap),
}

/// Parses a set or map in isl notation, whichever the text is: isl's
/// `isl_union_set_read_from_str` or `isl_union_map_read_from_str` (a text
/// with one space is the union of one member). The types' `FromStr` (as in
/// `"...".parse::<Set>()`) calls this and checks the kind.
///
/// ```
/// use presburger::{parse_object, Object};
/// let Object::Map(m) = parse_object("[N] -> { S[i] -> A[i + 1] : 0 <= i < N }")? else {
///     panic!("a map");
/// };
/// assert_eq!(m.to_string(), "[N] -> { S[i] -> A[i + 1] : 0 <= i < N }");
/// assert!(matches!(parse_object("{ A[i] : i > 0; B[] }")?, Object::Set(u) if u.members().len() == 2));
/// assert!(parse_object("{ [i] : i < }").is_err());
/// # Ok::<(), presburger::Error>(())
/// ```
pub fn parse_object(text: &str) -> Result<Object> {
    let toks = tokenize(text)?;
    let mut p = Parser::new(toks);
    let parts = p.object_parts()?;
    p.reject_rational()?;
    let obj = union_of_parts(p.params.clone(), parts)?;
    p.expect_end()?;
    Ok(obj)
}

/// One `;`-separated part of a text as the parser builds it: its space and its
/// disjuncts (see [`parse_parts`]).
pub type Part = (Space, Vec<Conjunction>);

/// The parts of a set or map in isl notation as the parser builds them, before they
/// are simplified and gathered into a union: the parameters, and per part (`;`
/// separated) its space and its disjuncts, one [`Conjunction`] per disjunct of the
/// formula's disjunctive normal form, with the constraints in the order of the text
/// (no structural simplification, and a visibly empty disjunct is kept). The meaning
/// is that of [`parse_object`]; the errors are the same except those of forming the
/// union. Meant for measuring the parser apart from the simplification, and for
/// looking at what a text becomes.
pub fn parse_parts(text: &str) -> Result<(Vec<String>, Vec<Part>)> {
    let toks = tokenize(text)?;
    let mut p = Parser::new(toks);
    p.simplify = false;
    let parts = p.object_parts()?;
    p.reject_rational()?;
    p.expect_end()?;
    Ok((p.params, parts))
}

/// The parts of a rational set in isl notation (`{ rat: [i] : .. }`): the
/// parameters, and per part its space and its disjuncts as read (not
/// simplified: the integer simplification would tighten them; existential
/// variables are locals without a division definition, no division can be
/// written). Every part must be rational; the position of the first one that
/// is not comes with the error.
pub(crate) fn parse_rational_parts(text: &str) -> Result<(Vec<String>, Vec<Part>)> {
    let toks = tokenize(text)?;
    let mut p = Parser::new(toks);
    let parts = p.object_parts()?;
    p.expect_end()?;
    if let Some(k) = p.rational_parts.iter().position(|&rat| !rat) {
        let (line, col) = p.part_starts.get(k).copied().unwrap_or((1, 1));
        return Err(Error::parse(
            line,
            col,
            "every part of a rational set starts with `rat:` (an integer part cannot be \
             mixed into a RationalSet)",
        ));
    }
    Ok((p.params, parts))
}

/// The union of the parsed parts (all sets or all maps).
fn union_of_parts(params: Vec<String>, parts: Vec<Part>) -> Result<Object> {
    let is_map = parts.first().is_some_and(|(s, _)| !s.is_set());
    if is_map {
        let mut u = UnionMap::empty(params);
        for (space, conjs) in parts {
            u.add(Map(crate::api::Disjunction {
                space,
                parts: conjs,
            }))?;
        }
        Ok(Object::Map(u))
    } else {
        let mut u = UnionSet::empty(params);
        for (space, conjs) in parts {
            u.add(Set(crate::api::Disjunction {
                space,
                parts: conjs,
            }))?;
        }
        Ok(Object::Set(u))
    }
}

/// A linear expression over the parser's variables.
/// An affine expression over parser variables, `(c + Σ coefs·x) / den`.
/// The denominator (positive, 1 unless the text divides outside a floor, as
/// in `i/2 <= 5`) is cleared before a comparison becomes an atom: atoms are
/// integer rows.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Lin {
    c: Int,
    coefs: Vec<Int>,
    den: Int,
}

impl Default for Lin {
    fn default() -> Lin {
        Lin::constant(Int::ZERO)
    }
}

impl Lin {
    fn constant(v: Int) -> Lin {
        Lin {
            c: v,
            coefs: Vec::new(),
            den: Int::ONE,
        }
    }

    fn var(id: usize) -> Lin {
        let mut coefs = vec![Int::ZERO; id + 1];
        coefs[id] = Int::ONE;
        Lin {
            c: Int::ZERO,
            coefs,
            den: Int::ONE,
        }
    }

    /// The numerator alone (denominator 1): it has the sign of the value, so a
    /// comparison with 0 may use it.
    fn numerator(mut self) -> Lin {
        self.den = Int::ONE;
        self
    }

    /// The value divided by the non-zero integer `d`.
    fn divided_by(mut self, d: &Int) -> Lin {
        let d = if d.is_negative() {
            self = self.scale_in_place(&Int::from(-1));
            -d
        } else {
            d.clone()
        };
        self.den = &self.den * &d;
        self.reduce()
    }

    /// Divides numerator and denominator by their gcd.
    fn reduce(mut self) -> Lin {
        if self.den.is_one() {
            return self;
        }
        let g = self
            .coefs
            .iter()
            .fold(self.c.gcd(&self.den), |g, v| g.gcd(v));
        if !g.is_one() {
            self.c = self.c.exact_div(&g);
            for v in &mut self.coefs {
                *v = v.exact_div(&g);
            }
            self.den = self.den.exact_div(&g);
        }
        self
    }

    /// Both over the least common denominator.
    fn common(&self, o: &Lin) -> (Lin, Lin) {
        let l = self.den.lcm(&o.den);
        let up = |x: &Lin| {
            let k = l.exact_div(&x.den);
            let mut y = x.scale(&k);
            y.den = l.clone();
            y
        };
        (up(self), up(o))
    }

    fn get(&self, id: usize) -> Int {
        self.coefs.get(id).cloned().unwrap_or_default()
    }

    fn is_const(&self) -> bool {
        self.coefs.iter().all(Int::is_zero)
    }

    fn trim(mut self) -> Lin {
        while self.coefs.last().is_some_and(Int::is_zero) {
            self.coefs.pop();
        }
        self
    }

    fn add(&self, o: &Lin, sign: i64) -> Lin {
        if self.den != o.den {
            let (a, b) = self.common(o);
            return a.add(&b, sign).reduce();
        }
        let n = self.coefs.len().max(o.coefs.len());
        let mut coefs = Vec::with_capacity(n);
        for i in 0..n {
            coefs.push(self.get(i) + o.get(i) * sign);
        }
        Lin {
            c: &self.c + o.c.clone() * sign,
            coefs,
            den: self.den.clone(),
        }
        .trim()
    }

    /// `self + sign·o`, reusing `self`'s storage.
    fn add_in_place(mut self, o: &Lin, sign: i64) -> Lin {
        if self.den != o.den {
            return self.add(o, sign);
        }
        if self.coefs.len() < o.coefs.len() {
            self.coefs.resize(o.coefs.len(), Int::ZERO);
        }
        for (a, b) in self.coefs.iter_mut().zip(&o.coefs) {
            if !b.is_zero() {
                *a += b * sign;
            }
        }
        if !o.c.is_zero() {
            self.c += &o.c * sign;
        }
        self.trim()
    }

    /// `k·self`, reusing `self`'s storage.
    fn scale_in_place(mut self, k: &Int) -> Lin {
        if !k.is_one() {
            self.c = &self.c * k;
            for v in &mut self.coefs {
                if !v.is_zero() {
                    *v = &*v * k;
                }
            }
        }
        self.trim()
    }

    fn scale(&self, k: &Int) -> Lin {
        Lin {
            c: &self.c * k,
            coefs: self.coefs.iter().map(|v| v * k).collect(),
            den: self.den.clone(),
        }
        .trim()
    }

    /// `self + k`, reusing `self`'s storage.
    fn add_const(mut self, k: i64) -> Lin {
        if self.den.is_one() {
            self.c += k;
        } else {
            self.c += &self.den * k;
        }
        self
    }

    fn plus_const(&self, k: i64) -> Lin {
        self.clone().add_const(k)
    }

    /// Replaces variable `v` by the expression `by`.
    fn subst(&self, v: usize, by: &Lin) -> Lin {
        let k = self.get(v);
        if k.is_zero() {
            return self.clone();
        }
        let mut r = self.clone();
        r.coefs[v] = Int::ZERO;
        // k·x_v / den with x_v = by
        r.add(&by.scale(&k).divided_by(&self.den), 1)
    }
}

/// A formula over parser variables.
#[derive(Debug, Clone)]
enum F {
    True,
    False,
    /// `lin >= 0`
    Ge(Lin),
    /// `lin = 0`
    Eq(Lin),
    And(Vec<F>),
    Or(Vec<F>),
    Not(Box<F>),
    Exists(Vec<usize>, Box<F>),
}

impl F {
    fn and(a: F, b: F) -> F {
        match (a, b) {
            (F::True, x) | (x, F::True) => x,
            (a, b) => F::And(vec![a, b]),
        }
    }
}

/// A piecewise affine expression: (condition, value) pairs. Only `min`/`max` and
/// conditional values make more than one piece, so one piece is stored inline.
type Piecewise = SmallVec<[(F, Lin); 1]>;

/// The expressions of one side of a comparison (`i, j < N` compares both).
type ExprList = SmallVec<[Piecewise; 1]>;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum VarKind {
    Param(usize),
    Dim(usize),
    Extra,
}

#[derive(Debug, Clone)]
struct VarInfo {
    kind: VarKind,
    div: Option<(Lin, Int)>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cmp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    /// Lexicographic order between lists (`<<`, `<<=`, `>>`, `>>=`).
    LexLt,
    LexLe,
    LexGt,
    LexGe,
}

struct Snapshot {
    pos: usize,
    n_vars: usize,
    n_scope: usize,
    n_dims: usize,
    n_tuple_constraints: usize,
}

struct Parser {
    toks: Vec<Spanned>,
    pos: usize,
    depth: usize,
    params: Vec<String>,
    /// Parameters given a value in the parameter list (`[N = 2] -> ...`).
    param_values: Vec<(usize, Int)>,
    vars: Vec<VarInfo>,
    scope: Vec<(String, usize)>,
    n_dims: usize,
    div_cache: HashMap<(Lin, Int), usize>,
    tuple_constraints: Vec<F>,
    /// Whether each disjunct is simplified (and dropped when visibly empty).
    simplify: bool,
    /// Whether the part being read is rational (`rat:`): no division may be
    /// written in it, and its disjuncts are not simplified (the integer
    /// simplification would tighten them).
    rational: bool,
    /// Per part read so far: whether it is rational.
    rational_parts: Vec<bool>,
    /// Where the first `rat:` of the text is (line, column).
    rat_at: Option<(usize, usize)>,
    /// Where each part read so far starts (line, column).
    part_starts: Vec<(usize, usize)>,
}

enum Atom {
    Ge(Lin),
    Eq(Lin),
}

impl Parser {
    fn new(toks: Vec<Spanned>) -> Parser {
        Parser {
            toks,
            pos: 0,
            depth: 0,
            params: Vec::new(),
            param_values: Vec::new(),
            vars: Vec::new(),
            scope: Vec::new(),
            n_dims: 0,
            div_cache: HashMap::new(),
            tuple_constraints: Vec::new(),
            simplify: true,
            rational: false,
            rational_parts: Vec::new(),
            rat_at: None,
            part_starts: Vec::new(),
        }
    }

    // ----- token helpers -------------------------------------------------------

    /// Fails unless all the text has been read.
    fn expect_end(&self) -> Result<()> {
        if self.peek() != &Tok::Eof {
            return Err(self.err_here(&format!(
                "unexpected {} after the end of the object",
                self.peek().describe()
            )));
        }
        Ok(())
    }

    fn peek(&self) -> &Tok {
        &self.toks[self.pos.min(self.toks.len() - 1)].tok
    }

    fn peek_at(&self, k: usize) -> &Tok {
        &self.toks[(self.pos + k).min(self.toks.len() - 1)].tok
    }

    /// Moves past the current token (staying on the final `Eof`).
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

    fn is_kw(&self, kw: &str) -> bool {
        matches!(self.peek(), Tok::Ident(s) if s == kw)
    }

    fn eat_kw(&mut self, kw: &str) -> bool {
        if self.is_kw(kw) {
            self.advance();
            true
        } else {
            false
        }
    }

    fn err_here(&self, msg: &str) -> Error {
        let t = &self.toks[self.pos.min(self.toks.len() - 1)];
        Error::parse(t.line, t.col, msg)
    }

    fn expected(&self, what: &str) -> Error {
        self.err_here(&format!(
            "expected {what}, found {}",
            self.peek().describe()
        ))
    }

    fn expect(&mut self, t: &Tok) -> Result<()> {
        if self.eat(t) {
            Ok(())
        } else {
            Err(self.expected(&t.describe()))
        }
    }

    fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.err_here(&format!("nesting deeper than {MAX_DEPTH} levels")));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    fn snapshot(&self) -> Snapshot {
        Snapshot {
            pos: self.pos,
            n_vars: self.vars.len(),
            n_scope: self.scope.len(),
            n_dims: self.n_dims,
            n_tuple_constraints: self.tuple_constraints.len(),
        }
    }

    /// Goes back to a snapshot (after a failed attempt to read a parenthesised
    /// formula or a nested tuple). The cached divisions created since are forgotten:
    /// each of them is the definition of one of the variables created since (a
    /// division's cache entry and its variable are made together), so only those
    /// are looked at, and backtracking costs what the attempt created, not the size
    /// of the cache.
    fn restore(&mut self, s: Snapshot) {
        self.pos = s.pos;
        for id in s.n_vars..self.vars.len() {
            if let Some(key) = &self.vars[id].div {
                if self.div_cache.get(key) == Some(&id) {
                    self.div_cache.remove(key);
                }
            }
        }
        self.vars.truncate(s.n_vars);
        self.scope.truncate(s.n_scope);
        self.n_dims = s.n_dims;
        self.tuple_constraints.truncate(s.n_tuple_constraints);
        debug_assert!(self.div_cache.values().all(|&v| v < s.n_vars));
    }

    fn lookup(&self, name: &str) -> Option<usize> {
        self.scope
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, id)| *id)
    }

    fn new_var(&mut self, kind: VarKind, div: Option<(Lin, Int)>) -> usize {
        self.vars.push(VarInfo { kind, div });
        self.vars.len() - 1
    }

    fn ident_name(&mut self, what: &str) -> Result<String> {
        match self.peek().clone() {
            Tok::Ident(s) if is_keyword(&s) => {
                Err(self.err_here(&format!("'{s}' is a keyword and cannot be {what}")))
            }
            Tok::Ident(s) => {
                self.advance();
                Ok(s)
            }
            _ => Err(self.expected(what)),
        }
    }

    // ----- objects -------------------------------------------------------------

    /// The parameters (kept in `self.params`) and the parts of an object.
    fn object_parts(&mut self) -> Result<Vec<Part>> {
        if matches!(self.peek(), Tok::Ident(s) if s == "rat") && self.peek_at(1) == &Tok::Colon {
            return Err(Error::Unsupported(format!(
                "{}: rational sets (`rat:`) are not supported: this library works over the integers",
                {
                    let (l, c) = self.here();
                    format!("line {l}, column {c}")
                }
            )));
        }
        if self.peek() == &Tok::LBracket {
            self.param_list()?;
            self.expect(&Tok::Arrow)?;
        }
        self.expect(&Tok::LBrace)?;
        if self.is_kw("Sym") && self.peek_at(1) == &Tok::Eq {
            // `{ Sym=[n] [i] : i <= n }`: isl's older way of declaring parameters
            self.advance();
            self.advance();
            self.param_list()?;
        }
        let mut parts: Vec<Part> = Vec::new();
        if self.peek() != &Tok::RBrace {
            loop {
                let (line, col) = {
                    let t = &self.toks[self.pos];
                    (t.line, t.col)
                };
                let part = self.part()?;
                if let Some((first, _)) = parts.first() {
                    if first.is_set() != part.0.is_set() {
                        return Err(Error::parse(line, col, "a union cannot mix sets and maps"));
                    }
                }
                parts.push(part);
                if !self.eat(&Tok::Semi) {
                    break;
                }
                if self.peek() == &Tok::RBrace {
                    break;
                }
            }
        }
        self.expect(&Tok::RBrace)?;
        Ok(parts)
    }

    /// A list of parameters `[n, N = 2, ...]` (added to `self.params`).
    fn param_list(&mut self) -> Result<()> {
        self.expect(&Tok::LBracket)?;
        if self.peek() != &Tok::RBracket {
            loop {
                let name = self.ident_name("a parameter name")?;
                if self.params.contains(&name) {
                    return Err(self.err_here(&format!("parameter {name} is declared twice")));
                }
                if self.eat(&Tok::Eq) {
                    // `[N = 2]`: the parameter with a fixed value
                    let neg = self.eat(&Tok::Minus);
                    if !matches!(self.peek(), Tok::Num(_)) {
                        return Err(self.expected("an integer value for the parameter"));
                    }
                    let v = self.number()?;
                    self.param_values
                        .push((self.params.len(), if neg { -v } else { v }));
                }
                self.params.push(name);
                if !self.eat(&Tok::Comma) {
                    break;
                }
            }
        }
        self.expect(&Tok::RBracket)
    }

    /// Fails when the text read has a `rat:` part: a rational set is not an
    /// integer object (see [`crate::RationalSet`]).
    fn reject_rational(&self) -> Result<()> {
        match self.rat_at {
            Some((line, col)) => Err(Error::parse(
                line,
                col,
                "`rat:` makes a rational set (all rational points), which an integer set or \
                 map cannot hold: read it as presburger::RationalSet",
            )),
            None => Ok(()),
        }
    }

    /// Fails in a rational part (`rat:`), where `what` (a division: floor,
    /// ceil, mod, `//`, `[e/d]`) has no meaning; `what` is at the current token.
    fn no_division_in_rational(&self, what: &str) -> Result<()> {
        if self.rational {
            return Err(self.err_here(&format!(
                "{what} in a rational set (`rat:`): integer divisions have no rational meaning"
            )));
        }
        Ok(())
    }

    fn part(&mut self) -> Result<Part> {
        self.rational = false;
        self.part_starts.push(self.here());
        if matches!(self.peek(), Tok::Ident(s) if s == "rat") && self.peek_at(1) == &Tok::Colon {
            // isl's `{ rat: [i] : .. }`: this part is a rational polyhedron
            if self.rat_at.is_none() {
                self.rat_at = Some(self.here());
            }
            self.advance();
            self.advance();
            self.rational = true;
        }
        self.rational_parts.push(self.rational);
        self.vars.clear();
        self.scope.clear();
        self.div_cache.clear();
        self.tuple_constraints.clear();
        self.n_dims = 0;
        for (i, p) in self.params.clone().into_iter().enumerate() {
            let id = self.new_var(VarKind::Param(i), None);
            self.scope.push((p, id));
            if let Some((_, v)) = self.param_values.iter().find(|(k, _)| *k == i) {
                let value: Piecewise = smallvec![(F::True, Lin::constant(v.clone()))];
                self.tuple_constraints.push(equals(id, value));
            }
        }
        let first = if self.peek() == &Tok::Colon {
            Tuple::anonymous(0)
        } else {
            self.tuple()?
        };
        let (domain, range) = if self.eat(&Tok::Arrow) {
            (Some(first), self.tuple()?)
        } else {
            (None, first)
        };
        let formula = if self.eat(&Tok::Colon) && !matches!(self.peek(), Tok::Semi | Tok::RBrace) {
            self.formula()?
        } else {
            // no condition, or an empty one (`{ S[i] : }`)
            F::True
        };
        let mut all = std::mem::take(&mut self.tuple_constraints);
        all.push(formula);
        let f = F::And(all);
        let disjuncts = self.dnf(f, false)?;
        let space = match domain {
            Some(d) => Space::map(self.params.clone(), d, range),
            None => Space::set(self.params.clone(), range),
        };
        let mut conjs = Vec::with_capacity(disjuncts.len());
        for d in disjuncts {
            let mut c = self.build(&space, &d)?;
            if self.rational {
                if c.divs.iter().any(Option::is_some) {
                    return Err(self.err_here(
                        "an integer division in a rational set (`rat:`) (from a negated \
                         existential): it has no rational meaning",
                    ));
                }
                conjs.push(c);
                continue;
            }
            if !self.simplify {
                conjs.push(c);
                continue;
            }
            c.simplify();
            if !c.is_trivially_empty() {
                conjs.push(c);
            }
        }
        Ok((space, conjs))
    }

    fn tuple(&mut self) -> Result<Tuple> {
        let name = match (self.peek().clone(), self.peek_at(1)) {
            (Tok::Ident(s), Tok::LBracket) => {
                if is_keyword(&s) {
                    return Err(self.err_here(&format!("'{s}' is a keyword, not a tuple name")));
                }
                self.advance();
                Some(s)
            }
            _ => None,
        };
        self.enter()?;
        let r = self.tuple_body(name);
        self.leave();
        r
    }

    fn tuple_body(&mut self, name: Option<String>) -> Result<Tuple> {
        self.expect(&Tok::LBracket)?;
        if self.eat(&Tok::RBracket) {
            return Ok(Tuple::named(name, 0));
        }
        let maybe_nested = matches!(
            (self.peek(), self.peek_at(1)),
            (Tok::Ident(_), Tok::LBracket) | (Tok::LBracket, _)
        );
        if maybe_nested {
            let snap = self.snapshot();
            let attempt = (|| -> Result<Tuple> {
                let a = self.tuple()?;
                self.expect(&Tok::Arrow)?;
                let b = self.tuple()?;
                self.expect(&Tok::RBracket)?;
                Ok(Tuple::nested(name.clone(), a, b))
            })();
            match attempt {
                Ok(t) => return Ok(t),
                Err(_) => self.restore(snap),
            }
        }
        let mut dims = Vec::new();
        loop {
            dims.push(self.tuple_elem()?);
            if !self.eat(&Tok::Comma) {
                break;
            }
        }
        self.expect(&Tok::RBracket)?;
        Ok(Tuple {
            name,
            body: TupleBody::Dims(dims),
        })
    }

    /// A new tuple dimension (with the next dimension index).
    fn new_dim(&mut self) -> usize {
        let id = self.new_var(VarKind::Dim(self.n_dims), None);
        self.n_dims += 1;
        id
    }

    fn tuple_elem(&mut self) -> Result<Option<String>> {
        // `*`: an unnamed dimension with any value (isl's `{ [*] }`)
        if self.peek() == &Tok::Star && self.at_elem_end_after(1) {
            self.advance();
            self.new_dim();
            return Ok(None);
        }
        // a new name alone (`i`) or with its value (`x1 = 1 - N`, as isl prints fixed
        // dimensions) declares a named dimension
        if let Tok::Ident(s) = self.peek().clone() {
            let with_value = self.peek_at(1) == &Tok::Eq;
            let alone = self.at_elem_end_after(1);
            if (with_value || alone) && !is_keyword(&s) && self.lookup(&s).is_none() {
                self.advance();
                let id = self.new_dim();
                if with_value {
                    self.advance();
                    self.dim_value(id)?;
                }
                self.scope.push((s.clone(), id));
                return Ok(Some(s));
            }
        }
        // any other expression (or range): an unnamed dimension equal to it
        let id = self.new_dim();
        self.dim_value(id)?;
        Ok(None)
    }

    /// Whether the token `k` places ahead ends a tuple element (`,` or `]`).
    fn at_elem_end_after(&self, k: usize) -> bool {
        matches!(self.peek_at(k), Tok::Comma | Tok::RBracket)
    }

    /// The value of tuple dimension `id` after its `=` (or as an unnamed entry),
    /// as isl reads it: `:hi` or `:` alone (an upper bound, or any value), or
    /// pieces separated by `;`, each
    ///
    /// - an expression the dimension equals (`i + 1`, also `i > 0 ? 4 : 5`),
    /// - an expression under a condition (`a - 1 : a > 0`: no value elsewhere),
    /// - a range `lo:hi` or `lo:` (bounds on the dimension).
    ///
    /// After the `:` of a piece, an expression followed by a comparison starts a
    /// condition, another expression is the upper end of a range. The dimension
    /// takes the value of any piece whose condition holds (isl adds the values
    /// of pieces whose conditions overlap; texts rarely let them overlap). The
    /// dimension is not in scope inside its value.
    fn dim_value(&mut self, id: usize) -> Result<()> {
        let v: Piecewise = smallvec![(F::True, Lin::var(id))];
        if self.eat(&Tok::Colon) {
            if !self.at_elem_end_after(0) {
                let hi = self.expr()?;
                self.tuple_constraints.push(compare(&v, Cmp::Le, &hi));
            }
            return Ok(());
        }
        let mut pieces = Vec::new();
        loop {
            let e = self.ext_expr()?;
            let piece = if !self.eat(&Tok::Colon) {
                equals(id, e)
            } else if self.at_elem_end_after(0) {
                compare(&v, Cmp::Ge, &e)
            } else if let Some(c) = self.piece_condition()? {
                equals(id, with_condition(e, &c))
            } else {
                let hi = self.expr()?;
                if self.cmp_op().is_some() {
                    let first = self.comparison_from(smallvec![hi])?;
                    let c = self.formula_from(Some(first))?;
                    equals(id, with_condition(e, &c))
                } else {
                    F::and(compare(&v, Cmp::Ge, &e), compare(&v, Cmp::Le, &hi))
                }
            };
            pieces.push(piece);
            if !self.eat(&Tok::Semi) {
                break;
            }
        }
        let f = if pieces.len() == 1 {
            pieces.pop().unwrap_or(F::True)
        } else {
            F::Or(pieces)
        };
        self.tuple_constraints.push(f);
        Ok(())
    }

    /// After the `:` of a tuple piece: a condition that cannot be read as an
    /// expression (it starts with `exists`, `not`, `true`, `false`, or is a
    /// parenthesised formula that ends the piece), or `None` (nothing is read).
    fn piece_condition(&mut self) -> Result<Option<F>> {
        let starts_formula = self.peek() == &Tok::Bang
            || ["exists", "not", "true", "false"]
                .iter()
                .any(|kw| self.is_kw(kw));
        if starts_formula {
            return self.formula().map(Some);
        }
        if self.peek() != &Tok::LParen {
            return Ok(None);
        }
        let snap = self.snapshot();
        match self.formula() {
            Ok(f) if matches!(self.peek(), Tok::Comma | Tok::RBracket | Tok::Semi) => Ok(Some(f)),
            _ => {
                self.restore(snap);
                Ok(None)
            }
        }
    }

    // ----- formulas ------------------------------------------------------------

    fn formula(&mut self) -> Result<F> {
        self.formula_from(None)
    }

    /// A formula whose first operand, when given, has been read already (a
    /// comparison that began as an expression, as in `[i > 0 ? 4 : 5]`).
    fn formula_from(&mut self, first: Option<F>) -> Result<F> {
        self.enter()?;
        let r = self.implies(first);
        self.leave();
        r
    }

    fn implies(&mut self, first: Option<F>) -> Result<F> {
        let lhs = self.or(first)?;
        if self.eat_kw("implies") {
            let rhs = self.formula()?;
            return Ok(F::Or(vec![F::Not(Box::new(lhs)), rhs]));
        }
        Ok(lhs)
    }

    fn or(&mut self, first: Option<F>) -> Result<F> {
        let mut v = vec![self.and(first)?];
        while self.eat_kw("or") || self.eat(&Tok::OrOr) {
            v.push(self.and(None)?);
        }
        Ok(if v.len() == 1 {
            v.pop().unwrap_or(F::False)
        } else {
            F::Or(v)
        })
    }

    fn and(&mut self, first: Option<F>) -> Result<F> {
        let first = match first {
            Some(f) => f,
            None => self.unary()?,
        };
        let mut v = vec![first];
        while self.eat_kw("and") || self.eat(&Tok::AndAnd) {
            v.push(self.unary()?);
        }
        Ok(if v.len() == 1 {
            v.pop().unwrap_or(F::True)
        } else {
            F::And(v)
        })
    }

    fn unary(&mut self) -> Result<F> {
        if self.eat_kw("not") || self.eat(&Tok::Bang) {
            self.enter()?;
            let r = self.unary();
            self.leave();
            return Ok(F::Not(Box::new(r?)));
        }
        if self.eat_kw("exists") {
            return self.exists();
        }
        self.atom()
    }

    fn exists(&mut self) -> Result<F> {
        let paren = self.eat(&Tok::LParen);
        let saved_scope = self.scope.len();
        let mut vars = Vec::new();
        let mut defs = Vec::new();
        loop {
            let name = self.ident_name("an existential variable")?;
            let id = self.new_var(VarKind::Extra, None);
            if self.eat(&Tok::Eq) {
                // `e = expr`: a named definition (isl prints divisions this way)
                let pw = self.expr()?;
                defs.push(equals(id, pw));
            }
            self.scope.push((name, id));
            vars.push(id);
            if !self.eat(&Tok::Comma) {
                break;
            }
        }
        self.expect(&Tok::Colon)?;
        let body = self.formula()?;
        if paren {
            self.expect(&Tok::RParen)?;
        }
        self.scope.truncate(saved_scope);
        defs.push(body);
        Ok(F::Exists(vars, Box::new(F::And(defs))))
    }

    fn atom(&mut self) -> Result<F> {
        if self.eat_kw("true") {
            return Ok(F::True);
        }
        if self.eat_kw("false") {
            return Ok(F::False);
        }
        if self.peek() == &Tok::LParen {
            let snap = self.snapshot();
            self.advance();
            let attempt = self.formula().and_then(|f| {
                self.expect(&Tok::RParen)?;
                Ok(f)
            });
            match attempt {
                Ok(f) if !self.continues_expression() => return Ok(f),
                _ => self.restore(snap),
            }
        }
        self.comparison()
    }

    /// After a parenthesised group: does an expression go on (then the group was an
    /// expression, not a formula)?
    fn continues_expression(&self) -> bool {
        matches!(
            self.peek(),
            Tok::Lt
                | Tok::Le
                | Tok::Gt
                | Tok::Ge
                | Tok::LexLt
                | Tok::LexLe
                | Tok::LexGt
                | Tok::LexGe
                | Tok::Eq
                | Tok::Ne
                | Tok::Plus
                | Tok::Minus
                | Tok::Star
                | Tok::Percent
                | Tok::Slash
                | Tok::Comma
        ) || self.is_kw("mod")
    }

    fn cmp_op(&self) -> Option<Cmp> {
        Some(match self.peek() {
            Tok::Lt => Cmp::Lt,
            Tok::Le => Cmp::Le,
            Tok::Gt => Cmp::Gt,
            Tok::Ge => Cmp::Ge,
            Tok::Eq => Cmp::Eq,
            Tok::Ne => Cmp::Ne,
            Tok::LexLt => Cmp::LexLt,
            Tok::LexLe => Cmp::LexLe,
            Tok::LexGt => Cmp::LexGt,
            Tok::LexGe => Cmp::LexGe,
            _ => return None,
        })
    }

    fn comparison(&mut self) -> Result<F> {
        let first = self.expr_list()?;
        self.comparison_from(first)
    }

    /// A comparison whose first list of expressions has been read.
    fn comparison_from(&mut self, first: ExprList) -> Result<F> {
        // `a op b` is by far the most common form: no heap storage for the lists
        let mut lists: SmallVec<[ExprList; 2]> = smallvec![first];
        let mut ops: SmallVec<[Cmp; 1]> = SmallVec::new();
        while let Some(op) = self.cmp_op() {
            self.advance();
            ops.push(op);
            lists.push(self.expr_list()?);
        }
        if ops.is_empty() {
            return Err(self.expected("a comparison (<, <=, >, >=, =, !=)"));
        }
        let mut conj: SmallVec<[F; 1]> = SmallVec::new();
        for (k, op) in ops.iter().enumerate() {
            if matches!(op, Cmp::LexLt | Cmp::LexLe | Cmp::LexGt | Cmp::LexGe) {
                if lists[k].len() != lists[k + 1].len() {
                    return Err(self.err_here(&format!(
                        "lexicographic comparison of lists of {} and {} expressions",
                        lists[k].len(),
                        lists[k + 1].len()
                    )));
                }
                conj.push(lex_compare(&lists[k], *op, &lists[k + 1]));
                continue;
            }
            for a in &lists[k] {
                for b in &lists[k + 1] {
                    conj.push(compare(a, *op, b));
                }
            }
        }
        // a single comparison stands for itself (`and` of one formula is that formula)
        Ok(if conj.len() == 1 {
            conj.pop().unwrap_or(F::True)
        } else {
            F::And(conj.into_vec())
        })
    }

    fn expr_list(&mut self) -> Result<ExprList> {
        let mut v: ExprList = smallvec![self.expr()?];
        while self.eat(&Tok::Comma) {
            v.push(self.expr()?);
        }
        Ok(v)
    }

    // ----- expressions ---------------------------------------------------------

    fn expr(&mut self) -> Result<Piecewise> {
        self.enter()?;
        let r = self.sum();
        self.leave();
        r
    }

    fn sum(&mut self) -> Result<Piecewise> {
        let mut acc = self.term()?;
        loop {
            let sign = match self.peek() {
                Tok::Plus => 1,
                Tok::Minus => -1,
                _ => break,
            };
            self.advance();
            let rhs = self.term()?;
            acc = self.combine(acc, rhs, |a, b| Ok(a.add_in_place(&b, sign)))?;
        }
        Ok(acc)
    }

    /// A term, read as isl reads one: minus signs before a number literal make
    /// the literal negative (`-1//4` is floor(-1/4)), before anything else they
    /// negate the whole factor with its divisions (`-x//4` is -(x//4)); see
    /// [`Parser::isl_factor`]. What isl does not read (`x // 2 * 3`, products of
    /// expressions) goes on left to right after it.
    fn term(&mut self) -> Result<Piecewise> {
        let mut neg = false;
        while self.eat(&Tok::Minus) {
            neg = !neg;
        }
        let literal = if matches!(self.peek(), Tok::Num(_)) {
            let n = self.number()?;
            Some(if std::mem::take(&mut neg) { -n } else { n })
        } else {
            None
        };
        let mut acc = self.isl_factor(literal)?;
        if neg {
            acc = scaled(acc, &Int::from(-1));
        }
        loop {
            if self.eat(&Tok::Star) || self.implicit_product() {
                let (line, col) = self.here();
                let rhs = self.signed_factor()?;
                acc = self.combine(acc, rhs, |a, b| {
                    if a.is_const() {
                        Ok(b.scale_in_place(&a.c).divided_by(&a.den))
                    } else if b.is_const() {
                        Ok(a.scale_in_place(&b.c).divided_by(&b.den))
                    } else {
                        Err(Error::parse(
                            line,
                            col,
                            "product of two non-constant expressions is not affine",
                        ))
                    }
                })?;
            } else if !self.division_op(&mut acc)? {
                break;
            }
        }
        Ok(acc)
    }

    /// `2i`, `3(i + 1)`, `2floor(i/3)`: a number directly followed by a factor.
    fn implicit_product(&self) -> bool {
        let after_number = self.pos > 0 && matches!(self.toks[self.pos - 1].tok, Tok::Num(_));
        after_number
            && match self.peek() {
                Tok::Ident(s) => {
                    !is_keyword(s)
                        || matches!(
                            s.as_str(),
                            "floor" | "ceil" | "floord" | "ceild" | "min" | "max"
                        )
                }
                Tok::LParen => true,
                _ => false,
            }
    }

    /// isl's factor (`accept_affine_factor`), after the minus signs of the term
    /// (`first`: a number literal read already):
    ///
    /// ```text
    /// factor  := number ('*' ['-'] | <implicit>) factor  postfix
    ///          | (number | atom)                         postfix
    /// postfix := ('%' | 'mod') number
    ///          | ['*' ['-'] number ('*' ['-'] number)*] ['/' number] ['//' number]
    /// ```
    ///
    /// so the divisions bind to the factor on the right of a number
    /// (`2x//4` is 2·(x//4), as isl reads it). A chain `2 * 3 * x` is read in a
    /// loop, not by recursion: the coefficients wait on a stack, each applied
    /// before its own postfix.
    fn isl_factor(&mut self, first: Option<Int>) -> Result<Piecewise> {
        let mut coefs: Vec<Int> = Vec::new();
        let mut value = first;
        let base = loop {
            let Some(v) = value.take() else {
                break self.factor()?;
            };
            if self.eat(&Tok::Star) || self.implicit_product() {
                coefs.push(if self.eat(&Tok::Minus) { -v } else { v });
                if matches!(self.peek(), Tok::Num(_)) {
                    value = Some(self.number()?);
                }
                continue;
            }
            break smallvec![(F::True, Lin::constant(v))];
        };
        let mut acc = self.postfix(base)?;
        while let Some(c) = coefs.pop() {
            acc = scaled(acc, &c);
            acc = self.postfix(acc)?;
        }
        Ok(acc)
    }

    /// isl's operations after a factor (see [`Parser::isl_factor`]).
    fn postfix(&mut self, mut acc: Piecewise) -> Result<Piecewise> {
        if self.is_kw("mod") || self.peek() == &Tok::Percent {
            self.division_op(&mut acc)?;
            return Ok(acc);
        }
        let number_at = |p: &Parser, k: usize| {
            matches!(p.peek_at(k), Tok::Num(_))
                || (p.peek_at(k) == &Tok::Minus && matches!(p.peek_at(k + 1), Tok::Num(_)))
        };
        while self.peek() == &Tok::Star && number_at(self, 1) {
            self.advance();
            let neg = self.eat(&Tok::Minus);
            let n = self.number()?;
            acc = scaled(acc, &if neg { -n } else { n });
        }
        if self.peek() == &Tok::Slash && self.peek_at(1) != &Tok::Slash {
            self.division_op(&mut acc)?;
        }
        if self.peek() == &Tok::Slash {
            self.division_op(&mut acc)?;
        }
        Ok(acc)
    }

    /// Applies `// d`, `/ d`, `mod m` or `% m` when one comes next; false when
    /// none does.
    fn division_op(&mut self, acc: &mut Piecewise) -> Result<bool> {
        if self.peek() == &Tok::Slash && self.peek_at(1) == &Tok::Slash {
            // `e // d`: floor division (isl)
            self.no_division_in_rational("`//`")?;
            self.advance();
            self.advance();
            let den = self.divisor()?;
            *acc = self.divide(std::mem::take(acc), den, false);
        } else if self.peek() == &Tok::Slash {
            // `e / d` outside a floor: a rational expression, as in isl
            // (`i/2 <= 5` is `i <= 10`); comparisons clear the denominator
            self.advance();
            let den = self.divisor()?;
            for (_, l) in acc.iter_mut() {
                *l = std::mem::take(l).divided_by(&den);
            }
        } else if self.is_kw("mod") || self.peek() == &Tok::Percent {
            self.no_division_in_rational("`mod`")?;
            self.advance();
            let m = self.positive_constant("the modulus")?;
            let mut out = Piecewise::with_capacity(acc.len());
            for (cond, l) in std::mem::take(acc) {
                let q = self.make_div(l.clone(), m.clone());
                out.push((cond, l.add(&q.scale(&m), -1)));
            }
            *acc = out;
        } else {
            return Ok(false);
        }
        Ok(true)
    }

    fn here(&self) -> (usize, usize) {
        let t = &self.toks[self.pos.min(self.toks.len() - 1)];
        (t.line, t.col)
    }

    fn positive_constant(&mut self, what: &str) -> Result<Int> {
        if !matches!(self.peek(), Tok::Num(_)) {
            return Err(self.expected(&format!("an integer constant for {what}")));
        }
        let at = self.snapshot();
        let n = self.number()?;
        if !n.is_positive() {
            self.restore(at);
            return Err(self.err_here(&format!("{what} must be positive")));
        }
        Ok(n)
    }

    /// The number literal at the current token, raised to a power when `^` and a
    /// second literal follow (isl evaluates `2^3` as it reads the tokens, so that
    /// `-2^2` is -4). Powers are bounded like literals are.
    fn number(&mut self) -> Result<Int> {
        let Tok::Num(base) = self.peek().clone() else {
            return Err(self.expected("an integer constant"));
        };
        self.advance();
        if self.peek() != &Tok::Caret {
            return Ok(base);
        }
        self.advance();
        let Tok::Num(exp) = self.peek().clone() else {
            return Err(self.expected("an integer exponent"));
        };
        let r = power(&base, &exp).ok_or_else(|| {
            self.err_here(&format!("power with more than {MAX_LITERAL_DIGITS} digits"))
        })?;
        self.advance();
        Ok(r)
    }

    fn signed_factor(&mut self) -> Result<Piecewise> {
        if self.eat(&Tok::Minus) {
            self.enter()?;
            let r = self.signed_factor();
            self.leave();
            let mut r = r?;
            for (_, l) in &mut r {
                *l = std::mem::take(l).scale_in_place(&Int::from(-1));
            }
            return Ok(r);
        }
        self.factor()
    }

    fn factor(&mut self) -> Result<Piecewise> {
        // a plain variable, the most common factor, without copying its name
        if let Tok::Ident(s) = self.peek() {
            if self.peek_at(1) != &Tok::LParen && !is_keyword(s) {
                if let Some(id) = self.lookup(s) {
                    self.advance();
                    return Ok(smallvec![(F::True, Lin::var(id))]);
                }
            }
        }
        match self.peek().clone() {
            Tok::Num(_) => {
                let n = self.number()?;
                Ok(smallvec![(F::True, Lin::constant(n))])
            }
            Tok::LParen => {
                self.advance();
                // `(c ? a : b)`: a when the condition holds, else b (tried only
                // when a `?` stands inside these parentheses, so that nested
                // parentheses are not read twice at every level)
                let snap = self.snapshot();
                let cond = if self.question_inside() {
                    self.formula().ok().filter(|_| self.eat(&Tok::Question))
                } else {
                    None
                };
                let mut first = match cond {
                    Some(cond) => Some(self.ternary_branches(cond)?),
                    None => {
                        self.restore(snap);
                        None
                    }
                };
                // pieces `e`, `e : c` (e where c holds, no value elsewhere),
                // separated by `;` as in isl's `(2a : a >= 0; 0 : a < 0)`
                let mut out = Piecewise::new();
                loop {
                    let e = match first.take() {
                        Some(e) => e,
                        None => self.expr()?,
                    };
                    let e = if self.eat(&Tok::Colon) {
                        let c = self.formula()?;
                        with_condition(e, &c)
                    } else {
                        e
                    };
                    out.extend(e);
                    if out.len() > MAX_PIECES {
                        return Err(self.err_here(&format!(
                            "piecewise expression with more than {MAX_PIECES} pieces"
                        )));
                    }
                    if !self.eat(&Tok::Semi) {
                        break;
                    }
                }
                self.expect(&Tok::RParen)?;
                Ok(out)
            }
            Tok::LBracket => {
                self.no_division_in_rational("an integer division `[e/d]`")?;
                self.advance();
                let e = self.division(false, &Tok::RBracket)?;
                Ok(e)
            }
            Tok::Ident(s) => {
                let call = self.peek_at(1) == &Tok::LParen;
                match s.as_str() {
                    "floor" | "ceil" if call => {
                        self.no_division_in_rational(&format!("`{s}`"))?;
                        self.advance();
                        self.advance();
                        self.division(s == "ceil", &Tok::RParen)
                    }
                    "min" | "max" if call => {
                        self.advance();
                        self.advance();
                        self.min_max(s == "min")
                    }
                    "floord" | "ceild" if call => {
                        // isl's `floord(e, d)` and `ceild(e, d)`
                        self.no_division_in_rational(&format!("`{s}`"))?;
                        self.advance();
                        self.advance();
                        let e = self.expr()?;
                        self.expect(&Tok::Comma)?;
                        let den = self.divisor()?;
                        self.expect(&Tok::RParen)?;
                        Ok(self.divide(e, den, s == "ceild"))
                    }
                    "NaN" => {
                        // isl's undefined value: an expression with no value
                        // (no piece), so every comparison with it is false and
                        // a tuple entry NaN leaves its disjunct empty; it
                        // carries through sums, products, min/max and floor
                        self.advance();
                        Ok(Piecewise::new())
                    }
                    _ if is_keyword(&s) => {
                        Err(self
                            .err_here(&format!("expected an expression, found the keyword '{s}'")))
                    }
                    _ => match self.lookup(&s) {
                        Some(id) => {
                            self.advance();
                            Ok(smallvec![(F::True, Lin::var(id))])
                        }
                        None => Err(self.err_here(&format!("unknown variable '{s}'"))),
                    },
                }
            }
            _ => Err(self.expected("an expression")),
        }
    }

    /// An expression that may be a conditional value without parentheses, as
    /// isl reads tuple entries and the branches of `?:`: an expression followed
    /// by a comparison begins the condition of `c ? a : b` (`[i > 0 ? 4 : 5]`).
    fn ext_expr(&mut self) -> Result<Piecewise> {
        let e = self.expr()?;
        if self.cmp_op().is_none() {
            return Ok(e);
        }
        let first = self.comparison_from(smallvec![e])?;
        let cond = self.formula_from(Some(first))?;
        self.expect(&Tok::Question)?;
        self.ternary_branches(cond)
    }

    /// `a : b` after `c ?`: a where c holds, b elsewhere.
    fn ternary_branches(&mut self, cond: F) -> Result<Piecewise> {
        self.enter()?;
        let r = (|| {
            let a = self.ext_expr()?;
            self.expect(&Tok::Colon)?;
            let b = self.ext_expr()?;
            Ok((a, b))
        })();
        self.leave();
        let (a, b) = r?;
        let mut out = with_condition(a, &cond);
        out.extend(with_condition(b, &F::Not(Box::new(cond))));
        if out.len() > MAX_PIECES {
            return Err(self.err_here(&format!(
                "piecewise expression with more than {MAX_PIECES} pieces"
            )));
        }
        Ok(out)
    }

    /// True when a `?` stands between here and the `)` that closes the
    /// parenthesis just read, outside any nested parentheses.
    fn question_inside(&self) -> bool {
        let mut depth = 0usize;
        for t in &self.toks[self.pos..] {
            match t.tok {
                Tok::LParen => depth += 1,
                Tok::RParen if depth == 0 => return false,
                Tok::RParen => depth -= 1,
                Tok::Question if depth == 0 => return true,
                Tok::Eof => return false,
                _ => {}
            }
        }
        false
    }

    /// The inside of `floor(e / d)`, `ceil(e / d)` or `[e / d]`, up to `close`.
    fn division(&mut self, ceil: bool, close: &Tok) -> Result<Piecewise> {
        let e = self.expr()?;
        let den = if self.eat(&Tok::Slash) {
            self.divisor()?
        } else {
            Int::ONE
        };
        self.expect(close)?;
        Ok(self.divide(e, den, ceil))
    }

    /// A non-zero integer divisor, with an optional minus sign.
    fn divisor(&mut self) -> Result<Int> {
        let neg = self.eat(&Tok::Minus);
        if !matches!(self.peek(), Tok::Num(_)) {
            return Err(self.expected("an integer divisor"));
        }
        let at = self.snapshot();
        let n = self.number()?;
        if n.is_zero() {
            self.restore(at);
            return Err(self.err_here("division by zero"));
        }
        Ok(if neg { -n } else { n })
    }

    /// `floor(e / den)` (`ceil` when asked), piece by piece; `den` non-zero.
    fn divide(&mut self, e: Piecewise, den: Int, ceil: bool) -> Piecewise {
        let mut out = Piecewise::with_capacity(e.len());
        for (cond, l) in e {
            // floor(l / d) with d < 0 is floor(-l / -d); ceil(x) = -floor(-x)
            let (l, den) = if den.is_negative() {
                (l.scale(&Int::from(-1)), -&den)
            } else {
                (l, den.clone())
            };
            let v = if ceil {
                self.make_div(l.scale(&Int::from(-1)), den)
                    .scale(&Int::from(-1))
            } else {
                self.make_div(l, den)
            };
            out.push((cond, v));
        }
        out
    }

    fn min_max(&mut self, is_min: bool) -> Result<Piecewise> {
        let mut args = vec![self.expr()?];
        while self.eat(&Tok::Comma) {
            args.push(self.expr()?);
        }
        self.expect(&Tok::RParen)?;
        let mut acc = args.remove(0);
        for b in args {
            let mut out = Piecewise::new();
            for (ca, la) in &acc {
                for (cb, lb) in &b {
                    // is_min: pick a when a <= b, else b (and symmetrically for max)
                    let (a_wins, b_wins) = if is_min {
                        (
                            F::Ge(lb.add(la, -1).numerator()),
                            F::Ge(la.add(lb, -1).numerator().plus_const(-1)),
                        )
                    } else {
                        (
                            F::Ge(la.add(lb, -1).numerator()),
                            F::Ge(lb.add(la, -1).numerator().plus_const(-1)),
                        )
                    };
                    let both = F::and(ca.clone(), cb.clone());
                    out.push((F::and(both.clone(), a_wins), la.clone()));
                    out.push((F::and(both, b_wins), lb.clone()));
                }
            }
            if out.len() > MAX_PIECES {
                return Err(self.err_here(&format!(
                    "min/max expression with more than {MAX_PIECES} pieces"
                )));
            }
            acc = out;
        }
        Ok(acc)
    }

    /// The piecewise expression `f(a, b)`: one piece per pair of pieces, under both
    /// conditions. Two single pieces (no `min`/`max` around) are combined in place.
    fn combine(
        &self,
        mut a: Piecewise,
        mut b: Piecewise,
        f: impl Fn(Lin, Lin) -> Result<Lin>,
    ) -> Result<Piecewise> {
        if a.len() * b.len() > MAX_PIECES {
            return Err(self.err_here(&format!(
                "min/max expression with more than {MAX_PIECES} pieces"
            )));
        }
        if let ([(ca, la)], 1) = (a.as_mut_slice(), b.len()) {
            if let Some((cb, lb)) = b.pop() {
                let l = f(std::mem::take(la), lb)?;
                *la = l;
                *ca = F::and(std::mem::replace(ca, F::True), cb);
                return Ok(a);
            }
        }
        let mut out = Piecewise::with_capacity(a.len() * b.len());
        for (ca, la) in &a {
            for (cb, lb) in &b {
                out.push((F::and(ca.clone(), cb.clone()), f(la.clone(), lb.clone())?));
            }
        }
        Ok(out)
    }

    /// `floor(num / den)` for `den > 0` as an expression: a constant when `num` is
    /// constant, `num` itself when `den` is 1 after reduction, otherwise a division
    /// local (one per distinct division).
    fn make_div(&mut self, num: Lin, den: Int) -> Lin {
        // floor((n / d0) / den) = floor(n / (d0·den))
        let den = if num.den.is_one() {
            den
        } else {
            &den * &num.den
        };
        let num = num.numerator().trim();
        let g = num.coefs.iter().fold(num.c.gcd(&den), |g, v| g.gcd(v));
        let (num, den) = if g.is_one() || g.is_zero() {
            (num, den)
        } else {
            (
                Lin {
                    c: num.c.exact_div(&g),
                    coefs: num.coefs.iter().map(|v| v.exact_div(&g)).collect(),
                    den: Int::ONE,
                },
                den.exact_div(&g),
            )
        };
        if den.is_one() {
            return num;
        }
        if num.is_const() {
            return Lin::constant(num.c.floor_div(&den));
        }
        let key = (num, den);
        if let Some(&id) = self.div_cache.get(&key) {
            return Lin::var(id);
        }
        let id = self.new_var(VarKind::Extra, Some(key.clone()));
        self.div_cache.insert(key, id);
        Lin::var(id)
    }

    // ----- normal form ---------------------------------------------------------

    /// The disjunctive normal form of `f` (of `not f` when `neg`): disjuncts in order,
    /// each a list of atoms in the order of the text. The formula is consumed, so
    /// its expressions move into the atoms.
    fn dnf(&mut self, f: F, neg: bool) -> Result<Vec<Vec<Atom>>> {
        Ok(match (f, neg) {
            (F::True, false) | (F::False, true) => vec![vec![]],
            (F::True, true) | (F::False, false) => vec![],
            (F::Ge(l), false) => vec![vec![Atom::Ge(l)]],
            (F::Ge(l), true) => vec![vec![Atom::Ge(l.scale(&Int::from(-1)).plus_const(-1))]],
            (F::Eq(l), false) => vec![vec![Atom::Eq(l)]],
            (F::Eq(l), true) => vec![
                vec![Atom::Ge(l.plus_const(-1))],
                vec![Atom::Ge(l.scale(&Int::from(-1)).plus_const(-1))],
            ],
            (F::And(xs), false) | (F::Or(xs), true) => {
                let mut acc: Vec<Vec<Atom>> = vec![vec![]];
                for x in xs {
                    // an atom is appended as it is (the same as its one-disjunct form)
                    let x = match (x, neg) {
                        (F::Ge(l), false) => {
                            append_atom(&mut acc, Atom::Ge(l));
                            continue;
                        }
                        (F::Eq(l), false) => {
                            append_atom(&mut acc, Atom::Eq(l));
                            continue;
                        }
                        (x, _) => x,
                    };
                    let d = self.dnf(x, neg)?;
                    if d.is_empty() {
                        return Ok(vec![]);
                    }
                    if acc.len() * d.len() > MAX_DISJUNCTS {
                        return Err(self.budget_error());
                    }
                    acc = and_dnf(acc, d);
                }
                acc
            }
            (F::Or(xs), false) | (F::And(xs), true) => {
                let mut acc = Vec::new();
                for x in xs {
                    acc.extend(self.dnf(x, neg)?);
                    if acc.len() > MAX_DISJUNCTS {
                        return Err(self.budget_error());
                    }
                }
                acc
            }
            (F::Not(x), n) => self.dnf(*x, !n)?,
            (F::Exists(_, body), false) => self.dnf(*body, false)?,
            (F::Exists(vars, body), true) => {
                let rewritten = self.eliminate_negated_exists(&vars, *body)?;
                self.dnf(rewritten, true)?
            }
        })
    }

    fn budget_error(&self) -> Error {
        Error::Budget(format!(
            "the formula expands to more than {MAX_DISJUNCTS} disjuncts"
        ))
    }

    /// Under a negation, `exists e : body` is rewritten without the quantifier where
    /// that is exact: the body is put in disjunctive normal form
    /// (`not exists e : D1 or D2` is `not (exists e : D1) and not (exists e : D2)`),
    /// and in each disjunct every quantified variable (also those of existentials
    /// nested positively in the body) must be fixed by an equality `a·e + rest = 0`
    /// free of the other pending variables; then `e` is the division
    /// `floor(-rest / a)`, a function of the outer variables, and the equality becomes
    /// the divisibility condition. A variable that a disjunct does not use is dropped.
    /// Anything else needs set complement and is refused.
    fn eliminate_negated_exists(&mut self, vars: &[usize], body: F) -> Result<F> {
        let mut quantified = vars.to_vec();
        collect_positive_exists(&body, &mut quantified);
        let unsupported = || {
            Error::Unsupported(
                "an existential variable under 'not' that no equality determines; \
                 this needs set complement"
                    .into(),
            )
        };
        if self.vars.iter().any(|x| {
            x.div
                .as_ref()
                .is_some_and(|(n, _)| quantified.iter().any(|&q| !n.get(q).is_zero()))
        }) {
            return Err(unsupported());
        }
        let disjuncts = self.dnf(body, false)?;
        let mut out = Vec::with_capacity(disjuncts.len());
        for mut atoms in disjuncts {
            let mut pending: Vec<usize> = quantified
                .iter()
                .copied()
                .filter(|&q| atoms.iter().any(|a| !a.lin().get(q).is_zero()))
                .collect();
            while !pending.is_empty() {
                let found = pending.iter().enumerate().find_map(|(k, &v)| {
                    atoms.iter().find_map(|a| match a {
                        Atom::Eq(l)
                            if !l.get(v).is_zero()
                                && pending.iter().all(|&q| q == v || l.get(q).is_zero()) =>
                        {
                            Some((k, v, l.clone()))
                        }
                        _ => None,
                    })
                });
                let Some((k, v, l)) = found else {
                    return Err(unsupported());
                };
                pending.remove(k);
                let a = l.get(v);
                let rest = l.subst(v, &Lin::constant(Int::ZERO));
                let (num, den) = if a.is_negative() {
                    (rest, -a)
                } else {
                    (rest.scale(&Int::from(-1)), a)
                };
                let d = self.make_div(num, den);
                for at in &mut atoms {
                    *at = match at {
                        Atom::Ge(x) => Atom::Ge(x.subst(v, &d)),
                        Atom::Eq(x) => Atom::Eq(x.subst(v, &d)),
                    };
                }
            }
            out.push(F::And(
                atoms
                    .into_iter()
                    .map(|a| match a {
                        Atom::Ge(l) => F::Ge(l),
                        Atom::Eq(l) => F::Eq(l),
                    })
                    .collect(),
            ));
        }
        Ok(F::Or(out))
    }

    /// For each variable, whether one of `lins` uses it, directly or through
    /// the division definitions of the variables used.
    fn used_vars<'l>(&self, lins: impl Iterator<Item = &'l Lin>) -> Vec<bool> {
        let mut used = vec![false; self.vars.len()];
        for l in lins {
            for (id, c) in l.coefs.iter().enumerate() {
                if !c.is_zero() {
                    used[id] = true;
                }
            }
        }
        // definitions only use earlier variables: one backward sweep closes the set
        for id in (0..self.vars.len()).rev() {
            if used[id] {
                if let Some((num, _)) = &self.vars[id].div {
                    for (k, c) in num.coefs.iter().enumerate() {
                        if !c.is_zero() {
                            used[k] = true;
                        }
                    }
                }
            }
        }
        used
    }

    /// The conjunction of one disjunct: the extra variables its atoms use (and those
    /// their division definitions use) become locals, in creation order.
    fn build(&self, space: &Space, atoms: &[Atom]) -> Result<Conjunction> {
        let np = self.params.len();
        let nd = self.n_dims;
        if space.n_in() + space.n_out() != nd {
            return Err(Error::Invalid("internal: tuple dimension count".into()));
        }
        let used = self.used_vars(atoms.iter().map(Atom::lin));
        let mut colmap = vec![0usize; self.vars.len()];
        let mut n_extra = 0;
        for (id, v) in self.vars.iter().enumerate() {
            colmap[id] = match v.kind {
                VarKind::Param(i) => 1 + i,
                VarKind::Dim(i) => 1 + np + i,
                VarKind::Extra if used[id] => {
                    n_extra += 1;
                    np + nd + n_extra
                }
                VarKind::Extra => 0,
            };
        }
        let n_col = 1 + np + nd + n_extra;
        let row = |l: &Lin| {
            let mut r = vec![Int::ZERO; n_col];
            r[0] = l.c.clone();
            for (id, c) in l.coefs.iter().enumerate() {
                if !c.is_zero() {
                    r[colmap[id]] = c.clone();
                }
            }
            r
        };
        let mut c = Conjunction::universe(space.clone());
        for (id, v) in self.vars.iter().enumerate() {
            if v.kind == VarKind::Extra && used[id] {
                let div = v.div.as_ref().map(|(num, den)| {
                    let mut r = row(num);
                    r.truncate(1 + np + nd + c.n_local());
                    Div {
                        num: r,
                        den: den.clone(),
                    }
                });
                c.add_local(div)?;
            }
        }
        for a in atoms {
            match a {
                Atom::Ge(l) => c.add_ineq(row(l))?,
                Atom::Eq(l) => c.add_eq(row(l))?,
            }
        }
        Ok(c)
    }
}

impl Atom {
    fn lin(&self) -> &Lin {
        match self {
            Atom::Ge(l) | Atom::Eq(l) => l,
        }
    }

    fn clone_atom(&self) -> Atom {
        match self {
            Atom::Ge(l) => Atom::Ge(l.clone()),
            Atom::Eq(l) => Atom::Eq(l.clone()),
        }
    }
}

/// The disjunctive normal form of `A and B` from those of `A` (`acc`) and `B` (`d`):
/// every disjunct of `acc` followed by every disjunct of `d`, in the order
/// `(a1 b1), (a1 b2), .., (a2 b1), ..`, each with the atoms of `a` before those of `b`.
///
/// The common case of a long conjunction is a `d` with a single disjunct: it is
/// appended to the disjuncts of `acc` in place (moved into the last one, copied into
/// the others), so a conjunction of `n` atoms is collected in `O(n)` instead of
/// copying the atoms collected so far for every new conjunct (`n²/2` copies).
fn and_dnf(mut acc: Vec<Vec<Atom>>, mut d: Vec<Vec<Atom>>) -> Vec<Vec<Atom>> {
    if d.len() == 1 {
        let b = d.pop().unwrap_or_default();
        if let Some((last, rest)) = acc.split_last_mut() {
            for a in rest {
                a.extend(b.iter().map(Atom::clone_atom));
            }
            if last.is_empty() {
                *last = b;
            } else {
                last.extend(b);
            }
        }
        return acc;
    }
    let mut next = Vec::with_capacity(acc.len() * d.len());
    for a in &acc {
        for b in &d {
            let mut c: Vec<Atom> = Vec::with_capacity(a.len() + b.len());
            c.extend(a.iter().map(Atom::clone_atom));
            c.extend(b.iter().map(Atom::clone_atom));
            next.push(c);
        }
    }
    next
}

/// Appends one atom to every disjunct (`acc` and the atom: the one-disjunct case of
/// [`and_dnf`]).
fn append_atom(acc: &mut [Vec<Atom>], atom: Atom) {
    if let Some((last, rest)) = acc.split_last_mut() {
        for a in rest {
            a.push(atom.clone_atom());
        }
        last.push(atom);
    }
}

/// The pieces of `e`, each scaled by `k`.
fn scaled(mut e: Piecewise, k: &Int) -> Piecewise {
    for (_, l) in &mut e {
        *l = std::mem::take(l).scale_in_place(k);
    }
    e
}

/// `base^exp` for non-negative literals, or `None` when the result would have
/// more than [`MAX_LITERAL_DIGITS`] decimal digits.
fn power(base: &Int, exp: &Int) -> Option<Int> {
    if base.is_zero() || base.is_one() {
        return Some(if exp.is_zero() {
            Int::ONE
        } else {
            base.clone()
        });
    }
    let big = base.to_big();
    // digits of the result: at most exp · bits(base) · log10(2) + 1
    let max_bits = MAX_LITERAL_DIGITS as u64 * 10 / 3;
    let exp = exp.to_i64().and_then(|e| u32::try_from(e).ok())?;
    if big.bits().checked_mul(u64::from(exp))? > max_bits {
        return None;
    }
    Some(Int::from_big(big.pow(exp)))
}

/// The formula `var = pw` for a piecewise expression: one alternative per piece.
fn equals(var: usize, pw: Piecewise) -> F {
    let v = Lin::var(var);
    F::Or(
        pw.into_iter()
            .map(|(cond, l)| F::and(cond, F::Eq(v.add(&l, -1).numerator())))
            .collect(),
    )
}

/// The variables of existentials that stand in positive position inside `f`.
fn collect_positive_exists(f: &F, out: &mut Vec<usize>) {
    match f {
        F::Exists(vs, b) => {
            out.extend(vs.iter().copied());
            collect_positive_exists(b, out);
        }
        F::And(xs) | F::Or(xs) => xs.iter().for_each(|x| collect_positive_exists(x, out)),
        F::Not(_) | F::True | F::False | F::Ge(_) | F::Eq(_) => {}
    }
}

/// The pieces of `e`, each also under the condition `c`.
fn with_condition(e: Piecewise, c: &F) -> Piecewise {
    e.into_iter()
        .map(|(cond, l)| (F::and(cond, c.clone()), l))
        .collect()
}

/// `a op b` for lists of the same length in lexicographic order (`<<`:
/// smaller at the first position where they differ; `<<=` also equal).
fn lex_compare(a: &ExprList, op: Cmp, b: &ExprList) -> F {
    let (a, b, strict) = match op {
        Cmp::LexLt => (a, b, true),
        Cmp::LexLe => (a, b, false),
        Cmp::LexGt => (b, a, true),
        _ => (b, a, false),
    };
    let mut alts = Vec::with_capacity(a.len() + 1);
    for p in 0..a.len() {
        let mut parts: Vec<F> = (0..p).map(|q| compare(&a[q], Cmp::Eq, &b[q])).collect();
        parts.push(compare(&a[p], Cmp::Lt, &b[p]));
        alts.push(F::And(parts));
    }
    if !strict {
        alts.push(F::And(
            (0..a.len())
                .map(|q| compare(&a[q], Cmp::Eq, &b[q]))
                .collect(),
        ));
    }
    F::Or(alts)
}

fn compare(a: &Piecewise, op: Cmp, b: &Piecewise) -> F {
    let mut alts = Vec::with_capacity(a.len() * b.len());
    for (ca, la) in a {
        for (cb, lb) in b {
            // b - a and a - b, each built in one copy of an operand
            // `a < b` is `a + 1 <= b` also between rational expressions, as
            // isl reads it (`i/2 < 3` is `i <= 4`); then the numerator, which
            // has the sign of the difference, is the atom
            let b_minus_a = |k: i64| lb.clone().add_in_place(la, -1).add_const(k).numerator();
            let a_minus_b = |k: i64| la.clone().add_in_place(lb, -1).add_const(k).numerator();
            // (between single expressions the lexicographic order is the order)
            let atom = match op {
                Cmp::Le | Cmp::LexLe => F::Ge(b_minus_a(0)),
                Cmp::Lt | Cmp::LexLt => F::Ge(b_minus_a(-1)),
                Cmp::Ge | Cmp::LexGe => F::Ge(a_minus_b(0)),
                Cmp::Gt | Cmp::LexGt => F::Ge(a_minus_b(-1)),
                Cmp::Eq => F::Eq(a_minus_b(0)),
                Cmp::Ne => F::Or(vec![F::Ge(a_minus_b(-1)), F::Ge(b_minus_a(-1))]),
            };
            alts.push(F::and(F::and(ca.clone(), cb.clone()), atom));
        }
    }
    if alts.len() == 1 {
        alts.pop().unwrap_or(F::False)
    } else {
        F::Or(alts)
    }
}

// ----- FromStr for the public types ------------------------------------------------

impl FromStr for UnionSet {
    type Err = Error;
    /// Reads a union set in isl notation (isl's `isl_union_set_read_from_str`):
    /// members in several spaces, separated by `;`.
    ///
    /// ```
    /// use presburger::UnionSet;
    /// let u: UnionSet = "[N] -> { A[i] : 0 <= i < N; B[i, j] : i = j }".parse()?;
    /// assert_eq!(u.members().len(), 2);
    /// assert!("{ A[i] -> B[i] }".parse::<UnionSet>().is_err()); // a map
    /// # Ok::<(), presburger::Error>(())
    /// ```
    fn from_str(s: &str) -> Result<UnionSet> {
        match parse_object(s)? {
            Object::Set(u) => Ok(u),
            Object::Map(_) => Err(Error::SpaceMismatch("expected a set, found a map".into())),
        }
    }
}

impl FromStr for UnionMap {
    type Err = Error;
    /// Reads a union map in isl notation (isl's `isl_union_map_read_from_str`).
    ///
    /// ```
    /// use presburger::UnionMap;
    /// let u: UnionMap = "{ S[i] -> A[i]; T[i] -> A[i + 1] }".parse()?;
    /// assert_eq!(u.members().len(), 2);
    /// # Ok::<(), presburger::Error>(())
    /// ```
    fn from_str(s: &str) -> Result<UnionMap> {
        match parse_object(s)? {
            Object::Map(u) => Ok(u),
            Object::Set(u) if u.members().is_empty() => Ok(UnionMap::empty(u.params)),
            Object::Set(_) => Err(Error::SpaceMismatch("expected a map, found a set".into())),
        }
    }
}

impl FromStr for Set {
    type Err = Error;
    /// Reads a set of one space in isl notation (isl's
    /// `isl_set_read_from_str`); an error for a text with several spaces (read
    /// a [`UnionSet`] then) or with a map.
    ///
    /// ```
    /// use presburger::Set;
    /// let s: Set = "[N] -> { S[i, j] : 0 <= i < N and j = 2i or i = j = N }".parse()?;
    /// assert_eq!((s.space().n_param(), s.space().n_out(), s.n_basic()), (1, 2, 2));
    /// assert!("{ A[i]; B[i] }".parse::<Set>().is_err());
    /// # Ok::<(), presburger::Error>(())
    /// ```
    fn from_str(s: &str) -> Result<Set> {
        let u: UnionSet = s.parse()?;
        single(u.sets, u.params, "set")
    }
}

impl FromStr for Map {
    type Err = Error;
    /// Reads a map of one space in isl notation (isl's
    /// `isl_map_read_from_str`), as `Set`'s `from_str`.
    ///
    /// ```
    /// use presburger::Map;
    /// let m: Map = "{ S[i] -> A[i + 1, 2i] : i >= 0 }".parse()?;
    /// assert_eq!((m.space().n_in(), m.space().n_out()), (1, 2));
    /// # Ok::<(), presburger::Error>(())
    /// ```
    fn from_str(s: &str) -> Result<Map> {
        let u: UnionMap = s.parse()?;
        single(u.maps, u.params, "map")
    }
}

fn single<T: Clone>(mut members: Vec<T>, _params: Vec<String>, what: &str) -> Result<T> {
    match members.len() {
        1 => Ok(members.remove(0)),
        0 => Err(Error::SpaceMismatch(format!(
            "the text has no {what} space; write e.g. {{ [i] : false }} for an empty {what}"
        ))),
        n => Err(Error::SpaceMismatch(format!(
            "expected one {what} space, the text has {n}"
        ))),
    }
}

/// The one conjunction of `d` (the empty one of its space when it has none);
/// an error when it has several.
fn single_conjunction(mut d: Disjunction, what: &str) -> Result<Conjunction> {
    match d.parts.len() {
        0 => Ok(Conjunction::empty(d.space)),
        1 => Ok(d.parts.remove(0)),
        n => Err(Error::SpaceMismatch(format!(
            "expected a single conjunction, the {what} has {n} disjuncts"
        ))),
    }
}

impl FromStr for BasicSet {
    type Err = Error;
    /// Reads one conjunction in isl notation (isl's
    /// `isl_basic_set_read_from_str`); an error for a text with several
    /// disjuncts.
    ///
    /// ```
    /// use presburger::BasicSet;
    /// let b: BasicSet = "{ [i] : 0 <= i <= 4 and i mod 2 = 0 }".parse()?;
    /// assert!(!b.is_empty()?);
    /// assert!("{ [i] : i < 0 or i > 4 }".parse::<BasicSet>().is_err());
    /// # Ok::<(), presburger::Error>(())
    /// ```
    fn from_str(s: &str) -> Result<BasicSet> {
        single_conjunction(s.parse::<Set>()?.0, "set").map(BasicSet)
    }
}

impl FromStr for BasicMap {
    type Err = Error;
    /// Reads one conjunction in isl notation (isl's
    /// `isl_basic_map_read_from_str`); an error for a text with several
    /// disjuncts.
    ///
    /// ```
    /// use presburger::BasicMap;
    /// let m: BasicMap = "{ S[i] -> A[2i] }".parse()?;
    /// assert_eq!(m.space().n_in(), 1);
    /// # Ok::<(), presburger::Error>(())
    /// ```
    fn from_str(s: &str) -> Result<BasicMap> {
        single_conjunction(s.parse::<Map>()?.0, "map").map(BasicMap)
    }
}

#[cfg(test)]
#[path = "parse_tests.rs"]
mod tests;

#[path = "parse_aff.rs"]
pub(crate) mod parse_aff;
