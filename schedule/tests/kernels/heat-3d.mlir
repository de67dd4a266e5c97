// heat-3d: a 3-D seven-point stencil, two sweeps per step (affine version of
// heat-3d.c); `t <= T` is the upper bound T + 1.
#upto = affine_map<()[s0] -> (s0 + 1)>
#inner = affine_map<()[s0] -> (s0 - 1)>
func.func @heat_3d(%T: index, %N: index, %A: memref<?x?x?xf64>, %B: memref<?x?x?xf64>) {
  %eighth = arith.constant 0.125 : f64
  %two = arith.constant 2.0 : f64
  affine.for %t = 1 to #upto()[%T] {
    affine.for %i = 1 to #inner()[%N] {
      affine.for %j = 1 to #inner()[%N] {
        affine.for %k = 1 to #inner()[%N] {
          %c = affine.load %A[%i, %j, %k] : memref<?x?x?xf64>
          %x0 = affine.load %A[%i + 1, %j, %k] : memref<?x?x?xf64>
          %x1 = affine.load %A[%i - 1, %j, %k] : memref<?x?x?xf64>
          %y0 = affine.load %A[%i, %j + 1, %k] : memref<?x?x?xf64>
          %y1 = affine.load %A[%i, %j - 1, %k] : memref<?x?x?xf64>
          %z0 = affine.load %A[%i, %j, %k + 1] : memref<?x?x?xf64>
          %z1 = affine.load %A[%i, %j, %k - 1] : memref<?x?x?xf64>
          %c2 = arith.mulf %two, %c : f64
          %sx = arith.addf %x0, %x1 : f64
          %sy = arith.addf %y0, %y1 : f64
          %sz = arith.addf %z0, %z1 : f64
          %s0 = arith.addf %sx, %sy : f64
          %s1 = arith.addf %s0, %sz : f64
          %c6 = arith.mulf %c2, %two : f64
          %lap = arith.subf %s1, %c6 : f64
          %l8 = arith.mulf %eighth, %lap : f64
          %v = arith.addf %c, %l8 : f64
          affine.store %v, %B[%i, %j, %k] : memref<?x?x?xf64>
        }
      }
    }
    affine.for %i2 = 1 to #inner()[%N] {
      affine.for %j2 = 1 to #inner()[%N] {
        affine.for %k2 = 1 to #inner()[%N] {
          %d = affine.load %B[%i2, %j2, %k2] : memref<?x?x?xf64>
          %u0 = affine.load %B[%i2 + 1, %j2, %k2] : memref<?x?x?xf64>
          %u1 = affine.load %B[%i2 - 1, %j2, %k2] : memref<?x?x?xf64>
          %v0 = affine.load %B[%i2, %j2 + 1, %k2] : memref<?x?x?xf64>
          %v1 = affine.load %B[%i2, %j2 - 1, %k2] : memref<?x?x?xf64>
          %w0 = affine.load %B[%i2, %j2, %k2 + 1] : memref<?x?x?xf64>
          %w1 = affine.load %B[%i2, %j2, %k2 - 1] : memref<?x?x?xf64>
          %d2 = arith.mulf %two, %d : f64
          %tu = arith.addf %u0, %u1 : f64
          %tv = arith.addf %v0, %v1 : f64
          %tw = arith.addf %w0, %w1 : f64
          %q0 = arith.addf %tu, %tv : f64
          %q1 = arith.addf %q0, %tw : f64
          %d6 = arith.mulf %d2, %two : f64
          %lp = arith.subf %q1, %d6 : f64
          %lq = arith.mulf %eighth, %lp : f64
          %r = arith.addf %d, %lq : f64
          affine.store %r, %A[%i2, %j2, %k2] : memref<?x?x?xf64>
        }
      }
    }
  }
  return
}
