#!/usr/bin/env bash
# Builds pbrain-fivefold.exe for 64-bit Windows on a Debian machine, checks it, and
# sets up wine to run it in tests/windows.rs.
#
# Usage: scripts/windows.sh [--install] [--wine] [--test]
#   --install  install what the build (and --wine) needs with apt-get: Debian's Rust
#              toolchain with the standard library's source (rustc-web, cargo-web,
#              rust-web-src; Rust 1.96 in bookworm-security), the MinGW-w64 cross
#              compiler, and wine64 for --wine. Needs root.
#   --wine     also set up target/windows/wine/ (a wine prefix, the .exe files and a
#              test-only DLL, see below), where `cargo test` finds them: tests/windows.rs
#              then plays each .exe under wine (a protocol conversation, the bench, a
#              match against the Linux build in every rule, and Gomocup's conditions:
#              its memory limit, its time controls, suspension between moves, renju's
#              200-move draw). Without that folder those tests say SKIPPED.
#   --test     --wine, then run those tests: cargo test --release --test windows.
#   --source-hash  print the hash of the sources the .exe files are built from, and
#              stop (tests/windows.rs compares it with the one the build left, and
#              skips a stale build).
#
# Exit status: 0 done, 1 a build or check failed, 2 a bad option, 3 a Debian package
# is missing and could not be installed (no --install, not root, or apt failed).
#
# Writes target/windows/pbrain-fivefold.exe (baseline x86-64) and
# target/windows/pbrain-fivefold-avx2.exe (x86-64-v3: AVX2, BMI2, FMA), the two builds
# Gomocup accepts from one entrant. Where rustup can download targets, the ordinary
# route works too: `rustup target add x86_64-pc-windows-gnu` and
# `cargo build --release --target x86_64-pc-windows-gnu`. Here rustup cannot, so the
# standard library is built from Debian's source package (-Zbuild-std).
#
# Each .exe is checked: it imports only DLLs that every Windows 10/11 has (no MinGW
# runtime beside it), and it is under Gomocup's 8 MB limit for an AI's files.
set -euo pipefail
cd "$(dirname "$0")/.."

# The sources a build depends on, hashed (also what --source-hash prints).
source_hash() {
  { git ls-files -z -- src Cargo.toml Cargo.lock build.rs 2>/dev/null || true; } |
    sort -z | xargs -0 sha256sum 2>/dev/null | sha256sum | cut -c1-16
}

install=0
wine_setup=0
test=0
for a in "$@"; do
  case "$a" in
    --install) install=1 ;;
    --wine) wine_setup=1 ;;
    --test) wine_setup=1; test=1 ;;
    --source-hash) source_hash; exit 0 ;;
    -h|--help) sed -n '2,32p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "windows.sh: unknown option '$a' (see --help)" >&2; exit 2 ;;
  esac
done

say() { printf 'windows.sh: %s\n' "$*"; }

packages=(rustc-web cargo-web rust-web-src gcc-mingw-w64-x86-64)
[ "$wine_setup" = 1 ] && packages+=(wine64)
. scripts/debian-packages.sh
need "${packages[@]}"

out=target/windows
mkdir -p "$out"
target=x86_64-pc-windows-gnu
build() { # build NAME RUSTFLAGS
  local name=$1 flags=$2
  say "building $name.exe (RUSTFLAGS='$flags'), the standard library from source"
  env RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 RUSTFLAGS="$flags" \
    CARGO_TARGET_DIR="target/windows-build/$name" \
    CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc \
    /usr/bin/cargo build --quiet --release --locked \
    -Zbuild-std=std,panic_unwind --target "$target" --no-default-features --features sqlite --bin pbrain-fivefold
  cp "target/windows-build/$name/$target/release/pbrain-fivefold.exe" "$out/$name.exe"
}
build pbrain-fivefold ""
build pbrain-fivefold-avx2 "-C target-cpu=x86-64-v3"

# DLLs that ship with every Windows 10/11 (and their server versions).
system_dlls='^(kernel32|ntdll|msvcrt|bcryptprimitives|advapi32|ws2_32|userenv|api-ms-win-[a-z0-9-]+)\.dll$'
for exe in "$out"/pbrain-fivefold.exe "$out"/pbrain-fivefold-avx2.exe; do
  dlls=$(x86_64-w64-mingw32-objdump -p "$exe" | sed -n 's/^[[:space:]]*DLL Name: //p' | sort -fu)
  bad=$(printf '%s\n' "$dlls" | grep -viE "$system_dlls" || true)
  if [ -n "$bad" ]; then
    say "$exe imports DLLs a bare Windows lacks: $(echo $bad)" >&2
    exit 1
  fi
  size=$(stat -c %s "$exe")
  if [ "$size" -gt $((8 * 1024 * 1024)) ]; then
    say "$exe is $size bytes, over Gomocup's 8 MB" >&2
    exit 1
  fi
  say "$exe: $size bytes; imports $(echo $dlls)"
done

[ "$wine_setup" = 1 ] || exit 0

# Debian's wine 8 lacks ProcessPrng in bcryptprimitives.dll, which Rust's standard
# library calls on Windows 10 and later (real Windows has it). A small stand-in built
# with MinGW (scripts/processprng.c), beside the .exe files in target/windows/wine/,
# serves for the tests only; it is not part of what ships.
run=target/windows/wine
mkdir -p "$run"
x86_64-w64-mingw32-gcc -O2 -shared -o "$run/bcryptprimitives.dll" scripts/processprng.c -ladvapi32
cp "$out/pbrain-fivefold.exe" "$out/pbrain-fivefold-avx2.exe" "$run/"
wine=/usr/lib/wine/wine64
[ -x "$wine" ] || wine=$(command -v wine64 || command -v wine)
# The first program wine runs in a new prefix sets the prefix up (seconds): do it now,
# not in a timed test.
WINEPREFIX="$PWD/$run/prefix" WINEDEBUG=-all "$wine" "$run/pbrain-fivefold.exe" --version >/dev/null 2>&1 || true
printf '%s\n' "$wine" > "$run/WINE"
source_hash > "$run/SOURCE"
say "wine set up in $run (wine: $wine); tests/windows.rs runs the .exe files there"

[ "$test" = 1 ] || exit 0
cargo test --release --locked --test windows -- --nocapture
