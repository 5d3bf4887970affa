"""A small test game that exercises the whole contract: the Game of Pure Strategy.

Not shipped. Each round a prize card is revealed from a shuffled deck (hidden order); every
seat bids one card from its hand at once (sealed); the sole highest bid wins the prize (ties:
option `ties`), and then the winner decides, on a turn of its own, to keep the prize or give it
to another seat. Scores are the prizes held.

It plays external chance too (`referee.core.chance`): turning up a prize is a chance event,
face up (owner None); in external chance the prize deck is the sorted set of cards left.
"""

from __future__ import annotations

from referee.core import chance
from referee.core import (GameSpec, InvalidOptions, MoveKind, OptionSpec, Outcome, Rng,
                          ranks_from_keys)
from referee.core.copying import deep_copy
from referee.core.kit import DecisionKind, KitGame, Rule, no_check, one, rule_error
from referee.core.statecheck import enum, integer, list_of, nat, nullable, record, state_error

SPEC = GameSpec(
    name="gops", title="Game of Pure Strategy (test game)", min_players=2, max_players=4,
    rules_version="1",
    options=(
        OptionSpec("cards", "int", 4, "cards per hand and in the prize deck", minimum=2, maximum=8),
        OptionSpec("ties", "choice", "discard", "what a tied top bid does with the prize",
                   choices=("discard", "carry")),
    ),
    moves=(
        MoveKind("bid", "bid one card from your hand", {"card": {"type": "integer"}},
                 ("card",), {"type": "bid", "card": 3}),
        MoveKind("keep", "keep the prize you won"),
        MoveKind("give", "give the prize you won to another seat",
                 {"to": {"type": "integer", "minimum": 0}}, ("to",), {"type": "give", "to": 1}),
    ),
    hidden=("the order of the prize deck", "sealed bids until all are in"),
)


_CARD = integer(1, 8)
STATE = record(
    players=integer(2, 4), options=record(cards=integer(2, 8), ties=enum("discard", "carry")),
    seed={"type": "integer"}, hands=list_of(list_of(_CARD)), deck=list_of(_CARD),
    prize=list_of(_CARD), bids=list_of(nullable(_CARD)), winner=nullable(nat(3)),
    scores=list_of(nat()), last=nullable(list_of(_CARD)),
)
"""The shape of a stored gops state; `Gops.check_state` adds one entry per player."""


def _bids(s, seat):
    return [{"type": "bid", "card": c} for c in s["hands"][seat]]


def _check_bid(s, seat, move):
    if move["card"] not in s["hands"][seat]:
        raise rule_error("bid.not_in_hand", f"card {move['card']} is not in your "
                         f"hand {s['hands'][seat]}")


def _play_bid(s, seat, move):
    s["hands"][seat].remove(move["card"])
    s["bids"][seat] = move["card"]


def _gifts(s, seat):
    return [{"type": "give", "to": other} for other in range(s["players"]) if other != seat]


def _check_give(s, seat, move):
    if move["to"] == seat or move["to"] >= s["players"]:
        raise rule_error("give.target", f"seat {move['to']} is not another seat of this "
                         f"{s['players']}-seat game")


def _award(s, to):
    s["scores"][to] += sum(s["prize"])
    s["winner"], s["prize"] = None, []
    _next_prize(s)


def _next_prize(s):
    if s["deck"] and s["hands"][0]:
        s["prize"].append(chance.take(s["deck"], "prize"))


