"""Registering a running bot with the service and handing its secret to the kit."""

from __future__ import annotations

from referee_client.botkit.secret_store import write_secret
from referee_client.client import Client


def register(server, service_url: str, *, games=None, name: str | None = None,
             owner: str | None = None, url: str | None = None,
             client: Client | None = None, open: bool = False) -> dict:
    """Register `server` (it must be serving: the service calls its GET /) and give it the
    secret; also write the secret to its secret file, if it has one. The bot belongs to the
    client's account ($REFEREE_KEY; none needed against the local embedded default); `open`
    lets other accounts seat it. Returns the record."""
    client = client or Client(service_url)
    games = list(games or server.games or [g["name"] for g in client.games()])
    record = client.register_bot(url or server.url, games, name=name or server.name,
                                 owner=owner, open=open)
    server.secret = record["secret"]
    if server.secret_file:
        write_secret(server.secret_file, record["secret"])
    return record


__all__ = ["register", "write_secret"]
