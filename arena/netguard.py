"""Where bot URLs may point: resolve the host once, refuse internal addresses, pin the answer.

A bot URL is ours to call, so it must not reach what only we can reach: loopback, private
networks, link-local (169.254/16, where cloud metadata lives), multicast, reserved and
unspecified addresses, in IPv4 and IPv6 (including IPv4 inside IPv6: ::ffff:127.0.0.1,
6to4, NAT64). We check the addresses the resolver gives back, never the spelling of the
URL, so `2130706433`, `0x7f.1`, `127.1` and `localhost` are all caught as 127.0.0.1.

The addresses found at registration are pinned: every later call connects to them, in the
resolver's order (sending the URL's own Host), so a DNS answer that changes later (rebinding)
is never followed. Every call checks the pinned addresses against the policy again, so
narrowing the allow-list takes effect.

The policy is given to the bot registry by whoever builds it: the embedded default (no
REDIS_URL, one person's machine) allows loopback so local bots work; a deployment on a real
Redis allows nothing internal unless `REFEREE_BOT_ALLOW` lists it (CIDRs, comma-separated).
"""

from __future__ import annotations

import ipaddress
import logging
import os
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from referee.core.errors import RefereeError

log = logging.getLogger(__name__)

REFUSED_MESSAGE = ("the bot's host must resolve to public addresses only (internal ones need "
                   "the service's REFEREE_BOT_ALLOW setting)")

ALLOW_ENV = "REFEREE_BOT_ALLOW"
"""Environment setting: CIDRs bots may use even though they are internal, e.g. 127.0.0.0/8,::1."""

LOOPBACK = ("127.0.0.0/8", "::1/128")

_NAT64 = ipaddress.ip_network("64:ff9b::/96")


class InvalidBotUrl(ValueError):
    """A bot URL we cannot even read: not http(s), no host, credentials, unparsable."""


class UrlRefused(RefereeError):
    """A bot URL that is malformed or points where bots may not be (422, bot.url_refused)."""

    code = "bot.url_refused"
    status = 422


@dataclass(frozen=True)
class Target:
    """A bot URL split up, with the addresses it resolved to (what we connect to, in order:
    `localhost` may be ::1 first while the bot listens on 127.0.0.1 only)."""

    scheme: str
    host: str
    port: int
    addresses: tuple
    path: str

    @property
    def address(self) -> str:
        """The first pinned address."""
        return self.addresses[0]

    def pin(self) -> dict:
        """The pinned addresses as stored in the bot record."""
        return {"addresses": list(self.addresses)}


@dataclass(frozen=True)
class AddressPolicy:
    """Which resolved addresses a bot may have: public ones, plus the allow-list."""

    allow: tuple = ()

    @classmethod
    def from_setting(cls, text: str | None, *extra: str) -> "AddressPolicy":
        """A policy from a comma-separated CIDR list plus `extra` CIDRs; raises ValueError."""
        items = [s.strip() for s in (text or "").split(",") if s.strip()] + list(extra)
        return cls(tuple(ipaddress.ip_network(s, strict=False) for s in items))

    def refusal(self, address: str) -> str | None:
        """None if bots may be at `address`; otherwise the kind of address it is."""
        ip = ipaddress.ip_address(address.split("%", 1)[0])
        inner = _embedded_ipv4(ip)
        if any(a in net for a in (ip, inner) if a is not None for net in self.allow
               if a.version == net.version):
            return None
        for candidate in (inner, ip):
            kind = candidate is not None and _internal_kind(candidate)
            if kind:
                return kind
        return None

    def describe(self) -> str:
        """The allow-list as text (for the start-up log)."""
        return ",".join(str(n) for n in self.allow) or "nothing internal"


def policy_for(embedded: bool, environ=None) -> AddressPolicy:
    """The policy for a service: the allow-list setting, plus loopback when embedded."""
    environ = os.environ if environ is None else environ
    return AddressPolicy.from_setting(environ.get(ALLOW_ENV), *(LOOPBACK if embedded else ()))


def split_url(url) -> tuple[str, str, int, str]:
    """(scheme, host, port, path) of an http(s) URL with a host; raises InvalidBotUrl."""
    if not isinstance(url, str) or len(url) > 2000:
        raise InvalidBotUrl("a bot URL must be a string of at most 2000 characters")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise InvalidBotUrl("the bot URL cannot be parsed") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise InvalidBotUrl("a bot URL must be http:// or https:// with a host")
    if parts.username is not None or parts.password is not None:
        raise InvalidBotUrl("a bot URL must not carry credentials")
    default = 443 if parts.scheme == "https" else 80
    return parts.scheme, parts.hostname, port or default, parts.path.rstrip("/")


def resolve(url, policy: AddressPolicy, resolver=socket.getaddrinfo) -> Target:
    """The URL's target with its address pinned; raises InvalidBotUrl for a URL we cannot
    read, UrlRefused for one that may not be called.

    Every address the host resolves to must be allowed (a name with one public and one
    internal address is refused), so which one a later connect would pick does not matter.
    The refusal never says which address was found, nor whether any was.
    """
    scheme, host, port, path = split_url(url)
    try:
        infos = resolver(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError, ValueError):
        infos = []
    found = [info[4][0] for info in infos if info[0] in (socket.AF_INET, socket.AF_INET6)]
    addresses = tuple(dict.fromkeys(found))  # once each, in the resolver's order
    check_address(addresses, policy)
    return Target(scheme, host, port, addresses, path)


def check_address(addresses, policy: AddressPolicy) -> None:
    """Raise UrlRefused unless there is an address and the policy allows every one.

    One message for "no address" and "an internal address", without the address or its
    kind: otherwise the answer would tell a stranger which internal names exist.
    """
    kinds = [policy.refusal(a) for a in addresses] or ["unresolved"]
    refused = next((k for k in kinds if k), None)
    if refused:
        log.info("bot URL refused: its host is %s", refused)
        raise UrlRefused(REFUSED_MESSAGE, reason="address")


def _embedded_ipv4(ip) -> ipaddress.IPv4Address | None:
    """The IPv4 address carried inside an IPv6 one (mapped, 6to4, NAT64), if any."""
    if ip.version != 6:
        return None
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip.sixtofour is not None:
        return ip.sixtofour
    if ip in _NAT64:
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return None


def _internal_kind(ip) -> str | None:
    """What kind of non-public address `ip` is, or None for a public unicast address."""
    checks = (("unspecified", ip.is_unspecified), ("loopback", ip.is_loopback),
              ("link-local", ip.is_link_local), ("multicast", ip.is_multicast),
              ("private", ip.is_private), ("reserved", ip.is_reserved),
              ("site-local", ip.version == 6 and ip.is_site_local),
              ("non-public", not ip.is_global))
    return next((name for name, hit in checks if hit), None)
