#!/usr/bin/env bash
# One generation of the learned evaluation (issue 42): self-play data, then training.
#
# Usage: train/generation.sh RULE GEN [GAMES=2000] [NODES=10000]
#   RULE   freestyle, exact5 or renju (the network's rule)
#   GEN    0 for the first generation (the classical evaluation plays the games), then
#          1, 2, ...: the network of generation GEN-1 plays them (use_net=1)
#   GAMES  self-play games (a quarter of them on 20x20 for freestyle)
#   NODES  search nodes a move
# Environment: DATA = where data and networks go (default train/data, which git ignores),
#              FIVEFOLD_TOOLS = fivefold-tools (default target/release/fivefold-tools, built here),
#              THREADS = worker threads (default: every core),
#              WINDOW = how many generations of data train the network (default 3: this
#                       one and the two before),
#              EPOCHS = passes over the data (default 6), SEED (default GEN + 1).
# Writes $DATA/RULE-genGEN-*.data and $DATA/RULE-genGEN.fnet, the network trained on the
# window's data, started from the previous generation's network where there is one.
# Then test it against its parent before keeping it (scripts/match.sh with SPRT and the
# spread-out openings; the command is printed at the end), and to ship it copy it to
# src/nn/nets/RULE.fnet. docs/network.md describes the loop and the results so far.
set -euo pipefail
cd "$(dirname "$0")/.."
RULE=${1:?"usage: train/generation.sh RULE GEN [GAMES] [NODES]"}
GEN=${2:?"usage: train/generation.sh RULE GEN [GAMES] [NODES]"}
GAMES=${3:-2000}; NODES=${4:-10000}
case "$RULE" in freestyle|exact5|renju) ;; *) echo "train/generation.sh: RULE is freestyle, exact5 or renju" >&2; exit 2;; esac
[[ "$GEN" =~ ^[0-9]+$ ]] || { echo "train/generation.sh: GEN is a number" >&2; exit 2; }
DATA=${DATA:-train/data}; mkdir -p "$DATA"
if [ -z "${FIVEFOLD_TOOLS:-}" ]; then
  cargo build --release --quiet
  FIVEFOLD_TOOLS=target/release/fivefold-tools
fi
SEED=${SEED:-$((GEN + 1))}
THREAD_ARGS=(); [ -n "${THREADS:-}" ] && THREAD_ARGS=(--threads "$THREADS")
PREV="$DATA/$RULE-gen$((GEN - 1)).fnet"
NET_ENV=(); PARAMS="use_net=0"   # generation 0: the classical search everywhere
if [ "$GEN" -gt 0 ]; then
  [ -s "$PREV" ] || { echo "train/generation.sh: no $PREV (run generation $((GEN - 1)) first)" >&2; exit 2; }
  NET_ENV=(FIVEFOLD_NET="$PREV"); PARAMS="use_net=1"
fi
play() { # SIZE GAMES SEED
  local out="$DATA/$RULE-gen$GEN-$1x$1-s$3.data"
  [ -s "$out" ] && { echo "generation: $out is there already"; return; }
  env "${NET_ENV[@]}" "$FIVEFOLD_TOOLS" datagen --out "$out.part" --rule "$RULE" --size "$1" --games "$2" \
    --nodes "$NODES" --stones 4 --random-plies 2 --seed "$3" --params "$PARAMS" "${THREAD_ARGS[@]}"
  mv "$out.part" "$out"
}
if [ "$RULE" = freestyle ]; then
  play 15 $((GAMES - GAMES / 4)) "$((SEED * 1000))"
  play 20 $((GAMES / 4)) "$((SEED * 1000 + 1))"
else
  play 15 "$GAMES" "$((SEED * 1000))"
fi
FILES=()
for ((g = GEN - ${WINDOW:-3} + 1; g <= GEN; g++)); do
  for f in "$DATA/$RULE-gen$g-"*.data; do [ -e "$f" ] && FILES+=(--data "$f"); done
done
INIT=(); [ -s "$PREV" ] && INIT=(--init "$PREV")
"$FIVEFOLD_TOOLS" train "${FILES[@]}" "${INIT[@]}" --out "$DATA/$RULE-gen$GEN.fnet" \
  --epochs "${EPOCHS:-6}" --seed "$SEED" "${THREAD_ARGS[@]}"
echo "generation $GEN of $RULE: $DATA/$RULE-gen$GEN.fnet"
echo "test it: an engine script running 'FIVEFOLD_NET=$DATA/$RULE-gen$GEN.fnet $FIVEFOLD protocol --params use_net=1',"
echo "  against its parent (or the classical build), with"
echo "  OPENINGS=../shared/openings/spread_${RULE/exact5/standard}_15x15.pos.txt SPRT=\"elo0=0 elo1=10 alpha=0.05 beta=0.05\" scripts/match.sh NEW OLD 1000 0/0.5 RULE_NUMBER"
