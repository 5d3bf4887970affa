"""Dúlì, the 2-player automaton, played by the engine from her cards (drawn from the match seed).

Each card turned over is a chance event `duli_card`, face up (see `referee.core.chance`):
internally the top of the seeded pile, externally any card left in the (sorted) pile.

She bids by the upper half of a card (the first listed Progress Building where she has no trader
and a space is free, on its cheapest permissible space), and each round places all her traders
anew by the lower half: a teahouse first, then her traders from Yunnan up, displacing at most
one lower-influence player trader per province.
"""

from __future__ import annotations

from referee.core import Rng, chance
from referee.games.yunnan import bidding, board
from referee.games.yunnan.data import (DULI_CARD_IDS, DULI_CARDS, DULI_MAX_TEAHOUSES, NPROV,
                                       PROGRESS, PROVINCES, SMALL, SPACES)


def new_deck(s) -> None:
    """Shuffle all Dúlì cards into a new face-down draw pile (from the match seed; with
    external chance the pile is the sorted cards: drawing, not shuffling, is the event)."""
    d = s["duli_cards"]
    d["deck"] = chance.shuffled(
        DULI_CARD_IDS, lambda: Rng(s["seed"], "duli", d["shuffles"]).shuffled(DULI_CARD_IDS))
    d["shuffles"] += 1
    d["discard"], d["shown"] = [], []


def draw(s) -> dict:
    """Turn over the top card (reshuffling all cards when the pile is exhausted)."""
    d = s["duli_cards"]
    if not d["deck"]:
        new_deck(s)
    card = chance.take(d["deck"], "duli_card", prompt={
        "what": "the top Dúlì card, turned over", "round": s["round"], "phase": s["phase"]})
    d["shown"].append(card)
    return DULI_CARDS[card]


def cheapest_space(s, building: str) -> int | None:
    """The cheapest empty space Dúlì may take in `building` (small ones only as highest bid)."""
    row, values = s["bids"][building], SPACES[building]
    top = board.highest_bid(s, building)
    for i, value in enumerate(values):
        if row[i] is None and (value not in SMALL[building] or value > top):
            return value
    return None


def can_bid(s) -> bool:
    """True if some card could place a trader: one in her supply, and a Progress Building
    where she has no trader with a free permissible space (every card lists all five)."""
    me = s["duli"]
    return s["supply"][me] > 0 and any(me not in s["bids"][b] and cheapest_space(s, b) is not None
                                       for b in PROGRESS)


def bid_turn(s) -> None:
    """Dúlì's bidding turn: pass if both players have passed, else bid by a new card.

    When no card could place a trader she turns none (option `duli_no_bid` = 'skip', the
    default: "When Dúlì bids, the top Dúlì Card ... is turned over") and stays in the bidding,
    since her only pass is "If both players have passed"; with 'spend_card' a card is turned
    and spent anyway (rules_version 1).
    """
    me = s["duli"]
    if all(s["passed"][p] for p in range(s["n"])):
        bidding.do_pass(s, me)
        return
    if s["options"]["duli_no_bid"] == "skip" and not can_bid(s):
        s["report"]["duli"].append({"card": None, "bid": None})
        return
    card = draw(s)
    for building in card["bids"]:
        if me in s["bids"][building]:
            continue
        value = cheapest_space(s, building)
        if value is not None and s["supply"][me] > 0:
            s["supply"][me] -= 1
            bidding.place_bid(s, me, building, value)
            s["report"]["duli"].append({"card": card["id"], "bid": building, "space": value})
            return
    s["report"]["duli"].append({"card": card["id"], "bid": None})


def _teahouse_target(s) -> int | None:
    """Where the card's teahouse goes: the farthest province with player traders, else lower."""
    held = [i for i in range(NPROV) if any(s["traders"][p][i] for p in range(s["n"]))]
    if not held:
        return None
    for i in range(max(held), -1, -1):
        if s["teahouses"][i] is None:
            return i
    return None


def _victim(s, i: int) -> int | None:
    """The player trader Dúlì displaces when placing traders in province `i`, if any."""
    me = s["duli"]
    cands = [p for p in range(s["n"]) if s["traders"][p][i] > 0
             and s["influence"][p] < s["influence"][me] and not board.guarded(s, p, i)]
    if len(cands) < 2:
        return cands[0] if cands else None
    a, b = cands
    if s["influence"][a] != s["influence"][b]:
        return a if s["influence"][a] < s["influence"][b] else b
    if s["traders"][a][i] != s["traders"][b][i]:
        return a if s["traders"][a][i] > s["traders"][b][i] else b
    return None


def travel_turn(s) -> None:
    """Dúlì's Build & Travel: a new card places her teahouse and all her traders."""
    me = s["duli"]
    card = draw(s)
    entry = {"card": card["id"], "teahouse": None, "placed": [0] * NPROV, "displaced": []}
    owned = sum(1 for owner in s["teahouses"] if owner == me)
    if card["teahouse"] and owned < DULI_MAX_TEAHOUSES:
        target = _teahouse_target(s)
        if target is not None:
            s["teahouses"][target] = me
            entry["teahouse"] = PROVINCES[target]
    reach = max(s["horse"][p] for p in range(s["n"]))
    counts = list(card["traders"][:reach + 1])
    if s["options"]["duli_overflow"] == "farthest":
        counts[reach] += sum(card["traders"][reach + 1:])
    for i, count in enumerate(counts):
        count = min(count, s["supply"][me])
        if count <= 0:
            continue
        s["supply"][me] -= count
        s["traders"][me][i] += count
        entry["placed"][i] = count
        victim = _victim(s, i)
        if victim is not None:
            board.displace_one(s, victim, i)
            entry["displaced"].append({"owner": victim, "from": PROVINCES[i]})
    s["report"]["duli"].append(entry)


def end_round(s) -> None:
    """Dúlì's traders leave the board for her supply; this round's cards go to the discard."""
    me, d = s["duli"], s["duli_cards"]
    s["supply"][me] += sum(s["traders"][me]) + s["market"][me]
    s["traders"][me] = [0] * NPROV
    s["market"][me] = 0
    d["discard"] += d["shown"]
    d["shown"] = []
