"""House rules: every point on which the sources disagree, as named data.

There was never one standard Quadrille (P). Each disputed point of
``shared/RULES-NOTES.md`` is a :class:`HouseRule` with a default taken
from source P where P states the case (else from the one source that
does), the alternatives the sources give, and a help text citing them
("no source" for the app's own choices). A :class:`Profile` is a named
set of rule values plus the contracts a table plays, following the source
it is named after; a table picks a profile and may change any rule of it.

Source tags: P (Parlett after Quanti, 1822), W (Wikipedia after Quanti),
EB (Encyclopaedia Britannica, 7th ed.), PG (Parlett, Penguin Book of Card
Games), FR (a French *Jeu de Quadrille*, 1720s-40s), H47 (Hoyle's Games, 1847).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Generic, TypeVar

from .errors import UnknownHouseRule
from .i18n import N_, _
from .model import CONTRACT_KINDS, Contract

if TYPE_CHECKING:
    from .systems.base import System


_SPACES = re.compile(r"[ \t\n]+")
"""The breaks and indents of a help text written across lines (not the no-break spaces of its French)."""


@dataclass(frozen=True)
class Choice:
    """One value a house rule may take."""

    value: str
    english_label: str
    """The label in English, as the command line and the documents print it (marked for the catalogue)."""
    sources: str
    """Source tags that give this value, or "" where no source does."""

    @property
    def label(self) -> str:
        """The label in the reader's language (English outside a translated request)."""
        return _(self.english_label)

    @property
    def sources_text(self) -> str:
        """The sources for a reader: the tags (their remarks in the reader's language), or "no source"."""
        return _(self.sources) if self.sources else _("no source")


@dataclass(frozen=True)
class HouseRule:
    name: str
    english_title: str
    english_help: str
    """What the rule decides and what the sources say, citing their tags (in English, on one line)."""
    choices: tuple[Choice, ...]
    default: str
    """The value in the ``quadrille`` profile (from P where P says)."""
    point: int | None = None
    """The number of the disputed point in RULES-NOTES, if it is one."""
    help_message: str = ""
    """The help text as written in the source (the catalogue's message), whose translation is read on one line."""

    @property
    def title(self) -> str:
        """The title in the reader's language (English outside a translated request)."""
        return _(self.english_title)

    @property
    def help(self) -> str:
        """The help text in the reader's language, on one line (English outside a translated request)."""
        if not self.help_message:
            return _(self.english_help)
        shown = _(self.help_message)
        return self.english_help if shown is self.help_message else _SPACES.sub(" ", shown).strip()

    def choice(self, value: str) -> Choice:
        for c in self.choices:
            if c.value == value:
                return c
        allowed = ", ".join(c.value for c in self.choices)
        raise UnknownHouseRule(f"{value!r} is not a value of the house rule {self.name} (choose one of: {allowed})")

    @property
    def values(self) -> tuple[str, ...]:
        return tuple(c.value for c in self.choices)


class RuleValue(Enum):
    """A house rule's value. Each rule has its own Enum, so that a misspelt value, or a value of
    another rule, is a type error (mypy --strict's strict equality), not a branch never taken.
    ``value`` is the value's name as files, forms and the database write it."""


V = TypeVar("V", bound=RuleValue)


class RuleKey(str, Generic[V]):
    """A house rule's name, carrying the type of its values: ``rules[UNIT]`` is a :class:`Unit`.
    It is the name itself (a ``str``), so transfers and documents name rules by it."""

    values: type[V]

    def __new__(cls, name: str, values: type[V]) -> RuleKey[V]:
        key = str.__new__(cls, name)
        key.values = values
        return key


class SoloPremium(RuleValue):
    """The values of the house rule ``solo_premium``: premium for a solo."""

    FOUR_UNITS = "four_units"
    TWO_UNITS = "two_units"
    NONE = "none"


class Unit(RuleValue):
    """The values of the house rule ``unit``: what a unit is."""

    QUARTER_OF_STAKE = "quarter_of_stake"
    ONE_CHIP = "one_chip"


class UnitRounding(RuleValue):
    """The values of the house rule ``unit_rounding``: rounding a quarter of the pool."""

    DOWN = "down"
    UP = "up"
    NEAREST = "nearest"


class Antes(RuleValue):
    """The values of the house rule ``antes``: antes while a pool is carried forward."""

    EVERY_DEAL = "every_deal"
    WHEN_POOL_EMPTY = "when_pool_empty"


class AnteBy(RuleValue):
    """The values of the house rule ``ante_by``: who antes."""

    EACH_PLAYER = "each_player"
    DEALER = "dealer"


class DoubleMatadorsSuits(RuleValue):
    """The values of the house rule ``double_matadors_suits``: which runs of four are double matadors."""

    RED_ONLY = "red_only"
    ANY_SUIT = "any_suit"


class DoubleMatadorsPay(RuleValue):
    """The values of the house rule ``double_matadors_pay``: what double matadors pay."""

    INSTEAD = "instead"
    IN_ADDITION = "in_addition"


class LongMatadors(RuleValue):
    """The values of the house rule ``long_matadors``: runs of matadors longer than four."""

    AS_DOUBLE = "as_double"
    ONE_MORE_EACH = "one_more_each"


class MatadorsPaid(RuleValue):
    """The values of the house rule ``matadors_paid``: whose matadors are paid."""

    CONTRACTING_SIDE = "contracting_side"


class BonusFlow(RuleValue):
    """The values of the house rule ``bonus_flow``: how an alliance's bonuses flow."""

    ONE_TO_ONE = "one_to_one"
    EACH_TO_EACH = "each_to_each"


class AllianceLoss(RuleValue):
    """The values of the house rule ``alliance_loss``: who pays when an alliance loses."""

    SHARED_UNLESS_UNDER_3 = "shared_unless_under_3"
    SHARED_UNLESS_UNDER_4 = "shared_unless_under_4"
    HOMBRE_ALONE = "hombre_alone"


class AllianceOddChip(RuleValue):
    """The values of the house rule ``alliance_odd_chip``: an odd chip when allies share a pool."""

    STAYS_IN_POOL = "stays_in_pool"
    TO_HOMBRE = "to_hombre"


class RemiseBeast(RuleValue):
    """The values of the house rule ``remise_beast``: the remise."""

    DOUBLE_POOL = "double_pool"


class CodilleBeast(RuleValue):
    """The values of the house rule ``codille_beast``: what hombre puts up on codille."""

    TWICE_TAKEN_OR_DOUBLE_STAKE = "twice_taken_or_double_stake"
    TWICE_TAKEN = "twice_taken"
    ONCE_POOL = "once_pool"
    TWICE_POOL = "twice_pool"


