"""The words and pages a player reads (issue 30, point 10), in English and in French: amounts of chips and points
counted in the reader's language; French colons spaced; the vole's "none" agrees with "la vole"; the units said
once; the tally's house rules folded under one line; a tally's date with its year; a secret solo named as one; the
players' columns of a ledger shared by their names' lengths."""

from __future__ import annotations

import io

import gettext
import json
import re
from datetime import datetime, timezone
from pathlib import Path

import pytest
from flask import Flask
from pypdf import PdfReader
from helpers.web import import_table, text

from scorer.core.i18n import translating
from scorer.core.systems.base import counted
from scorer.web.views import FIGURE_ROOM, PHONE_ROOM, name_widths
from scorer.web.i18n import counted_average

CATALOGUE = Path(__file__).resolve().parent.parent / "scorer" / "translations"
FRENCH = gettext.translation("messages", localedir=str(CATALOGUE), languages=["fr"])
EXAMPLE = json.loads((Path(__file__).resolve().parent.parent / "examples" / "evening.json").read_text())
FRENCH_PHONE = {"Accept-Language": "fr-FR,fr;q=0.9"}
ENGLISH_PHONE = {"Accept-Language": "en"}


@pytest.mark.parametrize(("n", "units", "english", "in_french"), [
    (1, "chips", "1 chip", "1 jeton"), (0, "chips", "0 chips", "0 jeton"), (-1, "chips", "−1 chip", "−1 jeton"),
    (24, "chips", "24 chips", "24 jetons"), (-26, "chips", "−26 chips", "−26 jetons"),
    (1, "points", "1 point", "1 point"), (5, "points", "5 points", "5 points"),
    (1, "counters", "1 counter", "1 jeton"), (3, "counters", "3 counters", "3 jetons"),
])
def test_an_amount_in_units_is_counted_in_the_reader_s_language(n: int, units: str, english: str, in_french: str) -> None:
    assert counted(n, units) == english
    with translating(FRENCH.gettext, FRENCH.ngettext):
        assert counted(n, units) == in_french


@pytest.mark.parametrize(("average", "units", "english", "in_french"), [
    (0.0, "chips", "0 chips", "0 jeton"), (1.5, "chips", "+1.5 chips", "+1,5 jeton"), (1.0, "chips", "+1.0 chips", "+1,0 jeton"),
    (-26.67, "chips", "−26.7 chips", "−26,7 jetons"), (2.04, "points", "+2.0 points", "+2,0 points"),
    (-0.04, "counters", "0 counters", "0 jeton"),
])
def test_an_average_is_counted_as_its_figure_is(app: Flask, average: float, units: str, english: str, in_french: str) -> None:
    """An evening's average (one decimal) takes the unit's form its figure takes in each language: English says
    "1.0 chips", French "1,5 jeton" (1 and 0 whole, whatever the decimals)."""
    for headers, said in ((ENGLISH_PHONE, english), (FRENCH_PHONE, in_french)):
        with app.test_request_context("/", headers=headers):
            app.preprocess_request()
            assert counted_average(average, units) == said


@pytest.mark.parametrize(("players", "widest", "narrowest"), [
    (["Jo", "Marie-Antoinette de Lorraine", "Bartholomew", "Dan"], "Bartholomew", "Jo"),
    (["Ann", "Bea", "Cat", "Dan"], None, None),  # names alike: columns alike
    (["Annabella Longname", "Bea", "Catherine", "Dan"], "Annabella Longname", "Bea"),
])
def test_the_players_columns_share_the_width_by_their_names(players: list[str], widest: str | None,
                                                           narrowest: str | None) -> None:
    widths = dict(zip(players, name_widths(players)))
    assert sum(widths.values()) == pytest.approx(100, abs=0.05)  # of the room the number's and the last columns leave
    if widest is None:
        assert len(set(widths.values())) == 1
    else:
        assert max(widths, key=widths.__getitem__) == widest
        assert widths[narrowest] == min(widths.values())  # type: ignore[index]


@pytest.mark.parametrize("players", [
    ["Jo", "Marie-Antoinette de Lorraine", "Bartholomew", "Dan"],
    ["Al", "Bo", "Cy", "Maximilianus-Ferdinandus von Habsburg-Lothringen"],
    ["Wilhelmina", "Maximiliane", "Christopher", "Bartholomew"],  # no room for every name: none below a figure's
])
def test_every_player_s_column_holds_a_figure_on_a_phone(players: list[str]) -> None:
    assert min(name_widths(players)) * PHONE_ROOM / 100 >= FIGURE_ROOM - 0.05


