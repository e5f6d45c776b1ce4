"""WTForms forms, translating to the core's types and back (as ihatemoney's BillForm does).

What makes a deal possible is decided in one place, the core's
``check_deal``: ``DealForm.validate`` runs it and puts its message beside
the field it names.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cached_property

import secrets
from decimal import Decimal
from typing import Any


from flask_babel.speaklater import LazyString  # type: ignore[import-untyped]
from flask_babel import ngettext
from flask_wtf import FlaskForm
from markupsafe import Markup, escape
from wtforms import BooleanField, DecimalField, Field, HiddenField, IntegerField, RadioField, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Optional, StopValidation, ValidationError


from ..core import (
    CHIP_VALUE_CENTS_MAX, CONTRACT_KINDS, CURRENCY_MAX, DEALS_AGREED_MAX, DEALS_AGREED_MIN, HOUSE_RULES, NAME_MAX,
    PROFILES, REASON_MAX, Card, Contract, Deal, HouseRules, ImpossibleDeal, Suit, TableState, Vole,
    CIRCLE_NAME_MAX, PREMIERS_TRICKS, check_deal, check_names, check_note, check_players, implied, normalise, own_king_allowed, PlayError,
    play_from_codes,
)
from ..core.i18n import N_
from .i18n import gettext, language
from ..core import rules as R
from ..core.rules import Choice


class _Lazy(LazyString):  # type: ignore[misc]
    """A text made when it is shown, so in the reader's language. Escaped in a template as plain text is:
    Flask-Babel's own lazy string would be written out unescaped (``__html__``)."""

    def __html__(self) -> Markup:
        return escape(str(self))


def lazy_gettext(message: str, **variables: Any) -> Any:
    """Flask-Babel's ``lazy_gettext`` (the catalogue extracts it by this name), escaped as plain text:
    for the labels, help texts, choices and messages made when this module is loaded."""
    return _Lazy(gettext, message, **variables)


class Form(FlaskForm):
    """Flask-WTF's form without a CSRF check of its own: CSRFProtect checks every POST before its view (scorer/web
    __init__.py), and the templates write its token (``csrf_field`` in templates/_macros.html). A form sent with a
    lost token is then shown again by :func:`scorer.web.common.csrf_lost`, with a fresh token."""

    class Meta(FlaskForm.Meta):  # type: ignore[misc,name-defined]
        csrf = False

        @property
        def locales(self) -> list[str]:
            """WTForms' own messages in the reader's language: WTForms keeps its catalogue of each language once
            (``cache_translations``), where Flask-WTF's translation (off: ``WTF_I18N_ENABLED``) read it from disk
            on every request (0.3 ms of a record's 2, ``bench/record_inprocess.py``)."""
            return [language()]


NO_LABEL = ""
"""A hidden input's label: none shown (WTForms would make one from the field's name and translate it)."""


SUIT_NAMES = {Suit.SPADES: lazy_gettext("Spades"), Suit.CLUBS: lazy_gettext("Clubs"), Suit.DIAMONDS: lazy_gettext("Diamonds"),
              Suit.HEARTS: lazy_gettext("Hearts")}


def _suit_label(suit: Suit) -> str:
    return f"{suit.symbol} {SUIT_NAMES[suit]}"


def _card_label(rank: str, suit: Suit) -> str:
    """A called card as the form offers it: its face, as every page shows a card ("K♥", "R♥" in French)."""
    return Card(rank, suit).face


TRUMP_CHOICES = [SelectChoice(s.value, _Lazy(_suit_label, s)) for s in Suit]
CALLED_CHOICES = [SelectChoice(f"{rank}{s.letter}", _Lazy(_card_label, rank, s)) for rank in "KQ" for s in Suit]
TRICK_CHOICES = [SelectChoice(n, str(n)) for n in range(11)]
MATADOR_CHOICES = [SelectChoice(0, lazy_gettext("none"))] + [SelectChoice(n, str(n)) for n in range(3, 13)]
VOLE_CHOICES = [SelectChoice("none", lazy_gettext("no vole")),
                SelectChoice("undertaken", lazy_gettext("undertaken after premiers"))]
VOLE_BID_CHOICES = VOLE_CHOICES + [SelectChoice("announced", lazy_gettext("announced")),
                                   SelectChoice("revealed", lazy_gettext("announced, hand revealed"))]
"""The vole's choices, with the vole announced where the profile bids it."""


def name_choices(players: tuple[str, ...]) -> list[SelectChoice]:
    """The players as choices (who was Hombre, her ally...)."""
    return [SelectChoice(p, p) for p in players]


