"""Redis round trips counted, for `referee bench arena` and the tests of what a move costs:
redis-py's sends and the store's own sockets (referee/service/scripts.py) wrapped while a
`RoundTrips` block runs, in the thread that opened it."""

from __future__ import annotations

import threading

import redis.connection

from referee.service import scripts


class RoundTrips:
    """Counts what this thread sends to Redis: one packet (a command or a pipeline) is one
    round trip, through redis-py or the store's own sockets for its hot scripts
    (referee/service/scripts.py). A new connection's set-up (AUTH, SELECT of a database
    other than 0, redis-py's CLIENT SETINFO) is counted apart, in `connections`: it is paid
    once per connection, not per move, and whether it is paid depends on the URL's database.
    Health PINGs, which redis-py adds after 30 s idle, are left out."""

    CONNECTS = ("connect", "connect_check_health")
    """redis-py's methods that open a connection and set it up: `connect` in every release,
    and, from redis-py 7, `connect_check_health`, which a command on a closed connection
    calls directly."""

    def __init__(self):
        self.count, self.connections, self._thread = 0, 0, threading.get_ident()
        self._connecting = 0   # depth of set-up calls under way in the counted thread
        self._send = redis.connection.AbstractConnection.send_packed_command
        self._encode = scripts._command
        self._originals = {name: getattr(redis.connection.AbstractConnection, name)
                           for name in self.CONNECTS
                           if hasattr(redis.connection.AbstractConnection, name)}
        self._open_socket = scripts.Sockets._connect

    def _counted(self) -> bool:
        return threading.get_ident() == self._thread and not self._connecting

    def _setting_up(self, opener, opens=lambda *args: True):
        """`opener` wrapped: what it sends is set-up, and a call in the counted thread that
        `opens` a connection (not one nested in another's set-up) is one connection."""
        counter = self

        def opening(*args, **kwargs):
            mine = threading.get_ident() == counter._thread
            if mine and not counter._connecting and opens(*args):
                counter.connections += 1
            if mine:
                counter._connecting += 1
            try:
                return opener(*args, **kwargs)
            finally:
                if mine:
                    counter._connecting -= 1
        return opening

    def __enter__(self) -> "RoundTrips":
        send, encode, counter = self._send, self._encode, self

        def counting(conn, command, check_health=True):
            if counter._counted() and not _is_ping(command):
                counter.count += 1
            return send(conn, command, check_health)

        def counting_script(*commands):   # one round trip, however many it pipelines
            if counter._counted():
                counter.count += 1
            return encode(*commands)

        redis.connection.AbstractConnection.send_packed_command = counting
        scripts._command = counting_script
        scripts.Sockets._connect = self._setting_up(self._open_socket)
        for name, original in self._originals.items():   # counted when it had no socket
            setattr(redis.connection.AbstractConnection, name, self._setting_up(
                original, lambda conn, *rest: getattr(conn, "_sock", None) is None))
        return self

    def __exit__(self, *exc) -> None:
        redis.connection.AbstractConnection.send_packed_command = self._send
        scripts._command = self._encode
        scripts.Sockets._connect = self._open_socket
        for name, original in self._originals.items():
            setattr(redis.connection.AbstractConnection, name, original)


def _is_ping(command) -> bool:
    data = command if isinstance(command, (bytes, str)) else b"".join(command)
    data = data.encode() if isinstance(data, str) else data
    return b"PING" in data[:20]
