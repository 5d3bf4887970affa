"""A client of the referee's REST API (/v1) on a `requests.Session`.

Every method returns the decoded JSON the service answered; every problem detail is raised as
the RefereeError subclass of its code's family (see referee_client.errors).

Why one module: `Client` is the API's surface, one short method per endpoint (about 40),
sharing one session, its rate-limit waits and problem decoding; a user finds every call in one
place, as in the API's own reference.
"""

from __future__ import annotations

import os
import time

import requests

from referee_client.errors import RefereeError, error_for
from referee_client.seat import Seat

DEFAULT_URL = "http://127.0.0.1:8000"
KEY_ENV = "REFEREE_KEY"
"""Where the bundled clients find an account key when none is passed (`rk_…`)."""
RATE_RETRIES = 3
"""Times a rate-limited request is sent again (each after its Retry-After) before it raises."""


def _seed(seed) -> str | None:
    """A seed as the service reads it safely from any client: a string of digits (seeds
    reach 2^63; JSON numbers past 2^53 are refused)."""
    return None if seed is None else str(int(seed))


def _rate_wait(response) -> float | None:
    """Seconds to wait before sending a 429 rate.limited request again, or None."""
    if response.status_code != 429:
        return None
    try:
        code = response.json().get("code")
        wait = float(response.headers.get("Retry-After", ""))
    except (ValueError, AttributeError):
        return None
    return wait if code == "rate.limited" else None