OWN_KING = " own-king"
"""The ally group's choice "Hombre called a King she held herself" (P: "whether by mistake or as a bluff"; a
secret solo): a value no player's name can be, as a name has no space around it (:func:`scorer.core.normalise`)."""
OWN_KING_LABEL = lazy_gettext("Hombre called a King she held herself")


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
        """The tap is one of the choices (WTForms' own check builds every choice's rendering on each POST: about
        half of a deal form's validation)."""
        if self.errors or self.data is None:
            return  # nothing tapped: the group's validators say whether it may be left so
        if not any(self.data == self.coerce(choice.value) for choice in self.choices or ()):
            raise ValidationError(gettext(NOT_A_CHOICE))


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


def _rule_field(rule_name: str, default: str = "") -> SelectField:
    """A house rule's field: "as the profile says" (``""``) by default, or the value ``default``."""
    rule = next(r for r in HOUSE_RULES if r.name == rule_name)
    choices = [SelectChoice("", lazy_gettext("as the profile says"))] + [
        SelectChoice(c.value, _Lazy(_choice_label, c)) for c in rule.choices
    ]
    if rule_name == "favourite_suit":
        choices.append(SelectChoice(DRAW, lazy_gettext("draw one at random now (EB: drawn from the pack)")))
    return SelectField(_Lazy(getattr, rule, "title"), choices=choices, default=default,
                       description=_Lazy(getattr, rule, "help"))


def _choice_label(choice: Choice) -> str:
    """A house rule's value as the settings form offers it: its label and its sources' tags."""
    return f"{choice.label} ({choice.sources_text})"


class TableSettingsForm(Form):
    """The profile, house rules, length and chip value: set at the start, frozen by the first deal."""

    profile = TapField(lazy_gettext("Rule profile"), default="quadrille")

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

    def rule_profiles(self) -> dict[str, tuple[str, ...]]:
        """Each house rule's field (by its name) and the profiles it applies to (the core's ``Profile.applies``: the
        profile's settlement system reads it, and the profile plays a contract it concerns). The page lists a rule
        only under a profile it applies to: its style hides the others once a profile is chosen (CSS, no JavaScript).
        """
        return {f"rule_{r.name}": tuple(p.name for p in PROFILES.values() if p.applies(r.name)) for r in HOUSE_RULES}

    def in_page_order(self) -> list[Field]:
        """The fields as the page shows them (the error summary lists them so)."""
        return [self.profile, *self.rule_fields(), self.deals_agreed, self.chip_value, self.currency]

    def settings(self) -> tuple[HouseRules, int, int | None, str]:
        """The house rules, the deals agreed, a chip's value in cents and the currency, read once the form is valid
        (``InputRequired`` has then made sure of the deals agreed). Of the house rules, only the values chosen for
        the rules that apply to the profile chosen are kept: not one hidden under it (chosen under another profile
        before the profile was changed)."""
        profile = PROFILES.get(self.profile.data or "")
        changes = {r.name: getattr(self, f"rule_{r.name}").data for r in HOUSE_RULES
                   if getattr(self, f"rule_{r.name}").data and (profile is None or profile.applies(r.name))}
        if changes.get("favourite_suit") == DRAW:
            changes["favourite_suit"] = secrets.choice([s.value for s in Suit])
        if self.deals_agreed.data is None:
            raise ValueError("the deals agreed are read before the form is validated")
        cents = None if self.chip_value.data is None else int((self.chip_value.data * 100).to_integral_value())
        rules = HouseRules.of(self.profile.data, changes)
        return rules, self.deals_agreed.data, cents, (self.currency.data or "").strip()

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
         SelectChoice(BY_NAME, lazy_gettext("Someone else: tap the name on the next page")),
         SelectChoice("2", lazy_gettext("The 2nd player above")), SelectChoice("3", lazy_gettext("The 3rd player above")),
         SelectChoice("4", lazy_gettext("The 4th player above"))]
"""The first dealer: a seat (the next step's name buttons send one), or BY_NAME for that step."""
SEATS_ASKED = ("1", BY_NAME)
"""The choices the first page shows; a seat's name is known only once the names are sent."""


def _normalised(text: object) -> object:
    """A name as the core keeps it (NFC, single spaces), before its length is checked."""
    return normalise(text) if isinstance(text, str) else text


def _name_field(label: Any, required: Any, most: int = NAME_MAX) -> StringField:
    """A name typed in (a player's, a member's, a circle's), kept as the core keeps it: required, at most ``most``."""
    return StringField(label, filters=[_normalised], validators=[DataRequired(required), Length(max=most)])


