"""A commit acknowledged by a replica: `WAIT 1 <ms>` sent on the connection the commit went on.

WAIT counts the replicas that acknowledged every write of *its own connection*, so it must
follow the commit on the same connection: a non-transactional pipeline of the node that holds
the match (its own client, for a Redis Cluster) sends the two in one round trip. With it
(REFEREE_STORE_WAIT_MS > 0), a move the API acknowledged is on the primary and at least one
replica, so a failover that promotes that replica keeps it; without it, a move acknowledged in
the last moments before a primary dies (what replication had not sent yet, typically a few ms)
is lost, and its match resumes from the version before.
"""

from __future__ import annotations

import logging

from redis.exceptions import NoScriptError, ResponseError

log = logging.getLogger(__name__)


class DurableCommits:
    """Runs a commit script followed by WAIT 1 <ms> on one connection of the match's node."""

    def __init__(self, client, text: str, wait_ms: int):
        self.client, self.wait_ms = client, wait_ms
        self.script = client.register_script(text)
        self.unacknowledged = 0   # commits no replica acknowledged within wait_ms

    def _node_client(self, key: str):
        get_node = getattr(self.client, "get_node_from_key", None)
        return self.client if get_node is None else get_node(key).redis_connection

    def __call__(self, keys, args):
        """The commit script's reply, once a replica acknowledged it (or wait_ms passed)."""
        for attempt in range(3):
            node = self._node_client(keys[0])
            pipe = node.pipeline(transaction=False)
            pipe.evalsha(self.script.sha, len(keys), *keys, *args)
            pipe.execute_command("WAIT", 1, self.wait_ms)
            try:
                landed, acked = pipe.execute()
            except NoScriptError:
                node.script_load(self.script.script)
                continue
            except ResponseError as err:   # the slot moved (a failover): not run; again
                if not str(err).startswith(("MOVED", "ASK", "CLUSTERDOWN", "TRYAGAIN")) \
                        or attempt == 2:
                    raise
                self.client.nodes_manager.initialize()
                continue
            if int(acked) < 1:
                self.unacknowledged += 1
                log.warning("a commit was not acknowledged by a replica within %d ms",
                            self.wait_ms)
            return landed
        raise ResponseError("the commit could not be sent to the match's node")
