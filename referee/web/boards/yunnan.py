"""Yunnan as SVG: the Tea Horse Road from the Market of Pu'er up to Qinghai (road and gorges,
bridges, the Gorge Blocker), each province's traders, trading posts, teahouse, horses and
presents, and the buildings of Pu'er with their bid rows and the Bank."""

from __future__ import annotations

from markupsafe import Markup

from referee.web.boards import Context, words
from referee.web.boards.svg import SEAT_COLOURS, el, legend, line, place, rect, svg, text, token

DULI_COLOUR = "#6d6d6d"
ROAD, GORGE = "#c8a165", "#7a7a7a"
BOX_W, BOX_H = 200, 124
CENTRES = {"qinghai": (320, 75), "sichuan": (100, 262), "kang": (320, 262),
           "tibet": (540, 262), "yunnan": (320, 450)}
"""Where each province sits: a sketch of the real map, so every road and gorge is a line."""
MARKET_AT = (320, 598)
BUILDINGS = ("trading_school", "customs_office", "horse_trader", "traders_guild",
             "building_yard", "temple")


def colour(view: dict, p) -> str:
    """A participant's colour; Dúlì is grey."""
    return DULI_COLOUR if p == view.get("duli") else SEAT_COLOURS[p % len(SEAT_COLOURS)]


def who(view: dict, p) -> str:
    """`P0` or `Dúlì`."""
    return "Dúlì" if p == view.get("duli") else f"P{p}"


def mark(view: dict, p) -> str:
    """The letter on a participant's piece: its seat number, or D for Dúlì."""
    return "D" if p == view.get("duli") else str(p)


def _province_name(view: dict, where) -> str:
    """A province as a view names it (older views gave its road index)."""
    return view["provinces"][where] if isinstance(where, int) else where


def places(move: dict) -> list[str]:
    """Where a move acts: the province a trader travels to or a post is built in, the
    building (or the Bank, the Market) bid on or resolved, the gorge blocked."""
    kind = move.get("type")
    if kind == "step" and move.get("to"):
        return [f"province:{move['to']}"]
    if kind in ("build", "yard") and move.get("place"):  # a bridge is built on a gorge
        where = "gorge" if move.get("structure") == "bridge" else "province"
        return [f"{where}:{move['place']}"]
    if kind in ("bid", "resolve") and move.get("building"):
        return [f"building:{move['building']}"]
    if kind == "bank":
        return ["building:bank"]
    if kind == "market":
        return ["market"]
    if kind == "block" and move.get("gorge"):
        return [f"gorge:{move['gorge']}"]
    return []


def participants(view: dict) -> range:
    """Every seat, plus Dúlì in a 2-player game."""
    return range(view["n"] + (1 if view.get("duli") is not None else 0))


def draw(view: dict, ctx: Context) -> Markup:
    """The whole table: map on the left, Pu'er on the right, legend below."""
    if "provinces" not in view:
        return Markup("")
    provinces = view["provinces"]
    centres = {i: CENTRES.get(name, (320, 75 + 120 * (len(provinces) - i)))
               for i, name in enumerate(provinces)}
    parts = [_connections(view, centres, ctx.last)]
    income = ctx.table("income", "province_income") or {}
    parts += [_province(view, i, centres[i], income, ctx.last) for i in range(len(provinces))]
    parts.append(_market(view, ctx.table("market_income"), ctx.last))
    parts.append(_pu_er(view, ctx, 690, 20))
    parts.append(_legend(view, ctx, 20, 650))
    title = (f"Yunnan, round {view.get('round')}, {words(view.get('phase', ''))}")
    return svg(1040, 720, text(690, 0 + 14, title, size=15, weight="bold"), *parts, title=title)


def _connections(view: dict, centres: dict, last=frozenset()) -> Markup:
    """The road (solid) and the gorges (dashed), bridges and the blocker on the gorges."""
    provinces = view["provinces"]
    parts = [line(*MARKET_AT, *centres[0], stroke=ROAD, width=10)]
    parts += [line(*centres[i], *centres[i + 1], stroke=ROAD, width=10)
              for i in range(len(provinces) - 1)]
    for g, gid in enumerate(view.get("gorges", [])):
        a, _, b = gid.partition("-")
        (x1, y1), (x2, y2) = centres[provinces.index(a)], centres[provinces.index(b)]
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        gorge = [line(x1, y1, x2, y2, stroke=GORGE, width=4, stroke_dasharray="10 6")]
        owners = [p for p in participants(view) if {g, gid} & set(view["bridges"][p])]
        for k, p in enumerate(owners):  # a bridge: its owner's colour and mark
            bx = mx - 9 * len(owners) + 18 * k
            gorge.append(token(bx + 8, my, colour(view, p), mark(view, p), r=8, shape="square"))
        if view.get("blocker") in (g, gid):  # the gorge's name (or its index, before names)
            gorge.append(text(mx, my + 6, "✕ blocked", size=13, anchor="middle",
                              weight="bold", fill="#b00000"))
        elif not owners:
            gorge.append(text(mx, my - 8, "gorge", size=11, anchor="middle", fill="#555"))
        parts.append(place(f"gorge:{gid}", last, *gorge))
    return Markup("").join(parts)


