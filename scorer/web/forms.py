"""WTForms forms, translating to the core's types and back (as ihatemoney's BillForm does).

What makes a deal possible is decided in one place, the core's
``check_deal``: ``DealForm.validate`` runs it and puts its message beside
the field it names.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import cached_property

import secrets
from decimal import Decimal
from typing import Any

from babel import support
from flask import current_app
from flask_babel import get_locale
from flask_babel.speaklater import LazyString  # type: ignore[import-untyped]
from flask_wtf import FlaskForm
from jinja2 import Undefined
from markupsafe import Markup, escape
from wtforms import BooleanField, DecimalField, Field, HiddenField, IntegerField, RadioField, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.fields.core import Flags, Label  # type: ignore[import-not-found]
from wtforms.i18n import messages_path  # type: ignore[import-not-found]
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Optional, StopValidation, ValidationError
from wtforms.widgets import CheckboxInput, HiddenInput  # type: ignore[import-not-found]

from ..core import caches

from ..core import (
    CHIP_VALUE_CENTS_MAX, CONTRACT_KINDS, CURRENCY_MAX, DEALS_AGREED_MAX, DEALS_AGREED_MIN, HOUSE_RULES, NAME_MAX,
    PROFILES, REASON_MAX, Card, Contract, ContractKind, Deal, HouseRules, ImpossibleDeal, Suit, TableState, Vole,
    CIRCLE_NAME_MAX, check_deal, check_names, check_note, check_players, implied, normalise, PlayError, play_from_codes,
)
from ..core.i18n import N_
from .i18n import gettext, request_language
from ..core.rules import Choice, HouseRule


class _Lazy(LazyString):  # type: ignore[misc]
    """A text made when it is shown, so in the reader's language. Escaped in a template as plain text is:
    Flask-Babel's own lazy string would be written out unescaped (``__html__``)."""

    def __html__(self) -> Markup:
        return escape(str(self))


def lazy_gettext(message: str, **variables: Any) -> Any:
    """Flask-Babel's ``lazy_gettext`` (the catalogue extracts it by this name), escaped as plain text:
    for the labels, help texts, choices and messages made when this module is loaded."""
    return _Lazy(gettext, message, **variables)


def _later(make: Callable[..., str], *args: Any) -> Any:
    """``make(*args)``, a text made in the reader's language (a rule's title, a choice's label), made when shown."""
    return _Lazy(make, *args)


WTFORMS_LOCALES_KEPT = 8


@caches.memo(f"{__name__}._wtforms_catalogue_of", WTFORMS_LOCALES_KEPT,
             "WTForms' own messages, by language (read from its package)")
def _wtforms_catalogue_of(locale: str) -> Any:
    """WTForms' own messages in ``locale``, read from disk once per language."""
    return support.Translations.load(messages_path(), [locale], domain="wtforms")


def _wtforms_catalogue() -> Any:
    """WTForms' own messages in the reader's language, read from disk once per language (Flask-WTF
    finds and parses the catalogue again on every request that builds a form)."""
    return _wtforms_catalogue_of(request_language() or str(get_locale()))  # the request's, looked up before its view


class _WTFormsMessages:
    """WTForms' translations object (``gettext``, ``ngettext``) on the catalogue kept per language."""

    def gettext(self, string: str) -> str:
        return str(_wtforms_catalogue().ugettext(string))

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return str(_wtforms_catalogue().ungettext(singular, plural, n))


class Form(FlaskForm):
    """Flask-WTF's form, with WTForms' messages translated from a catalogue kept per language, and its fields
    bound by copying the field bound the first time (see :func:`_bound`)."""

    class Meta(FlaskForm.Meta):  # type: ignore[misc,name-defined]
        def get_translations(self, form: Any) -> Any:
            if not current_app.config.get("WTF_I18N_ENABLED", True):
                return super().get_translations(form)
            return _MESSAGES

        def bind_field(self, form: Any, unbound_field: Any, options: dict[str, Any]) -> Any:
            return _bound(form, unbound_field, options)


FIELDS_KEPT = 1024
"""Fields bound once and copied for each form (a few per field of each form class, per language), per app."""
FIELDS: caches.PerApp[tuple[object, ...], Any] = caches.per_app(
    f"{__name__}.FIELDS", FIELDS_KEPT, "each form's field bound once, to be copied, by field, name, prefix and language")


