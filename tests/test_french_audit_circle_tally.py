"""The audit and correction pages, the play checker, the circles and the tally (page and PDFs) in French
(issue 15, point 4), and the same pages unchanged in English.

These read the compiled French catalogue (``python scripts/i18n.py update``)."""

from __future__ import annotations

import html
import io
import re

from flask import Flask
from flask.testing import FlaskClient
from helpers.web import correct_deal_3, next_evening, play_evening, start_circle, ten_deal_table
from pypdf import PdfReader

from scorer.web.pages import tally
from scorer.web.pages.circles import season_pdf_key
from scorer.store import circle_by_token
from scorer.web.db import get_db

FRENCH = {"Accept-Language": "fr-FR,fr;q=0.9"}
ENGLISH = {"Accept-Language": "en"}
NB = "\u00a0"


def words(client: FlaskClient, url: str, headers: dict[str, str] = FRENCH) -> str:
    """The page's text, tags and styles dropped, its spaces (not its no-break spaces) folded."""
    page = client.get(url, headers=headers).get_data(as_text=True)
    page = re.sub(r"<style.*?</style>", "", page, flags=re.S)
    return re.sub(r"[ \t\n]+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


def pdf_text(client: FlaskClient, url: str, headers: dict[str, str]) -> str:
    response = client.get(url, headers=headers)
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(response.data)).pages)


def a_circle(client: FlaskClient) -> tuple[str, str]:
    circle = start_circle(client, chip_value="0.05", currency="EUR")
    first = next_evening(client, circle, ("Ann", "Bea", "Cat", "Dan"))
    play_evening(client, first, ("Ann", "Bea", "Cat", "Dan"), "6 5 6 5")
    return circle, first


def test_the_tally_page_reads_french_with_french_money(app: Flask, client: FlaskClient) -> None:
    token = ten_deal_table(client, chip_value="0.10", currency="EUR")
    page = client.get(f"/t/{token}/tally", headers=FRENCH).get_data(as_text=True)
    assert '<html lang="fr">' in page
    text = words(client, f"/t/{token}/tally")
    assert "Quadrille — le relevé" in text and "10 coups joués sur 12" in text
    assert f"Règlement des comptes" in text and f"Soldes finaux" in text and "Approuvé par" in text
    assert re.search(rf"Dan paie 3,70{NB}€ à Bea", text), text[:1500]
    assert f"Le moins de paiements possible pour régler exactement chaque solde (2{NB}; jamais plus de 3)." in text
    assert "Imprimer le relevé (PDF)" in text and "Nom de la table" in text
    assert f"Bea, sans-prendre à cœur{NB}: gagné" in text
    assert 'aria-label="Le solde de chaque joueur après chaque coup"' in page and ">coup 10</text>" in page
    english = words(client, f"/t/{token}/tally", ENGLISH)
    assert "Quadrille — the tally" in english and "Dan pays Bea €3.70" in english
    assert "The fewest payments that settle every balance exactly (2; never more than 3)." in english


def test_the_tally_pdf_is_french_for_a_french_phone_and_cached_apart(app: Flask, client: FlaskClient) -> None:
    token = ten_deal_table(client, chip_value="0.10", currency="EUR")
    english = pdf_text(client, f"/t/{token}/tally.pdf", ENGLISH)  # rendered and cached first
    assert "Agreed by" in english and "page 1 of 1" in english and "€3.70" in english
    french = pdf_text(client, f"/t/{token}/tally.pdf", FRENCH)
    assert "Approuvé par" in french and "Agreed by" not in french
    assert "Règlement des comptes" in french and "Soldes finaux" in french and "page 1 sur 1" in french
    assert re.search(r"#\s+Contrat\s+(L'Hombre|Hombre)\s+Allié\s+Résultat", french)
    assert "3,70 €" in french.replace(NB, " ")
    assert pdf_text(client, f"/t/{token}/tally.pdf", ENGLISH) == english  # the English one is still served in English


def test_the_pdf_keys_hold_the_language(app: Flask, client: FlaskClient) -> None:
    token = ten_deal_table(client)
    circle, _ = a_circle(client)
    from scorer.web.common import table_or_abort

    keys = {}
    for language, headers in (("en", ENGLISH), ("fr", FRENCH)):
        with app.test_request_context("/", headers=headers):
            app.preprocess_request()
            keys[language] = (tally.pdf_key(table_or_abort(token), 10, "A4"), season_pdf_key(circle_by_token(get_db(), circle), "A4"))
    assert keys["en"][0] != keys["fr"][0] and keys["en"][1] != keys["fr"][1]
    assert "fr" in keys["fr"][0] and "fr" in keys["fr"][1]


