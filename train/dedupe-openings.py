#!/usr/bin/env python3
"""Drops openings that repeat, up to rotation, reflection and translation.

Usage: train/dedupe-openings.py OUT INPUT... [-- REFERENCE...] [--shuffle SEED]

Reads c-gomoku-cli `pos` lines ("h8i9g10", black first) from the INPUT files in order
and writes to OUT each line whose stones are not the same, up to the eight symmetries of
the square and a shift, as those of a line of a REFERENCE file or of a line kept before
it (the colours count: black's stones must match black's). With --shuffle, the kept lines
are then shuffled with Python's random.Random(SEED). Prints how many it kept and dropped.

Training openings go through it with the spread-out sets and every test file as
references (train/archive/README.md), so no test plays a position a network trained on.
"""
import random
import re
import sys


def stones(line):
    return [(ord(c) - 97, int(r) - 1) for c, r in re.findall(r"([a-z])(\d+)", line)]


def canonical(st):
    """The smallest of the eight images, each shifted to touch both axes."""
    best = None
    for k in range(8):
        pts = []
        for i, (x, y) in enumerate(st):
            if k & 1:
                x = -x
            if k & 2:
                y = -y
            if k & 4:
                x, y = y, x
            pts.append((x, y, i % 2))
        mx = min(p[0] for p in pts)
        my = min(p[1] for p in pts)
        key = tuple(sorted((x - mx, y - my, c) for x, y, c in pts))
        if best is None or key < best:
            best = key
    return best


def main(argv):
    seed = None
    if "--shuffle" in argv:
        i = argv.index("--shuffle")
        seed = int(argv[i + 1])
        argv = argv[:i] + argv[i + 2:]
    if len(argv) < 2:
        sys.exit(__doc__)
    out, rest = argv[0], argv[1:]
    inputs, refs = (rest[: rest.index("--")], rest[rest.index("--") + 1:]) if "--" in rest else (rest, [])
    seen = set()
    for r in refs:
        for line in open(r):
            if line.strip():
                seen.add(canonical(stones(line)))
    kept, dropped = [], 0
    for name in inputs:
        for line in open(name):
            line = line.strip()
            if not line:
                continue
            c = canonical(stones(line))
            if c in seen:
                dropped += 1
                continue
            seen.add(c)
            kept.append(line)
    if seed is not None:
        random.Random(seed).shuffle(kept)
    with open(out, "w") as f:
        f.write("".join(line + "\n" for line in kept))
    print(f"{out}: kept {len(kept)}, dropped {dropped}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
