"""Yunnan in the terminal: the Tea Horse Road from Qinghai down to the Market of Pu'er (each
province's income, presents, teahouse, traders and trading posts per participant), the gorges
and bridges, the bids in the buildings of Pu'er, every seat's tracks and supplies, Dúlì, and
what happened this round (Bank, Dúlì's cards, displacements, the Inspector, presents, income).
"""

from __future__ import annotations

from referee_client.render import register
from referee_client.render.generic import Renderer, compact

PHASES = {"bidding": "Bidding & Progress", "resolution": "Resolving the buildings",
          "travel": "Build & Travel", "convert": "End of round: convert income",
          "over": "game over"}
STEPS = {
    "bid": "places a trader (bid, Bank, Market or pass)",
    "resolve": "chooses which building to resolve next",
    "block": "places the Gorge Blocker (Dianmu Temple)",
    "yard": "takes a structure from the Building Yard",
    "travel": "builds and starts journeys (done ends the turn)",
    "journey": "moves the trader under way on, or stops it",
    "displace": "may displace a trader where the journey ended",
    "convert": "converts round income into victory points",
}


def untag(node):
    """A board table's plain value: `{"value", "status", "source"}` tags stripped."""
    if isinstance(node, dict):
        if "value" in node and "status" in node:
            return untag(node["value"])
        return {k: untag(v) for k, v in node.items()}
    if isinstance(node, list):
        return [untag(v) for v in node]
    return node


def title(name: str) -> str:
    """`traders_guild` -> `Traders Guild`."""
    return name.replace("_", " ").title()


def who(view: dict, p) -> str:
    """A participant's short name: `P0`, or `Dúlì`."""
    if p is None:
        return "-"
    return "Duli" if p == view.get("duli") else f"P{p}"


def _counts(view: dict, row_of) -> str:
    """`P0 2, Duli 3` for every participant with a non-zero count."""
    parts = [f"{who(view, p)} {row_of(p)}" for p in range(_participants(view)) if row_of(p)]
    return ", ".join(parts) or "-"


def _participants(view: dict) -> int:
    return view["n"] + (1 if view.get("duli") is not None else 0)


