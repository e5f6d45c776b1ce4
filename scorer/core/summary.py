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

from . import rules as R
from .describe import both, in_suit, the_card
from .i18n import N_, _, filled
from .errors import Words
from .model import Account, Contract, Deal, Pot, Reason, Result, Settlement, Transfer, Vole
from .names import listed
from .outcome import in_favourite
from .profiles import HouseRules
from .rules import RULES_BY_NAME
from .systems import System

MINUS = "−"
"""The minus sign every page writes (U+2212), never the hyphen."""

UNIT_RULES = (R.UNIT, R.UNIT_ROUNDING)
"""The house rules that set the unit: named once, on the unit sentence, not on every payment."""


def signed(n: int) -> str:
    """A change as a player reads it: "+63", "−21", "0"."""
    return f"+{n}" if n > 0 else f"{MINUS}{-n}" if n < 0 else "0"


@dataclass(frozen=True, slots=True)
class RuleRef:
    """A house rule named as a player reads it: its title, and its name (the anchor of its entry on the rules page)."""

    name: str
    title: str


def rule_ref(name: str) -> RuleRef:
    """The house rule called ``name`` with its title (a name the core does not know is shown as it is)."""
    rule = RULES_BY_NAME.get(name)
    return RuleRef(name, rule.title if rule is not None else name)


@dataclass(frozen=True, slots=True)
class Part:
    """One item of a group: what it is for, in a word or two, and the chips each payer pays for it."""

    label: str
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
    sentence: str
    """The line a player reads: "Ann, Cat and Dan each pay Bea 56: solo 28, matadors 7, premiers 7, vole 14"."""

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
    headline: str
    """The result in a line: "Bea's solo in hearts: won, with premiers"."""
    nets: tuple[Net, ...]
    """Each player's change for the deal, in seating order."""
    carried: tuple[tuple[str, str], ...]
    """What the table carries after the deal, as the settlement system tells it: ("pool", "0"), ("vole pool", "0")."""
    units: str
    """What the figures count ("chips", "points", "counters"), as the settlement system says."""
    unit_sentence: str | None
    """The stake and the unit, said once ("The pool held 28 chips, so a unit is 7."); the stake alone where nothing
    is paid in units ("The pool held 40 counters."); None without a pool."""
    unit_rules: tuple[RuleRef, ...]
    """The house rules that set the unit."""
    groups: tuple[Group, ...]
    notes: tuple[str, ...]
    """The settlement's own remarks (a pool left in place, odd chips), in the reader's language."""


def summarise(settlement: Settlement, rules: HouseRules) -> DealSummary:
    """The settlement of one deal, told for a glance; ``rules`` are the house rules it was settled under."""
    system = rules.profile.system
    after = settlement.after
    players = settlement.before.players
    eldest = after.eldest(after.right_of(settlement.deal.dealer))  # who is eldest in the next deal
    carried = [(_lower_first(label), value) for label, value in system.standing(after, rules, eldest)]
    shown = {label for label, _value in carried}
    vole_pool = _("vole pool")
    moved_vole_pool = any(Pot.VOLE_POOL in (t.payer, t.payee) for t in settlement.transfers)
    if system.has_pool and moved_vole_pool and not shown & {"vole pool", vole_pool}:
        carried.append((vole_pool, str(after.vole_pool)))
    used_for_unit = tuple(dict.fromkeys(name for t in settlement.transfers for name in t.rules if name in UNIT_RULES))
    return DealSummary(
        number=settlement.number,
        headline=headline(settlement.deal, settlement.result, rules),
        nets=tuple(Net(p, settlement.change(p)) for p in players),
        carried=tuple(carried),
        units=system.units,
        unit_sentence=_unit_sentence(settlement, system, used_for_unit) if system.has_pool else None,
        unit_rules=tuple(rule_ref(name) for name in used_for_unit),
        groups=group_transfers(settlement.transfers, players),
        notes=tuple(map(str, settlement.notes)),
    )


