"""Game knowledge for the Yinzi: Ming heuristic bot: a model of one seat's position, read
from the wire view only, and the worth of its holdings in end-of-game VP (what each kind of
move is worth is yinzi_ming_moves.py, on this model).

Scoring (the completion, 5.15): Ship VP + 2 per Yinzi + 2 x floor(Sapeques / final rate)
+ Workshops (I 1, II 3, III 6) + (Ambassador space - 1) + 3 for B6 - unpaid tax. So a
Sapeque is worth about 2 / (final rate) VP, a shipped Good 2 VP plus a Yinzi (4 VP), and a
Workshop costs 1 Yinzi of tax (2 VP) in every round it makes a Good (rules 5; an idle one pays
nothing, so the first Good a Workshop makes in a round carries that tax).
"""

from __future__ import annotations

from functools import lru_cache

# The component tables the view names only by id (W03, S5): the terminal renderer of the
# client library keeps them (the completion, 5.10-5.11).
from referee_client.render.yinzi_ming import GOOD_OF, INPUT, SHIPS

"""Ship -> the Goods its three slots take, in slot order."""
DOUBLE = {"rice", "maize", "salt"}
"""Deploy puts 2 Peasants on these, 1 on any other crop."""
UPGRADE = {2: (3, 2), 3: (5, 3)}
"""Level -> (Sapeques it costs, VP it adds)."""
RATE = {space: space + 1 for space in range(1, 7)}
SLOT_EFFECTS = {1: {"kind": "sapeques", "amount": 1}, 2: {"kind": "ambassador", "amount": 1},
                3: {"kind": "stone", "amount": 1}, 4: {"kind": "sale_bonus", "amount": 1},
                5: {"kind": "tax_exempt", "amount": 99},
                6: {"kind": "build_stone", "amount": 1}}
"""Register slot -> its benefit, for views that do not carry it (rules 1-3)."""
ROUNDS, TRACK_LAST = 4, 6


@lru_cache(maxsize=None)
def sapeque_value(space: int, rolls: int) -> float:
    """Expected VP of one Sapeque at the end: E[2 / final rate] after `rolls` more die rolls
    (above the marker it moves up, below down, so the rate drifts towards the middle)."""
    if rolls == 0:
        return 2 / RATE[space]
    total = 0.0
    for roll in range(1, 7):
        nxt = space + 1 if roll > space else space - 1 if roll < space else space
        total += sapeque_value(nxt, rolls - 1)
    return total / 6


