//! C emission: a source file with its SCoP region replaced by generated
//! loops.
//!
//! [`emit_c`] keeps every byte outside the region (`Scop::span`: from the
//! `#` of `#pragma scop` to the end of `#pragma endscop`) and puts in its
//! place:
//!
//! ```text
//! /* poly opt: BANNER */
//! #ifndef min                         (each helper the loops use, when the
//! #define min(x, y) ...                file has not defined it already)
//! #define POLY_OPT_DEFINED_min
//! #endif
//! #define S0(i, j) C[(i)][(j)] *= beta       (one macro per statement)
//!   {
//!     double acc = 0;                 (scalars declared in the region)
//!     #pragma omp parallel for
//!     for (int c0 = 0; ...)           (long long where int may overflow)
//!       ...
//!         S0(c0, c1);
//!     (void) i;                       (iterators declared outside)
//!   }
//! #undef S0
//! #ifdef POLY_OPT_DEFINED_min         (helpers defined here, undefined
//! #undef min                           again after the region)
//! #undef POLY_OPT_DEFINED_min
//! #endif
//! ```
//!
//! - Each statement becomes a macro named after it (`S0`, `S1`, ...) whose
//!   parameters are its iterators, substituted in parentheses in its text
//!   (comments dropped, the text on one line, the final `;` left to the
//!   call).
//! - A statement that declares a scalar (`double v = A[i] * w[i];`) is an
//!   assignment in its macro, and the scalar is declared (initialised to 0)
//!   at the top of the generated block: the reordered statements may use it
//!   outside the loop it was declared in. A scalar declared without a value
//!   (`double t;`, `Scop::locals`) is declared there the same way. Its memory-based dependences keep
//!   the order of its uses, and no loop that writes it is parallel.
//! - The loop iterators are declared in their `for` (`for (int c1 = ...)`),
//!   hence private to each thread of an enclosing `omp parallel for`. They
//!   are `int` only when every value the loops compute is proven to fit
//!   (from the bounds, the SCoP's context and the parameters' declared
//!   types, see [`crate::Ast::to_c_with`]), `long long` otherwise.
//! - The original loop iterators that the region assigns without declaring
//!   them (`for (i = 0; ...)` with `int i` declared before) get a
//!   `(void) i;` so that a compiler does not warn about an unused variable;
//!   their value after the region is not the original one.
//! - Generated names avoid every identifier of the file: the loops are
//!   `c0, c1, ...` (another prefix if the file uses one of those) and the
//!   statement macros `S0, S1, ...` (likewise).

use crate::ast::Ast;
use crate::error::{Error, Result};
use crate::print::{ParamCType, ParamTypes};
use presburger_schedule::Scop;
use presburger_schedule::c::lexer::{Tok, Token, lex};
use presburger_schedule::c::parser::TYPE_WORDS;
use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;

/// What [`emit_c`] writes besides the loops.
#[derive(Clone, Debug, Default)]
pub struct EmitOptions {
    /// Text for the comment that opens the region (`/* poly opt: BANNER
    /// */`); `*/` in it is broken up.
    pub banner: String,
}

