#!/usr/bin/env bash
# Stress test through the real match runner: many fast games with c-gomoku-cli across every
# rule it supports and several board sizes, moves sent with TURN and with BOARD, and a count
# of everything that went wrong.
#
# Usage: scripts/stress.sh [ENGINE_A] [ENGINE_B]
#   ENGINE_A  the engine under test (default: target/release/pbrain-fivefold)
#   ENGINE_B  its opponent (default: ENGINE_A, i.e. self-play in two processes)
# Environment:
#   CGOMOKU      path to c-gomoku-cli (default: c-gomoku-cli on PATH); never built or downloaded here
#   GAMES        games per rule, size and mode (default 20, rounded up to an even number)
#   TC           c-gomoku-cli time control, MATCH/TURN seconds (default 0/0.05: 50 ms per move)
#   RULES        c-gomoku-cli rules (default "0 1 4": freestyle, exact five, renju)
#   SIZES        board sizes, 5 to 22 (default "15 20 10")
#   MODES        "turn" (TURN x,y) and/or "board" (-sendbyboard: BOARD every move) (default both)
#   CONCURRENCY  games at once (default 1)
#   OUT          directory for openings, logs, SGF and PGN files (default: a new temporary one)
#   FIVEFOLD_TOOLS  the fivefold-tools binary that writes the openings (default:
#                target/release/fivefold-tools of this checkout)
#
# Failures counted (from c-gomoku-cli's game results, its output and its logs): time
# forfeits, crashes, illegal moves, renju forbidden moves, unterminated games, games that
# never finished, ERROR or UNKNOWN lines from an engine, and a failing c-gomoku-cli. Moves
# slower than the per-move limit (c-gomoku-cli measures each one and writes it in the SGF)
# are reported too; c-gomoku-cli tolerates them up to its move overhead (1 s by default).
# Exit status: 0 when there was no failure, 1 otherwise, 2 for a usage error.
set -uo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
A=$(realpath "${1:-$here/target/release/pbrain-fivefold}")
B=$(realpath "${2:-$A}")
CLI=${CGOMOKU:-$(command -v c-gomoku-cli || true)}
[ -n "$CLI" ] && [ -x "$CLI" ] || { echo "c-gomoku-cli not found: set CGOMOKU or put it on PATH" >&2; exit 2; }
[ -x "$A" ] || { echo "engine not found: $A (cargo build --release)" >&2; exit 2; }
[ -x "$B" ] || { echo "engine not found: $B" >&2; exit 2; }
GAMES=${GAMES:-20}; GAMES=$(( (GAMES + 1) / 2 * 2 ))
TC=${TC:-0/0.05}
RULES=${RULES:-"0 1 4"}
SIZES=${SIZES:-"15 20 10"}
MODES=${MODES:-"turn board"}
CONC=${CONCURRENCY:-1}
GEN=${FIVEFOLD_TOOLS:-$(cd "$(dirname "$0")/.." && pwd)/target/release/fivefold-tools}
OUT=${OUT:-$(mktemp -d)}
mkdir -p "$OUT"
OUT=$(realpath "$OUT")
# The per-move limit in milliseconds: the part after '/', or the whole if there is none.
TURN_MS=$(awk -v tc="${TC%%+*}" 'BEGIN { n = split(tc, p, "/"); printf "%d", p[n] * 1000 }')