SEAT_LABELS = (lazy_gettext("1st player"), lazy_gettext("2nd player (on the 1st player's right)"),
               lazy_gettext("3rd player"), lazy_gettext("4th player"))
"""The four seats in the order of play, as a new table's and a circle's next evening's forms name them."""
EVERY_PLAYER = lazy_gettext("Every player needs a name.")


class NewTableForm(TableSettingsForm):
    player_1, player_2, player_3, player_4 = (_name_field(label, EVERY_PLAYER) for label in SEAT_LABELS)
    first_dealer = TapField(lazy_gettext("Who deals first?"), choices=SEATS, default="1")
    seats_asked = SEATS_ASKED

    def player_fields(self) -> list[StringField]:
        return [self.player_1, self.player_2, self.player_3, self.player_4]

    def players(self) -> tuple[str, ...]:
        return tuple(normalise(f.data or "") for f in self.player_fields())

    def in_page_order(self) -> list[Field]:
        return [*self.player_fields(), self.first_dealer, *super().in_page_order()]

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

    number = HiddenField(NO_LABEL)
    previewed = HiddenField(NO_LABEL)
    once = HiddenField(NO_LABEL)
    """A one-time token: the same form sent twice records its deal once."""
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
                 rules: HouseRules, **kwargs: Any) -> None:  # more than 5: WTForms' own arguments, and the deal's table
        super().__init__(*args, **kwargs)
        names = name_choices(tuple(players))
        self.hombre.choices = self.giver.choices = self.spadille.choices = names
        self.offers_own_king = own_king_allowed(contract, rules)
        """The ally group offers "Hombre called a King she held herself" (not in casco, nor where own_king forbids it)."""
        # who held the called King: the four names, then (where offered) Hombre's own King as a choice of its own
        self.ally.choices = [*names, SelectChoice(OWN_KING, OWN_KING_LABEL)] if self.offers_own_king else names
        self.vole.choices = VOLE_BID_CHOICES if contract in rules.profile.vole_bids else VOLE_CHOICES
        self.the_contract = contract
        """The contract, from the form's URL."""
        self.dealer = dealer
        self.state = state
        self.rules = rules
        if self.hombre.data is None:
            self.hombre.data = state.eldest(dealer)
        self.checked: Deal | None = None
        """The deal read from the form and checked against ``state`` and ``rules``, once :meth:`validate` passed."""

    @property
    def allied(self) -> bool:
        return CONTRACT_KINDS[self.the_contract].allied

    @cached_property
    def asks(self) -> frozenset[str]:
        """What the table's settlement system asks for this contract (asked once per form: the page reads it
        for each field it may show)."""
        return self.rules.profile.system.asks(self.the_contract, self.rules, self.state)

    @property
    def own_king(self) -> bool:
        """"Hombre called a King she held herself" was tapped in the ally group."""
        return self.allied and self.offers_own_king and self.ally.data == OWN_KING

    def validate_ally(self, field: TapField) -> None:
        """Hombre's own name tapped as her ally, where the group offers her own King as a choice of its own: a slip
        or a secret solo, and which one the form cannot tell (the ally's tricks would vanish in a secret solo)."""
        if not (self.allied and self.offers_own_king and field.data is not None and field.data == self.hombre.data):
            return
        tricks = self.ally_tricks.data or 0
        if tricks:
            raise ValidationError(ngettext(
                "%(name)s is Hombre and was also tapped as ally with %(num)d trick: tap “%(own)s” for a secret "
                "solo, or tap who held the called King.",
                "%(name)s is Hombre and was also tapped as ally with %(num)d tricks: tap “%(own)s” for a secret "
                "solo, or tap who held the called King.", tricks, name=field.data, own=OWN_KING_LABEL))
        raise ValidationError(gettext(
            "%(name)s is Hombre and was also tapped as ally: tap “%(own)s” for a secret solo, or tap who held the "
            "called King.", name=field.data, own=OWN_KING_LABEL))

    def to_deal(self) -> Deal:
        """The deal entered, with what its tricks imply (:func:`scorer.core.implied`)."""
        ally = (self.hombre.data if self.own_king else self.ally.data) if self.allied else None
        entered = Deal(
            dealer=self.dealer,
            hombre=self.hombre.data,
            contract=self.the_contract,
            trumps=self._suit(self.trumps, "trumps" in self.asks),
            called=Card.parse(self.called.data) if "called" in self.asks and self.called.data else None,
            ally=ally,
            hombre_tricks=self.hombre_tricks.data,
            ally_tricks=self._ally_tricks(ally),
            matadors=(self.matadors.data or 0) if "matadors" in self.asks else 0,
            premiers=bool(self.premiers.data) and "premiers" in self.asks,
            vole=Vole(self.vole.data) if "vole" in self.asks and self.vole.data else Vole.NONE,
            spadille=self.spadille.data if "spadille" in self.asks else None,
            giver=self.giver.data if "giver" in self.asks else None,
            favourite=self._suit(self.favourite, "favourite" in self.asks),
        )
        return self._with_play(self._inferred(entered))

    def _with_play(self, deal: Deal) -> Deal:
        """The deal with its play record: a new deal is entered without one (a correction may carry one)."""
        return deal

    @staticmethod
    def _suit(field: Field, asked: bool) -> Suit | None:
        """The suit tapped in ``field``, if the contract asks for it and one was tapped."""
        return Suit(field.data) if asked and field.data else None

    def _ally_tricks(self, ally: str | None) -> int | None:
        """The tricks the ally took, when the contract is allied and a player is tapped as her ally; ignored only
        when "Hombre called a King she held herself" was (Hombre's own name tapped keeps them: refused if any)."""
        return (self.ally_tricks.data or 0) if self.allied and ally is not None and not self.own_king else None

    def _inferred(self, entered: Deal) -> Deal:
        """``entered`` with what its tricks imply (:func:`scorer.core.implied`), only in the inputs this form asks for."""
        inferred = implied(entered, self.rules)
        return replace(entered, premiers=inferred.premiers if "premiers" in self.asks else entered.premiers,
                       vole=inferred.vole if "vole" in self.asks else entered.vole)

    def fill_from(self, deal: Deal) -> None:
        """Show a recorded deal in the form (the inverse of :meth:`to_deal`)."""
        self.hombre.data = deal.hombre
        self.trumps.data = deal.trumps.value if deal.trumps else None
        self.called.data = deal.called.code if deal.called else None
        self.ally.data = OWN_KING if deal.is_secret_solo and self.offers_own_king else deal.ally
        self.hombre_tricks.data = deal.hombre_tricks
        self.ally_tricks.data = deal.ally_tricks or 0
        self.matadors.data = deal.matadors
        self.premiers.data = deal.premiers
        self.vole.data = deal.vole.value
        self.spadille.data = deal.spadille
        self.giver.data = deal.giver
        self.favourite.data = deal.favourite.value if deal.favourite else None

    def validate(self, extra_validators: Any = None) -> bool:
        if not super().validate(extra_validators):
            return False
        try:
            deal = self.to_deal()
        except PlayError as error:
            self.hombre.errors.append(gettext("The play this correction carries cannot be: %(why)s", why=error.message))
            return False
        # Infer, don't refuse: ten tricks imply premiers and the vole undertaken; the form shows them ticked.
        if "premiers" in self.asks:
            self.premiers.data = deal.premiers
        if "vole" in self.asks:
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


