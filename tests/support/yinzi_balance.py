"""Yinzi: Ming balance figures: the heuristic bot in mirror matches, run in-process.

    python -m tests.support.yinzi_balance [--matches 40] [--players 2 3 4] [--quiet 60]
        [--options JSON]

Prints, per player count, over `--matches` matches of the example heuristic bot
(clients/python/examples/yinzi_ming_bot.py) in every seat, each match seeded by its number:

- seat balance: the win rate of each round-1 turn position (first player, second, ...),
  with a 95% Wilson interval;
- the Bonus register: in what share of rounds each slot held a Merchant;
- the Port: Ships sailed, Goods made, Goods shipped and Goods left unshipped, per match;
- mean final VP.

Then `--quiet` 2-player matches of a do-nothing player (ends every turn at once, declines
every tile, else the first legal move) against builtin random, seats alternating: its mean
VP and how often it wins. Requests are built as the arena builds them (decision, view, legal
moves), without HTTP. A measuring tool, not a test: it prints figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections import Counter
from pathlib import Path

from referee.core import engine
from referee.core.bots import random_move
from referee.games.yinzi_ming import data
from referee.games.yinzi_ming.game import GAME

EXAMPLES = Path(__file__).resolve().parents[2] / "clients" / "python" / "examples"


def heuristic():
    """The example bot's `choose`, imported from the checkout."""
    sys.path.insert(0, str(EXAMPLES))
    sys.path.insert(0, str(EXAMPLES.parent))
    import yinzi_ming_bot
    return yinzi_ming_bot.choose


def request(s, seat: int) -> dict:
    """The move request the arena would send `seat` now (JSON round trip included)."""
    decision = next(d for d in GAME.pending(s) if d.seat == seat)
    return json.loads(json.dumps({"seat": seat, "decision": decision.to_dict(),
                                  "view": GAME.view(s, seat),
                                  "legal_moves": GAME.legal_moves(s, seat)}))


def quiet(s, seat: int) -> dict:
    """The do-nothing policy: done or decline when offered, else the first legal move."""
    moves = GAME.legal_moves(s, seat)
    for wanted in ({"type": "done"}, {"type": "decline"}):
        if wanted in moves:
            return wanted
    return moves[0]


class Tally:
    """What one player count's matches add up to."""

    def __init__(self, players: int):
        self.players, self.matches, self.rounds = players, 0, 0
        self.position_wins = Counter()
        self.slots = Counter()
        self.port = Counter()
        self.vp = 0

    def round_started(self, s) -> None:
        """Phase C just began: count the register slots holding a Merchant."""
        self.rounds += 1
        for i, slot in enumerate(s["register"]):
            if slot["merchant"] is not None:
                self.slots[i + 1] += 1

    def maintenance(self, before, after) -> None:
        """Ships that left the Port between the two states."""
        staying = {p["ship"] for p in after["port"]}
        self.port["ships sailed"] += sum(
            1 for p in before["port"] if p["ship"] not in staying or any(
                q["ship"] == p["ship"] and q["slots"] != p["slots"] for q in after["port"]))

    def move(self, move: dict) -> None:
        """Goods made and shipped."""
        if move["type"] in ("produce", "ship"):
            self.port["goods " + ("made" if move["type"] == "produce" else "shipped")] += 1

    def finished(self, s, first: int) -> None:
        """Winner by round-1 turn position; final VP; Goods never shipped."""
        self.matches += 1
        final = s["final"]
        winner = final["ranks"].index(1)
        self.position_wins[first.index(winner)] += 1
        self.vp += sum(final["scores"]) / self.players
        self.port["goods unshipped"] += sum(w["goods"] for w in s["workshops"].values())


