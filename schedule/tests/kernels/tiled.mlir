// tiled: floordiv, ceildiv, a `min` upper bound, a step and affine.apply
// (the affine version of tiled.c)
#tiles = affine_map<()[s0] -> ((s0 - 1) floordiv 8 + 1)>
#lo = affine_map<(d0) -> (d0 * 8)>
#hi = affine_map<(d0)[s0] -> (s0, d0 * 8 + 8)>
#half = affine_map<()[s0] -> (s0 ceildiv 2)>
func.func @tiled(%N: index, %x: memref<?xf64>, %y: memref<?xf64>,
                 %z: memref<?xf64>, %u: memref<?xf64>) {
  %one = arith.constant 1.0 : f64
  %two = arith.constant 2.0 : f64
  affine.for %it = 0 to #tiles()[%N] {
    affine.for %i = #lo(%it) to min #hi(%it)[%N] {
      %a = affine.load %x[%i] : memref<?xf64>
      %b = arith.mulf %two, %a : f64
      %c = arith.addf %b, %one : f64
      affine.store %c, %y[%i] : memref<?xf64>
    }
  }
  affine.for %i2 = 0 to %N step 4 {
    %v = affine.load %y[%i2] : memref<?xf64>
    affine.store %v, %z[%i2 floordiv 4] : memref<?xf64>
  }
  affine.for %j = #half()[%N] to %N {
    %h = affine.apply #half()[%N]
    %w = affine.load %y[%j - %h] : memref<?xf64>
    affine.store %w, %u[%j] : memref<?xf64>
  }
  return
}
