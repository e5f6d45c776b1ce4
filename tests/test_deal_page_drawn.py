"""The pages that show the deal form and a settlement at a glance draw the HTML they drew.

The deal form's segmented radio groups are the ``segmented`` macro of templates/_macros.html. The pages are compared
with golden files: ``tests/golden/<profile>.<language>.html`` (every profile, in English and French: a table's page
before and after its deals, its first contract's deal page and two deals of it refused, a deal of each contract
previewed, a correction page) and ``tests/golden/forms.<language>.html`` (the new-table page refused, its dealer step,
a table's settings). After a change meant to change the pages, write them anew with

    SCORER_GOLDEN=write pytest tests/test_deal_page_drawn.py

and read ``git diff tests/golden``. Each radio group, and the premiers check box the template writes, is also
compared with WTForms' own drawing of its field, over the deal forms of every profile and contract, fresh and sent
(tampered taps, deals the core refuses), in English and in French."""

from __future__ import annotations

import difflib
import html
import itertools
import os
import random
import re
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import flask_babel
import pytest
from flask import Flask, url_for
from markupsafe import Markup
from werkzeug.datastructures import MultiDict

from scorer import create_app
from scorer.core import PROFILES, HouseRules, TableState
from scorer.web.db import get_db
from scorer.web.forms import DealForm, NewTableForm
from scorer.store import create_table

PLAYERS = ("Ann", "Bé <a>", "Cat & Co", "Dan's")
SUITS = ["spades", "clubs", "diamonds", "hearts", "x"]
CARDS = [r + s for r in "KQ" for s in "SCDH"]
GROUPS = (("hombre", ""), ("trumps", "two"), ("favourite", "two"), ("called", "four"), ("giver", ""), ("ally", ""),
          ("hombre_tricks", "tricks"), ("ally_tricks", "tricks"), ("matadors", "tricks"), ("vole", "two"),
          ("spadille", ""))
HIDDEN = re.compile(r'name="(number|once|csrf_token|previewed)" type="hidden" value="([^"]*)"')


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    tmp: Path = tmp_path_factory.mktemp("drawn")
    # CSRF on (the form has its token) but not checked before the view: these forms are made by hand.
    yield create_app({"TESTING": True, "DATABASE": str(tmp / "t.sqlite"), "SECRET_KEY": "test",
                      "WTF_CSRF_CHECK_DEFAULT": False})


def _posted(rng: random.Random) -> dict[str, str]:
    sent: dict[str, str] = {}
    for name, values in (("hombre", [*PLAYERS, "Zed"]), ("trumps", SUITS), ("called", CARDS), ("ally", list(PLAYERS)),
                         ("hombre_tricks", [str(n) for n in range(12)] + ["", "x"]), ("ally_tricks", ["0", "1", "2"]),
                         ("matadors", ["0", "3", "4", "x"]), ("premiers", ["y", ""]),
                         ("vole", ["none", "undertaken", "announced", "revealed", "?"]), ("giver", list(PLAYERS)),
                         ("favourite", SUITS), ("spadille", list(PLAYERS))):
        if rng.random() < 0.8:
            sent[name] = rng.choice(values)
    return sent


def _forms(app: Flask, language: str) -> Iterator[Any]:
    """Deal forms of every profile and contract, fresh and sent (validated: some refused by the core's check, some
    tampered)."""
    rng = random.Random(16)
    for profile in PROFILES:
        rules = HouseRules.of(profile)
        state = TableState.start(PLAYERS)
        for contract in rules.profile.contracts:
            for attempt in range(8):
                sent = None if attempt == 0 else _posted(rng)
                headers = {"Cookie": f"lang={language}"}
                with app.test_request_context("/", method="POST" if sent else "GET", data=sent, headers=headers):
                    app.preprocess_request()  # the request's language and catalogue, as before a view
                    form = DealForm(formdata=MultiDict(sent) if sent else None, players=PLAYERS, contract=contract,
                                    dealer=PLAYERS[0], state=state, rules=rules,
                                    meta={"csrf": not sent})  # sent without a token: checked by the core, not refused
                    if sent:
                        form.validate()
                    yield form
                    app.do_teardown_request()


def _segmented(app: Flask, field: Any, cls: str = "", only: Any = None) -> str:
    """A radio group as the pages draw it (the ``segmented`` macro of templates/_macros.html)."""
    return str(app.jinja_env.get_template("_macros.html").module.segmented(field, cls, only))  # type: ignore[attr-defined]


INPUT = re.compile(r"<input ([^>]*)>")
ATTRIBUTE = re.compile(r'([a-z-]+)(?:="([^"]*)")?')
LABEL = re.compile(r"<label[^>]*>(?:<input[^>]*>)?(?:<span>)?([^<]*)(?:</span>)?</label>")


