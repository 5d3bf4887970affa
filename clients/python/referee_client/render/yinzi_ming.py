"""Yinzi: Ming in the terminal: the four Provinces with their Fields, markets and Peasants,
the register, Workshops, Ships and Administration, every seat's holdings and cards, the turn
in progress, and what each move means.

The view names components by id only (W03, S5, B4, register slots); the tables below are
the published component lists (the completion, games/yinzi-ming.md 5.9-5.12), so the
screen can say what they are. Bots may use them too.
"""

from __future__ import annotations

from referee_client.render import Renderer, register
from referee_client.render.generic import wrap
from referee_client.render.yinzi_ming_words import describe

GOODS = ["preserves", "paper", "grass_cloth", "sugar", "nankeen", "brick_tea", "rice_wine",
         "spirits"]
GOOD_OF = {f"W{i:02d}": GOODS[(i - 1) // 2] for i in range(1, 17)}
"""Workshop tile -> the Good it makes (16 tiles, 2 of each Good)."""
INPUT = {"preserves": "fruit", "paper": "bamboo", "grass_cloth": "ramie", "sugar": "sugarcane",
         "nankeen": "cotton", "brick_tea": "tea", "rice_wine": "rice", "spirits": "maize"}
"""Good -> the crop its Workshop takes from a Local Market."""
SHIPS = {"S1": ("Portuguese", ["brick_tea", "sugar", "nankeen"]),
         "S2": ("Dutch", ["brick_tea", "paper", "preserves"]),
         "S3": ("Spanish", ["nankeen", "grass_cloth", "rice_wine"]),
         "S4": ("English", ["sugar", "paper", "spirits"]),
         "S5": ("Japanese", ["rice_wine", "spirits", "grass_cloth"]),
         "S6": ("Ryukyu", ["preserves", "sugar", "rice_wine"]),
         "S7": ("Dutch", ["nankeen", "brick_tea", "spirits"]),
         "S8": ("Portuguese", ["paper", "grass_cloth", "preserves"])}
"""Ship -> (flag, the Goods its slots take in order)."""


def learn(view: dict) -> None:
    """Take the component tables from a view that carries them (the service's data wins
    over the copies above, so a data change on the service cannot put clients out of step)."""
    parts = view.get("components") if isinstance(view, dict) else None
    if not parts:
        return
    GOOD_OF.update(parts.get("workshops", {}))
    INPUT.update(parts.get("inputs", {}))
    SHIPS.update({sid: (ship["flag"], list(ship["goods"]))
                  for sid, ship in parts.get("ships", {}).items()})


SLOTS = {1: "Imperial Audience", 2: "Yangtze Pass", 3: "Quarry Rights", 4: "Market Broker",
         5: "Tax Exemption", 6: "Kiln Licence"}
"""Register slot -> name, when the game description (GET /v1/games/yinzi-ming) is not at hand;
with it, the renderer shows the service's name and what the slot does."""
BENEFITS = {"B1": "Tax Waiver", "B2": "River Permit", "B3": "Quarry Grant", "B4": "Mint Contact",
            "B5": "Prefect's Seal", "B6": "Imperial Commendation"}
"""Administration space -> name, likewise."""


def _tagged(board: dict, table: str) -> list:
    """The list value of a tagged table of the description's `board` ([] when absent)."""
    value = (board.get(table) or {}).get("value")
    value = value.get("value") if isinstance(value, dict) else value
    return value if isinstance(value, list) else []


def texts(game: dict) -> tuple[dict, dict]:
    """(slot -> "name: effect", benefit id -> "name: effect") from the game description's
    board (its bonus_slots and administration_spaces), the bare names where it has none."""
    board = game.get("board") or {}
    slots = {s["slot"]: f"{s['name']}: {s['text']}" for s in _tagged(board, "bonus_slots")
             if "text" in s}
    spaces = {s["id"]: f"{s['name']}: {s['text']}"
              for s in _tagged(board, "administration_spaces") if "text" in s}
    return {**SLOTS, **slots}, {**BENEFITS, **spaces}
POSITION = {"yangzhou": "NW", "tongzhou": "NE", "changzhou": "SW", "suzhou": "SE"}
ROMAN = {1: "I", 2: "II", 3: "III"}
DECISIONS = {
    "start_peasants": "put your 2 starting Peasants on an unattended Rice, Maize or Salt Mine space",
    "merchant": "put your Merchant on a free register slot (its benefit now; the slot order "
                "is this round's turn order)",
    "crop_tile": "buy the Crop tile beside your Merchant (2 of your Peasants go with it), or "
                 "decline",
    "directive": "choose a Directive: a card's top half (Command: its lines are actions) or its "
                 "bottom half (Trade: its value in Produce / Ship / Quarry)",
    "trade": "Trade Directive: Produce, Ship or Quarry",
    "regulation": "Regulation: exchange and use benefits, then done pays the tax (1 Yinzi a "
                  "Workshop; each unpaid Yinzi costs 2 VP)",
}
COLUMN = 46
"""Width of one Province column (two Provinces side by side)."""


def good(name: str) -> str:
    """A Good or crop id as words: `grass_cloth` -> `grass cloth`."""
    return name.replace("_", " ")


def who(owner, you) -> str:
    """A seat as `s1`, or `you`."""
    return "-" if owner is None else ("you" if owner == you else f"s{owner}")


@register("yinzi-ming")
class YinziMingRenderer(Renderer):
    """The board in two columns of Provinces, then the shared boards, seats and turn."""

    def __init__(self, game: dict | None = None):
        super().__init__(game)
        self.slots, self.benefits = texts(self.game)

    def view(self, view: dict | None, seat: int | None = None) -> str:
        """The whole table as the seat sees it."""
        if not view or "board" not in view:
            return super().view(view, seat)
        learn(view)
        self.last_view = view  # names crops, demands and the rate in the moves listed after it
        you = view.get("you", seat)
        parts = [self._header(view, you), self._board(view, you), self._markets(view, you),
                 self._register(view, you), self._workshops(view, you), self._port(view, you),
                 self._admin(view, you), self._seats(view, you), self._turn(view, you)]
        if view.get("final"):
            parts.append(self._final(view, you))
        return "\n".join(p for p in parts if p)

    def _header(self, v: dict, you) -> str:
        ex = v["exchange"]
        roll = f", last roll {ex['last_roll']}" if ex.get("last_roll") else ""
        order = ", ".join(who(s, you) for s in v["order"])
        active = who(v["active"], you) if v.get("active") is not None else "nobody"
        phase = v["phase"] + (f" ({v['stage']})" if v.get("stage") else "")
        return (f"Yinzi: Ming - round {v['round']} of 4, {phase}   exchange rate R = "
                f"{ex['rate']} Sapeques per Yinzi (dial {ex['space']}{roll})\n"
                f"turn order: {order}   to act: {active}   (you are "
                f"{'a spectator' if you is None else f'seat {you}'})")

    def _province(self, v: dict, prov: str, you) -> list[str]:
        market = v["markets"][prov]
        lines = [f"{prov.capitalize()} ({POSITION.get(prov, '?')})  market {market['tile']}, "
                 f"high demand {market['high_demand']}"]
        for sid in v["map"]["provinces"][prov]:
            e = v["board"][sid]
            crop = e["crop"] + ("+" if e.get("tile") else "")
            held = f"{who(e['owner'], you)} x{e['count']}" if e["count"] else ""
            under = f"[{e['workshop']}]" if e.get("workshop") else ""
            lines.append(f"  {sid:<5}{good(crop):<11}{held:<9}{under}")
        return lines

    def _board(self, v: dict, you) -> str:
        provs = list(v["map"]["provinces"])
        out = ["", "the board  (crop + = Crop tile; owner x Peasants; [W..] = under a Workshop)"]
        for left, right in zip(provs[0::2], provs[1::2] + [None] * (len(provs) % 2)):
            a = self._province(v, left, you)
            b = self._province(v, right, you) if right else []
            for i in range(max(len(a), len(b))):
                la = a[i] if i < len(a) else ""
                lb = b[i] if i < len(b) else ""
                out.append(f"  {la:<{COLUMN}}{lb}".rstrip())
        return "\n".join(out)

    def _markets(self, v: dict, you) -> str:
        out = ["", "Local Markets (a sold Peasant waits on its space: * = high demand)"]
        for prov, m in v["markets"].items():
            spaces = "  ".join(f"{i}:{good(d)}{'*' if d == m['high_demand'] else ''}="
                               f"{who(o, you)}"
                               for i, (d, o) in enumerate(zip(m["demands"], m["spaces"])))
            out.append(f"  {prov:<10} {spaces}")
        return "\n".join(out)

    def _register(self, v: dict, you) -> str:
        out = ["", "Bonus register (slot: benefit | Crop tile, cost | Merchant)"]
        for r in v["register"]:
            tile = f"{good(r['crop'])} ({r['tile']}), {r['cost']} Sap" if r.get("tile") else "-"
            out.append(f"  {r['slot']} {self.slots.get(r['slot'], '?'):<36}| {tile:<24}| "
                       f"{who(r['merchant'], you)}")
        return "\n".join(out)

    def _workshops(self, v: dict, you) -> str:
        shown = [f"{w} {good(GOOD_OF.get(w, '?'))} <- {good(INPUT.get(GOOD_OF.get(w), '?'))}"
                 for w in v["display"] if w]
        out = ["", f"Workshop display: {', '.join(shown) or 'empty'}"]
        for wid, s in sorted(v["workshops"].items()):
            g = GOOD_OF.get(wid, "?")
            out.append(f"  {wid} {good(g)} <- {good(INPUT.get(g, '?'))}, level "
                       f"{ROMAN.get(s['level'], s['level'])}, {who(s['owner'], you)}, "
                       f"{s['province']} {' '.join(s['fields'])}: {s['goods']} Good(s) waiting, "
                       f"made {s['produced']}/{s['level']} this round")
        return "\n".join(out)

    def _port(self, v: dict, you) -> str:
        sails = "a full Ship" if v.get("options", {}).get("ships_sail") == "full" else \
            "every Ship with a Good"
        out = ["", f"Port (each slot filled: 1 Yinzi + 2 VP; {sails} sails in Maintenance)"]
        for p in v["port"]:
            flag, wants = SHIPS.get(p["ship"], ("?", ["?"] * len(p["slots"])))
            slots = ", ".join(f"{good(g)}={who(o, you)}" for g, o in zip(wants, p["slots"]))
            out.append(f"  {p['ship']} {flag:<11} {slots}")
        return "\n".join(out)

    def _admin(self, v: dict, you) -> str:
        out = ["", "Administration (an Overseer's benefit, usable from the next phase on)"]
        for b, taken in v["admin"].items():
            holder = "free" if taken is None else \
                f"{who(taken['owner'], you)} (placed round {taken['round']}, {taken['phase']})"
            out.append(f"  {b} {self.benefits.get(b, '?'):<44} {holder}")
        return "\n".join(out)

    def _seats(self, v: dict, you) -> str:
        out = ["", "seat  Sapeques Yinzi Stone Ambassador Peasants Overseers ShipVP TaxVP Turns"]
        for i, s in enumerate(v["seats"]):
            name = "you" if i == you else f"s{i}"
            out.append(f"  {name:<5}{s['sapeques']:>6}{s['yinzi']:>6}{s['stone']:>6}"
                       f"{s['ambassador']:>8}/6{s['peasants']:>9}{s['overseers']:>10}"
                       f"{s['ship_vp']:>7}{s['tax_vp']:>6}{s['turns']:>5}/6")
        for i, s in enumerate(v["seats"]):
            cards = "; ".join(self._card(c) for c in s["cards"]) or "none"
            spaces = " ".join(f"{a}={'#' + str(c) if c is not None else '-'}"
                              for a, c in s["spaces"].items())
            mark = "your" if i == you else f"s{i}"
            out.append(f"  {mark} cards: {cards}")
            out.append(f"  {' ' * len(mark)} action spaces: {spaces}; deck {s['deck_size']} "
                       f"card(s) left")
        return "\n".join(out)

    @staticmethod
    def _card(c: dict) -> str:
        used = [h for h in ("top", "bottom") if c[h]]
        notes = [" and ".join(used) + " used"] if used else []
        if c.get("overseers"):
            notes.append(f"{c['overseers']} extra Overseer(s)")
        state = f" ({', '.join(notes)})" if notes else ""
        return f"#{c['card']} {c['lines']} line(s) / trade {c['value']}{state}"

    def _turn(self, v: dict, you) -> str:
        t = v.get("turn")
        if not t or "card" not in t:
            return ""
        half = f"Command {t['action']}" if t["half"] == "top" else "Trade"
        seat = v["seats"][t["seat"]]
        left = seat["ambassador"] + t.get("permit", 0) - t.get("moved", 0)
        return (f"\nturn of {who(t['seat'], you)}: card #{t['card']}, {half}: {t['used']} of "
                f"{t['allowed']} action(s) used, {left} transport point(s) left")

    def _final(self, v: dict, you) -> str:
        f = v["final"]
        out = ["", f"final scoring (final rate R = {f.get('final_rate')})"]
        for i, parts in enumerate(f["breakdown"]):
            items = ", ".join(f"{k.replace('_', ' ')} {x}" for k, x in parts.items() if k != "total")
            out.append(f"  #{f['ranks'][i]} {who(i, you)}: {parts['total']} VP ({items})")
        return "\n".join(out)

    def decision(self, decision: dict) -> str:
        """The decision in words, with its actions and transport left."""
        kind = decision.get("kind", "?")
        prompt = decision.get("prompt") or {}
        text = DECISIONS.get(kind)
        if kind.startswith("command:"):
            text = f"Command Directive {kind.split(':', 1)[1]}"
        if kind.startswith("command:") or kind == "trade":
            text += (f": {prompt.get('actions_left')} action(s) left, "
                     f"{prompt.get('transport_left')} transport point(s); exchanges and extra "
                     f"Overseers any time; done ends the turn")
        if kind == "crop_tile":
            text += f" (slot {prompt.get('slot')}, tile {prompt.get('tile')})"
        if kind == "regulation":
            text += f"; you owe {prompt.get('tax_owed')} Yinzi"
        head = f"decide: {kind} (moves: {', '.join(decision.get('move_types', []))})"
        return head if text is None else "\n".join([head] + wrap(text, 2))

    def move(self, move: dict) -> str:
        """The move in words, naming what its ids stand for (the generic form if unknown)."""
        names = {"workshop": self._workshop, "slot": lambda n: self.slots.get(n, "?"),
                 "benefit": lambda b: self.benefits.get(b, "?"),
                 "ship": lambda s: f"the {SHIPS[s][0]} ship" if s in SHIPS else "?"}
        text = describe(move, getattr(self, "last_view", None), names)
        return text if text is not None else super().move(move)

    @staticmethod
    def _workshop(wid) -> str:
        g = GOOD_OF.get(wid)
        return f"{wid} ({good(g)} <- {good(INPUT.get(g, '?'))})" if g else str(wid)
