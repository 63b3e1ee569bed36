#!/usr/bin/env bash
# Compares two runs of scripts/match.sh played on the same openings, opening by opening,
# or scores runs by their openings.
#
# Usage: scripts/pairs.sh DIR_A DIR_B
#        [SPRT="elo0=0 elo1=20 alpha=0.05 beta=0.05"] scripts/pairs.sh --score RUN...
#        scripts/pairs.sh --points DIR > FILE
#   DIR_A, DIR_B  log directories of two scripts/match.sh runs (its OUT), each holding
#                 games.sgf and match.out, played on the same openings: the same SEED, RULE
#                 and game count, and the same FIVEFOLD_TOOLS generating them (the balanced
#                 openings depend on the generating engine's search). Runs whose
#                 openings.txt differ are refused.
#   --points      the scored engine's points in each game of a run, one "GN POINTS BLACK"
#                 line a game (BLACK 1 where it had black) after a comment naming it: a few
#                 kilobytes that keep a run's results (for --score) where the logs are not
#                 kept, e.g. in the repository beside a network under test
#   --score       each RUN a log directory or a --points file: the scored engine's
#                 W-L-D as black and as white over the runs given, its
#                 score with a 95% interval from the spread of the pairs (and the Elo of
#                 both ends), and in how many openings one colour won both games (such a
#                 pair says nothing about the engines)
#   SPRT          with --score: the sequential test of scripts/match.sh (the same words,
#                 alpha and beta 0.05 unless given) on all the runs' games together, as
#                 c-gomoku-cli computes it (the trinomial GSPRT's normal approximation):
#                 the log-likelihood ratio, its bounds and the verdict; then the same test
#                 on the pairs ("SPRT on the pairs", the pentanomial test fishtest uses):
#                 one observation an opening, so that the noise is measured as the paired
#                 games show it. Where one colour wins both games of most openings, the
#                 games' own variance overstates the noise and the test on the pairs
#                 decides in fewer games; a test over several matches (sessions, opening
#                 files) is decided on the pairs (docs/network-log.md, *Matches*).
#
# In each run the first engine (the one whose score match.sh reports) is scored. An opening
# counts when both runs finished both of its games (one with each colour); a game that
# only has opening moves because an engine did not answer START says nothing about either
# engine and is left out, with its opening. Prints each run's W-L-D over the openings
# compared, then "pairs": the sum over those openings of (A's points - B's points), with its
# standard error. Both games of an opening start from the same stones, so the difference
# cancels how lopsided the opening is, and is a sharper measure than two separate scores.
# A difference of +5 points over 50 openings (100 games) is 5% of the score, about +35 Elo
# near 50%; two runs of one binary against Rapfi at 0.5 s a move show a standard error of
# about 6 points over 50 openings.
set -euo pipefail
usage() { sed -n '2,41p' "$0" >&2; exit 2; }
score=0; run=0; export_points=0
if [ "${1:-}" = "--score" ]; then score=1; shift; [ $# -ge 1 ] || usage
elif [ "${1:-}" = "--points" ]; then export_points=1; shift; [ $# -eq 1 ] || usage
else [ $# -eq 2 ] || usage; fi
sprt=""
if [ -n "${SPRT:-}" ]; then
  [ $score -eq 1 ] || { echo "SPRT is read only with --score" >&2; exit 2; }
  elo0=""; elo1=""; alpha=0.05; beta=0.05
  for w in $SPRT; do
    [[ $w =~ ^(elo0|elo1|alpha|beta)=(-?[0-9]+(\.[0-9]+)?)$ ]] ||
      { echo "SPRT: '$w' is not elo0=N, elo1=N, alpha=X or beta=X" >&2; exit 2; }
    printf -v "${BASH_REMATCH[1]}" %s "${BASH_REMATCH[2]}"
  done
  [ -n "$elo0" ] && [ -n "$elo1" ] &&
    awk -v e0="$elo0" -v e1="$elo1" -v a="$alpha" -v b="$beta" \
      'BEGIN { exit !(e0 < e1 && a > 0 && a < 1 && b > 0 && b < 1) }' ||
    { echo "SPRT needs elo0 < elo1, and alpha and beta between 0 and 1: '$SPRT'" >&2; exit 2; }
  sprt="$elo0 $elo1 $alpha $beta"
fi
# A --points file (with --score): every line a comment or "GN POINTS BLACK".
points_file() {
  [ $score -eq 1 ] && [ -f "$1" ] || return 1
  awk '!/^#/ && !/^[0-9]+ (0|0\.5|1) [01]$/ { bad = 1 } END { exit bad }' "$1" ||
    { echo "$1: not a pairs.sh --points file (lines \"GN POINTS BLACK\")" >&2; exit 2; }
}
for d in "$@"; do
  points_file "$d" && continue
  [ -f "$d/games.sgf" ] && [ -f "$d/match.out" ] || { echo "$d: no games.sgf and match.out" >&2; exit 2; }
done
if [ $score -eq 0 ] && [ $export_points -eq 0 ] && [ -f "$1/openings.txt" ] && [ -f "$2/openings.txt" ] &&
  ! cmp -s "$1/openings.txt" "$2/openings.txt"; then
  echo "$1 and $2 played different openings (openings.txt differ): opening by opening they" >&2
  echo "compare nothing. Play both with the same FIVEFOLD_TOOLS generating the openings, or compare" >&2
  echo "their scores with --score." >&2
  exit 2
fi
# The scored engine's points per game number, one "GN points black" line per game (black:
# 1 if the scored engine had black).
# The scored engine's name: from the first complete score line of match.out (the last one
# may be half written while the match runs, and a pipeline would not stop on it).
scored() { grep -m 1 -E "^Score of [^ ]+ vs [^ ]+: " "$1/match.out" | awk '{ print $3 }'; }
points() {
  awk -v me="$(scored "$1")" 'BEGIN { RS = "\\(;" }
    NR > 1 {
      gn = ""; pb = ""; pw = ""; res = ""
      if (match($0, /GN\[[0-9]+\]/)) gn = substr($0, RSTART + 3, RLENGTH - 4)
      if (match($0, /PB\[[^]]*\]/)) pb = substr($0, RSTART + 3, RLENGTH - 4)
      if (match($0, /PW\[[^]]*\]/)) pw = substr($0, RSTART + 3, RLENGTH - 4)
      if (match($0, /RE\[[^]]*\]/)) res = substr($0, RSTART + 3, RLENGTH - 4)
      moves = gsub(/;[BW]\[[a-z][a-z]\]/, "&"); opening = gsub(/C\[opening move\]/, "&")
      if (gn == "" || (index($0, "time forfeit") && moves == opening)) next
      if (res ~ /^B/) p = (pb == me) ? 1 : 0
      else if (res ~ /^W/) p = (pb == me) ? 0 : 1
      else p = 0.5
      print gn, p, (pb == me) ? 1 : 0
      # (A record cut short while c-gomoku-cli writes it may lack its names: not counted.)
      if (pb != "" && pw != "") { games++; if (pb == me || pw == me) named++ }
    }
    # A score line that names neither player (one written by hand, say) would score
    # every game as the other side'"'"'s: refuse it.
    END {
      if (games > named) {
        printf "%s: the score line names %s, who did not play %d of its %d games\n", FILENAME, me, games - named, games > "/dev/stderr"
        exit 2
      }
    }' "$1/games.sgf"
}
# Every run (but a points file) must have a score line that names one of its players (see
# points), checked before anything is printed.
for d in "$@"; do
  [ -f "$d" ] && continue
  [ -n "$(scored "$d")" ] || { echo "$d/match.out: no score line yet" >&2; exit 2; }
  points "$d" > /dev/null
