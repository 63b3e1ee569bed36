#!/usr/bin/env bash
# Builds Piskvork, the Gomocup tournament manager (a Win32 GUI program, public source at
# https://github.com/plastovicka/Piskvork), with MinGW on a Debian machine, plays one game
# of target/windows/pbrain-fivefold.exe inside it under wine on a virtual X display
# (Xvfb), checks the outcome, and saves a screenshot of the final board.
#
# Usage: scripts/piskvork.sh [--source DIR] [--install] [options]
#   --source DIR   Piskvork's source: a checkout (DIR/source/piskvork.rc) or a git
#                  repository, bare or not, whose HEAD is built (git archive). Default:
#                  $PISKVORK_SRC. Nothing is downloaded; fetch the repository yourself.
#   --install      install missing Debian packages with apt-get (needs root): the MinGW
#                  C++ compiler, wine64, xvfb, x11-apps (xwd) and netpbm (PNG).
#   --engine EXE   the first AI (default target/windows/pbrain-fivefold.exe).
#   --opponent EXE the second AI (default: the first one again, under a second name).
#   --rule N       0 five or more wins (default), 1 exactly five, 2 renju.
#   --size N       board size, N x N (default 15).
#   --timeturn MS  time per move in milliseconds (default 1000).
#   --timematch S  time per game and player in seconds (default 180).
#   --tolerance MS how long past the limit Piskvork lets an AI think before it loses
#                  on time (default 1000, Piskvork's own default).
#   --memory MB    memory limit sent to the AIs (default 350, Gomocup's).
#   --opening N    start from line N of Piskvork's openings.txt (default -1: empty board).
#   --no-screenshot  play and check the game only.
#   -h, --help     print this text.
#
# Writes under target/piskvork/: src/ (the source copied), build/piskvork.exe (rebuilt
# only when the source changes), wineprefix/ (its own wine prefix), run/ (the game:
# result.psq, messages.txt from both AIs, logs/ with each AI's pipe conversation,
# stderr.txt), final-board.png (Piskvork showing the finished game, a failed one too)
# and, when Piskvork never exits (a message box waiting), failure.png: the screen.
# Relative paths in options are taken from the repository's root.
#
# The game is `piskvork.exe -p AI1 AI2 ...` (Piskvork's batch mode): it plays one game
# and exits with 1 (the first AI won), 2 (the second won) or 3 (a draw). The first AI
# moves first. Piskvork's registry settings are set first: the board size, and timeouts
# checked (off by default outside tournaments). The game passes when Piskvork exits
# with 1, 2 or 3, printed no error, and result.psq ends in a five (or a renju foul, or
# a full board for a draw) by the side Piskvork named: a timeout or an AI error ends a
# game without one. Batch mode exits without resuming the AI it suspended for the
# last move (as in Gomocup, the AI not on move is suspended): that one is left for the
# cleanup to end, and said so.
#
# Building with MinGW needs three things MSVC does not: min/max (MinGW's headers define
# them for C only), -fpermissive (nettur.cpp casts a thread's void* parameter to int),
# and the resource file's two paths fixed for a case-sensitive file system.
# Debian's wine 8 lacks ProcessPrng, which Rust's standard library calls: a small
# stand-in bcryptprimitives.dll (the one scripts/windows.sh builds) sits beside the AIs.
#
# Exit status: 0 the game was played and checked, 1 a build, the game or its check
# failed, 2 a bad option, 3 a Debian package is missing (no --install, not root, or
# apt failed).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

src=${PISKVORK_SRC:-}
install=0
engine=target/windows/pbrain-fivefold.exe
opponent=
rule=0
size=15
timeturn=1000
timematch=180
tolerance=1000
memory=350
opening=-1
screenshot=1
usage() { echo "piskvork.sh: $*; see --help" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) sed -n '2,51p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --install) install=1 ;;
    --no-screenshot) screenshot=0 ;;
    --source|--engine|--opponent|--rule|--size|--timeturn|--timematch|--tolerance|--memory|--opening)
      [ $# -ge 2 ] || usage "$1 needs a value"
      case "$1" in
        --source) src=$2 ;;
        --engine) engine=$2 ;;
        --opponent) opponent=$2 ;;
        --rule) rule=$2 ;;
        --size) size=$2 ;;
        --timeturn) timeturn=$2 ;;
        --timematch) timematch=$2 ;;
        --tolerance) tolerance=$2 ;;
        --memory) memory=$2 ;;
        --opening) opening=$2 ;;
      esac
      shift ;;
    *) echo "piskvork.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
