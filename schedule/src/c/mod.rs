//! The C front end: finds the SCoP region of a C file and builds its
//! [`Scop`].
//!
//! The region is the text between `#pragma scop` and `#pragma endscop` (the
//! first such pair), or with [`Options::function`] the body of the named
//! function (the first definition found) after the declarations that open it
//! (`int i, j, k;`, `double *p = malloc(...)`: see [`after_declarations`])
//! and before a `return` that closes it ([`final_return`]); when that body
//! holds a `#pragma scop` region, that region. Modules: [`lexer`] (tokens), [`parser`] and [`ast`] (the
//! statements), [`affine`] (bounds and conditions as constraints),
//! [`decls`] (macros and declarations around the region), [`extract`] (the
//! model).
//!
//! Accepted subset: `for` loops with affine bounds (`<`, `<=`, `>`, `>=`,
//! `min`/`max`, `floord`/`ceild`, `/` and `%` by constants) and increments
//! `++`, `--`, `+= c`, `-= c`; `if`/`else` on affine conditions with `&&`,
//! `||`, `!`; blocks; assignments (`=`, `+=`, `-=`, `*=`, `/=`, ...) to array
//! elements with affine subscripts or to scalars; scalar declarations with an
//! initial value, several declarators in one declaration included. `c ? a :
//! b` with an affine condition is piecewise affine in bounds, conditions and
//! subscripts (a `min`/`max` when `c` compares the branches, else a split by
//! `c`; see [`affine`]), and an access whose subscripts are piecewise is a
//! relation with one piece per case. Right-hand sides are any C expression; the array elements
//! and scalars they mention are reads. Names in bounds, conditions and
//! subscripts that are not iterators are parameters, macros included: a
//! `#define N 40` does not fix `N`, so the model holds for every size. The
//! context only records `size >= 1` for the declared sizes of accessed
//! arrays that are affine in the parameters (a C array dimension has at least
//! one element). In affine expressions `/` and `%` by a constant are read as
//! floor division and modulo, which agree with C for non-negative dividends.
//! A decreasing loop contributes `-i` to the schedule so that time grows.

pub mod affine;
pub mod ast;
pub mod decls;
pub mod extract;
pub mod lexer;
pub mod parser;

use crate::error::{Error, Result};
use crate::scop::Scop;
use ast::Pos;
use lexer::Token;

/// How to find the region.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Use the body of this function instead of a `#pragma scop` region.
    pub function: Option<String>,
}

/// The SCoP of the C source `src` (see the module doc).
pub fn extract_scop(src: &str, options: &Options) -> Result<Scop> {
    let toks = lexer::lex(src)?;
    let (inner, span, end) = match &options.function {
        Some(f) => {
            let whole = function_body(&toks, f)?;
            let (a, b) = whole.0;
            if toks[a..b].iter().any(|t| t.pragma() == Some("scop")) {
                // the function marks its region itself (PolyBench's kernels do)
                let ((i, j), span, end) = pragma_region(&toks[a..b])?;
                ((a + i, a + j), span, end)
            } else {
                whole
            }
        }
        None => pragma_region(&toks)?,
    };
    let body = parser::parse_stmts(&toks[inner.0..inner.1], end)?;
    let defines = decls::defines(&toks);
    let declarations = decls::declarations(&toks);
    let env = extract::Env {
        src,
        defines: &defines,
        decls: &declarations,
    };
    extract::extract(&env, &body, span)
}

fn pos_of(t: &Token) -> Pos {
    Pos {
        start: t.start,
        end: t.end,
        line: t.line,
        col: t.col,
    }
}

/// Token range inside the region, its byte span and the place of its end.
type Region = ((usize, usize), (usize, usize), Pos);

