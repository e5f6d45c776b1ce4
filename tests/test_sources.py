"""The sources read right (issue 11, point 5).

Three settlement cases worked by hand, each row citing the sentence of the
source it follows, and the house rules' help texts held to their sources.

Tags (scorer/core/rules/sources.py): P (Parlett after Quanti), PG (Parlett,
Penguin Book of Card Games), EB (Encyclopaedia Britannica, 7th ed.), W
(Wikipedia after Quanti), FR, H47 (known at second hand). Players
sit Ann, Bea, Cat, Dan in the order of play; Ann deals, so Bea is eldest.
Unless a row says otherwise the pool is empty before the antes (each antes
1: stake 4, unit 1). Changes are each player's chips won or lost in the
deal, antes included.
"""

from __future__ import annotations

import re

from dataclasses import replace

import pytest
from helpers.scenario import assert_settles_as, parse_deal, parse_expected, parse_scenario

from scorer.core import Evening, HouseRules, Pot, Reason, Result, Settlement, TableState, replay, settle, summarise
from scorer.core import rules as R
from scorer.core.errors import ImpossibleDeal
from scorer.core.systems.profiles import PROFILES
from scorer.core.rules import HOUSE_RULES
from scorer.core.systems.counters import COUNTERS
from scorer.core.systems.points import POINT_SCORE
from scorer.core.ledger.season import replay_season

PLAYERS = ("Ann", "Bea", "Cat", "Dan")

PG_CODILLE = ("PG: 'the stake is won by and divided between the two or three opponents of the contracting side "
              "(unless there are three and the stake is not exactly divisible). Hombre also puts up double the "
              "stake to be carried forward to the next deal.'")
P_CODILLE = ("P: 'Hombre then contributes to the pool for the next deal twice the amount that was just taken'")
EB_ODD_COUNTERS = ("EB: 'They who win codill divide what there is; and if there are any counters remaining, they "
                   "belong to him of the three who shall have spadill or the highest trump the next deal.'")


def _settle(profile: str, changes: dict[str, str], pool_before: int, deal_line: str) -> Settlement:
    state = TableState(players=PLAYERS, balances=(0, 0, 0, 0), pool=pool_before)
    return settle(parse_deal(deal_line), state, HouseRules.of(profile, changes))


# --- 1. Penguin chips: a codille on a pool that does not divide by three ---------------------------
# PG_CODILLE. The profile penguin_chips had Hombre put up twice what was taken, nothing when the pool
# stayed (Bea -1, pool 4); it now puts up double the stake.
PENGUIN_CODILLES = [
    ("PG solo codille, 4 does not divide by 3: the pool stays and Bea puts up double the stake, 8", 0,
     "Ann deals: Bea solo in hearts, 4 tricks",
     "=> codille; pool 12; Ann -1, Bea -9, Cat -1, Dan -1"),  # no premium, no codille payments (PG)
    ("PG solo remise beside it: Bea doubles the stake, 4 (a codille costs more)", 0,
     "Ann deals: Bea solo in hearts, 5 tricks",
     "=> remise; pool 8; Ann -1, Bea -5, Cat -1, Dan -1"),
    ("PG solo codille, 12 divides by 3: 4 to each opponent, Bea puts up double the stake, 24", 8,
     "Ann deals: Bea solo in hearts, 4 tricks",
     "=> codille; pool 24; Ann +3, Bea -25, Cat +3, Dan +3"),
    ("PG alliance codille: the two opponents divide 4, Bea alone puts up double the stake, 8", 0,
     "Ann deals: Bea alliance in spades calling KH held by Dan, 2 + 2 tricks",
     "=> codille; pool 8; Ann +1, Bea -9, Cat +1, Dan -1"),  # PG: the loss "borne entirely by the player who called"
]


@pytest.mark.parametrize("pool_before, deal_line, expected_line",
                         [pytest.param(p, d, e, id=n) for n, p, d, e in PENGUIN_CODILLES])
def test_penguin_chips_codille_puts_up_double_the_stake(pool_before: int, deal_line: str, expected_line: str) -> None:
    """PG: 'Hombre also puts up double the stake to be carried forward to the next deal.'"""
    settlement = _settle("penguin_chips", {}, pool_before, deal_line)
    assert_settles_as(settlement, parse_expected(expected_line), PLAYERS)


# --- 2. Quadrille under P: the same case ----------------------------------------------------------
# P_CODILLE gives nothing when nothing was taken: on a fresh four-chip pool a solo codille then costs
# Bea 12 chips besides her ante (4 premium to each) and a remise 16. P does not state the case; PG
# does (PG_CODILLE), so the default follows PG there and P wherever something was taken.
P_CODILLES = [
    ("default, 4 does not divide by 3: nothing taken, Bea puts up double the stake, 8 (PG)", {}, 0,
     "Ann deals: Bea solo in hearts, 4 tricks",
     "=> codille; pool 12; Ann +3, Bea -21, Cat +3, Dan +3"),  # 1 ante + 8 beast + 3 x 4 premium = 21
    ("P read literally: twice nothing taken is nothing, a codille of 12 cheaper than the remise's 16",
     {R.CODILLE_BEAST: "twice_taken"}, 0,
     "Ann deals: Bea solo in hearts, 4 tricks",
     "=> codille; pool 4; Ann +3, Bea -13, Cat +3, Dan +3"),
    ("the remise beside them: Bea doubles the stake, 4, and pays the premium, 12", {}, 0,
     "Ann deals: Bea solo in hearts, 5 tricks",
     "=> remise; pool 8; Ann +3, Bea -17, Cat +3, Dan +3"),
    ("default, 12 divides by 3: twice the 12 taken (P, as PG)", {}, 8,
     "Ann deals: Bea solo in hearts, 4 tricks",
     "=> codille; pool 24; Ann +15, Bea -61, Cat +15, Dan +15"),  # unit 3: premium 12 to each
    ("P read literally, 12 divides by 3: twice the 12 taken, the same", {R.CODILLE_BEAST: "twice_taken"}, 8,
     "Ann deals: Bea solo in hearts, 4 tricks",
     "=> codille; pool 24; Ann +15, Bea -61, Cat +15, Dan +15"),
    ("default with FR's odd chip left: twice the 3 taken (P states it; PG does not)",
     {R.CODILLE_INDIVISIBLE: "split_carry_odd"}, 0,
     "Ann deals: Bea solo in hearts, 4 tricks",
     "=> codille; pool 7; Ann +4, Bea -19, Cat +4, Dan +4"),
]


