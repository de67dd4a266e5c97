// A transpose feeding a matmul: C = transpose(A) * B.
func.func @transpose_matmul(%a: tensor<96x128xf32>, %b: tensor<96x64xf32>) -> tensor<128x64xf32> {
  %zero = arith.constant 0.0 : f32
  %te = tensor.empty() : tensor<128x96xf32>
  %t = linalg.transpose ins(%a : tensor<96x128xf32>) outs(%te : tensor<128x96xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<128x64xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<128x64xf32>) -> tensor<128x64xf32>
  %r = linalg.matmul ins(%t, %b : tensor<128x96xf32>, tensor<96x64xf32>)
                     outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %r : tensor<128x64xf32>
}
