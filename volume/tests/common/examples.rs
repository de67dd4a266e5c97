//! The programs of `examples/` with the tile sizes and harness sizes the emit
//! tests use (`tests/emit.rs` with MLIR's tools, `tests/emit_interp.rs` with
//! the interpreter), and the readers of example and test programs.

use presburger_volume::interp::harness::HarnessSizes;

/// A program of `examples/`, its tile sizes, and the sizes the harness gives to
/// `?` dimensions and index arguments.
pub type Case = (
    &'static str,
    &'static [(usize, i64)],
    i64,
    &'static [(&'static str, i64)],
);

/// Every program of `examples/` with its case.
pub const PROGRAMS: &[Case] = &[
    ("conv_pad_relu", &[(2, 16), (3, 16)], 0, &[]),
    ("dynamic_pad_matmul", &[(0, 4)], 37, &[("n", 40)]),
    ("matmul_bias_relu", &[(0, 32), (1, 32)], 0, &[]),
    ("conv_conv", &[(2, 16), (3, 16)], 0, &[]),
    ("depthwise_conv", &[(2, 32), (3, 32)], 0, &[]),
    ("max_pool", &[(2, 16), (3, 16)], 0, &[]),
    ("transpose_matmul", &[(0, 32), (1, 16)], 0, &[]),
    ("asym_pad_stencil", &[(0, 8), (1, 16)], 0, &[]),
];

/// The text of `examples/<name>.mlir`.
pub fn example(name: &str) -> String {
    read(&format!(
        "{}/../examples/{name}.mlir",
        env!("CARGO_MANIFEST_DIR")
    ))
}

/// The text of `tests/programs/<name>.mlir`.
pub fn test_program(name: &str) -> String {
    read(&format!(
        "{}/tests/programs/{name}.mlir",
        env!("CARGO_MANIFEST_DIR")
    ))
}

fn read(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The case of the example `name`.
pub fn case_of(name: &str) -> &'static Case {
    PROGRAMS
        .iter()
        .find(|p| p.0 == name)
        .unwrap_or_else(|| panic!("no example {name}"))
}

/// The tile sizes of the example `name` (none if it has no case).
pub fn tiles_of(name: &str) -> &'static [(usize, i64)] {
    PROGRAMS
        .iter()
        .find(|p| p.0 == name)
        .map(|p| p.1)
        .unwrap_or(&[])
}

/// The harness sizes of a case.
pub fn sizes_of(case: &Case) -> HarnessSizes {
    HarnessSizes {
        dynamic: case.2,
        index_args: case.3.iter().map(|(n, v)| (n.to_string(), *v)).collect(),
    }
}

/// The same sizes in the interpreter's order (as for
/// `presburger_volume::interp::pseudo_random_inputs_sized`).
pub fn interp_sizes(text: &str, sizes: &HarnessSizes) -> Vec<i64> {
    let p = presburger_volume::mlir::parse_program(text).unwrap_or_else(|e| panic!("{e}"));
    sizes.for_program(&p).unwrap_or_else(|e| panic!("{e}"))
}