@pytest.mark.parametrize("changes, pool_before, deal_line, expected_line",
                         [pytest.param(c, p, d, e, id=n) for n, c, p, d, e in P_CODILLES])
def test_quadrille_codille_beast(changes: dict[str, str], pool_before: int, deal_line: str, expected_line: str) -> None:
    """P: 'twice the amount that was just taken'; where nothing was taken, PG: 'double the stake'."""
    settlement = _settle("quadrille", changes, pool_before, deal_line)
    assert_settles_as(settlement, parse_expected(expected_line), PLAYERS)


def _hombre_loss(profile: str, changes: dict[str, str], pool_before: int, deal_line: str) -> int:
    settlement = _settle(profile, changes, pool_before, deal_line)
    return -settlement.change("Bea")


SOLO = "Ann deals: Bea solo in hearts, {} tricks, 3 matadors"
MEDIATEUR = "Ann deals: Bea mediateur in spades calling KH from Dan, {} tricks"
LOSING_DEALS = [("quadrille", SOLO), ("penguin_chips", SOLO), ("mediateur", SOLO), ("mediateur", MEDIATEUR),
                ("britannica", SOLO), ("britannica", MEDIATEUR)]


@pytest.mark.parametrize("pool_before", [0, 4, 8, 12, 20])
@pytest.mark.parametrize("profile, deal_line", LOSING_DEALS,
                         ids=[f"{p} {'médiateur' if d is MEDIATEUR else 'solo'}" for p, d in LOSING_DEALS])
def test_a_codille_never_costs_less_than_a_remise(profile: str, deal_line: str, pool_before: int) -> None:
    """RULES-NOTES point 11: 'A codille must never cost Hombre less than a remise would', under every
    chips and counters profile's defaults; P read literally breaks it when the pool stays whole."""
    remise = _hombre_loss(profile, {}, pool_before, deal_line.format(5))
    codille = _hombre_loss(profile, {}, pool_before, deal_line.format(4))
    assert codille >= remise


def test_p_read_literally_makes_a_codille_cheaper_than_a_remise() -> None:
    """What the value twice_taken implies (its help text says so): 12 chips against 16."""
    literal = {R.CODILLE_BEAST: "twice_taken"}
    codille = _hombre_loss("quadrille", literal, 0, "Ann deals: Bea solo in hearts, 4 tricks") - 1  # less her ante
    remise = _hombre_loss("quadrille", literal, 0, "Ann deals: Bea solo in hearts, 5 tricks") - 1
    assert (codille, remise) == (12, 16)
    assert "12 chips" in R.house_rule(R.CODILLE_BEAST).help and "16" in R.house_rule(R.CODILLE_BEAST).help


def test_the_codille_beast_names_its_source() -> None:
    """The beast's transfer says which source it follows: PG when nothing was taken, P when something was."""
    nothing_taken = _settle("quadrille", {}, 0, "Ann deals: Bea solo in hearts, 4 tricks")
    something_taken = _settle("quadrille", {}, 8, "Ann deals: Bea solo in hearts, 4 tricks")
    eb = _settle("britannica", {}, 0, "Ann deals: Bea solo in spades, 4 tricks")
    for settlement, source in ((nothing_taken, "PG"), (something_taken, "P"), (eb, "EB")):
        beasts = [t for t in settlement.transfers if t.reason is Reason.CODILLE_BEAST]
        assert [t.source for t in beasts] == [source]
    assert any("double the stake, 8 (PG)" in str(note) for note in nothing_taken.notes)


# --- 3. The Britannica: odd counters of a codille ----------------------------------------------------
# EB_ODD_COUNTERS. Profile britannica: a fish (10 counters) each on the game, 40 in all; Bea loses a
# sans prendre by codille: Ann, Cat and Dan take 13 each and 1 counter waits for the next deal.
CODILLE = "Ann deals: Bea solo in spades, 4 tricks"
ODD_COUNTERS = [
    ("one of the three, Cat, holds Spadille and takes the odd counter",
     "Bea deals: Cat solo in spades, 6 tricks, spadille with Cat", "Cat",
     "=> won; pool 0; Ann -27, Bea -27, Cat +122, Dan -27"),  # Cat: -10 ante +80 board +3x17 +1
    ("Bea, the loser, holds Spadille: of the three, Dan holds the highest trump and is entered",
     "Bea deals: Cat solo in spades, 6 tricks, spadille with Dan", "Dan",
     "=> won; pool 0; Ann -27, Bea -27, Cat +121, Dan -26"),
    ("Dan of the three holds Spadille and plays it forced: he takes the odd counter as Hombre",
     "Bea deals: Dan forced spadille in hearts calling KS held by Ann, 3 + 3 tricks", "Dan",
     "=> won; pool 0; Ann +33, Bea -13, Cat -13, Dan +34"),  # board 80 halved; game 1 and consolation 2 one to one
]


