//! A generic reader of MLIR's textual IR into an op tree, for tools that need
//! the nesting (regions, blocks, block arguments) but interpret each op's
//! custom ("pretty") syntax themselves.
//!
//! MLIR's pretty syntax is op specific, so this reader does not decode it: an
//! operation is its result names, its name and a list of [`Token`]s up to where
//! the next operation starts. Tokens are SSA values, words (identifiers,
//! keywords and types, with the text of a directly following `<...>`), numbers,
//! strings, `@symbols`, punctuation, bracket groups (`(...)`, `[...]`, and
//! `{...}` attribute dictionaries) and nested [`Region`]s (a `{...}` whose
//! contents are blocks of operations). The caller picks the operands, keywords
//! and types out of the tokens of the ops it knows (see the syntax of each op in
//! MLIR's dialect documentation, <https://mlir.llvm.org/docs/Dialects/>).
//!
//! An operation ends before the next token, at its top level, that starts an
//! operation: result names followed by `=` (except right after the op name,
//! as `scf.for %i = ...` has it), a dotted op name (`arith.addf`), `return`, a
//! block label `^bb`, a quoted generic op name, or the `}` closing the region.
//! A `{` at the top level of an op is a region unless it reads as an attribute
//! dictionary (`{}`, `{key = ...}`, `{flag, ...}`). `loc(...)` trailers are
//! dropped. Errors carry the line and column; the reader never panics and
//! bounds its nesting ([`MAX_DEPTH`]).

use crate::cursor::{Cursor, is_ident_char, is_ssa_char};
use crate::error::Result;

/// Deepest nesting of groups and regions accepted.
pub const MAX_DEPTH: usize = 128;

/// One lexical item of an operation; `at` is the byte offset it starts at.
#[allow(missing_docs)] // the fields are named for what each variant's doc says
#[derive(Debug, Clone, PartialEq)]
pub enum Token {
    /// `%name` or `%name#2`, without the `%`.
    Value { name: String, at: usize },
    /// An identifier or keyword (`f32`, `to`, `tensor`, `#map`, `!alias`,
    /// `affine_map`), with the byte span of the text inside a directly
    /// following `<...>` (`tensor<4xf32>`, `dense<1.0>`).
    Word {
        text: String,
        angle: Option<(usize, usize)>,
        at: usize,
    },
    /// A numeric literal as written (`-1`, `2.5e-1`, `0x7FC00000`).
    Number { text: String, at: usize },
    /// A string literal's contents.
    Str { text: String, at: usize },
    /// `@name`, without the `@`.
    Symbol { name: String, at: usize },
    /// Punctuation: `,` `:` `=` `->` `?` `*` `+` `-` `<` `>`.
    Punct { text: &'static str, at: usize },
    /// A bracket group `(...)`, `[...]` or an attribute dictionary `{...}`,
    /// with its opening character.
    Group {
        open: char,
        items: Vec<Token>,
        at: usize,
    },
    /// A region `{ blocks }`.
    Region { region: Region, at: usize },
}

impl Token {
    /// The byte offset the token starts at.
    pub fn at(&self) -> usize {
        match self {
            Token::Value { at, .. }
            | Token::Word { at, .. }
            | Token::Number { at, .. }
            | Token::Str { at, .. }
            | Token::Symbol { at, .. }
            | Token::Punct { at, .. }
            | Token::Group { at, .. }
            | Token::Region { at, .. } => *at,
        }
    }

    /// Whether the token is the punctuation `p`.
    pub fn is_punct(&self, p: &str) -> bool {
        matches!(self, Token::Punct { text, .. } if *text == p)
    }

    /// Whether the token is the word `w` (with or without `<...>`).
    pub fn is_word(&self, w: &str) -> bool {
        matches!(self, Token::Word { text, .. } if text == w)
    }
}

/// An operation: result names, name and tokens.
#[derive(Debug, Clone, PartialEq)]
pub struct Op {
    /// The op name (`arith.addf`, `func.func`, `return`, `module`).
    pub name: String,
    /// Byte offset of the name.
    pub at: usize,
    /// Result names without `%`; `%r:2 = ` gives `r#0` and `r#1`.
    pub results: Vec<String>,
    /// The tokens after the name.
    pub tokens: Vec<Token>,
}

impl Op {
    /// The first block of the op's first region (a function's body, a loop's
    /// body, a `linalg` op's payload), if any.
    pub fn entry_block(&self) -> Option<&Block> {
        self.regions().next().and_then(|r| r.blocks.first())
    }

