// banddp: a banded edit-distance recurrence (affine version of banddp.c);
// the bounds are a `max` of two pieces below and a `min` of two above, the
// C ternaries on data are arith.minimumf.
#lo = affine_map<(d0)[s0] -> (1, d0 - s0)>
#hi = affine_map<(d0)[s0, s1] -> (s0, d0 + s1 + 1)>
func.func @banddp(%N: index, %W: index, %D: memref<?x?xf64>, %cost: memref<?x?xf64>) {
  %one = arith.constant 1.0 : f64
  affine.for %i = 1 to %N {
    affine.for %j = max #lo(%i)[%W] to min #hi(%i)[%N, %W] {
      %up = affine.load %D[%i - 1, %j] : memref<?x?xf64>
      %left = affine.load %D[%i, %j - 1] : memref<?x?xf64>
      %diag = affine.load %D[%i - 1, %j - 1] : memref<?x?xf64>
      %c = affine.load %cost[%i, %j] : memref<?x?xf64>
      %a = arith.addf %up, %one : f64
      %b = arith.addf %left, %one : f64
      %d = arith.addf %diag, %c : f64
      %m0 = arith.minimumf %a, %b : f64
      %m = arith.minimumf %m0, %d : f64
      affine.store %m, %D[%i, %j] : memref<?x?xf64>
    }
  }
  return
}
