"""The generic renderer: any game's view, decision, moves and result as readable text.

It knows nothing of any game: views are pretty-printed as an indented outline, moves as
`type key=value ...`. A game's own renderer (see referee_client.render) subclasses it.
"""

from __future__ import annotations

import json
import shutil
import textwrap

MAX_WIDTH = 100
"""Help text is wrapped to the terminal's width, and never wider than this."""
SCALARS = (str, int, float, bool, type(None))
INLINE_WIDTH = 72
"""Lists whose compact form fits in this many characters stay on one line."""


def width() -> int:
    """The width to wrap help text to: the terminal's ($COLUMNS when piped), at most MAX_WIDTH."""
    return max(40, min(MAX_WIDTH, shutil.get_terminal_size((80, 24)).columns))


def wrap(text: str, indent: int = 0) -> list[str]:
    """`text` wrapped to width(), every line indented by `indent` spaces."""
    pad = " " * indent
    return textwrap.wrap(text, width(), initial_indent=pad, subsequent_indent=pad) or [pad]


def _wrap_move(line: str) -> list[str]:
    """A numbered move's line, continued under its text when too wide for the terminal."""
    if len(line) <= width():
        return [line]
    text = line.lstrip()
    return textwrap.wrap(text, width(), initial_indent=line[:len(line) - len(text)],
                         subsequent_indent=" " * 5)


def label(key) -> str:
    """A dict key as a label: `deck_size` -> `deck size`."""
    return str(key).replace("_", " ")


def scalar(value) -> str:
    """A scalar as text: None as a dash, booleans as yes/no."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def compact(value) -> str:
    """A value on one line: scalars as text, containers as compact JSON."""
    if isinstance(value, SCALARS):
        return scalar(value)
    return json.dumps(value, separators=(", ", ": "))


def outline(value, indent: int = 0) -> list[str]:
    """An indented outline of nested dicts and lists, one fact per line."""
    pad = "  " * indent
    if isinstance(value, dict):
        return [line for key, item in value.items() for line in _entry(label(key), item, indent)]
    if isinstance(value, list):
        return [line for i, item in enumerate(value) for line in _entry(f"[{i}]", item, indent)]
    return [pad + scalar(value)]


def _entry(name: str, item, indent: int) -> list[str]:
    pad = "  " * indent
    if isinstance(item, SCALARS) or (item == {} or item == []):
        return [f"{pad}{name}: {compact(item)}"]
    if isinstance(item, list) and len(compact(item)) <= INLINE_WIDTH and _flat(item):
        return [f"{pad}{name}: {compact(item)}"]
    return [f"{pad}{name}:"] + outline(item, indent + 1)


def _flat(items: list) -> bool:
    """A list of scalars, or of lists of scalars (a small grid reads fine on one line)."""
    return all(isinstance(x, SCALARS) or (isinstance(x, list) and all(isinstance(y, SCALARS)
                                                                       for y in x))
               for x in items)


class Renderer:
    """Text for one game's wire data; this base class works for every game."""

    def __init__(self, game: dict | None = None):
        self.game = game or {}
        self.move_help = {m["type"]: m.get("description", "")
                          for m in self.game.get("moves", []) if "type" in m}

    def view(self, view: dict | None, seat: int | None = None) -> str:
        """What the seat sees."""
        title = "your view" if seat is not None else "the table"
        return "\n".join([f"{title}:"] + outline(view or {}, 1))

    def decision(self, decision: dict) -> str:
        """The pending decision: its kind, the move types it takes, its prompt."""
        types = ", ".join(decision.get("move_types", []))
        line = f"decide: {decision.get('kind', '?')} (moves: {types})"
        if decision.get("sealed"):
            line += " - sealed: the others see it only once everyone has chosen"
        prompt = decision.get("prompt") or {}
        return "\n".join([line] + outline(prompt, 1))

    def move(self, move: dict) -> str:
        """One move on one line: `type key=value ...`."""
        rest = " ".join(f"{k}={compact(v)}" for k, v in move.items() if k != "type")
        return f"{move.get('type', '?')} {rest}".strip()

    def moves(self, moves: list[dict]) -> str:
        """The legal moves numbered from 1, with each move type's description once."""
        lines, described = [], set()
        for number, move in enumerate(moves, 1):
            line = f"{number:>3}. {self.move(move)}"
            kind = move.get("type")
            if kind in self.move_help and kind not in described and self.move_help[kind]:
                described.add(kind)
                help_text = f"({self.move_help[kind]})"
                if len(line) + 4 + len(help_text) <= width():
                    line += "    " + help_text
                else:  # a long description goes under its move, wrapped to the terminal
                    lines.extend(_wrap_move(line))
                    lines.extend(wrap(help_text, 7))
                    continue
            lines.extend(_wrap_move(line))
        return "\n".join(lines)

    def result(self, result: dict | None, seats: list[dict] | None = None, mine=()) -> str:
        """The result: each seat's rank and score (`mine` marked), how it ended, failures."""
        if not result:
            return "no result"
        names = {s.get("seat", i): s.get("name") or s.get("kind", "")
                 for i, s in enumerate(seats or [])}
        ranks, scores = result.get("ranks") or [], result.get("scores") or []
        lines = [f"result ({result.get('termination', 'over')}):"]
        if result.get("reason"):
            lines.append(f"  {result['reason']}")
        for seat in sorted(range(len(ranks)), key=lambda s: (ranks[s], s)):
            score = scores[seat] if seat < len(scores) else "-"
            you = " (you)" if seat in mine else ""
            lines.append(f"  #{ranks[seat]}  seat {seat} {names.get(seat, '')}{you}  score {score}")
        for seat, failure in (result.get("failures") or {}).items():
            lines.append(f"  seat {seat} failed: {failure.get('code')}")
        return "\n".join(lines)
