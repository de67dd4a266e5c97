// gemm: C := alpha * A * B + beta * C (the affine version of gemm.c)
func.func @gemm(%NI: index, %NJ: index, %NK: index, %alpha: f64, %beta: f64,
                %A: memref<?x?xf64>, %B: memref<?x?xf64>, %C: memref<?x?xf64>) {
  affine.for %i = 0 to %NI {
    affine.for %j = 0 to %NJ {
      %c0 = affine.load %C[%i, %j] : memref<?x?xf64>
      %s0 = arith.mulf %c0, %beta : f64
      affine.store %s0, %C[%i, %j] : memref<?x?xf64>
    }
    affine.for %k = 0 to %NK {
      affine.for %j2 = 0 to %NJ {
        %c1 = affine.load %C[%i, %j2] : memref<?x?xf64>
        %a = affine.load %A[%i, %k] : memref<?x?xf64>
        %b = affine.load %B[%k, %j2] : memref<?x?xf64>
        %p0 = arith.mulf %alpha, %a : f64
        %p1 = arith.mulf %p0, %b : f64
        %s1 = arith.addf %c1, %p1 : f64
        affine.store %s1, %C[%i, %j2] : memref<?x?xf64>
      }
    }
  }
  return
}
