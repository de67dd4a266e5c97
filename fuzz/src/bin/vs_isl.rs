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
//!
//! The tail hunter:
//!
//!     cargo run --release --bin vs_isl -- --hunt [FAMILY...] [--seconds S] [--seed N] [--op OP ...] [--cap-ms MS] [--verbose]
//!
//! generates problems of every family (or of those named) with the widened
//! generators of `presburger_fuzz::hunt` (more disjuncts, 2–6 locals,
//! near-parallel rows, perturbation pairs, unions of 8–64 tiles), cycling
//! through the operations (`--op`, repeated or comma-separated; by default
//! `is_empty`, `is_subset`, `is_equal`, `subtract` twice per round,
//! `coalesce` of `A ∪ B` and `lexmin` once) and the families, and times each
//! problem alone on both sides with the same workers, cap and quota (but isl
//! is stopped at half our time and 50 ms once ours answered: it could not
//! make a tail any more). Each side's time there is its parsing and the
//! operation (isl's reader decides part of a problem with `exists` while
//! reading). A problem where ours took more than 10 times isl's time and
//! more than 1 ms (a tail), where we failed (error, budget, cap, crash) and
//! isl answered, or where the answers differ, is printed at once as one
//! `poly batch` line (`OP \t A [\t B]`, a subtraction as `subtract_is_empty`;
//! the hunt's `lexmin` is `poly batch`'s: the point of a set without
//! parameters, the parametric optimum otherwise) and a comment line
//! `# family=... shape=... ours=...ms isl=...ms ratio=...`. After `--seconds`
//! (default 60; no problem is started later) it prints the problems, tails
//! and failures per family and operation and the 20 worst ratios (with the
//! reproducers of those not reported yet). Everything else is printed as `#`
//! comments, so the whole output is `poly batch` input. Problem `K` of seed
//! `N` is the same in every run (`--hunt --dump --count C` prints the first
//! `C` without timing them). The reproducers worth keeping go to
//! `fuzz/tails/regressions.batch`, replayed by `tests/tails.rs`.