class CodilleIndivisible(RuleValue):
    """The values of the house rule ``codille_indivisible``: a codille pool that does not divide."""

    CARRY_WHOLE = "carry_whole"
    SPLIT_CARRY_ODD = "split_carry_odd"
    ODD_TO_SPADILLE = "odd_to_spadille"


class CodillePayments(RuleValue):
    """The values of the house rule ``codille_payments``: what hombre pays besides the pool on codille."""

    WHAT_SHE_WOULD_HAVE_RECEIVED = "what_she_would_have_received"
    NONE = "none"


class VolePayment(RuleValue):
    """The values of the house rule ``vole_payment``: how the vole is paid."""

    POOL_AND_BONUS = "pool_and_bonus"
    POOL_ONLY = "pool_only"
    BONUS_ONLY = "bonus_only"
    QUANTI_TABLE = "quanti_table"


class VoleLostPays(RuleValue):
    """The values of the house rule ``vole_lost_pays``: a vole undertaken after premiers and lost."""

    NOTHING_MORE = "nothing_more"
    VOLE_BONUS = "vole_bonus"


class AnnouncedVolePremium(RuleValue):
    """The values of the house rule ``announced_vole_premium``: the premium paid for a vole announced and lost."""

    VOLE_BONUS = "vole_bonus"
    NONE = "none"


class AnnouncedVoleShort(RuleValue):
    """The values of the house rule ``announced_vole_short``: a vole announced, with fewer than six tricks."""

    REMISE = "remise"
    BY_TRICKS = "by_tricks"


class ForcedSpadilleBonuses(RuleValue):
    """The values of the house rule ``forced_spadille_bonuses``: premiers and vole in forced spadille."""

    NO_PREMIERS_NO_VOLE = "no_premiers_no_vole"
    PREMIERS_AND_VOLE = "premiers_and_vole"


class OwnKing(RuleValue):
    """The values of the house rule ``own_king``: hombre calls a king she holds."""

    SECRET_SOLO = "secret_solo"
    ALONE_NO_PREMIUM = "alone_no_premium"
    FORBIDDEN = "forbidden"


class PoolAtEnd(RuleValue):
    """The values of the house rule ``pool_at_end``: the pool at the end of the evening."""

    SPLIT_EQUALLY = "split_equally"
    CARRY_FORWARD = "carry_forward"


class Paulans(RuleValue):
    """The values of the house rule ``paulans``: the last deals played double (paulans)."""

    NONE = "none"
    LAST_DEAL = "last_deal"
    LAST_ROUND = "last_round"


class FavouriteSuit(RuleValue):
    """The values of the house rule ``favourite_suit``: the favourite suit."""

    NONE = "none"
    HEARTS = "hearts"
    DIAMONDS = "diamonds"
    CLUBS = "clubs"
    SPADES = "spades"
    EACH_DEAL = "each_deal"


class FavouriteDoubles(RuleValue):
    """The values of the house rule ``favourite_doubles``: what the favourite suit doubles."""

    BONUSES = "bonuses"
    EVERYTHING = "everything"


class MediateurKing(RuleValue):
    """The values of the house rule ``mediateur_king``: the player who gives up the médiateur king."""

    GIVER_EXEMPT = "giver_exempt"
    GIVER_PAID_A_FISH = "giver_paid_a_fish"


class GrandissimoNemo(RuleValue):
    """The values of the house rule ``grandissimo_nemo``: pool, remise and codille in grandissimo and nemo."""

    AS_SOLO = "as_solo"
    PREMIUM_ONLY = "premium_only"


class MultiplierScope(RuleValue):
    """The values of the house rule ``multiplier_scope``: point score: whose lost games raise the multiplier."""

    PER_TABLE = "per_table"
    PER_PLAYER = "per_player"


class PointsAlly(RuleValue):
    """The values of the house rule ``points_ally``: point score: what the ally scores."""

    LOSSES_IN_FORCED_ONLY = "losses_in_forced_only"
    SHARES_LOSSES = "shares_losses"


class CounterStake(RuleValue):
    """The values of the house rule ``counter_stake``: counters: what each player puts on the game."""

    FISH_EACH = "fish_each"
    COUNTER_EACH = "counter_each"


class CounterMatadors(RuleValue):
    """The values of the house rule ``counter_matadors``: counters: the matadors."""

    ONE_EACH = "one_each"
    NONE = "none"


class CounterVole(RuleValue):
    """The values of the house rule ``counter_vole``: counters: the vole."""

    ONE_FISH = "one_fish"
    DOUBLED_ALONE = "doubled_alone"


class FishExtraordinary(RuleValue):
    """The values of the house rule ``fish_extraordinary``: counters: the fish extraordinary."""

    YES = "yes"
    NO = "no"


class RenounceBeast(RuleValue):
    """The values of the house rule ``renounce_beast``: what a renounce proven by the play costs."""

    UPON_THE_GAME = "upon_the_game"
    NONE = "none"


class BeastsTogether(RuleValue):
    """The values of the house rule ``beasts_together``: several beasts made in one deal."""

    TOGETHER = "together"
    GREATEST_FIRST = "greatest_first"


# Rule names, as typed keys: the settlement code can neither misspell a name nor compare a value of another rule.
SOLO_PREMIUM = RuleKey("solo_premium", SoloPremium)
UNIT = RuleKey("unit", Unit)
UNIT_ROUNDING = RuleKey("unit_rounding", UnitRounding)
ANTES = RuleKey("antes", Antes)
ANTE_BY = RuleKey("ante_by", AnteBy)
DOUBLE_MATADORS_SUITS = RuleKey("double_matadors_suits", DoubleMatadorsSuits)
DOUBLE_MATADORS_PAY = RuleKey("double_matadors_pay", DoubleMatadorsPay)
LONG_MATADORS = RuleKey("long_matadors", LongMatadors)
MATADORS_PAID = RuleKey("matadors_paid", MatadorsPaid)
BONUS_FLOW = RuleKey("bonus_flow", BonusFlow)
ALLIANCE_LOSS = RuleKey("alliance_loss", AllianceLoss)
ALLIANCE_ODD_CHIP = RuleKey("alliance_odd_chip", AllianceOddChip)
REMISE_BEAST = RuleKey("remise_beast", RemiseBeast)
CODILLE_BEAST = RuleKey("codille_beast", CodilleBeast)
CODILLE_INDIVISIBLE = RuleKey("codille_indivisible", CodilleIndivisible)
CODILLE_PAYMENTS = RuleKey("codille_payments", CodillePayments)
VOLE_PAYMENT = RuleKey("vole_payment", VolePayment)
VOLE_LOST_PAYS = RuleKey("vole_lost_pays", VoleLostPays)
ANNOUNCED_VOLE_PREMIUM = RuleKey("announced_vole_premium", AnnouncedVolePremium)
ANNOUNCED_VOLE_SHORT = RuleKey("announced_vole_short", AnnouncedVoleShort)
FORCED_SPADILLE_BONUSES = RuleKey("forced_spadille_bonuses", ForcedSpadilleBonuses)
OWN_KING = RuleKey("own_king", OwnKing)
POOL_AT_END = RuleKey("pool_at_end", PoolAtEnd)
PAULANS = RuleKey("paulans", Paulans)
FAVOURITE_SUIT = RuleKey("favourite_suit", FavouriteSuit)
FAVOURITE_DOUBLES = RuleKey("favourite_doubles", FavouriteDoubles)
MEDIATEUR_KING = RuleKey("mediateur_king", MediateurKing)
GRANDISSIMO_NEMO = RuleKey("grandissimo_nemo", GrandissimoNemo)
MULTIPLIER_SCOPE = RuleKey("multiplier_scope", MultiplierScope)
COUNTER_STAKE = RuleKey("counter_stake", CounterStake)
COUNTER_MATADORS = RuleKey("counter_matadors", CounterMatadors)
COUNTER_VOLE = RuleKey("counter_vole", CounterVole)
FISH_EXTRAORDINARY = RuleKey("fish_extraordinary", FishExtraordinary)
RENOUNCE_BEAST = RuleKey("renounce_beast", RenounceBeast)
BEASTS_TOGETHER = RuleKey("beasts_together", BeastsTogether)
POINTS_ALLY = RuleKey("points_ally", PointsAlly)


