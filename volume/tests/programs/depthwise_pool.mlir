// The named depthwise convolutions and pooling ops, strided and dilated.
func.func @dw_pool(%i: tensor<1x9x9x4xf32>, %k: tensor<3x3x4xf32>, %w: tensor<2x2xf32>, %ic: tensor<1x4x9x9xf32>, %kc: tensor<4x3x3xf32>)
    -> (tensor<1x3x3x4xf32>, tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>, tensor<1x4x3x3xf32>, tensor<1x4x3x3xf32>) {
  %z = arith.constant 0.0 : f32
  %big = arith.constant 1.0e+30 : f32
  %e = tensor.empty() : tensor<1x3x3x4xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<1x3x3x4xf32>) -> tensor<1x3x3x4xf32>
  %a = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<3> : tensor<2xi64>}
      ins(%i, %k : tensor<1x9x9x4xf32>, tensor<3x3x4xf32>) outs(%o : tensor<1x3x3x4xf32>) -> tensor<1x3x3x4xf32>
  %e2 = tensor.empty() : tensor<1x4x4x4xf32>
  %o2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %b = linalg.pooling_nhwc_sum {dilations = dense<2> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%i, %w : tensor<1x9x9x4xf32>, tensor<2x2xf32>) outs(%o2 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %o3 = linalg.fill ins(%big : f32) outs(%e2 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %c = linalg.pooling_nhwc_min {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%i, %w : tensor<1x9x9x4xf32>, tensor<2x2xf32>) outs(%o3 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %e4 = tensor.empty() : tensor<1x4x3x3xf32>
  %o4 = linalg.fill ins(%z : f32) outs(%e4 : tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  %d = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<3> : tensor<2xi64>}
      ins(%ic, %kc : tensor<1x4x9x9xf32>, tensor<4x3x3xf32>) outs(%o4 : tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %o5 = linalg.fill ins(%ninf : f32) outs(%e4 : tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  %w3 = tensor.empty() : tensor<3x3xf32>
  %f = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<3> : tensor<2xi64>}
      ins(%ic, %w3 : tensor<1x4x9x9xf32>, tensor<3x3xf32>) outs(%o5 : tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  return %a, %b, %c, %d, %f : tensor<1x3x3x4xf32>, tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>, tensor<1x4x3x3xf32>, tensor<1x4x3x3xf32>
}
