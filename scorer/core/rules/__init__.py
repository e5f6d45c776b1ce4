"""The house rules: every point on which the sources disagree, named, with its values, default, title, help text
and the sources it cites (:mod:`.sources`), as the settlement code reads them (``from .. import rules as R``).

Gathered here from the modules that hold them: every rule's typed name and values (``R.UNIT``,
``R.Unit.ONE_CHIP``: :mod:`scorer.core.rules.rule_values`), the rules' titles, defaults and help texts
(``R.HOUSE_RULES``: :mod:`scorer.core.rules.house_rules`) and the types they are made of
(:mod:`scorer.core.rules.rule_types`). This package adds :class:`RuleValues`, the values a table plays as a
settlement system reads them: ``rules[R.UNIT]`` is a :class:`~scorer.core.rules.rule_values.Unit`.

Profiles, and a table's :class:`~scorer.core.systems.profiles.HouseRules` (a profile and its values), sit above the
settlement systems, in :mod:`scorer.core.systems.profiles`; a system never sees more of a table than its values.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from ..errors import UnknownHouseRule, Words
from ..i18n import N_
from .house_rules import DEFAULT_PROFILE as DEFAULT_PROFILE
from .house_rules import HOUSE_RULES as HOUSE_RULES
from .house_rules import RULES_BY_NAME as RULES_BY_NAME
from .house_rules import house_rule as house_rule
from .house_rules import rule_of as rule_of
from .rule_types import HouseRule as HouseRule
from .rule_types import RuleKey as RuleKey
from .rule_types import RuleValue as RuleValue
from .rule_types import V
from .rule_values import *  # noqa: F403 - every rule's key and values: R.UNIT, R.Unit.ONE_CHIP

Choice = RuleValue
"""A value a house rule may take, with its label and sources (the name the settings form types one with)."""


@dataclass(frozen=True)
class RuleValues:
    """The value of every house rule a table plays, as a settlement system reads them.

    Look a value up with ``rules[SOLO_PREMIUM]``. Instances compare equal when they hold the same values
    taken from the same profile. A table's rules are a :class:`~scorer.core.systems.profiles.HouseRules`, which
    also knows its profile; this is all a settlement system is given of them.
    """

    profile_name: str
    """The profile the values were taken from, by name (its title and contracts are the profile's own)."""
    values: tuple[tuple[str, str], ...]
    """Every house rule's value, in the order of ``HOUSE_RULES``."""
    _index: dict[str, RuleValue] = field(default_factory=dict, init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        # settling looks rules up thousands of times: each value is made its Enum member once
        object.__setattr__(self, "_index", {name: RULES_BY_NAME[name].choice(value) for name, value in self.values})

    def __getitem__(self, key: RuleKey[V]) -> V:
        """The value of the rule ``key`` (one of the typed keys of :mod:`scorer.core.rules.rule_values`), as its Enum member."""
        try:
            return self._index[key]  # type: ignore[return-value]  # the key's type names its Enum (no cast: this runs ~15 times a deal)
        except KeyError:
            raise UnknownHouseRule(Words(N_("there is no house rule called {name!r}"), name=key)) from None

    def value_of(self, name: str) -> str:
        """The value of the rule called ``name``, as files and forms write it."""
        try:
            return self._index[name].value
        except KeyError:
            raise UnknownHouseRule(Words(N_("there is no house rule called {name!r}"), name=name)) from None

    def __iter__(self) -> Iterator[tuple[str, str]]:
        return iter(self.values)
