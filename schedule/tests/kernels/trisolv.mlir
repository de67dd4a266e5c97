// trisolv: forward substitution L x = b (the affine version of trisolv.c)
// (an iterator in a bound is a dimension of a map: #id(%i), not %i)
#id = affine_map<(d0) -> (d0)>
func.func @trisolv(%N: index, %L: memref<?x?xf64>, %x: memref<?xf64>, %b: memref<?xf64>) {
  affine.for %i = 0 to %N {
    %bi = affine.load %b[%i] : memref<?xf64>
    affine.store %bi, %x[%i] : memref<?xf64>
    affine.for %j = 0 to #id(%i) {
      %xi = affine.load %x[%i] : memref<?xf64>
      %l = affine.load %L[%i, %j] : memref<?x?xf64>
      %xj = affine.load %x[%j] : memref<?xf64>
      %p = arith.mulf %l, %xj : f64
      %d = arith.subf %xi, %p : f64
      affine.store %d, %x[%i] : memref<?xf64>
    }
    %xi2 = affine.load %x[%i] : memref<?xf64>
    %lii = affine.load %L[%i, %i] : memref<?x?xf64>
    %q = arith.divf %xi2, %lii : f64
    affine.store %q, %x[%i] : memref<?xf64>
  }
  return
}
