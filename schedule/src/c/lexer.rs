//! The C lexer: source text to tokens, each with its byte offsets, line and
//! column.
//!
//! It reads one character class at a time: identifiers and keywords, numbers
//! (integers with their value, floating literals kept as text), string and
//! character literals (kept as text), punctuators (longest match first),
//! comments (skipped). A preprocessor line (a `#` first on its line, with its
//! `\`-continued lines) becomes one [`Tok::Directive`] token holding its text;
//! `#pragma scop` and `#pragma endscop` are recognised from it by
//! [`Token::pragma`]. Bad input (an unterminated comment or literal, a stray
//! character) is an [`Error`] at its line and column.

use crate::error::Error;

/// The kind of a token and its payload.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// An identifier or keyword.
    Ident(String),
    /// An integer literal with its value (`None` when it does not fit an `i64`).
    Int(Option<i64>),
    /// A floating literal.
    Float,
    /// A string literal.
    Str,
    /// A character literal.
    Char,
    /// A punctuator such as `+=` or `[`.
    Punct(&'static str),
    /// A whole preprocessor line, without its `#` (e.g. `pragma scop`).
    Directive(String),
}

/// A token with its place in the source.
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    /// What it is.
    pub tok: Tok,
    /// Byte offset of its first character.
    pub start: usize,
    /// Byte offset just after its last character.
    pub end: usize,
    /// Line of its first character, from 1.
    pub line: usize,
    /// Column of its first character (in characters), from 1.
    pub col: usize,
}

impl Token {
    /// True for the punctuator `p`.
    pub fn is(&self, p: &str) -> bool {
        matches!(&self.tok, Tok::Punct(q) if *q == p)
    }

    /// The identifier's name, if it is one.
    pub fn ident(&self) -> Option<&str> {
        match &self.tok {
            Tok::Ident(s) => Some(s),
            _ => None,
        }
    }

    /// For a directive `#pragma WORD ...`: `WORD` (e.g. `scop`, `endscop`).
    pub fn pragma(&self) -> Option<&str> {
        match &self.tok {
            Tok::Directive(d) => {
                let mut words = d.split_whitespace();
                (words.next() == Some("pragma")).then(|| words.next().unwrap_or(""))
            }
            _ => None,
        }
    }
}

/// Punctuators, longest first so that the first match is the longest.
const PUNCTS: &[&str] = &[
    "<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=",
    "-=", "*=", "/=", "%=", "&=", "|=", "^=", "[", "]", "(", ")", "{", "}", ".", "&", "*", "+",
    "-", "~", "!", "/", "%", "<", ">", "^", "|", "?", ":", ";", "=", ",",
];

/// Splits `src` into tokens (see the module doc).
pub fn lex(src: &str) -> Result<Vec<Token>, Error> {
    let mut lx = Lexer {
        src,
        pos: 0,
        line: 1,
        col: 1,
        line_start: true,
    };
    let mut out = Vec::new();
    while let Some(t) = lx.next_token()? {
        out.push(t);
    }
    Ok(out)
}

struct Lexer<'a> {
    src: &'a str,
    pos: usize,
    line: usize,
    col: usize,
    /// Only white space since the start of the line.
    line_start: bool,
}

