"""What scorer/web/wtforms_adapter.py relies on in WTForms, checked against the installed WTForms: each test here
fails when WTForms changes under the adapter (issue 23, point 6), before a page draws a field wrong."""

from __future__ import annotations

import inspect
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import wtforms
from flask import Flask
from werkzeug.datastructures import MultiDict
from wtforms.fields.core import Flags, Label, UnboundField
from wtforms.i18n import get_translations, messages_path

import scorer.web.forms as forms
import scorer.web.wtforms_adapter as adapter
from scorer import create_app
from scorer.web import app_caches
from scorer.core import HouseRules, TableState

PLAYERS = ("Ann", "Bé <a>", "Cat & Co", "Dan's")


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    tmp: Path = tmp_path_factory.mktemp("adapter")
    yield create_app({"TESTING": True, "DATABASE": str(tmp / "t.sqlite"), "SECRET_KEY": "test",
                      "WTF_CSRF_CHECK_DEFAULT": False})


def test_the_names_and_signatures_the_adapter_uses_are_wtforms() -> None:
    """``Label(field_id, text)``, ``Flags`` holding its flags as attributes, ``UnboundField.bind(form, name, prefix,
    translations, **kwargs)`` and its ``kwargs``, ``messages_path()`` where WTForms' French catalogue is."""
    assert list(inspect.signature(Label).parameters) == ["field_id", "text"]
    label = Label("x", "A <b>")
    assert (label.field_id, label.text) == ("x", "A <b>")
    flags = Flags()
    flags.required = True
    assert vars(flags) == {"required": True} and flags.required and flags.disabled is None
    assert list(inspect.signature(UnboundField.bind).parameters) == ["self", "form", "name", "prefix", "translations",
                                                                      "kwargs"]
    unbound = wtforms.StringField("Name", default="a")
    assert isinstance(unbound, UnboundField) and unbound.kwargs == {"default": "a"}
    assert (Path(messages_path()) / "fr" / "LC_MESSAGES" / "wtforms.mo").is_file()


def test_a_bound_field_keeps_its_form_its_label_its_flags_and_its_choices_where_the_copy_makes_them_anew(app: Flask) -> None:
    """What WTForms gives each bound field its own is in the attributes the copy makes anew (``_form``, ``meta``,
    ``label``, ``flags``, ``render_kw``, ``_choices``): no other attribute refers to the form, and the field
    keeps its state in its ``__dict__``. The CSRF field is bound with its ``csrf_impl``, and no field of the app
    has a data list (its object would be shared by the copies)."""
    with app.test_request_context("/"):
        app.preprocess_request()
        seen_csrf = False
        for form in (forms.NewTableForm(), forms.CircleForm(), forms.ConfirmForm(),
                     forms.DealForm(players=PLAYERS, contract=HouseRules.of().profile.contracts[0], dealer=PLAYERS[0],
                                    state=TableState.start(PLAYERS), rules=HouseRules.of())):
            for field in form:
                own = vars(field)
                assert own["_form"] is form and own["meta"] is form.meta
                assert type(own["label"]) is Label and type(own["flags"]) is Flags
                assert "render_kw" in own and own.get("_datalist") is None
                if isinstance(field, wtforms.SelectField):
                    assert "_choices" in own
                others = {name for name, value in own.items() if value is form or value is form.meta}
                assert others == {"_form", "meta"}, field.name
                seen_csrf |= field.name == "csrf_token" and field.type == "CSRFTokenField"
        assert seen_csrf
        fields = len(list(forms.ConfirmForm()))
        bound_csrf = []
        original = forms.Form.Meta.bind_field

        def spy(self: Any, form: Any, unbound_field: Any, options: dict[str, Any]) -> Any:
            bound_csrf.append("csrf_impl" in unbound_field.kwargs)
            return original(self, form, unbound_field, options)

        forms.Form.Meta.bind_field = spy
        try:
            forms.ConfirmForm()
        finally:
            forms.Form.Meta.bind_field = original
        assert sorted(bound_csrf) == [False] * (fields - 1) + [True]  # the CSRF field, told by its csrf_impl
        app.do_teardown_request()


@pytest.mark.parametrize("language", ["en", "fr"])
def test_wtforms_messages_come_from_its_own_catalogue(app: Flask, language: str) -> None:
    """The messages the adapter translates are WTForms' own translations, read from where WTForms keeps them."""
    own = get_translations([language])
    with app.test_request_context("/", headers={"Cookie": f"lang={language}"}):
        app.preprocess_request()
        for message in ("Not a valid integer value.", "This field is required.", "Not a valid decimal value."):
            assert adapter.MESSAGES.gettext(message) == own.gettext(message)
        assert adapter.MESSAGES.ngettext("Field must be at least %(min)d character long.",
                                         "Field must be at least %(min)d characters long.", 3) == \
            own.ngettext("Field must be at least %(min)d character long.",
                         "Field must be at least %(min)d characters long.", 3)
        if language == "fr":
            assert adapter.MESSAGES.gettext("This field is required.") != "This field is required."
        form = forms.NewTableForm(formdata=MultiDict({"deals_agreed": "x"}))
        form.validate()
        assert form.deals_agreed.errors[0] == own.gettext("Not a valid integer value.")
        app.do_teardown_request()


def _posted(rng: random.Random) -> dict[str, str]:
    sent: dict[str, str] = {}
    for name, values in (("hombre", [*PLAYERS, "Zed"]), ("trumps", ["spades", "hearts", "x"]),
                         ("called", ["KS", "QH", "??"]), ("ally", list(PLAYERS)),
                         ("hombre_tricks", [str(n) for n in range(12)] + ["", "x"]), ("ally_tricks", ["0", "1", "2"]),
                         ("matadors", ["0", "3", "4", "x"]), ("premiers", ["y", ""]),
                         ("vole", ["none", "undertaken", "announced", "?"]), ("giver", list(PLAYERS)),
                         ("favourite", ["clubs", "x"]), ("spadille", list(PLAYERS))):
        if rng.random() < 0.8:
            sent[name] = rng.choice(values)
    return sent


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
    """Every form of the app, bound by copying its fields (``wtforms_adapter.bound``) and by WTForms itself, fresh
    and sent, the same attributes field by field, the same data and errors once validated; two forms never share a
    field's label, flags or choices."""
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
                first_bound = adapter.FIELDS.of(app_caches(app))
                first_bound.clear()  # the form sent is the first of its kind
                if not copying:
                    monkeypatch.setattr(forms.Form.Meta, "bind_field",
                                        lambda self, form, unbound, options: unbound.bind(form=form, **options))
                with app.test_request_context("/", method="POST" if sent else "GET", data=sent,
                                              headers={"Cookie": f"lang={language}"}):
                    app.preprocess_request()
                    for _ in range(2 if copying else 1):  # the first binds, the second copies
                        form = getattr(forms, name)(formdata=MultiDict(sent) if sent else None, **kwargs)
                    assert bool(len(first_bound)) == copying  # bound once, then copied
                    states.append(_state_of(form))
                    fields.append(list(form))
                    outcomes.append((form.validate(), form.data, form.errors) if sent else None)
                    app.do_teardown_request()
            assert states[0] == states[1] == states[2], name
            assert outcomes[0] == outcomes[1] == outcomes[2], name
            for one, other in zip(fields[1], fields[2]):
                assert one.label is not other.label and one.flags is not other.flags
                if isinstance(getattr(one, "_choices", None), list):
                    assert one._choices is not other._choices or one._choices is forms.TRUMP_CHOICES \
                        or name in ("DealForm", "CorrectionForm")  # the deal form sets its module lists itself
