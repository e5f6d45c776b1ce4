"""The deal page drawn faster draws the same HTML (issue 16: preview and deal-entry page at 1.5 ms).

The deal form's radio groups, check box, error messages and hidden inputs are drawn in Python
(``segmented_field``, ``toggle_field``, ``field_errors``, ``hidden_field`` in scorer/forms.py), a radio
group's inputs kept once drawn; the templates' ``_`` and ``url_for`` keep what they made. Each is
compared here with what it replaced: the Jinja macros as they were (copied below, unchanged), WTForms'
own widgets, Flask-Babel's ``gettext`` and Flask's ``url_for``, over the deal forms of every profile and
contract, fresh and sent (tampered taps, refused deals, errors), in English and in French."""

from __future__ import annotations

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
from scorer.web import app_caches
from scorer.core import PROFILES, HouseRules, TableState
import scorer.web.tables
from scorer.core import summarise
from scorer.web.db import get_db
from scorer.web.forms import (
    DealForm, NewTableForm, field_errors, hidden_field, segmented_field, toggle_field,
)
from scorer.store import create_table
from scorer.web.views import summary_nets, summary_payments

OLD_MACROS = """\
{% macro segmented(field, cls="", only=none) %}
<fieldset class="seg {{ cls }}{% if field.errors %} invalid{% endif %}" id="{{ field.id }}">
  <legend>{{ field.label.text }}</legend>
  <div class="opts">
  {% for value, label, checked, _ in field.iter_choices() if only is none or value in only %}<label class="opt"><input type="radio" name="{{ field.name }}" id="{{ field.id }}-{{ loop.index0 }}" value="{{ value }}"{% if checked %} checked{% endif %}{% if field.errors %} aria-invalid="true" aria-describedby="{{ error_ids(field) }}"{% endif %}><span>{{ label }}</span></label>{% endfor %}
  </div>
  {{ errors(field) }}
</fieldset>
{% endmacro %}

{% macro toggle(field) %}
<div class="toggle{% if field.errors %} invalid{% endif %}" id="{{ field.id }}-box">
  <label class="opt wide">{{ field(**({"aria-invalid": "true", "aria-describedby": error_ids(field)} if field.errors else {})) }}<span>{{ field.label.text }}</span></label>
  {{ errors(field) }}
</div>
{% endmacro %}

{% macro errors(field) %}{% for e in field.errors %}<p class="error" id="{{ field.id }}-error{{ loop.index }}">{{ e }}</p>{% endfor %}{% endmacro %}

{% macro error_ids(field) %}{% for e in field.errors %}{{ field.id }}-error{{ loop.index }}{% if not loop.last %} {% endif %}{% endfor %}{% endmacro %}
"""
"""templates/_macros.html's radio group, toggle and error macros before issue 16 (commit fe86426)."""

OLD_SUMMARY = """\
{% macro rule_links(refs) %}{% for r in refs %}<a href="{{ url_for('home.rules') }}#{{ r.name }}">{{ r.title }}</a>{% if not loop.last %} · {% endif %}{% endfor %}{% endmacro %}

{% macro nets(summary) %}
{#- Each separator ends the line it is on, never starts the next. -#}
<p class="nets" id="nets"><span class="visually-hidden">{{ _("Each player's change for this deal: ") }}</span>{% for n in summary.nets %}<span class="net">{{ n.player }} <strong class="{{ 'up' if n.change > 0 else 'down' if n.change < 0 else 'even' }}">{{ n.signed }}</strong>{% if not loop.last or summary.carried %} ·{% endif %}</span> {% endfor %}
{%- if summary.carried %}<span class="after">{% for label, value in summary.carried %}{{ label }} <strong>{{ value }}</strong>{% if not loop.last %}, {% endif %}{% endfor %}</span>{% endif %}</p>
{% endmacro %}

{% macro payments(summary, heading=none, level=2) %}
<div class="payments">
<h{{ level }} class="groups-title">{{ heading or _("Who pays whom") }}</h{{ level }}>
{% if summary.unit_sentence %}<p class="unit">{{ summary.unit_sentence }}{% if summary.unit_rules %} <small class="by">{{ rule_links(summary.unit_rules) }}</small>{% endif %}</p>{% endif %}
<ul class="groups">
{% for g in summary.groups %}<li>{{ g.sentence }}{% if g.rules %} <small class="by">{{ rule_links(g.rules) }}</small>{% endif %}</li>
{% endfor %}</ul>
{% if summary.notes %}<ul class="notes">{% for n in summary.notes %}<li>{{ n }}</li>{% endfor %}</ul>{% endif %}
</div>
{% endmacro %}
"""
"""templates/table/_summary.html's macros before issue 16 (commit fe86426)."""

