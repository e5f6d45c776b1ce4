"""A claim after six tricks in an alliance (issue 24, point 2). P: "In an alliance, the same rule applies to the
partnership if they take the first six between them ... If after six tricks Hombre does not yet know who her ally
is, the latter will naturally reveal herself." A play record of six tricks is such a claim: it names who revealed
herself when the called King was never played, and is settled with premiers; a refusal never asks for tricks
that were not played. Domain tests, and the deal form at the end."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from flask import Flask
from helpers.plays import (
    ALLIANCE, CLAIM, CLAIM_CAT_AND_DAN_TAKE_ONE, CLAIM_DAN_TAKES_ONE, PLAYERS, RENOUNCE, play, random_play, refereed,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.core import Card, Contract, Deal, HouseRules, ImpossibleDeal, Suit, TableState, check_deal, settle
from scorer.core.ledger.evening_json import format_deal, parse_deal
from scorer.core.game.play import AllyShown, parse_tricks, proven_deal
from scorer.core.ledger.table_checks import referee

START = TableState.start(PLAYERS)
KC = Card("K", Suit.CLUBS)

# (what, the play, the deal as entered, the house rules changed, Bea, Cat, Dan, Ann after the deal)
SETTLED = [
    ("Bea takes all six, Dan named as revealed: won with premiers, the pool shared, bonuses one to one (P)",
     CLAIM, replace(ALLIANCE, revealed_ally="Dan"), {}, (4, -4, 4, -4)),
    ("Dan takes trick 6 with the King of clubs unplayed: the claim shows him",
     CLAIM_DAN_TAKES_ONE, replace(ALLIANCE, hombre_tricks=5, ally_tricks=1), {}, (4, -4, 4, -4)),
    ("the same, Dan named as well", CLAIM_DAN_TAKES_ONE,
     replace(ALLIANCE, hombre_tricks=5, ally_tricks=1, revealed_ally="Dan"), {}, (4, -4, 4, -4)),
    ("Bea says she held the King of clubs herself: a secret solo claimed at six (P: \"wins or loses accordingly\")",
     CLAIM, replace(ALLIANCE, ally="Bea", ally_tricks=None, revealed_ally="Bea"), {},
     (4 - 1 + 3 * (4 + 2 + 1), -1 - 7, -1 - 7, -1 - 7)),
    ("a forced spadille where premiers are paid (PG): claimed at six", CLAIM,
     replace(ALLIANCE, contract=Contract.FORCED_SPADILLE, revealed_ally="Dan"),
     {"forced_spadille_bonuses": "premiers_and_vole"}, (4, -4, 4, -4)),
]


@pytest.mark.parametrize("what, text, deal, changes, after", SETTLED, ids=[s[0][:60] for s in SETTLED])
def test_a_claim_at_six_in_an_alliance_is_settled_with_premiers(what: str, text: str, deal: Deal,
                                                                 changes: dict[str, str],
                                                                 after: tuple[int, int, int, int]) -> None:
    kept = refereed(deal, text)
    rules = HouseRules.of("quadrille", changes)
    check_deal(kept, START, rules)
    settled = settle(kept, START, rules)
    assert [settled.after.balance(p) for p in ("Bea", "Cat", "Dan", "Ann")] == list(after)
    assert any(t.reason.value == "premiers" for t in settled.transfers)
    assert settled.after.total == 0


# (what, the play, the deal as entered, the house rules changed, the input at fault, the sentence)
REFUSED = [
    ("Bea takes all six and nobody is named: the play cannot show the ally", CLAIM, ALLIANCE, {}, "ally",
     "Hombre took the first six tricks and the King of clubs was not played: say who held it, as she revealed "
     "herself at the claim"),
    ("Cat named, but Dan took trick 6", CLAIM_DAN_TAKES_ONE,
     replace(ALLIANCE, ally="Cat", hombre_tricks=5, ally_tricks=1, revealed_ally="Cat"), {}, "premiers",
     "a play of six tricks is premiers claimed, but Dan took trick 6, and Cat was revealed as the ally: say who "
     "was revealed, or, if nobody claimed, enter all ten tricks"),
    ("Cat and Dan each took a trick: no side of two took all six", CLAIM_CAT_AND_DAN_TAKE_ONE,
     replace(ALLIANCE, hombre_tricks=4, ally_tricks=1, premiers=False), {}, "premiers",
     "a play of six tricks is premiers claimed, but Cat and Dan each took one of the first six: Hombre and one ally "
     "did not take them all, so nobody claimed and the play went on: enter all ten tricks"),
    ("Dan named, but Cat took trick 5", CLAIM_CAT_AND_DAN_TAKE_ONE,
     replace(ALLIANCE, hombre_tricks=4, ally_tricks=1, premiers=False, revealed_ally="Dan"), {}, "premiers",
     "a play of six tricks is premiers claimed, but Cat took trick 5, and Dan was revealed as the ally: say who "
     "was revealed, or, if nobody claimed, enter all ten tricks"),
    ("a forced spadille has no premiers (P): six tricks are no record", CLAIM,
     replace(ALLIANCE, contract=Contract.FORCED_SPADILLE, premiers=False, revealed_ally="Dan"), {}, "premiers",
     "a play of six tricks is premiers claimed, but a forced spadille has no premiers to claim here: keep the play "
     "with all ten tricks if they were played, or record the deal without its play"),
    ("named although the King of clubs was played", CLAIM.replace("Dan 5C", "Dan KC"), replace(ALLIANCE, revealed_ally="Dan"),
     {}, "ally", "Dan played the King of clubs: the play shows who held it, so nobody was revealed at the claim"),
    ("named in a solo", CLAIM, Deal("Ann", "Bea", Contract.SOLO, Suit.HEARTS, hombre_tricks=6, matadors=4, premiers=True,
                                    revealed_ally="Dan"), {}, "ally", "a solo is played alone: there is no ally"),
    ("a name not at the table", CLAIM, replace(ALLIANCE, revealed_ally="Eve"), {}, "ally",
     "'Eve' is not one of the players at this table"),
]


@pytest.mark.parametrize("what, text, deal, changes, field, sentence", REFUSED, ids=[r[0][:60] for r in REFUSED])
def test_a_record_of_six_that_is_no_claim_is_refused_for_what_can_exist(what: str, text: str, deal: Deal,
                                                                        changes: dict[str, str], field: str,
                                                                        sentence: str) -> None:
    with pytest.raises(ImpossibleDeal) as refused:
        check_deal(replace(deal, play=play(text)), START, HouseRules.of("quadrille", changes))
    assert (refused.value.field, refused.value.message) == (field, sentence)


def test_who_revealed_herself_is_named_only_with_a_record_of_those_six_tricks() -> None:
    with pytest.raises(ImpossibleDeal, match="an ally reveals herself at a claim after six tricks") as refused:
        check_deal(replace(ALLIANCE, revealed_ally="Dan"), START, HouseRules.of())
    assert refused.value.field == "ally"


# --- what `scorer play` says of it ---------------------------------------------------------------------------


@pytest.mark.parametrize("text, revealed, ally, shown", [
    (CLAIM, None, None, None),
    (CLAIM, "Dan", "Dan", AllyShown.CLAIM),
    (CLAIM_DAN_TAKES_ONE, None, "Dan", AllyShown.CLAIM),
    (CLAIM.replace("Dan 5C", "Dan KC"), None, "Dan", AllyShown.CARD),
], ids=["not shown", "named", "the one to take a trick", "the King played"])
def test_the_play_shows_the_ally_by_her_card_or_at_the_claim(text: str, revealed: str | None, ally: str | None,
                                                             shown: AllyShown | None) -> None:
    report = referee(replace(ALLIANCE, revealed_ally=revealed), PLAYERS, play(text), HouseRules.of())
    assert (report.derived.ally, report.derived.ally_shown, report.derived.ally_unknown) == (ally, shown, ally is None)
    assert report.derived.premiers and report.derived.first_six
    # An ally the play does not show is no disagreement: only what it shows is compared.
    assert "ally" not in [d.field for d in report.disagreements]


def test_the_evening_file_names_who_revealed_herself_in_the_play() -> None:
    deal = refereed(replace(ALLIANCE, revealed_ally="Dan"), CLAIM)
    data = format_deal(deal)
    assert data["play"]["revealed_ally"] == "Dan" and len(data["play"]["tricks"]) == 6
    assert parse_deal(json.loads(json.dumps(data))) == deal
    assert "revealed_ally" not in format_deal(replace(deal, revealed_ally=None))["play"]
    ten = {**data, "play": {"tricks": [[c.code for c in t] for t in play(RENOUNCE)], "revealed_ally": "Dan"}}
    with pytest.raises(ValueError, match="this record has all"):
        parse_deal(ten)


def test_the_correction_from_the_play_names_who_revealed_herself() -> None:
    """Check the play → Use this play: the deal as the claim proves it, settled with premiers."""
    entered = replace(ALLIANCE, ally="Cat", hombre_tricks=5, ally_tricks=1, premiers=False)
    report = referee(entered, PLAYERS, play(CLAIM_DAN_TAKES_ONE), HouseRules.of())
    proven = proven_deal(entered, report)
    assert (proven.ally, proven.revealed_ally, proven.hombre_tricks, proven.ally_tricks, proven.premiers) == (
        "Dan", "Dan", 5, 1, True)
    check_deal(proven, START, HouseRules.of())


# --- every six tricks of a random lawful play ----------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from([Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS]),
       st.integers(0, 3), st.integers(0, 7), st.booleans())
def test_six_tricks_are_settled_as_a_claim_or_refused_without_asking_for_what_cannot_exist(
        seed: int, trumps: Suit, who: int, which: int, named: bool) -> None:
    """Any six tricks of a lawful play, in an alliance whose Hombre took one of them and whose called card is
    held, where it can be, by another who took one, entered as the play proves them (the holder named as revealed
    or not): settled with premiers (chips conserved), or refused; only where no side of Hombre and one ally took
    the six does a refusal ask for the ten tricks. The format keeps the record as it was."""
    tricks, dealt = random_play(seed, trumps)
    six = parse_tricks([[c.code for c in t] for t in tricks[:6]])
    solo = referee(Deal("Ann", "Bea", Contract.SOLO, trumps), PLAYERS, six, HouseRules.of())
    winners = list(dict.fromkeys(t.winner for t in solo.tricks))
    hombre = winners[who % len(winners)]
    partner = next((w for w in winners if w != hombre), PLAYERS[who])
    cards = [Card(rank, suit) for rank in "KQ" for suit in Suit if suit is not trumps]
    held = [c for c in cards if c in dealt[partner]] or cards
    called = held[which % len(held)]
    holder = next(p for p, hand in dealt.items() if called in hand)
    deal = Deal("Ann", hombre, Contract.ALLIANCE, trumps, called=called, ally=holder,
                hombre_tricks=solo.tricks_won[hombre], ally_tricks=solo.tricks_won[holder] if holder != hombre else None,
                revealed_ally=holder if named else None)
    report = referee(deal, PLAYERS, six, HouseRules.of())
    proven = proven_deal(deal, report)
    assert parse_deal(json.loads(json.dumps(format_deal(proven)))) == proven
    try:
        check_deal(proven, START, HouseRules.of())
    except ImpossibleDeal as refused:
        assert ("all ten tricks" in refused.message) == (not report.derived.first_six), refused.message
        return
    assert proven.premiers and proven.side_tricks == 6
    assert settle(proven, START, HouseRules.of()).after.total == 0


def test_the_formats_document_s_worked_example_of_a_claim_at_six() -> None:
    """docs/FORMATS.md's deal (under *Play records*), settled and refereed as it says."""
    from helpers.docs import read, section

    from scorer.core import report_json

    plays = section(read("docs/FORMATS.md"), "### Play records (`scorer play`)")
    block = next(b for b in plays.split("```json")[1:] if '"revealed_ally"' in b.split("```")[0]).split("```")[0]
    deal = parse_deal(json.loads(block))
    report = referee(deal, PLAYERS, deal.play or (), HouseRules.of())
    derived = report_json(1, report)["derived"]
    assert (derived["ally"], derived["ally_shown"], derived["premiers"]) == ("Dan", "claim", True)  # type: ignore[index]
    settled = settle(deal, START, HouseRules.of())
    assert {p: settled.after.balance(p) for p in PLAYERS} == {"Bea": 4, "Dan": 4, "Cat": -4, "Ann": -4}
    with pytest.raises(ImpossibleDeal, match="Hombre took the first six tricks and the King of clubs was not played: "
                                             "say who held it, as she revealed herself at the claim"):
        check_deal(replace(deal, revealed_ally=None), START, HouseRules.of())