    /// The op's regions, in order.
    pub fn regions(&self) -> impl Iterator<Item = &Region> {
        self.tokens.iter().filter_map(|t| match t {
            Token::Region { region, .. } => Some(region),
            _ => None,
        })
    }
}

/// A region: a list of blocks.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Region {
    /// The blocks, the entry block first.
    pub blocks: Vec<Block>,
}

/// A block: an optional label with arguments, and operations.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Block {
    /// The label without `^` (`bb0`), if written.
    pub label: Option<String>,
    /// The arguments: name (without `%`), offset and the type's tokens.
    pub args: Vec<(String, usize, Vec<Token>)>,
    /// The operations in order.
    pub ops: Vec<Op>,
}

/// A top-level alias definition `#name = ...` or `!name = ...`.
#[derive(Debug, Clone, PartialEq)]
pub struct Alias {
    /// The name with its `#` or `!`.
    pub name: String,
    /// Byte offset of the name.
    pub at: usize,
    /// The tokens of the value.
    pub tokens: Vec<Token>,
}

/// A whole file: aliases and top-level operations; `module { ... }` wrappers
/// are read through (their operations are listed in order).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Module {
    /// Alias definitions in order.
    pub aliases: Vec<Alias>,
    /// Top-level operations (`func.func`, ...), modules flattened.
    pub ops: Vec<Op>,
}

/// Reads a whole file into a [`Module`].
pub fn parse_module(src: &str) -> Result<Module> {
    let mut c = Cursor::new(src);
    let mut m = Module::default();
    let mut opens: Vec<usize> = Vec::new();
    loop {
        if c.at_eof() {
            break;
        }
        let at = c.pos;
        if matches!(c.byte(), Some(b'#' | b'!')) {
            let sigil = c.byte().map(char::from).unwrap_or('#');
            c.pos += 1;
            let Some((name, _)) = c.ident() else {
                return Err(c.error(at, format!("expected an alias name after `{sigil}`")));
            };
            let name = format!("{sigil}{name}");
            c.expect("=", &format!("after `{name}`"))?;
            let tokens = op_tokens(&mut c, 0, false)?;
            m.aliases.push(Alias { name, at, tokens });
        } else if c.eat_kw("module") || c.eat_kw("builtin.module") {
            if c.eat("@") {
                c.ident();
            }
            if c.eat_kw("attributes") {
                c.skip_balanced(b'{', b'}')?;
            }
            c.skip_ws();
            opens.push(c.pos);
            c.expect("{", "to open the module body")?;
        } else if c.eat("}") {
            if opens.pop().is_none() {
                return Err(c.error(at, "`}` without a matching `{`"));
            }
        } else if c.eat("{-#") {
            // Dialect resources: skipped.
            while !c.rest().is_empty() && !c.eat("#-}") {
                c.bump();
            }
        } else {
            m.ops.push(op(&mut c, 0)?);
        }
    }
    if let Some(&open) = opens.last() {
        return Err(c.error(
            open,
            "the module body opened here is never closed (missing `}`)",
        ));
    }
    Ok(m)
}

/// Whether the text at the cursor starts an operation: result names and `=`,
/// a dotted op name, `return`, a quoted op name, a block label or `}`.
fn starts_op(c: &mut Cursor) -> bool {
    c.skip_ws();
    match c.byte() {
        None | Some(b'}' | b'^') => true,
        Some(b'"') => true,
        Some(b'%') => result_names_ahead(c),
        Some(b) if b.is_ascii_alphabetic() || b == b'_' => {
            let save = c.pos;
            let word = c.ident().map(|(w, _)| w).unwrap_or("");
            let is_op =
                (word.contains('.') || word == "return" || word == "module") && !c.peek("=");
            c.pos = save;
            is_op
        }
        Some(b'#' | b'!') => {
            // An alias definition at top level (`#map = ...`).
            let save = c.pos;
            c.pos += 1;
            let named = c.ident().is_some() && c.peek("=") && !c.peek("==");
            c.pos = save;
            named
        }
        _ => false,
    }
}

/// Whether `%a, %b = ` or `%r:2 = ` follows (result names of an op).
fn result_names_ahead(c: &mut Cursor) -> bool {
    let save = c.pos;
    let mut ok = false;
    while c.ssa().is_some() {
        if c.byte() == Some(b':') && c.byte_at(c.pos + 1).is_some_and(|b| b.is_ascii_digit()) {
            c.pos += 1;
            let _ = c.int();
        }
        if c.eat(",") {
            continue;
        }
        ok = c.peek("=") && !c.peek("==");
        break;
    }
    c.pos = save;
    ok
}

