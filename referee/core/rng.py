"""Deterministic randomness: every draw derives from (match seed, stream, counter).

Games keep a counter in their state and build a fresh `Rng` for each chance event, so the
same seed and the same moves give the same match in any process, on any Python version
(only Mersenne Twister's `getrandbits`, stable since Python 3.2, is used).
"""

from __future__ import annotations

import hashlib
import random

MAX_SEED = 2**63 - 1


class Rng:
    """A seeded generator with the few draws games need."""

    __slots__ = ("_random",)

    def __init__(self, seed: int, stream: str = "", counter: int = 0):
        digest = hashlib.sha256(f"{seed}:{stream}:{counter}".encode()).digest()
        self._random = random.Random(int.from_bytes(digest[:16], "big"))

    def below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        if n <= 0:
            raise ValueError("below() needs n > 0")
        bits = n.bit_length()
        while True:
            value = self._random.getrandbits(bits)
            if value < n:
                return value

    def randint(self, low: int, high: int) -> int:
        """A uniform integer in [low, high]."""
        return low + self.below(high - low + 1)

    def choice(self, items):
        """One element of a non-empty sequence."""
        return items[self.below(len(items))]

    def shuffled(self, items) -> list:
        """A new list with the items in random order (Fisher-Yates)."""
        out = list(items)
        bits_of = self._random.getrandbits  # `below` inlined: the same draws, half the time
        for i in range(len(out) - 1, 0, -1):
            bits = (i + 1).bit_length()
            j = bits_of(bits)
            while j > i:
                j = bits_of(bits)
            out[i], out[j] = out[j], out[i]
        return out

    def random(self) -> float:
        """A float in [0, 1) with 53 random bits."""
        return self._random.getrandbits(53) / (1 << 53)
