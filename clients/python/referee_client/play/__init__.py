"""The terminal player: `python -m referee_client.play` (see referee_client.play.cli)."""

from referee_client.play.session import TerminalPlayer

__all__ = ["TerminalPlayer"]
