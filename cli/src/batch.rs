//! `poly batch [--time] [--repeat R] [--stats] [FILE|-]`: answers one query per line.
//!
//! Each input line is `OP<TAB>ARG1[<TAB>ARG2]` with the arguments in isl notation;
//! blank lines and lines starting with `#` are skipped. Every other line gets exactly
//! one output line, in order: the answer (`true`/`false`, a point `[1, -2]`, or
//! `none`), or `error: line L: MESSAGE` when the line cannot be answered (unknown
//! operation, wrong number of arguments, text that does not parse, a solver error).
//! Processing goes on after an error; the exit status is 1 if any line failed.
//!
//! With `--time` the answer is followed by a TAB and the nanoseconds spent in the
//! operation alone (parsing and printing excluded); `--repeat R` runs the operation
//! R times and prints the total. `--stats` prints a summary line to stderr at the end.
//!
//! Operations are entries of [`OPS`]: a name, the kinds of its arguments (parsed
//! before timing starts) and the function to time.

use crate::output::{Failure, Out};
use presburger::{Error, Int, Object, Set, UnionMap, UnionSet, parse_object};
use std::fmt;
use std::hint::black_box;
use std::io::{BufRead, BufWriter, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::{Duration, Instant};

/// The usage line of the subcommand, shown with usage errors.
pub const USAGE: &str = "usage: poly batch [--time] [--repeat R] [--stats] [FILE|-]";

/// What an argument of an operation must be; it is parsed before timing starts.
#[derive(Debug, Clone, Copy)]
enum Kind {
    /// A set or a map, possibly a union over several spaces (`parse_object`).
    Object,
    /// A set in a single space (`Set`).
    Set,
}

/// A parsed argument.
enum Arg {
    Object(Object),
    Set(Set),
}

impl Arg {
    fn object(&self) -> &Object {
        match self {
            Arg::Object(o) => o,
            Arg::Set(_) => unreachable!("the op table declares this argument as an object"),
        }
    }

    fn set(&self) -> &Set {
        match self {
            Arg::Set(s) => s,
            Arg::Object(_) => unreachable!("the op table declares this argument as a set"),
        }
    }
}

/// The result of an operation, formatted only after the clock has stopped.
enum Answer {
    Bool(bool),
    /// A set or map, printed in isl notation (`coalesce`).
    Object(Object),
    /// A point (parameters first for a parametric `sample`), or `None` when empty.
    Point(Option<Vec<Int>>),
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Answer::Bool(b) => write!(f, "{b}"),
            Answer::Object(Object::Set(s)) => write!(f, "{s}"),
            Answer::Object(Object::Map(m)) => write!(f, "{m}"),
            Answer::Point(None) => write!(f, "none"),
            Answer::Point(Some(p)) => {
                write!(f, "[")?;
                for (k, v) in p.iter().enumerate() {
                    if k > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{v}")?;
                }
                write!(f, "]")
            }
        }
    }
}

/// One operation: its name, the kinds of its arguments, and the work to time.
struct Op {
    name: &'static str,
    args: &'static [Kind],
    run: fn(&[Arg]) -> Result<Answer, Error>,
}

/// Applies a two-argument operation to two sets or two maps (unions allowed).
fn both<T>(
    a: &[Arg],
    sets: fn(&UnionSet, &UnionSet) -> Result<T, Error>,
    maps: fn(&UnionMap, &UnionMap) -> Result<T, Error>,
) -> Result<T, Error> {
    match (a[0].object(), a[1].object()) {
        (Object::Set(x), Object::Set(y)) => sets(x, y),
        (Object::Map(x), Object::Map(y)) => maps(x, y),
        _ => Err(Error::SpaceMismatch(
            "one argument is a set and the other a map".into(),
        )),
    }
}

