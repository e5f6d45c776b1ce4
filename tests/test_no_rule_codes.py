"""No rule code anywhere a player reads (issue 25): the pages name a house rule by its title, linked to its entry
on the rules page where it is HTML (``/rules#ante_by``: the code is only the anchor), and by its title in quotes in
a plain sentence (a refusal, a note). The codes stay where they are names, not words: the rules page (under each
title), the files (JSON, CSV) and the command line.

Each page a player reads is drawn in English and in French, and its words (its text, and its title, aria-label
and alt attributes) are searched for every house rule's code written with an underscore (``pool_at_end``,
``ante_by``); in French also for the codes of one word that are English words (``antes``, ``unit``). The undo page
(each transfer's rules), the ledger and the audit page (the rules the table changed), the tally, its PDF and the
season's PDF (the pool shared out at the close), a circle's pages, Start a table and Start a circle (the help
texts, which name other rules), a table's settings, a deal's notes (grandissimo paid by its premium only) and the
refusals that name the rule that refuses."""

from __future__ import annotations

import html
import io
import re

import pytest
from flask.testing import FlaskClient
from helpers.web import csrf_token, next_evening, play_evening, post_deal, record, start_circle, start_table
from pypdf import PdfReader

from scorer.core import HOUSE_RULES
from scorer.core.rule_names import with_titles

CODES = re.compile(r"\b(" + "|".join(sorted((r.name for r in HOUSE_RULES if "_" in r.name), key=len, reverse=True))
                   + r")\b")
FRENCH_CODES = re.compile(r"\b(antes|unit|ante_by)\b")
LANGUAGES = {"en": "en", "fr": "fr-FR,fr;q=0.9"}
PLAYERS = ["Ann", "Bea", "Cat", "Dan"]


