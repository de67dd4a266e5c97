//! The schedules of the `schedule` crate against isl (see
//! `src/schedule_isl.rs` for what isl computes): every schedule we compute
//! must be valid by isl's check (`Dep ⊆ S ; <_lex ; S⁻¹`) and by ours
//! (`presburger_schedule::validity::check`), on every kernel of
//! `../schedule/tests/kernels/` (schedulers dfp, lp and identity with smart
//! fusion, dfp also with max and none; isl's own schedule of each kernel is
//! checked both ways too) and on random SCoPs of `src/scops.rs` (dfp and
//! lp, smart; `SCHEDULE_ISL_CASES`, default 100, from `SCHEDULE_ISL_SEED`,
//! default 1). The kernels' table (our outer band depth and parallel loops
//! against those of isl's schedule, measured the same way by
//! `schedule_isl::metrics`) is printed with `--nocapture`
//! (`SCHEDULE_ISL_VERBOSE=1` also prints the schedules):
//!
//!     cargo test --release --test schedule_isl -- --nocapture
//!
//! Failures: an invalid schedule, the two checks disagreeing, an `Err` of
//! our scheduler, a kernel or SCoP our front end or dependences reject.
//!
//! On random SCoPs our scheduler runs in a child process
//! (`schedule_vs_isl --worker dfp|lp`), killed past `SCHEDULE_ISL_CAP_MS`
//! (default 10000; 0 for none) and counted (tolerated unless
//! `SCHEDULE_ISL_STRICT=1`): on a few SCoPs the dependence analysis (which
//! the child runs too) takes seconds; the schedulers take milliseconds. isl's work is limited per check
//! (`SCHEDULE_ISL_OPS`, default 10^7); a check past it is skipped and
//! counted (at most 1%). `SCHEDULE_ISL_SHOW=K` prints K of the tolerated
//! errors and timeouts with their SCoPs (default 3).
//!
//! `dfp_matches_isl_on_kernels`: the default scheduler (dfp, smart) is at
//! least as good as isl's on both metrics, kernel by kernel. Ignored (run
//! with `--ignored`): `random_scops_valid_by_isl_10k` (10^4 random SCoPs).

use presburger::UnionMap;
use presburger_fuzz::Rng;
use presburger_fuzz::isl::Ctx;
use presburger_fuzz::schedule_isl::{
    Metrics, SchedInput, isl_schedule, isl_valid, kernels, metrics,
};
use presburger_fuzz::scops::random_scop;
use presburger_schedule::{
    Fusion, Options, Scheduler, SchedulerOptions, compute, dependences, extract_scop,
};
use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// isl's limit per step (its own unit; `SCHEDULE_ISL_OPS` overrides it).
const ISL_MAX_OPERATIONS: u64 = 10_000_000;

/// The schedulers run on every kernel.
const KERNEL_CONFIGS: [(Scheduler, Fusion); 5] = [
    (Scheduler::Dfp, Fusion::Smart),
    (Scheduler::Dfp, Fusion::Max),
    (Scheduler::Dfp, Fusion::None),
    (Scheduler::Lp, Fusion::Smart),
    (Scheduler::Identity, Fusion::Smart),
];

/// The schedulers run on the random SCoPs.
const RANDOM_CONFIGS: [(Scheduler, Fusion); 2] = [
    (Scheduler::Dfp, Fusion::Smart),
    (Scheduler::Lp, Fusion::Smart),
];

/// An environment variable as a number, or `default`.
fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A context with isl's operation limit set.
fn new_ctx() -> Ctx {
    let ctx = Ctx::new();
    ctx.set_max_operations(env("SCHEDULE_ISL_OPS", ISL_MAX_OPERATIONS));
    ctx
}

/// `dfp/smart` and the like.
fn label((s, f): (Scheduler, Fusion)) -> String {
    format!("{s:?}/{f:?}").to_lowercase()
}

/// One kernel under one of our schedulers, beside isl's schedule.
struct Row {
    kernel: String,
    config: String,
    ours: Metrics,
    /// isl's metrics and the outer bands of its tree (`None`: isl failed).
    isl: Option<(Metrics, String)>,
}

/// What [`run_kernels`] found.
#[derive(Default)]
struct KernelRun {
    /// The kernels.
    kernels: usize,
    /// One row per schedule computed.
    rows: Vec<Row>,
    /// An error of ours, a schedule found
    /// invalid, a check that could not run.
    failures: Vec<String>,
}

