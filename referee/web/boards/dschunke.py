"""Dschunke as SVG: the market card and the round track, the five junks with their cargo strips
(layers bottom to top, in the owners' colours), visible crates per seat, goods piles, merchants
and assistants, the special-card stacks, and the goods poker with its last reveal."""

from __future__ import annotations

from markupsafe import Markup

from referee.web.boards import Context, words
from referee.web.boards.svg import (LIGHT, NAMED, el, legend, place, rect, seat_colour, svg, text,
                                   token)

RING = ("grey", "orange", "lilac", "brown", "white")
GOODS = ("white", "brown", "lilac", "orange")
PHASES = {0: "set-up", 1: "market and events", 2: "actions", 3: "resupply", 4: "goods poker"}
JUNK_W, STRIP_W, STRIP_H = 196, 54, 16


def colours(view: dict) -> list:
    """Each seat's colour, as the game names it."""
    names = view.get("colours") or []
    return [seat_colour(s, names) for s in range(view.get("players", len(names)))]


def places(move: dict) -> list[str]:
    """Where a move acts: the junk loaded, resupplied, taken from or a strip moved to, the
    merchant used, the special-card stack looked through."""
    kind = move.get("type")
    if kind == "move_strip" and move.get("to"):
        return [f"junk:{move['to']}"]
    if kind in ("assistant", "resupply", "take_goods") and move.get("junk"):
        return [f"junk:{move['junk']}"]
    if kind == "merchant" and move.get("merchant"):
        return [f"merchant:{move['merchant']}"]
    if kind == "choose_stack" and isinstance(move.get("stack"), int):
        return [f"stack:{move['stack']}"]
    return []


def _goods_name(ctx: Context, goods: str) -> str:
    names = ctx.table("goods_names") or {}
    return f"{goods} ({names[goods]})" if goods in names else goods


def draw(view: dict, ctx: Context) -> Markup:
    """The table: market and track on top, the junks, then stacks and the poker."""
    if "junks" not in view:
        return Markup("")
    seats = colours(view)
    parts = [_market(view, ctx, 10, 10), _track(view, ctx, 430, 10)]
    parts += [_junk(view, ctx, name, 10 + k * (JUNK_W + 10), 130, seats)
              for k, name in enumerate(RING) if name in view["junks"]]
    parts.append(_stacks(view, 10, 470, ctx.last))
    parts.append(_poker(view, ctx, 300, 470, seats))
    parts.append(_legend(view, ctx, 10, 640, seats))
    title = (f"Dschunke, round {view.get('round')} of 10, phase {view.get('phase')} "
             f"({PHASES.get(view.get('phase'), '?')})" + (", game over" if view.get("over") else ""))
    return svg(1040, 700, *parts, title=title)


def _market(view: dict, ctx: Context, x, y) -> Markup:
    market = view.get("market") or {}
    card = market.get("card") or {}
    parts = [text(x, y + 14, "Market card (price per goods card; S = special card)", size=13,
                  weight="bold")]
    for k, goods in enumerate(GOODS):
        gx = x + k * 100
        settled = goods in (market.get("settled") or [])
        parts.append(rect(gx, y + 24, 92, 50, fill=NAMED[goods], stroke="#333", rx=6,
                          opacity=0.45 if settled else 1))
        parts.append(text(gx + 46, y + 54, card.get(goods, "–"), size=22, anchor="middle",
                          weight="bold", fill="#111"))
        parts.append(text(gx + 46, y + 90, _goods_name(ctx, goods) + (" ✓" if settled else ""),
                          size=11, anchor="middle"))
    parts.append(text(x, y + 110, f"settled this round (✓): {', '.join(market.get('settled') or []) or 'none'}"
                      f" · market deck: {market.get('deck_size', '?')} cards left", size=12))
    return Markup("").join(parts)


