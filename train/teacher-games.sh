#!/usr/bin/env bash
# Games of a teacher engine against itself, or against Fivefold (STUDENT), for
# `fivefold-tools import` (docs/network-log.md, "A teacher's games" and "e7 built in; games
# against Rapfi as data"): one c-gomoku-cli per rule and board size, CONC games at a time,
# each move at a fixed node count, the games written as SGF and the engines' thinking
# lines as c-gomoku-cli's messages, until the openings run out or SECS seconds pass
# (c-gomoku-cli is stopped with SIGINT, which makes it write out the games it finished).
# Then each rule's games are imported with the teacher's reported score of each
# position (`import --sgf --messages --teacher`).
#
# With STUDENT set (a Fivefold command, e.g. 'pbrain-fivefold protocol --params
# use_net=1'), the student plays the teacher instead, each opening with both colours
# (-repeat), at STUDENT_NODES a move; the teacher's moves go to NAME.data as above (the
# positions the student's moves led to, judged by the teacher) and the student's moves,
# with its own scores, to NAME.student.data. Self-play shows a network none of its own
# misjudgements (both sides share them); a stronger or different opponent punishes them,
# and the results say so.
#
# The teacher is not part of this repository: build it beside the project (Rapfi:
# github.com/dhbloo/rapfi, c-gomoku-cli: github.com/dhbloo/c-gomoku-cli). A deterministic
# teacher (one thread, a node limit) plays the same game twice from the same opening, so
# each opening is played once, and the openings should be many and varied: make them with
#   fivefold-tools openings --count 500 --rule freestyle --stones 5 --radius 6 \
#       --max-eval 80 --seed 31005 --format pos
# (stones 3 to 7, a seed each; never the test openings of ../shared/openings/).
#
# Usage: train/teacher-games.sh OUTDIR SECS KIND... with KIND = NAME:RULE:SIZE:CONC:OPENINGS
#   e.g. train/teacher-games.sh out 500 fs15:0:15:8:fs15.txt rj15:4:15:3:rj15.txt
#   (RULE as the protocol's INFO rule: 0 freestyle, 1 exact five, 4 renju)
# Environment: TEACHER = the teacher's command (required), CGOMOKU = c-gomoku-cli
#              (default: on PATH), FIVEFOLD_TOOLS = fivefold-tools (default
#              target/release/fivefold-tools), NODES = teacher nodes a move (default 50000),
#              SCALE = the teacher's score units per logit (default 225, Rapfi 0.43's
#              classical evaluation; see `import --help`), STUDENT = the student's
#              command (see above; default: none, the teacher plays itself),
#              STUDENT_NODES = student nodes a move (default 10000), HELD_OUT =
#              FROM-TO, game numbers held out for validation (see below).
# Writes OUTDIR/NAME.sgf, NAME.messages.txt, NAME.out (c-gomoku-cli's report) and
# NAME.data (imported), and with STUDENT also NAME.student.data. With HELD_OUT, each
# kind's games numbered FROM to TO (c-gomoku-cli's GN; with STUDENT an opening's two
# games are 2k-1 and 2k, so take FROM odd and TO even) go to NAME.val.data (and
# NAME.student.val.data) instead, whole games apart from the training positions
# (`import --games`, `--except-games`).
set -euo pipefail
OUTD=${1:?"usage: train/teacher-games.sh OUTDIR SECS NAME:RULE:SIZE:CONC:OPENINGS..."}
SECS=${2:?"usage: train/teacher-games.sh OUTDIR SECS NAME:RULE:SIZE:CONC:OPENINGS..."}
shift 2
T=${TEACHER:?"set TEACHER to the teacher engine's command"}
CLI=${CGOMOKU:-$(command -v c-gomoku-cli || true)}
[ -x "$CLI" ] || { echo "train/teacher-games.sh: c-gomoku-cli not found: set CGOMOKU" >&2; exit 2; }
B=${FIVEFOLD_TOOLS:-target/release/fivefold-tools}
[ -x "$B" ] || { echo "train/teacher-games.sh: no fivefold-tools at $B (cargo build --release)" >&2; exit 2; }
# Every kind is checked before any game starts: a mistake in the last one should not
# cost the first one's SECS.
rules=()
for kind in "$@"; do
  IFS=: read -r name rule size conc openings <<< "$kind"
  [ -f "$openings" ] || { echo "train/teacher-games.sh: no openings file '$openings'" >&2; exit 2; }
  # c-gomoku-cli appends to its SGF and messages files: a second run would double them.
  [ ! -e "$OUTD/$name.sgf" ] && [ ! -e "$OUTD/$name.messages.txt" ] ||
    { echo "train/teacher-games.sh: $OUTD/$name.sgf or .messages.txt exists: use another OUTDIR" >&2; exit 2; }
  case $rule in 0) rules+=(freestyle);; 1) rules+=(exact5);; 4) rules+=(renju);;
    *) echo "train/teacher-games.sh: rule $rule in '$kind' has no network (0, 1 or 4)" >&2; exit 2;; esac
