//! Runs a scheduler on C kernels, for a profiler or an instruction count
//! (steadier than times on a shared machine):
//!
//! ```text
//! cargo build --release -p presburger-benches --bin schedule_once
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null \
//!     --toggle-collect='*pluto*compute*' \
//!     target/release/schedule_once dfp schedule/tests/pluto-kernels/*.c
//! ```
//!
//! The first argument is the scheduler (`dfp` (the default policy), `dfp-max`,
//! `dfp-none`, `lp` or `identity`), the
//! others C files with a `#pragma scop`. The dependences are computed before
//! the scheduler runs; each kernel's schedule is printed in Pluto's style.
//! With `SCHEDULE_REPEAT=N` in the environment, each kernel is scheduled `N`
//! more times and the median time is printed too.
#![forbid(unsafe_code)]

use presburger_schedule::{
    Fusion, Options, Scheduler, SchedulerOptions, compute, dependences, extract_scop,
};

fn main() {
    let mut args = std::env::args().skip(1);
    let (scheduler, fuse) = match args.next().as_deref() {
        Some("dfp") => (Scheduler::Dfp, Fusion::Smart),
        Some("dfp-max") => (Scheduler::Dfp, Fusion::Max),
        Some("dfp-none") => (Scheduler::Dfp, Fusion::None),
        Some("lp") => (Scheduler::Lp, Fusion::Smart),
        Some("identity") => (Scheduler::Identity, Fusion::Smart),
        _ => {
            eprintln!("usage: schedule_once dfp|dfp-max|dfp-none|lp|identity FILE.c...");
            std::process::exit(2);
        }
    };
    let opts = SchedulerOptions {
        scheduler,
        fuse,
        ..SchedulerOptions::default()
    };
    for path in args {
        let result = std::fs::read_to_string(&path)
            .map_err(|e| e.to_string())
            .and_then(|src| extract_scop(&src, &Options::default()).map_err(|e| e.to_string()))
            .and_then(|scop| {
                let d = dependences(&scop).map_err(|e| e.to_string())?;
                let s = compute(&scop, &d, &opts).map_err(|e| e.to_string())?;
                let repeat: usize = std::env::var("SCHEDULE_REPEAT")
                    .ok()
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(0);
                let mut times: Vec<f64> = (0..repeat)
                    .map(|_| {
                        let t = std::time::Instant::now();
                        let _ = compute(&scop, &d, &opts);
                        t.elapsed().as_secs_f64() * 1e6
                    })
                    .collect();
                times.sort_by(f64::total_cmp);
                let median = times
                    .get(times.len() / 2)
                    .map(|t| format!("{t:.0} µs: "))
                    .unwrap_or_default();
                Ok(median
                    + &format!("band {} par {}: ", s.outer_band_depth(), s.parallel_loops())
                    + &s.statements
                        .iter()
                        .map(|st| st.describe(&s.params))
                        .collect::<Vec<_>>()
                        .join(" "))
            });
        match result {
            Ok(rows) => println!("{path}: {rows}"),
            Err(e) => println!("{path}: error: {e}"),
        }
    }
}
