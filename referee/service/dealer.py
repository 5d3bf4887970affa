"""Who plays the chance seat of a match with external chance: the organiser who created it.

A match created with `"chance": "external"` referees a physical table: its players' moves
come from their seat tokens, and every shuffle draw, die and set-up deal from the dealer,
who enters them as moves of the CHANCE seat with the organiser key that created the match.
Bots and the arena never play chance (the arena creates matches with internal chance only).
"""

from __future__ import annotations

from referee.core.chance import EXTERNAL
from referee.service.access import Caller, check_organiser, check_owner
from referee.service.errors import ChanceNotExternal


def check_creator(chance: str, caller: Caller | None) -> None:
    """External chance needs an organiser: the one who creates the match deals its chance."""
    if chance == EXTERNAL:
        check_organiser(caller, "create a match with external chance (the organiser who "
                                "creates it supplies its chance outcomes)")


def check_dealer(meta, caller: Caller | None) -> Caller:
    """The caller, if it may play `meta`'s chance seat; raises ChanceNotExternal, KeyMissing,
    Forbidden."""
    if meta.chance != EXTERNAL:
        raise ChanceNotExternal(f"match {meta.id} draws its chance from its seed: only a match "
                                f"created with chance external takes chance moves")
    return check_owner(caller, meta.labels.get("owner"), f"the chance seat of match {meta.id}",
                       organiser_may=False)
