"""Who holds chips at a table: the four seats, each a player known by her name, and the pots chips lie in
between deals (:class:`Pot`), whose names no player may take (:data:`RESERVED_NAMES`). Below both the model of
a deal (:mod:`scorer.core.model`) and the checks of players' names (:mod:`scorer.core.names`)."""

from __future__ import annotations

from enum import Enum

from .i18n import N_, _

SEATS = 4


class Pot(str, Enum):
    """The places chips can lie between deals besides players' hands."""

    POOL = "pool"
    VOLE_POOL = "vole_pool"
    SPADILLE_RESERVE = "spadille_reserve"
    """Odd codille chips kept for whoever holds Spadille next deal (EB rule only)."""
    BEASTS_WAITING = "beasts_waiting"
    """Beasts made in an earlier deal that wait to join a later pool, the greatest first (EB, house rule beasts_together)."""
    CIRCLE_POOL = "circle_pool"
    """What a circle's last evening left on the table, waiting to join this evening's first pool (house rule pool_at_end)."""
    SCORE_SHEET = "score_sheet"
    """The point score (PG): points are written to a player's name from the sheet, or struck off to it."""

    @property
    def label(self) -> str:
        """Its name in the reader's language (English outside a translated request)."""
        return _(_POT_LABELS[self])


_POT_LABELS = {
    Pot.POOL: N_("the pool"),
    Pot.VOLE_POOL: N_("the vole pool"),
    Pot.SPADILLE_RESERVE: N_("the odd chips kept for Spadille"),
    Pot.BEASTS_WAITING: N_("the beasts waiting"),
    Pot.CIRCLE_POOL: N_("the pool carried from the last evening"),
    Pot.SCORE_SHEET: N_("the score sheet"),
}


Account = str | Pot
"""Who pays or is paid: a player (by name), the pool or the vole pool."""

RESERVED_NAMES = frozenset(p.value for p in Pot)
