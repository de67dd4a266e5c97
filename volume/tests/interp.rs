//! The reference interpreter on hand-computed cases, one or more per op
//! family, on the examples, and on original-against-tiled comparisons.

use presburger_volume::interp::{self, ElemType, Scalar, Tensor, Value};

/// An f32 tensor.
fn t32(shape: &[usize], data: &[f32]) -> Value {
    Value::Tensor(
        Tensor::new(
            ElemType::F32,
            shape.to_vec(),
            data.iter().map(|&x| Scalar::F32(x)).collect(),
        )
        .unwrap(),
    )
}

/// An i32 tensor.
fn ti32(shape: &[usize], data: &[i64]) -> Value {
    Value::Tensor(
        Tensor::new(
            ElemType::Int(32),
            shape.to_vec(),
            data.iter()
                .map(|&x| Scalar::int(x, ElemType::Int(32)))
                .collect(),
        )
        .unwrap(),
    )
}

/// The f32 elements of a tensor value.
fn f32s(v: &Value) -> Vec<f32> {
    v.tensor()
        .unwrap()
        .data
        .iter()
        .map(|s| match s {
            Scalar::F32(x) => *x,
            other => panic!("not f32: {other:?}"),
        })
        .collect()
}

/// The integer elements of a tensor value.
fn ints(v: &Value) -> Vec<i64> {
    v.tensor()
        .unwrap()
        .data
        .iter()
        .map(|s| s.as_int().unwrap())
        .collect()
}

fn run1(text: &str, inputs: Vec<Value>) -> Value {
    let mut r = interp::run(text, "f", inputs).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.len(), 1);
    r.remove(0)
}

#[test]
fn matmul_2x3_by_3x2() {
    let text = r#"
func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>) -> tensor<2x2xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x2xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  %r = linalg.matmul ins(%a, %b : tensor<2x3xf32>, tensor<3x2xf32>) outs(%c : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}"#;
    let r = run1(
        text,
        vec![
            t32(&[2, 3], &[1., 2., 3., 4., 5., 6.]),
            t32(&[3, 2], &[7., 8., 9., 10., 11., 12.]),
        ],
    );
    assert_eq!(f32s(&r), [58., 64., 139., 154.]);
}

#[test]
fn integer_matmul_and_elementwise() {
    let text = r#"
func.func @f(%a: tensor<2x2xi32>, %b: tensor<2x2xi32>) -> tensor<2x2xi32> {
  %e = tensor.empty() : tensor<2x2xi32>
  %s = linalg.add ins(%a, %b : tensor<2x2xi32>, tensor<2x2xi32>) outs(%e : tensor<2x2xi32>) -> tensor<2x2xi32>
  %m = linalg.matmul ins(%s, %b : tensor<2x2xi32>, tensor<2x2xi32>) outs(%a : tensor<2x2xi32>) -> tensor<2x2xi32>
  return %m : tensor<2x2xi32>
}"#;
    // s = [[6, 8], [10, 12]]; m = a + s*b = [[1,2],[3,4]] + [[6*5+8*7, 6*6+8*8], [10*5+12*7, 10*6+12*8]]
    let r = run1(
        text,
        vec![ti32(&[2, 2], &[1, 2, 3, 4]), ti32(&[2, 2], &[5, 6, 7, 8])],
    );
    assert_eq!(ints(&r), [1 + 86, 2 + 100, 3 + 134, 4 + 156]);
}

