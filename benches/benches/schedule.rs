//! The Pluto schedulers on the five reference kernels of `schedule/tests/pluto-kernels`
//! (gemm, jacobi-2d, seidel-2d, fdtd-2d, lu): the time of `presburger_schedule::compute`
//! alone (dependences computed once, outside the measurement), for pluto-lp-dfp
//! and pluto-lp with Pluto's default fusion, and pluto-lp-dfp with Farkas'
//! multipliers kept as LP variables (`dfp-multipliers`) instead of eliminated. isl's scheduler on the same
//! dependences is timed side by side by `cd fuzz && cargo run --release --bin
//! schedule_vs_isl` (it needs the C library, which this crate does not link).
//!
//! Run with `cargo bench -p presburger-benches --bench schedule`; ids are
//! `schedule/<scheduler>/<kernel>`.

use criterion::{Criterion, criterion_group, criterion_main};
use presburger_schedule::{
    FarkasMethod, Options, Scheduler, SchedulerOptions, compute, dependences, extract_scop,
};
use std::hint::black_box;
use std::time::Duration;

/// The five kernels Pluto's reference schedules were measured on.
const KERNELS: [&str; 5] = ["gemm", "jacobi-2d", "seidel-2d", "fdtd-2d", "lu"];

fn schedulers(c: &mut Criterion) {
    let mut g = c.benchmark_group("schedule");
    g.warm_up_time(Duration::from_millis(500));
    g.measurement_time(Duration::from_secs(2));
    g.sample_size(20);
    for name in KERNELS {
        let path = format!(
            "{}/../schedule/tests/pluto-kernels/{name}.c",
            env!("CARGO_MANIFEST_DIR")
        );
        let Ok(src) = std::fs::read_to_string(&path) else {
            eprintln!("warning: {path} not found");
            continue;
        };
        let scop = match extract_scop(&src, &Options::default()) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("warning: {name}: {e}");
                continue;
            }
        };
        let Ok(deps) = dependences(&scop) else {
            eprintln!("warning: {name}: no dependences");
            continue;
        };
        for (label, scheduler, farkas) in [
            ("dfp", Scheduler::Dfp, FarkasMethod::Generators),
            ("lp", Scheduler::Lp, FarkasMethod::Generators),
            ("dfp-multipliers", Scheduler::Dfp, FarkasMethod::Multipliers),
        ] {
            let opts = SchedulerOptions {
                scheduler,
                farkas,
                ..SchedulerOptions::default()
            };
            g.bench_function(format!("{label}/{name}"), |b| {
                b.iter(|| compute(black_box(&scop), black_box(&deps), &opts).ok())
            });
        }
    }
    g.finish();
}

criterion_group!(benches, schedulers);
criterion_main!(benches);
