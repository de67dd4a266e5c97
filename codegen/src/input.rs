//! The input of `poly codegen`: isl's code-generation input as iscc's
//! `codegen` and isl's `isl_codegen` take it.
//!
//! A file holds, in order, separated by white space or new lines (each
//! object may span several lines; `#` starts a comment to the end of the
//! line; a `;` after an object is allowed):
//!
//! 1. the schedule, a union map from statement instances to times, with the
//!    domain constraints in it:
//!    `[N] -> { S[i] -> [i] : 0 <= i < N; T[i] -> [i + 1] : 0 <= i < N }`;
//! 2. optionally the context, a parameter set the code may assume:
//!    `[N] -> { : N >= 1 }` (isl's `{ : }` for none);
//! 3. optionally the options, as isl writes them, a union map whose range
//!    names are `separate` or `atomic` (`{ [t] -> atomic[x] }`), or the bare
//!    word `separate` or `atomic`; `{ }` is the default (separation). The
//!    options apply to every dimension (isl's per-dimension options are not
//!    read); any other option name is an error.
//!
//! Each of them may also be given with a label, in any order:
//! `schedule: UMAP`, `context: SET`, `domain: USET` (statement domains,
//! intersected with the schedule's as isl's `intersect_domain` does: a
//! statement without a domain there has no instances), `options: ...`; an
//! object without a label is the first of schedule, context and options not
//! given yet. Each is given at most once (a second one is an error naming
//! both places). A line `approximate: 0 1` names the time dimensions to
//! scan over rational shadows ([`Options::approximate`]), as `poly opt`
//! scans its tile loops and prints them with `--print-schedule`, at most
//! once too. A comment line `# parallel: 0 1` (as `poly opt
//! --print-schedule` prints it) is a comment like any other, and the lines
//! `band: 0 2` and `parallel: 0 1` that `poly schedule` prints after its
//! schedule are read and not used. This is the format of
//! the `.in` files of isl's `test_inputs/codegen` directory (three lines:
//! schedule, context, options).
//!
//! ```
//! use presburger_codegen::input::parse_input;
//! let input = parse_input("[N] -> { S[i] -> [i] : 0 <= i < N }\ncontext: [N] -> { : N >= 1 }\n")?;
//! assert_eq!(input.schedule.members().len(), 1);
//! assert!(input.context.is_some() && !input.options.atomic);
//! let ast = input.generate()?;
//! assert_eq!(ast.to_c(), "for (long long c0 = 0; c0 <= N - 1; c0 += 1)\n  S(c0);\n");
//! // with the parameters bounded by a context, int counters where they fit
//! let input = parse_input("[N] -> { S[i] -> [i] : 0 <= i < N }\ncontext: [N] -> { : 1 <= N <= 99 }")?;
//! let ast = input.generate()?;
//! assert_eq!(ast.to_c_with(&input.param_types()), "for (int c0 = 0; c0 <= N - 1; c0 += 1)\n  S(c0);\n");
//! # Ok::<(), presburger_codegen::Error>(())
//! ```

use crate::ast::Ast;
use crate::error::{Error, Result};
use crate::scan::{Options, generate};
use presburger::{Set, UnionMap, UnionSet};

/// A parsed code-generation problem.
#[derive(Debug, Clone)]
pub struct Input {
    /// The schedule (with the domains in it).
    pub schedule: UnionMap,
    /// Extra statement domains, if given.
    pub domain: Option<UnionSet>,
    /// The parameter context, if given.
    pub context: Option<Set>,
    /// The options.
    pub options: Options,
}

impl Input {
    /// The AST of this problem ([`generate`]).
    pub fn generate(&self) -> Result<Ast> {
        generate(
            &self.schedule,
            self.domain.as_ref(),
            self.context.as_ref(),
            &self.options,
        )
    }

    /// What the printed code may assume of the parameters
    /// ([`crate::Ast::to_c_with`]): 64-bit integers, within the bounds the
    /// context gives them.
    pub fn param_types(&self) -> crate::ParamTypes {
        let mut p = crate::ParamTypes::default();
        if let Some(c) = &self.context {
            p.add_context(c);
        }
        p
    }
}

/// A cursor over the text with line and column.
struct Cursor<'a> {
    text: &'a str,
    pos: usize,
}

