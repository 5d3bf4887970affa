"""Settings from the environment, with the defaults a newcomer needs."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from referee.service import defaults


def _int(name: str, default: int):
    return field(default_factory=lambda: int(os.environ.get(name, default)))


def _str(name: str, default: str):
    return field(default_factory=lambda: os.environ.get(name, default))


def _flag(name: str, default: bool):
    return field(default_factory=lambda: os.environ.get(name, "on" if default else "off")
                 .strip().lower() not in ("off", "0", "false", "no"))


def _rate(name: str, family: str, per: int):
    return _str(name, defaults.RATE[family][per])


@dataclass(frozen=True)
class Settings:
    """Service settings: REDIS_URL unset means the embedded in-process store and worker."""

    redis_url: str | None = field(default_factory=lambda: os.environ.get("REDIS_URL") or None)
    # match state on a Redis Cluster (redis+cluster://host:port,host:port,...); unset: the
    # matches live on REDIS_URL with everything else (connection.connect_store)
    store_url: str | None = field(
        default_factory=lambda: os.environ.get("REFEREE_STORE_URL") or None)
    # > 0: each commit waits (WAIT 1 <ms>) for a replica's acknowledgement before the answer
    store_wait_ms: int = _int("REFEREE_STORE_WAIT_MS", 0)
    key_prefix: str = _str("REFEREE_PREFIX", defaults.KEY_PREFIX)
    queue_name: str = _str("REFEREE_QUEUE", defaults.QUEUE_NAME)
    max_body_bytes: int = _int("REFEREE_MAX_BODY", defaults.MAX_BODY_BYTES)
    max_wait_seconds: int = _int("REFEREE_MAX_WAIT", defaults.MAX_WAIT_SECONDS)
    max_waits: int = _int("REFEREE_MAX_WAITS", defaults.MAX_WAITS)
    waits_per_caller: int = _int("REFEREE_WAITS_PER_CALLER", defaults.WAITS_PER_CALLER)
    heartbeat_seconds: float = field(default_factory=lambda: float(
        os.environ.get("REFEREE_HEARTBEAT", defaults.HEARTBEAT_SECONDS)))
    event_window: int = _int("REFEREE_EVENT_WINDOW", defaults.EVENT_WINDOW)
    embedded_workers: int = _int("REFEREE_EMBEDDED_WORKERS", defaults.EMBEDDED_WORKERS)
    inline_workers: int = _int("REFEREE_INLINE_WORKERS", 0)
    retention_days: float = field(default_factory=lambda: float(
        os.environ.get("REFEREE_RETENTION_DAYS", defaults.RETENTION_DAYS)))
    tournament_max_matches: int = _int("REFEREE_TOURNAMENT_MAX_MATCHES",
                                       defaults.TOURNAMENT_MAX_MATCHES)
    ladder_max_matches: int = _int("REFEREE_LADDER_MAX_MATCHES", defaults.LADDER_MAX_MATCHES)
    # rate limits (referee/limits.py): per key, and per address (_addr), by route family
    rate_limits: bool = _flag("REFEREE_RATE_LIMITS", defaults.RATE_LIMITS)
    rate_matches: str = _rate("REFEREE_RATE_MATCHES", "matches", 0)
    rate_matches_addr: str = _rate("REFEREE_RATE_MATCHES_ADDR", "matches", 1)
    rate_moves: str = _rate("REFEREE_RATE_MOVES", "moves", 0)
    rate_moves_addr: str = _rate("REFEREE_RATE_MOVES_ADDR", "moves", 1)
    rate_checks: str = _rate("REFEREE_RATE_CHECKS", "checks", 0)
    rate_checks_addr: str = _rate("REFEREE_RATE_CHECKS_ADDR", "checks", 1)
    rate_bots: str = _rate("REFEREE_RATE_BOTS", "bots", 0)
    rate_bots_addr: str = _rate("REFEREE_RATE_BOTS_ADDR", "bots", 1)
    rate_events: str = _rate("REFEREE_RATE_EVENTS", "events", 0)
    rate_events_addr: str = _rate("REFEREE_RATE_EVENTS_ADDR", "events", 1)
    max_active_matches: int = _int("REFEREE_MAX_ACTIVE_MATCHES", defaults.MAX_ACTIVE_MATCHES)
    proxy_hops: int = _int("REFEREE_PROXY_HOPS", 0)

    @property
    def embedded(self) -> bool:
        """True when no REDIS_URL is set: fakeredis in-process, worker threads in-process."""
        return self.redis_url is None

    @classmethod
    def from_mapping(cls, config: dict) -> "Settings":
        """The environment's settings, overridden by `config` (keys in any case)."""
        return cls(**{k.lower(): v for k, v in config.items()
                      if k.lower() in cls.__dataclass_fields__})
