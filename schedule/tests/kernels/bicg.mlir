// bicg in the scf + memref form: the sizes are memref.dim results of %A
// (named like the C parameters), the loops scf.for with constant steps.
func.func @bicg(%A: memref<?x?xf64>, %s: memref<?xf64>, %q: memref<?xf64>,
                %p: memref<?xf64>, %r: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %M = memref.dim %A, %c1 : memref<?x?xf64>
  %N = memref.dim %A, %c0 : memref<?x?xf64>
  scf.for %i = %c0 to %M step %c1 {
    memref.store %zero, %s[%i] : memref<?xf64>
  }
  scf.for %i2 = %c0 to %N step %c1 {
    memref.store %zero, %q[%i2] : memref<?xf64>
    scf.for %j = %c0 to %M step %c1 {
      %sj = memref.load %s[%j] : memref<?xf64>
      %ri = memref.load %r[%i2] : memref<?xf64>
      %aij = memref.load %A[%i2, %j] : memref<?x?xf64>
      %m0 = arith.mulf %ri, %aij : f64
      %u0 = arith.addf %sj, %m0 : f64
      memref.store %u0, %s[%j] : memref<?xf64>
      %qi = memref.load %q[%i2] : memref<?xf64>
      %aij2 = memref.load %A[%i2, %j] : memref<?x?xf64>
      %pj = memref.load %p[%j] : memref<?xf64>
      %m1 = arith.mulf %aij2, %pj : f64
      %u1 = arith.addf %qi, %m1 : f64
      memref.store %u1, %q[%i2] : memref<?xf64>
    }
  }
  return
}