class ConfirmForm(Form):
    """A form with nothing but its CSRF token, the deal number it confirms and its one-time token (and, for an
    evening a circle's settlement covers, the settlements it was shown against: :attr:`CorrectionFields.settled`)."""

    number = HiddenField(NO_LABEL)
    once = HiddenField(NO_LABEL)
    settled = HiddenField(NO_LABEL)


def one_time_token() -> str:
    return secrets.token_urlsafe(16)


class CorrectionFields:
    """Who makes a correction, and why; and the length of the log it was made against."""

    by = TapField(lazy_gettext("Who is correcting?"), validators=[InputRequired(lazy_gettext("Say who is making this correction."))])
    reason = StringField(lazy_gettext("Why (optional)"), validators=[Optional(), Length(max=REASON_MAX)])

    def validate_reason(self, field: StringField) -> None:
        _check_note(field, field.data or "", N_("a reason"))
    log_length = HiddenField(NO_LABEL)
    once = HiddenField(NO_LABEL)
    """A one-time token: the same correction sent twice is written once."""
    settled = HiddenField(NO_LABEL)
    """For an evening a circle's settlement covers: the circle's settlements as the page showed them (the store's
    ``Circle.settled_mark``); the write path refuses the change if they are no longer those."""


class CorrectionForm(CorrectionFields, DealForm):
    """A corrected version of a recorded deal: the deal form, plus who and why, and the deal's play record."""

    play = HiddenField(NO_LABEL)
    """The deal's play record, its cards' codes one after the other (a correction from Check the play)."""
    revealed_ally = HiddenField(NO_LABEL)
    """With a play record of six tricks whose called King was not played: who revealed herself as its holder at
    the claim (P), as Check the play was told."""

    def __init__(self, *args: Any, players: tuple[str, ...], **kwargs: Any) -> None:
        super().__init__(*args, players=players, **kwargs)
        self.by.choices = name_choices(players)

    def _with_play(self, deal: Deal) -> Deal:
        record = play_from_codes(self.play.data) if self.play.data else None  # raises PlayError if it cannot be
        return replace(deal, play=record, revealed_ally=self._revealed(deal, record))

    def _revealed(self, entered: Deal, record: tuple[tuple[Card, ...], ...] | None) -> str | None:
        """Who revealed herself as the called King's holder at a claim after six tricks, the King unplayed (P): as
        Check the play was told (the hidden input, set by the page: a name not at the table is none), or else the
        ally tapped, who answers the same question."""
        if record is None or len(record) != PREMIERS_TRICKS or entered.called is None:
            return None
        named = self.revealed_ally.data
        if named in self.state.players:
            return str(named)
        unplayed = all(entered.called not in trick for trick in record)
        return entered.ally if unplayed and entered.kind.allied else None

    def fill_from(self, deal: Deal) -> None:
        super().fill_from(deal)
        self.play.data = "".join(card.code for trick in deal.play for card in trick) if deal.play else ""
        self.revealed_ally.data = deal.revealed_ally or ""


