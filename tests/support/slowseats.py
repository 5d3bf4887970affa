"""A slow seat played in the runner's process (`slow:<ms>`): the builtin random policy after
a pause, replayable as builtin seats are, so its moves go in batches that take long enough
to kill the process in the middle of one.

    python -m tests.support.slowseats REDIS_URL PREFIX MATCH_ID BATCH_MOVES

runs the match's runner in this process with batches of BATCH_MOVES moves (never flushed
for time) and prints `chose <version>` as each move is chosen.
"""

from __future__ import annotations

import sys
import time

from referee.core.bots import random_move
from referee.service.drivers import Choice, SeatDriver, Turn
from referee.service.plugins import Plugin


class SlowDriver(SeatDriver):
    """`slow:<ms>`: builtin:random after a pause of <ms>; each choice printed first."""

    replayable = True

    def __init__(self, pause: bool = True):
        self.pause = pause

    def validate(self, ref: str) -> None:
        """Any number of milliseconds."""
        int(ref)

    def describe(self, ref: str) -> dict:
        """The seat's name."""
        return {"name": f"slow:{ref}"}

    def choose(self, turn: Turn, ref: str) -> Choice:
        """The random policy's move, after the pause."""
        if self.pause:   # said first: the pause is the killer's margin
            print(f"chose {turn.live.version}", flush=True)
            time.sleep(int(ref) / 1000)
        return Choice(random_move(turn.game, turn.state, turn.seat, turn.meta.seed,
                                  turn.live.version))

    def rejected(self, ref: str, failure: dict, match_id: str, version: int) -> None:
        """Never illegal."""


def plugin(pause: bool = True) -> Plugin:
    """The plug-in seating `slow:<ms>`."""
    return Plugin(name="slow-seats", drivers=lambda _store, _settings: {"slow": SlowDriver(pause)})


def main(argv) -> None:
    """Run the match's runner (see the module's doc)."""
    from referee.root import build_service
    from referee.service import batch, runner
    from referee.service.config import Settings

    redis_url, prefix, match_id, most = argv
    batch.BATCH_MOVES, batch.BATCH_SECONDS = int(most), 10.0**9
    service = build_service(Settings(redis_url=redis_url, key_prefix=prefix), [plugin()],
                            queued=False)
    print("running", flush=True)
    runner.advance(service, match_id)
    print("done", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