# --- the headline -------------------------------------------------------------------------------


def headline(deal: Deal, result: Result, rules: HouseRules) -> str:
    """The result in one line: "Bea's solo in hearts: won, with premiers"."""
    return _("{played}: {outcome}").format(played=_played(deal, rules), outcome=_outcome(deal, result))


def _played(deal: Deal, rules: HouseRules) -> str:
    """Who played what: "Bea's alliance in spades with Dan", "Bea's grandissimo" (no trumps)."""
    name = _("vole") if deal.contract is Contract.VOLE else deal.contract.label
    text = filled(_("{hombre}'s {contract}"), {"hombre": deal.hombre, "contract": name})
    if deal.trumps is not None:
        text += f" {in_suit(deal.trumps)}"
        if in_favourite(deal, rules):
            text += _(", the favourite suit")
    if deal.kind.takes_king and deal.called is not None:
        card = the_card(deal.called)
        text += (_(", {card} from {giver}").format(card=card, giver=deal.giver) if deal.giver
                 else _(", calling {card}").format(card=card))
    elif deal.is_secret_solo:
        text += _(", her own King called")
    elif deal.has_real_ally:
        text += _(" with {ally}").format(ally=deal.ally)
    if deal.vole is Vole.ANNOUNCED:
        text += _(", the vole announced")
    elif deal.vole is Vole.REVEALED:
        text += _(", the vole announced, her hand shown")
    return text


def _outcome(deal: Deal, result: Result) -> str:
    """How it ended: "won, with premiers", "won, with premiers and the vole", "remise", "codille"."""
    if result is Result.WON:
        return _("won, with premiers") if deal.premiers and not deal.kind.nemo else _("won")
    if result is Result.VOLE_WON:
        return _("won, with the vole") if deal.vole_in_the_bid else _("won, with premiers and the vole")
    if result is Result.VOLE_LOST:
        if deal.vole_in_the_bid:
            return _("the vole lost, {n} tricks").format(n=deal.side_tricks)
        return _("won, with premiers; the vole lost")
    if result is Result.LOST:
        return _("lost (paid by the premium alone)")
    return result.label  # remise, codille


# --- the unit ----------------------------------------------------------------------------------------


def _unit_sentence(settlement: Settlement, system: System, used: tuple[str, ...]) -> str | None:
    """The stake and the unit, said once: the unit only where it decided a payment (the house rule ``unit`` named)."""
    stake, unit = settlement.stake, settlement.unit
    shown = system.units_text
    if R.UNIT not in used:  # paid in the system's own figures (the counters): the stake alone
        return _("The pool held {stake} {units}.").format(stake=stake, units=shown) if stake else None
    doubled = any(R.PAULANS in t.rules and R.UNIT in t.rules for t in settlement.transfers)
    if R.UNIT_ROUNDING not in used:  # a fixed unit, whatever the pool holds
        word = _(system.singular or system.units.removesuffix("s")) if unit == 1 else shown
        said = _("A unit is {unit} {units}, doubled for this deal (paulans).") if doubled else _("A unit is {unit} {units}.")
        return said.format(unit=unit, units=word)
    if doubled:
        said = _("The pool held {stake} {units}; this deal is played double (paulans), so a unit is {unit}.")
    elif stake == 4 * unit:
        said = _("The pool held {stake} {units}, so a unit is {unit}.")
    else:
        said = _("The pool held {stake} {units}, so a unit is {unit} (a quarter, rounded).")
    return said.format(stake=stake, units=shown, unit=unit)


# --- the groups ---------------------------------------------------------------------------------