@pytest.mark.parametrize("next_deal, taker, expected_line", [pytest.param(d, t, e, id=n) for n, d, t, e in ODD_COUNTERS])
def test_odd_counters_go_to_him_of_the_three_with_spadille_or_the_highest_trump(
        next_deal: str, taker: str, expected_line: str) -> None:
    """EB: 'if there are any counters remaining, they belong to him of the three who shall have spadill
    or the highest trump the next deal.'"""
    rules = HouseRules.of("britannica")
    codille = settle(parse_deal(CODILLE), TableState.start(PLAYERS), rules)
    assert codille.after.spadille_reserve == 1
    set_aside = [t for t in codille.transfers if t.reason is Reason.ODD_CHIPS_SET_ASIDE]
    assert len(set_aside) == 1 and set_aside[0].source == "EB"
    assert "Cat, Dan and Ann" in str(set_aside[0].what) and "Bea" not in str(set_aside[0].what)  # the three, never the loser
    assert any("highest trump" in str(note) for note in codille.notes)

    settlement = settle(parse_deal(next_deal), codille.after, rules)

    released = [t for t in settlement.transfers if t.reason is Reason.ODD_CHIPS_TO_SPADILLE]
    assert [(t.payer, t.payee, t.chips) for t in released] == [(Pot.SPADILLE_RESERVE, taker, 1)]
    assert settlement.after.spadille_reserve == 0
    assert_settles_as(settlement, parse_expected(expected_line), PLAYERS)


@pytest.mark.parametrize("next_deal, refused", [
    pytest.param("Bea deals: Cat solo in spades, 6 tricks, spadille with Bea", "Bea lost the last codille",
                 id="the loser named as Spadille's holder"),
    pytest.param("Bea deals: Bea forced spadille in hearts calling KS held by Ann, 3 + 3 tricks", "say who",
                 id="the loser forced to play Spadille, the highest trump not named"),
])
def test_the_loser_of_the_codille_never_takes_its_odd_counters(next_deal: str, refused: str) -> None:
    """EB: 'him of the three': the loser of the codille is not one of the three."""
    rules = HouseRules.of("britannica")
    codille = settle(parse_deal(CODILLE), TableState.start(PLAYERS), rules)
    assert set(codille.after.spadille_takers) == {"Ann", "Cat", "Dan"}
    with pytest.raises(ImpossibleDeal, match=refused):
        settle(parse_deal(next_deal), codille.after, rules)


def test_a_loser_forced_to_play_spadille_leaves_the_odd_counters_to_the_highest_trump_of_the_three() -> None:
    """EB: "or the highest trump": Bea held Spadille but lost the codille; Dan held the highest trump."""
    rules = HouseRules.of("britannica")
    codille = settle(parse_deal(CODILLE), TableState.start(PLAYERS), rules)
    deal = replace(parse_deal("Bea deals: Bea forced spadille in hearts calling KS held by Ann, 3 + 3 tricks"), spadille="Dan")
    settlement = settle(deal, codille.after, rules)
    released = [t for t in settlement.transfers if t.reason is Reason.ODD_CHIPS_TO_SPADILLE]
    assert [(t.payee, t.chips) for t in released] == [("Dan", 1)]
    assert settlement.after.spadille_reserve == 0 and settlement.after.spadille_takers == ()


# --- 4. Help texts say only what their sources say ----------------------------------------------------
KNOWN_TAGS = {"P", "W", "EB", "PG", "FR", "H47", "Quanti"}
TAG = re.compile(r"\b(P|W|EB|PG|FR|H47|Quanti)\b")


@pytest.mark.parametrize("rule", HOUSE_RULES, ids=lambda r: r.name)
def test_every_help_text_names_a_source_or_says_no_source(rule: R.HouseRule) -> None:
    """Each help text names a source tag or says "no source"; each choice cites only known tags, and
    every tag a choice cites is one the help text quotes or reports. A choice no source gives is
    marked "" (shown as "no source"), and its help text then says "no source" somewhere."""
    assert TAG.search(rule.help) or "no source" in rule.help.lower(), rule.help
    cited_in_help = set(TAG.findall(rule.help))
    for choice in rule.choices:
        tags = set(TAG.findall(choice.sources))
        assert not choice.sources or tags, choice
        assert tags <= KNOWN_TAGS
        assert tags <= cited_in_help, f"{rule.name}={choice.value} cites {tags - cited_in_help}, which the help text does not"
        if not choice.sources:
            assert "no source" in rule.help.lower(), f"{rule.name}={choice.value} has no source: the help text must say so"


