//! Parametric lexicographic optima against isl 0.25: `Map::lexmin` and
//! `Map::lexmax` against `isl_map_lexmin`/`isl_map_lexmax`, `Set::lexmin_set`
//! and `Set::lexmax_set` against `isl_set_lexmin`/`isl_set_lexmax`, on the
//! random sets and maps of the generators of `presburger_fuzz` (with a
//! parameter or not, boxed or not, with strides, `mod` and `floor` terms, 1–2
//! disjuncts). Our result is printed, read by isl and must be equal
//! (`isl_map_is_equal`, `isl_set_is_equal`) to isl's.
//!
//! An unbounded optimum: isl 0.25 fails (a null result) and we must return
//! `Error::Unbounded`; the two count as agreeing. Running out of our budget or
//! isl's operation limit is skipped, never a mismatch.
//!
//! `lexmin_agrees_with_isl` runs `LEXMIN_ISL_CASES` cases (default 300);
//! `lexmin_bulk` (ignored) runs `LEXMIN_BULK_CASES` (default 100000) from
//! `ISL_BULK_SEED` (default 1):
//!
//!     LEXMIN_BULK_CASES=100000 ISL_BULK_SEED=1 cargo test --release --test lexmin_isl -- --ignored --nocapture
//!
//! Needs the system isl (`apt-get install libisl-dev`).

use presburger::{Budget, Error, Map, Set};
use presburger_fuzz::isl::Ctx;
use presburger_fuzz::{MapShape, Rng, Shape, Source, random_map_features, random_set_features};
use std::collections::BTreeMap;

/// isl's work per comparison (reading, the operation and the equality).
const ISL_MAX_OPERATIONS: u64 = 400_000;
/// Our work per optimum.
const OUR_STEPS: u64 = 3_000_000;

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[derive(Default)]
struct Tally {
    compared: BTreeMap<String, u64>,
    skipped: BTreeMap<String, u64>,
    mismatches: Vec<String>,
}

/// One verdict: `Ok(kind)` compared, `Err("skip: ..")` skipped, other `Err` a
/// mismatch.
fn verdict<T: std::fmt::Display>(
    ctx: &Ctx,
    ours: presburger::Result<T>,
    theirs: Option<String>,
    same: impl FnOnce(&T) -> Result<Option<bool>, &'static str>,
) -> Result<&'static str, String> {
    match (ours, theirs) {
        (Err(Error::Budget(_)), _) => Err("skip: our budget".into()),
        (_, None) if ctx.quota_hit() => Err("skip: isl quota".into()),
        (Err(Error::Unbounded(_)), None) => Ok("unbounded (both)"),
        (Err(e), None) => Err(format!("ours fails ({e}), isl fails too")),
        (Err(e), Some(t)) => Err(format!("ours fails ({e}), isl gives {t}")),
        (Ok(o), None) => Err(format!("isl fails (unbounded?), ours gives {o}")),
        (Ok(o), Some(t)) => match same(&o) {
            Ok(Some(true)) => Ok("equal"),
            Ok(Some(false)) => Err(format!("ours {o}, isl {t}")),
            // isl's comparison failing is its operation limit (not always
            // flagged as such after a long read)
            Ok(None) => Err("skip: isl quota (reading ours or comparing)".into()),
            Err(e) => Err(format!("{e}: {o}")),
        },
    }
}

/// For a set `s` without parameters and its claimed optimum `o`: `o` is one
/// point of `s`, and no point of `s` is lexicographically better (the set of
/// better points, written out as a union, meets `s` in nothing), by our
/// emptiness test alone.
fn optimum_checked(s: &Set, o: &Set, maximize: bool) -> Result<(), String> {
    let pts = o.points(2).map_err(|e| e.to_string())?;
    let [p] = pts.as_slice() else {
        return Err(format!("the optimum {o} is not one point"));
    };
    if !o.is_subset(s).map_err(|e| e.to_string())? {
        return Err(format!("the optimum {o} is not in the set"));
    }
    let n = p.len();
    let names: Vec<String> = (0..n).map(|k| format!("x{k}")).collect();
    let cmp = if maximize { ">" } else { "<" };
    let better: Vec<String> = (0..n)
        .map(|k| {
            let mut c: Vec<String> = (0..k).map(|j| format!("{} = {}", names[j], p[j])).collect();
            c.push(format!("{} {cmp} {}", names[k], p[k]));
            format!("({})", c.join(" and "))
        })
        .collect();
    let text = format!("{{ [{}] : {} }}", names.join(", "), better.join(" or "));
    let b: Set = text.parse().map_err(|e: Error| e.to_string())?;
    let b = b.set_tuple_name(s.space().range_tuple().name.as_deref());
    if !s
        .intersect(&b)
        .map_err(|e| e.to_string())?
        .is_empty()
        .map_err(|e| e.to_string())?
    {
        return Err(format!("a point of the set is better than {o}"));
    }
    Ok(())
}