def _pieces(view: dict, x, y, counts, shape) -> Markup:
    """One token per participant holding any, with its mark on it (not colour alone) and
    the count beside it."""
    parts, cx = [], x
    for p in participants(view):
        if counts(p):
            parts.append(token(cx, y, colour(view, p), mark(view, p), r=8, shape=shape))
            parts.append(text(cx + 10, y + 4, f"×{counts(p)}", size=11))
            cx += 32
    return Markup("").join(parts) if parts else text(x - 8, y + 4, "—", size=12, fill="#888")


def _province(view: dict, i: int, centre, income: dict, last=frozenset()) -> Markup:
    name = view["provinces"][i]
    x, y = centre[0] - BOX_W / 2, centre[1] - BOX_H / 2
    head = words(name)
    if name in income:
        head += f" · income {income[name]}"
    owner = view["teahouses"][i]
    parts = [rect(x, y, BOX_W, BOX_H, fill="#fbf6ea", stroke="#8a6d3b", rx=8),
             text(x + 8, y + 18, head, size=14, weight="bold"),
             text(x + 8, y + 38, f"presents {view['presents'][i]} · teahouse", size=12)]
    parts.append(token(x + 170, y + 33, colour(view, owner), mark(view, owner), r=9, shape="house")
                 if owner is not None else text(x + 162, y + 38, "—", size=12, fill="#888"))
    parts += [text(x + 8, y + 62, "traders", size=12),
              _pieces(view, x + 66, y + 58, lambda p: view["traders"][p][i], "circle"),
              text(x + 8, y + 86, "posts", size=12),
              _pieces(view, x + 66, y + 82, lambda p: view["posts"][p][i], "square")]
    horses = [p for p in range(view["n"]) if view["horse"][p] in (i, name)]
    if horses:
        parts.append(text(x + 8, y + 110, "horses", size=12))
        parts += [token(x + 66 + 24 * k, y + 106, colour(view, p), mark(view, p), r=9)
                  for k, p in enumerate(horses)]
    return place(f"province:{name}", last, *parts)


def _market(view: dict, income, last=frozenset()) -> Markup:
    x, y = MARKET_AT[0] - 150, MARKET_AT[1] - 24
    head = "Market of Pu'er" + (f" · income {income} in all" if income is not None else "")
    return place("market", last, *[
        rect(x, y, 300, 48, fill="#efe3c6", stroke="#8a6d3b", rx=8),
        text(x + 8, y + 20, head, size=14, weight="bold"),
        text(x + 8, y + 38, "traders", size=12),
        _pieces(view, x + 72, y + 34, lambda p: view["market"][p], "circle")])


def _spaces(ctx: Context, building: str, count: int) -> list[tuple]:
    """(printed value, small?) of a building's bid spaces, from the published tables
    (bid_spaces, temple_spaces); `#1..#n` and nothing small while a game publishes none."""
    spaces = ctx.table("bid_spaces") or {}
    values = ctx.table("temple_spaces") if building == "temple" else spaces.get("progress")
    small = set(spaces.get("small") or [])
    if not isinstance(values, list) or len(values) != count:
        return [(f"#{k + 1}", False) for k in range(count)]
    return [(v, building == "temple" or v in small) for v in values]


def _pu_er(view: dict, ctx: Context, x, y) -> Markup:
    """The buildings of Pu'er, one bid row each (a space filled in its bidder's colour; a
    small space dashed); what winning each gives in its tooltip."""
    effects = ctx.table("building_effects") or {}
    parts = [text(x, y + 30, "Pu'er: bids (coins; dashed = a small space)",
                  size=13, weight="bold")]
    row_y = y + 44
    for building in [b for b in BUILDINGS if b in view.get("bids", {})]:
        parts.append(place(f"building:{building}", ctx.last,
                           *_bid_row(view, ctx, building, effects, x, row_y)))
        row_y += 36
    bank = [_row_box(x, row_y, 24), el("text", el("title", effects.get("bank", "")), "Bank",
                                     x=x, y=row_y + 17, font_size=12, fill="#222")]
    bank += [token(x + 122 + 24 * k, row_y + 12, colour(view, p), mark(view, p), r=9)
             for k, p in enumerate(view.get("bank", []))]
    parts.append(place("building:bank", ctx.last, *bank))
    row_y += 44
    for label, order in (("bidding order (blue)", view.get("blue", [])),
                         ("travel order (grey)", view.get("grey", []))):
        parts.append(text(x, row_y + 4, label, size=12))
        parts += [token(x + 150 + 26 * k, row_y, colour(view, p), mark(view, p), r=10)
                  for k, p in enumerate(order)]
        row_y += 28
    if view.get("phase") != "over" and view.get("actor") is not None:
        parts.append(text(x, row_y + 8, f"to act: {who(view, view['actor'])} "
                          f"({words(view.get('step', ''))})", size=13, weight="bold"))
    for label, report in (("This round", view.get("report")), ("Last round", view.get("previous"))):
        lines = events(view, report or {})
        if lines:
            row_y += 30
            parts.append(text(x, row_y, label, size=12, weight="bold"))
            for line_ in lines[:5]:
                row_y += 17
                parts.append(text(x + 8, row_y, line_, size=11))
    return Markup("").join(parts)


