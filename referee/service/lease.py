"""A lease in Redis: one holder at a time, renewed while it works, released only by its holder.

Release and renewal compare the stored token and act in one Lua script, so a holder whose
lease expired (and was taken by another) can never delete or extend the new holder's lease.
"""

from __future__ import annotations

import secrets
import time

_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""
_RELEASE_READING = """
local released = 0
if redis.call('get', KEYS[1]) == ARGV[1] then released = redis.call('del', KEYS[1]) end
return {released, redis.call('get', KEYS[2])}
"""
_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end
return 0
"""


class Lease:
    """A claim on `key` for `seconds`; use `with lease:` or acquire/renew/release."""

    def __init__(self, redis, key: str, seconds: float, token: str | None = None):
        self.redis, self.key, self.seconds = redis, key, seconds
        self.token = token or secrets.token_hex(12)
        self.renewed = 0.0

    def acquire(self) -> bool:
        """Take the lease if nobody holds it."""
        self.renewed = time.monotonic()
        return bool(self.redis.set(self.key, self.token, nx=True, px=int(self.seconds * 1000)))

    def acquire_reading(self, key: str) -> tuple[bool, object]:
        """Take the lease if nobody holds it, then read `key`, in one round trip:
        (taken, the value of `key` just after)."""
        self.renewed = time.monotonic()
        pipe = self.redis.pipeline(transaction=False)
        pipe.set(self.key, self.token, nx=True, px=int(self.seconds * 1000))
        pipe.get(key)
        taken, value = pipe.execute()
        return bool(taken), value

    def release_reading(self, key: str) -> tuple[bool, object]:
        """Give the lease up if it is still ours, then read `key`, in one round trip:
        (whether it was ours, the value of `key` just after)."""
        # one script (a cluster's pipeline runs no EVAL): `key` must share the lease's slot,
        # as the runner's live record shares its match's hash tag
        released, value = self.redis.eval(_RELEASE_READING, 2, self.key, key, self.token)
        return bool(released), value

    def renew(self, lazy: bool = False) -> bool:
        """Extend the lease; False if it is no longer ours (it expired and was taken).

        `lazy` skips the round trip until a third of the lease has passed since the last
        renewal (the runner renews before every move).
        """
        if lazy and time.monotonic() - self.renewed < self.seconds / 3:
            return True
        ours = bool(self.redis.eval(_RENEW, 1, self.key, self.token, int(self.seconds * 1000)))
        if ours:
            self.renewed = time.monotonic()
        return ours

    def release(self) -> bool:
        """Give the lease up if it is still ours; True if it was."""
        return bool(self.redis.eval(_RELEASE, 1, self.key, self.token))

    def __enter__(self) -> bool:
        return self.acquire()

    def __exit__(self, *exc) -> None:
        self.release()