use presburger::UnionSet;
use presburger_fuzz::families::Family;
use presburger_fuzz::isl::{Ctx, USet};
use presburger_fuzz::unchain::unchain;
use presburger_fuzz::{Rng, error_kind};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
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
    /// `poly batch`'s lexicographic minimum (the hunt's `lexmin`): the point
    /// (`Set::lexmin`) of a set without parameters, else as [`Op::Lexmin`].
    BatchLexmin,
    /// As [`Op::BatchLexmin`], the maximum.
    BatchLexmax,
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
            "batch_lexmin" => Op::BatchLexmin,
            "batch_lexmax" => Op::BatchLexmax,
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
            Op::BatchLexmin => "batch_lexmin",
            Op::BatchLexmax => "batch_lexmax",
        }
    }

    /// The name of the operation in `poly batch` (and in the hunt's output).
    fn batch_name(self) -> &'static str {
        match self {
            Op::Subtract => "subtract_is_empty",
            Op::BatchLexmin => "lexmin",
            Op::BatchLexmax => "lexmax",
            _ => self.name(),
        }
    }

    /// The name in the hunt's output (the hunt's `lexmin` is `poly batch`'s).
    fn hunt_name(self) -> &'static str {
        match self {
            Op::BatchLexmin => "lexmin",
            Op::BatchLexmax => "lexmax",
            _ => self.name(),
        }
    }

    /// The maxima.
    fn maximize(self) -> bool {
        matches!(self, Op::Lexmax | Op::BatchLexmax)
    }

    /// The operations on one problem (no second argument).
    fn one_arg(self) -> bool {
        self == Op::IsEmpty || self.lexopt()
    }

    /// The lexicographic optima.
    fn lexopt(self) -> bool {
        matches!(
            self,
            Op::Lexmin | Op::Lexmax | Op::BatchLexmin | Op::BatchLexmax
        )
    }

    /// The operations whose answer is a set (checked against isl's).
    fn gives_set(self) -> bool {
        matches!(self, Op::Subtract | Op::Coalesce) || self.lexopt()
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
            Op::Lexmin | Op::Lexmax | Op::BatchLexmin | Op::BatchLexmax => {
                // a family problem is a set of one space
                let prep = || {
                    a.parse::<presburger::Set>().unwrap_or_else(|e| {
                        panic!("our parser rejects a generated problem ({e}): {a}")
                    })
                };
                let max = op.maximize();
                let point = matches!(op, Op::BatchLexmin | Op::BatchLexmax)
                    && prep().space().n_param() == 0;
                let (t, parse, r) = if point {
                    // `poly batch`'s optimum, the point, made a set outside the clock
                    let (t, parse, r) = timed(prep, |s| if max { s.lexmax() } else { s.lexmin() });
                    let r = r.and_then(|p| {
                        let s = prep();
                        match p {
                            Some(p) => presburger::Set::from_point(s.space(), &p),
                            None => presburger::Set::empty(s.space().clone()),
                        }
                    });
                    (t, parse, r)
                } else {
                    timed(prep, |s| if max { s.lexmax_set() } else { s.lexmin_set() })
                };
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
            isl_lexopt(&ctx, &mut out, op.maximize(), &a, &ours);
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
/// isl's cap is `isl_cap` of our reply (`cap` itself in the default mode), and
/// its check of a result (a set) against ours is stopped after `check_cap`.
#[allow(clippy::too_many_arguments)]
fn run_one(
    workers: &mut (Worker, Worker),
    cap: Option<Duration>,
    isl_cap: &dyn Fn(&Reply) -> Option<Duration>,
    check_cap: Option<Duration>,
    op: Op,
    family: Family,
    a: &str,
    b: Option<&str>,
) -> Record {
    let text = match b {
        None => a.to_string(),
        Some(b) => format!("A = {a}\nB = {b}"),
    };
    let timeout = |side: fn(String) -> Answer, cap: Option<Duration>| Reply {
        time: cap.unwrap_or_default(),
        parse: Duration::ZERO,
        answer: side("timeout".into()),
        answer_text: String::new(),
        printed: String::new(),
    };
    let ours = workers.0.ask(op, a, b, "", cap);
    let ours_parse = ours.as_ref().map(|r| r.parse);
    let ours = ours.unwrap_or_else(|| timeout(Answer::Error, cap));
    let isl_cap = isl_cap(&ours);
    let isl = workers.1.ask(op, a, b, &ours.printed, isl_cap);
    let isl_parse = isl.as_ref().map(|r| r.parse);
    let isl = isl.unwrap_or_else(|| timeout(Answer::Limit, isl_cap));
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
        match workers.1.line(check_cap) {
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
    for line in table_lines(head, rows, true) {
        println!("{line}");
    }
}

/// The lines of a table: the header, a rule, the rows (columns aligned, the
/// first to the left), and with `total` a rule before the last row.
fn table_lines(head: &[&str], rows: &[Vec<String>], total: bool) -> Vec<String> {
    let mut out = Vec::new();
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
        out.push(line.join("  ").trim_end().to_string());
        if k == 0 || (total && k == all.len() - 2) {
            out.push("-".repeat(widths.iter().sum::<usize>() + 2 * (widths.len() - 1)));
        }
    }
    out
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

// ---- the tail hunter (`--hunt`) ----

/// The operations `--hunt` cycles through by default: the four of the issue
/// twice per round, the parametric optimum and coalescing once.
const HUNT_OPS: [Op; 10] = [
    Op::IsEmpty,
    Op::IsSubset,
    Op::IsEqual,
    Op::Subtract,
    Op::IsEmpty,
    Op::IsSubset,
    Op::IsEqual,
    Op::Subtract,
    Op::Coalesce,
    Op::BatchLexmin,
];
/// A tail: ours took more than this many times isl's time...
const TAIL_RATIO: f64 = 10.0;
/// ... and more than this.
const TAIL_MIN: Duration = Duration::from_millis(1);
/// Problems shown in the table of the worst ratios.
const HUNT_WORST: usize = 20;
/// isl's cap past our answer is half our time and this (see [`hunt`]).
const HUNT_ISL_SLACK: Duration = Duration::from_millis(50);
/// A progress line (a comment) this often.
const HUNT_PROGRESS: Duration = Duration::from_secs(60);

/// What the hunter found on one problem.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Found {
    /// Nothing to report.
    Fine,
    /// Ours took more than [`TAIL_RATIO`] times isl's time and [`TAIL_MIN`].
    Tail,
    /// We failed (an error, the budget, the cap, a crash) where isl answered.
    Failure,
    /// The two answers differ.
    Disagree,
}

/// One problem of the hunt, as the summary needs it.
struct Hunted {
    index: u64,
    family: Family,
    op: Op,
    shape: String,
    /// Parsing and the operation.
    ours: Duration,
    isl: Duration,
    /// The operation alone.
    op_ours: Duration,
    op_isl: Duration,
    ours_answer: Answer,
    isl_answer: Answer,
    found: Found,
    /// isl's check of our result set did not finish.
    unchecked: bool,
    /// The `poly batch` line, kept where ours took more than [`TAIL_MIN`].
    batch: Option<String>,
}

impl Hunted {
    fn ratio(&self) -> f64 {
        self.ours.as_secs_f64() / self.isl.as_secs_f64().max(1e-9)
    }

    /// isl answered (an unbounded optimum is isl's error).
    fn isl_answered(&self) -> bool {
        matches!(self.isl_answer, Answer::Bool(_) | Answer::Set)
            || (self.op.lexopt() && self.isl_answer == Answer::IslError)
    }

    fn op_ratio(&self) -> f64 {
        self.op_ours.as_secs_f64() / self.op_isl.as_secs_f64().max(1e-9)
    }
}

/// The problem of index `k` of a hunt: the family and the operation cycle
/// (every pair of them once in `families × ops` problems), the generator is
/// seeded by `seed` and `k` alone, so a problem can be made again from its
/// index.
fn hunt_problem(
    families: &[Family],
    ops: &[Op],
    seed: u64,
    k: u64,
) -> (Family, Op, presburger_fuzz::hunt::Problem) {
    use presburger_fuzz::hunt;
    let family = families[(k % families.len() as u64) as usize];
    let op = ops[((k / families.len() as u64) % ops.len() as u64) as usize];
    let mut rng = Rng::new(
        seed.wrapping_mul(0x2545_F491_4F6C_DD1D)
            .wrapping_add(k)
            .wrapping_add(0x4855_4E54),
    );
    for _ in 0..4 {
        rng.next_u64();
    }
    let p = match op {
        Op::IsEmpty | Op::Lexmin | Op::Lexmax | Op::BatchLexmin | Op::BatchLexmax => {
            hunt::single(family, &mut rng)
        }
        Op::Coalesce => hunt::union_of_pair(family, &mut rng),
        _ => hunt::pair(family, &mut rng),
    };
    (family, op, p)
}

/// The `poly batch` line of a problem: `OP \t A [\t B]` (a subtraction as
/// `subtract_is_empty`).
fn batch_line(op: Op, a: &str, b: Option<&str>) -> String {
    let name = op.batch_name();
    match b {
        Some(b) if !op.one_arg() && op != Op::Coalesce => format!("{name}\t{a}\t{b}"),
        _ => format!("{name}\t{a}"),
    }
}

/// A time in ms with 3 decimals.
fn ms(d: Duration) -> String {
    format!("{:.3}", d.as_secs_f64() * 1e3)
}

/// `--hunt`: see the module documentation and `fuzz/README.md`. Everything
/// but the reproducers is printed as `#` comments, so the whole output is
/// `poly batch` input. Returns the exit status (1 after a disagreement).
fn hunt(
    families: &[Family],
    ops: &[Op],
    seed: u64,
    seconds: u64,
    cap: Option<Duration>,
    verbose: bool,
) -> i32 {
    let op_names: Vec<&str> = ops.iter().map(|o| o.hunt_name()).collect();
    let family_names: Vec<&str> = families.iter().map(|f| f.name()).collect();
    println!(
        "# vs_isl --hunt: seed {seed}, {seconds} s, families {}, ops {}; cap per call {}, \
         isl quota {ISL_MAX_OPERATIONS} operations, RAYON_NUM_THREADS={}",
        family_names.join(" "),
        op_names.join(" "),
        cap.map_or("none".to_string(), |c| format!("{} ms", c.as_millis())),
        std::env::var("RAYON_NUM_THREADS").unwrap_or_default(),
    );
    println!(
        "# reported: ours > {TAIL_RATIO}x isl and > {} ms (tail), or our failure where isl \
         answered (failure; the ratio of a timeout is a lower bound), or different answers \
         (disagree); each as a `poly batch` line and a comment; times are parsing and the \
         operation (op_only: the operation alone)",
        TAIL_MIN.as_millis()
    );
    let start = Instant::now();
    let deadline = Duration::from_secs(seconds);
    let mut last_progress = Instant::now();
    let mut workers = (Worker::start("ours"), Worker::start("isl"));
    let mut found: Vec<Hunted> = Vec::new();
    let mut k = 0u64;
    while start.elapsed() < deadline {
        let (family, op, p) = hunt_problem(families, ops, seed, k);
        // coalescing takes its one union as `A ∪ { }`
        let b = if op == Op::Coalesce {
            Some("{ }".to_string())
        } else {
            p.b.clone()
        };
        // isl can only make a tail of a problem where it is 10 times faster
        // than ours, so once ours answered, isl is stopped at half our time
        // (its call may be repeated 5 times, see `timed`) and 50 ms more for
        // the processes; past a failure of ours it has the whole cap
        let stopped_early = std::cell::Cell::new(false);
        let isl_cap = |ours: &Reply| -> Option<Duration> {
            if matches!(ours.answer, Answer::Error(_)) {
                return cap;
            }
            let short = (ours.time + ours.parse) / 2 + HUNT_ISL_SLACK;
            match cap {
                Some(c) if c <= short => cap,
                _ => {
                    stopped_early.set(true);
                    Some(short)
                }
            }
        };
        let wall = Instant::now();
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            // isl's check of a result set against ours: one cap (not `CHECK_CAPS`)
            run_one(
                &mut workers,
                cap,
                &isl_cap,
                cap,
                op,
                family,
                &p.a,
                b.as_deref(),
            )
        }));
        // each side's time is its parsing and the operation: isl's reader
        // does part of the work (it intersects an `exists` block whole, with
        // an integer emptiness test), so its operation alone can be a flag read
        let (ours, isl, op_times, ours_answer, mut isl_answer, disagree, unchecked) = match run {
            Ok(r) => (
                r.ours + r.ours_parse.unwrap_or_default(),
                r.isl + r.isl_parse.unwrap_or_default(),
                (r.ours, r.isl),
                r.ours_answer,
                r.isl_answer,
                r.disagree,
                r.unchecked,
            ),
            Err(_) => {
                // a worker died (a panic or an abort in it): start both again
                workers = (Worker::start("ours"), Worker::start("isl"));
                let none = Duration::ZERO;
                let crash = Answer::Error("crash".into());
                let unknown = Answer::Limit("unknown".into());
                (none, none, (none, none), crash, unknown, false, false)
            }
        };
        if stopped_early.get() && isl_answer == Answer::Limit("timeout".into()) {
            isl_answer = Answer::Limit("past-half-ours".into());
        }
        let isl_answered = matches!(isl_answer, Answer::Bool(_) | Answer::Set)
            || (op.lexopt() && isl_answer == Answer::IslError);
        let ours_failed = matches!(ours_answer, Answer::Error(_));
        let crashed = ours_answer == Answer::Error("crash".into());
        let what = if disagree {
            Found::Disagree
        } else if ours_failed && (isl_answered || crashed) {
            Found::Failure
        } else if !ours_failed
            && isl_answered
            && ours > TAIL_MIN
            && ours.as_secs_f64() > TAIL_RATIO * isl.as_secs_f64()
        {
            Found::Tail
        } else {
            Found::Fine
        };
        let h = Hunted {
            index: k,
            family,
            op,
            shape: p.shape.replace(' ', ","),
            ours,
            isl,
            op_ours: op_times.0,
            op_isl: op_times.1,
            ours_answer,
            isl_answer,
            found: what,
            unchecked,
            batch: (ours > TAIL_MIN || what != Found::Fine)
                .then(|| batch_line(op, &p.a, p.b.as_deref())),
        };
        if what != Found::Fine {
            let kind = match what {
                Found::Tail => "tail".to_string(),
                Found::Failure => match &h.ours_answer {
                    Answer::Error(e) => format!("failure({})", e.replace(' ', "-")),
                    a => format!("failure({a})"),
                },
                _ => "disagree".to_string(),
            };
            println!("{}", h.batch.as_deref().unwrap_or_default());
            println!(
                "# family={} shape={} ours={}ms isl={}ms ratio={} op={} kind={kind} ours_answer={} \
                 isl_answer={} op_only_ours={}ms op_only_isl={}ms problem={k} seed={seed}",
                family.name(),
                h.shape,
                ms(ours),
                ms(isl),
                fmt_num(h.ratio()),
                op.hunt_name(),
                h.ours_answer.to_string().replace(' ', ""),
                h.isl_answer.to_string().replace(' ', ""),
                ms(op_times.0),
                ms(op_times.1),
            );
        }
        if verbose {
            eprintln!(
                "#{k} {} {} {}: ours {} ms ({}), isl {} ms ({}); the operation alone: \
                 ours {} ms, isl {} ms; {} ms in all",
                family.name(),
                op.hunt_name(),
                h.shape,
                ms(ours),
                h.ours_answer,
                ms(isl),
                h.isl_answer,
                ms(op_times.0),
                ms(op_times.1),
                ms(wall.elapsed()),
            );
        }
        found.push(h);
        k += 1;
        if last_progress.elapsed() >= HUNT_PROGRESS {
            last_progress = Instant::now();
            let count = |f: Found| found.iter().filter(|h| h.found == f).count();
            println!(
                "# progress: {} problems in {:.0} s: {} tails, {} failures where isl answered, \
                 {} disagreements",
                found.len(),
                start.elapsed().as_secs_f64(),
                count(Found::Tail),
                count(Found::Failure),
                count(Found::Disagree)
            );
        }
    }
    drop(workers);
    hunt_summary(families, ops, &found, start.elapsed());
    i32::from(found.iter().any(|h| h.found == Found::Disagree))
}