/// Runs `configs` on every kernel of `../schedule/tests/kernels/`, with
/// isl's schedule of each.
fn run_kernels(configs: &[(Scheduler, Fusion)]) -> KernelRun {
    let all = kernels(false).unwrap();
    assert!(all.len() >= 24, "{} kernels", all.len());
    let ctx = new_ctx();
    let mut run = KernelRun {
        kernels: all.len(),
        ..KernelRun::default()
    };
    let verbose = env("SCHEDULE_ISL_VERBOSE", 0) != 0;
    let (rows, failures) = (&mut run.rows, &mut run.failures);
    for (kernel, src) in &all {
        let kernel = kernel.clone();
        let scop = match extract_scop(src, &Options::default()) {
            Ok(s) => s,
            Err(e) => {
                failures.push(format!("{kernel}: front end: {e}"));
                continue;
            }
        };
        let deps = match dependences(&scop) {
            Ok(d) => d,
            Err(e) => {
                failures.push(format!("{kernel}: dependences: {e}"));
                continue;
            }
        };
        let input = match SchedInput::new(&scop, &deps) {
            Ok(i) => i,
            Err(e) => {
                failures.push(format!("{kernel}: {e}"));
                continue;
            }
        };
        ctx.reset_operations();
        let isl = match isl_schedule(&ctx, &input) {
            Ok(s) => {
                // isl's schedule must pass both checks too (a check of the checks)
                ctx.reset_operations();
                let by_isl = isl_valid(&ctx, &input, &s.map);
                let by_ours = presburger_schedule::validity::check(&scop, &deps, &s.map);
                if !matches!(by_isl, Ok(true)) || !by_ours.as_ref().is_ok_and(|v| v.is_valid()) {
                    failures.push(format!(
                        "{kernel}: isl's schedule {}: isl's check {by_isl:?}, ours {by_ours:?}",
                        s.text
                    ));
                }
                if s.padded || verbose {
                    let padded = if s.padded { " (padded with zeros)" } else { "" };
                    println!(
                        "{kernel}: isl's schedule{padded}: {} (read back: {})",
                        s.text, s.map
                    );
                }
                match metrics(&scop, &deps, &s.map, s.dims) {
                    Ok(m) => Some((m, s.tree_text())),
                    Err(e) => {
                        failures.push(format!("{kernel}: isl's schedule: {e}"));
                        None
                    }
                }
            }
            Err(e) => {
                failures.push(format!("{kernel}: {e}"));
                None
            }
        };
        for &c in configs {
            let config = label(c);
            let opts = SchedulerOptions {
                scheduler: c.0,
                fuse: c.1,
                ..SchedulerOptions::default()
            };
            let name = format!("{kernel} {config}");
            let s = match compute(&scop, &deps, &opts) {
                Ok(s) => s,
                Err(e) => {
                    failures.push(format!("{name}: compute: {e}\n{src}"));
                    continue;
                }
            };
            let u = match s.to_union_map() {
                Ok(u) => u,
                Err(e) => {
                    failures.push(format!("{name}: to_union_map: {e}"));
                    continue;
                }
            };
            ctx.reset_operations();
            match isl_valid(&ctx, &input, &u) {
                Ok(true) => {}
                Ok(false) => failures.push(format!("{name}: invalid by isl's check: {u}")),
                Err(e) => failures.push(format!("{name}: isl's check: {e}")),
            }
            match presburger_schedule::validity::check(&scop, &deps, &u) {
                Ok(v) if v.is_valid() => {}
                Ok(v) => failures.push(format!("{name}: invalid by our check: {v:?}")),
                Err(e) => failures.push(format!("{name}: our check: {e}")),
            }
            if verbose {
                println!("{name}: ours {u}");
            }
            match metrics(&scop, &deps, &u, s.n_dims()) {
                Ok(ours) => rows.push(Row {
                    kernel: kernel.clone(),
                    config,
                    ours,
                    isl: isl.clone(),
                }),
                Err(e) => failures.push(format!("{name}: {e}")),
            }
        }
    }
    run
}

