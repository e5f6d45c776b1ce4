"""Every house rule's values and its typed name (:class:`~scorer.core.rules.rule_types.RuleKey`), each value
declared once with its label and the sources that give it. What each rule decides, and its default, is in
:mod:`scorer.core.rules.house_rules`.

Source tags: P (Parlett after Quanti, 1822), W (Wikipedia after Quanti), EB (Encyclopaedia Britannica, 7th ed.),
PG (Parlett, Penguin Book of Card Games), FR (a French *Jeu de Quadrille*, 1720s-40s), H47 (Hoyle's Games, 1847).
"""

from __future__ import annotations

from ..i18n import N_
from .rule_types import RuleKey, RuleValue


class SoloPremium(RuleValue):
    """The values of the house rule ``solo_premium``: premium for a solo."""

    FOUR_UNITS = "four_units", N_("4 units"), "P"
    TWO_UNITS = "two_units", N_("2 units"), N_("P (Médiateur), Quanti")
    NONE = "none", N_("no premium"), "PG"


SOLO_PREMIUM = RuleKey("solo_premium", SoloPremium)


class Unit(RuleValue):
    """The values of the house rule ``unit``: what a unit is."""

    QUARTER_OF_STAKE = "quarter_of_stake", N_("a quarter of the pool in play"), "P, PG"
    ONE_CHIP = "one_chip", N_("one chip, always"), ""


UNIT = RuleKey("unit", Unit)


class UnitRounding(RuleValue):
    """The values of the house rule ``unit_rounding``: rounding a quarter of the pool."""

    DOWN = "down", N_("round down"), ""
    UP = "up", N_("round up"), ""
    NEAREST = "nearest", N_("to the nearest chip, halves up"), ""


UNIT_ROUNDING = RuleKey("unit_rounding", UnitRounding)


class Antes(RuleValue):
    """The values of the house rule ``antes``: antes while a pool is carried forward."""

    EVERY_DEAL = "every_deal", N_("every deal"), "P, PG, W"
    WHEN_POOL_EMPTY = "when_pool_empty", N_("only when the pool is empty"), ""


ANTES = RuleKey("antes", Antes)


class AnteBy(RuleValue):
    """The values of the house rule ``ante_by``: who antes."""

    EACH_PLAYER = "each_player", N_("each player one chip"), "P, PG, W"
    DEALER = "dealer", N_("the dealer four chips"), "P, PG, W"


ANTE_BY = RuleKey("ante_by", AnteBy)


class DoubleMatadorsSuits(RuleValue):
    """The values of the house rule ``double_matadors_suits``: which runs of four are double matadors."""

    RED_ONLY = "red_only", N_("with Punto: red trumps only (a black run of four pays as three)"), "P, PG"
    ANY_SUIT = "any_suit", N_("the four highest trumps, any suit"), "W"


DOUBLE_MATADORS_SUITS = RuleKey("double_matadors_suits", DoubleMatadorsSuits)


class DoubleMatadorsPay(RuleValue):
    """The values of the house rule ``double_matadors_pay``: what double matadors pay."""

    INSTEAD = "instead", N_("2 units in place of 1"), "P, Quanti, PG, W"
    IN_ADDITION = "in_addition", N_("1 + 2 = 3 units"), ""


DOUBLE_MATADORS_PAY = RuleKey("double_matadors_pay", DoubleMatadorsPay)


class LongMatadors(RuleValue):
    """The values of the house rule ``long_matadors``: runs of matadors longer than four."""

    AS_DOUBLE = "as_double", N_("paid as double matadors"), ""
    ONE_MORE_EACH = "one_more_each", N_("one more unit for each past the fourth"), N_("EB, H47 (the name only)")


LONG_MATADORS = RuleKey("long_matadors", LongMatadors)


class MatadorsPaid(RuleValue):
    """The values of the house rule ``matadors_paid``: whose matadors are paid."""

    CONTRACTING_SIDE = "contracting_side", N_("the contracting side's only"), "P, PG, EB"


MATADORS_PAID = RuleKey("matadors_paid", MatadorsPaid)


class BonusFlow(RuleValue):
    """The values of the house rule ``bonus_flow``: how an alliance's bonuses flow."""

    ONE_TO_ONE = "one_to_one", N_("one to one"), "P"
    EACH_TO_EACH = "each_to_each", N_("each opponent to each ally"), "PG"


