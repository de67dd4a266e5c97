// The paper's layer (examples/conv_pad_relu.mlir) on a 64x64 input.

#elementwise = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#elementwise_traits = {
  indexing_maps = [#elementwise, #elementwise],
  iterator_types = ["parallel", "parallel", "parallel", "parallel"]
}

module {
  func.func @krnl0(%ifm: tensor<1x3x64x64xf32>) -> tensor<1x8x32x32xf32> {
    %cst0 = arith.constant 0.0 : f32
    %cst0_01 = arith.constant 0.01 : f32
    %zero = arith.constant 0.0 : f32
    %wgt = arith.constant dense<0.1> : tensor<8x3x5x5xf32>

    // (1) pad height and width by 1 before and 2 after.
    %pad0 = tensor.pad %ifm low[0, 0, 1, 1] high[0, 0, 2, 2] {
    ^bb0(%n: index, %c: index, %h: index, %w: index):
      tensor.yield %cst0 : f32
    } : tensor<1x3x64x64xf32> to tensor<1x3x67x67xf32>

    // (2) a 5x5 convolution with stride 2.
    %conv0.empty = tensor.empty() : tensor<1x8x32x32xf32>
    %conv0.init = linalg.fill ins(%zero : f32)
        outs(%conv0.empty : tensor<1x8x32x32xf32>) -> tensor<1x8x32x32xf32>
    %conv0 = linalg.conv_2d_nchw_fchw
        {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
        ins(%pad0, %wgt : tensor<1x3x67x67xf32>, tensor<8x3x5x5xf32>)
        outs(%conv0.init : tensor<1x8x32x32xf32>) -> tensor<1x8x32x32xf32>

    // (3) the activation.
    %act0.init = tensor.empty() : tensor<1x8x32x32xf32>
    %act0 = linalg.generic #elementwise_traits
        ins(%conv0 : tensor<1x8x32x32xf32>)
        outs(%act0.init : tensor<1x8x32x32xf32>) {
    ^bb0(%a: f32, %b: f32):
      %0 = arith.maximumf %a, %cst0 : f32
      %1 = arith.mulf %0, %cst0_01 : f32
      %2 = arith.addf %a, %1 : f32
      linalg.yield %2 : f32
    } -> tensor<1x8x32x32xf32>
    return %act0 : tensor<1x8x32x32xf32>
  }
}