impl Cursor<'_> {
    /// Line and column (from 1) of byte `pos`.
    fn place(&self, pos: usize) -> (usize, usize) {
        let before = &self.text[..pos];
        let line = before.matches('\n').count() + 1;
        let col = before.rfind('\n').map_or(pos, |k| pos - k - 1) + 1;
        (line, col)
    }

    /// Skips white space, `;` and comments.
    fn skip(&mut self) {
        let b = self.text.as_bytes();
        while self.pos < b.len() {
            match b[self.pos] {
                b' ' | b'\t' | b'\r' | b'\n' | b';' => self.pos += 1,
                b'#' => {
                    while self.pos < b.len() && b[self.pos] != b'\n' {
                        self.pos += 1;
                    }
                }
                _ => break,
            }
        }
    }

    fn at_end(&self) -> bool {
        self.pos >= self.text.len()
    }

    /// A word of letters, digits and `_` at the cursor (not consumed).
    fn word(&self) -> &str {
        let rest = &self.text[self.pos..];
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        &rest[..end]
    }

    /// `label:` at the cursor: the label, consumed with its colon.
    fn label(&mut self) -> Option<String> {
        let w = self.word().to_string();
        if w.is_empty() {
            return None;
        }
        let after = self.text[self.pos + w.len()..].trim_start_matches([' ', '\t']);
        if after.starts_with(':') && !after.starts_with(":=") {
            let colon = self.text.len() - after.len();
            self.pos = colon + 1;
            Some(w)
        } else {
            None
        }
    }

    /// The dimension numbers on the rest of the line (`0 1 3`, or `0, 1,
    /// 3`; a `#` comment ends them), as flags per dimension: true for each
    /// number given. The cursor ends at the end of the line.
    fn dimensions(&mut self) -> Result<Vec<bool>> {
        let rest = &self.text[self.pos..];
        let end = rest.find(['\n', '#']).unwrap_or(rest.len());
        let line = &rest[..end];
        let b = line.as_bytes();
        let sep = |c: u8| c.is_ascii_whitespace() || c == b',';
        let mut flags = Vec::new();
        let mut k = 0;
        while k < b.len() {
            if sep(b[k]) {
                k += 1;
                continue;
            }
            let start = k;
            while k < b.len() && !sep(b[k]) {
                k += 1;
            }
            let w = &line[start..k];
            let d = w
                .parse::<usize>()
                .ok()
                .filter(|&d| d < 4096)
                .ok_or_else(|| {
                    let (l, c) = self.place(self.pos + start);
                    Error::Input(format!(
                        "line {l}, column {c}: '{w}' is not a dimension number (0 to 4095)"
                    ))
                })?;
            if flags.len() <= d {
                flags.resize(d + 1, false);
            }
            flags[d] = true;
        }
        self.pos += end;
        Ok(flags)
    }

    /// One object in isl notation: an optional parameter prefix `[..] ->`,
    /// then braces, balanced (comments inside are kept for the parser).
    /// Returns the text and its start.
    fn object(&mut self) -> Result<(String, usize)> {
        let start = self.pos;
        let b = self.text.as_bytes();
        let Some(open) = self.text[start..].find('{').map(|k| start + k) else {
            let (l, c) = self.place(start);
            return Err(Error::Input(format!(
                "line {l}, column {c}: expected a set or map in isl notation ({{ ... }})"
            )));
        };
        let mut depth = 0usize;
        let mut k = open;
        while k < b.len() {
            match b[k] {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        self.pos = k + 1;
                        return Ok((self.text[start..=k].to_string(), start));
                    }
                }
                b'#' => {
                    while k < b.len() && b[k] != b'\n' {
                        k += 1;
                    }
                    continue;
                }
                _ => {}
            }
            k += 1;
        }
        let (l, c) = self.place(open);
        Err(Error::Input(format!(
            "line {l}, column {c}: the braces opened here are not closed"
        )))
    }
}

/// The option a name stands for: `atomic`, `separate`, or an error.
fn option_named(name: &str, options: &mut Options) -> Result<()> {
    match name {
        "atomic" => options.atomic = true,
        "separate" => options.atomic = false,
        "unroll" | "default" | "separation_class" => {
            return Err(Error::Input(format!(
                "the option {name} is not supported (only atomic and separate are)"
            )));
        }
        other => {
            return Err(Error::Input(format!(
                "unknown option {other} (atomic or separate)"
            )));
        }
    }
    Ok(())
}

/// The options of isl's option map: the range tuple names of its members.
fn options_from_map(m: &UnionMap) -> Result<Options> {
    let mut options = Options::default();
    for member in m.members() {
        let name = member
            .space()
            .range_tuple()
            .name
            .clone()
            .unwrap_or_default();
        option_named(&name, &mut options)?;
    }
    Ok(options)
}

