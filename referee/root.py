"""The composition root: the one place that names the plug-ins and builds the service.

Every entry point comes through here:

- the app factory `create_app` (gunicorn: `referee.root:create_app()`, `referee serve`,
  the tests), which also starts embedded worker threads when there is no REDIS_URL (or
  INLINE_WORKERS asks for them) and keeps their handle in `app.extensions["referee.workers"]`;
- `referee worker` (`run_worker(build_service(settings))`);
- `referee play` / `referee tournament` and the benchmarks, with
  `build_service(settings, plugins=[arena_plugin(inline=True)], queued=False)`.

Below this module, referee/service and referee/api know plug-ins only as `Plugin` values; the
arena never imports referee.api. A plug-in that fails to import fails start-up here, loudly.
"""

from __future__ import annotations

from arena.plugin import arena_plugin
from referee.access.plugin import access_plugin
from referee.limits.plugin import limits_plugin
from referee.service.config import Settings
from referee.service.context import assemble
from referee.service.plugins import Plugin
from referee.web import web_plugin


def default_plugins() -> list[Plugin]:
    """The plug-ins the shipped service runs with: access control first (its request hook
    says who calls before any route runs, so the limits count by account), then the limits,
    then the arena, then the web pages."""
    return [access_plugin(), limits_plugin(), arena_plugin(), web_plugin()]


def build_service(settings: Settings | None = None, plugins: list[Plugin] | None = None,
                  queued: bool = True):
    """A MatchService for `settings` (default: from the environment) with `plugins`
    (default: `default_plugins()`); `queued=False` queues no jobs (the caller runs them)."""
    settings = settings or Settings()
    return assemble(settings, default_plugins() if plugins is None else plugins, queued)


def create_app(test_config: dict | None = None, plugins: list[Plugin] | None = None):
    """The API app: settings from the environment overridden by `test_config`."""
    from referee.api import make_app  # Flask only for the app, not for the offline commands
    from referee.service.worker import start_embedded

    settings = Settings.from_mapping(test_config or {})
    plugins = default_plugins() if plugins is None else plugins
    service = build_service(settings, plugins)
    app = make_app(service, plugins, test_config)
    if settings.embedded or settings.inline_workers:
        app.extensions["referee.workers"] = start_embedded(
            service, settings.inline_workers or settings.embedded_workers)
    return app


def stop_app(app) -> None:
    """Stop the app's embedded workers, if it has any, and its change listener (tests, and a
    clean shutdown)."""
    workers = app.extensions.pop("referee.workers", None)
    if workers is not None:
        workers.stop()
    app.extensions["referee"].store.changes.close()   # its held-wait listener, if started


def commands(plugins: list[Plugin] | None = None) -> dict:
    """The plug-ins' `referee` subcommands by name."""
    found = {}
    for plugin in default_plugins() if plugins is None else plugins:
        found.update(plugin.commands)
    return found
