// MLIR's tiling of each convolution and generic op on its own (height and width
// by 32): `transform.structured.tile_using_for`. The padded tensors are still
// built whole; every tiled op reads a slice of its (whole) operands.
// Applied with:
//   mlir-opt-22 F --transform-preload-library=transform-library-paths=THIS \
//     --transform-interpreter --canonicalize
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ops = transform.structured.match ops{["linalg.conv_2d_nchw_fchw", "linalg.generic"]} in %root
      : (!transform.any_op) -> !transform.any_op
    transform.foreach %ops : !transform.any_op {
    ^bb0(%op: !transform.any_op):
      %tiled, %l0, %l1 = transform.structured.tile_using_for %op tile_sizes [0, 0, 32, 32]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    }
    transform.yield
  }
}
