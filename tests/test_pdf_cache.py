"""The tally PDF: its stylesheet and fonts, its cache, and one render at a time (the queue's fairness: test_pdf_queue)."""

from __future__ import annotations

import dataclasses
import io
import logging
import threading

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers.racing import until
from helpers.web import record, start_table, ten_deal_table
from pypdf import PdfReader

from scorer.web.pages import tally
from scorer.web.common import table_or_abort
from scorer.web.pdfcache import Printer, Turn


def count_renders(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the calls to the renderer (each one a real render)."""
    calls: list[int] = []
    real = tally.render_pdf

    def counted(html: str) -> bytes:
        calls.append(1)
        return real(html)

    monkeypatch.setattr(tally, "render_pdf", counted)
    return calls


def font_names(pdf: bytes) -> set[str]:
    """Every font the PDF embeds, without its subset prefix (ABCDEF+DejaVu-Sans: DejaVu-Sans)."""
    names = set()
    for page in PdfReader(io.BytesIO(pdf)).pages:
        fonts = page["/Resources"].get_object().get("/Font", {})
        for font in fonts.values():
            names.add(str(font.get_object()["/BaseFont"]).lstrip("/").split("+", 1)[-1])
    return names


def test_the_pdf_renders_without_a_weasyprint_warning_in_the_fonts_it_declares(
    app: Flask, client: FlaskClient, caplog: pytest.LogCaptureFixture
) -> None:
    token = ten_deal_table(client, chip_value="0.10", currency="EUR")
    with caplog.at_level(logging.DEBUG, logger="weasyprint"):
        response = client.get(f"/t/{token}/tally.pdf")
    assert response.status_code == 200
    rendered = [r for r in caplog.records if r.name.startswith("weasyprint")]
    assert rendered, "the weasyprint logger was not captured"
    assert [r.getMessage() for r in rendered if r.levelno >= logging.WARNING] == []
    # print.css: one family, "DejaVu Sans", for the text and the score sheet (bold for the headings)
    assert font_names(response.data) == {"DejaVu-Sans", "DejaVu-Sans-Bold"}


def test_the_stylesheet_reaches_the_pdf_unescaped(app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    token = start_table(client)
    seen: list[str] = []
    monkeypatch.setattr(tally, "render_pdf", lambda html: seen.append(html) or b"%PDF-")
    client.get(f"/t/{token}/tally.pdf")
    assert 'font: 8.5pt/1.3 "DejaVu Sans"' in seen[0] and "&#34;" not in seen[0] and "Mono" not in seen[0]


def test_a_repeat_is_answered_from_the_cache_and_a_new_deal_makes_a_new_pdf(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    token = ten_deal_table(client)
    renders = count_renders(monkeypatch)
    first = client.get(f"/t/{token}/tally.pdf")
    again = client.get(f"/t/{token}/tally.pdf?paper=A4")
    assert first.status_code == again.status_code == 200 and first.data == again.data
    assert len(renders) == 1
    client.get(f"/t/{token}/tally.pdf?paper=letter")
    assert len(renders) == 2
    assert record(client, token, "solo", 11, {"hombre": "Bea", "trumps": "hearts", "hombre_tricks": "6",
                                              "matadors": "0"}).status_code == 302
    after = client.get(f"/t/{token}/tally.pdf")
    assert len(renders) == 3 and after.data != first.data
    assert "11" in "".join(p.extract_text() for p in PdfReader(io.BytesIO(after.data)).pages)
    client.get(f"/t/{token}/tally.pdf")
    assert len(renders) == 3


def test_the_key_changes_with_the_log_the_settings_and_the_paper(app: Flask, client: FlaskClient) -> None:
    token = start_table(client)
    with app.test_request_context():
        table = table_or_abort(token)
        key = tally.pdf_key(table, 0, "A4")
        assert tally.pdf_key(table, 0, "A4") == key
        assert tally.pdf_key(table, 1, "A4") != key
        assert tally.pdf_key(table, 0, "letter") != key
        assert tally.pdf_key(dataclasses.replace(table, deals_agreed=12), 0, "A4") != key  # settings, before deal 1
        assert tally.pdf_key(table, 0, "A4", "Bath") != key  # the place printed in the title block
        assert tally.pdf_key(table, 0, "A4", "", "Thursday club") != key  # and the table's name
        assert tally.pdf_key(table, 0, "A4", "Bath", "") != tally.pdf_key(table, 0, "A4", "", "Bath")


def test_the_place_and_name_are_part_of_the_cached_pdf(app: Flask, client: FlaskClient) -> None:
    token = start_table(client)
    plain = client.get(f"/t/{token}/tally.pdf").data
    named = client.get(f"/t/{token}/tally.pdf?place=Bath&name=Thursday+club").data
    assert named != plain and client.get(f"/t/{token}/tally.pdf").data == plain
    words = "".join(p.extract_text() for p in PdfReader(io.BytesIO(named)).pages)
    assert "Bath" in words and "Thursday club" in words
    # the same words after cleaning (spaces, control characters) are the same PDF, from the cache
    assert client.get(f"/t/{token}/tally.pdf?place=%20Bath%0A&name=Thursday%20%20club").data == named


def test_labels_typed_again_and_again_keep_one_labelled_pdf_per_table(app: Flask, client: FlaskClient) -> None:
    """Anyone with the link may type a new place for each request: the cache keeps the plain PDF and the
    latest labelled one only, so other tables' PDFs are not pushed out."""
    token = start_table(client)
    client.get(f"/t/{token}/tally.pdf")
    with app.app_context():
        cache = tally.printer().cache
        for n in range(12):
            assert client.get(f"/t/{token}/tally.pdf?name=n{n}").status_code == 200
            assert len(cache) == 2
        client.get(f"/t/{token}/tally.pdf?paper=letter&place=Bath")
        assert len(cache) == 3  # one labelled PDF per paper


def test_a_busy_renderer_answers_a_readable_503_with_retry_after(app: Flask, client: FlaskClient) -> None:
    token = start_table(client)
    app.config.update(PDF_WAITING_MAX=0)
    with app.app_context():
        queue = tally.printer().queue
    assert queue.enter("another table", "its pdf", "192.0.2.99") is Turn.RENDER  # another phone's PDF is being rendered
    try:
        response = client.get(f"/t/{token}/tally.pdf")
    finally:
        queue.leave("another table")
    page = response.get_data(as_text=True)
    assert response.status_code == 503 and response.headers["Retry-After"] == "3"
    assert "being printed for another phone" in page and "Try again in 3 seconds" in page
    assert client.get(f"/t/{token}/tally.pdf").status_code == 200  # free again


def test_a_request_waits_its_turn(app: Flask, client: FlaskClient) -> None:
    token = start_table(client)
    app.config.update(PDF_WAITING_MAX=1, PDF_WAIT_SECONDS=60)
    with app.app_context():
        queue = tally.printer().queue
    assert queue.enter("another table", "its pdf", "192.0.2.99") is Turn.RENDER
    answers: list[int] = []
    phone = threading.Thread(target=lambda: answers.append(client.get(f"/t/{token}/tally.pdf").status_code))
    phone.start()
    until(lambda: queue.waiting(token) == 1)  # the phone waits for the render in progress ...
    assert answers == []
    queue.leave("another table")  # ... and renders when it ends
    phone.join(60)
    assert answers == [200] and queue.waiting() == 0


def test_the_cache_is_bounded_by_bytes_least_recently_used_out_first() -> None:
    printer = Printer(max_bytes=100, at_once=1, waiting_max=0, wait_seconds=0)
    printer.keep("a", b"a" * 40)
    printer.keep("b", b"b" * 40)
    assert printer.kept("a") == b"a" * 40  # a is now the most recently used
    printer.keep("c", b"c" * 40)
    assert printer.kept("b") is None and printer.kept("a") and printer.kept("c")
    assert printer.cache.weight == 80 and len(printer.cache) == 2
    printer.keep("huge", b"h" * 101)  # larger than the whole bound: not kept, nothing dropped
    assert printer.kept("huge") is None and len(printer.cache) == 2
    printer.keep("a", b"A" * 10)  # a new version replaces the old one's bytes
    assert printer.cache.weight == 50


def test_the_pdf_fetches_nothing_but_data_urls(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    """Everything the tally needs is inlined: WeasyPrint may read a data: URL, and opens no connection."""
    import socket

    from scorer.web.pages.tally import render_pdf

    def no_connection(*args: object) -> None:
        raise AssertionError("the tally PDF opened a connection")

    monkeypatch.setattr(socket.socket, "connect", no_connection)
    pixel = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
    html = f'<p>x</p><img src="data:image/png;base64,{pixel}"><img src="http://127.0.0.1:9/x.png">'
    with app.test_request_context():
        assert render_pdf(html).startswith(b"%PDF")
