"""Setting up a match: the FOUND set-up, the fan 2-player set-up and the rulebook's variant."""

from __future__ import annotations

from collections import Counter

from referee.core import Rng, chance
from referee.core.kit import rule_error
from referee.games.dschunke import chances, flow
from referee.games.dschunke.board import load_strip, strip_count, strips_of
from referee.games.dschunke.data import (GOODS, JUNKS, MARKET, MERCHANT_ORDER, MERCHANTS,
                                         PER_TYPE, SETUP,
                                         STACK_SIZES, STRIPS, TWO_PLAYER, special_deck,
                                         tracks_in_play)


def new_state(players: int, options: dict, seed: int) -> dict:
    """The state before the first decision: goods dealt, decks shuffled, cargo laid out.

    Every random event goes through `chances` (external chance); internally the seeded draws
    are today's, in today's order: start player, market deck, special cards, goods, merchants.
    """
    rng = Rng(seed, "setup")
    two = options["two_player_variant"]
    start = chances.start_player(players, lambda: rng.below(players))
    market = chance.shuffled(range(len(MARKET)), lambda: rng.shuffled(range(len(MARKET))))
    specials = chance.shuffled(special_deck(), lambda: rng.shuffled(special_deck()))
    goods = _goods_pool(players)
    pool = chance.shuffled(goods, lambda: rng.shuffled(goods))
    state = {
        "players": players, "options": dict(options), "seed": seed,
        "colours": list(SETUP["colours"][str(players)]),
        "round": 1, "phase": 0, "start": start,
        "market": {"deck": market, "card": None, "settled": [], "seen": []},
        "junks": {j: {"layers": []} for j in JUNKS},
        "merchants": {m: {"junk": None, "used": False} for m in MERCHANT_ORDER},
        "hidden_merchants": None,
        "assistants": {} if two else {t: {"used": False} for t in tracks_in_play(players)},
        "seats": [_new_seat() for _ in range(players)],
        "supply": {}, "store": None, "stacks": [], "clock": 0,
        "announced": None, "poker": None, "last_poker": None, "reveals": 0, "stage": None,
    }
    if options["setup_variant"]:  # face down: in external chance drawn when turned up
        state["hidden_merchants"] = chance.shuffled(
            MERCHANT_ORDER, lambda: rng.shuffled(MERCHANT_ORDER))
    _deal_goods(state, pool, two)
    state["stacks"] = _deal_stacks(specials)
    if options["setup_variant"]:
        state["stage"] = {"kind": "place_merchant"}
        return state
    for merchant, info in MERCHANTS.items():
        state["merchants"][merchant]["junk"] = info["start"]
    _lay_start_strips(state, two)
    flow.start_round(state)
    return state


def _new_seat() -> dict:
    return {"cash": SETUP["money"], "hand": {g: 0 for g in GOODS}, "strips": STRIPS,
            "resupply": SETUP["resupply_cards"], "cards": [], "open": [], "played": [],
            "looks": [[] for _ in STACK_SIZES]}


def _deal_stacks(deck: list) -> list:
    """Deal the shuffled special cards, face down, into the stacks (each kept sorted)."""
    stacks = []
    for k, size in enumerate(STACK_SIZES):
        stacks.append(sorted(chances.next_card(deck, "special_card", chance.NOBODY,
                                               {"stack": k, "card": i, "of": size})
                             for i in range(size)))
    return stacks


def _goods_pool(players: int) -> list:
    per_type = SETUP["hand_cards_per_type"][str(players)]
    return [g for g in GOODS for _ in range(per_type)]


def _deal_goods(state: dict, pool: list, two: bool) -> None:
    """Deal each seat its hand from the shuffled pool; 2 players: the rest is the store."""
    players, size = state["players"], SETUP["hand_size"]
    left = Counter(pool)
    for seat in range(players):
        hand = chances.deal_hand(left, size, seat,
                                 lambda at=seat * size: chances.counts(pool[at:at + size]))
        for goods, count in hand.items():
            state["seats"][seat]["hand"][goods] += count
    per_type = SETUP["hand_cards_per_type"][str(players)]
    state["supply"] = {g: PER_TYPE - per_type for g in GOODS}
    if two:  # the cards not dealt form the general store on the grey junk
        state["store"] = {g: left[g] for g in GOODS}


