"""Renderers by game name: how the terminal player shows a game's state and moves.

Every game gets the generic renderer unless one is registered for it. A game's renderer is a
small module that subclasses Renderer and registers itself:

    from referee_client.render import Renderer, register

    @register("dschunke")
    class DschunkeRenderer(Renderer):
        def view(self, view, seat=None):
            return ...  # the board, drawn for people

and is imported in BUILTIN below so it is always available.
"""

from __future__ import annotations

import importlib

from referee_client.render.generic import Renderer

_RENDERERS: dict[str, type[Renderer]] = {}

BUILTIN: tuple[str, ...] = ("yunnan",)
"""Modules under referee_client.render that hold per-game renderers (imported on first use)."""


def register(game: str):
    """Class decorator: use this Renderer subclass for `game`."""
    def decorate(cls: type[Renderer]) -> type[Renderer]:
        _RENDERERS[game] = cls
        return cls
    return decorate


def renderer_for(game: str, info: dict | None = None) -> Renderer:
    """The renderer registered for `game`, else the generic one; `info` is GET /games/{game}."""
    _load_builtin()
    return _RENDERERS.get(game, Renderer)(info)


def registered() -> dict[str, type[Renderer]]:
    """Game name -> renderer class, for every game with its own renderer."""
    _load_builtin()
    return dict(_RENDERERS)


def _load_builtin() -> None:
    for name in BUILTIN:
        importlib.import_module(f"{__name__}.{name}")


__all__ = ["Renderer", "register", "registered", "renderer_for"]
