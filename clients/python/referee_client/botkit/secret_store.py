"""Where a kit bot keeps its signing secret: a per-user state folder, never the working tree.

A bot started from a checkout used to write `my_bot.secret` into the repository; by default
the secret now goes to `$REFEREE_BOT_STATE_DIR`, else `$XDG_STATE_HOME/referee/bots`, else
`~/.local/state/referee/bots` (the XDG base-directory convention for state that outlives a
run), as `<bot name>.secret`, readable by its owner only.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

STATE_DIR_ENV = "REFEREE_BOT_STATE_DIR"


def state_dir() -> Path:
    """The folder kit bots keep their secrets in (created on first write)."""
    override = os.environ.get(STATE_DIR_ENV)
    if override:
        return Path(override).expanduser()
    xdg = os.environ.get("XDG_STATE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".local" / "state"
    return base / "referee" / "bots"


def default_secret_file(name: str) -> Path:
    """The secret file of the bot called `name` (its name made safe as a file name)."""
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._") or "bot"
    return state_dir() / f"{safe}.secret"


def write_secret(path, secret: str) -> None:
    """Write a secret readable by its owner only, creating its folder (owner-only) if needed."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(secret + "\n")