def _bound(form: Any, unbound_field: Any, options: dict[str, Any]) -> Any:
    """``unbound_field`` bound to ``form``: a copy of the field it made the first time in this language, with the
    state WTForms gives each field its own made anew (its form and meta, label, flags, attributes, its choices'
    list). Binding a field runs its whole constructor (its validators checked, its flags read, its label made):
    seventeen of them were a tenth of a deal page. What a form does with a field afterwards (``process``: its data,
    its errors) is done on the copy as on a field made afresh; a test compares the two for every form. The CSRF
    field, made anew for each form, and a field bound outside a request are bound by WTForms."""
    language = request_language()
    if language is None or "csrf_impl" in unbound_field.kwargs:
        return unbound_field.bind(form=form, **options)
    key = (unbound_field, options.get("name"), options.get("prefix"), options.get("translations"), language)
    first_bound = FIELDS.here()
    first = first_bound.get(key)
    if first is None:
        # The first stays untouched (copied, never used), and bound to no form: kept for the life of the app,
        # it would keep the form of the request that bound it, and all that request sent.
        first_bound.put(key, unbound_field.bind(form=None, _meta=form.meta, **options))
        return unbound_field.bind(form=form, **options)
    field = object.__new__(type(first))
    own = field.__dict__
    own.update(first.__dict__)
    own["meta"] = form.meta
    own["_form"] = form
    own["label"] = Label(first.label.field_id, first.label.text)
    flags = own["flags"] = Flags()
    flags.__dict__.update(first.flags.__dict__)
    if first.render_kw is not None:
        own["render_kw"] = dict(first.render_kw)
    choices = own.get("_choices")
    if isinstance(choices, (list, dict)):
        own["_choices"] = type(choices)(choices)  # WTForms copies a field's declared choices into each field
    return field


_MESSAGES = _WTFormsMessages()


# --- fields drawn in Python: the same HTML as the macros and widgets, without their per-call cost ----------------


def segmented_field(field: Any, cls: str = "", only: Any = None) -> Markup:
    """A radio group as big segmented buttons (``segmented`` in templates/_macros.html, which calls this): a
    fieldset of plain radio inputs, no JavaScript. A group in error marks each of its inputs aria-invalid and
    describes it by the group's messages (ids ``field.id ~ "-error1"``...). ``only``: the values offered, if not
    all the field's choices. Built here rather than in the macro: the deal form draws a dozen of these on every
    deal page, and a Jinja macro's loop over choices cost several times this."""
    field_id = escape(field.id)
    errors = field.errors
    invalid = ""
    if errors:
        invalid = f' aria-invalid="true" aria-describedby="{_error_ids(field_id, errors)}"'
    data = field.data
    options = "".join(f'{head}{" checked" if value == data else ""}{invalid}{tail}'
                      for value, head, tail in _options(field, field_id, only))
    return Markup(f'\n<fieldset class="seg {escape(cls)}{" invalid" if errors else ""}" id="{field_id}">\n'
                  f'  <legend>{escape(field.label.text)}</legend>\n  <div class="opts">\n  {options}\n'
                  f'  </div>\n  {field_errors(field)}\n</fieldset>\n')


Option = tuple[Any, str, str]
"""A radio input drawn: its value as the field compares it with its data, the HTML before ``checked`` and after."""
OPTIONS_KEPT = 4096
OPTIONS: caches.PerApp[tuple[object, ...], tuple[object, list[Option]]] = caches.per_app(
    f"{__name__}.OPTIONS", OPTIONS_KEPT, "the radio inputs drawn for a list of choices, by list, field and language")
"""Per app, as their labels are in its own translations (kept for the whole process, an app with other translations
showed the first app's words)."""


def _options(field: Any, field_id: str, only: Any) -> list[Option]:
    """The radio inputs of ``field``'s choices (those in ``only``, if given), but for ``checked`` and its errors'
    attributes. Drawn once per list of choices, field, language and app, and kept (a list of choices is the same
    object from one form to the next: the module's suits and tricks, a table's names)."""
    choices = field.choices
    language = request_language()
    kept_here = OPTIONS.here() if language is not None and only is None and type(choices) is list else None
    key: tuple[object, ...] = ()
    if kept_here is not None:
        key = (id(choices), len(choices), field.name, field.id, field.coerce, language)
        kept = kept_here.get(key)
        if kept is not None and kept[0] is choices:  # the very list (an id is reused once its list is gone)
            return kept[1]
    name = escape(field.name)
    drawn: list[Option] = []
    for value, label, _checked, _kw in field.iter_choices():
        if only is None or value in only:
            drawn.append((field.coerce(value),
                          f'<label class="opt"><input type="radio" name="{name}" id="{field_id}-{len(drawn)}" '
                          f'value="{escape(value)}"', f'><span>{escape(label)}</span></label>'))
    if kept_here is not None:
        kept_here.put(key, (choices, drawn))
    return drawn


def field_errors(field: Any) -> Markup:
    """A field's error messages, each with its own id for the field's aria-describedby (``errors`` in
    templates/_macros.html, which calls this)."""
    field_id = escape(field.id)
    return Markup("".join(f'<p class="error" id="{field_id}-error{n}">{escape(e)}</p>'
                          for n, e in enumerate(field.errors, 1)))


def _error_ids(field_id: str, errors: Any) -> str:
    return " ".join(f"{field_id}-error{n}" for n in range(1, len(errors) + 1))


