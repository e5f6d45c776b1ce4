"""Printing, shared by the tally's PDF and the circle's season PDF: the paper sizes, the print stylesheet,
the PDF made by WeasyPrint (one render at a time), this app's PDF cache and
render queue (:mod:`scorer.web.pdfcache`), the page that asks a phone to try again when the queue is full,
and the lines to sign on."""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from flask import Response, current_app
from .i18n import gettext as _

from .common import wait_page
from .links import base_url
from .pdfcache import Printer
from .print_columns import columns, metrics, wrap

_printer_lock = threading.Lock()

PAPER = {"a4": "A4", "letter": "letter"}


def page_counter() -> str:
    """The printed footer's "page 1 of 3" as a CSS ``content`` value, in the reader's language: its words
    as CSS strings around the page counters (``"page " counter(page) " of " counter(pages)``)."""
    text = _("page %(page)s of %(pages)s", page="\x00", pages="\x01")
    counters = {"\x00": "counter(page)", "\x01": "counter(pages)"}
    pieces = re.split("(\x00|\x01)", text)
    escaped = [piece.replace("\\", "\\\\").replace('"', '\\"').replace("<", "\\3c ") for piece in pieces if piece]
    return " ".join(counters.get(piece, f'"{piece}"') for piece in escaped)


def signature_lines(signers: Sequence[str], width_em: float = 65.0, per_row: int = 4) -> str:
    """The lines to sign on, at most ``per_row`` to a row across ``width_em`` (fewer when a word of a name would
    not fit on one line under its line), each with its name under it, wrapped between words: a line of text for
    the line and one or two for the names (a table of cells costs WeasyPrint many times that)."""
    font = metrics()
    widest = max((font.em(word) for name in signers for word in name.split()), default=0)
    while per_row > 1 and widest > width_em / per_row - 1.5:
        per_row -= 1
    rows_needed = -(-len(signers) // per_row)
    per_row = max(1, -(-len(signers) // max(rows_needed, 1)))  # rows as even as they come: 2 and 2, not 3 and 1
    room = width_em / per_row
    line_em = room - 1.5
    dash = max(1, int(line_em * font.upem / max(font.width("\u2500"), 1)))
    rows = []
    for at in range(0, len(signers), per_row):
        names = [wrap(name, line_em) for name in signers[at:at + per_row]]  # longer than a whole line: broken
        under = [[lines[k] if k < len(lines) else "" for lines in names] for k in range(max(map(len, names)))]
        rows.append(columns([["\u2500" * dash] * len(names), *under], gap_em=room - dash * font.em("\u2500")))
    return "\n\n".join("\n".join(r) for r in rows)


def tally_css() -> str:
    """The print stylesheet (``templates/tally/print.css``), inlined into the PDF's HTML (WeasyPrint
    then fetches nothing). The template inserts it unescaped: it is our own file, never user input.
    The screen's ``static/tally.css`` is not used for the PDF: its many selectors cost every element
    of every render a match."""
    loader = current_app.jinja_env.loader
    assert loader is not None
    return loader.get_source(current_app.jinja_env, "tally/print.css")[0]


_render_lock = threading.Lock()


def render_pdf(html: str) -> bytes:
    """The tally's HTML as a PDF: the costly step (WeasyPrint, CPU-bound; bench/pdf.py measures it)."""
    from weasyprint import HTML, URLFetcher

    # Everything is inlined, so nothing is fetched from any host, this server included: only a data:
    # URL (which carries its own content) is allowed.
    fetcher = URLFetcher(allowed_protocols=("data",))
    # One render at a time (Pango's fonts are shared by the process): a render is CPU-bound under the GIL, so
    # renders in turn take no longer than renders at once.
    with _render_lock:
        return HTML(string=html, base_url=base_url() + "/", url_fetcher=fetcher).write_pdf()


def printer() -> Printer:
    """This app's PDF cache (bounded by ``PDF_CACHE_BYTES``) and render queue
    (scorer/web/pdfcache.py), made from its config on first use."""
    with _printer_lock:
        made: Printer | None = current_app.extensions.get("scorer.printer")
        if made is None:
            config = current_app.config
            made = Printer(int(config["PDF_CACHE_BYTES"]), int(config["PDF_RENDERS_AT_ONCE"]),
                           int(config["PDF_WAITING_MAX"]), float(config["PDF_WAIT_SECONDS"]))
            current_app.extensions["scorer.printer"] = made
        return made


def pdf_or_busy(document: bytes | None, filename: str, back: str,
                back_label: str) -> Response | tuple[str, int, dict[str, str]]:
    """The PDF shown inline as ``filename``; or, when the render queue had no turn for it now (``None``), the 503
    page, with ``Retry-After`` and a way back."""
    if document is not None:
        return Response(document, mimetype="application/pdf",
                        headers={"Content-Disposition": f'inline; filename="{filename}"'})
    return wait_page(
        "PDF_RETRY_AFTER_SECONDS", _("The tally is being printed"),
        lambda seconds: _("The tally is being printed for another phone right now. Try again in %(seconds)s seconds: "
                          "the PDF will be ready.", seconds=seconds),
        back, back_label,
    )

