// examples/matmul_bias_relu.mlir at 16x8 times 8x12: the same matmul, bias
// and ReLU, small enough for the interpreter in debug builds.
func.func @dense_layer(%a: tensor<16x8xf32>, %w: tensor<8x12xf32>,
                       %bias: tensor<12xf32>) -> tensor<16x12xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x12xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<16x12xf32>) -> tensor<16x12xf32>
  %mm = linalg.matmul ins(%a, %w : tensor<16x8xf32>, tensor<8x12xf32>)
                      outs(%c : tensor<16x12xf32>) -> tensor<16x12xf32>
  %o = tensor.empty() : tensor<16x12xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>,
                       affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<16x12xf32>, tensor<12xf32>)
      outs(%o : tensor<16x12xf32>) {
  ^bb0(%x: f32, %b: f32, %y: f32):
    %s = arith.addf %x, %b : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<16x12xf32>
  return %r : tensor<16x12xf32>
}