def _rule(key: RuleKey[V], title: str, point: int | None, default: str, help: str,
          *choices: tuple[str, str, str]) -> HouseRule:  # more than 5: one rule's definition, written positionally as a row of HOUSE_RULES
    rule = HouseRule(str(key), title, " ".join(help.split()), tuple(Choice(*c) for c in choices), default, point, help)
    rule.choice(default)  # the default must be one of the choices
    if set(rule.values) != {member.value for member in key.values}:  # pragma: no cover - a definition error
        raise AssertionError(f"the values of {key} and its Enum {key.values.__name__} differ")
    _ENUMS[rule.name] = key.values
    return rule


_ENUMS: dict[str, type[RuleValue]] = {}
"""Each rule's Enum of values, by the rule's name."""


HOUSE_RULES: tuple[HouseRule, ...] = (
    _rule(
        SOLO_PREMIUM, N_("Premium for a solo"), 1, "four_units",
        N_("""What each opponent pays Hombre for a won solo (and Hombre pays each
        for a lost one). P's basic game: 4 units "for the solo". P's Médiateur
        section: "the premium is only 2 units unless played in favourite", as
        in Quanti's table. PG lists no solo premium: Hombre "wins the stake"
        and the bonuses. P's vole bid is "as solo, but also undertaking to win
        all 10 tricks", so it takes the solo premium here (P does not say so
        outright)."""),
        ("four_units", N_("4 units"), "P"),
        ("two_units", N_("2 units"), N_("P (Médiateur), Quanti")),
        ("none", N_("no premium"), "PG"),
    ),
    _rule(
        UNIT, N_("What a unit is"), 2, "quarter_of_stake",
        N_("""Premiums and bonuses are counted in units. P: "A unit means one
        quarter of the stake. The stake may be greater than four chips, as it
        is carried forward when a game is lost"; PG: "one quarter of the current
        stake". The stake is counted here as the pool in play: every chip in
        the pool when the deal is played, this deal's antes included (the
        sources do not say when). That it includes what an earlier evening
        carried in and a waiting beast that joins, like any chip carried
        forward, is the app's reading: the sources speak of no next evening,
        nor of when a waiting beast joins. A unit fixed at one chip, a quarter
        of the basic four-chip stake, is a simplification with no source."""),
        ("quarter_of_stake", N_("a quarter of the pool in play"), "P, PG"),
        ("one_chip", N_("one chip, always"), ""),
    ),
    _rule(
        UNIT_ROUNDING, N_("Rounding a quarter of the pool"), 2, "down",
        N_("""Used when the unit is a quarter of the pool and the pool does not
        divide by four. No source gives a rule; the unit is never less than one
        chip. Under the quadrille defaults the pool always divides by four."""),
        ("down", N_("round down"), ""),
        ("up", N_("round up"), ""),
        ("nearest", N_("to the nearest chip, halves up"), ""),
    ),
    _rule(
        ANTES, N_("Antes while a pool is carried forward"), 3, "every_deal",
        N_("""P: "Before each deal, each player stakes one chip to the pool" (PG
        the same), and W's "triple stake" in the deal after a remise implies
        that the antes go on while a pool is carried forward. Anteing only into
        an empty pool has no source."""),
        ("every_deal", N_("every deal"), "P, PG, W"),
        ("when_pool_empty", N_("only when the pool is empty"), ""),
    ),
    _rule(
        ANTE_BY, N_("Who antes"), None, "each_player",
        N_("""P and PG: each player stakes one chip before each deal, "(Or the
        dealer stakes four, if preferred.)" W: "Originally, each player anted
        an agreed stake ... Later, four stakes were anted by the dealer alone."
        The stake is four chips either way."""),
        ("each_player", N_("each player one chip"), "P, PG, W"),
        ("dealer", N_("the dealer four chips"), "P, PG, W"),
    ),
    _rule(
        DOUBLE_MATADORS_SUITS, N_("Which runs of four are double matadors"), 4, "red_only",
        N_("""P: double matadors are "3 plus Punto", "of course possible only when
        a red suit was trump"; PG likewise: "Punto, or Ace, only applies when a
        red suit is trump". So with black trumps a run of four or more is
        entered as held and paid as three matadors (the app's reading of P:
        "'Matadors' are paid when Hombre originally held Spadille, Manille,
        and Basto"). W pays them
        when "the four highest matadors (trumps)" are held, in any suit (its
        fourth trump in black is the King)."""),
        ("red_only", N_("with Punto: red trumps only (a black run of four pays as three)"), "P, PG"),
        ("any_suit", N_("the four highest trumps, any suit"), "W"),
    ),
    _rule(
        DOUBLE_MATADORS_PAY, N_("What double matadors pay"), 4, "instead",
        N_("""P's list gives three matadors 1 unit and "Double matadors (3 plus
        Punto)" 2 units, Quanti's table 3 matadors 1 and 4 matadors 2, PG "all
        three and Punto" 2 units, W "two units": 2 in place of 1. Reading P's
        list as cumulative, 1 + 2, has no source."""),
        ("instead", N_("2 units in place of 1"), "P, Quanti, PG, W"),
        ("in_addition", N_("1 + 2 = 3 units"), ""),
    ),
    _rule(
        LONG_MATADORS, N_("Runs of matadors longer than four"), 5, "as_double",
        N_("""EB: "all those trumps which follow the three first without
        interruption are likewise called matadores" (H47, per RULES-NOTES,
        calls them "false matadores"), but no source gives a rate past four:
        Quanti's table stops at 4 matadors. Either a longer run pays as double
        matadors, or each matador past the fourth adds one unit; neither has a
        source."""),
        ("as_double", N_("paid as double matadors"), ""),
        ("one_more_each", N_("one more unit for each past the fourth"), N_("EB, H47 (the name only)")),
    ),
    _rule(
        MATADORS_PAID, N_("Whose matadors are paid"), 6, "contracting_side",
        N_("""P: "'Matadors' are paid when Hombre originally held Spadille,
        Manille, and Basto" (in an alliance, "held between the allies"); on a
        remise she pays "for any matadors she may have held", on a codille what
        she "would otherwise have received". PG and EB likewise pay only the
        contracting side's matadors. No source pays the defenders for theirs
        (W's "held by the same side" does not say which side), so this rule has
        one value."""),
        ("contracting_side", N_("the contracting side's only"), "P, PG, EB"),
    ),
    _rule(
        BONUS_FLOW, N_("How an alliance's bonuses flow"), 7, "one_to_one",
        N_("""P: the allies "receive from the opponents, one to one, any of the
        relevant bonuses", and when they lose "Hombre pays the appropriate
        amount to one opponent, and her ally to the other" (W says the same of
        casco). Which opponent settles with which ally is in no source: here
        the first opponent after Hombre in the order of play settles with
        Hombre, the other with her ally. PG: "each opponent pays each partner
        any of the relevant bonuses"; losses are paid back the same way here
        (PG does not say)."""),
        ("one_to_one", N_("one to one"), "P"),
        ("each_to_each", N_("each opponent to each ally"), "PG"),
    ),
    _rule(
        ALLIANCE_LOSS, N_("Who pays when an alliance loses"), 8, "shared_unless_under_3",
        N_("""P: in a lost alliance "Hombre pays the appropriate amount to one
        opponent, and her ally to the other", but Hombre "is obliged to win at
        least three tricks, and if she fails to do so must alone pay the two
        opponents on behalf of herself and her ally". EB (H47 the same, per
        RULES-NOTES) has the three-trick rule and also halves the beast: "one
        half by him that calls, and the other half by him that is called". P
        says only that on a remise "Hombre doubles the stake": the beast is
        shared here as in EB. FR: some houses ask four tricks of Hombre. PG:
        "the loss is borne entirely by the player who called a partner". A
        forced spadille is always shared (P, PG, EB)."""),
        ("shared_unless_under_3", N_("shared, unless Hombre took under 3 tricks"), "P, EB, H47"),
        ("shared_unless_under_4", N_("shared, unless Hombre took under 4 tricks"), "FR"),
        ("hombre_alone", N_("Hombre always pays alone"), "PG"),
    ),
    _rule(
        ALLIANCE_ODD_CHIP, N_("An odd chip when allies share a pool"), None, "stays_in_pool",
        N_("""P: in a won alliance "the stake is divided equally between the
        allies". No source says what happens to an odd chip; it can only arise under other
        house rules (odd codille chips left in the pool, or antes only into an
        empty pool)."""),
        ("stays_in_pool", N_("stays in the pool for the next deal"), ""),
        ("to_hombre", N_("goes to Hombre"), ""),
    ),
    _rule(
        REMISE_BEAST, N_("The remise"), 9, "double_pool",
        N_("""P: on a remise "Hombre doubles the stake - which is carried forward
        to the next deal" (PG the same), adding to the pool as much as is in
        it; EB: the losers "are beasted what goes upon the game"; W: "the
        loser(s) double the pool". The sources agree, so this rule has one
        value."""),
        ("double_pool", N_("Hombre adds as much as is in the pool"), "P, EB, PG, W"),
    ),
    _rule(
        CODILLE_BEAST, N_("What Hombre puts up on codille"), 10, "twice_taken_or_double_stake",
        N_("""On a codille the opponents take the pool and Hombre puts up a beast
        for the next deal. P: she "contributes to the pool for the next deal
        twice the amount that was just taken". PG: "Hombre also puts up double
        the stake to be carried forward to the next deal", also when three
        opponents could not divide the pool and it stayed. When the pool stayed
        nothing was taken and P's words give nothing: read so (twice_taken), a
        solo codille on a fresh four-chip pool costs Hombre 12 chips besides her
        ante (the premium to each) where a remise costs 16, a codille cheaper
        than a remise. The default follows P when something was taken and PG,
        the one source that states the case, when nothing was: double the
        stake, 20 chips. EB: the losers "are beasted what is upon the game",
        once the pool. W: "the penalty for Hombre is double that of Remise"."""),
        ("twice_taken_or_double_stake", N_("twice what was taken; double the stake if nothing was"), "P, PG"),
        ("twice_taken", N_("twice what was taken, nothing if the pool stayed"), N_("P (read literally)")),
        ("once_pool", N_("once what was in the pool"), "EB"),
        ("twice_pool", N_("double the stake, taken or not"), "PG, W"),
    ),
    _rule(
        CODILLE_INDIVISIBLE, N_("A codille pool that does not divide"), 11, "carry_whole",
        N_("""When the three opponents of a codille cannot divide the pool
        equally: P leaves it "in place and carried forward", and PG divides it
        "unless there are three and the stake is not exactly divisible"; FR
        (for Quintille) divides what divides and leaves the odd chips; EB: "They
        who win codill divide what there is; and if there are any counters
        remaining, they belong to him of the three who shall have spadill or the
        highest trump the next deal". For EB's rule, enter in the next deal as
        Spadille's holder whoever of the three winners held Spadille or, if the
        loser of the codille held it, whoever of the three held the highest
        trump; the codille's transfer names the three, and the loser's name is
        refused. In a forced spadille Hombre held Spadille: she takes the chips
        if she is one of the three, and if she lost the codille the deal names
        whoever of the three held the highest trump. The same rule
        is applied to the two opponents of an alliance (no source). With a
        plain four-chip stake a solo codille never divides by three under P."""),
        ("carry_whole", N_("the whole pool stays"), "P, PG"),
        ("split_carry_odd", N_("divide, the odd chips stay"), "FR"),
        ("odd_to_spadille", N_("divide, the odd chips to the winner with Spadille (or the highest trump) next deal"), "EB"),
    ),
    _rule(
        CODILLE_PAYMENTS, N_("What Hombre pays besides the pool on codille"), 12, "what_she_would_have_received",
        N_("""P: Hombre also "pays to each opponent the amount she would otherwise
        have received from them (if applicable) for the premium, matadors and
        the vole undertaken"; EB: "pays to each player what he would have
        received from each if he had won"; W: she must "pay what would have
        been earned by winning". PG states no payment on a codille besides the
        beast."""),
        ("what_she_would_have_received", N_("premium and matadors to each opponent"), "P, EB, W"),
        ("none", N_("nothing besides the beast"), "PG"),
    ),
    _rule(
        VOLE_PAYMENT, N_("How the vole is paid"), 13, "pool_and_bonus",
        N_("""P's basic game: when a vole is bid or undertaken "every player,
        including the bidder, must immediately pay three chips into a new pool,
        consisting of 12 in all", which Hombre's side takes if it wins every
        trick and the opponents share if not; P's list of bonuses also has each
        opponent pay 2 units for the vole. The vole pool without those 2 units
        has no source. PG has no vole pool: "Hombre receives an additional 2
        units from each opponent if successful, otherwise he pays 2 units to
        each for the loss". quanti_table (Médiateur) follows Quanti's table,
        units from every player into the vole pool: voles undertaken 3
        (alliance, médiateur), 6 (casco, solo), 24 (grandissimo); announced 5
        (theoretically 4½), 9, 36; revealed 6, 12, 48; in favourite double. P's
        own text gives other figures for the announced vole, "three times the
        value of the basic game - that is, 3 from each for médiateur ... 6 from
        each for solo ... and 24 each for grandissimo" (the table's figures for
        voles undertaken), and double that revealed (the table's figures); the
        app follows the table. A forced spadille takes the alliance's figure (no
        source). The counters have their own vole payment (counter_vole)."""),
        ("pool_and_bonus", N_("vole pool of 12 and 2 units from each"), "P"),
        ("pool_only", N_("the vole pool of 12 only"), ""),
        ("bonus_only", N_("2 units from each, no vole pool"), "PG"),
        ("quanti_table", N_("a vole pool of the figures of Quanti's table from each"), N_("P (Médiateur), Quanti")),
    ),
    _rule(
        VOLE_LOST_PAYS, N_("A vole undertaken after premiers and lost"), 14, "nothing_more",
        N_("""P: a vole undertaken after six tricks, if lost, "does not bar Hombre
        from winning the game stake, the payment for premiers, and any payment
        for matadors"; only the vole pool goes to the opponents. PG: "otherwise
        he pays 2 units to each for the loss"."""),
        ("nothing_more", N_("only the vole pool is lost"), "P"),
        ("vole_bonus", N_("and 2 units to each opponent"), "PG"),
    ),
    _rule(
        ANNOUNCED_VOLE_PREMIUM, N_("The premium paid for a vole announced and lost"), 15, "vole_bonus",
        N_("""P: Hombre who announced the vole and lost it with six tricks or more
        "neither wins the game stake nor doubles it" and pays her opponents
        nothing "more than the premium of the vole", whose amount P does not
        give. The default, 2 units to each (the vole's bonus in P's list), is
        the app's reading (no source gives the amount). The mediateur profile
        pays nothing besides the vole pool, whose vole is paid by that pool
        alone (Quanti's table has no other vole payment): no source states the
        case there either."""),
        ("vole_bonus", N_("2 units to each opponent"), N_("P (amount assumed)")),
        ("none", N_("nothing besides the vole pool"), ""),
    ),
    _rule(
        ANNOUNCED_VOLE_SHORT, N_("A vole announced, with fewer than six tricks"), 15, "remise",
        N_("""P: if Hombre who announced the vole "fails even to take six tricks,
        however, she does pay a remise to the pool (i.e. doubles it) as well as
        whatever other payments are due for a lost solo": read here as however
        few tricks she took, with the premium of the vole as well (house rule
        announced_vole_premium). Reading it by tricks, four or fewer a codille,
        has no source."""),
        ("remise", N_("always a remise"), "P"),
        ("by_tricks", N_("remise at 5 tricks, codille at 4 or fewer"), ""),
    ),
    _rule(
        FORCED_SPADILLE_BONUSES, N_("Premiers and vole in forced spadille"), 16, "no_premiers_no_vole",
        N_("""P: in a forced spadille "the vole may not be specifically undertaken
        and there is no extra payment for winning it", which "presumably also
        precludes payment for premiers, but none of my sources addresses this
        point"; W: "They may not go for a vole"; H47 agrees (per RULES-NOTES).
        PG: "In an alliance or forced Spadille ... each opponent pays each
        partner any of the relevant bonuses", premiers and the vole among them,
        and its point table scores both."""),
        ("no_premiers_no_vole", N_("neither premiers nor vole"), "P, H47"),
        ("premiers_and_vole", N_("premiers and vole as in an alliance"), "PG"),
    ),
    _rule(
        OWN_KING, N_("Hombre calls a King she holds"), 19, "secret_solo",
        N_("""P: "Hombre may call a King she holds herself, whether by mistake or
        as a bluff. In this case she will, in effect, be playing a solo
        (secretly), and wins or loses accordingly": read here as a solo, premium
        included. EB: "he wins alone or loses alone ... except the sans
        appeller, which he does not pay if he loses, or receive if he wins":
        alone, without the solo premium. Forbidding it has no source."""),
        ("secret_solo", N_("a secret solo, with the solo premium"), "P"),
        ("alone_no_premium", N_("alone, without the solo premium"), "EB"),
        ("forbidden", N_("not allowed"), ""),
    ),
    _rule(
        POOL_AT_END, N_("The pool at the end of the evening"), 21, "split_equally",
        N_("""No source says. The table may share the pool out equally (the odd
        chips stay for the next evening) or carry it whole to the next
        evening."""),
        ("split_equally", N_("shared equally, odd chips carried"), ""),
        ("carry_forward", N_("carried whole to the next evening"), ""),
    ),
    _rule(
        PAULANS, N_("The last deals played double (paulans)"), 22, "none",
        N_("""EB: "The last game is generally played double, and is called
        paulans"; FR doubles the last round (per RULES-NOTES). How a doubled
        deal pays is the app's reading (no source): the antes, the vole stake
        and every payment counted in units are doubled; the unit is worked out
        from the pool as single antes would have made it."""),
        ("none", N_("no"), ""),
        ("last_deal", N_("the last deal"), "EB"),
        ("last_round", N_("the last round of four deals"), "FR"),
    ),
    _rule(
        FAVOURITE_SUIT, N_("The favourite suit"), None, "none",
        N_("""Médiateur is played with a favourite suit. P: "often hearts, though
        it may be decided otherwise, or at random at start of play or even at
        each deal"; EB: "determined by drawing a card out of the pack", for "the
        whole party"; PG's optional Preference is "typically that entrumped in
        the first deal". A bid in favourite overcalls the same bid in another
        suit (P, EB, PG); what it doubles is the house rule favourite_doubles.
        Name the suit for the evening, or enter it with each deal. P's basic
        Quadrille has none, and EB's figures are "without the favourite
        suite"."""),
        ("none", N_("no favourite suit"), N_("P (Quadrille), EB (its figures)")),
        ("hearts", N_("hearts, for the evening"), "P"),
        ("diamonds", N_("diamonds, for the evening"), N_("P, EB (drawn)")),
        ("clubs", N_("clubs, for the evening"), N_("P, EB (drawn)")),
        ("spades", N_("spades, for the evening"), N_("P, EB (drawn)")),
        ("each_deal", N_("drawn afresh for each deal"), "P"),
    ),
    _rule(
        FAVOURITE_DOUBLES, N_("What the favourite suit doubles"), 18, "bonuses",
        N_("""P: "all relevant bonuses for it are doubled (though the stake itself
        remains single)", Quanti's "f" column. PG: a bid in Preference "wins or
        loses double"; H47 (per RULES-NOTES) doubles everything, the beasts
        too. EB implies a doubling (two fish for a médiateur King "in the
        favourite suite"; the Turk "is double of the favourite suite") without
        saying what is doubled."""),
        ("bonuses", N_("the premium and bonuses, not the stake"), "P, Quanti"),
        ("everything", N_("everything, the beasts too"), "H47, PG"),
    ),
    _rule(
        MEDIATEUR_KING, N_("The player who gives up the médiateur King"), 17, "giver_exempt",
        N_("""P: "the player who surrendered her King is exempt from paying Hombre
        that premium, though not from paying for matadors, premiers or the
        vole". P does not say what happens when Hombre loses: here the giver is
        not paid the premium either (no source). EB: "he gives what card he
        thinks proper with a fish; but must give two fish if it is in the
        favourite suite" (H47 the same, per RULES-NOTES); in chips a fish is
        counted as one unit (no source for the rate)."""),
        ("giver_exempt", N_("exempt from paying the premium"), "P"),
        ("giver_paid_a_fish", N_("paid one unit by Hombre (two in favourite)"), "EB, H47"),
    ),
    _rule(
        GRANDISSIMO_NEMO, N_("Pool, remise and codille in grandissimo and nemo"), 20, "as_solo",
        N_("""P calls grandissimo "a solo with no trump suit, apart from the two
        black Aces", worth 8 units, and nemo (devole) "an undertaking to lose
        every trick", worth 16 (Quanti's table the same), but no source says
        whether they sweep the pool and pay remise and codille like a solo or
        are paid their premium alone: the table must choose. The app's own
        reading (no source): neither has matadors (without a trump suit there
        is no Manille), nemo has no premiers or vole, and any trick taken loses
        nemo (a remise)."""),
        ("as_solo", N_("like a solo: the pool, remise and codille"), ""),
        ("premium_only", N_("the premium only; the pool stays"), ""),
    ),
    _rule(
        MULTIPLIER_SCOPE, N_("Point score: whose lost games raise the multiplier"), 23, "per_table",
        N_("""PG's point score: "If a game is lost, whether by remise or codille,
        the following game is won or lost double", trebled after two lost in
        succession, and so on "until a game is won". Read here as the table's
        next game; a multiplier for each player, raised by her own lost games as
        Hombre, has no source."""),
        ("per_table", N_("the table's next game"), "PG"),
        ("per_player", N_("each Hombre's own next game"), ""),
    ),
    _rule(
        POINTS_ALLY, N_("Point score: what the ally scores"), 23, "losses_in_forced_only",
        N_("""PG: "the appropriate winning score is credited to each" ally, "but a losing
        score is deducted only from the ally's in a forced Spadille"; in a lost
        alliance Hombre alone loses points. Making the ally share every loss has
        no source."""),
        ("losses_in_forced_only", N_("wins always, losses only in forced spadille"), "PG"),
        ("shares_losses", N_("wins and losses alike"), ""),
    ),
    _rule(
        COUNTER_STAKE, N_("Counters: what each player puts on the game"), None, "fish_each",
        N_("""The Britannica's counters (a fish is 10 counters, a mil 10 fish) do not
        say what each player stakes on the game before a deal; the beasts equal
        what is on it. No source given here has a figure: the table must choose."""),
        ("fish_each", N_("a fish (10 counters) each"), ""),
        ("counter_each", N_("one counter each"), ""),
    ),
    _rule(
        COUNTER_MATADORS, N_("Counters: the matadors"), None, "one_each",
        N_("""EB: the winners "are paid the game, the consolation, and the matadores if
        they have them", and every trump following the three matadors without a
        break counts as one; the rate is not given. One counter a matador from
        each opponent is the app's assumption (no source)."""),
        ("one_each", N_("one counter for each matador"), N_("EB (the rate assumed)")),
        ("none", N_("not paid"), ""),
    ),
    _rule(
        COUNTER_VOLE, N_("Counters: the vole"), 13, "one_fish",
        N_("""EB: "The vole with the médiateur receives one fish only, as at common
        quadrille", read here as one fish from each opponent; FR doubles it when
        Hombre plays alone (per RULES-NOTES). EB does not say what a vole
        undertaken and lost costs: here the same fish, paid to each opponent (no
        source)."""),
        ("one_fish", N_("one fish from each"), "EB"),
        ("doubled_alone", N_("one fish, two when Hombre plays alone"), "FR"),
    ),
    _rule(
        FISH_EXTRAORDINARY, N_("Counters: the fish extraordinary"), None, "yes",
        N_("""EB: with the médiateur "a fish extraordinary is given to him who plays the
        médiateur, and to him who plays sans prendre"; its figures show the loser
        paying it too (12 by remise, 13 by codille, for the médiateur). The
        common game has none ("the game is marked and played the same as in
        common, except ...")."""),
        ("yes", N_("yes, with the médiateur"), "EB"),
        ("no", N_("no, as in the common game"), "EB"),
    ),
    _rule(
        RENOUNCE_BEAST, N_("A renounce proven by the play"), None, "upon_the_game",
        N_("""Only where the play of a deal is recorded card by card. EB: "If any
        one renounces, he is beasted as often as he has renounced and it is
        detected"; "if the cards are all played, the beast is still made"; a
        beast is what losers are "beasted": "what goes upon the game". The app
        reads that as the pool in play after the antes, once for each renounce
        (its reading). EB also says that when the renounce is found before the
        deal is finished "and has been detrimental to the game" the cards are
        taken up and replayed from that trick, and that "several renounces in
        the same deal" are "to be played again, unless the cards should be
        mixed": a table that replays enters the replayed deal, whose play has
        no renounce. P and PG give no penalty for a renounce: at their tables
        the figure is EB's. With the point score, which has no pool, the
        renouncer is struck off the points the game counted, once for each
        renounce (no source)."""),
        ("upon_the_game", N_("the renouncer puts up what is upon the game, once a renounce"), "EB"),
        ("none", N_("no beast for a renounce"), ""),
    ),
    _rule(
        BEASTS_TOGETHER, N_("Several beasts in one deal"), None, "together",
        N_("""EB: "If several beasts are made in the same deal, they all go
        together, unless it is otherwise agreed at the beginning of the party;
        and when there are several beasts, the greatest always goes first."
        Together, every beast of a deal (the remise or codille beast and any
        renounce beasts) goes into the next pool. One at a time, the greatest
        goes into the next pool and each of the others waits, the greatest
        first, to join the pool of a later deal, one a deal, before the antes
        (when they join is the app's reading: EB says only that the greatest
        goes first)."""),
        ("together", N_("all into the next pool"), "EB"),
        ("greatest_first", N_("one at a time, the greatest first"), "EB"),
    ),
)