def _track(view: dict, ctx: Context, x, y) -> Markup:
    """Rounds 1-10; the assistants' track spaces from the printed track when published."""
    tracks = ctx.table("track", "tracks") or {}
    events = ctx.table("events") or []
    texts = ctx.table("action_texts") or {}
    parts = [text(x, y + 14, "Round track (S: special cards, Y: cash announced; "
                  "assistants' actions below)", size=13, weight="bold")]
    current = view.get("round") or 0
    rows = [n for n in ("lower", "upper") if n in (view.get("assistants") or {})]
    for r in range(10):
        rx = x + r * 60
        now = r + 1 == current
        parts.append(rect(rx, y + 24, 56, 30, fill="#ffe08a" if now else "#f6f1e4",
                          stroke="#333" if now else "#999", rx=4, stroke_width=3 if now else 1))
        happens = " ".join(events[r]) if r < len(events) else ""
        parts.append(text(rx + 28, y + 44, f"round {r + 1}" + (f" {happens}" if happens else ""),
                          size=11, anchor="middle", weight="bold" if now or happens else None))
        for k, name in enumerate(rows):
            spaces = (tracks.get(name) or {}).get("spaces") or []
            space = spaces[r] if r < len(spaces) else ""
            parts.append(el("text", el("title", texts.get(space, "")), _action_short(space),
                            x=rx + 28, y=y + 70 + 16 * k, font_size=11, text_anchor="middle",
                            fill="#555"))
    for k, name in enumerate(rows):
        info = view["assistants"][name]
        used = " (used)" if info.get("used") else ""
        parts.append(text(x, y + 110 + 14 * k, f"{name} assistant now: {action_text(info.get('action') or {})}"
                          f" on a junk without a merchant{used}", size=11))
    return Markup("").join(parts)


def _action_short(space) -> str:
    return str(space).replace("load", "load ").replace("take", "take ").replace("sell", "sell ")


def action_text(action: dict) -> str:
    """`load 2`, `sell 1/crate (min 3)`, `take 2`."""
    kind = action.get("kind", "?")
    if kind == "load":
        return f"load {action.get('strips', '?')}"
    if "flat" in action:
        return f"{kind} {action['flat']}"
    return f"{kind} {action.get('per_crate', 1)}/crate (min {action.get('minimum', 0)})"


def _junk(view: dict, ctx: Context, name: str, x, y, seats: list) -> Markup:
    """A junk: its pile, cargo strips (each with its owner's number on it, not colour alone),
    each seat's visible crates and the merchants standing at it."""
    info = view["junks"][name]
    layers = info.get("layers") or []
    parts = [rect(x, y, JUNK_W, 320, fill="#fbf8f0", stroke="#aaa", rx=8),
             rect(x, y, JUNK_W, 26, fill=NAMED[name], stroke="#555", rx=8),
             text(x + JUNK_W / 2, y + 18, f"{name} junk", size=14, anchor="middle",
                  weight="bold", fill="#111"),
             text(x + 8, y + 44, _pile(name, info, ctx), size=12)]
    hull_y = y + 200
    parts.append(el("path", d=f"M{x + 8},{hull_y} L{x + JUNK_W - 8},{hull_y} "
                    f"L{x + JUNK_W - 30},{hull_y + 26} L{x + 30},{hull_y + 26} Z",
                    fill="#8b5a2b", stroke="#4a2f14"))
    for level, layer in enumerate(layers):  # bottom layer sits on the hull
        ly = hull_y - (level + 1) * (STRIP_H + 3)
        for k, owner in enumerate(layer):
            sx = x + 14 + k * (STRIP_W + 4)
            seat = isinstance(owner, int) and owner < len(seats)
            fill = seats[owner] if seat else "#ccc"
            parts.append(rect(sx, ly, STRIP_W, STRIP_H, fill=fill, stroke="#222", rx=2))
            if seat:
                parts.append(text(sx + STRIP_W / 2, ly + 12, owner, size=11, anchor="middle",
                                  weight="bold", fill=_ink(fill)))
    parts.append(text(x + 8, hull_y + 46, "visible crates (seat: count)", size=12))
    for s, count in enumerate(info.get("visible") or []):
        parts.append(token(x + 18 + 44 * s, hull_y + 66, seats[s], s, r=9, shape="square"))
        parts.append(text(x + 29 + 44 * s, hull_y + 70, f"×{count}", size=11))
    parts.append(_figures(view, name, x + 8, hull_y + 94, ctx.last))
    return place(f"junk:{name}", ctx.last, *parts)


