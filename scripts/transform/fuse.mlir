// MLIR's tile-and-fuse: the op that produces the returned value is tiled (height
// and width by 32) and its producers, pads included, are fused into the tile
// loops greedily: `transform.structured.fuse`. Each tile then builds its own
// `tensor.pad`, interior or not.
// Applied with:
//   mlir-opt-22 F --transform-preload-library=transform-library-paths=THIS \
//     --transform-interpreter --canonicalize
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ret = transform.structured.match ops{["func.return"]} in %root
      : (!transform.any_op) -> !transform.any_op
    %last = transform.get_producer_of_operand %ret[0]
      : (!transform.any_op) -> !transform.any_op
    %fused, %l0, %l1 = transform.structured.fuse %last tile_sizes [0, 0, 32, 32]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
