// cholesky: in-place factorisation A = L L^T (affine version of cholesky.c);
// `math.sqrt` is an op on data like any `arith` op. A[i][k] * A[i][k] reads
// twice in C, so it is loaded twice here.
#id = affine_map<(d0) -> (d0)>
func.func @cholesky(%N: index, %A: memref<?x?xf64>) {
  affine.for %i = 0 to %N {
    affine.for %j = 0 to #id(%i) {
      affine.for %k = 0 to #id(%j) {
        %aij = affine.load %A[%i, %j] : memref<?x?xf64>
        %aik = affine.load %A[%i, %k] : memref<?x?xf64>
        %ajk = affine.load %A[%j, %k] : memref<?x?xf64>
        %p = arith.mulf %aik, %ajk : f64
        %d = arith.subf %aij, %p : f64
        affine.store %d, %A[%i, %j] : memref<?x?xf64>
      }
      %aij2 = affine.load %A[%i, %j] : memref<?x?xf64>
      %ajj = affine.load %A[%j, %j] : memref<?x?xf64>
      %q = arith.divf %aij2, %ajj : f64
      affine.store %q, %A[%i, %j] : memref<?x?xf64>
    }
    affine.for %k2 = 0 to #id(%i) {
      %aii = affine.load %A[%i, %i] : memref<?x?xf64>
      %x0 = affine.load %A[%i, %k2] : memref<?x?xf64>
      %x1 = affine.load %A[%i, %k2] : memref<?x?xf64>
      %sq = arith.mulf %x0, %x1 : f64
      %r = arith.subf %aii, %sq : f64
      affine.store %r, %A[%i, %i] : memref<?x?xf64>
    }
    %aii2 = affine.load %A[%i, %i] : memref<?x?xf64>
    %root = math.sqrt %aii2 : f64
    affine.store %root, %A[%i, %i] : memref<?x?xf64>
  }
  return
}