def _ink(fill: str) -> str:
    """Text colour that reads on `fill`."""
    return "#111" if fill in LIGHT else "#fff"


def _pile(name: str, info: dict, ctx: Context) -> str:
    pile = info.get("goods")
    if isinstance(pile, dict):
        total = sum(pile.values())
        return f"goods: {total}" + (" (" + ", ".join(f"{g} {n}" for g, n in pile.items() if n)
                                    + ")" if name == "grey" and total else "")
    if isinstance(pile, int):
        return f"goods: {pile} {_goods_name(ctx, name)}"
    if name == "grey" and not info.get("has_goods"):
        return "takes goods of any colour"
    return "goods: hidden (some left)" if info.get("has_goods") else "goods: none left"


def _figures(view: dict, junk: str, x, y, last=frozenset()) -> Markup:
    """Merchants (and face-down merchants) standing at this junk."""
    merchants = view.get("merchants") or {}
    lines = []
    if "face_down" in merchants:
        lines = ["a face-down merchant" for j in merchants["face_down"] if j == junk]
    else:
        for name, info in sorted(merchants.items()):
            if info.get("junk") == junk:
                used = " (used)" if info.get("used") else ""
                lines.append((name, f"{name}: {action_text(info.get('action') or {})}{used}"))
    parts = []
    for k, entry in enumerate(lines):
        label = entry[1] if isinstance(entry, tuple) else entry
        figure = [rect(x - 2, y + 20 * k - 13, 184, 18, fill="#fff", fill_opacity=0,
                       stroke="none"),
                  el("path", d=f"M{x + 6},{y + 20 * k - 10} l6,12 h-12 z", fill="#999",
                     stroke="#222"),
                  text(x + 16, y + 20 * k, label, size=11)]
        parts.append(place(f"merchant:{entry[0]}", last, *figure) if isinstance(entry, tuple)
                     else Markup("").join(figure))
    return Markup("").join(parts)


def _stacks(view: dict, x, y, last=frozenset()) -> Markup:
    parts = [text(x, y + 14, "Special-card stacks", size=13, weight="bold")]
    for k, stack in enumerate(view.get("stacks") or []):
        sx = x + k * 66
        parts.append(place(f"stack:{k}", last,
                           rect(sx, y + 24, 56, 76, fill="#e8e0f0", stroke="#555", rx=5),
                           text(sx + 28, y + 56, stack.get("size"), size=20, anchor="middle",
                                weight="bold"),
                           text(sx + 28, y + 90, f"stack {k + 1}", size=11, anchor="middle")))
    return Markup("").join(parts)


def _poker(view: dict, ctx: Context, x, y, seats: list) -> Markup:
    poker = view.get("poker")
    parts = [text(x, y + 14, "Goods poker", size=13, weight="bold")]
    last = view.get("last_poker") or {}  # a round's final reveal, kept until the next poker
    reveal = (poker or {}).get("reveal") or last.get("reveal")
    if poker:
        parts.append(text(x, y + 34, f"bidding round {poker.get('round')}: open colours "
                          f"{', '.join(poker.get('open') or []) or 'none'}; sealed bids laid "
                          "so far:", size=12))
        for s, done in enumerate(poker.get("progress") or []):  # seat's number, count beside
            parts.append(token(x + 12 + 48 * s, y + 52, seats[s], s, r=9))
            parts.append(text(x + 24 + 48 * s, y + 56, f"×{done}", size=11))
    else:
        parts.append(text(x, y + 34, "not being played now", size=12, fill="#666"))
    if reveal:
        when = f"round {last['round']}, " if not (poker or {}).get("reveal") and \
            last.get("round") else ""
        parts.append(text(x, y + 84, f"last reveal ({when}bidding round {reveal.get('round')}):"
                          " cards laid, void = more than one colour", size=12, weight="bold"))
        for s, row in enumerate(reveal.get("bids") or []):
            if row is None:
                continue
            laid = ", ".join(f"{n} {g}" for g, n in (row.get("stake") or {}).items()) or "nothing"
            void = "" if row.get("valid") or not row.get("stake") else " (void)"
            paid = (reveal.get("paid") or [0] * len(seats))[s]
            won = (f", paid {paid}" if paid else "") + \
                (", won the S card" if reveal.get("s_winner") == s else "")
            parts.append(token(x + 7, y + 98 + 18 * s, seats[s], s, r=7, shape="square"))
            parts.append(text(x + 18, y + 102 + 18 * s, f"seat {s}: {laid}{void}{won}", size=12))
    return Markup("").join(parts)


