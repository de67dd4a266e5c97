#!/usr/bin/env bash
# Times the kernels of schedule/tests/kernels three ways (not run by CI):
#   orig  : the original program,   gcc -O3 -march=native
#   ours  : poly opt --tile 32 --parallel, then gcc -O3 -march=native -fopenmp,
#           OMP_NUM_THREADS=2
#   polly : the original program,   clang-22 -O3 -march=native -fopenmp
#           -mllvm -polly -mllvm -polly-parallel, OMP_NUM_THREADS=2
#           (skipped, saying so, when clang-22 is not installed:
#            apt-get install -y clang-22 libpolly-22-dev libomp-22-dev)
# The kernels' sizes (N = 20..50, unguarded #defines) are too small to time:
# each kernel is copied to a temporary directory with its #define lines
# rewritten by sed to the sizes of the table below. Each binary runs REPS
# times (default 3); the best wall time of the whole program (initialisation
# and checksum included) is reported, with the speedups over orig and their
# geometric means. The checksum column compares ours and Polly's output with
# the original's (gcc's default -ffp-contract=fast may change the last
# digits: '~' is a relative difference below 1e-6, '≠' above).
#
# usage: scripts/bench_opt.sh [KERNEL...]
# env:   POLY (default target/release/poly, built when missing), REPS,
#        THREADS (default 2), POLY_ARGS (default "--tile 32 --parallel"),
#        KEEP=1 keeps the temporary directory.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
KDIR="$ROOT/schedule/tests/kernels"
POLY=${POLY:-$ROOT/target/release/poly}
REPS=${REPS:-3}
THREADS=${THREADS:-2}
POLY_ARGS=${POLY_ARGS:---tile 32 --parallel}

declare -A SIZES=(
  [2mm]="NI=800 NJ=800 NK=800 NL=800"
  [atax]="M=4000 N=4000"
  [backsub]="N=4000"
  [banddp]="N=4000 W=1000"
  [bicg]="M=4000 N=4000"
  [cholesky]="N=1500"
  [conds]="N=4000"
  [covariance]="M=1000 N=1000"
  [doitgen]="NR=128 NQ=128 NP=128"
  [fdtd-2d]="T=200 NX=1000 NY=1000"
  [floyd-warshall]="N=1000"
  [gemm]="NI=1000 NJ=1000 NK=1000"
  [gesummv]="N=4000"
  [heat-3d]="T=50 N=120"
  [interval]="N=800"
  [jacobi-1d]="T=1000 N=100000"
  [jacobi-2d]="T=200 N=1000"
  [lu]="N=1500"
  [mvt]="N=4000"
  [scalars]="N=4000 M=4000"
  [seidel-2d]="T=40 N=1000"
  [syrk]="N=1000 M=1000"
  [tiled]="N=10000000"
  [trisolv]="N=4000"
)

if [ ! -x "$POLY" ]; then
  (cd "$ROOT" && cargo build --release -p presburger-cli >&2)
fi
HAVE_POLLY=1
if ! command -v clang-22 >/dev/null 2>&1; then
  HAVE_POLLY=0
  echo "clang-22 not found: Polly skipped (apt-get install -y clang-22 libpolly-22-dev libomp-22-dev)" >&2
fi

WORK=$(mktemp -d /tmp/bench_opt.XXXXXX)
if [ "${KEEP:-0}" != 1 ]; then
  trap 'rm -rf "$WORK"' EXIT
else
  echo "files in $WORK" >&2
fi

