//! Side-by-side timing of the scheduler: ours (`presburger_schedule::compute`, dfp
//! and lp with smart fusion) against isl's
//! (`isl_schedule_constraints_compute_schedule` on the same dependences,
//! validity = proximity = coincidence = RAW ∪ WAR ∪ WAW, as in
//! `src/schedule_isl.rs`), on every kernel of `../schedule/tests/kernels/`
//! and of `../schedule/tests/pluto-kernels/`, in one run.
//!
//!     cargo run --release --bin schedule_vs_isl -- [--reps R] [--isl-ops K]
//!
//! The dependences are computed once by us; isl gets the domains and the
//! dependences as text once (our printing), and each repetition parses
//! them again outside the clock (isl caches facts on its objects). Only the
//! scheduling call is timed on each side: `compute` for ours (from the
//! `Scop` and its `Dependences`), `compute_schedule` for isl (from the
//! parsed domains and dependences to the schedule tree). The `R`
//! repetitions (default 7) are interleaved (dfp, lp, isl, dfp, lp, isl,
//! ...) and the median of each side is kept. isl's work is limited to
//! `--isl-ops` (default 10^8; 0 for none) per call. A kernel where a side
//! fails (our `Err`, isl's limit) shows `err` and stays out of the totals;
//! the errors are listed under the table. Times in µs.
//!
//! `schedule_vs_isl --worker dfp|lp` is the child process of the random
//! test of `tests/schedule_isl.rs` (which kills it past a time cap): it
//! reads a C SCoP on stdin and prints one line, `ok<TAB>SCHEDULE` (our
//! `to_union_map` with that scheduler and smart fusion) or `err<TAB>MESSAGE`.

use presburger_fuzz::isl::Ctx;
use presburger_fuzz::schedule_isl::{SchedInput, kernels};
use presburger_schedule::{
    Fusion, Options, Scheduler, SchedulerOptions, compute, dependences, extract_scop,
};
use std::time::Instant;

/// The median of `v` (not empty).
fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// The medians (µs) of ours with dfp, ours with lp and isl, each `None`
/// with the reason when that side failed.
type Times = [Result<f64, String>; 3];

/// Times the three schedulers on one SCoP, `reps` interleaved runs each.
fn time(
    scop: &presburger_schedule::Scop,
    deps: &presburger_schedule::Dependences,
    input: &SchedInput,
    reps: usize,
    isl_ops: u64,
) -> Times {
    let ctx = Ctx::new();
    ctx.set_max_operations(isl_ops);
    let ours_opts = [Scheduler::Dfp, Scheduler::Lp].map(|scheduler| SchedulerOptions {
        scheduler,
        fuse: Fusion::Smart,
        ..SchedulerOptions::default()
    });
    let mut samples: [Vec<f64>; 3] = Default::default();
    let mut failed: [Option<String>; 3] = Default::default();
    for _ in 0..reps {
        for (k, opts) in ours_opts.iter().enumerate() {
            let t = Instant::now();
            let r = compute(scop, deps, opts);
            samples[k].push(t.elapsed().as_secs_f64() * 1e6);
            if let Err(e) = r {
                failed[k] = Some(format!("ours: {e}"));
            }
        }
        // isl: fresh objects each time, parsed outside the clock
        let (dom, d) = match input.read(&ctx) {
            Ok(x) => x,
            Err(e) => {
                failed[2] = Some(e);
                continue;
            }
        };
        ctx.reset_operations();
        let t = Instant::now();
        let s = dom.compute_schedule(&d, &d, &d);
        samples[2].push(t.elapsed().as_secs_f64() * 1e6);
        if s.is_none() {
            failed[2] = Some(format!(
                "isl: compute_schedule failed{}",
                if ctx.quota_hit() {
                    " (its operation limit)"
                } else {
                    ""
                }
            ));
        }
        drop(s);
    }
    let mut out: Times = [Ok(0.0), Ok(0.0), Ok(0.0)];
    for k in 0..3 {
        out[k] = match failed[k].take() {
            Some(e) => Err(e),
            None => Ok(median(std::mem::take(&mut samples[k]))),
        };
    }
    out
}