/// One operation at the cursor: `%r, ... =`, the name, and its tokens.
fn op(c: &mut Cursor, depth: usize) -> Result<Op> {
    c.skip_ws();
    let mut results = Vec::new();
    if c.byte() == Some(b'%') {
        loop {
            let Some((name, at)) = c.ssa() else {
                return Err(c.error(c.pos, "expected a result name `%name`"));
            };
            if c.byte() == Some(b':') && c.byte_at(c.pos + 1).is_some_and(|b| b.is_ascii_digit()) {
                c.pos += 1;
                let n_at = c.pos;
                let n = c.int()?;
                if !(1..=4096).contains(&n) {
                    return Err(c.error(n_at, format!("bad result count {n}")));
                }
                results.extend((0..n).map(|k| format!("{name}#{k}")));
            } else if name.contains('#') {
                return Err(c.error(at, format!("result name %{name} cannot carry a `#` suffix")));
            } else {
                results.push(name.to_string());
            }
            if c.eat(",") {
                continue;
            }
            c.expect("=", "after the result names")?;
            break;
        }
    }
    c.skip_ws();
    let at = c.pos;
    let name = if c.byte() == Some(b'"') {
        c.string_lit()?
    } else if let Some((n, _)) = c.ident() {
        n.to_string()
    } else {
        let found = c.found();
        return Err(c.error(at, format!("expected an operation name, found {found}")));
    };
    let tokens = op_tokens(c, depth, true)?;
    Ok(Op {
        name,
        at,
        results,
        tokens,
    })
}

/// The tokens of an operation up to the start of the next one (see the module
/// documentation); `first_value_def` lets a leading `%x =` belong to the op.
fn op_tokens(c: &mut Cursor, depth: usize, first_value_def: bool) -> Result<Vec<Token>> {
    let mut tokens: Vec<Token> = Vec::new();
    loop {
        c.skip_ws();
        let first = tokens.is_empty() && first_value_def;
        if c.byte().is_none() || (starts_op(c) && !(first && c.byte() == Some(b'%'))) {
            return Ok(tokens);
        }
        if c.byte() == Some(b'{') && !looks_like_dict(c) {
            let at = c.pos;
            let region = region(c, depth + 1)?;
            tokens.push(Token::Region { region, at });
            continue;
        }
        let t = token(c, depth)?;
        if let Token::Word { text, .. } = &t {
            if text == "loc" && c.peek("(") {
                c.skip_balanced(b'(', b')')?;
                continue;
            }
        }
        tokens.push(t);
    }
}

/// Whether the `{` at the cursor opens an attribute dictionary rather than a
/// region: empty, or a key (a word without a dot, or any key followed by `=`)
/// followed by `=`, `,` or `}`.
fn looks_like_dict(c: &mut Cursor) -> bool {
    let save = c.pos;
    c.pos += 1;
    let answer = if c.peek("}") {
        true
    } else if c.peek("\"") {
        c.string_lit().is_ok() && c.peek("=")
    } else if let Some((key, _)) = c.ident() {
        c.peek("=") && !c.peek("==") || (!key.contains('.') && (c.peek(",") || c.peek("}")))
    } else {
        false
    };
    c.pos = save;
    answer
}

