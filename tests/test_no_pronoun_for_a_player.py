"""A sentence about a named player needs no pronoun (issue 25: "What it records or corrects is signed with her name"
for Bertrand). Sentences about the roles keep the game's convention (P writes Hombre as "she"): "Hombre {hombre}
and her ally {ally}" is about Hombre. Worked examples in English and French, and a sweep of the catalogue."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from flask import Flask, render_template_string
from flask.testing import FlaskClient
from helpers.web import csrf_token, start_circle, start_table

from scorer.core import Card
from scorer.web.common import card_name

ROOT = Path(__file__).resolve().parent.parent
POT = ROOT / "scorer" / "translations" / "messages.pot"
LANGUAGES = {"en": "en", "fr": "fr-FR,fr;q=0.9"}
NAMED = re.compile(r"%\((?:name|player|players|hombre|member|old|new|by|who|ally|giver|taker|holder)\)s"
                   r"|\{(?:name|player|players|hombre|member|old|new|by|who|ally|giver|taker|holder)(?:!r)?\}")
PRONOUN = re.compile(r"\b(?:she|her|herself|hers)\b", re.IGNORECASE)


def test_a_sentence_naming_a_player_says_she_only_of_hombre() -> None:
    """Every English message that names a player and says "she" or "her" says it of Hombre, the role."""
    for message in read_po(POT.open("rb")):
        for text in message.id if isinstance(message.id, tuple) else (message.id,):
            if text and NAMED.search(text) and PRONOUN.search(text):
                assert "Hombre" in text, text


def flashed(client: FlaskClient, response: object) -> str:
    return html.unescape(client.get(response.headers["Location"]).get_data(as_text=True))  # type: ignore[attr-defined]


@pytest.mark.parametrize("language, signed", [
    ("en", "This phone: Bertrand. What it records or corrects is signed with this name."),
    ("fr", "Ce téléphone : Bertrand. Ce qu'il enregistre ou corrige est signé de ce nom."),  # spaces made plain
])
def test_the_phone_s_holder_is_named_without_a_pronoun(client: FlaskClient, language: str, signed: str) -> None:
    token = start_table(client, ["Anne", "Bertrand", "Éléonore", "Denis"])
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = LANGUAGES[language]
    client.post(f"/t/{token}/me", data={"csrf_token": csrf_token(client, f"/t/{token}"), "me": "Bertrand"})
    page = html.unescape(client.get(f"/t/{token}").get_data(as_text=True))
    words = " ".join(re.sub(r"<[^>]+>", "", page).split())
    assert signed in words and "her name" not in words


@pytest.mark.parametrize("language, added, renamed", [
    ("en", "Bertrand is a member of the circle, starting at 0.",
     "Ann is Anne from now on; the evenings already played keep the names they were played with."),
    ("fr", "Bertrand est membre du cercle, avec 0 pour commencer.",
     "Ann s'appelle désormais Anne\u00a0; les soirées déjà jouées gardent les noms sous lesquels elles ont été jouées."),
])
def test_a_member_added_or_renamed_is_told_without_a_pronoun(client: FlaskClient, language: str, added: str,
                                                              renamed: str) -> None:
    circle = start_circle(client)
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = LANGUAGES[language]
    token = csrf_token(client, f"/c/{circle}")
    assert added in flashed(client, client.post(f"/c/{circle}/member", data={"new_member": "Bertrand", "csrf_token": token}))
    assert renamed in flashed(client, client.post(f"/c/{circle}/rename", data={"member": "Ann", "new_name": "Anne",
                                                                                "csrf_token": token}))
    page = html.unescape(client.get(f"/c/{circle}").get_data(as_text=True))
    assert ("A new member starts at 0." if language == "en" else "Un nouveau membre commence à 0.") in page


@pytest.mark.parametrize("language, name, said", [
    ("en", "Éléonore", "At the claim, Éléonore was revealed as the holder of the called card (King of clubs)."),
    ("fr", "Éléonore", "À la réclamation, on a su qu'Éléonore tenait la carte appelée (Roi de trèfle)."),
    ("fr", "Bertrand", "À la réclamation, on a su que Bertrand tenait la carte appelée (Roi de trèfle)."),
])
def test_the_ally_revealed_at_a_claim_is_named_without_a_pronoun(app: Flask, language: str, name: str, said: str) -> None:
    with app.test_request_context("/", headers={"Accept-Language": LANGUAGES[language]}):
        app.preprocess_request()
        shown = render_template_string(
            '{{ _("At the claim, %(name)s was revealed as the holder of the called card (%(card)s).", name=name, '
            'card=card) }}', name=name, card=card_name(Card.parse("KC")))
    assert html.unescape(shown) == said