def error_ids(field: Any) -> Markup:
    """The ids of a field's error messages, for its aria-describedby (``error_ids`` in templates/_macros.html,
    which calls this; :func:`field_errors` gives the messages those ids)."""
    return Markup(_error_ids(escape(field.id), field.errors))


def toggle_field(field: Any) -> Markup:
    """A check box as a big toggle (``toggle`` in templates/_macros.html, which calls this), its input as WTForms'
    ``CheckboxInput`` draws it (attributes in name order); one drawn otherwise is left to WTForms."""
    field_id = escape(field.id)
    errors = field.errors
    aria = {"aria-invalid": "true", "aria-describedby": Markup(_error_ids(field_id, errors))} if errors else {}
    if type(field.widget) is not CheckboxInput or field.render_kw or field.flags.required or field.flags.disabled \
            or getattr(field, "_datalist", None) is not None:
        drawn = Markup(field(**aria))
    else:
        described = f' aria-describedby="{aria["aria-describedby"]}" aria-invalid="true"' if errors else ""
        checked = " checked" if getattr(field, "checked", field.data) else ""
        drawn = Markup(f'<input{described}{checked} id="{field_id}" name="{escape(field.name)}" type="checkbox" '
                       f'value="{escape(field._value())}">')
    return Markup(f'\n<div class="toggle{" invalid" if errors else ""}" id="{field_id}-box">\n'
                  f'  <label class="opt wide">{drawn}<span>{escape(field.label.text)}</span></label>\n'
                  f'  {field_errors(field)}\n</div>\n')


def hidden_field(field: Any) -> Markup:
    """A hidden input as WTForms' ``HiddenInput`` draws it (``field()``): its id, name, type and value, in that
    order. A field drawn otherwise (another widget, attributes of its own) is left to WTForms; a field the form
    lacks (its CSRF token, with CSRF off) is drawn as Jinja draws an undefined value."""
    if isinstance(field, Undefined):
        return Markup(escape(str(field)))
    if type(field.widget) is not HiddenInput or field.render_kw or field.flags.disabled \
            or getattr(field, "_datalist", None) is not None:
        return Markup(field())
    return Markup(f'<input id="{escape(field.id)}" name="{escape(field.name)}" type="hidden" '
                  f'value="{escape(field._value())}">')


def init_app(app: Any) -> None:
    """The field drawers, as template globals (templates/_macros.html and the deal form call them)."""
    app.add_template_global(segmented_field, "segmented_field")
    app.add_template_global(field_errors, "field_errors")
    app.add_template_global(error_ids, "field_error_ids")
    app.add_template_global(hidden_field, "hidden_field")
    app.add_template_global(toggle_field, "toggle_field")


SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥"}
SUIT_NAMES = {Suit.SPADES: lazy_gettext("Spades"), Suit.CLUBS: lazy_gettext("Clubs"), Suit.DIAMONDS: lazy_gettext("Diamonds"),
              Suit.HEARTS: lazy_gettext("Hearts")}
RANK_LETTERS = {"K": lazy_gettext("K"), "Q": lazy_gettext("Q")}
"""The King's and the Queen's letters as the reader writes them (R and D in French)."""


def _suit_label(suit: Suit) -> str:
    return f"{SUIT_SYMBOLS[suit]} {SUIT_NAMES[suit]}"


def _card_label(rank: str, suit: Suit) -> str:
    return f"{RANK_LETTERS[rank]}{SUIT_SYMBOLS[suit]}"


TRUMP_CHOICES = [SelectChoice(s.value, _later(_suit_label, s)) for s in Suit]
CALLED_CHOICES = [SelectChoice(f"{rank}{s.letter}", _later(_card_label, rank, s)) for rank in "KQ" for s in Suit]
TRICK_CHOICES = [SelectChoice(n, str(n)) for n in range(11)]
MATADOR_CHOICES = [SelectChoice(0, lazy_gettext("none"))] + [SelectChoice(n, str(n)) for n in range(3, 13)]
VOLE_CHOICES = [SelectChoice("none", lazy_gettext("no vole")),
                SelectChoice("undertaken", lazy_gettext("undertaken after premiers"))]
VOLE_BID_CHOICES = VOLE_CHOICES + [SelectChoice("announced", lazy_gettext("announced")),
                                   SelectChoice("revealed", lazy_gettext("announced, hand revealed"))]
"""The vole's choices, with the vole announced where the profile bids it."""


NAME_CHOICES_KEPT = 1024
NAME_CHOICES: caches.PerApp[tuple[str, ...], list[SelectChoice]] = caches.per_app(
    f"{__name__}.NAME_CHOICES", NAME_CHOICES_KEPT, "a table's four names as a form's choices, by the names")


def name_choices(players: tuple[str, ...]) -> list[SelectChoice]:
    """The players as choices (who was Hombre, her ally...): one list per table's names, shared by its forms
    (never changed: the radio inputs drawn from it are kept, see :func:`_options`)."""
    return NAME_CHOICES.here().made(players, lambda: [SelectChoice(p, p) for p in players])


