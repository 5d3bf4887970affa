"""Every default of the service and the arena, in one place; modules refer to these names.

Settings (referee/service/config.py) reads the environment with these as fallbacks; the arena's
match limits, tournament sizes and the bot protocol's timeouts are here too, so a default is
changed once and the API schemas, the CLI and the runner agree.
"""

from __future__ import annotations

import os

# -- the HTTP service ---------------------------------------------------------------------
MAX_BODY_BYTES = 256 * 1024
"""Largest request body accepted (REFEREE_MAX_BODY)."""
MAX_WAIT_SECONDS = 60
"""Longest long-poll a prompt may ask for (REFEREE_MAX_WAIT)."""
REDIS_CONNECTIONS = int(os.environ.get("REFEREE_REDIS_CONNECTIONS", "100"))
"""Connections one process keeps to Redis at most; a request finding all in use waits for
one (REDIS_CONNECTION_WAIT_S) instead of failing (under gevent, many requests run at once)."""
REDIS_CONNECTION_WAIT_S = 10
KEY_PREFIX = "ref"
QUEUE_NAME = "referee"
EMBEDDED_WORKERS = 2
"""Worker threads of the embedded default (REFEREE_EMBEDDED_WORKERS)."""
MAX_WAITS = 2000
"""Waits (long polls and event streams) one server process holds at once (REFEREE_MAX_WAITS);
one more answers 503 wait.capacity."""
WAITS_PER_CALLER = 8
"""Waits one caller (a seat token, or a spectator's address) holds at once in one server
process (REFEREE_WAITS_PER_CALLER); one more answers 429 wait.too_many."""
HEARTBEAT_SECONDS = 15
"""Seconds between the comments that keep an idle event stream open (REFEREE_HEARTBEAT)."""
TICKET_SECONDS = 60
"""How long an event-stream ticket (POST /v1/matches/{id}/events/ticket) opens a stream."""
EVENT_WINDOW = 1000
"""Most missed versions an event stream sends again, one event each, to a reader that fell
behind or reconnected with Last-Event-ID (REFEREE_EVENT_WINDOW); more missed than that, and
it sends one `snapshot` event of the present instead. 1000 is more than any shipped game's
whole match (random playouts of all three, 8 seeds per player count, ended within 640
versions)."""

# -- matches, the runner and the workers --------------------------------------------------
COMMIT_ATTEMPTS = 8
"""Optimistic commits tried before a move fails as match.busy."""
LEASE_SECONDS = int(os.environ.get("REFEREE_LEASE_SECONDS", "10"))
"""How long a runner's claim on a match lasts without renewal (renewed before every move)."""
LOCK_SECONDS = 10
"""Leases of the leaderboard and ladder matchmaker (short critical sections)."""
JANITOR_INTERVAL = 2.0
"""Seconds between the janitor's sweeps."""
WORKER_POLL_SECONDS = 1
"""How often an idle embedded worker thread looks whether it was asked to stop."""
MAX_RESUMES = 5
"""Runners restarted at one version before the match is aborted as our own failure."""
JOB_TIMEOUT_SECONDS = 3600
JOB_FAILURE_TTL = 86400
"""How long failed jobs and resume counters stay in Redis (a day)."""
JOB_RESULT_TTL = 60

RETENTION_DAYS = 30
"""Days a finished match stays in the hot store before the janitor archives it
(REFEREE_RETENTION_DAYS; referee/service/archive.py)."""
MAX_MOVES = 10_000
"""Moves after which a match ends, adjudicated by the game's standing (termination
`move_cap`); the longest random playouts of the golden replays take under 1,500. A match's
`max_moves` sets its own (MAX_MOVES_BOUNDS)."""
MAX_MOVES_BOUNDS = (1, 1_000_000)
CHECK_SESSION_TTL_S = 3600
"""Seconds a check session lives after its last use (each move renews it)."""
CHECK_SESSIONS_PER_CALLER = 20
"""Check sessions one caller (API key, else address) may hold at once (session.too_many)."""
REMOTE_MOVE_S = 86_400
"""Seconds a remote seat may take over one decision before it forfeits (seat.timeout); a
match's `remote_move_s` sets its own (REMOTE_MOVE_S_BOUNDS)."""
REMOTE_MOVE_S_BOUNDS = (1, 30 * 86_400)