def _legend(view: dict, ctx: Context, x, y, seats: list) -> Markup:
    names = view.get("colours") or []
    entries = [(token(10, 10, c, s, r=10, shape="square"),
                f"{names[s] if s < len(names) else s}: {ctx.name(s)}") for s, c in enumerate(seats)]
    entries += [(rect(0, 4, 20, 12, fill="#ccc", stroke="#222") +
                 text(10, 14, "n", size=11, anchor="middle", weight="bold"),
                 "cargo strip of seat n"),
                (token(10, 10, "#ccc", "n", r=9, shape="square"), "×c: c visible crates of seat n"),
                (rect(1, 1, 18, 18, fill="none", stroke="#c2185b", stroke_width=4,
                      stroke_dasharray="5 3"), "where the last move acted"),
                (el("path", d="M10,2 l7,14 h-14 z", fill="#999", stroke="#222"),
                 "merchant (no seat's piece: its action is written beside it)")]
    return legend(x, y, entries, width=1020)


def seat_rows(view: dict, ctx: Context) -> tuple[list, list]:
    """Each seat's public state: cash if known, goods cards, strips, resupply, cards."""
    if "seats" not in view:
        return [], []
    seats = colours(view)
    announced = (view.get("announced") or {}).get("cash") or []
    heads = ["seat", "cash", "goods cards", "strips left", "resupply", "open cards",
             "played cards", "hidden cards", "cash announced"]
    rows = []
    for s, info in enumerate(view["seats"]):
        rows.append([(seats[s], f"{info.get('colour')}: {ctx.name(s)}"),
                     "hidden" if info.get("cash") is None else info["cash"],
                     info.get("hand_size"), info.get("strips"), info.get("resupply"),
                     ", ".join(map(words, info.get("open_cards") or [])) or "—",
                     ", ".join(map(words, info.get("played_cards") or [])) or "—",
                     len(info.get("hidden_cards") or []) or "—",
                     announced[s] if s < len(announced) else "—"])
    return heads, rows


def hand(view: dict, ctx: Context) -> Markup | None:
    """The viewing seat's goods cards, cash, hidden special cards and sealed stake."""
    seat = view.get("you")
    info = (view.get("seats") or [])[seat] if isinstance(seat, int) else None
    if not info or info.get("hand") is None:
        return None
    cards = ", ".join(f"{n} × {_goods_name(ctx, g)}" for g, n in info["hand"].items())
    hidden = ", ".join(words(c.get("card") or "?") for c in info.get("hidden_cards") or [])
    stake = ((view.get("poker") or {}).get("my_stake"))
    row = Markup("<p><b>{}</b>: {}</p>").format
    parts = [row(f"Your goods cards ({info.get('hand_size')})", cards),
             row("Your cash", info.get("cash"))]
    if hidden:
        parts.append(row("Your hidden special cards", hidden))
    if stake is not None:
        laid = ", ".join(f"{n} {g}" for g, n in stake.items()) or "nothing yet"
        parts.append(row("Your sealed stake this bidding round", laid))
    return Markup("").join(parts)