def _row_box(x, y, height) -> Markup:
    """An invisible box under a row of Pu'er (it takes the clicks and the last-move mark)."""
    return rect(x - 4, y - 3, 350, height + 6, fill="#fff", fill_opacity=0, stroke="none", rx=4)


def _bid_row(view: dict, ctx: Context, building: str, effects: dict, x, row_y) -> list:
    """A building's name and bid spaces: a taken space in its bidder's colour, with the
    bidder's mark under the printed value (not colour alone)."""
    row = view["bids"][building]
    parts = [_row_box(x, row_y, 30),
             el("text", el("title", effects.get(building, "")), words(building),
                x=x, y=row_y + 19, font_size=12, fill="#222")]
    for k, ((value, small), owner) in enumerate(zip(_spaces(ctx, building, len(row)), row)):
        sx = x + 110 + 40 * k
        parts.append(rect(sx, row_y, 34, 30, rx=4, stroke="#555",
                          stroke_dasharray="4 3" if small else None,
                          fill=colour(view, owner) if owner is not None else "#fff"))
        if owner is None:
            parts.append(text(sx + 17, row_y + 19, value, size=12, anchor="middle",
                              fill="#555", weight="bold"))
        else:
            parts.append(text(sx + 17, row_y + 13, value, size=11, anchor="middle",
                              fill="#fff", weight="bold"))
            parts.append(text(sx + 17, row_y + 26, who(view, owner), size=11,
                              anchor="middle", fill="#fff", weight="bold"))
    return parts


def events(view: dict, report: dict) -> list[str]:
    """A round's Bank payout, displacements, Inspector, presents and income, in words."""
    out = []
    if report.get("bank"):
        bank = report["bank"]
        out.append(f"Bank paid {bank['payout']} to "
                   + (", ".join(who(view, p) for p in bank["bankers"]) or "nobody"))
    for d in report.get("displaced") or []:
        out.append(f"{who(view, d.get('by'))} displaced {who(view, d.get('owner'))} "
                   f"from {words(d.get('from', ''))}")
    if report.get("inspector"):
        insp = report["inspector"]
        victim = who(view, insp["banished"]) if insp.get("banished") is not None else "nobody"
        out.append(f"Inspector in {words(insp['province'])} (revenue {insp['revenue']}) "
                   f"banished {victim}")
    if report.get("income"):
        out.append("income " + ", ".join(f"P{p} {x}" for p, x in enumerate(report["income"])))
    return out


def _legend(view: dict, ctx: Context, x, y) -> Markup:
    entries = []
    for p in participants(view):
        label = "Dúlì (automaton)" if p == view.get("duli") else f"P{p} = {ctx.name(p)}"
        entries.append((token(10, 10, colour(view, p), mark(view, p), r=10, shape="square"), label))
    entries += [(token(10, 10, "#ddd", "n", r=9), "trader of seat n (×count)"),
                (token(10, 10, "#ddd", "n", r=9, shape="square"),
                 "trading post or bridge of seat n"),
                (token(10, 12, "#ddd", "T", r=8, shape="house"), "teahouse"),
                (token(10, 10, "#ddd", "H", r=9), "horse"),
                (line(0, 10, 20, 10, stroke=ROAD, width=8), "road"),
                (line(0, 10, 20, 10, stroke=GORGE, width=4, stroke_dasharray="6 3"),
                 "gorge"),
                (rect(1, 1, 18, 18, fill="none", stroke="#c2185b", stroke_width=4,
                      stroke_dasharray="5 3"), "where the last move acted")]
    return legend(x, y, entries, width=1000)


def seat_rows(view: dict, ctx: Context) -> tuple[list, list]:
    """Coins, VP, tracks and supplies of every seat (all public in Yunnan)."""
    if "coins" not in view:
        return [], []
    heads = ["seat", "coins", "VP", "round income", "horse in", "passes", "influence",
             "supply", "traders to win", "presents", "to build", "in Building Yard"]
    rows = []
    for p in range(view["n"]):
        stock = ", ".join(f"{words(k)} {n}" for k, n in view["stock"][p].items() if n) or "—"
        yard = ", ".join(f"{words(k)} {n}" for k, n in view["yard"][p].items() if n) or "—"
        income = view["income"][p]
        rows.append([(colour(view, p), f"P{p} = {ctx.name(p)}"), view["coins"][p], view["vp"][p],
                     "—" if income is None else income, words(_province_name(view, view["horse"][p])),
                     view["passes"][p], view["influence"][p], view["supply"][p],
                     view["reserve"][p], view["gifts"][p], stock, yard])
    duli = view.get("duli")
    if duli is not None:
        rows.append([(colour(view, duli), "Dúlì (automaton)"), "—", "—", "—", "—", "—",
                     view["influence"][duli], view["supply"][duli], "—", view["gifts"][duli],
                     "—", "—"])
    return heads, rows
