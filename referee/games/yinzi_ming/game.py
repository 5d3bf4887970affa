"""Yinzi: Ming declared into the game kit: decision kinds, their rules, the decision cursor."""

from __future__ import annotations

from referee.core.game import alike_but_you, named_view_schema
from referee.core.kit import DecisionKind, KitGame
from referee.games.yinzi_ming import (board, bonus, commands, common, described, directives,
                                      scoring, setup, state, trade, views)
from referee.games.yinzi_ming.prompts import PROMPTS
from referee.games.yinzi_ming.spec import SPEC
from referee.games.yinzi_ming.notation import NOTATION, SCHEMA

RULES = {**bonus.RULES, **directives.RULES, **commands.RULES, **trade.RULES, **common.RULES}
"""Every move type's Rule (candidates and the handler that checks and plays it)."""

_TURN_MOVES = ("exchange", "mint", "benefit", "overseer", "done")
_EXCHANGES = ("exchange", "mint")
COMMAND_MOVES = {
    "transport": ("advance",), "deploy": ("deploy", "deploy_tile"), "sell": ("sell",),
    "build": ("build", "upgrade"), "corrupt": ("corrupt",),
}
"""Which moves each Command action space gives (the five actions of the fragment)."""
TRADE_MOVES = ("produce", "ship", "quarry")


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


def _kind(name: str, types: tuple[str, ...]) -> DecisionKind:
    return DecisionKind(name, tuple(RULES[t] for t in types))


class YinziMing(KitGame):
    """Yinzi: Ming on the game kit; the state is a plain dict (see `setup.setup`)."""

    spec = SPEC
    external_chance = True  # every die roll and card drawn goes through referee.core.chance
    prompt_schemas = PROMPTS
    decisions = (
        _kind("start_peasants", ("place_start",)),
        _kind("merchant", ("merchant",) + _EXCHANGES),
        _kind("crop_tile", ("buy_tile", "decline") + _EXCHANGES),
        _kind("directive", ("command", "trade")),
        _kind("trade", TRADE_MOVES + _TURN_MOVES),
        *(_kind(f"command:{a}", moves + _TURN_MOVES) for a, moves in COMMAND_MOVES.items()),
        _kind("regulation", ("exchange", "mint", "benefit", "done")),
    )
    state_schema = SCHEMA
    notation = NOTATION

    def setup(self, players, options, seed):
        """Seating, resources, decks, and the reverse-order starting placements pending."""
        return setup.setup(players, options, seed)

    def awaiting(self, s):
        """The active seat's single decision, with the move types open now; () once over."""
        found = decision_of(s)
        return () if found is None else ((s["active"], *found),)

    def prompt(self, s, seat, kind):
        """Where the decision stands: the Directive's allowance, the tile on offer, the tax."""
        return _prompt(s)

    def check_state(self, s):
        """Cursor, board and seats consistent; every piece, tile and card accounted for."""
        state.check(s, SPEC)

    def view(self, s, seat):
        """Everything but deck orders and the seed (future rolls)."""
        return views.view(s, seat)

    def served_view(self, s, seat, memo=None):
        """`view` without its copy, for a caller that only serialises it: built once per
        state into `memo` and shared by its viewers (everything but deck orders is open, so
        a seat's view is the spectator's with its own "you")."""
        return alike_but_you(memo, seat, lambda viewer: views.served_view(s, viewer))

    def view_schema(self, spectator=False):
        """The JSON Schema of a seat's (or the spectator's) view, every property described."""
        return _VIEW_SCHEMAS[bool(spectator)]

    def board(self):
        """The seeds tables (tags kept), Bonus slot and Administration space texts."""
        return described.board()

    def outcome(self, s):
        """Final VP and ranks (ties: Sapeques, then earlier turn order)."""
        return scoring.outcome(s)

    def standing(self, s):
        """The final scoring applied to the position now (adjudicates a match stopped at its
        move cap)."""
        return [scoring.breakdown(s, seat)["total"] for seat in range(s["players"])]

    def redetermine(self, s, seat, rng):
        """Every deck reshuffled and future rolls re-seeded; nothing else is hidden (nothing at
        all with external chance)."""
        return views.redetermine(s, seat, rng)


GAME = YinziMing()


_VIEW_SCHEMAS = {spectator: named_view_schema("yinzi-ming", described.view_schema(spectator))
                 for spectator in (False, True)}
"""Built once, `game` named first (the views name their game)."""
