"""Yinzi: Ming as a registered game: the decision cursor, legal moves and move dispatch."""

from __future__ import annotations

from referee.core import Decision, Game, IllegalMove, InvalidState
from referee.core.copying import deep_copy
from referee.games.yinzi_ming import (board, bonus, commands, common, directives, scoring,
                                      setup, state, trade, views)
from referee.games.yinzi_ming.spec import SPEC

HANDLERS = {**bonus.HANDLERS, **directives.HANDLERS, **commands.HANDLERS, **trade.HANDLERS,
            **common.HANDLERS}
CANDIDATES = {**bonus.CANDIDATES, **directives.CANDIDATES, **commands.CANDIDATES,
              **trade.CANDIDATES, **common.CANDIDATES}

_TURN_MOVES = ("exchange", "mint", "benefit", "overseer", "done")
_EXCHANGES = ("exchange", "mint")
COMMAND_MOVES = {
    "transport": ("advance",), "deploy": ("deploy", "deploy_tile"), "sell": ("sell",),
    "build": ("build", "upgrade"), "corrupt": ("corrupt",),
}
"""Which moves each Command action space gives (the five actions of the fragment)."""
TRADE_MOVES = ("produce", "ship", "quarry")
BULK = {"build"}
"""Move types whose candidates already satisfy every per-candidate check by construction, so
one dry run decides them all (Build lists up to 3 x 4 x 56 Field triples); a test compares
this shortcut with checking each candidate."""


def decision_of(s) -> tuple[str, tuple[str, ...]] | None:
    """(decision kind, accepted move types) of the active seat, or None when the game is over."""
    stage = s["stage"]
    bonus_extra = _EXCHANGES if s["options"]["exchange_in_bonus_turn"] else ()
    if stage == "place":
        return "start_peasants", ("place_start",)
    if stage == "merchant":
        return "merchant", ("merchant",) + bonus_extra
    if stage == "crop_tile":
        return "crop_tile", ("buy_tile", "decline") + bonus_extra
    if stage == "choose":
        return "directive", ("command", "trade")
    if stage == "act":
        action = s["turn"]["action"]
        if action is None:
            return "trade", TRADE_MOVES + _TURN_MOVES
        return f"command:{action}", COMMAND_MOVES[action] + _TURN_MOVES
    if stage == "step":
        return "regulation", ("exchange", "mint", "benefit", "done")
    return None


def _prompt(s) -> dict:
    turn, stage = s["turn"], s["stage"]
    if stage == "act":
        return {"card": turn["card"], "half": turn["half"], "action": turn["action"],
                "actions_left": turn["allowed"] - turn["used"],
                "transport_left": board.allowance_left(s, turn["seat"], turn)}
    if stage == "crop_tile":
        return {"slot": turn["slot"], "tile": s["register"][turn["slot"] - 1]["tile"]}
    if stage == "step":
        return {"tax_owed": scoring.tax_owed(s, turn["seat"], turn["waived"])}
    return {"round": s["round"]}


class YinziMing(Game):
    """Yinzi: Ming on the rules core; the state is a plain dict (see `setup.setup`)."""

    spec = SPEC

    def setup(self, players, options, seed):
        """Seating, resources, decks, and the reverse-order starting placements pending."""
        return setup.setup(players, options, seed)

    def pending(self, s):
        """The active seat's single decision; empty once the final scores are in."""
        found = decision_of(s)
        if found is None:
            return ()
        kind, types = found
        return (Decision(s["active"], kind, types, prompt=_prompt(s)),)

    def legal_moves(self, s, seat):
        """Every move the active seat's handlers accept, candidate by candidate."""
        found = decision_of(s)
        if found is None or seat != s["active"]:
            return []
        moves = []
        for move_type in found[1]:
            handler, candidates = HANDLERS[move_type], CANDIDATES[move_type](s, seat)
            if move_type in BULK:
                if candidates and board.accepts(handler, s, seat, candidates[0]):
                    moves += candidates
                continue
            moves += [m for m in candidates if board.accepts(handler, s, seat, m)]
        return moves

    def apply(self, s, seat, move):
        """Copy the state once, then let the move's handler check and change the copy."""
        found = decision_of(s)
        if found is None or seat != s["active"]:
            raise IllegalMove("turn", f"rule 'turn': seat {seat} has no decision pending")
        if move.get("type") not in found[1]:
            raise IllegalMove("turn", f"rule 'turn': a {move.get('type')!r} move does not "
                                      f"answer the {found[0]!r} decision")
        new = deep_copy(s)
        HANDLERS[move["type"]](new, seat, move, False)
        return new

    def view(self, s, seat):
        """Everything but deck orders and the seed (future rolls)."""
        return views.view(s, seat)

    def outcome(self, s):
        """Final VP and ranks (ties: Sapeques, then earlier turn order)."""
        return scoring.outcome(s)

    def to_dict(self, s):
        """The state is plain data already; a copy."""
        return deep_copy(s)

    def from_dict(self, d):
        """Validate (keys, ranges, every piece accounted for), then copy."""
        try:
            state.validate(d, SPEC)
        except InvalidState:
            raise
        except (KeyError, TypeError, AttributeError, ValueError, IndexError) as err:
            raise InvalidState(f"invalid yinzi-ming state: {type(err).__name__}: {err}") from err
        return deep_copy(d)

    def redetermine(self, s, seat, rng):
        """Every deck reshuffled and future rolls re-seeded; nothing else is hidden."""
        return views.redetermine(s, seat, rng)


GAME = YinziMing()