#[test]
fn padded_1d_convolution_as_generic() {
    // out[i] = sum_k pad(x)[i + k] * w[k], x padded by one zero on each side.
    let text = r#"
#in = affine_map<(d0, d1) -> (d0 + d1)>
#w = affine_map<(d0, d1) -> (d1)>
#out = affine_map<(d0, d1) -> (d0)>
func.func @f(%x: tensor<4xf32>, %w: tensor<3xf32>) -> tensor<4xf32> {
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %x low[1] high[1] {
  ^bb0(%i: index):
    tensor.yield %z : f32
  } : tensor<4xf32> to tensor<6xf32>
  %e = tensor.empty() : tensor<4xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#in, #w, #out], iterator_types = ["parallel", "reduction"]}
      ins(%p, %w : tensor<6xf32>, tensor<3xf32>) outs(%c : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}"#;
    let r = run1(
        text,
        vec![t32(&[4], &[1., 2., 3., 4.]), t32(&[3], &[1., 10., 100.])],
    );
    assert_eq!(f32s(&r), [210., 321., 432., 43.]);
}

#[test]
fn conv_2d_nhwc_with_strides_and_dilations() {
    // 1x5x5x1 input 0..25, 2x2 filter of ones, stride 2, dilation 2: windows
    // {x[2i][2j], x[2i][2j+2], x[2i+2][2j], x[2i+2][2j+2]} for i, j in 0..1.
    let text = r#"
func.func @f(%x: tensor<1x5x5x1xf32>, %w: tensor<2x2x1x1xf32>) -> tensor<1x1x1x1xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1x1x1xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<1x1x1x1xf32>) -> tensor<1x1x1x1xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<1x5x5x1xf32>, tensor<2x2x1x1xf32>) outs(%c : tensor<1x1x1x1xf32>) -> tensor<1x1x1x1xf32>
  return %r : tensor<1x1x1x1xf32>
}"#;
    let x: Vec<f32> = (0..25).map(|i| i as f32).collect();
    let r = run1(
        text,
        vec![
            t32(&[1, 5, 5, 1], &x),
            t32(&[2, 2, 1, 1], &[1., 1., 1., 1.]),
        ],
    );
    assert_eq!(f32s(&r), [0. + 2. + 10. + 12.]);
}

