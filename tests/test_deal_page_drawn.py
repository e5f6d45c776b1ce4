"""The pages that show the deal form and a settlement at a glance draw the HTML they drew.

The deal form's segmented radio groups are the ``segmented`` macro of templates/_macros.html. Each radio group, and the premiers check box the template writes, is also
compared with WTForms' own drawing of its field, over the deal forms of every profile and contract, fresh and sent
(tampered taps, deals the core refuses), in English and in French."""

from __future__ import annotations

import html
import itertools
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import flask_babel
import pytest
from flask import Flask, url_for
from markupsafe import Markup
from werkzeug.datastructures import MultiDict

from scorer import create_app
from scorer.core import PROFILES, HouseRules, TableState
from scorer.web.forms import DealForm, NewTableForm

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
        if "premiers" not in form.asks:
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
