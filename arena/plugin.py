"""The arena as a plug-in of the referee service (see referee/service/plugins.py): its parts
(arena/parts.py) plus the `referee play`, `botcheck`, `sprt` and `tournament` commands. Only the
composition root (referee/root.py) and tests take the whole plug-in; the commands build their
services from the parts, so nothing the commands import comes back here.
"""

from __future__ import annotations

from dataclasses import replace

from arena.parts import PROBLEMS, arena_parts
from referee.service.plugins import Command, Plugin

__all__ = ["COMMANDS", "PROBLEMS", "arena_plugin"]


def _play(argv) -> None:
    from arena.cli import play
    play(argv)


def _tournament(argv) -> None:
    from arena.cli import tournament
    tournament(argv)


def _botcheck(argv) -> None:
    from arena.botcheck_cli import botcheck
    botcheck(argv)


def _sprt(argv) -> None:
    from arena.sprt_cli import sprt
    sprt(argv)


COMMANDS = {
    "botcheck": Command("check a bot against protocol v1 before entering it: one PASS/FAIL "
                        "line per check, exit 1 on a failure", _botcheck),
    "play": Command("play one match between bots, offline (no Redis)", _play),
    "sprt": Command("is the candidate better than the baseline? an SPRT over duplicate "
                    "match pairs, offline (no Redis)", _sprt),
    "tournament": Command("run a round robin between bots, offline (no Redis)", _tournament),
}


def arena_plugin(inline: bool = False, loopback: bool = False) -> Plugin:
    """The arena plug-in with its commands (`inline`, `loopback`: see `arena_parts`)."""
    return replace(arena_parts(inline, loopback), commands=COMMANDS)