BONUS_FLOW = RuleKey("bonus_flow", BonusFlow)


class AllianceLoss(RuleValue):
    """The values of the house rule ``alliance_loss``: who pays when an alliance loses."""

    SHARED_UNLESS_UNDER_3 = "shared_unless_under_3", N_("shared, unless Hombre took under 3 tricks"), "P, EB, H47"
    SHARED_UNLESS_UNDER_4 = "shared_unless_under_4", N_("shared, unless Hombre took under 4 tricks"), "FR"
    HOMBRE_ALONE = "hombre_alone", N_("Hombre always pays alone"), "PG"


ALLIANCE_LOSS = RuleKey("alliance_loss", AllianceLoss)


class AllianceOddChip(RuleValue):
    """The values of the house rule ``alliance_odd_chip``: an odd chip when allies share a pool."""

    STAYS_IN_POOL = "stays_in_pool", N_("stays in the pool for the next deal"), ""
    TO_HOMBRE = "to_hombre", N_("goes to Hombre"), ""


ALLIANCE_ODD_CHIP = RuleKey("alliance_odd_chip", AllianceOddChip)


class RemiseBeast(RuleValue):
    """The values of the house rule ``remise_beast``: the remise."""

    DOUBLE_POOL = "double_pool", N_("Hombre adds as much as is in the pool"), "P, EB, PG, W"


REMISE_BEAST = RuleKey("remise_beast", RemiseBeast)


class AllianceRemise(RuleValue):
    """The values of the house rule ``alliance_remise``: where the remise ends in an alliance."""

    FIVE_TRICKS = "five_tricks", N_("five tricks a remise, four or fewer a codille"), "P, PG"
    FOUR_TRICKS = "four_tricks", N_("four or five tricks a remise, three or fewer a codille"), "EB"


ALLIANCE_REMISE = RuleKey("alliance_remise", AllianceRemise)


class CodilleBeast(RuleValue):
    """The values of the house rule ``codille_beast``: what hombre puts up on codille."""

    TWICE_TAKEN_OR_DOUBLE_STAKE = (
        "twice_taken_or_double_stake", N_("twice what was taken; double the stake if nothing was"), "P, PG",
    )
    TWICE_TAKEN = "twice_taken", N_("twice what was taken, nothing if the pool stayed"), N_("P (read literally)")
    ONCE_POOL = "once_pool", N_("once what was in the pool"), "EB"
    TWICE_POOL = "twice_pool", N_("double the stake, taken or not"), "PG, W"


CODILLE_BEAST = RuleKey("codille_beast", CodilleBeast)


class CodilleIndivisible(RuleValue):
    """The values of the house rule ``codille_indivisible``: a codille pool that does not divide."""

    CARRY_WHOLE = "carry_whole", N_("the whole pool stays"), N_("P, PG (the app's reading)")
    SPLIT_CARRY_ODD = "split_carry_odd", N_("divide, the odd chips stay"), "FR"
    ODD_TO_SPADILLE = (
        "odd_to_spadille",
        N_("divide, the odd chips to the winner with Spadille (or the highest trump) next deal"),
        "EB",
    )


CODILLE_INDIVISIBLE = RuleKey("codille_indivisible", CodilleIndivisible)


class CodillePayments(RuleValue):
    """The values of the house rule ``codille_payments``: what hombre pays besides the pool on codille."""

    WHAT_SHE_WOULD_HAVE_RECEIVED = (
        "what_she_would_have_received", N_("premium and matadors to each opponent"), "P, EB, W",
    )
    NONE = "none", N_("nothing besides the beast"), "PG"


CODILLE_PAYMENTS = RuleKey("codille_payments", CodillePayments)


class VolePayment(RuleValue):
    """The values of the house rule ``vole_payment``: how the vole is paid."""

    POOL_AND_BONUS = "pool_and_bonus", N_("vole pool of 12 and 2 units from each"), "P"
    POOL_ONLY = "pool_only", N_("the vole pool of 12 only"), ""
    BONUS_ONLY = "bonus_only", N_("2 units from each, no vole pool"), "PG"
    QUANTI_TABLE = (
        "quanti_table", N_("a vole pool of the figures of Quanti's table from each"), N_("P (Médiateur), Quanti"),
    )


