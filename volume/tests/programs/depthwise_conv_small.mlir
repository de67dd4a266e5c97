// examples/depthwise_conv.mlir on a 1x4x16x16 input: the same padded
// depthwise 3x3 convolution as a linalg.generic and ReLU, small enough for the
// interpreter in debug builds.
func.func @depthwise(%ifm: tensor<1x4x16x16xf32>, %wgt: tensor<4x3x3xf32>)
    -> tensor<1x4x16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %ifm low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%n: index, %c: index, %h: index, %w: index):
    tensor.yield %zero : f32
  } : tensor<1x4x16x16xf32> to tensor<1x4x18x18xf32>
  %e = tensor.empty() : tensor<1x4x16x16xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x16x16xf32>) -> tensor<1x4x16x16xf32>
  %dw = linalg.generic {
      indexing_maps = [affine_map<(n, c, h, w, kh, kw) -> (n, c, h + kh, w + kw)>,
                       affine_map<(n, c, h, w, kh, kw) -> (c, kh, kw)>,
                       affine_map<(n, c, h, w, kh, kw) -> (n, c, h, w)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%p, %wgt : tensor<1x4x18x18xf32>, tensor<4x3x3xf32>)
      outs(%i : tensor<1x4x16x16xf32>) {
  ^bb0(%x: f32, %k: f32, %acc: f32):
    %m = arith.mulf %x, %k : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x4x16x16xf32>
  %o = tensor.empty() : tensor<1x4x16x16xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%dw : tensor<1x4x16x16xf32>) outs(%o : tensor<1x4x16x16xf32>) {
  ^bb0(%x: f32, %y: f32):
    %m = arith.maximumf %x, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x4x16x16xf32>
  return %r : tensor<1x4x16x16xf32>
}
