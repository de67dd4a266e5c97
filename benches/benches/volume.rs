//! The volume model on the paper's example (`examples/conv_pad_relu.mlir`): reading
//! the MLIR text and building the program's element map (`model`), the regions of
//! the output (`regions`), and 16x16 tiles with interior tiles and slices
//! (`tiles`).
//!
//! Run with `cargo bench -p presburger-benches --bench volume`; ids are `volume/<step>`.

use criterion::{Criterion, criterion_group, criterion_main};
use presburger_volume::model::{Model, Options};
use std::hint::black_box;
use std::time::Duration;

fn paper_example(c: &mut Criterion) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/conv_pad_relu.mlir"
    );
    let Ok(text) = std::fs::read_to_string(path) else {
        eprintln!("warning: {path} not found");
        return;
    };
    let opts = Options::default();
    let model = match Model::from_mlir(&text, &opts) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("warning: the example does not build: {e}");
            return;
        }
    };
    let Ok(out) = model.output(None) else { return };
    let mut g = c.benchmark_group("volume");
    g.measurement_time(Duration::from_secs(5));
    g.bench_function("model", |b| {
        b.iter(|| black_box(Model::from_mlir(&text, &opts)))
    });
    g.bench_function("regions", |b| b.iter(|| black_box(model.regions(out))));
    g.sample_size(10);
    g.bench_function("tiles", |b| {
        b.iter(|| black_box(model.tile(out, &[(2, 16), (3, 16)])))
    });
    g.finish();
}

criterion_group!(benches, paper_example);
criterion_main!(benches);
