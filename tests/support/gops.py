"""A small test game that exercises the whole contract: the Game of Pure Strategy.

Not shipped. Each round a prize card is revealed from a shuffled deck (hidden order); every
seat bids one card from its hand at once (sealed); the sole highest bid wins the prize (ties:
option `ties`), and then the winner decides, on a turn of its own, to keep the prize or give it
to another seat. Scores are the prizes held.
"""

from __future__ import annotations

from referee.core import (Decision, Game, GameSpec, IllegalMove, InvalidOptions, InvalidState,
                          MoveKind, OptionSpec, Outcome, Rng, ranks_from_keys)
from referee.core.copying import deep_copy

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


class Gops(Game):
    """The test game; state is a plain dict."""

    spec = SPEC

    def check_setup(self, players, options):
        """Three-seat games need at least 3 cards (a test of cross-checks)."""
        super().check_setup(players, options)
        if players > options["cards"]:
            raise InvalidOptions(f"{players} players need at least {players} cards",
                                 option="cards")

    def setup(self, players, options, seed):
        """Hands 1..cards, a shuffled prize deck, the first prize turned up."""
        n = options["cards"]
        deck = Rng(seed, "deck").shuffled(range(1, n + 1))
        return {"players": players, "options": options, "seed": seed,
                "hands": [list(range(1, n + 1)) for _ in range(players)],
                "deck": deck[1:], "prize": [deck[0]], "bids": [None] * players,
                "winner": None, "scores": [0] * players, "last": None}

    def pending(self, state):
        """Sealed bids from those who have not bid, or the winner's keep-or-give turn."""
        if state["winner"] is not None:
            return (Decision(state["winner"], "award", ("keep", "give"),
                             prompt={"prize": sum(state["prize"])}),)
        bidding = any(b is not None for b in state["bids"])
        if not state["prize"] or (not state["hands"][0] and not bidding):
            return ()
        return tuple(Decision(s, "bid", ("bid",), sealed=True)
                     for s, b in enumerate(state["bids"]) if b is None)

    def legal_moves(self, state, seat):
        """Bids of each card in hand, or keep / give to each other seat."""
        if not any(d.seat == seat for d in self.pending(state)):
            return []
        if state["winner"] == seat:
            return [{"type": "keep"}] + [{"type": "give", "to": s}
                                         for s in range(state["players"]) if s != seat]
        return [{"type": "bid", "card": c} for c in state["hands"][seat]]

    def apply(self, state, seat, move):
        """Record a bid (resolving when all are in) or settle the award."""
        s = deep_copy(state)
        if move["type"] == "bid":
            return self._bid(s, seat, move["card"])
        if move["type"] == "give":
            if move["to"] == seat or move["to"] >= s["players"]:
                raise IllegalMove("give.target", f"rule 'give': seat {move['to']} is not "
                                  f"another seat of this {s['players']}-seat game")
            s["scores"][move["to"]] += sum(s["prize"])
        else:
            s["scores"][seat] += sum(s["prize"])
        s["winner"], s["prize"] = None, []
        return self._next_prize(s)

    def _bid(self, s, seat, card):
        if card not in s["hands"][seat]:
            raise IllegalMove("bid.not_in_hand", f"rule 'bid': card {card} is not in your "
                              f"hand {s['hands'][seat]}")
        s["hands"][seat].remove(card)
        s["bids"][seat] = card
        if None in s["bids"]:
            return s
        top = max(s["bids"])
        tops = [i for i, b in enumerate(s["bids"]) if b == top]
        s["last"], s["bids"] = list(s["bids"]), [None] * s["players"]
        if len(tops) == 1:
            s["winner"] = tops[0]
            return s
        if s["options"]["ties"] == "discard":
            s["prize"] = []
        return self._next_prize(s)

    def _next_prize(self, s):
        if s["deck"] and s["hands"][0]:
            s["prize"].append(s["deck"].pop(0))
        return s

    def view(self, state, seat):
        """Everything but the deck order and others' sealed bids (their bid stays in their hand)."""
        hands = [sorted(h + ([b] if b is not None and s != seat else []))
                 for s, (h, b) in enumerate(zip(state["hands"], state["bids"]))]
        return {"hands": hands, "prize": state["prize"], "deck_size": len(state["deck"]),
                "bids_in": [b is not None for b in state["bids"]],
                "my_bid": state["bids"][seat] if seat is not None else None,
                "last_bids": state["last"], "winner": state["winner"],
                "scores": state["scores"]}

    def outcome(self, state):
        """Scores are prizes won; higher ranks better."""
        if self.pending(state):
            return None
        return Outcome(tuple(state["scores"]), ranks_from_keys(state["scores"]))

    def to_dict(self, state):
        """The state is already plain data."""
        return deep_copy(state)

    def from_dict(self, data):
        """Check the keys and sizes, then take a copy."""
        required = {"players", "options", "seed", "hands", "deck", "prize", "bids", "winner",
                    "scores", "last"}
        if not isinstance(data, dict) or set(data) != required:
            raise InvalidState(f"a gops state has exactly the keys {sorted(required)}")
        if len(data["hands"]) != data["players"] or len(data["bids"]) != data["players"]:
            raise InvalidState("hands and bids need one entry per player")
        return deep_copy(data)

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

    def redact_move(self, move, seat, viewer):
        """Bids are sealed anyway; nothing else is secret."""
        return move


GAME = Gops()
