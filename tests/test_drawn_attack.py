"""A hostile reading of issue 16's pages drawn in Python and its caches (then scorer/forms.py, scorer/views.py,
scorer/i18n.py, scorer/table.py; since issue 23 the radio groups in scorer/web/drawn.py, the fields bound by copy in
scorer/web/wtforms_adapter.py, the rest in the templates): each test here failed before its fix.

- the language switch's link carries the page's whole path and query (``next=``), however long;
- the radio groups, a table's bar and its row of contracts were kept per language but shared by every app of
  the process: an app with other translations showed the first app's words;
- a hidden field the deal is not read from may be padded to megabytes;
- a deal form shown again after a lost CSRF token spoke the core's English in a French page (the request's
  translation was installed after the CSRF check);
- the language switch's ``next=`` with a tab in it sent the phone to another site, and with a line break
  gave a 500;
- a field bound once to be copied kept the form of the request that bound it, and all that request sent;
- under a prefix (``SCRIPT_NAME``), the language switch sent the phone back to the page's path without it.
"""

from __future__ import annotations

import gc
import re
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers.web import csrf_token, post_deal, start_table

from scorer.web import app_caches, wtforms_adapter
from scorer import create_app

NAMES = ["<b>A&B</b>", "O'Neil \"Q\"", "Zoë &amp; Æ", "L'Ève<"]
"""Names the rules allow, each with something to escape."""


def _app(tmp_path: Path, **config: Any) -> Flask:
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "db.sqlite"), "SECRET_KEY": "test", **config})


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    yield _app(tmp_path)


def test_a_page_asked_with_a_huge_query_links_the_language_switch_back_to_it(app: Flask) -> None:
    """Each page links to the language switch with its own path and query, however long (a server takes up to
    256 KB of headers)."""
    client = app.test_client()
    token = start_table(client, NAMES)
    for n in range(3):
        query = f"x{n}=" + "<é&\"'>" * 16_000
        page = client.get(f"/t/{token}?{query}").get_data(as_text=True)
        switch = re.search(r'<a href="(/lang/fr\?next=[^"]*)"', page)
        assert switch and len(switch.group(1)) > 100_000  # the link is right, and long


def _labels(page: str) -> tuple[list[str], list[str], list[str]]:
    """A deal page's bar links, its row of contracts and its trumps' radio labels."""
    bar = re.findall(r'<a href="/t/[^"/]*(?:/[a-z]+)?">([^<]*)</a>', page)[:4]
    contracts = re.findall(r'<a class="button[^"]*" href="[^"]*"[^>]*>([^<]*)</a>', page)[:3]
    trumps = re.search(r'<fieldset class="seg two[^"]*" id="trumps">(.*?)</fieldset>', page, re.S)
    assert trumps
    return bar, contracts, re.findall(r"<span>([^<]*)</span>", trumps.group(1))


def test_pages_drawn_for_one_app_are_not_shown_by_another(tmp_path: Path) -> None:
    """Two apps in one process on one database, the second without the French catalogue: asked in French,
    it speaks English, even after the first app drew the same table's page in French."""
    empty = tmp_path / "no-translations"
    empty.mkdir()
    french = _app(tmp_path)
    english = _app(tmp_path, BABEL_TRANSLATION_DIRECTORIES=str(empty))
    token = start_table(french.test_client())
    pages = {}
    for name, app in (("french", french), ("english", english)):
        client = app.test_client()
        client.set_cookie("lang", "fr")
        pages[name] = client.get(f"/t/{token}/deal/alliance").get_data(as_text=True)
    assert _labels(pages["french"]) == (["Coup", "Comptes", "Partager", "Relevé"],
                                        ["Spadille forcée", "Appel", "Sans-prendre"],
                                        ["♠ Pique", "♣ Trèfle", "♦ Carreau", "♥ Cœur"])
    assert "<h1>Deal 1: alliance</h1>" in pages["english"]
    assert _labels(pages["english"]) == (["Deal", "Ledger", "Share", "Tally"], ["Forced spadille", "Alliance", "Solo"],
                                         ["♠ Spades", "♣ Clubs", "♦ Diamonds", "♥ Hearts"])


SOLO = {"hombre": NAMES[1], "trumps": "hearts", "hombre_tricks": "6", "matadors": "0"}


def _once(client: FlaskClient, url: str) -> str:
    found = re.search(r'name="once" type="hidden" value="([^"]+)"', client.get(url).get_data(as_text=True))
    assert found
    return found.group(1)


def test_a_deal_previewed_and_recorded_with_a_padded_hidden_contract(app: Flask) -> None:
    """The deal form's hidden contract is not what the deal is read from (the URL names the contract): padded
    to a megabyte, the deal is previewed and recorded as the URL names it."""
    client = app.test_client()
    token = start_table(client, NAMES)
    url = f"/t/{token}/deal/solo"
    response = client.post(url, data={"csrf_token": csrf_token(client, url), "number": "1", "action": "preview",
                                       "once": _once(client, url), "contract": "x" * 1_000_000, **SOLO})
    assert response.status_code == 200 and 'id="preview-title"' in response.get_data(as_text=True)
    once = _once(client, url)
    fields = {"number": "1", "once": once, "contract": "x" * 1_000_000, **SOLO}
    preview = post_deal(client, token, "solo", 1, fields).get_data(as_text=True)
    digest = re.search(r'name="previewed" type="hidden" value="([^"]+)"', preview)
    assert digest
    recorded = post_deal(client, token, "solo", 1, fields, action="record", previewed=digest.group(1))
    assert recorded.status_code == 302 and recorded.headers["Location"].endswith("?recorded=1")