#[test]
fn scf_for_accumulates_and_slices_round_trip() {
    // Sums the rows of a 4x2 tensor two at a time through extract_slice, and
    // writes each pair back doubled with insert_slice.
    let text = r#"
func.func @f(%x: tensor<4x2xf32>) -> (tensor<2xf32>, tensor<4x2xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2xf32>
  %acc0 = linalg.fill ins(%z : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %r:2 = scf.for %i = %c0 to %c4 step %c2 iter_args(%acc = %acc0, %out = %x) -> (tensor<2xf32>, tensor<4x2xf32>) {
    %s = tensor.extract_slice %x[%i, 0] [2, 2] [1, 1] : tensor<4x2xf32> to tensor<2x2xf32>
    %row = tensor.extract_slice %s[1, 0] [1, 2] [1, 1] : tensor<2x2xf32> to tensor<2xf32>
    %first = tensor.extract_slice %s[0, 0] [1, 2] [1, 1] : tensor<2x2xf32> to tensor<2xf32>
    %a1 = linalg.add ins(%acc, %first : tensor<2xf32>, tensor<2xf32>) outs(%acc : tensor<2xf32>) -> tensor<2xf32>
    %a2 = linalg.add ins(%a1, %row : tensor<2xf32>, tensor<2xf32>) outs(%a1 : tensor<2xf32>) -> tensor<2xf32>
    %d = linalg.add ins(%s, %s : tensor<2x2xf32>, tensor<2x2xf32>) outs(%s : tensor<2x2xf32>) -> tensor<2x2xf32>
    %o = tensor.insert_slice %d into %out[%i, 0] [2, 2] [1, 1] : tensor<2x2xf32> into tensor<4x2xf32>
    scf.yield %a2, %o : tensor<2xf32>, tensor<4x2xf32>
  }
  return %r#0, %r#1 : tensor<2xf32>, tensor<4x2xf32>
}"#;
    let r = interp::run(
        text,
        "f",
        vec![t32(&[4, 2], &[1., 2., 3., 4., 5., 6., 7., 8.])],
    )
    .unwrap();
    assert_eq!(f32s(&r[0]), [16., 20.]);
    assert_eq!(f32s(&r[1]), [2., 4., 6., 8., 10., 12., 14., 16.]);
}

#[test]
fn affine_min_max_apply_and_scalars() {
    let text = r#"
#tile = affine_map<(d0)[s0] -> (4, s0 - d0)>
func.func @f(%n: index, %i: index) -> (index, index, index, i32, f32) {
  %m = affine.min #tile(%i)[%n]
  %x = affine.max affine_map<(d0)[s0] -> (4, s0 - d0)>(%i)[%n]
  %a = affine.apply affine_map<(d0) -> (d0 floordiv 3 + d0 mod 3 + d0 ceildiv 3)>(%i)
  %c = arith.constant -7 : i32
  %k = arith.index_cast %i : index to i32
  %q = arith.floordivsi %c, %k : i32
  %f = arith.sitofp %q : i32 to f32
  %h = arith.constant 0.5 : f32
  %lt = arith.cmpf olt, %f, %h : f32
  %g = arith.select %lt, %f, %h : f32
  %e = math.absf %g : f32
  return %m, %x, %a, %q, %e : index, index, index, i32, f32
}"#;
    let idx = |v| Value::Scalar(Scalar::index(v));
    let r = interp::run(text, "f", vec![idx(10), idx(7)]).unwrap();
    let s: Vec<Scalar> = r.iter().map(|v| v.scalar().unwrap()).collect();
    assert_eq!(s[0], Scalar::index(3));
    assert_eq!(s[1], Scalar::index(4));
    assert_eq!(s[2], Scalar::index(2 + 1 + 3));
    assert_eq!(s[3], Scalar::int(-1, ElemType::Int(32)));
    assert_eq!(s[4], Scalar::F32(1.0));
}

#[test]
fn tensor_element_ops_dynamic_shapes_and_if() {
    let text = r#"
func.func @f(%x: tensor<?x?xf32>) -> (tensor<?x?xf32>, f32, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf32>
  %v = tensor.extract %x[%c1, %c0] : tensor<?x?xf32>
  %two = arith.constant 2.0 : f32
  %w = arith.mulf %v, %two : f32
  %y = tensor.insert %w into %x[%c0, %c1] : tensor<?x?xf32>
  %big = arith.cmpi sgt, %d1, %c1 : index
  %r = scf.if %big -> (f32) {
    scf.yield %w : f32
  } else {
    scf.yield %two : f32
  }
  %s = arith.addi %d0, %d1 : index
  return %y, %r, %s : tensor<?x?xf32>, f32, index
}"#;
    let r = interp::run(text, "f", vec![t32(&[2, 3], &[1., 2., 3., 4., 5., 6.])]).unwrap();
    assert_eq!(f32s(&r[0]), [1., 8., 3., 4., 5., 6.]);
    assert_eq!(r[1], Value::Scalar(Scalar::F32(8.)));
    assert_eq!(r[2], Value::Scalar(Scalar::index(5)));
}

#[test]
fn pad_with_index_dependent_value_and_rank_reducing_slice() {
    let text = r#"
func.func @f(%x: tensor<2x2xi32>, %lo: index) -> (tensor<3x4xi32>, tensor<4xi32>) {
  %p = tensor.pad %x low[%lo, 1] high[0, 1] {
  ^bb0(%i: index, %j: index):
    %s = arith.addi %i, %j : index
    %v = arith.index_cast %s : index to i32
    tensor.yield %v : i32
  } : tensor<2x2xi32> to tensor<3x4xi32>
  %row = tensor.extract_slice %p[2, 0] [1, 4] [1, 1] : tensor<3x4xi32> to tensor<4xi32>
  return %p, %row : tensor<3x4xi32>, tensor<4xi32>
}"#;
    let r = interp::run(
        text,
        "f",
        vec![
            ti32(&[2, 2], &[7, 8, 9, 10]),
            Value::Scalar(Scalar::index(1)),
        ],
    )
    .unwrap();
    assert_eq!(ints(&r[0]), [0, 1, 2, 3, 1, 7, 8, 4, 2, 9, 10, 5]);
    assert_eq!(ints(&r[1]), [2, 9, 10, 5]);
}

#[test]
fn transpose_broadcast_reduce_and_index() {
    let text = r#"
func.func @f(%x: tensor<2x3xf32>) -> (tensor<3x2xf32>, tensor<2x2x3xf32>, tensor<2xf32>, tensor<2x3xi64>) {
  %e = tensor.empty() : tensor<3x2xf32>
  %t = linalg.transpose ins(%x : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) permutation = [1, 0]
  %e2 = tensor.empty() : tensor<2x2x3xf32>
  %b = linalg.broadcast ins(%x : tensor<2x3xf32>) outs(%e2 : tensor<2x2x3xf32>) dimensions = [1]
  %z = arith.constant 0.0 : f32
  %e3 = tensor.empty() : tensor<2xf32>
  %i3 = linalg.fill ins(%z : f32) outs(%e3 : tensor<2xf32>) -> tensor<2xf32>
  %r = linalg.reduce ins(%x : tensor<2x3xf32>) outs(%i3 : tensor<2xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %e4 = tensor.empty() : tensor<2x3xi64>
  %ix = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      outs(%e4 : tensor<2x3xi64>) {
  ^bb0(%o: i64):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ten = arith.constant 10 : index
    %m = arith.muli %i, %ten : index
    %s = arith.addi %m, %j : index
    %c = arith.index_cast %s : index to i64
    linalg.yield %c : i64
  } -> tensor<2x3xi64>
  return %t, %b, %r, %ix : tensor<3x2xf32>, tensor<2x2x3xf32>, tensor<2xf32>, tensor<2x3xi64>
}"#;
    let r = interp::run(text, "f", vec![t32(&[2, 3], &[1., 2., 3., 4., 5., 6.])]).unwrap();
    assert_eq!(f32s(&r[0]), [1., 4., 2., 5., 3., 6.]);
    assert_eq!(
        f32s(&r[1]),
        [1., 2., 3., 1., 2., 3., 4., 5., 6., 4., 5., 6.]
    );
    assert_eq!(f32s(&r[2]), [6., 15.]);
    assert_eq!(ints(&r[3]), [0, 1, 2, 10, 11, 12]);
}

#[test]
fn errors_name_the_op_and_place_and_never_panic() {
    let oob = r#"
func.func @f(%x: tensor<4xf32>) -> tensor<2xf32> {
  %s = tensor.extract_slice %x[3] [2] [1] : tensor<4xf32> to tensor<2xf32>
  return %s : tensor<2xf32>
}"#;
    let e = interp::run(oob, "f", vec![t32(&[4], &[1., 2., 3., 4.])])
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("line 3, column 8") && e.contains("tensor.extract_slice"),
        "{e}"
    );
    let unknown = "func.func @f(%x: f32) -> f32 {\n  %y = foo.bar %x : f32\n  return %y : f32\n}";
    let e = interp::run(unknown, "f", vec![Value::Scalar(Scalar::F32(1.0))])
        .unwrap_err()
        .to_string();
    assert!(e.contains("foo.bar") && e.contains("line 2"), "{e}");
    let div = "func.func @f(%x: index) -> index {\n  %z = arith.constant 0 : index\n  %y = arith.divsi %x, %z : index\n  return %y : index\n}";
    let e = interp::run(div, "f", vec![Value::Scalar(Scalar::index(1))])
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("arith.divsi") && e.contains("division by zero"),
        "{e}"
    );
    // An alias the interpreter cannot read matters only where it is used.
    let alias = "#s = affine_set<(d0) : (d0 - 1 >= 0)>\n!m = memref<4xf32>\nfunc.func @f(%x: index) -> index {\n  return %x : index\n}\nfunc.func @g(%x: !m) -> !m {\n  return %x : !m\n}";
    let one = vec![Value::Scalar(Scalar::index(1))];
    assert_eq!(interp::run(alias, "f", one.clone()).unwrap(), one);
    let e = interp::run(alias, "g", one).unwrap_err().to_string();
    assert!(e.contains("memref") && e.contains("line 2"), "{e}");
    // Wrong input shape, missing function, garbage.
    assert!(interp::run(oob, "f", vec![t32(&[3], &[1., 2., 3.])]).is_err());
    assert!(interp::run(oob, "g", vec![]).is_err());
    for junk in [
        "",
        "}",
        "func.func @f(",
        "func.func @f() { %x = }",
        "func.func @f() -> f32 { return }",
    ] {
        assert!(interp::run(junk, "f", vec![]).is_err(), "{junk}");
    }
}