# Piskvork answers a bad value with a message box, which nobody closes on Xvfb.
for v in size timeturn timematch tolerance memory; do
  [[ ${!v} =~ ^[0-9]+$ ]] || usage "--$v wants a whole number, not '${!v}'"
done
[[ $rule =~ ^[012]$ ]] || usage "--rule wants 0, 1 or 2, not '$rule'"
[[ $opening =~ ^-?[0-9]+$ ]] || usage "--opening wants a number, not '$opening'"
{ [ "$size" -ge 5 ] && [ "$size" -le 100 ]; } || usage "--size wants 5 to 100, not $size"
[ "$timeturn" -gt 0 ] || usage "--timeturn must be above 0"
[ -n "$src" ] || usage "say where Piskvork's source is: --source DIR or PISKVORK_SRC"

say() { printf 'piskvork.sh: %s\n' "$*"; }
fail() { printf 'piskvork.sh: FAILED: %s\n' "$*" >&2; exit 1; }

# --- Debian packages ---------------------------------------------------------------
wine=/usr/lib/wine/wine64
wineserver=/usr/lib/wine/wineserver64
[ -x "$wineserver" ] || wineserver=$(command -v wineserver || echo /usr/bin/wineserver)
need=(x86_64-w64-mingw32-g++:g++-mingw-w64-x86-64-win32
      x86_64-w64-mingw32-gcc:gcc-mingw-w64-x86-64-win32
      x86_64-w64-mingw32-windres:binutils-mingw-w64-x86-64
      "$wine":wine64 Xvfb:xvfb)
[ "$screenshot" = 1 ] && need+=(xwd:x11-apps xwdtopnm:netpbm)
missing=()
for n in "${need[@]}"; do
  command -v "${n%%:*}" >/dev/null 2>&1 || missing+=("${n##*:}")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$install" = 1 ] && [ "$(id -u)" = 0 ]; then
    say "installing ${missing[*]}"
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
           apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; }; then
      say "apt-get could not install ${missing[*]}" >&2
      exit 3
    fi
  else
    say "missing Debian packages: ${missing[*]} (run with --install, as root)" >&2
    exit 3
  fi
fi

# --- the source --------------------------------------------------------------------
out=$root/target/piskvork
mkdir -p "$out"
rm -rf "$out/src" "$out/final-board.png" "$out/failure.png"
mkdir -p "$out/src"
if [ -f "$src/source/piskvork.rc" ]; then
  cp -r "$src/source" "$out/src/"
  cp "$src/openings.txt" "$out/src/" 2>/dev/null || true
  mkdir -p "$out/src/skins"
  cp "$src/skins/pisq.bmp" "$out/src/skins/"
  commit=$(git -C "$src" rev-parse HEAD 2>/dev/null || echo "unknown, not a git checkout")
  [ -z "$(git -C "$src" status --porcelain -- source 2>/dev/null)" ] || commit="$commit, with local changes"
elif git -C "$src" cat-file -e HEAD:source/piskvork.rc 2>/dev/null; then
  git -C "$src" archive HEAD source skins/pisq.bmp openings.txt | tar -x -C "$out/src"
  commit=$(git -C "$src" rev-parse HEAD)
else
  fail "$src holds no Piskvork source (no source/piskvork.rc, nor a git repository with one)"
fi
say "Piskvork source: $src (commit $commit), copied to target/piskvork/src"

