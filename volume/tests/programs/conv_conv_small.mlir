// examples/conv_conv.mlir on a 1x2x12x12 input (4 filters each): the same two
// chained padded 3x3 convolutions, small enough for the interpreter in debug
// builds.
func.func @conv_conv(%ifm: tensor<1x2x12x12xf32>, %w1: tensor<4x2x3x3xf32>,
                     %w2: tensor<4x4x3x3xf32>) -> tensor<1x4x12x12xf32> {
  %zero = arith.constant 0.0 : f32
  %p1 = tensor.pad %ifm low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%n: index, %c: index, %h: index, %w: index):
    tensor.yield %zero : f32
  } : tensor<1x2x12x12xf32> to tensor<1x2x14x14xf32>
  %e1 = tensor.empty() : tensor<1x4x12x12xf32>
  %i1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x4x12x12xf32>) -> tensor<1x4x12x12xf32>
  %c1 = linalg.conv_2d_nchw_fchw
      {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p1, %w1 : tensor<1x2x14x14xf32>, tensor<4x2x3x3xf32>)
      outs(%i1 : tensor<1x4x12x12xf32>) -> tensor<1x4x12x12xf32>
  %p2 = tensor.pad %c1 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%n: index, %c: index, %h: index, %w: index):
    tensor.yield %zero : f32
  } : tensor<1x4x12x12xf32> to tensor<1x4x14x14xf32>
  %e2 = tensor.empty() : tensor<1x4x12x12xf32>
  %i2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x4x12x12xf32>) -> tensor<1x4x12x12xf32>
  %c2 = linalg.conv_2d_nchw_fchw
      {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p2, %w2 : tensor<1x4x14x14xf32>, tensor<4x4x3x3xf32>)
      outs(%i2 : tensor<1x4x12x12xf32>) -> tensor<1x4x12x12xf32>
  return %c2 : tensor<1x4x12x12xf32>
}
