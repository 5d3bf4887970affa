"""The bot kit: a bot is one function `move_fn(request) -> move`, served over bot protocol v1.

    from referee_client.botkit import serve

    def choose(request):
        return request["legal_moves"][0]

    serve(choose, name="first-move", games=["dschunke"], port=9001)
"""

from __future__ import annotations

from referee_client.botkit.cli import run
from referee_client.botkit.register import register
from referee_client.botkit.routing import by_game
from referee_client.botkit.server import BotServer


def serve(move_fn, *, name: str, games=(), secret: str | None = None,
          secret_file: str | None = None, host: str = "127.0.0.1", port: int = 0,
          author: str = "", version: str = "", on_start=None, on_end=None,
          require_signature: bool = False, background: bool = False) -> BotServer:
    """Serve `move_fn` as a bot; blocks unless `background`, and returns the BotServer."""
    server = BotServer(move_fn, name=name, games=games, secret=secret, secret_file=secret_file,
                       host=host, port=port, author=author, version=version,
                       on_start=on_start, on_end=on_end, require_signature=require_signature)
    if background:
        return server.start()
    server.serve_forever()
    return server


__all__ = ["BotServer", "by_game", "register", "run", "serve"]
