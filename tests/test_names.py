"""Players' names a table can tell apart (scorer/core/names.py), as worked examples."""

from __future__ import annotations

import html
import io
import json
import re
import sqlite3
import unicodedata
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers.web import csrf_token
from hypothesis import given
from hypothesis import strategies as st

from scorer.core import EveningFormatError, ImpossibleDeal, parse_evening
from scorer.core.limits import NAME_MAX
from scorer.core.model import check_players as model_check_players
from scorer.core.names import check_name, check_players, identity, normalise, skeleton

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "evening.json"
OTHERS = ("Cat", "Dan")
DECOMPOSED_ZOE = "Zoe\u0301"


@pytest.mark.parametrize(
    "typed, kept",
    [
        ("Ann", "Ann"),
        ("  Ann  ", "Ann"),
        ("Mary \t  Ann", "Mary Ann"),
        ("Mary\u3000Ann", "Mary Ann"),  # an ideographic space
        ("Mary\u00a0Ann", "Mary Ann"),  # a no-break space
        (DECOMPOSED_ZOE, "Zoé"),  # e + combining acute, composed
        ("Ａｎｎ", "Ａｎｎ"),  # NFC keeps fullwidth letters: only the identity folds them
    ],
)
def test_normalise(typed: str, kept: str) -> None:
    assert normalise(typed) == kept
    assert unicodedata.is_normalized("NFC", normalise(typed))


@pytest.mark.parametrize(
    "first, second",
    [("Ann", "ANN"), ("Ann", "Ａｎｎ"), ("Zoé", DECOMPOSED_ZOE), ("straße", "STRASSE"), ("Mary Ann", " mary  ann ")],
)
def test_the_same_identity(first: str, second: str) -> None:
    assert identity(first) == identity(second)


@pytest.mark.parametrize("first, second", [("Ann", "Аnn"), ("Zoé", "Zoe"), ("Ann", "Anne")])
def test_different_identities(first: str, second: str) -> None:
    assert identity(first) != identity(second)


@pytest.mark.parametrize(
    "name",
    ["Ann", "Zoé", "Ève", "Mary Ann", "O'Brien", "José", "Ирина", "Νίκος", "王芳", "Łucja", "Nguyễn", "A" * NAME_MAX],
)
def test_accepted_names(name: str) -> None:
    check_name(name)


@pytest.mark.parametrize(
    "name, gist",
    [
        ("", "every player needs a name"),
        ("   ", "every player needs a name"),
        ("A" * (NAME_MAX + 1), f"at most {NAME_MAX} characters"),
        ("\u2800", "no visible character"),  # BRAILLE PATTERN BLANK
        ("\u3164", "no visible character"),  # HANGUL FILLER
        ("\u115f\u1160", "no visible character"),  # HANGUL CHOSEONG and JUNGSEONG FILLERS
        ("\uffa0", "no visible character"),  # HALFWIDTH HANGUL FILLER
        ("\u200b", "no visible character"),  # ZERO WIDTH SPACE
        ("\u00ad\u034f", "no visible character"),  # SOFT HYPHEN, COMBINING GRAPHEME JOINER
        ("\u17b4\u17b5", "no visible character"),  # KHMER VOWELS INHERENT AQ and AA
        ("\u0301", "no visible character"),  # a combining acute on nothing
        ("Ann\u3164", "invisible character (U+3164 HANGUL FILLER)"),
        ("A\u200bnn", "invisible character (U+200B ZERO WIDTH SPACE)"),
        ("Ann\tLee", "invisible control character"),
        ("D\x00n", "invisible control character"),
        ("An\ue000", "private-use character"),
        ("An\u0378", "unassigned character"),
        ("pool", "names a pot of chips"),
        ("ｐｏｏｌ", "names a pot of chips"),  # pool in fullwidth letters
        ("Vole_Pool", "names a pot of chips"),
    ],
)
def test_refused_names(name: str, gist: str) -> None:
    with pytest.raises(ImpossibleDeal) as refused:
        check_name(name)
    assert gist in refused.value.message
    assert refused.value.field == "players"


