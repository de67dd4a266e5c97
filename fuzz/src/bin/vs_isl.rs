//! Side-by-side timing of our library and isl on the same generated problems:
//!
//!     cargo run --release --bin vs_isl -- [FAMILY...] [--op OP] [--count N] [--seed S] [--worst K] [--cap-ms MS] [--verbose] [--dump] [--isl-chained] [--isl-read]
//!
//! Families: see `presburger_fuzz::families` (default: all). OP: `is_empty`
//! (default), `is_subset`, `is_equal`, `subtract`, `coalesce`, `lexmin`,
//! `lexmax` (the parametric optimum of one family problem: our
//! `Set::lexmin_set`/`lexmax_set` against `isl_set_lexmin`/`isl_set_lexmax`;
//! the results are compared by isl's equality on our printed result, and an
//! unbounded optimum on both sides, our `Error::Unbounded` and isl's failure
//! that is not its quota, counts as agreement; the `yes` column counts the
//! unbounded ones). Both sides parse every problem
//! before the clock starts; only the operation is timed (subtraction results are
//! compared by isl's equality on our printed result, outside the timing). One row
//! per family and an `all` row; see `fuzz/README.md` for the columns.
//!
//! Each side runs in its own child process (this binary with `--worker ours` or
//! `--worker isl`), one problem at a time and one side after the other, so that a
//! call running past the cap (`--cap-ms`) can be stopped: the child is killed and
//! restarted, and the problem counts as a `timeout` with the cap as its time. isl
//! has an operation quota as well.
//!
//! isl reads each problem with its chained comparisons split
//! (`presburger_fuzz::unchain`): isl's reader runs an integer emptiness test on
//! every intersection of multi-constraint conjuncts, so a chained problem comes
//! out of the parser already decided and its timed operation is a flag read.
//! `--isl-chained` gives isl the text as written (the parse+op table is the
//! fair comparison then).

use presburger::UnionSet;
use presburger_fuzz::families::Family;
use presburger_fuzz::isl::{Ctx, USet};
use presburger_fuzz::unchain::unchain;
use presburger_fuzz::{error_kind, Rng};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// isl's operation limit per timed call (and per check of a subtraction).
const ISL_MAX_OPERATIONS: u64 = 10_000_000;
/// Calls faster than this are repeated on fresh copies and the median is kept
/// (the same rule on both sides: a single cold call against a warm median would
/// favour whichever side is faster than the threshold).
const REPEAT_BELOW: Duration = Duration::from_micros(200);
const REPEATS: usize = 5;
/// The default cap on each side's time per problem.
const DEFAULT_CAP_MS: u64 = 1000;
/// The time allowed to isl's check of a subtraction, in caps.
const CHECK_CAPS: u32 = 10;
/// Set (by `--isl-chained`) for isl's worker to read the problems as written.
const CHAINED_ENV: &str = "VS_ISL_CHAINED";
static ISL_CHAINED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

#[derive(Clone, Copy, PartialEq, Eq)]
enum Op {
    IsEmpty,
    IsSubset,
    IsEqual,
    Subtract,
    /// Coalescing `A ∪ B` (the union formed outside the clock).
    Coalesce,
    /// The parametric lexicographic minimum of one set.
    Lexmin,
    /// The parametric lexicographic maximum of one set.
    Lexmax,
}

impl Op {
    fn parse(s: &str) -> Option<Op> {
        Some(match s {
            "is_empty" => Op::IsEmpty,
            "is_subset" => Op::IsSubset,
            "is_equal" => Op::IsEqual,
            "subtract" => Op::Subtract,
            "coalesce" => Op::Coalesce,
            "lexmin" => Op::Lexmin,
            "lexmax" => Op::Lexmax,
            _ => return None,
        })
    }

    fn name(self) -> &'static str {
        match self {
            Op::IsEmpty => "is_empty",
            Op::IsSubset => "is_subset",
            Op::IsEqual => "is_equal",
            Op::Subtract => "subtract",
            Op::Coalesce => "coalesce",
            Op::Lexmin => "lexmin",
            Op::Lexmax => "lexmax",
        }
    }

    /// The operations on one problem (no second argument).
    fn one_arg(self) -> bool {
        matches!(self, Op::IsEmpty | Op::Lexmin | Op::Lexmax)
    }

    /// The parametric lexicographic optima.
    fn lexopt(self) -> bool {
        matches!(self, Op::Lexmin | Op::Lexmax)
    }

    /// The operations whose answer is a set (checked against isl's).
    fn gives_set(self) -> bool {
        matches!(self, Op::Subtract | Op::Coalesce | Op::Lexmin | Op::Lexmax)
    }
}

/// Problems per family by default: the families where our library can spend
/// seconds per problem get fewer, to keep a run of all families short.
fn default_count(family: Family) -> usize {
    match family {
        Family::Random | Family::Lattice => 50,
        Family::BigCoef => 20,
        Family::Tiled | Family::Dependence | Family::Sdbm => 300,
    }
}

