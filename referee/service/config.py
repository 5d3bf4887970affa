"""Settings from the environment, with the defaults a newcomer needs."""

from __future__ import annotations

import os
from dataclasses import dataclass, field


def _int(name: str, default: int) -> int:
    return int(os.environ.get(name, default))


@dataclass(frozen=True)
class Settings:
    """Service settings: REDIS_URL unset means the embedded in-process store and worker."""

    redis_url: str | None = field(default_factory=lambda: os.environ.get("REDIS_URL") or None)
    key_prefix: str = field(default_factory=lambda: os.environ.get("REFEREE_PREFIX", "ref"))
    queue_name: str = field(default_factory=lambda: os.environ.get("REFEREE_QUEUE", "referee"))
    max_body_bytes: int = field(default_factory=lambda: _int("REFEREE_MAX_BODY", 256 * 1024))
    max_wait_seconds: int = field(default_factory=lambda: _int("REFEREE_MAX_WAIT", 60))
    embedded_workers: int = field(default_factory=lambda: _int("REFEREE_EMBEDDED_WORKERS", 2))
    inline_workers: int = field(default_factory=lambda: _int("REFEREE_INLINE_WORKERS", 0))

    @property
    def embedded(self) -> bool:
        """True when no REDIS_URL is set: fakeredis in-process, worker threads in-process."""
        return self.redis_url is None