VOLE_PAYMENT = RuleKey("vole_payment", VolePayment)


class VoleLostPays(RuleValue):
    """The values of the house rule ``vole_lost_pays``: a vole undertaken after premiers and lost."""

    NOTHING_MORE = "nothing_more", N_("only the vole pool is lost"), "P"
    VOLE_BONUS = "vole_bonus", N_("and 2 units to each opponent"), "PG"


VOLE_LOST_PAYS = RuleKey("vole_lost_pays", VoleLostPays)


class AnnouncedVolePremium(RuleValue):
    """The values of the house rule ``announced_vole_premium``: the premium paid for a vole announced and lost."""

    VOLE_BONUS = "vole_bonus", N_("2 units to each opponent"), N_("P (amount assumed)")
    NONE = "none", N_("nothing besides the vole pool"), ""


ANNOUNCED_VOLE_PREMIUM = RuleKey("announced_vole_premium", AnnouncedVolePremium)


class AnnouncedVoleShort(RuleValue):
    """The values of the house rule ``announced_vole_short``: a vole announced, with fewer than six tricks."""

    REMISE = "remise", N_("always a remise"), "P"
    BY_TRICKS = "by_tricks", N_("remise at 5 tricks, codille at 4 or fewer"), ""


ANNOUNCED_VOLE_SHORT = RuleKey("announced_vole_short", AnnouncedVoleShort)


class ForcedSpadilleBonuses(RuleValue):
    """The values of the house rule ``forced_spadille_bonuses``: premiers and vole in forced spadille."""

    NO_PREMIERS_NO_VOLE = "no_premiers_no_vole", N_("neither premiers nor vole"), "P, H47"
    PREMIERS_AND_VOLE = "premiers_and_vole", N_("premiers and vole as in an alliance"), N_("PG (its point table; in chips the app's reading)")


FORCED_SPADILLE_BONUSES = RuleKey("forced_spadille_bonuses", ForcedSpadilleBonuses)


class OwnKing(RuleValue):
    """The values of the house rule ``own_king``: hombre calls a king she holds."""

    SECRET_SOLO = "secret_solo", N_("a secret solo, with the solo premium"), "P"
    ALONE_NO_PREMIUM = "alone_no_premium", N_("alone, without the solo premium"), "EB"
    FORBIDDEN = "forbidden", N_("not allowed"), ""


OWN_KING = RuleKey("own_king", OwnKing)


class OwnKingForced(RuleValue):
    """The values of the house rule ``own_king_forced``: hombre calls a king she holds in a forced spadille."""

    AS_IN_ALLIANCE = "as_in_alliance", N_("as in an alliance (house rule own_king)"), "P"
    NO_SOLO_PREMIUM = "no_solo_premium", N_("alone, without the solo premium"), ""


OWN_KING_FORCED = RuleKey("own_king_forced", OwnKingForced)


class PoolAtEnd(RuleValue):
    """The values of the house rule ``pool_at_end``: the pool at the end of the evening."""

    SPLIT_EQUALLY = "split_equally", N_("shared equally, odd chips carried"), ""
    CARRY_FORWARD = "carry_forward", N_("carried whole to the next evening"), ""


POOL_AT_END = RuleKey("pool_at_end", PoolAtEnd)


class Paulans(RuleValue):
    """The values of the house rule ``paulans``: the last deals played double (paulans)."""

    NONE = "none", N_("no"), ""
    LAST_DEAL = "last_deal", N_("the last deal"), "EB"
    LAST_ROUND = "last_round", N_("the last round of four deals"), "FR"


PAULANS = RuleKey("paulans", Paulans)


class FavouriteSuit(RuleValue):
    """The values of the house rule ``favourite_suit``: the favourite suit."""

    NONE = "none", N_("no favourite suit"), N_("P (Quadrille), EB (its figures)")
    HEARTS = "hearts", N_("hearts, for the evening"), "P"
    DIAMONDS = "diamonds", N_("diamonds, for the evening"), N_("P, EB (drawn)")
    CLUBS = "clubs", N_("clubs, for the evening"), N_("P, EB (drawn)")
    SPADES = "spades", N_("spades, for the evening"), N_("P, EB (drawn)")
    EACH_DEAL = "each_deal", N_("drawn afresh for each deal"), "P"


FAVOURITE_SUIT = RuleKey("favourite_suit", FavouriteSuit)


