// A strided, dilated NHWC convolution of an input padded unevenly (low 1,
// high 2), then a 2x2 max pooling written as a linalg.generic with a
// shape-only window operand, then a transpose and a batch matmul.
#pin = affine_map<(n, h, w, c, kh, kw) -> (n, h * 2 + kh, w * 2 + kw, c)>
#pwin = affine_map<(n, h, w, c, kh, kw) -> (kh, kw)>
#pout = affine_map<(n, h, w, c, kh, kw) -> (n, h, w, c)>

func.func @conv_pool(%x: tensor<1x9x9x2xf32>, %k: tensor<3x3x2x4xf32>) -> (tensor<1x2x2x4xf32>, tensor<4x2x2xf32>) {
  %z = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 2, 2, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %z : f32
  } : tensor<1x9x9x2xf32> to tensor<1x12x12x2xf32>
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%p, %k : tensor<1x12x12x2xf32>, tensor<3x3x2x4xf32>) outs(%f : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %pe = tensor.empty() : tensor<1x2x2x4xf32>
  %pf = linalg.fill ins(%ninf : f32) outs(%pe : tensor<1x2x2x4xf32>) -> tensor<1x2x2x4xf32>
  %pool = linalg.generic {indexing_maps = [#pin, #pwin, #pout],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%conv, %win : tensor<1x4x4x4xf32>, tensor<2x2xf32>) outs(%pf : tensor<1x2x2x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.maximumf %o, %a : f32
    linalg.yield %m : f32
  } -> tensor<1x2x2x4xf32>
  %flat = tensor.extract_slice %pool[0, 0, 0, 0] [1, 2, 2, 4] [1, 1, 1, 1] : tensor<1x2x2x4xf32> to tensor<2x2x4xf32>
  %te = tensor.empty() : tensor<4x2x2xf32>
  %t = linalg.transpose ins(%flat : tensor<2x2x4xf32>) outs(%te : tensor<4x2x2xf32>) permutation = [2, 0, 1]
  %bz = linalg.fill ins(%z : f32) outs(%te : tensor<4x2x2xf32>) -> tensor<4x2x2xf32>
  %bm = linalg.batch_matmul ins(%t, %t : tensor<4x2x2xf32>, tensor<4x2x2xf32>) outs(%bz : tensor<4x2x2xf32>) -> tensor<4x2x2xf32>
  return %pool, %bm : tensor<1x2x2x4xf32>, tensor<4x2x2xf32>
}
