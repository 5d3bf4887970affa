"""The access plug-in: accounts with API keys, the request hook, /v1/accounts, `referee keys`.

In the embedded default (no REDIS_URL) a keyless request from this machine acts as the local
organiser (said in `referee serve`'s banner); with REDIS_URL set, every write needs a key.
$REFEREE_ORGANISER_KEY (optional, `rk_` and at least 32 more characters) installs an organiser
account `organiser` with that key at start-up: a deployment's first organiser from its secrets,
without running `referee keys create`.
"""

from __future__ import annotations

import os

from referee.access.accounts import Accounts, AccountNotFound
from referee.service.access import KEY_PREFIX, LOCAL_ACCOUNT, PROBLEMS, seat_owners
from referee.service.plugins import Command, Plugin, ServiceHooks


ORGANISER_KEY_ENV = "REFEREE_ORGANISER_KEY"
ORGANISER_ACCOUNT = "organiser"


def _settings(_base) -> dict:
    """The deployment's organiser key, if it gives one; a malformed one fails start-up."""
    key = os.environ.get(ORGANISER_KEY_ENV) or None
    if key is not None and (not key.startswith(KEY_PREFIX) or len(key) < len(KEY_PREFIX) + 32):
        raise ValueError(f"{ORGANISER_KEY_ENV} must be '{KEY_PREFIX}' and at least 32 more "
                         f"characters (make one with: python3 -c \"import secrets; "
                         f"print('{KEY_PREFIX}' + secrets.token_urlsafe(32))\")")
    return {"organiser_key": key}


class Access(ServiceHooks):
    """The access plug-in's object over one service: its account store."""

    def __init__(self, service, settings: dict):
        self.accounts = Accounts(service.store.redis, service.store.prefix)
        if service.settings.embedded:
            self.accounts.ensure(LOCAL_ACCOUNT, "local organiser", "organiser")
        if settings.get("organiser_key"):
            self.accounts.install(ORGANISER_ACCOUNT, "organiser", "organiser",
                                  settings["organiser_key"])
        self.drivers = service.drivers

    def may_see_seat(self, meta, seat: int, caller) -> bool:
        """The owner of the bot in `seat` sees that seat's failure details while the match
        runs (the seat token holder always does; see referee/service/disclosure.py)."""
        who = getattr(caller, "principal", None)
        if who is None or not getattr(who, "id", None):
            return False
        return seat_owners(self.drivers, [meta.seats[seat]["kind"]])[0] == who.id


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
    return Plugin(name="access", settings=_settings, attach=Access,
                  api=_api, request_hooks=_hooks, problems=PROBLEMS,
                  commands={"keys": Command("create an account and print its API key "
                                            "(needs REDIS_URL)", _keys)})


__all__ = ["Access", "AccountNotFound", "access_plugin"]