/// What one side answered.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Answer {
    Bool(bool),
    /// A subtraction's result (compared separately).
    Set,
    /// Our error (`budget`, ...) or `timeout`.
    Error(String),
    /// isl stopped: `quota` or `timeout`.
    Limit(String),
    /// Our `Error::Unbounded` of a lexicographic optimum.
    Unbounded,
    /// Another isl error.
    IslError,
}

impl Answer {
    /// The answer from its text in a worker's reply.
    fn read(text: &str) -> Answer {
        match text {
            "true" => Answer::Bool(true),
            "false" => Answer::Bool(false),
            "set" => Answer::Set,
            t if t.starts_with("set:") => Answer::Set,
            "quota" => Answer::Limit("quota".into()),
            "islerror" => Answer::IslError,
            "unbounded" => Answer::Unbounded,
            e => Answer::Error(e.trim_start_matches("error:").to_string()),
        }
    }
}

impl std::fmt::Display for Answer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Answer::Bool(b) => write!(f, "{b}"),
            Answer::Set => write!(f, "set"),
            Answer::Error(k) => write!(f, "error: {k}"),
            Answer::Limit(k) => write!(f, "isl {k}"),
            Answer::Unbounded => write!(f, "unbounded"),
            Answer::IslError => write!(f, "isl error"),
        }
    }
}

struct Record {
    family: Family,
    text: String,
    ours: Duration,
    isl: Duration,
    /// Parsing the inputs (not in the times above); `None` after a timeout.
    ours_parse: Option<Duration>,
    isl_parse: Option<Duration>,
    ours_answer: Answer,
    isl_answer: Answer,
    disagree: bool,
    /// A subtraction whose result isl could not compare with ours in time.
    unchecked: bool,
    /// The answer was true (`is_empty`, `is_subset`, `is_equal`), or the
    /// difference is empty (`subtract`, by isl), or our coalescing left no
    /// more disjuncts than isl's (`coalesce`).
    yes: bool,
    /// `coalesce`: the disjuncts left by us and by isl.
    pieces: Option<(usize, usize)>,
}

fn parse_ours(text: &str) -> UnionSet {
    text.parse()
        .unwrap_or_else(|e| panic!("our parser rejects a generated problem ({e}): {text}"))
}

fn parse_isl<'a>(ctx: &'a Ctx, text: &str) -> USet<'a> {
    ctx.reset_operations();
    ctx.union_set(text)
        .unwrap_or_else(|| panic!("isl rejects a generated problem: {text}"))
}

/// Times `f` on fresh inputs made by `prepare` (timed apart): once, or
/// `REPEATS` times when the first call is faster than `REPEAT_BELOW` (median
/// kept). Returns the time of `f`, the time of the first `prepare` and the
/// answer of the first call. Inputs and the answers of the repeats are dropped
/// after the clock stops.
fn timed<I, R>(
    mut prepare: impl FnMut() -> I,
    mut f: impl FnMut(&I) -> R,
) -> (Duration, Duration, R) {
    let t = Instant::now();
    let input = prepare();
    let parse = t.elapsed();
    let t = Instant::now();
    let r = f(&input);
    let first = t.elapsed();
    drop(input);
    if first >= REPEAT_BELOW {
        return (first, parse, r);
    }
    let mut times = vec![first];
    for _ in 1..REPEATS {
        let input = prepare();
        let t = Instant::now();
        let again = f(&input);
        times.push(t.elapsed());
        drop((again, input));
    }
    times.sort();
    (times[times.len() / 2], parse, r)
}

// ---- the workers (child processes) ----

/// A request: `OP \t A \t B \t OURS` (B empty for `is_empty`; OURS is our printed
/// difference, for isl's check of a subtraction).
fn requests() -> impl Iterator<Item = (Op, String, Option<String>, String)> {
    std::io::stdin().lines().map(|line| {
        let line = line.expect("reading a request");
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f.len(), 4, "bad request {line}");
        let op = Op::parse(f[0]).expect("an operation");
        let b = (!f[2].is_empty()).then(|| f[2].to_string());
        (op, f[1].to_string(), b, f[3].to_string())
    })
}

fn reply(out: &mut impl Write, line: &str) {
    writeln!(out, "{line}").expect("answering");
    out.flush().expect("answering");
}

