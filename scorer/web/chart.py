"""A small SVG chart of each player's balance over the evening, drawn on the server (no JavaScript)."""

from __future__ import annotations

from .i18n import gettext as _
from markupsafe import Markup, escape

COLOURS = ("#7a1f2b", "#1a5fb4", "#26a269", "#c64600")
DASHES = ("", "6 3", "2 3", "8 3 2 3")  # so the lines stay apart in black and white
LEGEND_CHARS = 18
"""Characters of a name in the legend (a quarter of the chart's width each); longer names are cut with …."""


def _figure(n: int) -> str:
    """A figure as every page writes it: the typographic minus (U+2212), never a hyphen."""
    return f"−{-n}" if n < 0 else str(n)


def _attribute(text: str) -> str:
    """Text for a double-quoted attribute (an apostrophe stays as it is)."""
    return text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;").replace(">", "&gt;")


def balance_chart(players: tuple[str, ...], series: list[list[int]], width: int = 640, height: int = 260,  # more than 5: the chart's size and the word for a step, each with a default
                  step: str = "deal") -> Markup:
    """``series[i]`` is player i's balance after each deal (starting from 0 before the first); ``step``
    names the points ("evening" for a circle's season), shown in the reader's language."""
    left, right, top, bottom = 44, 12, 10, 46
    points = max((len(s) for s in series), default=0)
    values = [v for s in series for v in s] or [0]
    low, high = min(0, *values), max(0, *values)
    span = (high - low) or 1
    steps = max(points - 1, 1)

    def x(i: int) -> float:
        return left + (width - left - right) * i / steps

    def y(v: int) -> float:
        return top + (height - top - bottom) * (high - v) / span

    def point(n: int) -> str:
        if step == "deal":
            return _("deal %(number)s", number=n)
        if step == "evening":
            return _("evening %(number)s", number=n)
        return f"{step} {n}"

    label = _("Each player's balance after each deal")
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" class="chart" role="img" '
        f'aria-label="{_attribute(label)}">',
        f'<line x1="{left}" y1="{y(0):.1f}" x2="{width - right}" y2="{y(0):.1f}" stroke="#999" stroke-width="1"/>',
        f'<text x="{left - 6}" y="{y(high) + 4:.1f}" text-anchor="end" font-size="11">{_figure(high)}</text>',
        f'<text x="{left - 6}" y="{y(0) + 4:.1f}" text-anchor="end" font-size="11">0</text>',
        f'<text x="{left - 6}" y="{y(low) + 4:.1f}" text-anchor="end" font-size="11">{_figure(low)}</text>',
        f'<text x="{left}" y="{height - 26}" font-size="11">{escape(point(0))}</text>',
        f'<text x="{width - right}" y="{height - 26}" text-anchor="end" font-size="11">{escape(point(points - 1))}</text>',
    ]
    for i, (name, line) in enumerate(zip(players, series)):
        colour, dash = COLOURS[i % len(COLOURS)], DASHES[i % len(DASHES)]
        coords = " ".join(f"{x(k):.1f},{y(v):.1f}" for k, v in enumerate(line))
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2"{dash_attr} points="{coords}"/>')
        legend_x = left + 10 + i * ((width - left - right) // max(len(players), 1))
        parts.append(f'<line x1="{legend_x}" y1="{height - 10}" x2="{legend_x + 18}" y2="{height - 10}" stroke="{colour}" '
                     f'stroke-width="2"{dash_attr}/>')
        room = LEGEND_CHARS * 4 // max(len(players), 4)  # the names share the width
        shown = name if len(name) <= room else name[:room - 1] + "…"
        parts.append(f'<text x="{legend_x + 22}" y="{height - 6}" font-size="11">{escape(shown)}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))
