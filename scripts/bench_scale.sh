#!/usr/bin/env bash
# Time and peak memory of `poly deps`, `schedule`, `opt` and `codegen`
# against the number of statements n (not run by CI; docs/benchmarks.md,
# "Scaling in the number of statements").
#
# The generated inputs, for n statements (k = 0 .. n-1):
#   one   : one loop `for (i = 1; i < N; i++)` whose body is n statements
#           `Ak[i] = A(k-1)[i] + Ak[i - 1] + A(k+1)[i];` (without the
#           neighbours that do not exist): each statement writes its own
#           array and reads its own element of the previous iteration and
#           both neighbours' of the same one (flow from the left, anti to
#           the right).
#   sep   : the same n statements, each in a loop of its own.
#   shift : codegen input `[N] -> { Sk[i] -> [i + k] : 0 <= i < N; ... }`,
#           n statements shifted against each other, all overlapping.
#   deep  : one statement `s = s + A[i1]...[iD];` in a D-deep loop nest
#           (D = n), for `deps` only: every instance depends on the one
#           before it in a D-dimensional lexicographic order.
# Each (command, input, n) runs once under `/usr/bin/time -v` and a timeout
# (TIMEOUT seconds, default 60); a size that times out or fails is reported
# so and ends that row. The exponent column is the local growth exponent
# log(t_n / t_prev) / log(n / n_prev) against the previous size; the last
# line of each table is the least-squares slope of log t against log n over
# the sizes from 100 on (from 20 on for deep) that took at least 0.05 s.
#
# usage: scripts/bench_scale.sh [TABLE...]   TABLE: deps-one deps-sep
#        schedule-one schedule-sep opt-one opt-sep codegen-shift deps-deep
#        (default: all but deps-deep)
# env:   POLY (default target/release/poly, built when missing), TIMEOUT,
#        SIZES (default "10 20 50 100 200 500 1000 2000"),
#        DEEP_SIZES (default "5 10 20 30 40 50"), KEEP=1 keeps the inputs.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
POLY=${POLY:-$ROOT/target/release/poly}
TIMEOUT=${TIMEOUT:-60}
SIZES=${SIZES:-10 20 50 100 200 500 1000 2000}
DEEP_SIZES=${DEEP_SIZES:-5 10 20 30 40 50}
if [ ! -x "$POLY" ]; then
  (cd "$ROOT" && cargo build --release -p presburger-cli --bin poly >&2)
fi
WORK=$(mktemp -d)
if [ "${KEEP:-0}" = 1 ]; then echo "inputs in $WORK" >&2; else trap 'rm -rf "$WORK"' EXIT; fi

# statement k of n, preceded by PREFIX (an indent, or a loop header)
stmt() {
  local n=$1 k=$2 prefix=$3 rhs="A$2[i - 1]"
  ((k > 0)) && rhs="A$((k - 1))[i] + $rhs"
  ((k < n - 1)) && rhs="$rhs + A$((k + 1))[i]"
  echo "${prefix}A$k[i] = $rhs;"
}

gen_one() { # n statements in one loop
  local n=$1 k
  echo "#pragma scop"
  echo "for (i = 1; i < N; i++) {"
  for ((k = 0; k < n; k++)); do stmt "$n" "$k" "  "; done
  echo "}"
  echo "#pragma endscop"
}

gen_sep() { # n statements, each in its own loop
  local n=$1 k
  echo "#pragma scop"
  for ((k = 0; k < n; k++)); do stmt "$n" "$k" "for (i = 1; i < N; i++) "; done
  echo "#pragma endscop"
}

gen_shift() { # codegen input: n shifted statements
  local n=$1 k sep=""
  printf '[N] -> { '
  for ((k = 0; k < n; k++)); do
    printf '%sS%d[i] -> [i + %d] : 0 <= i < N' "$sep" "$k" "$k"
    sep="; "
  done
  printf ' }\n'
}

gen_deep() { # one statement in a d-deep nest: a sum over all its instances
  local d=$1 k subs=""
  echo "#pragma scop"
  for ((k = 1; k <= d; k++)); do
    echo "for (i$k = 0; i$k < N; i$k++)"
    subs="$subs[i$k]"
  done
  echo "  s = s + A$subs;"
  echo "#pragma endscop"
}

# run CMD... : prints "SECONDS KB STATUS"
measure() {
  local log=$WORK/time.log status=ok
  if ! /usr/bin/time -v -o "$log" timeout "$TIMEOUT" "$@" > "$WORK/out" 2> "$WORK/err"; then
    status=fail
    grep -q "Command exited with non-zero status 124" "$log" && status=timeout
  fi
  local wall kb
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$log" |
    awk -F: '{ if (NF == 3) print $1 * 3600 + $2 * 60 + $3; else print $1 * 60 + $2 }')
  kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$log")
  echo "$wall $kb $status"
}

table() {
  local name=$1 cmd=${1%%-*} kind=${1#*-} sizes=$SIZES
  [ "$kind" = deep ] && sizes=$DEEP_SIZES
  echo "## poly $cmd, input '$kind'"
  printf '%6s %10s %10s %9s  %s\n' n seconds "peak MB" exponent status
  local prev_n="" prev_t="" fit="" fit_from=100
  [ "$kind" = deep ] && fit_from=20
  for n in $sizes; do
    local f=$WORK/$kind-$n
    case $kind in
      one) gen_one "$n" > "$f.c" ;;
      sep) gen_sep "$n" > "$f.c" ;;
      deep) gen_deep "$n" > "$f.c" ;;
      shift) gen_shift "$n" > "$f.isl" ;;
    esac
    local input=$f.c
    [ "$kind" = shift ] && input=$f.isl
    read -r t kb status < <(measure "$POLY" "$cmd" "$input")
    local e="-"
    if [ -n "$prev_n" ]; then
      e=$(awk -v a="$prev_t" -v b="$t" -v m="$prev_n" -v n="$n" \
        'BEGIN { if (a > 0.005 && b > 0.005) printf "%.2f", log(b / a) / log(n / m); else print "-" }')
    fi
    printf '%6s %10.2f %10.1f %9s  %s\n' "$n" "$t" "$(awk -v k="$kb" 'BEGIN { print k / 1024 }')" "$e" "$status"
    if [ "$status" != ok ]; then
      [ "$status" = fail ] && head -c 300 "$WORK/err" | sed 's/^/        /'
      break
    fi
    if ((n >= fit_from)) && awk -v t="$t" 'BEGIN { exit !(t >= 0.05) }'; then fit="$fit $n $t"; fi
    prev_n=$n prev_t=$t
  done
  echo "$fit" | awk -v from="$fit_from" '{ k = 0; for (i = 1; i < NF; i += 2) { x = log($i); y = log($(i + 1)); sx += x; sy += y; sxx += x * x; sxy += x * y; k++ }
    if (k >= 2) printf "growth exponent (least squares, n >= %d): %.2f\n", from, (k * sxy - sx * sy) / (k * sxx - sx * sx);
    else print "growth exponent: too few sizes above 0.05 s" }'
  echo
}

TABLES=("$@")
[ ${#TABLES[@]} -eq 0 ] && TABLES=(deps-one deps-sep schedule-one schedule-sep opt-one opt-sep codegen-shift)
for t in "${TABLES[@]}"; do table "$t"; done
