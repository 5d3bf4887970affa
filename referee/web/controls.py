"""A seat's move controls for the seat page: its pending decision and legal moves, in words.

Who may call: the seat's token holder only (`Authorization: Bearer st_…`; 401 without a seat
token, 403 with one that is not of this match). What it reveals: that seat's own prompt
(its decision and legal moves, which may rest on what only it sees, such as a Dschunke
hand); nothing of other seats. A sealed decision's moves are marked private: the seat page
shows them only to this seat, and the public event stream never carries them.
"""

from __future__ import annotations

from flask import jsonify

from referee.api.auth import bearer_token
from referee.service.access import SEAT, requires
from referee.web.boards import places
from referee.web.data import move_words, service
from referee.web.pages import _decision_words, blp

SEALED_NOTE = ("Sealed: only you see this choice. The other seats see \u201ca sealed move\u201d "
               "until the game reveals every bid at once.")


@blp.get("/matches/<match_id>/controls")
@requires(SEAT)
def controls(match_id):
    """The caller's pending decision and its legal moves grouped by move type, each in words.

    Caller: the seat's token holder (401 without a seat token, 403 with a wrong one).
    """
    svc = service()
    meta = svc.load_meta(match_id)  # RefereeError: a problem detail (404 match.not_found)
    seat = svc.seat_of(meta, bearer_token())  # RefereeError: a problem detail (403)
    prompt = svc.prompt(match_id, seat, 0)
    answer = {"version": prompt["version"], "status": prompt["status"], "seat": seat,
              "must_act": prompt["must_act"], "decision": None, "groups": []}
    decision = prompt["decision"]
    if decision:
        answer["decision"] = {
            "kind": decision["kind"], "sealed": decision["sealed"],
            "words": _decision_words(meta.game, {"decision": decision["kind"]}),
            "note": SEALED_NOTE if decision["sealed"] else None}
        answer["groups"] = groups(meta.game, prompt["legal_moves"])
    return jsonify(answer), 200, {"Cache-Control": "no-store"}


def groups(game: str, legal: list[dict]) -> list[dict]:
    """Legal moves by move type, in first-seen order: each with the fields that vary among
    them (what a form asks for) and every move with its words and its places on the board
    (the seat page picks the move when one of them is clicked)."""
    by_type: dict[str, list[dict]] = {}
    for move in legal:
        by_type.setdefault(str(move.get("type")), []).append(move)
    return [{"type": kind, "fields": varying(moves),
             "moves": [{"move": m, "words": move_words(game, {"move": m}),
                        "places": places(game, m)} for m in moves]}
            for kind, moves in by_type.items()]


def varying(moves: list[dict]) -> list[str]:
    """The fields (other than `type`) whose values differ among `moves`, in their order."""
    names: list[str] = []
    for move in moves:
        names += [k for k in move if k != "type" and k not in names]
    return [k for k in names if len({repr(m.get(k)) for m in moves}) > 1]

