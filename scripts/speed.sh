#!/usr/bin/env bash
# Speed of two builds on the bench positions, runs interleaved so both see the same load.
#
# Usage: scripts/speed.sh OLD NEW   (two pbrain-fivefold executables)
# Environment:
#   DEPTH     depth every position is searched to (default 13 for the bench, about 2 s a
#             run; 10 for openings)
#   RUNS      runs of each build; medians are reported (default 7)
#   OPENINGS  a file of openings (c-gomoku-cli `pos` lines, such as ../shared/openings/)
#             to time instead of the bench: each is analysed to DEPTH
#             (`analyse --depth DEPTH --nbest 1 --hash 16`), the evaluation each build
#             uses there by default; then
#   COUNT     how many of its first lines (default 12),
#   SIZE      the board size (default 15) and RULE the rule (default freestyle).
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
OPENINGS=${OPENINGS:-}
if [ -n "$OPENINGS" ]; then
  [ -r "$OPENINGS" ] || { echo "cannot read OPENINGS: $OPENINGS" >&2; exit 2; }
  DEPTH=${DEPTH:-10}
else
  DEPTH=${DEPTH:-13}
fi
RUNS=${RUNS:-7}
COUNT=${COUNT:-12}
SIZE=${SIZE:-15}
RULE=${RULE:-freestyle}

# One run of executable $1 in the bench's output format: a line per position ending in
# its time (" N ms"), then "Nodes/s:" and the tree ("Nodes:", and "Signature:" for the
# bench; for openings, each position's node count).
one_run() {
  if [ -z "$OPENINGS" ]; then
    "$1" bench --depth "$DEPTH"
    return
  fi
  local line moves json nodes ms all="" total=0 time=0
  while read -r line; do
    [ -n "$line" ] || continue
    moves=$(echo "$line" | sed -E 's/([a-zA-Z])([0-9]+)/\1\2 /g')
    # shellcheck disable=SC2086 # the moves are separate arguments
    json=$("$1" analyse --size "$SIZE" --rule "$RULE" --depth "$DEPTH" --nbest 1 --hash 16 \
      --quiet --no-board --json $moves)
    nodes=$(echo "$json" | grep -oE '"nodes":[0-9]+,"time_ms":' | grep -oE '[0-9]+' | head -1 || true)
    ms=$(echo "$json" | grep -oE '"time_ms":[0-9.]+' | head -1 | cut -d: -f2 || true)
    [ -n "$nodes" ] && [ -n "$ms" ] || { echo "no nodes or time from analyse: $line" >&2; exit 1; }
    echo "$line  $nodes nodes  $ms ms"
    all+="$nodes,"
    total=$((total + nodes))
    time=$(awk -v t="$time" -v m="$ms" 'BEGIN { print t + m }')
  done < <(head -n "$COUNT" "$OPENINGS")
  awk -v n="$total" -v t="$time" 'BEGIN { printf "Nodes/s: %d\n", (t > 0) ? n * 1000 / t : 0 }'
  echo "Nodes: $total"
  echo "Signature: $all"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

what="bench"
[ -n "$OPENINGS" ] && what="$COUNT openings of $OPENINGS, $RULE ${SIZE}x$SIZE"
echo "speed.sh: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $what, depth $DEPTH, $RUNS runs each"
declare -A times rates tree
for _ in $(seq "$RUNS"); do
  for side in old new; do
    exe=$1
    [ "$side" = new ] && exe=$2
    out=$(one_run "$exe")
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