def _inputs(drawn: str) -> list[dict[str, str]]:
    """Each radio input of ``drawn``, its attributes read back (unescaped), in order."""
    return [{name: html.unescape(value) for name, value in ATTRIBUTE.findall(found)} for found in INPUT.findall(drawn)]


def _seen(drawn: str) -> tuple[list[tuple[str, ...]], list[str]]:
    """What a radio group offers: each input's id, name, value and check, and the labels, unescaped."""
    inputs = [(i["id"], i["name"], i["value"], "checked" in i) for i in _inputs(drawn)]
    return inputs, [html.unescape(label) for label in LABEL.findall(drawn)]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_each_radio_group_offers_what_wtforms_draws_of_it(app: Flask, language: str) -> None:
    """Each radio group drawn offers the inputs WTForms' own widget draws for the field (ids, name, values, the one
    checked, the labels), and marks them in error exactly when the field has errors."""
    errors_seen = checked_seen = 0
    for form in _forms(app, language):
        for name, cls in GROUPS:
            field = getattr(form, name)
            drawn = _segmented(app, field, cls)
            assert _seen(drawn) == _seen(str(field())), (language, name)
            ids = " ".join(f"{field.id}-error{n}" for n in range(1, len(field.errors) + 1))
            for attributes in _inputs(drawn):
                assert attributes.get("aria-describedby") == (ids or None)
                assert ("aria-invalid" in attributes) == bool(field.errors)
            errors_seen += bool(field.errors)
            checked_seen += "checked" in drawn
    assert errors_seen > 20 and checked_seen > 200  # the refused and tampered forms were drawn too


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_premiers_check_box_is_what_wtforms_draws(app: Flask, language: str) -> None:
    """The premiers toggle's input, written in templates/table/_deal_fields.html, is what WTForms' own widget draws
    of the field (fresh, ticked, tampered, in error)."""
    fields = app.jinja_env.get_template("table/_deal_fields.html")
    ticked = errors_seen = 0
    for form in itertools.chain(_forms(app, language), _refused_premiers(app, language)):  # each in its request
        if not form.asks_premiers:
            continue
        field = form.premiers
        ids = " ".join(f"{field.id}-error{n}" for n in range(1, len(field.errors) + 1))
        aria = {"aria-invalid": "true", "aria-describedby": ids} if field.errors else {}
        drawn = re.search(r'<input[^>]* id="premiers"[^>]*>', fields.render(form=form))
        assert drawn is not None and drawn.group(0) == str(field(**aria))
        ticked += "checked" in drawn.group(0)
        errors_seen += bool(field.errors)
    assert ticked > 10 and errors_seen


def _refused_premiers(app: Flask, language: str) -> Iterator[Any]:
    """A forced spadille of three tricks claiming premiers: refused, the toggle in error."""
    rules = HouseRules.of("penguin_chips")
    sent = {"hombre": PLAYERS[1], "trumps": "hearts", "called": "KS", "ally": PLAYERS[2], "hombre_tricks": "3",
            "ally_tricks": "0", "matadors": "0", "premiers": "y", "vole": "none"}
    with app.test_request_context("/", method="POST", data=sent, headers={"Cookie": f"lang={language}"}):
        app.preprocess_request()
        contract = rules.profile.contracts[0]
        form = DealForm(formdata=MultiDict(sent), players=PLAYERS, contract=contract, dealer=PLAYERS[0],
                        state=TableState.start(PLAYERS), rules=rules, meta={"csrf": False})
        assert not form.validate() and form.premiers.errors
        yield form
        app.do_teardown_request()


def test_a_group_of_some_choices_only_offers_those(app: Flask) -> None:
    """The new-table page offers some of the first dealer's choices (``only``), numbered from 0 as they are shown."""
    for sent in ({}, {"first_dealer": "3"}, {"first_dealer": "zz"}):
        with app.test_request_context("/new", method="POST", data=sent):
            app.preprocess_request()
            form = NewTableForm(formdata=MultiDict(sent))
            form.validate()
            only = form.seats_asked + (form.first_dealer.data,)
            inputs, labels = _seen(_segmented(app, form.first_dealer, "stack", only))
            everything, all_labels = _seen(str(form.first_dealer()))
            offered = [(i, v, c) for i, (_id, n, v, c) in enumerate(everything) if v in only]
            assert [(f"first_dealer-{i}", "first_dealer", v, c) for i, (v, c) in
                    enumerate((v, c) for _n, v, c in offered)] == inputs
            assert labels == [all_labels[i] for i, _v, _c in offered]
            app.do_teardown_request()


