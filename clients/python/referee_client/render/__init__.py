"""Renderers by game name: how the terminal player shows a game's state and moves.

Every game gets the generic renderer unless one is registered for it. A game's renderer is a
small module that subclasses Renderer and registers itself:

    from referee_client.render import Renderer, register

    @register("dschunke")
    class DschunkeRenderer(Renderer):
        def view(self, view, seat=None):
            return ...  # the board, drawn for people

and is named in BUILTIN below so it is always available.
"""

from __future__ import annotations

import importlib

from referee_client.render.generic import Renderer

_RENDERERS: dict[str, type[Renderer]] = {}

BUILTIN: dict[str, str] = {"dschunke": "dschunke", "yinzi-ming": "yinzi_ming",
                           "yunnan": "yunnan"}
"""Game name -> module under referee_client.render holding its renderer (imported on use)."""


def register(game: str):
    """Class decorator: use this Renderer subclass for `game`."""
    def decorate(cls: type[Renderer]) -> type[Renderer]:
        cls.game_name = game  # so a builtin module's renderer is found whatever the registry holds
        _RENDERERS[game] = cls
        return cls
    return decorate


def renderer_for(game: str, info: dict | None = None) -> Renderer:
    """The renderer registered for `game`, else the generic one; `info` is GET /games/{game}."""
    return registered().get(game, Renderer)(info)


def registered() -> dict[str, type[Renderer]]:
    """Game name -> renderer class, for every game with its own renderer."""
    found = {game: _builtin(game, module) for game, module in BUILTIN.items()}
    return {**{g: c for g, c in found.items() if c is not None}, **_RENDERERS}


def _builtin(game: str, module_name: str):
    """The renderer class a builtin module declares for `game` (found by its `game_name` mark)."""
    module = importlib.import_module(f"{__name__}.{module_name}")
    for value in vars(module).values():
        if isinstance(value, type) and issubclass(value, Renderer) and \
                getattr(value, "game_name", None) == game:
            return value
    return None


__all__ = ["Renderer", "register", "registered", "renderer_for"]