#[test]
fn conv_pad_relu_example_runs() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/conv_pad_relu.mlir"
    ))
    .unwrap();
    let inputs = interp::pseudo_random_inputs(&text, "krnl0", 1).unwrap();
    let r = interp::run(&text, "krnl0", inputs.clone()).unwrap();
    let t = r[0].tensor().unwrap();
    assert_eq!(t.shape, [1, 8, 256, 256]);
    // Output (0, f, 0, 0) reads padded rows/columns -1..3 of each channel.
    let x = inputs[0].tensor().unwrap();
    let at = |c: i64, h: i64, w: i64| -> f32 {
        match x.offset(&[0, c, h, w]) {
            Some(p) => match x.data[p] {
                Scalar::F32(v) => v,
                _ => 0.0,
            },
            None => 0.0,
        }
    };
    let mut acc = 0f32;
    for c in 0..3 {
        for kh in 0..5 {
            for kw in 0..5 {
                acc += at(c, kh - 1, kw - 1) * 0.1f32;
            }
        }
    }
    let act = acc + acc.max(0.0) * 0.01;
    assert_eq!(t.data[0], Scalar::F32(act));
}

#[test]
fn dynamic_pad_matmul_example_runs() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/dynamic_pad_matmul.mlir"
    ))
    .unwrap();
    // x is 5x3, so the padded tensor and the result have 8 rows: %n = 8.
    let inputs = interp::pseudo_random_inputs_sized(&text, "pad_matmul", 7, &[5, 8]).unwrap();
    let r = interp::run(&text, "pad_matmul", inputs.clone()).unwrap();
    let t = r[0].tensor().unwrap();
    assert_eq!(t.shape, [8, 5]);
    let x = f32s(&inputs[0]);
    let row = |i: usize| x[3 * i] + x[3 * i + 1] + x[3 * i + 2];
    let got = f32s(&r[0]);
    assert_eq!(got[0], 0.0);
    assert_eq!(got[5], row(0));
    assert_eq!(got[5 * 5 + 4], row(4));
    assert_eq!(got[7 * 5], 0.0);
    // A mismatched %n is out of bounds, an error.
    let bad = interp::pseudo_random_inputs_sized(&text, "pad_matmul", 7, &[5, 9]).unwrap();
    assert!(interp::run(&text, "pad_matmul", bad).is_err());
}

