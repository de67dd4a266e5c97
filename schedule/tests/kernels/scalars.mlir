// scalars: C's local scalars `acc` and `v` are rank-0 memref.alloca's
// (affine version of scalars.c).
func.func @scalars(%N: index, %M: index, %A: memref<?x?xf64>, %w: memref<?xf64>,
                   %norm: memref<?xf64>) {
  %zero = arith.constant 0.0 : f64
  %acc = memref.alloca() : memref<f64>
  %v = memref.alloca() : memref<f64>
  affine.for %i = 0 to %N {
    affine.store %zero, %acc[] : memref<f64>
    affine.for %j = 0 to %M {
      %a = affine.load %A[%i, %j] : memref<?x?xf64>
      %wj = affine.load %w[%j] : memref<?xf64>
      %p = arith.mulf %a, %wj : f64
      affine.store %p, %v[] : memref<f64>
      %x = affine.load %acc[] : memref<f64>
      %y = affine.load %v[] : memref<f64>
      %sq = arith.mulf %y, %y : f64
      %s = arith.addf %x, %sq : f64
      affine.store %s, %acc[] : memref<f64>
    }
    %f = affine.load %acc[] : memref<f64>
    %r = math.sqrt %f : f64
    affine.store %r, %norm[%i] : memref<?xf64>
  }
  return
}
