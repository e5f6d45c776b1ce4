"""French elides "de" and "que" before a vowel (issue 25: "le médiateur de Éléonore" for "d'Éléonore").

A French sentence that puts a value after "de" or "que" writes the word and the value as one placeholder of its own,
``{de_hombre}`` or ``%(que_player)s``: every way the app fills a sentence (the core's ``Words`` and ``filled``, the
templates' ``_`` and ``ngettext``, the pages' ``gettext``) fills it with "d'Éléonore" or "de Bertrand"
(:func:`scorer.core.i18n.elided`). The choice: elided before a vowel, accented or not, and before every H (taken as
mute: "d'Hélène", "d'Henri", "d'Hugues"; no list of names tells an aspirate H); before a Y only when a consonant
follows ("d'Yves", "de Yannick"); never before a consonant or a digit. "de" before a pot's lowercase article
contracts ("des bêtes en attente"). English is untouched."""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from flask import Flask
from flask.testing import FlaskClient
from helpers.web import csrf_token, next_evening, play_evening, post_deal, start_circle, start_table
from markupsafe import Markup

from scorer.core import Card, Contract, Deal, Evening, HouseRules, Pot, Suit, replay, summarise
from scorer.core.i18n import Elisions, elided, filled, translating
from scorer.web.i18n import gettext as page_gettext

ROOT = Path(__file__).resolve().parent.parent
PO = ROOT / "scorer" / "translations" / "fr" / "LC_MESSAGES" / "messages.po"
FRENCH = {"Accept-Language": "fr-FR,fr;q=0.9"}


def french() -> gettext.GNUTranslations:
    return gettext.translation("messages", localedir=str(ROOT / "scorer" / "translations"), languages=["fr"])


@pytest.mark.parametrize("name, of, that", [
    ("Anne", "d'Anne", "qu'Anne"),
    ("Éléonore", "d'Éléonore", "qu'Éléonore"),  # an accented vowel
    ("Isabelle", "d'Isabelle", "qu'Isabelle"),
    ("Oscar", "d'Oscar", "qu'Oscar"),
    ("Ursule", "d'Ursule", "qu'Ursule"),
    ("Œdipe", "d'Œdipe", "qu'Œdipe"),
    ("émile", "d'émile", "qu'émile"),  # as typed, lowercase
    ("Hélène", "d'Hélène", "qu'Hélène"),  # an H, taken as mute (the app's choice)
    ("Henri", "d'Henri", "qu'Henri"),
    ("Hugues", "d'Hugues", "qu'Hugues"),
    ("Yves", "d'Yves", "qu'Yves"),  # a Y before a consonant
    ("Yannick", "de Yannick", "que Yannick"),  # a Y before a vowel
    ("Bertrand", "de Bertrand", "que Bertrand"),
    ("Denis", "de Denis", "que Denis"),
    ("Marguerite", "de Marguerite", "que Marguerite"),
    ("Jean-Baptiste", "de Jean-Baptiste", "que Jean-Baptiste"),
    ("Éléonore, Bertrand et Anne", "d'Éléonore, Bertrand et Anne", "qu'Éléonore, Bertrand et Anne"),  # a list
    ("3", "de 3", "que 3"),
    ("la poule", "de la poule", "que la poule"),
    ("les bêtes en attente", "des bêtes en attente", "que les bêtes en attente"),  # a pot's article contracts
    ("Le Roux", "de Le Roux", "que Le Roux"),  # a name is left as written
])
def test_de_and_que_before_a_name(name: str, of: str, that: str) -> None:
    assert elided("de", name) == of and elided("que", name) == that
    assert filled("le médiateur {de_name}, puis {que_name} joue", {"name": name}) == f"le médiateur {of}, puis {that} joue"
    assert "%(de_name)s" % Elisions(name=name) == of


def test_a_name_in_html_stays_html() -> None:
    assert elided("de", Markup("<strong>Éléonore</strong>")) == Markup("d&#39;<strong>Éléonore</strong>")
    assert Markup("la table %(de_players)s") % Elisions(players="Anne & Bea") == Markup("la table d&#39;Anne &amp; Bea")


def test_another_missing_value_is_still_an_error() -> None:
    with pytest.raises(KeyError):
        filled("{de_nobody}", {"name": "Anne"})
    with pytest.raises(KeyError):
        filled("{du_name}", {"name": "Anne"})


@pytest.mark.parametrize("hombre, shown", [
    ("Éléonore", "médiateur d'Éléonore"),
    ("Hugues", "médiateur d'Hugues"),
    ("Bertrand", "médiateur de Bertrand"),
])
def test_the_deal_told_in_french_elides_before_hombre(hombre: str, shown: str) -> None:
    players = ("Anne", "Bertrand", "Éléonore", "Hugues")
    if hombre not in players:
        players = ("Anne", "Bertrand", "Éléonore", hombre)
    others = [p for p in players if p != hombre]
    deal = Deal(others[0], hombre, Contract.MEDIATEUR, Suit.HEARTS, Card.parse("KS"), hombre_tricks=6, giver=others[1])
    evening = Evening(players, HouseRules.of("mediateur"), (deal,), 8)
    settlement = replay(evening).settlements[0]
    with translating(french().gettext):
        told = str(summarise(settlement, evening.rules).headline)
    assert told.startswith(f"Le {shown}") or shown in told, told
    assert "de É" not in told and "de H" not in told
    assert str(summarise(settlement, evening.rules).headline).startswith(f"{hombre}'s médiateur")  # English as it was


