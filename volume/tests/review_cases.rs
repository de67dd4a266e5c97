//! Programs from review that the first version got wrong: a multi-result generic
//! whose results read each other's init values, a padding value used elsewhere
//! too, values named like isl keywords, huge index arithmetic, chains of dynamic
//! sizes, static sizes meeting dynamic ones, and slices of dynamic tensors.

use presburger::{Map, Set};
use presburger_volume::model::{Model, Options};

fn model(text: &str) -> Model {
    Model::from_mlir(text, &Options::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn member(m: &presburger::UnionMap, range: &str) -> Option<Map> {
    m.members()
        .iter()
        .find(|x| x.space().range_tuple().name.as_deref() == Some(range))
        .cloned()
}

#[test]
fn argmax_index_depends_on_the_running_maximum() {
    let m = model(
        r#"func.func @f(%x: tensor<8xf32>, %m0: tensor<f32>, %i0: tensor<i64>) -> (tensor<f32>, tensor<i64>) {
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
      ins(%x : tensor<8xf32>) outs(%m0, %i0 : tensor<f32>, tensor<i64>) {
  ^bb0(%in: f32, %m: f32, %i: i64):
    %gt = arith.cmpf ogt, %in, %m : f32
    %k = linalg.index 0 : index
    %ki = arith.index_cast %k : index to i64
    %nm = arith.select %gt, %in, %m : f32
    %ni = arith.select %gt, %ki, %i : i64
    linalg.yield %nm, %ni : f32, i64
  } -> (tensor<f32>, tensor<i64>)
  return %r#0, %r#1 : tensor<f32>, tensor<i64>
}"#,
    );
    let idx = m.output(Some("r#1")).unwrap();
    let map = m.output_map(idx).unwrap();
    for leaf in ["x", "m0", "i0"] {
        assert!(
            member(&map, leaf).is_some(),
            "r#1 should depend on {leaf}: {map}"
        );
    }
}

#[test]
fn a_padding_argument_used_elsewhere_marks_only_the_border() {
    let m = model(
        r#"func.func @f(%x: tensor<1x1x8x8xf32>, %alpha: f32) -> tensor<1x1x10x10xf32> {
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %alpha : f32
  } : tensor<1x1x8x8xf32> to tensor<1x1x10x10xf32>
  %e = tensor.empty() : tensor<1x1x10x10xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(a,b,c,d)->(a,b,c,d)>, affine_map<(a,b,c,d)->(a,b,c,d)>], iterator_types = ["parallel","parallel","parallel","parallel"]}
      ins(%p : tensor<1x1x10x10xf32>) outs(%e : tensor<1x1x10x10xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.mulf %in, %alpha : f32
    linalg.yield %m : f32
  } -> tensor<1x1x10x10xf32>
  return %r : tensor<1x1x10x10xf32>
}"#,
    );
    let out = m.output(None).unwrap();
    let r = m.regions(out).unwrap();
    let dense: Set = "{ r[0, 0, h, w] : 1 <= h <= 8 and 1 <= w <= 8 }"
        .parse()
        .unwrap();
    assert!(r.dense.is_equal(&dense).unwrap(), "{}", r.dense);
    // the border depends on %alpha, a live-in, so nothing is static
    assert!(r.static_only.is_empty().unwrap());
}

#[test]
fn values_named_like_keywords_can_be_tiled() {
    let m = model(
        r#"func.func @f(%min: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %e = tensor.empty() : tensor<8x8xf32>
  %max = linalg.transpose ins(%min : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) permutation = [1, 0]
  return %max : tensor<8x8xf32>
}"#,
    );
    let out = m.output(None).unwrap();
    let t = m.tile(out, &[(0, 4)]).unwrap();
    let (name, _, s) = &t.slices[0];
    assert_eq!(name, "min_");
    let s = s.as_ref().expect("a transposed tile reads a slice");
    assert_eq!(s.offsets, ["0", "4Q0"]);
    assert_eq!(s.sizes, ["8", "4"]);
}

#[test]
fn huge_index_arithmetic_is_an_error_not_a_panic() {
    let text = r#"func.func @f(%a: tensor<9223372036854775807xf32>, %b: tensor<1xf32>) -> tensor<9223372036854775807xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0 * 9223372036854775807 + d0 * 9223372036854775807 + d0 * 9223372036854775807)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%b : tensor<1xf32>) outs(%a : tensor<9223372036854775807xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<9223372036854775807xf32>
  return %r : tensor<9223372036854775807xf32>
}"#;
    // whatever it answers, it answers without panicking
    let _ = Model::from_mlir(text, &Options::default());
}

#[test]
fn static_sizes_give_the_loop_ranges() {
    let m = model(
        r#"func.func @f(%a: tensor<?xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.copy ins(%a : tensor<?xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}"#,
    );
    let out = m.output(None).unwrap();
    let a = member(&m.output_map(out).unwrap(), "a").unwrap();
    let want: Map = "[a_d0] -> { r[i] -> a[i] : 0 <= i < 8 }".parse().unwrap();
    assert!(a.is_equal(&want).unwrap(), "{a}");
    assert!(member(&m.output_map(out).unwrap(), "r").is_none());
}

#[test]
fn slices_of_dynamic_tensors_stay_inside_them() {
    let m = model(
        r#"func.func @f(%a: tensor<?xf32>) -> tensor<8xf32> {
  %s = tensor.extract_slice %a[0] [8] [1] : tensor<?xf32> to tensor<8xf32>
  return %s : tensor<8xf32>
}"#,
    );
    let out = m.output(None).unwrap();
    let a = member(&m.output_map(out).unwrap(), "a").unwrap();
    assert!(
        a.range()
            .is_subset(&"[a_d0] -> { a[i] : 0 <= i < a_d0 }".parse::<Set>().unwrap())
            .unwrap()
    );
}

#[test]
fn placeholder_sizes_are_resolved_through_chains() {
    let m = model(
        r#"func.func @f(%a: tensor<?xf32>, %n: index, %m: index, %c: f32) -> tensor<?xf32> {
  %e = tensor.empty(%n) : tensor<?xf32>
  %p = tensor.pad %e low[1] high[0] {
  ^bb0(%i: index):
    tensor.yield %c : f32
  } : tensor<?xf32> to tensor<?xf32>
  %f = tensor.empty(%m) : tensor<?xf32>
  %r = linalg.add ins(%p, %f : tensor<?xf32>, tensor<?xf32>) outs(%p : tensor<?xf32>) -> tensor<?xf32>
  %s = linalg.copy ins(%a : tensor<?xf32>) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}"#,
    );
    assert_eq!(m.shapes.params, ["a_d0"]);
    let f = m.domain(m.program.find("f").unwrap()).unwrap();
    let want: Set = "[a_d0] -> { f[i] : 0 <= i <= a_d0 }".parse().unwrap();
    assert!(f.is_equal(&want).unwrap(), "{f}");
}