/// The identifiers of `toks`, with the words of preprocessor lines.
fn identifiers(toks: &[Token]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for t in toks {
        match &t.tok {
            Tok::Ident(s) => {
                out.insert(s.clone());
            }
            Tok::Directive(d) => {
                for w in d.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
                    if w.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
                        out.insert(w.to_string());
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// A prefix `p` such that `p` followed by each suffix of `suffixes` is in
/// neither `taken` nor `also`: `first`, else `first` with one more `_` at a
/// time.
fn free_prefix(first: &str, suffixes: &[String], taken: &BTreeSet<String>) -> String {
    let mut p = first.to_string();
    loop {
        if suffixes.iter().all(|s| !taken.contains(&format!("{p}{s}"))) {
            return p;
        }
        p.push('_');
    }
}

/// A statement as a macro: its body (iterators in parentheses) and, for a
/// declaration, the declared scalar's type and name.
struct StmtMacro {
    body: String,
    decl: Option<(String, String)>,
}

/// The macro of a statement whose source text is `text` and whose
/// iterators are `iters`.
fn statement_macro(text: &str, iters: &[String]) -> Result<StmtMacro> {
    let toks = lex(text).map_err(|e| Error::Input(format!("the statement '{text}': {e}")))?;
    let mut toks: &[Token] = &toks;
    if toks.last().is_some_and(|t| t.is(";")) {
        toks = &toks[..toks.len() - 1];
    }
    let mut decl = None;
    let n_type = toks
        .iter()
        .take_while(|t| t.ident().is_some_and(|w| TYPE_WORDS.contains(&w)))
        .count();
    if n_type > 0 {
        let name = toks
            .get(n_type)
            .and_then(Token::ident)
            .ok_or_else(|| Error::Unsupported(format!("the declaration '{text}'")))?;
        let ty: Vec<&str> = toks[..n_type]
            .iter()
            .filter_map(Token::ident)
            .filter(|w| !matches!(*w, "const" | "static" | "register"))
            .collect();
        if ty.is_empty() {
            return Err(Error::Unsupported(format!(
                "the declaration '{text}' has no type"
            )));
        }
        decl = Some((ty.join(" "), name.to_string()));
        toks = &toks[n_type..];
        if toks.len() == 1 {
            // a declaration without a value does nothing
            toks = &[];
        }
    }
    let mut body = String::new();
    let mut prev_end: Option<usize> = None;
    for t in toks {
        if prev_end.is_some_and(|e| e < t.start) {
            body.push(' ');
        }
        let src = text.get(t.start..t.end).unwrap_or("");
        match t.ident() {
            Some(w) if iters.iter().any(|i| i == w) => {
                body.push('(');
                body.push_str(w);
                body.push(')');
            }
            _ => body.push_str(src),
        }
        prev_end = Some(t.end);
    }
    if body.is_empty() {
        body.push_str("(void) 0");
    }
    Ok(StmtMacro { body, decl })
}

/// The object-like macros of `source` defined to an integer constant
/// before byte `before` and in force there, as `(name, value)` in order of
/// definition: `#define N 30` (or `(30)`, `30L`, `-4`) outside any
/// `#if`/`#ifdef`/`#ifndef` block (a guarded definition may be overridden
/// on the command line, as with `-DN=1000`), not undefined since. Unreadable
/// text gives no macros.
pub fn constant_macros(source: &str, before: usize) -> Vec<(String, i64)> {
    let Ok(toks) = lex(source) else {
        return Vec::new();
    };
    let mut depth = 0usize;
    let mut out: Vec<(String, i64)> = Vec::new();
    for t in toks.iter().take_while(|t| t.start < before) {
        let Tok::Directive(d) = &t.tok else {
            continue;
        };
        let d = d.trim_start();
        let word: String = d
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let rest = &d[word.len()..];
        match word.as_str() {
            "if" | "ifdef" | "ifndef" => depth += 1,
            "endif" => depth = depth.saturating_sub(1),
            "undef" => {
                let name = rest.trim();
                out.retain(|(n, _)| n != name);
            }
            "define" => {
                let rest = rest.trim_start();
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if name.is_empty() {
                    continue;
                }
                let body = &rest[name.len()..];
                out.retain(|(n, _)| *n != name);
                if depth > 0 || body.starts_with('(') {
                    // guarded, or a function-like macro
                    continue;
                }
                if let Some(v) = integer_text(body) {
                    out.push((name, v));
                }
            }
            _ => {}
        }
    }
    out
}

/// The value of an integer literal text such as `30`, ` (30) `, `30L`,
/// `-4` or `0x10` (comments and other text give `None`).
fn integer_text(text: &str) -> Option<i64> {
    let text = text.split("/*").next().unwrap_or("");
    let text = text.split("//").next().unwrap_or("");
    let mut t = text.trim();
    while let Some(inner) = t.strip_prefix('(').and_then(|x| x.strip_suffix(')')) {
        t = inner.trim();
    }
    let (neg, t) = match t.strip_prefix('-') {
        Some(x) => (true, x.trim_start()),
        None => (false, t),
    };
    let t = t.trim_end_matches(['u', 'U', 'l', 'L']);
    let v = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        i64::from_str_radix(h, 16).ok()?
    } else if t.len() > 1 && t.starts_with('0') {
        i64::from_str_radix(&t[1..], 8).ok()?
    } else {
        t.parse::<i64>().ok()?
    };
    Some(if neg { -v } else { v })
}

/// The C type of a parameter from its declarations in `toks` (`int n`,
/// `long n`, ...: an identifier right after type words; a pointer or an
/// array is no declaration of an integer). `int` and the narrower signed
/// types are [`ParamCType::Int`], `long`, `long long`, `int64_t`,
/// `ptrdiff_t` and `ssize_t` [`ParamCType::Wide`]; an unsigned type (whose
/// arithmetic wraps), another type, declarations that disagree or none
/// found are [`ParamCType::Unknown`].
fn declared_type(toks: &[Token], name: &str) -> ParamCType {
    const QUALIFIERS: &[&str] = &["const", "static", "register", "volatile", "extern"];
    const NARROW: &[&str] = &[
        "int", "short", "char", "signed", "_Bool", "bool", "int8_t", "int16_t", "int32_t",
    ];
    const WIDE: &[&str] = &["long", "int64_t", "ptrdiff_t", "ssize_t", "intptr_t"];
    let mut found: Option<ParamCType> = None;
    for (i, t) in toks.iter().enumerate() {
        if t.ident() != Some(name) {
            continue;
        }
        let mut words: Vec<&str> = Vec::new();
        for p in toks[..i].iter().rev() {
            match p.ident() {
                Some(w) if TYPE_WORDS.contains(&w) || WIDE.contains(&w) || w == "extern" => {
                    words.push(w)
                }
                _ => break,
            }
        }
        words.retain(|w| !QUALIFIERS.contains(w));
        if words.is_empty() {
            continue;
        }
        let next_is_bracket = toks.get(i + 1).is_some_and(|n| n.is("[") || n.is("("));
        if next_is_bracket {
            continue;
        }
        let ty = if words.iter().any(|w| WIDE.contains(w)) && !words.contains(&"unsigned") {
            ParamCType::Wide
        } else if words.iter().all(|w| NARROW.contains(w)) {
            ParamCType::Int
        } else {
            ParamCType::Unknown
        };
        found = Some(match found {
            Some(f) if f != ty => ParamCType::Unknown,
            _ => ty,
        });
    }
    found.unwrap_or(ParamCType::Unknown)
}

/// What the generated loops may assume of the SCoP's parameters: the
/// bounds of its context and each one's declared C type; an integer
/// constant macro (`#define N 2000`, kept symbolic by `--parametric`) is an
/// `int`, of any value (the definition may change).
fn param_types(source: &str, toks: &[Token], scop: &Scop) -> ParamTypes {
    let mut out = ParamTypes::default();
    let macros = constant_macros(source, scop.span.0);
    let mut names: Vec<&String> = scop.params.iter().collect();
    names.extend(scop.context.space().params());
    for name in names {
        let ty = match macros.iter().find(|(n, _)| n == name) {
            Some((_, v)) if i32::try_from(*v).is_ok() => ParamCType::Int,
            Some(_) => ParamCType::Wide,
            None => declared_type(toks, name),
        };
        out.set_type(name, ty);
    }
    out.add_context(&scop.context);
    out
}

/// The source `source` with the SCoP region of `scop` (extracted from it)
/// replaced by `ast` (see the module doc). `ast` calls the statements of
/// `scop` by name with their iterators' values; its loop iterators may be
/// renamed to avoid the file's identifiers.
pub fn emit_c(source: &str, scop: &Scop, ast: &Ast, options: &EmitOptions) -> Result<String> {
    let (start, end) = scop.span;
    if start > end
        || end > source.len()
        || !source.is_char_boundary(start)
        || !source.is_char_boundary(end)
    {
        return Err(Error::Input(format!(
            "the region {start}..{end} does not fit the source of {} bytes",
            source.len()
        )));
    }
    let toks = lex(source).map_err(|e| Error::Input(e.to_string()))?;
    let taken = identifiers(&toks);

    // loop iterators: c0, c1, ... unless the file uses one of those names
    let mut loop_vars: Vec<String> = Vec::new();
    ast.walk(&mut |a| {
        if let Ast::For { var, .. } = a {
            if !loop_vars.contains(var) {
                loop_vars.push(var.clone());
            }
        }
    });
    let mut var_map: HashMap<String, String> = HashMap::new();
    if loop_vars.iter().any(|v| taken.contains(v)) {
        let suffixes: Vec<String> = (0..loop_vars.len()).map(|k| k.to_string()).collect();
        let p = free_prefix("c", &suffixes, &taken);
        for (k, v) in loop_vars.iter().enumerate() {
            var_map.insert(v.clone(), format!("{p}{k}"));
        }
    }
    // statement macros: S0, S1, ... unless the file uses one of those names
    let names: Vec<String> = scop.statements.iter().map(|s| s.name.clone()).collect();
    let mut stmt_map: HashMap<String, String> = HashMap::new();
    if names.iter().any(|n| taken.contains(n)) {
        let suffixes: Vec<String> = (0..names.len()).map(|k| k.to_string()).collect();
        let p = free_prefix("S", &suffixes, &taken);
        for (k, n) in names.iter().enumerate() {
            stmt_map.insert(n.clone(), format!("{p}{k}"));
        }
    }
    let ast = ast.renamed(&|v| var_map.get(v).cloned(), &|s| stmt_map.get(s).cloned())?;
    let macro_name = |s: &str| stmt_map.get(s).cloned().unwrap_or_else(|| s.to_string());

    // the region's indentation: the white space that starts the line of its
    // first token after `#pragma scop` (not the token's column: a comment
    // may come before it on that line)
    let pad = toks
        .iter()
        .find(|t| t.start > start && t.start < end && !matches!(t.tok, Tok::Directive(_)))
        .map_or("", |t| {
            let line = source[..t.start].rfind('\n').map_or(0, |k| k + 1);
            let rest = &source[line..t.start];
            &rest[..rest.len() - rest.trim_start_matches([' ', '\t']).len()]
        });

    // iterators assigned in `for (i = ...` headers: declared outside
    let region: Vec<&Token> = toks
        .iter()
        .filter(|t| t.start >= start && t.end <= end)
        .collect();
    let mut outer_iters: Vec<String> = Vec::new();
    for w in region.windows(4) {
        if w[0].ident() == Some("for") && w[1].is("(") && w[3].is("=") {
            if let Some(v) = w[2].ident() {
                if !outer_iters.iter().any(|x| x == v) {
                    outer_iters.push(v.to_string());
                }
            }
        }
    }

    let mut out = String::new();
    let banner = options.banner.replace("*/", "* /");
    let _ = writeln!(out, "/* poly opt: {banner} */");
    let helpers = ast.used_macros();
    for m in &helpers {
        let n = m.name();
        let _ = writeln!(
            out,
            "#ifndef {n}\n{}\n#define POLY_OPT_DEFINED_{n}\n#endif",
            m.definition()
        );
    }
    let mut decls: Vec<(String, String)> = Vec::new();
    for st in &scop.statements {
        let m = statement_macro(&st.text, &st.iterators)?;
        if let Some((ty, name)) = m.decl {
            match decls.iter().find(|(_, n)| *n == name) {
                Some((t, _)) if *t != ty => {
                    return Err(Error::Unsupported(format!(
                        "the scalar {name} is declared with two types ({t} and {ty})"
                    )));
                }
                Some(_) => {}
                None => decls.push((ty, name)),
            }
        }
        let _ = writeln!(
            out,
            "#define {}({}) {}",
            macro_name(&st.name),
            st.iterators.join(", "),
            m.body
        );
    }
    // the scalars declared without a value (`double t;`) have no statement
    for (name, ty) in &scop.locals {
        let ty: Vec<&str> = ty
            .split_whitespace()
            .filter(|w| !matches!(*w, "const" | "static" | "register"))
            .collect();
        let ty = ty.join(" ");
        match decls.iter().find(|(_, n)| n == name) {
            Some((t, _)) if *t != ty && !ty.is_empty() => {
                return Err(Error::Unsupported(format!(
                    "the scalar {name} is declared with two types ({t} and {ty})"
                )));
            }
            Some(_) => {}
            None if ty.is_empty() => {
                return Err(Error::Unsupported(format!(
                    "the declaration of {name} has no type"
                )));
            }
            None => decls.push((ty, name.clone())),
        }
    }
    let _ = writeln!(out, "{pad}{{");
    for (ty, name) in &decls {
        let _ = writeln!(out, "{pad}  {ty} {name} = 0;");
    }
    let params = param_types(source, &toks, scop);
    for line in ast.to_c_with(&params).lines() {
        let _ = writeln!(out, "{pad}  {line}");
    }
    for v in &outer_iters {
        let _ = writeln!(out, "{pad}  (void) {v};");
    }
    let _ = writeln!(out, "{pad}}}");
    for st in &scop.statements {
        let _ = writeln!(out, "#undef {}", macro_name(&st.name));
    }
    for m in &helpers {
        let n = m.name();
        let _ = writeln!(
            out,
            "#ifdef POLY_OPT_DEFINED_{n}\n#undef {n}\n#undef POLY_OPT_DEFINED_{n}\n#endif"
        );
    }
    let rest = &source[end..];
    if rest.starts_with('\n') || rest.starts_with("\r\n") {
        out.pop();
    }
    Ok(format!("{}{out}{rest}", &source[..start]))
}
