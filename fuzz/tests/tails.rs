//! Replays the tail reproducers of `tails/regressions.batch` (problems where
//! our library was much slower than isl, or failed where isl answered; found
//! by `vs_isl --hunt`): every line is answered by both libraries and the
//! answers must agree, and our time (the operation alone, parsing excluded,
//! one cold call) must be under [`CAP`] — except on a line tagged
//! `# known-slow` in the comment lines before it, whose time is only
//! reported, as is a budget error of ours there (an error on another line
//! fails the test). The known-slow lines run last, each abandoned (reported,
//! not failed) after [`HARD_LIMIT`], or sooner once the known-slow lines have
//! had [`SLOW_TOTAL`] in all, so that a hang cannot stall the test. isl runs
//! in a thread as well (its operation limit does not count everything); an
//! answer of isl missing after the same limit fails the test.
//!
//! Settings: `TAILS_CAP_MS` (default 2000), `TAILS_HARD_S` (default 10),
//! `TAILS_SLOW_TOTAL_S` (default 40), `TAILS_FILE` (another file of the same
//! format).
//!
//!     cargo test --release --test tails -- --nocapture

mod common;

use common::{BatchQuery, batch_queries, is_map, isl_decide};
use presburger::{Error, Int, Object, UnionSet, parse_object};
use presburger_fuzz::isl::Ctx;
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// Our time allowed per line (not tagged known-slow): generous, for a loaded
/// 2-core machine.
const CAP: Duration = Duration::from_millis(2000);
/// A known-slow line still running after this is abandoned.
const HARD_LIMIT: Duration = Duration::from_secs(10);
/// The time of all the known-slow lines together (each gets at least 1 s).
const SLOW_TOTAL: Duration = Duration::from_secs(40);
/// isl's operation limit per line.
const ISL_MAX_OPERATIONS: u64 = 10_000_000;
const KNOWN_SLOW: &str = "known-slow";

fn env_duration(name: &str, default: Duration, unit: fn(u64) -> Duration) -> Duration {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .map_or(default, unit)
}

/// What our side answered.
enum Ours {
    Bool(bool),
    /// A set, printed (`coalesce`, `lexmin`/`lexmax` with parameters).
    Set(String),
    /// A point or none (`sample`, `lexmin`/`lexmax` without parameters).
    Point(Option<Vec<Int>>),
}

fn set_arg(text: &str) -> Result<UnionSet, String> {
    match parse_object(text).map_err(|e| format!("we do not read {text}: {e}"))? {
        Object::Set(s) => Ok(s),
        Object::Map(_) => Err(format!("a set is expected: {text}")),
    }
}

/// Parses the arguments, then times our operation as `poly batch` runs it.
/// `Err` for a line we cannot run (a malformed line).
#[allow(clippy::type_complexity)]
fn ours(q: &BatchQuery) -> Result<(Duration, Result<Ours, Error>), String> {
    let arity = match q.op.as_str() {
        "is_subset" | "is_equal" | "is_disjoint" | "subtract_is_empty" => 2,
        _ => 1,
    };
    if q.args.len() != arity {
        return Err(format!("{} needs {arity} argument(s)", q.op));
    }
    let objects = q
        .args
        .iter()
        .map(|a| parse_object(a).map_err(|e| format!("we do not read {a}: {e}")))
        .collect::<Result<Vec<Object>, String>>()?;
    let two = |sets: fn(&UnionSet, &UnionSet) -> Result<bool, Error>,
               maps: fn(&presburger::UnionMap, &presburger::UnionMap) -> Result<bool, Error>|
     -> Result<(Duration, Result<Ours, Error>), String> {
        let t = Instant::now();
        let r = match (&objects[0], &objects[1]) {
            (Object::Set(a), Object::Set(b)) => sets(a, b),
            (Object::Map(a), Object::Map(b)) => maps(a, b),
            _ => return Err("a set and a map".into()),
        };
        Ok((t.elapsed(), r.map(Ours::Bool)))
    };
    match q.op.as_str() {
        "is_empty" => {
            let t = Instant::now();
            let r = match &objects[0] {
                Object::Set(s) => s.is_empty(),
                Object::Map(m) => m.is_empty(),
            };
            Ok((t.elapsed(), r.map(Ours::Bool)))
        }
        "is_subset" => two(|a, b| a.is_subset(b), |a, b| a.is_subset(b)),
        "is_equal" => two(|a, b| a.is_equal(b), |a, b| a.is_equal(b)),
        "is_disjoint" => two(|a, b| a.is_disjoint(b), |a, b| a.is_disjoint(b)),
        "subtract_is_empty" => two(
            |a, b| a.subtract(b)?.is_empty(),
            |a, b| a.subtract(b)?.is_empty(),
        ),
        "coalesce" | "lexmin" | "lexmax" | "sample" => {
            let u = set_arg(&q.args[0])?;
            let t = Instant::now();
            let max = q.op == "lexmax";
            let r = match (q.op.as_str(), u.members()) {
                ("coalesce", _) => u.coalesce().map(|c| Ours::Set(c.to_string())),
                ("sample", [s]) => s.sample().map(Ours::Point),
                ("sample", _) => Err(Error::Unsupported("sample of a union".into())),
                (_, [s]) if s.space().n_param() == 0 => {
                    if max { s.lexmax() } else { s.lexmin() }.map(Ours::Point)
                }
                _ => if max { u.lexmax() } else { u.lexmin() }.map(|m| Ours::Set(m.to_string())),
            };
            Ok((t.elapsed(), r))
        }
        other => Err(format!("unknown operation {other}")),
    }
}

