"""Columns of text lined up in the PDF's one font, DejaVu Sans, without a table.

WeasyPrint lays out and draws each line box, and each cell of a table, at a cost of its own: a table
of a cell a figure costs several times the whole page. So the PDF prints its score sheet, its final
balances, its house rules and its signature lines as preformatted lines of plain text, one line box
a line, lined up here: every cell is padded with Unicode spaces of known widths (an em space, a
figure space as wide as a digit, a thin space, a hair space...) to where its column starts or ends,
measured with the font's own advance widths (its ``hmtx`` table, read once with fontTools from the
file fontconfig gives WeasyPrint for "DejaVu Sans": fontconfig's ``fc-match``). The stylesheet turns kerning and ligatures off
for these lines (``.cols``), so that a line is exactly as wide as the sum of its characters'
advances. DejaVu Sans's digits are all as wide as one another (tabular figures), and a plus as wide
as a minus, so a column of amounts right-aligned this way lines up to the digit.

Without the font file (a machine whose fontconfig has no DejaVu Sans, or no ``fc-match``) every character is taken as
0.6 em wide: the columns then line up only roughly, and nothing is lost.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import subprocess
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field


FAMILY = "DejaVu Sans"
"""The PDF's one font family (templates/tally/print.css)."""

PADDING = "\u2003\u2002\u2007\u2004\u0020\u2005\u2009\u2006\u200a"
"""The spaces a gap is made of: em, en, figure, three-per-em, space, four-per-em, thin, six-per-em, hair."""

GAP_EM = 1.0
"""The room between two columns, in em."""

TOLERANCE = 0.008
"""How far, in em, a gap may be from its width to be made of fewer spaces (0.07 pt at 8.5 pt)."""


@dataclass(frozen=True)
class Metrics:
    """A font's advance widths, in its units (``upem`` to the em)."""

    advances: dict[int, int]
    upem: int
    fallback: int
    """The width taken for a character the font does not have."""
    _sums: list[int] = field(default_factory=list, compare=False, repr=False)
    _fills: list[str] = field(default_factory=list, compare=False, repr=False)

    def __post_init__(self) -> None:
        # Every run of at most five of the padding spaces, by its width (the shortest run of each width).
        spaces = [ch for ch in PADDING if ord(ch) in self.advances]
        best: dict[int, str] = {0: ""}
        for count in range(1, 6):
            for run in itertools.combinations_with_replacement(spaces, count):
                best.setdefault(sum(self.advances[ord(ch)] for ch in run), "".join(run))
        for width in sorted(best):
            self._sums.append(width)
            self._fills.append(best[width])

    def width(self, text: str) -> int:
        """The advance of ``text`` in font units (kerning and ligatures off)."""
        get = self.advances.get
        return sum(get(ord(ch)) or self._missing(ch) for ch in text)

    def _missing(self, ch: str) -> int:
        """A character the font lacks (or draws as nothing): drawn from another font, as wide as an em
        if East Asian wide, else :attr:`fallback`; a zero-width one stays zero."""
        if ord(ch) in self.advances or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
            return 0
        return self.upem if unicodedata.east_asian_width(ch) in ("W", "F") else self.fallback

    def em(self, text: str) -> float:
        return self.width(text) / self.upem

    def gap(self, units: int) -> str:
        """Spaces as wide as ``units``, to within :data:`TOLERANCE` of an em where they can be, in as
        few characters as come that close (each one is a glyph WeasyPrint draws); nothing for a gap of
        zero or less."""
        if units <= 0:
            return ""
        em = self.advances.get(0x2003, self.upem)
        close = round(TOLERANCE * self.upem)
        best, score = "", (2, units + 1, 0)  # (not close enough, error, characters): the least wins
        for whole in range(max(0, (units - self._sums[-1]) // em), units // em + 1):  # em spaces, then a run
            rest = units - whole * em
            at = bisect.bisect_left(self._sums, rest - close)
            for i in range(max(0, at - 1), min(len(self._sums), bisect.bisect_right(self._sums, rest + close) + 1)):
                error = abs(self._sums[i] - rest)
                candidate = (int(error > close), error if error > close else 0, whole + len(self._fills[i]))
                if candidate < score:
                    best, score = "\u2003" * whole + self._fills[i], candidate
        return best


def font_file(family: str) -> str | None:
    """The font file fontconfig gives for ``family`` (as it does to WeasyPrint, through Pango), by fontconfig's
    ``fc-match``; None if it offers another family in its place, or cannot be asked."""
    try:
        found = subprocess.run(["fc-match", "--format=%{family[0]}\n%{file}", family], capture_output=True, text=True,
                               timeout=30, check=True).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    name, _, path = found.partition("\n")
    return path if name == family and path else None


def _read_metrics(family: str) -> Metrics:
    path = font_file(family)
    if path is not None:
        try:
            from fontTools.ttLib import TTFont  # type: ignore[import-untyped]

            with TTFont(path, lazy=True) as font:
                upem = int(font["head"].unitsPerEm)
                hmtx = font["hmtx"]
                advances = {code: int(hmtx[glyph][0]) for code, glyph in font.getBestCmap().items()}
            return Metrics(advances, upem, round(upem * 0.6))
        except Exception:  # noqa: BLE001 - an unreadable font file: line up roughly, as below
            pass
    upem = 1000
    return Metrics({ord(ch): round(upem * 0.636) for ch in "0123456789\u2007"}
                   | {ord(ch): round(upem * w) for ch, w in (("\u2003", 1), ("\u2002", .5), (" ", .318), ("\u2009", .2),
                                                             ("\u200a", .1), ("+", .838), ("\u2212", .838))},
                   upem, round(upem * 0.6))


@functools.cache
def metrics() -> Metrics:
    """DejaVu Sans's advance widths, read from its font file on first use and kept for the process (a cache: a
    tally asks for them about 60 times, and reading them costs 12 ms, docs/DESIGN.md)."""
    return _read_metrics(FAMILY)


def columns(rows: Sequence[Sequence[str]], right: frozenset[int] = frozenset(), gap_em: float = GAP_EM) -> list[str]:
    """``rows`` of cells as lines of text whose columns line up in DejaVu Sans: the columns in
    ``right`` aligned right (amounts), the others left, ``gap_em`` apart. Trailing room is dropped."""
    font = metrics()
    if not rows:
        return []
    count = max(len(r) for r in rows)
    widths = [[font.width(c) for c in r] for r in rows]
    column = [max((w[i] for w in widths if i < len(w)), default=0) for i in range(count)]
    gap = round(gap_em * font.upem)
    lines = []
    for cells, w in zip(rows, widths):
        parts, owed = [], 0  # owed: room left of the next cell's start
        for i, (cell, width) in enumerate(zip(cells, w)):
            if i in right:
                parts.append(font.gap(owed + column[i] - width) + cell)
                owed = gap
            else:
                parts.append(font.gap(owed) + cell)
                owed = column[i] - width + gap
        lines.append("".join(parts))
    return lines


def wrap(text: str, width_em: float) -> list[str]:
    """``text`` broken at its spaces into lines at most ``width_em`` wide in DejaVu Sans (a word
    longer than a line stands alone on its line)."""
    font = metrics()
    room = width_em * font.upem
    space = font.width(" ")
    lines: list[str] = []
    line: list[str] = []
    used = 0
    for word in text.split(" "):
        w = font.width(word)
        if line and used + space + w > room:
            lines.append(" ".join(line))
            line, used = [], 0
        used += (space if line else 0) + w
        line.append(word)
    if line:
        lines.append(" ".join(line))
    return lines
