"""Settings from the environment, with the defaults a newcomer needs."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from referee.service import defaults


def _int(name: str, default: int):
    return field(default_factory=lambda: int(os.environ.get(name, default)))


def _str(name: str, default: str):
    return field(default_factory=lambda: os.environ.get(name, default))


@dataclass(frozen=True)
class Settings:
    """Service settings: REDIS_URL unset means the embedded in-process store and worker."""

    redis_url: str | None = field(default_factory=lambda: os.environ.get("REDIS_URL") or None)
    key_prefix: str = _str("REFEREE_PREFIX", defaults.KEY_PREFIX)
    queue_name: str = _str("REFEREE_QUEUE", defaults.QUEUE_NAME)
    max_body_bytes: int = _int("REFEREE_MAX_BODY", defaults.MAX_BODY_BYTES)
    max_wait_seconds: int = _int("REFEREE_MAX_WAIT", defaults.MAX_WAIT_SECONDS)
    max_waits: int = _int("REFEREE_MAX_WAITS", defaults.MAX_WAITS)
    waits_per_caller: int = _int("REFEREE_WAITS_PER_CALLER", defaults.WAITS_PER_CALLER)
    heartbeat_seconds: float = field(default_factory=lambda: float(
        os.environ.get("REFEREE_HEARTBEAT", defaults.HEARTBEAT_SECONDS)))
    embedded_workers: int = _int("REFEREE_EMBEDDED_WORKERS", defaults.EMBEDDED_WORKERS)
    inline_workers: int = _int("REFEREE_INLINE_WORKERS", 0)
    retention_days: float = field(default_factory=lambda: float(
        os.environ.get("REFEREE_RETENTION_DAYS", defaults.RETENTION_DAYS)))

    @property
    def embedded(self) -> bool:
        """True when no REDIS_URL is set: fakeredis in-process, worker threads in-process."""
        return self.redis_url is None

    @classmethod
    def from_mapping(cls, config: dict) -> "Settings":
        """The environment's settings, overridden by `config` (keys in any case)."""
        return cls(**{k.lower(): v for k, v in config.items()
                      if k.lower() in cls.__dataclass_fields__})
