"""URL routing remembered per request line: a seat's prompt and move paths repeat on every
move, so binding the URL map to a request and matching its path is done once per path.

werkzeug binds the map to every request (its host read and checked twice, the script name,
path and query string decoded, the server name IDNA-encoded) and walks its state machine to
match the path; keeping both saved about 87,000 instructions a request (cg.sh: Dschunke
prompts and moves, in-process). A `RoutingMap` keeps the adapter it bound for the same
environ values (a bounded cache), and the adapter keeps the rule and arguments its default
match found; a match that raises (404, 405, a redirect) is never kept and raises again each
time. Adding a rule forgets every adapter.
"""

from __future__ import annotations

from werkzeug.routing import Map, MapAdapter

from referee.api.lifecycle import FOLLOWS_WERKZEUG
from referee.core.caches import trim_oldest

ROUTED_LIMIT = 4096
"""Adapters a map keeps (one per distinct request line; the oldest goes first)."""

_ENVIRON_KEYS = ("HTTP_HOST", "SERVER_NAME", "SERVER_PORT", "wsgi.url_scheme",
                 "HTTP_CONNECTION", "HTTP_UPGRADE", "SCRIPT_NAME", "PATH_INFO", "QUERY_STRING",
                 "REQUEST_METHOD")
"""Every environ value werkzeug's `bind_to_environ` reads (its host, scheme, websocket
upgrade, script name, path, query string and method)."""


class RememberingAdapter(MapAdapter):
    """A MapAdapter that keeps what its default match (Flask's) found."""

    _found = None

    def match(self, path_info=None, method=None, return_rule=False, query_args=None,
              websocket=None):
        """werkzeug's match; Flask's call (`return_rule=True`, nothing else) once per adapter."""
        if not return_rule or path_info is not None or method is not None \
                or query_args is not None or websocket is not None:
            return super().match(path_info, method, return_rule, query_args, websocket)
        found = self._found
        if found is None:
            found = self._found = super().match(return_rule=True)
        rule, arguments = found
        return rule, dict(arguments)   # the request's own: Flask's hooks may change it


class RoutingMap(Map):
    """A werkzeug Map keeping the adapters it bound to request environs (ROUTED_LIMIT)."""

    def __init__(self, *args, **kwargs):
        self._adapters: dict = {}   # first: Map.__init__ adds its rules through `add`
        super().__init__(*args, **kwargs)

    def add(self, rulefactory) -> None:
        """Add a rule (werkzeug's), forgetting every adapter bound and match found."""
        super().add(rulefactory)
        self._adapters.clear()

    def bind_to_environ(self, environ, server_name=None, subdomain=None) -> MapAdapter:
        """werkzeug's `bind_to_environ`, the same adapter again for the same environ values."""
        if not FOLLOWS_WERKZEUG:
            return super().bind_to_environ(environ, server_name, subdomain)
        env = getattr(environ, "environ", environ)
        key = (server_name, subdomain, *map(env.get, _ENVIRON_KEYS))
        adapters = self._adapters
        adapter = adapters.get(key)
        if adapter is None:
            adapter = super().bind_to_environ(env, server_name, subdomain)
            # werkzeug's bind makes a plain MapAdapter; the subclass only adds the match kept
            adapter.__class__ = RememberingAdapter
            adapters[key] = adapter
            trim_oldest(adapters, ROUTED_LIMIT)
        return adapter