/// Our side: answers each request with `NANOS \t PARSE_NANOS \t ANSWER \t
/// PRINTED` (answer `true`, `false`, `set` with our printed difference, or
/// `error:KIND`).
fn ours_worker() {
    let mut out = std::io::stdout().lock();
    for (op, a, b, _) in requests() {
        let prep = || (parse_ours(&a), b.as_deref().map(parse_ours));
        let failed = |e: presburger::Error| format!("error:{}", error_kind(&e));
        let (t, parse, answer, printed) = match op {
            Op::Coalesce => {
                // the union is formed while preparing, outside the clock
                let prep = || {
                    let (x, y) = (parse_ours(&a), parse_ours(b.as_deref().unwrap_or("{ }")));
                    x.union(&y)
                        .expect("the two sides of a problem share their space")
                };
                let (t, parse, r) = timed(prep, |u| u.coalesce());
                match r {
                    Ok(c) => {
                        let n: usize = c.members().iter().map(|m| m.n_basic()).sum();
                        let printed = c.to_string().replace(['\n', '\t'], " ");
                        (t, parse, format!("set:{n}"), printed)
                    }
                    Err(e) => (t, parse, failed(e), String::new()),
                }
            }
            Op::Lexmin | Op::Lexmax => {
                // a family problem is a set of one space
                let prep = || {
                    a.parse::<presburger::Set>().unwrap_or_else(|e| {
                        panic!("our parser rejects a generated problem ({e}): {a}")
                    })
                };
                let (t, parse, r) = timed(prep, |s| {
                    if op == Op::Lexmax {
                        s.lexmax_set()
                    } else {
                        s.lexmin_set()
                    }
                });
                match r {
                    Ok(m) => {
                        let printed = m.to_string().replace(['\n', '\t'], " ");
                        (t, parse, "set".to_string(), printed)
                    }
                    Err(presburger::Error::Unbounded(_)) => {
                        (t, parse, "unbounded".to_string(), String::new())
                    }
                    Err(e) => (t, parse, failed(e), String::new()),
                }
            }
            Op::Subtract => {
                let (t, parse, r) = timed(prep, |(x, y)| x.subtract(y.as_ref().unwrap()));
                match r {
                    Ok(d) => {
                        let printed = d.to_string().replace(['\n', '\t'], " ");
                        (t, parse, "set".to_string(), printed)
                    }
                    Err(e) => (t, parse, failed(e), String::new()),
                }
            }
            _ => {
                let (t, parse, r) = timed(prep, |(x, y)| match op {
                    Op::IsEmpty => x.is_empty(),
                    Op::IsSubset => x.is_subset(y.as_ref().unwrap()),
                    _ => x.is_equal(y.as_ref().unwrap()),
                });
                let answer = r.map_or_else(failed, |v| v.to_string());
                (t, parse, answer, String::new())
            }
        };
        let line = format!(
            "{}\t{}\t{answer}\t{printed}",
            t.as_nanos(),
            parse.as_nanos()
        );
        reply(&mut out, &line);
    }
}

/// isl's side: answers each request as [`ours_worker`] (answer `true`, `false`,
/// `set`, `quota` or `islerror`), and for a subtraction then sends a second line
/// `VERDICT \t EMPTY \t ISL_TEXT`: the comparison of our printed result with
/// isl's (`same`, `differ`, `unreadable`, `quota`, `islerror`, or `none` without
/// our result), whether isl's result is empty, and isl's result when they differ.
fn isl_worker() {
    let ctx = Ctx::new();
    ctx.set_max_operations(ISL_MAX_OPERATIONS);
    let failed = |ctx: &Ctx| if ctx.quota_hit() { "quota" } else { "islerror" };
    let mut out = std::io::stdout().lock();
    // see `presburger_fuzz::unchain` for why isl reads its problems unchained
    let chained = std::env::var_os(CHAINED_ENV).is_some();
    for (op, a, b, ours) in requests() {
        let (a, b) = if chained {
            (a, b)
        } else {
            (unchain(&a), b.map(|b| unchain(&b)))
        };
        let prep = || {
            let p = (
                parse_isl(&ctx, &a),
                b.as_deref().map(|b| parse_isl(&ctx, b)),
            );
            ctx.reset_operations();
            p
        };
        if !op.gives_set() {
            let (t, parse, r) = timed(prep, |(x, y)| match op {
                Op::IsEmpty => x.is_empty(),
                Op::IsSubset => x.is_subset(y.as_ref().unwrap()),
                _ => x.is_equal(y.as_ref().unwrap()),
            });
            let answer = r.map_or_else(|| failed(&ctx).to_string(), |v| v.to_string());
            let line = format!("{}\t{}\t{answer}\t", t.as_nanos(), parse.as_nanos());
            reply(&mut out, &line);
            continue;
        }
        if op.lexopt() {
            isl_lexopt(&ctx, &mut out, op == Op::Lexmax, &a, &ours);
            continue;
        }
        // the result of the first call is kept for the check
        let mut theirs: Option<Option<USet>> = None;
        let (t, parse, ()) = if op == Op::Coalesce {
            // the union is formed while preparing, outside the clock
            let prep = || {
                let (x, y) = prep();
                let u = x.union(y.as_ref().unwrap());
                ctx.reset_operations();
                u
            };
            timed(prep, |u| {
                let r = u.as_ref().and_then(|u| u.coalesce());
                if theirs.is_none() {
                    theirs = Some(r);
                }
            })
        } else {
            timed(prep, |(x, y)| {
                let r = x.subtract(y.as_ref().unwrap());
                if theirs.is_none() {
                    theirs = Some(r);
                }
            })
        };
        let theirs = theirs.flatten();
        let answer = if theirs.is_some() {
            "set"
        } else {
            failed(&ctx)
        };
        reply(
            &mut out,
            &format!("{}\t{}\t{answer}\t", t.as_nanos(), parse.as_nanos()),
        );
        let Some(th) = theirs else {
            reply(&mut out, "none\t\t");
            continue;
        };
        ctx.reset_operations();
        // (for a coalescing: the disjuncts isl left)
        let empty = if op == Op::Coalesce {
            th.n_basic_sets().map_or(String::new(), |n| n.to_string())
        } else {
            match th.is_empty() {
                Some(e) => e.to_string(),
                None => String::new(),
            }
        };
        let verdict = if ours.is_empty() {
            "none"
        } else {
            ctx.reset_operations();
            match ctx.union_set(&ours).map(|o| o.is_equal(&th)) {
                Some(Some(true)) => "same",
                Some(Some(false)) => "differ",
                None if !ctx.quota_hit() => "unreadable",
                _ => failed(&ctx),
            }
        };
        let text = if verdict == "differ" || verdict == "unreadable" {
            th.to_text().replace(['\n', '\t'], " ")
        } else {
            String::new()
        };
        reply(&mut out, &format!("{verdict}\t{empty}\t{text}"));
    }
}

