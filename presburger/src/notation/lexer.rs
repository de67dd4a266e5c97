//! Tokens of isl notation, with their line and column.

use crate::error::{Error, Result};
use crate::int::Int;

/// Longest integer literal accepted, in digits (longer literals are almost surely
/// garbage and would make big-integer parsing slow).
pub const MAX_LITERAL_DIGITS: usize = 10_000;

/// A token. Non-exhaustive: isl's notation may gain tokens.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Tok {
    /// A name (identifier or keyword such as `and`, `exists`, `floor`).
    Ident(String),
    /// A non-negative integer literal.
    Num(Int),
    /// `{`
    LBrace,
    /// `}`
    RBrace,
    /// `[`
    LBracket,
    /// `]`
    RBracket,
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `,`
    Comma,
    /// `:`
    Colon,
    /// `;`
    Semi,
    /// `->`
    Arrow,
    /// `+`
    Plus,
    /// `-`
    Minus,
    /// `*`
    Star,
    /// `/`
    Slash,
    /// `%` (remainder, as `mod`)
    Percent,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `<<` (the lexicographic order between lists; `<<=`, `>>`, `>>=` below)
    LexLt,
    /// `<<=`
    LexLe,
    /// `>>`
    LexGt,
    /// `>>=`
    LexGe,
    /// `=`
    Eq,
    /// `!=`
    Ne,
    /// `!` (negation, as `not`)
    Bang,
    /// `&&` (as `and`)
    AndAnd,
    /// `||` (as `or`)
    OrOr,
    /// `:=` (used by the calculator language)
    Assign,
    /// `^` (used by the calculator language, `^-1`)
    Caret,
    /// `.` (used by the calculator language)
    Dot,
    /// `?` (of `c ? a : b`)
    Question,
    /// The end of the input.
    Eof,
}

impl Tok {
    /// How the token is shown in error messages.
    pub fn describe(&self) -> String {
        match self {
            Tok::Ident(s) => format!("'{s}'"),
            Tok::Num(n) => format!("'{n}'"),
            Tok::Eof => "end of input".to_string(),
            t => format!("'{}'", t.text()),
        }
    }

    fn text(&self) -> &'static str {
        match self {
            Tok::LBrace => "{",
            Tok::RBrace => "}",
            Tok::LBracket => "[",
            Tok::RBracket => "]",
            Tok::LParen => "(",
            Tok::RParen => ")",
            Tok::Comma => ",",
            Tok::Colon => ":",
            Tok::Semi => ";",
            Tok::Arrow => "->",
            Tok::Plus => "+",
            Tok::Minus => "-",
            Tok::Star => "*",
            Tok::Slash => "/",
            Tok::Percent => "%",
            Tok::Lt => "<",
            Tok::Le => "<=",
            Tok::Gt => ">",
            Tok::Ge => ">=",
            Tok::LexLt => "<<",
            Tok::LexLe => "<<=",
            Tok::LexGt => ">>",
            Tok::LexGe => ">>=",
            Tok::Eq => "=",
            Tok::Ne => "!=",
            Tok::Bang => "!",
            Tok::AndAnd => "&&",
            Tok::OrOr => "||",
            Tok::Assign => ":=",
            Tok::Caret => "^",
            Tok::Dot => ".",
            Tok::Question => "?",
            Tok::Ident(_) | Tok::Num(_) | Tok::Eof => "",
        }
    }
}

/// A token with the position of its first character (line and column from 1),
/// as [`tokenize`] makes it.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Spanned {
    /// The token.
    pub tok: Tok,
    /// Its line, from 1.
    pub line: usize,
    /// Its column, from 1 (in characters).
    pub col: usize,
    /// Byte offset of the token in the input.
    pub offset: usize,
    /// True when whitespace or a comment stands right before the token.
    pub spaced: bool,
}

/// True for the characters that may start an identifier.
pub fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_' || c == '$'
}

/// True for the characters that may continue an identifier (primes included: `i'`).
pub fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '$' || c == '\''
}

