"""A circle's season printed (issue 14): every evening's running totals, the settle-up, the statistics and
the signatures, in one PDF kept in the tally cache until any evening changes."""

from __future__ import annotations

import io

from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader
from test_circles_web import next_evening, play_evening, start_circle
from test_table import record


def words(pdf: bytes) -> str:
    return " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)


def test_the_season_prints_its_evenings_settle_up_statistics_and_signatures(app: Flask, client: FlaskClient) -> None:
    circle = start_circle(client)
    first = next_evening(client, circle, ("Ann", "Bea", "Cat", "Dan"))
    play_evening(client, first, ("Ann", "Bea", "Cat", "Dan"), "6 5 6 5")
    second = next_evening(client, circle, ("Bea", "Cat", "Dan", "Eve"))
    response = client.get(f"/c/{circle}/tally.pdf")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    text = words(response.data)
    assert "the season of Thursday club" in text and "Running totals after each evening" in text
    assert "Settle-up over the season" in text and "How the season went" in text and "Agreed by" in text
    assert all(member in text for member in ("Ann", "Bea", "Cat", "Dan", "Eve"))
    assert client.get(f"/c/{circle}/tally.pdf").data == response.data  # from the cache
    assert record(client, second, "solo", 1, {"hombre": "Cat", "trumps": "hearts", "hombre_tricks": "6",
                                              "matadors": "0"}).status_code == 302
    assert client.get(f"/c/{circle}/tally.pdf").data != response.data  # a deal in any evening: a new PDF
    assert client.get(f"/c/{circle}/tally.pdf?paper=legal").status_code == 404
    assert client.get("/c/nosuchcircle/tally.pdf").status_code == 404
