#!/usr/bin/env bash
# Self-play data on many cores for a fixed time: one single-thread `datagen` per slot,
# each playing files of GAMES games in turn until SECS seconds have passed. A file is
# kept only when complete (written as .tmp and renamed), so the deadline loses at most
# one file a slot. This is how the GPU machine's 16 cores made 1.2 million positions in
# 12 minutes (docs/network-log.md), the results returned as one tar.xz (the 72-byte records
# compress about twelvefold).
#
# Usage: train/datagen-slots.sh OUTDIR [SECS=470] [GAMES=80]
# Environment: FIVEFOLD_TOOLS = fivefold-tools (default target/release/fivefold-tools),
#              SLOTS = one word a slot, RULE-SIZE with RULE f (freestyle), r (renju) or
#                      e (exact5) and SIZE 15 or 20 (default: 12 x f15, 2 x f20, r15, e15),
#              SEED0 = first seed (default 5000; slot i's n-th file has seed
#                      SEED0 + 1000 i + n, so runs with SEED0 500 apart do not meet),
#              NODES = search nodes a move (default 10000), PARAMS = --params for
#                      datagen (default use_net=0, the classical search; use_net=1 for
#                      a network generation),
#              EXTRA = more datagen options, split at spaces, e.g. "--side-positions 100"
#                      (the off-path records the j-series networks learnt from); not one
#                      the script already passes (--stones 4 --random-plies 2 ...),
#              OPENINGS = an openings file (c-gomoku-cli pos lines, as `datagen
#                      --openings` reads them) that the slots share instead of random
#                      openings: slot i's n-th file plays GAMES games from the lines
#                      k*GAMES+1 to (k+1)*GAMES, k = n*SLOTS+i (SLOTS the number of
#                      slots), one game a line, so no opening is played twice; a slot
#                      stops when the file runs out.
# Writes OUTDIR/RULE-SIZE-sSEED.data and OUTDIR/slotI.log; packs nothing (train/archive.sh
# pack keeps the files in the repository).
set -euo pipefail
read -r -a extra <<< "${EXTRA:-}"
OUTD=${1:?"usage: train/datagen-slots.sh OUTDIR [SECS] [GAMES]"}
SECS=${2:-470}; GAMES=${3:-80}
B=${FIVEFOLD_TOOLS:-target/release/fivefold-tools}
[ -x "$B" ] || { echo "train/datagen-slots.sh: no fivefold-tools at $B (cargo build --release)" >&2; exit 2; }
read -r -a slots <<< "${SLOTS:-f15 f15 f15 f15 f15 f15 f15 f15 f15 f15 f15 f15 f20 f20 r15 e15}"
mkdir -p "$OUTD"
start=$(date +%s)
run_slot() {
  local i=$1 kind=$2 n=0 rule size seed f left
  case ${kind%%[0-9]*} in f) rule=freestyle;; r) rule=renju;; e) rule=exact5;;
    *) echo "train/datagen-slots.sh: bad slot '$kind'" >&2; return 2;; esac
  size=${kind#?}
  while true; do
    seed=$(( ${SEED0:-5000} + i * 1000 + n ))
    f=$OUTD/$rule-$size-s$seed.data
    left=$(( SECS - ($(date +%s) - start) ))
    [ "$left" -lt 5 ] && break
    local games=$GAMES ops=()
    if [ -n "${OPENINGS:-}" ]; then
      local first=$(( (n * ${#slots[@]} + i) * GAMES + 1 ))
      sed -n "${first},$((first + GAMES - 1))p" "$OPENINGS" > "$OUTD/slot$i.pos.txt"
      games=$(grep -c . "$OUTD/slot$i.pos.txt" || true)
      [ "$games" -eq 0 ] && break
      ops=(--openings "$OUTD/slot$i.pos.txt")
    fi
    if timeout "$left" "$B" datagen --out "$f.tmp" --games "$games" --nodes "${NODES:-10000}" \
        --rule "$rule" --size "$size" --stones 4 --random-plies 2 --threads 1 --seed "$seed" \
        --params "${PARAMS:-use_net=0}" ${ops[@]+"${ops[@]}"} ${extra[@]+"${extra[@]}"} \
        2>>"$OUTD/slot$i.log"; then
      mv "$f.tmp" "$f"
    fi
    rm -f "$f.tmp"; n=$((n + 1))
  done
}
for i in "${!slots[@]}"; do run_slot "$i" "${slots[$i]}" & done
wait
rm -f "$OUTD"/slot*.pos.txt
ls "$OUTD"/*.data 2>/dev/null | wc -l | xargs echo "files:"