if [ $# -gt 0 ]; then
  KERNELS=("$@")
else
  KERNELS=()
  for f in "$KDIR"/*.c; do KERNELS+=("$(basename "$f" .c)"); done
fi

# best wall time in seconds of REPS runs of "$@"; the output of the last run
# in $WORK/out
best_time() {
  local best="" t0 t1 t
  for _ in $(seq "$REPS"); do
    t0=$(date +%s%N)
    if ! "$@" > "$WORK/out" 2>/dev/null; then
      echo "fail"
      return
    fi
    t1=$(date +%s%N)
    t=$(( t1 - t0 ))
    if [ -z "$best" ] || [ "$t" -lt "$best" ]; then best=$t; fi
  done
  awk -v t="$best" 'BEGIN { printf "%.3f", t / 1e9 }'
}

# '=' when the two outputs are equal, '~' when their numbers differ by less
# than 1e-6 relatively, '≠' otherwise
compare() {
  if [ "$1" = "$2" ]; then echo "="; return; fi
  awk -v a="$1" -v b="$2" 'BEGIN {
    d = a - b; if (d < 0) d = -d; m = a; if (m < 0) m = -m; if (m < 1) m = 1;
    if (d / m < 1e-6) print "~"; else print "≠" }'
}

printf "%-15s %9s %9s %9s %8s %8s  %s\n" kernel "orig(s)" "ours(s)" "polly(s)" "ours×" "polly×" "checksum ours/polly"
SUMMARY="$WORK/summary"
: > "$SUMMARY"
for k in "${KERNELS[@]}"; do
  src="$KDIR/$k.c"
  [ -f "$src" ] || { echo "no kernel $k" >&2; continue; }
  big="$WORK/$k.c"
  cp "$src" "$big"
  for kv in ${SIZES[$k]:-}; do
    name=${kv%%=*}; val=${kv#*=}
    sed -i -E "s/^#define $name [0-9]+\$/#define $name $val/" "$big"
    grep -qE "^#define $name $val\$" "$big" || { echo "$k: cannot set $name" >&2; }
  done
  gcc -O3 -march=native "$big" -o "$WORK/$k.orig" -lm
  t_orig=$(best_time "$WORK/$k.orig"); out_orig=$(cat "$WORK/out")
  # shellcheck disable=SC2086
  if "$POLY" opt "$big" $POLY_ARGS -o "$WORK/$k.ours.c" 2> "$WORK/$k.poly.err" \
     && gcc -O3 -march=native -fopenmp "$WORK/$k.ours.c" -o "$WORK/$k.ours" -lm; then
    t_ours=$(OMP_NUM_THREADS=$THREADS best_time "$WORK/$k.ours"); out_ours=$(cat "$WORK/out")
    c_ours=$(compare "$out_orig" "$out_ours")
  else
    t_ours=fail; c_ours="poly: $(head -c 120 "$WORK/$k.poly.err")"
  fi
  if [ "$HAVE_POLLY" = 1 ]; then
    if clang-22 -O3 -march=native -fopenmp -mllvm -polly -mllvm -polly-parallel \
         "$big" -o "$WORK/$k.polly" -lm 2> "$WORK/$k.clang.err"; then
      t_polly=$(OMP_NUM_THREADS=$THREADS best_time "$WORK/$k.polly"); out_polly=$(cat "$WORK/out")
      c_polly=$(compare "$out_orig" "$out_polly")
    else
      t_polly=fail; c_polly=fail
    fi
  else
    t_polly=-; c_polly=-
  fi
  sp() { awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 > 0 && a + 0 > 0) printf "%.2f", a / b; else print "-" }'; }
  s_ours=$(sp "$t_orig" "$t_ours"); s_polly=$(sp "$t_orig" "$t_polly")
  printf "%-15s %9s %9s %9s %8s %8s  %s/%s\n" "$k" "$t_orig" "$t_ours" "$t_polly" "$s_ours" "$s_polly" "$c_ours" "$c_polly"
  echo "$t_orig $t_ours $t_polly" >> "$SUMMARY"
done
awk '
  function ok(x) { return x ~ /^[0-9.]+$/ && x > 0 }
  { n++; if (ok($1)) { so += log($1); no++ }
    if (ok($1) && ok($2)) { su += log($2); nu++; ru += log($1 / $2) }
    if (ok($1) && ok($3)) { sp += log($3); np++; rp += log($1 / $3) } }
  END {
    printf "%-15s %9s %9s %9s %8s %8s\n", "geomean",
      no ? sprintf("%.3f", exp(so / no)) : "-",
      nu ? sprintf("%.3f", exp(su / nu)) : "-",
      np ? sprintf("%.3f", exp(sp / np)) : "-",
      nu ? sprintf("%.2f", exp(ru / nu)) : "-",
      np ? sprintf("%.2f", exp(rp / np)) : "-"
  }' "$SUMMARY"
echo "(times: best of $REPS runs, whole program; ours and polly with OMP_NUM_THREADS=$THREADS; geomean of speedups over the kernels each ran)"