PLAYERS = ("Ann", "Bé <a>", "Cat & Co", "Dan's")
SUITS = ["spades", "clubs", "diamonds", "hearts", "x"]
CARDS = [r + s for r in "KQ" for s in "SCDH"]
GROUPS = (("hombre", ""), ("trumps", "two"), ("favourite", "two"), ("called", "four"), ("giver", ""), ("ally", ""),
          ("hombre_tricks", "tricks"), ("ally_tricks", "tricks"), ("matadors", "tricks"), ("vole", "two"),
          ("spadille", ""))


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
    """Deal forms of every profile and contract, fresh and sent (validated: some refused, some tampered)."""
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
                                    dealer=PLAYERS[0], state=state, rules=rules)
                    if sent:
                        form.validate()
                    yield form
                    app.do_teardown_request()


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_deal_form_is_drawn_as_the_macros_and_widgets_drew_it(app: Flask, language: str) -> None:
    old: Any = app.jinja_env.from_string(OLD_MACROS).module
    now: Any = app.jinja_env.get_template("_macros.html").module
    errors_seen = 0
    for form in _forms(app, language):
        for name, cls in GROUPS:
            field = getattr(form, name)
            errors_seen += bool(field.errors)
            for _ in range(2):  # drawn, then from the inputs kept
                assert str(segmented_field(field, cls)) == str(old.segmented(field, cls)), (language, name)
            assert str(now.segmented(field, cls)) == str(old.segmented(field, cls))
            assert str(field_errors(field)) == str(old.errors(field))
        assert str(toggle_field(form.premiers)) == str(old.toggle(form.premiers))
        assert str(now.toggle(form.premiers)) == str(old.toggle(form.premiers))
        for hidden in (form.csrf_token, form.contract, form.number, form.previewed, form.once, form.play):
            assert str(hidden_field(hidden)) == str(hidden()), hidden.name
    assert errors_seen > 20  # the refused and tampered forms were drawn too


def test_a_group_of_some_choices_only_is_drawn_as_before(app: Flask) -> None:
    """The new-table page offers two of the first dealer's choices (``only``): drawn as the macro drew them."""
    old: Any = app.jinja_env.from_string(OLD_MACROS).module
    for sent in ({}, {"first_dealer": "3"}, {"first_dealer": "zz"}):
        with app.test_request_context("/new", method="POST", data=sent):
            app.preprocess_request()
            form = NewTableForm(formdata=MultiDict(sent))
            form.validate()
            only = form.seats_asked + (form.first_dealer.data,)
            assert str(segmented_field(form.first_dealer, "stack", only)) == str(old.segmented(form.first_dealer, "stack", only))
            app.do_teardown_request()


def test_a_field_the_form_lacks_is_drawn_empty(app: Flask) -> None:
    """With CSRF off the form has no token field: Jinja drew the undefined ``form.csrf_token`` as nothing."""
    page = app.jinja_env.from_string("[{{ hidden_field(form.csrf_token) }}]")
    assert page.render(form=object()) == "[]"


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


