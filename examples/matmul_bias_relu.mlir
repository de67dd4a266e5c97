// A dense layer: matmul, then a bias broadcast along the rows and a ReLU in one
// linalg.generic. No padding: every tile is interior.
func.func @dense_layer(%a: tensor<256x128xf32>, %w: tensor<128x192xf32>,
                       %bias: tensor<192xf32>) -> tensor<256x192xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x192xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<256x192xf32>) -> tensor<256x192xf32>
  %mm = linalg.matmul ins(%a, %w : tensor<256x128xf32>, tensor<128x192xf32>)
                      outs(%c : tensor<256x192xf32>) -> tensor<256x192xf32>
  %o = tensor.empty() : tensor<256x192xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>,
                       affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<256x192xf32>, tensor<192xf32>)
      outs(%o : tensor<256x192xf32>) {
  ^bb0(%x: f32, %b: f32, %y: f32):
    %s = arith.addf %x, %b : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<256x192xf32>
  return %r : tensor<256x192xf32>
}