/// `lexmin`/`lexmax`: the point of a set without parameters; for a set with
/// parameters the optimum for every parameter value, and for a map the
/// optimum of every image, in isl notation.
fn lexopt(o: &Object, max: bool) -> Result<Answer, Error> {
    Ok(match o {
        Object::Set(u) => match u.members() {
            [s] if s.space().n_param() == 0 => {
                Answer::Point(if max { s.lexmax()? } else { s.lexmin()? })
            }
            _ => Answer::Object(Object::Set(if max { u.lexmax()? } else { u.lexmin()? })),
        },
        Object::Map(m) => Answer::Object(Object::Map(if max { m.lexmax()? } else { m.lexmin()? })),
    })
}

/// The operations, one entry each. `run` receives exactly `args.len()` arguments of
/// the declared kinds.
const OPS: &[Op] = &[
    Op {
        name: "is_empty",
        args: &[Kind::Object],
        run: |a| {
            Ok(Answer::Bool(match a[0].object() {
                Object::Set(s) => s.is_empty()?,
                Object::Map(m) => m.is_empty()?,
            }))
        },
    },
    Op {
        name: "sample",
        args: &[Kind::Set],
        run: |a| Ok(Answer::Point(a[0].set().sample()?)),
    },
    Op {
        name: "lexmin",
        args: &[Kind::Object],
        run: |a| lexopt(a[0].object(), false),
    },
    Op {
        name: "lexmax",
        args: &[Kind::Object],
        run: |a| lexopt(a[0].object(), true),
    },
    Op {
        name: "is_subset",
        args: &[Kind::Object, Kind::Object],
        run: |a| both(a, |x, y| x.is_subset(y), |x, y| x.is_subset(y)).map(Answer::Bool),
    },
    Op {
        name: "is_equal",
        args: &[Kind::Object, Kind::Object],
        run: |a| both(a, |x, y| x.is_equal(y), |x, y| x.is_equal(y)).map(Answer::Bool),
    },
    Op {
        name: "is_disjoint",
        args: &[Kind::Object, Kind::Object],
        run: |a| both(a, |x, y| x.is_disjoint(y), |x, y| x.is_disjoint(y)).map(Answer::Bool),
    },
    Op {
        name: "subtract_is_empty",
        args: &[Kind::Object, Kind::Object],
        run: |a| {
            both(
                a,
                |x, y| x.subtract(y)?.is_empty(),
                |x, y| x.subtract(y)?.is_empty(),
            )
            .map(Answer::Bool)
        },
    },
    Op {
        name: "coalesce",
        args: &[Kind::Object],
        run: |a| {
            Ok(Answer::Object(match a[0].object() {
                Object::Set(s) => Object::Set(s.coalesce()?),
                Object::Map(m) => Object::Map(m.coalesce()?),
            }))
        },
    },
];

/// The command-line options of `poly batch`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    pub time: bool,
    pub repeat: u64,
    pub stats: bool,
    /// `None` or `Some("-")` for standard input.
    pub input: Option<String>,
}

/// Counters reported by `--stats`.
#[derive(Debug, Default, Clone)]
pub struct Stats {
    /// Lines answered or failed (skipped lines are not counted; `--repeat` does not
    /// multiply this).
    pub operations: u64,
    /// Lines that printed `error: ...`.
    pub errors: u64,
    /// What the solver did meanwhile (emptiness checks, SDBM fast path, Omega-test
    /// nodes, splinters, big-integer values), including `--repeat` runs.
    pub solver: presburger::internals::stats::Stats,
}

impl Stats {
    /// The line `--stats` prints to stderr.
    pub fn summary(&self) -> String {
        format!(
            "stats: {} operations, {} errors; solver: {}",
            self.operations, self.errors, self.solver
        )
    }
}

/// Parses the arguments after `batch`. `Err` is a usage error.
pub fn parse_args(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
        time: false,
        repeat: 1,
        stats: false,
        input: None,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--time" => o.time = true,
            "--stats" => o.stats = true,
            "--repeat" => {
                let v = it.next().ok_or("--repeat needs a count")?;
                o.repeat = parse_repeat(v)?;
            }
            s if s.starts_with("--repeat=") => o.repeat = parse_repeat(&s["--repeat=".len()..])?,
            s if s.starts_with('-') && s != "-" => return Err(format!("unknown option '{s}'")),
            s => {
                if o.input.is_some() {
                    return Err("at most one input file".into());
                }
                o.input = Some(s.to_string());
            }
        }
    }
    Ok(o)
}

