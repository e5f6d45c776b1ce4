"""Every page in French, checked against the catalogue (issue 15, point 4).

A phone that asks for French (``Accept-Language: fr``) walks every page of a table of every profile
(play page, deal forms for each contract, a preview, a refused form, ledger, tally, audit, a
correction's "What this changes", undo, settings, check, play checker, watch-only page), a circle's pages,
the home, rules, new-table, import and error pages, and the tally PDFs. On each, no message of the
catalogue shows in English: no piece of an English message (its text between placeholders and tags, of
some length) that has a different French translation is found in the page's words or in the words of
its ``title``, ``aria-label``, ``alt`` and ``placeholder`` attributes; and none of the commonest English
words is there at all (which also catches text never marked for translation). The catalogue itself is
complete (every message translated), compiled (the .mo is the .po compiled) and extracted from today's
sources (the .pot is what ``scripts/i18n.py extract`` makes now).
"""

from __future__ import annotations

import html
import io
import re
import subprocess
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from flask.testing import FlaskClient
from helpers.deals import evening_deals
from helpers.web import csrf_token, form_data, import_table, next_evening, play_evening, start_circle
from pypdf import PdfReader

from scorer.core import PROFILES

ROOT = Path(__file__).resolve().parent.parent
PO = ROOT / "scorer" / "translations" / "fr" / "LC_MESSAGES" / "messages.po"
FRENCH = {"Accept-Language": "fr-FR,fr;q=0.9"}
PIECE_MIN = 14
"""Pieces of an English message shorter than this are not looked for (a lone word may be French too)."""
ENGLISH_WORDS = re.compile(r"\b(the|and|of|with|from|this|which|pays|deal|deals|tricks|evening|nothing|who|was|were|"
                           r"has|have|each|every|when|then|not|only|after|before|would)\b")
PLACEHOLDER = re.compile(r"%\([a-z_]+\)[sd]|\{[a-z_0-9!:.]*\}|<[^>]+>|%%")


@lru_cache(maxsize=1)
def english_pieces() -> tuple[str, ...]:
    """Every piece of an English message that French writes differently, long enough to look for."""
    with PO.open("rb") as f:
        catalog = read_po(f, locale="fr")
    pieces = set()
    for message in catalog:
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for english in ids:
            if not english or english in strings:
                continue
            for piece in PLACEHOLDER.split(english):
                piece = " ".join(piece.split()).strip(" .,:;()")
                if len(piece) >= PIECE_MIN and " " in piece and not any(piece in s for s in strings):
                    pieces.add(piece)
    return tuple(sorted(pieces))


def words_of(page: str) -> str:
    """What a reader reads of an HTML page: its text and its titles, labels, alt texts and placeholders."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    attributes = " ".join(re.findall(r'\b(?:title|aria-label|alt|placeholder)="([^"]*)"', page))
    text = re.sub(r"<[^>]+>", " ", page)
    return " ".join(html.unescape(text + " " + attributes).split())


NOT_WORDS = re.compile(r"quadrille-[a-z]+/\d+|scorer-raw-[a-z]+/\d+|Penguin Book of Card Games|Quadrille Elucidated|"
                       r"Quadrille and Médiateur, 18th century|Adam and Charles Black|Quadrille \(card game\)|Hoyle's Games")
"""Names, not words: the formats' names and the sources' titles stay as they are in every language."""


def english_in(words: str) -> list[str]:
    words = NOT_WORDS.sub(" ", words)
    found = [f"English message: {piece!r}" for piece in english_pieces() if piece in words]
    for match in ENGLISH_WORDS.finditer(words):
        found.append(f"English word {match.group(0)!r} in …{words[max(0, match.start() - 60): match.end() + 60]}…")
    return found


class FrenchPhone:
    """A test client that asks for French (on every request it makes from now on, as a French phone does),
    and keeps what it found in English on each page."""

    def __init__(self, client: FlaskClient) -> None:
        client.environ_base["HTTP_ACCEPT_LANGUAGE"] = FRENCH["Accept-Language"]
        self.client = client
        self.found: list[str] = []
        self.pages = 0

    def read(self, url: str, response: Any = None, status: tuple[int, ...] = (200,)) -> str:
        response = response if response is not None else self.client.get(url, headers=FRENCH)
        assert response.status_code in status, (url, response.status_code)
        page = response.get_data(as_text=True)
        assert '<html lang="fr">' in page, url
        self.pages += 1
        self.found += [f"{url}: {problem}" for problem in english_in(words_of(page))]
        return page

    def post(self, url: str, data: dict[str, Any], status: tuple[int, ...] = (200, 422)) -> str:
        return self.read(url + " (POST)", self.client.post(url, data=data, headers=FRENCH), status)


def test_the_catalogue_is_complete_compiled_and_extracted_from_today_s_sources(tmp_path: Path) -> None:
    checked = subprocess.run([sys.executable, str(ROOT / "scripts" / "i18n.py"), "check"], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout[-3000:]
    pot = ROOT / "scorer" / "translations" / "messages.pot"
    before = pot.read_bytes()
    try:
        subprocess.run([sys.executable, str(ROOT / "scripts" / "i18n.py"), "extract"], check=True, capture_output=True)
        assert pot.read_bytes() == before, "messages.pot is not what the sources make now: run scripts/i18n.py update"
    finally:
        pot.write_bytes(before)
    with PO.open("rb") as f:
        translated = {m.id for m in read_po(f, locale="fr") if m.id}
    with pot.open("rb") as f:
        wanted = {m.id for m in read_po(f) if m.id}
    assert wanted == translated


def test_french_typography_holds_every_sign_to_its_word() -> None:
    """French puts a space before ":" ";" "?" "!" and "»", and after "«": a no-break one in every translation, so
    that a line never begins with the sign (a circle's statistics once began a line with "; gagné 2")."""
    with PO.open("rb") as f:
        catalogue = read_po(f, locale="fr")
    loose = [(m.id, s) for m in catalogue if m.id
             for s in (m.string if isinstance(m.string, tuple) else (m.string,)) if re.search(r" [:;?!»]|« ", s or "")]
    assert loose == []


def test_every_general_page_is_french(client: FlaskClient) -> None:
    phone = FrenchPhone(client)
    for url in ("/", "/rules", "/new", "/import", "/c/new", "/c/import"):
        phone.read(url)
    phone.read("/t/no-such-table", status=(404,))
    phone.post("/new", {"csrf_token": csrf_token(client, "/new"), "player_1": "Ann"})  # refused: every field says why
    assert not phone.found, "\n".join(phone.found[:40])


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_every_page_of_a_table_is_french(client: FlaskClient, profile: str) -> None:
    phone = FrenchPhone(client)
    deals = evening_deals(profile)
    token = import_table(client, profile, deals)
    table = f"/t/{token}"
    page = phone.read(table)
    for url in ("/ledger", "/tally", "/settings", "/verify", "/undo", "/audit/1", "/audit/1/play"):
        phone.read(table + url)
    spectator = re.search(r'href="https?://[^/"]+(/s/[^"]+)"', phone.read(table + "/join"))
    assert spectator
    phone.read(spectator.group(1))
    last = len(deals)
    for target in {str(d["contract"]): d for d in deals[:-1]}.values():  # the last deal corrected into each other
        contract = str(target["contract"])
        form = phone.read(f"{table}/audit/{last}/amend/{contract}")
        hidden = dict(re.findall(r'name="(csrf_token|log_length|once)" type="hidden" value="([^"]*)"', form))
        phone.post(f"{table}/audit/{last}/amend/{contract}", {**form_data(target), **hidden, "by": "Bea", "action": "preview"})
    assert not phone.found, "\n".join(phone.found[:40])
    pdf = client.get(f"{table}/tally.pdf", headers=FRENCH)
    assert pdf.status_code == 200
    words = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(pdf.data)).pages)
    assert not english_in(words), english_in(words)[:20]
    english = client.get(f"{table}/tally.pdf", headers={"Accept-Language": "en"})
    assert english.data != pdf.data  # the cache keeps one PDF per language


