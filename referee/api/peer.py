"""Whether the client of a held request has closed its connection, asked without reading it.

A held response (an event stream) learns that its client left only when a write to it fails,
which an idle stream tries once a heartbeat. The servers we run under put the connection's
socket in the WSGI environ (gunicorn: `gunicorn.socket`; werkzeug's, under `referee serve`:
`werkzeug.socket`), and Linux's poll() says POLLRDHUP once the peer has closed, without a
byte read. Under gevent the original poll() is used (gevent's own maps only POLLIN and
POLLOUT), with a timeout of 0, so the question never blocks the greenlet or the thread.
"""

from __future__ import annotations

import select
import sys

_GONE = (getattr(select, "POLLRDHUP", 0) | select.POLLHUP | select.POLLERR
         | select.POLLNVAL)


def _poll_class():
    """The operating system's poll (gevent's patched one, where patched, lacks POLLRDHUP)."""
    monkey = sys.modules.get("gevent.monkey")
    if monkey is not None and monkey.is_module_patched("select"):
        return monkey.get_original("select", "poll")
    return select.poll


def client_gone_check(environ: dict):
    """A function answering whether this request's client has closed its connection, or
    None where the server does not expose the socket or the system has no POLLRDHUP (the
    stream then ends at the next write that fails, as before)."""
    sock = environ.get("gunicorn.socket") or environ.get("werkzeug.socket")
    if sock is None or not hasattr(select, "POLLRDHUP") or not hasattr(select, "poll"):
        return None
    try:
        fd = sock.fileno()
    except OSError:
        return None
    poll = _poll_class()

    def gone() -> bool:
        """True once the client closed (or reset) the connection."""
        poller = poll()
        poller.register(fd, _GONE)
        try:
            return any(events & _GONE for _, events in poller.poll(0))
        except OSError:
            return True
    return gone