fn case(ctx: &Ctx, rng: &mut Rng, tally: &mut Tally) {
    let maximize = rng.chance(50);
    let is_map = rng.chance(50);
    let text = if is_map {
        let shape = MapShape {
            n_in: rng.range(1, 2) as usize,
            n_out: rng.range(1, 2) as usize,
            second: None,
            param: rng.chance(60),
            bounded: rng.chance(40),
            max_disj: rng.range(1, 2),
        };
        random_map_features(rng, shape, "A", "B").0
    } else {
        let shape = Shape {
            dims: rng.range(1, 3) as usize,
            param: rng.chance(70),
        };
        let bounded = rng.chance(40);
        let max_disj = rng.range(1, 2);
        random_set_features(rng, shape, bounded, max_disj).0
    };
    let what = format!(
        "{} {}",
        if is_map { "map" } else { "set" },
        if maximize { "lexmax" } else { "lexmin" }
    );
    ctx.reset_operations();
    let v = if is_map {
        let (Ok(m), Some(im)) = (text.parse::<Map>(), ctx.read_map(&text)) else {
            *tally.skipped.entry("parse".into()).or_default() += 1;
            return;
        };
        let mut b = Budget::new(OUR_STEPS);
        let ours = if maximize {
            m.lexmax_with_budget(&mut b)
        } else {
            m.lexmin_with_budget(&mut b)
        };
        let theirs = im.lexopt(maximize);
        let t = theirs.as_ref().map(|t| t.to_text());
        verdict(ctx, ours, t, |o| {
            let theirs = theirs.as_ref().ok_or("")?;
            ctx.reset_operations();
            if let Some(back) = ctx.read_map(&o.to_string()) {
                ctx.reset_operations();
                return Ok(back.is_equal(theirs));
            }
            // isl's limit can stop the reading of a long result without
            // flagging it: read and compare again with a limit 20 times larger
            ctx.set_max_operations(20 * ISL_MAX_OPERATIONS);
            ctx.reset_operations();
            let r = match ctx.read_map(&o.to_string()) {
                Some(back) => Ok(back.is_equal(theirs)),
                None if ctx.quota_hit() => Ok(None),
                None => Err("isl cannot read our result"),
            };
            ctx.set_max_operations(ISL_MAX_OPERATIONS);
            r
        })
    } else {
        let (Ok(s), Some(is)) = (text.parse::<Set>(), ctx.read_set(&text)) else {
            *tally.skipped.entry("parse".into()).or_default() += 1;
            return;
        };
        let mut b = Budget::new(OUR_STEPS);
        let ours = if maximize {
            s.lexmax_set_with_budget(&mut b)
        } else {
            s.lexmin_set_with_budget(&mut b)
        };
        let theirs = is.lexopt(maximize);
        let isl_failed = match (&ours, &theirs, s.space().n_param()) {
            (Ok(o), None, 0) if !ctx.quota_hit() => Some(o),
            _ => None,
        };
        if let Some(o) = isl_failed {
            // isl fails on a union with an unbounded disjunct that a
            // bounded one dominates on an earlier coordinate; ours gives
            // the point: checked with our own algebra instead
            match optimum_checked(&s, o, maximize) {
                Ok(()) => {
                    *tally
                        .compared
                        .entry(format!("{what}: isl fails, ours checked"))
                        .or_default() += 1;
                }
                Err(e) => tally.mismatches.push(format!("{what}: {text}: {e}")),
            }
            return;
        }
        let t = theirs.as_ref().map(|t| t.to_text());
        verdict(ctx, ours, t, |o| {
            let theirs = theirs.as_ref().ok_or("")?;
            ctx.reset_operations();
            if let Some(back) = ctx.read_set(&o.to_string()) {
                ctx.reset_operations();
                return Ok(back.is_equal(theirs));
            }
            // isl's limit can stop the reading of a long result without
            // flagging it: read and compare again with a limit 20 times larger
            ctx.set_max_operations(20 * ISL_MAX_OPERATIONS);
            ctx.reset_operations();
            let r = match ctx.read_set(&o.to_string()) {
                Some(back) => Ok(back.is_equal(theirs)),
                None if ctx.quota_hit() => Ok(None),
                None => Err("isl cannot read our result"),
            };
            ctx.set_max_operations(ISL_MAX_OPERATIONS);
            r
        })
    };
    match v {
        Ok(k) => *tally.compared.entry(format!("{what}: {k}")).or_default() += 1,
        Err(e) if e.starts_with("skip: ") => {
            *tally
                .skipped
                .entry(format!("{what} ({})", &e[6..]))
                .or_default() += 1
        }
        Err(e) => {
            let m = format!("{what}: {e} for {text}");
            println!("MISMATCH {m}");
            tally.mismatches.push(m);
        }
    }
}

