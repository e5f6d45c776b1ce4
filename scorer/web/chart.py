"""A small SVG chart of each player's balance over the evening (or each member's over a season), drawn on the
server (no JavaScript), with its key as a list under it.

Each line has its own colour and its own line style (a dash pattern, and from the fifth line on a mark at each
point), so that eight lines, or twelve, stay apart on the screen and in black and white. The labels are drawn at
the size of the text around the chart: the chart's units are CSS pixels where it is shown at its own width
(:data:`SCREEN`, a phone's), and the PDF draws it at the size of its half page (:data:`PRINT`)."""

from __future__ import annotations

from dataclasses import dataclass

from .i18n import gettext as _
from markupsafe import Markup, escape

COLOURS = ("#7a1f2b", "#1a5fb4", "#1e7b45", "#c64600", "#6a3d9a", "#3d3d3d", "#8f6a00", "#0e7c86")
"""Eight colours, each at least 4.5:1 against the page's paper (#fbf8f1) and apart from the others."""
DASHES = ("", "6 3", "2 3", "8 3 2 3")
"""Four line styles, so that the lines stay apart in black and white."""
MARKS = ("", "circle", "square", "triangle")
"""A mark at each point from the fifth line on: lines 5 to 8 have the dashes of lines 1 to 4 with a circle at
each point, lines 9 to 12 a square (a circle's twelve members: every line its own colour and style, in pairs
of colour and dash never the same up to eight)."""


LEFT = 50
"""Units left of the plot, for the figures of its scale ("−163")."""


@dataclass(frozen=True)
class ChartSize:
    """The chart's drawing: its width and height, and its labels' size, in its own units."""

    width: int
    height: int
    text: int


SCREEN = ChartSize(360, 230, 18)
"""On a page: drawn a unit a CSS pixel at a phone's width (360 of its 366 px), the labels at 18 px, no smaller
than the page's 17 px text (a wider screen draws it larger, up to the stylesheet's max-width)."""
PRINT = ChartSize(480, 170, 14)
"""In the tally's PDF, across half the page (94 mm): the labels at about the page's 8.5 pt."""


@dataclass(frozen=True)
class LineStyle:
    """How one player's line is drawn: its colour, its dash pattern (empty: solid) and its mark at each point."""

    colour: str
    dash: str
    mark: str


def line_style(i: int) -> LineStyle:
    """The style of the ``i``-th line (0-based): its colour, its dash and its mark (see :data:`MARKS`)."""
    return LineStyle(COLOURS[i % len(COLOURS)], DASHES[i % len(DASHES)], MARKS[i // len(DASHES) % len(MARKS)])


def _figure(n: int) -> str:
    """A figure as every page writes it: the typographic minus (U+2212), never a hyphen."""
    return f"−{-n}" if n < 0 else str(n)


def _attribute(text: str) -> str:
    """Text for a double-quoted attribute (an apostrophe stays as it is)."""
    return text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;").replace(">", "&gt;")


def _mark(style: LineStyle, x: float, y: float) -> str:
    """The mark of a point, in the line's colour: a circle, a square or a triangle (nothing for lines 1 to 4)."""
    if style.mark == "circle":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="{style.colour}"/>'
    if style.mark == "square":
        return f'<rect x="{x - 3.2:.1f}" y="{y - 3.2:.1f}" width="6.4" height="6.4" fill="{style.colour}"/>'
    if style.mark == "triangle":
        return f'<path d="M{x:.1f} {y - 4:.1f}L{x + 4:.1f} {y + 3:.1f}L{x - 4:.1f} {y + 3:.1f}Z" fill="{style.colour}"/>'
    return ""


def _line(style: LineStyle, coords: list[tuple[float, float]]) -> str:
    """One line, with its dash and its marks."""
    dash = f' stroke-dasharray="{style.dash}"' if style.dash else ""
    points = " ".join(f"{x:.1f},{y:.1f}" for x, y in coords)
    marks = "".join(_mark(style, x, y) for x, y in coords) if style.mark else ""
    return f'<polyline fill="none" stroke="{style.colour}" stroke-width="2"{dash} points="{points}"/>{marks}'


def swatch(i: int) -> Markup:
    """The key's sample of the ``i``-th line: a short stretch of it, with its mark."""
    style = line_style(i)
    return Markup(f'<svg class="swatch" viewBox="0 0 32 12" width="32" height="12" aria-hidden="true">'
                  f'{_line(style, [(4.0, 6.0), (16.0, 6.0), (28.0, 6.0)])}</svg>')


def _label(step: str) -> str:
    """What the chart shows (its accessible name), for a step ("deal", "evening")."""
    return _("Each member's total after each evening") if step == "evening" else _("Each player's balance after each deal")


def _point(step: str, n: int) -> str:
    """A point named in the reader's language: "deal 8", "evening 3"."""
    return _("evening %(number)s", number=n) if step == "evening" else _("deal %(number)s", number=n)


def _labels(size: ChartSize, low: int, high: int, y: dict[int, float]) -> list[str]:
    """The figures on the left: 0 always, the highest and the lowest where they do not cover it."""
    shown = [0]
    for v in (high, low):
        if v and all(abs(y[v] - y[w]) >= size.text * 1.05 for w in shown):
            shown.append(v)
    return [f'<text x="{LEFT - 6}" y="{y[v] + size.text * .35:.1f}" text-anchor="end" font-size="{size.text}">{_figure(v)}</text>'
            for v in shown]


def balance_chart(players: tuple[str, ...], series: list[list[int]], step: str = "deal", size: ChartSize = SCREEN) -> Markup:
    """``series[i]`` is player i's balance after each deal (starting from 0 before the first); ``step`` names
    the points ("evening" for a circle's season), shown in the reader's language. The chart, then its key:
    each name with a sample of its line."""
    width, height, text = size.width, size.height, size.text
    left, right, top, bottom = LEFT, 8, 10, round(text * 2.2)
    points = max((len(s) for s in series), default=0)
    values = [v for s in series for v in s] or [0]
    low, high = min(0, *values), max(0, *values)
    top_value, span = (high, high - low) if high > low else (1, 2)  # every balance 0: the 0 line across the middle
    steps = max(points - 1, 1)

    def x(i: int) -> float:
        return left + (width - left - right) * i / steps

    def y(v: int) -> float:
        return top + (height - top - bottom) * (top_value - v) / span

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" class="chart" role="img" '
        f'aria-label="{_attribute(_label(step))}">',
        f'<line x1="{left}" y1="{y(0):.1f}" x2="{width - right}" y2="{y(0):.1f}" stroke="#999" stroke-width="1"/>',
        *_labels(size, low, high, {v: y(v) for v in (low, 0, high)}),
        f'<text x="{left}" y="{height - text * .4:.1f}" font-size="{text}">{escape(_point(step, 0))}</text>',
        f'<text x="{width - right}" y="{height - text * .4:.1f}" text-anchor="end" font-size="{text}">'
        f'{escape(_point(step, points - 1))}</text>',
    ]
    parts.extend(_line(line_style(i), [(x(k), y(v)) for k, v in enumerate(line)]) for i, line in enumerate(series))
    parts.append("</svg>")
    key = "".join(f"<li>{swatch(i)} <span class=\"name\">{escape(name)}</span></li>" for i, name in enumerate(players))
    return Markup("".join(parts) + f'<ul class="chart-key">{key}</ul>')
