//! The emitter checked by our own interpreter (`presburger_volume::interp`), with no MLIR
//! tools: for every program of `examples/`, the tiled module (Algorithms 1 and
//! 2, with the tile sizes of `tests/emit.rs`) and the per-region module
//! (Algorithm 1 alone) compute bit for bit what the original does on the same
//! pseudo-random inputs. CI runs the small examples at full size and the large
//! ones as smaller instances (`tests/programs/<name>_small.mlir`: the same ops
//! on smaller tensors); the large ones at full size are ignored (about 20 s
//! in all in release builds, 30 s in debug ones, on two cores):
//!
//! ```text
//! cargo test --release -p presburger-volume --test emit_interp -- --ignored
//! ```

mod common;

use common::examples::{PROGRAMS, case_of, example, interp_sizes, sizes_of, test_program};
use presburger_volume::emit::emit;
use presburger_volume::interp;
use presburger_volume::model::Options;

/// The tile sizes of the smaller instance of each large example: they leave
/// both interior tiles and partitions.
const SMALL_TILES: &[(&str, &[(usize, i64)])] = &[
    ("conv_pad_relu", &[(2, 8), (3, 8)]),
    ("matmul_bias_relu", &[(0, 8), (1, 4)]),
    ("conv_conv", &[(2, 4), (3, 4)]),
    ("depthwise_conv", &[(2, 4), (3, 4)]),
    ("max_pool", &[(2, 2), (3, 4)]),
];

/// The tiled (with `tiles`) and the per-region module of `text`.
fn emitted(what: &str, text: &str, tiles: &[(usize, i64)]) -> [(String, String); 2] {
    let emit =
        |t| emit(text, &Options::default(), None, t).unwrap_or_else(|e| panic!("{what}: {e}"));
    let tiled = emit(tiles);
    assert!(
        tiled.contains("// Algorithm 2"),
        "{what}: no interior tiles with {tiles:?}"
    );
    [
        (format!("{what} tiled {tiles:?}"), tiled),
        (format!("{what} per region"), emit(&[])),
    ]
}

/// Emits the tiled and the per-region module of `text` and checks that each
/// computes bit for bit what the original does on the inputs of `seed` and
/// `sizes` (as for `interp::pseudo_random_inputs_sized`).
fn check_emitted(what: &str, text: &str, tiles: &[(usize, i64)], seed: u64, sizes: &[i64]) {
    let func = presburger_volume::mlir::parse_program(text)
        .unwrap_or_else(|e| panic!("{what}: {e}"))
        .name;
    for (which, module) in emitted(what, text, tiles) {
        interp::compare((text, &func), (&module, &func), seed, sizes)
            .unwrap_or_else(|e| panic!("{which}: {e}"));
    }
}

/// The smaller instance of example `name`.
fn check_small(name: &str) {
    let (_, tiles) = SMALL_TILES.iter().find(|s| s.0 == name).unwrap();
    let text = test_program(&format!("{name}_small"));
    check_emitted(&format!("{name}_small"), &text, tiles, 1, &[]);
}

/// Example `name` at full size, with the tile and harness sizes of the MLIR
/// tests (`tests/emit.rs`).
fn check_full_size(name: &str) {
    let case = case_of(name);
    let text = example(name);
    let sizes = interp_sizes(&text, &sizes_of(case));
    check_emitted(name, &text, case.1, 1, &sizes);
}

/// A test per example: the large ones as their smaller instances (run by
/// CI) and at full size (ignored), the others at full size (run by CI).
macro_rules! tests_per_example {
    (small: [$($small:ident),*], full_size_in_ci: [$($full:ident),*]) => {
        mod small {
            $(#[test]
            fn $small() {
                super::check_small(stringify!($small));
            })*
        }
        mod full_size {
            $(#[test]
            #[ignore = "full size: seconds each in release builds, up to 10 s in debug ones"]
            fn $small() {
                super::check_full_size(stringify!($small));
            })*
        }
        mod full_size_in_ci {
            $(#[test]
            fn $full() {
                super::check_full_size(stringify!($full));
            })*
        }
        /// The examples run as smaller instances.
        const SMALL: &[&str] = &[$(stringify!($small)),*];
        /// The examples run at full size by CI.
        const FULL_SIZE_IN_CI: &[&str] = &[$(stringify!($full)),*];
    };
}

tests_per_example!(
    small: [conv_pad_relu, matmul_bias_relu, conv_conv, depthwise_conv, max_pool],
    full_size_in_ci: [asym_pad_stencil, dynamic_pad_matmul, transpose_matmul]
);

/// The dynamic program at sizes where the interior is empty or the input has
/// no rows (the result has three rows more).
#[test]
fn dynamic_pad_matmul_at_small_sizes() {
    let text = example("dynamic_pad_matmul");
    let tiles = case_of("dynamic_pad_matmul").1;
    for rows in [0, 1, 5, 8] {
        check_emitted(&format!("{rows} rows"), &text, tiles, 2, &[rows, rows + 3]);
    }
}

/// Every example runs in CI, at full size or as its smaller instance.
#[test]
fn every_example_is_checked_in_ci() {
    for (name, ..) in PROGRAMS {
        let small = SMALL.contains(name);
        let full = FULL_SIZE_IN_CI.contains(name);
        assert!(small != full, "{name}: small {small}, full size {full}");
    }
    assert_eq!(SMALL.len() + FULL_SIZE_IN_CI.len(), PROGRAMS.len());
    assert_eq!(SMALL.len(), SMALL_TILES.len());
}

/// A module that computes something else is caught: each perturbation of the
/// emitted text (an interior tile's slice offset, a skipped tile, a
/// partition's slice, the padding value, where a region's result goes, a
/// constant) runs, and `compare` reports a differing element.
#[test]
fn a_perturbed_module_differs() {
    const TILED: usize = 0;
    const REGIONS: usize = 1;
    let perturbations = [
        (TILED, "(s0 * 16 - 1)>()[%v3]", "(s0 * 16)>()[%v3]"),
        (TILED, "%vc1 to %vc3 step %vc1", "%vc1 to %vc3 step %vc3"),
        (TILED, "%ifm[0, 0, 0, 47]", "%ifm[0, 0, 0, 46]"),
        (
            REGIONS,
            "tensor.yield %cst0 : f32",
            "tensor.yield %cst0_01 : f32",
        ),
        (REGIONS, "into %v1[0, 0, 0, 0]", "into %v1[0, 0, 1, 1]"),
        (
            REGIONS,
            "arith.constant 0.01 : f32",
            "arith.constant 0.02 : f32",
        ),
    ];
    let (name, tiles) = SMALL_TILES[0];
    let text = test_program(&format!("{name}_small"));
    let modules = emitted(name, &text, tiles);
    for (which, from, to) in perturbations {
        let (what, module) = &modules[which];
        assert!(module.contains(from), "{what}: no `{from}` to perturb");
        let wrong = module.replacen(from, to, 1);
        let e = interp::compare((&text, "krnl0"), (&wrong, "krnl0"), 1, &[])
            .expect_err(&format!("{what} with `{to}` for `{from}` passes"))
            .to_string();
        assert!(e.contains("differs"), "{what} with `{to}`: {e}");
    }
}