def test_the_season_pdf_reads_french(app: Flask, client: FlaskClient) -> None:
    circle, _ = a_circle(client)
    english = pdf_text(client, f"/c/{circle}/tally.pdf", ENGLISH)
    assert "Where the season stands" in english
    french = pdf_text(client, f"/c/{circle}/tally.pdf", FRENCH)
    assert f"Quadrille{NB}: la saison «{NB}Thursday club{NB}»" in french
    assert "Où en est la saison" in french and "Totaux courants après chaque soirée" in french
    assert french.index("Déjà réglé") < french.index("Reste à régler") < french.index("Totaux courants après chaque soirée")
    assert "Settle-up" not in french and "Approuvé par" in french and "page 1 sur 1" in french
    assert re.search(r"\w+ paie \d+,\d\d\s€ à \w+", french.replace(NB, " "))
    # the statistics count each evening's average in the circle's units, and a list takes a space before its ";"
    flat = " ".join(french.split())
    assert re.search(r"matadors \d+, [+−]?[\d,]+ jetons par soirée, meilleure", flat), flat
    assert re.search(r"\d ; \w", flat) and not re.search(r"\w; ", flat), flat
    assert re.search(r"[+−]?[\d.]+ chips an evening, best", " ".join(english.split()))


def test_a_new_evening_is_announced_in_french(app: Flask, client: FlaskClient) -> None:
    circle = start_circle(client)
    data = {"seat_1": "Ann", "seat_2": "Bea", "seat_3": "Cat", "seat_4": "Dan", "first_dealer": "1"}
    data["csrf_token"] = re.findall(r'name="csrf_token" type="hidden" value="([^"]+)"',
                                    client.get(f"/c/{circle}", headers=FRENCH).get_data(as_text=True))[0]
    answer = client.post(f"/c/{circle}/next", data=data, headers=FRENCH)
    assert answer.status_code == 302
    shown = words(client, answer.headers["Location"])
    assert f"La soirée 1 du cercle est prête{NB}: Ann, Bea, Cat, Dan." in shown, shown[:600]


def test_the_circle_pages_read_french(app: Flask, client: FlaskClient) -> None:
    circle, first = a_circle(client)
    text = words(client, f"/c/{circle}")
    assert f"La saison{NB}: totaux courants" in text and "Commencer la soirée 2" in text
    assert f"Soirée 1, telle quelle{NB}:" in text and "Enregistrer ce règlement" in text
    assert "Eve 0 (0,00\u00a0€) (n'a pas joué)" in text
    assert f"Eve{NB}: n'a pas encore joué." in text or "Hombre 1 fois" in text
    check = words(client, f"/c/{circle}/check")
    assert f"L'historique du cercle est-il intact{NB}?" in check
    assert f"La soirée 1 (Ann, Bea, Cat, Dan) tient{NB}: ses 4 lignes sont telles qu'écrites et chaque coup se règle." in check
    assert "Créer un cercle" in words(client, "/c/new") and "Importer un cercle" in words(client, "/c/import")
    english = words(client, f"/c/{circle}", ENGLISH)
    assert "The season: running totals" in english and "Evening 1, as it stands:" in english


def test_the_audit_pages_and_the_play_checker_read_french(app: Flask, client: FlaskClient) -> None:
    token = ten_deal_table(client)
    correct_deal_3(client, token)
    deal = words(client, f"/t/{token}/audit/3")
    assert "Chaque paiement, et pourquoi" in deal and "Roi appelé Roi de cœur" in deal
    assert f"Corrigé par Bea" in deal and f"«{NB}miscount{NB}» (en vigueur)" in deal
    assert f"Coup 3{NB}: Dan, appel, gagné" in deal
    restore = client.get(f"/t/{token}/audit/3", headers=FRENCH).get_data(as_text=True)
    seq = re.search(r"/restore/(\d+)", restore)
    assert seq
    back = words(client, f"/t/{token}/audit/3/restore/{seq.group(1)}")
    assert f"Restaurer la version {seq.group(1)} du coup 3{NB}?" in back and "Ce que cela change" in back
    play = client.get(f"/t/{token}/audit/2/play?c=AS", headers=FRENCH).get_data(as_text=True)
    assert 'aria-label="Roi de pique"' in play and "Reprendre la dernière carte" in play
    assert "Vérifier le jeu du coup 2" in words(client, f"/t/{token}/audit/2/play")
    assert "Is the record intact?" not in words(client, f"/t/{token}/verify")
    assert f"L'historique est-il intact{NB}?" in words(client, f"/t/{token}/verify")
    assert "Pas de coup 40 ici" in words(client, f"/t/{token}/audit/40")
    english = words(client, f"/t/{token}/audit/3", ENGLISH)
    assert "Every transfer, and why" in english and "Called King of hearts" in english and "Corrected by Bea" in english
