"""What each caller may see of a match: hidden moves, failure records, the seed.

- Moves hidden from a viewer (sealed, or redacted by the game) stay hidden while the match runs.
- A failure record (a bot's illegal move with the rules' message, what a bot sent, a forfeit)
  shows only its `code` (and, by the entry, its seat) while the match runs, except to a caller
  who may see that seat's private details (`MatchService.may_see_seat`); everyone sees it all
  once the match is over.
- The seed and its salt are shown once the match and every match sharing its seed are over
  (referee/service/seeds.py); the commitment is shown from creation.
- Matches that share a seed (a duplicate-format round robin's rotations) deal the same cards
  and draw the same chance: whatever one of them shows (its spectator view, its moves, a
  finished one's full record) tells the future, or the hidden cards, of a twin still running,
  to a spectator and to a bot in that twin alike. So while any member of a shared seed group
  runs, every member shows others no view and no moves (only seats, versions, status, results)
  and failure codes only, as if it were running; all of it appears when the group is over.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.core import engine
from referee.core.chance import CHANCE, NOBODY, seat_to_json
from referee.service import fastjson
from referee.service.errors import MatchNotFound
from referee.service.bigint import seed_text
from referee.service.seeds import FORMULA
from referee.service.store import Live, MatchMeta, MatchStatus


@dataclass(frozen=True)
class Caller:
    """Who reads a match: the seat whose token came with the request (or None), and whatever
    an access plug-in's request hook established (`principal`, e.g. an account)."""

    seat: int | None = None
    principal: Any = None


def public_failure(failure: dict) -> dict:
    """The part of a failure record anyone may see while the match runs: its code."""
    return {"code": failure.get("code")}


_PRIVATE = ("public", "reveals")
"""Log entry fields for the service alone: the move's public form and the reveal count."""


def publicity(game, state, seat: int, move: dict) -> dict:
    """What the log keeps, at commit time, to show `move` to the others while the match runs:
    its public form (asked with the state it is played in) and the game's reveal count then.

    A chance move is public when its outcome's owner is None (everyone sees it), else shown
    to its owner seat alone (`owner`, kept in the entry; NOBODY: to no one) until the end."""
    if seat == CHANCE:
        owner = engine.decision_for(game, state, CHANCE).prompt.get("owner")
        return {"public": move if owner is None else None, "reveals": 0, "owner": owner}
    return {"public": game.public_move(state, seat, move), "reveals": game.reveals(state)}


def served(entry: dict) -> dict:
    """A stored log entry without the service's own fields (the chance seat as "chance")."""
    shown = {k: v for k, v in entry.items() if k not in _PRIVATE}
    if shown.get("seat") == CHANCE:
        shown["seat"] = seat_to_json(CHANCE)
    return shown


def sees_own(entry: dict, viewer: int | None) -> bool:
    """Whether `viewer` sees `entry` as played: its own move, or a chance outcome it owns."""
    if viewer is None:
        return False
    if entry["seat"] == CHANCE:
        return entry.get("owner") not in (None, NOBODY) and entry.get("owner") == viewer
    return entry["seat"] == viewer


def redact_entry(entry: dict, viewer: int | None, may_see_failure: bool, reveals: int,
                 twins: bool = False) -> dict:
    """A log entry as `viewer` may see it while the match (`twins`: its seed group) runs.

    The seat's own moves are shown as played; the others' in their public form, a sealed one
    only once the game has revealed moves since it was played (`reveals` is the match's count
    now); entries stored without a public form stay hidden. A failure shows its code only.
    """
    shown = served(entry)
    if "failure" in shown and not may_see_failure:
        shown = {**shown, "failure": public_failure(shown["failure"])}
    if sees_own(entry, viewer):
        return shown
    public = None if twins else entry.get("public")
    if entry.get("sealed") and entry.get("reveals", reveals) >= reveals:
        public = None
    return {**shown, "move": public, "hidden": True} if public is None else \
        {**shown, "move": public}


def prompt_viewer(seat: int) -> int | None:
    """Whose view `seat`'s prompt shows: its own; the chance seat (the organiser at the
    table) sees what a spectator sees."""
    return None if seat == CHANCE else seat


def seed_record(meta, revealed: bool) -> dict:
    """The seed's commitment, and the seed and salt once revealed."""
    return {"commitment": meta.seed_commitment or None, "formula": FORMULA,
            "group": meta.seed_group or None, "revealed": revealed,
            "seed": seed_text(meta.seed) if revealed else None,
            "salt": (meta.seed_salt or None) if revealed else None}


