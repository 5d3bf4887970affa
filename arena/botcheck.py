"""botcheck: does a bot speak protocol v1 as the arena calls it? Checks over real HTTP calls,
signed by the arena's own client (arena/botclient.py), each a `Line` (PASS/FAIL, name, what
was expected, what came back).

`GET /` (unsigned); for every decision kind of every game checked, a position from a real
match (arena/botpositions.py) played as a match of its own: signed /start, /move (the answer
must be a legal move, judged by the engine), /end; forged requests the bot must refuse (no
signature, a bad signature, a replayed nonce, a stale timestamp: 401 or 403); latency per
call against the arena's limits; keep-alive (every call on one HTTP/1.1 connection).

What a `got` says is in our own words plus, for a move, the move (the CLI's author sent it).

Why one module: the checks are one sequence over one connection and one set of positions
(the requests are built in arena/botpayloads.py, the positions found in arena/botpositions.py);
what is left is the list of checks a reader reads top to bottom.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field

from arena import botclient
from arena.botpositions import missing, positions
from arena.bots import HEALTH_TIMEOUT_S
from arena.botpayloads import end_payload, legality, move_payload, start_payload
from arena.protocol import API_VERSION, MAX_SKEW_SECONDS
from arena.tokens import token_hex
from referee.service import defaults, fastjson

REFUSED = (401, 403)
STALE_S = 3600   # a timestamp this old is far outside MAX_SKEW_SECONDS


@dataclass
class Line:
    """One check's verdict."""

    ok: bool
    name: str
    expected: str
    got: str

    def text(self) -> str:
        """The plain line: `PASS  name  expected: ...  got: ...`."""
        return f"{'PASS' if self.ok else 'FAIL'}  {self.name}  expected: {self.expected}  " \
               f"got: {self.got}"


@dataclass
class Calls:
    """What the calls of a check measured: latencies per path, connections, HTTP versions."""

    latency: dict = field(default_factory=dict)   # path -> [ms, ...]
    fresh: list = field(default_factory=list)     # calls that opened a new connection
    versions: set = field(default_factory=set)
    count: int = 0


