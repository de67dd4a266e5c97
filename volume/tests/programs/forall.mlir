// A matmul with a bias, tiled with scf.forall and
// tensor.parallel_insert_slice as MLIR's tile_using_forall writes it (@forall),
// against the original (@orig).
func.func @orig(%a: tensor<6x4xf32>, %b: tensor<4x10xf32>) -> tensor<6x10xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6x10xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<6x10xf32>) -> tensor<6x10xf32>
  %r = linalg.matmul ins(%a, %b : tensor<6x4xf32>, tensor<4x10xf32>) outs(%c : tensor<6x10xf32>) -> tensor<6x10xf32>
  return %r : tensor<6x10xf32>
}

func.func @forall(%a: tensor<6x4xf32>, %b: tensor<4x10xf32>) -> tensor<6x10xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6x10xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<6x10xf32>) -> tensor<6x10xf32>
  %r = scf.forall (%i, %j) = (0, 0) to (6, 10) step (3, 4) shared_outs(%o = %c) -> (tensor<6x10xf32>) {
    %n = affine.min affine_map<(d0) -> (4, 10 - d0)>(%j)
    %as = tensor.extract_slice %a[%i, 0] [3, 4] [1, 1] : tensor<6x4xf32> to tensor<3x4xf32>
    %bs = tensor.extract_slice %b[0, %j] [4, %n] [1, 1] : tensor<4x10xf32> to tensor<4x?xf32>
    %os = tensor.extract_slice %o[%i, %j] [3, %n] [1, 1] : tensor<6x10xf32> to tensor<3x?xf32>
    %t = linalg.matmul ins(%as, %bs : tensor<3x4xf32>, tensor<4x?xf32>) outs(%os : tensor<3x?xf32>) -> tensor<3x?xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %t into %o[%i, %j] [3, %n] [1, 1] : tensor<3x?xf32> into tensor<6x10xf32>
    }
  }
  return %r : tensor<6x10xf32>
}
