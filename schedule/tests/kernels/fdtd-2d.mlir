// fdtd-2d: a 2-D finite-difference time-domain step (affine version of
// fdtd-2d.c); constant subscripts (ey[0][j]) and bounds N - 1 by maps.
#minus1 = affine_map<()[s0] -> (s0 - 1)>
func.func @fdtd_2d(%T: index, %NY: index, %NX: index, %ex: memref<?x?xf64>,
                   %ey: memref<?x?xf64>, %hz: memref<?x?xf64>, %fict: memref<?xf64>) {
  %half = arith.constant 0.5 : f64
  %c07 = arith.constant 0.7 : f64
  affine.for %t = 0 to %T {
    affine.for %j = 0 to %NY {
      %f = affine.load %fict[%t] : memref<?xf64>
      affine.store %f, %ey[0, %j] : memref<?x?xf64>
    }
    affine.for %i = 1 to %NX {
      affine.for %j1 = 0 to %NY {
        %e = affine.load %ey[%i, %j1] : memref<?x?xf64>
        %h0 = affine.load %hz[%i, %j1] : memref<?x?xf64>
        %h1 = affine.load %hz[%i - 1, %j1] : memref<?x?xf64>
        %dh = arith.subf %h0, %h1 : f64
        %m = arith.mulf %half, %dh : f64
        %v = arith.subf %e, %m : f64
        affine.store %v, %ey[%i, %j1] : memref<?x?xf64>
      }
    }
    affine.for %i2 = 0 to %NX {
      affine.for %j2 = 1 to %NY {
        %x = affine.load %ex[%i2, %j2] : memref<?x?xf64>
        %g0 = affine.load %hz[%i2, %j2] : memref<?x?xf64>
        %g1 = affine.load %hz[%i2, %j2 - 1] : memref<?x?xf64>
        %dg = arith.subf %g0, %g1 : f64
        %n = arith.mulf %half, %dg : f64
        %w = arith.subf %x, %n : f64
        affine.store %w, %ex[%i2, %j2] : memref<?x?xf64>
      }
    }
    affine.for %i3 = 0 to #minus1()[%NX] {
      affine.for %j3 = 0 to #minus1()[%NY] {
        %z = affine.load %hz[%i3, %j3] : memref<?x?xf64>
        %x1 = affine.load %ex[%i3, %j3 + 1] : memref<?x?xf64>
        %x0 = affine.load %ex[%i3, %j3] : memref<?x?xf64>
        %y1 = affine.load %ey[%i3 + 1, %j3] : memref<?x?xf64>
        %y0 = affine.load %ey[%i3, %j3] : memref<?x?xf64>
        %a = arith.subf %x1, %x0 : f64
        %b = arith.addf %a, %y1 : f64
        %c = arith.subf %b, %y0 : f64
        %d = arith.mulf %c07, %c : f64
        %u = arith.subf %z, %d : f64
        affine.store %u, %hz[%i3, %j3] : memref<?x?xf64>
      }
    }
  }
  return
}