class FavouriteDoubles(RuleValue):
    """The values of the house rule ``favourite_doubles``: what the favourite suit doubles."""

    BONUSES = "bonuses", N_("the premium and bonuses, not the stake"), "P, Quanti"
    EVERYTHING = "everything", N_("everything, the beasts too"), N_("H47, PG (the app's reading)")


FAVOURITE_DOUBLES = RuleKey("favourite_doubles", FavouriteDoubles)


class MediateurKing(RuleValue):
    """The values of the house rule ``mediateur_king``: the player who gives up the médiateur king."""

    GIVER_EXEMPT = "giver_exempt", N_("exempt from paying the premium"), "P"
    GIVER_PAID_A_FISH = "giver_paid_a_fish", N_("paid one unit by Hombre (two in favourite)"), "EB, H47"


MEDIATEUR_KING = RuleKey("mediateur_king", MediateurKing)


class GrandissimoNemo(RuleValue):
    """The values of the house rule ``grandissimo_nemo``: pool, remise and codille in grandissimo and nemo."""

    AS_SOLO = "as_solo", N_("like a solo: the pool, remise and codille"), ""
    PREMIUM_ONLY = "premium_only", N_("the premium only; the pool stays"), ""


GRANDISSIMO_NEMO = RuleKey("grandissimo_nemo", GrandissimoNemo)


class MultiplierScope(RuleValue):
    """The values of the house rule ``multiplier_scope``: point score: whose lost games raise the multiplier."""

    PER_TABLE = "per_table", N_("the table's next game"), "PG"
    PER_PLAYER = "per_player", N_("each Hombre's own next game"), ""


MULTIPLIER_SCOPE = RuleKey("multiplier_scope", MultiplierScope)


class CounterStake(RuleValue):
    """The values of the house rule ``counter_stake``: counters: what each player puts on the game."""

    FISH_EACH = "fish_each", N_("a fish (10 counters) each"), ""
    COUNTER_EACH = "counter_each", N_("one counter each"), ""


COUNTER_STAKE = RuleKey("counter_stake", CounterStake)


class CounterMatadors(RuleValue):
    """The values of the house rule ``counter_matadors``: counters: the matadors."""

    ONE_EACH = "one_each", N_("one counter for each matador"), N_("EB (the rate assumed)")
    NONE = "none", N_("not paid"), ""


COUNTER_MATADORS = RuleKey("counter_matadors", CounterMatadors)


class CounterVole(RuleValue):
    """The values of the house rule ``counter_vole``: counters: the vole."""

    ONE_FISH = "one_fish", N_("one fish from each"), "EB"
    DOUBLED_ALONE = "doubled_alone", N_("one fish, two when Hombre plays alone"), "FR"


COUNTER_VOLE = RuleKey("counter_vole", CounterVole)


class FishExtraordinary(RuleValue):
    """The values of the house rule ``fish_extraordinary``: counters: the fish extraordinary."""

    YES = "yes", N_("yes, with the médiateur"), "EB"
    NO = "no", N_("no, as in the common game"), "EB"


FISH_EXTRAORDINARY = RuleKey("fish_extraordinary", FishExtraordinary)


class RenounceBeast(RuleValue):
    """The values of the house rule ``renounce_beast``: what a renounce proven by the play costs."""

    UPON_THE_GAME = "upon_the_game", N_("the renouncer puts up what is upon the game, once a renounce"), "EB"
    NONE = "none", N_("no beast for a renounce"), ""


RENOUNCE_BEAST = RuleKey("renounce_beast", RenounceBeast)


class BeastsTogether(RuleValue):
    """The values of the house rule ``beasts_together``: several beasts made in one deal."""

    TOGETHER = "together", N_("all into the next pool"), "EB"
    GREATEST_FIRST = "greatest_first", N_("one at a time, the greatest first"), "EB"


BEASTS_TOGETHER = RuleKey("beasts_together", BeastsTogether)


class PointsAlly(RuleValue):
    """The values of the house rule ``points_ally``: point score: what the ally scores."""

    LOSSES_IN_FORCED_ONLY = "losses_in_forced_only", N_("wins always, losses only in forced spadille"), "PG"
    SHARES_LOSSES = "shares_losses", N_("wins and losses alike"), ""


POINTS_ALLY = RuleKey("points_ally", PointsAlly)
