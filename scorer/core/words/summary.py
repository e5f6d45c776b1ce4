"""A deal's settlement told for a glance: the result in a line, each player's net change, then who pays whom.

:func:`summarise` turns a :class:`~scorer.core.model.Settlement` into a :class:`DealSummary`:

- the **headline**: "Bea's solo in hearts: won, with premiers" (grandissimo and nemo have no
  trumps, an alliance names the ally, the vole is told as won or lost);
- the **nets**: each player's change for the deal, and what the table carries after it as the
  settlement system tells it (the pool and the vole pool; the point score's multiplier);
- the **unit sentence**, once: "The pool held 28 chips, so a unit is 7." (the unit only where a payment
  was reckoned in units: the hard score; the counters say the stake alone; the point score has no pool);
- the **groups**: the transfers told in as few lines as the table reads them. The transfers of one
  payer to one payee are one line, item by item ("Cat pays Bea 56: solo 28, matadors 7, premiers 7,
  vole 14"); lines that differ only in the payer (or only in the payee) are one line ("Ann, Cat and
  Dan each pay Bea 56: ..."); movements to and from the pots are grouped the same way ("Ann, Bea,
  Cat and Dan each put 1 into the pool: ante", "Bea takes the pool, 28").

The groups are a partition of the transfers: every transfer is in exactly one group, and each
group's figures add up to its transfers (:meth:`Group.change`). Nothing here settles anything.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import rules as R
from ..game.describe import in_suit, the_card
from ..i18n import N_, _
from ..errors import Joined, Later, Lazy, LowerFirst, Said, Words
from ..model import Account, Contract, Deal, Pot, Reason, Result, Settlement, Transfer, Vole
from ..names import listed_words
from ..game.outcome import in_favourite
from ..systems.profiles import HouseRules
from ..rules import RULES_BY_NAME
from ..systems import System
from ..systems.base import VOLE_POOL

MINUS = "−"
"""The minus sign every page writes (U+2212), never the hyphen."""

UNIT_RULES = (R.UNIT, R.UNIT_ROUNDING)
"""The house rules that set the unit: named once, on the unit sentence, not on every payment."""


def signed(n: int) -> str:
    """A change as a player reads it: "+63", "−21", "0"."""
    return f"+{n}" if n > 0 else f"{MINUS}{-n}" if n < 0 else "0"


@dataclass(frozen=True, slots=True)
class RuleRef:
    """A house rule named as a player reads it: its name (the anchor of its entry on the rules page) and its title."""

    name: str

    @property
    def title(self) -> str:
        """Its title in the reader's language (a name the core does not know is shown as it is)."""
        rule = RULES_BY_NAME.get(self.name)
        return rule.title if rule is not None else self.name


@dataclass(frozen=True, slots=True)
class Part:
    """One item of a group: what it is for, in a word or two, and the chips each payer pays for it."""

    label: Said
    """Worded when read ("" where the sentence says it all)."""
    chips: int


@dataclass(frozen=True, slots=True)
class Group:
    """Transfers told as one line.

    Either one payer and one payee, or several payers who each pay the one payee the same, or
    one payer who pays several payees each the same. ``each`` is what passes between one payer
    and one payee (the sum of the parts); ``total`` is what moves in all."""

    payers: tuple[Account, ...]
    payees: tuple[Account, ...]
    parts: tuple[Part, ...]
    rules: tuple[RuleRef, ...]
    """The house rules behind these payments, in the order they first decided one (the unit's are on the unit sentence)."""
    sentence: Words | Joined
    """The line a player reads, worded when read: "Ann, Cat and Dan each pay Bea 56: solo 28, matadors 7, premiers 7,
    vole 14"."""

    @property
    def each(self) -> int:
        return sum(part.chips for part in self.parts)

    @property
    def total(self) -> int:
        return self.each * len(self.payers) * len(self.payees)

    def change(self, account: Account) -> int:
        """How much this group moves into (positive) or out of (negative) ``account``."""
        paid = self.each * len(self.payees) if account in self.payers else 0
        received = self.each * len(self.payers) if account in self.payees else 0
        return received - paid


@dataclass(frozen=True, slots=True)
class Net:
    """One player's change for the deal."""

    player: str
    change: int

    @property
    def signed(self) -> str:
        return signed(self.change)


@dataclass(frozen=True, slots=True)
class DealSummary:
    """A deal's settlement as the preview shows it at a glance (see the module's description)."""

    number: int
    headline: Words
    """The result in a line, worded when read: "Bea's solo in hearts: won, with premiers"."""
    nets: tuple[Net, ...]
    """Each player's change for the deal, in seating order."""
    carried: tuple[tuple[Lazy, Said], ...]
    """What the table carries after the deal, as the settlement system tells it, each label worded when read and
    begun with a small letter: ("pool", "0"), ("vole pool", "0")."""
    unit_sentence: Words | None
    """The stake and the unit, said once ("The pool held 28 chips, so a unit is 7."); the stake alone where nothing
    is paid in units ("The pool held 40 counters."); None without a pool."""
    unit_rules: tuple[RuleRef, ...]
    """The house rules that set the unit."""
    groups: tuple[Group, ...]
    notes: tuple[Words, ...]
    """The settlement's own remarks (a pool left in place, odd chips), worded when read."""