RULES_BY_NAME: Mapping[str, HouseRule] = {rule.name: rule for rule in HOUSE_RULES}


def house_rule(name: str) -> HouseRule:
    try:
        return RULES_BY_NAME[name]
    except KeyError:
        raise UnknownHouseRule(f"there is no house rule called {name!r}") from None


BASIC_CONTRACTS = (Contract.FORCED_SPADILLE, Contract.ALLIANCE, Contract.SOLO, Contract.VOLE)


@dataclass(frozen=True)
class Profile:
    """A settlement system of the sources: its contracts and its rule values."""

    name: str
    english_title: str
    english_description: str
    contracts: tuple[Contract, ...]
    """The contracts a table of this profile plays, lowest bid first."""
    overrides: tuple[tuple[str, str], ...] = ()
    """Rule values that differ from the quadrille defaults."""
    settled_by: str = "chips"
    """The name of its settlement system: "chips" (hard score), "points" (PG's point score), "counters" (EB)."""
    vole_bids: tuple[Contract, ...] = ()
    """Contracts that may be bid with the vole announced or revealed (Médiateur)."""

    @property
    def title(self) -> str:
        """The title in the reader's language (English outside a translated request)."""
        return _(self.english_title)

    @property
    def description(self) -> str:
        """The description in the reader's language (English outside a translated request)."""
        return _(self.english_description)

    @property
    def system(self) -> System:
        """Its settlement system, which the core and the web ask (they never compare its name)."""
        from .systems import system_named

        return system_named(self.settled_by)

    def default(self, rule_name: str) -> str:
        for name, value in self.overrides:
            if name == rule_name:
                return value
        return house_rule(rule_name).default

    def applies(self, rule_name: str) -> bool:
        """Whether the house rule called ``rule_name`` can change anything at a table of this profile: its
        settlement system reads it (:data:`RULE_SYSTEMS`) and the profile plays a contract it concerns
        (:data:`RULE_CONTRACTS`). A system none of these tables name (one registered later) reads every rule."""
        house_rule(rule_name)  # raises for an unknown name
        systems = RULE_SYSTEMS.get(rule_name)
        if systems is not None and self.settled_by in KNOWN_SYSTEMS and self.settled_by not in systems:
            return False
        concerns = RULE_CONTRACTS.get(rule_name)
        if concerns is None:
            return True
        played = set(self.contracts)
        if self.vole_bids:
            played.add(Contract.VOLE)  # a vole announced (or revealed) in the bid, as P's vole bid
        return bool(played & concerns)

    def applicable_rules(self) -> tuple[HouseRule, ...]:
        """The house rules that apply to this profile (:meth:`applies`), in the order of ``HOUSE_RULES``."""
        return tuple(rule for rule in HOUSE_RULES if self.applies(rule.name))