/// The value of `--repeat`: a count from 1 to `u64::MAX`.
fn parse_repeat(v: &str) -> Result<u64, String> {
    crate::args::unsigned("--repeat", v, 1)
}

/// Runs the batch on `input`, writing answers to `out`. Returns the statistics;
/// `Err` only for a failure to read the input or write the output (then the output
/// stops there).
pub fn run(opts: &Options, input: impl BufRead, out: impl Write) -> Result<Stats, String> {
    let mut input = input;
    let mut out = BufWriter::new(out);
    let mut stats = Stats::default();
    let before = presburger::internals::stats::snapshot();
    let mut buf = Vec::new();
    let mut lineno = 0usize;
    loop {
        buf.clear();
        let n = input
            .read_until(b'\n', &mut buf)
            .map_err(|e| format!("cannot read the input after line {lineno}: {e}"))?;
        if n == 0 {
            break;
        }
        lineno += 1;
        let raw = strip_newline(&buf);
        // skipped lines are recognised on the bytes: a comment need not be UTF-8
        let t = raw.trim_ascii_start();
        if t.is_empty() || t.starts_with(b"#") {
            continue;
        }
        let result = match std::str::from_utf8(raw) {
            Ok(line) if line.trim().is_empty() => continue,
            Ok(line) => {
                // a panic in the library must not stop the batch: it becomes an error line
                catch_unwind(AssertUnwindSafe(|| answer_line(line, opts)))
                    .unwrap_or_else(|_| Err("internal error: the operation panicked".into()))
            }
            Err(e) => Err(format!(
                "the line is not valid UTF-8 (at byte {})",
                e.valid_up_to() + 1
            )),
        };
        stats.operations += 1;
        let written = match result {
            Ok(text) => writeln!(out, "{text}"),
            Err(msg) => {
                stats.errors += 1;
                writeln!(out, "error: line {lineno}: {}", one_line(&msg))
            }
        };
        written.map_err(|e| format!("cannot write the output: {e}"))?;
    }
    out.flush()
        .map_err(|e| format!("cannot write the output: {e}"))?;
    let after = presburger::internals::stats::snapshot();
    stats.solver = presburger::internals::stats::Stats {
        emptiness_checks: after.emptiness_checks - before.emptiness_checks,
        sdbm_fast_path: after.sdbm_fast_path - before.sdbm_fast_path,
        sdbm_fallbacks: after.sdbm_fallbacks - before.sdbm_fallbacks,
        omega_nodes: after.omega_nodes - before.omega_nodes,
        splinters: after.splinters - before.splinters,
        sample_nodes: after.sample_nodes - before.sample_nodes,
        big_values: after.big_values - before.big_values,
    };
    Ok(stats)
}

fn strip_newline(b: &[u8]) -> &[u8] {
    let b = b.strip_suffix(b"\n").unwrap_or(b);
    b.strip_suffix(b"\r").unwrap_or(b)
}

