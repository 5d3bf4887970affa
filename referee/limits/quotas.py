"""Unfinished matches per identity (an API key or token, an address): who created what.

Each match created during a request is added to a Redis set per identity of that request
(`<prefix>:active:<identity>`), and removed when it ends. Counting is SCARD; a set at its
ceiling is pruned of matches that ended without our hook hearing it (archived, aborted by
another process) before a request is refused. No Flask here: the request side tells the hooks
who calls through `who`.
"""

from __future__ import annotations

from typing import Callable, Iterable

from referee.core.errors import RefereeError
from referee.service.plugins import ServiceHooks
from referee.service.store import MatchStatus

RETRY_AFTER_QUOTA_S = 60
"""Seconds a client over its active-match ceiling is told to wait (matches end in minutes)."""


class OverQuota(RefereeError):
    """Too many unfinished matches for this key or address."""

    status = 429
    code = "quota.active_matches"


class ActiveMatches(ServiceHooks):
    """The sets of unfinished matches by identity, kept by the service's commit hooks."""

    def __init__(self, service):
        self.service = service
        self.redis, self.prefix = service.store.redis, service.store.prefix
        self.who: Callable[[], Iterable[str]] = tuple  # set by the app: the request's identities

    def _key(self, identity: str) -> str:
        return f"{self.prefix}:active:{identity}"

    def _owners_key(self, match_id: str) -> str:
        return f"{self.prefix}:active-owners:{match_id}"

    def after_commit(self, meta, old, live) -> None:
        """A match created in a request counts against each identity of the request."""
        if old is not None or live.status != MatchStatus.ACTIVE:
            return
        identities = list(self.who())
        if not identities:
            return
        pipe = self.redis.pipeline()
        for identity in identities:
            pipe.sadd(self._key(identity), meta.id)
        pipe.sadd(self._owners_key(meta.id), *identities)
        pipe.execute()

    def on_finish(self, meta, live) -> None:
        """An ended match no longer counts."""
        self._release(meta.id)

    def _release(self, match_id: str) -> None:
        owners = self.redis.smembers(self._owners_key(match_id))
        pipe = self.redis.pipeline()
        for identity in owners:
            pipe.srem(self._key(identity), match_id)
        pipe.delete(self._owners_key(match_id))
        pipe.execute()

    def count(self, identity: str) -> int:
        """Unfinished matches created by `identity`."""
        return self.redis.scard(self._key(identity))

    def check(self, identities: Iterable[str], ceiling: int) -> None:
        """Raise OverQuota when an identity has `ceiling` unfinished matches (after pruning
        matches that ended unheard)."""
        for identity in identities:
            if self.count(identity) >= ceiling and self._prune(identity) >= ceiling:
                raise OverQuota(f"{ceiling} matches created by this "
                                f"{identity.split(':', 1)[0]} are unfinished; the most allowed "
                                f"is {ceiling}; retry when some have ended",
                                ceiling=ceiling)

    def _prune(self, identity: str) -> int:
        """Drop ended or vanished matches from the identity's set; how many are left."""
        for match_id in self.redis.smembers(self._key(identity)):
            live = self.service.store.live(match_id)
            if live is None or live.status != MatchStatus.ACTIVE:
                self._release(match_id)
                self.redis.srem(self._key(identity), match_id)
        return self.count(identity)
