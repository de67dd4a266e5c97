// 2mm: D := alpha * A * B * C + beta * D (affine version of 2mm.c)
func.func @two_mm(%NI: index, %NJ: index, %NK: index, %NL: index, %alpha: f64,
                  %beta: f64, %tmp: memref<?x?xf64>, %A: memref<?x?xf64>,
                  %B: memref<?x?xf64>, %C: memref<?x?xf64>, %D: memref<?x?xf64>) {
  %zero = arith.constant 0.0 : f64
  affine.for %i = 0 to %NI {
    affine.for %j = 0 to %NJ {
      affine.store %zero, %tmp[%i, %j] : memref<?x?xf64>
      affine.for %k = 0 to %NK {
        %t = affine.load %tmp[%i, %j] : memref<?x?xf64>
        %a = affine.load %A[%i, %k] : memref<?x?xf64>
        %b = affine.load %B[%k, %j] : memref<?x?xf64>
        %p0 = arith.mulf %alpha, %a : f64
        %p1 = arith.mulf %p0, %b : f64
        %s = arith.addf %t, %p1 : f64
        affine.store %s, %tmp[%i, %j] : memref<?x?xf64>
      }
    }
  }
  affine.for %i2 = 0 to %NI {
    affine.for %j2 = 0 to %NL {
      %d = affine.load %D[%i2, %j2] : memref<?x?xf64>
      %db = arith.mulf %d, %beta : f64
      affine.store %db, %D[%i2, %j2] : memref<?x?xf64>
      affine.for %k2 = 0 to %NJ {
        %d2 = affine.load %D[%i2, %j2] : memref<?x?xf64>
        %t2 = affine.load %tmp[%i2, %k2] : memref<?x?xf64>
        %c = affine.load %C[%k2, %j2] : memref<?x?xf64>
        %q = arith.mulf %t2, %c : f64
        %u = arith.addf %d2, %q : f64
        affine.store %u, %D[%i2, %j2] : memref<?x?xf64>
      }
    }
  }
  return
}