def _lay_start_strips(state: dict, two: bool) -> None:
    if two:  # player 1 of the fan table is the start player
        p1, p2 = state["start"], 1 - state["start"]
        for junk, (n1, n2) in TWO_PLAYER["start_strips"].items():
            for seat in [p1] * n1 + [p2] * n2:
                _place(state, junk, seat)
        return
    for junk, colours in SETUP["start_strips"][str(state["players"])].items():
        for colour in colours:
            _place(state, junk, state["colours"].index(colour))


def _place(state: dict, junk: str, owner: int) -> None:
    load_strip(state["junks"][junk]["layers"], owner)
    state["seats"][owner]["strips"] -= 1


# -- the set-up variant ------------------------------------------------------------------

def strips_passed(state: dict) -> int:
    """Strips each player hands on in the set-up variant (3; 5 in the 2-player variant)."""
    if state["options"]["two_player_variant"]:
        return TWO_PLAYER["variant_strips_passed"]
    return SETUP["setup_variant"]["strips_passed"]


def strip_owner(state: dict, seat: int) -> int:
    """Whose strips `seat` places in the set-up variant: its right-hand neighbour's."""
    return (seat - 1) % state["players"]


def placeable_junks(state: dict, owner: int) -> list[str]:
    """Junks that may take one more set-up strip of `owner`."""
    cap = SETUP["setup_variant"]["max_strips_per_junk"]
    own_cap = TWO_PLAYER["variant_max_own_per_junk"] if state["options"]["two_player_variant"] \
        else cap
    return [j for j in JUNKS if strip_count(state["junks"][j]["layers"]) < cap
            and strips_of(state["junks"][j]["layers"], owner) < own_cap]


def free_merchant_junks(state: dict) -> list[str]:
    """Junks without a merchant on them."""
    taken = {m["junk"] for m in state["merchants"].values()}
    return [j for j in JUNKS if j not in taken]


def merchant_candidates(state: dict, seat: int) -> list[dict]:
    """Set-up variant: the next merchant goes on a junk without one."""
    return [{"type": "place_merchant", "junk": j} for j in free_merchant_junks(state)]


def check_place_merchant(state: dict, seat: int, move: dict) -> None:
    """A merchant goes on a junk without one."""
    if move["junk"] not in free_merchant_junks(state):
        raise rule_error("place_merchant", f"junk {move['junk']} already has a merchant")


def place_merchant(state: dict, seat: int, move: dict) -> None:
    """The start player puts the next face-down merchant (unknown to all) on a free junk."""
    placed = sum(1 for m in state["merchants"].values() if m["junk"] is not None)
    state["merchants"][state["hidden_merchants"][placed]]["junk"] = move["junk"]
    if placed + 1 == len(MERCHANTS):
        state["stage"] = {"kind": "place_strip", "i": 0,
                          "held": [strips_passed(state)] * state["players"]}


def strip_candidates(state: dict, seat: int) -> list[dict]:
    """Set-up variant: the junks with room for one more strip of the owner's colour."""
    return [{"type": "place_strip", "junk": j}
            for j in placeable_junks(state, strip_owner(state, seat))]


def check_place_strip(state: dict, seat: int, move: dict) -> None:
    """The junk must take one more set-up strip of the owner's colour."""
    owner, junk = strip_owner(state, seat), move["junk"]
    if junk not in placeable_junks(state, owner):
        raise rule_error("place_strip", f"junk {junk} cannot take another set-up strip of "
                         f"seat {owner} (it holds "
                         f"{strip_count(state['junks'][junk]['layers'])} strips)")


def place_strip(state: dict, seat: int, move: dict) -> None:
    """Place one held strip; after the last one the merchants are revealed and round 1 starts."""
    stage = state["stage"]
    _place(state, move["junk"], strip_owner(state, seat))
    stage["held"][seat] -= 1
    stage["i"] += 1
    if any(stage["held"]):
        return
    chances.reveal_merchants(state["merchants"], state["hidden_merchants"])
    state["hidden_merchants"] = None
    flow.start_round(state)
