"""Columns lined up in the PDF's one proportional font (scorer/web/print_columns.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from scorer.web.print_columns import FAMILY, TOLERANCE, columns, font_file, metrics, wrap


def test_the_widths_are_dejavu_sans_s_own() -> None:
    font = metrics()
    assert font.upem == 2048, "DejaVu Sans was not found: the PDF's columns would line up only roughly"
    # tabular figures: every digit as wide as the figure space, a plus as wide as a minus
    assert {font.width(d) for d in "0123456789\u2007"} == {1303}
    assert font.width("+") == font.width("−")


@pytest.mark.parametrize("units", [1, 150, 204, 651, 1303, 2047, 2048, 5000, 12345, 40000])
def test_a_gap_is_as_wide_as_asked_within_the_tolerance(units: int) -> None:
    font = metrics()
    made = font.gap(units)
    assert made.strip() == "" and set(made) <= set("\u2003\u2002\u2007\u2004 \u2005\u2009\u2006\u200a")
    if units >= 150:  # narrower than a hair space and a bit: the nearest there is
        assert abs(font.width(made) - units) <= max(TOLERANCE * font.upem, 0.035 * font.upem)


def test_every_gap_in_a_page_s_width_is_close_and_short() -> None:
    font = metrics()
    close = [abs(font.width(font.gap(u)) - u) <= TOLERANCE * font.upem for u in range(400, 20000, 7)]
    assert sum(close) / len(close) > 0.97
    assert max(len(font.gap(u)) for u in range(1, 20000, 7)) <= 15


def test_columns_line_up_left_and_right() -> None:
    font = metrics()
    rows = [["Player", "Balance", "Money"], ["Annabella", "+1234", "€12.05"], ["Bo", "−5", "−€0.25"], ["Catherine", "0", "€0.00"]]
    lines = columns(rows, frozenset({1, 2}))
    assert [line.split() for line in lines] == rows
    # where a left column starts and where a right column ends, the same on every line
    starts = {round(font.em(line[:line.index(cells[0])]), 2) for line, cells in zip(lines, rows)}
    ends = {round(font.em(line[:line.index(cells[1]) + len(cells[1])]), 1) for line, cells in zip(lines, rows)}
    last = {round(font.em(line), 1) for line in lines}
    assert starts == {0.0} and len(ends) == 1 and len(last) == 1


def test_wrap_breaks_at_spaces_within_the_width() -> None:
    font = metrics()
    text = "Premium for a solo: 4 units; What a unit is: a quarter of the pool in play; " * 6
    lines = wrap(text.strip(), 30)
    assert " ".join(lines) == text.strip()
    assert all(font.em(line) <= 30 for line in lines) and len(lines) > 3
    assert wrap("Supercalifragilisticexpialidocious", 5) == ["Supercalifragilisticexpialidocious"]  # a word alone


def test_without_the_font_the_columns_line_up_roughly_and_nothing_is_lost(monkeypatch: pytest.MonkeyPatch) -> None:
    from scorer.web import print_columns

    rough = print_columns._read_metrics("No Such Family 7f3a")  # fontconfig offers another family: not taken
    assert rough.upem == 1000 and rough.width("1") == rough.width("\u2007")
    monkeypatch.setattr(print_columns, "metrics", lambda: rough)
    lines = columns([["#", "Ann"], ["1", "+12"], ["12", "−3"]], frozenset({0, 1}))
    assert [line.split() for line in lines] == [["#", "Ann"], ["1", "+12"], ["12", "−3"]]


def test_fontconfig_gives_the_pdf_font_s_file_and_no_other_family_in_its_place() -> None:
    found = font_file(FAMILY)
    assert found is not None, f"fontconfig has no {FAMILY}: the PDF's columns would line up only roughly"
    assert Path(found).is_file() and Path(found).suffix.lower() in (".ttf", ".otf") and "DejaVuSans" in Path(found).name
    assert font_file("No Such Family 7f3a") is None


def test_without_fc_match_the_font_is_not_found_and_nothing_fails(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no fc-match on this PATH
    assert font_file(FAMILY) is None
