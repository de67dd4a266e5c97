// conv_pad_relu_small.mlir as MLIR 22 tiles it: `mlir-opt-22
// conv_pad_relu_small.mlir --transform-preload-library=... --transform-interpreter
// --canonicalize` with `transform.structured.tile_using_forall` of the
// convolution (tile sizes [0, 0, 16, 16]) and
// `transform.structured.fuse_into_containing_op` of the pad: each tile builds
// its padded input under an scf.if (the output of mlir-opt, unedited).
#map = affine_map<(d0) -> (d0 * 16)>
#map1 = affine_map<(d0) -> (d0 * -32 + 1, 0)>
#map2 = affine_map<(d0) -> (0, d0 * 32 - 1)>
#map3 = affine_map<(d0) -> (64, d0)>
#map4 = affine_map<(d0, d1) -> (-d0 + 64, -d1 + 35)>
#map5 = affine_map<(d0) -> (0, d0)>
#map6 = affine_map<(d0, d1) -> (-d0 - d1 + 35)>
#map7 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
module {
  func.func @krnl0(%arg0: tensor<1x3x64x64xf32>) -> tensor<1x8x32x32xf32> {
    %cst = arith.constant dense<1.000000e-01> : tensor<8x3x5x5xf32>
    %c0 = arith.constant 0 : index
    %cst_0 = arith.constant 0.000000e+00 : f32
    %cst_1 = arith.constant 0.00999999977 : f32
    %0 = tensor.empty() : tensor<1x8x32x32xf32>
    %1 = linalg.fill ins(%cst_0 : f32) outs(%0 : tensor<1x8x32x32xf32>) -> tensor<1x8x32x32xf32>
    %2 = scf.forall (%arg1, %arg2) in (2, 2) shared_outs(%arg3 = %1) -> (tensor<1x8x32x32xf32>) {
      %5 = affine.apply #map(%arg1)
      %6 = affine.apply #map(%arg2)
      %7 = affine.max #map1(%arg1)
      %8 = affine.max #map2(%arg1)
      %9 = affine.min #map3(%8)
      %10 = affine.min #map4(%9, %7)
      %11 = affine.max #map5(%10)
      %12 = arith.cmpi eq, %11, %c0 : index
      %13 = affine.apply #map6(%7, %11)
      %14 = affine.max #map1(%arg2)
      %15 = affine.max #map2(%arg2)
      %16 = affine.min #map3(%15)
      %17 = affine.min #map4(%16, %14)
      %18 = affine.max #map5(%17)
      %19 = arith.cmpi eq, %18, %c0 : index
      %20 = arith.ori %19, %12 : i1
      %21 = affine.apply #map6(%14, %18)
      %22 = scf.if %20 -> (tensor<1x3x35x35xf32>) {
        %generated = tensor.generate  {
        ^bb0(%arg4: index, %arg5: index, %arg6: index, %arg7: index):
          tensor.yield %cst_0 : f32
        } : tensor<1x3x35x35xf32>
        scf.yield %generated : tensor<1x3x35x35xf32>
      } else {
        %extracted_slice_2 = tensor.extract_slice %arg0[0, 0, %9, %16] [1, 3, %11, %18] [1, 1, 1, 1] : tensor<1x3x64x64xf32> to tensor<1x3x?x?xf32>
        %padded = tensor.pad %extracted_slice_2 low[0, 0, %7, %14] high[0, 0, %13, %21] {
        ^bb0(%arg4: index, %arg5: index, %arg6: index, %arg7: index):
          tensor.yield %cst_0 : f32
        } : tensor<1x3x?x?xf32> to tensor<1x3x35x35xf32>
        scf.yield %padded : tensor<1x3x35x35xf32>
      }
      %extracted_slice = tensor.extract_slice %arg3[0, 0, %5, %6] [1, 8, 16, 16] [1, 1, 1, 1] : tensor<1x8x32x32xf32> to tensor<1x8x16x16xf32>
      %23 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%22, %cst : tensor<1x3x35x35xf32>, tensor<8x3x5x5xf32>) outs(%extracted_slice : tensor<1x8x16x16xf32>) -> tensor<1x8x16x16xf32>
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %23 into %arg3[0, 0, %5, %6] [1, 8, 16, 16] [1, 1, 1, 1] : tensor<1x8x16x16xf32> into tensor<1x8x32x32xf32>
      }
    }
    %3 = tensor.empty() : tensor<1x8x32x32xf32>
    %4 = linalg.generic {indexing_maps = [#map7, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%2 : tensor<1x8x32x32xf32>) outs(%3 : tensor<1x8x32x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %5 = arith.maximumf %in, %cst_0 : f32
      %6 = arith.mulf %5, %cst_1 : f32
      %7 = arith.addf %in, %6 : f32
      linalg.yield %7 : f32
    } -> tensor<1x8x32x32xf32>
    return %4 : tensor<1x8x32x32xf32>
  }
}