/// Whether isl agrees with our answer (`Err` with the reason when not, or
/// when isl cannot answer).
fn isl_agrees(ctx: &Ctx, q: &BatchQuery, ours: &Result<Ours, Error>) -> Result<(), String> {
    ctx.reset_operations();
    let failed = |ctx: &Ctx, what: &str| {
        if ctx.quota_hit() {
            format!("isl: operation limit ({what})")
        } else {
            format!("isl: error ({what})")
        }
    };
    match (q.op.as_str(), ours) {
        (_, Err(Error::Unbounded(_))) if q.op == "lexmin" || q.op == "lexmax" => {
            // isl fails on an unbounded optimum (not by its limit)
            let set = ctx
                .union_set(&q.args[0])
                .ok_or("isl does not read the set")?;
            let r = if q.op == "lexmax" {
                set.lexmax()
            } else {
                set.lexmin()
            };
            match r {
                None if !ctx.quota_hit() => Ok(()),
                None => Err(failed(ctx, "lexopt")),
                Some(r) => Err(format!("ours unbounded, isl {}", r.to_text())),
            }
        }
        (_, Err(e)) => Err(format!("ours: {e}")),
        (_, Ok(Ours::Bool(b))) => match isl_decide(ctx, &q.op, &q.args) {
            Some(i) if i == *b => Ok(()),
            Some(i) => Err(format!("ours {b}, isl {i}")),
            None => Err(failed(ctx, &q.op)),
        },
        ("coalesce", Ok(Ours::Set(printed))) => {
            let same = if is_map(&q.args[0]) {
                let a = ctx.union_map(&q.args[0]).ok_or("isl does not read A")?;
                let o = ctx.union_map(printed).ok_or("isl does not read ours")?;
                a.is_equal(&o)
            } else {
                let a = ctx.union_set(&q.args[0]).ok_or("isl does not read A")?;
                let o = ctx.union_set(printed).ok_or("isl does not read ours")?;
                a.is_equal(&o)
            };
            match same {
                Some(true) => Ok(()),
                Some(false) => Err(format!("our coalescing {printed} is another set")),
                None => Err(failed(ctx, "is_equal")),
            }
        }
        (op, Ok(Ours::Set(printed))) => {
            let set = ctx
                .union_set(&q.args[0])
                .ok_or("isl does not read the set")?;
            let theirs = if op == "lexmax" {
                set.lexmax()
            } else {
                set.lexmin()
            }
            .ok_or_else(|| failed(ctx, op))?;
            let o = ctx.union_set(printed).ok_or("isl does not read ours")?;
            match o.is_equal(&theirs) {
                Some(true) => Ok(()),
                Some(false) => Err(format!("ours {printed}, isl {}", theirs.to_text())),
                None => Err(failed(ctx, "is_equal")),
            }
        }
        (op, Ok(Ours::Point(p))) => {
            let set = ctx
                .union_set(&q.args[0])
                .ok_or("isl does not read the set")?;
            if op == "sample" {
                // a point exactly when the set is not empty
                let empty = set.is_empty().ok_or_else(|| failed(ctx, "is_empty"))?;
                return if empty == p.is_none() {
                    Ok(())
                } else {
                    Err(format!("ours {p:?}, isl empty {empty}"))
                };
            }
            let theirs = if op == "lexmax" {
                set.lexmax()
            } else {
                set.lexmin()
            }
            .ok_or_else(|| failed(ctx, op))?;
            if theirs.is_empty().ok_or_else(|| failed(ctx, "is_empty"))? {
                return if p.is_none() {
                    Ok(())
                } else {
                    Err(format!("ours {p:?}, isl none"))
                };
            }
            // isl's optimum is a point: read it back and take its point
            let text = theirs.to_text();
            let back: presburger::Set = text
                .parse()
                .map_err(|e| format!("we do not read isl's {text}: {e}"))?;
            let point = back.sample().map_err(|e| format!("{e}"))?;
            if point == *p {
                Ok(())
            } else {
                Err(format!("ours {p:?}, isl {text}"))
            }
        }
    }
}

