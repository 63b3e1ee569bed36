#!/usr/bin/env bash
# Speed of two builds on the bench positions, runs interleaved so both see the same load.
#
# Usage: scripts/speed.sh OLD NEW   (two pbrain-fivefold executables)
# Environment:
#   DEPTH  depth every bench position is searched to (default 13: about 2 s a run)
#   RUNS   runs of each build; medians are reported (default 7)
#
# Prints each build's median time to depth (the sum of the per-position times) and
# median nodes per second, and NEW's speed-up (OLD's median time / NEW's). Exits 1 if
# the two builds search different trees (their node counts or signatures differ): then
# the times measure different work and the ratio says nothing about speed.
set -euo pipefail

[ $# -eq 2 ] || { echo "usage: scripts/speed.sh OLD NEW" >&2; exit 2; }
for e in "$1" "$2"; do
  [ -x "$e" ] || { echo "not an executable: $e" >&2; exit 2; }
done
DEPTH=${DEPTH:-13}
RUNS=${RUNS:-7}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

echo "speed.sh: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), depth $DEPTH, $RUNS runs each"
declare -A times rates tree
for _ in $(seq "$RUNS"); do
  for side in old new; do
    exe=$1
    [ "$side" = new ] && exe=$2
    out=$("$exe" bench --depth "$DEPTH")
    times[$side]+="$(echo "$out" | awk '/ ms$/ { s += $(NF-1) } END { print s }') "
    rates[$side]+="$(echo "$out" | awk '/^Nodes\/s:/ { print $2 }') "
    tree[$side]=$(echo "$out" | awk '/^(Nodes|Signature):/ { printf "%s %s ", $1, $2 }')
  done
done
printf '%6s %14s %12s  %s\n' build "time_ms(med)" "nps(med)" tree
for side in old new; do
  t=$(printf '%s\n' ${times[$side]} | median)
  r=$(printf '%s\n' ${rates[$side]} | median)
  printf '%6s %14s %12s  %s\n' "$side" "$t" "$r" "${tree[$side]}"
  eval "med_$side=$t"
done
if [ "${tree[old]}" != "${tree[new]}" ]; then
  echo "different trees: the builds do not search the same positions the same way" >&2
  exit 1
fi
awk -v a="$med_old" -v b="$med_new" 'BEGIN { printf "speed-up %.3f (old time / new time)\n", a / b }'
