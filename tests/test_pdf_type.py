"""What the PDFs print can be read: no text under 7 pt (a table of four 30-letter names, its sheet of 40 deals, its
house rules changed; the season's PDF), and the date with its year, in English and in French.

The sizes are read from the PDF itself (pypdf: each run of text with its font size, scaled by its text and
graphics matrices), not from the stylesheet."""

from __future__ import annotations

import io
import json
import math
import re
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from helpers.browser import rename
from helpers.web import import_table, next_evening, play_evening, start_circle, start_table
from pypdf import PdfReader

EXAMPLE = json.loads((Path(__file__).resolve().parent.parent / "examples" / "evening.json").read_text())
LONG = ["Marie-Antoinette de Lorraine X", "Bartholomew Montgomery-Smythe", "Jo", "Anne-Charlotte de Beauvilliers"]
SMALLEST_PT = 7.0
LANGUAGES = {"en": {"Accept-Language": "en"}, "fr": {"Accept-Language": "fr-FR,fr;q=0.9"}}


def sizes(pdf: bytes) -> list[tuple[float, str]]:
    """Every run of text the PDF draws, with its size in points."""
    found: list[tuple[float, str]] = []

    def visit(text: str, cm: list[float], tm: list[float], font: object, size: float) -> None:
        if text.strip():
            found.append((size * math.hypot(tm[0], tm[1]) * math.hypot(cm[0], cm[1]), text.strip()))

    for page in PdfReader(io.BytesIO(pdf)).pages:
        page.extract_text(visitor_text=visit)
    return found


def long_names_table(client: FlaskClient) -> str:
    """The example evening (40 deals) played by four long names, some house rules changed."""
    return import_table(client, "quadrille", rename(EXAMPLE["deals"], LONG), players=LONG,
                        house_rules={"pool_at_end": "carry_forward", "antes": "when_pool_empty"})


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_tally_pdf_prints_nothing_under_7_pt_and_dates_itself_with_its_year(client: FlaskClient,
                                                                               language: str) -> None:
    token = long_names_table(client)
    answer = client.get(f"/t/{token}/tally.pdf", headers=LANGUAGES[language])
    assert answer.status_code == 200 and answer.mimetype == "application/pdf"
    runs = sizes(answer.data)
    assert runs and min(size for size, _ in runs) >= SMALLEST_PT - 0.01, sorted(runs)[:5]
    text = " ".join(t for _, t in runs)
    assert re.search(r"\b\d{1,2} \w+\.? 20\d\d\b", text), text[:300]  # "Sat 28 Nov 2026", "sam. 28 nov. 2026"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_season_pdf_prints_nothing_under_7_pt(client: FlaskClient, language: str) -> None:
    circle = start_circle(client, chip_value="0.05", currency="EUR")
    first = next_evening(client, circle, ("Ann", "Bea", "Cat", "Dan"))
    play_evening(client, first, ("Ann", "Bea", "Cat", "Dan"), "6 5 6 5")
    answer = client.get(f"/c/{circle}/tally.pdf", headers=LANGUAGES[language])
    assert answer.status_code == 200 and answer.mimetype == "application/pdf"
    runs = sizes(answer.data)
    assert runs and min(size for size, _ in runs) >= SMALLEST_PT - 0.01, sorted(runs)[:5]
    assert re.search(r"\b20\d\d\b", " ".join(t for _, t in runs))


def test_a_short_table_too(client: FlaskClient) -> None:
    token = start_table(client)
    runs = sizes(client.get(f"/t/{token}/tally.pdf").data)
    assert runs and min(size for size, _ in runs) >= SMALLEST_PT - 0.01, sorted(runs)[:5]