# The help texts issue 11 found overstating their sources, and what each must now say.
OVERSTATEMENTS = [
    ("codille_beast: PG is not silent", R.CODILLE_BEAST,
     ["Hombre also puts up double the stake to be carried forward to the next deal"], ["the sources do not say"]),
    ("vole_payment: P's text gives 3/6/24 for the vole announced, Quanti's table for voles undertaken",
     R.VOLE_PAYMENT, ["three times the value of the basic game", "announced", "undertaken", "follows the table"], []),
    ("mediateur_king: P only exempts the giver from paying", R.MEDIATEUR_KING,
     ["exempt from paying Hombre that premium", "no source"], ["by the same token"]),
    ("alliance_loss: the halving of the beast is EB's", R.ALLIANCE_LOSS,
     ["EB", "one half by him that calls"], ["P, EB, H47: Hombre and her ally share the loss"]),
    ("bonus_flow: which opponent pairs with which ally is in no source", R.BONUS_FLOW,
     ["in no source", "one to one"], []),
    ("codille_indivisible: EB gives the odd counters to one of the three, Spadille or the highest trump",
     R.CODILLE_INDIVISIBLE, ["him of the three who shall have spadill or the highest trump the next deal",
                             "the loser's name is refused"], ["cannot yet"]),
    # Issue 24, point 4.
    ("codille_beast: PG's sentence has no condition; the pool that stayed is the app's reading", R.CODILLE_BEAST,
     ["a sentence with no condition", "the pool and it stayed is the app's reading"],
     ["the one source that states the case", 'next deal", also when']),
    ("forced_spadille_bonuses: PG lists matadors and premiers, its vole a separate suggestion",
     R.FORCED_SPADILLE_BONUSES, ["the bonuses it lists are matadors and premiers", "The following is suggested.",
                                 "(the app's reading)"], ["premiers and the vole among them"]),
    ("favourite_doubles: PG says only 'wins or loses double'; the beasts are the app's reading", R.FAVOURITE_DOUBLES,
     ["without saying what is doubled", "the beasts are the app's reading", "the britannica profile keeps the default"],
     ["the beasts too"]),
    ("counter_matadors: EB only calls the longer runs matadores", R.COUNTER_MATADORS,
     ["likewise called matadores", "EB gives no rate"], ["counts as one"]),
    ("fish_extraordinary: that the loser pays it is inferred from EB's totals", R.FISH_EXTRAORDINARY,
     ["EB does not say that a loser pays it", "the app infers so from EB's totals (the app's reading)"],
     ["its figures show the loser paying it"]),
]


@pytest.mark.parametrize("name, must_say, must_not_say", [pytest.param(*o[1:], id=o[0]) for o in OVERSTATEMENTS])
def test_help_texts_no_longer_overstate_their_sources(name: str, must_say: list[str], must_not_say: list[str]) -> None:
    text = R.house_rule(name).help
    for phrase in must_say:
        assert phrase in text, phrase
    for phrase in must_not_say:
        assert phrase not in text, phrase


# Each profile follows the source it is named after, wherever that source gives a value of a rule its
# settlement system reads. The point score reads only these rules; the counters pay every matador a
# counter (counter_matadors), not chips by units, so the chips' unit, premium and vole rules are not theirs.
PROFILE_SOURCE = {"quadrille": "P", "mediateur": "P", "penguin_chips": "PG", "penguin_points": "PG", "britannica": "EB"}
POINTS_READS = {R.MULTIPLIER_SCOPE, R.POINTS_ALLY, R.FORCED_SPADILLE_BONUSES, R.OWN_KING, R.OWN_KING_FORCED,
                R.ANNOUNCED_VOLE_SHORT, R.ALLIANCE_REMISE, R.FAVOURITE_SUIT, R.GRANDISSIMO_NEMO}
COUNTERS_IGNORE = {R.LONG_MATADORS, R.DOUBLE_MATADORS_PAY, R.SOLO_PREMIUM, R.UNIT, R.UNIT_ROUNDING, R.VOLE_PAYMENT,
                   R.VOLE_LOST_PAYS, R.ANNOUNCED_VOLE_PREMIUM}
# P's basic game has a lost announced vole pay "the premium of the vole" (no amount). P's Médiateur pays its
# vole by the vole pool of Quanti's figures alone, and says nothing of a premium when it is lost: the profile
# mediateur pays none, a case no source states (the help text says so).
NOT_STATED = {("mediateur", R.ANNOUNCED_VOLE_PREMIUM)}


@pytest.mark.parametrize("profile_name", sorted(PROFILE_SOURCE))
def test_each_profile_follows_the_source_it_is_named_after(profile_name: str) -> None:
    profile = PROFILES[profile_name]
    source = PROFILE_SOURCE[profile_name]
    for rule in HOUSE_RULES:
        if profile.system is POINT_SCORE and rule.name not in POINTS_READS:
            continue
        if profile.system is COUNTERS and rule.name in COUNTERS_IGNORE or (profile_name, rule.name) in NOT_STATED:
            continue
        from_source = [c.value for c in rule.choices if source in TAG.findall(c.sources)]
        if from_source:
            assert profile.default(rule.name) in from_source, f"{profile_name}: {rule.name}"


@pytest.mark.parametrize("profile_name, rule_name, value, sentence", [
    pytest.param("penguin_chips", R.CODILLE_BEAST, "twice_pool", PG_CODILLE, id="PG codille: double the stake"),
    pytest.param("quadrille", R.CODILLE_BEAST, "twice_taken_or_double_stake", P_CODILLE + "; " + PG_CODILLE,
                 id="P codille, PG where nothing was taken"),
    pytest.param("penguin_chips", R.FORCED_SPADILLE_BONUSES, "premiers_and_vole",
                 "PG: 'In an alliance or forced Spadille ... each opponent pays each partner any of the relevant bonuses'",
                 id="PG forced spadille: premiers and the vole"),
    pytest.param("penguin_chips", R.FAVOURITE_DOUBLES, "everything",
                 "PG: Preference 'wins or loses double'", id="PG favourite suit: wins or loses double"),
    pytest.param("britannica", R.PAULANS, "last_deal", "EB: 'The last game is generally played double, and is called paulans'",
                 id="EB paulans: the last deal double"),
    pytest.param("britannica", R.CODILLE_INDIVISIBLE, "odd_to_spadille", EB_ODD_COUNTERS, id="EB odd counters"),
])
def test_defaults_changed_for_the_sources(profile_name: str, rule_name: str, value: str, sentence: str) -> None:
    """The defaults issue 11 changed, each with the sentence of its source (the id and ``sentence``)."""
    assert HouseRules.of(profile_name).value_of(rule_name) == value, sentence


