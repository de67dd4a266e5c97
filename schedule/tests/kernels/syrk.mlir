// syrk: C := alpha * A * A^T + beta * C on the lower triangle (affine
// version of syrk.c); `j <= i` is the upper bound map d0 + 1.
#upto = affine_map<(d0) -> (d0 + 1)>
module {
  func.func @syrk(%N: index, %M: index, %alpha: f64, %beta: f64,
                  %A: memref<?x?xf64>, %C: memref<?x?xf64>) {
    affine.for %i = 0 to %N {
      affine.for %j = 0 to #upto(%i) {
        %c0 = affine.load %C[%i, %j] : memref<?x?xf64>
        %s0 = arith.mulf %c0, %beta : f64
        affine.store %s0, %C[%i, %j] : memref<?x?xf64>
      }
      affine.for %k = 0 to %M {
        affine.for %j2 = 0 to #upto(%i) {
          %c1 = affine.load %C[%i, %j2] : memref<?x?xf64>
          %a0 = affine.load %A[%i, %k] : memref<?x?xf64>
          %a1 = affine.load %A[%j2, %k] : memref<?x?xf64>
          %p0 = arith.mulf %alpha, %a0 : f64
          %p1 = arith.mulf %p0, %a1 : f64
          %s1 = arith.addf %c1, %p1 : f64
          affine.store %s1, %C[%i, %j2] : memref<?x?xf64>
        }
      }
    }
    return
  }
}