/// One token (not a region) at the cursor; groups are read recursively.
fn token(c: &mut Cursor, depth: usize) -> Result<Token> {
    c.skip_ws();
    let at = c.pos;
    if depth > MAX_DEPTH {
        return Err(c.error(at, format!("nested more than {MAX_DEPTH} levels deep")));
    }
    let Some(b) = c.byte() else {
        return Err(c.error(at, "unexpected end of input"));
    };
    match b {
        b'%' => {
            let Some((name, _)) = c.ssa() else {
                return Err(c.error(at, "expected a value name after `%`"));
            };
            Ok(Token::Value {
                name: name.to_string(),
                at,
            })
        }
        b'@' => {
            c.pos += 1;
            let name = if c.byte() == Some(b'"') {
                c.string_lit()?
            } else {
                let s = c.pos;
                while c.byte().is_some_and(is_ssa_char) {
                    c.pos += 1;
                }
                c.src.get(s..c.pos).unwrap_or("").to_string()
            };
            if name.is_empty() {
                return Err(c.error(at, "expected a symbol name after `@`"));
            }
            Ok(Token::Symbol { name, at })
        }
        b'"' => Ok(Token::Str {
            text: c.string_lit()?,
            at,
        }),
        b'(' | b'[' | b'{' => {
            let close = match b {
                b'(' => ")",
                b'[' => "]",
                _ => "}",
            };
            c.pos += 1;
            let mut items = Vec::new();
            loop {
                c.skip_ws();
                if c.byte().is_none() {
                    return Err(c.error(at, format!("`{}` is never closed", b as char)));
                }
                if c.eat(close) {
                    break;
                }
                if b == b'{' && c.peek("{") && !looks_like_dict(c) {
                    let r_at = c.pos;
                    let region = region(c, depth + 1)?;
                    items.push(Token::Region { region, at: r_at });
                    continue;
                }
                let t = token(c, depth + 1)?;
                if matches!(&t, Token::Word { text, .. } if text == "loc") && c.peek("(") {
                    c.skip_balanced(b'(', b')')?;
                    continue;
                }
                items.push(t);
            }
            Ok(Token::Group {
                open: b as char,
                items,
                at,
            })
        }
        b'-' if c.byte_at(c.pos + 1) == Some(b'>') => {
            c.pos += 2;
            Ok(Token::Punct { text: "->", at })
        }
        b'-' if c.byte_at(c.pos + 1).is_some_and(|d| d.is_ascii_digit()) => number(c),
        b'0'..=b'9' => number(c),
        b'#' | b'!' => {
            c.pos += 1;
            let s = c.pos;
            while c.byte().is_some_and(|x| is_ident_char(x) || x == b'-') {
                c.pos += 1;
            }
            if c.pos == s {
                return Err(c.error(at, format!("expected a name after `{}`", b as char)));
            }
            word_angle(c, c.src.get(at..c.pos).unwrap_or("").to_string(), at)
        }
        _ if b.is_ascii_alphabetic() || b == b'_' => {
            let (w, _) = c.ident().unwrap_or(("", at));
            word_angle(c, w.to_string(), at)
        }
        _ => {
            let text = match b {
                b',' => ",",
                b':' => ":",
                b'=' => "=",
                b'?' => "?",
                b'*' => "*",
                b'+' => "+",
                b'-' => "-",
                b'<' => "<",
                b'>' => ">",
                _ => {
                    let found = c.found();
                    return Err(c.error(at, format!("unexpected {found}")));
                }
            };
            c.pos += 1;
            Ok(Token::Punct { text, at })
        }
    }
}

/// A word, with the span inside a directly following `<...>` if any.
fn word_angle(c: &mut Cursor, text: String, at: usize) -> Result<Token> {
    let angle = if c.byte() == Some(b'<') && text == "affine_set" {
        // Its constraints' `>=` would close a plain bracket count.
        c.pos += 1;
        let start = c.pos;
        crate::affine::parse_set_after_open(c)?;
        Some((start, c.pos.saturating_sub(1)))
    } else if c.byte() == Some(b'<') {
        Some(c.skip_balanced(b'<', b'>')?)
    } else {
        None
    };
    Ok(Token::Word { text, angle, at })
}

/// A numeric literal: optional `-`, decimal digits with `.` and exponent, or
/// `0x` hexadecimal digits.
fn number(c: &mut Cursor) -> Result<Token> {
    let at = c.pos;
    if c.byte() == Some(b'-') {
        c.pos += 1;
    }
    if c.rest().starts_with("0x") || c.rest().starts_with("0X") {
        c.pos += 2;
        while c.byte().is_some_and(|b| b.is_ascii_hexdigit()) {
            c.pos += 1;
        }
    } else {
        while let Some(b) = c.byte() {
            match b {
                b'0'..=b'9' | b'.' => {}
                b'e' | b'E' => {
                    if matches!(c.byte_at(c.pos + 1), Some(b'+' | b'-')) {
                        c.pos += 1;
                    }
                }
                _ => break,
            }
            c.pos += 1;
        }
    }
    Ok(Token::Number {
        text: c.src.get(at..c.pos).unwrap_or("").to_string(),
        at,
    })
}

