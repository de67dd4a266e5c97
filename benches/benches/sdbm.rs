//! The SDBM fast path of `is_empty` against the general path (forced), on SDBM and
//! HSDBM sets of 2, 4, 8, 16 and 32 variables (see `presburger_benches::sdbm_family`), and the
//! recognition overhead on a set just outside the class (`not_sdbm_*`: automatic
//! path, which tries recognition first, against the general path alone).
//!
//! Run with `cargo bench -p presburger-benches --bench sdbm`; ids are
//! `sdbm/<set>/fast` and `sdbm/<set>/general`.

use criterion::{Criterion, criterion_group, criterion_main};
use presburger::internals::{EmptinessPath, is_empty_via};
use presburger_benches::sdbm_family;
use std::hint::black_box;
use std::time::Duration;

fn fast_vs_general(c: &mut Criterion) {
    let mut g = c.benchmark_group("sdbm");
    for n in [2usize, 4, 8, 16, 32] {
        for (name, set, empty) in sdbm_family(n) {
            let fast = if name.starts_with("not_sdbm") {
                EmptinessPath::Auto
            } else {
                EmptinessPath::ForceSdbm
            };
            for (label, path) in [("fast", fast), ("general", EmptinessPath::ForceGeneral)] {
                match is_empty_via(&set, path) {
                    Ok(e) if e == empty => {}
                    other => {
                        eprintln!("warning: {name} via {label}: {other:?}, expected {empty}");
                        continue;
                    }
                }
                g.bench_function(format!("{name}/{label}"), |b| {
                    b.iter(|| black_box(is_empty_via(&set, path)))
                });
            }
        }
    }
    g.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
        .sample_size(20)
}

criterion_group! {
    name = sdbm;
    config = config();
    targets = fast_vs_general
}
criterion_main!(sdbm);