fn run(cases: u64, seed: u64) -> Tally {
    let ctx = Ctx::new();
    ctx.set_max_operations(ISL_MAX_OPERATIONS);
    let mut rng = Rng::new(seed);
    let mut tally = Tally::default();
    for k in 1..=cases {
        case(&ctx, &mut rng, &mut tally);
        if k % 10_000 == 0 {
            let total: u64 = tally.compared.values().sum();
            println!(
                "{k} cases: {total} compared, {} mismatches",
                tally.mismatches.len()
            );
        }
    }
    let total: u64 = tally.compared.values().sum();
    println!("compared {total}: {:?}", tally.compared);
    println!("skipped: {:?}", tally.skipped);
    println!("mismatches: {}", tally.mismatches.len());
    for m in tally.mismatches.iter().take(20) {
        println!("  {m}");
    }
    tally
}

#[test]
fn lexmin_agrees_with_isl() {
    let t = run(env("LEXMIN_ISL_CASES", 300), 7);
    assert!(t.mismatches.is_empty(), "{:#?}", t.mismatches);
}

#[test]
#[ignore]
fn lexmin_bulk() {
    let t = run(env("LEXMIN_BULK_CASES", 100_000), env("ISL_BULK_SEED", 1));
    assert!(t.mismatches.is_empty(), "{} mismatches", t.mismatches.len());
}

/// Replays one case: `LEXMIN_ONE='<map text>' LEXMIN_MAX=1 cargo test --release
/// --test lexmin_isl lexmin_one -- --ignored --nocapture` (isl without its
/// operation limit).
#[test]
#[ignore]
fn lexmin_one() {
    let Ok(text) = std::env::var("LEXMIN_ONE") else {
        return;
    };
    let maximize = env("LEXMIN_MAX", 0) == 1;
    let ctx = Ctx::new();
    let m: Map = text.parse().expect("our parser");
    let ours = if maximize { m.lexmax() } else { m.lexmin() };
    let ours = ours.expect("ours");
    println!("ours: {} disjuncts", ours.n_basic());
    let t = std::time::Instant::now();
    match ours.coalesce() {
        Ok(co) => println!("coalesced: {} disjuncts in {:?}", co.n_basic(), t.elapsed()),
        Err(e) => println!("coalescing fails: {e}"),
    }
    let im = ctx.read_map(&text).expect("isl parser");
    let theirs = im.lexopt(maximize).expect("isl");
    println!("isl: {}", theirs.to_text());
    let back = ctx.read_map(&ours.to_string());
    println!("isl reads ours: {}", back.is_some());
    let eq = back.and_then(|b| b.is_equal(&theirs));
    println!("equal: {eq:?}");
    assert_eq!(eq, Some(true));
}