@pytest.mark.parametrize("profile_name, must_say, must_not_say", [
    pytest.param("quadrille", ["a renounce the recorded play proves is beasted as EB says", "(P gives no penalty)",
                               "PG's double the stake (its sentence, read so)"], ["where only PG does"],
                 id="quadrille: its renounce beast is EB's, its codille beast PG's sentence read so"),
    pytest.param("penguin_chips", ["premiers are paid in forced spadille too", "PG's suggested vole settlement read so",
                                   "read here as every payment and the beasts"],
                 ["premiers and the vole are paid"], id="penguin_chips: PG lists premiers; the vole is read so"),
])
def test_profiles_say_where_their_defaults_come_from(profile_name: str, must_say: list[str],
                                                    must_not_say: list[str]) -> None:
    text = PROFILES[profile_name].english_description
    for phrase in must_say:
        assert phrase in text, phrase
    for phrase in must_not_say:
        assert phrase not in text, phrase


def test_the_britannica_profile_says_its_favourite_doubling_is_the_apps_reading() -> None:
    """EB implies that the favourite doubles ("must give two fish if it is in the favourite suite"; the Turk "is
    double of the favourite suite") without saying what: the profile britannica doubles everything (kept so, so
    that the evenings recorded under it settle as they did), the value's sources name no EB, and the profile's
    text says the doubling of everything is the app's reading."""
    assert HouseRules.of("britannica").value_of(R.FAVOURITE_DOUBLES) == "everything"
    assert "EB" not in R.house_rule(R.FAVOURITE_DOUBLES).choice("everything").sources
    assert "the app's reading" in PROFILES["britannica"].english_description


def test_a_forced_spadille_in_penguin_chips_pays_premiers() -> None:
    """PG: 'In an alliance or forced Spadille, the stake is divided between the allies, and each opponent pays
    each partner any of the relevant bonuses listed above', premiers among them (1 unit)."""
    settlement = _settle("penguin_chips", {}, 0, "Ann deals: Cat forced spadille in hearts calling KS held by Dan, 4 + 2 tricks, premiers")
    assert settlement.result is Result.WON
    assert_settles_as(settlement, parse_expected("=> won; pool 0; Ann -3, Bea -3, Cat +3, Dan +3"), PLAYERS)


# --- 5. The unit: a quarter of the stake in play (issue 22, point 5) --------------------------------
# P_UNIT. Every chip in the pool when the deal is played counts in the stake the unit is a quarter of:
# what the last deal left, what the circle's last evening carried in, a waiting beast that joins. The
# same deal after the same remise gives the same unit inside one evening and first in the next evening
# (it gave 1 there), and a beast that waits a deal gives the unit it would have given joining at once
# (it gave 4 there). Cat's solo has 3 matadors, 1 unit; her premium is 4 units.
P_UNIT = ("P: 'A unit means one quarter of the stake. The stake may be greater than four chips, as it is carried "
          "forward when a game is lost'")
REMISE = "Ann deals: Bea solo in hearts, 5 tricks"
"""The first deal: 4 antes, Bea doubles them (and pays each the premium): 8 left in the pool."""
CAT_LOSES = "Bea deals: Cat solo in hearts, 4 tricks, 3 matadors"
CAT_WINS = "Bea deals: Cat solo in spades, 6 tricks, 3 matadors"
UNITS = [
    ("a remise inside one evening: 8 left + 4 antes, 12 in play, unit 3", {}, "evening", CAT_LOSES,
     "The pool held 12 chips, so a unit is 3.",  # the opponents take 4 each; Cat puts up 24, pays each 4 x 3 + 3
     "=> codille; pool 24; Ann +18, Bea +18, Cat -70, Dan +18"),
    ("the circle's next evening, the remise's 8 carried in: 12 in play, unit 3 as above (it was 1)",
     {R.POOL_AT_END: "carry_forward"}, "circle", CAT_LOSES,
     "The pool held 12 chips, so a unit is 3.",
     "=> codille; pool 24; Ann +18, Bea +18, Cat -70, Dan +18"),
    ("antes only into an empty pool: after the remise 8 in play, unit 2", {R.ANTES: "when_pool_empty"}, "evening",
     CAT_LOSES, "The pool held 8 chips, so a unit is 2.",  # 8 stays whole; Cat puts up 16, pays each 4 x 2 + 2
     "=> codille; pool 24; Ann +10, Bea +10, Cat -46, Dan +10"),
    ("paulans inside one evening: the remise leaves 16, + 8 double antes; unit a quarter of 16 + 4 single antes, doubled",
     {R.PAULANS: "last_round"}, "evening", CAT_WINS,
     "The pool held 24 chips; this deal is played double (paulans), so a unit is 10.",  # Cat: -2 + 24 + 3 x (40 + 10)
     "=> won; pool 0; Ann -52, Bea -52, Cat +172, Dan -52"),
    ("paulans, the 16 carried into the circle's next evening: unit 10 as above (it was 2)",
     {R.PAULANS: "last_round", R.POOL_AT_END: "carry_forward"}, "circle", CAT_WINS,
     "The pool held 24 chips; this deal is played double (paulans), so a unit is 10.",
     "=> won; pool 0; Ann -52, Bea -52, Cat +172, Dan -52"),
    ("beasts together: the codille's 4 + 8 and the renounce's 4 left, + 4 antes, 20 in play, unit 5",
     {R.BEASTS_TOGETHER: "together"}, "beasts", CAT_WINS,
     "The pool held 20 chips, so a unit is 5.",  # Cat: -1 + 20 + 3 x (20 + 5)
     "=> won; pool 0; Ann -26, Bea -26, Cat +94, Dan -26"),
    ("the greatest first: 12 left, the renounce's 4 waits and joins now, + 4 antes, unit 5 as above (it was 4)",
     {R.BEASTS_TOGETHER: "greatest_first"}, "beasts", CAT_WINS,
     "The pool held 20 chips, so a unit is 5.",
     "=> won; pool 0; Ann -26, Bea -26, Cat +94, Dan -26"),
]


