"""docs/checking.md's table of chance events lists exactly the events the engines ask (issue 40:
"Every chance event's outcome is documented and names the thing drawn")."""

from __future__ import annotations

import re

from referee.conformance import playable_setups
from referee.core import engine
from referee.core.chance import CHANCE, EXTERNAL
from referee.core.rng import Rng
from referee.games import GAMES
from tests.support.docs import page

README = page("checking")   # docs/checking.md holds the chance section
ROW = re.compile(r"^\| `([a-z-]+)` \| `([a-z_]+)` \| (.+?) \| (.+?) \|$", re.M)


def _documented() -> set[tuple[str, str]]:
    return {(game, event) for game, event, _, _ in ROW.findall(README)}


def _asked(game) -> dict[str, object]:
    """Every chance event of external-chance playouts over each playable set-up (seed 0,
    moves at random), with the first outcome listed for it."""
    seen: dict[str, object] = {}
    for players, options in playable_setups(game):
        _, state = engine.start(game, players, options, 0, EXTERNAL)
        rng, version = Rng(1, "chance table"), 0
        while decisions := game.pending(state):
            decision = decisions[0]
            moves = game.legal_moves(state, decision.seat)
            if decision.seat == CHANCE:
                seen.setdefault(decision.kind.removeprefix("chance:"), moves[0]["outcome"])
            state, _ = engine.play(game, state, version, decision.seat, rng.choice(moves))
            version += 1
    return seen


def test_the_table_lists_exactly_the_chance_events_asked():
    """Each game's rows are its events, no more, no fewer."""
    asked = {(game.spec.name, event) for game in GAMES for event in _asked(game)}
    assert _documented() == asked


def test_a_market_card_is_named_by_what_is_printed_on_it():
    """Dschunke's market_card outcome is the card's id (rules version 3), not an index."""
    outcome = _asked(GAMES.get("dschunke"))["market_card"]
    assert re.fullmatch(r"W[1-4S]B[1-4S]L[1-4S]O[1-4S]", outcome), outcome
