// jacobi-1d in the scf + memref form: the loop bounds and indices are index
// arithmetic (arith.constant, arith.subi, arith.addi) on the arguments.
func.func @jacobi_1d(%T: index, %N: index, %A: memref<?xf64>, %B: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %third = arith.constant 0.33333 : f64
  %n1 = arith.subi %N, %c1 : index
  scf.for %t = %c0 to %T step %c1 {
    scf.for %i = %c1 to %n1 step %c1 {
      %im = arith.subi %i, %c1 : index
      %ip = arith.addi %i, %c1 : index
      %a0 = memref.load %A[%im] : memref<?xf64>
      %a1 = memref.load %A[%i] : memref<?xf64>
      %a2 = memref.load %A[%ip] : memref<?xf64>
      %s0 = arith.addf %a0, %a1 : f64
      %s1 = arith.addf %s0, %a2 : f64
      %v = arith.mulf %third, %s1 : f64
      memref.store %v, %B[%i] : memref<?xf64>
    }
    scf.for %i2 = %c1 to %n1 step %c1 {
      %jm = arith.subi %i2, %c1 : index
      %jp = arith.addi %i2, %c1 : index
      %b0 = memref.load %B[%jm] : memref<?xf64>
      %b1 = memref.load %B[%i2] : memref<?xf64>
      %b2 = memref.load %B[%jp] : memref<?xf64>
      %u0 = arith.addf %b0, %b1 : f64
      %u1 = arith.addf %u0, %b2 : f64
      %w = arith.mulf %third, %u1 : f64
      memref.store %w, %A[%i2] : memref<?xf64>
    }
  }
  return
}
