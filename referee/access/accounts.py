"""Accounts and their API keys in Redis (no Flask): a key is shown once and stored only as its
SHA-256, looked up by that hash.

Keys carry 256 random bits, so a fast hash is enough (nobody can search the key space), and
looking a key up by its hash leaks nothing about other keys through timing; the stored hash is
still compared in constant time before the account is trusted.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import time

from referee.core.errors import RefereeError
from referee.service.access import KEY_PREFIX, LOCAL_ACCOUNT, ROLES, Caller, KeyInvalid


class AccountNotFound(RefereeError):
    """No account with that id."""

    code = "account.not_found"
    status = 404


def key_hash(key: str) -> str:
    """How an account key is stored: its SHA-256 (hex)."""
    return hashlib.sha256(key.encode()).hexdigest()


def new_key() -> str:
    """A fresh account key: `rk_` and 256 random bits."""
    return KEY_PREFIX + secrets.token_urlsafe(32)


class Accounts:
    """Accounts under `<prefix>:acct:<id>`; `<prefix>:acct-key:<hash>` -> id."""

    def __init__(self, redis, prefix: str):
        self.redis, self.prefix = redis, prefix

    def _key(self, account_id: str) -> str:
        return f"{self.prefix}:acct:{account_id}"

    def _by_hash(self, digest: str) -> str:
        return f"{self.prefix}:acct-key:{digest}"

    def create(self, name: str, role: str, account_id: str | None = None) -> tuple[dict, str]:
        """A new account and its key (the key is returned only here)."""
        if role not in ROLES:
            raise ValueError(f"role must be one of {ROLES}, not {role!r}")
        key = new_key()
        account = {"id": account_id or "a" + secrets.token_hex(6), "name": str(name)[:120],
                   "role": role, "created_at": time.time(), "key_hash": key_hash(key)}
        pipe = self.redis.pipeline()
        pipe.set(self._key(account["id"]), json.dumps(account))
        pipe.set(self._by_hash(account["key_hash"]), account["id"])
        pipe.zadd(f"{self.prefix}:accts", {account["id"]: account["created_at"]})
        pipe.execute()
        return public(account), key

    def ensure(self, account_id: str, name: str, role: str) -> dict:
        """The account `account_id`, created (with a key nobody is shown) if it is missing."""
        raw = self.redis.get(self._key(account_id))
        return public(json.loads(raw)) if raw else self.create(name, role, account_id)[0]

    def install(self, account_id: str, name: str, role: str, key: str) -> dict:
        """The account `account_id` with `key` as its key (a key made elsewhere: the
        deployment's REFEREE_ORGANISER_KEY); a previous key of it stops working."""
        raw = self.redis.get(self._key(account_id))
        account = json.loads(raw) if raw else {"id": account_id, "created_at": time.time()}
        old = account.get("key_hash")
        account.update(name=name, role=role, key_hash=key_hash(key))
        pipe = self.redis.pipeline()
        if old and old != account["key_hash"]:
            pipe.delete(self._by_hash(old))
        pipe.set(self._key(account_id), json.dumps(account))
        pipe.set(self._by_hash(account["key_hash"]), account_id)
        pipe.zadd(f"{self.prefix}:accts", {account_id: account["created_at"]})
        pipe.execute()
        return public(account)

    def get(self, account_id: str) -> dict:
        """An account's public record; raises AccountNotFound."""
        raw = self.redis.get(self._key(account_id)) if isinstance(account_id, str) else None
        if raw is None:
            raise AccountNotFound(f"no account {account_id!r}")
        return public(json.loads(raw))

    def caller_of(self, key: str) -> Caller:
        """The account whose key this is; raises KeyInvalid."""
        digest = key_hash(key)
        account_id = self.redis.get(self._by_hash(digest))
        raw = self.redis.get(self._key(account_id)) if account_id else None
        account = json.loads(raw) if raw else None
        if account is None or not hmac.compare_digest(account["key_hash"], digest):
            raise KeyInvalid("that key is not an account's key (or it was rotated)")
        return Caller(account["id"], account["name"], account["role"])

    def rotate(self, account_id: str) -> str:
        """A new key for the account; the old one stops working at once."""
        raw = self.redis.get(self._key(account_id))
        if raw is None:
            raise AccountNotFound(f"no account {account_id!r}")
        account = json.loads(raw)
        key = new_key()
        old, account["key_hash"] = account["key_hash"], key_hash(key)
        pipe = self.redis.pipeline()
        pipe.delete(self._by_hash(old))
        pipe.set(self._key(account_id), json.dumps(account))
        pipe.set(self._by_hash(account["key_hash"]), account_id)
        pipe.execute()
        return key


def public(account: dict) -> dict:
    """An account without its key hash."""
    return {k: v for k, v in account.items() if k != "key_hash"}