echo "stress: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ //')"
echo "engines: $A vs $B; c-gomoku-cli: $CLI"
echo "games: $GAMES per rule, size and mode; tc=$TC (${TURN_MS} ms per move); rules: $RULES; sizes: $SIZES; modes: $MODES; concurrency $CONC"
echo "logs: $OUT"
printf '%-22s %6s %5s %5s %5s %8s %8s %8s\n' "rule/size/mode" games wins losses draws failures slow max_ms
tot_games=0; tot_w=0; tot_l=0; tot_d=0; tot_fail=0; tot_slow=0; tot_max=0; tot_moves=0
for rule in $RULES; do
  for size in $SIZES; do
    for mode in $MODES; do
      dir="$OUT/rule$rule-size$size-$mode"
      mkdir -p "$dir"
      flags=()
      [ "$mode" = board ] && flags+=(-sendbyboard)
      if ! "$GEN" openings --count $(( GAMES / 2 )) --size "$size" --rule "$rule" --seed "$size$rule" --format offset \
          > "$dir/openings.txt" 2> "$dir/openings.err"; then
        echo "cannot write openings for rule $rule size $size: $(head -c 300 "$dir/openings.err")" >&2
        exit 2
      fi
      (cd "$dir" && "$CLI" -engine name=A "cmd=$A" -engine name=B "cmd=$B" -each "tc=$TC" \
        -rule "$rule" -boardsize "$size" -games "$GAMES" -repeat -concurrency "$CONC" \
        -drawafter $(( size * size )) -openings "file=$dir/openings.txt" type=offset order=sequential \
        -pgn games.pgn -sgf games.sgf -msg messages.txt -log "${flags[@]}" > match.out 2>&1)
      status=$?
      finished=$(grep -c '\] Finished game ' "$dir/match.out")
      score=$(grep 'Score of ' "$dir/match.out" | tail -n 1)
      read -r w l d < <(echo "$score" | awk '{ for (i = 1; i <= NF; i++) if ($i == "-") { print $(i-1), $(i+1), $(i+3); exit } } END { if (NR == 0) print 0, 0, 0 }')
      w=${w:-0}; l=${l:-0}; d=${d:-0}
      # Game endings that are failures, by c-gomoku-cli's reason texts.
      bad_end=$(grep '\] Finished game ' "$dir/match.out" \
        | grep -cE 'illegal move|forbidden move|time forfeit|crash|Unterminated')
      # Its own reports: engine crashed/timeout, illegal move output, errors at START.
      bad_report=$(grep -cE 'engine .* (crashed|timeout)|output illegal move|output error|exited before' "$dir/match.out")
      # Protocol errors: ERROR or UNKNOWN lines from an engine in the logs ("name -> line").
      proto=$(cat "$dir"/c-gomoku-cli.*.log 2>/dev/null | grep -cE '^[AB] -> (ERROR|UNKNOWN)')
      missing=$(( GAMES - finished ))
      [ "$missing" -lt 0 ] && missing=0
      failures=$(( bad_end + bad_report + proto + missing + (status != 0) ))
      # Move times measured by c-gomoku-cli: C[123ms] after each move in the SGF.
      read -r moves slow max < <(grep -o 'C\[[0-9]*ms\]' "$dir/games.sgf" 2>/dev/null | tr -dc '0-9\n' \
        | awk -v lim="$TURN_MS" '{ n++; if ($1 > lim) s++; if ($1 > m) m = $1 } END { printf "%d %d %d\n", n, s, m }')
      printf '%-22s %6d %5d %5d %5d %8d %8d %8d\n' "$rule/$size/$mode" "$finished" "$w" "$l" "$d" "$failures" "$slow" "$max"
      if [ "$failures" -gt 0 ]; then
        { grep '\] Finished game ' "$dir/match.out" | grep -E 'illegal move|forbidden move|time forfeit|crash|Unterminated'
          grep -E 'engine .* (crashed|timeout)|output illegal move|output error|exited before' "$dir/match.out"
          cat "$dir"/c-gomoku-cli.*.log 2>/dev/null | grep -E '^[AB] -> (ERROR|UNKNOWN)'
          [ "$status" -ne 0 ] && echo "c-gomoku-cli exited with $status: $(tail -n 3 "$dir/match.out")"
          [ "$missing" -gt 0 ] && echo "$missing games did not finish"; } | head -n 10 | sed 's/^/    /'
      fi
      tot_games=$(( tot_games + finished )); tot_w=$(( tot_w + w )); tot_l=$(( tot_l + l )); tot_d=$(( tot_d + d ))
      tot_fail=$(( tot_fail + failures )); tot_slow=$(( tot_slow + slow )); tot_moves=$(( tot_moves + moves ))
      [ "$max" -gt "$tot_max" ] && tot_max=$max
    done
  done
done
printf '%-22s %6d %5d %5d %5d %8d %8d %8d\n' total "$tot_games" "$tot_w" "$tot_l" "$tot_d" "$tot_fail" "$tot_slow" "$tot_max"
echo "games $tot_games, A wins $tot_w, losses $tot_l, draws $tot_d; failures $tot_fail; moves $tot_moves, slower than ${TURN_MS} ms: $tot_slow, slowest ${tot_max} ms"
[ "$tot_fail" -eq 0 ]
