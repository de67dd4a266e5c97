// conds: affine.if with equalities, inequalities, else branches and a
// modulo (affine version of conds.c). The C condition
// `!(i % 3 == 0) || i >= N - 2` is the else branch of its negation.
#diag = affine_set<(d0, d1) : (d0 - d1 == 0)>
#upper = affine_set<(d0, d1) : (d1 - d0 - 1 >= 0)>
#third = affine_set<(d0)[s0] : (d0 mod 3 == 0, s0 - d0 - 3 >= 0)>
func.func @conds(%N: index, %A: memref<?x?xf64>, %B: memref<?x?xf64>, %x: memref<?xf64>) {
  %one = arith.constant 1.0 : f64
  %two = arith.constant 2.0 : f64
  affine.for %i = 0 to %N {
    affine.for %j = 0 to %N {
      affine.if #diag(%i, %j) {
        affine.store %one, %A[%i, %j] : memref<?x?xf64>
      } else {
        affine.if #upper(%i, %j) {
          %b = affine.load %B[%i, %j] : memref<?x?xf64>
          %v = arith.mulf %b, %two : f64
          affine.store %v, %A[%i, %j] : memref<?x?xf64>
        } else {
          %b2 = affine.load %B[%j, %i] : memref<?x?xf64>
          %n = arith.negf %b2 : f64
          affine.store %n, %A[%i, %j] : memref<?x?xf64>
        }
      }
    }
  }
  affine.for %i2 = 0 to %N {
    affine.if #third(%i2)[%N] {
    } else {
      %a = affine.load %A[%i2, %i2] : memref<?x?xf64>
      %s = arith.addf %a, %one : f64
      affine.store %s, %x[%i2] : memref<?xf64>
    }
  }
  return
}
