// examples/max_pool.mlir on a 1x4x16x16 input: the same padded 3x3 max pooling
// with stride 2 as a linalg.generic, small enough for the interpreter in debug
// builds.
func.func @max_pool(%ifm: tensor<1x4x16x16xf32>) -> tensor<1x4x8x8xf32> {
  %neg = arith.constant -1.0e30 : f32
  %p = tensor.pad %ifm low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%n: index, %c: index, %h: index, %w: index):
    tensor.yield %neg : f32
  } : tensor<1x4x16x16xf32> to tensor<1x4x18x18xf32>
  %win = tensor.empty() : tensor<3x3xf32>
  %e = tensor.empty() : tensor<1x4x8x8xf32>
  %i = linalg.fill ins(%neg : f32) outs(%e : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(n, c, h, w, kh, kw) -> (n, c, 2 * h + kh, 2 * w + kw)>,
                       affine_map<(n, c, h, w, kh, kw) -> (kh, kw)>,
                       affine_map<(n, c, h, w, kh, kw) -> (n, c, h, w)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%p, %win : tensor<1x4x18x18xf32>, tensor<3x3xf32>)
      outs(%i : tensor<1x4x8x8xf32>) {
  ^bb0(%x: f32, %unused: f32, %acc: f32):
    %m = arith.maximumf %acc, %x : f32
    linalg.yield %m : f32
  } -> tensor<1x4x8x8xf32>
  return %r : tensor<1x4x8x8xf32>
}
