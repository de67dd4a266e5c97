// Two chained 3x3 convolutions, each on an input padded by one on every side:
// an output element depends on padding when it is within two of the border.
func.func @conv_conv(%ifm: tensor<1x8x128x128xf32>, %w1: tensor<16x8x3x3xf32>,
                     %w2: tensor<16x16x3x3xf32>) -> tensor<1x16x128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %p1 = tensor.pad %ifm low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%n: index, %c: index, %h: index, %w: index):
    tensor.yield %zero : f32
  } : tensor<1x8x128x128xf32> to tensor<1x8x130x130xf32>
  %e1 = tensor.empty() : tensor<1x16x128x128xf32>
  %i1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x16x128x128xf32>) -> tensor<1x16x128x128xf32>
  %c1 = linalg.conv_2d_nchw_fchw
      {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p1, %w1 : tensor<1x8x130x130xf32>, tensor<16x8x3x3xf32>)
      outs(%i1 : tensor<1x16x128x128xf32>) -> tensor<1x16x128x128xf32>
  %p2 = tensor.pad %c1 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%n: index, %c: index, %h: index, %w: index):
    tensor.yield %zero : f32
  } : tensor<1x16x128x128xf32> to tensor<1x16x130x130xf32>
  %e2 = tensor.empty() : tensor<1x16x128x128xf32>
  %i2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x16x128x128xf32>) -> tensor<1x16x128x128xf32>
  %c2 = linalg.conv_2d_nchw_fchw
      {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p2, %w2 : tensor<1x16x130x130xf32>, tensor<16x16x3x3xf32>)
      outs(%i2 : tensor<1x16x128x128xf32>) -> tensor<1x16x128x128xf32>
  return %c2 : tensor<1x16x128x128xf32>
}
