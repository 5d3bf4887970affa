"""Ratings over time as a server-rendered SVG line plot (one line per entrant)."""

from __future__ import annotations

from markupsafe import Markup

from referee.web.boards.svg import SEAT_COLOURS, el, legend, line, rect, svg, text

W, H, LEFT, TOP, PLOT_W, PLOT_H = 900, 380, 60, 20, 800, 260


def plot(series: dict, names: dict) -> Markup:
    """The ordinal of each entrant against the number of rated matches applied."""
    if not series:
        return Markup('<p class="muted">No rated match has been applied yet.</p>')
    xs = [x for points in series.values() for x, _ in points]
    ys = [y for points in series.values() for _, y in points]
    x_max, y_min, y_max = max(xs), min(ys), max(ys)
    if y_max - y_min < 1:
        y_min, y_max = y_min - 0.5, y_max + 0.5

    def at(x, y):
        return (LEFT + PLOT_W * x / max(1, x_max), TOP + PLOT_H * (y_max - y) / (y_max - y_min))

    parts = [rect(LEFT, TOP, PLOT_W, PLOT_H, fill="#fff", stroke="#888")]
    for k in range(5):
        value = y_min + (y_max - y_min) * k / 4
        _, gy = at(0, value)
        parts += [line(LEFT, gy, LEFT + PLOT_W, gy, stroke="#eee", width=1),
                  text(LEFT - 6, gy + 4, f"{value:.1f}", size=11, anchor="end")]
    for tick in sorted({round(x_max * k / 4) for k in range(5)}):
        gx, _ = at(tick, y_min)
        parts.append(text(gx, TOP + PLOT_H + 16, tick, size=11, anchor="middle"))
    parts.append(text(LEFT + PLOT_W / 2, TOP + PLOT_H + 34, "rated matches applied", size=12,
                      anchor="middle"))
    parts.append(text(14, TOP + PLOT_H / 2, "ordinal (mu - 3 sigma)", size=12, anchor="middle",
                      transform=f"rotate(-90 14 {TOP + PLOT_H / 2})"))
    entries = []
    for k, (entrant, points) in enumerate(sorted(series.items())):
        colour = SEAT_COLOURS[k % len(SEAT_COLOURS)]
        coords = " ".join(f"{px:.1f},{py:.1f}" for px, py in (at(x, y) for x, y in points))
        parts.append(el("polyline", points=coords, fill="none", stroke=colour, stroke_width=2.5))
        entries.append((rect(0, 8, 20, 4, fill=colour, stroke=colour), names.get(entrant, entrant)))
    parts.append(legend(LEFT, TOP + PLOT_H + 44, entries, width=PLOT_W))
    return svg(W, H, *parts, title="Ratings over time")
