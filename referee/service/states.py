"""The last loaded game state per match, so a hot match skips from_dict."""

from __future__ import annotations

from collections import OrderedDict


class StateCache:
    """Game states by match, at one version each, least recently used out (states are
    immutable, so sharing them is safe)."""

    def __init__(self, size: int = 1024):
        self.size, self._items = size, OrderedDict()

    def get(self, match_id: str, version: int):
        item = self._items.get(match_id)
        if item is None or item[0] != version:
            return None
        self._items.move_to_end(match_id)
        return item[1]

    def put(self, match_id: str, version: int, state) -> None:
        self._items[match_id] = (version, state)
        self._items.move_to_end(match_id)
        while len(self._items) > self.size:
            self._items.popitem(last=False)
