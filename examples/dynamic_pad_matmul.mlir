// Feed-forward shape inference with a dynamic size: a ?x3 input padded by one row
// before and two after, then multiplied by a 3x5 matrix of constants. The `?`
// becomes the parameter x_d0; every intermediate's domain is given in terms of it.
func.func @pad_matmul(%x: tensor<?x3xf32>, %n: index) -> tensor<?x5xf32> {
  %zero = arith.constant 0.0 : f32
  %b = arith.constant dense<1.0> : tensor<3x5xf32>
  %p = tensor.pad %x low[1, 0] high[2, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<?x3xf32> to tensor<?x3xf32>
  %e = tensor.empty(%n) : tensor<?x5xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<?x5xf32>) -> tensor<?x5xf32>
  %r = linalg.matmul ins(%p, %b : tensor<?x3xf32>, tensor<3x5xf32>)
                     outs(%c : tensor<?x5xf32>) -> tensor<?x5xf32>
  return %r : tensor<?x5xf32>
}
