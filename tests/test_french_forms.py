"""The forms and the store's refusals in French (issue 15): labels, choices, help texts and every message
of scorer/forms.py, WTForms' own messages (its own catalogue, in the reader's language), and
the store's refusals (scorer/store), while English stays as it was and the ledger cache stays English.

Needs the compiled catalogue with parts/forms.po merged (``python scripts/i18n.py update``)."""

from __future__ import annotations

import gettext
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers.web import csrf_token, start_table

from scorer.core import HouseRules, ImpossibleDeal
from scorer.core.i18n import _, translating
from scorer.web.db import get_db
from scorer.web.i18n import TRANSLATIONS
from scorer.store import (
    LEDGERS, CircleRefused, ImportRefused, create_circle, ledger, read_circle_file, read_evening_file, start_evening, table_by_token,
)
from scorer.store.circles import check_members
from scorer.store.ledgers import in_english

FR = {"Accept-Language": "fr-FR,fr;q=0.9"}


def french() -> gettext.GNUTranslations:
    return gettext.translation("messages", localedir=str(TRANSLATIONS), languages=["fr"])


def english(message: str) -> str:
    return message


def text(page: str) -> str:
    """A page's words, entities read (&#39; as ')."""
    return re.sub(r"&#39;", "'", re.sub(r"&#34;|&quot;", '"', page))


def test_the_new_table_form_speaks_french_and_english_is_unchanged(client: FlaskClient) -> None:
    page = text(client.get("/new", headers=FR).get_data(as_text=True))
    for sentence in ("Coups convenus (un multiple de 4)", "Qui donne en premier\u202f?", "Le 1er joueur ci-dessus",
                     "Quelqu'un d'autre\u00a0: touchez son nom à la page suivante", "2e joueur (à la droite du 1er)",
                     "Valeur d'un jeton (facultatif)", "Système de règlement", "selon le système de règlement"):
        assert sentence in page, sentence
    raw = client.get("/new").get_data(as_text=True)
    assert "Deals agreed (a multiple of 4)" in raw and "Coups convenus" not in raw
    assert "2nd player (on the 1st player&#39;s right)" in raw  # a label is escaped as it always was
    assert "as the profile says" in raw


def test_its_refusals_are_french_wtforms_own_messages_too(client: FlaskClient) -> None:
    data = {"csrf_token": csrf_token(client, "/new"), "player_1": "Ann", "player_2": "", "player_3": "Cat",
            "player_4": "Dan", "first_dealer": "9", "profile": "quadrille", "deals_agreed": "", "chip_value": "0.005",
            "currency": "€€€€€€"}
    response = client.post("/new", data=data, headers=FR)
    assert response.status_code == 422
    page = text(response.get_data(as_text=True))
    for sentence in ("Chaque joueur doit avoir un nom.", "Touchez l'un des choix proposés.",
                     "Saisissez un montant en centimes entiers, comme 0.10, ou laissez vide.",
                     "Ce champ est requis.",  # WTForms' own InputRequired, in French
                     "Le champ ne peut pas contenir plus de 5 caractères."):  # WTForms' own Length
        assert sentence in page, sentence
    english_page = text(client.post("/new", data=data).get_data(as_text=True))
    for sentence in ("Every player needs a name.", "Tap one of the choices shown.", "This field is required.",
                     "Field cannot be longer than 5 characters."):
        assert sentence in english_page, sentence
    assert "Ce champ" not in english_page


def test_deals_agreed_not_a_multiple_of_four_is_refused_in_french(client: FlaskClient) -> None:
    data = {"csrf_token": csrf_token(client, "/new"), "player_1": "Ann", "player_2": "Bea", "player_3": "Cat",
            "player_4": "Dan", "first_dealer": "1", "profile": "quadrille", "deals_agreed": "10"}
    page = text(client.post("/new", data=data, headers=FR).get_data(as_text=True))
    assert "une soirée compte un multiple de quatre coups, pas 10" in page


