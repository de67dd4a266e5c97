#!/usr/bin/env bash
# Times tensor programs of examples/ four ways with mlir-runner-22 -O3 (not run
# by CI):
#   original        : the program as written
#   tile_using_for  : MLIR's transform.structured.tile_using_for on every conv
#                     and generic op (scripts/transform/tile_using_for.mlir)
#   fuse            : MLIR's transform.structured.fuse of the returned value's
#                     producer chain (scripts/transform/fuse.mlir)
#   ours (plain)    : poly volume --tile 2=T,3=T --emit --no-interchange
#                     (interior tile loops without padding, partitions around
#                     them; every op cloned with its loop order)
#   ours            : the same with the default per-tile interchange (the
#                     output's last loop innermost in ops with reductions; each
#                     element's summation order is unchanged)
# MLIR's variants are made with
#   mlir-opt-22 F --transform-preload-library=transform-library-paths=S \
#     --transform-interpreter --canonicalize
# All four are lowered with the pipeline of mlir-notes.md. A generated @main
# (poly volume --main) fills the inputs deterministically, calls the function
# REPS times, timing each call alone with rtclock, and prints a hash of the
# result's bits; the table gives the median time in ms and whether the hash
# equals the original's (= bit-identical, ~ different bits).
#
# usage: scripts/bench_volume.sh [PROGRAM...]   (default: the convolutions)
# env:   POLY (default: built with cargo into $CARGO_TARGET_DIR or target/),
#        REPS (default 11), TILE (default 32: ours tiles dimensions 2 and 3 by
#        TILE, as MLIR's scripts do), TILES_<program> (our --tile for one
#        program instead, e.g. TILES_conv_conv=2=32), KEEP=1 keeps the directory.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
REPS=${REPS:-11}
TILE=${TILE:-32}
if [ -z "${POLY:-}" ]; then
  (cd "$ROOT" && cargo build -q -p presburger-cli)
  POLY=${CARGO_TARGET_DIR:-$ROOT/target}/debug/poly
fi
command -v mlir-opt-22 >/dev/null && command -v mlir-runner-22 >/dev/null || {
  echo "mlir-opt-22 / mlir-runner-22 not found (apt-get install mlir-22-tools)" >&2
  exit 1
}
LIB=$(llvm-config-22 --libdir 2>/dev/null || echo /usr/lib/llvm-22/lib)
CLIB=$(ls "$LIB"/libmlir_c_runner_utils.so* | head -1)
RLIB=$(ls "$LIB"/libmlir_runner_utils.so* | head -1)
PROGRAMS=("$@")
[ ${#PROGRAMS[@]} -gt 0 ] || PROGRAMS=(conv_pad_relu conv_conv depthwise_conv max_pool)
DIR=$(mktemp -d)
[ -n "${KEEP:-}" ] && echo "keeping $DIR" >&2 || trap 'rm -rf "$DIR"' EXIT

lower_and_run() { # module-with-main -> runner output
  mlir-opt-22 "$1" \
    --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
    --buffer-deallocation-pipeline --convert-bufferization-to-memref \
    --convert-linalg-to-loops --expand-strided-metadata --lower-affine \
    --convert-scf-to-cf --convert-to-llvm --reconcile-unrealized-casts -o "$1.ll.mlir"
  mlir-runner-22 "$1.ll.mlir" -e main --entry-point-result=void -O3 \
    --shared-libs="$CLIB,$RLIB"
}

median_ms() { # runner output -> median of the time lines, in ms
  grep '^time' | awk '{print $2 * 1000}' | sort -g |
    awk '{a[NR] = $1} END {m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; printf "%.1f", m}'
}

printf '%-16s %10s %16s %10s %14s %10s   %s\n' program original tile_using_for fuse "ours (plain)" ours "ours: speedup over the best of the first three"
for prog in "${PROGRAMS[@]}"; do
  src="$ROOT/examples/$prog.mlir"
  cp "$src" "$DIR/$prog.original.mlir"
  for t in tile_using_for fuse; do
    mlir-opt-22 "$src" --transform-preload-library=transform-library-paths="$ROOT/scripts/transform/$t.mlir" \
      --transform-interpreter --canonicalize -o "$DIR/$prog.$t.mlir"
  done
  tiles_var="TILES_$prog"
  "$POLY" volume "$src" --tile "${!tiles_var:-2=$TILE,3=$TILE}" --emit "$DIR/$prog.ours.mlir" >/dev/null
  "$POLY" volume "$src" --tile "${!tiles_var:-2=$TILE,3=$TILE}" --emit "$DIR/$prog.plain.mlir" --no-interchange >/dev/null
  declare -A ms hash
  for v in original tile_using_for fuse plain ours; do
    "$POLY" volume "$src" --main "$DIR/$prog.$v.main.mlir" --main-module "$DIR/$prog.$v.mlir" --reps "$REPS" >/dev/null
    out=$(lower_and_run "$DIR/$prog.$v.main.mlir")
    ms[$v]=$(echo "$out" | median_ms)
    hash[$v]=$(echo "$out" | grep -E '^-?[0-9]+$' | tail -1) # the untimed call's result hash
  done
  mark() { [ "${hash[$1]}" = "${hash[original]}" ] && echo "=" || echo "~"; }
  best=$(printf '%s\n' "${ms[original]}" "${ms[tile_using_for]}" "${ms[fuse]}" | sort -g | head -1)
  printf '%-16s %10s %16s %10s %14s %10s   %sx\n' "$prog" "${ms[original]}" \
    "${ms[tile_using_for]} $(mark tile_using_for)" "${ms[fuse]} $(mark fuse)" \
    "${ms[plain]} $(mark plain)" "${ms[ours]} $(mark ours)" \
    "$(awk -v b="$best" -v o="${ms[ours]}" 'BEGIN {printf "%.2f", b / o}')"
done
