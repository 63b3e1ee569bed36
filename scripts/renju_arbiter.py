#!/usr/bin/env python3
"""Renju fouls as Gomocup's manager judges them, for tests/arbiter.rs.

Uses the `renju` package from PyPI (a port of Piskvork's foul checker):
    python3 -m pip install renju==0.1.0

Reads one position per line on stdin: the board's side N, a space, then N*N
characters in reading order (row y = 0 first, x = 0 first in each row): `x` black,
`o` white, `.` empty. Writes one line per position: for each square, `-` for a
stone, else the foul type black would commit there: 0 none, 1 double three,
2 double four, 3 overline.
"""
import sys

try:
    from renju.check_forbid import ForbidChecker
except ImportError:
    sys.stderr.write("renju_arbiter: the PyPI package `renju` is not installed "
                     "(python3 -m pip install renju==0.1.0)\n")
    sys.exit(3)


def judge(n, cells):
    # board[x][y]: the checker is symmetric under transposition, so any
    # consistent orientation gives the same answers.
    board = [[0] * n for _ in range(n)]
    for y in range(n):
        for x in range(n):
            c = cells[y * n + x]
            board[x][y] = 1 if c == "x" else 2 if c == "o" else 0
    # One checker per position: `foulr` puts back everything it changes, so the
    # package's `get_foul_type` (a new checker per square) gives the same answers.
    checker = ForbidChecker(board, 0, 0)
    out = []
    for y in range(n):
        for x in range(n):
            if board[x][y]:
                out.append("-")
            else:
                out.append(str(checker.foulr(x, y, 0)))
    return "".join(out)


def main():
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        size, cells = line.split(" ", 1)
        n = int(size)
        if len(cells) != n * n:
            sys.stderr.write(f"renju_arbiter: expected {n * n} cells, got {len(cells)}\n")
            sys.exit(2)
        print(judge(n, cells), flush=True)


if __name__ == "__main__":
    main()