/// Prints the rows as a table (`-` where isl failed).
fn print_table(rows: &[Row]) {
    println!(
        "{:<16} {:<15} {:>10} {:>10} {:>12} {:>12} {:>9} {:>9} {:<12}",
        "kernel",
        "scheduler",
        "ours band",
        "isl band",
        "ours par",
        "isl par",
        "ours dims",
        "isl dims",
        "isl tree"
    );
    for r in rows {
        let (ib, ip, idims, tree) = match &r.isl {
            Some((m, t)) => (
                m.band_depth.to_string(),
                m.parallel_loops.to_string(),
                m.dims.to_string(),
                t.clone(),
            ),
            None => ("-".into(), "-".into(), "-".into(), "-".into()),
        };
        println!(
            "{:<16} {:<15} {:>10} {:>10} {:>12} {:>12} {:>9} {:>9} {:<12}",
            r.kernel,
            r.config,
            r.ours.band_depth,
            ib,
            r.ours.parallel_loops,
            ip,
            r.ours.dims,
            idims,
            tree
        );
    }
}

/// Every kernel under every scheduler of [`KERNEL_CONFIGS`]: valid by
/// isl's check and ours (isl's schedule too); prints the table.
#[test]
fn kernels_valid_by_isl() {
    let t = Instant::now();
    let run = run_kernels(&KERNEL_CONFIGS);
    print_table(&run.rows);
    println!(
        "{} schedules checked ({} kernels, {} schedulers), {} failures, {:.1} s",
        run.rows.len(),
        run.kernels,
        KERNEL_CONFIGS.len(),
        run.failures.len(),
        t.elapsed().as_secs_f64()
    );
    for f in &run.failures {
        println!("  {f}");
    }
    assert!(run.failures.is_empty(), "{} failures", run.failures.len());
    assert_eq!(
        run.rows.len(),
        KERNEL_CONFIGS.len() * run.kernels,
        "every kernel under every scheduler"
    );
    // the identity never fails: every kernel has at least that row
    assert_eq!(
        run.rows
            .iter()
            .filter(|r| r.config == label((Scheduler::Identity, Fusion::Smart)))
            .count(),
        run.kernels
    );
}

/// dfp/smart schedules every kernel with at least isl's outer band depth
/// and parallel loops (measured the same way, [`metrics`]).
#[test]
fn dfp_matches_isl_on_kernels() {
    let run = run_kernels(&[(Scheduler::Dfp, Fusion::Smart)]);
    print_table(&run.rows);
    let mut problems: Vec<String> = run.failures.clone();
    for r in &run.rows {
        let Some((isl, _)) = r.isl.as_ref() else {
            problems.push(format!("{}: no schedule from isl", r.kernel));
            continue;
        };
        if r.ours.band_depth < isl.band_depth || r.ours.parallel_loops < isl.parallel_loops {
            problems.push(format!(
                "{}: band depth {} (isl {}), parallel loops {} (isl {})",
                r.kernel,
                r.ours.band_depth,
                isl.band_depth,
                r.ours.parallel_loops,
                isl.parallel_loops
            ));
        }
    }
    for p in &problems {
        println!("  {p}");
    }
    assert!(
        problems.is_empty(),
        "dfp/smart: {} kernels not scheduled or below isl's metrics",
        problems.len()
    );
    assert_eq!(run.rows.len(), run.kernels, "every kernel scheduled");
}

/// The counts of the random run.
#[derive(Default)]
struct Tally {
    checked: usize,
    /// `compute` returned `Err` (with the SCoP).
    errors: Vec<String>,
    /// The worker went past the time cap (with the SCoP).
    timeouts: Vec<String>,
    /// isl's check says invalid (with the SCoP and the schedule).
    invalid: Vec<String>,
    /// isl's check and ours disagree, or ours failed.
    disagree: Vec<String>,
    /// isl's check did not finish (its limit).
    skipped: Vec<String>,
    /// The front end, the dependences or the worker failed (not the scheduler).
    other: Vec<String>,
}

