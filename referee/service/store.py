"""Matches in Redis: immutable meta, the live record (state + version) and the move log.

Keys, under one prefix per match (`<prefix>:m:{<id>}:`, the id a hash tag: every key of a
match is in one Redis Cluster slot):
  meta   JSON, written once: game, rules version, players, options, seed, seats, labels,
         the seed's salt, commitment and group
  live   JSON: version, status, the full game state, pending seats, result, forfeits
  log    list of JSON move records, one per version
  events pub/sub channel: the new version is published on every commit
  ver    the version alone, which a commit checks
A commit is one small Lua script, atomic in Redis: if `ver` still holds the version the move was
made against, write live and ver, append the log entries and publish; otherwise change nothing.
Two writers at one version never both land; the loser sees `False` and retries from a fresh
read (or reports a stale version). One round trip per move. A reader that holds the live
record of a version asks `live_since` (one round trip): only `ver` comes back while the match
is still at that version, since a committed version has exactly one live record.

Why one module: `MatchStore` is the key layout above in code: its methods each read or write
those keys, and the commit script they share is what keeps them consistent, so a change to the
layout is checked against every use of it in one reading."""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass, field
from enum import Enum

import redis

from referee.core.chance import CHANCE, INTERNAL
from referee.service import embeddedscripts, fastjson
from referee.service.archive import Archive
from referee.service.durable import DurableCommits
from referee.service.indexes import Indexes
from referee.service.resp import Bulk
from referee.service.scripts import Keys, Rider, hot_script, run_together
from referee.service.waits import ChangeHub

_COMMIT = """
if redis.call('GET', KEYS[2]) ~= ARGV[1] then return 0 end
if ARGV[5] ~= '' then
  if redis.call('HEXISTS', KEYS[4], ARGV[5]) == 1 then return -1 end
  redis.call('HSET', KEYS[4], ARGV[5], ARGV[2])
  redis.call('EXPIRE', KEYS[4], ARGV[6])
end
redis.call('SET', KEYS[1], ARGV[3])
redis.call('SET', KEYS[2], ARGV[2])
for i = 7, #ARGV do redis.call('RPUSH', KEYS[3], ARGV[i]) end
for v = tonumber(ARGV[1]) + 1, tonumber(ARGV[2]) - 1 do redis.call('PUBLISH', ARGV[4], v) end
redis.call('PUBLISH', ARGV[4], ARGV[2])
return 1
"""
# The commit is one script on the match's own keys (one hash tag: one slot, one cluster
# node): version check, idempotency record, live record, log and change signal land together
# or not at all. It answers 1 (committed), 0 (the version moved on) or -1 (a move with this
# idempotency key already landed). The indexes that span matches (automated matches, remote
# deadlines) are in other slots: indexes.py writes them beside the commit, an add before it
# and a clear after it, which a crash between the two calls cannot make wrong (see there).
# A commit of several moves (the runner's batches, MatchService.commit_moves) publishes every
# version it passes, in order, as if each had been committed alone. The embedded store runs
# its Python twin, embeddedscripts.commit (and live_since for _LIVE_SINCE): keep the two in
# step (tests/service/test_embedded_scripts.py compares them).

_LIVE_SINCE = """
local v = redis.call('GET', KEYS[1])
if not v then return false end
if v == ARGV[1] then return {v} end
return {v, redis.call('GET', KEYS[2])}
"""
# A reader that holds the live record of some version sends it: when the match is still
# there, only the version comes back (a few bytes, no state to transfer and parse).

IDEMPOTENCY_TTL = 86_400
"""Seconds an Idempotency-Key of a move is remembered (the same key after that is new)."""
_TTL, _NO_KEY = Bulk(str(IDEMPOTENCY_TTL)), Bulk("")
# sent on every commit: written in RESP once (resp.Bulk)
META_CACHE_SIZE = 10_000
"""Metas kept per process (they never change); past it the cache starts again empty."""

