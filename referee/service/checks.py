"""Checking moves without a match: the stateless check, a match record's verification, and
the steps of a check session. No Flask, no Redis: the API and sessions call these.

A check stops at the move cap (`max_moves`, default the match cap MAX_MOVES): like a match,
a position reached after that many moves is over, adjudicated by the game's standing
(termination `move_cap`), and a move after it is refused with `check.move_cap`.
"""

from __future__ import annotations

from referee.core import engine, suspend
from referee.core.chance import EXTERNAL, INTERNAL, seat_to_json
from referee.core.errors import ChanceUnsupported, NotYourTurn, RefereeError
from referee.core.results import adjudicate
from referee.service.defaults import MAX_MOVES
from referee.service.seeds import verify


class CheckRefused(RefereeError):
    """A check request the service will not run (seed with external chance, bad seed)."""

    code = "request.invalid"
    status = 422


class MoveCapReached(RefereeError):
    """A move after the check's move cap."""

    code = "check.move_cap"
    status = 422


def starting_position(game, body: dict):
    """The set-up (from the seed, or waiting for chance), or the `state` or `position` (the
    game's one-line text of a state) given, checked."""
    external = body["chance"] == EXTERNAL
    if external and not game.external_chance:
        raise ChanceUnsupported(f"{game.spec.name} does not support external chance yet",
                                game=game.spec.name)
    if external and body.get("seed") is not None:
        raise CheckRefused("a seed is not used with chance external: the chance outcomes "
                           "are moves of seat \"chance\"; drop the seed or the chance",
                           code="chance.seed_unused")
    _check_commitment(body)
    if body.get("position") is not None:
        if body.get("state") is not None:
            raise CheckRefused("give a state or a position, not both")
        state = game.from_position(body["position"])
        if not external:
            return state
        return game.from_dict({**game.to_dict(state), suspend.KEY: suspend.idle()})
    if body.get("state") is not None:
        data = _seed_read(body["state"])
        if external and not suspend.is_external(data):
            data = {**data, suspend.KEY: suspend.idle()}
        return game.from_dict(data)
    if body["chance"] == INTERNAL and body.get("seed") is None:
        raise CheckRefused("give the seed (internal chance), or chance external with the "
                           "chance moves in the log, or a state")
    return engine.start(game, body["players"], body["options"], body.get("seed") or 0,
                        body["chance"])[1]


def _seed_read(data):
    """A given state whose `seed` is a string of digits, with it as the integer the state
    holds: a JavaScript tool writes a 63-bit seed as a string (a number would be rounded).
    The state itself keeps an integer: it is never served as JSON (views withhold the seed,
    a position writes it in decimal), and a string there would change every stored state."""
    seed = data.get("seed") if isinstance(data, dict) else None
    if isinstance(seed, str) and seed.isascii() and seed.isdigit() and len(seed) <= 20:
        return {**data, "seed": int(seed)}
    return data


def _check_commitment(body: dict) -> None:
    """A seed given with the match's commitment and salt must match it: a rounded or mistyped
    seed deals another game, whose first move would read as merely illegal."""
    given = body.get("seed_commitment")
    if not given or body.get("seed") is None:
        return
    if not verify(given["commitment"], body["seed"], given["salt"]):
        raise CheckRefused(f"seed {body['seed']} does not match the commitment "
                           f"{given['commitment']} with salt {given['salt']}: it is not this "
                           f"match's seed (was it rounded by a JSON parser? send it as a "
                           f"string)", code="seed.commitment_mismatch")


def check_moves(game, body: dict) -> dict:
    """The stateless check: replay, stop at the first rejected move, describe the position."""
    state = starting_position(game, body)
    cap = body.get("max_moves") or MAX_MOVES
    version, report = 0, {"legal": True, "error": None, "candidate": None}
    for index, item in enumerate(body["moves"]):
        try:
            state = step(game, state, version, item, cap)
            version += 1
        except RefereeError as err:
            report.update(legal=False, error=brief(err, index, item.get("seat")))
            break
    if report["legal"] and body.get("candidate") is not None:
        report["candidate"] = check_candidate(game, state, version, body["candidate"], cap)
        report["legal"] = report["candidate"]["code"] is None
    view_seat = body.get("view_seat")
    if view_seat is not None and view_seat >= body["players"]:
        raise CheckRefused(f"view_seat {view_seat} is not a seat of a {body['players']}-seat "
                           f"match (use -1 for the spectator)")
    report.update(position(game, state, view_seat, version, cap, body["players"]),
                  applied=version)
    return report


def step(game, state, version: int, item: dict, cap: int):
    """One move checked and applied (the seat found when omitted); raises on refusal."""
    if version >= cap:
        raise MoveCapReached(f"the check's move cap of {cap} moves is reached: the position "
                             f"is over, adjudicated by the standing", max_moves=cap)
    seat = seat_for(game, state, item.get("seat"))
    return engine.play(game, state, version, seat, item["move"])[0]


def check_candidate(game, state, version, item, cap: int) -> dict:
    """Whether `item` would be legal now (nothing applied)."""
    try:
        step(game, state, version, item, cap)
    except RefereeError as err:
        return brief(err, None, item.get("seat"))
    return {"index": None, "seat": seat_for(game, state, item.get("seat")), "code": None,
            "message": "legal"}


def seat_for(game, state, seat):
    """The move's seat: as given, else the only seat that must act."""
    if seat is not None:
        return seat
    decisions = game.pending(state)
    if len(decisions) == 1:
        return decisions[0].seat
    waiting = [seat_to_json(d.seat) for d in decisions]
    raise NotYourTurn(f"give the move's seat: seats {waiting} must act", waiting_for=waiting)


def brief(err: RefereeError, index, seat) -> dict:
    """A refusal as the check reports it."""
    return {"index": index, "seat": seat, "code": err.code, "message": err.message,
            **({"details": err.details} if err.details else {})}


def position(game, state, view_seat, version: int, cap: int, players: int) -> dict:
    """The pending decisions with their legal moves, the outcome once over (adjudicated at
    the move cap), and the view asked for."""
    decisions = game.pending(state)
    outcome = game.outcome(state)
    capped = bool(decisions) and version >= cap
    if capped:
        outcome = adjudicate(game, state, players, cap)
        decisions = ()
    view = None
    if view_seat is not None:
        view = game.view(state, None if view_seat < 0 else view_seat)
    return {"over": not decisions, "capped": capped, "position": game.position(state),
            "pending": [{**d.to_dict(), "legal_moves": game.legal_moves(state, d.seat)}
                        for d in decisions],
            "outcome": outcome.to_dict() if outcome else None, "view": view}

