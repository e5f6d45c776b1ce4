"""The house rules: every point on which the sources disagree, as named data.

There was never one standard Quadrille (P). Each point on which the sources disagree is a
:class:`~scorer.core.rules.rule_types.HouseRule`: its values (declared in :mod:`scorer.core.rules.rule_values`, each with
its label and sources), its default taken from source P where P states the case (else from the one source that
does), and a help text citing the sources ("no source" for the app's own choices). This module holds those
texts; a profile (:mod:`scorer.core.systems.profiles`) is a named set of values for them.

Source tags: P (Parlett after Quanti, 1822), W (Wikipedia after Quanti), EB (Encyclopaedia Britannica, 7th ed.),
PG (Parlett, Penguin Book of Card Games), FR (a French *Jeu de Quadrille*, 1720s–40s), H47 (Hoyle's Games, 1847).
"""

from __future__ import annotations

from collections.abc import Mapping

from . import rule_values as R
from ..errors import UnknownHouseRule, Words
from ..i18n import N_
from ..model import CONTRACT_KINDS, Contract
from .rule_types import HouseRule, RuleValue

DEFAULT_PROFILE = "quadrille"
"""The profile whose values are the rules' defaults (and a table's, unless it picks another)."""

_ALLIED = frozenset(c for c, kind in CONTRACT_KINDS.items() if kind.allied)
_VOLE = frozenset({Contract.VOLE})