/// isl's side of `lexmin`/`lexmax`, answered as a subtraction in
/// [`isl_worker`]: `isl_set_lexmin`/`isl_set_lexmax` of the set read by
/// `isl_set_read_from_str` (answer `set`, `quota`, or `islerror`, which is
/// isl's answer to an unbounded optimum), then the check line (`EMPTY` is
/// empty).
fn isl_lexopt(ctx: &Ctx, out: &mut impl Write, maximize: bool, a: &str, ours: &str) {
    let failed = |ctx: &Ctx| if ctx.quota_hit() { "quota" } else { "islerror" };
    let prep = || {
        ctx.reset_operations();
        let s = ctx
            .read_set(a)
            .unwrap_or_else(|| panic!("isl rejects a generated problem: {a}"));
        ctx.reset_operations();
        s
    };
    let mut theirs = None;
    let (t, parse, ()) = timed(prep, |s| {
        let r = s.lexopt(maximize);
        if theirs.is_none() {
            theirs = Some(r);
        }
    });
    let theirs = theirs.flatten();
    let answer = if theirs.is_some() { "set" } else { failed(ctx) };
    reply(
        out,
        &format!("{}\t{}\t{answer}\t", t.as_nanos(), parse.as_nanos()),
    );
    let Some(th) = theirs else {
        reply(out, "none\t\t");
        return;
    };
    let verdict = if ours.is_empty() {
        "none"
    } else {
        ctx.reset_operations();
        match ctx.read_set(ours).map(|o| o.is_equal(&th)) {
            Some(Some(true)) => "same",
            Some(Some(false)) => "differ",
            None if !ctx.quota_hit() => "unreadable",
            _ => failed(ctx),
        }
    };
    let text = if verdict == "differ" || verdict == "unreadable" {
        th.to_text().replace(['\n', '\t'], " ")
    } else {
        String::new()
    };
    reply(out, &format!("{verdict}\t\t{text}"));
}

/// A worker process seen from the parent.
struct Worker {
    side: &'static str,
    child: Child,
    input: ChildStdin,
    output: Receiver<String>,
}

/// A worker's first reply to a request.
struct Reply {
    time: Duration,
    parse: Duration,
    answer: Answer,
    /// The answer as the worker wrote it.
    answer_text: String,
    /// Our printed difference.
    printed: String,
}

impl Worker {
    fn start(side: &'static str) -> Worker {
        let exe = std::env::current_exe().expect("the path of this binary");
        let mut cmd = Command::new(exe);
        if ISL_CHAINED.load(std::sync::atomic::Ordering::Relaxed) {
            cmd.env(CHAINED_ENV, "1");
        }
        let mut child = cmd
            .args(["--worker", side])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("starting a worker");
        let input = child.stdin.take().expect("worker stdin");
        let stdout = child.stdout.take().expect("worker stdout");
        let (tx, output) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Worker {
            side,
            child,
            input,
            output,
        }
    }

    /// Sends a request and returns the first line of the reply, or `None` past
    /// `cap` (the worker is then restarted).
    fn ask(
        &mut self,
        op: Op,
        a: &str,
        b: Option<&str>,
        ours: &str,
        cap: Option<Duration>,
    ) -> Option<Reply> {
        let b = b.unwrap_or("");
        writeln!(self.input, "{}\t{a}\t{b}\t{ours}", op.name()).expect("sending a problem");
        self.input.flush().expect("sending a problem");
        let line = self.line(cap)?;
        let f: Vec<&str> = line.splitn(4, '\t').collect();
        let nanos = |k: usize| Duration::from_nanos(f[k].parse().expect("a time"));
        Some(Reply {
            time: nanos(0),
            parse: nanos(1),
            answer: Answer::read(f[2]),
            answer_text: f[2].to_string(),
            printed: f.get(3).unwrap_or(&"").to_string(),
        })
    }