class Check:
    """The checks of one bot at `target` with `secret`, calls bounded by `limits` (move_ms,
    start_ms) and by `budget_s` for the whole run."""

    def __init__(self, target, secret: str, games, limits: dict | None = None,
                 budget_s: float = 300.0, seed: int = 1):
        self.target, self.secret, self.registry, self.seed = target, secret, games, seed
        self.limits = {**defaults.MATCH_LIMITS, **(limits or {})}
        self.deadline = time.monotonic() + budget_s
        self.lines: list[Line] = []
        self.calls = Calls()
        self._answered_before = False

    # -- calling ---------------------------------------------------------------------------

    def _call(self, path: str, payload, limit_ms: float, secret=None, now=None, data=None):
        """One call (signed with `secret` at `now`; `data`: a prepared request sent again
        as is); the reply, counted in `calls`."""
        timeout = max(0.0, min(limit_ms / 1000, self.deadline - time.monotonic()))
        try:
            prepared = data or botclient.prepare(self.target, path, payload, secret, now)
        except Exception as err:
            return botclient.Reply(failure={"code": "bot.unreachable",
                                            "detail": type(err).__name__}), None
        sent = botclient.send(self.target, path, payload, secret, timeout, prepared)
        reply = botclient.receive(sent)
        self.calls.count += 1
        if self._answered_before and not sent.reused:
            self.calls.fresh.append(path)
        self._answered_before = reply.answered
        if sent.version:
            self.calls.versions.add(sent.version)
        if reply.answered:
            self.calls.latency.setdefault(path, []).append(reply.latency_ms)
        return reply, prepared

    def add(self, ok: bool, name: str, expected: str, got: str) -> bool:
        """Record a line; `ok` back."""
        self.lines.append(Line(bool(ok), name, expected, got))
        return bool(ok)

    # -- the checks ------------------------------------------------------------------------

    def run(self, only=None) -> list[Line]:
        """Every check; `only`: the games to check (default: those the bot claims that this
        service knows). The lines, in order."""
        try:
            info = self.info()
            claimed = info.get("games") if isinstance(info, dict) else None
            games = self._games(claimed if isinstance(claimed, list) else [], only)
            for name in games:
                self.game(self.registry.get(name))
            found = [p for g in games for p in positions(self.registry.get(g), self.seed)][:1]
            if found:
                self.forged(found[0])
            self.latency()
            self.keep_alive()
        finally:
            botclient.close(self.target)
        return self.lines

    def info(self):
        """`GET /`, unsigned: {apiversion: "1", name, author, games}."""
        reply, _ = self._call("/", None, HEALTH_TIMEOUT_S * 1000)
        expected = 'HTTP 200 with JSON {"apiversion": "1", "name", "author", "games": [...]}'
        if reply.failure is not None:
            self.add(False, "GET /", expected, _failure(reply.failure))
            return None
        body = reply.body
        wrong = _info_faults(body)
        self.add(not wrong, "GET /", expected, "; ".join(wrong) if wrong else
                 f"{body['name']!r} by {body['author']!r}, games {', '.join(body['games'])}")
        return body

    def _games(self, claimed: list, only) -> list[str]:
        known = self.registry.names()
        if only:
            absent = [g for g in only if g not in claimed]
            unknown = [g for g in only if g not in known]
            self.add(not absent and not unknown, "games", f"the bot's GET / claims "
                     f"{', '.join(only)} (games of this service)",
                     f"it claims {', '.join(map(str, claimed)) or 'none'}" +
                     (f"; unknown here: {', '.join(unknown)}" if unknown else ""))
            return [g for g in only if g in known]
        games = [g for g in claimed if g in known]
        others = [str(g) for g in claimed if g not in known]
        self.add(bool(games), "games", f"at least one of {', '.join(known)}",
                 (', '.join(games) or 'none') + (f" (not here: {', '.join(others)})"
                                                 if others else ""))
        return games

    def game(self, game) -> None:
        """Every decision kind of `game`: /start, /move (a legal move), /end, each position a
        match of its own."""
        name = game.spec.name
        found = positions(game, self.seed)
        lost = missing(game, found)
        if lost:
            self.add(False, f"{name} positions", "a real position for every decision kind",
                     f"none found for {', '.join(lost)} (the check could not ask them)")
        starts, ends = [], []
        for position in found:
            match_id = f"botcheck-{token_hex(6)}"
            starts.append(self._start(position, match_id))
            self._move(position, match_id)
            ends.append(self._end(position, match_id))
        self._all_ok(f"{name} /start", f"2xx to each of {len(starts)} signed /start", starts)
        self._all_ok(f"{name} /end", f"2xx to each of {len(ends)} signed /end", ends)

    def _all_ok(self, name, expected, failures) -> None:
        bad = [f for f in failures if f is not None]
        self.add(not bad, name, expected, f"{len(failures) - len(bad)} answered 2xx" +
                 (f"; {len(bad)} failed, first: {bad[0]}" if bad else ""))

    def _start(self, position, match_id: str):
        reply, _ = self._call("/start", start_payload(position, match_id, self.limits),
                              self.limits["start_ms"], self.secret)
        return None if reply.failure is None else _failure(reply.failure)

    def _end(self, position, match_id: str):
        reply, _ = self._call("/end", end_payload(position, match_id),
                              defaults.END_TIMEOUT_S * 1000, self.secret)
        return None if reply.failure is None else _failure(reply.failure)

    def _move(self, position, match_id: str) -> None:
        name = f"{position.game.spec.name} /move {position.kind}"
        expected = f"a legal move within {self.limits['move_ms']} ms"
        payload = move_payload(position, match_id, self.limits)
        reply, _ = self._call("/move", payload, self.limits["move_ms"], self.secret)
        if reply.failure is not None:
            self.add(False, name, expected, _failure(reply.failure))
            return
        move = reply.body.get("move") if isinstance(reply.body, dict) else None
        if not isinstance(move, dict):
            self.add(False, name, expected, 'an answer that is not {"move": {...}}')
            return
        error = legality(position, move)
        shown = fastjson.dumps(move)[:200]
        self.add(error is None, name, expected, f"{shown} in {reply.latency_ms:.1f} ms" +
                 (f": illegal ({error})" if error else ""))

    def forged(self, position) -> None:
        """Requests the bot must refuse with 401 or 403, each a real /move otherwise."""
        match_id = f"botcheck-{token_hex(6)}"
        self._start(position, match_id)
        body = fastjson.dumpb(move_payload(position, match_id, self.limits))
        limit = self.limits["move_ms"]
        cases = [("unsigned", None, None), ("bad signature", "not-" + self.secret, None),
                 ("stale timestamp", self.secret, time.time() - STALE_S)]
        for what, secret, now in cases:
            reply, _ = self._call("/move", body, limit, secret, now)
            self._refused(f"forged /move: {what}", reply)
        first, prepared = self._call("/move", body, limit, self.secret)
        again, _ = self._call("/move", body, limit, self.secret, data=prepared)
        if first.failure is not None:
            self.add(False, "forged /move: replayed nonce", "2xx to the request, then 401 or "
                     "403 to the same bytes again", f"the request itself: "
                     f"{_failure(first.failure)}")
        else:
            self._refused("forged /move: replayed nonce", again)
        self._end(position, match_id)

    def _refused(self, name: str, reply) -> None:
        failure = reply.failure or {}
        status = failure.get("status")
        got = f"HTTP {status}" if status else (_failure(failure) if failure else
                                               "2xx: the bot accepted it")
        self.add(status in REFUSED, name, f"401 or 403 (signatures are checked within "
                 f"{MAX_SKEW_SECONDS} s, nonces once)", got)

    def latency(self) -> None:
        """The slowest answer of each path against the limit it is called with."""
        limits = {"/": HEALTH_TIMEOUT_S * 1000, "/start": self.limits["start_ms"],
                  "/move": self.limits["move_ms"], "/end": defaults.END_TIMEOUT_S * 1000}
        for path, limit in limits.items():
            seen = self.calls.latency.get(path, [])
            if not seen:
                continue
            slowest = max(seen)
            self.add(slowest <= limit, f"latency {path}", f"every answer within {limit:.0f} ms",
                     f"{len(seen)} answers, median {sorted(seen)[len(seen) // 2]:.1f} ms, "
                     f"slowest {slowest:.1f} ms")

    def keep_alive(self) -> None:
        """Every call after an answer went on the same kept-alive HTTP/1.1 connection."""
        versions, fresh = sorted(self.calls.versions), self.calls.fresh
        ok = not fresh and versions == ["HTTP/1.1"]
        got = f"{self.calls.count} calls, answered in {', '.join(versions) or 'nothing'}"
        if fresh:
            got += f"; {len(fresh)} needed a new connection (the bot closed the one before)"
        self.add(ok, "keep-alive", "HTTP/1.1 answers with Content-Length or chunks, one "
                 "connection reused for every call", got)


