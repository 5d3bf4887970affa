"""The seam the house grows on: a plug-in is a plain object that may contribute to the service,
the API, the web pages and the command line. The composition root (referee/root.py) names the
plug-ins; nothing finds one by a try-import, so a broken plug-in fails start-up loudly.

A `Plugin` may contribute (every field is optional):

- `settings(base)`: the plug-in's own settings, read once at start-up from the service's
  `Settings` (`base`) and the environment; the result is handed to `drivers` and `attach`.
- `drivers(store, settings)`: seat drivers by kind prefix (`bot` -> `bot:<ref>` seats), each a
  subclass of `SeatDriver` (referee/service/drivers.py), which declares the optional hooks.
- `attach(service, settings)`: the plug-in's object over one `MatchService`, kept as
  `service.extensions[name]`; it receives the service hooks `after_commit(meta, old, live)` and
  `on_finish(meta, live)`, and is asked `may_see_seat(meta, seat, caller)` (an access plug-in
  admits a bot's owner to its seat's failure details) (subclass `ServiceHooks` and override
  what you need).
- `api()`: flask-smorest blueprints under /v1 (documented in the OpenAPI document).
- `pages()`: Flask blueprints outside /v1 (server-rendered web pages).
- `request_hooks()`: Flask before-request functions, run in order before every request; one
  returns a response to answer instead (an authenticator sets who calls, or refuses).
- `install(app, service)`: for an extension that needs the Flask app itself (flask-limiter);
  called after every plug-in's request hooks are in (who calls is known) and before the
  service's body guard (nothing has read the body yet).
- `problems`: problem codes and their meaning, added to the /v1/problems catalogue.
- `commands`: `referee <name> …` subcommands, each a `Command` (help, run(argv)).

`api`, `pages`, `request_hooks` and `install` are functions so that Flask is imported only when an app is
built: the offline commands and the workers load the plug-in without Flask.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence


class ServiceHooks:
    """What a plug-in's attached object hears from the service (both do nothing here)."""

    def after_commit(self, meta, old, live) -> None:
        """A new version of a match was committed (`old` is None for its creation); once per
        version, in order, also when the runner committed several in one batch (then the
        record of each version but the batch's last has `state` None: referee/service/batch.py)."""

    def on_finish(self, meta, live) -> None:
        """A match ended (over or aborted); called once, by the process that ended it."""

    def may_see_seat(self, meta, seat: int, caller) -> bool:
        """Whether `caller` (a disclosure.Caller) may see seat `seat`'s private details while
        the match runs, beyond its seat token (e.g. the account owning the bot in it)."""
        return False


@dataclass(frozen=True)
class Command:
    """A `referee <name>` subcommand that parses its own arguments."""

    help: str
    run: Callable[[list], None]


def _none(*_args) -> Sequence:
    return ()


@dataclass(frozen=True)
class Plugin:
    """What one plug-in contributes; see the module docstring for each field."""

    name: str
    settings: Callable[[Any], Any] = lambda base: None
    drivers: Callable[[Any, Any], Mapping] = lambda store, settings: {}
    attach: Callable[[Any, Any], ServiceHooks] | None = None
    api: Callable[[], Sequence] = _none
    pages: Callable[[], Sequence] = _none
    request_hooks: Callable[[], Sequence] = _none
    install: Callable[[Any, Any], None] | None = None
    problems: Mapping[str, str] = field(default_factory=dict)
    commands: Mapping[str, Command] = field(default_factory=dict)
