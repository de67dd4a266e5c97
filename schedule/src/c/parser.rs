//! The C parser: tokens of a region to statements ([`super::ast`]).
//!
//! Recursive descent for statements (`for`, `if`/`else`, blocks,
//! declarations, assignments) and precedence climbing for C expressions
//! (assignment, `?:`, `||` down to unary, postfix and primary forms, casts).
//! Constructs outside the accepted subset (`while`, `break`, `goto`,
//! `return`, labels, ...) are errors that name them. Nesting deeper than
//! [`MAX_DEPTH`] is an error rather than a stack overflow later: every nested
//! statement, parenthesis, operand of a prefix operator, branch of `?:` and
//! link of a postfix chain such as `A[i][j]` counts one level, since each
//! makes the tree one level deeper. A chain of binary operators of one
//! precedence level (`a + b + c + ...`) is parsed by a loop into one flat
//! node and costs no level, so a sum of ten thousand terms is accepted while
//! ten thousand nested parentheses are refused.

use super::ast::{Expr, ExprKind, Pos, Stmt, StmtKind};
use super::lexer::{Tok, Token};
use crate::error::{Error, Result};

/// The deepest nesting of statements and expressions accepted.
pub const MAX_DEPTH: usize = 256;

/// Words that start a type name.
pub const TYPE_WORDS: &[&str] = &[
    "void",
    "char",
    "short",
    "int",
    "long",
    "float",
    "double",
    "signed",
    "unsigned",
    "const",
    "static",
    "register",
    "volatile",
    "restrict",
    "_Bool",
    "bool",
    "size_t",
    "int8_t",
    "int16_t",
    "int32_t",
    "int64_t",
    "uint8_t",
    "uint16_t",
    "uint32_t",
    "uint64_t",
    "DATA_TYPE",
];

/// True when `t` starts a type name.
pub fn is_type_word(t: &Token) -> bool {
    t.ident().is_some_and(|w| TYPE_WORDS.contains(&w))
}

/// Binary operators by precedence level, loosest first.
const LEVELS: &[&[&str]] = &[
    &["||"],
    &["&&"],
    &["|"],
    &["^"],
    &["&"],
    &["==", "!="],
    &["<", ">", "<=", ">="],
    &["<<", ">>"],
    &["+", "-"],
    &["*", "/", "%"],
];

const ASSIGN_OPS: &[&str] = &[
    "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=",
];

/// Parses the statements in `toks`; `end` is the place reported when the
/// tokens run out.
pub fn parse_stmts(toks: &[Token], end: Pos) -> Result<Vec<Stmt>> {
    let mut p = Parser {
        toks,
        k: 0,
        end,
        depth: 0,
    };
    let mut out = Vec::new();
    while p.k < toks.len() {
        out.push(p.stmt()?);
    }
    Ok(out)
}

/// Parses `toks` as one expression (all of them).
pub fn parse_expr(toks: &[Token], end: Pos) -> Result<Expr> {
    let mut p = Parser {
        toks,
        k: 0,
        end,
        depth: 0,
    };
    let e = p.expr()?;
    if let Some(t) = p.peek() {
        return Err(p.err_here(format!("unexpected {} after the expression", describe(t))));
    }
    Ok(e)
}

struct Parser<'a> {
    toks: &'a [Token],
    k: usize,
    end: Pos,
    depth: usize,
}

fn pos_of(t: &Token) -> Pos {
    Pos {
        start: t.start,
        end: t.end,
        line: t.line,
        col: t.col,
    }
}

