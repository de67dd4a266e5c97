// A padded 1-D convolution followed by a ReLU (@orig), and the same tiled by
// hand as the emitted code will be (@tiled): an scf.for over output tiles of
// 4 with affine.min for the partial last tile, the input slice each tile
// reads (clamped to the input), a tensor.pad with dynamic low and high
// amounts for the border tiles (zero on interior ones), the cloned ops, and
// an insert_slice into the result.
#in = affine_map<(d0, d1) -> (d0 + d1)>
#w = affine_map<(d0, d1) -> (d1)>
#out = affine_map<(d0, d1) -> (d0)>
#id = affine_map<(d0) -> (d0)>

func.func @orig(%x: tensor<10xf32>, %w: tensor<3xf32>) -> tensor<10xf32> {
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %x low[1] high[1] {
  ^bb0(%i: index):
    tensor.yield %z : f32
  } : tensor<10xf32> to tensor<12xf32>
  %e = tensor.empty() : tensor<10xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<10xf32>) -> tensor<10xf32>
  %conv = linalg.generic {indexing_maps = [#in, #w, #out], iterator_types = ["parallel", "reduction"]}
      ins(%p, %w : tensor<12xf32>, tensor<3xf32>) outs(%c : tensor<10xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<10xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%conv : tensor<10xf32>) outs(%e : tensor<10xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %z : f32
    linalg.yield %m : f32
  } -> tensor<10xf32>
  return %r : tensor<10xf32>
}

func.func @tiled(%x: tensor<10xf32>, %w: tensor<3xf32>) -> tensor<10xf32> {
  %z = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : index
  %out0 = tensor.empty() : tensor<10xf32>
  %res = scf.for %i = %c0 to %c10 step %c4 iter_args(%out = %out0) -> (tensor<10xf32>) {
    %n = affine.min affine_map<(d0) -> (4, 10 - d0)>(%i)
    %lo = affine.max affine_map<(d0) -> (0, d0 - 1)>(%i)
    %hi = affine.min affine_map<(d0)[s0] -> (10, d0 + s0 + 1)>(%i)[%n]
    %len = arith.subi %hi, %lo : index
    %padlo = affine.max affine_map<(d0) -> (0, 1 - d0)>(%i)
    %padhi = affine.max affine_map<(d0)[s0] -> (0, d0 + s0 - 9)>(%i)[%n]
    %xs = tensor.extract_slice %x[%lo] [%len] [1] : tensor<10xf32> to tensor<?xf32>
    %p = tensor.pad %xs low[%padlo] high[%padhi] {
    ^bb0(%k: index):
      tensor.yield %z : f32
    } : tensor<?xf32> to tensor<?xf32>
    %e = tensor.empty(%n) : tensor<?xf32>
    %c = linalg.fill ins(%z : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
    %conv = linalg.generic {indexing_maps = [#in, #w, #out], iterator_types = ["parallel", "reduction"]}
        ins(%p, %w : tensor<?xf32>, tensor<3xf32>) outs(%c : tensor<?xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %m = arith.mulf %a, %b : f32
      %s = arith.addf %o, %m : f32
      linalg.yield %s : f32
    } -> tensor<?xf32>
    %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%conv : tensor<?xf32>) outs(%e : tensor<?xf32>) {
    ^bb0(%a: f32, %o: f32):
      %m = arith.maximumf %a, %z : f32
      linalg.yield %m : f32
    } -> tensor<?xf32>
    %ins = tensor.insert_slice %r into %out[%i] [%n] [1] : tensor<?xf32> into tensor<10xf32>
    scf.yield %ins : tensor<10xf32>
  }
  return %res : tensor<10xf32>
}