def check_bot(target, secret: str, games, only=None, **settings) -> list[Line]:
    """Run every check; the lines."""
    return Check(target, secret, games, **settings).run(only)


def report(lines: list[Line]) -> dict:
    """The result as data: passed, counts, every line."""
    failed = sum(1 for line in lines if not line.ok)
    return {"passed": failed == 0, "checks": len(lines), "failed": failed,
            "lines": [asdict(line) for line in lines]}


def _info_faults(body) -> list[str]:
    if not isinstance(body, dict):
        return ["not a JSON object"]
    faults = []
    if body.get("apiversion") != API_VERSION:
        faults.append(f"apiversion {body.get('apiversion')!r}, not \"1\"")
    for key in ("name", "author"):
        if not isinstance(body.get(key), str):
            faults.append(f"no string {key!r}")
    games = body.get("games")
    if not isinstance(games, list) or not games or not all(isinstance(g, str) for g in games):
        faults.append("no list of game names in 'games'")
    return faults


def _failure(failure: dict) -> str:
    """A failure record in words."""
    extra = ", ".join(f"{k} {failure[k]}" for k in ("status", "limit_ms", "detail")
                      if k in failure)
    return failure["code"] + (f" ({extra})" if extra else "")


# -- a registered bot's check (POST /v1/bots/{id}/check), kept for its page ------------------

ROUTE_BUDGET_S = 60.0
"""The most one check of a registered bot may take, all calls told (a web request waits)."""


def check_registered(bots, games, bot_id: str) -> dict:
    """Run every check on a registered bot (its pinned address, its current secret, the games
    it was registered for), store the result (time, passed, lines) and return it."""
    bot = bots.get(bot_id)
    target = bots.target(bot)
    lines = check_bot(target, bots.secret_of(bot), games, bot.get("games") or None,
                      budget_s=ROUTE_BUDGET_S)
    result = {"bot": bot_id, "at": time.time(), **report(lines)}
    bots.redis.set(bots._key(bot_id, "check"), fastjson.dumps(result))
    return result


def last_check(bots, bot_id: str) -> dict | None:
    """The result of the bot's last check, or None."""
    import json

    raw = bots.redis.get(bots._key(bot_id, "check"))
    return json.loads(raw) if raw else None