/// How a token is named in messages.
fn describe(t: &Token) -> String {
    match &t.tok {
        Tok::Ident(s) => format!("'{s}'"),
        Tok::Int(_) | Tok::Float => "a number".into(),
        Tok::Str => "a string".into(),
        Tok::Char => "a character literal".into(),
        Tok::Punct(p) => format!("'{p}'"),
        Tok::Directive(d) => format!("the directive '#{d}'"),
    }
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<&'a Token> {
        self.toks.get(self.k)
    }

    fn peek_is(&self, p: &str) -> bool {
        self.peek().is_some_and(|t| t.is(p))
    }

    fn here(&self) -> Pos {
        self.peek().map(pos_of).unwrap_or(self.end)
    }

    fn prev_pos(&self) -> Pos {
        self.k
            .checked_sub(1)
            .and_then(|k| self.toks.get(k))
            .map(pos_of)
            .unwrap_or(self.end)
    }

    fn err_here(&self, msg: impl Into<String>) -> Error {
        let p = self.here();
        Error::new(p.line, p.col, msg)
    }

    fn expect(&mut self, p: &str) -> Result<Pos> {
        match self.peek() {
            Some(t) if t.is(p) => {
                self.k += 1;
                Ok(pos_of(t))
            }
            Some(t) => Err(self.err_here(format!("expected '{p}', found {}", describe(t)))),
            None => Err(self.err_here(format!("expected '{p}' before the end of the region"))),
        }
    }

    fn ident(&mut self, what: &str) -> Result<(String, Pos)> {
        match self.peek() {
            Some(t) if t.ident().is_some() && !is_type_word(t) => {
                self.k += 1;
                Ok((t.ident().unwrap_or_default().to_string(), pos_of(t)))
            }
            Some(t) => Err(self.err_here(format!("expected {what}, found {}", describe(t)))),
            None => Err(self.err_here(format!("expected {what} before the end of the region"))),
        }
    }

    fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.err_here(format!(
                "nesting deeper than {MAX_DEPTH} levels is not supported"
            )));
        }
        Ok(())
    }

    fn stmt(&mut self) -> Result<Stmt> {
        self.enter()?;
        let r = self.stmt_inner();
        self.depth -= 1;
        r
    }

    fn stmt_inner(&mut self) -> Result<Stmt> {
        let Some(t) = self.peek().cloned() else {
            return Err(self.err_here("expected a statement before the end of the region"));
        };
        let start = pos_of(&t);
        if let Tok::Directive(d) = &t.tok {
            return Err(self.err_here(format!(
                "the directive '#{d}' is not supported inside the region"
            )));
        }
        if t.is("{") {
            self.k += 1;
            let mut body = Vec::new();
            while !self.peek_is("}") {
                if self.peek().is_none() {
                    return Err(Error::new(start.line, start.col, "'{' is never closed"));
                }
                body.push(self.stmt()?);
            }
            let close = self.expect("}")?;
            return Ok(Stmt {
                kind: StmtKind::Block(body),
                pos: start.to(close),
            });
        }
        if t.is(";") {
            self.k += 1;
            return Ok(Stmt {
                kind: StmtKind::Empty,
                pos: start,
            });
        }
        match t.ident() {
            Some("for") => return self.for_stmt(start),
            Some("if") => {
                self.k += 1;
                self.expect("(")?;
                let cond = self.expr()?;
                self.expect(")")?;
                let then = Box::new(self.stmt()?);
                let els = if self.peek().and_then(Token::ident) == Some("else") {
                    self.k += 1;
                    Some(Box::new(self.stmt()?))
                } else {
                    None
                };
                let end = els.as_ref().map(|e| e.pos).unwrap_or(then.pos);
                return Ok(Stmt {
                    kind: StmtKind::If { cond, then, els },
                    pos: start.to(end),
                });
            }
            Some(
                w @ ("break" | "continue" | "goto" | "return" | "while" | "do" | "switch" | "case"
                | "default"),
            ) => {
                return Err(self.err_here(format!(
                    "'{w}' is not allowed in a SCoP (only for loops, if and assignments are)"
                )));
            }
            _ => {}
        }
        if is_type_word(&t) {
            return self.decl(start);
        }
        if t.ident().is_some() && self.toks.get(self.k + 1).is_some_and(|n| n.is(":")) {
            return Err(self.err_here("a label is not allowed in a SCoP"));
        }
        let e = self.expr()?;
        let semi = self.expect(";")?;
        let pos = start.to(semi);
        match e.kind {
            ExprKind::Assign(op, lhs, rhs) => Ok(Stmt {
                kind: StmtKind::Assign {
                    lhs: *lhs,
                    op,
                    rhs: *rhs,
                },
                pos,
            }),
            ExprKind::Postfix(op, x) | ExprKind::Unary(op @ ("++" | "--"), x) => {
                let one = Expr {
                    kind: ExprKind::Int(Some(1)),
                    pos: e.pos,
                };
                Ok(Stmt {
                    kind: StmtKind::Assign {
                        lhs: *x,
                        op: if op == "++" { "+=" } else { "-=" },
                        rhs: one,
                    },
                    pos,
                })
            }
            ExprKind::Call(..) => Err(Error::new(
                start.line,
                start.col,
                "a call as a statement is not supported (its effects are unknown)",
            )),
            _ => Err(Error::new(
                start.line,
                start.col,
                "an expression statement must be an assignment",
            )),
        }
    }

    /// The type words (and `*`) at the current token, as text.
    fn type_name(&mut self) -> String {
        let mut words = Vec::new();
        while let Some(t) = self.peek() {
            if is_type_word(t) {
                words.push(t.ident().unwrap_or_default().to_string());
            } else if t.is("*") {
                words.push("*".into());
            } else {
                break;
            }
            self.k += 1;
        }
        words.join(" ")
    }

    /// A declaration `type d1, d2, ...;`: one [`StmtKind::Decl`] per
    /// declarator `name` or `name = value`, in order (several of them as a
    /// [`StmtKind::Decls`]). A pointer (`*p`) or array (`q[10]`) declarator
    /// is an error at its place, as an array has to be declared before the
    /// region and pointers are outside the model.
    fn decl(&mut self, start: Pos) -> Result<Stmt> {
        let ty = self.type_name();
        if ty.contains('*') {
            return Err(Error::new(
                start.line,
                start.col,
                "a pointer declaration is not supported in a SCoP",
            ));
        }
        let mut decls = Vec::new();
        loop {
            if self.peek_is("*") {
                return Err(self.err_here(
                    "a pointer declaration is not supported in a SCoP (declare it before the region)",
                ));
            }
            let (name, name_pos) = self.ident("a variable name")?;
            if self.peek_is("[") {
                return Err(Error::new(
                    name_pos.line,
                    name_pos.col,
                    format!(
                        "the array declaration of '{name}' is not supported inside the region; declare it before"
                    ),
                ));
            }
            let init = if self.peek_is("=") {
                self.k += 1;
                Some(self.assign_expr()?)
            } else {
                None
            };
            let end = init.as_ref().map(|e| e.pos).unwrap_or(name_pos);
            decls.push((name, name_pos, init, end));
            if !self.peek_is(",") {
                break;
            }
            self.k += 1;
        }
        let semi = self.expect(";")?;
        let alone = decls.len() == 1;
        let mut out: Vec<Stmt> = decls
            .into_iter()
            .map(|(name, name_pos, init, end)| Stmt {
                kind: StmtKind::Decl {
                    ty: ty.clone(),
                    name,
                    name_pos,
                    init,
                    shares_type: !alone,
                },
                // one declarator: the whole declaration, as its text
                pos: if alone {
                    start.to(semi)
                } else {
                    name_pos.to(end)
                },
            })
            .collect();
        if alone {
            return Ok(out.remove(0));
        }
        Ok(Stmt {
            kind: StmtKind::Decls(out),
            pos: start.to(semi),
        })
    }

    fn for_stmt(&mut self, start: Pos) -> Result<Stmt> {
        self.k += 1;
        self.expect("(")?;
        if self.peek().is_some_and(is_type_word) {
            let ty = self.type_name();
            if ty.contains('*') {
                return Err(Error::new(
                    start.line,
                    start.col,
                    "a pointer iterator is not supported",
                ));
            }
        }
        if self.peek_is(";") {
            return Err(self.err_here("a for loop needs an initialisation of its iterator"));
        }
        let (var, var_pos) = self.ident("the loop iterator")?;
        self.expect("=")?;
        let init = self.assign_expr()?;
        if self.peek_is(",") {
            return Err(self.err_here("a for loop with more than one iterator is not supported"));
        }
        self.expect(";")?;
        if self.peek_is(";") {
            return Err(self.err_here("a for loop needs a condition"));
        }
        let cond = self.expr()?;
        self.expect(";")?;
        let step_pos = self.here();
        let step_expr = self.expr()?;
        let step = step_of(&step_expr, &var).ok_or_else(|| {
            Error::new(
                step_pos.line,
                step_pos.col,
                format!(
                    "the increment of a for loop must be {var}++, {var}--, {var} += c or {var} -= c with an integer constant c != 0"
                ),
            )
        })?;
        self.expect(")")?;
        let body = Box::new(self.stmt()?);
        let pos = start.to(body.pos);
        Ok(Stmt {
            kind: StmtKind::For {
                var,
                var_pos,
                init,
                cond,
                step,
                body,
            },
            pos,
        })
    }

    fn expr(&mut self) -> Result<Expr> {
        let e = self.assign_expr()?;
        if self.peek_is(",") {
            return Err(self.err_here("the comma operator is not supported"));
        }
        Ok(e)
    }

    fn assign_expr(&mut self) -> Result<Expr> {
        self.enter()?;
        let r = self.assign_inner();
        self.depth -= 1;
        r
    }

    fn assign_inner(&mut self) -> Result<Expr> {
        let lhs = self.ternary()?;
        if let Some(op) = ASSIGN_OPS.iter().find(|op| self.peek_is(op)) {
            self.k += 1;
            let rhs = self.assign_expr()?;
            let pos = lhs.pos.to(rhs.pos);
            return Ok(Expr {
                kind: ExprKind::Assign(op, Box::new(lhs), Box::new(rhs)),
                pos,
            });
        }
        Ok(lhs)
    }

    fn ternary(&mut self) -> Result<Expr> {
        let c = self.binary(0)?;
        if !self.peek_is("?") {
            return Ok(c);
        }
        self.k += 1;
        let a = self.assign_expr()?;
        self.expect(":")?;
        self.enter()?;
        let b = self.ternary();
        self.depth -= 1;
        let b = b?;
        let pos = c.pos.to(b.pos);
        Ok(Expr {
            kind: ExprKind::Ternary(Box::new(c), Box::new(a), Box::new(b)),
            pos,
        })
    }

    /// The operators of precedence `level` and tighter: a loop over the
    /// operands of this level, so that a chain `a + b + c + ...` is one flat
    /// [`ExprKind::Binary`] and costs no depth, however long.
    fn binary(&mut self, level: usize) -> Result<Expr> {
        if level == LEVELS.len() {
            return self.unary();
        }
        let first = self.binary(level + 1)?;
        let mut rest = Vec::new();
        while let Some(op) = LEVELS[level].iter().find(|op| self.peek_is(op)) {
            self.k += 1;
            rest.push((*op, self.binary(level + 1)?));
        }
        let Some((_, last)) = rest.last() else {
            return Ok(first);
        };
        let pos = first.pos.to(last.pos);
        Ok(Expr {
            kind: ExprKind::Binary(Box::new(first), rest),
            pos,
        })
    }

    fn unary(&mut self) -> Result<Expr> {
        self.enter()?;
        let r = self.unary_inner();
        self.depth -= 1;
        r
    }

    fn unary_inner(&mut self) -> Result<Expr> {
        let start = self.here();
        for op in ["-", "+", "!", "~", "*", "&", "++", "--"] {
            if self.peek_is(op) {
                self.k += 1;
                let e = self.unary()?;
                let pos = start.to(e.pos);
                return Ok(Expr {
                    kind: ExprKind::Unary(op, Box::new(e)),
                    pos,
                });
            }
        }
        if self.peek().and_then(Token::ident) == Some("sizeof") {
            self.k += 1;
            if self.peek_is("(") && self.toks.get(self.k + 1).is_some_and(is_type_word) {
                self.k += 1;
                let ty = self.type_name();
                let close = self.expect(")")?;
                return Ok(Expr {
                    kind: ExprKind::SizeofType(ty),
                    pos: start.to(close),
                });
            }
            let e = self.unary()?;
            let pos = start.to(e.pos);
            return Ok(Expr {
                kind: ExprKind::Unary("sizeof", Box::new(e)),
                pos,
            });
        }
        if self.peek_is("(") && self.toks.get(self.k + 1).is_some_and(is_type_word) {
            self.k += 1;
            let ty = self.type_name();
            self.expect(")")?;
            let e = self.unary()?;
            let pos = start.to(e.pos);
            return Ok(Expr {
                kind: ExprKind::Cast(ty, Box::new(e)),
                pos,
            });
        }
        self.postfix()
    }

    fn postfix(&mut self) -> Result<Expr> {
        let base = self.depth;
        let mut e = self.primary()?;
        loop {
            if ["[", "(", ".", "->", "++", "--"]
                .iter()
                .any(|p| self.peek_is(p))
            {
                self.enter()?;
            }
            if self.peek_is("[") {
                self.k += 1;
                let idx = self.expr()?;
                let close = self.expect("]")?;
                let pos = e.pos.to(close);
                e = Expr {
                    kind: ExprKind::Index(Box::new(e), Box::new(idx)),
                    pos,
                };
            } else if self.peek_is("(") {
                self.k += 1;
                let mut args = Vec::new();
                if !self.peek_is(")") {
                    loop {
                        args.push(self.assign_expr()?);
                        if !self.peek_is(",") {
                            break;
                        }
                        self.k += 1;
                    }
                }
                let close = self.expect(")")?;
                let pos = e.pos.to(close);
                e = Expr {
                    kind: ExprKind::Call(Box::new(e), args),
                    pos,
                };
            } else if self.peek_is(".") || self.peek_is("->") {
                let op = if self.peek_is(".") { "." } else { "->" };
                self.k += 1;
                let (field, fpos) = self.ident("a field name")?;
                let pos = e.pos.to(fpos);
                e = Expr {
                    kind: ExprKind::Member(Box::new(e), op, field),
                    pos,
                };
            } else if self.peek_is("++") || self.peek_is("--") {
                let op = if self.peek_is("++") { "++" } else { "--" };
                self.k += 1;
                let pos = e.pos.to(self.prev_pos());
                e = Expr {
                    kind: ExprKind::Postfix(op, Box::new(e)),
                    pos,
                };
            } else {
                self.depth = base;
                return Ok(e);
            }
        }
    }

    fn primary(&mut self) -> Result<Expr> {
        let Some(t) = self.peek().cloned() else {
            return Err(self.err_here("expected an expression before the end of the region"));
        };
        let pos = pos_of(&t);
        let kind = match &t.tok {
            Tok::Int(v) => ExprKind::Int(*v),
            Tok::Float | Tok::Str | Tok::Char => ExprKind::OtherLiteral,
            Tok::Ident(_) if is_type_word(&t) => {
                return Err(
                    self.err_here(format!("expected an expression, found {}", describe(&t)))
                );
            }
            Tok::Ident(s) => ExprKind::Ident(s.clone()),
            Tok::Punct("(") => {
                self.k += 1;
                let e = self.expr()?;
                let close = self.expect(")")?;
                return Ok(Expr {
                    kind: e.kind,
                    pos: pos.to(close),
                });
            }
            _ => {
                return Err(
                    self.err_here(format!("expected an expression, found {}", describe(&t)))
                );
            }
        };
        self.k += 1;
        Ok(Expr { kind, pos })
    }
}