/// Reads a code-generation input (see the module doc). Errors name the line
/// and column in `text`.
pub fn parse_input(text: &str) -> Result<Input> {
    let mut cur = Cursor { text, pos: 0 };
    let mut schedule: Option<UnionMap> = None;
    let mut domain: Option<UnionSet> = None;
    let mut context: Option<Set> = None;
    let mut options: Option<Options> = None;
    // what has been given, and where
    let mut given: Vec<(String, (usize, usize))> = Vec::new();
    let mut approximate: Vec<bool> = Vec::new();
    let mut approximate_at: Option<(usize, usize)> = None;
    let at = |cur: &Cursor, start: usize, e: presburger::Error| -> Error {
        let (l, c) = cur.place(start);
        Error::Presburger(e.offset_by(l, c))
    };
    loop {
        cur.skip();
        if cur.at_end() {
            break;
        }
        let label_pos = cur.pos;
        let pluto_line = {
            // `T(S0): (i, j, 0, k)`, `poly schedule --pluto`'s line per statement
            let rest = &cur.text[cur.pos..];
            let line = &rest[..rest.find('\n').unwrap_or(rest.len())];
            line.starts_with("T(") && line.contains("):")
        };
        let label = if pluto_line { None } else { cur.label() };
        if pluto_line || matches!(label.as_deref(), Some("band" | "parallel")) {
            // what `poly schedule` prints besides the schedule: not used
            let rest = &cur.text[cur.pos..];
            cur.pos += rest.find('\n').unwrap_or(rest.len());
            continue;
        }
        if label.as_deref() == Some("approximate") {
            let (l, c) = cur.place(label_pos);
            if let Some((l0, c0)) = approximate_at {
                return Err(Error::Input(format!(
                    "line {l}, column {c}: a second approximate (the first is at line {l0}, \
                     column {c0})"
                )));
            }
            approximate_at = Some((l, c));
            approximate = cur.dimensions()?;
            continue;
        }
        cur.skip();
        let which = match label.as_deref() {
            Some(l @ ("schedule" | "context" | "domain" | "options")) => l.to_string(),
            Some(other) => {
                let (l, c) = cur.place(label_pos);
                return Err(Error::Input(format!(
                    "line {l}, column {c}: unknown label {other}: (schedule, context, domain, \
                     options or approximate)"
                )));
            }
            None => {
                // the first of schedule, context and options not given yet
                let next = ["schedule", "context", "options"]
                    .into_iter()
                    .find(|w| !given.iter().any(|(g, _)| g == w));
                match next {
                    Some(w) => w.to_string(),
                    None => {
                        let (l, c) = cur.place(cur.pos);
                        return Err(Error::Input(format!(
                            "line {l}, column {c}: more than three objects (schedule, \
                             context, options)"
                        )));
                    }
                }
            }
        };
        let (l, c) = cur.place(label_pos);
        if let Some((_, (l0, c0))) = given.iter().find(|(g, _)| *g == which) {
            return Err(Error::Input(format!(
                "line {l}, column {c}: a second {which} (the first is at line {l0}, column \
                 {c0}); each of schedule, context, domain and options is given once"
            )));
        }
        given.push((which.clone(), (l, c)));
        if which == "options" {
            let w = cur.word().to_string();
            if !w.is_empty() {
                // a bare word
                cur.pos += w.len();
                let mut o = Options::default();
                option_named(&w, &mut o)?;
                options = Some(o);
                continue;
            }
            let (t, start) = cur.object()?;
            let m: UnionMap = t.parse().map_err(|e| at(&cur, start, e))?;
            options = Some(options_from_map(&m)?);
            continue;
        }
        let (t, start) = cur.object()?;
        match which.as_str() {
            "schedule" => {
                let m = match presburger::parse_object(&t).map_err(|e| at(&cur, start, e))? {
                    presburger::Object::Map(m) => m,
                    // `{ }`: no statement
                    presburger::Object::Set(s) if s.members().is_empty() => {
                        t.parse().map_err(|e| at(&cur, start, e))?
                    }
                    presburger::Object::Set(_) => {
                        let (l, c) = cur.place(start);
                        return Err(Error::Input(format!(
                            "line {l}, column {c}: the schedule is a set; it must be a map \
                             from statement instances to times, such as \
                             {{ S[i] -> [i] : 0 <= i < 10 }}"
                        )));
                    }
                };
                if let Some(k) = m
                    .members()
                    .iter()
                    .position(|x| x.space().domain_tuple().is_none())
                {
                    return Err(Error::Input(format!(
                        "the schedule must be a map from statement instances to times, not \
                         a set (member {k})"
                    )));
                }
                schedule = Some(m);
            }
            "context" => {
                let s: Set = t.parse().map_err(|e| at(&cur, start, e))?;
                context = Some(s);
            }
            _ => {
                let s: UnionSet = t.parse().map_err(|e| at(&cur, start, e))?;
                domain = Some(s);
            }
        }
    }
    let schedule = schedule.ok_or_else(|| {
        Error::Input(
            "no schedule: the input starts with a union map such as \
             [N] -> { S[i] -> [i] : 0 <= i < N }"
                .into(),
        )
    })?;
    Ok(Input {
        schedule,
        domain,
        context,
        options: Options {
            approximate,
            ..options.unwrap_or_default()
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positional_as_isl_codegen_files() {
        let i = parse_input(
            "# isl test_inputs/codegen style\n[n] -> { A[i] -> [i, 0] : 0 <= i <= n; B[i] -> [i, 1] : 0 <= i <= n }\n{ : }\n{ }\n",
        )
        .unwrap();
        assert_eq!(i.schedule.members().len(), 2);
        assert!(i.context.is_some());
        assert!(!i.options.atomic);
        let i = parse_input("{ S[i] -> [i] : 0 <= i < 4 }\n{ : }\n{ [i] -> atomic[0] }").unwrap();
        assert!(i.options.atomic);
    }

    #[test]
    fn labels_and_multiline_objects() {
        let i = parse_input(
            "context: [N] -> { : N >= 2 }\nschedule: [N] -> {\n  S[i] -> [i] : 0 <= i < N; # first\n  T[i] -> [i + 1] : 0 <= i < N\n};\noptions: atomic\ndomain: [N] -> { S[i] : i >= 1 }\n",
        )
        .unwrap();
        assert_eq!(i.schedule.members().len(), 2);
        assert!(i.options.atomic);
        assert!(i.domain.is_some());
        let ast = i.generate().unwrap();
        // as isl's intersect_domain: a statement without a domain has no instances
        let t = ast.trace(&[("N", 3)], 100).unwrap();
        assert_eq!(t, [("S".to_string(), vec![1]), ("S".to_string(), vec![2])]);
    }

    #[test]
    fn each_object_is_given_once() {
        let e = parse_input("schedule: { S[i] -> [i] : 0 <= i < 4 }\nschedule: { S[i] -> [0] }")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("line 2, column 1: a second schedule (the first is at line 1, column 1)"),
            "{e}"
        );
        let e = parse_input("{ S[i] -> [i] : 0 <= i < 4 }\n  schedule: { S[i] -> [0] }")
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 2, column 3: a second schedule"), "{e}");
        for twice in [
            "context: { : }\ncontext: { : }",
            "options: atomic\noptions: separate",
            "domain: { S[i] }\ndomain: { S[i] }",
            "{ : }\ncontext: { : }",
        ] {
            let text = format!("{{ S[i] -> [i] : 0 <= i < 4 }}\n{twice}");
            let e = parse_input(&text).unwrap_err().to_string();
            assert!(e.contains("a second "), "{text}: {e}");
        }
        // an object without a label is the first not given yet
        let i = parse_input(
            "context: [N] -> { : N >= 1 }\n[N] -> { S[i] -> [i] : 0 <= i < N }\natomic",
        )
        .unwrap();
        assert!(i.context.is_some() && i.options.atomic);
        let i =
            parse_input("schedule: { S[i] -> [i] : 0 <= i < 4 }\n{ : }\n# parallel: 0\n").unwrap();
        assert!(i.context.is_some());
        // `poly schedule`'s output: its band, parallel and `T(..)` lines are not used
        let i = parse_input(
            "schedule: { S[i] -> [i] : 0 <= i < 4 }\nband: 0 0\nparallel: 0\nT(S): (i)\n",
        )
        .unwrap();
        assert!(i.context.is_none());
    }

    #[test]
    fn errors_with_places() {
        let e = parse_input("").unwrap_err().to_string();
        assert!(e.contains("no schedule"), "{e}");
        let e = parse_input("{ S[i] -> [i] : 0 <= i < }")
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 1"), "{e}");
        let e = parse_input("\n\n  { S[i] -> [i] : i <= }")
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 3"), "{e}");
        let e = parse_input("{ S[i] -> [i] ").unwrap_err().to_string();
        assert!(e.contains("not closed"), "{e}");
        let e = parse_input("{ S[i] -> [i] }\noptions: unroll")
            .unwrap_err()
            .to_string();
        assert!(e.contains("unroll"), "{e}");
        let e = parse_input("{ S[i] -> [i] }\n{ : }\n{ [i] -> unroll[x] }")
            .unwrap_err()
            .to_string();
        assert!(e.contains("unroll"), "{e}");
        let e = parse_input("{ S[i] -> [i] }\noptions: fast")
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown option"), "{e}");
        let e = parse_input("sched: { S[i] -> [i] }")
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown label"), "{e}");
        let e = parse_input("{ S[i] : i >= 0 }").unwrap_err().to_string();
        assert!(!e.is_empty());
    }
}
