"""Calling a registered bot (BotRegistry's calling half, arena/bots.py keeps its records): where
to call it (its pinned addresses under today's policy), one of its call slots taken, the request
signed with its secret (or, within a re-key's grace, once more with the old one), sent, and the
answer collected or abandoned."""

from __future__ import annotations

import time
from dataclasses import dataclass

from arena import botclient
from arena.botclient import Reply
from arena.netguard import InvalidBotUrl, Target, UrlRefused, check_address, resolve, split_url


class BotCalls:
    """The calls of BotRegistry: it gives `policy`, `slots`, `_targets`, `_secrets`, `_key`
    and `old_secret`."""

    def target(self, bot: dict) -> Target:
        """Where to call the bot: its pinned addresses, checked against today's policy (a bot
        stored without any is resolved now). Raises UrlRefused."""
        if not bot.get("addresses"):
            return resolve(bot["url"], self.policy)
        key = (bot["url"], tuple(bot["addresses"]))
        policy, target = self._targets.get(key, (None, None))
        if policy is self.policy:   # checked already (parsing the URL and the addresses
            return target           # again cost ~20 us a call)
        scheme, host, port, path = split_url(bot["url"])
        target = Target(scheme, host, port, key[1], path)
        check_address(target.addresses, self.policy)
        if len(self._targets) > 10_000:
            self._targets.clear()
        self._targets[key] = (self.policy, target)
        return target

    def call(self, bot: dict, path: str, payload: dict | None, timeout_s: float,
             defer_release: bool = False) -> Reply:
        """Call the bot at its pinned address, signed with its secret, holding one of its
        call slots; never raises for the bot's faults (a refused address is the failure
        bot.url_refused; no free slot within the deadline, bot.timeout). Taking the slot
        reads the secret in the same round trip. `defer_release`: the runner's calls, whose
        slot goes back with its next call or its `flush`."""
        return self.collect(self.dispatch(bot, path, payload, timeout_s), defer_release)

    def prepare(self, bot: dict, path: str, payload) -> botclient.Prepared | None:
        """The request written and signed ahead (botclient.prepare) with the secret the
        last take of this process read for the bot; `dispatch` sends it if that is still the
        secret. None if the bot cannot be called."""
        try:
            target = self.target(bot)
            return botclient.prepare(target, path, payload,
                                     self._secrets.get(bot["id"]) or bot.get("secret"))
        except Exception:   # a refused or unusable address: `dispatch` says which
            return None

    def dispatch(self, bot: dict, path: str, payload, timeout_s: float,
                 prepared: botclient.Prepared | None = None) -> Dispatched:
        """The first half of `call`: the slot taken and the request sent (`prepared` ahead,
        if signed with the secret read now); `collect` reads the answer (or `abandon` gives
        it up)."""
        start = time.monotonic()
        try:
            target = self.target(bot)
        except (UrlRefused, InvalidBotUrl):
            return Dispatched(bot["id"], reply=Reply(failure={"code": "bot.url_refused"}))
        token, secret = self.slots.acquire_reading(bot["id"], start + timeout_s,
                                                   self._key(bot["id"], "secret"))
        waited = time.monotonic() - start
        if token is None:
            return Dispatched(bot["id"], reply=Reply(
                failure={"code": "bot.timeout", "limit_ms": round(timeout_s * 1000),
                         "detail": "every call slot of the bot stayed busy"},
                latency_ms=waited * 1000))
        secret = secret or bot.get("secret")
        if secret is not None and len(self._secrets) < 10_000:
            self._secrets[bot["id"]] = secret
        try:
            sent = botclient.send(target, path, payload, secret, timeout_s - waited, prepared)
        except BaseException:
            self.slots.release(bot["id"], token)
            raise
        return Dispatched(bot["id"], token, sent, waited, call=(target, path, payload, secret))

    def collect(self, dispatched: Dispatched, defer_release: bool = False) -> Reply:
        """The second half of `call`: the answer, the slot given back (or deferred); the time
        spent waiting for the slot counts in the latency."""
        if dispatched.reply is not None:
            return dispatched.reply
        try:
            reply = botclient.receive(dispatched.sent)
            if reply.failure is not None and reply.failure["code"] == "bot.signature_refused":
                reply = self._with_old_secret(dispatched, reply)
        finally:
            if defer_release:
                self.slots.defer(dispatched.bot_id, dispatched.token)
            else:
                self.slots.release(dispatched.bot_id, dispatched.token)
        reply.latency_ms += dispatched.waited * 1000
        dispatched.reply = reply
        return reply

    def _with_old_secret(self, dispatched: Dispatched, refused: Reply) -> Reply:
        """A signed call refused (401/403) within a re-key's grace period: sent again once,
        signed with the old secret, in what is left of its deadline; the refusal stands
        otherwise."""
        target, path, payload, secret = dispatched.call
        old = self.old_secret(dispatched.bot_id)
        sent = dispatched.sent
        left = sent.deadline - time.monotonic()
        if not old or old == secret or left <= 0 or payload is None:
            return refused
        again = botclient.receive(botclient.send(target, path, payload, old, left))
        again.latency_ms += refused.latency_ms
        return again

    def abandon(self, dispatched: Dispatched) -> None:
        """Give up a dispatched call whose answer will not be read; its slot goes back with
        this thread's next take or flush."""
        if dispatched.reply is None and not dispatched.sent.abandoned:
            botclient.abandon(dispatched.sent)   # collecting it now raises: our error
            self.slots.defer(dispatched.bot_id, dispatched.token)

    def ride(self, bot: dict, timeout_s: float):
        """The slot of this thread's next call to the bot (of at most `timeout_s`), taken in
        the round trip of a commit: a scripts.Rider (see CallSlots.ride); None when no call
        will be made (a refused address)."""
        try:
            self.target(bot)
        except (UrlRefused, InvalidBotUrl):
            return None
        return self.slots.ride(bot["id"], timeout_s, self._key(bot["id"], "secret"))


@dataclass
class Dispatched:
    """A call on its way (BotRegistry.dispatch): its slot token and sent request, or the
    failure that stopped it before sending (`reply`)."""

    bot_id: str
    token: str | None = None
    sent: botclient.Sent | None = None
    waited: float = 0.0
    reply: Reply | None = None
    call: tuple = ()   # (target, path, payload, secret): to sign again with an old secret