PROFILES: dict[str, Profile] = {
    profile.name: profile
    for profile in (
        Profile(
            "quadrille",
            N_("Quadrille, hard score (P)"),
            N_("Chips and a pool: alliance, solo, vole and forced spadille; matadors, "
               "premiers and the vole; remise and codille beasts; a separate vole pool. "
               "Every default follows Parlett after Quanti (P) where P states the case; where only "
               "PG does (the codille beast when the opponents took nothing), it follows PG."),
            BASIC_CONTRACTS,
        ),
        Profile(
            "penguin_chips",
            N_("Penguin settlement in chips (PG)"),
            N_("The simpler settlement of the Penguin Book of Card Games: no solo premium, "
               "each opponent pays each ally, a lost alliance is paid by Hombre alone, the vole "
               "is 2 units each way with no vole pool, premiers and the vole are paid in forced "
               "spadille too, and codille costs only the beast, double the stake; a favourite suit, "
               "if played, wins or loses double."),
            BASIC_CONTRACTS,
            (
                (SOLO_PREMIUM, "none"),
                (BONUS_FLOW, "each_to_each"),
                (ALLIANCE_LOSS, "hombre_alone"),
                (CODILLE_BEAST, "twice_pool"),
                (CODILLE_PAYMENTS, "none"),
                (VOLE_PAYMENT, "bonus_only"),
                (VOLE_LOST_PAYS, "vole_bonus"),
                (FORCED_SPADILLE_BONUSES, "premiers_and_vole"),
                (FAVOURITE_DOUBLES, "everything"),
            ),
        ),
        Profile(
            "mediateur",
            N_("Médiateur with Quanti's table (P)"),
            N_("Quadrille's richer variant: médiateur, casco, grandissimo and nemo besides the "
               "basic bids; voles announced and revealed with their vole pools; a favourite suit "
               "that doubles the bonuses. Payments follow Quanti's table."),
            (Contract.FORCED_SPADILLE, Contract.ALLIANCE, Contract.MEDIATEUR, Contract.CASCO,
             Contract.SOLO, Contract.GRANDISSIMO, Contract.NEMO),
            (
                (SOLO_PREMIUM, "two_units"),
                (VOLE_PAYMENT, "quanti_table"),
                (ANNOUNCED_VOLE_PREMIUM, "none"),
                (FAVOURITE_SUIT, "hearts"),
            ),
            vole_bids=(Contract.MEDIATEUR, Contract.SOLO, Contract.GRANDISSIMO),
        ),
        Profile(
            "penguin_points",
            N_("Penguin point score (PG)"),
            N_("No chips: each game scores points to Hombre (and her ally) by contract and result, "
               "matadors ignored; after a lost game the next counts double, after two treble, and so "
               "on until a game is won."),
            BASIC_CONTRACTS,
            ((FORCED_SPADILLE_BONUSES, "premiers_and_vole"),),
            settled_by="points",
        ),
        Profile(
            "britannica",
            N_("The Britannica's counters (EB)"),
            N_("Counters, fish and mils: the game, the consolation, sans appeler and the matadors, "
               "a fish extraordinary for médiateur and sans prendre, beasts equal to what is on the "
               "game, the médiateur King bought with a fish, the last deal played double (paulans); "
               "alliance, médiateur and sans prendre."),
            (Contract.FORCED_SPADILLE, Contract.ALLIANCE, Contract.MEDIATEUR, Contract.SOLO),
            (
                (CODILLE_BEAST, "once_pool"),
                (CODILLE_INDIVISIBLE, "odd_to_spadille"),
                (MEDIATEUR_KING, "giver_paid_a_fish"),
                (OWN_KING, "alone_no_premium"),
                (PAULANS, "last_deal"),
                (FAVOURITE_DOUBLES, "everything"),
            ),
            settled_by="counters",
        ),
    )
}

