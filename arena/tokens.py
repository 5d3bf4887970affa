"""Random hex tokens for a bot call (the request's nonce, its call slot's token), from the
system's CSPRNG read in blocks: `secrets.token_hex` made one getrandom system call a token,
two a bot move. Each thread reads its own block; a forked child starts afresh, so it never
hands out a token its parent does.
"""

from __future__ import annotations

import os
import threading

BLOCK = 4096
"""Random bytes read at once (about 200 bot moves' worth)."""

_local = threading.local()


def token_hex(nbytes: int) -> str:
    """`nbytes` random bytes as hex, as `secrets.token_hex(nbytes)` gives them."""
    state = _local.__dict__
    block, at = state.get("block", b""), state.get("at", 0)
    if at + nbytes > len(block):
        block, at = os.urandom(max(BLOCK, nbytes)), 0
        state["block"] = block
    state["at"] = at + nbytes
    return block[at:at + nbytes].hex()


def _forget() -> None:
    """In a forked child: the parent's blocks are its own, never to be used again here."""
    global _local
    _local = threading.local()


os.register_at_fork(after_in_child=_forget)