BLANKS = (
    "\u2800"  # BRAILLE PATTERN BLANK
    "\u3164"  # HANGUL FILLER
    "\u115f"  # HANGUL CHOSEONG FILLER
    "\u1160"  # HANGUL JUNGSEONG FILLER
    "\uffa0"  # HALFWIDTH HANGUL FILLER
    "\u00ad"  # SOFT HYPHEN
    "\u034f"  # COMBINING GRAPHEME JOINER
    "\u180e"  # MONGOLIAN VOWEL SEPARATOR
    "\u17b4"  # KHMER VOWEL INHERENT AQ
    "\u17b5"  # KHMER VOWEL INHERENT AA
    "\u200b\u200c\u200d\u2060\ufeff"  # ZERO WIDTH SPACE, NON-JOINER, JOINER, WORD JOINER, ZERO WIDTH NO-BREAK SPACE
)
"""Characters that print as nothing but are not whitespace."""


@pytest.mark.parametrize("blank", sorted(BLANKS) + ["\u2000", "\u200a", "\u205f", "\u3000", "\u180e"])
def test_every_blank_look_alike_alone_has_no_visible_character(blank: str) -> None:
    with pytest.raises(ImpossibleDeal, match="every player needs a name|no visible character"):
        check_name(blank)


@pytest.mark.parametrize(
    "players",
    [
        ("Ann", "Bea", "Cat", "Dan"),
        ("Zoé", "Ève", "Mary Ann", "O'Brien"),
        ("Ирина", "王芳", "Νίκος", "José"),
        ("Анна", "Anna", "Ann", "Anne"),  # Cyrillic Анна: its н does not look like an n
        ("Ian", "Ivan", "Иван", "Jan"),
    ],
)
def test_accepted_tables(players: tuple[str, ...]) -> None:
    check_players(players)
    model_check_players(players)  # the old import still works


@pytest.mark.parametrize(
    "players, gist",
    [
        (("Ann", "ANN"), "two players have the same name: 'Ann' and 'ANN'; give each a different one"),
        (("Ann", "Ａｎｎ"), "two players have the same name: 'Ann' and 'Ａｎｎ'; give each a different one"),
        (("Ann", "\u0410nn"), "'\u0410nn' looks like 'Ann' but mixes Cyrillic letters into it; "
                              "give each player a name the others can tell apart"),
        (("\u0410nn", "Ann"), "'\u0410nn' looks like 'Ann' but mixes Cyrillic letters into it"),
        (("Сара", "Capa"), "'Сара' looks like 'Capa' but is written in Cyrillic letters"),
        (("Igor", "\u0406gor"), "'\u0406gor' looks like 'Igor' but mixes Cyrillic letters"),  # Ukrainian І, small i-like
        (("Nina", "\u039dina"), "mixes Greek letters"),
        (("\u0391nn", "\u0410nn"), "one is written with Cyrillic letters and the other with Greek letters"),
        (("Ëlka", "\u0401lka"), "mixes Cyrillic letters"),  # Cyrillic Ё is Е with a diaeresis
        (("Zoé", normalise(DECOMPOSED_ZOE)), "two players have the same name"),
        (("Zoé", DECOMPOSED_ZOE), "not written in its normal form"),
        (("Ann ", "Bea"), "write it as 'Ann'"),
        (("ｐｏｏｌ", "Bea"), "names a pot of chips"),
        (("Ann", "Ann\u3164"), "invisible character"),
    ],
)
def test_refused_tables(players: tuple[str, str], gist: str) -> None:
    with pytest.raises(ImpossibleDeal) as refused:
        check_players(players + OTHERS)
    assert gist in refused.value.message
    assert refused.value.field == "players"


@pytest.mark.parametrize("players", [("Ann", "Bea", "Cat"), ("Ann", "Bea", "Cat", "Dan", "Eve")])
def test_four_players(players: tuple[str, ...]) -> None:
    with pytest.raises(ImpossibleDeal, match="Quadrille is played by four"):
        check_players(players)


@pytest.mark.parametrize(
    "first, second",
    [("Ann", "\u0410nn"), ("Ann", "\u0430nn"), ("HAN", "\u041dAN"), ("Igor", "\u0406gor"), ("igor", "\u0456gor"), ("Nina", "\u039dina")],
)
def test_look_alikes_share_a_skeleton(first: str, second: str) -> None:
    assert any(a == b for a, b in zip(skeleton(first), skeleton(second)))