/// Runs the worker (`schedule_vs_isl --worker dfp|lp`, by `scheduler`) on
/// `src` with a time cap (`None`: none): its line, or `None` past the cap
/// (the child killed).
fn run_worker(
    src: &str,
    scheduler: Scheduler,
    cap: Option<Duration>,
) -> Result<Option<String>, String> {
    let which = match scheduler {
        Scheduler::Dfp => "dfp",
        Scheduler::Lp => "lp",
        Scheduler::Identity => return Err("the worker runs dfp or lp".into()),
    };
    let mut child = Command::new(env!("CARGO_BIN_EXE_schedule_vs_isl"))
        .args(["--worker", which])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("worker: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("worker: no stdin")?;
    stdin
        .write_all(src.as_bytes())
        .map_err(|e| format!("worker: {e}"))?;
    drop(stdin);
    let mut stdout = child.stdout.take().ok_or("worker: no stdout")?;
    // read while the child runs (a long message must not block it)
    let reader = std::thread::spawn(move || {
        let mut out = String::new();
        stdout.read_to_string(&mut out).map(|_| out)
    });
    let t = Instant::now();
    loop {
        if let Some(status) = child.try_wait().map_err(|e| format!("worker: {e}"))? {
            let out = reader
                .join()
                .map_err(|_| "worker: reader panicked")?
                .map_err(|e| format!("worker: {e}"))?;
            if !status.success() {
                return Err(format!("worker: {status}: {out}"));
            }
            return Ok(Some(out.trim_end().to_string()));
        }
        if cap.is_some_and(|c| t.elapsed() > c) {
            let _ = child.kill();
            let _ = child.wait();
            let _ = reader.join();
            return Ok(None);
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// `cases` random SCoPs from `seed` under each of [`RANDOM_CONFIGS`] (see
/// the module doc for the policy on errors and the time cap).
fn random_run(cases: u64, seed: u64) {
    let strict = env("SCHEDULE_ISL_STRICT", 0) != 0;
    let cap = match env("SCHEDULE_ISL_CAP_MS", 10_000) {
        0 => None,
        ms => Some(Duration::from_millis(ms)),
    };
    let ctx = new_ctx();
    let mut rng = Rng::new(seed);
    let mut tally = Tally::default();
    let t = Instant::now();
    for k in 0..cases {
        let src = random_scop(&mut rng);
        let case = format!("case {k} (seed {seed})");
        let scop = match extract_scop(&src, &Options::default()) {
            Ok(s) => s,
            Err(e) => {
                tally.other.push(format!("{case}: front end: {e}\n{src}"));
                continue;
            }
        };
        let deps = match dependences(&scop) {
            Ok(d) => d,
            Err(e) => {
                tally.other.push(format!("{case}: dependences: {e}\n{src}"));
                continue;
            }
        };
        let input = match SchedInput::new(&scop, &deps) {
            Ok(i) => i,
            Err(e) => {
                tally.other.push(format!("{case}: {e}\n{src}"));
                continue;
            }
        };
        for c in RANDOM_CONFIGS {
            let name = format!("{case} {}", label(c));
            let line = match run_worker(&src, c.0, cap) {
                Ok(Some(line)) => line,
                Ok(None) => {
                    tally.timeouts.push(format!(
                        "{name}: past {} ms\n{src}",
                        cap.map_or(0, |c| c.as_millis())
                    ));
                    continue;
                }
                Err(e) => {
                    tally.other.push(format!("{name}: {e}\n{src}"));
                    continue;
                }
            };
            let u: UnionMap = match line.split_once('\t') {
                Some(("ok", text)) => match text.parse() {
                    Ok(u) => u,
                    Err(e) => {
                        tally.other.push(format!("{name}: reading {text}: {e}"));
                        continue;
                    }
                },
                _ => {
                    tally.errors.push(format!("{name}: {line}\n{src}"));
                    continue;
                }
            };
            ctx.reset_operations();
            let by_isl = isl_valid(&ctx, &input, &u);
            let by_ours =
                presburger_schedule::validity::check(&scop, &deps, &u).map(|v| v.is_valid());
            match by_isl {
                Ok(true) => tally.checked += 1,
                Ok(false) => {
                    tally.checked += 1;
                    tally.invalid.push(format!("{name}: schedule {u}\n{src}"));
                }
                Err(e) => {
                    tally.skipped.push(format!("{name}: {e}"));
                    continue;
                }
            }
            if by_ours.as_ref().ok() != by_isl.as_ref().ok() {
                tally.disagree.push(format!(
                    "{name}: isl's check {by_isl:?}, ours {by_ours:?}: schedule {u}\n{src}"
                ));
            }
        }
    }
    let total = cases as usize * RANDOM_CONFIGS.len();
    println!(
        "random SCoPs (seed {seed}): {cases} SCoPs, {total} schedules asked: {} checked by isl, {} invalid, {} checks disagreeing, {} skipped (isl's limit); compute: {} Err; {} schedules past the time cap ({} ms); {} other errors; {:.1} s",
        tally.checked,
        tally.invalid.len(),
        tally.disagree.len(),
        tally.skipped.len(),
        tally.errors.len(),
        tally.timeouts.len(),
        cap.map_or(0, |c| c.as_millis()),
        tally.other.len(),
        t.elapsed().as_secs_f64()
    );
    for s in tally.skipped.iter().take(5) {
        println!("  skipped {s}");
    }
    let show = env("SCHEDULE_ISL_SHOW", 3) as usize;
    for m in tally
        .errors
        .iter()
        .chain(&tally.invalid)
        .chain(&tally.disagree)
        .chain(&tally.other)
        .take(10)
        .chain(tally.timeouts.iter().take(show))
    {
        println!("  {m}");
    }
    assert!(
        tally.errors.is_empty(),
        "compute returned Err {} times",
        tally.errors.len()
    );
    assert!(
        tally.invalid.is_empty(),
        "{} schedules invalid by isl's check",
        tally.invalid.len()
    );
    assert!(
        tally.disagree.is_empty(),
        "{} disagreements between the checks",
        tally.disagree.len()
    );
    assert!(tally.other.is_empty(), "{} other errors", tally.other.len());
    assert!(
        !strict || tally.timeouts.is_empty(),
        "strict: {} schedules past the time cap",
        tally.timeouts.len()
    );
    assert!(
        tally.skipped.len() <= total / 100,
        "too many checks skipped: {}",
        tally.skipped.len()
    );
    assert!(tally.checked > 0, "nothing checked");
}

/// `SCHEDULE_ISL_CASES` (default 100) random SCoPs: every schedule valid.
#[test]
fn random_scops_valid_by_isl() {
    random_run(env("SCHEDULE_ISL_CASES", 100), env("SCHEDULE_ISL_SEED", 1));
}

/// As [`random_scops_valid_by_isl`] on 10^4 SCoPs by default.
#[test]
#[ignore = "10^4 SCoPs: long"]
fn random_scops_valid_by_isl_10k() {
    random_run(
        env("SCHEDULE_ISL_CASES", 10_000),
        env("SCHEDULE_ISL_SEED", 1),
    );
}

/// The checks can fail, and the metrics count what they should.
#[test]
fn a_reversed_schedule_is_invalid() {
    // the checks can fail: jacobi-1d (the time loop carries dependences)
    // under its identity schedule with every dimension negated, so every
    // dependence runs backwards
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../schedule/tests/kernels/jacobi-1d.c");
    let scop = extract_scop(&std::fs::read_to_string(path).unwrap(), &Options::default()).unwrap();
    let deps = dependences(&scop).unwrap();
    let input = SchedInput::new(&scop, &deps).unwrap();
    let ctx = new_ctx();
    let mut s = presburger_schedule::identity(&scop, &deps).unwrap();
    let forward = s.to_union_map().unwrap();
    assert_eq!(isl_valid(&ctx, &input, &forward), Ok(true));
    for st in &mut s.statements {
        for row in &mut st.rows {
            for c in row.iter_mut() {
                *c = -c.clone();
            }
        }
    }
    let backward = s.to_union_map().unwrap();
    assert_eq!(isl_valid(&ctx, &input, &backward), Ok(false));
    assert!(
        !presburger_schedule::validity::check(&scop, &deps, &backward)
            .unwrap()
            .is_valid()
    );
    // and a schedule that runs everything at once
    let at_once: UnionMap = "{ S0[t, i] -> [0]; S1[t, i] -> [0] }".parse().unwrap();
    assert_eq!(isl_valid(&ctx, &input, &at_once), Ok(false));
    // the metrics see the time loop: the identity's outer band is the time
    // loop alone (the two statements' order inside it breaks the band)
    let m = metrics(&scop, &deps, &forward, 5).unwrap();
    assert_eq!(m.scalar, vec![true, false, true, false, true]);
    assert_eq!(m.band_depth, 1);
    assert_eq!(m.parallel_loops, 1);
}
