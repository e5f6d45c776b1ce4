"""A small SVG chart of each player's balance over the evening (or each member's over a season), drawn on the
server (no JavaScript), with its key as a list under it.

Each line has its own colour and its own line style (a dash pattern, and from the fifth line on a mark at each
point), so that eight lines, or twelve, stay apart on the screen and in black and white. The labels are drawn at
the size of the text around the chart: the chart's units are CSS pixels where it is shown at its own width
(:data:`SCREEN`, a phone's), and the PDF draws it at the size of its half page (:data:`PRINT`)."""

from __future__ import annotations

from dataclasses import dataclass

from flask import render_template
from markupsafe import Markup

from .i18n import gettext as _

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


def _label(step: str) -> str:
    """What the chart shows (its accessible name), for a step ("deal", "evening")."""
    return _("Each member's total after each evening") if step == "evening" else _("Each player's balance after each deal")


def _point(step: str, n: int) -> str:
    """A point named in the reader's language: "deal 8", "evening 3"."""
    return _("evening %(number)s", number=n) if step == "evening" else _("deal %(number)s", number=n)


def balance_chart(players: tuple[str, ...], series: list[list[int]], step: str = "deal", size: ChartSize = SCREEN) -> Markup:
    """``series[i]`` is player i's balance after each deal (starting from 0 before the first); ``step`` names
    the points ("evening" for a circle's season), shown in the reader's language. The chart, then its key:
    each name with a sample of its line (templates/_chart.html draws them; here, where each point goes)."""
    width, height, text = size.width, size.height, size.text
    right, top, bottom = 8, 10, round(text * 2.2)
    points = max((len(s) for s in series), default=0)
    values = [v for s in series for v in s] or [0]
    low, high = min(0, *values), max(0, *values)
    top_value, span = (high, high - low) if high > low else (1, 2)  # every balance 0: the 0 line across the middle
    steps = max(points - 1, 1)

    def y(v: int) -> float:
        return round(top + (height - top - bottom) * (top_value - v) / span, 1)

    shown = [0]  # the figures on the left: 0 always, the highest and the lowest where they do not cover it
    for v in (high, low):
        if v and all(abs(y(v) - y(w)) >= text * 1.05 for w in shown):
            shown.append(v)
    lines = [(line_style(i), [(round(LEFT + (width - LEFT - right) * k / steps, 1), y(v)) for k, v in enumerate(line)])
             for i, line in enumerate(series)]
    return Markup(render_template("_chart.html", size=size, left=LEFT, right=right, zero=y(0), lines=lines,
                                  labels=[(v, y(v)) for v in shown], label=_label(step), first=_point(step, 0),
                                  last=_point(step, points - 1), players=players, line_style=line_style))