def _played_after(changes: dict[str, str], before: str, deal_line: str) -> Settlement:
    """``deal_line`` settled after a first deal: the remise in the same evening of four deals, or closing an
    evening of the circle (this deal the next evening's first), or a solo codille with a renounce proven."""
    rules = HouseRules.of("quadrille", changes)
    deal = parse_deal(deal_line)
    if before == "beasts":
        from helpers.plays import CODILLE, refereed

        first = settle(refereed(parse_deal("Ann deals: Bea solo in hearts, 3 tricks"), CODILLE), TableState.start(PLAYERS), rules)
        return settle(deal, first.after, rules)
    if before == "evening":
        return replay(Evening(PLAYERS, rules, (parse_deal(REMISE), deal), 4)).settlements[1]
    season = replay_season(PLAYERS, [Evening(PLAYERS, rules, (parse_deal(REMISE),), 4), Evening(PLAYERS, rules, (deal,), 4)])
    assert season.evenings[1].carried_in == season.evenings[0].replay.final.pool > 0
    return season.evenings[1].replay.settlements[0]


@pytest.mark.parametrize("changes, before, deal_line, unit_sentence, expected_line",
                         [pytest.param(*row[1:], id=row[0]) for row in UNITS])
def test_the_unit_is_a_quarter_of_the_stake_in_play(changes: dict[str, str], before: str, deal_line: str,
                                                    unit_sentence: str, expected_line: str) -> None:
    """P: 'A unit means one quarter of the stake. The stake may be greater than four chips, as it is carried
    forward when a game is lost': every chip in the pool when the deal is played, wherever it came from."""
    settlement = _played_after(changes, before, deal_line)
    assert str(summarise(settlement, HouseRules.of("quadrille", changes)).unit_sentence) == unit_sentence, P_UNIT
    assert_settles_as(settlement, parse_expected(expected_line), PLAYERS)
    assert settlement.after.total == settlement.before.total and settlement.after.beasts_waiting == ()


def test_the_units_help_text_counts_every_chip_in_the_pool() -> None:
    """The help text quotes P and says which part is the app's reading."""
    text = R.house_rule(R.UNIT).help
    for phrase in ("A unit means one quarter of the stake", "every chip in the pool when the deal is played",
                   "an earlier evening carried in", "a waiting beast", "the app's reading"):
        assert phrase in text, phrase


# --- 6. The sources' last points (issue 30, point 11) -----------------------------------------------
# P_ANNOUNCED_LOST. A vole bid and lost with six tricks or more is a lost game: the pool stays, and Hombre pays
# only the premium of the vole (none under the mediateur profile: its vole is paid by the vole pool alone).
# With grandissimo_nemo = premium_only a grandissimo's announced vole lost with eight tricks was paid its
# premium and premiers (Bea -10); it is now lost under either value, like a solo's. A vole *undertaken* after
# premiers and lost still wins the game (P_UNDERTAKEN_LOST), under either value.
P_ANNOUNCED_LOST = ("P: 'For a lost vole announced ... Hombre neither wins the game stake nor doubles it, but leaves "
                    "it to be carried forward to the next deal. Nor does she pay her opponents anything more than "
                    "the premium of the vole'")
P_UNDERTAKEN_LOST = ("P: 'A vole undertaken after six tricks, if lost, does not bar Hombre from winning the game "
                     "stake, the payment for premiers, and any payment for matadors.'")
GRANDISSIMO_VOLES = [
    # Each player antes 1 and stakes 36 units (Quanti's grandissimo announced) for the vole; the three take 48 each.
    ("grandissimo, vole announced, 8 tricks, premium only: lost, no premium, no premiers", "premium_only",
     "Ann deals: Bea grandissimo, 8 tricks, premiers, vole announced", False,
     "=> vole_lost; pool 4; vole pool 0; Ann +11, Bea -37, Cat +11, Dan +11"),
    ("grandissimo, vole announced, 8 tricks, as a solo: the same", "as_solo",
     "Ann deals: Bea grandissimo, 8 tricks, premiers, vole announced", False,
     "=> vole_lost; pool 4; vole pool 0; Ann +11, Bea -37, Cat +11, Dan +11"),
    ("a solo's vole announced, 8 tricks, beside them: lost as well", "premium_only",
     "Ann deals: Bea solo in spades, 8 tricks, premiers, vole announced", False,
     "=> vole_lost; pool 4; vole pool 0; Ann +2, Bea -10, Cat +2, Dan +2"),  # vole stake 9; 36 shared, 12 each
    # A vole undertaken (24 units each): the game is won. Premium only: 8 + 1 premiers from each, the pool stays.
    ("grandissimo, vole undertaken, 8 tricks, premium only: the premium and premiers, the pool stays", "premium_only",
     "Ann deals: Bea grandissimo, 8 tricks, premiers, vole undertaken", True,
     "=> vole_lost; pool 4; vole pool 0; Ann -2, Bea +2, Cat -2, Dan -2"),  # Bea -1 -24 +3 x 9; each -1 -24 +32 -9
    ("grandissimo, vole undertaken, 8 tricks, as a solo: the pool as well", "as_solo",
     "Ann deals: Bea grandissimo, 8 tricks, premiers, vole undertaken", True,
     "=> vole_lost; pool 0; vole pool 0; Ann -2, Bea +6, Cat -2, Dan -2"),
]


