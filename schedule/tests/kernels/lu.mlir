// lu: in-place LU decomposition without pivoting (affine version of lu.c)
// (an iterator in a bound is a dimension of a map: #id(%i), not %i)
#id = affine_map<(d0) -> (d0)>
func.func @lu(%N: index, %A: memref<?x?xf64>) {
  affine.for %i = 0 to %N {
    affine.for %j = 0 to #id(%i) {
      affine.for %k = 0 to #id(%j) {
        %aij = affine.load %A[%i, %j] : memref<?x?xf64>
        %aik = affine.load %A[%i, %k] : memref<?x?xf64>
        %akj = affine.load %A[%k, %j] : memref<?x?xf64>
        %p = arith.mulf %aik, %akj : f64
        %d = arith.subf %aij, %p : f64
        affine.store %d, %A[%i, %j] : memref<?x?xf64>
      }
      %aij2 = affine.load %A[%i, %j] : memref<?x?xf64>
      %ajj = affine.load %A[%j, %j] : memref<?x?xf64>
      %q = arith.divf %aij2, %ajj : f64
      affine.store %q, %A[%i, %j] : memref<?x?xf64>
    }
    affine.for %j2 = #id(%i) to %N {
      affine.for %k2 = 0 to #id(%i) {
        %bij = affine.load %A[%i, %j2] : memref<?x?xf64>
        %bik = affine.load %A[%i, %k2] : memref<?x?xf64>
        %bkj = affine.load %A[%k2, %j2] : memref<?x?xf64>
        %p2 = arith.mulf %bik, %bkj : f64
        %d2 = arith.subf %bij, %p2 : f64
        affine.store %d2, %A[%i, %j2] : memref<?x?xf64>
      }
    }
  }
  return
}
