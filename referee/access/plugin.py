"""The access plug-in: accounts with API keys, the request hook, /v1/accounts, `referee keys`.

In the embedded default (no REDIS_URL) a keyless request from this machine acts as the local
organiser (said in `referee serve`'s banner); with REDIS_URL set, every write needs a key.
"""

from __future__ import annotations

from referee.access.accounts import Accounts, AccountNotFound
from referee.service.access import LOCAL_ACCOUNT, PROBLEMS
from referee.service.plugins import Command, Plugin, ServiceHooks


class Access(ServiceHooks):
    """The access plug-in's object over one service: its account store."""

    def __init__(self, service):
        self.accounts = Accounts(service.store.redis, service.store.prefix)
        if service.settings.embedded:
            self.accounts.ensure(LOCAL_ACCOUNT, "local organiser", "organiser")


def _hooks() -> list:
    from referee.access.hook import authenticate  # Flask: only when an app is built
    return [authenticate]


def _api() -> list:
    from referee.access.api import BLUEPRINTS
    return list(BLUEPRINTS)


def _keys(argv) -> None:
    from referee.access.cli import keys
    keys(argv)


def access_plugin() -> Plugin:
    """The access plug-in (see the module docstring)."""
    return Plugin(name="access", attach=lambda service, _settings: Access(service),
                  api=_api, request_hooks=_hooks, problems=PROBLEMS,
                  commands={"keys": Command("create an account and print its API key "
                                            "(needs REDIS_URL)", _keys)})


__all__ = ["Access", "AccountNotFound", "access_plugin"]