_DUMPS, _DUMPB = fastjson.dumps, fastjson.dumpb
# Records are written as vars(record): dataclasses.asdict would deep-copy the whole game
# state first (measured: about 1 ms a commit on a Dschunke state). A commit sends bytes, as
# they go on the wire (no decode and encode again of the whole state).


class MatchStatus(str, Enum):
    """Where a match stands."""

    ACTIVE = "active"    # some seat must act
    OVER = "over"        # finished; result set
    ABORTED = "aborted"  # stopped by the service (never rated)


@dataclass(frozen=True)
class MatchMeta:
    """What never changes about a match."""

    id: str
    game: str
    rules_version: str
    players: int
    options: dict
    seed: int
    seats: list            # [{"kind": "remote"|"builtin:<name>"|"bot:<bot id>", "name": ...}]
    created_at: float
    token_hashes: list     # sha256 of each remote seat's token (None for automated seats)
    labels: dict = field(default_factory=dict)   # e.g. {"tournament": id, "rated": true}
    limits: dict = field(default_factory=dict)   # arena time limits and failure policy
    seed_salt: str = ""         # revealed with the seed (referee/service/seeds.py)
    seed_commitment: str = ""   # sha256 of seed and salt, public from creation ("" before)
    seed_group: str = ""        # matches sharing the seed; "" for matches stored before groups
    chance: str = INTERNAL      # "external": an organiser supplies chance (referee.core.chance)

    def seat_kind(self, seat: int) -> str:
        """The kind of seat `seat`: remote, builtin:<name>, bot:<bot id>, or chance (CHANCE)."""
        return "chance" if seat == CHANCE else self.seats[seat]["kind"]


@dataclass
class Live:
    """The changing part of a match: the state cache, version and result."""

    version: int
    status: str
    state: dict
    pending: list
    result: dict | None = None
    forfeits: dict = field(default_factory=dict)   # seat (str) -> failure record
    strikes: dict = field(default_factory=dict)    # seat (str) -> failures absorbed so far
    clocks: dict = field(default_factory=dict)     # seat (str) -> remaining time bank (ms)
    latency: dict = field(default_factory=dict)    # seat (str) -> last answer's latency (ms)
    streak: list = field(default_factory=lambda: [None, 0])  # [seat, moves in a row by it]
    updated_at: float = 0.0


def parse_live(raw: str | bytes) -> Live:
    """A live record from the JSON the store wrote."""
    return Live(**fastjson.loads(raw))


