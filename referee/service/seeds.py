"""Match seeds nobody can predict and everyone can verify: a server secret, commitments, reveal.

The formulas (also in docs/security.md, "Fair seeds"); anyone can check them with `verify`:

- A seed the service derives for an event (tournament, ladder) is
  `int.from_bytes(HMAC-SHA256(secret, "<part>:<part>:…")[:8], "big") % MAX_SEED`, e.g. the
  parts ("tournament", <id>, "seed", <seed index>). The secret is $REFEREE_SEED_SECRET, or one
  drawn once with `secrets` and kept in the store (SET NX, so every process shares it).
- A match created with no seed gets one from a CSPRNG (`secrets.randbelow(MAX_SEED)`).
- Every match, whatever its seed's origin (an explicit seed too: its creator knows it, nobody
  else), publishes at creation the commitment
  `sha256(f"{seed}:{salt}".encode("ascii")).hexdigest()`, where `seed` is the decimal seed and
  `salt` 32 lowercase hex digits (16 random bytes): the salt makes the hash of a 63-bit seed
  impossible to search.
- Seed and salt are revealed once the match has ended *and* every match of its seed group has
  ended. Matches share a group when they share a seed (the rotations of a duplicate-format
  round robin; a replay of an aborted match); a match alone is a group of one.

Groups live under `<prefix>:seedgroup:<group>:` — `size` (members expected; 1 when absent)
and `done` (members that ended, plus released reservations).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets

from referee.core.rng import MAX_SEED

SECRET_ENV = "REFEREE_SEED_SECRET"
FORMULA = 'lowercase hex SHA-256 of the ASCII bytes of seed + ":" + salt (seed: its decimal digits)'
"""The commitment formula, as served beside each commitment, in no language's syntax (the
docs/security.md, "Fair seeds", gives it byte by byte; clients/protocol/commitment-vectors.json tests it)."""


def commitment(seed: int, salt: str) -> str:
    """The published commitment of a seed and its salt."""
    return hashlib.sha256(f"{int(seed)}:{salt}".encode("ascii")).hexdigest()


def verify(committed: str, seed: int, salt: str) -> bool:
    """Whether a revealed seed and salt match the commitment published at creation."""
    return hmac.compare_digest(committed, commitment(seed, salt))


def derive(secret: bytes, *parts) -> int:
    """A seed in [0, MAX_SEED) from the secret and the parts naming what it is for."""
    message = ":".join(str(p) for p in parts).encode()
    digest = hmac.new(secret, message, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") % MAX_SEED


def new_salt() -> str:
    """A fresh salt: 16 random bytes as 32 hex digits."""
    return secrets.token_hex(16)


def solo_group(match_id: str) -> str:
    """The group of a match that shares its seed with no other."""
    return f"match:{match_id}"


class SeedBook:
    """The server secret and the seed groups of one store."""

    def __init__(self, redis, prefix: str, environ=None):
        self.redis, self.prefix = redis, prefix
        self._environ = os.environ if environ is None else environ
        self._secret: bytes | None = None

    def _key(self, group: str, part: str) -> str:
        return f"{self.prefix}:seedgroup:{group}:{part}"

    def secret(self) -> bytes:
        """The server secret: $REFEREE_SEED_SECRET, else the store's (made once, SET NX)."""
        if self._secret is None:
            given = self._environ.get(SECRET_ENV, "")
            if given:
                self._secret = given.encode()
            else:
                key = f"{self.prefix}:seed-secret"
                self.redis.set(key, secrets.token_hex(32), nx=True)
                stored = self.redis.get(key)
                self._secret = stored if isinstance(stored, bytes) else stored.encode()
        return self._secret

    def derive(self, *parts) -> int:
        """A seed derived from the server secret for `parts` (event and match ids)."""
        return derive(self.secret(), *parts)

    def open_group(self, group: str, size: int) -> None:
        """Say that `size` matches will share this group's seed (before creating any)."""
        self.redis.set(self._key(group, "size"), int(size))

    def reserve(self, group: str) -> None:
        """One more member is coming (a replay): the seed stays hidden until it ends too."""
        pipe = self.redis.pipeline()
        pipe.set(self._key(group, "size"), 1, nx=True)
        pipe.incr(self._key(group, "size"))
        pipe.execute()

    def release(self, group: str, reservation: str) -> None:
        """A reserved member will not come after all: count it as ended."""
        self.redis.sadd(self._key(group, "done"), f"released:{reservation}")

    def ended(self, group: str, match_id: str) -> None:
        """A member of the group ended (over or aborted)."""
        self.redis.sadd(self._key(group, "done"), match_id)

    def shared_and_open(self, group: str, counts: dict | None = None) -> bool:
        """Whether the group has several members and some have not ended (`counts`: what
        `counts` read beforehand, for a list of matches; else read now)."""
        size, ended = self._count(group, counts)
        return size > 1 and ended < size

    def _count(self, group: str, counts: dict | None) -> tuple[int, int]:
        if counts is not None and group in counts:
            return counts[group]
        return self.counts([group])[group]

    def counts(self, groups) -> dict[str, tuple[int, int]]:
        """(members, ended) of each group, in one round trip: what `shared_and_open` and
        `group_over` read, for a list of matches at once."""
        groups = list(groups)
        pipe = self.redis.pipeline(transaction=False)
        for group in groups:
            pipe.get(self._key(group, "size"))
            pipe.scard(self._key(group, "done"))
        replies = pipe.execute()
        return {group: (int(size or 1), int(done))
                for group, size, done in zip(groups, replies[::2], replies[1::2])}

    def members(self, group: str) -> list[str]:
        """The matches of the group that have ended (released reservations left out)."""
        return [m for m in self.redis.smembers(self._key(group, "done"))
                if not m.startswith("released:")]

    def group_over(self, group: str, counts: dict | None = None,
                   member: str | None = None) -> bool:
        """Whether every member of the group has ended (`counts`: as for shared_and_open).
        `member`: a match already known to have ended, counted even if its own `ended` has
        not landed yet (its status is committed first, then the group told)."""
        size, ended = self._count(group, counts)
        if ended >= size:
            return True
        return member is not None and ended == size - 1 and (
            size == 1 or not self.redis.sismember(self._key(group, "done"), member))
