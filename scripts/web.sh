#!/usr/bin/env bash
# Builds the browser page into target/web/: index.html and its scripts and styles (web/),
# and the engine compiled to WebAssembly from this repository's library (the `web`
# feature, without `sqlite` and `tools`), with the networks inside it. Three builds of the
# engine: fivefold.wasm (any browser with WebAssembly), fivefold-simd.wasm (with the
# 128-bit SIMD instructions every current browser has) and fivefold-threads.wasm (SIMD
# and shared memory: a search on several threads, where the page is cross-origin
# isolated). The page takes the best one the browser can run.
#
# Usage: scripts/web.sh [--install] [--serve [PORT]] [--test]
#   --install  install what the build (and --test) needs with apt-get: Debian's Rust
#              toolchain with the standard library's source (rustc-web, cargo-web,
#              rust-web-src; Rust 1.96), LLVM's wasm-ld (lld-16), and for --test
#              chromium and chromium-driver. Needs root.
#   --serve    build, then serve target/web on http://127.0.0.1:PORT/ (8230) with the
#              headers that make the page cross-origin isolated (its stop flag in shared
#              memory), until interrupted.
#   --test     build, then run the page's test in headless chromium (scripts/web-test.py):
#              games in every rule, a forbidden point, stops, URLs, a RenLib file,
#              screenshots, the speed of every build against the native one.
#   --no-build with --serve or --test: use the build already in target/web.
#
# Toolchains: for the plain and SIMD builds rustup's, when it has the
# wasm32-unknown-unknown target (`rustup target add wasm32-unknown-unknown`; then they
# are plain cargo builds), else Debian's rustc-web, whose standard library is built from
# source (-Zbuild-std) and linked with wasm-ld-16. The threads build always takes the
# second route: it needs a standard library built with atomics.
#
# Exit status: 0 done, 1 a build or test failed, 2 a bad option, 3 a package is missing
# and could not be installed (no --install, not root, or apt failed).
set -euo pipefail
cd "$(dirname "$0")/.."

install=0 serve=0 test=0 build=1 port=8230
while [ $# -gt 0 ]; do
  case "$1" in
    --install) install=1 ;;
    --serve) serve=1; if [[ "${2:-}" =~ ^[0-9]+$ ]]; then port=$2; shift; fi ;;
    --test) test=1 ;;
    --no-build) build=0 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "web.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done

say() { printf 'web.sh: %s\n' "$*"; }

. scripts/debian-packages.sh

out=target/web
target=wasm32-unknown-unknown

build_wasm() { # build_wasm NAME RUSTFLAGS [buildstd]
  local name=$1 flags=$2 dir=target/web-build/$1
  say "building $name.wasm"
  if [ -z "${3:-}" ] && command -v rustup >/dev/null 2>&1 && rustup target list --installed 2>/dev/null | grep -qx "$target"; then
    RUSTFLAGS="$flags" CARGO_TARGET_DIR="$dir" cargo rustc --quiet --release --locked \
      --target "$target" --lib --crate-type cdylib --no-default-features --features web
  else
    need rustc-web cargo-web rust-web-src lld-16
    env RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 RUSTFLAGS="$flags" CARGO_TARGET_DIR="$dir" \
      CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=wasm-ld-16 \
      /usr/bin/cargo rustc --quiet --release --locked -Zbuild-std=std,panic_abort \
      --target "$target" --lib --crate-type cdylib --no-default-features --features web
  fi
  cp "$dir/$target/release/fivefold.wasm" "$out/$name.wasm"
  say "$out/$name.wasm: $(stat -c %s "$out/$name.wasm") bytes"
}

if [ "$build" = 1 ]; then
  mkdir -p "$out"
  build_wasm fivefold ""
  build_wasm fivefold-simd "-C target-feature=+simd128"
  # Shared memory, imported from the page, with the stack pointer and the thread-local
  # block's setup exported: the page gives each helper worker a stack and a block of its
  # own (web/worker.js). Only the build-std route can build this: rustup's standard
  # library for the target is built without atomics.
  threads="-C target-feature=+simd128,+atomics,+bulk-memory,+mutable-globals"
  for a in --shared-memory --import-memory --max-memory=4294967296 --export=__stack_pointer \
           --export=__wasm_init_tls --export=__tls_size --export=__tls_align; do
    threads+=" -C link-arg=$a"
  done
  build_wasm fivefold-threads "$threads" buildstd
  # The page's own files, as they are: no bundler, nothing to download.
  cp -r web/. "$out/"
  # The service worker's cache is named after the site's contents, so a new build
  # replaces what browsers keep offline.
  version=$(cd "$out" && find . -type f ! -name sw.js -print0 | sort -z | xargs -0 sha256sum | sha256sum | cut -c1-12)
  sed -i "s/^const VERSION = \".*\";/const VERSION = \"fivefold-$version\";/" "$out/sw.js"
  grep -q "fivefold-$version" "$out/sw.js" || { say "could not stamp $out/sw.js"; exit 1; }
  say "site in $out/ ($(find "$out" -type f | wc -l) files)"
fi

if [ "$test" = 1 ]; then
  need chromium chromium-driver
  python3 scripts/web-test.py --site "$out"
fi
if [ "$serve" = 1 ]; then
  say "serving $out on http://127.0.0.1:$port/ (cross-origin isolated; Ctrl-C stops)"
  exec python3 scripts/web-serve.py --site "$out" --port "$port"
fi
