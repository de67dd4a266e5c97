//! A position in the source text with the lexical helpers the MLIR reader needs:
//! whitespace and `//` comments, identifiers, SSA names, integers, string literals
//! balanced brackets and types as text, and line/column positions for messages.
//! Every method that can fail returns an [`Error`] placed in the text; none
//! panics, whatever the input.

use crate::error::{Error, Result};

/// The source text and a byte position in it.
pub struct Cursor<'a> {
    /// The whole text.
    pub src: &'a str,
    /// The byte offset of the position (always at a character boundary when
    /// moved by the cursor's own methods).
    pub pos: usize,
    /// Byte offset where each line starts (the first is 0).
    line_starts: Vec<usize>,
}

/// Whether `b` may continue a bare identifier (`arith.constant`, `f32`, `d0`).
pub fn is_ident_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b == b'.'
}

/// Whether `b` may continue an SSA name after `%` (MLIR's `suffix-id`).
pub fn is_ssa_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'.' | b'-')
}

/// An SSA name (without `%`) as an identifier of isl notation: characters
/// other than ASCII letters, digits and `_` become `_`, a name that does
/// not start with a letter or `_` gets a `v` in front (`%0` is `v0`), and a
/// keyword of isl notation (`max`, `and`, ...) gets a `_` after it. A name
/// that is an identifier already is kept.
pub fn isl_name(ssa: &str) -> String {
    let mut s: String = ssa
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if !s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        s.insert(0, 'v');
    }
    if presburger::tokens::is_keyword(&s) {
        s.push('_');
    }
    s
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `src`, with its line starts indexed.
    pub fn new(src: &'a str) -> Cursor<'a> {
        let mut line_starts = vec![0];
        for (i, b) in src.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push(i + 1);
            }
        }
        Cursor {
            src,
            pos: 0,
            line_starts,
        }
    }

    /// Line and column (both from 1, the column in characters) of byte offset `at`,
    /// by binary search in the line starts.
    pub fn line_col(&self, at: usize) -> (usize, usize) {
        let at = at.min(self.src.len());
        let line = match self.line_starts.binary_search(&at) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let start = self.line_starts.get(line).copied().unwrap_or(0);
        let col = self
            .src
            .get(start..at)
            .map(|s| s.chars().count())
            .unwrap_or(0);
        (line + 1, col + 1)
    }

    /// The line of byte offset `at`.
    pub fn line(&self, at: usize) -> usize {
        self.line_col(at).0
    }

    /// A parse error at byte offset `at`, in any error type that converts from
    /// [`Error`] (the reader's own, or [`Error`] itself).
    pub fn error<E: From<Error>>(&self, at: usize, message: impl Into<String>) -> E {
        E::from(self.syntax_error(at, message))
    }

    /// A parse error at byte offset `at`, as this crate's [`Error`].
    pub fn syntax_error(&self, at: usize, message: impl Into<String>) -> Error {
        let (line, column) = self.line_col(at);
        Error {
            line,
            column,
            message: message.into(),
        }
    }

    /// The byte at the position, if any.
    pub fn byte(&self) -> Option<u8> {
        self.src.as_bytes().get(self.pos).copied()
    }

    /// The byte at offset `i`, if any.
    pub fn byte_at(&self, i: usize) -> Option<u8> {
        self.src.as_bytes().get(i).copied()
    }

    /// The text from the position on.
    pub fn rest(&self) -> &'a str {
        self.src.get(self.pos..).unwrap_or("")
    }

    /// Moves past one character (whole UTF-8 sequence).
    pub fn bump(&mut self) {
        if let Some(c) = self.rest().chars().next() {
            self.pos += c.len_utf8();
        }
    }

    /// Skips whitespace and `//` comments.
    pub fn skip_ws(&mut self) {
        loop {
            match self.byte() {
                Some(b' ' | b'\t' | b'\n' | b'\r') => self.pos += 1,
                Some(b'/') if self.byte_at(self.pos + 1) == Some(b'/') => {
                    while let Some(b) = self.byte() {
                        if b == b'\n' {
                            break;
                        }
                        self.bump();
                    }
                }
                _ => return,
            }
        }
    }

    /// Whether only whitespace and comments remain.
    pub fn at_eof(&mut self) -> bool {
        self.skip_ws();
        self.pos >= self.src.len()
    }

    /// Whether the next token starts with `s` (after whitespace).
    pub fn peek(&mut self, s: &str) -> bool {
        self.skip_ws();
        self.rest().starts_with(s)
    }

    /// Whether `s` comes next on the current line, after spaces and tabs
    /// only. Unlike [`Cursor::peek`] it never moves past a line end: an
    /// optional trailing part of an op (the `[symbols]` of a map's operands)
    /// is looked for on the op's own line, so that a reader which then skips
    /// to the end of the line does not swallow the next op.
    pub fn peek_on_line(&mut self, s: &str) -> bool {
        while matches!(self.byte(), Some(b' ' | b'\t' | b'\r')) {
            self.pos += 1;
        }
        self.rest().starts_with(s)
    }

    /// Whether the next token is the keyword `kw` (not followed by an identifier
    /// character).
    pub fn peek_kw(&mut self, kw: &str) -> bool {
        self.skip_ws();
        self.rest().starts_with(kw)
            && !self
                .byte_at(self.pos + kw.len())
                .is_some_and(|b| is_ident_char(b) || b == b'-')
    }

    /// Consumes `s` if the next token starts with it.
    pub fn eat(&mut self, s: &str) -> bool {
        if self.peek(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }

    /// Consumes the keyword `kw` if it is next.
    pub fn eat_kw(&mut self, kw: &str) -> bool {
        if self.peek_kw(kw) {
            self.pos += kw.len();
            true
        } else {
            false
        }
    }

    /// A short description of what stands at the position, for messages.
    pub fn found(&mut self) -> String {
        self.skip_ws();
        let rest = self.rest();
        if rest.is_empty() {
            return "end of input".to_string();
        }
        let word: String = rest
            .chars()
            .take_while(|c| !c.is_whitespace())
            .take(24)
            .collect();
        format!("`{word}`")
    }

    /// Consumes `s` or fails with "expected `s` `context`, found ...".
    pub fn expect(&mut self, s: &str, context: &str) -> Result<()> {
        if self.eat(s) {
            Ok(())
        } else {
            let found = self.found();
            Err(self.error(self.pos, format!("expected `{s}` {context}, found {found}")))
        }
    }

    /// A bare identifier (`[A-Za-z_][A-Za-z0-9_$.]*`) and its offset.
    pub fn ident(&mut self) -> Option<(&'a str, usize)> {
        self.skip_ws();
        let start = self.pos;
        match self.byte() {
            Some(b) if b.is_ascii_alphabetic() || b == b'_' => {}
            _ => return None,
        }
        while self.byte().is_some_and(is_ident_char) {
            self.pos += 1;
        }
        Some((self.src.get(start..self.pos).unwrap_or(""), start))
    }

    /// An SSA name `%name` or `%name#3`, without the `%`, and the offset of the `%`.
    pub fn ssa(&mut self) -> Option<(&'a str, usize)> {
        self.skip_ws();
        if self.byte() != Some(b'%') {
            return None;
        }
        let start = self.pos;
        self.pos += 1;
        let name_start = self.pos;
        while self.byte().is_some_and(is_ssa_char) {
            self.pos += 1;
        }
        if self.pos == name_start {
            self.pos = start;
            return None;
        }
        if self.byte() == Some(b'#')
            && self
                .byte_at(self.pos + 1)
                .is_some_and(|b| b.is_ascii_digit())
        {
            self.pos += 1;
            while self.byte().is_some_and(|b| b.is_ascii_digit()) {
                self.pos += 1;
            }
        }
        Some((self.src.get(name_start..self.pos).unwrap_or(""), start))
    }

    /// Whether the next token is an integer literal (optionally negative).
    pub fn peek_int(&mut self) -> bool {
        self.skip_ws();
        match self.byte() {
            Some(b'-') => self
                .byte_at(self.pos + 1)
                .is_some_and(|b| b.is_ascii_digit()),
            Some(b) => b.is_ascii_digit(),
            None => false,
        }
    }

    /// A decimal integer literal, optionally negative, checked against `i64`.
    pub fn int(&mut self) -> Result<i64> {
        self.skip_ws();
        let start = self.pos;
        if self.byte() == Some(b'-') {
            self.pos += 1;
        }
        let digits = self.pos;
        while self.byte().is_some_and(|b| b.is_ascii_digit()) {
            self.pos += 1;
        }
        if self.pos == digits {
            self.pos = start;
            let found = self.found();
            return Err(self.error(start, format!("expected an integer, found {found}")));
        }
        let text = self.src.get(start..self.pos).unwrap_or("");
        text.parse::<i64>()
            .map_err(|_| self.error(start, format!("integer {text} does not fit in 64 bits")))
    }

    /// A string literal `"..."` with `\"` and `\\` escapes; returns its contents.
    pub fn string_lit(&mut self) -> Result<String> {
        self.skip_ws();
        let start = self.pos;
        if self.byte() != Some(b'"') {
            let found = self.found();
            return Err(self.error(start, format!("expected a string literal, found {found}")));
        }
        self.pos += 1;
        let mut out = String::new();
        loop {
            let Some(c) = self.rest().chars().next() else {
                return Err(self.error(start, "unterminated string literal"));
            };
            self.pos += c.len_utf8();
            match c {
                '"' => return Ok(out),
                '\n' => return Err(self.error(start, "unterminated string literal")),
                '\\' => {
                    if let Some(e) = self.rest().chars().next() {
                        self.pos += e.len_utf8();
                        out.push(e);
                    }
                }
                c => out.push(c),
            }
        }
    }

    /// With the cursor on the opening bracket `open`, moves past the matching
    /// `close` and returns the byte span of the text between them. Nested brackets
    /// of the same kind are counted (iteratively, so any depth is fine); string
    /// literals and `//` comments are skipped; inside `<...>`, the `>` of `->` does
    /// not close. An unclosed bracket is reported at its position.
    pub fn skip_balanced(&mut self, open: u8, close: u8) -> Result<(usize, usize)> {
        self.skip_ws();
        let start = self.pos;
        if self.byte() != Some(open) {
            let found = self.found();
            return Err(self.error(start, format!("expected `{}`, found {found}", open as char)));
        }
        self.pos += 1;
        let mut depth = 1usize;
        while let Some(b) = self.byte() {
            match b {
                b'"' => {
                    self.string_lit()?;
                    continue;
                }
                b'/' if self.byte_at(self.pos + 1) == Some(b'/') => {
                    self.skip_ws();
                    continue;
                }
                b'-' if open == b'<' && self.byte_at(self.pos + 1) == Some(b'>') => {
                    self.pos += 2;
                    continue;
                }
                _ if b == open => depth += 1,
                _ if b == close => {
                    depth -= 1;
                    if depth == 0 {
                        self.pos += 1;
                        return Ok((start + 1, self.pos - 1));
                    }
                }
                _ => {}
            }
            self.bump();
        }
        Err(self.error(
            start,
            format!(
                "`{}` is never closed (missing `{}`)",
                open as char, close as char
            ),
        ))
    }

    /// Moves over one type as text: an optional `!` (a type alias or dialect
    /// type), a word like `f32` or `index`, and a balanced `<...>` after it
    /// (`memref<?x4xf32>`, `tensor<...>`).
    pub fn skip_type(&mut self) -> Result<()> {
        self.skip_ws();
        if self.byte() == Some(b'!') {
            self.pos += 1;
        }
        if self.ident().is_none() {
            let found = self.found();
            return Err(self.error(self.pos, format!("expected a type, found {found}")));
        }
        if self.byte() == Some(b'<') {
            self.skip_balanced(b'<', b'>')?;
        }
        Ok(())
    }
}