_POT_WORDS: dict[Reason, str] = {
    Reason.POOL_SWEPT: N_("the game won"),
    Reason.POOL_SHARED: N_("the game won"),
    Reason.VOLE_POOL_WON: N_("the vole won"),
    Reason.CODILLE_SHARE: N_("codille"),
    Reason.REMISE_BEAST: N_("remise, the pool doubled"),
    Reason.CODILLE_BEAST: N_("codille beast"),
    Reason.VOLE_STAKE: N_("stake for the vole"),
    Reason.VOLE_POOL_LOST: N_("the vole lost"),
    Reason.ODD_CHIPS_SET_ASIDE: "",  # the sentence says it; the settlement's note says for whom
    Reason.ODD_CHIPS_TO_SPADILLE: N_("for holding Spadille, or the highest trump"),
}
"""What a movement to or from a pot is for, where its transfers word it in more than one way (English:
translated where the label is made, :func:`_pot_label`)."""

_TAKES_THE_POT = frozenset({Reason.POOL_SWEPT, Reason.VOLE_POOL_WON})
"""A pot taken whole by one player: the sentence says it all ("Bea takes the pool, 28")."""

_PAYMENT_WORDS: dict[Reason, str] = {
    Reason.VOLE_BONUS: N_("vole"),
    Reason.VOLE_PREMIUM_LOST: N_("vole lost"),
    Reason.MEDIATEUR_KING: N_("a fish for the King"),
    Reason.GAME: N_("game"),
    Reason.CONSOLATION: N_("consolation"),
    Reason.FISH_EXTRAORDINARY: N_("fish extraordinary"),
}

def _label(what: Words) -> Words:
    """The words a transfer's ``what`` names as its ``label`` (the contract of a premium, the first clause of a long
    one), where it names one: the summary's item."""
    label = what.values.get("label")
    return what if not isinstance(label, Words) else _label(label)


def _payment_label(t: Transfer) -> str:
    """A payment between players in a word or two: "solo", "matadors", "premiers", "vole", in the reader's language."""
    return _(_PAYMENT_WORDS[t.reason]) if t.reason in _PAYMENT_WORDS else str(_label(t.what))


def _pot_label(t: Transfer) -> str:
    """A movement to or from a pot in a word or two, in the reader's language (the whole words on the score sheet)."""
    if t.reason in _POT_WORDS:
        return _(_POT_WORDS[t.reason]) if _POT_WORDS[t.reason] else ""
    return str(t.what if Pot.SCORE_SHEET in (t.payer, t.payee) else _label(t.what))


@dataclass
class _Draft:
    """A group being built."""

    payers: list[Account]
    payees: list[Account]
    parts: list[Part]
    rules: list[str]
    reason: Reason
    emptied: bool
    """A single movement out of a pot that left it empty ("takes the pool")."""

    def key(self) -> tuple[tuple[Part, ...], tuple[str, ...], Reason | None]:
        pots = any(isinstance(a, Pot) for a in (*self.payers, *self.payees))
        return tuple(self.parts), tuple(self.rules), self.reason if pots else None


def group_transfers(transfers: tuple[Transfer, ...], players: tuple[str, ...]) -> tuple[Group, ...]:
    """The transfers in as few lines as they can be read: see the module's description."""
    seat = {p: i for i, p in enumerate(players)}
    groups = []
    for m in _merged(_drafts(transfers)):
        payers = tuple(sorted(m.payers, key=lambda a: seat.get(str(a), -1)))
        payees = tuple(sorted(m.payees, key=lambda a: seat.get(str(a), -1)))
        groups.append(Group(payers, payees, tuple(m.parts), tuple(rule_ref(n) for n in m.rules),
                            _sentence(payers, payees, tuple(m.parts), m.emptied)))
    return tuple(groups)


def _drafts(transfers: tuple[Transfer, ...]) -> list[_Draft]:
    """One draft for each payer and payee (and, to or from a pot, each reason), its items in order."""
    drafts: dict[tuple[object, ...], _Draft] = {}
    for t in transfers:
        touches_pot = isinstance(t.payer, Pot) or isinstance(t.payee, Pot)
        key: tuple[object, ...] = (t.payer, t.payee, t.reason) if touches_pot else (t.payer, t.payee)
        draft = drafts.get(key)
        if draft is None:
            draft = drafts[key] = _Draft([t.payer], [t.payee], [], [], t.reason, False)
        _add(draft.parts, _pot_label(t) if touches_pot else _payment_label(t), t.chips)
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