class RestoreForm(CorrectionFields, Form):
    def __init__(self, *args: Any, players: tuple[str, ...], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.by.choices = name_choices(players)


MEMBER_FIELDS = 8
"""Names a new circle's form offers (four at least); more members join later."""


class CircleForm(TableSettingsForm):
    """A new circle: its name, its members (four or more) and the house rules its evenings start with."""

    name = _name_field(lazy_gettext("Name of the circle"),
                       lazy_gettext("Give the circle a name, such as Thursday club."), CIRCLE_NAME_MAX)

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

CIRCLE_POOL_AT_END = R.PoolAtEnd.CARRY_FORWARD.value
"""A new circle's ``pool_at_end``: its pool carried from evening to evening, as the home page and the circle's name
promise, unless its members choose otherwise (a table alone keeps its profile's default)."""
setattr(CircleForm, "rule_pool_at_end", _rule_field("pool_at_end", default=CIRCLE_POOL_AT_END))


class NextEveningForm(Form):
    """The next evening of a circle: the four who sit down, in the order of play, and the first dealer."""

    seat_1, seat_2, seat_3, seat_4 = (SelectField(label) for label in SEAT_LABELS)
    first_dealer = SelectField(lazy_gettext("Who deals first?"), choices=[
        SelectChoice("1", lazy_gettext("The 1st player")), SelectChoice("2", lazy_gettext("The 2nd player")),
        SelectChoice("3", lazy_gettext("The 3rd player")), SelectChoice("4", lazy_gettext("The 4th player"))], default="1")
    once = HiddenField(NO_LABEL)
    number = HiddenField(NO_LABEL)
    """The evening the page offered to start: if another phone started it meanwhile, nothing is started."""

    def __init__(self, *args: Any, members: tuple[str, ...], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for i, field in enumerate(self.seats()):
            field.choices = name_choices(members)
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

    new_member = _name_field(lazy_gettext("New member"), lazy_gettext("Give the new member's name."))


class RenameMemberForm(Form):
    """A member renamed: the circle calls her by the new name from then on; the old one stays taken."""

    member = SelectField(lazy_gettext("Member"))
    new_name = _name_field(lazy_gettext("New name"), lazy_gettext("Give the member's new name."))

    def __init__(self, *args: Any, members: tuple[str, ...], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.member.choices = name_choices(members)


class SettleForm(Form):
    """Record the settle-up shown: the circle's log length and the settle-up it was built on."""

    lines = HiddenField(validators=[DataRequired()])
    shown = HiddenField(NO_LABEL)
    confirm = HiddenField(NO_LABEL)
    """``yes`` on the second tap (the page that shows what will be recorded): only then is it recorded."""


class TakeBackForm(Form):
    """Take back the last settlement standing, with a reason."""

    settlement = HiddenField(validators=[DataRequired()])
    lines = HiddenField(validators=[DataRequired()])
    reason = StringField(lazy_gettext("Why is it taken back?"),
                         validators=[InputRequired(lazy_gettext("Say why: the reason is kept with the settlement.")),
                                     Length(max=REASON_MAX)])

    def validate_reason(self, field: StringField) -> None:
        _check_note(field, field.data or "", N_("a reason"))