@given(st.text(max_size=40))
def test_normalise_is_idempotent_and_keeps_the_identity(text: str) -> None:
    once = normalise(text)
    assert normalise(once) == once
    assert identity(once) == identity(text)
    assert once == once.strip() and "  " not in once


def _evening(players: list[str]) -> dict[str, object]:
    data: dict[str, object] = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    data["players"] = players
    return data


def test_a_file_in_another_unicode_form_still_names_its_players() -> None:
    data = _evening(["Zoe\u0301", "Bea", "Cat", "Dan"])
    for deal in data["deals"]:  # type: ignore[attr-defined]
        for key in ("dealer", "hombre", "ally"):
            if deal[key] == "Ann":
                deal[key] = "Zoé"  # precomposed in the deals, decomposed in the players
    evening = parse_evening(data)
    assert evening.players[0] == "Zoé" and unicodedata.is_normalized("NFC", evening.players[0])
    assert {d.hombre for d in evening.deals} <= set(evening.players)


def test_a_file_with_look_alike_players_is_refused() -> None:
    with pytest.raises(EveningFormatError, match="two players have the same name: 'Ann' and 'Ａｎｎ'"):
        parse_evening(_evening(["Ann", "Bea", "Cat", "Ａｎｎ"]))


def _tables(app: Flask) -> int:
    count: int = sqlite3.connect(app.config["DATABASE"]).execute("select count(*) from tables").fetchone()[0]
    return count


def test_the_new_table_form_refuses_a_cyrillic_look_alike_beside_the_fourth_player(app: Flask, client: FlaskClient) -> None:
    response = client.post("/new", data={"csrf_token": csrf_token(client, "/new"), "player_1": "Ann", "player_2": "Bea",
                                         "player_3": "Cat", "player_4": "\u0410nn", "first_dealer": "1",
                                         "profile": "quadrille", "deals_agreed": "8"})
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    beside = re.search(r'id="player_4"[^>]*>\s*<p class="error" id="player_4-error1">([^<]*)</p>', page)
    assert beside, page
    assert html.unescape(beside.group(1)) == ("'\u0410nn' looks like 'Ann' but mixes Cyrillic letters into it; "
                                              "give each player a name the others can tell apart")
    assert _tables(app) == 0


def test_the_new_table_form_normalises_names(app: Flask, client: FlaskClient) -> None:
    response = client.post("/new", data={"csrf_token": csrf_token(client, "/new"), "player_1": "  Zoe\u0301 ",
                                         "player_2": "Mary \t Ann", "player_3": "Cat", "player_4": "Dan",
                                         "first_dealer": "1", "profile": "quadrille", "deals_agreed": "8"})
    assert response.status_code == 302, response.get_data(as_text=True)
    players = json.loads(sqlite3.connect(app.config["DATABASE"]).execute("select players from tables").fetchone()[0])
    assert players == ["Zo\u00e9", "Mary Ann", "Cat", "Dan"]


def test_an_import_with_look_alike_players_is_refused(app: Flask, client: FlaskClient) -> None:
    body = json.dumps(_evening(["Ann", "Bea", "Cat", "Ａｎｎ"]), ensure_ascii=False).encode("utf-8")
    response = client.post("/import", data={"csrf_token": csrf_token(client, "/import"), "evening": (io.BytesIO(body), "e.json")})
    assert response.status_code == 422
    assert "players have the same name: &#39;Ann&#39; and &#39;Ａｎｎ&#39;" in response.get_data(as_text=True)
    assert _tables(app) == 0


def test_a_name_is_measured_after_normalisation(client: FlaskClient) -> None:
    """30 letters typed with spaces around them fit: the limit is on the name as kept."""
    from helpers.web import start_table

    token = start_table(client, players=["  " + "A" * 30 + "  ", "Bea", "Cat", "Dan"])
    assert "A" * 30 in client.get(f"/t/{token}").get_data(as_text=True)


@pytest.mark.parametrize("name", ["Ann\ufe0f", "Ann\U000e0100", "Ann\u180b", "\u2063", "A\u061cnn"])
def test_a_name_with_a_default_ignorable_character_is_refused(name: str) -> None:
    """Unicode's default-ignorable characters print as nothing: `Ann` + a variation selector looks like `Ann`."""
    with pytest.raises(ImpossibleDeal):
        check_players(("Ann", "Bea", "Cat", name) if name.startswith("Ann") else ("Bea", "Cat", "Dan", name))