    /// The next line of the reply, or `None` past `cap` (the worker is then
    /// restarted).
    fn line(&mut self, cap: Option<Duration>) -> Option<String> {
        let side = self.side;
        let died = move || -> ! { panic!("the {side} worker died") };
        match cap {
            Some(cap) => match self.output.recv_timeout(cap) {
                Ok(line) => Some(line),
                Err(RecvTimeoutError::Timeout) => {
                    self.restart();
                    None
                }
                Err(RecvTimeoutError::Disconnected) => died(),
            },
            None => Some(self.output.recv().unwrap_or_else(|_| died())),
        }
    }

    fn restart(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        *self = Worker::start(self.side);
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

// ---- one problem ----

/// Times `op` on `a` (and `b`, for the two-argument operations): ours, then isl.
fn run_one(
    workers: &mut (Worker, Worker),
    cap: Option<Duration>,
    op: Op,
    family: Family,
    a: &str,
    b: Option<&str>,
) -> Record {
    let text = match b {
        None => a.to_string(),
        Some(b) => format!("A = {a}\nB = {b}"),
    };
    let timeout = |side: fn(String) -> Answer| Reply {
        time: cap.unwrap_or_default(),
        parse: Duration::ZERO,
        answer: side("timeout".into()),
        answer_text: String::new(),
        printed: String::new(),
    };
    let ours = workers.0.ask(op, a, b, "", cap);
    let ours_parse = ours.as_ref().map(|r| r.parse);
    let ours = ours.unwrap_or_else(|| timeout(Answer::Error));
    let isl = workers.1.ask(op, a, b, &ours.printed, cap);
    let isl_parse = isl.as_ref().map(|r| r.parse);
    let isl = isl.unwrap_or_else(|| timeout(Answer::Limit));
    let mut pieces = None;
    let (disagree, unchecked, yes) = if !op.gives_set() {
        let differ = matches!((&ours.answer, &isl.answer),
            (Answer::Bool(x), Answer::Bool(y)) if x != y);
        let yes = [&ours.answer, &isl.answer].contains(&&Answer::Bool(true));
        (differ, false, yes)
    } else if isl_parse.is_none() {
        // isl timed out: no check line
        (false, ours.answer == Answer::Set, false)
    } else {
        match workers.1.line(cap.map(|c| c * CHECK_CAPS)) {
            None => (false, ours.answer == Answer::Set, false),
            Some(line) => {
                let f: Vec<&str> = line.splitn(3, '\t').collect();
                let mut yes = f[1] == "true";
                if op == Op::Coalesce {
                    let ours_n = coalesced_pieces(&ours.answer_text);
                    if let (Some(o), Ok(i)) = (ours_n, f[1].parse::<usize>()) {
                        pieces = Some((o, i));
                        yes = o <= i;
                    }
                }
                match f[0] {
                    "same" => (false, false, yes),
                    "differ" | "unreadable" => {
                        eprintln!("  ours: {}\n  isl:  {}", ours.printed, f[2]);
                        if f[0] == "unreadable" {
                            eprintln!("  (isl cannot read our result)");
                        }
                        (true, false, yes)
                    }
                    _ => (false, ours.answer == Answer::Set, yes),
                }
            }
        }
    };
    let (disagree, yes) = if op.lexopt() {
        // an unbounded optimum: our error, isl's failure (not its quota)
        let unbounded = ours.answer == Answer::Unbounded;
        let differ = match (&ours.answer, &isl.answer) {
            (Answer::Unbounded, Answer::Set) | (Answer::Set, Answer::IslError) => true,
            _ => disagree,
        };
        (differ, unbounded || isl.answer == Answer::IslError)
    } else {
        (disagree, yes)
    };
    if disagree {
        eprintln!(
            "DISAGREEMENT ({}, {}): ours {}, isl {}\n{text}\n",
            family.name(),
            op.name(),
            ours.answer,
            isl.answer
        );
    }
    Record {
        family,
        text,
        ours: ours.time,
        isl: isl.time,
        ours_parse,
        isl_parse,
        ours_answer: ours.answer,
        isl_answer: isl.answer,
        disagree,
        unchecked,
        yes,
        pieces,
    }
}

/// The disjuncts our coalescing left, from its answer text `set:N`.
fn coalesced_pieces(answer: &str) -> Option<usize> {
    answer.strip_prefix("set:")?.parse().ok()
}

// ---- the table ----

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

/// A number with about 3 significant digits (no decimals from 100 on).
fn fmt_num(x: f64) -> String {
    if !x.is_finite() {
        "-".into()
    } else if x < 10.0 {
        format!("{x:.2}")
    } else if x < 100.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.0}")
    }
}

struct Stats {
    total: f64,
    median: f64,
    p90: f64,
    max: f64,
}

fn stats(mut v: Vec<f64>) -> Stats {
    if v.is_empty() {
        return Stats {
            total: 0.0,
            median: 0.0,
            p90: 0.0,
            max: 0.0,
        };
    }
    v.sort_by(|a, b| a.total_cmp(b));
    let at = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
    Stats {
        total: v.iter().sum(),
        median: at(0.5),
        p90: at(0.9),
        max: v[v.len() - 1],
    }
}