# -- the arena ----------------------------------------------------------------------------
MATCH_LIMITS = {"move_ms": 1000, "bank_ms": 10_000, "start_ms": 5000, "strikes": 0,
                "max_streak": 500}
"""Per-move limit, per-match time bank, /start limit, failures absorbed before a forfeit, and
how many moves in a row a bot may make before it counts as stalling (bot.stalling)."""
MATCH_LIMIT_BOUNDS = {"move_ms": (10, 120_000), "bank_ms": (0, 3_600_000),
                      "start_ms": (10, 120_000), "strikes": (0, 1000),
                      "max_streak": (5, 1_000_000)}
RATED_LIMIT_CEILINGS = {"move_ms": 10_000, "bank_ms": 120_000, "start_ms": 10_000}
"""The most a rated match (or rated event) may allow: a rated result cannot wait on a bot
thinking for the whole MATCH_LIMIT_BOUNDS (two minutes a move plus an hour's bank)."""
RATING_DEADLINE_S = int(os.environ.get("REFEREE_RATING_DEADLINE_S", "1800"))
"""How long after its creation a rated match may hold back the leaderboard: past this, later
results are applied without it, and its own result is applied when it arrives, as late."""
MAX_REPLAYS = 2
"""How many times a rated match the service aborted is replayed on its seed."""
END_TIMEOUT_S = 2.0
"""How long a bot's /end call may take (its answer changes nothing)."""
TOURNAMENT = {"format": "round_robin", "seeds_per_table": 2, "seatings": "rotations",
              "concurrency": 2, "max_matches": 100, "rated": True}
"""A tournament's parameters when the request leaves them out."""
TOURNAMENT_MAX_MATCHES = 500
"""The most matches one round robin may plan (REFEREE_TOURNAMENT_MAX_MATCHES): 8 bots at
4-player tables in every rotation on 2 seeds is 560; a league wider than that is several
requests. It was 5,000, each match queued at once."""
LADDER_MAX_MATCHES = 2000
"""The largest `max_matches` a ladder may ask for (REFEREE_LADDER_MAX_MATCHES); a ladder runs
`concurrency` at a time, but every match it creates stays stored. It was 100,000."""

# -- rate limits and quotas (referee/limits.py) -------------------------------------------
RATE_LIMITS = True
"""Whether the limits below apply (REFEREE_RATE_LIMITS=off turns them off: load benchmarks)."""
RATE = {
    "matches": ("60/minute", "300/minute"),
    "moves": ("1200/minute", "6000/minute"),
    "checks": ("300/minute", "1200/minute"),
    "bots": ("20/hour", "60/hour"),
    "events": ("60/hour", "240/hour"),
}
"""Per route family, (per API key or token, per address), in flask-limiter's notation
(REFEREE_RATE_<FAMILY> and REFEREE_RATE_<FAMILY>_ADDR). Families: `matches` (POST
/v1/matches), `moves` (a seat's moves and resignations), `checks` (POST /v1/games/{game}/check),
`bots` (registering a bot: each costs a call to its host), `events` (tournaments, ladders and
arena matches). An address limit is several keys' worth: many clients share one address
behind a NAT. Moves: a seat's 20 a second is more than any remote player needs, and a bot
playing through the API is not held back by it."""
MAX_ACTIVE_MATCHES = 200
"""Matches created by one API key (or token), and separately by one address, that may be
unfinished at once (REFEREE_MAX_ACTIVE_MATCHES); beyond it creating matches and events answers
429 quota.active_matches. A tournament counts every match it created."""
