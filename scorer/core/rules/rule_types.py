"""What a house rule is made of: its values (:class:`RuleValue`), its typed name (:class:`RuleKey`) and its
definition (:class:`HouseRule`). The rules themselves are data: their values in
:mod:`scorer.core.rules.rule_values`, their titles and help texts in :mod:`scorer.core.rules.house_rules`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Generic, TypeVar

from ..errors import UnknownHouseRule, Words
from ..i18n import N_, _
from ..model import Contract
from ..rule_names import name_rule, quoted, with_titles

_SPACES = re.compile(r"[ \t\n]+")
"""The breaks and indents of a help text written across lines (not the no-break spaces of its French)."""



class RuleValue(Enum):
    """A house rule's value. Each rule has its own Enum, so that a misspelt value, or a value of
    another rule, is a type error (mypy --strict's strict equality), not a branch never taken.

    A member is declared once, with everything said of it: ``FOUR_UNITS = "four_units", N_("4 units"), "P"``
    is its name as files, forms and the database write it (:attr:`value`), its label in English (marked for
    the catalogue) and the tags of the sources that give it ("" where none does)."""

    _value_: str
    english_label: str
    """The label in English, as the command line and the documents print it (marked for the catalogue)."""
    sources: str
    """Source tags that give this value, or "" where no source does."""

    def __new__(cls, value: str, english_label: str, sources: str) -> RuleValue:
        member = object.__new__(cls)
        member._value_ = value
        member.english_label = english_label
        member.sources = sources
        return member

    @property
    def value(self) -> str:  # a str for mypy, which reads the members' declarations as tuples
        """The value's name, as files, forms and the database write it."""
        return self._value_

    @property
    def label(self) -> str:
        """The label in the reader's language (English outside a translated request), any house rule it names
        by its title (:func:`with_titles`)."""
        return with_titles(_(self.english_label))

    @property
    def sources_text(self) -> str:
        """The sources for a reader: the tags (their remarks in the reader's language), or "no source"."""
        return _(self.sources) if self.sources else _("no source")


V = TypeVar("V", bound=RuleValue)


class RuleKey(str, Generic[V]):
    """A house rule's name, carrying the type of its values: ``rules[UNIT]`` is a :class:`Unit`.
    It is the name itself (a ``str``), so transfers and documents name rules by it."""

    values: type[V]

    def __new__(cls, name: str, values: type[V]) -> RuleKey[V]:
        key = str.__new__(cls, name)
        key.values = values
        return key


@dataclass(frozen=True)
class HouseRule:
    """One disputed point: its values (the key's Enum), the value of the ``quadrille`` profile, and what the
    sources say. Everything else (the choices a form offers, the documents' lines) is read from these."""

    key: RuleKey[Any]
    english_title: str
    point: int | None
    """The number of the point in the notes on the sources the rules were drawn from (outside the project), if
    it is one: kept for the test that holds the rules to those notes, and never printed."""
    default_value: RuleValue
    """The value in the ``quadrille`` profile (from P where P says)."""
    help_message: str
    """What the rule decides and what the sources say, citing their tags, as written in the source (the
    catalogue's message): :attr:`english_help` and :attr:`help` read it on one line."""
    concerns: frozenset[Contract] | None = None
    """The contracts the rule concerns: it applies only to a profile that plays one of them (a vole bid in
    Médiateur counts as :attr:`Contract.VOLE`); None for every contract."""
    _by_value: dict[str, RuleValue] = field(default_factory=dict, init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_value", {member.value: member for member in self.key.values})
        name_rule(self.name, self.english_title)
        if not isinstance(self.default_value, self.key.values):  # pragma: no cover - a definition error
            raise AssertionError(f"the default of {self.key} is not one of its values, {self.key.values.__name__}")

    @property
    def name(self) -> str:
        return str(self.key)

    @property
    def english_help(self) -> str:
        """The help text in English, on one line."""
        return " ".join(self.help_message.split())

    @property
    def default(self) -> str:
        """The name of the default value, as files and forms write it."""
        return self.default_value.value

    @property
    def choices(self) -> tuple[RuleValue, ...]:
        """The values the rule may take, in the order of their declaration."""
        return tuple(self._by_value.values())

    @property
    def values(self) -> tuple[str, ...]:
        return tuple(self._by_value)

    @property
    def title(self) -> str:
        """The title in the reader's language (English outside a translated request)."""
        return _(self.english_title)

    @property
    def quoted_title(self) -> str:
        """The title in quotes, in the reader's language (“Who antes”), for a sentence that names the rule."""
        return quoted(self.title)

    @property
    def help(self) -> str:
        """The help text in the reader's language, on one line (English outside a translated request); the rules
        and this rule's values it names by their codes are shown by their titles and labels (:func:`with_titles`)."""
        shown = _(self.help_message)
        return with_titles(self.english_help if shown is self.help_message else _SPACES.sub(" ", shown).strip(),
                           self._label_of)

    def _label_of(self, value: str) -> str | None:
        """The label of this rule's value called ``value``, if it has one (for :func:`with_titles`)."""
        member = self._by_value.get(value)
        return None if member is None else member.label

    def choice(self, value: str) -> RuleValue:
        """The value called ``value`` (as files and forms write it)."""
        try:
            return self._by_value[value]
        except (KeyError, TypeError):
            raise UnknownHouseRule(Words(N_("{value!r} is not a value of the house rule {rule} (choose one of: {allowed})"),
                                         value=value, rule=self.name, allowed=", ".join(self._by_value))) from None
