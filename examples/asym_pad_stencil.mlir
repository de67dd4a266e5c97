// A pad whose low and high amounts differ (3 rows before, 1 after; 1 column
// before, 2 after), then a 5-point vertical stencil with weights from an
// argument: the top border needs more padding logic than the bottom one.
func.func @asym_stencil(%x: tensor<64x60xf32>, %k: tensor<5xf32>) -> tensor<64x63xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[3, 1] high[1, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<64x60xf32> to tensor<68x63xf32>
  %e = tensor.empty() : tensor<64x63xf32>
  %i0 = linalg.fill ins(%zero : f32) outs(%e : tensor<64x63xf32>) -> tensor<64x63xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(i, j, t) -> (i + t, j)>, affine_map<(i, j, t) -> (t)>,
                       affine_map<(i, j, t) -> (i, j)>],
      iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%p, %k : tensor<68x63xf32>, tensor<5xf32>) outs(%i0 : tensor<64x63xf32>) {
  ^bb0(%v: f32, %w: f32, %acc: f32):
    %m = arith.mulf %v, %w : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<64x63xf32>
  return %r : tensor<64x63xf32>
}