def test_a_new_deal_its_preview_and_its_refusal_are_french(client: FlaskClient) -> None:
    phone = FrenchPhone(client)
    token = import_table(client, "quadrille", evening_deals("quadrille")[:1])
    for contract in PROFILES["quadrille"].contracts:
        phone.read(f"/t/{token}/deal/{contract.value}")
    url = f"/t/{token}/deal/solo"
    phone.post(url, {"csrf_token": csrf_token(client, url), "contract": "solo", "number": "2", "action": "preview",
                     "hombre": "Cat", "trumps": "hearts", "hombre_tricks": "6", "matadors": "0"})
    phone.post(url, {"csrf_token": csrf_token(client, url), "contract": "solo", "number": "2", "action": "preview",
                     "hombre": "Cat"})  # refused
    assert not phone.found, "\n".join(phone.found[:40])


def test_a_circle_s_pages_are_french(client: FlaskClient) -> None:
    phone = FrenchPhone(client)
    circle = start_circle(client)
    first = next_evening(client, circle, ("Ann", "Bea", "Cat", "Dan"))
    play_evening(client, first, ("Ann", "Bea", "Cat", "Dan"), "6 5 6 5")
    next_evening(client, circle, ("Bea", "Cat", "Dan", "Eve"))
    page = phone.read(f"/c/{circle}")
    phone.read(f"/c/{circle}?first=1&last=1")
    phone.read(f"/c/{circle}/check")
    watch = re.search(r'href="[^"]*?(/cs/[^"]+)"', page)
    assert watch
    phone.read(watch.group(1))
    phone.read(f"/t/{first}")
    assert not phone.found, "\n".join(phone.found[:40])
    pdf = client.get(f"/c/{circle}/tally.pdf", headers=FRENCH)
    assert pdf.status_code == 200
    words = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(pdf.data)).pages)
    assert not english_in(words), english_in(words)[:20]


def test_english_is_still_the_default_and_the_choice_is_remembered(client: FlaskClient) -> None:
    assert '<html lang="en">' in client.get("/").get_data(as_text=True)
    assert '<html lang="fr">' in client.get("/", headers=FRENCH).get_data(as_text=True)
    switched = client.get("/lang/fr?next=/rules")
    assert switched.status_code == 303 and switched.headers["Location"] == "/rules"
    assert '<html lang="fr">' in client.get("/rules").get_data(as_text=True)  # remembered for this phone
    assert '<html lang="fr">' in client.get("/", headers={"Accept-Language": "de"}).get_data(as_text=True)
    client.get("/lang/en?next=/")
    assert '<html lang="en">' in client.get("/", headers=FRENCH).get_data(as_text=True)  # the phone's choice wins
    for hostile in ("//evil.example/", "https://evil.example/", "/\\evil.example"):
        assert client.get(f"/lang/fr?next={hostile}").headers["Location"] == "/"


def test_the_files_a_table_exports_are_the_same_in_every_language(client: FlaskClient) -> None:
    token = import_table(client, "quadrille", evening_deals("quadrille"))
    for export in ("export.csv", "export.json"):
        english = client.get(f"/t/{token}/{export}", headers={"Accept-Language": "en"})
        french = client.get(f"/t/{token}/{export}", headers=FRENCH)
        assert english.status_code == french.status_code == 200
        assert english.data == french.data, export  # files for programs: English words, whatever the phone reads
        if export == "export.csv":
            assert b"the pool" in french.data  # its sentences in English