/// The end of a hunt: the counts per family and operation, the failures by
/// kind, and the worst ratios.
fn hunt_summary(families: &[Family], ops: &[Op], found: &[Hunted], elapsed: Duration) {
    let count = |f: Found| found.iter().filter(|h| h.found == f).count();
    println!(
        "#\n# ---- {} problems in {:.1} s: {} tails, {} failures where isl answered, {} \
         disagreements ----",
        found.len(),
        elapsed.as_secs_f64(),
        count(Found::Tail),
        count(Found::Failure),
        count(Found::Disagree)
    );
    let mut distinct: Vec<Op> = Vec::new();
    for &op in ops {
        if !distinct.contains(&op) {
            distinct.push(op);
        }
    }
    println!("# problems / tails / failures where isl answered, per family and operation:");
    let cell = |hs: &[&Hunted]| {
        let c = |f: Found| hs.iter().filter(|h| h.found == f).count();
        format!("{}/{}/{}", hs.len(), c(Found::Tail), c(Found::Failure))
    };
    let mut rows = Vec::new();
    let mut head = vec!["family"];
    head.extend(distinct.iter().map(|o| o.hunt_name()));
    head.push("all");
    let mut groups: Vec<(String, Vec<&Hunted>)> = families
        .iter()
        .map(|&f| {
            let hs = found.iter().filter(|h| h.family == f).collect();
            (f.name().to_string(), hs)
        })
        .collect();
    groups.push(("all".to_string(), found.iter().collect()));
    for (name, hs) in &groups {
        let mut row = vec![name.clone()];
        for &op in &distinct {
            let of_op: Vec<&Hunted> = hs.iter().copied().filter(|h| h.op == op).collect();
            row.push(cell(&of_op));
        }
        row.push(cell(hs));
        rows.push(row);
    }
    for line in table_lines(&head, &rows, true) {
        println!("# {line}");
    }
    let mut kinds: std::collections::BTreeMap<String, usize> = Default::default();
    for h in found {
        if let Answer::Error(e) = &h.ours_answer {
            *kinds.entry(format!("ours {e}")).or_default() += 1;
        }
        if let Answer::Limit(e) = &h.isl_answer {
            *kinds.entry(format!("isl {e}")).or_default() += 1;
        }
    }
    if !kinds.is_empty() {
        let list: Vec<String> = kinds.iter().map(|(k, n)| format!("{k} {n}")).collect();
        println!(
            "# stopped (all problems, whatever the other side did): {}",
            list.join(", ")
        );
    }
    let unchecked = found.iter().filter(|h| h.unchecked).count();
    if unchecked > 0 {
        println!("# result sets isl could not compare with ours within the cap: {unchecked}");
    }
    // the worst ratios among the problems where ours took more than TAIL_MIN
    let mut worst: Vec<&Hunted> = found
        .iter()
        .filter(|h| h.found != Found::Fine || (h.ours > TAIL_MIN && h.isl_answered()))
        .collect();
    worst.sort_by(|a, b| b.ratio().total_cmp(&a.ratio()));
    worst.truncate(HUNT_WORST);
    println!(
        "#\n# the {} worst ratios ours/isl among the problems where ours took more than {} ms \
         and isl answered (parsing and the operation; `problem` is the index of the \
         reproducer above, when reported):",
        worst.len(),
        TAIL_MIN.as_millis()
    );
    let head = [
        "ratio", "op x", "family", "op", "ours ms", "isl ms", "ours", "isl", "kind", "problem",
        "shape",
    ];
    let rows: Vec<Vec<String>> = worst
        .iter()
        .map(|h| {
            vec![
                fmt_num(h.ratio()),
                fmt_num(h.op_ratio()),
                h.family.name().to_string(),
                h.op.hunt_name().to_string(),
                ms(h.ours),
                ms(h.isl),
                h.ours_answer.to_string(),
                h.isl_answer.to_string(),
                match h.found {
                    Found::Fine => "-",
                    Found::Tail => "tail",
                    Found::Failure => "failure",
                    Found::Disagree => "disagree",
                }
                .to_string(),
                h.index.to_string(),
                h.shape.clone(),
            ]
        })
        .collect();
    for line in table_lines(&head, &rows, false) {
        println!("# {line}");
    }
    println!(
        "# (`op x`: the ratio of the operations alone, parsing excluded; well above `ratio` \
         where isl's reader did the work)"
    );
    let unreported: Vec<&&Hunted> = worst.iter().filter(|h| h.found == Found::Fine).collect();
    if !unreported.is_empty() {
        println!("#\n# the problems of that table not reported above:");
        for h in unreported {
            println!("{}", h.batch.as_deref().unwrap_or_default());
            println!(
                "# family={} shape={} ours={}ms isl={}ms ratio={} op={} kind=worst \
                 ours_answer={} isl_answer={} op_only_ours={}ms op_only_isl={}ms problem={}",
                h.family.name(),
                h.shape,
                ms(h.ours),
                ms(h.isl),
                fmt_num(h.ratio()),
                h.op.hunt_name(),
                h.ours_answer.to_string().replace(' ', ""),
                h.isl_answer.to_string().replace(' ', ""),
                ms(h.op_ours),
                ms(h.op_isl),
                h.index
            );
        }
    }
}

