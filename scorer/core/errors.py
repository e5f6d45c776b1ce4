"""Narrow error types of the settlement core.

Every message is written for a player at the table, not for a programmer:
it says what is wrong with what was entered and, where it helps, what to
enter instead.

A message is kept as :class:`Words`: its English text (marked for the
catalogue with :func:`~scorer.core.i18n.N_`) and its values, worded in the
reader's language each time it is read (:attr:`ScorerError.message`,
``str(error)``). So an error found while a log is folded, and kept in a
ledger that every reader shares (a :class:`~scorer.core.ledger.log.Damage`),
reaches each reader in their own language.
"""

from __future__ import annotations

from dataclasses import dataclass

from .i18n import N_, _, filled, ngettext


def _worded(text: str) -> str:
    """``_(text)``; the English if the translation installed cannot work here (a web request's
    translation, still installed in a test's thread, read after its request has ended)."""
    try:
        return _(text)
    except RuntimeError:
        return text


class Lazy:
    """Something worded only when it is read (``str()``), in the current reader's language."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Later(Lazy):
    """An attribute read when the sentence holding it is worded: ``Later(card, "name")`` is the
    card's name in the reader's language, whatever language was current when it was made."""

    of: object
    attribute: str

    def __str__(self) -> str:
        return str(getattr(self.of, self.attribute))


@dataclass(frozen=True, slots=True)
class Joined(Lazy):
    """Values worded when read and joined by ``between`` (", ")."""

    items: tuple[object, ...]
    between: str = ", "

    def __str__(self) -> str:
        return self.between.join(str(item) for item in self.items)


@dataclass(frozen=True, slots=True)
class LowerFirst(Lazy):
    """Words begun with a small letter when read, as a label inside a sentence is ("pool 12")."""

    words: Lazy

    def __str__(self) -> str:
        text = str(self.words)
        return text[:1].lower() + text[1:]


@dataclass(frozen=True, slots=True)
class Counted(Lazy):
    """A count worded when read, in the form of the reader's language for it: ``Counted("{n} evening",
    "{n} evenings", 1)`` is "1 evening", "1 soirée"; 0 is "0 evenings", "0 soirée" (extracted for the
    catalogue as ``ngettext`` is: scripts/i18n.py)."""

    singular: str
    plural: str
    n: int
    shown: str | None = None
    """The figure as written, where it is not ``n`` itself ("−26,7", counted as ``n`` counts in the reader's
    language)."""

    def __str__(self) -> str:
        try:
            form = ngettext(self.singular, self.plural, self.n)
        except RuntimeError:  # as _worded: a request's translation read after its request
            form = self.singular if self.n == 1 else self.plural
        return form.format(n=self.n if self.shown is None else self.shown)


class Words(Lazy):
    """A sentence kept language-neutral: its English ``text`` with ``{placeholders}`` and their
    ``values``; ``str()`` words it in the current reader's language. A value that is itself
    :class:`Lazy` (:class:`Words`, :class:`Later`, :class:`Joined`) is worded too, so a sentence
    can hold another."""

    __slots__ = ("text", "values")

    def __init__(self, text: str, /, **values: object) -> None:
        self.text = text
        self.values = values

    def __str__(self) -> str:
        values = {k: str(v) if isinstance(v, Lazy) else v for k, v in self.values.items()}
        return filled(_worded(self.text), values)

    def __repr__(self) -> str:
        return f"Words({self.text!r}, **{self.values!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Words) and (self.text, self.values) == (other.text, other.values)

    def __hash__(self) -> int:
        return hash(self.text)


Said = str | Words
"""A message: plain text, or :class:`Words` worded when read."""


def said_of(error: BaseException) -> Said:
    """What ``error`` says, still unworded if it is kept as :class:`Words`."""
    if isinstance(error, ScorerError):
        return error.said
    if len(error.args) == 1 and isinstance(error.args[0], Words):
        return error.args[0]
    return str(error)


class ScorerError(Exception):
    """Base class of every error the settlement core raises on purpose."""

    def __init__(self, message: Said) -> None:
        super().__init__(message)
        self.said = message

    @property
    def message(self) -> str:
        """The message in the current reader's language."""
        return str(self.said)

    def __str__(self) -> str:
        return str(self.said)


class ImpossibleDeal(ScorerError):
    """A deal that cannot have happened, or that the house rules forbid.

    ``field`` names the deal input at fault (``"tricks"``, ``"ally"``,
    ``"called"``...) so that a form can show the message beside it;
    it is ``None`` when no single input is to blame.
    """

    def __init__(self, message: Said, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class DealError(ScorerError):
    """An impossible deal found while replaying an evening, with its number."""

    def __init__(self, number: int, cause: ImpossibleDeal) -> None:
        super().__init__(Words(N_("deal {number}: {message}"), number=number, message=cause.said))
        self.number = number
        self.cause = cause

    @property
    def field(self) -> str | None:
        return self.cause.field


class UnknownHouseRule(ScorerError):
    """A house rule, a value of one, or a rule profile that does not exist."""


class EveningFormatError(ScorerError):
    """An evening file that is not valid ``quadrille-evening/1`` JSON.

    ``deal`` is the 1-based number of the deal at fault, if any.
    """

    def __init__(self, message: Said, deal: int | None = None) -> None:
        super().__init__(Words(N_("deal {number}: {message}"), number=deal, message=message)
                         if deal is not None else message)
        self.deal = deal