def summarise(settlement: Settlement, rules: HouseRules) -> DealSummary:
    """The settlement of one deal, told for a glance; ``rules`` are the house rules it was settled under."""
    system = rules.profile.system
    after = settlement.after
    players = settlement.before.players
    eldest = after.eldest(after.right_of(settlement.deal.dealer))  # who is eldest in the next deal
    standing = system.standing(after, rules, eldest)
    carried: list[tuple[Lazy, Said]] = [(LowerFirst(label), value) for label, value in standing]
    moved_vole_pool = any(Pot.VOLE_POOL in (t.payer, t.payee) for t in settlement.transfers)
    if system.has_pool and moved_vole_pool and Words(VOLE_POOL) not in (label for label, _value in standing):
        carried.append((LowerFirst(Words(VOLE_POOL)), str(after.vole_pool)))
    used_for_unit = tuple(dict.fromkeys(name for t in settlement.transfers for name in t.rules if name in UNIT_RULES))
    return DealSummary(
        number=settlement.number,
        headline=headline(settlement.deal, settlement.result, rules),
        nets=tuple(Net(p, settlement.change(p)) for p in players),
        carried=tuple(carried),
        unit_sentence=_unit_sentence(settlement, system, used_for_unit) if system.has_pool else None,
        unit_rules=tuple(RuleRef(name) for name in used_for_unit),
        groups=group_transfers(settlement.transfers, players),
        notes=settlement.notes,
    )


# --- the headline -------------------------------------------------------------------------------


def headline(deal: Deal, result: Result, rules: HouseRules) -> Words:
    """The result in one line: "Bea's solo in hearts: won, with premiers"."""
    return Words(N_("{played}: {outcome}"), played=_played(deal, rules), outcome=_outcome(deal, result))


def _played(deal: Deal, rules: HouseRules) -> Joined:
    """Who played what: "Bea's alliance in spades with Dan", "Bea's grandissimo" (no trumps)."""
    name = Words(N_("vole")) if deal.contract is Contract.VOLE else deal.contract.words
    said: list[object] = [Words(N_("{hombre}'s {contract}"), hombre=deal.hombre, contract=name)]
    if deal.trumps is not None:
        said += [" ", in_suit(deal.trumps)]
        if in_favourite(deal, rules):
            said.append(Words(N_(", the favourite suit")))
    if deal.kind.takes_king and deal.called is not None:
        card = the_card(deal.called)
        said.append(Words(N_(", {card} from {giver}"), card=card, giver=deal.giver) if deal.giver
                    else Words(N_(", calling {card}"), card=card))
    elif deal.is_secret_solo:
        said.append(Words(N_(", her own King called")))
    elif deal.has_real_ally:
        said.append(Words(N_(" with {ally}"), ally=deal.ally))
    if deal.vole is Vole.ANNOUNCED:
        said.append(Words(N_(", the vole announced")))
    elif deal.vole is Vole.REVEALED:
        said.append(Words(N_(", the vole announced, her hand shown")))
    return Joined(tuple(said), "")


def _outcome(deal: Deal, result: Result) -> Words:
    """How it ended: "won, with premiers", "won, with premiers and the vole", "remise", "codille"."""
    if result is Result.WON:
        return Words(N_("won, with premiers") if deal.premiers and not deal.kind.nemo else N_("won"))
    if result is Result.VOLE_WON:
        return Words(N_("won, with the vole") if deal.vole_in_the_bid else N_("won, with premiers and the vole"))
    if result is Result.VOLE_LOST:
        if deal.vole_in_the_bid:
            return Words(N_("the vole lost, {n} tricks"), n=deal.side_tricks)
        return Words(N_("won, with premiers; the vole lost"))
    if result is Result.LOST:
        return Words(N_("lost (paid by the premium alone)"))
    return result.words  # remise, codille


# --- the unit ----------------------------------------------------------------------------------------