fn usage() -> ! {
    let names: Vec<&str> = Family::ALL.iter().map(|f| f.name()).collect();
    eprintln!(
        "usage: vs_isl [FAMILY...] [--op is_empty|is_subset|is_equal|subtract|coalesce|lexmin|lexmax] [--count N] \
         [--seed S] [--worst K] [--cap-ms MS] [--verbose] [--dump] [--isl-chained] [--isl-read]\n       \
         vs_isl --hunt [FAMILY...] [--seconds S] [--seed N] [--op OP ...] [--cap-ms MS]\nfamilies: {}",
        names.join(" ")
    );
    std::process::exit(2)
}

fn main() {
    // isl is single-threaded; our set algebra uses rayon for independent pieces
    // (the workers inherit this)
    if std::env::var_os("RAYON_NUM_THREADS").is_none() {
        // SAFETY: first statement of `main`, before any thread (rayon's pool
        // included) exists, so nothing reads the environment concurrently.
        unsafe { std::env::set_var("RAYON_NUM_THREADS", "1") };
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
    let mut hunting = false;
    let mut seconds = 60u64;
    // `--hunt` cycles through every `--op` given (`--op a --op b` or `--op a,b`)
    let mut ops: Vec<Op> = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| usage());
        match a.as_str() {
            "--worker" => {
                return match value().as_str() {
                    "ours" => ours_worker(),
                    "isl" => isl_worker(),
                    _ => usage(),
                };
            }
            "--op" => {
                for name in value().split(',') {
                    op = Op::parse(name).unwrap_or_else(|| usage());
                    ops.push(op);
                }
            }
            "--hunt" => hunting = true,
            "--seconds" => seconds = value().parse().unwrap_or_else(|_| usage()),
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
    if hunting {
        if ops.is_empty() {
            ops = HUNT_OPS.to_vec();
        }
        // the hunt's optima are `poly batch`'s, so that its reproducers replay as timed
        for op in &mut ops {
            *op = match *op {
                Op::Lexmin => Op::BatchLexmin,
                Op::Lexmax => Op::BatchLexmax,
                o => o,
            };
        }
        if dump {
            // the first problems of the hunt as `poly batch` lines (`--count`, default 60)
            for k in 0..count.unwrap_or(60) as u64 {
                let (family, op, p) = hunt_problem(&families, &ops, seed, k);
                println!("{}", batch_line(op, &p.a, p.b.as_deref()));
                println!(
                    "# family={} shape={} problem={k}",
                    family.name(),
                    p.shape.replace(' ', ",")
                );
            }
            return;
        }
        let cap = (cap_ms > 0).then(|| Duration::from_millis(cap_ms));
        std::process::exit(hunt(&families, &ops, seed, seconds, cap, verbose));
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
        // `cargo run --release -p presburger-benches --bin replay` under a profiler
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
        let check_cap = cap.map(|c| c * CHECK_CAPS);
        let r = run_one(
            &mut workers,
            cap,
            &|_| cap,
            check_cap,
            op,
            family,
            a,
            b.as_deref(),
        );
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