/// A matmul tiled by hand as the emitted code will be: an scf.for over row
/// tiles with affine.min for the partial last tile, extract_slice of the
/// operands, the cloned ops, insert_slice into the result.
#[test]
fn tiled_matmul_equals_original_bit_for_bit() {
    let original = r#"
func.func @orig(%a: tensor<10x6xf32>, %b: tensor<6x5xf32>) -> tensor<10x5xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<10x5xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<10x5xf32>) -> tensor<10x5xf32>
  %r = linalg.matmul ins(%a, %b : tensor<10x6xf32>, tensor<6x5xf32>) outs(%c : tensor<10x5xf32>) -> tensor<10x5xf32>
  return %r : tensor<10x5xf32>
}"#;
    let tiled = r#"
#min = affine_map<(d0) -> (4, 10 - d0)>
func.func @tiled(%a: tensor<10x6xf32>, %b: tensor<6x5xf32>) -> tensor<10x5xf32> {
  %z = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : index
  %e = tensor.empty() : tensor<10x5xf32>
  %r = scf.for %i = %c0 to %c10 step %c4 iter_args(%out = %e) -> (tensor<10x5xf32>) {
    %n = affine.min #min(%i)
    %as = tensor.extract_slice %a[%i, 0] [%n, 6] [1, 1] : tensor<10x6xf32> to tensor<?x6xf32>
    %te = tensor.empty(%n) : tensor<?x5xf32>
    %tc = linalg.fill ins(%z : f32) outs(%te : tensor<?x5xf32>) -> tensor<?x5xf32>
    %tm = linalg.matmul ins(%as, %b : tensor<?x6xf32>, tensor<6x5xf32>) outs(%tc : tensor<?x5xf32>) -> tensor<?x5xf32>
    %o = tensor.insert_slice %tm into %out[%i, 0] [%n, 5] [1, 1] : tensor<?x5xf32> into tensor<10x5xf32>
    scf.yield %o : tensor<10x5xf32>
  }
  return %r : tensor<10x5xf32>
}"#;
    interp::compare((original, "orig"), (tiled, "tiled"), 3, &[]).unwrap();
    // A wrong tiling (a tile skipped) is caught.
    let wrong = tiled.replace("%c10 step", "%c4 step");
    let e = interp::compare((original, "orig"), (&wrong, "tiled"), 3, &[])
        .unwrap_err()
        .to_string();
    assert!(e.contains("differs"), "{e}");
}

