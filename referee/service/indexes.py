"""The store's indexes that span matches, kept in shards of their own, never in a match's slot.

Every key of one match carries the hash tag `{<match id>}` (MatchStore.key), so a commit is one
Lua script on one Redis Cluster node. An index over many matches (the janitor's work list of
automated matches, the remote seats' deadlines, the list of matches, the finished ones) cannot
be in that slot, so it lives in INDEX_SHARDS shards, a match's entries in the shard
crc32(id) % INDEX_SHARDS, each shard's keys tagged `{<prefix>:ix<n>}`: a shard is one slot, and
the shards spread over the cluster's primaries. An index write is a second call beside the
commit (pipelined in the same round trip on a single Redis), so it is correct however the two
are ordered by a crash:

  - an entry is ADDED (`mark`: the match is automated, or a remote seat has a deadline)
    BEFORE the commit that needs it: a crash after the add and before the commit leaves an
    entry for a record that never landed, which is harmless because every reader of an index
    (the janitor's sweep and expire_remote) re-checks the live record and skips (or drops)
    entries that do not hold;
  - an entry is REMOVED (`clear`) only AFTER the commit: a crash in between leaves a stale
    entry, harmless as above; never a missing one, which would strand an automated match or
    let a remote seat's clock run forever;
  - every write carries the version of the record it is for, and the shard's `ver` hash keeps
    the newest version written per match and index: a late clear (from a slow or failed
    writer) never removes the add of a newer record. An add is applied at a version >= the
    newest, a clear only at a strictly newer one, so a clear from a writer whose commit lost
    the race at version v never undoes the winner's add at v, in either order.

Each commit whose new record is automated (or has a deadline) adds, and each whose record is
not clears: the index is never trusted to be up to date from an earlier commit.
"""

from __future__ import annotations

import zlib

from referee.service.resp import Bulk

INDEX_SHARDS = 16
"""Shards of every cross-match index: enough to spread over a few primaries, few enough that a
janitor reads them all in one pipelined round trip."""

_INDEX = """
local id, v = ARGV[1], tonumber(ARGV[2])
local function may(field, adding)
  local last = tonumber(redis.call('HGET', KEYS[1], field .. id) or '-1')
  if v < last or (not adding and v == last) then return false end
  redis.call('HSET', KEYS[1], field .. id, ARGV[2])
  return true
end
if ARGV[3] == '1' and may('a:', true) then redis.call('SADD', KEYS[2], id) end
if ARGV[3] == '0' and may('a:', false) then redis.call('SREM', KEYS[2], id) end
if ARGV[4] == '-' then
  if may('d:', false) then redis.call('ZREM', KEYS[3], id) end
elseif ARGV[4] ~= '' and may('d:', true) then redis.call('ZADD', KEYS[3], ARGV[4], id) end
if ARGV[5] ~= '' then redis.call('ZADD', KEYS[4], ARGV[5], id) end
return 1
"""
# KEYS: the shard's ver hash, automated set, remote-due sorted set, matches sorted set.
# ARGV: match id, version; automated '1' add / '0' clear / '' untouched; remote due: a
# deadline to add, '-' to clear, '' untouched; a creation time to list the match by ('').


_NONE, _ONE, _ZERO, _DASH = (Bulk(flag) for flag in ("", "1", "0", "-"))
# the script's flags, sent on every commit: written in RESP once (resp.Bulk)


def shard_of(match_id: str) -> int:
    """The index shard of a match (stable across processes and restarts)."""
    return zlib.crc32(match_id.encode()) % INDEX_SHARDS