DEFAULT_PROFILE = "quadrille"


def register_profile(new: Profile) -> Profile:
    """Offer a profile (and so its settlement system) to tables: one module and one profile make a system."""
    PROFILES[new.name] = new
    return new


def profile(name: str) -> Profile:
    try:
        return PROFILES[name]
    except KeyError:
        known = ", ".join(PROFILES)
        raise UnknownHouseRule(f"there is no rule profile called {name!r} (known: {known})") from None


@dataclass(frozen=True)
class HouseRules:
    """The rule values a table plays: a profile and the values it changed.

    Look a value up with ``rules[SOLO_PREMIUM]``. Instances compare equal
    when they play the same profile with the same values.
    """

    profile_name: str
    values: tuple[tuple[str, str], ...]
    """Every house rule's value, in the order of ``HOUSE_RULES``."""
    _index: dict[str, RuleValue] = field(default_factory=dict, init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        # settling looks rules up thousands of times: each value is made its Enum member once
        object.__setattr__(self, "_index", {name: _ENUMS[name](value) for name, value in self.values})

    @classmethod
    def of(cls, profile_name: str = DEFAULT_PROFILE, changes: Mapping[str, str] | None = None) -> HouseRules:
        """The profile's values, with ``changes`` applied (each checked)."""
        prof = profile(profile_name)
        changes = dict(changes or {})
        values = []
        for rule in HOUSE_RULES:
            value = changes.pop(rule.name, prof.default(rule.name))
            if not isinstance(value, str):
                raise UnknownHouseRule(f"the value of the house rule {rule.name} must be a name, not {value!r}")
            rule.choice(value)
            values.append((rule.name, value))
        if changes:
            house_rule(next(iter(changes)))  # raises for the unknown name
        return cls(prof.name, tuple(values))

    @property
    def profile(self) -> Profile:
        return profile(self.profile_name)

    def __getitem__(self, key: RuleKey[V]) -> V:
        """The value of the rule ``key`` (one of this module's typed keys), as its Enum member."""
        try:
            return self._index[key]  # type: ignore[return-value]  # the key's type names its Enum (no cast: this runs ~15 times a deal)
        except KeyError:
            raise UnknownHouseRule(f"there is no house rule called {key!r}") from None

    def value_of(self, name: str) -> str:
        """The value of the rule called ``name``, as files and forms write it."""
        try:
            return self._index[name].value  # type: ignore[no-any-return]
        except KeyError:
            raise UnknownHouseRule(f"there is no house rule called {name!r}") from None

    def __iter__(self) -> Iterator[tuple[str, str]]:
        return iter(self.values)

    def changes(self) -> dict[str, str]:
        """The values that differ from the profile's defaults."""
        prof = self.profile
        return {name: value for name, value in self.values if value != prof.default(name)}

    def with_changes(self, changes: Mapping[str, str]) -> HouseRules:
        return HouseRules.of(self.profile_name, {**self.changes(), **changes})


# Which house rules apply to which profile (Profile.applies): the tally prints only these.
KNOWN_SYSTEMS = frozenset({"chips", "points", "counters"})
"""The settlement systems :data:`RULE_SYSTEMS` knows; a rule it does not restrict is read by every system."""
_POOLS = frozenset({"chips", "counters"})
RULE_SYSTEMS: Mapping[str, frozenset[str]] = {
    # The hard score's units, premiums, matadors and vole payments (P, PG's chips, Quanti's table).
    **{str(key): frozenset({"chips"}) for key in (
        SOLO_PREMIUM, UNIT, UNIT_ROUNDING, DOUBLE_MATADORS_SUITS, DOUBLE_MATADORS_PAY, LONG_MATADORS,
        CODILLE_PAYMENTS, VOLE_PAYMENT, VOLE_LOST_PAYS, ANNOUNCED_VOLE_PREMIUM)},
    # Antes, the pool and its beasts, the alliance's flow, the favourite suit and paulans: both pool-based systems.
    **{str(key): _POOLS for key in (
        ANTES, ANTE_BY, MATADORS_PAID, BONUS_FLOW, ALLIANCE_LOSS, ALLIANCE_ODD_CHIP, REMISE_BEAST, CODILLE_BEAST,
        CODILLE_INDIVISIBLE, POOL_AT_END, PAULANS, FAVOURITE_SUIT, FAVOURITE_DOUBLES, MEDIATEUR_KING)},
    str(ANNOUNCED_VOLE_SHORT): frozenset({"chips", "points"}),  # remise or codille: the point score scores both
    str(GRANDISSIMO_NEMO): _POOLS,
    str(BEASTS_TOGETHER): _POOLS,  # the point score has no pool for a beast to wait for
    # The point score's own (PG).
    str(MULTIPLIER_SCOPE): frozenset({"points"}),
    str(POINTS_ALLY): frozenset({"points"}),
    # The Britannica's counters (EB).
    **{str(key): frozenset({"counters"}) for key in (COUNTER_STAKE, COUNTER_MATADORS, COUNTER_VOLE, FISH_EXTRAORDINARY)},
}
"""The settlement systems that read each house rule; a rule not named here is read by all of them
(own_king and forced_spadille_bonuses decide what is entered and how it scores in every system)."""

_ALLIED = frozenset(c for c, kind in CONTRACT_KINDS.items() if kind.allied)
RULE_CONTRACTS: Mapping[str, frozenset[Contract]] = {
    str(BONUS_FLOW): _ALLIED,
    str(ALLIANCE_LOSS): _ALLIED,
    str(ALLIANCE_ODD_CHIP): _ALLIED,
    str(POINTS_ALLY): _ALLIED,
    str(OWN_KING): _ALLIED,
    str(FORCED_SPADILLE_BONUSES): frozenset({Contract.FORCED_SPADILLE}),
    str(MEDIATEUR_KING): frozenset({Contract.MEDIATEUR}),
    str(GRANDISSIMO_NEMO): frozenset({Contract.GRANDISSIMO, Contract.NEMO}),
    str(ANNOUNCED_VOLE_PREMIUM): frozenset({Contract.VOLE}),
    str(ANNOUNCED_VOLE_SHORT): frozenset({Contract.VOLE}),
    str(FISH_EXTRAORDINARY): frozenset({Contract.MEDIATEUR, Contract.SOLO}),
}
"""The contracts a house rule concerns: it applies only where the profile plays one of them (a vole bid
in Médiateur counts as :attr:`Contract.VOLE`). A rule not named here concerns every contract."""
