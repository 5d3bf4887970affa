"""Yínzi: Ming as SVG: the four Provinces with their Fields (crop, Peasants, Crop tiles,
Workshops), each Local Market's demand spaces, the Port's Ships and their slots, the Bonus
register, the Administration spaces, the built Workshops and the exchange rate.

What a Workshop makes and what a Ship wants come from the view's `components`; slot and
Administration effects from the game's board() tables when it publishes them."""

from __future__ import annotations

from markupsafe import Markup

from referee.web.boards import Context, words
from referee.web.boards.svg import SEAT_COLOURS, el, legend, place, rect, svg, text, token

CROPS = {"rice": "#f3ecc2", "maize": "#f6d365", "fruit": "#f7a8a8", "bamboo": "#b9dc8a",
         "cotton": "#ffffff", "tea": "#8fbf73", "salt": "#d5dde6", "ramie": "#d9c9a3",
         "sugarcane": "#c6ecc0"}
"""Field backgrounds by crop (the crop is always written too)."""
POSITION = {"yangzhou": (10, 40), "tongzhou": (330, 40), "changzhou": (10, 330),
            "suzhou": (330, 330)}
"""Provinces as on the board: Yangzhou NW, Tongzhou NE, Changzhou SW, Suzhou SE."""
CELL_W, CELL_H = 74, 50


def colour(seat) -> str:
    """A seat's colour."""
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def places(move: dict) -> list[str]:
    """Where a move acts: the Fields (a Peasant put, a tile bought or deployed, a Workshop
    built), a Local Market's space sold to, a Workshop, a Ship, a register slot or an
    Administration space."""
    out = [f"field:{f}" for f in move.get("fields") or []]
    for key in ("space", "field"):
        if isinstance(move.get(key), str):
            out.append(f"field:{move[key]}")
    if move.get("market") and isinstance(move.get("index"), int):
        out.append(f"market:{move['market']}:{move['index']}")
    if move.get("workshop"):
        out.append(f"workshop:{move['workshop']}")
    if move.get("ship"):
        out.append(f"ship:{move['ship']}")
    if move.get("type") == "merchant" and isinstance(move.get("slot"), int):
        out.append(f"slot:{move['slot']}")
    if move.get("benefit"):
        out.append(f"admin:{move['benefit']}")
    return out


