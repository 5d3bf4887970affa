"""The core's chance record in an external-chance state, read as plain data: whether a state
carries one and what it waits for. Apart from `suspend` (which plays moves through the engine)
so that the game contract can read it without importing the engine."""

from __future__ import annotations

KEY = "chance"
"""The top-level key of the record in an external-chance state (a game never uses it)."""


def is_external(state) -> bool:
    """Whether `state` plays external chance (it carries the core's chance record)."""
    return type(state) is dict and KEY in state


def waiting(state) -> dict | None:
    """The waiting record of `state`, or None (internal states never wait)."""
    record_ = state.get(KEY) if type(state) is dict else None
    return record_["waiting"] if record_ else None