const HEADER: [&str; 16] = [
    "family",
    "n",
    "yes",
    "ours total",
    "median",
    "p90",
    "max",
    "isl total",
    "median",
    "p90",
    "max",
    "total x",
    "median x",
    "errors",
    "isl limit",
    "differ",
];

fn row(name: &str, recs: &[&Record]) -> Vec<String> {
    let o = stats(recs.iter().map(|r| us(r.ours)).collect());
    let i = stats(recs.iter().map(|r| us(r.isl)).collect());
    let count = |f: &dyn Fn(&Record) -> bool| recs.iter().filter(|r| f(r)).count().to_string();
    vec![
        name.to_string(),
        recs.len().to_string(),
        count(&|r| r.yes),
        fmt_num(o.total),
        fmt_num(o.median),
        fmt_num(o.p90),
        fmt_num(o.max),
        fmt_num(i.total),
        fmt_num(i.median),
        fmt_num(i.p90),
        fmt_num(i.max),
        fmt_num(o.total / i.total),
        fmt_num(o.median / i.median),
        count(&|r| matches!(r.ours_answer, Answer::Error(_))),
        count(&|r| matches!(r.isl_answer, Answer::Limit(_))),
        count(&|r| r.disagree),
    ]
}

/// The parse times of a family (not in the main table), the median ratio, and
/// the totals of parsing and the operation together (isl does part of its work
/// while reading: it simplifies, and may find a set empty, before the operation
/// is called).
fn parse_row(name: &str, recs: &[&Record]) -> Vec<String> {
    // a timed-out call has no parse time
    let recs: Vec<(Duration, Duration, Duration, Duration)> = recs
        .iter()
        .filter_map(|r| Some((r.ours_parse?, r.isl_parse?, r.ours, r.isl)))
        .collect();
    let o = stats(recs.iter().map(|r| us(r.0)).collect());
    let i = stats(recs.iter().map(|r| us(r.1)).collect());
    let o_both = stats(recs.iter().map(|r| us(r.0 + r.2)).collect());
    let i_both = stats(recs.iter().map(|r| us(r.1 + r.3)).collect());
    vec![
        name.to_string(),
        recs.len().to_string(),
        fmt_num(o.total),
        fmt_num(o.median),
        fmt_num(i.total),
        fmt_num(i.median),
        fmt_num(o.median / i.median),
        fmt_num(o_both.total),
        fmt_num(i_both.total),
        fmt_num(o_both.total / i_both.total),
    ]
}

const PARSE_HEADER: [&str; 10] = [
    "parsing",
    "n",
    "ours total",
    "median",
    "isl total",
    "median",
    "median x",
    "ours parse+op",
    "isl parse+op",
    "total x",
];

/// One table row per family, then the `all` row, made by `row`.
fn family_rows(
    families: &[Family],
    records: &[Record],
    row: fn(&str, &[&Record]) -> Vec<String>,
) -> Vec<Vec<String>> {
    let mut rows: Vec<Vec<String>> = families
        .iter()
        .map(|&family| {
            let recs: Vec<&Record> = records.iter().filter(|r| r.family == family).collect();
            row(family.name(), &recs)
        })
        .collect();
    rows.push(row("all", &records.iter().collect::<Vec<_>>()));
    rows
}

