#!/usr/bin/env python3
"""Where the games of scripts/match.sh runs were won and lost, for the scored engine.

Usage: scripts/where-lost.py OUT... (match.sh's log folders: match.out, games.sgf and
messages.txt; the scored engine is match.sh's ENGINE_A, named in match.out's "Score of A
vs B" line)

Three tables over all the runs given, each from the scored engine's side ("us"; "them"
is the opponent):

1. Results by the game's length (stones on the board at the end, the opening's
   included): W-L-D of games over at most 40, 41 to 80 and over 80 stones.
2. Who saw the end first: in each decisive game, the ply (stones on the board when the
   report was made) of the winner's first report of a mate for itself and of the
   loser's first report of a mate against itself; per winner, the median of loser's
   minus winner's ply (positive: the winner saw it first), how often the loser saw it
   first, and the median ply of the winner's first mate.
3. How the engines' own verdicts held: over the moves at plies 20 to 59, the last report
   before each move gave the mover at least +300 ("thinks it is winning") or at most
   -300 ("thinks it is losing"), mates left out; how those games ended for the mover,
   by engine and colour (a move counts once; a long game has many).
   The two engines' scores are not on one scale (Fivefold's is 100 a pawn-like unit of
   its own, Rapfi's its evaluation's); what compares is how often each is wrong.

The reports are each engine's last `depth`/`Depth` line before its move in messages.txt
(Fivefold's "ev 104" or "ev -M20", Rapfi's "Eval 114" or "Eval -M24").
"""
import re
import statistics
import sys
from collections import Counter, defaultdict

FINISHED = re.compile(r"Finished game (\d+) \((\S+) vs (\S+)\): (\S+)")
SCORE_OF = re.compile(r"Score of (\S+) vs (\S+):")
MSG = re.compile(r"^(\d+)\) (\S+): (.*)$")
EVAL = re.compile(r"(?:\bev|\| Eval) (\S+)")
SGF_GAME = re.compile(r"\(;(.*?)\)\s*(?=\(;|$)", re.S)
MOVE = re.compile(r";[BW]\[[a-z]{2}\]")
MATE = 10**6


def value(token):
    """A report's score as a number: mates as +-MATE."""
    if "M" in token:
        return -MATE if token.startswith("-") else MATE
    try:
        return int(token)
    except ValueError:
        return None


def run(out):
    """The scored engine's name, and per game number: (winner name or None, black's
    name, length, {(ply, name): value})."""
    us, ends = None, {}
    for line in open(f"{out}/match.out", encoding="utf-8", errors="replace"):
        m = SCORE_OF.search(line)
        if m:
            us = m.group(1)
        m = FINISHED.search(line)
        if m:
            black, white, res = m.group(2), m.group(3), m.group(4)
            ends[int(m.group(1))] = ({"1-0": black, "0-1": white}.get(res), black)
    if us is None:
        sys.exit(f"where-lost.py: no 'Score of' line in {out}/match.out")
    sgf = open(f"{out}/games.sgf", encoding="utf-8", errors="replace").read()
    lengths = [len(MOVE.findall(g.group(1))) for g in SGF_GAME.finditer(sgf)]
    evals, game = defaultdict(dict), None
    for line in open(f"{out}/messages.txt", encoding="utf-8", errors="replace"):
        if line.startswith("Game ID:"):
            game = int(line.split(":")[1])
            continue
        m = MSG.match(line.rstrip("\n"))
        if not m or game is None:
            continue
        e = EVAL.search(m.group(3))
        v = value(e.group(1)) if e else None
        if v is not None:
            evals[game][(int(m.group(1)), m.group(2))] = v
    games = {}
    for g, (winner, black) in ends.items():
        length = lengths[g - 1] if g - 1 < len(lengths) else None
        games[g] = (winner, black, length, evals.get(g, {}))
    return us, games


def first_mate(ev, name, sign):
    plies = [p for (p, n), v in ev.items() if n == name and v == sign * MATE]
    return min(plies) if plies else None


def main(outs):
    by_length = Counter()
    seen = defaultdict(list)  # winner side -> [(gap, winner's ply)]
    verdicts = Counter()
    for out in outs:
        us, games = run(out)
        for winner, black, length, ev in games.values():
            names = {n for (_, n) in ev}
            them = next((n for n in names if n != us), None)
            res = "D" if winner is None else ("W" if winner == us else "L")
            if length is not None:
                band = "<=40" if length <= 40 else "41-80" if length <= 80 else ">80"
                by_length[(band, res)] += 1
            if res != "D" and them is not None:
                w, l = (us, them) if res == "W" else (them, us)
                pw, pl = first_mate(ev, w, 1), first_mate(ev, l, -1)
                if pw is not None and pl is not None:
                    seen[res].append((pl - pw, pw))
            for (ply, name), v in ev.items():
                if not 20 <= ply < 60 or abs(v) == MATE or abs(v) < 300:
                    continue
                side = ("us" if name == us else "them", "black" if name == black else "white")
                mover_won = None if winner is None else winner == name
                end = "drew" if mover_won is None else "won" if mover_won else "lost"
                verdicts[(side, "winning" if v > 0 else "losing", end)] += 1
    print("1. Results by length (stones at the end): W-L-D of the scored engine")
    for band in ["<=40", "41-80", ">80"]:
        w, l, d = (by_length[(band, r)] for r in "WLD")
        print(f"   {band:>5}: {w}-{l}-{d}")
    print("2. Who saw the end first (plies: loser's first mate report minus winner's)")
    for res, who in [("W", "we won"), ("L", "we lost")]:
        s = seen[res]
        if not s:
            print(f"   {who}: no game with both reports")
            continue
        gaps = [g for g, _ in s]
        print(
            f"   {who}: {len(s)} games, median gap {statistics.median(gaps):+g}, "
            f"loser saw it first in {sum(g < 0 for g in gaps)}, "
            f"winner's first mate at ply {statistics.median(p for _, p in s):g} (median)"
        )
    print("3. Verdicts of at least 300 at plies 20-59, and how the game ended for the mover")
    for side in [(s, c) for s in ["us", "them"] for c in ["black", "white"]]:
        for verdict in ["winning", "losing"]:
            c = [verdicts[(side, verdict, e)] for e in ["won", "drew", "lost"]]
            n = sum(c)
            wrong = c[2] if verdict == "winning" else c[0]
            share = f"{100 * wrong / n:.0f}%" if n else "-"
            print(
                f"   {side[0]:>4} as {side[1]} thinks it is {verdict}: {n} moves, "
                f"won {c[0]}, drew {c[1]}, lost {c[2]}; wrong {share}"
            )


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        sys.exit(0 if len(sys.argv) > 1 else 2)
    main(sys.argv[1:])
