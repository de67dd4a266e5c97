//! Criterion benchmark of the scheduler against isl's, side by side in the
//! group `schedule`: `ours/KERNEL` is `presburger_schedule::compute` (dfp, smart
//! fusion) from the `Scop` and its `Dependences`; `isl/KERNEL` is isl's
//! `compute_schedule` on the same domains and dependences (validity =
//! proximity = coincidence = RAW ∪ WAR ∪ WAW, as in `src/schedule_isl.rs`),
//! parsed from our text before each call and outside the measurement.
//! Kernels: `../schedule/tests/kernels/` and `../schedule/tests/pluto-kernels/`
//! (`pluto/NAME`); a kernel our scheduler fails on is left out (printed).
//!
//!     cargo bench --bench schedule [-- FILTER]

use criterion::{BatchSize, BenchmarkId, Criterion, criterion_group, criterion_main};
use presburger_fuzz::isl::Ctx;
use presburger_fuzz::schedule_isl::{SchedInput, kernels};
use presburger_schedule::{
    Fusion, Options, Scheduler, SchedulerOptions, compute, dependences, extract_scop,
};
use std::time::Duration;

/// Registers `ours/KERNEL` and `isl/KERNEL` for every kernel.
fn schedule_bench(c: &mut Criterion) {
    let opts = SchedulerOptions {
        scheduler: Scheduler::Dfp,
        fuse: Fusion::Smart,
        ..SchedulerOptions::default()
    };
    let ctx = Ctx::new();
    ctx.set_max_operations(100_000_000);
    let mut group = c.benchmark_group("schedule");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    for (name, src) in kernels(true).expect("the kernel directories") {
        let Ok(scop) = extract_scop(&src, &Options::default()) else {
            eprintln!("{name}: rejected by our C front end, left out");
            continue;
        };
        let Ok(deps) = dependences(&scop) else {
            eprintln!("{name}: no dependences, left out");
            continue;
        };
        if let Err(e) = compute(&scop, &deps, &opts) {
            let e: String = e.to_string().chars().take(120).collect();
            eprintln!("{name}: our scheduler fails ({e} ...), left out");
            continue;
        }
        let input = SchedInput::new(&scop, &deps).expect("isl's input");
        group.bench_function(BenchmarkId::new("ours", &name), |b| {
            b.iter(|| compute(&scop, &deps, &opts))
        });
        group.bench_function(BenchmarkId::new("isl", &name), |b| {
            b.iter_batched_ref(
                || input.read(&ctx).expect("isl reads the input"),
                |(dom, d)| {
                    ctx.reset_operations();
                    dom.compute_schedule(d, d, d)
                        .expect("isl's schedule (within its limit)")
                },
                BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, schedule_bench);
criterion_main!(benches);
