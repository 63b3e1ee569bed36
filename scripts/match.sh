#!/usr/bin/env bash
# Plays a match between two Gomocup engines with c-gomoku-cli and prints W-L-D and Elo.
#
# Usage: scripts/match.sh ENGINE_A ENGINE_B [GAMES=100] [TC=0/0.5] [RULE=0] [SIZE=15] [CONCURRENCY=1]
#   ENGINE_A/B  paths to pbrain-style executables (A's score is reported)
#   TC          c-gomoku-cli time control: MATCH/TURN seconds (0/0.5 = 0.5 s per move)
#   RULE        0 freestyle, 1 exact five, 4 renju
# Environment: CGOMOKU = path to c-gomoku-cli (default: c-gomoku-cli on PATH),
#              FIVEFOLD_TOOLS = the fivefold-tools binary that generates the openings
#                         (default: target/release/fivefold-tools of this checkout; the
#                         openings depend on its search, so pin one build here when
#                         runs of different builds are to be compared with pairs.sh),
#              OUT = directory for the logs (default: a new temporary directory),
#              THREADS = search threads per engine (default 1, sent as INFO thread_num),
#              THREADS_A / THREADS_B = the same for one engine only (default THREADS),
#              TC_A / TC_B = the time control of one engine only (default TC): time
#                         odds, e.g. TC_A=0/1.0 to measure what twice the time is worth,
#              SEED = seed of the openings (default 7; change it for a fresh set),
#              OPENINGS = a file of openings to play instead of generated ones, one per
#                         line, in c-gomoku-cli's `pos` (h8i9j7) or `offset` (0,0, 1,1)
#                         format, e.g. ../shared/openings/spread_freestyle_15x15.pos.txt;
#                         played in file order, each with both colours: GAMES = 2 x lines
#                         plays each once,
#              SHIFT = N: moves every `pos` opening N squares right and N up before it
#                         is played, e.g. SHIFT=2 SIZE=20 puts the 15x15 spread-out
#                         openings in the middle of a 20x20 board (an opening that
#                         would leave the board is refused),
#              SPRT = a sequential test, e.g. "elo0=0 elo1=10 alpha=0.05 beta=0.05"
#                         (A better by elo1, or not better than elo0): c-gomoku-cli's on
#                         the games, and the same test on the pairs of games (the two
#                         games of an opening as one observation, scripts/pairs.sh),
#                         read every SPRT_POLL seconds (default 60). The match stops when
#                         either decides (the one on the pairs mostly first, and it is
#                         the verdict) or after GAMES games; both are printed at the end,
#              SPRT_POOL = earlier runs of the same test (same engines, time control
#                         and SPRT), their OUT directories or `pairs.sh --points` files,
#                         pooled with this run's games in the test on the pairs: a test
#                         that spans sessions goes on where it stopped. The pool's test
#                         so far is printed first; a pool that has decided is not played
#                         on, and SPRT_POOL without SPRT is refused.
# Openings: without OPENINGS, GAMES/2 balanced 3-stone openings generated with
# `fivefold-tools openings` near the centre, each played with both colours (-repeat). Strength
# claims use spread-out openings (OPENINGS) as well, never generated ones alone.
# Nothing is downloaded or built here.
set -euo pipefail
# The body is one compound command, read whole before it runs: bash reads a script as it
# goes, so editing this file during a match would otherwise change what the running
# match does when its games end.
{
A=$(realpath "$1"); B=$(realpath "$2")
GAMES=${3:-100}; TC=${4:-0/0.5}; RULE=${5:-0}; SIZE=${6:-15}; CONC=${7:-1}
CLI=${CGOMOKU:-$(command -v c-gomoku-cli || true)}
[ -x "$CLI" ] || { echo "c-gomoku-cli not found: set CGOMOKU" >&2; exit 2; }
# c-gomoku-cli runs inside OUT: a relative path to it (or to OUT) would not hold there.
CLI=$(realpath "$CLI")
# -sprt takes its settings as separate words.
read -r -a SPRT_ARGS <<< "${SPRT:-}"
[ ${#SPRT_ARGS[@]} -gt 0 ] && SPRT_ARGS=(-sprt "${SPRT_ARGS[@]}")
HERE=$(dirname "$(realpath "$0")")
read -r -a POOL <<< "${SPRT_POOL:-}"
# scripts/pairs.sh's tests (SPRT) on the pooled runs and the RUNS given.
score_pool() { SPRT="$SPRT" "$HERE/pairs.sh" --score ${POOL[@]+"${POOL[@]}"} "$@"; }
# The pool is checked, and its test so far printed, by pairs.sh itself, before anything
# is written or generated; a test that has already decided is not played on.
if [ ${#POOL[@]} -gt 0 ]; then
  [ ${#SPRT_ARGS[@]} -gt 0 ] || { echo "match.sh: SPRT_POOL pools earlier runs into the SPRT: set SPRT too" >&2; exit 2; }
  BEFORE=$(score_pool 2>&1) || { echo "match.sh: SPRT_POOL: $BEFORE" >&2; exit 2; }
  echo "SPRT_POOL so far: $(echo "$BEFORE" | grep "^SPRT on the pairs" | sed 's/^SPRT on the pairs: //')"
  case "$BEFORE" in *"SPRT on the pairs"*accepted*)
    echo "match.sh: the pooled test on the pairs has decided already; nothing played" >&2; exit 0 ;; esac
fi
# The test on the pairs over the pooled runs and this one: its two SPRT lines.
pairs_test() { score_pool "$OUT" 2> /dev/null | grep "^SPRT" || true; }
GEN=${FIVEFOLD_TOOLS:-$(cd "$(dirname "$0")/.." && pwd)/target/release/fivefold-tools}
OUT=${OUT:-$(mktemp -d)}
mkdir -p "$OUT"
OUT=$(realpath "$OUT")
if [ -n "${OPENINGS:-}" ]; then
  [ -s "$OPENINGS" ] || { echo "match.sh: no openings in '$OPENINGS'" >&2; exit 2; }
  grep -v '^[[:space:]]*$' "$OPENINGS" > "$OUT/openings.txt"
  if head -n 1 "$OUT/openings.txt" | grep -qE '^[a-zA-Z][0-9]'; then TYPE=pos; else TYPE=offset; fi
else
  "$GEN" openings --count $(( (GAMES + 1) / 2 )) --size "$SIZE" --rule "$RULE" --seed "${SEED:-7}" --format offset > "$OUT/openings.txt"
  TYPE=offset
fi
if [ -n "${SHIFT:-}" ]; then
  [ "$TYPE" = pos ] && [[ "$SHIFT" =~ ^[0-9]+$ ]] || { echo "match.sh: SHIFT takes a number of squares and openings in pos format" >&2; exit 2; }
  awk -v s="$SHIFT" -v n="$SIZE" 'BEGIN { a = "abcdefghijklmnopqrstuvwxyz" }
    { out = ""; line = $0
      while (match(line, /[a-z][0-9]+/)) {
        c = index(a, substr(line, RSTART, 1)) + s; r = substr(line, RSTART + 1, RLENGTH - 1) + s
        if (c > n || r > n) { printf "match.sh: opening %d leaves the %dx%d board when moved by %d\n", NR, n, n, s > "/dev/stderr"; exit 1 }
        out = out substr(a, c, 1) r; line = substr(line, RSTART + RLENGTH) }
      print out }' "$OUT/openings.txt" > "$OUT/openings.moved" || exit 2
  mv "$OUT/openings.moved" "$OUT/openings.txt"
fi
NA=$(basename "$(dirname "$A")")-$(basename "$A"); NB=$(basename "$(dirname "$B")")-$(basename "$B")
[ "$NA" = "$NB" ] && NB="$NB-b"
TA=${THREADS_A:-${THREADS:-1}}; TB=${THREADS_B:-${THREADS:-1}}
TCA=${TC_A:-$TC}; TCB=${TC_B:-$TC}
rm -f "$OUT/stopped.txt"
(cd "$OUT" && exec "$CLI" -engine "name=$NA" "cmd=$A" "thread=$TA" "tc=$TCA" -engine "name=$NB" "cmd=$B" "thread=$TB" "tc=$TCB" \
  -rule "$RULE" -boardsize "$SIZE" -games "$GAMES" -repeat -concurrency "$CONC" -drawafter $((SIZE * SIZE)) \
  -openings "file=$OUT/openings.txt" "type=$TYPE" order=sequential ${SPRT_ARGS[@]+"${SPRT_ARGS[@]}"} \
  -sgf games.sgf -pgn games.pgn -msg messages.txt > match.out 2>&1) &
CLI_PID=$!
# With SPRT, a watcher reads the test on the pairs every SPRT_POLL seconds and stops the
# match once it decides (SIGTERM to c-gomoku-cli: the games finished are in games.sgf; a
# background job ignores SIGINT).
WATCH_PID=""
if [ ${#SPRT_ARGS[@]} -gt 0 ]; then
  (while sleep "${SPRT_POLL:-60}"; do
     kill -0 "$CLI_PID" 2> /dev/null || exit 0
     line=$(pairs_test | grep "^SPRT on the pairs" || true)
     case "$line" in *accepted*) echo "$line" > "$OUT/stopped.txt"; kill -TERM "$CLI_PID" 2> /dev/null; exit 0 ;; esac
   done) &
  WATCH_PID=$!
fi
wait "$CLI_PID" || true
if [ -n "$WATCH_PID" ]; then pkill -P "$WATCH_PID" 2> /dev/null || true; kill "$WATCH_PID" 2> /dev/null || true; fi
# Time forfeits are listed too. A game lost at START (a "time forfeit" with no move after the
# opening, e.g. Rapfi 0.43 answering "ERROR Unknown command: 15", printed here as an "output
# error") is not reliably scored: c-gomoku-cli picks the loser by the side to move rather than
# by the engine that failed, so in half the games it blames the wrong engine. Leave such games
# out (scripts/pairs.sh does) and find who failed from the "output error" lines.
grep -iE "timeout at|time ?out|forfeit|crash|illegal|forbid|output error" "$OUT/match.out" | grep -v "timeoutTurn\|timeoutMatch" | head -n 20 || true
LAST=$(grep "Score of" "$OUT/match.out" | tail -n 1)
echo "$LAST"
echo "$LAST" | awk '{ for (i = 1; i <= NF; i++) if ($i == "-") { w = $(i-1); l = $(i+1); d = $(i+3); break }
  n = w + l + d; if (n == 0) exit; s = (w + d / 2) / n;
  var = (w * (1 - s)^2 + d * (0.5 - s)^2 + l * s^2) / n / n; sd = sqrt(var);
  e = function_elo(s); }
  function function_elo(x) { if (x <= 0.001) x = 0.001; if (x >= 0.999) x = 0.999; return -400 * log(1 / x - 1) / log(10) }
  END { if (n) printf "games %d  score %.1f%%  Elo %+.0f +- %.0f\n", n, 100 * s, function_elo(s), (function_elo(s + 1.96 * sd) - function_elo(s - 1.96 * sd)) / 2 }'
# With SPRT, both tests on every game played (pooled with SPRT_POOL's runs): the one on the
# games as c-gomoku-cli computes it, and the one on the pairs, which decides.
if [ ${#SPRT_ARGS[@]} -gt 0 ] && [ -s "$OUT/games.sgf" ]; then
  [ -f "$OUT/stopped.txt" ] && echo "stopped by the test on the pairs (c-gomoku-cli's score line above may lag)"
  pairs_test
fi
echo "logs: $OUT"
exit
}
