// 3x3 max pooling with stride 2 as a linalg.generic (the window is an empty
// tensor read for its shape, as MLIR's pooling ops do), on an input padded by
// one with a very negative value.
func.func @max_pool(%ifm: tensor<1x64x256x256xf32>) -> tensor<1x64x128x128xf32> {
  %neg = arith.constant -1.0e30 : f32
  %p = tensor.pad %ifm low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%n: index, %c: index, %h: index, %w: index):
    tensor.yield %neg : f32
  } : tensor<1x64x256x256xf32> to tensor<1x64x258x258xf32>
  %win = tensor.empty() : tensor<3x3xf32>
  %e = tensor.empty() : tensor<1x64x128x128xf32>
  %i = linalg.fill ins(%neg : f32) outs(%e : tensor<1x64x128x128xf32>) -> tensor<1x64x128x128xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(n, c, h, w, kh, kw) -> (n, c, 2 * h + kh, 2 * w + kw)>,
                       affine_map<(n, c, h, w, kh, kw) -> (kh, kw)>,
                       affine_map<(n, c, h, w, kh, kw) -> (n, c, h, w)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%p, %win : tensor<1x64x258x258xf32>, tensor<3x3xf32>)
      outs(%i : tensor<1x64x128x128xf32>) {
  ^bb0(%x: f32, %unused: f32, %acc: f32):
    %m = arith.maximumf %acc, %x : f32
    linalg.yield %m : f32
  } -> tensor<1x64x128x128xf32>
  return %r : tensor<1x64x128x128xf32>
}