NOT_A_CHOICE = N_("Tap one of the choices shown.")
"""The one message of a tampered choice (in English: translated where it is raised)."""
DRAW = "draw"


class TapField(RadioField):
    """Radio buttons whose only wrong answer is a tampered one: a single plain message for it."""

    def process_formdata(self, valuelist: list[str]) -> None:
        try:
            super().process_formdata(valuelist)
        except ValueError:
            raise ValueError(gettext(NOT_A_CHOICE)) from None

    def pre_validate(self, form: Any) -> None:
        choices: Any = self.choices
        plain = type(choices) is list and all(type(c) is SelectChoice for c in choices)
        if plain and not self.process_errors and self.validate_choice:  # type: ignore[attr-defined]
            # WTForms' own check, without making every choice a Choice first: one of them is the data.
            data, coerce = self.data, self.coerce  # type: ignore[attr-defined]
            if any(coerce(c.value) == data for c in choices):
                return
            raise ValidationError(gettext(NOT_A_CHOICE))
        try:
            super().pre_validate(form)
        except ValidationError:
            raise ValidationError(gettext(NOT_A_CHOICE)) from None


UNTAPPED = Optional(strip_whitespace=False)
"""A radio group that may be left untapped: nothing sent, or an empty value. WTForms' own ``Optional()`` takes
whitespace for nothing too, and then clears the group's error that it is no choice of the group's: the
whitespace stayed the field's data, and reading the deal from it failed (a 500). Whitespace is a tampered tap."""


class MoneyField(DecimalField):
    """A sum of money: a finite decimal number (NaN and infinities are refused, not crashed on)."""

    def process_formdata(self, valuelist: list[str]) -> None:
        super().process_formdata(valuelist)
        if self.data is not None and (not self.data.is_finite() or _exponent(self.data) < -2):
            self.data = None
            raise ValueError(gettext("Enter an amount in whole cents, such as 0.10, or leave it empty."))

    def pre_validate(self, form: Any) -> None:
        """A sum that could not be read says so once: its range is not checked as well. (An empty
        field is left to ``Optional``, which clears the error and accepts it.)"""
        raw = getattr(self, "raw_data", None)
        typed = raw[0] if raw else ""
        if getattr(self, "process_errors", None) and isinstance(typed, str) and typed.strip():
            raise StopValidation()


def _exponent(amount: Decimal) -> int:
    """A finite amount's exponent (-2 for 0.10); NaN and the infinities have none (0 is given)."""
    exponent = amount.as_tuple().exponent
    return exponent if isinstance(exponent, int) else 0


def _check_note(field: Field, text: str, what: str) -> None:
    """The core's check of free text kept in a log (:func:`scorer.core.check_note`: no control or invisible
    character), its refusal as the field's message, a sentence. ``what`` is in English, marked with ``N_``.
    Not on a text already refused (too long): the check reads every character, and a field may be sent megabytes."""
    if field.errors:
        return
    try:
        check_note(text, what)
    except ImpossibleDeal as error:
        raise ValidationError(error.message[:1].upper() + error.message[1:] + ".") from None


def _rule_field(rule_name: str) -> SelectField:
    rule = next(r for r in HOUSE_RULES if r.name == rule_name)
    choices = [SelectChoice("", lazy_gettext("as the profile says"))] + [
        SelectChoice(c.value, _later(_choice_label, c)) for c in rule.choices
    ]
    if rule_name == "favourite_suit":
        choices.append(SelectChoice(DRAW, lazy_gettext("draw one at random now (EB: drawn from the pack)")))
    return SelectField(_later(_title, rule), choices=choices, default="", description=_later(_help, rule))


def _choice_label(choice: Choice) -> str:
    """A house rule's value as the settings form offers it: its label and its sources' tags."""
    return f"{choice.label} ({choice.sources_text})"


def _title(rule: HouseRule) -> str:
    return rule.title


def _help(rule: HouseRule) -> str:
    return rule.help