#[test]
fn tails_agree_with_isl_and_are_fast() {
    let cap = env_duration("TAILS_CAP_MS", CAP, Duration::from_millis);
    let hard = env_duration("TAILS_HARD_S", HARD_LIMIT, Duration::from_secs);
    let slow_total = env_duration("TAILS_SLOW_TOTAL_S", SLOW_TOTAL, Duration::from_secs);
    let path = std::env::var("TAILS_FILE").unwrap_or_else(|_| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/tails/regressions.batch").to_string()
    });
    let input = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut queries = batch_queries(&input);
    assert!(!queries.is_empty(), "no reproducers in {path}");
    // the known-slow lines last: one abandoned still runs meanwhile
    queries.sort_by_key(|q| q.tagged(KNOWN_SLOW));
    let start = Instant::now();
    let mut slow_start: Option<Instant> = None;
    let mut failures = Vec::new();
    let mut slow_reports = Vec::new();
    for q in queries {
        let slow = q.tagged(KNOWN_SLOW);
        let tag = if slow { " [known-slow]" } else { "" };
        let line = q.line;
        let op = q.op.clone();
        // our side in a thread, abandoned past the hard limit
        let (tx, rx) = channel();
        let query = q.clone();
        std::thread::spawn(move || {
            let _ = tx.send(ours(&query));
        });
        let limit = if slow {
            let since = slow_start.get_or_insert_with(Instant::now).elapsed();
            hard.min(slow_total.saturating_sub(since))
                .max(Duration::from_secs(1))
        } else {
            hard.max(cap * 5)
        };
        let (time, answer) = match rx.recv_timeout(limit) {
            Ok(Ok(r)) => r,
            Ok(Err(e)) => {
                failures.push(format!("line {line} ({op}): {e}"));
                continue;
            }
            Err(RecvTimeoutError::Timeout) => {
                let msg = format!(
                    "line {line} ({op}){tag}: ours still running after {} s (abandoned; the \
                     answer is not checked)",
                    limit.as_secs()
                );
                println!("{msg}");
                if slow {
                    slow_reports.push(msg);
                } else {
                    failures.push(msg);
                }
                continue;
            }
            Err(RecvTimeoutError::Disconnected) => {
                failures.push(format!("line {line} ({op}): our side panicked"));
                continue;
            }
        };
        let budget = matches!(answer, Err(Error::Budget(_)));
        let answer_text = match &answer {
            Ok(Ours::Bool(b)) => b.to_string(),
            Ok(Ours::Set(_)) => "set".to_string(),
            Ok(Ours::Point(p)) => format!("{p:?}"),
            Err(e) => format!("error: {e}"),
        };
        // isl's side in a thread too: its operation limit does not count
        // everything (a comparison with huge coefficients can run for minutes)
        let t = Instant::now();
        let verdict = if budget {
            Ok(())
        } else {
            let (tx, rx) = channel();
            let query = q.clone();
            std::thread::spawn(move || {
                let ctx = Ctx::new();
                ctx.set_max_operations(ISL_MAX_OPERATIONS);
                let _ = tx.send(isl_agrees(&ctx, &query, &answer));
            });
            match rx.recv_timeout(limit) {
                Ok(v) => v,
                Err(RecvTimeoutError::Timeout) => Err(format!(
                    "isl still running after {} s (abandoned; the answer is not checked)",
                    limit.as_secs()
                )),
                Err(RecvTimeoutError::Disconnected) => Err("isl's side panicked".to_string()),
            }
        };
        let isl_time = t.elapsed();
        println!(
            "line {line} ({op}){tag}: ours {:.1} ms ({answer_text}), isl check {:.1} ms: {}",
            time.as_secs_f64() * 1e3,
            isl_time.as_secs_f64() * 1e3,
            match &verdict {
                Ok(()) if budget => "not compared (our budget)".to_string(),
                Ok(()) => "agree".to_string(),
                Err(e) => e.clone(),
            }
        );
        if let Err(e) = verdict {
            failures.push(format!("line {line} ({op}): {e}"));
        }
        if budget {
            let msg = format!("line {line} ({op}){tag}: our budget ran out");
            if slow {
                slow_reports.push(msg);
            } else {
                failures.push(msg);
            }
        } else if time > cap {
            let msg = format!(
                "line {line} ({op}){tag}: ours took {:.0} ms (cap {} ms)",
                time.as_secs_f64() * 1e3,
                cap.as_millis()
            );
            if slow {
                slow_reports.push(msg);
            } else {
                failures.push(msg);
            }
        } else if slow {
            println!("line {line} ({op}): known-slow but under the cap now; the tag can go");
        }
    }
    println!(
        "tails: {:.1} s; known-slow (reported only): {}",
        start.elapsed().as_secs_f64(),
        if slow_reports.is_empty() {
            "none".to_string()
        } else {
            format!("\n  {}", slow_reports.join("\n  "))
        }
    );
    assert!(failures.is_empty(), "tails:\n  {}", failures.join("\n  "));
}