impl Lexer<'_> {
    fn peek(&self) -> Option<char> {
        self.src[self.pos..].chars().next()
    }

    fn peek_at(&self, k: usize) -> Option<char> {
        self.src[self.pos..].chars().nth(k)
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        if c == '\n' {
            self.line += 1;
            self.col = 1;
            self.line_start = true;
        } else {
            self.col += 1;
        }
        Some(c)
    }

    fn err(&self, line: usize, col: usize, msg: impl Into<String>) -> Error {
        Error::new(line, col, msg)
    }

    /// Skips white space and comments.
    fn skip_blank(&mut self) -> Result<(), Error> {
        loop {
            match (self.peek(), self.peek_at(1)) {
                (Some(c), _) if c.is_whitespace() => {
                    self.bump();
                }
                (Some('\\'), Some('\n')) => {
                    self.bump();
                    self.bump();
                }
                (Some('/'), Some('/')) => {
                    while let Some(c) = self.peek() {
                        if c == '\n' {
                            break;
                        }
                        self.bump();
                    }
                }
                (Some('/'), Some('*')) => {
                    let (l, c) = (self.line, self.col);
                    let ls = self.line_start;
                    self.bump();
                    self.bump();
                    loop {
                        match self.peek() {
                            None => return Err(self.err(l, c, "unterminated comment")),
                            Some('*') if self.peek_at(1) == Some('/') => {
                                self.bump();
                                self.bump();
                                break;
                            }
                            _ => {
                                self.bump();
                            }
                        }
                    }
                    // a comment does not end the blank start of a line
                    self.line_start = ls || self.line_start;
                }
                _ => return Ok(()),
            }
        }
    }

    fn next_token(&mut self) -> Result<Option<Token>, Error> {
        self.skip_blank()?;
        let (start, line, col) = (self.pos, self.line, self.col);
        let Some(c) = self.peek() else {
            return Ok(None);
        };
        let at_line_start = self.line_start;
        self.line_start = false;
        let tok = if c == '#' && at_line_start {
            self.bump();
            let mut text = String::new();
            while let Some(c) = self.peek() {
                if c == '\n' {
                    break;
                }
                if c == '\\' && self.peek_at(1) == Some('\n') {
                    self.bump();
                    self.bump();
                    text.push(' ');
                    continue;
                }
                if c == '/' && self.peek_at(1) == Some('/') {
                    while self.peek().is_some_and(|c| c != '\n') {
                        self.bump();
                    }
                    break;
                }
                text.push(c);
                self.bump();
            }
            Tok::Directive(text.trim().to_string())
        } else if c.is_ascii_alphabetic() || c == '_' {
            while self
                .peek()
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
            {
                self.bump();
            }
            Tok::Ident(self.src[start..self.pos].to_string())
        } else if c.is_ascii_digit()
            || (c == '.' && self.peek_at(1).is_some_and(|d| d.is_ascii_digit()))
        {
            self.number(start)
        } else if c == '"' || c == '\'' {
            self.bump();
            loop {
                match self.bump() {
                    None | Some('\n') => {
                        let what = if c == '"' { "string" } else { "character" };
                        return Err(self.err(line, col, format!("unterminated {what} literal")));
                    }
                    Some('\\') => {
                        self.bump();
                    }
                    Some(d) if d == c => break,
                    _ => {}
                }
            }
            if c == '"' { Tok::Str } else { Tok::Char }
        } else {
            let rest = &self.src[self.pos..];
            let Some(p) = PUNCTS.iter().find(|p| rest.starts_with(**p)) else {
                return Err(self.err(line, col, format!("unexpected character '{c}'")));
            };
            for _ in 0..p.len() {
                self.bump();
            }
            Tok::Punct(p)
        };
        Ok(Some(Token {
            tok,
            start,
            end: self.pos,
            line,
            col,
        }))
    }

    /// An integer or floating literal starting at `start` (suffixes such as
    /// `u`, `L`, `f` accepted).
    fn number(&mut self, start: usize) -> Tok {
        let mut float = false;
        let hex = self.peek() == Some('0') && matches!(self.peek_at(1), Some('x' | 'X'));
        if hex {
            self.bump();
            self.bump();
        }
        while let Some(c) = self.peek() {
            let exp = if hex {
                matches!(c, 'p' | 'P')
            } else {
                matches!(c, 'e' | 'E')
            };
            if exp && matches!(self.peek_at(1), Some('+' | '-')) {
                float = true;
                self.bump();
                self.bump();
            } else if c == '.' {
                float = true;
                self.bump();
            } else if c.is_ascii_alphanumeric() || c == '_' {
                if exp || (!hex && matches!(c, 'f' | 'F')) {
                    float = true;
                }
                self.bump();
            } else {
                break;
            }
        }
        if float {
            return Tok::Float;
        }
        let text = self.src[start..self.pos].trim_end_matches(['u', 'U', 'l', 'L']);
        let value = if hex {
            i64::from_str_radix(&text[2..], 16).ok()
        } else if text.len() > 1 && text.starts_with('0') {
            i64::from_str_radix(&text[1..], 8).ok()
        } else {
            text.parse().ok()
        };
        Tok::Int(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_with_positions() {
        let src = "#define N 10\nint x; /* c\n */ a[i] += 0x10 + 1.5e-3; // end\n#pragma scop\n";
        let t = lex(src).unwrap();
        assert_eq!(t[0].tok, Tok::Directive("define N 10".into()));
        assert_eq!(t[1].ident(), Some("int"));
        assert_eq!((t[1].line, t[1].col), (2, 1));
        let a = t.iter().find(|t| t.ident() == Some("a")).unwrap();
        assert_eq!((a.line, a.col), (3, 5));
        assert!(t.iter().any(|t| t.is("+=")));
        assert!(t.iter().any(|t| t.tok == Tok::Int(Some(16))));
        assert!(t.iter().any(|t| t.tok == Tok::Float));
        assert_eq!(t.last().unwrap().pragma(), Some("scop"));
    }

    #[test]
    fn errors_have_positions() {
        let e = lex("int a;\n  /* open").unwrap_err();
        assert_eq!((e.line, e.column), (2, 3));
        let e = lex("x = \"abc\n").unwrap_err();
        assert_eq!((e.line, e.column), (1, 5));
        let e = lex("a @ b").unwrap_err();
        assert_eq!((e.line, e.column), (1, 3));
        // a # not first on its line is not a directive, and not a punctuator
        assert!(lex("a # b").is_err());
    }
}
