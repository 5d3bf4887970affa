"""A few SVG building blocks for the board drawings: elements, text, seat colours, a legend.

Everything returned is escaped SVG markup (markupsafe.Markup), so a name from a view can
never inject markup into the page.
"""

from __future__ import annotations

from markupsafe import Markup, escape

SEAT_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#e6c200", "#9467bd", "#8c564b")
"""Seat 0, 1, ... when the game names no colours: red, blue, green, yellow, purple, brown."""

NAMED = {"red": "#d62728", "blue": "#1f77b4", "green": "#2ca02c", "yellow": "#e6c200",
         "violet": "#8e44ad", "purple": "#9467bd", "black": "#333333", "white": "#f4f4f4",
         "grey": "#9e9e9e", "orange": "#f28e2b", "lilac": "#c8a2c8", "brown": "#8b5a2b"}
"""Colour words used by the games, as fills."""

LIGHT = (NAMED["white"], NAMED["yellow"], NAMED["lilac"], "#f4f4f4", "#ddd", "#ccc", "#eee")
"""Fills a piece's mark is written on in black (white on every other)."""


def seat_colour(seat: int, names: list | None = None) -> str:
    """The fill that marks `seat`: the game's own colour word if it names one."""
    if names and 0 <= seat < len(names) and names[seat] in NAMED:
        return NAMED[names[seat]]
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def _attrs(attrs: dict) -> str:
    parts = []
    for key, value in attrs.items():
        if value is None or value is False:
            continue
        name = key.rstrip("_").replace("_", "-")
        parts.append(f' {name}="{escape(value)}"')
    return "".join(parts)


def el(tag: str, *children, **attrs) -> Markup:
    """`<tag attrs>children</tag>`; children are markup or text (text is escaped)."""
    inner = "".join(str(c) if isinstance(c, Markup) else str(escape(c)) for c in children
                    if c is not None)
    if not inner:
        return Markup(f"<{tag}{_attrs(attrs)}/>")
    return Markup(f"<{tag}{_attrs(attrs)}>{inner}</{tag}>")


def text(x, y, content, size=13, anchor="start", weight=None, fill="#222", **attrs) -> Markup:
    """A line of text at (x, y)."""
    return el("text", str(content), x=round(x, 1), y=round(y, 1), font_size=size,
              text_anchor=anchor, font_weight=weight, fill=fill, **attrs)


def rect(x, y, w, h, fill="none", stroke="#555", rx=0, **attrs) -> Markup:
    """A rectangle."""
    return el("rect", x=round(x, 1), y=round(y, 1), width=round(w, 1), height=round(h, 1),
              fill=fill, stroke=stroke, rx=rx, **attrs)


def circle(x, y, r, fill, stroke="#222", **attrs) -> Markup:
    """A circle."""
    return el("circle", cx=round(x, 1), cy=round(y, 1), r=r, fill=fill, stroke=stroke, **attrs)


def line(x1, y1, x2, y2, stroke="#555", width=2, **attrs) -> Markup:
    """A straight line."""
    return el("line", x1=round(x1, 1), y1=round(y1, 1), x2=round(x2, 1), y2=round(y2, 1),
              stroke=stroke, stroke_width=width, **attrs)


def token(x, y, fill, label, r=10, shape="circle") -> Markup:
    """A playing piece with a count or letter on it: circle (trader), square (post)..."""
    dark = fill not in LIGHT
    ink = "#fff" if dark else "#111"
    if shape == "square":
        body = rect(x - r, y - r, 2 * r, 2 * r, fill=fill, stroke="#222")
    elif shape == "house":
        body = el("path", d=f"M{x - r},{y + r} V{y - r / 3} L{x},{y - r - 3} L{x + r},{y - r / 3}"
                  f" V{y + r} Z", fill=fill, stroke="#222")
    else:
        body = circle(x, y, r, fill)
    return body + text(x, y + 4, label, size=11, anchor="middle", weight="bold", fill=ink)


def place(key: str, last, *children) -> Markup:
    """A part of the board a move can act on, named `key` for the seat page's clicks; drawn
    marked (a thick dashed outline, web.css) when the last move acted there (`key in last`)."""
    return el("g", *children, class_="place last" if key in last else "place", data_place=key)


def svg(width: int, height: int, *children, title: str = "") -> Markup:
    """The outer <svg> element, scaled to its container."""
    return el("svg", el("title", title) if title else None, *children,
              xmlns="http://www.w3.org/2000/svg", viewBox=f"0 0 {width} {height}",
              width="100%", role="img", aria_label=title or None,
              class_="board", data_wide="1" if width > 1100 else None,  # a phone keeps it larger
              font_family="sans-serif")


def legend(x, y, entries, width=900) -> Markup:
    """A row of legend entries (markup of a 20x20 swatch, label), wrapping at `width`."""
    parts, cx, cy = [], x, y
    for swatch, label in entries:
        span = 34 + 7 * len(label)
        if cx + span > x + width:
            cx, cy = x, cy + 26
        parts.append(el("g", swatch, transform=f"translate({cx},{cy})"))
        parts.append(text(cx + 26, cy + 15, label, size=12))
        cx += span
    return Markup("").join(parts)


def chip(fill: str, mark="") -> Markup:
    """A seat's small colour chip for the pages' text, with its number on it (told apart
    without colour); an SVG with presentation attributes, so no style attribute is needed."""
    dark = fill not in LIGHT
    body = rect(0.5, 0.5, 15, 15, fill=fill, stroke="#222", rx=3)
    label = text(8, 12, mark, size=11, anchor="middle", weight="bold",
                 fill="#fff" if dark else "#111") if mark != "" else None
    return el("svg", body, label, xmlns="http://www.w3.org/2000/svg", viewBox="0 0 16 16",
              width=16, height=16, class_="chip", aria_hidden="true")