def test_the_premiers_toggle_of_a_refused_deal_is_marked(app: Flask) -> None:
    """Premiers claimed on a deal that cannot have them: the toggle is drawn in error, as the macro drew it."""
    old: Any = app.jinja_env.from_string(OLD_MACROS).module
    rules = HouseRules.of()
    sent = {"hombre": "Ann", "trumps": "hearts", "hombre_tricks": "3", "matadors": "0", "premiers": "y", "vole": "none"}
    with app.test_request_context("/", method="POST", data=sent):
        app.preprocess_request()
        contract = next(c for c in rules.profile.contracts if c.value == "solo")
        form = DealForm(formdata=MultiDict(sent), players=PLAYERS, contract=contract, dealer=PLAYERS[0],
                        state=TableState.start(PLAYERS), rules=rules)
        assert not form.validate()
        drawn: Any = toggle_field(form.premiers)
        if form.premiers.errors:
            assert 'aria-invalid="true"' in drawn
        assert str(drawn) == str(old.toggle(form.premiers))
        app.do_teardown_request()


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_settlement_at_a_glance_is_drawn_as_the_macros_drew_it(app: Flask, language: str,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Every preview of a few evenings' deals (every profile, pools carried, rules behind the payments): its nets
    and payments drawn in Python are the old macros' HTML, with the play page's heading and level too."""
    old: Any = app.jinja_env.from_string(OLD_SUMMARY).module
    compared = []

    def checked(settlement: Any, rules: Any) -> Any:
        summary = summarise(settlement, rules)
        assert str(summary_nets(summary)) == str(old.nets(summary))
        assert str(summary_payments(summary)) == str(old.payments(summary))
        heading = Markup("Who <em>paid</em> whom")
        assert str(summary_payments(summary, heading=heading, level=3)) == str(old.payments(summary, heading=heading, level=3))
        compared.append(bool(summary.carried) + 2 * bool(summary.unit_rules) + 4 * any(g.rules for g in summary.groups))
        return summary

    monkeypatch.setattr(scorer.web.tables, "summarise", checked)
    rng = random.Random(7)
    client = app.test_client()
    client.set_cookie("lang", language)
    for profile in PROFILES:
        with app.app_context():
            token = create_table(get_db(), PLAYERS, PLAYERS[0], HouseRules.of(profile), 40, None, "").token
        for _ in range(12):
            contract = rng.choice([c.value for c in PROFILES[profile].contracts])
            url = f"/t/{token}/deal/{contract}"
            page = client.get(url).get_data(as_text=True)
            sent = dict(HIDDEN.findall(page))
            hombre = rng.choice(PLAYERS)
            sent.update({"hombre": hombre, "trumps": rng.choice(SUITS[:4]), "called": rng.choice(CARDS),
                         "ally": rng.choice([p for p in PLAYERS if p != hombre]), "hombre_tricks": str(rng.randint(2, 10)),
                         "ally_tricks": "1", "matadors": rng.choice(["0", "3"]), "vole": "none",
                         "favourite": rng.choice(SUITS[:4]), "spadille": rng.choice(PLAYERS), "action": "preview"})
            preview = client.post(url, data=sent).get_data(as_text=True)
            if rng.random() < 0.7 and 'value="record"' in preview:
                sent.update(HIDDEN.findall(preview))
                sent["action"] = "record"
                client.post(url, data=sent)
    assert len(compared) > 40 and len(set(compared)) >= 2  # with and without rules behind the unit


HIDDEN = re.compile(r'name="(number|once|csrf_token|previewed)" type="hidden" value="([^"]*)"')


def _state_of(form: Any) -> list[tuple[str, dict[str, Any]]]:
    """Every field's attributes, comparable: what refers to the form by identity, the label and flags by value."""
    seen = []
    for field in form:
        own = dict(vars(field))
        assert own.pop("_form") is form and own.pop("meta") is form.meta
        label, flags = own.pop("label"), own.pop("flags")
        own["label"] = (label.field_id, str(label.text))
        own["flags"] = sorted(vars(flags).items())
        own.pop("csrf_impl", None)  # the CSRF field is made anew for each form, by WTForms
        own.pop("current_token", None)  # a new session, a new token
        seen.append((field.name, own))
    return seen


FORM_CASES: list[tuple[str, dict[str, Any]]] = [
    ("TableSettingsForm", {}), ("NewTableForm", {}), ("ConfirmForm", {}), ("CircleForm", {}), ("AddMemberForm", {}),
    ("SettleForm", {}), ("RestoreForm", {"players": PLAYERS}), ("NextEveningForm", {"members": PLAYERS}),
    ("RenameMemberForm", {"members": PLAYERS}),
]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_field_bound_by_copy_is_the_field_wtforms_binds(app: Flask, language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every form of the app, bound by copying its fields (scorer.web.forms._bound) and by WTForms itself, fresh and
    sent, the same attributes field by field, the same data and errors once validated; two forms never share a
    field's label, flags or choices."""
    import scorer.web.forms as forms

    rules = HouseRules.of()
    cases: list[tuple[str, dict[str, Any]]] = [*FORM_CASES]
    for contract in rules.profile.contracts:
        cases.append(("DealForm", {"players": PLAYERS, "contract": contract, "dealer": PLAYERS[0],
                                   "state": TableState.start(PLAYERS), "rules": rules}))
        cases.append(("CorrectionForm", {"players": PLAYERS, "contract": contract, "dealer": PLAYERS[0],
                                         "state": TableState.start(PLAYERS), "rules": rules}))
    rng = random.Random(3)
    for name, kwargs in cases:
        for attempt in range(3):
            sent = None if attempt == 0 else {**_posted(rng), "player_1": "Ann", "deals_agreed": rng.choice(["40", "x"]),
                                              "profile": rng.choice(["quadrille", "?"]), "by": "Ann"}
            states, outcomes, fields = [], [], []
            for copying in (False, True, True):  # by WTForms; then bound once and copied
                monkeypatch.undo()
                first_bound = forms.FIELDS.of(app_caches(app))
                first_bound.clear()
                if not copying:
                    monkeypatch.setattr(forms.Form.Meta, "bind_field",
                                        lambda self, form, unbound, options: unbound.bind(form=form, **options))
                with app.test_request_context("/", method="POST" if sent else "GET", data=sent,
                                              headers={"Cookie": f"lang={language}"}):
                    app.preprocess_request()
                    for _ in range(2 if copying else 1):  # the first binds, the second copies
                        form = getattr(forms, name)(formdata=MultiDict(sent) if sent else None, **kwargs)
                    assert bool(first_bound) == copying  # bound once, then copied
                    states.append(_state_of(form))
                    fields.append(list(form))
                    outcomes.append((form.validate(), form.data, form.errors) if sent else None)
                    app.do_teardown_request()
            assert states[0] == states[1] == states[2], name
            assert outcomes[0] == outcomes[1] == outcomes[2], name
            for one, other in zip(fields[1], fields[2]):
                assert one.label is not other.label and one.flags is not other.flags
                if isinstance(getattr(one, "_choices", None), list):
                    assert one._choices is not other._choices or one._choices is getattr(forms, "TRUMP_CHOICES", None) \
                        or name in ("DealForm", "CorrectionForm")  # the deal form sets its module lists itself


OLD_NAV = """\
<a href="{{ url_for('table.play', token=table.token) }}">{{ _("Deal") }}</a>
<a href="{{ url_for('table.ledger_page', token=table.token) }}">{{ _("Ledger") }}</a>
<a href="{{ url_for('table.join', token=table.token) }}">{{ _("Share") }}</a>
<a href="{{ url_for('tally.page', token=table.token) }}">{{ _("Tally") }}</a>
"""
"""templates/table/_nav.html before issue 16 (commit fe86426)."""
OLD_CONTRACTS = """\
{% for c in contracts %}<a class="button{% if c == form.the_contract %} current{% endif %}" href="{{ url_for('table.deal', token=table.token, contract=c.value) }}"{% if c == form.the_contract %} aria-current="page"{% endif %}>{{ c.label|capitalize }}</a>{% endfor %}"""
"""The deal page's row of contracts before issue 16."""


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_tables_links_are_drawn_as_the_templates_drew_them(app: Flask, language: str) -> None:
    from types import SimpleNamespace

    from scorer.web.views import contracts_nav, table_nav

    old_nav, old_contracts = app.jinja_env.from_string(OLD_NAV), app.jinja_env.from_string(OLD_CONTRACTS)
    for root in ("", "/club"):
        for token in ("abc", "T0k3n_-x"):
            table: Any = SimpleNamespace(token=token)
            with app.test_request_context("/", base_url=f"http://localhost{root}/", headers={"Cookie": f"lang={language}"}):
                app.preprocess_request()
                for _ in range(2):  # drawn, then kept
                    assert str(table_nav(table)) == old_nav.render(table=table)
                    for profile in PROFILES.values():
                        for current in (*profile.contracts, None):
                            form = SimpleNamespace(the_contract=current)
                            assert str(contracts_nav(table, profile.contracts, current)) == old_contracts.render(
                                table=table, contracts=profile.contracts, form=form)
                app.do_teardown_request()


OLD_STATE = """\
<dl class="state">
  <div><dt>{{ _("Deal") }}</dt><dd>{{ number if not over else played }} <small>{{ _("of %(agreed)s", agreed=table.deals_agreed) }}</small></dd></div>
  <div><dt>{{ _("Dealer") }}</dt><dd>{{ dealer }}</dd></div>
  <div><dt>{{ _("Eldest") }}</dt><dd>{{ eldest }}</dd></div>
  {% for label, value in standing %}<div><dt>{{ label }}</dt><dd>{{ value }}</dd></div>{% endfor %}
</dl>
"""
"""templates/table/_state.html before issue 16 (commit fe86426)."""


@pytest.mark.parametrize("language", ["en", "fr"])
def test_where_the_evening_stands_is_drawn_as_the_template_drew_it(app: Flask, language: str) -> None:
    from types import SimpleNamespace

    from scorer.web.views import table_state

    old = app.jinja_env.from_string(OLD_STATE)
    with app.test_request_context("/", headers={"Cookie": f"lang={language}"}):
        app.preprocess_request()
        for number, over, standing in ((1, False, ()), (13, False, (("pool", "12"), ("vole <pool>", "3 & 4"))),
                                       (41, True, (("Pool", "0"),))):
            context: dict[str, Any] = {"number": number, "over": over, "played": number - 1, "dealer": PLAYERS[1],
                                       "eldest": PLAYERS[2], "standing": standing,
                                       "table": SimpleNamespace(deals_agreed=40)}
            drawn = table_state(number, over, number - 1, 40, PLAYERS[1], PLAYERS[2], standing)
            assert str(drawn) == old.render(**context)
        app.do_teardown_request()