def test_the_deal_form_speaks_french(client: FlaskClient) -> None:
    token = start_table(client)
    page = text(client.get(f"/t/{token}/deal/solo", headers=FR).get_data(as_text=True))
    for sentence in ("L'Hombre", "♠ Pique", "♥ Cœur", "Levées faites par l'Hombre", "Matadors tenus par le camp de l'Hombre",
                     "aucun"):
        assert sentence in page, sentence
    english_page = text(client.get(f"/t/{token}/deal/solo").get_data(as_text=True))
    assert "♠ Spades" in english_page and "Tricks Hombre took" in english_page and "Pique" not in english_page


def test_the_store_s_refusals_are_french() -> None:
    with translating(french().gettext):
        with pytest.raises(ImportRefused) as refused:
            read_evening_file(b"\xff\xfe{")
        assert str(refused.value) == ("Ce fichier n'est pas du texte UTF-8\u00a0: exportez un fichier JSON "
                                      "quadrille-evening/1 et réessayez")
        with pytest.raises(ImportRefused) as refused:
            read_evening_file(b'{"players": [], "players": []}')
        assert str(refused.value) == ("le fichier nomme 'players' deux fois dans un même objet\u202f; "
                                      "chaque champ ne peut y figurer qu'une fois")
        with pytest.raises(ImportRefused) as refused:
            read_circle_file(b'{"log": [{"seq": Infinity}]}')
        assert str(refused.value) == "ligne 1 du journal du cercle, 'seq'\u00a0: Infinity n'est pas un nombre qu'une soirée peut contenir"
        with pytest.raises(ImpossibleDeal) as impossible:
            check_members(("Ann", "Bea", "Cat"))
        assert impossible.value.message.startswith("un cercle a de 4 à ")
        assert impossible.value.message.endswith(" membres\u202f; 3 ont été donnés")
    with translating(english):
        with pytest.raises(ImportRefused, match="^That file is not UTF-8 text: export a quadrille-evening/1 JSON file"):
            read_evening_file(b"\xff\xfe{")


def test_a_circle_s_refusals_are_french(app: Flask) -> None:
    with app.app_context():
        db = get_db()
        circle = create_circle(db, "Club", ("Ann", "Bea", "Cat", "Dan"), HouseRules.of(), 8, None, "")
        with translating(french().gettext):
            with pytest.raises(CircleRefused, match="^Eve n'est pas membre du cercle.$"):
                start_evening(db, circle, ("Ann", "Bea", "Cat", "Eve"), "Ann")
            with pytest.raises(CircleRefused, match="^Le premier donneur doit être l'un des quatre à la table, pas Eve.$"):
                start_evening(db, circle, ("Ann", "Bea", "Cat", "Dan"), "Eve")
        with translating(english):
            with pytest.raises(CircleRefused, match="^Eve is not a member of the circle.$"):
                start_evening(db, circle, ("Ann", "Bea", "Cat", "Eve"), "Ann")


def test_what_the_ledger_cache_keeps_is_made_in_english_whoever_asks() -> None:
    with translating(french().gettext):
        assert _("This table no longer exists.") == "Cette table n'existe plus."
        with in_english():
            assert _("This table no longer exists.") == "This table no longer exists."
        assert _("This table no longer exists.") == "Cette table n'existe plus."


def test_a_damage_the_store_finds_is_kept_unworded_and_read_in_each_reader_s_language(app: Flask, client: FlaskClient) -> None:
    token = start_table(client)
    with app.app_context():
        db = get_db()
        table = table_by_token(db, token)
        assert table is not None
        db.conn.execute("insert into events (table_id, seq, kind, number, created_at, hash) values (?, 1, 'zzz', 1, ?, ?)",
                        [table.id, "2026-11-21T21:04:00+00:00", "0" * 64])
        LEDGERS.clear()
        with translating(french().gettext):  # a French reader folds the log first: the cache keeps it for all
            damage = ledger(db, table).damage
            assert damage is not None
            assert damage.why == "son type 'zzz' n'est pas l'un de record, undo, amend, restore"
        with translating(english):
            kept = ledger(db, table).damage
            assert kept is damage
            assert kept.why == "its kind 'zzz' is not one of record, undo, amend, restore"
