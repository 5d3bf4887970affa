"""Sockets whose every send and recv is bounded by one absolute deadline (the bot calls' sockets,
arena/botclient.py): a socket's own timeout is per recv, so a bot dripping one byte at a time
would never time out; these re-arm it to what is left before each (status line and headers
included; at most once a millisecond: REARM_S), and fail at once when nothing is left."""

from __future__ import annotations

import math
import socket
import ssl
import time


REARM_S = 0.001
"""A socket's timeout is set again once this long has passed since it was set for the same
deadline: the send of a request and the reads of its answer within a millisecond share one
setting (each is a system call); a deadline is overshot by this much at most."""


class Deadline:
    """Socket methods that re-arm the timeout to what is left of `deadline` each time (every
    REARM_S at most)."""

    deadline = math.inf
    _armed = (math.inf, -math.inf)   # (deadline, time) of the last setting

    def _arm(self) -> None:
        now = time.monotonic()
        left = self.deadline - now
        if left <= 0:
            raise TimeoutError("the call's deadline has passed")
        deadline, at = self._armed
        if deadline != self.deadline or now - at >= REARM_S:
            self.settimeout(left)
            self._armed = (self.deadline, now)

    def recv_into(self, *args, **kwargs):
        self._arm()
        return super().recv_into(*args, **kwargs)

    def recv(self, *args, **kwargs):
        self._arm()
        return super().recv(*args, **kwargs)

    def sendall(self, *args, **kwargs):
        self._arm()
        return super().sendall(*args, **kwargs)

    def send(self, *args, **kwargs):
        self._arm()
        return super().send(*args, **kwargs)


class DeadlineSocket(Deadline, socket.socket):
    """A TCP socket bounded by its deadline (an http bot's)."""


class DeadlineSSLSocket(Deadline, ssl.SSLSocket):
    """A TLS socket bounded by its deadline (an https bot's: the TLS context's socket class)."""
