#!/usr/bin/env python3
"""Averages network files weight by weight (a "weight soup").

Usage: train/average-nets.py OUT.fnet A.fnet B.fnet [C.fnet ...] [--weights 1,1,...]

The files must have one shape: the same rule, number of weight sets, DIM, HID, ROWS and
flags (so a network and another fine-tuned from it, the case this is for). Each table
entry is the weighted mean of the inputs' entries rounded to the nearest integer, each
float of the heads the weighted mean; the result is written in the format the engine
reads (src/nn/net.rs, docs/network.md) with its checksum. Standard library only.
"""
import struct
import sys
from array import array

MAGIC = b"FIVENET\0"
HEADER = struct.Struct("<8sHBBHHII")  # magic, version, rule, sets, dim, hid, rows, flags
FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3


def fnv1a(data: bytes) -> int:
    h = FNV_OFFSET
    for b in data:
        h ^= b
        h = (h * FNV_PRIME) & 0xFFFFFFFFFFFFFFFF
    return h


def read(path):
    data = open(path, "rb").read()
    if len(data) < HEADER.size + 8:
        sys.exit(f"{path}: too short for a network file")
    magic, version, rule, sets, dim, hid, rows, flags = HEADER.unpack_from(data)
    if magic != MAGIC:
        sys.exit(f"{path}: not a network file (no FIVENET magic)")
    body, (stored,) = data[:-8], struct.unpack("<Q", data[-8:])
    if fnv1a(body) != stored:
        sys.exit(f"{path}: checksum does not match")
    head_floats = hid * dim + hid + 3 * hid + 3 + dim * hid + dim + 1
    if flags & 1:
        head_floats += 4 * dim
    per_set = 2 * rows * dim + 4 * head_floats
    if len(body) != HEADER.size + sets * per_set:
        sys.exit(f"{path}: {len(body)} bytes before the checksum, expected "
                 f"{HEADER.size + sets * per_set} for its header")
    parts = []
    off = HEADER.size
    for _ in range(sets):
        table = array("h", body[off:off + 2 * rows * dim])
        off += 2 * rows * dim
        head = array("f", body[off:off + 4 * head_floats])
        off += 4 * head_floats
        if sys.byteorder == "big":
            table.byteswap()
            head.byteswap()
        parts.append((table, head))
    return body[:HEADER.size], (version, rule, sets, dim, hid, rows, flags), parts


def main(argv):
    weights = None
    if "--weights" in argv:
        i = argv.index("--weights")
        weights = [float(w) for w in argv[i + 1].split(",")]
        argv = argv[:i] + argv[i + 2:]
    if len(argv) < 3:
        sys.exit(__doc__)
    out, inputs = argv[0], argv[1:]
    weights = weights or [1.0] * len(inputs)
    if len(weights) != len(inputs) or sum(weights) <= 0 or min(weights) < 0:
        sys.exit("--weights needs one non-negative weight per input, not all zero")
    total = sum(weights)
    weights = [w / total for w in weights]
    nets = [read(p) for p in inputs]
    header, shape, _ = nets[0]
    for p, (_, s, _) in zip(inputs, nets):
        if s != shape:
            sys.exit(f"{p}: shape {s} differs from {inputs[0]}'s {shape}")
    body = bytearray(header)
    for k in range(shape[2]):
        tables = [n[2][k][0] for n in nets]
        heads = [n[2][k][1] for n in nets]
        table = array("h", (round(sum(w * t[i] for w, t in zip(weights, tables)))
                            for i in range(len(tables[0]))))
        head = array("f", (sum(w * h[i] for w, h in zip(weights, heads))
                           for i in range(len(heads[0]))))
        if sys.byteorder == "big":
            table.byteswap()
            head.byteswap()
        body += table.tobytes() + head.tobytes()
    body += struct.pack("<Q", fnv1a(bytes(body)))
    with open(out, "wb") as f:
        f.write(body)
    print(f"{out}: mean of {len(inputs)} networks "
          f"(rule {shape[1]}, {shape[2]} set(s), weights {','.join(f'{w:.3f}' for w in weights)})")


if __name__ == "__main__":
    main(sys.argv[1:])