@pytest.mark.parametrize("value, deal_line, game_won, expected_line",
                         [pytest.param(*row[1:], id=row[0]) for row in GRANDISSIMO_VOLES])
def test_a_vole_announced_and_lost_is_a_lost_game_under_either_grandissimo_nemo(
        value: str, deal_line: str, game_won: bool, expected_line: str) -> None:
    """P_ANNOUNCED_LOST, P_UNDERTAKEN_LOST; the statistics count the game as the settlement pays it."""
    from scorer.core.words.stats import statistics

    rules = HouseRules.of("mediateur", {R.GRANDISSIMO_NEMO: value})
    settlement = settle(parse_deal(deal_line), TableState.start(PLAYERS), rules)
    assert_settles_as(settlement, parse_expected(expected_line), PLAYERS)
    paid_to_bea = {t.reason for t in settlement.transfers if t.payee == "Bea"}
    assert (Reason.GAME_PREMIUM in paid_to_bea) is game_won, P_ANNOUNCED_LOST if not game_won else P_UNDERTAKEN_LOST
    bea = statistics([replay(Evening(PLAYERS, rules, (parse_deal(deal_line),)))]).players[1]
    assert (bea.player, bea.won, bea.lost) == ("Bea", int(game_won), int(not game_won))


# PG_VOLE_LOST. PG's row "won with vole lost" is the vole undertaken after winning the game and premiers; PG has
# no row for a vole bid and lost. It is a lost game (P_ANNOUNCED_LOST): it scores PG's remise row and raises the
# multiplier as a lost game does, where it scored +5 and reset the multiplier as a win would.
PG_VOLE_LOST = ("PG: 'Having won the game and premiers, and gone for the vole, Hombre receives an additional 2 units "
                "from each opponent if successful ... it reduces but does not entirely cancel his basic win'")
VOLE_BID_LOST = """
players Ann Bea Cat Dan
profile penguin_points
Ann deals: Bea solo in hearts, 5 tricks
=> remise; ×1; Ann 0, Bea -20, Cat 0, Dan 0
# a vole bid and lost with 8 tricks: PG's remise row for a solo, -20, doubled
Bea deals: Cat vole in hearts, 8 tricks, premiers
=> vole_lost; ×2; Ann 0, Bea 0, Cat -40, Dan 0
# two lost games in a row: treble
Cat deals: Dan solo in hearts, 6 tricks
=> won; ×3; Ann 0, Bea 0, Cat 0, Dan +30
"""
VOLE_UNDERTAKEN_LOST = """
players Ann Bea Cat Dan
profile penguin_points
Ann deals: Bea solo in hearts, 5 tricks
=> remise; ×1; Ann 0, Bea -20, Cat 0, Dan 0
# the vole undertaken after premiers and lost: PG's row, 5, doubled; the game is won
Bea deals: Cat solo in hearts, 8 tricks, premiers, vole undertaken
=> vole_lost; ×2; Ann 0, Bea 0, Cat +10, Dan 0
Cat deals: Dan solo in hearts, 6 tricks
=> won; ×1; Ann 0, Bea 0, Cat 0, Dan +10
"""


@pytest.mark.parametrize("text", [VOLE_BID_LOST, VOLE_UNDERTAKEN_LOST], ids=["a vole bid, lost", "a vole undertaken, lost"])
def test_a_vole_bid_and_lost_is_a_lost_game_in_pgs_point_score(text: str) -> None:
    """PG_VOLE_LOST: the row is the vole undertaken; a vole bid and lost is scored as PG scores a lost game."""
    scenario = parse_scenario(text)
    result = replay(Evening(scenario.players, scenario.rules, tuple(d for d, _ in scenario.steps)))
    for settlement, (_, expected) in zip(result.settlements, scenario.steps, strict=True):
        assert_settles_as(settlement, expected, scenario.players)
    lost_vole = result.settlements[1]
    if lost_vole.deal.vole_in_the_bid:
        assert all("scored as a remise (the app's reading)" in str(t.what) for t in lost_vole.transfers)
    text_of_rule = R.house_rule(R.ANNOUNCED_VOLE_SHORT).help
    assert "Having won the game and premiers" in text_of_rule and "the app's reading" in text_of_rule


