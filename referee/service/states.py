"""The last live record and game state this process saw of each match, so that a hot match
skips both the transfer and parse of its live record (only its version is checked, store.py
`live_since`) and the game's from_dict; and the views of that version already computed, so
that a seat's prompt after its own move (the move's answer carried the same view) does not
compute it again, with the memo in which the game keeps what those views share
(Game.served_view); and the JSON written of each such view, so that a view sent again (that
prompt) is copied into its answer as written, not walked and written a second time.

The memo lives and dies with its version here: a game that kept the shared parts itself, for
the last few dozen states it was asked about, held those states and their parts alive long
after the service had moved on, and every request wrote its new objects into memory that had
gone cold meanwhile (a Dschunke request missed a 1 MB cache 27% more often: 2,279 misses
against 1,797 in callgrind's cache simulation)."""

from __future__ import annotations

from collections import OrderedDict
from typing import Callable, NamedTuple


class _Kept(NamedTuple):
    """One match's cached version and what belongs to it."""

    version: int
    live: object          # the live record, or None
    state: object         # the game state, or None
    views: dict           # viewer -> view
    state_json: object    # the JSON the store was sent of the state (bytes), or None
    memo: dict            # what the views share (Game.served_view)
    written: dict         # viewer -> the JSON written of its view


_NEW = tuple.__new__


class StateCache:
    """Per match, one version's live record, game state, views, their memo and their JSON,
    least recently used out.

    All are shared with every reader and never mutated (a new version is a new Live, states
    are immutable, views are only serialised): a version committed once has one live record,
    so a cached one is current exactly when the stored version equals its version, and a
    view of that version computed once is that version's view for that viewer for good."""

    def __init__(self, size: int = 1024):
        self.size, self._items = size, OrderedDict()

    def get(self, match_id: str, version: int):
        """The game state at `version`, or None."""
        item = self._items.get(match_id)
        if item is None or item.version != version:
            return None
        self._items.move_to_end(match_id)
        return item.state

    def live(self, match_id: str):
        """The cached live record of the match (at whatever version), or None."""
        item = self._items.get(match_id)
        return None if item is None else item.live

    def put(self, match_id: str, version: int, state=None, live=None,
            state_json: bytes | None = None, foreseen: tuple | None = None) -> None:
        """Keep the match at `version`: its state and/or live record, and the JSON the store
        was sent of the state (what is known of the same version already cached stays;
        another version's views go). `foreseen`: (memo, views, written) worked out for
        `state` before it was committed (Foresight), kept unless the version is cached
        already."""
        old = self._items.get(match_id)
        memo, views, written = foreseen or ({}, {}, {})
        if old is not None and old.version == version:
            if state is None or state is old.state:
                state, state_json = old.state, state_json or old.state_json
            live = old.live if live is None else live
            views, memo, written = old.views, old.memo, old.written
        elif old is not None and old.version > version:
            return   # a slower reader of an older version: keep the newer one
        # tuple.__new__: _Kept(...) goes through namedtuple's __new__, a Python call (about
        # 2,000 instructions a request here)
        self._items[match_id] = _NEW(_Kept, (version, live, state, views, state_json, memo,
                                             written))
        self._items.move_to_end(match_id)
        while len(self._items) > self.size:
            self._items.popitem(last=False)

    def stored_json(self, match_id: str, version: int, state) -> bytes | None:
        """The JSON the store was sent of `state`, if `state` is the match's cached state at
        `version` and this process committed it (Game.apply_stored reads its copy from it)."""
        item = self._items.get(match_id)
        if item is None or item.version != version or item.state is not state:
            return None
        return item.state_json

    def view(self, match_id: str, version: int, viewer, compute: Callable[[dict], object]):
        """`viewer`'s view (a seat, or None for a spectator) of the match at `version`:
        the one computed before for this version and viewer, else `compute(memo)`, kept when
        `version` is the cached one (a view of any other version is not kept). `memo` is the
        cached version's, shared by all its views; a fresh dict for any other version."""
        item = self._items.get(match_id)
        if item is None or item.version != version:
            return compute({})
        views = item.views
        if viewer not in views:
            views[viewer] = compute(item.memo)
        return views[viewer]

    def view_json(self, match_id: str, version: int, viewer, view,
                  write: Callable[[object], bytes | None]) -> bytes | None:
        """The JSON of `view` when it is the view kept for `viewer` at the match's cached
        `version`: `write(view)` the first time (kept unless None), the same bytes after.
        None for any other view, which the caller writes as it is."""
        item = self._items.get(match_id)
        if item is None or item.version != version or item.views.get(viewer, _NONE) is not view:
            return None
        written = item.written
        data = written.get(viewer)
        if data is None:
            data = write(view)
            if data is not None:
                written[viewer] = data
        return data


_NONE = object()
"""No view kept (a kept view may itself be None)."""
