"""Check sessions: a position kept in the store between moves, so a tool that checks each
move as it is played sends one move per request (O(1) per move, not the whole log).

A session is a hash `<prefix>:checksession:<id>` (game, players, chance, move cap, version,
the state's JSON, the SHA-256 of its token) that expires CHECK_SESSION_TTL_S after its last
use; `<prefix>:checksessions:<caller>` is a sorted set of the caller's sessions scored by
expiry, which bounds how many one caller holds (CHECK_SESSIONS_PER_CALLER). The store is the
service's own Redis client (the embedded default's in-process one too).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import time

import redis

from referee.core.errors import RefereeError
from referee.service import checks
from referee.service.defaults import CHECK_SESSION_TTL_S, CHECK_SESSIONS_PER_CALLER

TOKEN_PREFIX = "cs_"


class SessionNotFound(RefereeError):
    code, status = "session.not_found", 404


class SessionTokenInvalid(RefereeError):
    code, status = "session.token_invalid", 401


class TooManySessions(RefereeError):
    code, status = "session.too_many", 429


class SessionBusy(RefereeError):
    code, status = "match.busy", 409


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class CheckSessions:
    """The check sessions of one store."""

    def __init__(self, client, prefix: str, ttl_s: int = CHECK_SESSION_TTL_S,
                 per_caller: int = CHECK_SESSIONS_PER_CALLER, clock=time.time):
        self.redis, self.prefix = client, prefix
        self.ttl_s, self.per_caller, self.clock = ttl_s, per_caller, clock

    def _key(self, session_id: str) -> str:
        return f"{self.prefix}:checksession:{session_id}"

    def _owned(self, caller: str) -> str:
        return f"{self.prefix}:checksessions:{caller}"

    def create(self, game, body: dict, caller: str) -> dict:
        """A new session at the position `body` describes (as the check's set-up fields);
        returns its id, token and first answer."""
        state = checks.starting_position(game, body)
        now = self.clock()
        owned = self._owned(caller)
        self.redis.zremrangebyscore(owned, "-inf", now)
        if self.redis.zcard(owned) >= self.per_caller:
            raise TooManySessions(f"this caller holds {self.per_caller} check sessions, the "
                                  f"most it may: delete one (DELETE /v1/check-sessions/{{id}}) "
                                  f"or let one expire", limit=self.per_caller)
        session_id, token = secrets.token_hex(12), TOKEN_PREFIX + secrets.token_urlsafe(24)
        record = {"game": game.spec.name, "players": body["players"], "chance": body["chance"],
                  "cap": body["max_moves"], "version": 0, "caller": caller,
                  "token": _digest(token), "state": json.dumps(game.to_dict(state))}
        pipe = self.redis.pipeline(transaction=True)
        pipe.hset(self._key(session_id), mapping=record)
        pipe.expire(self._key(session_id), self.ttl_s)
        pipe.zadd(owned, {session_id: now + self.ttl_s})
        pipe.expire(owned, self.ttl_s)
        pipe.execute()
        return {"id": session_id, "token": token, "game": game.spec.name,
                "expires_in_s": self.ttl_s, **self._answer(game, state, record, None)}

    def _load(self, session_id: str, token: str | None) -> dict:
        raw = self.redis.hgetall(self._key(session_id))
        if not raw:
            raise SessionNotFound(f"no check session {session_id!r} (expired or deleted?)")
        record = {k.decode() if isinstance(k, bytes) else k:
                  v.decode() if isinstance(v, bytes) else v for k, v in raw.items()}
        if token is None or not hmac.compare_digest(record["token"], _digest(token)):
            raise SessionTokenInvalid("give the session's token: 'Authorization: Bearer "
                                      "<token>' as the create answer gave it")
        for name in ("players", "cap", "version"):
            record[name] = int(record[name])
        return record

    def show(self, registry, session_id: str, token: str | None, view_seat=None) -> dict:
        """The session's position (and `view_seat`'s view), renewing its lease."""
        record = self._load(session_id, token)
        game = registry.get(record["game"])
        state = game.from_dict(json.loads(record["state"]))
        self._renew(session_id, record)
        return {"id": session_id, **self._answer(game, state, record, view_seat)}

    def play(self, registry, session_id: str, token: str | None, item: dict,
             view_seat=None) -> dict:
        """Check one move: if legal it is applied and the session moves on; either way the
        verdict and the (new or unchanged) position."""
        record = self._load(session_id, token)
        game = registry.get(record["game"])
        state = game.from_dict(json.loads(record["state"]))
        try:
            state = checks.step(game, state, record["version"], item, record["cap"])
        except RefereeError as err:
            self._renew(session_id, record)
            return {"id": session_id, "legal": False,
                    "error": checks.brief(err, record["version"], item.get("seat")),
                    **self._answer(game, state, record, view_seat)}
        self._commit(session_id, record, game.to_dict(state))
        return {"id": session_id, "legal": True, "error": None,
                **self._answer(game, state, record, view_seat)}

    def _commit(self, session_id: str, record: dict, data: dict) -> None:
        """Store the new state if no other move landed meanwhile (optimistic on version)."""
        key = self._key(session_id)
        with self.redis.pipeline(transaction=True) as pipe:
            try:
                pipe.watch(key)
                if int(pipe.hget(key, "version") or -1) != record["version"]:
                    raise SessionBusy("another move landed on this session meanwhile: get "
                                      "its position and send the move again")
                pipe.multi()
                record["version"] += 1
                pipe.hset(key, mapping={"version": record["version"],
                                        "state": json.dumps(data)})
                pipe.expire(key, self.ttl_s)
                pipe.execute()
            except redis.WatchError:
                raise SessionBusy("another move landed on this session meanwhile") from None
        self._renew(session_id, record, key_too=False)

    def _renew(self, session_id: str, record: dict, key_too: bool = True) -> None:
        pipe = self.redis.pipeline(transaction=False)
        if key_too:
            pipe.expire(self._key(session_id), self.ttl_s)
        pipe.zadd(self._owned(record["caller"]), {session_id: self.clock() + self.ttl_s})
        pipe.expire(self._owned(record["caller"]), self.ttl_s)
        pipe.execute()

    def delete(self, session_id: str, token: str | None) -> None:
        """End a session now (its slot is free at once)."""
        record = self._load(session_id, token)
        pipe = self.redis.pipeline(transaction=True)
        pipe.delete(self._key(session_id))
        pipe.zrem(self._owned(record["caller"]), session_id)
        pipe.execute()

    @staticmethod
    def _answer(game, state, record: dict, view_seat) -> dict:
        if view_seat is not None and view_seat >= record["players"]:
            raise checks.CheckRefused(f"view_seat {view_seat} is not a seat of a "
                                      f"{record['players']}-seat game (-1: the spectator)")
        return {"version": record["version"],
                **checks.position(game, state, view_seat, record["version"], record["cap"],
                                  record["players"])}
