//! The interpreter against MLIR's own execution (`mlir-opt-22` lowering,
//! `mlir-runner-22`): the same pseudo-random inputs, results compared by the
//! hash of their bit patterns. Skipped (with a message) when the tools are not
//! installed.

mod common;

use common::mlir_exec::check_against_mlir;

fn example(name: &str) -> String {
    std::fs::read_to_string(format!("{}/../examples/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

#[test]
fn conv_pad_relu() {
    check_against_mlir(&example("conv_pad_relu.mlir"), "krnl0", 1, &[]);
}

#[test]
fn dynamic_pad_matmul() {
    check_against_mlir(
        &example("dynamic_pad_matmul.mlir"),
        "pad_matmul",
        2,
        &[5, 8],
    );
}

#[test]
fn tiled_pad_conv1d_original_and_tiled() {
    let text = include_str!("programs/tiled_pad_conv1d.mlir");
    volume::interp::compare((text, "orig"), (text, "tiled"), 4, &[])
        .unwrap_or_else(|e| panic!("{e}"));
    check_against_mlir(text, "orig", 4, &[]);
    check_against_mlir(text, "tiled", 4, &[]);
}

#[test]
fn conv_pool() {
    check_against_mlir(include_str!("programs/conv_pool.mlir"), "conv_pool", 5, &[]);
}

#[test]
fn scalar_mix() {
    check_against_mlir(include_str!("programs/scalar_mix.mlir"), "mix", 6, &[6]);
}

#[test]
fn depthwise_and_pooling_named_ops() {
    check_against_mlir(
        include_str!("programs/depthwise_pool.mlir"),
        "dw_pool",
        8,
        &[],
    );
}