fn one_line(msg: &str) -> String {
    msg.split(['\n', '\r'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The output line for one input line (without the line number on errors).
fn answer_line(line: &str, opts: &Options) -> Result<String, String> {
    let mut fields = line.split('\t');
    let name = fields.next().unwrap_or("").trim();
    let Some(op) = OPS.iter().find(|op| op.name == name) else {
        let known: Vec<&str> = OPS.iter().map(|op| op.name).collect();
        let hint = if name.contains(char::is_whitespace) {
            " (separate the operation and its arguments with TABs)"
        } else {
            ""
        };
        let shown: String = name.chars().take(40).collect();
        let more = if shown.len() < name.len() { "..." } else { "" };
        return Err(format!(
            "unknown operation '{shown}{more}'{hint}; known: {}",
            known.join(", ")
        ));
    };
    // the arguments, with the column (from 1, in characters) where each starts
    let mut texts = Vec::new();
    let mut col = name_end_col(line);
    for f in fields {
        let lead = f.chars().take_while(|c| c.is_whitespace()).count();
        texts.push((f.trim(), col + 2 + lead)); // past the TAB
        col += 1 + f.chars().count();
    }
    // trailing empty fields (a TAB at the end of the line) are not arguments
    while texts.last().is_some_and(|(t, _)| t.is_empty()) {
        texts.pop();
    }
    if texts.len() != op.args.len() {
        return Err(format!(
            "'{}' takes {} argument(s), got {}",
            op.name,
            op.args.len(),
            texts.len()
        ));
    }
    let mut args = Vec::with_capacity(texts.len());
    for (k, (&kind, &(text, col))) in op.args.iter().zip(&texts).enumerate() {
        args.push(parse_arg(kind, text).map_err(|e| arg_error(e, k + 1, col))?);
    }
    let (answer, elapsed) = timed(op.run, &args, opts.repeat).map_err(|e| e.to_string())?;
    Ok(if opts.time {
        format!("{answer}\t{}", elapsed.as_nanos())
    } else {
        answer.to_string()
    })
}

/// The column (in characters) of the last character of the operation field.
fn name_end_col(line: &str) -> usize {
    line.split('\t').next().unwrap_or("").chars().count()
}

fn parse_arg(kind: Kind, text: &str) -> Result<Arg, Error> {
    Ok(match kind {
        Kind::Object => Arg::Object(parse_object(text)?),
        Kind::Set => Arg::Set(text.parse::<Set>()?),
    })
}

/// A parse error with its column moved to the column of the input line.
fn arg_error(e: Error, k: usize, col: usize) -> String {
    match e {
        Error::Parse {
            line: 1,
            column,
            message,
        } => format!("column {}: {message}", column + col - 1),
        e => format!("argument {k}: {e}"),
    }
}

/// Runs the operation `repeat` times; the answer of the last run and the total time
/// spent inside the operation calls.
fn timed(
    run: fn(&[Arg]) -> Result<Answer, Error>,
    args: &[Arg],
    repeat: u64,
) -> Result<(Answer, Duration), Error> {
    let mut total = Duration::ZERO;
    let mut k = 1;
    loop {
        let start = Instant::now();
        let r = black_box(run(black_box(args)));
        total += start.elapsed();
        let answer = r?;
        if k >= repeat {
            return Ok((answer, total));
        }
        k += 1;
    }
}

/// `poly batch ARGS`: reads the input (a file or standard input), answers to
/// standard output. `Err` carries the message for `poly: ...` on stderr, or
/// the failure to write the output.
pub fn main(args: &[String]) -> Result<(), Failure> {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        return crate::output::print("batch", &format!("{USAGE}\n\n{}\n", HELP.trim_end()));
    }
    let opts = parse_args(args).map_err(|m| format!("batch: {m}\n{USAGE}"))?;
    let mut out = Out::new();
    let stats = match opts.input.as_deref() {
        None | Some("-") => run(&opts, std::io::stdin().lock(), &mut out),
        Some(path) => {
            let f = std::fs::File::open(path).map_err(|e| format!("cannot read {path}: {e}"))?;
            run(&opts, std::io::BufReader::new(f), &mut out)
        }
    };
    // a failed write is the reason the batch stopped, if there was one
    if let Some(f) = out.failure("batch") {
        return Err(f);
    }
    let stats = stats?;
    out.finish("batch")?;
    if opts.stats {
        crate::output::warn(&stats.summary());
    }
    if stats.errors > 0 {
        return Err(format!(
            "batch: {} of {} line(s) failed",
            stats.errors, stats.operations
        )
        .into());
    }
    Ok(())
}

const HELP: &str = "\
Each input line is OP<TAB>ARG (isl notation); blank lines and # comments are skipped.
Operations: is_empty (a set, map or union), sample (a set in one space; prints
parameters first), lexmin, lexmax (a point for a set without parameters; for a
set with parameters or a map, the optimum as a set or map), is_subset, is_equal, is_disjoint,
subtract_is_empty (two arguments), coalesce (prints the result). One output line per
query: true/false, a point [1, -2], none, a set or map, or `error: line L: message`.
  --time        follow each answer with a TAB and the nanoseconds of the operation
  --repeat R    run each operation R times (--time prints the total)
  --stats       print the number of operations and errors, and what the solver did
                (emptiness checks, SDBM fast path share, Omega-test nodes, ...), to
                stderr at the end
";

#[cfg(test)]
mod tests {
    use super::*;

    fn batch(opts: &Options, input: &str) -> (String, Stats) {
        let mut out = Vec::new();
        let stats = run(opts, input.as_bytes(), &mut out).unwrap();
        (String::from_utf8(out).unwrap(), stats)
    }

    fn opts() -> Options {
        parse_args(&[]).unwrap()
    }

    #[test]
    fn options() {
        let a = |v: &[&str]| parse_args(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(
            a(&["--time", "--repeat", "3", "--stats", "f.txt"]).unwrap(),
            Options {
                time: true,
                repeat: 3,
                stats: true,
                input: Some("f.txt".into())
            }
        );
        assert_eq!(a(&["--repeat=2", "-"]).unwrap().repeat, 2);
        assert!(a(&["--repeat", "0"]).is_err());
        assert!(a(&["--repeat"]).is_err());
        assert!(a(&["--repeat", "x"]).is_err());
        assert!(a(&["--frob"]).is_err());
        assert!(a(&["a", "b"]).is_err());
    }

    #[test]
    fn format_errors_without_the_solver() {
        let input = "# comment\n\n   \nfrob\t{ [i] }\nis_empty\nis_empty { [i] }\n\
                     is_empty\t{ [i] : i > }\nsample\t{ A[i]; B[i] }\nlexmin\t{ [i] }\t{ [j] }\n\
                     is_empty\t{ [i] : i > }\t \t\n";
        let (out, stats) = batch(&opts(), input);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 7, "{out}");
        assert!(lines[0].starts_with("error: line 4: unknown operation 'frob'"));
        assert!(lines[1].starts_with("error: line 5: 'is_empty' takes 1 argument(s), got 0"));
        assert!(lines[2].contains("TABs"), "{}", lines[2]);
        // the column counts from the start of the input line: "is_empty\t" is 9 chars
        assert_eq!(
            lines[3],
            "error: line 7: column 22: expected an expression, found '}'"
        );
        assert!(
            lines[4].starts_with("error: line 8: argument 1: "),
            "{}",
            lines[4]
        );
        assert!(lines[5].contains("takes 1 argument(s), got 2"));
        // trailing empty fields are not arguments: the argument is parsed
        assert!(
            lines[6].starts_with("error: line 10: column 22: "),
            "{}",
            lines[6]
        );
        assert_eq!((stats.operations, stats.errors), (7, 7));
        assert!(
            stats
                .summary()
                .starts_with("stats: 7 operations, 7 errors; solver: ")
        );
    }

    #[test]
    fn invalid_utf8_is_an_error_line() {
        let mut out = Vec::new();
        let input: &[u8] = b"is_empty\t{ [i] : i = \xff }\r\n# \xfe\n";
        let stats = run(&opts(), input, &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert!(
            out.starts_with("error: line 1: the line is not valid UTF-8"),
            "{out}"
        );
        assert_eq!(out.lines().count(), 1, "{out}"); // the comment is skipped
        assert_eq!(stats.errors, 1);
    }

    #[test]
    fn points_print_with_commas() {
        let p = |v: &[i64]| Answer::Point(Some(v.iter().map(|&x| Int::from(x)).collect()));
        assert_eq!(p(&[1, -2]).to_string(), "[1, -2]");
        assert_eq!(p(&[]).to_string(), "[]");
        assert_eq!(Answer::Point(None).to_string(), "none");
        assert_eq!(Answer::Bool(true).to_string(), "true");
    }
}