HOUSE_RULES: tuple[HouseRule, ...] = (
    HouseRule(
        R.SOLO_PREMIUM, N_("Premium for a solo"), 1, R.SoloPremium.FOUR_UNITS,
        N_("""What each opponent pays Hombre for a won solo (and Hombre pays each
        for a lost one). P's basic game: "For the solo" 4 units. P's Médiateur
        section: "the premium is only 2 units unless played in favourite", as
        in Quanti's table. PG lists no solo premium: Hombre "wins the stake"
        and the bonuses. P's vole bid is "As solo, but also undertaking to win
        all 10 tricks", so it takes the solo premium here (P does not say so
        outright).""")),
    HouseRule(
        R.UNIT, N_("What a unit is"), 2, R.Unit.QUARTER_OF_STAKE,
        N_("""Premiums and bonuses are counted in units. P: "A unit means one
        quarter of the stake. The stake may be greater than four chips, as it
        is carried forward when a game is lost"; PG: "one quarter of the current
        stake". The stake is counted here as the pool in play: every chip in
        the pool when the deal is played, this deal's antes included (the
        sources do not say when). That it includes what an earlier evening
        carried in and a waiting beast that joins, like any chip carried
        forward, is the app's reading: the sources speak of no next evening,
        nor of when a waiting beast joins. A unit fixed at one chip, a quarter
        of the basic four-chip stake, is a simplification with no source.""")),
    HouseRule(
        R.UNIT_ROUNDING, N_("Rounding a quarter of the pool"), 2, R.UnitRounding.DOWN,
        N_("""Used when the unit is a quarter of the pool and the pool does not
        divide by four. No source gives a rule; the unit is never less than one
        chip. Under the quadrille defaults the pool always divides by four.""")),
    HouseRule(
        R.ANTES, N_("Antes while a pool is carried forward"), 3, R.Antes.EVERY_DEAL,
        N_("""P: "Before each deal, each player stakes one chip to the pool" (PG
        the same), and W's "triple stake" in the deal after a remise implies
        that the antes go on while a pool is carried forward. Anteing only into
        an empty pool has no source; the pool is looked at after a pool carried
        in and a waiting beast join it.""")),
    HouseRule(
        R.ANTE_BY, N_("Who antes"), None, R.AnteBy.EACH_PLAYER,
        N_("""P and PG: each player stakes one chip before each deal, "(Or the
        dealer stakes four, if preferred.)" W: "Originally, each player anted
        an agreed stake ... Later, four stakes were anted by the dealer alone."
        The stake is four chips either way.""")),
    HouseRule(
        R.DOUBLE_MATADORS_SUITS, N_("Which runs of four are double matadors"), 4, R.DoubleMatadorsSuits.RED_ONLY,
        N_("""P: double matadors are "3 plus Punto", "of course possible only when
        a red suit was trump"; PG likewise: "Punto, or Ace, only applies when a
        red suit is trump". So with black trumps a run of four or more is
        entered as held and paid as three matadors (the app's reading of P:
        "'Matadors' are paid when Hombre originally held Spadille, Manille,
        and Basto"). W pays them "If the four highest matadors are held by the
        same side", in any suit (its fourth trump in black is the King).""")),
    HouseRule(
        R.DOUBLE_MATADORS_PAY, N_("What double matadors pay"), 4, R.DoubleMatadorsPay.INSTEAD,
        N_("""P's list gives three matadors 1 unit and "Double matadors (3 plus
        Punto)" 2 units, Quanti's table 3 matadors 1 and 4 matadors 2, PG "all
        three and Punto" 2 units, W "two units": 2 in place of 1. Reading P's
        list as cumulative, 1 + 2, has no source.""")),
    HouseRule(
        R.LONG_MATADORS, N_("Runs of matadors longer than four"), 5, R.LongMatadors.AS_DOUBLE,
        N_("""EB: "all those trumps which follow the three first without
        interruption are likewise called matadores" (H47, Hoyle's Games of
        1847, known here at second hand, is said to call them false
        matadores), but no source gives a rate past four:
        Quanti's table stops at 4 matadors. Either a longer run pays as double
        matadors, or each matador past the fourth adds one unit; neither has a
        source.""")),
    HouseRule(
        R.MATADORS_PAID, N_("Whose matadors are paid"), 6, R.MatadorsPaid.CONTRACTING_SIDE,
        N_("""P: "'Matadors' are paid when Hombre originally held Spadille,
        Manille, and Basto" (in an alliance, "held between the allies"); on a
        remise she pays "for any matadors she may have held", on a codille what
        she "would otherwise have received". PG and EB likewise pay only the
        contracting side's matadors. No source pays the defenders for theirs
        (W's "held by the same side" does not say which side), so this rule has
        one value.""")),
    HouseRule(
        R.BONUS_FLOW, N_("How an alliance's bonuses flow"), 7, R.BonusFlow.ONE_TO_ONE,
        N_("""P: the allies "receive from the opponents, one to one, any of the
        relevant bonuses", and when they lose "Hombre pays the appropriate
        amount to one opponent, and her ally to the other" (W says the same of
        casco). Which opponent settles with which ally is in no source: here
        the first opponent after Hombre in the order of play settles with
        Hombre, the other with her ally. PG: "each opponent pays each partner
        any of the relevant bonuses"; losses are paid back the same way here
        (PG does not say)."""),
        concerns=_ALLIED),
    HouseRule(
        R.ALLIANCE_LOSS, N_("Who pays when an alliance loses"), 8, R.AllianceLoss.SHARED_UNLESS_UNDER_3,
        N_("""P: in a lost alliance "Hombre pays the appropriate amount to one
        opponent, and her ally to the other", but Hombre "is obliged to win at
        least three tricks, and if she fails to do so must alone pay the two
        opponents on behalf of herself and her ally". EB has the three-trick
        rule (H47, Hoyle's Games of 1847, known here at second hand, is said
        to have it too) and also halves the beast: "one half by him that calls,
        and the other half by him that is called". P says only that on a remise
        "Hombre doubles the stake": the beast is shared here as in EB. FR, a
        French Jeu de Quadrille of the 1720s–40s known here at second hand, is
        said to let some houses ask four tricks of Hombre. PG:
        "the loss is borne entirely by the player who called a partner". A
        forced spadille is always shared (P, PG, EB). Who pays the odd chip of
        a shared beast no source says: Hombre (the app's reading)."""),
        concerns=_ALLIED),
    HouseRule(
        R.ALLIANCE_ODD_CHIP, N_("An odd chip when allies share a pool"), None, R.AllianceOddChip.STAYS_IN_POOL,
        N_("""P: in a won alliance "The stake is divided equally between the
        allies". No source says what happens to an odd chip; it can only arise under other
        house rules (odd codille chips left in the pool, or antes only into an
        empty pool)."""),
        concerns=_ALLIED),
    HouseRule(
        R.REMISE_BEAST, N_("The remise"), 9, R.RemiseBeast.DOUBLE_POOL,
        N_("""P: on a remise "Hombre doubles the stake - which is carried forward
        to the next deal" (PG the same), adding to the pool as much as is in
        it; EB: the losers "are beasted what goes upon the game"; W: "the
        loser(s) double the pool". The sources agree, so this rule has one
        value.""")),
    HouseRule(
        R.ALLIANCE_REMISE, N_("Where the remise ends in an alliance"), 9, R.AllianceRemise.FIVE_TRICKS,
        N_("""How few tricks Hombre and her ally may take between them and lose
        by a remise rather than a codille. P: "If Hombre wins only five tricks,
        it is a remise; if four or fewer, it is a codille"; PG the same, "and
        the same applies to an alliance". EB: "if they make only four tricks
        between them it is a remise; if they make less they lose codill", of
        Hombre "together with him who is the king called", in a forced
        spadille as in an alliance ("Whether the deal is played in this
        manner, or that one of the players has asked leave"). EB has no casco:
        that its four tricks hold there too is the app's reading. A King
        Hombre held herself leaves her no ally: her secret solo is a remise at
        five tricks and a codille at four or fewer under either value (the
        app's reading of EB's "he wins alone or loses alone as in the other
        case"). Who pays the remise is house rule alliance_loss: EB's
        three-trick rule holds "as well in case of a codill as a remise"."""),
        concerns=_ALLIED),
    HouseRule(
        R.CODILLE_BEAST, N_("What Hombre puts up on codille"), 10, R.CodilleBeast.TWICE_TAKEN_OR_DOUBLE_STAKE,
        N_("""On a codille the opponents take the pool and Hombre puts up a beast
        for the next deal. P: she "contributes to the pool for the next deal
        twice the amount that was just taken". PG: "Hombre also puts up double
        the stake to be carried forward to the next deal", a sentence with no
        condition: that it holds also when three opponents could not divide the
        pool and it stayed is the app's reading. When the pool stayed nothing
        was taken and P's words give nothing: read so (twice_taken), a solo
        codille on a fresh four-chip pool costs Hombre 12 chips besides her ante
        (the premium to each) where a remise costs 16, a codille cheaper than a
        remise. The default follows P when something was taken and, when nothing
        was, PG's sentence read so: double the stake, 20 chips. EB: the losers "are beasted what is upon the game",
        once the pool. W: "the penalty for Hombre is double that of Remise".""")),
    HouseRule(
        R.CODILLE_INDIVISIBLE, N_("A codille pool that does not divide"), 11, R.CodilleIndivisible.CARRY_WHOLE,
        N_("""When the three opponents of a codille cannot divide the pool
        equally: P leaves it "in place and carried forward", and PG divides it
        "unless there are three and the stake is not exactly divisible", without
        saying what becomes of it then (that it stays whole is the app's
        reading); FR, a French Jeu de Quadrille of the
        1720s–40s known here at second hand, is said to divide what divides and
        leave the odd chips (for Quintille); EB: "They
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
        plain four-chip stake a solo codille never divides by three under P.""")),
    HouseRule(
        R.CODILLE_PAYMENTS, N_("What Hombre pays besides the pool on codille"), 12,
        R.CodillePayments.WHAT_SHE_WOULD_HAVE_RECEIVED,
        N_("""P: Hombre also "pays to each opponent the amount she would otherwise
        have received from them (if applicable) for the premium, matadors and
        the vole undertaken"; EB: "pays to each player what he would have
        received from each if he had won"; W: she must "pay what would have
        been earned by winning". PG states no payment on a codille besides the
        beast.""")),
    HouseRule(
        R.VOLE_PAYMENT, N_("How the vole is paid"), 13, R.VolePayment.POOL_AND_BONUS,
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
        source). The counters have their own vole payment (counter_vole).""")),
    HouseRule(
        R.VOLE_LOST_PAYS, N_("A vole undertaken after premiers and lost"), 14, R.VoleLostPays.NOTHING_MORE,
        N_("""P: a vole undertaken after six tricks, if lost, "does not bar Hombre
        from winning the game stake, the payment for premiers, and any payment
        for matadors"; only the vole pool goes to the opponents. PG: "otherwise
        he pays 2 units to each for the loss".""")),
    HouseRule(
        R.ANNOUNCED_VOLE_PREMIUM, N_("The premium paid for a vole announced and lost"), 15,
        R.AnnouncedVolePremium.VOLE_BONUS,
        N_("""P: Hombre who announced the vole and lost it with six tricks or more
        "neither wins the game stake nor doubles it" and pays her opponents
        nothing "more than the premium of the vole", whose amount P does not
        give. The default, 2 units to each (the vole's bonus in P's list), is
        the app's reading (no source gives the amount). The mediateur profile
        pays nothing besides the vole pool, whose vole is paid by that pool
        alone (Quanti's table has no other vole payment): no source states the
        case there either."""),
        concerns=_VOLE),
    HouseRule(
        R.ANNOUNCED_VOLE_SHORT, N_("A vole announced, with fewer than six tricks"), 15, R.AnnouncedVoleShort.REMISE,
        N_("""P: if Hombre who announced the vole "fails even to take six tricks,
        however, she does pay a remise to the pool (i.e. doubles it) as well as
        whatever other payments are due for a lost solo": read here as however
        few tricks she took, with the premium of the vole as well (house rule
        announced_vole_premium). Reading it by tricks, four or fewer a codille,
        has no source. In PG's point score a vole bid and lost with six tricks
        or more scores PG's remise row and raises the multiplier: PG's row
        "vole lost" is the vole undertaken "Having won the game and premiers"
        (the app's reading)."""),
        concerns=_VOLE),
    HouseRule(
        R.FORCED_SPADILLE_BONUSES, N_("Premiers and vole in forced spadille"), 16,
        R.ForcedSpadilleBonuses.NO_PREMIERS_NO_VOLE,
        N_("""P: in a forced spadille "the vole may not be specifically undertaken
        and there is no extra payment for winning it", which "presumably also
        precludes payment for premiers, but none of my sources addresses this
        point"; W: "They may not go for a vole"; H47 (Hoyle's Games of 1847,
        known here at second hand) is said to agree. PG: "In an alliance or
        forced Spadille ... each opponent pays each partner any of the relevant
        bonuses listed above": the bonuses it lists are matadors and premiers;
        its vole is a paragraph of its own ("Settlements for the vole vary
        enormously. The following is suggested."), paid here in a forced
        spadille as in an alliance (the app's reading). PG's point table scores
        a forced spadille won with premiers, and with the vole won or lost."""),
        concerns=frozenset({Contract.FORCED_SPADILLE})),
    HouseRule(
        R.OWN_KING, N_("Hombre calls a King she holds"), 19, R.OwnKing.SECRET_SOLO,
        N_("""P: "Hombre may call a King she holds herself, whether by mistake or
        as a bluff. In this case she will, in effect, be playing a solo
        (secretly), and wins or loses accordingly": read here as a solo, premium
        included. EB: "he wins alone or loses alone ... except the sans
        appeller, which he does not pay if he loses, or receive if he wins":
        alone, without the solo premium. Forbidding it has no source. In a
        forced spadille the table may leave the solo premium out (house rule
        own_king_forced)."""),
        concerns=_ALLIED),
    HouseRule(
        R.OWN_KING_FORCED, N_("Hombre calls a King she holds in a forced spadille"), 19,
        R.OwnKingForced.AS_IN_ALLIANCE,
        N_("""P's sentence on the own King sits in its alliance paragraph: "Hombre
        may call a King she holds herself, whether by mistake or as a bluff. In
        this case she will, in effect, be playing a solo (secretly), and wins
        or loses accordingly"; and P's forced spadille is an alliance: its
        player "must play an alliance by calling a King". Quanti's table values
        the two games alike (forced spadille 0, alliance 0, each 1 in
        favourite), so it gives no ground to settle them apart, and EB says
        nothing of the own King in a forced spadille. The default, the app's
        reading of P, therefore settles it as in an alliance (house rule
        own_king: with the solo premium under P, without it under EB, refused
        where the table forbids it). Leaving the solo premium out of a forced
        spadille only has no source: it is for a table that will not pay a
        solo premium to a player who passed (P: the game is forced spadille "If
        everyone passes"). She then still plays alone and wins or loses the pool, the beasts and the
        matadors alone, paid as the forced spadille she played, not as a solo
        (in chips its premium in Quanti's table, 0, 1 in favourite; in
        counters no sans appeler; in points the forced spadille's column)."""),
        concerns=frozenset({Contract.FORCED_SPADILLE})),
    HouseRule(
        R.POOL_AT_END, N_("The pool at the end of the evening"), 21, R.PoolAtEnd.SPLIT_EQUALLY,
        N_("""No source says. The table may share the pool out equally (the odd
        chips stay for the next evening) or carry it whole to the next
        evening.""")),
    HouseRule(
        R.PAULANS, N_("The last deals played double (paulans)"), 22, R.Paulans.NONE,
        N_("""EB: "The last game is generally played double, and is called
        paulans", read here as the last deal; FR, a French Jeu de Quadrille of
        the 1720s–40s known here at second hand, is said to double the last
        round. How a doubled
        deal pays is the app's reading (no source): the antes, the vole stake
        and every payment counted in units are doubled; the unit is worked out
        from the pool as single antes would have made it.""")),
    HouseRule(
        R.FAVOURITE_SUIT, N_("The favourite suit"), None, R.FavouriteSuit.NONE,
        N_("""Médiateur is played with a favourite suit. P: "often hearts, though
        it may be decided otherwise, or at random at start of play or even at
        each deal"; EB: "determined by drawing a card out of the pack", for "the
        whole party"; PG's optional Preference is "typically that entrumped in
        the first deal". A bid in favourite overcalls the same bid in another
        suit (P, EB, PG); what it doubles is the house rule favourite_doubles.
        Name the suit for the evening, or enter it with each deal. P's basic
        Quadrille has none, and EB's figures are "without the favourite
        suite".""")),
    HouseRule(
        R.FAVOURITE_DOUBLES, N_("What the favourite suit doubles"), 18, R.FavouriteDoubles.BONUSES,
        N_("""P: "all relevant bonuses for it are doubled (though the stake itself
        remains single)", Quanti's "f" column. PG: a bid in Preference "wins or
        loses double", without saying what is doubled (read as everything
        in the penguin_chips profile: the app's reading); H47 (Hoyle's Games of
        1847, known here at second hand) is said to double everything. The
        value everything doubles every payment and the beasts as well: the
        beasts are the app's reading (no source names them). EB implies a
        doubling (two fish for a médiateur King "in the favourite suite"; the
        Turk "is double of the favourite suite") without saying what is
        doubled: the britannica profile keeps the default (no source).""")),
    HouseRule(
        R.MEDIATEUR_KING, N_("The player who gives up the médiateur King"), 17, R.MediateurKing.GIVER_EXEMPT,
        N_("""P: "the player who surrendered her King is exempt from paying Hombre
        that premium, though not from paying for matadors, premiers or the
        vole". P does not say what happens when Hombre loses: here the giver is
        not paid the premium either (no source). EB: "he gives what card he
        thinks proper with a fish; but must give two fish if it is in the
        favourite suite" (H47, Hoyle's Games of 1847, known here at second
        hand, is said to agree); in chips a fish is
        counted as one unit (no source for the rate)."""),
        concerns=frozenset({Contract.MEDIATEUR})),
    HouseRule(
        R.GRANDISSIMO_NEMO, N_("Pool, remise and codille in grandissimo and nemo"), 20, R.GrandissimoNemo.AS_SOLO,
        N_("""P calls grandissimo "A solo with no trump suit, apart from the two
        black Aces", worth 8 units, and nemo (devole) "An undertaking to lose
        every trick", worth 16 (Quanti's table the same), but no source says
        whether they sweep the pool and pay remise and codille like a solo or
        are paid their premium alone: the table must choose. The app's own
        reading (no source): neither has matadors (without a trump suit there
        is no Manille), nemo has no premiers or vole, and any trick taken loses
        nemo (a remise). A vole announced and lost is a lost game under either
        value, as in a solo (P)."""),
        concerns=frozenset({Contract.GRANDISSIMO, Contract.NEMO})),
    HouseRule(
        R.MULTIPLIER_SCOPE, N_("Point score: whose lost games raise the multiplier"), 23, R.MultiplierScope.PER_TABLE,
        N_("""PG's point score: "If a game is lost, whether by remise or codille,
        the following game is won or lost double", trebled after two lost in
        succession, and so on "until a game is won". Read here as the table's
        next game; a multiplier for each player, raised by her own lost games as
        Hombre, has no source.""")),
    HouseRule(
        R.POINTS_ALLY, N_("Point score: what the ally scores"), 23, R.PointsAlly.LOSSES_IN_FORCED_ONLY,
        N_("""PG: "the appropriate winning score is credited to each" ally, "but a losing
        score is deducted only from the ally's in a forced Spadille"; in a lost
        alliance Hombre alone loses points. Making the ally share every loss has
        no source."""),
        concerns=_ALLIED),
    HouseRule(
        R.COUNTER_STAKE, N_("Counters: what each player puts on the game"), None, R.CounterStake.FISH_EACH,
        N_("""The Britannica's counters (a fish is 10 counters, a mil 10 fish) do not
        say what each player stakes on the game before a deal; the beasts equal
        what is on it. No source given here has a figure: the table must choose.""")),
    HouseRule(
        R.COUNTER_MATADORS, N_("Counters: the matadors"), None, R.CounterMatadors.ONE_EACH,
        N_("""EB: the winners "are paid the game, the consolation, and the matadores if
        they have them", and "all those trumps which follow the three first
        without interruption are likewise called matadores"; EB gives no rate,
        nor says whether a longer run pays more. One counter a matador from
        each opponent, every matador of the run counted, is the app's
        assumption (no source).""")),
    HouseRule(
        R.COUNTER_VOLE, N_("Counters: the vole"), 13, R.CounterVole.ONE_FISH,
        N_("""EB: "The vole with the médiateur receives one fish only, as at common
        quadrille", read here as one fish from each opponent; FR, a French Jeu de
        Quadrille of the 1720s–40s known here at second hand, is said to double
        it when Hombre plays alone. EB does not say what a vole
        undertaken and lost costs: here the same fish, paid to each opponent (no
        source).""")),
    HouseRule(
        R.FISH_EXTRAORDINARY, N_("Counters: the fish extraordinary"), None, R.FishExtraordinary.YES,
        N_("""EB: with the médiateur "a fish extraordinary is given to him who plays the
        médiateur, and to him who plays sans prendre". EB does not say that a
        loser pays it: the app infers so from EB's totals (the app's reading).
        The médiateur won "receives thirteen counters from each", lost "he pays
        twelve to each, and thirteen if by codill", figures a loser reaches only
        by paying the fish (10 counters) as well. The common game has none
        ("The game is marked and played the same as in common, except ...")."""),
        concerns=frozenset({Contract.MEDIATEUR, Contract.SOLO})),
    HouseRule(
        R.RENOUNCE_BEAST, N_("A renounce proven by the play"), None, R.RenounceBeast.UPON_THE_GAME,
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
        renounce (no source).""")),
    HouseRule(
        R.BEASTS_TOGETHER, N_("Several beasts in one deal"), None, R.BeastsTogether.TOGETHER,
        N_("""EB: "If several beasts are made in the same deal, they all go
        together, unless it is otherwise agreed at the beginning of the party;
        and when there are several beasts, the greatest always goes first."
        Together, every beast of a deal (the remise or codille beast and any
        renounce beasts) goes into the next pool. One at a time, the greatest
        goes into the next pool and each of the others waits, the greatest
        first, to join the pool of a later deal, one a deal, before the antes
        (when they join is the app's reading: EB says only that the greatest
        goes first).""")),
)

RULES_BY_NAME: Mapping[str, HouseRule] = {rule.name: rule for rule in HOUSE_RULES}

_RULE_OF: Mapping[type[RuleValue], HouseRule] = {rule.key.values: rule for rule in HOUSE_RULES}


def house_rule(name: str) -> HouseRule:
    try:
        return RULES_BY_NAME[name]
    except KeyError:
        raise UnknownHouseRule(Words(N_("there is no house rule called {name!r}"), name=name)) from None


def rule_of(value: RuleValue) -> HouseRule:
    """The house rule whose value ``value`` is."""
    return _RULE_OF[type(value)]
