// Argument and result kinds the harness handles: rank-0 and i64 tensors,
// dynamic shapes, index and float scalars, i1 and index results, a dot
// product into a rank-0 tensor and a call.
func.func @dot(%a: tensor<?xi64>, %b: tensor<?xi64>, %init: tensor<i64>) -> tensor<i64> {
  %r = linalg.dot ins(%a, %b : tensor<?xi64>, tensor<?xi64>) outs(%init : tensor<i64>) -> tensor<i64>
  return %r : tensor<i64>
}

func.func @kinds(%a: tensor<?xi64>, %z: tensor<i64>, %n: index, %s: f64) -> (tensor<i64>, i1, index, f64, tensor<2x?xi32>) {
  %r = func.call @dot(%a, %a, %z) : (tensor<?xi64>, tensor<?xi64>, tensor<i64>) -> tensor<i64>
  %v = tensor.extract %r[] : tensor<i64>
  %zero = arith.constant 0 : i64
  %pos = arith.cmpi sgt, %v, %zero : i64
  %c0 = arith.constant 0 : index
  %d = tensor.dim %a, %c0 : tensor<?xi64>
  %m = arith.addi %d, %n : index
  %t = arith.mulf %s, %s : f64
  %e = tensor.empty(%n) : tensor<2x?xi32>
  %k = arith.constant 7 : i32
  %f = linalg.fill ins(%k : i32) outs(%e : tensor<2x?xi32>) -> tensor<2x?xi32>
  return %r, %pos, %m, %t, %f : tensor<i64>, i1, index, f64, tensor<2x?xi32>
}
