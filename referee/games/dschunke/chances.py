"""Dschunke's random events, each one call into `referee.core.chance` (issue 16).

In internal chance every event returns what the seeded shuffles of the set-up give, exactly
as before; in external chance the outcome is supplied by the chance seat. The events:

- `start_player`: a seat, equal odds, public.
- `goods_hand`: a seat's dealt hand as counts per goods type (multivariate hypergeometric odds
  over the undealt pool), seen by that seat only. With 3-4 players the last hand is forced.
- `special_card`: the next card dealt face down into a special-card stack (odds by copies
  left), seen by nobody until a seat looks through the stack.
- `market_card`: the market card turned over at the start of a round, public; the outcome is
  the card's id, what is printed on it (`data.market_id`: "W1B2LSO4", white 1, brown 2,
  lilac S, orange 4), since rules version 3 (before: its index in the market table).
- `merchants`: set-up variant, which face-down merchant stands on which junk, public when they
  are turned face up (nobody knew before, so the draw waits until then).

An event with a single possible outcome (the last market card, the last special cards of one
kind, the last hand) is not asked, in either mode.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from itertools import permutations
from math import comb

from referee.core import chance
from referee.games.dschunke.data import GOODS, MERCHANT_ORDER, market_id


def start_player(players: int, internal) -> int:
    """The start player: `internal()` (the seeded pick) or the supplied seat."""
    return chance.draw("start_player", range(players), internal,
                       prompt={"what": "the start player, who gets the junk marker"})


def next_card(deck: list, kind: str, owner=None, prompt: dict | None = None):
    """The top card of a pre-shuffled deck (today's `deck.pop(0)`), asked unless forced."""
    if deck.count(deck[0]) == len(deck):  # one kind left
        return deck.pop(0)
    return chance.take(deck, kind, owner=owner, prompt=prompt)


def market_card(deck: list, round_: int) -> int:
    """The top market card of the pre-shuffled `deck` (taken from it), asked by its id
    unless it is the last; the card's index in the market table."""
    if len(deck) == 1:
        return deck.pop(0)
    drawn = chance.draw("market_card", lambda: [market_id(card) for card in deck],
                        lambda: market_id(deck[0]), prompt={"round": round_})
    card = next(card for card in deck if market_id(card) == drawn)
    deck.remove(card)
    return card


def deal_hand(left: Counter, size: int, seat: int, internal) -> dict:
    """Deal `size` goods cards from the pool counts `left` (changed) to `seat`: its counts."""
    if sum(left.values()) == size:  # the last hand is what is left: forced
        hand = counts(left.elements())
    else:
        pool = tuple(left[g] for g in GOODS)
        hand = chance.draw("goods_hand", lambda: hand_law(pool, size)[0], internal, owner=seat,
                           weights=_Later(lambda: hand_law(pool, size)[1]),
                           prompt={"seat": seat, "cards": size})
    left.subtract(hand)
    return dict(hand)


class _Later(Sequence):
    """A sequence built on first use: internal chance without tracing never needs the odds."""

    def __init__(self, build):
        self._build, self._items = build, None

    def _get(self) -> list:
        if self._items is None:
            self._items = self._build()
        return self._items

    def __len__(self) -> int:
        return len(self._get())

    def __getitem__(self, index):
        return self._get()[index]


def counts(cards) -> dict:
    """Goods cards as counts per type, every type named (the shape of a hand)."""
    found = Counter(cards)
    return {g: found[g] for g in GOODS}


@lru_cache(maxsize=256)
def hand_law(pool: tuple, size: int) -> tuple[list, list]:
    """Every hand of `size` cards from a pool with these counts per type, and its weight.

    The weight of a hand (k_g) is prod C(K_g, k_g): the number of ways to draw it, so the
    probabilities are the multivariate hypergeometric ones. Outcomes are read-only (cached).
    """
    outcomes, weights = [], []
    for hand in _compositions(size, len(pool)):
        weight = 1
        for have, take in zip(pool, hand):
            weight *= comb(have, take)
        if weight:
            outcomes.append(dict(zip(GOODS, hand)))
            weights.append(weight)
    return outcomes, weights


def _compositions(total: int, parts: int):
    """Every tuple of `parts` naturals adding up to `total`, in lexicographic order."""
    if parts == 1:
        yield (total,)
        return
    for first in range(total + 1):
        for rest in _compositions(total - first, parts - 1):
            yield (first, *rest)


def reveal_merchants(merchants: dict, order: list) -> None:
    """Set-up variant: the face-down merchants are turned up; which one stood on which junk.

    `order` is the placement order of the face-down merchants (in external chance a mere
    placeholder: nobody knew them); the outcome maps each occupied junk to its merchant.
    """
    junks = [merchants[m]["junk"] for m in order]
    shown = chance.draw("merchants",
                        lambda: [dict(zip(junks, p)) for p in permutations(MERCHANT_ORDER)],
                        lambda: dict(zip(junks, order)),
                        prompt={"junks": junks, "what": "the merchant on each junk"})
    for junk, merchant in shown.items():
        merchants[merchant]["junk"] = junk