@pytest.mark.parametrize("language", ["en", "fr"])
def test_template_messages_are_flask_babels(app: Flask, language: str) -> None:
    page = app.jinja_env.from_string('{{ _("Ledger") }}|{{ _("Deal %(number)s", number="<b>") }}|{{ gettext("Share") }}'
                                     '|{{ _("100%% sure") if false }}')
    with app.test_request_context("/", headers={"Cookie": f"lang={language}"}):
        app.preprocess_request()
        for _ in range(2):  # made, then kept
            expected = "|".join([str(Markup(flask_babel.gettext("Ledger"))),
                                 str(Markup(flask_babel.gettext("Deal %(number)s")) % {"number": "<b>"}),
                                 str(Markup(flask_babel.gettext("Share"))), ""])
            assert page.render() == expected
        if language == "fr":
            assert page.render().startswith("Comptes|Coup &lt;b&gt;|Partager")
        app.do_teardown_request()
    with app.app_context():  # outside a request: Flask-Babel's own answer (English)
        assert page.render().startswith("Ledger|Deal &lt;b&gt;")


def test_links_kept_by_the_templates_are_flasks(app: Flask) -> None:
    page = app.jinja_env.from_string(
        "{{ url_for('table.deal', token=t, contract='solo') }} {{ url_for('static', filename='style.css') }} "
        "{{ url_for('i18n.switch', code='fr', next='/t/' ~ t ~ '?a=1&b') }} {{ url_for('table.play', token=t, _anchor='x') }}")

    def expected(t: str) -> str:
        return " ".join([url_for("table.deal", token=t, contract="solo"), url_for("static", filename="style.css"),
                         str(Markup.escape(url_for("i18n.switch", code="fr", next=f"/t/{t}?a=1&b"))),
                         url_for("table.play", token=t, _anchor="x")])

    for root in ("", "/club", "/other"):  # the script root is part of each link kept
        for token in ("abc", "a b/é", "abc"):
            with app.test_request_context("/", base_url=f"http://localhost{root}/"):
                assert page.render(t=token) == expected(token)
                assert page.render(t=token).startswith(f"{root}/t/")


# --- golden pages: the pages that show these pieces, as drawn before issue 23, kept in tests/golden/ ---------------

GOLDEN = Path(__file__).parent / "golden"
WRITE_GOLDEN = os.environ.get("SCORER_GOLDEN") == "write"
"""``SCORER_GOLDEN=write pytest tests/test_deal_page_drawn.py`` writes the golden files anew from the pages as they
are now (the tests that compare with them are then skipped): only after a change meant to change the pages, whose
``git diff tests/golden`` shows what changed."""
GOLDEN_TAPS = re.compile(r'(name="(?:csrf_token|once|previewed)" type="hidden" value=")[^"]*(")')
"""The values a page draws afresh each time (its CSRF token, one-time token and the preview's digest)."""
MAIN = re.compile(r"<main>.*</main>", re.S)
RULES = re.compile(r'<details class="rules">.*?</details>', re.S)
"""The house rules of a settings form: WTForms' own selects, left out of the golden files (30 KB a page)."""


def _normalised(page: str, table: Any) -> str:
    """A page as its golden file keeps it: the table's tokens and the values drawn afresh replaced by their names."""
    page = page.replace(table.token, "TOKEN").replace(table.spectator_token, "SPECTATOR")
    return RULES.sub('<details class="rules">…</details>', GOLDEN_TAPS.sub(r"\1…\2", page))


class Pages:
    """Pages visited by a phone, each under a heading naming the request, as a golden file keeps them."""

    def __init__(self, app: Flask, language: str) -> None:
        self.client = app.test_client()
        self.client.set_cookie("lang", language)
        self.table: Any = SimpleNamespace(token="TOKEN", spectator_token="SPECTATOR")
        self.parts: list[str] = []

    def keep(self, what: str, answer: Any, whole: bool) -> str:
        page = answer.get_data(as_text=True)
        shown = _normalised(page, self.table)
        if not whole:
            found = MAIN.search(shown)
            assert found is not None, what
            shown = found.group(0)
        self.parts.append(f"<!-- {_normalised(what, self.table)}: {answer.status_code} -->\n{shown}\n")
        return page

    def get(self, url: str, whole: bool = False) -> str:
        first = self.client.get(url)
        again = self.client.get(url)  # drawn, then from what was kept
        assert _normalised(again.get_data(as_text=True), self.table) == _normalised(first.get_data(as_text=True), self.table)
        return self.keep(f"GET {url}", first, whole)

    def post(self, url: str, sent: dict[str, str], whole: bool = False) -> Any:
        answer = self.client.post(url, data=sent)
        if answer.status_code != 302:
            self.keep(f"POST {url} " + " ".join(f"{k}={v}" for k, v in sorted(sent.items())
                                                if k not in ("csrf_token", "once", "previewed")), answer, whole)
        return answer

    def text(self) -> str:
        return "".join(self.parts)