def _unit_sentence(settlement: Settlement, system: System, used: tuple[str, ...]) -> Words | None:
    """The stake and the unit, said once: the unit only where it decided a payment (the house rule ``unit`` named)."""
    stake, unit, units = settlement.stake, settlement.unit, Words(system.units)
    if R.UNIT not in used:  # paid in the system's own figures (the counters): the stake alone
        return Words(N_("The pool held {stake} {units}."), stake=stake, units=units) if stake else None
    doubled = any(R.PAULANS in t.rules and R.UNIT in t.rules for t in settlement.transfers)
    if R.UNIT_ROUNDING not in used:  # a fixed unit, whatever the pool holds
        word = Words(system.singular or system.units.removesuffix("s")) if unit == 1 else units
        fixed = (N_("A unit is {unit} {units}, doubled for this deal (paulans).") if doubled
                 else N_("A unit is {unit} {units}."))
        return Words(fixed, unit=unit, units=word)
    if doubled:
        said = N_("The pool held {stake} {units}; this deal is played double (paulans), so a unit is {unit}.")
    elif stake == 4 * unit:
        said = N_("The pool held {stake} {units}, so a unit is {unit}.")
    else:
        said = N_("The pool held {stake} {units}, so a unit is {unit} (a quarter, rounded).")
    return Words(said, stake=stake, units=units, unit=unit)


# --- the groups ---------------------------------------------------------------------------------


_POT_WORDS: dict[Reason, Said] = {
    Reason.POOL_SWEPT: Words(N_("the game won")),
    Reason.POOL_SHARED: Words(N_("the game won")),
    Reason.VOLE_POOL_WON: Words(N_("the vole won")),
    Reason.CODILLE_SHARE: Words(N_("codille")),
    Reason.REMISE_BEAST: Words(N_("remise, the pool doubled")),
    Reason.CODILLE_BEAST: Words(N_("codille beast")),
    Reason.VOLE_STAKE: Words(N_("stake for the vole")),
    Reason.VOLE_POOL_LOST: Words(N_("the vole lost")),
    Reason.ODD_CHIPS_SET_ASIDE: "",  # the sentence says it; the settlement's note says for whom
    Reason.ODD_CHIPS_TO_SPADILLE: Words(N_("for holding Spadille, or the highest trump")),
}
"""What a movement to or from a pot is for, where its transfers word it in more than one way."""

_TAKES_THE_POT = frozenset({Reason.POOL_SWEPT, Reason.VOLE_POOL_WON})
"""A pot taken whole by one player: the sentence says it all ("Bea takes the pool, 28")."""

_PAYMENT_WORDS: dict[Reason, Words] = {
    Reason.VOLE_BONUS: Words(N_("vole")),
    Reason.VOLE_PREMIUM_LOST: Words(N_("vole lost")),
    Reason.MEDIATEUR_KING: Words(N_("a fish for the King")),
    Reason.GAME: Words(N_("game")),
    Reason.CONSOLATION: Words(N_("consolation")),
    Reason.FISH_EXTRAORDINARY: Words(N_("fish extraordinary")),
}

def _label(what: Words) -> Words:
    """The words a transfer's ``what`` names as its ``label`` (the contract of a premium, the first clause of a long
    one), where it names one: the summary's item."""
    label = what.values.get("label")
    return what if not isinstance(label, Words) else _label(label)


def _payment_label(t: Transfer) -> Words:
    """A payment between players in a word or two: "solo", "matadors", "premiers", "vole"."""
    return _PAYMENT_WORDS.get(t.reason) or _label(t.what)


def _pot_label(t: Transfer) -> Said:
    """A movement to or from a pot in a word or two (the whole words on the score sheet)."""
    if t.reason in _POT_WORDS:
        return _POT_WORDS[t.reason]
    return t.what if Pot.SCORE_SHEET in (t.payer, t.payee) else _label(t.what)


@dataclass
class _Draft:
    """A group being built."""

    payers: list[Account]
    payees: list[Account]
    parts: dict[Said, int]
    """Each item's label and its chips."""
    rules: list[str]
    reason: Reason
    emptied: bool
    """A single movement out of a pot that left it empty ("takes the pool")."""

    def key(self) -> tuple[tuple[tuple[Said, int], ...], tuple[str, ...], Reason | None]:
        pots = any(isinstance(a, Pot) for a in (*self.payers, *self.payees))
        return tuple(self.parts.items()), tuple(self.rules), self.reason if pots else None


def group_transfers(transfers: tuple[Transfer, ...], players: tuple[str, ...]) -> tuple[Group, ...]:
    """The transfers in as few lines as they can be read: see the module's description."""
    seat = {p: i for i, p in enumerate(players)}
    groups = []
    for m in _merged(_drafts(transfers)):
        payers = tuple(sorted(m.payers, key=lambda a: seat.get(str(a), -1)))
        payees = tuple(sorted(m.payees, key=lambda a: seat.get(str(a), -1)))
        parts = tuple(Part(label, chips) for label, chips in m.parts.items())
        groups.append(Group(payers, payees, parts, tuple(map(RuleRef, m.rules)), _sentence(payers, payees, parts, m.emptied)))
    return tuple(groups)