/// Splits the text into tokens; the last one is `Eof`. `#` starts a comment that
/// runs to the end of the line.
pub fn tokenize(text: &str) -> Result<Vec<Spanned>> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let (mut i, mut line, mut col) = (0usize, 1usize, 1usize);
    let mut spaced = false;
    while i < bytes.len() {
        let c = bytes[i] as char;
        if c == '\n' {
            i += 1;
            line += 1;
            col = 1;
            spaced = true;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            col += 1;
            spaced = true;
            continue;
        }
        if c == '#' {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
            spaced = true;
            continue;
        }
        let (start, start_col) = (i, col);
        let tok = if c.is_ascii_digit() {
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            if i - start > MAX_LITERAL_DIGITS {
                return Err(Error::parse(
                    line,
                    start_col,
                    format!("integer literal longer than {MAX_LITERAL_DIGITS} digits"),
                ));
            }
            let v: Int = text[start..i]
                .parse()
                .map_err(|_| Error::parse(line, start_col, "bad integer literal"))?;
            Tok::Num(v)
        } else if is_ident_start(c) {
            while i < bytes.len() && is_ident_char(bytes[i] as char) {
                i += 1;
            }
            let word = &text[start..i];
            // isl reads keywords in any letter case
            Tok::Ident(super::parse::keyword(word).unwrap_or(word).to_string())
        } else {
            // `get` rather than slicing: a multi-byte character must not panic here.
            let two = text.get(i..i + 2).unwrap_or("");
            let three = text.get(i..i + 3).unwrap_or("");
            let (t, len) = match two {
                "<<" if three == "<<=" => (Tok::LexLe, 3),
                ">>" if three == ">>=" => (Tok::LexGe, 3),
                "<<" => (Tok::LexLt, 2),
                ">>" => (Tok::LexGt, 2),
                "->" => (Tok::Arrow, 2),
                "<=" => (Tok::Le, 2),
                ">=" => (Tok::Ge, 2),
                "==" => (Tok::Eq, 2),
                "!=" => (Tok::Ne, 2),
                "&&" => (Tok::AndAnd, 2),
                "||" => (Tok::OrOr, 2),
                // isl's other spellings of conjunction and disjunction
                "/\\" => (Tok::AndAnd, 2),
                "\\/" => (Tok::OrOr, 2),
                ":=" => (Tok::Assign, 2),
                _ => {
                    let t = match c {
                        '{' => Tok::LBrace,
                        '}' => Tok::RBrace,
                        '[' => Tok::LBracket,
                        ']' => Tok::RBracket,
                        '(' => Tok::LParen,
                        ')' => Tok::RParen,
                        ',' => Tok::Comma,
                        ':' => Tok::Colon,
                        ';' => Tok::Semi,
                        '+' => Tok::Plus,
                        '-' => Tok::Minus,
                        '*' => Tok::Star,
                        '/' => Tok::Slash,
                        '%' => Tok::Percent,
                        '<' => Tok::Lt,
                        '>' => Tok::Gt,
                        '=' => Tok::Eq,
                        '!' => Tok::Bang,
                        '&' => Tok::AndAnd,
                        '|' => Tok::OrOr,
                        '^' => Tok::Caret,
                        '.' => Tok::Dot,
                        '?' => Tok::Question,
                        _ => {
                            let ch = text[i..].chars().next().unwrap_or('?');
                            return Err(Error::parse(
                                line,
                                col,
                                format!("unexpected character '{}'", ch.escape_default()),
                            ));
                        }
                    };
                    (t, 1)
                }
            };
            i += len;
            t
        };
        col += text[start..i].chars().count();
        out.push(Spanned {
            tok,
            line,
            col: start_col,
            offset: start,
            spaced,
        });
        spaced = false;
    }
    out.push(Spanned {
        tok: Tok::Eof,
        line,
        col,
        offset: bytes.len(),
        spaced,
    });
    Ok(out)
}
