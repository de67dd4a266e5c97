//! Side-by-side timing of the dependence analysis: ours (`presburger_schedule::dependences`,
//! RAW, WAR, WAW and the value-based flow) and isl's (the same four, as in
//! `src/deps_isl.rs`: compositions intersected with `lex_lt_union_map` of the
//! schedule, and `compute_flow` for the flow), on every kernel of
//! `../schedule/tests/kernels/`, in one run.
//!
//!     cargo run --release --bin deps_vs_isl -- [--reps R] [--random N] [--seed S] [--isl-ops K]
//!
//! isl's work is limited (`--isl-ops`, default 5·10^6, as in the
//! test; 0 for none, which let isl's `compute_flow` grow past 15 GB on one
//! random SCoP): a SCoP where isl stops is not timed and is counted.
//! Each side runs `R` times (default 5) per kernel and the median is kept.
//! Ours: from the extracted `Scop` (its union views, the restriction to the
//! domains, the four relations). isl: from the parsed model (`isl read`, timed
//! apart: parsing our printed domain, schedule and accesses, and restricting
//! the accesses to the domain) to the four relations (`isl deps`; `isl flow`
//! is the `compute_flow` part alone). Times in µs. `--random N` adds a row
//! with the totals over N random SCoPs of `src/scops.rs` (one run each).

use presburger_fuzz::Rng;
use presburger_fuzz::deps_isl::{IslModel, ScopText};
use presburger_fuzz::isl::Ctx;
use presburger_fuzz::scops::random_scop;
use presburger_schedule::{Options, Scop, extract_scop};
use std::time::Instant;

/// Median of the times (µs) of `reps` runs of `f`.
fn median(reps: usize, mut f: impl FnMut() -> f64) -> f64 {
    let mut v: Vec<f64> = (0..reps).map(|_| f()).collect();
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// (ours, isl read, isl deps, isl flow) in µs, medians of `reps` runs.
fn time(scop: &Scop, reps: usize, isl_ops: u64) -> Result<[f64; 4], String> {
    let mut ours_failed = None;
    let ours = median(reps, || {
        let t = Instant::now();
        let d = presburger_schedule::dependences(scop);
        let e = t.elapsed().as_secs_f64() * 1e6;
        if let Err(err) = d {
            ours_failed = Some(format!("ours: {err}"));
        }
        e
    });
    if let Some(msg) = ours_failed {
        return Err(msg);
    }
    let text = ScopText::new(scop)?;
    let ctx = Ctx::new();
    // without a limit isl's compute_flow ran past 15 GB on a random SCoP
    ctx.set_max_operations(isl_ops);
    let mut failed = None;
    let read = median(reps, || {
        ctx.reset_operations();
        let t = Instant::now();
        let m = IslModel::read(&ctx, &text);
        let e = t.elapsed().as_secs_f64() * 1e6;
        if let Err(msg) = m {
            failed = Some(msg);
        }
        e
    });
    if let Some(msg) = failed {
        return Err(msg);
    }
    let mut missing = false;
    let mut run = |all: bool| {
        median(reps, || {
            // a fresh model each time: isl caches facts on its objects
            ctx.reset_operations();
            let Ok(m) = IslModel::read(&ctx, &text) else {
                missing = true;
                return 0.0;
            };
            ctx.reset_operations();
            let t = Instant::now();
            if all {
                missing |= m.dependences().is_none();
            } else {
                missing |= m.dependence(3).is_none();
            }
            t.elapsed().as_secs_f64() * 1e6
        })
    };
    let deps = run(true);
    let flow = run(false);
    if missing {
        return Err("isl failed on a relation (its operation limit)".into());
    }
    Ok([ours, read, deps, flow])
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let opt = |name: &str, d: u64| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let reps = opt("--reps", 5).max(1) as usize;
    let random = opt("--random", 0);
    let seed = opt("--seed", 1);
    let isl_ops = opt("--isl-ops", 5_000_000);
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../schedule/tests/kernels");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("the kernels directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    files.sort();
    println!(
        "{:<16} {:>5} {:>10} {:>10} {:>10} {:>10} {:>8}",
        "kernel", "stmts", "ours", "isl deps", "isl flow", "isl read", "ours/isl"
    );
    let mut total = [0.0; 4];
    let row = |name: &str, n: usize, t: &[f64; 4]| {
        println!(
            "{:<16} {:>5} {:>10.0} {:>10.0} {:>10.0} {:>10.0} {:>8.2}",
            name,
            n,
            t[0],
            t[2],
            t[3],
            t[1],
            t[0] / t[2]
        );
    };
    let mut n_total = 0;
    for p in &files {
        let name = p.file_stem().unwrap_or_default().to_string_lossy();
        let src = std::fs::read_to_string(p).expect("readable kernel");
        let scop = match extract_scop(&src, &Options::default()) {
            Ok(s) => s,
            Err(e) => {
                println!("{name}: {e}");
                continue;
            }
        };
        match time(&scop, reps, isl_ops) {
            Ok(t) => {
                row(&name, scop.statements.len(), &t);
                for k in 0..4 {
                    total[k] += t[k];
                }
                n_total += scop.statements.len();
            }
            Err(e) => println!("{name}: {e}"),
        }
    }
    row("all kernels", n_total, &total);
    if random > 0 {
        let mut rng = Rng::new(seed);
        let mut t_all = [0.0; 4];
        let (mut n, mut stmts, mut failed) = (0, 0, 0);
        for _ in 0..random {
            let src = random_scop(&mut rng);
            let Ok(scop) = extract_scop(&src, &Options::default()) else {
                failed += 1;
                continue;
            };
            match time(&scop, 1, isl_ops) {
                Ok(t) => {
                    for k in 0..4 {
                        t_all[k] += t[k];
                    }
                    n += 1;
                    stmts += scop.statements.len();
                }
                Err(_) => failed += 1,
            }
        }
        row(&format!("random ({n})"), stmts, &t_all);
        if failed > 0 {
            println!("random: {failed} SCoPs not timed (an error on either side)");
        }
    }
}
