"""The `bot:<id>` seat driver: asks a registered bot for its move over protocol v1.

It sends /start before a seat's first move (once, under the start limit), then /move with the
per-move limit plus whatever is left of the seat's time bank; time over the per-move limit is
taken from the bank. Failures come back as codes for the runner's failure policy.

A turn is prepared with the commit before it (`rider`): the bot's call slot is taken in the
commit's round trip, the /move request built and signed while Redis commits, and sent as soon
as the commit landed; `choose` then reads the answer. A move's latency counts from the
request's sending to its answer's reading, the runner's own work after the commit included
(tens of microseconds; limits are 10 ms and more).
"""

from __future__ import annotations

import json
import threading

from arena.botclient import PRIVATE_BYTES
from arena.botdebug import DebugTexts
from arena.bots import BotRegistry
from arena.errors import BotGameNotDeclared
from arena.limits import DEFAULTS
from arena.requests import move_request, start_request, time_left
from referee.service import fastjson
from referee.service.drivers import Choice, SeatDriver, Turn
from referee.service.errors import InvalidSeats
from referee.service.scripts import Rider
from referee.service.store import match_key


_LIMITS: dict = {}
# match id -> (its limits as stored, with the defaults filled in): asked twice a bot move


def _limits(meta) -> dict:
    """The match's limits with the defaults filled in (remembered per match: they never
    change; the entry is checked against the very dict it was made from)."""
    kept = _LIMITS.get(meta.id)
    if kept is not None and kept[0] is meta.limits:
        return kept[1]
    if len(_LIMITS) > 10_000:
        _LIMITS.clear()
    limits = {**DEFAULTS, **meta.limits}
    _LIMITS[meta.id] = (meta.limits, limits)
    return limits


def _budget(turn: Turn) -> tuple[dict, float, float]:
    """The match's limits (defaults filled in), the seat's time bank left, and the time its
    move may take (the move limit plus the bank), in ms."""
    limits = _limits(turn.meta)
    bank = float(turn.live.clocks.get(str(turn.seat), limits["bank_ms"]))
    return limits, bank, limits["move_ms"] + bank