class Indexes:
    """The cross-match indexes of one store prefix, in INDEX_SHARDS shards."""

    def __init__(self, client, prefix: str, hot_script):
        from referee.service import embeddedscripts

        from referee.service.scripts import Keys

        self.redis, self.prefix = client, prefix
        self.script = hot_script(client, _INDEX, embeddedscripts.index)
        # each shard's script keys, made once (a commit sent two shards' keys, built anew)
        self._keys = [Keys([Bulk(self.key(shard, n))
                            for n in ("ver", "automated", "remote-due", "matches")])
                      for shard in range(INDEX_SHARDS)]

    def key(self, shard: int, name: str) -> str:
        """One index key of one shard: automated, remote-due, matches, finished or ver."""
        return f"{self.prefix}:ix:{{{self.prefix}:ix{shard}}}:{name}"

    def keys(self, match_id: str) -> tuple[str, ...]:
        """The index script's KEYS for the shard of `match_id` (scripts.Keys)."""
        return self._keys[shard_of(match_id)]

    def call(self, match_id: str, version: int, automated: str = "", due: str = "",
             created: str = _NONE) -> tuple:
        """(script, keys, args) of one index write (see the module's rules for its order)."""
        return self.script, self.keys(match_id), [match_id, version, automated, due, created]

    def before_commit(self, match_id: str, version: int, automated: bool,
                      remote_due: float | None) -> tuple | None:
        """The adds a commit of `version` needs first (None: nothing to add)."""
        if not automated and remote_due is None:
            return None
        return self.call(match_id, version, _ONE if automated else _NONE,
                         _NONE if remote_due is None else repr(remote_due))

    def after_commit(self, match_id: str, version: int, automated: bool,
                     remote_due: float | None) -> tuple | None:
        """The clears that follow a commit of `version` (None: nothing to clear)."""
        if automated and remote_due is not None:
            return None
        return self.call(match_id, version, _NONE if automated else _ZERO,
                         _DASH if remote_due is None else _NONE)

    def run(self, call) -> None:
        """Run one index write made by `call`/`before_commit`/`after_commit`."""
        if call is not None:
            script, keys, args = call
            script(keys=keys, args=args)

    def repair(self, match_id: str, version: int, automated: bool,
               remote_due: float | None) -> None:
        """The janitor found an entry that does not hold for the live record at `version`:
        write the record's truth, half a version on (newer than any write for `version`,
        older than the next commit's add, which therefore still wins)."""
        self.run(self.call(match_id, version + 0.5, "1" if automated else "0",
                           "-" if remote_due is None else repr(remote_due)))

    def members(self, name: str) -> list[str]:
        """Every match id of the set index `name` (automated), all shards in one round trip."""
        pipe = self.redis.pipeline(transaction=False)
        for shard in range(INDEX_SHARDS):
            pipe.smembers(self.key(shard, name))
        return [m for found in pipe.execute() for m in found]

    def scored_upto(self, name: str, most: float, limit: int | None = None) -> list[str]:
        """Match ids of the sorted index `name` scored up to `most`, lowest first."""
        pipe = self.redis.pipeline(transaction=False)
        for shard in range(INDEX_SHARDS):
            if limit is None:
                pipe.zrangebyscore(self.key(shard, name), 0, most, withscores=True)
            else:
                pipe.zrangebyscore(self.key(shard, name), 0, most, start=0, num=limit,
                                   withscores=True)
        found = sorted((s, m) for part in pipe.execute() for m, s in part)
        return [m for _, m in found[:limit]]

    def newest(self, name: str, offset: int, limit: int, newest_first: bool) -> list[str]:
        """A page of the sorted index `name` (matches) in score order across shards: each shard
        gives its first offset+limit, merged."""
        pipe = self.redis.pipeline(transaction=False)
        end = offset + limit - 1
        for shard in range(INDEX_SHARDS):
            read = pipe.zrevrange if newest_first else pipe.zrange
            read(self.key(shard, name), 0, end, withscores=True)
        found = sorted(((s, m) for part in pipe.execute() for m, s in part),
                       reverse=newest_first)
        return [m for _, m in found[offset:offset + limit]]

    def count(self, name: str) -> int:
        """Members of the sorted index `name` over all shards."""
        pipe = self.redis.pipeline(transaction=False)
        for shard in range(INDEX_SHARDS):
            pipe.zcard(self.key(shard, name))
        return sum(pipe.execute())

    def add_scored(self, name: str, match_id: str, score: float) -> None:
        """ZADD one match to the sorted index `name` (finished)."""
        self.redis.zadd(self.key(shard_of(match_id), name), {match_id: score})

    def remove_scored(self, name: str, match_id: str) -> None:
        """ZREM one match from the sorted index `name`."""
        self.redis.zrem(self.key(shard_of(match_id), name), match_id)

    def drop(self, match_id: str) -> None:
        """Remove a match from every index (it was archived: it never changes again); one
        MULTI on its shard's slot."""
        shard = shard_of(match_id)
        pipe = self.redis.pipeline(transaction=True)
        pipe.hdel(self.key(shard, "ver"), f"a:{match_id}", f"d:{match_id}")
        pipe.srem(self.key(shard, "automated"), match_id)
        for name in ("remote-due", "matches", "finished"):
            pipe.zrem(self.key(shard, name), match_id)
        pipe.execute()
