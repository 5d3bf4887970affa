"""The runner is one pipeline (referee/service/runner.py, issue 44): traced over one real
match on the embedded store (sys.setprofile), every move goes through the stages of
runner.STEP in order, each fed exactly what the one before it produced, called by the loop
alone; the stage modules of a move are runner, turns, batch, never one again once left; and
nothing in the runner's modules calls back into one of them that is already on the stack
(the batch once called the runner back for the next seat's rider)."""

from __future__ import annotations

import sys

from referee.core.bots import random_move
from referee.root import build_service
from referee.service import batch, runner, turns
from referee.service.config import Settings
from referee.service.drivers import Choice, SeatDriver
from referee.service.plugins import Plugin
from referee.service.scripts import Rider, hot_script
from tests.conftest import unique_name

ROOMS = {"referee.service.runner", "referee.service.turns", "referee.service.batch",
         "referee.service.lease", "referee.service.store", "referee.service.archive"}
MATCH = (runner.take, runner._play, runner.flush, runner.release, runner.requeue)
FAILING = {2, 4}   # the asks the driver answers with a move the rules refuse


class Asked(SeatDriver):
    """`asked:<x>`: chosen outside the runner's process as an HTTP bot is (not replayable:
    committed alone), with a rider that counts its rides in Redis; it notes the stored
    version at every ask, and answers a malformed move on the asks in FAILING."""

    def __init__(self):
        self.asks, self.rides, self.rejections = [], [], []
        self.store = None

    def validate(self, ref: str) -> None:
        """Anyone."""

    def describe(self, ref: str) -> dict:
        """The seat's name."""
        return {"name": f"asked:{ref}"}

    def choose(self, turn, ref: str) -> Choice:
        """The random policy's move, or a malformed one on the asks in FAILING."""
        stored = self.store.live(turn.meta.id).version
        self.asks.append((turn.live.version, stored))
        if len(self.asks) in FAILING:
            return Choice({"type": "nonsense"}, latency_ms=1.0)
        return Choice(random_move(turn.game, turn.state, turn.seat, turn.meta.seed,
                                  turn.live.version), latency_ms=1.0)

    def rejected(self, ref: str, failure: dict, match_id: str, version: int) -> None:
        """Noted."""
        self.rejections.append((version, failure["code"]))

    def rider(self, turn, ref: str):
        """A script counting this seat's rides, in the commit that stores `turn.live`."""
        key = self.store.key(turn.meta.id, "rides")
        script = hot_script(self.store.data, "return redis.call('INCR', KEYS[1])")
        return Rider(script, [key], [],
                     lambda reply, landed: self.rides.append((turn.live.version, reply, landed)))


def _service():
    driver = Asked()
    service = build_service(Settings(redis_url=None, key_prefix=unique_name("pipe")),
                            [Plugin(name="asked", drivers=lambda _store, _settings:
                                    {"asked": driver})], queued=False)
    driver.store = service.store
    return service, driver


def _trace(service, match_id):
    """(the stage calls and returns of one advance, the modules re-entered, moves made)."""
    stages = {f.__code__: f for f in (*runner.STEP, *MATCH)}
    corridor = {runner._play.__code__, runner.advance.__code__}
    events, reentered = [], []

    def profile(frame, event, arg):
        if event not in ("call", "return"):
            return
        code = frame.f_code
        if event == "call":
            module = frame.f_globals.get("__name__")
            caller = frame.f_back
            if module in ROOMS and caller is not None and \
                    caller.f_globals.get("__name__") != module:
                below = caller.f_back
                while below is not None:
                    if below.f_globals.get("__name__") == module:
                        reentered.append((code.co_name, module, caller.f_code.co_name))
                        break
                    below = below.f_back
            if caller is not None and caller.f_code in corridor and code not in stages and \
                    caller.f_code is runner._play.__code__:
                events.append(("stray", code.co_name, None))
        if code in stages and frame.f_back is not None and frame.f_back.f_code in corridor:
            names = code.co_varnames
            given = frame.f_locals.get(names[1]) if event == "call" and \
                code.co_argcount > 1 else arg
            events.append((event, stages[code], given))

    sys.setprofile(profile)
    try:
        moves = runner.advance(service, match_id)
    finally:
        sys.setprofile(None)
    return events, reentered, moves


def test_one_match_goes_through_the_stages_in_order_each_fed_the_last_product():
    """Every move: keep, seat, turn, choice, verdict, rider, land, in that order, each
    taking the object the one before returned; the steps end at a stage that gives nothing;
    the stage modules of a step are runner, turns, batch; no module of the runner is entered
    again while it is on the stack; and what the pipeline keeps of the runner's guarantees:
    the driver is asked only about committed versions, its rider rides in commits that
    land, its refused moves are struck, then forfeited and played by the referee."""
    service, driver = _service()
    match_id = service.create("gops", ["builtin:random", "asked:x"], {"cards": 6}, 7,
                              limits={"strikes": 1}).meta.id
    events, reentered, moves = _trace(service, match_id)

    assert reentered == []
    assert [e for e in events if e[0] == "stray"] == []
    match = [e for e in events if e[1] in MATCH]
    assert [f for kind, f, _ in match if kind == "call"] == list(MATCH)
    steps, given = [], None
    for kind, stage, product in events:
        if stage in MATCH:
            if stage is runner.take and kind == "return":
                given = product
            continue
        if kind == "call":
            if stage is runner.keep:
                steps.append([])
            steps[-1].append(stage)
            assert product is given, f"{stage.__name__} was not fed what came before it"
        else:
            given = product
    full = list(runner.STEP)
    assert len(steps) == moves + 1 and all(step == full for step in steps[:-1])
    assert steps[-1] == full[:len(steps[-1])] and len(steps[-1]) < len(full)
    modules = []
    for stage in full:
        if not modules or modules[-1] != stage.__module__:
            modules.append(stage.__module__)
    assert modules == [runner.__name__, turns.__name__, batch.__name__]

    live = service.store.live(match_id)
    assert live.status == "over" and moves == live.version == len(service.store.log(match_id))
    assert driver.asks and all(asked == stored for asked, stored in driver.asks)
    assert driver.rides and all(landed and reply == n + 1
                                for n, (_, reply, landed) in enumerate(driver.rides))
    assert [code for _, code in driver.rejections] == ["bot.illegal_move"] * 2
    assert live.forfeits["1"]["code"] == "bot.illegal_move" and len(driver.asks) == 4
    referee = [e for e in service.store.log(match_id) if e.get("by") == "referee"]
    assert len(referee) > 2   # the strike's move, the forfeit's, then every later one