@register("yunnan")
class YunnanRenderer(Renderer):
    """The Yunnan table as text: road, Pu'er, seats, this round's events."""

    def __init__(self, game: dict | None = None):
        super().__init__(game)
        board = {name: untag(table.get("value"))
                 for name, table in (self.game.get("board") or {}).items()}
        self.income = board.get("province_income", {})
        """Coins per trader per province, from GET /v1/games/yunnan (empty without it)."""
        spaces = board.get("bid_spaces", {}).get("progress", [])
        self.small = board.get("bid_spaces", {}).get("small", [])
        self.spaces = {**{b: spaces for b in board.get("progress_buildings", [])},
                       "temple": board.get("temple_spaces", [])}
        """Each building's bid values; the Temple is listed last, as on the board."""

    def view(self, view: dict | None, seat: int | None = None) -> str:
        """The whole table as `seat` sees it."""
        if not view or "provinces" not in view:
            return super().view(view, seat)
        self.last_view = view  # names Dúlì in the moves listed after it
        lines = [self._heading(view, seat), ""]
        lines += self._road(view)
        lines += [""] + self._pu_er(view)
        lines += [""] + self._seats(view, seat)
        lines += self._events(view)
        return "\n".join(lines)

    # ---- parts --------------------------------------------------------------------------
    def _heading(self, view: dict, seat) -> str:
        phase = view.get("phase")
        text = f"Yunnan - round {view.get('round')}, {PHASES.get(phase, phase)}"
        if phase != "over" and view.get("actor") is not None:
            actor = "you" if view["actor"] == seat else who(view, view["actor"])
            text += f"; to act: {actor} ({STEPS.get(view.get('step'), view.get('step'))})"
        if seat is not None:
            text += f"; you are P{seat}"
        return text

    def _road(self, view: dict) -> list[str]:
        lines = ["The Tea Horse Road (income per trader/post, presents left):"]
        provinces = view["provinces"]
        horses = {}
        for p, h in enumerate(view["horse"]):  # named (older views: an index)
            horses.setdefault(h if isinstance(h, int) else provinces.index(h), []).append(f"P{p}")
        for i in reversed(range(len(provinces))):
            name = provinces[i]
            owner = view["teahouses"][i]
            head = (f"  {name:<8} {self.income.get(name, '?'):>2}  presents "
                    f"{view['presents'][i]}"
                    f"  teahouse {who(view, owner) if owner is not None else '-'}")
            if i in horses:
                head += f"  horses: {' '.join(horses[i])}"
            lines.append(head)
            lines.append(f"             traders: {_counts(view, lambda p: view['traders'][p][i])}"
                         f"   posts: {_counts(view, lambda p: view['posts'][p][i])}")
        lines.append(f"  Market of Pu'er (3 in all): {_counts(view, lambda p: view['market'][p])}")
        gorges = []
        for g, gid in enumerate(view.get("gorges", [])):
            owners = [who(view, p) for p in range(_participants(view))
                      if gid in view["bridges"][p] or g in view["bridges"][p]]
            text = f"{gid}: {'bridges ' + ' '.join(owners) if owners else 'no bridge'}"
            if view.get("blocker") in (g, gid):
                text += " [BLOCKED]"
            gorges.append(text)
        lines.append("  Gorges: " + "; ".join(gorges))
        return lines

    def _pu_er(self, view: dict) -> list[str]:
        small = ", ".join(map(str, self.small)) or "the small ones"
        lines = [f"Pu'er (bids: space value = bidder; {small} and the Temple are small spaces):"]
        for building, row in view["bids"].items():
            spaces = self.spaces.get(building) or [f"#{i + 1}" for i in range(len(row))]
            cells = [f"{value}={who(view, owner) if owner is not None else '.'}"
                     for value, owner in zip(spaces, row)]
            lines.append(f"  {title(building):<15} " + "  ".join(cells))
        bank = ", ".join(who(view, p) for p in view.get("bank", [])) or "-"
        lines.append(f"  {'Bank':<15} {bank}")
        return lines

    def _seats(self, view: dict, seat) -> list[str]:
        blue = " ".join(who(view, p) for p in view.get("blue", []))
        grey = " ".join(who(view, p) for p in view.get("grey", [])) or "-"
        passed = [who(view, p) for p, done in enumerate(view.get("passed", [])) if done]
        lines = [f"Turn order: blue (bidding) {blue}; grey (travel) {grey}"
                 + (f"; passed: {' '.join(passed)}" if passed and view["phase"] == "bidding"
                    else "")]
        provinces = view["provinces"]
        for p in range(view["n"]):
            you = " (you)" if p == seat else ""
            income = view["income"][p]
            lines.append(
                f"  P{p}{you}: coins {view['coins'][p]}  VP {view['vp'][p]}"
                + (f"  round income {income}" if income is not None else "")
                + f"  horse {_place(provinces, view['horse'][p])}  passes {view['passes'][p]}"
                f"  influence {view['influence'][p]}  presents {view['gifts'][p]}")
            stock = ", ".join(f"{title(k)} {n}" for k, n in view["stock"][p].items() if n)
            yard = ", ".join(f"{title(k)} {n}" for k, n in view["yard"][p].items() if n)
            lines.append(f"       supply {view['supply'][p]}  traders still to win "
                         f"{view['reserve'][p]}  to build: {stock or '-'}"
                         f"  in the Building Yard: {yard or '-'}")
        duli = view.get("duli")
        if duli is not None:
            cards = view.get("duli_cards") or {}
            lines.append(f"  Duli (automaton): influence {view['influence'][duli]}  supply "
                         f"{view['supply'][duli]}  presents {view['gifts'][duli]}  cards: "
                         f"{cards.get('draw_pile', '?')} to draw, shown "
                         f"{cards.get('shown', [])}")
        if view.get("journey"):
            journey = view["journey"]
            lines.append(f"  Under way: a trader in {_place(provinces, journey['at'])} (visited "
                         f"{', '.join(_place(provinces, i) for i in journey['visited'])})")
        if view["phase"] == "travel" and view.get("actor") is not None:
            lines.append(f"  This turn: {view['passes_used']} border passes used; arrived "
                         f"{compact(view['arrived'])}")
        if view["phase"] == "over" and view.get("final"):
            for p, parts in enumerate(view["final"]):
                detail = ", ".join(f"{k} {v}" for k, v in parts.items() if k != "total")
                lines.append(f"  P{p} final {parts['total']}: {detail}")
        return lines

    def _events(self, view: dict) -> list[str]:
        lines = []
        for label, report in (("This round", view.get("report")),
                              ("Last round", view.get("previous"))):
            text = self._report(view, report or {})
            if text:
                lines += ["", f"{label}:"] + [f"  {t}" for t in text]
        return lines

    def _report(self, view: dict, report: dict) -> list[str]:
        out = []
        provinces = view["provinces"]
        if report.get("bank"):
            bank = report["bank"]
            out.append(f"Bank: bids totalled {bank['total_bid']}, paid {bank['payout']} to "
                       + ", ".join(who(view, p) for p in bank["bankers"]))
        for entry in report.get("duli", []):
            if "bid" in entry:
                bid = (f"bid {entry['space']} on {title(entry['bid'])}" if entry["bid"]
                       else "could not bid")
                out.append(f"Duli card {entry['card']}: {bid}")
            else:
                placed = ", ".join(f"{provinces[i]} {n}" for i, n in
                                   enumerate(entry["placed"]) if n) or "nothing"
                out.append(f"Duli card {entry['card']}: placed {placed}"
                           + (f", teahouse in {entry['teahouse']}" if entry["teahouse"] else ""))
                for d in entry["displaced"]:
                    out.append(f"  Duli displaced {who(view, d['owner'])} from {d['from']}")
        for d in report.get("displaced", []):
            out.append(f"{who(view, d['by'])} displaced {who(view, d['owner'])} from {d['from']}")
        if report.get("inspector"):
            insp = report["inspector"]
            victim = who(view, insp["banished"]) if insp["banished"] is not None else "nobody"
            out.append(f"Inspector in {insp['province']} (revenue {insp['revenue']}): "
                       f"banished {victim}")
        if report.get("presents"):
            got = ", ".join(f"{who(view, p)} {n}" for p, n in enumerate(report["presents"]) if n)
            out.append(f"Presents: {got or 'none'}")
        if report.get("income"):
            out.append("Income: " + ", ".join(f"P{p} {x}" for p, x in
                                              enumerate(report["income"])))
        return out

    # ---- decisions and moves ------------------------------------------------------------
    def decision(self, decision: dict) -> str:
        """What is being decided, with the prompt's facts in words."""
        kind = decision.get("kind", "?")
        prompt = decision.get("prompt") or {}
        line = f"decide: {STEPS.get(kind, kind)}"
        facts = []
        if "passes_left" in prompt:
            facts.append(f"border passes left {prompt['passes_left']}")
        if "at" in prompt:
            facts.append(f"trader in {prompt['at']}")
        if "province" in prompt:
            facts.append(f"in {prompt['province']}")
        if "structures_to_take" in prompt:
            facts.append(f"structures to take {prompt['structures_to_take']}")
        if "income" in prompt:
            facts.append(f"round income {prompt['income']}")
        return line + (f" ({'; '.join(facts)})" if facts else "")

    def move(self, move: dict) -> str:
        """One move in words: `bid 9 on Horse Trader (trader from supply)`..."""
        kind = move.get("type")
        src = f" (trader from {move['from']})" if "from" in move else ""
        if kind == "bid":
            return f"bid {move['space']} on {title(move['building'])}{src}"
        if kind == "bank":
            return f"go to the Bank{src}: your bids and supply go to the Market, you pass"
        if kind == "market":
            return f"place a trader in the Market of Pu'er{src}"
        if kind == "pass":
            return "pass (your supply goes to the Market)"
        if kind == "resolve":
            return f"resolve {title(move['building'])} next"
        if kind == "block":
            return f"block the gorge {move['gorge']}"
        if kind in ("yard", "build"):
            verb = "take" if kind == "yard" else "build"
            where = f" in {move['place']}" if move.get("place") else " (keep it in supply)"
            if move.get("structure") == "bridge" and move.get("place"):
                where = f" across {move['place']}"
            return f"{verb} a {move['structure'].replace('_', ' ')}{where}"
        if kind == "step":
            return f"step {move['from']} -> {move['to']}"
        if kind == "stop":
            return "stop the journey here"
        if kind == "displace":
            view = getattr(self, "last_view", None) or {"duli": None}
            return f"displace a trader of {who(view, move['owner'])}"
        if kind == "no_displace":
            return "displace nobody"
        if kind == "done":
            return "done (end the turn; traders with no route to Pu'er go to the Market)"
        if kind == "convert":
            return f"convert {move['points']} into victory points (the rest as coins)"
        return super().move(move)


def _place(names: list, place) -> str:
    """A province as the view gives it: by name (an index in views before rules_version 2)."""
    return names[place] if isinstance(place, int) else place