def _preview(page: str) -> str:
    found = re.search(r'<section class="preview".*?</section>', page, re.S)
    assert found
    return re.sub(r'<button class="button primary".*?</button>', "", found.group(0), flags=re.S)


ALLIANCE = {"hombre": NAMES[1], "trumps": "hearts", "called": "KS", "ally": NAMES[2], "hombre_tricks": "4",
            "ally_tricks": "2", "matadors": "0"}


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_deal_shown_again_after_a_lost_session_speaks_the_pages_language(app: Flask, language: str) -> None:
    """The preview of a deal whose CSRF token was lost (shown again, nothing recorded) is the preview of the
    same taps sent with the token: in French, its headline and payments were the core's English."""
    client = app.test_client()
    token = start_table(client, NAMES)
    client.set_cookie("lang", language)
    url = f"/t/{token}/deal/alliance"
    kept = post_deal(client, token, "alliance", 1, ALLIANCE)
    lost = client.post(url, data={"csrf_token": "lost", "number": "1", "action": "record", **ALLIANCE})
    assert kept.status_code == 200 and lost.status_code == 400
    assert _preview(lost.get_data(as_text=True)) == _preview(kept.get_data(as_text=True))
    if language == "fr":
        assert "Coup 1" in _preview(lost.get_data(as_text=True)) and "alliance in" not in lost.get_data(as_text=True)


@pytest.mark.parametrize("back", ["/%09/evil.example", "/%0a/evil.example", "/%0d%0aSet-Cookie:%20x=1", "/%0D/evil.example",
                                  "/%00/evil.example", "/%7F/evil.example", "%20//evil.example", "/%E3%80%80/x",
                                  "/%5C/evil.example", "/%2F/evil.example", "/%09%2F/evil.example"])
def test_the_language_switch_stays_on_this_site_and_never_fails(app: Flask, back: str) -> None:
    """``/lang/fr?next=`` goes back to a path of this site: a tab in it (``/<tab>/evil.example``) was sent as
    ``//evil.example``, another site; a line break was a 500."""
    app.config["PROPAGATE_EXCEPTIONS"] = False
    response = app.test_client().get(f"/lang/fr?next={back}")
    assert response.status_code == 303
    location = response.headers["Location"]
    assert location.startswith("/") and not location.startswith("//") and "\\" not in location
    assert not any(ord(c) < 0x21 or ord(c) == 0x7F for c in location), location


def test_the_language_switch_still_goes_back_to_the_page(app: Flask) -> None:
    client = app.test_client()
    token = start_table(client, NAMES)
    page = client.get(f"/t/{token}/ledger?page=1").get_data(as_text=True)
    switch = re.search(r'<a href="(/lang/fr\?next=[^"]*)"', page)
    assert switch
    response = client.get(switch.group(1).replace("&amp;", "&"))
    assert response.status_code == 303 and response.headers["Location"] == f"/t/{token}/ledger?page=1"


def _reaches_a_long_text(start: object, longest: int, objects: int = 200_000) -> bool:
    """Whether a text of ``longest`` characters or more is reachable from ``start`` (the first ``objects`` objects
    found, breadth first, modules and classes left out)."""
    seen = {id(start)}
    queue = [start]
    while queue and len(seen) < objects:
        here = queue.pop(0)
        if isinstance(here, str) and len(here) >= longest:
            return True
        for found in gc.get_referents(here):
            if id(found) not in seen and not isinstance(found, (type, types.ModuleType)):
                seen.add(id(found))
                queue.append(found)
    return False


def test_the_fields_bound_once_keep_no_request_s_form(app: Flask) -> None:
    """A field bound the first time is kept to be copied; it was bound to the form of the request that first made
    that form, and so kept the request's form and all it was sent (a name padded to a megabyte) for the life of
    the process, one form of each kind and language."""
    client = app.test_client()
    client.set_cookie("lang", "fr")
    token = csrf_token(client, "/new")
    first_bound = wtforms_adapter.FIELDS.of(app_caches(app))
    first_bound.clear()  # the form sent is the first of its kind
    padded = "Ann" + "x" * 1_000_000
    response = client.post("/new", data={"csrf_token": token, "player_1": padded,
                                         "player_2": "Bea", "player_3": "Cat", "player_4": "Dan", "first_dealer": "1",
                                         "profile": "quadrille", "deals_agreed": "8"})
    assert response.status_code == 422
    assert first_bound
    assert not _reaches_a_long_text(first_bound, len(padded))


def test_the_language_switch_goes_back_to_the_page_under_a_prefix(app: Flask) -> None:
    """The app mounted under ``/scorer``: the switch's link carries the page's path within the app
    (``request.full_path``), and the switch went back to it as a path of the site, outside the app."""
    client = app.test_client()
    root = "http://localhost/scorer/"
    page = client.get("/rules", base_url=root).get_data(as_text=True)
    switch = re.search(r'<a href="/scorer(/lang/fr\?next=[^"]*)"', page)
    assert switch
    response = client.get(switch.group(1), base_url=root)
    assert response.status_code == 303 and response.headers["Location"] == "/scorer/rules"
    refused = client.get("/lang/fr?next=//evil.example", base_url=root)
    assert refused.headers["Location"] == "/scorer/"
