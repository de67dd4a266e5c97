// Integer and f64 arithmetic in linalg bodies and around them: linalg.index,
// remsi, floordivsi, maxsi, cmpi, select, casts between i32, i64, index, f32
// and f64, a reduction in f64 truncated to f32, and math on exact values.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

func.func @mix(%a: tensor<4x6xi32>, %b: tensor<4x6xf64>, %s: f32, %n: index) -> (tensor<4x6xi32>, tensor<4xf32>, i64) {
  %e = tensor.empty() : tensor<4x6xi32>
  %three = arith.constant 3 : i32
  %ints = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x6xi32>) outs(%e : tensor<4x6xi32>) {
  ^bb0(%x: i32, %o: i32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ij = arith.muli %i, %j : index
    %c = arith.index_cast %ij : index to i32
    %r = arith.remsi %x, %three : i32
    %f = arith.floordivsi %x, %three : i32
    %m = arith.maxsi %r, %f : i32
    %lt = arith.cmpi slt, %x, %c : i32
    %sel = arith.select %lt, %m, %c : i32
    %w = arith.extsi %sel : i32 to i64
    %w2 = arith.muli %w, %w : i64
    %t = arith.trunci %w2 : i64 to i32
    %d = arith.subi %t, %x : i32
    linalg.yield %d : i32
  } -> tensor<4x6xi32>
  %z = arith.constant 0.0 : f64
  %re = tensor.empty() : tensor<4xf64>
  %rf = linalg.fill ins(%z : f64) outs(%re : tensor<4xf64>) -> tensor<4xf64>
  %sums = linalg.generic {indexing_maps = [#id2, #id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a, %b : tensor<4x6xi32>, tensor<4x6xf64>) outs(%rf : tensor<4xf64>) {
  ^bb0(%x: i32, %y: f64, %o: f64):
    %xf = arith.sitofp %x : i32 to f64
    %p = arith.mulf %xf, %y : f64
    %ab = math.absf %p : f64
    %sq = math.sqrt %ab : f64
    %fl = math.floor %sq : f64
    %neg = arith.negf %fl : f64
    %mn = arith.minimumf %neg, %p : f64
    %acc = arith.addf %o, %mn : f64
    linalg.yield %acc : f64
  } -> tensor<4xf64>
  %oe = tensor.empty() : tensor<4xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%sums : tensor<4xf64>) outs(%oe : tensor<4xf32>) {
  ^bb0(%x: f64, %o: f32):
    %t = arith.truncf %x : f64 to f32
    %d = arith.divf %t, %s : f32
    %u = arith.cmpf ugt, %d, %t : f32
    %r = arith.select %u, %d, %t : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %i0 = arith.constant 0 : i64
  %tot = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %i0) -> (i64) {
    %row = arith.remsi %i, %c1 : index
    %v = tensor.extract %ints[%row, %i] : tensor<4x6xi32>
    %v64 = arith.extsi %v : i32 to i64
    %big = arith.cmpi sgt, %v64, %acc : i64
    %next = scf.if %big -> (i64) {
      %s2 = arith.addi %acc, %v64 : i64
      scf.yield %s2 : i64
    } else {
      %s3 = arith.subi %acc, %v64 : i64
      scf.yield %s3 : i64
    }
    scf.yield %next : i64
  }
  return %ints, %out, %tot : tensor<4x6xi32>, tensor<4xf32>, i64
}