def _add(parts: list[Part], label: str, chips: int) -> None:
    """Add ``chips`` for ``label``, to the part of that label if there is one."""
    for i, part in enumerate(parts):
        if part.label == label:
            parts[i] = Part(label, part.chips + chips)
            return
    parts.append(Part(label, chips))


def _joins(group: _Draft, one: _Draft) -> bool:
    """Whether the single payment ``one`` can join ``group``: same payee (several payers) or same payer (several payees)."""
    if group.emptied or one.emptied:
        return False
    if len(group.payees) == 1 and group.payees == one.payees and one.payers[0] not in group.payers:
        return True
    return len(group.payers) == 1 and group.payers == one.payers and one.payees[0] not in group.payees


def _names(accounts: tuple[Account, ...]) -> str:
    """"Ann, Cat and Dan" (a pot by its name), in the reader's language."""
    names = tuple(a.label if isinstance(a, Pot) else a for a in accounts)
    return both(", ".join(names[:-1]), names[-1]) if len(names) > 1 else listed(names)


def _sentence(payers: tuple[Account, ...], payees: tuple[Account, ...], parts: tuple[Part, ...], emptied: bool) -> str:
    """The group's line: who pays whom, how much, and for what."""
    each = sum(p.chips for p in parts)
    if any(isinstance(a, Pot) for a in (*payers, *payees)):
        return _pot_sentence(payers, payees, each, emptied) + ("" if emptied else _for_what(parts))
    payer, payee = payers[0], payees[0]
    if len(payers) > 1:
        said = _("{payers} each pay {payee} {each}{for_what}")
    elif len(payees) > 1:
        said = _("{payer} pays {payees} {each} each{for_what}")
    else:
        said = _("{payer} pays {payee} {each}{for_what}")
    return said.format(payers=_names(payers), payees=_names(payees), payer=payer, payee=payee, each=each,
                       for_what=_for_what(parts))


def _pot_sentence(payers: tuple[Account, ...], payees: tuple[Account, ...], each: int, emptied: bool) -> str:
    """A movement to or from a pot (or the score sheet), without what it is for."""
    many_payers, many_payees = len(payers) > 1, len(payees) > 1
    payer, payee = payers[0], payees[0]
    if payer is Pot.SCORE_SHEET:
        said = _("{names} each score {each}") if many_payees else _("{names} scores {each}")
        return said.format(names=_names(payees), each=each)
    if payee is Pot.SCORE_SHEET:
        said = _("{names} each lose {each}") if many_payers else _("{names} loses {each}")
        return said.format(names=_names(payers), each=each)
    if isinstance(payer, Pot) and isinstance(payee, Pot):
        said = _("{each} goes from {payer} to {payee}") if each == 1 else _("{each} go from {payer} to {payee}")
        return filled(said, {"each": each, "payer": payer.label, "payee": payee.label})
    if isinstance(payer, Pot):
        if emptied:
            return _("{payee} takes {pot}, {each}").format(payee=payee, pot=payer.label, each=each)
        said = _("{names} each take {each} from {pot}") if many_payees else _("{names} takes {each} from {pot}")
        return said.format(names=_names(payees), each=each, pot=payer.label)
    into = payee.label if isinstance(payee, Pot) else payee  # a pot: the caller's test
    said = _("{names} each put {each} into {pot}") if many_payers else _("{names} puts {each} into {pot}")
    return said.format(names=_names(payers), each=each, pot=into)


def _for_what(parts: tuple[Part, ...]) -> str:
    """": solo 28, matadors 7, premiers 7, vole 14"; ": ante" for a single item; "" when the sentence says it all."""
    labelled = [p for p in parts if p.label]
    if not labelled:
        return ""
    if len(parts) == 1:
        return _(": {label}").format(label=parts[0].label)
    return _(": {parts}").format(parts=", ".join(f"{p.label} {p.chips}" for p in parts))


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]