class Foresight:
    """What `viewer` will be shown of `state`, a version not committed yet: its view and the
    JSON of it, worked out while the commit's round trip is in flight (called as its
    `meanwhile`), then kept with the version once it lands (`parts()` for StateCache.put),
    so that the move's answer finds them there."""

    def __init__(self, game, state, viewer: int | None):
        self.game, self.state, self.viewer = game, state, viewer
        self.memo, self.views, self.written = {}, {}, {}

    def __call__(self) -> None:
        view = self.views[self.viewer] = self.game.served_view(self.state, self.viewer,
                                                                self.memo)
        data = fastjson.dumpb_orjson(view)
        if data is not None:
            self.written[self.viewer] = data

    def parts(self) -> tuple[dict, dict, dict]:
        """(memo, views, written), as the state cache keeps them with a version."""
        return self.memo, self.views, self.written


class MatchReading:
    """The reading half of the MatchService: a match as each caller may see it (mixed into
    `MatchService`, whose store, games, states and hooks it uses)."""

    def summary(self, meta: MatchMeta, live: Live, viewer: int | None,
                groups: dict | None = None) -> dict:
        """The match as `viewer` (a seat, or None for a spectator) may see it. `groups`: the
        seed groups' counts read beforehand (`SeedBook.counts`), for a list of matches."""
        moving = self.accepted(meta, live, viewer, groups)
        return {
            "id": meta.id, "game": meta.game, "rules_version": meta.rules_version,
            "players": meta.players, "options": meta.options, "status": live.status,
            "version": live.version, "you": viewer,
            "seats": [{"seat": i, **s} for i, s in enumerate(meta.seats)],
            "to_act": moving["to_act"], "chance": meta.chance, "result": moving["result"],
            "labels": meta.labels,
            "created_at": meta.created_at, "updated_at": live.updated_at,
            "view": moving["view"],
            "seed_commitment": seed_record(meta, self.seed_revealed(meta, live, groups)),
        }

    def accepted(self, meta: MatchMeta, live: Live, viewer: int | None,
                 groups: dict | None = None) -> dict:
        """What changes with each move, as `viewer` may see it: version, status, who must act,
        the result and the view (the answer to a move; part of the summary)."""
        game = self.games.get(meta.game)
        state = self.state(meta, live)
        decisions = game.pending(state) if live.status == MatchStatus.ACTIVE else ()
        # whether twins run matters only to a spectator's view and to failure records: a
        # seat's answer without failures asks no one (saves a round trip on every move)
        twins = (viewer is None or bool((live.result or {}).get("failures"))) and \
            self.twins_running(meta, groups)
        return {
            "version": live.version, "status": live.status,
            "to_act": [{"seat": seat_to_json(d.seat), "decision": d.kind, "sealed": d.sealed}
                       for d in decisions],
            # the result as stored unless twins run (_result_for's own first test): no
            # Caller built for a move's answer
            "result": self._result_for(meta, live, Caller(seat=viewer), twins) if twins else
            live.result,
            "view": None if viewer is None and twins else
            self._view(meta.id, live.version, game, state, viewer),
        }

    def prompt(self, match_id: str, seat: int, wait: float = 0.0, loaded=None) -> dict:
        """`seat`'s pending decision and legal moves; waits up to `wait` s for a change.
        The CHANCE seat's also lists the outcomes with their probabilities (`outcomes`).
        `loaded`: the (meta, live) the caller just read (saves reading them again)."""
        meta, live = self.load(match_id) if loaded is None else loaded
        if wait > 0 and live.status == MatchStatus.ACTIVE and seat not in live.pending:
            live = self.store.wait_for_change(match_id, live.version, wait) or live
        game = self.games.get(meta.game)
        state = self.state(meta, live)
        # a forfeited (resigned, timed-out) seat no longer decides: the referee plays it
        decision = engine.decision_for(game, state, seat) if (
            live.status == MatchStatus.ACTIVE and str(seat) not in live.forfeits) else None
        prompt = {
            "match": meta.id, "game": meta.game, "seat": seat_to_json(seat),
            "version": live.version, "status": live.status, "must_act": decision is not None,
            "decision": decision.to_dict() if decision else None,
            "legal_moves": game.legal_moves(state, seat) if decision else [],
            "view": self._view(meta.id, live.version, game, state, prompt_viewer(seat)),
            "result": live.result,
        }
        if seat == CHANCE:
            prompt["outcomes"] = [{"move": m, "probability": p} for m, p in
                                  (game.chance_outcomes(state) if decision else [])]
        return prompt

    def prompt_now(self, meta: MatchMeta, seat: int) -> tuple[dict, bytes | None]:
        """`prompt` with no wait, and the JSON of its view (`view_json`), for the match as it
        is now. The round trip that reads the version is not waited for idly: while it is in
        flight, the prompt of the version this process last saw is worked out, and answered
        if that is still the match's version (as it is when the seat's own move was the last,
        committed here); else the prompt is worked out again for the version read."""
        def answer(live: Live) -> tuple[dict, bytes | None]:
            prompt = self.prompt(meta.id, seat, 0, loaded=(meta, live))
            return prompt, self.view_json(meta.id, prompt, prompt_viewer(seat))

        known, guess = self._states.live(meta.id), []
        live = self.current(meta.id, (lambda: guess.append(answer(known)))
                            if known is not None else None)
        if live is None:
            raise MatchNotFound.of(meta.id)
        return guess[0] if guess and live is known else answer(live)

    def view_json(self, match_id: str, answer: dict, viewer: int | None) -> bytes | None:
        """The JSON of `answer["view"]` (a prompt's or a move's answer, shown to `viewer`):
        written once per version and viewer in this process (states.py), so that a seat's
        prompt after its own move copies in what the move's answer sent; None when the view
        is not the one kept (write the answer whole)."""
        return self._states.view_json(match_id, answer["version"], viewer, answer["view"],
                                      fastjson.dumpb_orjson)

    def _view(self, match_id: str, version: int, game, state, viewer: int | None):
        """`game.view(state, viewer)` of the match at `version`, computed once per version
        and viewer in this process (states.py): a seat's prompt after its own move shows the
        view its move's answer showed. Shared (`served_view`, with the memo the cache keeps
        with the version): serialised, never changed."""
        return self._states.view(match_id, version, viewer,
                                 lambda memo: game.served_view(state, viewer, memo))

    def log(self, match_id: str, viewer: int | None, caller: Caller | None = None) -> dict:
        """The match record; while it runs, others' hidden moves and failure details are
        withheld, and the seed until its whole seed group is over (disclosure.py)."""
        meta, live = self.load(match_id)
        game = self.games.get(meta.game)
        twins = self.twins_running(meta)
        finished = live.status != MatchStatus.ACTIVE and not twins
        caller = caller or Caller(seat=viewer)
        seats = {} if finished else {s: self.may_see_seat(meta, s, caller)
                                     for s in range(meta.players)}
        stored = self.store.log(match_id)
        if finished:
            entries = [served(e) for e in stored]
        else:
            reveals = game.reveals(self.state(meta, live)) if any(
                e.get("sealed") for e in stored) else 0
            entries = [redact_entry(e, viewer, seats.get(e["seat"], False), reveals, twins)
                       for e in stored]
        revealed = self.seed_revealed(meta, live)
        return {
            "match": meta.id, "game": meta.game, "rules_version": meta.rules_version,
            "players": meta.players, "options": meta.options, "chance": meta.chance,
            "seed": seed_text(meta.seed) if revealed else None,
            "seed_commitment": seed_record(meta, revealed),
            "seats": [{"seat": i, **s} for i, s in enumerate(meta.seats)],
            "labels": meta.labels, "limits": meta.limits, "created_at": meta.created_at,
            "status": live.status, "version": live.version, "moves": entries,
            "result": self._result_for(meta, live, caller, twins),
        }

    def _result_for(self, meta: MatchMeta, live: Live, caller: Caller, twins: bool):
        """The result; while twins run, its failure records show others their code only."""
        result = live.result
        if not twins or not result or not result.get("failures"):
            return result
        failures = {seat: failure if self.may_see_seat(meta, int(seat), caller) else
                    public_failure(failure) for seat, failure in result["failures"].items()}
        return {**result, "failures": failures}

    def seed_revealed(self, meta: MatchMeta, live: Live, groups: dict | None = None) -> bool:
        """Whether the seed may be shown: the match and every match sharing its seed ended
        (a match stored before seed groups: once it ended). `groups`: counts read before.
        This match counts as ended from its status on: a reader that sees it over must not
        find its seed withheld in the moment before the group hears of it."""
        if live.status == MatchStatus.ACTIVE:
            return False
        return not meta.seed_group or self.seeds.group_over(meta.seed_group, groups, meta.id)

    def twins_running(self, meta: MatchMeta, groups: dict | None = None) -> bool:
        """Whether the match shares its seed with others and not all of them are over.
        `groups`: counts read before."""
        return bool(meta.seed_group) and self.seeds.shared_and_open(meta.seed_group, groups)

    def may_see_seat(self, meta: MatchMeta, seat: int, caller: Caller) -> bool:
        """Whether `caller` may see seat `seat`'s private details (its failure records) while
        the match runs: the holder of that seat's token, or whom a plug-in's `may_see_seat`
        hook admits (e.g. the owner of the bot in that seat)."""
        if caller.seat is not None and caller.seat == seat:
            return True
        return any(hook.may_see_seat(meta, seat, caller) for hook in self._hooks)