class TableSettingsForm(Form):
    """The profile, house rules, length and chip value: set at the start, frozen by the first deal."""

    profile = TapField(lazy_gettext("Rule profile"), choices=[SelectChoice(p.name, p.title) for p in PROFILES.values()],
                       default="quadrille")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The profiles offered now, a profile registered after this module was loaded included.
        self.profile.choices = [SelectChoice(p.name, p.title) for p in PROFILES.values()]  # read here: the reader's language
    deals_agreed = IntegerField(lazy_gettext("Deals agreed (a multiple of 4)"), default=40,
                                validators=[InputRequired(), NumberRange(DEALS_AGREED_MIN, DEALS_AGREED_MAX)])
    chip_value = MoneyField(lazy_gettext("Value of one chip (optional)"), places=2,
                            validators=[Optional(), NumberRange(Decimal("0"), Decimal(CHIP_VALUE_CENTS_MAX) / 100)])
    currency = StringField(lazy_gettext("Currency"), default="", validators=[Optional(), Length(max=CURRENCY_MAX)])

    def validate_currency(self, field: StringField) -> None:
        if field.errors:  # too long: said once
            return
        if field.data and not field.data.strip().isprintable():
            raise ValidationError(gettext("Write the currency in letters, such as EUR."))
        _check_note(field, field.data.strip() if field.data else "", N_("the currency"))  # printable, yet shown as nothing (U+115F)

    def validate_deals_agreed(self, field: IntegerField) -> None:
        if field.data is not None and field.data % 4:
            raise ValidationError(gettext("an evening is a multiple of four deals, not %(deals)s", deals=field.data))

    def rule_fields(self) -> list[SelectField]:
        return [getattr(self, f"rule_{r.name}") for r in HOUSE_RULES]

    def in_page_order(self) -> list[Field]:
        """The fields as the page shows them (the error summary lists them so)."""
        return [self.profile, *self.rule_fields(), self.deals_agreed, self.chip_value, self.currency]

    def house_rules(self) -> HouseRules:
        changes = {r.name: getattr(self, f"rule_{r.name}").data for r in HOUSE_RULES if getattr(self, f"rule_{r.name}").data}
        if changes.get("favourite_suit") == DRAW:
            changes["favourite_suit"] = secrets.choice([s.value for s in Suit])
        return HouseRules.of(self.profile.data, changes)

    def deals(self) -> int:
        """The deals agreed, read once the form is valid (``InputRequired`` has then made sure of them)."""
        if self.deals_agreed.data is None:
            raise ValueError("the deals agreed are read before the form is validated")
        return self.deals_agreed.data

    def chip_value_cents(self) -> int | None:
        return None if self.chip_value.data is None else int((self.chip_value.data * 100).to_integral_value())

    def fill_from(self, rules: HouseRules, deals_agreed: int, chip_value_cents: int | None, currency: str) -> None:
        self.profile.data = rules.profile_name
        for name, value in rules.changes().items():
            getattr(self, f"rule_{name}").data = value
        self.deals_agreed.data = deals_agreed
        self.chip_value.data = None if chip_value_cents is None else Decimal(chip_value_cents) / 100
        self.currency.data = currency


for _rule in HOUSE_RULES:
    setattr(TableSettingsForm, f"rule_{_rule.name}", _rule_field(_rule.name))


BY_NAME = "by-name"
"""The new-table form's answer "someone else": the next step offers the four names typed."""
SEATS = [SelectChoice("1", lazy_gettext("The 1st player above")),
         SelectChoice(BY_NAME, lazy_gettext("Someone else: tap her name on the next page")),
         SelectChoice("2", lazy_gettext("The 2nd player above")), SelectChoice("3", lazy_gettext("The 3rd player above")),
         SelectChoice("4", lazy_gettext("The 4th player above"))]
"""The first dealer: a seat (the next step's name buttons send one), or BY_NAME for that step."""
SEATS_ASKED = ("1", BY_NAME)
"""The choices the first page shows; a seat's name is known only once the names are sent."""


def _normalised(text: object) -> object:
    """A name as the core keeps it (NFC, single spaces), before its length is checked."""
    return normalise(text) if isinstance(text, str) else text


class NewTableForm(TableSettingsForm):
    player_1 = StringField(lazy_gettext("1st player"), filters=[_normalised], validators=[DataRequired(lazy_gettext("Every player needs a name.")), Length(max=NAME_MAX)])
    player_2 = StringField(lazy_gettext("2nd player (on the 1st player's right)"), filters=[_normalised], validators=[DataRequired(lazy_gettext("Every player needs a name.")), Length(max=NAME_MAX)])
    player_3 = StringField(lazy_gettext("3rd player"), filters=[_normalised], validators=[DataRequired(lazy_gettext("Every player needs a name.")), Length(max=NAME_MAX)])
    player_4 = StringField(lazy_gettext("4th player"), filters=[_normalised], validators=[DataRequired(lazy_gettext("Every player needs a name.")), Length(max=NAME_MAX)])
    first_dealer = TapField(lazy_gettext("Who deals first?"), choices=SEATS, default="1")
    seats_asked = SEATS_ASKED

    def players(self) -> tuple[str, ...]:
        return tuple(normalise(f.data or "") for f in (self.player_1, self.player_2, self.player_3, self.player_4))

    def in_page_order(self) -> list[Field]:
        return [self.player_1, self.player_2, self.player_3, self.player_4, self.first_dealer, *super().in_page_order()]

    def validate_player_4(self, field: StringField) -> None:
        if all(self.players()):
            try:
                check_players(self.players())
            except ImpossibleDeal as error:
                raise ValidationError(error.message) from None

    @property
    def dealer_by_name(self) -> bool:
        """The dealer is to be chosen by name, on the step after this form."""
        return bool(self.first_dealer.data == BY_NAME)

    def first_dealer_name(self) -> str:
        if self.dealer_by_name:
            raise ValueError("the first dealer is read before she is chosen by name")
        return self.players()[int(self.first_dealer.data) - 1]

    def kept(self) -> list[tuple[str, str]]:
        """Every value sent, as it was typed, but the first dealer's: the dealer step sends them back hidden."""
        return [(f.name, value) for f in self if f.name not in ("csrf_token", "first_dealer")
                for value in (getattr(f, "raw_data", None) or []) if isinstance(value, str)]


