"""Dschunke game knowledge for the heuristic bot: cargo visibility, a position value, the
worth of each action and special card, and a sealed goods-poker bid.

Everything here reads the wire view only (`request["view"]`); nothing imports the referee.
The board facts below are the published rules (the five junks in clockwise ring order, three
strips a layer, three crates a strip); the rest is estimates that were tuned by play.

Why one module: an example a bot author copies whole beside `dschunke_bot.py`: the game
knowledge of one heuristic bot, each function a few lines, read top to bottom as the bot weighs
a turn (position, actions, cards, poker).
"""

from __future__ import annotations

import math

RING = ("grey", "orange", "lilac", "brown", "white")
"""The junks clockwise: merchants move one junk on along this ring each round."""
GOODS = ("white", "brown", "lilac", "orange")
"""The goods colours, in the order the sealed bid is laid."""
ANY_JUNK = "grey"
LAYER, CRATES, ROUNDS = 3, 3, 10
SHIP_BONUS, ALL_SHIPS_BONUS = 4, 25
S_VALUE, LAST_S_VALUE = 4.0, 3.0
"""What a won S is worth: a special card (about 4 yuan), and 3 yuan in round 10."""
INCOMING_PER_ROUND = 1.0
"""Strips the other players lay on one junk per round, on average: the threat of cover."""
DENIAL = 0.35
"""How much an opponent's loss counts against our gain (there are 2-3 of them)."""


# -- cargo --------------------------------------------------------------------------------------

def visible(layers: list, seat: int) -> int:
    """Visible crates of `seat`: 3 per top-layer strip, 3 - k per strip of the layer below."""
    if not layers:
        return 0
    top = layers[-1]
    count = CRATES * top.count(seat)
    if len(layers) > 1:
        count += (CRATES - len(top)) * layers[-2].count(seat)
    return count


def loaded(layers: list, seat: int, strips: int) -> list:
    """The layers after `seat` lays `strips` strips (a new crosswise layer when one is full)."""
    out = [list(layer) for layer in layers]
    for _ in range(strips):
        if not out or len(out[-1]) >= LAYER:
            out.append([seat])
        else:
            out[-1].append(seat)
    return out


def cover_margin(layers: list, seat: int) -> int:
    """How many more strips others must lay before every crate of `seat` here is hidden."""
    if not layers:
        return 0
    k = len(layers[-1])
    if seat in layers[-1]:
        return (LAYER - k) + LAYER
    if len(layers) > 1 and seat in layers[-2] and k < LAYER:
        return LAYER - k
    return 0


# -- position -----------------------------------------------------------------------------------

def rounds_left(view: dict) -> int:
    """Whole rounds still to come after this one."""
    return ROUNDS - view["round"]


def ship_value(junks: dict, seat: int, left: int) -> float:
    """The expected end-of-game ship bonus: each junk's crates survive with some chance."""
    keep = []
    for junk in RING:
        layers = junks[junk]
        if visible(layers, seat) == 0:
            keep.append(0.0)
            continue
        threat = INCOMING_PER_ROUND * left
        keep.append(1.0 if threat <= 0 else min(1.0, (cover_margin(layers, seat) + 0.5) / threat))
    together = math.prod(keep)
    return SHIP_BONUS * sum(keep) + (ALL_SHIPS_BONUS - SHIP_BONUS * len(RING)) * together


def merchant_weights(view: dict) -> tuple[dict, dict]:
    """How often the sell and the take merchant will stand on each junk in later rounds."""
    sell, take = dict.fromkeys(RING, 0.0), dict.fromkeys(RING, 0.0)
    merchants = view["merchants"]
    if "face_down" in merchants:
        return sell, take
    for info in merchants.values():
        kind, junk = info["action"]["kind"], info["junk"]
        if kind not in ("sell", "take") or junk not in RING:
            continue
        weights = sell if kind == "sell" else take
        for ahead in range(1, rounds_left(view) + 1):
            # a merchant is one of ~5 options per round, so we get it about half the time
            weights[RING[(RING.index(junk) + ahead) % len(RING)]] += 0.5
    return sell, take