class BotDriver(SeatDriver):
    """Drives seats of kind `bot:<bot id>`."""

    def __init__(self, bots: BotRegistry):
        self.bots = bots
        self._started: set = set()  # (match, seat) pairs this process knows were started
        self._ready = threading.local()   # per runner thread: a /move body built ahead
        # the last state whose views were built, with their memo (Game.served_view): the
        # seats of a simultaneous decision are asked about one state in turn. One tuple,
        # read and replaced whole, so threads never pair a state with another's memo
        self._views: tuple = (None, {})

    def validate(self, ref: str) -> None:
        """Raise InvalidSeats unless the bot is registered, BotDisabled if it is disabled."""
        try:
            self.bots.get(ref)
        except Exception as err:
            raise InvalidSeats(f"no registered bot {ref!r}", bot=ref) from err
        self.bots.standing.check(ref)

    def validate_game(self, ref: str, game: str) -> None:
        """Raise BotGameNotDeclared unless the bot was registered for `game` (every seat of
        every match, not only tournaments: the service calls this on creating a match)."""
        bot = self.bots.get(ref)
        if game not in bot.get("games", ()):
            raise BotGameNotDeclared(f"bot {ref} ({bot['name']}) is registered for "
                                     f"{', '.join(bot.get('games', ())) or 'no game'}, not "
                                     f"{game}", bot=ref, game=game)

    def seating(self, ref: str) -> tuple[str, bool]:
        """Who owns the bot (an account id) and whether other accounts may seat it."""
        return self.bots.get(ref).get("owner", ""), self.bots.is_open(ref)

    def describe(self, ref: str) -> dict:
        """The seat's public description: the bot's name and id."""
        bot = self.bots.get(ref)
        return {"name": bot["name"], "bot": ref}

    def choose(self, turn: Turn, ref: str) -> Choice:
        """The bot's move, or the failure that stands in for it."""
        bot, meta, live, seat = self.bots.get(ref), turn.meta, turn.live, turn.seat
        limits, bank, budget_ms = _budget(turn)
        if self._first_request(meta.id, seat):
            failure = self._start(bot, turn, limits)
            if failure is not None:
                return Choice(failure=failure, clock_ms=bank)
        dispatched = self._sent(turn)
        if dispatched is None:
            body, prepared = self._built(turn, prepared=True) or \
                (self._move_body(turn, limits, bank, budget_ms), None)
            dispatched = self.bots.dispatch(bot, "/move", body, budget_ms / 1000, prepared)
        reply = self.bots.collect(dispatched, defer_release=True)
        bank = max(0.0, bank - max(0.0, reply.latency_ms - limits["move_ms"]))
        failure, private = reply.failure, reply.private
        if failure is None:
            failure, private = _check_answer(reply.body)
        self.bots.record_move(ref, reply.latency_ms, failure, meta.id, live.version, private)
        if failure is not None:
            return Choice(failure=failure, latency_ms=round(reply.latency_ms, 3), clock_ms=bank)
        # its debug text, if any, is kept apart: never in the move, the log or a view
        if "debug" in reply.body:
            DebugTexts(self.bots.redis, self.bots.prefix).keep(meta.id, live.version, seat,
                                                               ref, reply.body)
        return Choice(move=reply.body["move"], latency_ms=round(reply.latency_ms, 3),
                      clock_ms=round(bank, 3))

    def rider(self, turn: Turn, ref: str):
        """This turn's preparation, sent with the commit that makes `turn.live` the stored
        record (a scripts.Rider): the bot's call slot, taken in the commit's round trip and
        held as long as the turn's request may take (/start's limit or the move's with the
        seat's bank); the /move body, built while the commit is in flight; and, once the
        commit landed with the slot taken, the request itself, sent at once (for a seat
        started already): the runner's bookkeeping after the commit then runs while the bot
        thinks, and `choose` reads the answer. None when the bot will not be called."""
        meta, live, seat = turn.meta, turn.live, turn.seat
        limits, bank, budget_ms = _budget(turn)
        bot = self.bots.get(ref)
        rider = self.bots.ride(bot, max(limits["start_ms"], budget_ms) / 1000)
        if rider is None:
            return None
        slot_done, ready = rider.done, self._ready

        def build() -> None:
            body = self._move_body(turn, limits, bank, budget_ms)
            ready.body = (live, seat, body, self.bots.prepare(bot, "/move", body))

        def done(reply, landed: bool) -> None:
            slot_done(reply, landed)
            if not landed:
                ready.body = None
            elif isinstance(reply, (list, tuple)) and reply[0] and \
                    (meta.id, seat) in self._started:   # the slot is ours, no /start first
                built = self._built(turn, prepared=True)
                if built is not None:
                    body, prepared = built
                    ready.sent = (live, seat, self.bots.dispatch(
                        bot, "/move", body, budget_ms / 1000, prepared))
        return Rider(rider.script, rider.keys, rider.args, done, build)   # not replace(): ~3 us

    def _sent(self, turn: Turn | None):
        """The call dispatched ahead for this very turn (BotRegistry.dispatch), once; one
        for another turn (or for none: the runner stops) is given up."""
        sent = getattr(self._ready, "sent", None)
        self._ready.sent = None
        if sent is None:
            return None
        if turn is not None and sent[0] is turn.live and sent[1] == turn.seat:
            return sent[2]
        self.bots.abandon(sent[2])
        return None

    def _built(self, turn: Turn, prepared: bool = False):
        """The /move body built ahead for this very turn (its live record, its seat), once;
        with `prepared`, (the body, the request signed ahead: BotRegistry.prepare)."""
        built = getattr(self._ready, "body", None)
        self._ready.body = None
        if built is not None and built[0] is turn.live and built[1] == turn.seat:
            return tuple(built[2:]) if prepared else built[2]
        return None

    def rejected(self, ref: str, failure: dict, match_id: str, version: int) -> None:
        """The referee found a failure after the bot answered (an illegal move, stalling):
        count it against the bot."""
        self.bots.record_failure(ref, failure, match_id, version)

    def flush(self) -> None:
        """The runner stops: give up a call dispatched ahead that nobody will read, write the
        bots' health counts kept meanwhile and give back the call slot of the last call (see
        BotRegistry.flush)."""
        self._sent(None)
        self.bots.flush()

    def _first_request(self, match_id: str, seat: int) -> bool:
        """True once per (match, seat) across all processes: time to send /start."""
        if (match_id, seat) in self._started:
            return False
        if len(self._started) > 100_000:
            self._started.clear()
        self._started.add((match_id, seat))
        return bool(self.bots.redis.sadd(match_key(self.bots.prefix, match_id, "started"), seat))

    def _start(self, bot: dict, turn: Turn, limits: dict) -> dict | None:
        meta = turn.meta
        if self.bots.standing.disabled(bot["id"]) is not None:  # disabled after the match
            return {"code": "bot.disabled", "phase": "start"}     # was made: not called
        payload = start_request(meta, turn.seat, limits)
        reply = self.bots.call(bot, "/start", payload, limits["start_ms"] / 1000,
                               defer_release=True)
        self.bots.record_move(bot["id"], reply.latency_ms, reply.failure, meta.id, 0,
                              reply.private)
        if reply.failure is not None:
            return {**reply.failure, "phase": "start"}
        return None

    def _move_body(self, turn: Turn, limits: dict, bank: float, budget_ms: float) -> bytes:
        """The /move request's JSON (orjson: the seat's whole view is in it, which the
        standard library's encoder took some 0.1-0.2 ms to write)."""
        return fastjson.dumpb(self._move_payload(turn, limits, bank, budget_ms))

    def _move_payload(self, turn: Turn, limits: dict, bank: float, budget_ms: float) -> dict:
        live, seat = turn.live, turn.seat
        # served_view: the payload is only serialised (orjson), so the view may share the
        # state's objects (Yinzi's and Yunnan's copy was half their view's cost)
        return move_request(turn.meta, live.version, seat, turn.decision.to_dict(),
                            self._served_view(turn), turn.game.legal_moves(turn.state, seat),
                            time_left(limits, bank, budget_ms), live.latency.get(str(seat)))

    def _served_view(self, turn: Turn):
        """The seat's served view, its shared parts built once for the state (memo)."""
        kept = self._views
        if kept[0] is not turn.state:
            kept = self._views = (turn.state, {})
        return turn.game.served_view(turn.state, turn.seat, kept[1])


def _check_answer(body) -> tuple[dict | None, dict | None]:
    """(None, None) if the body is {"move": {...}}; else a failure record and, apart, what
    the bot sent (for its owner only). Whatever goes wrong while looking at the answer is
    the bot's bot.bad_response, never an exception that would abort the match."""
    try:
        if isinstance(body, dict) and isinstance(body.get("move"), dict):
            return None, None
        excerpt = json.dumps(body, separators=(",", ":"))[:PRIVATE_BYTES]
    except Exception:
        excerpt = None
    failure = {"code": "bot.bad_response", "detail": 'the answer must be {"move": {...}}'}
    return failure, ({"body": excerpt} if excerpt is not None else None)
