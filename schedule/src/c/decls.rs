//! What the file around the region says about names: object-like `#define`s
//! and variable declarations (element type and array sizes).
//!
//! A linear scan of the whole file's tokens: a run of type words (see
//! [`super::parser::TYPE_WORDS`]) followed by declarators `*name[size]...`
//! separated by commas records each name with its type and the tokens of its
//! sizes. The first declaration of a name wins (globals come first in the
//! usual layout). This is a heuristic, not a C declaration parser: it is only
//! used to describe arrays and to justify the context.

use super::lexer::{Tok, Token};
use super::parser::is_type_word;
use std::collections::{BTreeMap, BTreeSet};

/// A declared variable.
#[derive(Clone, Debug, PartialEq)]
pub struct Decl {
    /// The type's text (type words and `*`).
    pub ty: String,
    /// The tokens of each size, outermost first.
    pub sizes: Vec<Vec<Token>>,
}

/// The names of the object-like macros (`#define N 40`, not `#define f(x)`).
pub fn defines(toks: &[Token]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for t in toks {
        if let Tok::Directive(d) = &t.tok {
            let rest = d.trim_start();
            let Some(rest) = rest.strip_prefix("define") else {
                continue;
            };
            let rest = rest.trim_start();
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() && !rest[name.len()..].starts_with('(') {
                out.insert(name);
            }
        }
    }
    out
}

/// The declarations found in `toks` (see the module doc).
pub fn declarations(toks: &[Token]) -> BTreeMap<String, Decl> {
    let mut out = BTreeMap::new();
    let mut k = 0;
    while k < toks.len() {
        if !is_type_word(&toks[k]) || (k > 0 && toks[k - 1].is("(") && is_cast(toks, k)) {
            k += 1;
            continue;
        }
        let mut words = Vec::new();
        while k < toks.len() && is_type_word(&toks[k]) {
            words.push(toks[k].ident().unwrap_or_default().to_string());
            k += 1;
        }
        loop {
            let mut ty = words.join(" ");
            while k < toks.len() && toks[k].is("*") {
                ty.push_str(" *");
                k += 1;
            }
            let Some(name) = toks.get(k).and_then(Token::ident) else {
                break;
            };
            k += 1;
            let mut sizes = Vec::new();
            while k < toks.len() && toks[k].is("[") {
                let (size, next) = bracketed(toks, k);
                sizes.push(size);
                k = next;
            }
            if toks.get(k).is_some_and(|t| t.is("(")) {
                break; // a function
            }
            out.entry(name.to_string()).or_insert(Decl { ty, sizes });
            // skip an initialiser up to the next top-level ',' or ';'
            let mut depth = 0usize;
            while let Some(t) = toks.get(k) {
                if t.is("(") || t.is("[") || t.is("{") {
                    depth += 1;
                } else if t.is(")") || t.is("]") || t.is("}") {
                    if depth == 0 {
                        break;
                    }
                    depth -= 1;
                } else if depth == 0 && (t.is(",") || t.is(";")) {
                    break;
                }
                k += 1;
            }
            if toks.get(k).is_some_and(|t| t.is(",")) && !toks.get(k + 1).is_some_and(is_type_word)
            {
                k += 1;
                continue;
            }
            break;
        }
        k += 1;
    }
    out
}

/// True when the type words at `k` (after a `(`) close with `)`: a cast.
fn is_cast(toks: &[Token], mut k: usize) -> bool {
    while k < toks.len() && (is_type_word(&toks[k]) || toks[k].is("*")) {
        k += 1;
    }
    toks.get(k).is_some_and(|t| t.is(")"))
}

/// The tokens inside the brackets opening at `k`, and the index after the
/// closing bracket.
fn bracketed(toks: &[Token], k: usize) -> (Vec<Token>, usize) {
    let mut depth = 0usize;
    let mut j = k;
    while j < toks.len() {
        if toks[j].is("[") {
            depth += 1;
        } else if toks[j].is("]") {
            depth -= 1;
            if depth == 0 {
                return (toks[k + 1..j].to_vec(), j + 1);
            }
        }
        j += 1;
    }
    (toks[k + 1..].to_vec(), toks.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::c::lexer::lex;

    #[test]
    fn finds_arrays_and_macros() {
        let t = lex("#define N 40\n#define f(x) x\nstatic double A[N][N + 1], *p, s = 1.0;\nint main(void) { int i, j; float x = (float) i; }").unwrap();
        let d = defines(&t);
        assert!(d.contains("N") && !d.contains("f"));
        let decls = declarations(&t);
        assert_eq!(decls["A"].ty, "static double");
        assert_eq!(decls["A"].sizes.len(), 2);
        assert_eq!(decls["A"].sizes[1].len(), 3);
        assert_eq!(decls["p"].ty, "static double *");
        assert!(decls["s"].sizes.is_empty());
        assert!(decls.contains_key("j"));
        assert!(decls.contains_key("x"));
        assert!(!decls.contains_key("main"));
    }
}
