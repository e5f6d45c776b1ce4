"""Narrow error types of the settlement core.

Every message is written for a player at the table, not for a programmer:
it says what is wrong with what was entered and, where it helps, what to
enter instead.
"""

from __future__ import annotations


class ScorerError(Exception):
    """Base class of every error the settlement core raises on purpose."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class ImpossibleDeal(ScorerError):
    """A deal that cannot have happened, or that the house rules forbid.

    ``field`` names the deal input at fault (``"tricks"``, ``"ally"``,
    ``"called"``...) so that a form can show the message beside it;
    it is ``None`` when no single input is to blame.
    """

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class DealError(ScorerError):
    """An impossible deal found while replaying an evening, with its number."""

    def __init__(self, number: int, cause: ImpossibleDeal) -> None:
        super().__init__(f"deal {number}: {cause.message}")
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

    def __init__(self, message: str, deal: int | None = None) -> None:
        super().__init__(f"deal {deal}: {message}" if deal is not None else message)
        self.deal = deal