def _table_pages(app: Flask, profile: str, language: str) -> str:
    """A table of ``profile`` in ``language``, its players' names needing escapes: its page before any deal; its first
    contract's deal page and a deal of it refused twice (tampered taps and a stranger as Hombre; premiers claimed with
    three tricks); for each contract a deal previewed (then recorded, if it can be); the table's page after them and
    a correction page."""
    rng = random.Random(profile)
    pages = Pages(app, language)
    with app.app_context():
        chip_value = 10 if profile in ("quadrille", "mediateur") else None  # some payments in money
        pages.table = create_table(get_db(), PLAYERS, PLAYERS[0], HouseRules.of(profile), 40, chip_value, "EUR")
    token = pages.table.token
    pages.get(f"/t/{token}", whole=True)
    for n, contract in enumerate(PROFILES[profile].contracts):
        url = f"/t/{token}/deal/{contract.value}"
        page = pages.get(url, whole=True) if n == 0 else pages.client.get(url).get_data(as_text=True)
        sent = dict(HIDDEN.findall(page))
        if n == 0:
            pages.post(url, {**sent, "hombre": "Zed", "trumps": "x", "hombre_tricks": "6", "premiers": "y", "vole": "?",
                             "action": "preview"})
            pages.post(url, {**sent, "hombre": PLAYERS[1], "trumps": "hearts", "called": "KS", "ally": PLAYERS[2],
                             "hombre_tricks": "3", "ally_tricks": "0", "matadors": "0", "premiers": "y", "vole": "none",
                             "favourite": "hearts", "spadille": PLAYERS[3], "giver": PLAYERS[3], "action": "preview"})
        hombre = rng.choice(PLAYERS)
        sent.update({"hombre": hombre, "trumps": rng.choice(SUITS[:4]), "called": rng.choice(CARDS),
                     "ally": rng.choice([p for p in PLAYERS if p != hombre]), "hombre_tricks": str(rng.randint(3, 8)),
                     "ally_tricks": rng.choice(["0", "1", "2"]), "matadors": rng.choice(["0", "3"]), "vole": "none",
                     "favourite": rng.choice(SUITS[:4]), "spadille": rng.choice(PLAYERS), "giver": rng.choice(PLAYERS),
                     "action": "preview"})
        preview = pages.post(url, sent).get_data(as_text=True)
        if 'value="record"' in preview:
            sent.update(HIDDEN.findall(preview))
            assert pages.post(url, {**sent, "action": "record"}).status_code == 302
    pages.get(f"/t/{token}")
    pages.get(f"/t/{token}/audit/1/amend/{PROFILES[profile].contracts[0].value}")
    return pages.text()


def _form_pages(app: Flask, language: str) -> str:
    """The new-table page (its first dealer's group offers some choices only), its dealer step, a table's settings."""
    pages = Pages(app, language)
    page = pages.get("/new")
    sent = {**dict(HIDDEN.findall(page)), "player_1": PLAYERS[0], "player_2": PLAYERS[1], "player_3": PLAYERS[2],
            "player_4": "", "first_dealer": "3", "deals_agreed": "41", "profile": "mediateur"}
    pages.post("/new", sent)
    pages.post("/new", {**sent, "player_4": PLAYERS[3], "deals_agreed": "40", "first_dealer": "by-name"})
    with app.app_context():
        pages.table = create_table(get_db(), PLAYERS, PLAYERS[0], HouseRules.of("britannica"), 40, None, "")
    pages.get(f"/t/{pages.table.token}/settings")
    return pages.text()


GOLDEN_CASES = [(f"{profile}.{language}.html", profile, language) for profile in PROFILES for language in ("en", "fr")]


def _compared(name: str, made: str) -> None:
    path = GOLDEN / name
    if WRITE_GOLDEN:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(made, encoding="utf-8")
        pytest.skip(f"{path} written")
    kept = path.read_text(encoding="utf-8")
    if made != kept:
        diff = "".join(list(difflib.unified_diff(kept.splitlines(True), made.splitlines(True), f"golden/{name}", "now"))[:60])
        pytest.fail(f"the pages differ from tests/golden/{name} (SCORER_GOLDEN=write to write them anew):\n{diff}")


@pytest.mark.parametrize("name, profile, language", GOLDEN_CASES)
def test_a_tables_pages_are_the_golden_ones(app: Flask, name: str, profile: str, language: str) -> None:
    _compared(name, _table_pages(app, profile, language))


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_forms_pages_are_the_golden_ones(app: Flask, language: str) -> None:
    _compared(f"forms.{language}.html", _form_pages(app, language))
