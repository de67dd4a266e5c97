// seidel-2d: a nine-point in-place stencil (affine version of seidel-2d.c);
// the subscripts are affine expressions of the iterators.
#inner = affine_map<()[s0] -> (s0 - 1)>
func.func @seidel_2d(%T: index, %N: index, %A: memref<?x?xf64>) {
  %nine = arith.constant 9.0 : f64
  affine.for %t = 0 to %T {
    affine.for %i = 1 to #inner()[%N] {
      affine.for %j = 1 to #inner()[%N] {
        %a0 = affine.load %A[%i - 1, %j - 1] : memref<?x?xf64>
        %a1 = affine.load %A[%i - 1, %j] : memref<?x?xf64>
        %a2 = affine.load %A[%i - 1, %j + 1] : memref<?x?xf64>
        %a3 = affine.load %A[%i, %j - 1] : memref<?x?xf64>
        %a4 = affine.load %A[%i, %j] : memref<?x?xf64>
        %a5 = affine.load %A[%i, %j + 1] : memref<?x?xf64>
        %a6 = affine.load %A[%i + 1, %j - 1] : memref<?x?xf64>
        %a7 = affine.load %A[%i + 1, %j] : memref<?x?xf64>
        %a8 = affine.load %A[%i + 1, %j + 1] : memref<?x?xf64>
        %s1 = arith.addf %a0, %a1 : f64
        %s2 = arith.addf %s1, %a2 : f64
        %s3 = arith.addf %s2, %a3 : f64
        %s4 = arith.addf %s3, %a4 : f64
        %s5 = arith.addf %s4, %a5 : f64
        %s6 = arith.addf %s5, %a6 : f64
        %s7 = arith.addf %s6, %a7 : f64
        %s8 = arith.addf %s7, %a8 : f64
        %v = arith.divf %s8, %nine : f64
        affine.store %v, %A[%i, %j] : memref<?x?xf64>
      }
    }
  }
  return
}
