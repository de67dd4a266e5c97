//! Which kind of object a text in isl notation writes, told from its tokens
//! alone (no parsing of the formulas).

use super::lexer::{Tok, tokenize};
use crate::error::Result;

/// True when `text` (an object in isl notation, `{ ... }` or
/// `[N] -> { ... }`) writes a piecewise function rather than a set or a map:
/// some piece has a parenthesised expression as an entry of its range tuple
/// (the last tuple before its condition), as isl prints functions
/// (`{ [i] -> [(i + 1)] : i < 10 }`, `[N] -> { [(N)] }`). A text that is not
/// such an object gives `false`; only a text that does not tokenize is an
/// error. Tools that read several kinds (as `poly calc` does) use this to
/// choose between [`crate::parse_object`] and the functions' `FromStr`.
///
/// ```
/// use presburger::is_function_text;
/// assert!(is_function_text("{ [i] -> [(i + 1)] : i < 10 }")?);
/// assert!(is_function_text("[N] -> { [(N)] }")?);
/// assert!(is_function_text("{ S[i, j] -> [(i), (j + 1)]; T[] -> [(0)] }")?);
/// assert!(!is_function_text("{ [i] -> [i + 1] : i < 10 }")?);
/// assert!(!is_function_text("[N] -> { [i] : 0 <= i < N }")?);
/// assert!(!is_function_text("{ [i] -> [[j] -> [k]] }")?);
/// assert!(is_function_text("{ [i] -> [[(i)] -> [(i + 1)]] }")?);
/// assert!(!is_function_text("{ [i] -> [i] : (i) > 0 }")?);
/// # Ok::<(), presburger::Error>(())
/// ```
pub fn is_function_text(text: &str) -> Result<bool> {
    let toks = tokenize(text)?;
    let toks: Vec<&Tok> = toks.iter().map(|t| &t.tok).collect();
    let mut pos = 0;
    if toks.first() == Some(&&Tok::LBracket) {
        // the parameter list, then '->'
        let mut depth = 0usize;
        while let Some(t) = toks.get(pos) {
            match t {
                Tok::LBracket => depth += 1,
                Tok::RBracket => depth = depth.saturating_sub(1),
                _ => {}
            }
            pos += 1;
            if depth == 0 {
                break;
            }
        }
        if toks.get(pos) != Some(&&Tok::Arrow) {
            return Ok(false);
        }
        pos += 1;
    }
    if toks.get(pos) != Some(&&Tok::LBrace) {
        return Ok(false);
    }
    pos += 1;
    // per piece: the start of its last outer tuple before the condition
    let mut depth = 0usize;
    let mut in_condition = false;
    let mut last_tuple: Option<usize> = None;
    while let Some(t) = toks.get(pos) {
        match t {
            Tok::LBracket | Tok::LParen | Tok::LBrace => {
                if depth == 0 && !in_condition && **t == Tok::LBracket {
                    last_tuple = Some(pos);
                }
                depth += 1;
            }
            Tok::RBracket | Tok::RParen => depth = depth.saturating_sub(1),
            Tok::RBrace if depth == 0 => break,
            Tok::RBrace => depth -= 1,
            Tok::Colon if depth == 0 => in_condition = true,
            Tok::Semi if depth == 0 => {
                if last_tuple.is_some_and(|s| has_paren_entry(&toks, s)) {
                    return Ok(true);
                }
                in_condition = false;
                last_tuple = None;
            }
            _ => {}
        }
        pos += 1;
    }
    Ok(last_tuple.is_some_and(|s| has_paren_entry(&toks, s)))
}

/// Whether the tuple opened by the '[' at `start` has an entry that begins
/// with '(', at its outer level or in a nested tuple (`[[(i)] -> [(j)]]`).
fn has_paren_entry(toks: &[&Tok], start: usize) -> bool {
    // the open brackets, and whether the next token starts an entry
    let mut open: Vec<&Tok> = Vec::new();
    let mut entry_start = false;
    for t in &toks[start..] {
        let in_tuples = open.iter().all(|o| **o == Tok::LBracket);
        match t {
            Tok::LParen if entry_start && in_tuples => return true,
            Tok::LBracket | Tok::LParen | Tok::LBrace => {
                open.push(t);
                entry_start = **t == Tok::LBracket;
                continue;
            }
            Tok::RBracket | Tok::RParen | Tok::RBrace => {
                open.pop();
                if open.is_empty() {
                    return false;
                }
            }
            Tok::Comma | Tok::Arrow if in_tuples => {
                entry_start = true;
                continue;
            }
            _ => {}
        }
        entry_start = false;
    }
    false
}