# --- the deal form ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("bea, dan", [(6, 0), (4, 2)])
def test_the_deal_form_takes_a_claim_at_six_as_premiers_and_no_vole(app: Flask, bea: int, dan: int) -> None:
    """Entered without its play: the side's six tricks, premiers, no vole (leading to the seventh would be one, P)."""
    from werkzeug.datastructures import MultiDict

    from scorer.web.forms import DealForm

    taps = {"hombre": "Bea", "trumps": "hearts", "called": "KC", "ally": "Dan", "hombre_tricks": str(bea),
            "ally_tricks": str(dan), "matadors": "4", "premiers": "y", "vole": "none"}
    with app.test_request_context():
        sent = DealForm(formdata=MultiDict(taps), meta={"csrf": False}, players=PLAYERS, contract=Contract.ALLIANCE,
                        dealer="Ann", state=START, rules=HouseRules.of())
        assert sent.validate(), sent.errors
    assert sent.checked is not None
    settled = settle(sent.checked, START, HouseRules.of())
    assert [settled.after.balance(p) for p in ("Bea", "Cat", "Dan", "Ann")] == [4, -4, 4, -4]


def test_a_member_renamed_since_is_renamed_where_she_revealed_herself() -> None:
    """A circle reads an evening under today's names (scorer.store.seasons): who revealed herself too."""
    from scorer.core import Evening, replay
    from scorer.store.seasons import renamed_evening

    deal = refereed(replace(ALLIANCE, revealed_ally="Dan"), CLAIM)
    renamed = renamed_evening(Evening(PLAYERS, HouseRules.of(), (deal,), 4), {"Dan": "Daniel"})
    assert (renamed.deals[0].ally, renamed.deals[0].revealed_ally) == ("Daniel", "Daniel")
    assert replay(renamed).final.balance("Daniel") == 4
