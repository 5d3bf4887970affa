"""Seat-token digests (referee/service/matches.py `token_hash`) are kept, at most
TOKEN_DIGESTS_KEPT of them, and are always the token's SHA-256."""

from __future__ import annotations

import hashlib

from referee.service import matches


def _sha256(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def test_a_digest_is_the_sha256_the_first_time_and_again():
    for token in ("st_abc", "st_ü", "st_abc"):
        assert matches.token_hash(token) == _sha256(token)


def test_at_most_the_limit_is_kept_the_oldest_going_first(monkeypatch):
    monkeypatch.setattr(matches, "TOKEN_DIGESTS_KEPT", 5)
    monkeypatch.setattr(matches, "_digests", {})
    tokens = [f"st_{n}" for n in range(12)]
    for token in tokens:
        assert matches.token_hash(token) == _sha256(token)
        assert len(matches._digests) <= 5
    assert list(matches._digests) == tokens[-5:]
    assert matches.token_hash(tokens[0]) == _sha256(tokens[0])   # hashed again