def words_of(page: str) -> str:
    """What a reader reads of an HTML page: its text and its titles, labels and alt texts (not its links' targets
    nor its ids, where the codes are anchors), its spaces (no-break ones too) made single spaces."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    attributes = " ".join(re.findall(r'\b(?:title|aria-label|alt)="([^"]*)"', page))
    page = re.sub(r"</?(?:a|strong|em|small|span|b|code|time)\b[^>]*>", "", page)  # inline: no space of their own
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page) + " " + attributes).split())


def pdf_words(data: bytes) -> str:
    return " ".join(" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(data)).pages)


def codes_in(words: str, language: str) -> list[str]:
    found = [f"…{words[max(0, m.start() - 60): m.end() + 40]}…" for m in CODES.finditer(words)]
    if language == "fr":
        found += [f"…{words[max(0, m.start() - 60): m.end() + 40]}…" for m in FRENCH_CODES.finditer(words)]
    return found


def read(client: FlaskClient, url: str, language: str, status: int = 200) -> str:
    response = client.get(url, headers={"Accept-Language": LANGUAGES[language]})
    assert response.status_code == status, url
    if response.mimetype == "application/pdf":
        return pdf_words(response.data)
    return words_of(response.get_data(as_text=True))


def a_table_of_changed_rules(client: FlaskClient) -> str:
    """The dealer antes alone, the pool is shared out at the close, her own King is forbidden; four deals, the last a
    remise, so that a pool is shared out."""
    token = start_table(client, PLAYERS, deals_agreed="4", rule_ante_by="dealer", rule_pool_at_end="split_equally",
                        rule_own_king="forbidden")
    for number, tricks in enumerate(("6", "7", "6", "5"), start=1):
        assert record(client, token, "solo", number, {"hombre": PLAYERS[number % 4], "trumps": "hearts",
                                                      "hombre_tricks": tricks, "matadors": "0"}).status_code == 302
    return token


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_table_s_pages_name_the_rules_by_their_titles(client: FlaskClient, language: str) -> None:
    token = a_table_of_changed_rules(client)
    pages = {url: read(client, url, language) for url in (
        f"/t/{token}", f"/t/{token}/undo", f"/t/{token}/ledger", f"/t/{token}/audit/1", f"/t/{token}/audit/4",
        f"/t/{token}/tally", f"/t/{token}/tally.pdf", f"/t/{token}/settings", "/new", "/c/new")}
    for url, words in pages.items():
        assert not codes_in(words, language), (url, codes_in(words, language))
    if language == "en":  # the rules named by their titles instead, each with its value
        assert "Who antes · Antes while a pool is carried forward" in pages[f"/t/{token}/undo"]
        assert "changed: Who antes: the dealer four chips; Hombre calls a King she holds: not allowed." in pages[f"/t/{token}/ledger"]
        assert ("shared out equally at the end (house rule “The pool at the end of the evening”)"
                in pages[f"/t/{token}/tally"])
        assert "(house rule “The pool at the end of the evening”)" in pages[f"/t/{token}/tally.pdf"]
    else:
        assert "Qui met au jeu · " in pages[f"/t/{token}/undo"]
        assert "(règle de la maison « La poule à la fin de la soirée »)" in pages[f"/t/{token}/tally"]
    undo = client.get(f"/t/{token}/undo").get_data(as_text=True)
    assert '<a href="/rules#ante_by">Who antes</a>' in undo  # the code is the link's anchor only


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_refusal_names_the_rule_by_its_title(client: FlaskClient, language: str) -> None:
    token = start_table(client, PLAYERS, rule_own_king="forbidden")
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = LANGUAGES[language]
    refused = post_deal(client, token, "alliance", 1, {"hombre": "Bea", "trumps": "spades", "called": "KH", "ally": "Bea",
                                                       "hombre_tricks": "4", "ally_tricks": "2"})
    page = refused.get_data(as_text=True)
    assert refused.status_code == 422
    words = words_of(page)
    assert not codes_in(words, language)
    assert ("at this table (house rule “Hombre calls a King she holds”)" if language == "en"
            else "(règle de la maison « L'Hombre appelle un Roi qu'elle tient »)") in words


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_circle_s_pages_and_the_season_pdf_name_the_rules_by_their_titles(client: FlaskClient, language: str) -> None:
    circle = start_circle(client, rule_pool_at_end="split_equally")
    table = next_evening(client, circle, ("Ann", "Bea", "Cat", "Dan"))
    play_evening(client, table, ("Ann", "Bea", "Cat", "Dan"), "6 5 6 5")
    for url in (f"/c/{circle}", f"/c/{circle}/evenings", f"/c/{circle}/tally.pdf", f"/t/{table}/tally"):
        words = read(client, url, language)
        assert not codes_in(words, language), (url, codes_in(words, language))
    season = read(client, f"/c/{circle}/tally.pdf", language)
    assert ("(house rule “The pool at the end of the evening”)" if language == "en"
            else "(règle de la maison « La poule à la fin de la soirée »)") in season


def test_a_deal_s_note_names_the_rule_by_its_title(client: FlaskClient) -> None:
    """Nemo paid by its premium only keeps its note in English with the code (the files and the command line say
    so); a page shows the title."""
    token = start_table(client, PLAYERS, profile="mediateur", rule_grandissimo_nemo="premium_only")
    assert record(client, token, "nemo", 1, {"hombre": "Bea", "hombre_tricks": "0"}).status_code == 302
    for language in LANGUAGES:
        words = read(client, f"/t/{token}/audit/1", language)
        assert not codes_in(words, language), codes_in(words, language)
    assert ("is paid by its premium only (house rule “Pool, remise and codille in grandissimo and nemo”)"
            in read(client, f"/t/{token}/audit/1", "en"))
    exported = client.get(f"/t/{token}/export.json")
    assert exported.status_code == 200


@pytest.mark.parametrize("text, shown", [
    ("see house rule own_king_forced", "see house rule “Hombre calls a King she holds in a forced spadille”"),
    ("house rule own_king: as P", "house rule “Hombre calls a King she holds”: as P"),
    ("(counter_vole) and the unit", "(“Counters: the vole”) and the unit"),  # a code of one word is left alone
    ("no_such_rule stays", "no_such_rule stays"),
    ("no code here", "no code here"),
])
def test_a_text_shows_the_titles_of_the_rules_it_names(text: str, shown: str) -> None:
    assert with_titles(text) == shown


def test_the_rules_page_keeps_the_codes_under_the_titles(client: FlaskClient) -> None:
    page = client.get("/rules").get_data(as_text=True)
    assert '<section class="rule" id="pool_at_end">' in page and "<code>pool_at_end</code>" in page
    csrf_token(client, "/new")  # the forms still draw