def position(view: dict, junks: dict, seat: int, card_worth: float) -> float:
    """What the cargo is worth to `seat`: the ship bonus plus extra sell/take income."""
    left = rounds_left(view)
    sell, take = merchant_weights(view)
    income = sum((sell[j] + card_worth * take[j]) * max(0, visible(junks[j], seat) - CRATES)
                 for j in RING)
    return ship_value(junks, seat, left) + 0.6 * income + bonus_value(view, junks, seat)


def bonus_value(view: dict, junks: dict, seat: int) -> float:
    """Our end-game bonus cards (others' are hidden): 8 yuan each for the most crates there."""
    if seat != view["you"]:
        return 0.0
    total = 0.0
    for record in view["seats"][seat]["hidden_cards"]:
        kind = record.get("card") or ""
        if kind.startswith("bonus_"):
            total += 8.0 * majority_chance(junks[kind[len("bonus_"):]], seat, view["players"])
    return total


def majority_chance(layers: list, seat: int, players: int) -> float:
    """A rough chance of ending with strictly the most visible crates on a junk."""
    counts = [visible(layers, s) for s in range(players)]
    mine, most = counts[seat], max(c for s, c in enumerate(counts) if s != seat)
    return 0.7 if mine > most else 0.35 if mine == most and mine else 0.15


def board(view: dict) -> dict:
    """The junks' layers, by junk."""
    return {j: view["junks"][j]["layers"] for j in RING}


def position_gain(view: dict, before: dict, after: dict) -> float:
    """Our position's gain from `before` to `after`, less a share of the opponents' gains."""
    me = view["you"]
    gain = 0.0
    for seat in range(view["players"]):
        delta = position(view, after, seat, 0.5) - position(view, before, seat, 0.5)
        gain += delta if seat == me else -DENIAL * delta
    return gain


# -- goods --------------------------------------------------------------------------------------

def my_hand(view: dict) -> dict:
    """Our goods cards now (staked cards included while a bid is being laid)."""
    hand = dict(view["seats"][view["you"]]["hand"])
    stake = (view.get("poker") or {}).get("my_stake") or {}
    for goods, count in stake.items():
        hand[goods] = hand.get(goods, 0) + count
    return hand


def card_worth(hand_size: int) -> float:
    """A goods card in yuan: precious when the hand is thin, little when it is fat."""
    if hand_size < 4:
        return 1.0
    if hand_size < 8:
        return 0.75
    if hand_size < 12:
        return 0.5
    return 0.3


def goods_available(view: dict) -> int:
    """Goods cards left on the junks (only known outside phases 3-4; else assume plenty)."""
    total = 0
    for junk in RING:
        pile = view["junks"][junk]["goods"]
        if pile is None:
            return 99
        total += sum(pile.values())
    return total


# -- goods poker --------------------------------------------------------------------------------

def colour_value(view: dict, goods: str) -> float:
    """What winning `goods` alone pays this round (an S as a card, or 3 yuan in round 10)."""
    value = view["market"]["card"][goods]
    if value == "S":
        return LAST_S_VALUE if view["round"] >= ROUNDS else S_VALUE
    return float(value)


def _opponent_at_least(hand_size: int, rank: int, n: int, rate: float) -> float:
    """Chance one opponent lays a valid bid of `n` or more in the colour ranked `rank` (0 =
    the richest open colour): most bid the richest colour, with a handful of cards."""
    if hand_size <= 0:
        return 0.0
    choose = rate * (0.6, 0.25, 0.1, 0.05)[min(rank, 3)]
    most = max(1, math.ceil(hand_size / 3))
    return choose * max(0.0, (most - n + 1) / most)


