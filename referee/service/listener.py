"""RQ's command listener, made to end as soon as its worker stops, under every redis-py.

An RQ worker listens for commands (`rq shutdown`, stop-job, kill-horse) on a Pub/Sub channel
in a thread: redis-py's `PubSubWorkerThread`, which reads with a 60 s timeout. Clearing its
run flag never interrupted that read. Up to redis-py 6 `stop()` only cleared the flag and RQ
joined for a second, so a stopping worker left a reader behind; redis-py 8's `stop()` joins
the reader until it ends, and RQ's `unsubscribe()` sends UNSUBSCRIBE first, whose reply wakes
the reader *before* the flag is cleared: it reads again, and the worker's stop (a SIGTERM, an
embedded app's stop) waited out the whole 60 s read.

Here the read is ended the way a blocked socket read ends: by a message. The flag is cleared
first, then a message the listener ignores is published on the channel from another
connection; the reader wakes, sees the flag, and closes its own Pub/Sub connection (never
touched from the stopping thread: under the embedded store that raised "generator already
executing" in the reader). Only public redis-py calls are used, so it behaves the same from
the oldest redis-py the project allows to the newest.
"""

from __future__ import annotations

import logging
import threading

import redis

log = logging.getLogger(__name__)

READ_SECONDS = 60
"""How long one read for a command waits; a stop does not wait for it (see the module)."""

STOP_WAIT_SECONDS = 5.0
"""How long a stop waits for the listener to end (it ends as soon as the wake message
reaches it)."""

RETRY_SECONDS = 2.0
"""The pause after a lost connection before reading again, as RQ's own listener does."""

WAKE = '{"command": "referee-wake"}'
"""What wakes the listener as it stops: a command RQ does not know, so it does nothing."""


class CommandListener(threading.Thread):
    """A worker's command listener that `stop()` ends at once, from any thread."""

    def __init__(self, worker):
        super().__init__(daemon=True, name=f"rq-commands-{worker.name}")
        self.channel, self.publisher = worker.pubsub_channel_name, worker.connection
        self.pubsub = worker.connection.pubsub()
        self.pubsub.subscribe(**{self.channel: worker.handle_payload})
        self.stopped = threading.Event()  # set before start() too: a stop is never undone

    def run(self) -> None:
        """Read and handle commands until stopped, then close the Pub/Sub connection."""
        try:
            while not self.stopped.is_set():
                try:
                    self.pubsub.get_message(ignore_subscribe_messages=True,
                                            timeout=READ_SECONDS)
                except redis.ConnectionError as err:  # redis-py resubscribes on reconnect
                    log.error("command listener %s: %s; retrying", self.name, err)
                    self.stopped.wait(RETRY_SECONDS)
        finally:
            self.pubsub.close()

    def stop(self, timeout: float = STOP_WAIT_SECONDS) -> None:
        """Mark it stopped, wake the read with an ignored message, wait for it to end."""
        self.stopped.set()
        try:
            self.publisher.publish(self.channel, WAKE)
        except redis.RedisError as err:  # Redis is gone: the read fails and sees the flag
            log.warning("command listener %s: no wake message (%s)", self.name, err)
        if threading.current_thread() is not self and self.is_alive():
            self.join(timeout)