/// The step of a for loop's increment on `var`: `var++` and `++var` are 1,
/// `var--` is -1, `var += c` is c, `var -= c` is -c, `var = var + c` is c;
/// `None` for anything else or a zero step.
fn step_of(e: &Expr, var: &str) -> Option<i64> {
    let is_var = |x: &Expr| matches!(&x.kind, ExprKind::Ident(n) if n == var);
    let constant = |x: &Expr| match &x.kind {
        ExprKind::Int(v) => *v,
        ExprKind::Unary("-", y) => match y.kind {
            ExprKind::Int(v) => v.and_then(i64::checked_neg),
            _ => None,
        },
        _ => None,
    };
    let s = match &e.kind {
        ExprKind::Postfix(op, x) | ExprKind::Unary(op @ ("++" | "--"), x) if is_var(x) => {
            if *op == "++" { 1 } else { -1 }
        }
        ExprKind::Assign("+=", x, c) if is_var(x) => constant(c)?,
        ExprKind::Assign("-=", x, c) if is_var(x) => constant(c)?.checked_neg()?,
        ExprKind::Assign("=", x, rhs) if is_var(x) => match rhs.single_binary()? {
            ("+", a, c) if is_var(a) => constant(c)?,
            ("+", c, a) if is_var(a) => constant(c)?,
            ("-", a, c) if is_var(a) => constant(c)?.checked_neg()?,
            _ => return None,
        },
        _ => return None,
    };
    (s != 0).then_some(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::c::lexer::lex;

    fn parse(src: &str) -> Result<Vec<Stmt>> {
        let end = Pos {
            line: 9,
            col: 9,
            ..Pos::default()
        };
        parse_stmts(&lex(src)?, end)
    }

    #[test]
    fn loops_and_assignments() {
        let s = parse("for (int i = 0; i < N; i += 2) { A[i] += (double) B[i] * 2; if (i > 1) t = 0; else t++; }").unwrap();
        let StmtKind::For {
            var, step, body, ..
        } = &s[0].kind
        else {
            panic!("{s:?}")
        };
        assert_eq!((var.as_str(), *step), ("i", 2));
        let StmtKind::Block(b) = &body.kind else {
            panic!()
        };
        assert!(matches!(&b[0].kind, StmtKind::Assign { op: "+=", .. }));
        assert!(matches!(&b[1].kind, StmtKind::If { els: Some(_), .. }));
    }

    #[test]
    fn precedence() {
        let s = parse("x = a + b * c - d;").unwrap();
        let StmtKind::Assign { rhs, .. } = &s[0].kind else {
            panic!()
        };
        // one flat chain of the additive level, with the product inside
        let ExprKind::Binary(a, rest) = &rhs.kind else {
            panic!("{rhs:?}")
        };
        assert!(matches!(&a.kind, ExprKind::Ident(n) if n == "a"));
        let ops: Vec<&str> = rest.iter().map(|(op, _)| *op).collect();
        assert_eq!(ops, ["+", "-"]);
        assert_eq!(rest[0].1.single_binary().map(|(op, _, _)| op), Some("*"));
    }

    #[test]
    fn rejected_forms() {
        for (src, line, col) in [
            ("while (1) x = 0;", 1, 1),
            ("for (i = 0; i < n; i *= 2) x = 0;", 1, 20),
            ("x = 1;\n  break;", 2, 3),
            ("foo(x);", 1, 1),
            ("{ x = 1;", 1, 1),
            ("x = (((", 9, 9),
        ] {
            let e = parse(src).unwrap_err();
            assert_eq!((e.line, e.column), (line, col), "{src}: {e}");
        }
        let deep = "x = ".to_string() + &"(".repeat(10000);
        assert!(parse(&deep).is_err());
    }

    #[test]
    fn a_flat_chain_costs_no_depth_but_parentheses_do() {
        // the old parser counted every '+' as a level: 250 terms were refused
        for n in [250, 10_000] {
            let terms: Vec<String> = (0..n).map(|k| format!("a[{k}]")).collect();
            let s = parse(&format!("s = {};", terms.join(" + "))).unwrap();
            let StmtKind::Assign { rhs, .. } = &s[0].kind else {
                panic!()
            };
            let ExprKind::Binary(first, rest) = &rhs.kind else {
                panic!()
            };
            assert!(matches!(first.kind, ExprKind::Index(..)));
            assert_eq!(rest.len(), n - 1);
        }
        // mixed levels stay one chain per level: a - b * c * d + e
        let s = parse("x = a - b * c * d + e;").unwrap();
        let StmtKind::Assign { rhs, .. } = &s[0].kind else {
            panic!()
        };
        let ExprKind::Binary(_, rest) = &rhs.kind else {
            panic!()
        };
        assert_eq!(rest.len(), 2);
        assert!(matches!(&rest[0].1.kind, ExprKind::Binary(_, r) if r.len() == 2));
        // real nesting is still refused, at the place it passes the limit
        for deep in [
            format!("x = {}a{};", "(".repeat(10_000), ")".repeat(10_000)),
            format!("x = {}a;", "-".repeat(10_000)),
            format!("x = {}a{};", "(b + ".repeat(10_000), ")".repeat(10_000)),
        ] {
            let e = parse(&deep).unwrap_err();
            assert!(e.message.contains("nesting deeper than 256"), "{e}");
            assert_eq!(e.line, 1);
        }
    }

    #[test]
    fn several_declarators_in_one_declaration() {
        let s = parse("int i, j = 2 * n, k;").unwrap();
        let StmtKind::Decls(d) = &s[0].kind else {
            panic!("{s:?}")
        };
        let names: Vec<(&str, bool)> = d
            .iter()
            .map(|s| match &s.kind {
                StmtKind::Decl {
                    name,
                    init,
                    shares_type: true,
                    ..
                } => (name.as_str(), init.is_some()),
                k => panic!("{k:?}"),
            })
            .collect();
        assert_eq!(names, [("i", false), ("j", true), ("k", false)]);
        // a declarator's place is its own: `j = 2 * n`
        assert_eq!((d[1].pos.col, d[1].pos.end - d[1].pos.start), (8, 9));
        // one declarator is a plain declaration over the whole text
        let s = parse("double a = 1.0;").unwrap();
        assert!(matches!(
            &s[0].kind,
            StmtKind::Decl {
                shares_type: false,
                ..
            }
        ));
        assert_eq!(s[0].pos.end, 15);
        // pointers and arrays are refused at the declarator
        for (src, col) in [
            ("int *p, q[10];", 1),
            ("int p, *q;", 8),
            ("int a, q[10];", 8),
            ("double a = 1.0, b", 9),
            ("int a, ;", 8),
        ] {
            let e = parse(src).unwrap_err();
            assert_eq!(e.column, col, "{src}: {e}");
        }
    }
}
