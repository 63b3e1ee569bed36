#!/usr/bin/env bash
# The checks CI runs besides the tests (.ci/run runs `cargo test`, then this):
#   1. formatting:    cargo fmt --check
#   2. lints:         cargo clippy --all-targets -- -D warnings
#   3. docs:          cargo doc --no-deps, warnings (broken links) as errors
#   4. unsafe:        exactly these `unsafe` blocks in src/ (each with its SAFETY comment):
#                     the prefetch in engine/tt.rs; glibc's mallopt and Windows'
#                     GlobalMemoryStatusEx, both in engine/memory.rs; the AVX2 dispatch
#                     in nn/simd.rs; and in the browser build only, the page's three
#                     imports in core/host.rs
#   5. data archive:  every train/archive/*.tar.xz unpacks to the files MANIFEST lists,
#                     with their record counts and checksums (train/archive.sh check)
#   6. bench:         the release build's `bench` node count equals the `Bench: N` line of
#                     the newest commit message that has one (CONTRIBUTING.md, "Commits
#                     and the `Bench:` line")
#   6b. memory:       tests/memory.rs again on the release build (FIVEFOLD_BIN): every move
#                     within its turn limit whatever memory is granted, peaks under the grant;
#                     and fuzz_protocol's 3,000-line hostile stream in under 15 s
#   7. weight soup:   the engine loads (FIVEFOLD_NET) a mean of two built-in networks that
#                     `fivefold-tools average` wrote (that a network averaged with itself
#                     comes back byte for byte is the unit test tools::average's)
# Each check says what it found; the script stops at the first that fails (exit 1).
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== check: %s\n' "$*"; }

step "cargo fmt --check"
cargo fmt --check

step "cargo clippy --all-targets -- -D warnings"
cargo clippy --quiet --all-targets -- -D warnings

step "cargo doc --no-deps (warnings are errors)"
RUSTDOCFLAGS="-D warnings" cargo doc --quiet --no-deps

step "the audited unsafe blocks in src/ (engine/tt.rs 1, engine/memory.rs 2, nn/simd.rs 1, core/host.rs 3)"
# Count code, not comments: lines whose text before any // holds `unsafe {` or `unsafe fn`/`impl`.
allowed='^src/(engine/(tt|memory)|nn/simd|core/host|web/exports)\.rs:'
unsafe_lines=$(grep -rnE --include='*.rs' '^[^/]*\bunsafe\b *(\{|fn\b|impl\b|trait\b)' src || true)
echo "$unsafe_lines"
per_file=$(printf '%s\n' "$unsafe_lines" | grep . | cut -d: -f1 | sort | uniq -c | tr -s ' ' | tr '\n' ';')
if [ "$per_file" != " 3 src/core/host.rs; 2 src/engine/memory.rs; 1 src/engine/tt.rs; 1 src/nn/simd.rs;" ]; then
  echo "check.sh: expected one unsafe block in src/engine/tt.rs (the prefetch), two in src/engine/memory.rs (mallopt, GlobalMemoryStatusEx), one in src/nn/simd.rs (the AVX2 dispatch) and three in src/core/host.rs (the page's imports); found: $per_file" >&2
  exit 1
fi
if grep -rnE --include='*.rs' 'allow\(unsafe_code\)' src | grep -vE "$allowed"; then
  echo "check.sh: #[allow(unsafe_code)] outside src/engine/tt.rs, src/engine/memory.rs, src/nn/simd.rs, src/core/host.rs and src/web/exports.rs (its no_mangle exports)" >&2
  exit 1
fi

step "train/archive.sh check (the kept self-play data against its MANIFEST)"
train/archive.sh check

step "bench node count against the newest 'Bench: N' commit line"
expected=$(git log --format=%B 2>/dev/null | grep -m1 -oE '\bBench: [0-9]+' | grep -oE '[0-9]+' || true)
if [ -z "$expected" ]; then
  echo "check.sh: no 'Bench: N' line in the commit history (a shallow clone?)" >&2
  exit 1
fi
cargo build --quiet --release
nodes=$(target/release/pbrain-fivefold bench | sed -n 's/^Nodes: //p')
echo "bench: $nodes nodes; newest Bench line: $expected"
if [ "$nodes" != "$expected" ]; then
  echo "check.sh: the bench gives $nodes nodes but the newest commit with a Bench line says $expected:" >&2
  echo "a commit that changes search behaviour must end its message with 'Bench: $nodes'" >&2
  exit 1
fi
step "tests/memory.rs and the hostile stream on the release build (every move in time whatever memory is granted)"
FIVEFOLD_BIN=target/release/pbrain-fivefold cargo test --quiet --test memory
FIVEFOLD_BIN=target/release/pbrain-fivefold cargo test --quiet --test fuzz_protocol a_long_hostile_stream

step "fivefold-tools average (the engine loads a mean it wrote)"
soup_dir=$(mktemp -d)
trap 'rm -rf "$soup_dir"' EXIT
target/release/fivefold-tools average --out "$soup_dir/mean.fnet" src/nn/nets/freestyle.fnet src/nn/nets/freestyle20.fnet --weights 3,1
if ! RUST_LOG=info FIVEFOLD_NET="$soup_dir/mean.fnet" target/release/pbrain-fivefold bench 2>&1 >/dev/null |
  grep -q "FIVEFOLD_NET: freestyle network from"; then
  echo "check.sh: the engine did not load the mean of freestyle.fnet and freestyle20.fnet" >&2
  exit 1
fi
echo "average: the engine loads the mean"

echo
echo "check.sh: all checks passed"