def _drafts(transfers: tuple[Transfer, ...]) -> list[_Draft]:
    """One draft for each payer and payee (and, to or from a pot, each reason), its items in order."""
    drafts: dict[tuple[object, ...], _Draft] = {}
    for t in transfers:
        touches_pot = isinstance(t.payer, Pot) or isinstance(t.payee, Pot)
        key: tuple[object, ...] = (t.payer, t.payee, t.reason) if touches_pot else (t.payer, t.payee)
        draft = drafts.get(key)
        if draft is None:
            draft = drafts[key] = _Draft([t.payer], [t.payee], {}, [], t.reason, False)
        label = _pot_label(t) if touches_pot else _payment_label(t)
        draft.parts[label] = draft.parts.get(label, 0) + t.chips
        draft.rules.extend(name for name in t.rules if name not in UNIT_RULES and name not in draft.rules)
    for draft in drafts.values():  # one player alone takes the pot (every share of that reason hers)
        draft.emptied = draft.reason in _TAKES_THE_POT and sum(d.reason is draft.reason for d in drafts.values()) == 1
    return list(drafts.values())


def _merged(drafts: list[_Draft]) -> list[_Draft]:
    """Drafts that differ only in the payer (or only in the payee) made one."""
    merged: list[_Draft] = []
    for draft in drafts:
        same = next((m for m in merged if m.key() == draft.key() and _joins(m, draft)), None)
        if same is None:
            merged.append(draft)
        elif same.payees == draft.payees:
            same.payers.append(draft.payers[0])
        else:
            same.payees.append(draft.payees[0])
    return merged


def _joins(group: _Draft, one: _Draft) -> bool:
    """Whether the single payment ``one`` can join ``group``: same payee (several payers) or same payer (several payees)."""
    if group.emptied or one.emptied:
        return False
    if len(group.payees) == 1 and group.payees == one.payees and one.payers[0] not in group.payers:
        return True
    return len(group.payers) == 1 and group.payers == one.payers and one.payees[0] not in group.payees


def _sentence(payers: tuple[Account, ...], payees: tuple[Account, ...], parts: tuple[Part, ...],
              emptied: bool) -> Words | Joined:
    """The group's line: who pays whom, how much, and for what."""
    each = sum(p.chips for p in parts)
    if any(isinstance(a, Pot) for a in (*payers, *payees)):
        return Joined((_pot_sentence(payers, payees, each, emptied), "" if emptied else _for_what(parts)), "")
    if len(payers) > 1:
        said = N_("{payers} each pay {payee} {each}{for_what}")
    elif len(payees) > 1:
        said = N_("{payer} pays {payees} {each} each{for_what}")
    else:
        said = N_("{payer} pays {payee} {each}{for_what}")
    return Words(said, payers=listed_words(payers), payees=listed_words(payees), payer=payers[0], payee=payees[0],
                 each=each, for_what=_for_what(parts))


def _pot_sentence(payers: tuple[Account, ...], payees: tuple[Account, ...], each: int, emptied: bool) -> Words:
    """A movement to or from a pot (or the score sheet), without what it is for."""
    many_payers, many_payees = len(payers) > 1, len(payees) > 1
    payer, payee = payers[0], payees[0]
    if payer is Pot.SCORE_SHEET:
        said = N_("{names} each score {each}") if many_payees else N_("{names} scores {each}")
        return Words(said, names=listed_words(payees), each=each)
    if payee is Pot.SCORE_SHEET:
        said = N_("{names} each lose {each}") if many_payers else N_("{names} loses {each}")
        return Words(said, names=listed_words(payers), each=each)
    if isinstance(payer, Pot) and isinstance(payee, Pot):
        said = N_("{each} goes from {payer} to {payee}") if each == 1 else N_("{each} go from {payer} to {payee}")
        return Words(said, each=each, payer=Later(payer, "label"), payee=Later(payee, "label"))
    if isinstance(payer, Pot):
        if emptied:
            return Words(N_("{payee} takes {pot}, {each}"), payee=payee, pot=Later(payer, "label"), each=each)
        said = N_("{names} each take {each} from {pot}") if many_payees else N_("{names} takes {each} from {pot}")
        return Words(said, names=listed_words(payees), each=each, pot=Later(payer, "label"))
    said = N_("{names} each put {each} into {pot}") if many_payers else N_("{names} puts {each} into {pot}")
    return Words(said, names=listed_words(payers), each=each, pot=Later(payee, "label"))  # a pot: the caller's test


def _for_what(parts: tuple[Part, ...]) -> Said:
    """": solo 28, matadors 7, premiers 7, vole 14"; ": ante" for a single item; "" when the sentence says it all."""
    if not any(p.label for p in parts):
        return ""
    if len(parts) == 1:
        return Words(N_(": {label}"), label=parts[0].label)
    return Words(N_(": {parts}"), parts=Joined(tuple(Joined((p.label, p.chips), " ") for p in parts)))