fn pragma_region(toks: &[Token]) -> Result<Region> {
    let Some(open) = toks.iter().position(|t| t.pragma() == Some("scop")) else {
        return Err(Error::new(1, 1, "no '#pragma scop' in the file"));
    };
    let Some(len) = toks[open + 1..]
        .iter()
        .position(|t| t.pragma() == Some("endscop"))
    else {
        let t = &toks[open];
        return Err(Error::new(
            t.line,
            t.col,
            "'#pragma scop' without a following '#pragma endscop'",
        ));
    };
    let close = open + 1 + len;
    Ok((
        (open + 1, close),
        (toks[open].start, toks[close].end),
        pos_of(&toks[close]),
    ))
}

fn function_body(toks: &[Token], name: &str) -> Result<Region> {
    let mut k = 0;
    while k + 1 < toks.len() {
        if toks[k].ident() == Some(name) && toks[k + 1].is("(") {
            let mut j = k + 1;
            let mut depth = 0usize;
            while j < toks.len() {
                if toks[j].is("(") {
                    depth += 1;
                } else if toks[j].is(")") {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                j += 1;
            }
            if toks.get(j + 1).is_some_and(|t| t.is("{")) {
                let open = j + 1;
                let mut depth = 0usize;
                for (c, t) in toks.iter().enumerate().skip(open) {
                    if t.is("{") {
                        depth += 1;
                    } else if t.is("}") {
                        depth -= 1;
                        if depth == 0 {
                            let first = after_declarations(toks, open + 1, c);
                            let from = toks[first - 1].end;
                            if let Some(r) = final_return(toks, first, c) {
                                let to = toks[r - 1].end;
                                return Ok(((first, r), (from, to), pos_of(&toks[r])));
                            }
                            return Ok(((first, c), (from, t.start), pos_of(t)));
                        }
                    }
                }
                let t = &toks[open];
                return Err(Error::new(
                    t.line,
                    t.col,
                    format!("the body of '{name}' is never closed"),
                ));
            }
        }
        k += 1;
    }
    Err(Error::new(
        1,
        1,
        format!("no definition of the function '{name}' in the file"),
    ))
}

/// The index of the first token in `toks[from..to]` after the declarations
/// that open a function body (`int i, j, k;`, `double *p = malloc(n), q[10];`,
/// `static const int m = 4;`): each starts with a type word and ends at the
/// first `;` outside brackets. They run before anything else of the body in
/// the original as in the optimised program, so they stay outside the
/// region: the SCoP is the rest of the body, and the code that replaces it
/// still sees the variables declared there (as with a `#pragma scop` after
/// the declarations).
fn after_declarations(toks: &[Token], from: usize, to: usize) -> usize {
    let mut k = from;
    while k < to && parser::is_type_word(&toks[k]) {
        let mut depth = 0usize;
        let mut j = k;
        while j < to {
            let t = &toks[j];
            if t.is("(") || t.is("[") || t.is("{") {
                depth += 1;
            } else if t.is(")") || t.is("]") || t.is("}") {
                depth = depth.saturating_sub(1);
            } else if depth == 0 && t.is(";") {
                break;
            }
            j += 1;
        }
        if j >= to {
            // no `;`: the parser reports it
            return k;
        }
        k = j + 1;
    }
    k
}

/// The index of a `return ...;` that is the last statement of the body
/// `toks[from..to]` (at its top level, after at least one token of the
/// region), if there is one. It runs after everything else of the body in
/// the original as in the optimised program, so it stays outside the region
/// (as `return 0;` after a `#pragma endscop`).
fn final_return(toks: &[Token], from: usize, to: usize) -> Option<usize> {
    if to == 0 || !toks[to - 1].is(";") {
        return None;
    }
    // the start of the last statement: after the previous top-level ';',
    // '{' or '}' (brackets of the statement itself are skipped)
    let mut depth = 0usize;
    let mut k = to - 1;
    while k > from {
        let t = &toks[k - 1];
        if t.is(")") || t.is("]") {
            depth += 1;
        } else if t.is("(") || t.is("[") {
            depth = depth.checked_sub(1)?;
        } else if depth == 0 && (t.is(";") || t.is("{") || t.is("}")) {
            break;
        }
        k -= 1;
    }
    (k > from && toks[k].ident() == Some("return")).then_some(k)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn in_function(src: &str, name: &str) -> Scop {
        let options = Options {
            function: Some(name.into()),
        };
        extract_scop(src, &options).unwrap()
    }

    #[test]
    fn the_region_span_covers_the_pragmas() {
        let src = "int a;\n#pragma scop\na = 1;\n#pragma endscop\nint b;\n";
        let scop = extract_scop(src, &Options::default()).unwrap();
        assert_eq!(
            &src[scop.span.0..scop.span.1],
            "#pragma scop\na = 1;\n#pragma endscop"
        );
        assert_eq!(scop.statements[0].span, (20, 26));
        // only the first region is used
        let two = format!("{src}#pragma scop\nb = 2;\n#pragma endscop\n");
        assert_eq!(
            extract_scop(&two, &Options::default())
                .unwrap()
                .statements
                .len(),
            1
        );
    }

    #[test]
    fn an_empty_region_is_an_empty_scop() {
        let scop = extract_scop("#pragma scop\n#pragma endscop\n", &Options::default()).unwrap();
        assert!(scop.statements.is_empty() && scop.params.is_empty());
        assert!(scop.domains().unwrap().members().is_empty());
    }

    /// `--function` on a function that marks its region (as PolyBench's
    /// kernels do): the region inside that function, not the first of the
    /// file, and no error about the pragmas inside the body.
    #[test]
    fn a_function_with_pragmas_gives_its_region() {
        let src = "void g(int n, double *y) {\n#pragma scop\n  y[0] = 1;\n#pragma endscop\n}\n\
                   void f(int n, double *x) {\n  int i;\n#pragma scop\n  for (i = 0; i < n; i++)\n    x[i] = 0;\n#pragma endscop\n}\n";
        let scop = in_function(src, "f");
        assert_eq!(
            &src[scop.span.0..scop.span.1],
            "#pragma scop\n  for (i = 0; i < n; i++)\n    x[i] = 0;\n#pragma endscop"
        );
        assert_eq!(scop.statements.len(), 1);
    }

    #[test]
    fn a_function_region_starts_after_its_declarations() {
        let src = "void f(int n, double *x) {\n  int i, j, *p, q[10];\n  double s = 0.0, t;\n  for (i = 0; i < n; i++) {\n    double a = x[i], b;\n    x[i] = a + s;\n  }\n}\n";
        let scop = in_function(src, "f");
        assert_eq!(
            &src[scop.span.0..scop.span.1],
            "\n  for (i = 0; i < n; i++) {\n    double a = x[i], b;\n    x[i] = a + s;\n  }\n"
        );
        let texts: Vec<&str> = scop.statements.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(texts, ["double a = x[i];", "x[i] = a + s;"]);
        // `s` is declared before the region: a scalar read there
        assert_eq!(
            scop.array("s").unwrap().element_type.as_deref(),
            Some("double")
        );
        // a final return stays outside too
        let src = "int main(void) {\n  int i;\n  for (i = 0; i < 9; i++)\n    x[i] = 0;\n  return f(0);\n}\n";
        let scop = in_function(src, "main");
        assert_eq!(
            &src[scop.span.0..scop.span.1],
            "\n  for (i = 0; i < 9; i++)\n    x[i] = 0;"
        );
        // ... but not one inside a loop, nor a body that is only a return
        for body in [
            "for (i = 0; i < 9; i++) { x[i] = 0; return 1; }",
            "return 0;",
        ] {
            let src = format!("int main(void) {{ int i; {body} }}");
            let e = extract_scop(
                &src,
                &Options {
                    function: Some("main".into()),
                },
            )
            .unwrap_err();
            assert!(e.message.contains("'return'"), "{e}");
        }
        // a body of declarations only is an empty region
        let scop = extract_scop(
            "int g(void) { int i, j; }",
            &Options {
                function: Some("g".into()),
            },
        )
        .unwrap();
        assert!(scop.statements.is_empty());
    }
}