class Gops(KitGame):
    """The test game on the game kit; state is a plain dict."""

    spec = SPEC
    external_chance = True
    decisions = (
        DecisionKind("bid", (Rule("bid", _check_bid, _play_bid, _bids),), sealed=True),
        DecisionKind("award", (
            Rule("keep", no_check, lambda s, seat, m: _award(s, seat), one("keep")),
            Rule("give", _check_give, lambda s, seat, m: _award(s, m["to"]), _gifts))),
    )
    state_schema = STATE

    def check_setup(self, players, options):
        """Three-seat games need at least 3 cards (a test of cross-checks)."""
        super().check_setup(players, options)
        if players > options["cards"]:
            raise InvalidOptions(f"{players} players need at least {players} cards",
                                 option="cards")

    def setup(self, players, options, seed):
        """Hands 1..cards, a shuffled prize deck, the first prize turned up."""
        cards = range(1, options["cards"] + 1)
        deck = chance.shuffled(cards, lambda: Rng(seed, "deck").shuffled(cards))
        prize = [chance.take(deck, "prize")]
        return {"players": players, "options": options, "seed": seed,
                "hands": [list(cards) for _ in range(players)],
                "deck": deck, "prize": prize, "bids": [None] * players,
                "winner": None, "scores": [0] * players, "last": None}

    def awaiting(self, state):
        """Sealed bids from those who have not bid, or the winner's keep-or-give award."""
        if state["winner"] is not None:
            return ((state["winner"], "award"),)
        bidding = any(b is not None for b in state["bids"])
        if not state["prize"] or (not state["hands"][0] and not bidding):
            return ()
        return tuple((s, "bid") for s, b in enumerate(state["bids"]) if b is None)

    def prompt(self, state, seat, kind):
        """The award names the prize at stake."""
        return {"prize": sum(state["prize"])} if kind == "award" else {}

    def settle(self, s):
        """Once every bid is in: the sole top bid wins the prize, a tie discards or carries it."""
        if None in s["bids"]:
            return
        top = max(s["bids"])
        tops = [i for i, b in enumerate(s["bids"]) if b == top]
        s["last"], s["bids"] = list(s["bids"]), [None] * s["players"]
        if len(tops) == 1:
            s["winner"] = tops[0]
            return
        if s["options"]["ties"] == "discard":
            s["prize"] = []
        _next_prize(s)

    def check_state(self, state):
        """One hand, bid and score per player; the winner is a seat."""
        for key in ("hands", "bids", "scores"):
            if len(state[key]) != state["players"]:
                raise state_error(f"$.{key}", f"needs one entry per player "
                                  f"({state['players']}), has {len(state[key])}")
        if state["winner"] is not None and state["winner"] >= state["players"]:
            raise state_error("$.winner", f"seat {state['winner']} is not at this table")

    def view(self, state, seat):
        """Everything but the deck order and others' sealed bids (their bid stays in their hand)."""
        hands = [sorted(h + ([b] if b is not None and s != seat else []))
                 for s, (h, b) in enumerate(zip(state["hands"], state["bids"]))]
        return {"game": self.spec.name, "hands": hands, "prize": state["prize"], "deck_size": len(state["deck"]),
                "bids_in": [b is not None for b in state["bids"]],
                "my_bid": state["bids"][seat] if seat is not None else None,
                "last_bids": state["last"], "winner": state["winner"],
                "scores": state["scores"]}

    def outcome(self, state):
        """Scores are prizes won; higher ranks better."""
        if self.pending(state):
            return None
        return Outcome(tuple(state["scores"]), ranks_from_keys(state["scores"]))

    def standing(self, state):
        """Prizes won so far (adjudicates a match stopped at its move cap)."""
        return list(state["scores"])

    def redetermine(self, state, seat, rng):
        """Reshuffle the deck; re-pick other seats' sealed bids from their hands."""
        s = deep_copy(state)
        s["deck"] = rng.shuffled(s["deck"])
        for other, bid in enumerate(s["bids"]):
            if other != seat and bid is not None:
                pool = s["hands"][other] + [bid]
                new = rng.choice(pool)
                s["hands"][other] = sorted(c for c in pool if c != new)
                s["bids"][other] = new
        return s

    def public_move(self, state, seat, move):
        """Bids are sealed anyway; nothing else is secret."""
        return move


GAME = Gops()
