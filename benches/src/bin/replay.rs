//! Replays problems dumped by the fuzz crate's `vs_isl --dump` on our side
//! only, repeatedly, for a profiler:
//!
//! ```text
//! cd fuzz && cargo run --release --bin vs_isl -- tiled --dump > /tmp/tiled.txt
//! cargo run --release -p presburger-benches --bin replay -- /tmp/tiled.txt [ROUNDS]
//! perf record --call-graph dwarf target/release/replay /tmp/tiled.txt 50
//! ```
//!
//! Each line is `FAMILY \t OP \t A \t B` (B empty for `is_empty`, `lexmin`
//! and `lexmax`; `coalesce` coalesces `A ∪ B`; `lexmin`/`lexmax` are the
//! parametric optima of `vs_isl --op lexmin`/`lexmax`, `Set::lexmin_set` and
//! `Set::lexmax_set`, and skip a problem that is not a set of one space;
//! an unbounded optimum counts as an answer, not an error). Prints, per
//! family, the number of problems and the total and median time of the
//! operation alone (parsing excluded), over all rounds, and for `coalesce`
//! the number of disjuncts left.
#![forbid(unsafe_code)]

use presburger::UnionSet;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// A parametric optimum found, or known to be unbounded.
fn lexopt_ok(r: presburger::Result<presburger::Set>) -> bool {
    matches!(r, Ok(_) | Err(presburger::Error::Unbounded(_)))
}

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: replay FILE [ROUNDS]");
        std::process::exit(2);
    };
    let rounds: usize = args.next().map_or(1, |r| r.parse().expect("ROUNDS"));
    // REPLAY_STOP_MS: print the solver's counters and stop after that long (to
    // see what a run that does not end is doing)
    if let Some(ms) = std::env::var("REPLAY_STOP_MS")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(ms));
            println!(
                "stopped after {ms} ms: {}",
                presburger::internals::stats::snapshot()
            );
            std::process::exit(3);
        });
    }
    let text = std::fs::read_to_string(&path).expect("reading the problems");
    let mut problems = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let f: Vec<&str> = line.split('\t').collect();
        assert!(
            f.len() == 4,
            "line {}: expected 4 tab-separated fields",
            n + 1
        );
        let parse =
            |s: &str| -> UnionSet { s.parse().unwrap_or_else(|e| panic!("line {}: {e}", n + 1)) };
        let b = (!f[3].is_empty()).then(|| parse(f[3]));
        let mut a = parse(f[2]);
        if f[1] == "coalesce" {
            // the union of the pair is what is coalesced (formed here, untimed)
            if let Some(b) = &b {
                a = a
                    .union(b)
                    .expect("the two sides of a problem share their space");
            }
        }
        let set = if f[1] == "lexmin" || f[1] == "lexmax" {
            match f[2].parse::<presburger::Set>() {
                Ok(s) => Some(s),
                _ => continue, // not one space
            }
        } else {
            None
        };
        problems.push((f[0].to_string(), f[1].to_string(), a, b, set));
    }
    let mut times: BTreeMap<String, Vec<Duration>> = BTreeMap::new();
    let mut errors = 0usize;
    // disjuncts left by `coalesce` (first round)
    let mut left = 0usize;
    for round in 0..rounds {
        for (family, op, a, b, set) in &problems {
            let t = Instant::now();
            let ok = match (op.as_str(), b) {
                ("is_empty", _) => a.is_empty().is_ok(),
                ("lexmin", _) => set.as_ref().is_some_and(|s| lexopt_ok(s.lexmin_set())),
                ("lexmax", _) => set.as_ref().is_some_and(|s| lexopt_ok(s.lexmax_set())),
                ("is_subset", Some(b)) => a.is_subset(b).is_ok(),
                ("is_equal", Some(b)) => a.is_equal(b).is_ok(),
                ("subtract", Some(b)) => a.subtract(b).is_ok(),
                ("coalesce", _) => match a.coalesce() {
                    Ok(c) => {
                        if round == 0 {
                            left += c.members().iter().map(|m| m.n_basic()).sum::<usize>();
                        }
                        true
                    }
                    Err(_) => false,
                },
                _ => panic!("unknown operation {op}"),
            };
            times.entry(family.clone()).or_default().push(t.elapsed());
            errors += usize::from(!ok);
        }
    }
    println!("family         n   total µs  median µs");
    for (family, mut v) in times {
        v.sort();
        let total: Duration = v.iter().sum();
        println!(
            "{family:<10} {:>5} {:>10.0} {:>10.2}",
            v.len() / rounds,
            total.as_secs_f64() * 1e6 / rounds as f64,
            v[v.len() / 2].as_secs_f64() * 1e6
        );
    }
    if left > 0 {
        println!("disjuncts left by coalesce: {left}");
    }
    if errors > 0 {
        println!("errors: {errors}");
    }
    println!("{}", presburger::internals::stats::snapshot());
}