fn print_table(head: &[&str], rows: &[Vec<String>]) {
    let head: Vec<String> = head.iter().map(|s| s.to_string()).collect();
    let all: Vec<&Vec<String>> = std::iter::once(&head).chain(rows).collect();
    let widths: Vec<usize> = (0..head.len())
        .map(|c| all.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    for (k, r) in all.iter().enumerate() {
        let line: Vec<String> = r
            .iter()
            .enumerate()
            .map(|(c, s)| {
                if c == 0 {
                    format!("{s:<w$}", w = widths[c])
                } else {
                    format!("{s:>w$}", w = widths[c])
                }
            })
            .collect();
        println!("{}", line.join("  ").trim_end());
        if k == 0 || k == all.len() - 2 {
            println!(
                "{}",
                "-".repeat(widths.iter().sum::<usize>() + 2 * (widths.len() - 1))
            );
        }
    }
}

fn print_problem(r: &Record) {
    println!(
        "[{}] ours {} µs ({}), isl {} µs ({})\n{}\n",
        r.family.name(),
        fmt_num(us(r.ours)),
        r.ours_answer,
        fmt_num(us(r.isl)),
        r.isl_answer,
        r.text
    );
}

/// The problems of a run, family by family: one generator per family, so
/// choosing families does not change the problems.
fn problems(
    families: &[Family],
    op: Op,
    seed: u64,
    count: Option<usize>,
) -> Vec<(Family, String, Option<String>)> {
    let mut out = Vec::new();
    for &family in families {
        let index = Family::ALL.iter().position(|&f| f == family).unwrap() as u64;
        let mut rng = Rng::new(seed.wrapping_mul(1_000_003).wrapping_add(index + 1));
        for _ in 0..count.unwrap_or(default_count(family)) {
            if op.one_arg() {
                out.push((family, family.problem(&mut rng), None));
            } else {
                let (a, b) = family.pair(&mut rng);
                out.push((family, a, Some(b)));
            }
        }
    }
    out
}

/// Most rounds of [`isl_reading`].
const READ_ROUNDS: usize = 8;

/// isl's reading of `a ∪ b` (`--isl-read`), in our notation: read by isl
/// with chains split ([`unchain`]), united, printed by isl, read by our
/// parser and printed by ours (the notation [`unchain`] knows); then read
/// by isl again the same way until the text no longer changes, or comes
/// back to a text seen before (at most [`READ_ROUNDS`] rounds, each within
/// isl's operation quota). isl's reader does work of its own (exact
/// integer emptiness tests of intersections, elimination of existentials:
/// on the tiled family it turns two disjuncts with existentials into
/// `{ [t0 = 0, o0] : 16 <= o0 <= 23 }`); at the fixed point it has
/// nothing left to do, so both sides get the same sets and only the timed
/// operation differs. `None` when isl or our parser fails, or the text
/// does not settle.
fn isl_reading(a: &str, b: &str) -> Option<String> {
    let ctx = Ctx::new();
    ctx.set_max_operations(ISL_MAX_OPERATIONS);
    ctx.reset_operations();
    let ours = |isl_text: String| -> Option<String> {
        Some(isl_text.parse::<UnionSet>().ok()?.to_string())
    };
    let ua = ctx.union_set(&unchain(a))?;
    let ub = ctx.union_set(&unchain(b))?;
    let mut text = ours(ua.union(&ub)?.to_text())?;
    let mut seen = Vec::new();
    for _ in 0..READ_ROUNDS {
        ctx.reset_operations();
        let again = ours(ctx.union_set(&unchain(&text))?.to_text())?;
        if again == text || seen.contains(&again) {
            return Some(text);
        }
        seen.push(std::mem::replace(&mut text, again));
    }
    None
}

fn usage() -> ! {
    let names: Vec<&str> = Family::ALL.iter().map(|f| f.name()).collect();
    eprintln!(
        "usage: vs_isl [FAMILY...] [--op is_empty|is_subset|is_equal|subtract|coalesce|lexmin|lexmax] [--count N] \
         [--seed S] [--worst K] [--cap-ms MS] [--verbose] [--dump] [--isl-chained] [--isl-read]\nfamilies: {}",
        names.join(" ")
    );
    std::process::exit(2)
}

fn main() {
    // isl is single-threaded; our set algebra uses rayon for independent pieces
    // (the workers inherit this)
    if std::env::var_os("RAYON_NUM_THREADS").is_none() {
        std::env::set_var("RAYON_NUM_THREADS", "1");
    }
    let mut families = Vec::new();
    let mut op = Op::IsEmpty;
    let mut count: Option<usize> = None;
    let mut seed = 1u64;
    let mut worst = 0usize;
    let mut cap_ms = DEFAULT_CAP_MS;
    let mut verbose = false;
    let mut dump = false;
    let mut isl_read = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| usage());
        match a.as_str() {
            "--worker" => {
                return match value().as_str() {
                    "ours" => ours_worker(),
                    "isl" => isl_worker(),
                    _ => usage(),
                }
            }
            "--op" => op = Op::parse(&value()).unwrap_or_else(|| usage()),
            "--count" => count = Some(value().parse().unwrap_or_else(|_| usage())),
            "--seed" => seed = value().parse().unwrap_or_else(|_| usage()),
            "--worst" => worst = value().parse().unwrap_or_else(|_| usage()),
            "--cap-ms" => cap_ms = value().parse().unwrap_or_else(|_| usage()),
            "-v" | "--verbose" => verbose = true,
            "--dump" => dump = true,
            "--isl-chained" => ISL_CHAINED.store(true, std::sync::atomic::Ordering::Relaxed),
            "--isl-read" => isl_read = true,
            "-h" | "--help" => usage(),
            f => families.push(Family::from_name(f).unwrap_or_else(|| usage())),
        }
    }
    if families.is_empty() {
        families = Family::ALL.to_vec();
    }
    let mut problems = problems(&families, op, seed, count);
    if isl_read {
        if op != Op::Coalesce {
            eprintln!("vs_isl: --isl-read is for --op coalesce");
            std::process::exit(2);
        }
        let mut kept = 0usize;
        for (_, a, b) in &mut problems {
            if let Some(read) = isl_reading(a, b.as_deref().unwrap_or("{ }")) {
                *a = read;
                *b = Some("{ }".to_string());
            } else {
                kept += 1;
            }
        }
        println!(
            "--isl-read: every problem replaced by isl's reading of A ∪ B (B empty){}",
            if kept > 0 {
                format!("; {kept} kept as generated (isl's reading did not settle)")
            } else {
                String::new()
            }
        );
    }
    if dump {
        // the problems only, one per line (`FAMILY \t OP \t A \t B`), for
        // `cargo run --release -p benches --bin replay` under a profiler
        for (family, a, b) in &problems {
            let b = b.as_deref().unwrap_or("");
            println!("{}\t{}\t{a}\t{b}", family.name(), op.name());
        }
        return;
    }
    let cap = (cap_ms > 0).then(|| Duration::from_millis(cap_ms));
    let counts: Vec<String> = families
        .iter()
        .map(|&f| format!("{} {}", f.name(), count.unwrap_or(default_count(f))))
        .collect();
    println!(
        "vs_isl: op {}, seed {seed}, problems: {}; RAYON_NUM_THREADS={}, cap per call {}, \
         isl quota {ISL_MAX_OPERATIONS} operations; times in µs",
        op.name(),
        counts.join(", "),
        std::env::var("RAYON_NUM_THREADS").unwrap_or_default(),
        if cap_ms > 0 {
            format!("{cap_ms} ms")
        } else {
            "none".into()
        },
    );
    let start = Instant::now();
    let mut workers = (Worker::start("ours"), Worker::start("isl"));
    let mut records = Vec::new();
    for (k, (family, a, b)) in problems.iter().enumerate() {
        let family = *family;
        let r = run_one(&mut workers, cap, op, family, a, b.as_deref());
        if verbose {
            eprintln!(
                "{} #{k}: ours {} µs ({}), isl {} µs ({})",
                family.name(),
                fmt_num(us(r.ours)),
                r.ours_answer,
                fmt_num(us(r.isl)),
                r.isl_answer
            );
        }
        records.push(r);
    }
    print_table(&HEADER, &family_rows(&families, &records, row));
    let mut kinds: std::collections::BTreeMap<&str, usize> = Default::default();
    for r in &records {
        if let Answer::Error(k) = &r.ours_answer {
            *kinds.entry(k.as_str()).or_default() += 1;
        }
    }
    if !kinds.is_empty() {
        let list: Vec<String> = kinds.iter().map(|(k, n)| format!("{k} {n}")).collect();
        println!(
            "our errors: {}{}",
            list.join(", "),
            if kinds.contains_key("timeout") {
                " (a timeout counts as the cap in the times, on either side)"
            } else {
                ""
            }
        );
    }
    let mut limits: std::collections::BTreeMap<String, usize> = Default::default();
    for r in &records {
        match &r.isl_answer {
            Answer::Limit(k) => *limits.entry(k.clone()).or_default() += 1,
            // isl's answer to an unbounded optimum
            Answer::IslError if op.lexopt() => {
                *limits.entry("error (unbounded)".into()).or_default() += 1
            }
            Answer::IslError => *limits.entry("other error".into()).or_default() += 1,
            _ => {}
        }
    }
    if !limits.is_empty() {
        let list: Vec<String> = limits.iter().map(|(k, n)| format!("{k} {n}")).collect();
        println!("isl stopped: {}", list.join(", "));
    }
    let unchecked = records.iter().filter(|r| r.unchecked).count();
    if unchecked > 0 {
        println!("results not checked (isl stopped or its check ran out of time): {unchecked}");
    }
    if op == Op::Coalesce {
        println!("\ndisjuncts left (problems both sides finished):");
        for &family in &families {
            let p: Vec<(usize, usize)> = records
                .iter()
                .filter(|r| r.family == family)
                .filter_map(|r| r.pieces)
                .collect();
            let (o, i): (usize, usize) = p.iter().fold((0, 0), |(a, b), (x, y)| (a + x, b + y));
            let worse = p.iter().filter(|(x, y)| x > y).count();
            let better = p.iter().filter(|(x, y)| x < y).count();
            println!(
                "{:<10} n {:>4}  ours {o:>6}  isl {i:>6}  more than isl on {worse}, fewer on {better}",
                family.name(),
                p.len()
            );
        }
    }
    println!(
        "\nparsing both inputs (not in the times above; without the timed-out problems), \
         and parsing with the operation:"
    );
    print_table(&PARSE_HEADER, &family_rows(&families, &records, parse_row));
    println!("\nelapsed {:.1} s", start.elapsed().as_secs_f64());
    if worst > 0 {
        let mut by_ours: Vec<&Record> = records.iter().collect();
        // ties (at the cap) by isl's time, fastest first
        by_ours.sort_by(|a, b| b.ours.cmp(&a.ours).then(a.isl.cmp(&b.isl)));
        println!("\nslowest {worst} for us:\n");
        for r in by_ours.iter().take(worst) {
            print_problem(r);
        }
        let slow: Vec<&&Record> = by_ours
            .iter()
            .filter(|r| r.ours > Duration::from_millis(1) && r.isl < Duration::from_micros(500))
            .collect();
        println!("ours > 1 ms while isl < 0.5 ms: {} problems\n", slow.len());
        for r in slow {
            print_problem(r);
        }
    }
    drop(workers);
    if records.iter().any(|r| r.disagree) {
        std::process::exit(1);
    }
}