@pytest.mark.parametrize(("headers", "colon", "units_once", "rules_summary"), [
    ({}, r"solo: won", "Quadrille, hard score (P), in chips.", "House rules"),
    (FRENCH_PHONE, r"sans-prendre[\u00a0\u202f ]: gagné", "Quadrille, compte en jetons (P).", "Règles de la maison"),
])
def test_the_tally_and_the_ledger_say_it_right(app: Flask, headers: dict[str, str], colon: str, units_once: str,
                                               rules_summary: str) -> None:
    client = app.test_client()
    token = import_table(client, "quadrille", EXAMPLE["deals"])
    tally = text(client.get(f"/t/{token}/tally", headers=headers))
    plain = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", tally))
    assert units_once in plain  # the units said once, never "compte en jetons (P), en jetons"
    assert " 1 chips" not in plain and " 1 jetons" not in plain
    # the house rules folded under one line: a <details> whose summary names them and counts them
    summary = re.search(r'<details class="rules"><summary>(.*?)</summary>', tally, re.S)
    assert summary and rules_summary in summary.group(1) and re.search(r"\(\d+\)", summary.group(1))
    assert str(datetime.now(timezone.utc).year) in re.search(r'<p class="when">(.*?)</p>', tally).group(1)  # type: ignore[union-attr]
    ledger = re.sub(r"<[^>]+>", "", text(client.get(f"/t/{token}/ledger", headers=headers)))
    assert re.search(colon, ledger)


def test_a_french_colon_has_its_space_and_the_vole_agrees(app: Flask) -> None:
    client = app.test_client()
    token = import_table(client, "quadrille", EXAMPLE["deals"])
    ledger = re.sub(r"<[^>]+>", "", text(client.get(f"/t/{token}/ledger", headers=FRENCH_PHONE)))
    assert re.search(r"appel[\u00a0\u202f ]: codille", ledger) and "appel: " not in ledger
    deal = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", text(client.get(f"/t/{token}/audit/1", headers=FRENCH_PHONE))))
    assert "La vole aucune" in deal and "La vole aucun " not in deal
    assert "Vole none" in re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", text(client.get(f"/t/{token}/audit/1"))))


@pytest.mark.parametrize(("headers", "said"), [({}, "her own King called"), (FRENCH_PHONE, "son propre Roi appelé")])
def test_a_secret_solo_reads_as_her_own_king_on_the_tally(app: Flask, headers: dict[str, str], said: str) -> None:
    own_king = {"dealer": "Ann", "hombre": "Dan", "contract": "alliance", "trumps": "spades", "called": "KH",
                "ally": "Dan", "tricks": {"hombre": 6, "ally": None}, "matadors": 0, "premiers": False, "vole": "none"}
    client = app.test_client()
    token = import_table(client, "quadrille", [own_king])
    tally = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", text(client.get(f"/t/{token}/tally", headers=headers))))
    assert re.search(rf"Dan, \w+ \w+ \w+, {said}", tally), tally[:3000]
    ledger = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", text(client.get(f"/t/{token}/ledger", headers=headers))))
    assert said in ledger
    for page in (f"/t/{token}", f"/t/{token}/audit/1"):  # the last deal's heading, and the deal's own page
        shown = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", text(client.get(page, headers=headers))))
        assert said in shown, (page, shown[:1500])
    pdf = client.get(f"/t/{token}/tally.pdf", headers=headers)
    printed = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.data)).pages)
    assert ("own King" if "her own" in said else "son Roi") in printed  # the sheet's ally column


def test_a_vole_bid_s_page_does_not_say_no_vole(app: Flask) -> None:
    """The vole bid is the vole announced: its deal's page names the contract, with no "Vole: none" beside it."""
    bid = {"dealer": "Ann", "hombre": "Bea", "contract": "vole", "trumps": "hearts", "called": None, "ally": None,
           "tricks": {"hombre": 10, "ally": None}, "matadors": 0, "premiers": True, "vole": "none"}
    client = app.test_client()
    token = import_table(client, "quadrille", [bid])
    for headers, none in (({}, "Vole none"), (FRENCH_PHONE, "La vole aucune")):
        shown = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", text(client.get(f"/t/{token}/audit/1", headers=headers))))
        assert none not in shown and re.search(r"Contra(ct|t) (vole|vole annoncée)", shown), shown[:800]
