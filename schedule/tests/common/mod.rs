//! Shared by the schedule tests: the kernels of `tests/kernels/`.
#![allow(dead_code)] // (each test file uses some of it)

use presburger_schedule::{Options, Scop, extract_scop};

/// The SCoP of kernel `tests/kernels/NAME.c`.
pub fn kernel(name: &str) -> Scop {
    let path = format!("{}/tests/kernels/{name}.c", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    extract_scop(&text, &Options::default()).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The SCoP of Pluto's reference kernel `tests/pluto-kernels/NAME.c`.
pub fn pluto_kernel(name: &str) -> Scop {
    let path = format!(
        "{}/tests/pluto-kernels/{name}.c",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    extract_scop(&text, &Options::default()).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The names of the kernels in `tests/kernels/` (C files), sorted.
pub fn kernel_names() -> Vec<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/kernels");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}