/// `linalg.generic` bodies that are a named op's body written out (`o + a * b`,
/// `max(o, x)`, a copy; f32 and i32) run through the named op's fast path:
/// the same results as the same bodies with a dead op added, which the body
/// interpreter runs.
#[test]
fn generic_bodies_of_named_ops_run_as_the_region_does() {
    let body = |dead: &str, ty: &str, mul: &str, add: &str| {
        format!(
            "^bb0(%a: {ty}, %b: {ty}, %o: {ty}):\n{dead}    %p = arith.{mul} %a, %b : {ty}\n    %s = arith.{add} %o, %p : {ty}\n    linalg.yield %s : {ty}\n"
        )
    };
    let func = |name: &str, dead: bool| {
        let (dead_f, dead_i) = if dead {
            (
                "    %dead = arith.addf %a, %a : f32\n",
                "    %dead = arith.addi %a, %a : i32\n",
            )
        } else {
            ("", "")
        };
        format!(
            r#"
func.func @{name}(%x: tensor<6x5xf32>, %w: tensor<3x2xf32>, %y: tensor<6x5xi32>, %v: tensor<3x2xi32>)
    -> (tensor<4x4xf32>, tensor<4x4xi32>, tensor<4x4xf32>, tensor<6x5xf32>) {{
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %c = linalg.generic {{indexing_maps = [affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}}
      ins(%z : f32) outs(%e : tensor<4x4xf32>) {{
  ^bb0(%a: f32, %o: f32):
{dead_f}    linalg.yield %a : f32
  }} -> tensor<4x4xf32>
  %r = linalg.generic {{indexing_maps = [affine_map<(i, j, k, l) -> (i + k, j + l)>, affine_map<(i, j, k, l) -> (k, l)>, affine_map<(i, j, k, l) -> (i, j)>],
                       iterator_types = ["parallel", "parallel", "reduction", "reduction"]}}
      ins(%x, %w : tensor<6x5xf32>, tensor<3x2xf32>) outs(%c : tensor<4x4xf32>) {{
  {}  }} -> tensor<4x4xf32>
  %ei = tensor.empty() : tensor<4x4xi32>
  %ri = linalg.generic {{indexing_maps = [affine_map<(i, j, k, l) -> (i + k, j + l)>, affine_map<(i, j, k, l) -> (k, l)>, affine_map<(i, j, k, l) -> (i, j)>],
                       iterator_types = ["parallel", "parallel", "reduction", "reduction"]}}
      ins(%y, %v : tensor<6x5xi32>, tensor<3x2xi32>) outs(%ei : tensor<4x4xi32>) {{
  {}  }} -> tensor<4x4xi32>
  %m = linalg.generic {{indexing_maps = [affine_map<(i, j, k, l) -> (i + k, j + l)>, affine_map<(i, j, k, l) -> (k, l)>, affine_map<(i, j, k, l) -> (i, j)>],
                       iterator_types = ["parallel", "parallel", "reduction", "reduction"]}}
      ins(%x, %w : tensor<6x5xf32>, tensor<3x2xf32>) outs(%c : tensor<4x4xf32>) {{
  ^bb0(%a: f32, %b: f32, %o: f32):
{dead_f}    %s = arith.maximumf %o, %a : f32
    linalg.yield %s : f32
  }} -> tensor<4x4xf32>
  %ex = tensor.empty() : tensor<6x5xf32>
  %cp = linalg.generic {{indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}}
      ins(%x : tensor<6x5xf32>) outs(%ex : tensor<6x5xf32>) {{
  ^bb0(%a: f32, %o: f32):
{dead_f}    linalg.yield %a : f32
  }} -> tensor<6x5xf32>
  return %r, %ri, %m, %cp : tensor<4x4xf32>, tensor<4x4xi32>, tensor<4x4xf32>, tensor<6x5xf32>
}}
"#,
            body(dead_f, "f32", "mulf", "addf"),
            body(dead_i, "i32", "muli", "addi"),
        )
    };
    let text = format!("{}{}", func("fast", false), func("region", true));
    let r = interp::compare((&text, "fast"), (&text, "region"), 4, &[]).unwrap();
    assert_eq!(r.len(), 4);
    // A changed body is not taken for the named one.
    let swapped = text.replace("%s = arith.maximumf %o, %a", "%s = arith.minimumf %o, %a");
    assert!(interp::compare((&text, "fast"), (&swapped, "fast"), 4, &[]).is_err());
}

#[test]
fn inputs_and_hashes_are_deterministic() {
    let text = "func.func @f(%a: tensor<3x?xf64>, %n: index, %s: f32) -> f32 { return %s : f32 }";
    let a = interp::pseudo_random_inputs_sized(text, "f", 5, &[4, 9]).unwrap();
    let b = interp::pseudo_random_inputs_sized(text, "f", 5, &[4, 9]).unwrap();
    assert_eq!(a, b);
    assert_eq!(a[0].tensor().unwrap().shape, [3, 4]);
    assert_eq!(a[1], Value::Scalar(Scalar::index(9)));
    for s in &a[0].tensor().unwrap().data {
        let Scalar::F64(x) = s else { panic!() };
        assert!((x * 64.0).fract() == 0.0 && (-2.0..2.0).contains(x));
    }
    assert_eq!(interp::hash_values(&a), interp::hash_values(&b));
    let c = interp::pseudo_random_inputs_sized(text, "f", 6, &[4, 9]).unwrap();
    assert_ne!(interp::hash_values(&a)[0], interp::hash_values(&c)[0]);
}

#[test]
fn mangled_programs_give_errors_not_panics() {
    let text = include_str!("programs/tiled_pad_conv1d.mlir");
    let inputs = interp::pseudo_random_inputs(text, "tiled", 1).unwrap();
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    for (k, &(i, c)) in chars.iter().enumerate().step_by(3) {
        // Truncated here, and with this character deleted.
        let _ = interp::run(&text[..i], "tiled", inputs.clone());
        let deleted = format!("{}{}", &text[..i], &text[i + c.len_utf8()..]);
        let _ = interp::run(&deleted, "tiled", inputs.clone());
        if k % 7 == 0 {
            let _ = interp::pseudo_random_inputs_sized(&deleted, "tiled", 1, &[3, 3]);
            let _ = interp::harness::with_main(&deleted, "tiled", 1, &[3, 3]);
        }
    }
    let cases = [
        "func.func @f() -> tensor<99999999999x99999999999xf32> {\n %e = tensor.empty() : tensor<99999999999x99999999999xf32>\n return %e : tensor<99999999999x99999999999xf32>\n}",
        "func.func @f() -> tensor<99999999999999999999xf32> {\n %e = tensor.empty() : tensor<99999999999999999999xf32>\n return %e : tensor<99999999999999999999xf32>\n}",
        "func.func @f() -> tensor<3xf32> {\n %c = arith.constant dense<[1.0, 2.0]> : tensor<3xf32>\n return %c : tensor<3xf32>\n}",
        "func.func @f() -> index {\n %c0 = arith.constant 0 : index\n %r = scf.for %i = %c0 to %c0 step %c0 iter_args(%a = %c0) -> (index) {\n scf.yield %a : index\n }\n return %r : index\n}",
        "func.func @f() -> index {\n %r = func.call @f() : () -> index\n return %r : index\n}",
        "func.func @f(%x: tensor<2xf32>) -> tensor<?xf32> {\n %z = arith.constant 0.0 : f32\n %n = arith.constant -5 : index\n %p = tensor.pad %x low[%n] high[0] {\n ^bb0(%i: index):\n tensor.yield %z : f32\n } : tensor<2xf32> to tensor<?xf32>\n return %p : tensor<?xf32>\n}",
        "func.func @f(%x: tensor<2xf32>) -> tensor<?xf32> {\n %z = arith.constant 0.0 : f32\n %n = arith.constant 9223372036854775807 : index\n %p = tensor.pad %x low[%n] high[%n] {\n ^bb0(%i: index):\n tensor.yield %z : f32\n } : tensor<2xf32> to tensor<?xf32>\n return %p : tensor<?xf32>\n}",
        "func.func @f(%x: tensor<2xf32>) -> tensor<?xf32> {\n %n = arith.constant 9223372036854775807 : index\n %s = tensor.extract_slice %x[%n] [%n] [%n] : tensor<2xf32> to tensor<?xf32>\n return %s : tensor<?xf32>\n}",
        "func.func @f(%x: tensor<2xf32>) -> tensor<?xf32> {\n %n = arith.constant 1000000000 : index\n %s = tensor.extract_slice %x[0] [%n] [0] : tensor<2xf32> to tensor<?xf32>\n return %s : tensor<?xf32>\n}",
        "func.func @f() -> index {\n %a = affine.apply affine_map<(d0) -> (d0 floordiv 0)>(%a)\n return %a : index\n}",
        "func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {\n %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0 * 9223372036854775807)>], iterator_types = [\"parallel\"]} outs(%x : tensor<2xf32>) {\n ^bb0(%o: f32):\n linalg.yield %o : f32\n } -> tensor<2xf32>\n return %r : tensor<2xf32>\n}",
    ];
    // A coefficient far too large on a loop of size 1 is harmless.
    let one = "func.func @f(%x: tensor<1xf32>) -> tensor<1xf32> {\n %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0 * 9223372036854775807)>], iterator_types = [\"parallel\"]} ins(%x : tensor<1xf32>) outs(%x : tensor<1xf32>) {\n ^bb0(%i: f32, %o: f32):\n linalg.yield %i : f32\n } -> tensor<1xf32>\n return %r : tensor<1xf32>\n}";
    assert!(interp::run(one, "f", vec![t32(&[1], &[3.])]).is_ok());
    // Empty domains run no iteration and read nothing.
    let empty = "func.func @f(%x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {\n %r = linalg.add ins(%x, %x : tensor<?xf32>, tensor<?xf32>) outs(%y : tensor<?xf32>) -> tensor<?xf32>\n return %r : tensor<?xf32>\n}";
    assert!(interp::run(empty, "f", vec![t32(&[0], &[]), t32(&[0], &[])]).is_ok());
    for c in cases {
        let inputs: Vec<Value> = if c.contains("%x: tensor<2xf32>") {
            vec![t32(&[2], &[1., 2.])]
        } else {
            vec![]
        };
        let r = interp::run(c, "f", inputs);
        assert!(r.is_err(), "{c} gave {r:?}");
    }
}
