"""A deal form that lost the race to another phone: the deal the table recorded and this phone's entry,
side by side.

Two phones enter the same deal; one records it first. The other phone's Record (or preview) then arrives for a
deal number already recorded. Its entry is read again as any input (a tampered tap is a message, never an
error page), settled against the table as it stood before that deal, and shown beside the deal as it stands:
who recorded it, the deal in words, what each player pays. Nothing is written here: the phone keeps the
recorded deal, or carries its entry (in hidden inputs, :attr:`Race.carried`) to the deal's correction form,
where it goes through the correction's own checks, preview and versions.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from werkzeug.datastructures import MultiDict

from ...core import (
    Contract, Deal, DealSummary, Ledger, LineKind, ScorerError, Settlement, settle, summarise,
)
from ...core.errors import Lazy, Said
from ...store import Table
from ..forms import DealForm
from ..i18n import gettext as _

CARRIED = ("hombre", "trumps", "called", "ally", "hombre_tricks", "ally_tricks", "matadors", "premiers", "vole", "giver",
           "favourite", "spadille")
"""The deal form's inputs the entry is read from, carried to the correction form as they were posted (the deal
number, the one-time token and the preview's digest are the recording's, not the deal's)."""
CARRIED_CHARS_MAX = 2048
"""An entry is carried to the correction only if its inputs come to at most this many characters (a deal's taps
and the longest play come to a few hundred): a form padded to megabytes is not written back into the page."""


@dataclass(frozen=True)
class Side:
    """One of the two deals: told for a glance (its summary and tricks), or why it cannot be settled."""

    summary: DealSummary | None
    tricks: str
    """The tricks as entered: Hombre's, and her ally's after a plus ("4 + 3")."""
    matadors: int = 0
    problems: tuple[str, ...] = ()
    """Why this entry cannot be shown settled, each message after the name of its field."""

    def net(self, player: str) -> str:
        """The player's change for the deal, signed ("+5", "−5", "0"); a dash for an entry that cannot be settled."""
        return next((n.signed for n in self.summary.nets if n.player == player), "—") if self.summary else "—"

    def carried(self, label: Lazy) -> Said:
        """What the table carries after the deal under ``label`` (the pool...), or a dash."""
        return dict(self.summary.carried).get(label, "—") if self.summary else "—"


@dataclass(frozen=True)
class Race:
    """Deal ``number`` as the table recorded it and as this phone entered it."""

    number: int
    contract: Contract
    """The contract of this phone's entry (its correction form is that contract's)."""
    players: tuple[str, ...]
    recorded: Side
    recorded_by: str | None
    """Who recorded the deal (its first version), if the phone that did was named."""
    corrected_by: str | None
    """Who made the version standing, if it is a correction (or a restoration) since; else None."""
    corrected: bool
    """The version standing is not the one first recorded."""
    entry: Side
    same: bool
    """This phone's entry is the deal as it stands: nothing to choose."""
    carried: tuple[tuple[str, str], ...]
    """This phone's entry as posted, (input, value), for the correction form; empty if it is too long to carry."""

    @property
    def carried_labels(self) -> tuple[Lazy, ...]:
        """The labels of what the table carries after the deal, in either entry (the pool, the vole pool...)."""
        labels = [label for side in (self.recorded, self.entry) if side.summary for label, _value in side.summary.carried]
        return tuple(dict.fromkeys(labels))


def _tricks(deal: Deal) -> str:
    return f"{deal.hombre_tricks} + {deal.ally_tricks}" if deal.ally_tricks is not None else str(deal.hombre_tricks)


def _bare(deal: Deal) -> Deal:
    """A deal as the deal form enters it: without the play a correction from Check the play keeps with it."""
    return replace(deal, play=None, revealed_ally=None)


def _entry(table: Table, recorded: Settlement, contract: Contract, posted: MultiDict[str, str]) -> tuple[Side, Deal | None]:
    """This phone's entry read as the deal form reads it, for the deal as it stood before the recorded one (its
    dealer, the table's state), and settled; or the messages that say why it cannot be."""
    form = DealForm(posted, players=table.players, contract=contract, dealer=recorded.deal.dealer,
                    state=recorded.before, rules=table.rules)
    if not form.validate() or form.checked is None:
        problems = tuple(_said(str(field.label.text), str(error)) for field in form for error in field.errors)
        return Side(None, "", problems=problems or (_("This entry cannot be read."),)), None
    deal = form.checked
    try:  # checked by the form against this very state; a system's own refusal is a message too
        settled = settle(deal, recorded.before, table.rules, table.deals_agreed, checked=True)
    except ScorerError as error:
        return Side(None, _tricks(deal), deal.matadors, (error.message,)), deal
    return Side(summarise(settled, table.rules), _tricks(deal), deal.matadors), deal


def _said(label: str, error: str) -> str:
    """A field's message after its label, as the error summary of a refused form words it."""
    return f"{label} {error}" if label.endswith("?") else _("%(label)s: %(error)s", label=label, error=error)


def _carried(posted: MultiDict[str, str]) -> tuple[tuple[str, str], ...]:
    pairs = tuple((name, value) for name in CARRIED for value in posted.getlist(name))
    return pairs if sum(len(value) for _name, value in pairs) <= CARRIED_CHARS_MAX else ()


def race(table: Table, book: Ledger, number: int, contract: Contract, posted: MultiDict[str, str]) -> Race:
    """Deal ``number`` (standing: 1 <= number <= the deals settled) beside the entry ``posted`` for it in ``contract``."""
    recorded = book.replay.settlements[number - 1]
    versions = book.versions_of(number)
    standing = versions[-1] if versions else None
    corrected = standing is not None and standing.kind is not LineKind.RECORD
    entry, deal = _entry(table, recorded, contract, posted)
    return Race(
        number=number, contract=contract, players=table.players,
        recorded=Side(summarise(recorded, table.rules), _tricks(recorded.deal), recorded.deal.matadors),
        recorded_by=book.recorded_by(number),
        corrected_by=standing.by if corrected and standing is not None else None,
        corrected=corrected,
        entry=entry,
        same=deal is not None and not entry.problems and _bare(deal) == _bare(recorded.deal),
        carried=_carried(posted),
    )