# P_ANTES. Under antes = when_pool_empty the antes were skipped by the pool the last deal left, but paid into a
# pool that chips carried in from the circle's last evening, or a waiting beast, had just filled (docs/SETTLEMENT.md
# puts them first). The pool is now looked at once they have joined it.
P_ANTES = "P: 'Before each deal, each player stakes one chip to the pool'; anteing only into an empty pool has no source"
WHEN_EMPTY = [
    ("the circle's next evening, 8 carried in: no antes, stake 8, unit 2", {R.ANTES: "when_pool_empty"}, "circle",
     "=> won; pool 0; Ann -10, Bea -10, Cat +38, Dan -10"),  # Cat: 8 + 3 x (4 + 1) x 2
    ("every deal beside it: 8 carried in + 4 antes, stake 12, unit 3", {}, "circle",
     "=> won; pool 0; Ann -16, Bea -16, Cat +56, Dan -16"),  # Cat: -1 + 12 + 3 x (4 + 1) x 3
    ("a beast of 4 waiting joins an empty pool: no antes, stake 4, unit 1", {R.ANTES: "when_pool_empty"}, "beast",
     "=> won; pool 0; Ann -5, Bea -5, Cat +19, Dan -5"),  # Cat: 4 + 3 x 5
    ("every deal beside it: the beast + 4 antes, stake 8, unit 2", {}, "beast",
     "=> won; pool 0; Ann -11, Bea -11, Cat +37, Dan -11"),
]
CAT_WINS_WITH_MATADORS = "Bea deals: Cat solo in spades, 6 tricks, 3 matadors"


@pytest.mark.parametrize("changes, before, expected_line", [pytest.param(*row[1:], id=row[0]) for row in WHEN_EMPTY])
def test_antes_when_the_pool_is_empty_look_at_the_pool_after_what_joins_it(
        changes: dict[str, str], before: str, expected_line: str) -> None:
    """P_ANTES: the pool is looked at after what the last evening carried in, or a waiting beast, has joined it."""
    rules = HouseRules.of("quadrille", {R.POOL_AT_END: "carry_forward", R.BEASTS_TOGETHER: "greatest_first", **changes})
    deal = parse_deal(CAT_WINS_WITH_MATADORS)
    if before == "circle":
        season = replay_season(PLAYERS, [Evening(PLAYERS, rules, (parse_deal(REMISE),), 4), Evening(PLAYERS, rules, (deal,), 4)])
        assert season.evenings[1].carried_in == 8
        settlement = season.evenings[1].replay.settlements[0]
    else:
        state = TableState(players=PLAYERS, balances=(-1, -1, -1, -1), beasts_waiting=(4,), deals_played=1, last_dealer="Ann")
        settlement = settle(deal, state, rules)
    antes = [t for t in settlement.transfers if t.reason is Reason.ANTE]
    assert (antes == []) is (rules[R.ANTES] is R.Antes.WHEN_POOL_EMPTY), P_ANTES
    assert_settles_as(settlement, parse_expected(expected_line), PLAYERS)
    assert settlement.after.total == settlement.before.total


# The tags of three values said PG where PG does not state the value: each now says where the app reads PG.
TAGS = [
    (R.CODILLE_INDIVISIBLE, "carry_whole", "P, PG (the app's reading)",
     "PG divides the pool 'unless there are three and the stake is not exactly divisible', without saying what becomes "
     "of it then"),
    (R.FAVOURITE_DOUBLES, "everything", "H47, PG (the app's reading)", "PG: Preference 'wins or loses double'"),
    (R.FORCED_SPADILLE_BONUSES, "premiers_and_vole", "PG (its point table; in chips the app's reading)",
     "PG's point table scores forced spadille with premiers and the vole; its chips list matadors and premiers"),
]


@pytest.mark.parametrize("rule_name, value, sources, sentence", TAGS, ids=[f"{r}={v}" for r, v, _, _ in TAGS])
def test_value_tags_say_only_what_their_source_says(rule_name: str, value: str, sources: str, sentence: str) -> None:
    rule = R.house_rule(rule_name)
    assert rule.choice(value).sources == sources, sentence
    assert "the app's reading" in rule.help, sentence


def test_the_odd_chip_of_a_shared_beast_is_hombres_as_the_rules_page_says() -> None:
    """P: in a lost alliance "Hombre pays the appropriate amount to one opponent, and her ally to the other"; EB halves
    the beast; no source says who pays an odd chip. A pool of 1 left over, + 4 antes: Bea and Dan double 5, Bea 3."""
    settlement = _settle("quadrille", {}, 1, "Ann deals: Bea alliance in spades calling KH held by Dan, 3 + 2 tricks")
    beasts = {t.payer: t.chips for t in settlement.transfers if t.reason is Reason.REMISE_BEAST}
    assert beasts == {"Bea": 3, "Dan": 2}
    assert "Who pays the odd chip of a shared beast no source says: Hombre (the app's reading)." in R.house_rule(
        R.ALLIANCE_LOSS).help


def test_the_settlement_document_says_what_chips_sum_to() -> None:
    """A circle's later evening begins with the chips carried in: balances and pots sum to them, not to zero."""
    from helpers.docs import read

    text = " ".join(read("docs/SETTLEMENT.md").split())
    assert "always sum to zero" not in text
    assert "they sum to what the evening began with: zero, or in a circle the chips the last evening carried in" in text
    rules = HouseRules.of("quadrille", {R.POOL_AT_END: "carry_forward"})
    season = replay_season(PLAYERS, [Evening(PLAYERS, rules, (parse_deal(REMISE),), 4),
                                     Evening(PLAYERS, rules, (parse_deal(CAT_WINS_WITH_MATADORS),), 4)])
    after = season.evenings[1].replay.settlements[0].after
    assert after.total == sum(after.balances) == season.evenings[1].carried_in == 8
