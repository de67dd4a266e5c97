//! Tests of the MLIR reader: the paper's Figure 1 example, the lowering of each
//! named op, affine precedence, malformed inputs and the opaque option.

use presburger_volume::Error;
use presburger_volume::ir::{AffineExpr, AffineMap, IteratorType, LinalgOp, OpKind, Program, Type};
use presburger_volume::mlir::{
    Options, parse_affine_map, parse_function, parse_program, parse_program_with,
};

const EXAMPLE: &str = include_str!("../../examples/conv_pad_relu.mlir");

fn map(s: &str) -> AffineMap {
    parse_affine_map(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn linalg(p: &Program, result: &str) -> LinalgOp {
    let v = p.find(result).unwrap_or_else(|| panic!("no %{result}"));
    let op = p
        .ops
        .iter()
        .find(|o| o.results.contains(&v))
        .expect("defining op");
    match &op.kind {
        OpKind::Linalg(l) => l.clone(),
        k => panic!("%{result} is {k:?}"),
    }
}

fn names(p: &Program, ids: &[usize]) -> Vec<String> {
    ids.iter().map(|&i| p.value(i).ssa.clone()).collect()
}

/// Wraps ops in a function with the given arguments and return.
fn func(args: &str, ret_ty: &str, body: &str, ret: &str) -> String {
    format!("func.func @f({args}) -> {ret_ty} {{\n{body}\n  return {ret} : {ret_ty}\n}}\n")
}

#[test]
fn figure1_ops_and_operands() {
    let p = parse_program(EXAMPLE).expect("example parses");
    assert_eq!(p.name, "krnl0");
    let ops: Vec<&str> = p.ops.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(
        ops,
        [
            "arith.constant",
            "arith.constant",
            "arith.constant",
            "arith.constant",
            "tensor.pad",
            "tensor.empty",
            "linalg.fill",
            "linalg.conv_2d_nchw_fchw",
            "tensor.empty",
            "linalg.generic",
        ]
    );
    assert_eq!(names(&p, &p.args), ["ifm"]);
    assert_eq!(names(&p, &p.returns), ["act0"]);
    let pad = &p.ops[4];
    assert_eq!(
        pad.kind,
        OpKind::Pad {
            low: vec![0, 0, 1, 1],
            high: vec![0, 0, 2, 2]
        }
    );
    assert_eq!(names(&p, &pad.operands), ["ifm", "cst0"]);
    assert_eq!(pad.line, 20);
    let pad_ty = &p.value(pad.results[0]).ty;
    assert_eq!(
        pad_ty,
        &Type::Tensor(presburger_volume::ir::TensorType {
            dims: vec![Some(1), Some(3), Some(515), Some(515)],
            elem: "f32".into()
        })
    );
    assert_eq!(p.ops[3].kind, OpKind::Constant);
    assert_eq!(p.value(p.ops[3].results[0]).ty.rank(), 4);
    assert_eq!(names(&p, &p.ops[7].operands), ["pad0", "wgt", "conv0.init"]);
    // The activation captures the two constants.
    let act = &p.ops[9];
    assert_eq!(
        names(&p, &act.operands),
        ["conv0", "act0.init", "cst0", "cst0_01"]
    );
    let l = linalg(&p, "act0");
    assert_eq!((l.n_inputs, l.n_outputs), (1, 1));
    assert_eq!(l.reads_output, [false]);
    assert_eq!(l.indexing_maps, vec![AffineMap::identity(4); 2]);
    assert!(
        l.body
            .as_deref()
            .is_some_and(|b| b.contains("arith.maximumf"))
    );
    // Volume names are identifiers.
    let init = p.find("conv0.init").expect("conv0.init");
    assert_eq!(p.value(init).volume, "conv0_init");
}

#[test]
fn figure1_conv_and_fill_maps() {
    let p = parse_program(EXAMPLE).expect("example parses");
    let conv = linalg(&p, "conv0");
    assert_eq!(
        conv.indexing_maps,
        vec![
            map("(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, d2 * 2 + d5, d3 * 2 + d6)"),
            map("(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)"),
            map("(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)"),
        ]
    );
    use IteratorType::{Parallel as P, Reduction as R};
    assert_eq!(conv.iterator_types, [P, P, P, P, R, R, R]);
    assert_eq!(conv.reads_output, [true]);
    assert_eq!(conv.body, None);
    let fill = linalg(&p, "conv0.init");
    assert_eq!(fill.indexing_maps[0], map("(d0, d1, d2, d3) -> ()"));
    assert_eq!(fill.indexing_maps[1], AffineMap::identity(4));
    assert_eq!(fill.reads_output, [false]);
}

#[test]
fn affine_precedence() {
    let m = map(
        "affine_map<(d0, d1, d2)[s0] -> (d0, d2 + s0, d1 * 2, d0 floordiv 4, d1 mod 3, d2 ceildiv 2, 0)>",
    );
    assert_eq!((m.n_dims, m.n_symbols), (3, 1));
    let s: Vec<String> = m.results.iter().map(|e| e.to_string()).collect();
    assert_eq!(s[1], "(d2 + s0)");
    assert_eq!(
        m.results[3],
        AffineExpr::FloorDiv(Box::new(AffineExpr::Dim(0)), Box::new(AffineExpr::Const(4)))
    );
    assert_eq!(m.results[6], AffineExpr::Const(0));
    // `*` and `floordiv` bind tighter than `+`.
    let m = map("(d0, d1) -> (d0 + d1 * 2, d0 floordiv 2 + 1, d0 - d1, -d0 + 3, (d0 + d1) mod 4)");
    let d = |i| Box::new(AffineExpr::Dim(i));
    let c = |k| Box::new(AffineExpr::Const(k));
    assert_eq!(
        m.results[0],
        AffineExpr::Add(d(0), Box::new(AffineExpr::Mul(d(1), c(2))))
    );
    assert_eq!(
        m.results[1],
        AffineExpr::Add(Box::new(AffineExpr::FloorDiv(d(0), c(2))), c(1))
    );
    assert_eq!(
        m.results[2],
        AffineExpr::Add(d(0), Box::new(AffineExpr::Mul(d(1), c(-1))))
    );
    assert_eq!(
        m.results[3],
        AffineExpr::Add(Box::new(AffineExpr::Mul(d(0), c(-1))), c(3))
    );
    assert_eq!(
        m.results[4],
        AffineExpr::Mod(Box::new(AffineExpr::Add(d(0), d(1))), c(4))
    );
    // Left associativity of `-` and folding of constants.
    let m = map("(d0) -> (d0 - 1 - 2, 2 * 3 + 1, d0 * 2 floordiv 3)");
    assert_eq!(
        m.results[0],
        AffineExpr::Add(Box::new(AffineExpr::Add(d(0), c(-1))), c(-2))
    );
    assert_eq!(m.results[1], AffineExpr::Const(7));
    assert_eq!(
        m.results[2],
        AffineExpr::FloorDiv(Box::new(AffineExpr::Mul(d(0), c(2))), c(3))
    );
}

#[test]
fn affine_errors() {
    assert!(parse_affine_map("(d0, d1) -> (d0 * d1)").is_err());
    assert!(parse_affine_map("(d0) -> (d0 floordiv 0)").is_err());
    assert!(parse_affine_map("(d0) -> (d0 mod d0)").is_err());
    assert!(parse_affine_map("(d0) -> (d1)").is_err());
    assert!(parse_affine_map("(d0, d0) -> (d0)").is_err());
    assert!(parse_affine_map("(d0) -> (99999999999999999999)").is_err());
    let deep = format!("(d0) -> ({}d0{})", "(".repeat(5000), ")".repeat(5000));
    assert!(parse_affine_map(&deep).is_err());
    let neg = format!("(d0) -> ({}d0)", "-".repeat(5000));
    assert!(parse_affine_map(&neg).is_err());
    let long = format!("(d0) -> (d0{})", " + d0".repeat(100_000));
    assert!(parse_affine_map(&long).is_err());
}

fn lowered(body: &str, args: &str, ret_ty: &str) -> LinalgOp {
    let text = func(args, ret_ty, body, "%r");
    let p = parse_program(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    linalg(&p, "r")
}

#[test]
fn matmul_and_batch_matmul() {
    let l = lowered(
        "  %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>",
        "%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>",
        "tensor<4x16xf32>",
    );
    assert_eq!(
        l.indexing_maps,
        vec![
            map("(d0, d1, d2) -> (d0, d2)"),
            map("(d0, d1, d2) -> (d2, d1)"),
            map("(d0, d1, d2) -> (d0, d1)")
        ]
    );
    use IteratorType::{Parallel as P, Reduction as R};
    assert_eq!(l.iterator_types, [P, P, R]);
    assert_eq!(l.reads_output, [true]);
    let l = lowered(
        "  %r = linalg.batch_matmul ins(%a, %b : tensor<2x4x8xf32>, tensor<2x8x16xf32>) outs(%c : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>",
        "%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>, %c: tensor<2x4x16xf32>",
        "tensor<2x4x16xf32>",
    );
    assert_eq!(
        l.indexing_maps,
        vec![
            map("(d0, d1, d2, d3) -> (d0, d1, d3)"),
            map("(d0, d1, d2, d3) -> (d0, d3, d2)"),
            map("(d0, d1, d2, d3) -> (d0, d1, d2)")
        ]
    );
    assert_eq!(l.iterator_types, [P, P, P, R]);
}

#[test]
fn conv_nhwc_with_dilation() {
    let l = lowered(
        "  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<[2, 1]> : tensor<2xi64>, strides = dense<[1, 3]> : tensor<2xi64>} ins(%i, %k : tensor<1x20x20x3xf32>, tensor<3x3x3x8xf32>) outs(%o : tensor<1x16x6x8xf32>) -> tensor<1x16x6x8xf32>",
        "%i: tensor<1x20x20x3xf32>, %k: tensor<3x3x3x8xf32>, %o: tensor<1x16x6x8xf32>",
        "tensor<1x16x6x8xf32>",
    );
    assert_eq!(
        l.indexing_maps,
        vec![
            map("(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 + d4 * 2, d2 * 3 + d5, d6)"),
            map("(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d3)"),
            map("(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)"),
        ]
    );
}

#[test]
fn transpose_broadcast_reduce_map() {
    let l = lowered(
        "  %r = linalg.transpose ins(%a : tensor<2x3x4xf32>) outs(%b : tensor<3x4x2xf32>) permutation = [1, 2, 0]",
        "%a: tensor<2x3x4xf32>, %b: tensor<3x4x2xf32>",
        "tensor<3x4x2xf32>",
    );
    // result[i, j, k] = input[k, i, j]
    assert_eq!(
        l.indexing_maps,
        vec![map("(d0, d1, d2) -> (d2, d0, d1)"), AffineMap::identity(3)]
    );
    let l = lowered(
        "  %r = linalg.broadcast ins(%a : tensor<16xf32>) outs(%b : tensor<16x64xf32>) dimensions = [1]",
        "%a: tensor<16xf32>, %b: tensor<16x64xf32>",
        "tensor<16x64xf32>",
    );
    assert_eq!(
        l.indexing_maps,
        vec![map("(d0, d1) -> (d0)"), AffineMap::identity(2)]
    );
    assert_eq!(l.reads_output, [false]);
    let l = lowered(
        "  %r = linalg.reduce ins(%a : tensor<16x32x64xf32>) outs(%b : tensor<16x64xf32>) dimensions = [1]\n    (%in: f32, %init: f32) {\n      %0 = arith.addf %init, %in : f32\n      linalg.yield %0 : f32\n    }",
        "%a: tensor<16x32x64xf32>, %b: tensor<16x64xf32>",
        "tensor<16x64xf32>",
    );
    assert_eq!(
        l.indexing_maps,
        vec![AffineMap::identity(3), map("(d0, d1, d2) -> (d0, d2)")]
    );
    use IteratorType::{Parallel as P, Reduction as R};
    assert_eq!(l.iterator_types, [P, R, P]);
    assert_eq!(l.reads_output, [true]);
    let l = lowered(
        "  %r = linalg.map ins(%a, %b : tensor<64xf32>, tensor<64xf32>) outs(%c : tensor<64xf32>)\n    (%x: f32, %y: f32) {\n      %0 = arith.addf %x, %y : f32\n      %1 = arith.mulf %0, %s : f32\n      linalg.yield %1 : f32\n    }",
        "%a: tensor<64xf32>, %b: tensor<64xf32>, %c: tensor<64xf32>, %s: f32",
        "tensor<64xf32>",
    );
    assert_eq!(l.indexing_maps, vec![AffineMap::identity(1); 3]);
    assert_eq!(l.reads_output, [false]);
    // Short form.
    let l = lowered(
        "  %r = linalg.map { math.absf } ins(%a : tensor<64xf32>) outs(%c : tensor<64xf32>)",
        "%a: tensor<64xf32>, %c: tensor<64xf32>",
        "tensor<64xf32>",
    );
    assert_eq!(l.indexing_maps.len(), 2);
}

#[test]
fn map_captures_values() {
    let text = func(
        "%a: tensor<64xf32>, %c: tensor<64xf32>, %s: f32",
        "tensor<64xf32>",
        "  %r = linalg.map ins(%a : tensor<64xf32>) outs(%c : tensor<64xf32>)\n    (%x: f32, %init: f32) {\n      %0 = arith.mulf %x, %s : f32\n      %1 = arith.addf %0, %init : f32\n      linalg.yield %1 : f32\n    }",
        "%r",
    );
    let p = parse_program(&text).expect("parses");
    assert_eq!(names(&p, &p.ops[0].operands), ["a", "c", "s"]);
    assert_eq!(linalg(&p, "r").reads_output, [true]);
}

#[test]
fn generic_inline_traits_reads_output_and_no_duplicate_captures() {
    let text = r#"
#map = affine_map<(d0, d1) -> (d0, d1)>
#red = affine_map<(d0, d1) -> (d0)>
func.func @sum(%a: tensor<4x8xf32>, %b: tensor<4xf32>, %k: f32) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [#map, #red], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<4x8xf32>) outs(%b : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.mulf %in, %k : f32
    %1 = arith.mulf %0, %k : f32
    %2 = arith.addf %1, %out : f32
    linalg.yield %2 : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
"#;
    let p = parse_program(text).expect("parses");
    let l = linalg(&p, "r");
    assert_eq!(l.reads_output, [true]);
    assert_eq!(names(&p, &p.ops[0].operands), ["a", "b", "k"]);
    assert_eq!(
        l.iterator_types,
        [IteratorType::Parallel, IteratorType::Reduction]
    );
}

#[test]
fn slices_and_dropped_dims() {
    let text = func(
        "%a: tensor<8x8xf32>, %d: tensor<8x8xf32>",
        "tensor<8x8xf32>",
        "  %s = tensor.extract_slice %a[0, 2] [4, 1] [1, 1] : tensor<8x8xf32> to tensor<4xf32>\n  %t = tensor.extract_slice %a[0, 0] [4, 4] [2, 1] : tensor<8x8xf32> to tensor<4x4xf32>\n  %r = tensor.insert_slice %s into %d[1, 3] [1, 4] [1, 1] : tensor<4xf32> into tensor<8x8xf32>",
        "%r",
    );
    let p = parse_program(&text).expect("parses");
    assert_eq!(
        p.ops[0].kind,
        OpKind::ExtractSlice {
            offsets: vec![0, 2],
            sizes: vec![4, 1],
            strides: vec![1, 1],
            dropped: vec![1]
        }
    );
    assert!(matches!(&p.ops[1].kind, OpKind::ExtractSlice { dropped, .. } if dropped.is_empty()));
    assert_eq!(
        p.ops[2].kind,
        OpKind::InsertSlice {
            offsets: vec![1, 3],
            sizes: vec![1, 4],
            strides: vec![1, 1],
            dropped: vec![0]
        }
    );
    assert_eq!(names(&p, &p.ops[2].operands), ["s", "d"]);
}

#[test]
fn empty_with_dynamic_sizes_and_index_constants() {
    let text = func(
        "",
        "tensor<?x4xf32>",
        "  %n = arith.constant 3 : index\n  %r = tensor.empty(%n) : tensor<?x4xf32>",
        "%r",
    );
    let p = parse_program(&text).expect("parses");
    assert_eq!(p.ops[1].kind, OpKind::Empty);
    assert_eq!(names(&p, &p.ops[1].operands), ["n"]);
    assert_eq!(p.value(p.ops[0].results[0]).ty, Type::Index);
}

#[test]
fn rank0_tensors_scalars_and_name_collisions() {
    let text = func(
        "%a: tensor<f32>, %x.y: bf16, %x_y: i64, %0: f16",
        "tensor<f32>",
        "",
        "%a",
    );
    let p = parse_program(&text).expect("parses");
    assert_eq!(p.value(0).ty.rank(), 0);
    assert_eq!(p.value(1).volume, "x_y");
    assert_eq!(p.value(2).volume, "x_y_1");
    assert_eq!(p.value(3).volume, "v0");
}

#[test]
fn picks_named_function_and_skips_others() {
    let text = "func.func @a() {\n  %x = foo.bar : f32\n  return\n}\nfunc.func @b(%t: tensor<2xf32>) -> tensor<2xf32> {\n  return %t : tensor<2xf32>\n}\n";
    let p = parse_function(text, "b").expect("@b parses");
    assert_eq!(p.name, "b");
    assert!(matches!(
        parse_program(text),
        Err(Error::Unsupported { line: 2, .. })
    ));
    assert!(parse_function(text, "c").is_err());
}

#[test]
fn opaque_option() {
    let text = func(
        "%a: tensor<4xf32>, %b: tensor<4xf32>",
        "tensor<4xf32>",
        "  %r = arith.addf %a, %b : tensor<4xf32>\n  %q = \"my.op\"(%r, %a) {x = 1 : i64} : (tensor<4xf32>, tensor<4xf32>) -> f32",
        "%r",
    );
    match parse_program(&text) {
        Err(Error::Unsupported { op, line, .. }) => {
            assert_eq!(op, "arith.addf");
            assert_eq!(line, 2);
        }
        other => panic!("expected Unsupported, got {other:?}"),
    }
    let p = parse_program_with(
        &text,
        Options {
            opaque_unknown: true,
        },
    )
    .expect("opaque parse");
    assert_eq!(p.ops[0].kind, OpKind::Opaque);
    assert_eq!(names(&p, &p.ops[0].operands), ["a", "b"]);
    assert_eq!(p.value(p.ops[0].results[0]).ty.rank(), 1);
    assert_eq!(names(&p, &p.ops[1].operands), ["r", "a"]);
    assert_eq!(p.value(p.ops[1].results[0]).ty, Type::Scalar("f32".into()));
}

#[test]
fn multi_results_with_opaque() {
    let text = func(
        "%a: tensor<4xf32>",
        "tensor<4xf32>",
        "  %r:2 = my.split %a : tensor<4xf32> -> (tensor<4xf32>, tensor<4xf32>)\n  %s = my.use %r#1 : tensor<4xf32>",
        "%s",
    );
    let p = parse_program_with(
        &text,
        Options {
            opaque_unknown: true,
        },
    )
    .expect("parses");
    assert_eq!(names(&p, &p.ops[0].results), ["r#0", "r#1"]);
    assert_eq!(names(&p, &p.ops[1].operands), ["r#1"]);
    assert_eq!(p.value(p.ops[0].results[1]).volume, "r_1");
}

/// Parses `text`, expecting an error on `line`; returns the message.
fn err_line(text: &str, line: usize) -> String {
    let e = parse_program(text).expect_err("malformed input must fail");
    let got = match &e {
        Error::Parse { line, .. } | Error::Unsupported { line, .. } => *line,
        other => panic!("error without a line: {other:?}"),
    };
    assert_eq!(got, line, "wrong line for: {e}\n{text}");
    e.to_string()
}

#[test]
fn malformed_inputs_report_lines() {
    let head = "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n";
    let tail = "  return %a : tensor<4xf32>\n}\n";
    let wrap = |body: &str| format!("{head}{body}\n{tail}");
    // 1. undefined value
    let m = err_line(
        &wrap(
            "  %r = tensor.pad %zz low[0] high[1] {\n  ^bb0(%i: index):\n    tensor.yield %c : f32\n  } : tensor<4xf32> to tensor<5xf32>",
        ),
        2,
    );
    assert!(m.contains("%zz"), "{m}");
    // 2. redefinition
    err_line(
        &wrap("  %c = arith.constant 0.0 : f32\n  %c = arith.constant 1.0 : f32"),
        3,
    );
    // 3. redefining an argument
    err_line(&wrap("  %a = arith.constant 1.0 : f32"), 2);
    // 4. unknown op
    let m = err_line(
        &wrap("  %c = arith.constant 0.0 : f32\n  %x = foo.bar %c : f32"),
        3,
    );
    assert!(m.contains("foo.bar"), "{m}");
    // 5. unbalanced braces: function body never closed
    err_line(
        "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n  return %a : tensor<4xf32>\n",
        1,
    );
    // 6. unbalanced region braces: the region swallows the function's `}`
    let m = err_line(
        &wrap(
            "  %c = arith.constant 0.0 : f32\n  %p = tensor.pad %a low[0] high[1] {\n  ^bb0(%i: index):\n    tensor.yield %c : f32\n  : tensor<4xf32> to tensor<5xf32>",
        ),
        6,
    );
    assert!(m.contains("opened on line 3"), "{m}");
    // 7. pad size mismatch
    let m = err_line(
        &wrap(
            "  %c = arith.constant 0.0 : f32\n  %p = tensor.pad %a low[1] high[1] {\n  ^bb0(%i: index):\n    tensor.yield %c : f32\n  } : tensor<4xf32> to tensor<5xf32>",
        ),
        6,
    );
    assert!(m.contains("4 + 1 + 1"), "{m}");
    // 8. dynamic pad
    let e = parse_program(&wrap("  %c = arith.constant 0.0 : f32\n  %n = arith.constant 1 : index\n  %p = tensor.pad %a low[%n] high[1] {\n  ^bb0(%i: index):\n    tensor.yield %c : f32\n  } : tensor<4xf32> to tensor<?xf32>")).expect_err("dynamic pad");
    assert!(matches!(e, Error::Unsupported { line: 4, .. }), "{e:?}");
    // 9. yield defined inside the region
    let e = parse_program(&wrap("  %p = tensor.pad %a low[0] high[1] {\n  ^bb0(%i: index):\n    %c = arith.constant 0.0 : f32\n    tensor.yield %c : f32\n  } : tensor<4xf32> to tensor<5xf32>")).expect_err("inner yield");
    assert!(matches!(e, Error::Unsupported { line: 2, .. }), "{e:?}");
    // 10. wrong operand count vs types
    err_line(
        &wrap(
            "  %e = tensor.empty() : tensor<4x4xf32>\n  %r = linalg.matmul ins(%e, %e : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>",
        ),
        3,
    );
    // 11. operand type mismatch
    err_line(
        &wrap(
            "  %e = tensor.empty() : tensor<4x4xf32>\n  %r = linalg.matmul ins(%e, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>",
        ),
        3,
    );
    // 12. matmul shapes that do not agree
    let m = err_line(
        &wrap(
            "  %x = tensor.empty() : tensor<4x3xf32>\n  %y = tensor.empty() : tensor<4x4xf32>\n  %r = linalg.matmul ins(%x, %y : tensor<4x3xf32>, tensor<4x4xf32>) outs(%y : tensor<4x4xf32>) -> tensor<4x4xf32>",
        ),
        4,
    );
    assert!(m.contains("loop d2"), "{m}");
    // 13. unknown attribute syntax
    err_line(
        &wrap(
            "  %e = tensor.empty() : tensor<4xf32>\n  %r = linalg.generic {indexing_maps = [@oops], iterator_types = []} ins() outs(%e : tensor<4xf32>) {\n  ^bb0(%o: f32):\n    linalg.yield %o : f32\n  } -> tensor<4xf32>",
        ),
        3,
    );
    // 14. deeply nested affine expression in an alias
    let deep = format!(
        "#m = affine_map<(d0) -> ({}d0{})>\n{head}{tail}",
        "(".repeat(100_000),
        ")".repeat(100_000)
    );
    err_line(&deep, 1);
    // 15. deeply nested attribute
    let deep = format!(
        "\n#t = {}1{}\n{head}{tail}",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    err_line(&deep, 2);
    // 16. missing return
    err_line(
        "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n  %c = arith.constant 0.0 : f32\n}\n",
        3,
    );
    // 17. return type mismatch
    err_line(
        "func.func @f(%a: tensor<4xf32>) -> tensor<5xf32> {\n  return %a : tensor<4xf32>\n}\n",
        2,
    );
    // 18. bad tensor type
    err_line("func.func @f(%a: tensor<4xq32>) {\n  return\n}\n", 1);
    // 19. unknown alias
    err_line(
        &wrap(
            "  %e = tensor.empty() : tensor<4xf32>\n  %r = linalg.generic #nope ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {\n  ^bb0(%i: f32, %o: f32):\n    linalg.yield %i : f32\n  } -> tensor<4xf32>",
        ),
        3,
    );
    // 20. slice out of bounds
    err_line(
        &wrap("  %s = tensor.extract_slice %a[2] [3] [1] : tensor<4xf32> to tensor<3xf32>"),
        2,
    );
    // 21. rank-reduced slice that drops a non-unit dim
    err_line(
        &wrap(
            "  %e = tensor.empty() : tensor<4x4xf32>\n  %s = tensor.extract_slice %e[0, 0] [2, 2] [1, 1] : tensor<4x4xf32> to tensor<2xf32>",
        ),
        3,
    );
    // 22. captured value undefined in a generic body
    let m = err_line(
        &wrap(
            "  %e = tensor.empty() : tensor<4xf32>\n  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = [\"parallel\"]} ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {\n  ^bb0(%i: f32, %o: f32):\n    %0 = arith.addf %i, %ghost : f32\n    linalg.yield %0 : f32\n  } -> tensor<4xf32>",
        ),
        5,
    );
    assert!(m.contains("%ghost"), "{m}");
    // 23. generic block argument count
    err_line(
        &wrap(
            "  %e = tensor.empty() : tensor<4xf32>\n  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = [\"parallel\"]} ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {\n  ^bb0(%i: f32):\n    linalg.yield %i : f32\n  } -> tensor<4xf32>",
        ),
        3,
    );
    // 24. conv reading past the input
    err_line(
        &wrap(
            "  %i = tensor.empty() : tensor<1x1x8x8xf32>\n  %k = tensor.empty() : tensor<1x1x3x3xf32>\n  %o = tensor.empty() : tensor<1x1x4x4xf32>\n  %r = linalg.conv_2d_nchw_fchw {strides = dense<2> : tensor<2xi64>} ins(%i, %k : tensor<1x1x8x8xf32>, tensor<1x1x3x3xf32>) outs(%o : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>",
        ),
        5,
    );
    // 25. bad transpose permutation
    err_line(
        &wrap(
            "  %e = tensor.empty() : tensor<4x4xf32>\n  %r = linalg.transpose ins(%e : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) permutation = [0, 0]",
        ),
        3,
    );
    // 26. stray closing brace at top level
    err_line("func.func @f() {\n  return\n}\n}\n", 4);
    // 27. unclosed module
    err_line("module {\nfunc.func @f() {\n  return\n}\n", 1);
    // 28. result count mismatch
    err_line(&wrap("  %c, %d = arith.constant 0.0 : f32"), 2);
    // 29. garbage at top level
    err_line("\n\nhello world\n", 3);
    // 30. empty input
    assert!(parse_program("").is_err());
    assert!(parse_program("// only a comment").is_err());
}

#[test]
fn truncations_of_the_example_never_panic() {
    // Every prefix of the example (on char boundaries) must give Ok or Err.
    let mut n_err = 0;
    for (i, _) in EXAMPLE.char_indices() {
        if parse_program(&EXAMPLE[..i]).is_err() {
            n_err += 1;
        }
    }
    assert!(n_err > 0);
    // Mutating single bytes must not panic either.
    let bytes = EXAMPLE.as_bytes();
    for i in (0..bytes.len()).step_by(7) {
        for rep in [b'{', b'}', b'(', b'%', b'<', b'>', b'"', b'#', b'x', b'-'] {
            let mut b = bytes.to_vec();
            b[i] = rep;
            if let Ok(s) = String::from_utf8(b) {
                let _ = parse_program(&s);
                let _ = parse_program_with(
                    &s,
                    Options {
                        opaque_unknown: true,
                    },
                );
            }
        }
    }
}

#[test]
fn locations_iterator_attrs_type_aliases_and_explicit_matmul_maps() {
    let text = r#"
!t = tensor<4x4xf32>
#id = affine_map<(d0) -> (d0)>
module attributes {foo.bar = 1 : i64} {
  func.func @g(%a: !t, %v: tensor<4xf32>) -> (!t {res.attr}) {
    %c = arith.constant 0.0 : f32 loc("x.py":3:4)
    %e = tensor.empty() : tensor<4xf32>
    %w = linalg.generic {indexing_maps = [#id, #id], iterator_types = [#linalg.iterator_type<parallel>]} ins(%v : tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%i: f32, %o: f32):
      linalg.yield %c : f32
    } -> tensor<4xf32>
    %r = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %a : !t, !t) outs(%a : !t) -> !t
    return %r : !t
  }
}
"#;
    let p = parse_program(text).expect("parses");
    assert_eq!(names(&p, &p.ops[2].operands), ["v", "e", "c"]);
    assert_eq!(
        linalg(&p, "r").indexing_maps[0],
        map("(d0, d1, d2) -> (d2, d0)")
    );
}