class Client:
    """The whole REST API: games, matches, seats, bots, arena, tournaments, leaderboards."""

    def __init__(self, url: str = DEFAULT_URL, *, key: str | None = None,
                 session: requests.Session | None = None, timeout: float = 30.0,
                 user_agent: str = "referee-client/1", rate_wait: float = 5.0):
        """`key`: the account's API key sent with every request but a seat's (default
        $REFEREE_KEY; none is needed against `referee serve`'s embedded default on this
        machine, where keyless local requests act as the local organiser). `rate_wait`: a
        request refused with 429 rate.limited whose Retry-After is at most this many seconds
        is sent again after waiting (the refusal changed nothing); 0 never waits."""
        root = url.rstrip("/")
        self.url = root if root.endswith("/v1") else root + "/v1"
        self.session = session or requests.Session()
        self.session.headers.setdefault("User-Agent", user_agent)
        self.key = key if key is not None else (os.environ.get(KEY_ENV) or None)
        self.timeout = timeout
        self.rate_wait = rate_wait

    # -- plumbing ---------------------------------------------------------------------------

    def request(self, method: str, path: str, *, json=None, params=None, token: str | None = None,
                timeout: float | None = None, **kwargs) -> requests.Response:
        """Send one request to `/v1<path>`; raise the family's RefereeError for a problem."""
        headers = dict(kwargs.pop("headers", None) or {})
        if token is not None:  # a seat acts with its seat token, never the account's key
            headers["Authorization"] = f"Bearer {token}"
        elif self.key:
            headers["Authorization"] = f"Bearer {self.key}"
        for _ in range(RATE_RETRIES + 1):
            response = self.session.request(method, self.url + path, json=json, params=params,
                                            headers=headers, timeout=timeout or self.timeout,
                                            **kwargs)
            wait = _rate_wait(response)
            if wait is None or wait > self.rate_wait:
                break
            time.sleep(wait)
        if response.status_code >= 400:
            raise _problem_of(response)
        return response

    def _get(self, path: str, **kwargs):
        return self.request("GET", path, **kwargs).json()

    def _post(self, path: str, body: dict | None = None, **kwargs):
        return self.request("POST", path, json=body if body is not None else {}, **kwargs).json()

    # -- service ----------------------------------------------------------------------------

    def health(self) -> dict:
        """Liveness: status, version, store kind and the games served."""
        return self._get("/health")

    def problems(self) -> dict:
        """The catalogue of generic error codes and what they mean (code -> text)."""
        return self._get("/problems")["problems"]

    def openapi(self) -> dict:
        """The service's OpenAPI 3 document."""
        return self._get("/openapi.json")

    def bot_protocol(self) -> dict:
        """Bot protocol v1 as an OpenAPI 3 document (what a bot serves)."""
        return self._get("/bot-protocol/openapi.json")

    # -- games ------------------------------------------------------------------------------

    def games(self) -> list[dict]:
        """Every game served: name, title, player counts, rules version."""
        return self._get("/games")["games"]

    def game(self, name: str) -> dict:
        """One game: options, move vocabulary (JSON Schema + example per type), what it hides."""
        return self._get(f"/games/{name}")

    def state_schema(self, name: str) -> dict:
        """A game's state schema (every field described) and its position notation."""
        return self._get(f"/games/{name}/state-schema")

    def check(self, game: str, *, players: int, seed: int | str | None = None, moves=(),
              options=None, candidate=None, view_seat: int | None = None,
              position: str | None = None) -> dict:
        """Stateless check: replay `moves` ({seat?, move} items, or log entries as they come)
        from the seed's set-up or a `position` (the game's one-line text), and describe the
        position reached (its text in `position`)."""
        body = {"players": players, "seed": _seed(seed), "moves": list(moves),
                "options": options or {}, "candidate": candidate, "view_seat": view_seat,
                "position": position}
        return self._post(f"/games/{game}/check", body)

    def verify(self, record: dict | str) -> dict:
        """Verify a match record (the log's JSON, or the JSONL export's text): legal, the
        first bad index, whether its outcome and seed commitment match."""
        return self._post("/verify", {"jsonl": record} if isinstance(record, str) else record)

    def open_check_session(self, game: str, *, players: int, seed: int | str | None = None,
                           chance: str = "internal", options=None, state=None,
                           position: str | None = None) -> dict:
        """A check session: its id, token and the pending decisions."""
        body = {"game": game, "players": players, "seed": _seed(seed), "chance": chance,
                "options": options or {}, "state": state, "position": position}
        return self._post("/check-sessions", body)

    def session_move(self, session: dict, move: dict, seat: int | str | None = None) -> dict:
        """Check one move in a check session (`session`: the open answer): the verdict and
        the next decisions."""
        return self._post(f"/check-sessions/{session['id']}/moves",
                          {"seat": seat, "move": move}, token=session["token"])

    def close_check_session(self, session: dict) -> None:
        """Delete a check session."""
        self.request("DELETE", f"/check-sessions/{session['id']}", token=session["token"])

    # -- matches ----------------------------------------------------------------------------

    def create_match(self, game: str, seats: list[str], *, options=None,
                     seed: int | str | None = None) -> dict:
        """A match with `remote` and `builtin:<policy>` seats: id, version, seat tokens."""
        body = {"game": game, "seats": list(seats), "options": options or {},
                "seed": _seed(seed)}
        return self._post("/matches", body)

    def matches(self, *, offset: int = 0, limit: int = 20) -> dict:
        """A page of matches, newest first: {"matches": [...], "total": N}."""
        return self._get("/matches", params={"offset": offset, "limit": limit})

    def match(self, match_id: str, token: str | None = None) -> dict:
        """A match: status, seats, version, who must act, result, and the caller's view."""
        return self._get(f"/matches/{match_id}", token=token)

    def prompt(self, match_id: str, token: str, wait: float = 0.0) -> dict:
        """The seat's decision and legal moves; long-polls up to `wait` s for a change."""
        params = {"wait": wait} if wait else None
        return self._get(f"/matches/{match_id}/prompt", params=params, token=token,
                         timeout=self.timeout + wait)

    def move(self, match_id: str, token: str, move: dict,
             expected_version: int | None = None) -> dict:
        """Submit a move for the token's seat: the new version, status, to_act and view."""
        body = {"move": move, "expected_version": expected_version}
        return self._post(f"/matches/{match_id}/moves", body, token=token)

    def resign(self, match_id: str, token: str) -> dict:
        """Resign the token's seat: it ranks last and the referee plays it to the end."""
        return self._post(f"/matches/{match_id}/resign", None, token=token)

    def log(self, match_id: str, token: str | None = None) -> dict:
        """The match record (seed and others' hidden moves withheld while it runs)."""
        return self._get(f"/matches/{match_id}/log", token=token)

    def log_jsonl(self, match_id: str, token: str | None = None) -> str:
        """The match record as JSON Lines text: a match line, move lines, a result line."""
        return self.request("GET", f"/matches/{match_id}/log", params={"format": "jsonl"},
                            token=token).text

    def seat(self, match_id: str, token: str) -> Seat:
        """A handle for playing one seat of a match with its token (pull mode)."""
        return Seat(self, match_id, token)

    def wait_for_match(self, match_id: str, timeout: float = 60.0, poll: float = 0.1) -> dict:
        """Poll a match until it is no longer active; returns it (TimeoutError if it stays)."""
        return _poll(lambda: self.match(match_id), lambda m: m["status"] != "active",
                     timeout, poll, f"match {match_id}")

    # -- bots and the arena -----------------------------------------------------------------

    def register_bot(self, url: str, games: list[str], *, name: str | None = None,
                     owner: str | None = None, open: bool = False) -> dict:
        """Register a bot for this client's account (the service calls its GET / first); the
        record with its secret. `open`: other accounts may seat it. (`owner` is ignored by
        the service: the bot belongs to the calling account.)"""
        return self._post("/bots", {"url": url, "games": list(games), "name": name,
                                    "owner": owner, "open": open})

    def update_bot(self, bot_id: str, *, open: bool | None = None) -> dict:
        """Change your bot's settings (`open`: may other accounts seat it)."""
        return self.request("PATCH", f"/bots/{bot_id}", json={"open": open}).json()

    def rekey_bot(self, bot_id: str) -> dict:
        """A new signing secret for your bot ({"id", "secret"}, shown only here): write it to
        the bot's secret file (the kit re-reads it); the old one stops at once."""
        return self._post(f"/bots/{bot_id}/secret")

    def delete_bot(self, bot_id: str) -> None:
        """Delete your bot: off the list, its URL free again; its past matches keep it."""
        self.request("DELETE", f"/bots/{bot_id}")

    def enable_bot(self, bot_id: str) -> dict:
        """Re-enable your disabled bot (or any, as an organiser)."""
        return self._post(f"/bots/{bot_id}/enable")

    def me(self) -> dict:
        """The account of this client's key."""
        return self._get("/accounts/me")

    def create_account(self, name: str, role: str = "player") -> dict:
        """Create an account (organisers): the record with its key, shown only here."""
        return self._post("/accounts", {"name": name, "role": role})

    def bots(self) -> list[dict]:
        """Every registered bot with its health figures (never the secrets), page by page."""
        found: list[dict] = []
        while True:
            page = self._get("/bots", params={"offset": len(found), "limit": 200})
            found += page["bots"]
            if not page["bots"] or len(found) >= page.get("total", len(found)):
                return found

    def bot(self, bot_id: str) -> dict:
        """One bot and its health: matches, moves, failures by kind, latency, last error."""
        return self._get(f"/bots/{bot_id}")

    def create_arena_match(self, game: str, seats: list[str], *, options=None,
                           seed: int | str | None = None, limits: dict | None = None,
                           rated: bool | None = None) -> dict:
        """A match played by the workers: seats `bot:<id>`, `builtin:<policy>` or `remote`."""
        body = {"game": game, "seats": list(seats), "options": options or {},
                "seed": _seed(seed),
                "limits": limits or {}, "rated": rated}
        return self._post("/arena/matches", body)

    # -- tournaments and leaderboards -------------------------------------------------------

    def create_tournament(self, game: str, entrants: list[str], *,
                          format: str = "round_robin", **params) -> dict:
        """Start a round robin or ladder; `params`: players, seeds_per_table, seed, options,
        limits, rated, concurrency, max_matches (see POST /v1/tournaments)."""
        if params.get("seed") is not None:
            params = {**params, "seed": _seed(params["seed"])}
        return self._post("/tournaments", {"game": game, "entrants": list(entrants),
                                           "format": format, **params})

    def tournaments(self) -> list[dict]:
        """Every tournament, newest first (without match lists)."""
        return self._get("/tournaments")["tournaments"]

    def tournament(self, tournament_id: str) -> dict:
        """A tournament's progress, standings and matches."""
        return self._get(f"/tournaments/{tournament_id}")

    def stop_tournament(self, tournament_id: str) -> dict:
        """Stop a tournament: no new matches; running ones finish."""
        return self._post(f"/tournaments/{tournament_id}/stop")

    def wait_for_tournament(self, tournament_id: str, timeout: float = 120.0,
                            poll: float = 0.2) -> dict:
        """Poll a tournament until it is no longer running; returns it."""
        return _poll(lambda: self.tournament(tournament_id),
                     lambda t: t["status"] != "running", timeout, poll,
                     f"tournament {tournament_id}")

    def leaderboard(self, game: str) -> dict:
        """A game's ratings: {"game", "status", "standings": [...]}."""
        return self._get(f"/leaderboards/{game}")


def _problem_of(response: requests.Response) -> RefereeError:
    """The exception for an error response, with or without a problem body."""
    try:
        body = response.json()
    except ValueError:
        body = None
    if not isinstance(body, dict) or "code" not in body:
        # not ours (a proxy's HTML page, say): keep what we can in a problem of our own shape
        body = {"status": response.status_code, "code": f"http.{response.status_code}",
                "detail": response.text[:500] or response.reason or ""}
    return error_for(body, response.status_code)


def _poll(fetch, done, timeout: float, interval: float, what: str):
    deadline = time.monotonic() + timeout
    while True:
        value = fetch()
        if done(value):
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what} still running after {timeout} s")
        time.sleep(interval)
