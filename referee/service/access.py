"""Who may call a route, and who is calling: the vocabulary the core's routes and the plug-ins'
share (no Flask here; the access plug-in, referee/access, enforces it before a body is read).

A route declares its caller with `requires(...)`:

- `ANYONE`: reads of public things (and the stateless check endpoint);
- `SPECTATOR_OR_SEAT`: anyone, with a view widened by a seat token if one is sent;
- `SEAT`: a seat token of the match (`Authorization: Bearer st_…`);
- `PLAYER`: an account key (`Authorization: Bearer rk_…`) of any role;
- `ORGANISER`: an organiser's account key.

The caller is a `Caller` (or None for no key). Ownership of a thing (a bot, a tournament) is
checked where the thing is known, with `check_owner`.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.core.errors import RefereeError

ANYONE, SPECTATOR_OR_SEAT, SEAT, PLAYER, ORGANISER = (
    "anyone", "spectator_or_seat", "seat", "player", "organiser")
LEVELS = (ANYONE, SPECTATOR_OR_SEAT, SEAT, PLAYER, ORGANISER)
ROLES = ("player", "organiser")
LOCAL_ACCOUNT = "local"
"""The embedded default's local organiser: keyless requests from this machine act as it."""
KEY_PREFIX = "rk_"
"""Account keys start with this, seat tokens with `st_`, bot secrets with `bs_`."""

SECURITY = {ANYONE: [], SPECTATOR_OR_SEAT: [{}, {"seatToken": []}], SEAT: [{"seatToken": []}],
            PLAYER: [{"accountKey": []}], ORGANISER: [{"accountKey": []}]}
"""The OpenAPI `security` of each level (`{}` in a list: the credential is optional)."""


def is_account_key(token: str | None) -> bool:
    """True for a bearer token that is an account key (not a seat token or bot secret)."""
    return bool(token) and token.startswith(KEY_PREFIX)


def requires(level: str):
    """Mark a view function with the caller it needs (also its OpenAPI security); the access
    plug-in refuses other callers before the request body is parsed."""
    if level not in LEVELS:
        raise ValueError(f"unknown access level {level!r}")

    def mark(func):
        func._access = level
        doc = dict(getattr(func, "_apidoc", {}))
        manual = dict(doc.get("manual_doc", {}))
        manual["security"] = SECURITY[level]
        if level in (PLAYER, ORGANISER):
            manual["x-caller"] = level
        doc["manual_doc"] = manual
        func._apidoc = doc
        return func
    return mark


def level_of(func) -> str | None:
    """The level a view function declared with `requires`, or None."""
    return getattr(func, "_access", None)


@dataclass(frozen=True)
class Caller:
    """An account acting through its key: id, name and role."""

    id: str
    name: str
    role: str

    @property
    def organiser(self) -> bool:
        """True for an organiser account."""
        return self.role == "organiser"


class KeyMissing(RefereeError):
    """The route needs an account key and the request has none."""

    code = "auth.key_missing"
    status = 401


class KeyInvalid(RefereeError):
    """The bearer token looks like an account key but is no account's (or was rotated)."""

    code = "auth.key_invalid"
    status = 401


class Forbidden(RefereeError):
    """The caller's account may not do this to that thing (it is another account's)."""

    code = "auth.forbidden"
    status = 403


class SeatNotOpen(RefereeError):
    """Seating another account's bot that its owner has not opened to challenges."""

    code = "seats.not_open"
    status = 403


class OrganiserOnly(RefereeError):
    """Only an organiser may do this (rated events, stopping others' events, ...)."""

    code = "auth.organiser_only"
    status = 403


PROBLEMS = {
    "auth.key_missing": "The route needs an account key: 'Authorization: Bearer rk_…' (see "
                        "`referee keys create`).",
    "auth.key_invalid": "The bearer token is not the key of any account (or was rotated).",
    "auth.organiser_only": "Only an organiser may do this (rated events, creating accounts).",
    "account.not_found": "No account with that id.",
    "seats.not_open": "The seat's player (a bot) belongs to another account and its owner has "
                     "not opened it to challenges (`open: true`).",
}
"""The access codes in the /v1/problems catalogue (auth.forbidden is a generic code)."""


def need_caller(caller: Caller | None) -> Caller:
    """The caller, or KeyMissing when the request carries no account key."""
    if caller is None:
        raise KeyMissing("this request needs an account key: 'Authorization: Bearer rk_…'")
    return caller


def check_owner(caller: Caller | None, owner: str | None, what: str,
                organiser_may: bool = True) -> Caller:
    """The caller if it owns `what` (or is an organiser, when `organiser_may`); raises
    KeyMissing or Forbidden."""
    caller = need_caller(caller)
    if owner and caller.id == owner:
        return caller
    if organiser_may and caller.organiser:
        return caller
    raise Forbidden(f"{what} belongs to another account")


def check_organiser(caller: Caller | None, what: str) -> Caller:
    """The caller if it is an organiser; raises KeyMissing or OrganiserOnly."""
    caller = need_caller(caller)
    if not caller.organiser:
        raise OrganiserOnly(f"only an organiser may {what}")
    return caller


def seat_owners(drivers, kinds) -> list:
    """The account owning each seat's player (None: remote seats, builtins, drivers that keep
    no owners); a driver that knows owners has `seating(ref) -> (owner, open)`."""
    owners = []
    for kind in kinds:
        prefix, _, ref = str(kind).partition(":")
        driver = drivers.get(prefix) if ref else None
        seating = driver.seating(ref) if driver is not None else None
        owners.append((seating[0] or None) if seating else None)
    return owners


def check_seating(drivers, kinds, caller: Caller | None) -> None:
    """Refuse seating another account's player that is not open to challenges (organisers,
    who run events, may seat any). Unknown seats are left to the service's own checks."""
    caller = need_caller(caller)
    for kind in kinds:
        prefix, _, ref = str(kind).partition(":")
        driver = drivers.get(prefix) if ref else None
        if driver is None or caller.organiser:
            continue
        try:
            seating = driver.seating(ref)
        except RefereeError:
            continue  # an unknown bot: the service refuses it with its own code
        if seating is None:
            continue
        owner, open_ = seating
        if owner != caller.id and not open_:
            raise SeatNotOpen(f"{kind} belongs to another account and is not open to "
                              f"challenges", seat=kind)


def several_seats_one_account(owners) -> bool:
    """True when one account fills several seats (the local organiser of the embedded
    default excepted: everything on a one-person machine is its own)."""
    named = [o for o in owners if o and o != LOCAL_ACCOUNT]
    return len(set(named)) != len(named)