/// Parses `--name VALUE` from the arguments, or `default`.
fn opt(args: &[String], name: &str, default: u64) -> u64 {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A time, or `err`.
fn cell(t: &Result<f64, String>) -> String {
    match t {
        Ok(t) => format!("{t:.0}"),
        Err(_) => "err".into(),
    }
}

/// `a / b`, or `-` when either failed.
fn ratio(a: &Result<f64, String>, b: &Result<f64, String>) -> String {
    match (a, b) {
        (Ok(a), Ok(b)) if *b > 0.0 => format!("{:.2}", a / b),
        _ => "-".into(),
    }
}

/// The worker mode (see the module doc) with `scheduler`.
fn worker(scheduler: Scheduler) {
    let mut src = String::new();
    std::io::Read::read_to_string(&mut std::io::stdin(), &mut src).expect("a SCoP on stdin");
    let opts = SchedulerOptions {
        scheduler,
        fuse: Fusion::Smart,
        ..SchedulerOptions::default()
    };
    let result = extract_scop(&src, &Options::default())
        .map_err(|e| format!("front end: {e}"))
        .and_then(|scop| {
            let deps = dependences(&scop).map_err(|e| format!("dependences: {e}"))?;
            compute(&scop, &deps, &opts)
                .and_then(|s| s.to_union_map())
                .map_err(|e| e.to_string())
        });
    match result {
        Ok(u) => println!("ok\t{u}"),
        Err(e) => println!("err\t{}", e.replace(['\n', '\t'], " ")),
    }
}

/// The timing table, or the worker with `--worker`.
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == "--worker") {
        match args.get(1).map(String::as_str) {
            Some("dfp") => worker(Scheduler::Dfp),
            Some("lp") => worker(Scheduler::Lp),
            _ => {
                eprintln!("usage: schedule_vs_isl --worker dfp|lp");
                std::process::exit(2);
            }
        }
        return;
    }
    let reps = opt(&args, "--reps", 7).max(1) as usize;
    let isl_ops = opt(&args, "--isl-ops", 100_000_000);
    let all = kernels(true).expect("the kernel directories");
    println!(
        "{:<20} {:>5} {:>12} {:>12} {:>12} {:>8} {:>8}",
        "kernel", "stmts", "ours dfp", "ours lp", "isl", "dfp/isl", "lp/isl"
    );
    let mut errors = Vec::new();
    let mut total = [0.0f64; 3];
    let mut both = [0usize; 2];
    let mut total_pair = [[0.0f64; 2]; 2];
    for (name, src) in &all {
        let scop = match extract_scop(src, &Options::default()) {
            Ok(s) => s,
            Err(e) => {
                println!("{name:<20} rejected by our C front end: {e}");
                errors.push(format!("{name}: front end: {e}"));
                continue;
            }
        };
        let deps = match dependences(&scop) {
            Ok(d) => d,
            Err(e) => {
                errors.push(format!("{name}: dependences: {e}"));
                continue;
            }
        };
        let input = match SchedInput::new(&scop, &deps) {
            Ok(i) => i,
            Err(e) => {
                errors.push(format!("{name}: {e}"));
                continue;
            }
        };
        let t = time(&scop, &deps, &input, reps, isl_ops);
        println!(
            "{:<20} {:>5} {:>12} {:>12} {:>12} {:>8} {:>8}",
            name,
            scop.statements.len(),
            cell(&t[0]),
            cell(&t[1]),
            cell(&t[2]),
            ratio(&t[0], &t[2]),
            ratio(&t[1], &t[2])
        );
        for (k, side) in ["ours dfp", "ours lp", "isl"].iter().enumerate() {
            if let Err(e) = &t[k] {
                errors.push(format!("{name} ({side}): {e}"));
            }
        }
        if let [Ok(dfp), Ok(lp), Ok(isl)] = &t {
            total[0] += dfp;
            total[1] += lp;
            total[2] += isl;
        }
        for k in 0..2 {
            if let (Ok(o), Ok(i)) = (&t[k], &t[2]) {
                both[k] += 1;
                total_pair[k][0] += o;
                total_pair[k][1] += i;
            }
        }
    }
    let n_all = all.len();
    println!(
        "{:<20} {:>5} {:>12.0} {:>12.0} {:>12.0} {:>8} {:>8}",
        "total (all ok)",
        "",
        total[0],
        total[1],
        total[2],
        ratio(&Ok(total[0]), &Ok(total[2])),
        ratio(&Ok(total[1]), &Ok(total[2]))
    );
    for (k, side) in ["dfp", "lp"].iter().enumerate() {
        println!(
            "ours {side} / isl over the {} of {n_all} kernels both scheduled: {:.0} / {:.0} µs = {}",
            both[k],
            total_pair[k][0],
            total_pair[k][1],
            ratio(&Ok(total_pair[k][0]), &Ok(total_pair[k][1]))
        );
    }
    println!(
        "medians of {reps} interleaved runs; isl limited to {isl_ops} operations per call (0: none)"
    );
    for e in &errors {
        // the messages of our scheduler carry a whole relation
        let short: String = e.chars().take(200).collect();
        let more = if short.len() < e.len() { " ..." } else { "" };
        println!("  {short}{more}");
    }
}