# --- the build ---------------------------------------------------------------------
build=$out/build
mkdir -p "$build"
stamp=$( { (cd "$out/src/source" && cat ./*.cpp ./*.h piskvork.rc); cat "$root/scripts/piskvork.sh"; } |
  sha256sum | cut -c1-16)
cxxflags=(-O2 -DNDEBUG -DWIN32 -D_WINDOWS -fpermissive -w -include "$build/mingw_compat.h")
libs=(-lcomctl32 -lversion -lwsock32 -lwinmm -lole32 -luuid -lgdi32 -lcomdlg32 -lshell32 -ladvapi32)
if [ -f "$build/piskvork.exe" ] && [ "$(cat "$build/STAMP" 2>/dev/null)" = "$stamp" ]; then
  say "build: target/piskvork/build/piskvork.exe is up to date with this source"
else
  rm -f "$build"/*.o "$build/piskvork.exe" "$build/STAMP"
  cat > "$build/mingw_compat.h" <<'EOF'
/* Included before each Piskvork source by scripts/piskvork.sh: hdr.h's headers, then
   min/max, which MSVC's <windows.h> defines for C++ and MinGW's only for C. */
#define _CRT_SECURE_NO_DEPRECATE 1
#ifndef _WIN32_IE
#define _WIN32_IE 0x0400
#endif
#include <windows.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <stdarg.h>
#include <shobjidl.h>
#ifndef max
#define max(a, b) (((a) > (b)) ? (a) : (b))
#endif
#ifndef min
#define min(a, b) (((a) < (b)) ? (a) : (b))
#endif
EOF
  say "build: x86_64-w64-mingw32-g++ -c ${cxxflags[*]} FILE.cpp, for each of:"
  (
    cd "$out/src/source"
    for f in *.cpp; do
      printf '  %s\n' "$f"
      x86_64-w64-mingw32-g++ -c "${cxxflags[@]}" -o "$build/${f%.cpp}.o" "$f" ||
        fail "compiling $f"
    done
    # The resource file names ".\..\skins\pisq.bmp" and "piskvork.ico" (PISKVORK.ICO).
    sed 's#"\.\\\\\.\.\\\\skins\\\\pisq\.bmp"#"../skins/pisq.bmp"#; s#"piskvork\.ico"#"PISKVORK.ICO"#' \
      piskvork.rc > "$build/piskvork.rc"
    say "build: x86_64-w64-mingw32-windres -O coff piskvork.rc (its two paths fixed)"
    x86_64-w64-mingw32-windres -I. -O coff -o "$build/piskvork_res.o" "$build/piskvork.rc" ||
      fail "compiling the resources"
  )
  say "build: x86_64-w64-mingw32-g++ -mwindows -static -s -o piskvork.exe *.o ${libs[*]}"
  x86_64-w64-mingw32-g++ -mwindows -static -s -o "$build/piskvork.exe" "$build"/*.o "${libs[@]}" ||
    fail "linking piskvork.exe"
  printf '%s\n' "$stamp" > "$build/STAMP"
fi
imports=$(x86_64-w64-mingw32-objdump -p "$build/piskvork.exe" | sed -n 's/^[[:space:]]*DLL Name: //p' | tr '\n' ' ')
say "build: target/piskvork/build/piskvork.exe, $(stat -c %s "$build/piskvork.exe") bytes; imports ${imports% }"

# Rust's standard library calls ProcessPrng, which Debian's wine 8 lacks.
x86_64-w64-mingw32-gcc -O2 -shared -o "$build/bcryptprimitives.dll" scripts/processprng.c -ladvapi32

# --- the game folder ---------------------------------------------------------------
[ -f "$engine" ] || fail "no engine at $engine (scripts/windows.sh builds it)"
[ -n "$opponent" ] || opponent=$engine
[ -f "$opponent" ] || fail "no opponent at $opponent"
run=$out/run
rm -rf "$run"
mkdir -p "$run/logs"
cp "$build/piskvork.exe" "$build/bcryptprimitives.dll" "$run/"
[ -f "$out/src/openings.txt" ] && cp "$out/src/openings.txt" "$run/"
ai1=$(basename "$engine")
ai2=$(basename "$opponent")
[ "$ai2" != "$ai1" ] || ai2="${ai1%.exe}-2.exe"
cp "$engine" "$run/$ai1"
cp "$opponent" "$run/$ai2"

# --- wine and the X display --------------------------------------------------------
export WINEPREFIX=$out/wineprefix WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
xvfb_pid=
viewer_pid=
cleanup() {
  [ -z "$viewer_pid" ] || kill "$viewer_pid" 2>/dev/null || true
  # Whatever still runs in this prefix was started here (an AI left suspended).
  "$wineserver" -k 2>/dev/null || true
  timeout 15 "$wineserver" -w 2>/dev/null || true
  [ -z "$xvfb_pid" ] || kill "$xvfb_pid" 2>/dev/null || true
}
trap cleanup EXIT
rm -f "$out/xvfb.display"
Xvfb -displayfd 3 -screen 0 1024x768x24 -nolisten tcp 3>"$out/xvfb.display" >"$out/xvfb.log" 2>&1 &
xvfb_pid=$!
for _ in $(seq 50); do [ -s "$out/xvfb.display" ] && break; sleep 0.1; done
[ -s "$out/xvfb.display" ] || fail "Xvfb did not start (see target/piskvork/xvfb.log)"
DISPLAY=":$(head -n1 "$out/xvfb.display")"
export DISPLAY
say "X display $DISPLAY (Xvfb, pid $xvfb_pid)"
# The prefix is set up with the display there: wine's desktop process, which the
# first program starts, keeps the display it was started with.
if [ ! -f "$WINEPREFIX/system.reg" ]; then
  say "creating a wine prefix in target/piskvork/wineprefix (wineboot)"
  "$wine" wineboot -i >/dev/null 2>&1 || true
fi

# Piskvork's settings live in the registry; batch mode takes the board size from there
# and checks timeouts only when checkTimeOut is set. debugAI=1 is its "suspend the AI
# not on move" (as in Gomocup).
hex() { printf 'dword:%08x' "$1"; }
autobegin=0
[ "$opening" -lt 0 ] || autobegin=1
printf 'REGEDIT4\r\n\r\n[HKEY_CURRENT_USER\\Software\\Petr Lastovicka\\piskvorky]\r\n%s\r\n' \
  "$(printf '"%s"=%s\r\n' sirka "$(hex "$size")" height "$(hex "$size")" \
     checkTimeOut "$(hex 1)" tolerance "$(hex "$tolerance")" autoBegin "$(hex $autobegin)" \
     prohodit "$(hex 0)" continuous "$(hex 0)" soundNotification "$(hex 0)" \
     ignoreErrors "$(hex 1)" debugAI "$(hex 1)" X "$(hex 0)" Y "$(hex 0)")" > "$run/settings.reg"
(cd "$run" && "$wine" reg import settings.reg >/dev/null 2>&1) || fail "wine reg import settings.reg"

shot() { # shot NAME: the whole screen as target/piskvork/NAME.png, cropped
  xwd -root -silent > "$out/$1.xwd" &&
    { xwdtopnm "$out/$1.xwd" | { pnmcrop 2>/dev/null || cat; } | pnmtopng > "$out/$1.png"; } 2>/dev/null &&
    rm -f "$out/$1.xwd" && say "screenshot: target/piskvork/$1.png"
}

# --- the game ----------------------------------------------------------------------
args=(-p "$ai1" "$ai2" -rule "$rule" -timeturn "$timeturn" -timematch "$timematch"
      -memory "$memory" -opening "$opening" -outfile result.psq -outfileformat 1
      -logmsg messages.txt -logpipe "logs\\")
limit=$((2 * timematch + 120))
say "game: (cd target/piskvork/run && wine64 piskvork.exe ${args[*]}), ${size}x$size," \
  "timeouts checked with ${tolerance} ms tolerance, at most ${limit} s"
start=$(date +%s)
set +e
(cd "$run" && timeout "$limit" "$wine" piskvork.exe "${args[@]}" >stdout.txt 2>stderr.txt)
rc=$?
set -e
secs=$(( $(date +%s) - start ))
if [ "$rc" = 124 ]; then
  [ "$screenshot" = 0 ] || shot failure || true
  fail "Piskvork still ran after ${limit} s (a message box waiting? see failure.png)"
fi
say "game: Piskvork exited with $rc after ${secs} s"
# Batch mode ends with exit(), sending the AIs no END: each should quit when its
# input pipe closes. Wine names a process by its Windows path.
winrun="Z:${run//\//\\}\\"
left=
for _ in $(seq 20); do
  left=$(pgrep -a -f pbrain 2>/dev/null | grep -F "$winrun" || true)
  [ -n "$left" ] || break
  sleep 0.5
done
# Anything on stderr other than wine's own lines is Piskvork reporting an AI's error.
errors=$(grep -vE '^(wine: |[0-9a-f]{4}:(fixme|err|warn|trace):)' "$run/stderr.txt" || true)

[ -f "$run/result.psq" ] || fail "Piskvork wrote no result.psq (exit status $rc; stderr: $errors)"

# --- the screenshot (before the check, so a failed game is shown too) -----------------
if [ "$screenshot" = 1 ]; then
  # Batch mode exits the moment the game ends, so Piskvork is started again on the
  # game's record with both players human ("0:0"): it shows the final board, the
  # winning line drawn, and starts no AI.
  tr -d '\r' < "$run/result.psq" |
    awk 'NR == 1 { sub(/, [0-9]+:[0-9]+,/, ", 0:0,"); print; next } /^[0-9]+,[0-9]+,[0-9]+$/' \
    > "$run/final.psq"
  (cd "$run" && exec "$wine" piskvork.exe final.psq >/dev/null 2>&1) &
  viewer_pid=$!
  sleep 6
  shot final-board || say "no screenshot (xwd or netpbm failed)"
  kill "$viewer_pid" 2>/dev/null || true
  wait "$viewer_pid" 2>/dev/null || true
  viewer_pid=
fi
# --- the check ---------------------------------------------------------------------
# result.psq: "Piskvorky WxH, L1:L2, H", then "x,y,ms" for each move (from 1), then
# the two AI names and an error code. Replays it and looks for a line through the last
# move: five or more (rule 0, 2) or exactly five (rule 1).
verdict=$(tr -d '\r' < "$run/result.psq" | awk -v rule="$rule" -v tt="$timeturn" '
  NR == 1 { split($2, wh, "[x,]"); w = wh[1]; h = wh[2]; next }
  /^[0-9]+,[0-9]+,[0-9]+$/ {
    split($0, m, ","); n++; x[n] = m[1]; y[n] = m[2]; c = (n % 2) ? 1 : 2
    if (b[m[1], m[2]]) { print "bad: square " m[1] "," m[2] " played twice"; bad = 1; exit }
    b[m[1], m[2]] = c
    if (m[3] > mx[c]) { mx[c] = m[3]; mxn[c] = n }
    if (m[3] > tt) over[c]++
  }
  END {
    if (bad) exit
    if (!n) { print "none 0"; exit }
    c = b[x[n], y[n]]; best = 0
    split("1 0 0 1 1 1 1 -1", d, " ")
    for (k = 1; k <= 8; k += 2) {
      len = 1
      for (s = 1; b[x[n] + s * d[k], y[n] + s * d[k + 1]] == c; s++) len++
      for (s = 1; b[x[n] - s * d[k], y[n] - s * d[k + 1]] == c; s++) len++
      if (rule == 1 ? len == 5 : len >= 5) best = len
    }
    printf "%s %d %d %d %d %d %d %d %d %d\n", (best ? "five" : "none"), n, w, h,
      mx[1], mxn[1], mx[2], mxn[2], over[1] + 0, over[2] + 0
  }')
read -r kind moves w h max1 at1 max2 at2 over1 over2 <<<"$verdict"
[ "$kind" != bad ] || fail "result.psq: ${verdict#bad: }"
last=$(( moves % 2 == 1 ? 1 : 2 ))   # who made the last move: 1 the first AI
name=("" "$ai1 (first AI, X, moves first)" "$ai2 (second AI, O)")
case "$rc" in 1|2|3) ;; *) fail "Piskvork exited with $rc (0 is its error code); stderr: $errors" ;; esac
[ -z "$errors" ] || fail "Piskvork reported: $errors"
if [ "$rc" = 3 ]; then
  [ "$moves" -ge $((w * h - 25)) ] || fail "a draw after only $moves moves on ${w}x$h (an error?)"
  result="a draw after $moves moves (board full)"
elif [ "$kind" = five ] && [ "$rc" = "$last" ]; then
  result="${name[$rc]} won with five in a row on move $moves"
elif [ "$rule" = 2 ] && [ "$last" = 1 ] && [ "$rc" = 2 ]; then
  result="${name[2]} won on move $moves: the first player's last move was a renju foul"
else
  fail "Piskvork named ${name[$rc]} the winner after $moves moves, but the last move, by the ${name[$last]%% *}, made no five: a timeout or an AI error (see target/piskvork/run/logs)"
fi
# Piskvork suspends the AI that is not on move (its "suspend" setting, on by default as
# in Gomocup) and batch mode exits on the final move before resuming it: that AI stays
# suspended, and the cleanup ends it. Any other AI left running never saw its input end.
idle=$([ "$last" = 1 ] && echo "$ai2" || echo "$ai1")
if [ -z "$left" ]; then
  say "game: both AIs exited with Piskvork"
elif [ "$(printf '%s\n' "$left" | wc -l)" = 1 ] && [[ $left == *"\\$idle" ]]; then
  say "game: $idle, not on move at the end, stays suspended by Piskvork, which exited" \
    "without resuming it (batch mode does that); the cleanup ends it"
else
  fail "an AI still ran 10 s after Piskvork exited, with its input closed: ${left//$'\n'/; }"
fi
say "result: $result, ${w}x$h, rule $rule"
# result.psq times a move from the move before, so an AI's first move includes its
# start-up, which Piskvork's clock leaves out.
say "move times in result.psq: first AI at most $max1 ms (move $at1), second AI at most" \
  "$max2 ms (move $at2); over the ${timeturn} ms turn time: $over1 and $over2 moves"
say "files: target/piskvork/run/result.psq, messages.txt, logs/, stderr.txt"

say "done: Piskvork built from $commit played $ai1 vs $ai2: $result"
