"""Bot-call tokens (arena/tokens.py): hex of the asked length, never handed out twice, and a
forked child never repeats what its parent hands out next."""

from __future__ import annotations

import os

from arena import tokens


def test_tokens_are_hex_of_the_asked_length_and_never_repeat():
    """Across several blocks (4,096 bytes each): 3,000 tokens of 16 bytes, all different."""
    seen = {tokens.token_hex(16) for _ in range(3000)}
    assert len(seen) == 3000
    assert all(len(t) == 32 and int(t, 16) >= 0 for t in seen)
    assert len(tokens.token_hex(tokens.BLOCK + 8)) == 2 * (tokens.BLOCK + 8)


def test_a_forked_child_does_not_hand_out_its_parents_next_token():
    """The child's first token is not the one the parent hands out next from its block."""
    tokens.token_hex(16)   # the parent has a block in use
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:   # the child: its first token, then out at once
        os.close(read)
        os.write(write, tokens.token_hex(16).encode())
        os._exit(0)
    os.close(write)
    child = os.read(read, 64).decode()
    os.close(read)
    os.waitpid(pid, 0)
    assert len(child) == 32 and child != tokens.token_hex(16)
