#!/usr/bin/env bash
# Writes a release package to dist/: the Linux binary, the two Windows executables
# (baseline and AVX2, built and checked under wine by scripts/windows.sh), the licence,
# a short text on loading the engine into each manager and entering Gomocup, and
# dist/gomocup/pbrain-fivefold.zip, the file to hand in to Gomocup.
#
# Usage: scripts/dist.sh [--install] [--no-test]
#   --install  let scripts/windows.sh install the Debian packages it needs (root)
#   --no-test  skip the wine checks of the Windows executables
set -euo pipefail
cd "$(dirname "$0")/.."

test=--test
install=
for a in "$@"; do
  case "$a" in
    --install) install=--install ;;
    --no-test) test= ;;
    -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "dist.sh: unknown option '$a' (see --help)" >&2; exit 2 ;;
  esac
done

cargo build --quiet --release --locked
# shellcheck disable=SC2086 # two optional flags, empty when not given
scripts/windows.sh $install $test

version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
bench=$(target/release/pbrain-fivefold bench | sed -n 's/^Nodes: //p')

rm -rf dist
mkdir -p dist/linux dist/windows dist/gomocup
cp target/release/pbrain-fivefold dist/linux/
cp target/windows/pbrain-fivefold.exe target/windows/pbrain-fivefold-avx2.exe dist/windows/
cp LICENSE dist/

if [ -n "$test" ]; then
  checked="  Both builds were checked under wine before this package was made: a protocol
  conversation, the bench, a match against the Linux build in every rule, the 350 MB
  limit, Gomocup's time controls, the process suspended between moves, and renju's
  draw at 200 moves (tests/windows.rs)."
else
  checked="  This package was made with --no-test: the builds were not run under wine."
fi
cat > dist/README.txt <<EOF
Fivefold $version ($commit), a Gomoku and Renju engine. Bench: $bench nodes.

  linux/pbrain-fivefold            Linux x86_64
  windows/pbrain-fivefold.exe      Windows 10/11 x86_64, any CPU
  windows/pbrain-fivefold-avx2.exe Windows 10/11 x86_64, CPUs with AVX2 (faster)
  gomocup/pbrain-fivefold.zip      what to hand in to Gomocup

Each program is one file with nothing to install beside it. With no arguments it speaks
the Gomocup (Piskvork) protocol on stdin/stdout; "pbrain-fivefold --help" lists the
command-line tools (play, analyse, solve, bench, ...).

Piskvork: Players > choose the .exe as a player's AI. The "pbrain-" prefix Piskvork
  expects is already in the name.
qpiskvork (Windows, Linux): Player Setting > AI > open the executable.
Yixin-Board: it starts "engine.exe" in its own folder; copy pbrain-fivefold.exe there
  under that name. Forbidden squares, multi-line analysis, stop and blocked squares work.
c-gomoku-cli: -engine cmd=./pbrain-fivefold (or the .exe) thread=1, for example
  c-gomoku-cli -engine cmd=./pbrain-fivefold -engine cmd=./other -each tc=0/5 -rule 0 -boardsize 15 -games 100

Gomocup: hand in gomocup/pbrain-fivefold.zip. It holds pbrain-fivefold.exe, the AVX2
  build (Gomocup's machines have SSE4.2, POPCNT, AVX and AVX2). The baseline build is for
  older CPUs outside the tournament. The engine reads
  INFO max_memory and keeps its table inside it (Gomocup's limit is 350 MB), plays every
  rule of the Gomocup protocol (freestyle, exact five, renju, caro) and keeps to
  timeout_turn, timeout_match and time_left. It keeps no files and needs no folder.
  Renju fouls are judged as Piskvork's checker judges them.
$checked
EOF

# The Gomocup zip: the AVX2 build under the name the manager runs.
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
cp target/windows/pbrain-fivefold-avx2.exe "$stage/pbrain-fivefold.exe"
(cd "$stage" && python3 -m zipfile -c pbrain-fivefold.zip pbrain-fivefold.exe)
cp "$stage/pbrain-fivefold.zip" dist/gomocup/
size=$(stat -c %s dist/gomocup/pbrain-fivefold.zip)
if [ "$size" -gt $((8 * 1024 * 1024)) ]; then
  echo "dist.sh: the Gomocup zip is $size bytes, over the 8 MB limit" >&2
  exit 1
fi
echo "dist.sh: wrote dist/ (Gomocup zip $size bytes):"
find dist -type f | sort
