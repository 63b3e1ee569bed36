#!/usr/bin/env bash
# Builds pbrain-fivefold.exe for 64-bit Windows on a Debian machine, checks it, and with
# --test runs it under wine.
#
# Usage: scripts/windows.sh [--install] [--test]
#   --install  install what the build (and --test) needs with apt-get: Debian's Rust
#              toolchain with the standard library's source (rustc-web, cargo-web,
#              rust-web-src; Rust 1.96 in bookworm-security), the MinGW-w64 cross
#              compiler, and wine64 for --test. Needs root.
#   --test     run each .exe under wine: a protocol conversation and the bench, whose
#              node count must equal the Linux build's (the same search, bit for bit).
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

install=0
test=0
for a in "$@"; do
  case "$a" in
    --install) install=1 ;;
    --test) test=1 ;;
    -h|--help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "windows.sh: unknown option '$a' (see --help)" >&2; exit 2 ;;
  esac
done

say() { printf 'windows.sh: %s\n' "$*"; }

packages=(rustc-web cargo-web rust-web-src gcc-mingw-w64-x86-64)
[ "$test" = 1 ] && packages+=(wine64)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$install" = 1 ]; then
    say "installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    say "missing Debian packages: ${missing[*]} (run with --install, as root)" >&2
    exit 1
  fi
fi

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
    -Zbuild-std=std,panic_unwind --target "$target" --bin pbrain-fivefold
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

[ "$test" = 1 ] || exit 0

# Debian's wine 8 lacks ProcessPrng in bcryptprimitives.dll, which Rust's standard
# library calls on Windows 10 and later (real Windows has it). A small stand-in built
# with MinGW, beside the .exe in a scratch folder, serves for the test only.
run=$(mktemp -d)
trap 'rm -rf "$run"' EXIT
cat > "$run/shim.c" <<'EOF'
#include <windows.h>
#include <ntsecapi.h>
/* ProcessPrng as Windows 10+ exports it, on top of RtlGenRandom. */
__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
    while (len > 0) {
        ULONG n = len > 0x10000000 ? 0x10000000 : (ULONG)len;
        if (!RtlGenRandom(data, n)) return FALSE;
        data += n;
        len -= n;
    }
    return TRUE;
}
EOF
x86_64-w64-mingw32-gcc -O2 -shared -o "$run/bcryptprimitives.dll" "$run/shim.c" -ladvapi32
export WINEPREFIX="$run/prefix" WINEDEBUG=-all
wine=/usr/lib/wine/wine64
[ -x "$wine" ] || wine=$(command -v wine64 || command -v wine)

# The first program wine runs in a new prefix sets the prefix up (seconds): do that
# before the timed conversation.
cp "$out/pbrain-fivefold.exe" "$run/"
"$wine" "$run/pbrain-fivefold.exe" --version >/dev/null 2>&1 || true

cargo build --quiet --release --locked
expected=$(target/release/pbrain-fivefold bench | sed -n 's/^Nodes: //p')
for name in pbrain-fivefold pbrain-fivefold-avx2; do
  if [ "$name" = pbrain-fivefold-avx2 ] && ! grep -qw avx2 /proc/cpuinfo; then
    say "this CPU has no AVX2: $name.exe not run"
    continue
  fi
  cp "$out/$name.exe" "$run/"
  conversation=$( (printf 'ABOUT\nSTART 15\nINFO timeout_turn 500\nINFO rule 4\nBEGIN\nTURN 8,8\nYXSHOWFORBID\n'
                   sleep 5; printf 'END\n') | timeout 120 "$wine" "$run/$name.exe" 2>/dev/null | tr -d '\r' | grep -v '^MESSAGE' || true)
  moves=$(printf '%s\n' "$conversation" | grep -cE '^[0-9]+,[0-9]+$' || true)
  if ! printf '%s\n' "$conversation" | grep -q '^name="Fivefold"' || [ "$moves" -ne 2 ] \
     || ! printf '%s\n' "$conversation" | grep -q '^FORBID '; then
    say "$name.exe under wine: unexpected conversation:" >&2
    printf '%s\n' "$conversation" >&2
    exit 1
  fi
  nodes=$(timeout 300 "$wine" "$run/$name.exe" bench 2>/dev/null | tr -d '\r' | sed -n 's/^Nodes: //p')
  if [ "$nodes" != "$expected" ]; then
    say "$name.exe under wine: bench gives '$nodes' nodes, the Linux build $expected" >&2
    exit 1
  fi
  say "$name.exe under wine: ABOUT, START, INFO, BEGIN, TURN, YXSHOWFORBID, END answered; bench $nodes nodes, as on Linux"
done