def bid_odds(view: dict, goods: str, n: int, open_colours: list, rates: dict) -> float:
    """Our expected share of `goods`'s prize with a bid of `n`: win outright or tie."""
    me = view["you"]
    ranked = sorted(open_colours, key=lambda g: -colour_value(view, g))
    rank = ranked.index(goods)
    mine_tb = "tie_breaker" in view["seats"][me]["open_cards"]
    below, upto = 1.0, 1.0  # chance every opponent bids fewer than n; at most n
    theirs_tb = False
    for seat, info in enumerate(view["seats"]):
        if seat == me:
            continue
        rate = rates.get(seat, 0.5)
        below *= 1 - _opponent_at_least(info["hand_size"], rank, n, rate)
        upto *= 1 - _opponent_at_least(info["hand_size"], rank, n + 1, rate)
        theirs_tb = theirs_tb or "tie_breaker" in info["open_cards"]
    tie = max(0.0, upto - below)
    value = colour_value(view, goods)
    if mine_tb:
        return value * upto
    tie_share = 0.0 if theirs_tb or view["market"]["card"][goods] == "S" else \
        math.floor(value / 2)
    return value * below + tie_share * tie


def plan_bid(view: dict, rates: dict | None = None) -> tuple[str | None, int]:
    """The one colour and count to lay this bidding round, or (None, 0) to lay nothing.

    Deterministic from what stays fixed while the sealed bid is laid, so the four `bid` moves
    agree with each other. Cards go back to the junks win or lose, so each costs its worth;
    in round 10 cards are worth nothing after the poker (only the tie-break), so bid them all.
    """
    poker = view.get("poker") or {}
    open_colours = poker.get("open") or []
    hand = my_hand(view)
    size = sum(hand.values())
    last = view["round"] >= ROUNDS
    worth = 0.05 if last else card_worth(size - 1)
    best, choice = 0.0, (None, 0)
    for goods in open_colours:
        for n in range(1, hand.get(goods, 0) + 1):
            gain = bid_odds(view, goods, n, open_colours, rates or {}) - n * worth
            if gain > best + 1e-9:
                best, choice = gain, (goods, n)
    return choice


def poker_prospect(view: dict, hand: dict) -> float:
    """How much this hand can win in this round's poker, colour by colour (used to pick goods)."""
    open_colours = (view.get("poker") or {}).get("open") or \
        [g for g in GOODS if g not in view["market"]["settled"]]
    worth = card_worth(sum(hand.values()))
    total = 0.0
    for goods in open_colours:
        total += max([0.0] + [bid_odds(view, goods, n, open_colours, {}) - n * worth * 0.5
                              for n in range(1, hand.get(goods, 0) + 1)])
    return total


def best_goods(view: dict, options: list[str]) -> str:
    """The colour to take next: the one that adds most to this round's poker, else the scarcest
    in hand (the next market card is unknown, so a spread hand is ready for any)."""
    hand = my_hand(view)

    def score(goods):
        more = dict(hand, **{goods: hand.get(goods, 0) + 1})
        return (round(poker_prospect(view, more), 6), -hand.get(goods, 0))

    return max(options, key=score)


# -- special cards ------------------------------------------------------------------------------

def card_value(view: dict, kind: str, later: bool) -> float:
    """What a special card is worth to us, in yuan (`later`: usable from next round on)."""
    me = view["you"]
    junks = board(view)
    left = rounds_left(view) + (0 if later else 1)
    hand = sum(my_hand(view).values())
    if kind == "resupply":
        return left * card_worth(hand)
    if kind.startswith("extra_sell_"):
        return max(CRATES, visible(junks[kind[len("extra_sell_"):]], me)) if left else 0.0
    if kind.startswith("extra_take_"):
        return max(CRATES, visible(junks[kind[len("extra_take_"):]], me)) * card_worth(hand) \
            if left else 0.0
    if kind.startswith("bonus_"):
        return 8.0 * majority_chance(junks[kind[len("bonus_"):]], me, view["players"])
    if kind == "tie_breaker":
        return 0.3 * left
    if kind == "move_strip":
        return 3.0 if left else 0.0
    if kind == "trade_goods":
        return 1.0 if left else 0.0
    return 0.0


def stack_worth(view: dict, stack: dict, later: bool) -> float:
    """How good a stack looks: its best card if we have seen it, else an average card."""
    if not stack["size"]:
        return -1.0
    seen = (stack.get("cards") or (stack.get("seen") or {}).get("cards"))
    if seen:
        return max(card_value(view, k, later) for k in seen)
    return 3.5 + 0.01 * stack["size"]
