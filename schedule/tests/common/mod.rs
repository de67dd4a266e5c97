//! Shared by the schedule tests: the kernels of `tests/kernels/`.
#![allow(dead_code)] // (each test file uses some of it)

use schedule::{extract_scop, Options, Scop};

/// The SCoP of kernel `tests/kernels/NAME.c`.
pub fn kernel(name: &str) -> Scop {
    let path = format!("{}/tests/kernels/{name}.c", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    extract_scop(&text, &Options::default()).unwrap_or_else(|e| panic!("{path}: {e}"))
}