def play(players: int, seed: int, policies, tally: Tally | None = None, options=None):
    """One match; `policies[seat](state, seat)` gives each move. Returns the final state."""
    _, s = engine.start(GAME, players, options or {}, seed)
    first, version = list(s["order"]), 0  # the round-1 turn order (phase B goes first to last)
    while GAME.pending(s):
        seat = GAME.pending(s)[0].seat
        move = policies[seat](s, seat, version)
        before, s = s, GAME.apply(s, seat, move)
        version += 1
        if tally is None:
            continue
        tally.move(move)
        if s["stage"] == "choose" and before["stage"] != "choose" and s["turn_no"] == 0:
            tally.round_started(s)
        if s["round"] != before["round"] or (s["phase"] == "over" and before["phase"] != "over"
                                              and not data.SKIP_LAST_MAINTENANCE):
            tally.maintenance(before, s)
    if tally is not None:
        tally.finished(s, first)
    return s


def wilson(wins: int, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if not n:
        return 0.0, 0.0
    z, p = 1.96, wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def mirror(players: int, matches: int, options=None) -> Tally:
    """`matches` heuristic-vs-heuristic matches (seeds 1..matches)."""
    choose, tally = heuristic(), Tally(players)

    def bot(s, seat, version):
        return choose(request(s, seat))
    for seed in range(1, matches + 1):
        random.seed(seed)  # the bot breaks ties at random: repeatable figures
        play(players, seed, [bot] * players, tally, options)
    return tally


def quiet_vs_random(matches: int, options=None) -> tuple[float, float, int]:
    """(do-nothing mean VP, random mean VP, do-nothing wins) over 2-player matches."""
    quiet_vp = random_vp = wins = 0
    for seed in range(1, matches + 1):
        me = seed % 2

        def rnd(s, seat, version, seed=seed):
            return random_move(GAME, s, seat, seed, version)
        policies = [rnd, rnd]
        policies[me] = lambda s, seat, version: quiet(s, seat)
        final = play(2, seed, policies, options=options)["final"]
        quiet_vp += final["scores"][me]
        random_vp += final["scores"][1 - me]
        wins += final["ranks"][me] == 1
    return quiet_vp / matches, random_vp / matches, wins


def report(t: Tally) -> str:
    """The tables of one player count."""
    lines = [f"## {t.players} players, {t.matches} heuristic mirror matches "
             f"({t.rounds} rounds), mean VP {t.vp / t.matches:.1f}",
             "win rate by round-1 turn position (Bonus picks first to last; 95% CI):"]
    for pos in range(t.players):
        wins = t.position_wins[pos]
        low, high = wilson(wins, t.matches)
        lines.append(f"  position {pos + 1}: {wins:3d}/{t.matches} = {wins / t.matches:5.1%}"
                     f"  [{low:.0%}-{high:.0%}]")
    lines.append("Bonus register slot taken (share of rounds):")
    for slot in data.SLOTS:
        n = t.slots[slot["slot"]]
        lines.append(f"  slot {slot['slot']} {slot['name']:<18} {n:3d}/{t.rounds} = "
                     f"{n / t.rounds:5.1%}")
    lines.append("Port, per match: " + ", ".join(
        f"{k} {t.port[k] / t.matches:.2f}" for k in
        ("ships sailed", "goods made", "goods shipped", "goods unshipped")))
    return "\n".join(lines)


def main(argv=None) -> None:
    """Run the measurements and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--players", type=int, nargs="*", default=[2, 3, 4])
    parser.add_argument("--quiet", type=int, default=60)
    parser.add_argument("--options", default="{}")
    args = parser.parse_args(argv)
    options = json.loads(args.options)
    print(f"yinzi-ming rules {GAME.spec.rules_version}, options {options or 'defaults'}")
    for players in args.players:
        started = time.perf_counter()
        print(report(mirror(players, args.matches, options)),
              f"\n  ({time.perf_counter() - started:.0f} s)", flush=True)
    if args.quiet:
        mean, other, wins = quiet_vs_random(args.quiet, options)
        low, high = wilson(wins, args.quiet)
        print(f"## do-nothing vs builtin random, 2 players, {args.quiet} matches\n"
              f"  do-nothing mean VP {mean:.1f}, random mean VP {other:.1f}, do-nothing wins "
              f"{wins}/{args.quiet} [{low:.0%}-{high:.0%}]")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    main()