class Position:
    """One seat's reading of a request: its holdings, the board, and the turn in progress."""

    def __init__(self, request: dict):
        self.request = request
        self.view = v = request["view"]
        self.me = request["seat"]
        self.st = v["seats"][self.me]
        self.round = v["round"]
        self.rate = v["exchange"]["rate"]
        self.sv = sapeque_value(v["exchange"]["space"], ROUNDS - self.round)
        self.last_round = self.round >= ROUNDS
        self.turn = v.get("turn") or {}
        self.prompt = (request.get("decision") or {}).get("prompt") or {}
        self.shops = {w: s for w, s in v["workshops"].items() if s["owner"] == self.me}
        self.space_province = {sid: p for p, ids in v["map"]["provinces"].items() for sid in ids}

    # -- holdings ---------------------------------------------------------------------------
    @property
    def wealth(self) -> int:
        """Sapeques plus what the Yinzi would sell for now: budgets use this, so an exchange
        (which keeps it constant) never changes what the bot wants to do."""
        return self.st["sapeques"] + self.rate * self.st["yinzi"]

    def inputs(self) -> dict[str, int]:
        """Crop -> how many more Goods our Workshops may make from it this round."""
        room: dict[str, int] = {}
        for wid, shop in self.shops.items():
            crop = INPUT[GOOD_OF[wid]]
            room[crop] = room.get(crop, 0) + shop["level"] - shop["produced"]
        return room

    def used_crops(self) -> set[str]:
        """The input crops of our Workshops (whatever their production this round)."""
        return {INPUT[GOOD_OF[w]] for w in self.shops}

    def field_peasants(self) -> list[tuple[str, str, int]]:
        """(space, crop, count) for each board space holding our Peasants."""
        return [(sid, e["crop"], e["count"]) for sid, e in self.view["board"].items()
                if e["owner"] == self.me and e["count"]]

    def trade_left(self) -> int:
        """Trade actions still to come this round (bottom halves not used yet)."""
        return sum(c["value"] for c in self.st["cards"] if not c["bottom"])

    def rounds_left(self) -> int:
        """Rounds after this one."""
        return ROUNDS - self.round

    # -- the board --------------------------------------------------------------------------
    def province(self, sid: str) -> str:
        """The Province of a board space."""
        return self.space_province[sid]

    def cost(self, src: str, dst: str) -> int:
        """Transport points between two Provinces (or the Port): 0 within one, else 1."""
        return 0 if src == dst else 1

    def allowance(self) -> int:
        """Transport points left in this turn (the Ambassador's space outside a turn)."""
        if "transport_left" in self.prompt:
            return self.prompt["transport_left"]
        return self.st["ambassador"]

    def vacant_demand(self) -> list[tuple[str, int, str, int]]:
        """(market, index, crop, pay) for every vacant Local Market space."""
        out, broker = [], self.broker()
        for prov, m in self.view["markets"].items():
            for i, (crop, owner) in enumerate(zip(m["demands"], m["spaces"])):
                if owner is None:
                    out.append((prov, i, crop, (3 if m["high_demand"] == crop else 2) + broker))
        return out

    def slot_effect(self, kind: str) -> tuple[dict | None, int]:
        """(register slot, amount) of the benefit of `kind` (from the view, else the copy)."""
        for slot in self.view["register"]:
            effect = slot.get("effect") or SLOT_EFFECTS[slot["slot"]]
            if effect["kind"] == kind:
                return slot, effect["amount"]
        return None, 0

    def broker(self) -> int:
        """Extra Sapeques a sale when our Merchant is on the Market Broker slot."""
        slot, amount = self.slot_effect("sale_bonus")
        return amount if slot and slot["merchant"] == self.me else 0

    def build_stone(self) -> int:
        """Stone a build costs us now: 1, none for our first Workshop with our Merchant on
        the Kiln Licence."""
        slot, amount = self.slot_effect("build_stone")
        first = not self.shops and slot and slot["merchant"] == self.me
        return max(0, 1 - (amount if first else 0))

    def first_good_tax(self, shop: dict) -> float:
        """VP of tax a Good costs: 2 (a Yinzi) for a Workshop's first Good of the round, unless
        the Tax Exemption waives it (rules 5 taxes only Workshops that made a Good)."""
        if shop["produced"]:
            return 0.0
        started = sum(1 for s in self.shops.values() if s["produced"])
        return 0.0 if self.exempt() > started else 2.0

    def exempt(self) -> int:
        """Workshops whose tax our Merchant on the Tax Exemption slot waives this round."""
        slot, amount = self.slot_effect("tax_exempt")
        return amount if slot and slot["merchant"] == self.me else 0

    def ship_slots(self, good: str) -> int:
        """Vacant slots for `good` on the Ships at the Port."""
        return sum(1 for p in self.view["port"] for g, o in zip(SHIPS[p["ship"]][1], p["slots"])
                   if g == good and o is None)

    def goods_waiting(self, good: str) -> int:
        """Our Goods of this kind already made and waiting on Workshops."""
        return sum(s["goods"] for w, s in self.shops.items() if GOOD_OF[w] == good)

    def unattended(self, sid: str) -> bool:
        """No Peasant and no Workshop on the space."""
        e = self.view["board"][sid]
        return not e["count"] and "workshop" not in e

    def free_admin(self) -> list[str]:
        """Benefit spaces without an Overseer."""
        return [b for b, taken in self.view["admin"].items() if taken is None]

    def holds(self, benefit: str) -> bool:
        """Whether our Overseer is on this benefit space."""
        taken = self.view["admin"].get(benefit)
        return taken is not None and taken["owner"] == self.me

    # -- values (in end-of-game VP) -----------------------------------------------------------
    def peasant_value(self, crop: str, more: int = 0) -> float:
        """A Peasant put on a Field (after `more` others): a future sale, more when a Workshop
        of ours eats that crop; next to nothing once we hold more than we can still sell."""
        if self.on_fields() + more >= self.sales_left():
            return 0.1
        sale = 2.4 * self.sv if not self.last_round else 2.2 * self.sv
        return sale + (1.6 if crop in self.used_crops() else 0.0)

    def on_fields(self) -> int:
        """Our Peasants standing on board spaces (each is one sale)."""
        return sum(c for _, _, c in self.field_peasants())

    def sales_left(self) -> int:
        """About how many sales we still make: one Sell Command a round, ~3 each."""
        return 3 * (self.rounds_left() + (self.st["spaces"]["sell"] is None))

    def good_value(self, good: str) -> float:
        """A Good made now: 4 VP once shipped, if a Ship slot will take it in time."""
        slots = self.ship_slots(good) - self.goods_waiting(good)
        if self.last_round:
            return 3.5 if slots > 0 and self.trade_left() + self.extra_trade() > 0 else 0.0
        return 3.2 if slots > 0 else 1.6

    def extra_trade(self) -> int:
        """Actions the current trade turn still has (it is not counted in trade_left)."""
        if self.turn.get("half") == "bottom":
            return self.turn["allowed"] - self.turn["used"]
        return 0

    def stone_value(self) -> float:
        """Stone only builds Workshops: worth one while we may still want to build."""
        return 1.2 if self.want_workshop() and self.st["stone"] == 0 else 0.2

    def want_workshop(self) -> bool:
        """Another Workshop pays off: early enough, and fewer than two so far."""
        return len(self.shops) < 2 and self.round <= 3

    def workshop_value(self, wid: str) -> float:
        """Building tile `wid` now: 1 VP, the Goods the Ships at the Port will take from it
        (4 VP each; Ships sail only in Maintenance, so the vacant slots for this Good at the
        Port now bound it: a cautious estimate), the upgrades it opens, minus 2 VP of tax a
        round it makes a Good."""
        good = GOOD_OF[wid]
        rounds = ROUNDS - self.round + 1
        slots = max(0, self.ship_slots(good) - self.goods_waiting(good))
        crop = INPUT[good]
        supply = sum(c for _, k, c in self.field_peasants() if k == crop)
        feed = 0.65 + 0.1 * min(supply, 2)  # its crop must be deployed, sold, then produced
        shipments = min(slots, 1.2 * rounds) * feed + 0.3
        exempt = 1 if self.exempt() > len(self.shops) else 0
        upgrades = 1.0 if rounds >= 2 else 0.3
        stone = 0 if self.st["stone"] or not self.build_stone() else 1.0
        taxed = max(0.0, min(rounds, shipments) - exempt)  # idle rounds pay no tax (rules 5)
        return 1 + 4 * shipments + upgrades - 2 * taxed - stone

    def upgrade_value(self, wid: str) -> float:
        """One level more: its VP, a Good more a round, less the Sapeques it costs."""
        level = self.shops[wid]["level"] + 1 if wid in self.shops else 2
        cost, vp = UPGRADE[level]
        more = (ROUNDS - self.round + (0.5 if self.trade_left() else 0)) * 0.9
        return vp + more - cost * self.sv - 0.3

    def benefit_value(self, b: str) -> float:
        """What an Overseer on an Administration space is worth to us."""
        later = not self.last_round
        if b == "B6":
            return 3.0
        if b == "B1":
            return 2.0 * len(self.shops) if self.shops else 0.0
        if b == "B3":
            return 2 * self.stone_value()
        if b == "B5":
            return 1.0 if later else 0.0
        if b == "B2":
            return 0.5 if later else 0.0
        if b == "B4":
            return 0.6 if self.round <= 3 else 0.3
        return 0.0
