#!/usr/bin/env bash
# Time to depth and nodes per second with 1, 2, ... threads on the bench positions.
#
# Usage: scripts/threads.sh [ENGINE]   (default: target/release/pbrain-fivefold)
# Environment:
#   DEPTH    depth every bench position is searched to (default 10)
#   THREADS  thread counts to compare (default "1 2")
#   RUNS     runs per thread count; the median is reported (default 3)
#
# Prints, per thread count, the median total time to depth, the median nodes per second,
# and the time-to-depth speed-up against the first thread count. With more than one
# thread the node counts differ from run to run (lazy SMP), so only times are compared.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
ENGINE=${1:-$here/target/release/pbrain-fivefold}
DEPTH=${DEPTH:-10}
THREADS=${THREADS:-"1 2"}
RUNS=${RUNS:-3}
[ -x "$ENGINE" ] || { echo "engine not found: $ENGINE (cargo build --release)" >&2; exit 2; }

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

echo "threads.sh: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), depth $DEPTH, $RUNS runs each"
printf '%8s %14s %12s %10s\n' threads "time_ms(med)" "nps(med)" speedup
base=""
for t in $THREADS; do
  times=(); rates=()
  for _ in $(seq "$RUNS"); do
    out=$("$ENGINE" bench --depth "$DEPTH" --threads "$t")
    # The sum of the per-position times ("... 123 ms") is the time to depth.
    times+=("$(echo "$out" | awk '/ ms$/ { s += $(NF-1) } END { print s }')")
    rates+=("$(echo "$out" | awk '/^Nodes\/s:/ { print $2 }')")
  done
  tm=$(printf '%s\n' "${times[@]}" | median)
  nps=$(printf '%s\n' "${rates[@]}" | median)
  [ -z "$base" ] && base=$tm
  printf '%8s %14s %12s %10s\n' "$t" "$tm" "$nps" "$(awk -v a="$base" -v b="$tm" 'BEGIN { printf "%.2f", a / b }')"
done