done
if [ $export_points -eq 1 ]; then
  echo "# points of $(scored "$1") in $(realpath "$1"): game number, points, had black"
  points "$1" | sort -n
  exit
fi
if [ $score -eq 1 ]; then
  for d in "$@"; do
    run=$((run + 1))
    if [ -f "$d" ]; then grep -v '^#' "$d"; else points "$d"; fi | sed "s|^|$run |"
  done | awk -v sprt="$sprt" '
    function wld(p) { return p == 1 ? 1 : p == 0 ? 2 : 3 }
    function elo(s) { return s <= 0 ? "-inf" : s >= 1 ? "+inf" : sprintf("%+.0f", -400 * log(1 / s - 1) / log(10)) }
    { pts[$1, $2] = $3; blk[$1, $2] = $4; c[$4, wld($3)]++; if ($2 > last[$1]) last[$1] = $2; if ($1 > runs) runs = $1 }
    END {
      for (r = 1; r <= runs; r++) for (k = 1; 2 * k <= last[r]; k++) {
        g = r SUBSEP (2 * k - 1); h = r SUBSEP (2 * k)
        if (!((g in pts) && (h in pts))) continue
        n++; d = pts[g] + pts[h]; sum += d; sq += d * d
        # Points of black in each game; one colour won both when both are 1 or both 0.
        bg = blk[g] ? pts[g] : 1 - pts[g]; bh = blk[h] ? pts[h] : 1 - pts[h]
        if (bg == bh && bg != 0.5) decided++
      }
      printf "as black: %d-%d-%d  as white: %d-%d-%d\n", c[1, 1], c[1, 2], c[1, 3], c[0, 1], c[0, 2], c[0, 3]
      if (n == 0) { print "no opening was completed"; exit 1 }
      s = sum / (2 * n); var = sq / n - (sum / n) ^ 2; if (var < 0) var = 0
      e = 1.96 * sqrt(var / n) / 2
      printf "pairs %d  score %.1f%% +- %.1f  Elo %s [%s, %s]\n", n, 100 * s, 100 * e, elo(s), elo(s - e), elo(s + e)
      printf "one colour won both games in %d of %d openings\n", decided, n
      if (sprt != "") {
        test_sprt(c[1, 1] + c[0, 1], c[1, 2] + c[0, 2], c[1, 3] + c[0, 3])
        test_pairs(n, s, var / 4)
      }
    }
    # The GSPRT log-likelihood ratio in its normal approximation, for the test p (elo0,
    # elo1, alpha, beta) on n observations of mean s and variance v: both tests use it.
    function llr_of(p, s, v, n,    s0, s1) {
      s0 = 1 / (1 + 10 ^ (-p[1] / 400)); s1 = 1 / (1 + 10 ^ (-p[2] / 400))
      return (s1 - s0) * (2 * s - s0 - s1) / (2 * v / n)
    }
    function bounds_of(p) { lo = log(p[4] / (1 - p[3])); hi = log((1 - p[4]) / p[3]) }
    function verdict_of(llr) { return llr > hi ? "H1 accepted" : llr < lo ? "H0 accepted" : "undecided" }
    # The same test on the pairs (pentanomial): each opening'"'"'s two games are one
    # observation, its points halved (0, 1/4, 1/2, 3/4 or 1), s their mean and v their
    # variance. The two games of a pair start from the same stones and are not
    # independent (where one colour wins both, the pair is worth exactly a half), so the
    # games'"'"' own variance misjudges the noise; the pairs'"'"' does not. LLR 0 while every
    # pair scored the same.
    function test_pairs(n, s, v,    p, llr) {
      split(sprt, p, " "); bounds_of(p)
      llr = v > 0 ? llr_of(p, s, v, n) : 0
      printf "SPRT on the pairs: %d pairs, LLR %.3f [%.3f, %.3f], %s\n", n, llr, lo, hi, verdict_of(llr)
    }
    # c-gomoku-cli'"'"'s SPRT on W-L-D: the trinomial GSPRT'"'"'s log-likelihood ratio in its
    # normal approximation, 0 unless two of the three outcomes occurred.
    function test_sprt(w, l, d,    p, games, s, var, llr) {
      split(sprt, p, " ")
      games = w + l + d; llr = 0
      if ((w > 0) + (l > 0) + (d > 0) >= 2) {
        s = (w + d / 2) / games; var = (w + d / 4) / games - s * s
        llr = llr_of(p, s, var, games)
      }
      bounds_of(p)
      printf "SPRT elo0=%g elo1=%g alpha=%g beta=%g: %d-%d-%d, LLR %.3f [%.3f, %.3f], %s\n", p[1], p[2], p[3], p[4], w, l, d, llr, lo, hi, verdict_of(llr)
    }'
  exit
fi
awk '
  function wld(p) { return p == 1 ? 1 : p == 0 ? 2 : 3 }
  FNR == 1 { run++ }
  { pts[run, $1] = $2; if ($1 > last) last = $1 }
  END {
    for (k = 1; 2 * k <= last; k++) {
      ok = 1
      for (r = 1; r <= 2; r++) for (g = 2 * k - 1; g <= 2 * k; g++) if (!((r, g) in pts)) ok = 0
      if (!ok) continue
      n++; d = 0
      for (r = 1; r <= 2; r++) for (g = 2 * k - 1; g <= 2 * k; g++) {
        c[r, wld(pts[r, g])]++; d += (r == 1 ? 1 : -1) * pts[r, g]
      }
      sum += d; sq += d * d
    }
    if (n == 0) { print "no opening was completed in both runs"; exit 1 }
    for (r = 1; r <= 2; r++) printf "run %s: %d-%d-%d\n", r == 1 ? "A" : "B", c[r, 1], c[r, 2], c[r, 3]
    var = sq / n - (sum / n) ^ 2; if (var < 0) var = 0
    printf "pairs %d  A - B %+.1f points  standard error %.1f\n", n, sum, sqrt(var * n)
  }' <(points "$1") <(points "$2")
