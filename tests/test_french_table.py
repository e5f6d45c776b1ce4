"""The table's pages and the home page in French (issue 15, point 4): a phone that asks for French reads
French headings, buttons, help texts, flash messages and refusals; a phone that asks for nothing still
reads the English, unchanged.

Runs against the compiled catalogue (``python scripts/i18n.py update`` merges parts/table.po into it)."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from flask.testing import FlaskClient
from helpers.web import EXAMPLE, csrf_token, form_data, record, start_table

from scorer.web.ratelimits import wait_text

FRENCH = {"Accept-Language": "fr-FR,fr;q=0.9"}
NB, NNB = "\u00a0", "\u202f"


def page(client: FlaskClient, url: str, **kwargs: object) -> str:
    response = client.get(url, **kwargs)  # type: ignore[arg-type]
    assert response.status_code == 200, url
    return html.unescape(response.get_data(as_text=True))


def first_deal() -> dict[str, object]:
    deal: dict[str, object] = json.loads(Path(EXAMPLE).read_text())["deals"][0]
    return deal


def test_home_and_rules_in_french(client: FlaskClient) -> None:
    home = page(client, "/", headers=FRENCH)
    assert '<html lang="fr">' in home
    assert "<title>Marqueur de quadrille · scorer</title>" in home
    assert ">Commencer une table</a>" in home
    assert ">Importer une soirée depuis un fichier</a>" in home
    assert f"Tient le compte et règle chaque paiement du quadrille à votre table{NB}: la poule et ses bêtes" in home
    assert "Start a table" not in home
    rules = page(client, "/rules", headers=FRENCH)
    assert "<h1>Règles de la maison</h1>" in rules
    assert "— par défaut</small>" in rules


def test_home_in_english_unchanged(client: FlaskClient) -> None:
    home = page(client, "/")
    assert '<html lang="en">' in home
    assert "<title>Quadrille scorer · scorer</title>" in home
    assert ">Start a table</a>" in home
    assert "Keeps the score and settles every payment of Quadrille at your table: the pool and its beasts" in home
    rules = page(client, "/rules")
    assert " — default</small>" in rules


def test_recent_tables_in_french(client: FlaskClient) -> None:
    token = start_table(client)
    page(client, f"/t/{token}", headers=FRENCH)
    home = page(client, "/", headers=FRENCH)
    assert "Tables et cercles ouverts sur ce téléphone" in home
    assert "0 coup joué sur 8" in home  # French counts 0 in the singular (plural for n > 1)
    # French elides "de" before a vowel: "la table d'Ann" (issue 25)
    assert re.search(r'aria-label="Oublier la table d(&#39;|&#x27;|\')Ann, Bea, Cat, Dan sur ce téléphone">Oublier</button>', home)
    english = page(client, "/")
    assert "0 of 8 deals played" in english
    assert 'aria-label="Forget the table of Ann, Bea, Cat, Dan on this phone">Forget</button>' in english


def test_new_table_refused_in_french(client: FlaskClient) -> None:
    form = page(client, "/new", headers=FRENCH)
    assert "<h1>Commencer une table</h1>" in form
    assert f"Règles de la maison{NB}: changez celles que vous voulez" in form
    data = {"player_1": "Ann", "player_2": "", "player_3": "Cat", "player_4": "", "first_dealer": "1",
            "profile": "quadrille", "deals_agreed": "8", "csrf_token": csrf_token(client, "/new")}
    refused = html.unescape(client.post("/new", data=data, headers=FRENCH).get_data(as_text=True))
    assert f"La table n'a pas été commencée{NB}: 2 points à corriger" in refused
    english = client.post("/new", data=data).get_data(as_text=True)
    assert "The table was not started: 2 things to fix" in english


def test_play_deal_and_ledger_in_french(client: FlaskClient) -> None:
    client.get("/lang/fr")  # the phone's choice, kept in a cookie: the flash messages are French too
    token = start_table(client)
    flashed = page(client, f"/t/{token}/join", headers=FRENCH)
    assert "La table est prête. Partagez son lien avec les autres joueurs." in flashed
    assert "<h1>Partager la table</h1>" in flashed and "<h2>Lecture seule</h2>" in flashed
    assert "<title>Code QR du lien</title>" in flashed
    play = page(client, f"/t/{token}", headers=FRENCH)
    assert f"<h1>Coup 1{NB}: qu'a joué l'Hombre{NNB}?</h1>" in play
    assert f'<h2 id="holder-title">Qui tient ce téléphone{NNB}?</h2>' in play
    assert '<dt>Donneur</dt>' in play and "<small>sur 8</small>" in play
    assert '>Comptes</a>' in play and '>Relevé</a>' in play
    deal = first_deal()
    contract = str(deal["contract"])
    shown = page(client, f"/t/{token}/deal/{contract}", headers=FRENCH)
    assert ">Aperçu des paiements</button>" in shown
    recorded = record(client, token, contract, 1, form_data(deal))
    assert recorded.status_code == 302
    after = page(client, recorded.headers["Location"], headers=FRENCH)  # the message is carried in the redirect
    assert f"Coup 1 enregistré{NB}: " in after
    assert "Dernier coup (<a href=" in after and ">Annuler le coup 1</a>" in after
    assert "Qui a payé qui" in after
    ledger = page(client, f"/t/{token}/ledger", headers=FRENCH)
    assert f"<h1>Comptes{NB}: les soldes coup après coup</h1>" in ledger
    assert "1 coups joués sur 8." in ledger
    assert '<th scope="row">Solde</th>' in ledger
    undo = page(client, f"/t/{token}/undo", headers=FRENCH)
    assert f"<h1>Annuler le coup 1{NNB}?</h1>" in undo and ">Non, le garder</a>" in undo
    watch = re.search(r'/s/([A-Za-z0-9_-]+)', flashed)
    assert watch
    spectator = page(client, f"/s/{watch.group(1)}", headers=FRENCH)
    assert "<small>(en spectateur)</small>" in spectator and ">Suivre la table en direct</a>" in spectator


def test_table_pages_in_english_unchanged(client: FlaskClient) -> None:
    token = start_table(client)
    play = page(client, f"/t/{token}")
    assert "<h1>Deal 1: what did Hombre play?</h1>" in play
    deal = first_deal()
    recorded = record(client, token, str(deal["contract"]), 1, form_data(deal))
    after = page(client, recorded.headers["Location"])  # the message is carried in the redirect
    assert "Deal 1 recorded: " in after and ">Undo deal 1</a>" in after and "Who paid whom" in after
    ledger = page(client, f"/t/{token}/ledger")
    assert "<h1>Ledger: running balances</h1>" in ledger and "1 of 8 deals played." in ledger


def test_error_pages_in_french(client: FlaskClient) -> None:
    missing = client.get("/t/no-such-table-here", headers=FRENCH)
    assert missing.status_code == 404
    text = missing.get_data(as_text=True)
    assert "<h1>Rien ici</h1>" in text and ">Accueil</a>" in text
    imported = page(client, "/import", headers=FRENCH)
    assert "<h1>Importer une soirée</h1>" in imported
    assert "Un fichier de soirée (JSON quadrille-evening/1)" in imported
    refused = client.post("/import", data={"csrf_token": csrf_token(client, "/import")}, headers=FRENCH)
    text = html.unescape(refused.get_data(as_text=True))
    assert f"Rien n'a été importé{NB}: 1 point à corriger" in text
    assert "Choisissez le fichier à importer." in text


def test_wait_text_in_french(client: FlaskClient) -> None:
    with client.application.test_request_context(headers=FRENCH):
        assert wait_text(1) == "1 seconde"
        assert wait_text(600) == "10 minutes"
        assert wait_text(45) == "45 secondes"
        assert wait_text(5400) == "1,5 heures"
    with client.application.test_request_context():
        assert wait_text(1) == "1 second"
        assert wait_text(45) == "45 seconds"
        assert wait_text(600) == "10 minutes"
        assert wait_text(5400) == "1.5 hours"
        assert wait_text(7200) == "2 hours"


def test_the_ledger_counts_the_pool_as_each_language_counts(client: FlaskClient) -> None:
    """The pool's chips are counted by the reader's rule: French takes 0 and 1 as singular, English 1 alone."""
    token = start_table(client)
    french = re.sub(r"<[^>]+>", "", page(client, f"/t/{token}/ledger", headers=FRENCH))
    english = re.sub(r"<[^>]+>", "", page(client, f"/t/{token}/ledger"))
    assert "Poule 0 jeton." in french and "0 jetons" not in french
    assert "Pool 0 chips." in english