def draw(view: dict, ctx: Context) -> Markup:
    """The table: Provinces on the left, Port, register and Administration on the right."""
    if "board" not in view or "map" not in view:
        return Markup("")
    parts = [text(10, 24, _heading(view), size=15, weight="bold")]
    for k, (prov, fields) in enumerate(view["map"]["provinces"].items()):
        x, y = POSITION.get(prov, (10 + 320 * (k % 2), 40 + 290 * (k // 2)))
        parts.append(_province(view, prov, fields, x, y, ctx.last))
    # the right column stacks as tall as the register and Administration are (rules 5: six
    # register slots)
    admin_y = 214 + 26 + 34 * len(view.get("register") or [])
    shops_y = admin_y + 26 + 30 * len(view.get("admin") or {})
    parts += [_port(view, 660, 36, ctx.last), _register(view, ctx, 660, 214),
              _admin(view, ctx, 660, admin_y), _workshops(view, 660, shops_y)]
    # the legend goes below the workshop list however long the register and Administration
    # made the right column (at a game's end the list ran onto it)
    legend_y = max(730, shops_y + 46 + 16 * 5 + 12)
    parts.append(_legend(view, ctx, 10, legend_y))
    return svg(1150, legend_y + 90, *parts, title=_heading(view))


def _heading(view: dict) -> str:
    ex = view.get("exchange") or {}
    active = view.get("active")
    who = f"; to act: seat {active}" if active is not None else ""
    return (f"Yínzi: Ming, round {view.get('round')} of 4, {view.get('phase')}"
            f"{' (' + str(view['stage']) + ')' if view.get('stage') else ''}{who}; "
            f"exchange rate R = {ex.get('rate')} Sapeques per Yinzi")


def _province(view: dict, prov: str, fields: list, x, y, last=frozenset()) -> Markup:
    market = view["markets"].get(prov, {})
    parts = [rect(x, y, 312, 282, fill="#f7f3e8", stroke="#8a7a5a", rx=8),
             text(x + 8, y + 18, f"{words(prov)} · Local Market {market.get('tile', '?')}",
                  size=13, weight="bold")]
    for k, sid in enumerate(fields):
        cx, cy = x + 8 + (k % 4) * (CELL_W + 2), y + 28 + (k // 4) * (CELL_H + 4)
        parts.append(place(f"field:{sid}", last, _field(view, sid, cx, cy, last)))
    my = y + 28 + 3 * (CELL_H + 4) + 6
    parts.append(text(x + 8, my + 10, "market demand (★ high); a sold Peasant waits on it",
                      size=11))
    for k, (demand, owner) in enumerate(zip(market.get("demands", []), market.get("spaces", []))):
        sx = x + 8 + k * 76
        high = demand == market.get("high_demand")
        space = [rect(sx, my + 16, 72, 36, fill=CROPS.get(demand, "#eee"), rx=4,
                      stroke="#b8860b" if high else "#777", stroke_width=3 if high else 1),
                 text(sx + 4, my + 30, ("★ " if high else "") + words(demand), size=11)]
        if owner is not None:  # a sold Peasant: its seat's number on it
            space.append(token(sx + 60, my + 42, colour(owner), owner, r=8))
        parts.append(place(f"market:{prov}:{k}", last, *space))
    return Markup("").join(parts)


def _field(view: dict, sid: str, x, y, last=frozenset()) -> Markup:
    field = view["board"][sid]
    mine = sid in view["map"].get("salt_mines", [])
    parts = [rect(x, y, CELL_W, CELL_H, fill=CROPS.get(field["crop"], "#eee"), stroke="#666",
                  rx=4, stroke_dasharray="4 2" if mine else None),
             text(x + 4, y + 13, f"{sid} {words(field['crop'])}", size=11)]
    if field.get("count"):  # the owner's number on the Peasant, the count beside it
        parts.append(token(x + 12, y + 29, colour(field["owner"]), field["owner"], r=8))
        parts.append(text(x + 22, y + 33, f"×{field['count']}", size=11))
    if field.get("tile"):
        parts.append(text(x + 4, y + 48, "+tile", size=11, weight="bold", fill="#7a4d00"))
    if field.get("workshop"):
        owner = (view["workshops"].get(field["workshop"]) or {}).get("owner")
        fill = colour(owner) if owner is not None else "#999"
        shop = [rect(x + CELL_W - 30, y + 17, 28, 31, fill=fill, stroke="#222", rx=2),
                text(x + CELL_W - 16, y + 29, field["workshop"], size=11, anchor="middle",
                     fill="#fff", weight="bold")]
        if owner is not None:  # the owner's number under the Workshop's id
            shop.append(text(x + CELL_W - 16, y + 43, owner, size=11, anchor="middle",
                             fill="#fff", weight="bold"))
        parts.append(place(f"workshop:{field['workshop']}", last, *shop))
    return Markup("").join(parts)


def _port(view: dict, x, y, last=frozenset()) -> Markup:
    ships = (view.get("components") or {}).get("ships", {})
    # option ships_sail: 'loaded' (the default since rules 3) or 'full'
    sails = "a full Ship" if (view.get("options") or {}).get("ships_sail") == "full" else \
        "every Ship with a Good"
    parts = [text(x, y + 14, f"Port ({sails} sails in Maintenance; sailed so far: "
                  f"{len(view.get('ships_sailed') or [])})", size=13, weight="bold")]
    for k, berth in enumerate(view.get("port") or []):
        ship = ships.get(berth["ship"], {})
        wants = ship.get("goods") or ["?"] * len(berth["slots"])
        ry = y + 24 + k * 50
        berth_parts = [rect(x - 4, ry - 3, 480, 46, fill="#fff", fill_opacity=0, stroke="none"),
                       text(x, ry + 16, f"{berth['ship']} {ship.get('flag', '')}", size=12,
                            weight="bold")]
        for s, (good, owner) in enumerate(zip(wants, berth["slots"])):
            sx = x + 110 + s * 92
            berth_parts.append(rect(sx, ry, 88, 40, stroke="#456", rx=4,
                                    fill="#eef3f8" if owner is None else colour(owner)))
            berth_parts.append(text(sx + 44, ry + 17 if owner is not None else ry + 24,
                                    words(good), size=11, anchor="middle", weight="bold",
                                    fill="#222" if owner is None else "#fff"))
            if owner is not None:  # whose Good: the seat's number, not colour alone
                berth_parts.append(text(sx + 44, ry + 33, f"seat {owner}", size=11,
                                        anchor="middle", fill="#fff", weight="bold"))
        parts.append(place(f"ship:{berth['ship']}", last, *berth_parts))
    return Markup("").join(parts)


def _lookup(ctx: Context, field: str, key, prefer: str = "") -> dict:
    """The entry of a published board table whose `field` is `key` (a slot or a space),
    from the table `prefer` (the one with each effect in words) if the game publishes it."""
    def walk(node):
        if isinstance(node, dict):
            if node.get(field) == key and ("name" in node or "effect" in node):
                return node
            node = list(node.values())
        if isinstance(node, list):
            for item in node:
                found = walk(item)
                if found:
                    return found
        return None
    for name in [prefer, *ctx.tables] if prefer in ctx.tables else ctx.tables:
        found = walk(ctx.table(name))
        if found:
            return found
    return {}


def _effect(entry: dict) -> tuple[str, str]:
    """(name, what it does): the table's own words, else its effect's fields."""
    does = entry.get("text") or entry.get("description") or entry.get("does")
    effect = entry.get("effect")
    if not does and isinstance(effect, dict):
        does = " ".join(f"{v}" if k == "kind" else f"{k} {v}" for k, v in effect.items())
    elif not does and effect:
        does = str(effect)
    return entry.get("name", ""), words(does or "")


def _two_lines(x, y, head: str, does: str, width: int) -> Markup:
    """A name on one line and what it does below, cut to `width` characters (the whole
    sentence stays in the tooltip)."""
    cut = does if len(does) <= width else does[:width - 1] + "…"
    return (text(x, y, head, size=11, weight="bold") +
            el("text", el("title", does), cut, x=x, y=y + 14, font_size=11, fill="#444"))


def _register(view: dict, ctx: Context, x, y) -> Markup:
    parts = [text(x, y + 14, "Bonus register (slot order = turn order)", size=13,
                  weight="bold")]
    for k, slot in enumerate(view.get("register") or []):
        ry = y + 22 + k * 34
        tile = f"{words(slot['crop'])} tile, {slot['cost']} Sap" if slot.get("tile") else "no tile"
        name, does = _effect(_lookup(ctx, "slot", slot["slot"], "bonus_slots"))
        row = [rect(x, ry, 470, 32, fill="#fffaf0", stroke="#aaa", rx=3),
               _two_lines(x + 6, ry + 13, f"{slot['slot']}. {name or 'slot'} · {tile}", does, 76)]
        if slot.get("merchant") is not None:  # M and the seat's number
            row.append(token(x + 452, ry + 16, colour(slot["merchant"]),
                             f"M{slot['merchant']}", r=12))
        parts.append(place(f"slot:{slot['slot']}", ctx.last, *row))
    return Markup("").join(parts)


def _admin(view: dict, ctx: Context, x, y) -> Markup:
    parts = [text(x, y + 14, "Administration (an Overseer's benefit)", size=13,
                  weight="bold")]
    for k, (space, taken) in enumerate((view.get("admin") or {}).items()):
        ry = y + 22 + k * 30
        name, does = _effect(_lookup(ctx, "id", space, "administration_spaces"))
        row = [rect(x, ry - 2, 470, 28, fill="#fff", fill_opacity=0, stroke="none", rx=3),
               _two_lines(x + 6, ry + 11, f"{space} {name}", does, 76)]
        if taken:  # O and the seat's number
            row.append(token(x + 452, ry + 12, colour(taken["owner"]), f"O{taken['owner']}",
                             r=12))
        parts.append(place(f"admin:{space}", ctx.last, *row))
    return Markup("").join(parts)


def _workshops(view: dict, x, y) -> Markup:
    comps = view.get("components") or {}
    makes, inputs = comps.get("workshops", {}), comps.get("inputs", {})
    display = ", ".join(f"{w} {words(makes.get(w, '?'))}" for w in view.get("display") or [] if w)
    parts = [text(x, y + 14, "Workshops (good ← crop, level, Goods waiting)", size=13,
                  weight="bold"),
             text(x, y + 32, f"display: {display or 'empty'}", size=11)]
    shops = sorted((view.get("workshops") or {}).items())
    for k, (wid, shop) in enumerate(shops[:8]):  # two columns of four
        wx, wy = x + 8 + 240 * (k // 4), y + 46 + 16 * (k % 4)
        good = makes.get(wid, "?")
        parts.append(token(wx, wy, colour(shop["owner"]), shop["owner"], r=7, shape="square"))
        parts.append(text(wx + 11, wy + 4, f"{wid} {words(good)} ← {words(inputs.get(good, '?'))}"
                          f", level {shop['level']}, goods {shop['goods']}", size=11))
    if len(shops) > 8:
        parts.append(text(x + 8, y + 46 + 64, f"… and {len(shops) - 8} more", size=11))
    return Markup("").join(parts)


def _legend(view: dict, ctx: Context, x, y) -> Markup:
    entries = [(token(10, 10, colour(s), s, r=10, shape="square"), ctx.name(s))
               for s in range(view.get("players", 0))]   # the seat's number: not colour alone
    entries += [(token(10, 10, "#ddd", "n", r=9), "×c: c Peasants of seat n on a Field"),
                (rect(0, 2, 20, 16, fill="#999", stroke="#222"), "Workshop (id, owner's number)"),
                (rect(0, 0, 20, 20, fill="#eee", stroke="#666", stroke_dasharray="4 2"),
                 "Salt Mine"),
                (text(0, 15, "+tile", size=11, weight="bold", fill="#7a4d00"),
                 "a Crop tile on the Field"),
                (token(10, 10, "#ddd", "n", r=9), "a sold Peasant of seat n on a market space"),
                (token(10, 10, "#ddd", "Mn", r=10), "Merchant of seat n"),
                (token(10, 10, "#ddd", "On", r=10), "Overseer of seat n"),
                (rect(1, 1, 18, 18, fill="none", stroke="#c2185b", stroke_width=4,
                      stroke_dasharray="5 3"), "where the last move acted")]
    return legend(x, y, entries, width=1040)


def seat_rows(view: dict, ctx: Context) -> tuple[list, list]:
    """Each seat's holdings, scores so far and Order cards (their use is public)."""
    if "seats" not in view:
        return [], []
    heads = ["seat", "Sapeques", "Yinzi", "Stone", "Ambassador", "Peasants", "Overseers",
             "Ship VP", "Tax VP", "turns", "Order cards (lines / trade value, used halves)"]
    rows = []
    for s, info in enumerate(view["seats"]):
        cards = "; ".join(f"#{c['card']} {c['lines']}/{c['value']}"
                          + ("".join(f" {h} used" for h in ("top", "bottom") if c.get(h)))
                          for c in info.get("cards") or []) or "—"
        rows.append([(colour(s), ctx.name(s)), info.get("sapeques"), info.get("yinzi"),
                     info.get("stone"), info.get("ambassador"), info.get("peasants"),
                     info.get("overseers"), info.get("ship_vp"), info.get("tax_vp"),
                     info.get("turns"), cards])
    return heads, rows
