"""Re-dealing what a viewer cannot see, consistently with what it can (for `redetermine`).

What stays fixed is exactly what the viewer's view shows: its own hand, cash and cards,
every public fact, the stack contents it saw (as of then), hand sizes, who still bids.
Re-dealt: the market deck order, face-down merchants, special cards in unseen places,
other seats' goods (and the junk piles during phases 3-4), their sealed bids and cash.
"""

from __future__ import annotations

from referee.core import Rng
from referee.core.copying import json_copy
from referee.games.dschunke.data import GOODS, SETUP, STACKS
from referee.games.dschunke.views import goods_hidden, is_over


def redetermine(state: dict, viewer: int | None, rng: Rng) -> dict:
    """A state `viewer` cannot tell apart from `state`, hidden parts drawn at random."""
    s = json_copy(state)
    if is_over(s):
        return s  # everything is revealed at the end
    s["market"]["deck"] = rng.shuffled(s["market"]["deck"])
    _merchants(s, rng)
    _special_cards(s, viewer, rng)
    _goods(s, viewer, rng)
    _cash(s, viewer, rng)
    return s


def _merchants(s: dict, rng: Rng) -> None:
    """Set-up variant: nobody knows which face-down merchant is which."""
    order = s["hidden_merchants"]
    if order is None:
        return
    spots = [s["merchants"][m]["junk"] for m in order]
    new_order = rng.shuffled(order)
    for merchant, junk in zip(new_order, spots):
        s["merchants"][merchant]["junk"] = junk
    s["hidden_merchants"] = new_order


def _latest_look(s: dict, viewer: int | None, stack: int, before: float) -> int | None:
    if viewer is None:
        return None
    looks = [t for t in s["seats"][viewer]["looks"][stack] if t < before]
    return looks[-1] if looks else None


def _special_cards(s: dict, viewer: int | None, rng: Rng) -> None:
    """Shuffle special cards among places the viewer cannot tell apart.

    A place is tagged with what the viewer knows of it: a stack it last looked through at
    time t, and cards others took from that stack after t, share the tag (stack, t): the
    viewer knows that set, not who has which. Places it never saw share one 'unknown' tag.
    """
    stage = s["stage"]
    groups: dict = {}
    for k in range(STACKS):
        if stage.get("looking") == k and _looker(s) == viewer and viewer is not None:
            continue  # the viewer is looking through this stack right now
        look = _latest_look(s, viewer, k, float("inf"))
        tag = ("seen", k, look) if look is not None else ("unknown",)
        groups.setdefault(tag, []).extend((s["stacks"][k], i) for i in range(len(s["stacks"][k])))
    for seat, info in enumerate(s["seats"]):
        if seat == viewer:
            continue
        for record in info["cards"]:
            look = _latest_look(s, viewer, record["stack"], record["at"])
            tag = ("seen", record["stack"], look) if look is not None else ("unknown",)
            groups.setdefault(tag, []).append((record, "card"))
    for places in groups.values():
        cards = rng.shuffled([holder[key] for holder, key in places])
        for (holder, key), card in zip(places, cards):
            holder[key] = card
    for k in range(STACKS):
        s["stacks"][k].sort()


def _looker(s: dict) -> int | None:
    stage = s["stage"]
    if stage["kind"] == "s_reward":
        return stage["seat"]
    if stage["kind"] == "s_event":
        return (s["start"] + stage["i"]) % s["players"]
    return None


def _pins(s: dict) -> dict:
    """Cards the viewer saw come back to a hand at this poker's last reveal (invalid bids)."""
    poker = s["poker"]
    if poker is None or poker["reveal"] is None:
        return {}
    return {seat: row["stake"] for seat, row in enumerate(poker["reveal"]["bids"])
            if row is not None and not row["valid"]}


def _goods(s: dict, viewer: int | None, rng: Rng) -> None:
    """Re-deal other seats' goods (hand + sealed stake), with the junk piles in phases 3-4."""
    others = [y for y in range(s["players"]) if y != viewer]
    bids = s["poker"]["bids"] if s["poker"] is not None else [None] * s["players"]
    pins = _pins(s)
    hide = goods_hidden(s)
    cards, sizes = [], []
    for y in others:
        stake = bids[y]["stake"] if bids[y] is not None else {}
        pinned = pins.get(y, {})
        size = 0
        for g in GOODS:
            free = s["seats"][y]["hand"][g] + stake.get(g, 0) - pinned.get(g, 0)
            cards += [g] * free
            size += free
        sizes.append(size)
    store = s["store"] if hide else None
    if hide:
        for pile in (s["supply"], store or {}):
            for g, n in pile.items():
                cards += [g] * n
        sizes.append(sum((store or {}).values()))
    dealt, rest = _deal(s, cards, sizes, hide, rng)
    for y, part in zip(others, dealt):
        holding = {g: pins.get(y, {}).get(g, 0) for g in GOODS}
        for g in part:
            holding[g] += 1
        _give(s, y, holding, bids[y], rng)
    if hide:
        if store is not None:
            s["store"] = {g: dealt[-1].count(g) for g in GOODS}
        s["supply"] = {g: rest.count(g) for g in GOODS}


def _sample(rng: Rng, items: list, k: int) -> list:
    """k items drawn without replacement, in random order (a partial Fisher-Yates)."""
    items = list(items)
    for i in range(k):
        j = i + rng.below(len(items) - i)
        items[i], items[j] = items[j], items[i]
    return items


def _split(cards: list, sizes: list) -> list:
    out, at = [], 0
    for size in sizes:
        out.append(cards[at:at + size])
        at += size
    return out


def _deal(s: dict, cards: list, sizes: list, hide: bool, rng: Rng):
    """Split the cards into containers of these sizes; the rest goes back to the junks.

    With the piles hidden, each junk keeps being empty or not (that much can be seen): one
    card of each non-empty pile stays put, and cards of an empty pile's colour must go to
    the containers.
    """
    if not hide:
        return _split(rng.shuffled(cards), sizes), []
    keep = [g for g in GOODS if s["supply"][g] > 0]
    for g in keep:
        cards.remove(g)
    must = [c for c in cards if s["supply"][c] == 0]
    free = [c for c in cards if s["supply"][c] > 0]
    room = sum(sizes) - len(must)
    free = _sample(rng, free, room)
    return _split(rng.shuffled(must + free[:room]), sizes), keep + free[room:]


def _give(s: dict, seat: int, hand: dict, entry: dict | None, rng: Rng) -> None:
    """Set a seat's goods, re-picking the colours of its sealed bid laid so far."""
    if entry is not None:
        entry["stake"] = {}
        for goods in GOODS[:entry["steps"]]:
            count = rng.randint(0, hand[goods])
            if count:
                entry["stake"][goods] = count
                hand[goods] -= count
    s["seats"][seat]["hand"] = hand


def _cash(s: dict, viewer: int | None, rng: Rng) -> None:
    """Re-split other seats' earnings since the last Y announcement among them."""
    others = [y for y in range(s["players"]) if y != viewer]
    announced = s["announced"]
    base = {y: announced["cash"][y] if announced else SETUP["money"] for y in others}
    total = sum(s["seats"][y]["cash"] - base[y] for y in others)
    cuts = sorted(rng.randint(0, total) for _ in range(len(others) - 1))
    for y, low, high in zip(others, [0] + cuts, cuts + [total]):
        s["seats"][y]["cash"] = base[y] + high - low