def test_the_odd_chips_wait_for_whichever_of_the_winners_in_french() -> None:
    deal = Deal("Anne", "Hugues", Contract.SOLO, Suit.SPADES, hombre_tricks=4)
    codille = replay(Evening(("Hugues", "Éléonore", "Bertrand", "Anne"), HouseRules.of("britannica"), (deal,), 8))
    with translating(french().gettext):
        shown = [str(note) for note in codille.settlements[0].notes]
    assert any("mis de côté pour celui d'Éléonore, Bertrand et Anne qui aura Spadille" in note for note in shown), shown


def test_a_transfer_between_pots_contracts_the_article_in_french() -> None:
    with translating(french().gettext):
        said = filled(french().gettext("{each} go from {payer} to {payee}"),
                      {"each": 4, "payer": Pot.BEASTS_WAITING.label, "payee": Pot.POOL.label})
    assert said == "4 passent des bêtes en attente à la poule"


def test_the_pages_elide_in_french(client: FlaskClient) -> None:
    players = ["Éléonore", "Bertrand", "Hugues", "Anne"]
    token = start_table(client, players, deals_agreed="4")
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = FRENCH["Accept-Language"]
    client.get(f"/t/{token}")  # remembered on this phone
    home = client.get("/").get_data(as_text=True)
    assert "Oublier la table d&#39;Éléonore, Bertrand, Hugues, Anne sur ce téléphone" in home
    said = client.post(f"/t/{token}/me", data={"csrf_token": csrf_token(client, f"/t/{token}"), "me": "Hugues"},
                       follow_redirects=True).get_data(as_text=True)
    assert "Ce téléphone est celui d&#39;Hugues." in said
    solo = {"hombre": "Éléonore", "trumps": "hearts", "hombre_tricks": "6", "matadors": "0"}
    preview = post_deal(client, token, "solo", 1, solo).get_data(as_text=True)
    assert "sans-prendre d&#39;Éléonore à cœur\u00a0: gagné" in preview, re.findall(r"[^>]{0,30}Éléonore[^<]{0,30}", preview)
    assert "de Éléonore" not in preview and "de Hugues" not in preview


@pytest.mark.parametrize("name", ["Amis du jeudi", "Le cercle du jeudi"])
def test_a_circle_s_name_is_quoted_in_french(client: FlaskClient, name: str) -> None:
    """A circle's name is a title: French quotes it after "du cercle" rather than putting "de" before it, which a
    name beginning with an article would turn into "de Le cercle du jeudi"."""
    circle = start_circle(client, name=name)
    table = next_evening(client, circle, ("Ann", "Bea", "Cat", "Dan"))
    play_evening(client, table, ("Ann", "Bea", "Cat", "Dan"), "6 5 6 5")
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = FRENCH["Accept-Language"]
    quoted = f"du cercle\u00a0«\u00a0{name}\u00a0»"
    assert f"Commencer la soirée suivante {quoted}" in client.get(f"/t/{table}").get_data(as_text=True)
    assert f"Toutes les soirées {quoted}" in client.get(f"/c/{circle}/evenings").get_data(as_text=True)
    assert " de Le " not in client.get(f"/c/{circle}").get_data(as_text=True)
    english = client.get(f"/c/{circle}/evenings", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert f"Every evening of {name}" in english


def test_a_page_s_gettext_elides(app: Flask) -> None:
    message = ("%(player)s plays %(held)s now, so %(player)s held it in trick %(trick)s, when %(led)s was led and "
               "%(player)s played %(played)s: %(player)s %(why)s. Was %(held)s really played now?")
    with app.test_request_context("/", headers=FRENCH):
        app.preprocess_request()
        said = page_gettext(message, player="Henri", held="6♥", trick=3, led="A♣", played="6♠", why="doit fournir")
    assert "quand A♣ a été entamé et qu'Henri a joué 6♠" in said, said


NAMES = {"name", "names", "player", "players", "hombre", "payer", "payee", "winners", "circle", "ally", "giver",
         "member", "members", "by", "who", "dealer", "eldest", "old", "new", "holder"}
"""The placeholders that hold a name (or names, or a circle's name)."""


def test_every_french_sentence_elides_before_a_name() -> None:
    """No French sentence writes "de"/"que" before a name's placeholder (it writes ``{de_name}``), and every
    ``de_``/``que_`` placeholder names a value its English message has."""
    catalog = read_po(PO.open("rb"), locale="fr")
    before_a_name = re.compile(r"\b(?:de|que) (?:%\((\w+)\)s|\{(\w+)\})")
    elided_value = re.compile(r"(?:%\(|\{)(?:de|que)_(\w+)")
    for message in catalog:
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in strings:
            named = [a or b for a, b in before_a_name.findall(text or "")]
            assert not set(named) & NAMES, (message.id, text)
            for value in elided_value.findall(text or ""):
                assert any(f"%({value})" in i or f"{{{value}}}" in i for i in ids if i), (message.id, value)
