"""The plug-in seam: a broken plug-in fails start-up loudly; every kind of contribution
arrives where it belongs."""

from __future__ import annotations

import subprocess
import sys

import pytest
from flask import Blueprint, jsonify, request

from arena.plugin import arena_plugin
from referee.root import build_service, create_app, stop_app
from referee.service.config import Settings
from referee.service.drivers import Choice, SeatDriver
from referee.service.plugins import Command, Plugin, ServiceHooks
from tests.api.helpers import wait_until
from tests.conftest import ROOT, unique_name


def _start(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)


@pytest.mark.parametrize("broken", ["openskill", "arena.api", "arena.ratings"])
def test_an_import_error_inside_the_arena_fails_app_start_up(broken):
    """A dependency or module of the arena that cannot be imported stops the app from
    starting (it used to vanish: /v1/health 200, /v1/bots 404)."""
    code = (f"import sys; sys.modules[{broken!r}] = None\n"
            "from referee.root import create_app\n"
            "app = create_app({'REDIS_URL': None, 'EMBEDDED_WORKERS': 0})\n"
            "print('started', app.test_client().get('/v1/bots').status_code)")
    done = _start(code)
    assert done.returncode != 0 and "started" not in done.stdout
    assert "ModuleNotFoundError" in done.stderr and broken in done.stderr.splitlines()[-1]


def test_an_import_error_inside_the_arena_fails_the_worker_and_offline_commands():
    """`referee worker` and `referee play` build through the same root: they fail too."""
    code = ("import sys; sys.modules['openskill'] = None\n"
            "from referee.cli import main\n"
            "main(['play', '--help'])")
    done = _start(code)
    assert done.returncode != 0 and "ModuleNotFoundError" in done.stderr
    assert "openskill" in done.stderr.splitlines()[-1]


class _Echo(SeatDriver):
    """A seat driver that plays the first legal move (a plug-in's own seat kind)."""

    def validate(self, ref):
        """Any name will do."""

    def describe(self, ref):
        """A name for the seat."""
        return {"name": f"echo:{ref}"}

    def choose(self, turn, ref):
        """The first legal move."""
        return Choice(turn.game.legal_moves(turn.state, turn.seat)[0])

    def rejected(self, ref, failure, match_id, version):
        """Nothing to record."""


class _Recorder(ServiceHooks):
    """Hears every commit and every end."""

    def __init__(self, service, settings):
        self.service, self.settings, self.commits, self.finished = service, settings, [], []

    def after_commit(self, meta, old, live):
        self.commits.append((meta.id, live.version))

    def on_finish(self, meta, live):
        self.finished.append((meta.id, live.status))


def _pages():
    page = Blueprint("probe_pages", __name__, url_prefix="/probe")
    page.add_url_rule("/", "home", lambda: "<p>probe</p>")
    return [page]


def _refuse_teapots():
    if request.headers.get("X-Teapot"):
        return jsonify(code="probe.teapot"), 418
    return None


PROBE = Plugin(name="probe", settings=lambda base: {"greeting": "hi"},
               drivers=lambda store, settings: {"echo": _Echo()}, attach=_Recorder,
               pages=_pages, request_hooks=lambda: [_refuse_teapots],
               problems={"probe.teapot": "The probe refuses teapots."},
               commands={"probe": Command("a probe", lambda argv: None)})


def test_every_contribution_of_a_plugin_arrives():
    """Drivers seat players, hooks hear commits and ends, pages and request hooks serve,
    problem codes join the catalogue, settings reach the attached object."""
    app = create_app({"REDIS_URL": None, "KEY_PREFIX": unique_name("plug"),
                      "QUEUE_NAME": unique_name("plugq"), "EMBEDDED_WORKERS": 1},
                     plugins=[arena_plugin(), PROBE])
    try:
        service, client = app.extensions["referee"], app.test_client()
        probe = service.extensions["probe"]
        assert probe.settings == {"greeting": "hi"}
        created = service.create("gops", ["echo:a", "builtin:random"], {"cards": 3}, 5)
        wait_until(lambda: (created.meta.id, "over") in probe.finished)
        assert (created.meta.id, 0) in probe.commits and len(probe.commits) > 3
        assert created.meta.seats[0]["name"] == "echo:a"
        assert client.get("/probe/").get_data(as_text=True) == "<p>probe</p>"
        assert client.get("/v1/health", headers={"X-Teapot": "1"}).status_code == 418
        problems = client.get("/v1/problems").json["problems"]
        assert problems["probe.teapot"] == "The probe refuses teapots."
        assert "bot.timeout" in problems  # the arena's still there
    finally:
        stop_app(app)


def test_two_plugins_cannot_claim_one_seat_kind():
    """A clash is a start-up error, not a silent override."""
    clash = Plugin(name="clash", drivers=lambda store, settings: {"bot": _Echo()})
    with pytest.raises(ValueError, match="seat kind 'bot'"):
        build_service(Settings(redis_url=None, key_prefix=unique_name("clash")),
                      [arena_plugin(), clash], queued=False)


class _Duck:
    """Quacks like a driver (the four calls) but declares nothing: no hooks to call."""

    def validate(self, ref):
        """Anyone."""

    def describe(self, ref):
        """A name."""
        return {"name": ref}

    def choose(self, turn, ref):
        """The first legal move."""
        return Choice(turn.game.legal_moves(turn.state, turn.seat)[0])

    def rejected(self, ref, failure, match_id, version):
        """Nothing kept."""


def test_a_driver_must_declare_its_hooks_by_subclassing_seat_driver():
    """Issue 44: the service calls a driver's optional hooks (flush, rider, seating,
    replayable) instead of probing for them, so a driver that is not a SeatDriver is refused
    at start-up; one that is gets the hooks' defaults."""
    duck = Plugin(name="duck", drivers=lambda store, settings: {"duck": _Duck()})
    with pytest.raises(TypeError, match="the driver of 'duck' is not a SeatDriver"):
        build_service(Settings(redis_url=None, key_prefix=unique_name("duck")), [duck],
                      queued=False)
    echo = _Echo()
    assert (echo.replayable, echo.flush(), echo.rider(None, "x"), echo.seating("x")) == \
        (False, None, None, None)


def test_an_attached_object_must_be_service_hooks():
    """What `attach` gives is told every commit and asked who may see a seat: it must be a
    ServiceHooks (whose methods do nothing by default)."""
    plain = Plugin(name="plain", attach=lambda service, settings: object())
    with pytest.raises(TypeError, match="attach gave a object, not ServiceHooks"):
        build_service(Settings(redis_url=None, key_prefix=unique_name("plain")), [plain],
                      queued=False)