/// A region `{ ^bb0(%a: t): ops ^bb1: ops }` at the cursor.
fn region(c: &mut Cursor, depth: usize) -> Result<Region> {
    let open = c.pos;
    if depth > MAX_DEPTH {
        return Err(c.error(open, format!("nested more than {MAX_DEPTH} levels deep")));
    }
    c.expect("{", "to open a region")?;
    let mut blocks: Vec<Block> = Vec::new();
    let mut current = Block::default();
    let mut started = false;
    loop {
        if c.at_eof() {
            return Err(c.error(open, "the region opened here is never closed (missing `}`)"));
        }
        if c.eat("}") {
            break;
        }
        if c.byte() == Some(b'^') {
            if started || current.label.is_some() {
                blocks.push(std::mem::take(&mut current));
            }
            c.pos += 1;
            let s = c.pos;
            while c.byte().is_some_and(is_ssa_char) {
                c.pos += 1;
            }
            current.label = Some(c.src.get(s..c.pos).unwrap_or("").to_string());
            if c.peek("(") {
                let g = token(c, depth + 1)?;
                current.args = block_args(c, g)?;
            }
            c.expect(":", "after the block label")?;
            started = true;
            continue;
        }
        current.ops.push(op(c, depth)?);
        started = true;
    }
    if started || current.label.is_some() {
        blocks.push(current);
    }
    Ok(Region { blocks })
}

/// The arguments `(%a: t, %b: t)` of a block label, from their group token.
fn block_args(c: &Cursor, g: Token) -> Result<Vec<(String, usize, Vec<Token>)>> {
    let Token::Group { items, at, .. } = g else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for part in items.split(|t| t.is_punct(",")) {
        match part {
            [] => {}
            [Token::Value { name, at }, colon, ty @ ..]
                if colon.is_punct(":") && !ty.is_empty() =>
            {
                out.push((name.clone(), *at, ty.to_vec()));
            }
            _ => return Err(c.error(at, "expected block arguments `%name: type`")),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_nested_regions_and_multiline_ops() {
        let src = r#"
#map = affine_map<(d0) -> (d0)>
module {
  func.func @f(%a: tensor<4xf32>, %n: index) -> tensor<4xf32> {
    %c0 = arith.constant 0 : index
    %r = scf.for %i = %c0 to %n step %c0 iter_args(%acc = %a) -> (tensor<4xf32>) {
      %x = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
          ins(%acc : tensor<4xf32>) outs(%acc : tensor<4xf32>) {
      ^bb0(%u: f32, %v: f32):
        %s = arith.addf %u, %v : f32
        linalg.yield %s : f32
      } -> tensor<4xf32>
      scf.yield %x : tensor<4xf32>
    }
    return %r : tensor<4xf32>
  }
}
"#;
        let m = parse_module(src).unwrap();
        assert_eq!(m.aliases.len(), 1);
        assert_eq!(m.ops.len(), 1);
        let f = &m.ops[0];
        assert_eq!(f.name, "func.func");
        let body = f.regions().next().unwrap();
        let ops = &body.blocks[0].ops;
        let names: Vec<&str> = ops.iter().map(|o| o.name.as_str()).collect();
        assert_eq!(names, ["arith.constant", "scf.for", "return"]);
        assert!(
            ops[1].tokens[0]
                == Token::Value {
                    name: "i".into(),
                    at: ops[1].tokens[0].at()
                }
        );
        let inner = &ops[1].regions().next().unwrap().blocks[0].ops;
        assert_eq!(inner[0].name, "linalg.generic");
        assert!(matches!(inner[0].tokens[0], Token::Group { open: '{', .. }));
        let g = inner[0].regions().next().unwrap();
        assert_eq!(g.blocks[0].args.len(), 2);
        assert_eq!(g.blocks[0].ops.len(), 2);
        assert!(inner[0].tokens.last().unwrap().is_word("tensor"));
    }

    #[test]
    fn integer_sets_are_one_token() {
        let m = parse_module("#s = affine_set<(d0)[s0] : (d0 - 1 >= 0, s0 - d0 >= 0)>\nfunc.func @f() {\n  return\n}").unwrap();
        assert_eq!(m.aliases.len(), 1);
        assert_eq!(m.aliases[0].tokens.len(), 1);
        assert_eq!(m.ops.len(), 1);
    }

    #[test]
    fn errors_are_placed() {
        let e = parse_module("func.func @f() {\n  %x = arith.addf %a,\n").unwrap_err();
        assert_eq!(e.line, 1);
        assert!(parse_module("%x = = =").is_err());
        let deep = "func.func @f() { ".to_string() + &"(".repeat(1000);
        assert!(parse_module(&deep).is_err());
    }
}
