#!/usr/bin/env python3
"""What each engine did with its time in the games of scripts/match.sh runs.

Usage: scripts/game-stats.py OUT... (match.sh's log folders: games.sgf and messages.txt)

For each engine, over the moves it chose (the openings' stones left out): how many, the
median and the mean of the time it took (c-gomoku-cli writes it in each move's SGF
comment), the share of moves that took at least 90% of the longest, and, from its last
report before each move in messages.txt, the median nodes a second and depth. Rapfi's
report is its `Speed 615K | Depth 16-30 | ...` line, Fivefold's the last of its `depth 11-22
... n/s 136K ...` lines (its last finished depth, so its figure is of that iteration). Moves
an engine played at once (a forced reply, a won position: under a tenth of the median time)
are left out of the speed and depth figures, which are about the engines' full searches.
"""
import re
import statistics
import sys
from collections import defaultdict

SGF_GAME = re.compile(r"\(;(.*?)\)\s*(?=\(;|$)", re.S)
PROP = re.compile(r"\b(P[BW])\[([^\]]*)\]")
MOVE = re.compile(r";([BW])\[([a-z]{2})\]C\[([^\]]*)\]")
MSG = re.compile(r"^(\d+)\) (\S+): (.*)$")
FF = re.compile(r"depth (\d+)-\d+ .*\bn/s ([0-9.]+)([KMG]?)\b")
RAPFI = re.compile(r"Speed ([0-9.]+)([KMG]?) \| Depth (\d+)-\d+")
UNIT = {"": 1, "K": 1e3, "M": 1e6, "G": 1e9}


def games(path):
    """Per game (in file order): {colour: engine}, and per ply (1-based): colour, ms."""
    text = open(path, encoding="utf-8", errors="replace").read()
    out = []
    for g in SGF_GAME.finditer(text):
        body = g.group(1)
        names = dict(PROP.findall(body))
        plies = []
        for n, (col, _sq, comment) in enumerate(MOVE.findall(body), 1):
            m = re.fullmatch(r"(\d+)ms", comment.strip())
            plies.append((col, int(m.group(1)) if m else None))
        out.append(({"B": names.get("PB"), "W": names.get("PW")}, plies))
    return out


def reports(path):
    """Per game (in file order): {(ply, engine): (nodes a second, depth)} from the last
    report of each move."""
    out, cur = [], None
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.rstrip("\n")
        if line.startswith("Game ID:"):
            cur = {}
            out.append(cur)
            continue
        m = MSG.match(line)
        if not m or cur is None:
            continue
        ply, name, text = int(m.group(1)), m.group(2), m.group(3)
        f = FF.search(text)
        if f:
            cur[(ply, name)] = (float(f.group(2)) * UNIT[f.group(3)], int(f.group(1)))
            continue
        r = RAPFI.search(text)
        if r:
            cur[(ply, name)] = (float(r.group(1)) * UNIT[r.group(2)], int(r.group(3)))
    return out


def main(dirs):
    if not dirs:
        sys.exit(__doc__)
    times = defaultdict(list)
    speed = defaultdict(list)
    for d in dirs:
        gs = games(f"{d}/games.sgf")
        try:
            rs = reports(f"{d}/messages.txt")
        except FileNotFoundError:
            rs = []
        # messages.txt lists games as they start, games.sgf as they end: match by the
        # engines' names and the plies reported, not by place, where several ran at once.
        by_names = defaultdict(list)
        for r in rs:
            by_names[frozenset(n for _, n in r)].append(r)
        for names, plies in gs:
            moves = [(n, col, ms) for n, (col, ms) in enumerate(plies, 1) if ms is not None]
            for _, col, ms in moves:
                times[names[col]].append(ms)
            cands = by_names.get(frozenset(names.values()), [])
            # The report whose plies match this game's moves best.
            want = {(n, names[col]) for n, col, _ in moves}
            best = max(cands, key=lambda r: len(want & r.keys()), default=None)
            if best is None or not want & best.keys():
                continue
            cands.remove(best)
            for n, col, ms in moves:
                if (n, names[col]) in best:
                    speed[names[col]].append((ms, *best[(n, names[col])]))
    print(f"{'engine':32} {'moves':>6} {'median ms':>9} {'mean ms':>8} {'>=90% max':>9} "
          f"{'median n/s':>10} {'depth':>5}")
    for name in sorted(times):
        t = times[name]
        med, top = statistics.median(t), max(t)
        full = [s for s in speed[name] if s[0] >= med / 10]
        nps = statistics.median(s[1] for s in full) if full else float("nan")
        dep = statistics.median(s[2] for s in full) if full else float("nan")
        share = sum(x >= 0.9 * top for x in t) / len(t)
        print(f"{name:32} {len(t):6} {med:9.0f} {statistics.mean(t):8.0f} {100 * share:8.0f}% "
              f"{nps / 1e3:9.0f}K {dep:5.0f}")


if __name__ == "__main__":
    main(sys.argv[1:])
