#!/usr/bin/env bash
# Draws a fresh sample of openings from the referee pool for one decisive test, and
# records it in the pool's ledger so that no sample decides two things.
#
# Usage: scripts/draw-openings.sh POOL COUNT "WHAT IT DECIDES" > SAMPLE.pos.txt
#        scripts/draw-openings.sh --left POOL
#   POOL   a pool's name in train/referee/ (freestyle15, renju15, exact15): its file
#          POOL.pos.txt, Rapfi-balanced spread-out openings in the order they were
#          drawn (train/referee/README.md says how they were made)
#   COUNT  openings in the sample (each is played with both colours: 2 x COUNT games)
# The sample is the pool's first COUNT lines that no earlier sample took: the pool is in
# the order its generator drew the openings at random, so each block of it is a random
# sample, and one block is never drawn twice. The ledger (train/referee/ledger.tsv, one
# line a sample: pool, first line, count, date, commit, what it decides) is appended to
# before the sample is printed; commit it with the result. A sample drawn and not played
# to the end stays taken: a test begun on it may have shown something. --left prints how
# many openings of POOL are not taken yet.
set -euo pipefail
DIR=$(cd "$(dirname "$0")/../train/referee" && pwd)
LEDGER=$DIR/ledger.tsv
taken() { awk -F'\t' -v p="$1" '$1 == p { n += $3 } END { print n + 0 }' "$LEDGER"; }
if [ "${1:-}" = --left ]; then
  POOL=${2:?usage: scripts/draw-openings.sh --left POOL}
  FILE=$DIR/$POOL.pos.txt
  [ -s "$FILE" ] || { echo "draw-openings.sh: no pool $FILE" >&2; exit 2; }
  echo $(( $(grep -c . "$FILE") - $(taken "$POOL") ))
  exit 0
fi
[ $# -eq 3 ] || { sed -n '4,9p' "$0" >&2; exit 2; }
POOL=$1; COUNT=$2; WHAT=$3
FILE=$DIR/$POOL.pos.txt
[ -s "$FILE" ] || { echo "draw-openings.sh: no pool $FILE" >&2; exit 2; }
[[ "$COUNT" =~ ^[1-9][0-9]*$ ]] || { echo "draw-openings.sh: COUNT must be a positive number" >&2; exit 2; }
case "$WHAT" in *$'\t'*|*$'\n'*|"") echo "draw-openings.sh: say in one line, without tabs, what the sample decides" >&2; exit 2 ;; esac
TOTAL=$(grep -c . "$FILE")
FROM=$(( $(taken "$POOL") + 1 ))
if [ $(( FROM - 1 + COUNT )) -gt "$TOTAL" ]; then
  echo "draw-openings.sh: $POOL has $(( TOTAL - FROM + 1 )) openings left, not $COUNT: add to the pool (train/referee/README.md)" >&2
  exit 1
fi
COMMIT=$(git -C "$DIR" rev-parse --short HEAD 2> /dev/null || echo unknown)
printf '%s\t%d\t%d\t%s\t%s\t%s\n' "$POOL" "$FROM" "$COUNT" "$(date -u +%Y-%m-%dT%H:%MZ)" "$COMMIT" "$WHAT" >> "$LEDGER"
echo "draw-openings.sh: $POOL lines $FROM-$(( FROM + COUNT - 1 )) of $TOTAL, recorded in $LEDGER" >&2
grep . "$FILE" | sed -n "${FROM},$(( FROM + COUNT - 1 ))p"