class DealForm(Form):
    """One deal as entered at the table. The dealer is not asked: the deal passes to the right."""

    contract = HiddenField()
    number = HiddenField()
    previewed = HiddenField()
    once = HiddenField()
    """A one-time token: the same form sent twice records its deal once."""
    play = HiddenField()
    """The deal's play record, its cards' codes one after the other (a correction from Check the play)."""
    hombre = TapField(lazy_gettext("Hombre"), validators=[InputRequired(lazy_gettext("Who was Hombre?"))])
    trumps = TapField(lazy_gettext("Trumps"), choices=TRUMP_CHOICES, validators=[UNTAPPED])
    called = TapField(lazy_gettext("Called card"), choices=CALLED_CHOICES, validators=[UNTAPPED])
    ally = TapField(lazy_gettext("Ally (who held it)"), validators=[UNTAPPED])
    hombre_tricks = TapField(lazy_gettext("Tricks Hombre took"), choices=TRICK_CHOICES, coerce=int, default=6,
                               validators=[InputRequired(lazy_gettext("How many tricks did Hombre take?"))])
    ally_tricks = TapField(lazy_gettext("Tricks her ally took"), choices=TRICK_CHOICES, coerce=int, default=0,
                           validators=[UNTAPPED])
    matadors = TapField(lazy_gettext("Matadors held by Hombre's side"), coerce=int, default=0, choices=MATADOR_CHOICES)
    premiers = BooleanField(lazy_gettext("Premiers (the first six tricks straight off)"))
    vole = TapField(lazy_gettext("Vole"), default="none", validators=[UNTAPPED])
    giver = TapField(lazy_gettext("Who gave Hombre the King?"), validators=[UNTAPPED])
    favourite = TapField(lazy_gettext("Favourite suit this deal"), choices=TRUMP_CHOICES, validators=[UNTAPPED])
    spadille = TapField(lazy_gettext("Who takes the last codille's odd chips: Spadille's holder, or if she lost that "
                                     "codille, the highest trump of the other three?"), validators=[UNTAPPED])

    def __init__(self, *args: Any, players: tuple[str, ...], contract: Contract, dealer: str, state: TableState,
                 rules: HouseRules, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        names = name_choices(tuple(players))
        self.hombre.choices = names
        self.ally.choices = names
        self.giver.choices = names
        self.spadille.choices = names
        self.vole.choices = VOLE_BID_CHOICES if contract in rules.profile.vole_bids else VOLE_CHOICES
        # The module's lists themselves (WTForms copies a field's declared choices into each form): their radio
        # inputs are drawn once (see _options).
        self.trumps.choices = self.favourite.choices = TRUMP_CHOICES
        self.called.choices = CALLED_CHOICES
        self.hombre_tricks.choices = self.ally_tricks.choices = TRICK_CHOICES
        self.matadors.choices = MATADOR_CHOICES
        self.contract.data = contract.value
        self.the_contract = contract
        self.dealer = dealer
        self.state = state
        self.rules = rules
        if self.hombre.data is None:
            self.hombre.data = state.eldest(dealer)
        self.checked: Deal | None = None
        """The deal read from the form and checked against ``state`` and ``rules``, once :meth:`validate` passed."""

    @property
    def kind(self) -> ContractKind:
        return CONTRACT_KINDS[self.the_contract]

    @property
    def allied(self) -> bool:
        return self.kind.allied

    @cached_property
    def asks(self) -> frozenset[str]:
        """What the table's settlement system asks for this contract (asked once per form: the page reads it
        for each field it may show)."""
        return self.rules.profile.system.asks(self.the_contract, self.rules, self.state)

    @property
    def asks_trumps(self) -> bool:
        return "trumps" in self.asks

    @property
    def asks_called(self) -> bool:
        return "called" in self.asks

    @property
    def asks_giver(self) -> bool:
        return "giver" in self.asks

    @property
    def asks_matadors(self) -> bool:
        return "matadors" in self.asks

    @property
    def asks_favourite(self) -> bool:
        return "favourite" in self.asks

    @property
    def asks_spadille(self) -> bool:
        return "spadille" in self.asks

    @property
    def asks_vole(self) -> bool:
        return "vole" in self.asks

    @property
    def asks_premiers(self) -> bool:
        return "premiers" in self.asks

    def to_deal(self) -> Deal:
        """The deal entered, with what its tricks imply (:func:`scorer.core.implied`)."""
        allied = self.allied
        ally = self.ally.data if allied else None
        entered = Deal(
            dealer=self.dealer,
            hombre=self.hombre.data,
            contract=self.the_contract,
            trumps=Suit(self.trumps.data) if self.asks_trumps and self.trumps.data else None,
            called=Card.parse(self.called.data) if self.asks_called and self.called.data else None,
            ally=ally,
            hombre_tricks=self.hombre_tricks.data,
            ally_tricks=(self.ally_tricks.data or 0) if allied and ally is not None and ally != self.hombre.data else None,
            matadors=(self.matadors.data or 0) if self.asks_matadors else 0,
            premiers=bool(self.premiers.data) and self.asks_premiers,
            vole=Vole(self.vole.data) if self.asks_vole and self.vole.data else Vole.NONE,
            spadille=self.spadille.data if self.asks_spadille else None,
            giver=self.giver.data if self.asks_giver else None,
            favourite=Suit(self.favourite.data) if self.asks_favourite and self.favourite.data else None,
        )
        return replace(self._inferred(entered), play=self.play_record())

    def _inferred(self, entered: Deal) -> Deal:
        """``entered`` with what its tricks imply (:func:`scorer.core.implied`), only in the inputs this form asks for."""
        inferred = implied(entered, self.rules)
        return replace(entered, premiers=inferred.premiers if self.asks_premiers else entered.premiers,
                       vole=inferred.vole if self.asks_vole else entered.vole)

    def play_record(self) -> tuple[tuple[Card, ...], ...] | None:
        """The play carried by the form (:attr:`play`), in tricks; raises :class:`PlayError` if it cannot be."""
        return play_from_codes(self.play.data or "") if self.play.data else None

    def fill_from(self, deal: Deal) -> None:
        """Show a recorded deal in the form (the inverse of :meth:`to_deal`)."""
        self.hombre.data = deal.hombre
        self.trumps.data = deal.trumps.value if deal.trumps else None
        self.called.data = deal.called.code if deal.called else None
        self.ally.data = deal.ally
        self.hombre_tricks.data = deal.hombre_tricks
        self.ally_tricks.data = deal.ally_tricks or 0
        self.matadors.data = deal.matadors
        self.premiers.data = deal.premiers
        self.vole.data = deal.vole.value
        self.spadille.data = deal.spadille
        self.giver.data = deal.giver
        self.favourite.data = deal.favourite.value if deal.favourite else None
        self.play.data = "".join(card.code for trick in deal.play for card in trick) if deal.play else ""

    def validate(self, extra_validators: Any = None) -> bool:
        if not super().validate(extra_validators):
            return False
        try:
            deal = self.to_deal()
        except PlayError as error:
            self.hombre.errors.append(gettext("The play this correction carries cannot be: %(why)s", why=error.message))
            return False
        # Infer, don't refuse: ten tricks imply premiers and the vole undertaken; the form shows them ticked.
        if self.asks_premiers:
            self.premiers.data = deal.premiers
        if self.asks_vole:
            self.vole.data = deal.vole.value
        try:
            check_deal(deal, self.state, self.rules)
        except ImpossibleDeal as error:
            self._field_for(error.field).errors.append(error.message)
            return False
        self.checked = deal
        return True

    def _field_for(self, name: str | None) -> Field:
        """The form field where the core's message belongs."""
        return {
            "tricks": self.hombre_tricks, "ally": self.ally, "called": self.called, "premiers": self.premiers,
            "vole": self.vole, "matadors": self.matadors, "spadille": self.spadille, "hombre": self.hombre,
            "trumps": self.trumps, "giver": self.giver, "favourite": self.favourite,
        }.get(name or "", self.hombre)


DEAL_INPUTS = ("contract", "number", "once", "play", "hombre", "trumps", "called", "ally", "hombre_tricks",
               "ally_tricks", "matadors", "premiers", "vole", "giver", "favourite", "spadille")
"""Every input of :class:`DealForm` that the deal is read from (all but its CSRF token and the preview's
digest): a deal previewed is kept under these inputs as posted, and recorded from them unread
(:func:`scorer.table._record_previewed`). A test checks that it names every field of the form."""


class ConfirmForm(Form):
    """A form with nothing but its CSRF token, the deal number it confirms and its one-time token."""

    number = HiddenField()
    once = HiddenField()


def one_time_token() -> str:
    return secrets.token_urlsafe(16)


class CorrectionFields:
    """Who makes a correction, and why; and the length of the log it was made against."""

    by = TapField(lazy_gettext("Who is correcting?"), validators=[InputRequired(lazy_gettext("Say who is making this correction."))])
    reason = StringField(lazy_gettext("Why (optional)"), validators=[Optional(), Length(max=REASON_MAX)])

    def validate_reason(self, field: StringField) -> None:
        _check_note(field, field.data or "", N_("a reason"))
    log_length = HiddenField()
    once = HiddenField()
    """A one-time token: the same correction sent twice is written once."""


class CorrectionForm(CorrectionFields, DealForm):
    """A corrected version of a recorded deal: the deal form, plus who and why."""

    def __init__(self, *args: Any, players: tuple[str, ...], **kwargs: Any) -> None:
        super().__init__(*args, players=players, **kwargs)
        self.by.choices = [SelectChoice(p, p) for p in players]


class RestoreForm(CorrectionFields, Form):
    def __init__(self, *args: Any, players: tuple[str, ...], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.by.choices = [SelectChoice(p, p) for p in players]


MEMBER_FIELDS = 8
"""Names a new circle's form offers (four at least); more members join later."""


class CircleForm(TableSettingsForm):
    """A new circle: its name, its members (four or more) and the house rules its evenings start with."""

    name = StringField(lazy_gettext("Name of the circle"), filters=[_normalised],
                       validators=[DataRequired(lazy_gettext("Give the circle a name, such as Thursday club.")),
                                   Length(max=CIRCLE_NAME_MAX)])

    def validate_name(self, field: StringField) -> None:
        _check_note(field, field.data or "", N_("a circle's name"))

    def members(self) -> tuple[str, ...]:
        return tuple(n for n in (normalise(getattr(self, f"member_{i}").data or "") for i in range(1, MEMBER_FIELDS + 1)) if n)

    def member_fields(self) -> list[StringField]:
        return [getattr(self, f"member_{i}") for i in range(1, MEMBER_FIELDS + 1)]

    def in_page_order(self) -> list[Field]:
        return [self.name, *self.member_fields(), *super().in_page_order()]

    def validate_member_4(self, field: StringField) -> None:
        members = self.members()
        if len(members) < 4:
            raise ValidationError(gettext("A circle has four members at least."))
        try:
            check_names(members)
        except ImpossibleDeal as error:
            raise ValidationError(error.message) from None


for _i in range(1, MEMBER_FIELDS + 1):
    setattr(CircleForm, f"member_{_i}", StringField(
        lazy_gettext("Member %(n)s", n=_i) if _i <= 4 else lazy_gettext("Member %(n)s (optional)", n=_i),
        filters=[_normalised], validators=[Length(max=NAME_MAX)]))


class NextEveningForm(Form):
    """The next evening of a circle: the four who sit down, in the order of play, and the first dealer."""

    seat_1 = SelectField(lazy_gettext("1st player"))
    seat_2 = SelectField(lazy_gettext("2nd player (on the 1st player's right)"))
    seat_3 = SelectField(lazy_gettext("3rd player"))
    seat_4 = SelectField(lazy_gettext("4th player"))
    first_dealer = SelectField(lazy_gettext("Who deals first?"), choices=[
        SelectChoice("1", lazy_gettext("The 1st player")), SelectChoice("2", lazy_gettext("The 2nd player")),
        SelectChoice("3", lazy_gettext("The 3rd player")), SelectChoice("4", lazy_gettext("The 4th player"))], default="1")
    once = HiddenField()
    number = HiddenField()
    """The evening the page offered to start: if another phone started it meanwhile, nothing is started."""

    def __init__(self, *args: Any, members: tuple[str, ...], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for i, field in enumerate(self.seats()):
            field.choices = [SelectChoice(m, m) for m in members]
            if field.data is None and i < len(members):
                field.data = members[i]

    def seats(self) -> list[SelectField]:
        return [self.seat_1, self.seat_2, self.seat_3, self.seat_4]

    def seated(self) -> tuple[str, ...]:
        return tuple(str(f.data) for f in self.seats())

    def dealer(self) -> str:
        return self.seated()[int(self.first_dealer.data or "1") - 1]

    def evening(self) -> int | None:
        """The evening the page offered to start, or None (a page that did not say)."""
        text = (self.number.data or "").strip()
        return int(text) if text.isascii() and text.isdigit() and len(text) <= 6 else None  # "²" is a digit int() refuses

    def validate_seat_4(self, field: SelectField) -> None:
        if len(set(self.seated())) != 4:
            raise ValidationError(gettext("Four different members sit down."))


class AddMemberForm(Form):
    """A member joining a circle: she starts at 0."""

    new_member = StringField(lazy_gettext("New member"), filters=[_normalised],
                             validators=[DataRequired(lazy_gettext("Give the new member's name.")), Length(max=NAME_MAX)])


class RenameMemberForm(Form):
    """A member renamed: the circle calls her by the new name from then on; the old one stays taken."""

    member = SelectField(lazy_gettext("Member"))
    new_name = StringField(lazy_gettext("New name"), filters=[_normalised],
                           validators=[DataRequired(lazy_gettext("Give the member's new name.")), Length(max=NAME_MAX)])

    def __init__(self, *args: Any, members: tuple[str, ...], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.member.choices = [SelectChoice(m, m) for m in members]


class SettleForm(Form):
    """Record the settle-up shown: the circle's log length and the settle-up it was built on."""

    lines = HiddenField(validators=[DataRequired()])
    shown = HiddenField()
