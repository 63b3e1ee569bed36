#!/usr/bin/env python3
"""Makes spread-out openings balanced by an outside referee engine.

Usage: scripts/referee-openings.py --referee CMD [--size 20] [--rule 0] [--count 60]
           [--seed 1] [--stones 3-7] [--near 3] [--window 150] [--turn-ms 300 | --nodes N]
           [--jobs 2] [--exclude FILE]... > OUT.pos.txt

The recipe of the spread-out sets in ../shared/openings/ (their README), for any board
size: 3 to 7 stones (the count drawn evenly), black first and then alternating, the first
stone anywhere on the board and each next one on an empty square within NEAR squares
(king's moves) of a stone already placed. The referee, any Gomocup (pbrain) engine run as
the shell command CMD with one thread and TURN_MS a move (or N nodes, `INFO max_node`,
which makes the choice repeatable and blind to the machine's load), thinks with the side
to move; an opening is kept when the referee's last reported evaluation is not a mate and
lies within WINDOW either way. An opening that repeats a kept one, or a line of an --exclude
file, under a rotation or reflection of the board is skipped.

The evaluation is read from the referee's MESSAGE lines: Rapfi's `Eval -35` (`+M9` for a
mate) or Fivefold's `ev -35` (`ev +M7`). WINDOW is in the referee's
own units: the shared sets used Rapfi 0.43 classical and 150.

Writes c-gomoku-cli `pos` lines (`h8i9g10`, column letter from `a`, row from 1 at the
top) in the order the candidates were drawn, and its progress on stderr. The candidates
depend only on SEED; which are kept depends on the referee's search, which is repeatable
under --nodes and not under a time limit.
"""
import argparse
import concurrent.futures
import random
import re
import subprocess
import sys
import threading

MOVE = re.compile(r"^\s*(\d+)\s*,\s*(\d+)\s*$")
EVAL = re.compile(r"\b(?:Eval|ev)\s+([+-]?M?[0-9*]+)")


def candidate(rng, size, stones, near):
    """One opening: a list of (x, y), black's stones at even indices."""
    count = rng.randint(stones[0], stones[1])
    placed = [(rng.randrange(size), rng.randrange(size))]
    while len(placed) < count:
        sx, sy = rng.choice(placed)
        x, y = sx + rng.randint(-near, near), sy + rng.randint(-near, near)
        if 0 <= x < size and 0 <= y < size and (x, y) not in placed:
            placed.append((x, y))
    return placed


def images(stones, size):
    """The eight images of an opening under the board's rotations and reflections."""
    m = size - 1
    maps = [
        lambda x, y: (x, y), lambda x, y: (m - x, y), lambda x, y: (x, m - y),
        lambda x, y: (m - x, m - y), lambda x, y: (y, x), lambda x, y: (m - y, x),
        lambda x, y: (y, m - x), lambda x, y: (m - y, m - x),
    ]
    for f in maps:
        pts = [f(x, y) for x, y in stones]
        yield (frozenset(pts[0::2]), frozenset(pts[1::2]))


def key(stones, size):
    return min(tuple(sorted(b)) + ((-1, -1),) + tuple(sorted(w)) for b, w in images(stones, size))


def pos_line(stones):
    return "".join(f"{chr(97 + x)}{y + 1}" for x, y in stones)


def parse_pos(line):
    return [(ord(c) - 97, int(r) - 1) for c, r in re.findall(r"([a-z])(\d+)", line)]


def referee_eval(cmd, stones, size, rule, turn_ms, nodes):
    """The referee's last evaluation for the side to move, as text, or None."""
    to_move = len(stones) % 2  # 0: black to move
    lines = [f"START {size}", f"INFO rule {rule}", "INFO THREAD_NUM 1",
             f"INFO timeout_turn {turn_ms}", "INFO timeout_match 100000000",
             "INFO time_left 100000000"]
    if nodes:
        lines.append(f"INFO max_node {nodes}")
    lines.append("BOARD")
    for i, (x, y) in enumerate(stones):
        lines.append(f"{x},{y},{1 if i % 2 == to_move else 2}")
    lines.append("DONE")
    proc = subprocess.Popen(cmd, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, bufsize=1)
    # A referee that never answers is killed, and its position counts as unbalanced.
    watchdog = threading.Timer(turn_ms / 1000 * 3 + 30, proc.kill)
    watchdog.start()
    last = None
    try:
        try:
            proc.stdin.write("\n".join(lines) + "\n")
            proc.stdin.flush()
        except BrokenPipeError:
            raise RuntimeError(f"the referee did not start: {cmd}") from None
        for out in proc.stdout:
            if out.startswith("ERROR"):
                raise RuntimeError(f"the referee refused the position: {out.strip()}")
            found = EVAL.search(out)
            if found:
                last = found.group(1)
            if MOVE.match(out):
                break
        else:
            if not watchdog.is_alive():
                return None
            raise RuntimeError("the referee exited without a move")
        try:
            proc.stdin.write("END\n")
            proc.stdin.flush()
            proc.wait(timeout=10)
        except (BrokenPipeError, subprocess.TimeoutExpired):
            pass  # it gave its move; how it leaves does not matter
    finally:
        watchdog.cancel()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return last


def balanced(ev, window):
    if ev is None or "M" in ev:
        return False
    return abs(int(ev)) <= window


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--referee", required=True, help="shell command that starts the referee")
    ap.add_argument("--size", type=int, default=20)
    ap.add_argument("--rule", type=int, default=0)
    ap.add_argument("--count", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--stones", default="3-7", help="FROM-TO stones an opening")
    ap.add_argument("--near", type=int, default=3)
    ap.add_argument("--window", type=int, default=150)
    ap.add_argument("--turn-ms", type=int, default=None,
                    help="the referee's time a move (default 300, or 60000 with --nodes)")
    ap.add_argument("--nodes", type=int, default=0,
                    help="a node budget instead of the time (TURN_MS is then only a cap)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--exclude", action="append", default=[])
    ap.add_argument("--max-candidates", type=int, default=100000)
    a = ap.parse_args()
    if a.turn_ms is None:
        a.turn_ms = 60000 if a.nodes else 300
    lo, _, hi = a.stones.partition("-")
    stones = (int(lo), int(hi or lo))
    if not (1 <= stones[0] <= stones[1] <= a.size * a.size // 2) or not 5 <= a.size <= 26:
        ap.error("stones must be FROM-TO with 1 <= FROM <= TO, and size 5 to 26")

    seen = set()
    for path in a.exclude:
        with open(path) as f:
            for line in f:
                if line.strip():
                    seen.add(key(parse_pos(line), a.size))

    rng = random.Random(a.seed)
    kept = tried = 0
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        while kept < a.count and tried < a.max_candidates:
            batch = []
            while len(batch) < a.jobs and tried < a.max_candidates:
                c = candidate(rng, a.size, stones, a.near)
                tried += 1
                k = key(c, a.size)
                if k not in seen:
                    seen.add(k)
                    batch.append(c)
            evals = list(pool.map(
                lambda c: referee_eval(a.referee, c, a.size, a.rule, a.turn_ms, a.nodes), batch))
            for c, ev in zip(batch, evals):
                if kept < a.count and balanced(ev, a.window):
                    kept += 1
                    print(pos_line(c), flush=True)
                print(f"candidate {pos_line(c)}: {ev}; kept {kept} of {tried}",
                      file=sys.stderr, flush=True)
    if kept < a.count:
        sys.exit(f"only {kept} of {a.count} openings after {tried} candidates")


if __name__ == "__main__":
    main()
