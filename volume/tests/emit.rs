//! The emitter (Algorithms 1 and 2 as MLIR) checked by MLIR itself: every emitted
//! module passes `mlir-opt-22`'s verifier, and the original and emitted
//! functions, lowered with the pipeline of `mlir-notes.md` and run by
//! `mlir-runner-22` on the same deterministic inputs, give bit-identical
//! results (equal hashes of the IEEE bit patterns). Without `mlir-opt-22` on
//! the PATH these checks print a skip message and pass. Structural checks
//! (interior tiles hold no `tensor.pad`, the paper's slice offsets) need no
//! tools.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;

use common::examples::{PROGRAMS, case_of, example, sizes_of, tiles_of};
use common::mlir_exec::{Tools, mlir_hashes, tools};
use presburger_volume::emit::{EmitOptions, emit, emit_with};
use presburger_volume::interp::harness::HarnessSizes;
use presburger_volume::model::Options;

fn skip(what: &str) {
    eprintln!(
        "skipped ({what}): mlir-opt-22 / mlir-runner-22 not installed (apt-get install mlir-22-tools)"
    );
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("volume-emit-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn verify(module: &str, dir: &Path, file: &str) {
    let path = dir.join(file);
    std::fs::write(&path, module).unwrap();
    let o = Command::new("mlir-opt-22").arg(&path).output().unwrap();
    assert!(
        o.status.success(),
        "mlir-opt-22 rejects {}:\n{}",
        path.display(),
        String::from_utf8_lossy(&o.stderr)
    );
}

/// Runs the original and each emitted module (`(what, text)`) with the same
/// `@main` and asserts equal result hashes.
fn assert_same_results(t: &Tools, text: &str, emitted: &[(&str, &str)], sizes: &HarnessSizes) {
    let p = presburger_volume::mlir::parse_program(text).unwrap();
    let sizes = sizes.for_program(&p).unwrap();
    let run = |m: &str| mlir_hashes(t, m, &p.name, 1, &sizes).unwrap_or_else(|e| panic!("{e}"));
    let h0 = run(text);
    for (what, m) in emitted {
        assert_eq!(h0, run(m), "{what}: the result differs from the original's");
    }
}

/// Emits the tiled and the per-region modules of a program, verifies both, and
/// compares the results of the original and both emitted functions.
fn check(name: &str) {
    let tiles = tiles_of(name);
    let text = example(name);
    let tiled = emit(&text, &Options::default(), None, tiles).unwrap();
    let regions = emit(&text, &Options::default(), None, &[]).unwrap();
    assert!(tiled.contains("scf.for"), "{name}: no tile loop:\n{tiled}");
    let Some(t) = tools() else {
        return skip(name);
    };
    let dir = scratch(name);
    verify(&tiled, &dir, "tiled.mlir");
    verify(&regions, &dir, "regions.mlir");
    assert_same_results(
        &t,
        &text,
        &[
            (&format!("{name} tiled"), &tiled),
            (&format!("{name} per region"), &regions),
        ],
        &sizes_of(case_of(name)),
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn conv_pad_relu_runs_bit_identical() {
    check("conv_pad_relu");
}

#[test]
fn dynamic_pad_matmul_runs_bit_identical() {
    check("dynamic_pad_matmul");
}

#[test]
fn matmul_bias_relu_runs_bit_identical() {
    check("matmul_bias_relu");
}

#[test]
fn conv_conv_runs_bit_identical() {
    check("conv_conv");
}

#[test]
fn depthwise_conv_runs_bit_identical() {
    check("depthwise_conv");
}

#[test]
fn max_pool_runs_bit_identical() {
    check("max_pool");
}

#[test]
fn transpose_matmul_runs_bit_identical() {
    check("transpose_matmul");
}

#[test]
fn asym_pad_stencil_runs_bit_identical() {
    check("asym_pad_stencil");
}

/// The dynamic program at sizes where the interior is empty or the input has no
/// rows: the partitions alone cover the output.
#[test]
fn dynamic_sizes_small_and_empty() {
    let text = example("dynamic_pad_matmul");
    let tiled = emit(&text, &Options::default(), None, &[(0, 4)]).unwrap();
    assert!(tiled.contains("affine.min"), "no partial tile:\n{tiled}");
    let Some(t) = tools() else {
        return skip("dynamic sizes");
    };
    let dir = scratch("dynamic-small");
    for n in [0, 1, 2, 5, 8] {
        let sizes = HarnessSizes {
            dynamic: n,
            index_args: vec![("n".into(), n + 3)],
        };
        assert_same_results(&t, &text, &[(&format!("rows {n}"), &tiled)], &sizes);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Tile sizes that do not divide the output, a single interior tile index, a
/// tiled channel dimension, and tiles too large to have an interior.
#[test]
fn other_tile_sizes_run_bit_identical() {
    let text = example("conv_pad_relu");
    let cases: &[&[(usize, i64)]] = &[
        &[(2, 7), (3, 100)],
        &[(1, 4), (2, 16), (3, 16)],
        &[(2, 128), (3, 128)],
    ];
    let emitted: Vec<String> = cases
        .iter()
        .map(|t| emit(&text, &Options::default(), None, t).unwrap())
        .collect();
    let Some(t) = tools() else {
        return skip("other tile sizes");
    };
    let dir = scratch("other-tiles");
    let named: Vec<(String, &str)> = emitted
        .iter()
        .zip(cases)
        .map(|(m, tiles)| {
            verify(m, &dir, "t.mlir");
            (format!("tiles {tiles:?}"), m.as_str())
        })
        .collect();
    let named: Vec<(&str, &str)> = named.iter().map(|(w, m)| (w.as_str(), *m)).collect();
    assert_same_results(&t, &text, &named, &HarnessSizes::default());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Index arithmetic with `arith` ops (for readers without the affine dialect):
/// no `affine.` op is left, and the results stay bit-identical.
#[test]
fn arith_index_ops_run_bit_identical() {
    let opts = EmitOptions {
        arith_index: true,
        ..EmitOptions::default()
    };
    for name in ["conv_pad_relu", "dynamic_pad_matmul"] {
        let case = case_of(name);
        let text = example(name);
        let m = emit_with(&text, &Options::default(), None, case.1, &opts).unwrap();
        assert!(
            !m.contains("affine.apply") && !m.contains("affine.min"),
            "{m}"
        );
        assert!(!m.contains("affine.max"), "{m}");
        let Some(t) = tools() else {
            return skip("arith index ops");
        };
        let dir = scratch(&format!("arith-{name}"));
        verify(&m, &dir, "t.mlir");
        assert_same_results(&t, &text, &[(name, &m)], &sizes_of(case));
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// An output whose constant region is one corner (`out[i, j] = pad(x)[i + j]`
/// reads the padding only where `i + j >= 60`): the interior tiles are an L in
/// two disjoint pieces, one loop nest each, and the corner is a partition.
#[test]
fn interior_in_two_pieces_has_two_loop_nests() {
    let text = "func.func @diag(%x: tensor<60xf32>) -> tensor<32x32xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0] high[3] {
  ^bb0(%i: index):
    tensor.yield %zero : f32
  } : tensor<60xf32> to tensor<63xf32>
  %e = tensor.empty() : tensor<32x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i + j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = [\"parallel\", \"parallel\"]}
      ins(%p : tensor<63xf32>) outs(%e : tensor<32x32xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<32x32xf32>
  return %r : tensor<32x32xf32>
}
";
    let m = emit(text, &Options::default(), None, &[(0, 8), (1, 8)]).unwrap();
    assert_eq!(m.matches("// Algorithm 2").count(), 2, "{m}");
    assert_eq!(m.matches("// Algorithm 1: partition").count(), 1, "{m}");
    let Some(t) = tools() else {
        return skip("two pieces");
    };
    let dir = scratch("two-pieces");
    verify(&m, &dir, "t.mlir");
    assert_same_results(&t, text, &[("two pieces", &m)], &HarnessSizes::default());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The text of the interior tile loops (between the Algorithm 2 and the first
/// Algorithm 1 comment).
fn interior_part(module: &str) -> &str {
    let start = module
        .find("// Algorithm 2")
        .expect("no interior tile loops");
    let end = module[start..]
        .find("// Algorithm 1")
        .map_or(module.len(), |e| start + e);
    &module[start..end]
}

#[test]
fn interior_tiles_read_no_padding() {
    for (name, tiles, _, _) in PROGRAMS {
        let m = emit(&example(name), &Options::default(), None, tiles).unwrap();
        let inner = interior_part(&m);
        assert!(inner.contains("scf.for"), "{name}: {inner}");
        assert!(
            !inner.contains("tensor.pad"),
            "{name}: a pad in an interior tile:\n{inner}"
        );
        assert!(inner.contains("tensor.insert_slice"), "{name}");
    }
}

#[test]
fn paper_example_reads_the_models_slices() {
    let m = emit(
        &example("conv_pad_relu"),
        &Options::default(),
        None,
        tiles_of("conv_pad_relu"),
    )
    .unwrap();
    let inner = interior_part(&m);
    // the model's slice, and the code that reads it
    assert!(inner.contains(
        "// slice %ifm (model): offsets [0, 0, 32Q2 - 1, 32Q3 - 1] sizes [1, 3, 35, 35] strides [1, 1, 1, 1]"
    ));
    assert!(inner.contains("affine_map<()[s0] -> (s0 * 32 - 1)>"));
    assert!(inner.contains(
        "[1, 3, 35, 35] [1, 1, 1, 1] : tensor<1x3x512x512xf32> to tensor<1x3x35x35xf32>"
    ));
    // the interior tile indices 1..14 (tiles 0 and 15 touch the padding)
    assert!(m.contains("%vc1 to %vc15 step %vc1"), "{m}");
    // the same function, name and signature
    assert!(
        m.contains("func.func @krnl0(%ifm: tensor<1x3x512x512xf32>) -> tensor<1x8x256x256xf32>")
    );
    // the partitions keep the padding where they read it
    assert!(m.contains("tensor.pad"));
}

#[test]
fn regions_alone_have_no_tile_loops() {
    let m = emit(&example("conv_pad_relu"), &Options::default(), None, &[]).unwrap();
    assert!(!m.contains("scf.for"), "{m}");
    // dense core, four edges, four corners
    assert_eq!(m.matches("// Algorithm 1: partition").count(), 9, "{m}");
    // only the dense core reads no padding
    assert_eq!(m.matches("tensor.pad").count(), 8, "{m}");
}

#[test]
fn unsupported_programs_are_errors() {
    let text = "func.func @f(%x: tensor<8xf32>) -> tensor<4xf32> {\n  %s = tensor.extract_slice %x[0] [4] [2] : tensor<8xf32> to tensor<4xf32>\n  return %s : tensor<4xf32>\n}\n";
    let e = emit(text, &Options::default(), None, &[(0, 2)]).unwrap_err();
    assert!(e.to_string().contains("emit"), "{e}");
    let e = emit(
        &example("conv_pad_relu"),
        &Options::default(),
        None,
        &[(7, 2)],
    )
    .unwrap_err();
    assert!(e.to_string().contains("dimension 7"), "{e}");
}