class MatchStore:
    """Reads and writes matches; the only code that knows the Redis keys."""

    def __init__(self, client: redis.Redis, prefix: str = "ref", data=None,
                 wait_ms: int = 0):
        """`client`: the coordination Redis (REDIS_URL: queues, accounts, bots, sessions, what
        other parts keep through `store.redis`); `data`: where match state lives (a Redis
        Cluster client from REFEREE_STORE_URL), `client` itself when not given. `wait_ms` > 0:
        every commit waits for a replica's acknowledgement, up to that long (durable.py)."""
        self.redis = client
        self.data = client if data is None else data
        self.prefix = prefix
        self._meta_cache: dict[str, MatchMeta] = {}
        self._wired: dict[str, _Wired] = {}
        self._commit = hot_script(self.data, _COMMIT, embeddedscripts.commit)
        if type(self.data).__module__.startswith("fakeredis"):
            wait_ms = 0   # the embedded store has no replica to wait for
        if wait_ms > 0:
            self._commit = DurableCommits(self.data, _COMMIT, wait_ms)
        self._live_since = hot_script(self.data, _LIVE_SINCE, embeddedscripts.live_since)
        self.indexes = Indexes(self.data, prefix, hot_script)
        self.archive = Archive(self.data, prefix, self.indexes)
        # held waits share one pub/sub listener per store (started by the first wait)
        self.changes = ChangeHub(self.data, self.change_channel, self.match_of_channel,
                                 control=f"{prefix}:hub:{uuid.uuid4().hex}")

    def key(self, match_id: str, part: str) -> str:
        """The Redis key of one part of a match: its id is the hash tag, so that every key
        of the match is in one cluster slot (one commit, one script, one node)."""
        return match_key(self.prefix, match_id, part)

    def create(self, meta: MatchMeta, live: Live, automated: bool,
               remote_due: float | None = None) -> None:
        """Store a new match; its id must be unused. `automated`: a bot must act next;
        `remote_due`: when the remote seat(s) to act forfeit on time (None: none is to act)."""
        live.updated_at = time.time()
        # indexed first (listed, and on the janitor's lists): a crash before the match's own
        # keys are written leaves entries for a match that does not exist, which every
        # reader skips (MatchService.load_many, the janitor), never a match nobody finds
        due = "" if remote_due is None else repr(remote_due)
        self.indexes.run(self.indexes.call(meta.id, live.version, "1" if automated else "",
                                           due, repr(meta.created_at)))
        pipe = self.data.pipeline(transaction=True)   # one slot: the match's tag
        pipe.set(self.key(meta.id, "meta"), _DUMPS(vars(meta)), nx=True)
        pipe.set(self.key(meta.id, "live"), _DUMPS(vars(live)))
        pipe.set(self.key(meta.id, "ver"), live.version)
        created = pipe.execute()[0]
        if not created:
            raise RuntimeError(f"match id {meta.id} already exists")
        self._remember(meta)   # the runner reads it next: no round trip for it

    def meta(self, match_id: str) -> MatchMeta | None:
        """The match's meta (cached: it never changes), or None if there is no such match."""
        cached = self._meta_cache.get(match_id)
        if cached is not None:
            return cached
        raw = self.data.get(self.key(match_id, "meta"))
        if raw is None:
            archived = self.archive.read(match_id)
            if archived is None:
                return None
            meta = MatchMeta(**archived["meta"])
        else:
            meta = MatchMeta(**fastjson.loads(raw))
        self._remember(meta)
        return meta

    def _remember(self, meta: MatchMeta) -> None:
        """Cache a meta; the cache is emptied past META_CACHE_SIZE entries (a process that
        only created matches grew it without bound)."""
        if len(self._meta_cache) >= META_CACHE_SIZE:
            self._meta_cache.clear()
        self._meta_cache[meta.id] = meta

    def live(self, match_id: str) -> Live | None:
        """The match's live record, or None."""
        raw = self.data.get(self.key(match_id, "live"))
        if raw is None:
            archived = self.archive.read(match_id)
            return None if archived is None else Live(**archived["live"])
        return parse_live(raw)

    def live_since(self, match_id: str, known: Live | None, meanwhile=None) -> Live | None:
        """The match's live record, in one round trip: `known` itself when the stored
        version is still its version (only the version is read), else the stored record;
        None if there is no such match. `meanwhile()` runs while the round trip is in flight
        (scripts.run_meanwhile: on a plain Redis server only)."""
        found = run_together([(self._live_since, self._wire(match_id).since,
                               [_NO_KEY if known is None else known.version])], 0,
                             meanwhile)[0]
        if not found or len(found) == 2 and found[1] is None:
            return self.live(match_id)   # archived (or gone): the archive answers
        return known if len(found) == 1 else parse_live(found[1])

    def lives_since(self, known: dict) -> dict:
        """`live_since` of many matches (match id: the live record known, or None) in two
        round trips: their versions, then the records that moved on; a match missing from
        the answer is gone (an archived one is read from the archive)."""
        ids = list(known)
        pipe = self.data.pipeline(transaction=False)
        for match_id in ids:
            pipe.get(self.key(match_id, "ver"))
        versions = dict(zip(ids, pipe.execute()))
        found = {m: known[m] for m, v in versions.items()
                 if v is not None and known[m] is not None and int(v) == known[m].version}
        moved = [m for m, v in versions.items() if v is not None and m not in found]
        pipe = self.data.pipeline(transaction=False)
        for match_id in moved:
            pipe.get(self.key(match_id, "live"))
        for match_id, raw in zip(moved, pipe.execute() if moved else []):
            found[match_id] = parse_live(raw) if raw is not None else self.live(match_id)
        for match_id in (m for m, v in versions.items() if v is None):
            found[match_id] = self.live(match_id)   # archived (or gone)
        return {m: live for m, live in found.items() if live is not None}

    def metas(self, match_ids: list[str]) -> dict:
        """`meta` of many matches (in their order), those not cached in one round trip; the
        missing left out."""
        found = {m: self._meta_cache[m] for m in match_ids if m in self._meta_cache}
        wanted = [m for m in match_ids if m not in found]
        pipe = self.data.pipeline(transaction=False)
        for match_id in wanted:
            pipe.get(self.key(match_id, "meta"))
        for match_id, raw in zip(wanted, pipe.execute() if wanted else []):
            meta = MatchMeta(**fastjson.loads(raw)) if raw is not None else self.meta(match_id)
            if meta is not None:
                self._remember(meta)
                found[match_id] = meta
        return {m: found[m] for m in match_ids if m in found}   # in the order asked

    def commit(self, match_id: str, expected_version: int, live: Live, entries: list[dict],
               automated: bool = False, idempotency: str = "",
               remote_due: float | None = None, state_json: bytes | None = None,
               meanwhile=None) -> int:
        """Write `live` and append `entries` if the stored version is still `expected_version`.

        `automated` says whether a bot (not a remote seat) must act next, which is what the
        janitor looks for when it resumes matches whose runner died. `idempotency` (a
        `seat:key` field) is recorded with the commit; a second commit with it answers -1.
        `remote_due`: when the remote seat(s) to act now forfeit on time (None: none is).
        `state_json`: the JSON of `live.state`, when the caller made it (written as it is).
        `meanwhile()` runs while the round trip is in flight (scripts.run_meanwhile).
        Returns 1 when committed, 0 when the version moved on.
        """
        calls = self._commit_calls(match_id, expected_version, live, entries, automated,
                                   idempotency, remote_due, state_json)
        return int(run_together(calls, 1, meanwhile)[1])

    def commit_with_rider(self, match_id: str, expected_version: int, live: Live,
                          entries: list[dict], automated: bool, remote_due: float | None,
                          rider: Rider, state_json: bytes | None = None) -> int:
        """`commit`, with the rider's script in the same round trip (pipelined after the
        commit on one plain Redis, as scripts.run_with_rider); the rider hears its reply and
        whether the commit landed."""
        before, commit, after = self._commit_calls(match_id, expected_version, live, entries,
                                                   automated, "", remote_due, state_json)
        calls = [before, commit, (rider.script, rider.keys, rider.args), after]
        try:
            replies = run_together(calls, 1, rider.meanwhile)
        except BaseException:
            rider.done(None, False)   # the round trip broke: whether the rider ran is unknown
            raise
        rider.done(replies[2], int(replies[1]) == 1)
        return int(replies[1])

    def _commit_calls(self, match_id, expected_version, live, entries, automated, idempotency,
                      remote_due, state_json=None) -> list:
        """The commit script's call, with the index writes before and after it (indexes.py)."""
        live.updated_at = time.time()
        wire = self._wire(match_id)
        record = fastjson.dumpb_with(vars(live), "state", state_json)
        args = [expected_version, live.version, record, wire.channel, idempotency or _NO_KEY,
                _TTL, *[_DUMPB(e) for e in entries]]
        index, match_id = self.indexes, wire.id
        return [index.before_commit(match_id, live.version, automated, remote_due),
                (self._commit, wire.commit, args),
                index.after_commit(match_id, live.version, automated, remote_due)]

    def _wire(self, match_id: str) -> "_Wired":
        """The match's keys, channel and id as its scripts send them, made once per match
        (kept as the metas are, emptied past META_CACHE_SIZE matches)."""
        wired = self._wired.get(match_id)
        if wired is None:
            if len(self._wired) >= META_CACHE_SIZE:
                self._wired.clear()
            live, ver, log, idem = (Bulk(self.key(match_id, part))
                                    for part in ("live", "ver", "log", "idem"))
            wired = self._wired[match_id] = _Wired(
                Keys((live, ver, log, idem)), Keys((ver, live)),
                Bulk(self.change_channel(match_id)), Bulk(match_id))
        return wired

    def landed_at(self, match_id: str, idempotency: str) -> int | None:
        """The version a move with this `seat:key` idempotency field produced, or None."""
        version = self.data.hget(self.key(match_id, "idem"), idempotency)
        return None if version is None else int(version)

    def remote_overdue(self, now: float) -> list[str]:
        """Matches whose remote seat(s) to act ran out of time by `now`: the janitor's list
        (entries may be stale: the janitor re-checks each against its live record)."""
        return self.indexes.scored_upto("remote-due", now)

    def repair_indexes(self, match_id: str, live: Live, automated: bool,
                       remote_due: float | None) -> None:
        """The janitor found an index entry that does not hold for `live`: write the truth."""
        self.indexes.repair(match_id, live.version, automated, remote_due)

    def automated_ids(self) -> list[str]:
        """Matches where a bot may have to act next: the janitor's work list (a superset:
        the janitor re-checks each one)."""
        return self.indexes.members("automated")

    def log(self, match_id: str, start: int = 0) -> list[dict]:
        """The move records from index `start` on (from the archive once archived)."""
        entries = self.data.lrange(self.key(match_id, "log"), start, -1)
        if not entries and not self.data.exists(self.key(match_id, "ver")):
            archived = self.archive.read(match_id)
            if archived is not None:
                return archived["log"][start:]
        return [fastjson.loads(e) for e in entries]

    def live_with_log_length(self, match_id: str) -> tuple[Live | None, int]:
        """The live record and the number of log entries at its version, read together."""
        pipe = self.data.pipeline(transaction=True)
        pipe.get(self.key(match_id, "live"))
        pipe.llen(self.key(match_id, "log"))
        raw, length = pipe.execute()
        if raw is None:
            archived = self.archive.read(match_id)
            return (None, 0) if archived is None else (Live(**archived["live"]),
                                                       len(archived["log"]))
        return parse_live(raw), length

    def wait_for_change(self, match_id: str, version: int, timeout: float) -> Live | None:
        """Block up to `timeout` seconds until the match moves past `version`; the newest live.

        The waiter is woken by the store's one pub/sub listener (waits.py), so a held wait
        takes no connection of its own."""
        return self.changes.wait_for_change(match_id, version, timeout,
                                            lambda: self.live(match_id))

    def change_channel(self, match_id: str) -> str:
        """The pub/sub channel every commit of the match publishes its new version on."""
        return self.key(match_id, "events")

    def match_of_channel(self, channel: str) -> str:
        """The match id of a change channel."""
        return channel[len(self.prefix) + 4:-len("}:events")]

    def list_ids(self, offset: int = 0, limit: int = 50, newest_first: bool = True) -> list[str]:
        """Match ids by creation time (merged from the index shards)."""
        return self.indexes.newest("matches", offset, limit, newest_first)

    def count(self) -> int:
        """How many matches are stored."""
        return self.indexes.count("matches")


@dataclass(frozen=True)
class _Wired:
    """One match's script keys and arguments, written in RESP once (MatchStore._wire)."""

    commit: Keys     # the commit script's: live, ver, log, idem
    since: Keys      # live_since's: ver, live
    channel: Bulk    # its change channel
    id: Bulk         # its id (the index script's first argument)


def match_key(prefix: str, match_id: str, part: str) -> str:
    """The key of one part of a match, `<prefix>:m:{<id>}:<part>` (other parts of the service
    that keep a key per match, the arena's and the queue's, name theirs with this too)."""
    return f"{prefix}:m:{{{match_id}}}:{part}"