done
[ -z "${HELD_OUT:-}" ] || [[ $HELD_OUT =~ ^[1-9][0-9]*(-[1-9][0-9]*)?$ ]] ||
  { echo "train/teacher-games.sh: HELD_OUT='$HELD_OUT' is not FROM-TO (game numbers from 1)" >&2; exit 2; }
mkdir -p "$OUTD"
OUTD=$(cd "$OUTD" && pwd)
# The second engine: the teacher again, or the student with both colours per opening.
if [ -n "${STUDENT:-}" ]; then
  SECOND=(-engine name=student "cmd=$STUDENT" "nodes=${STUDENT_NODES:-10000}")
  REPEAT=(-repeat); PER_LINE=2
else
  SECOND=(-engine name=teacher-b "cmd=$T" "nodes=${NODES:-50000}")
  REPEAT=(); PER_LINE=1
fi
pids=()
for kind in "$@"; do
  IFS=: read -r name rule size conc openings <<< "$kind"
  openings=$(cd "$(dirname "$openings")" && pwd)/$(basename "$openings")
  games=$(( $(grep -c . "$openings") * PER_LINE ))
  mkdir -p "$OUTD/$name.work"
  (cd "$OUTD/$name.work" && timeout -s INT "$SECS" "$CLI" \
      -engine name=teacher-a "cmd=$T" "nodes=${NODES:-50000}" "${SECOND[@]}" \
      -each tc=0/20 thread=1 -rule "$rule" -boardsize "$size" \
      -openings "file=$openings" type=pos order=sequential ${REPEAT[@]+"${REPEAT[@]}"} -games "$games" \
      -concurrency "$conc" -sgf "$OUTD/$name.sgf" -msg "$OUTD/$name.messages.txt" \
      > "$OUTD/$name.out" 2>&1 || true) &
  pids+=($!)
done
wait "${pids[@]}"
# import_as WHO SCALE NAME RULE SIZE OUT: WHO's moves of NAME's games, to OUT.data, and with
# HELD_OUT the games numbered so to OUT.val.data instead.
import_as() {
  local args=(--sgf "$OUTD/$3.sgf" --messages "$OUTD/$3.messages.txt" --teacher "$1"
    --teacher-scale "$2" --rule "$4" --size "$5")
  if [ -n "${HELD_OUT:-}" ]; then
    "$B" import "${args[@]}" --except-games "$HELD_OUT" --out "$OUTD/$6.data"
    # A kind stopped by SECS before its held-out games keeps its training file.
    "$B" import "${args[@]}" --games "$HELD_OUT" --out "$OUTD/$6.val.data" ||
      echo "train/teacher-games.sh: $3: no held-out file" >&2
  else
    "$B" import "${args[@]}" --out "$OUTD/$6.data"
  fi
}
k=0
for kind in "$@"; do
  IFS=: read -r name rule size conc openings <<< "$kind"
  rmdir "$OUTD/$name.work" 2>/dev/null || true
  import_as teacher "${SCALE:-225}" "$name" "${rules[k]}" "$size" "$name"
  if [ -n "${STUDENT:-}" ]; then
    # Fivefold's 'ev' is in its own units: 200 a logit (nn::eval::SCORE_PER_LOGIT).
    import_as student 200 "$name" "${rules[k]}" "$size" "$name.student"
  fi
  k=$((k + 1))
done
