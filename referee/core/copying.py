"""Copying plain-data states fast: games copy once on entry to `apply`, then change the copy."""

from __future__ import annotations

import pickle


def deep_copy(data):
    """An independent deep copy of JSON-like data (dicts, lists, tuples, scalars, dataclasses).

    A pickle round trip: about 7x faster than `copy.deepcopy` on game states (measured on a
    Dschunke-sized dict: 6 us against 44 us).
    """
    return pickle.loads(pickle.dumps(data, pickle.HIGHEST_PROTOCOL))
