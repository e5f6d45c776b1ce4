"""The close of an evening shows everything that stays on the table (issue 24, point 3): the pool after house rule
pool_at_end, and the beasts waiting under beasts_together: greatest_first, with the vole pool and the odd chips kept
for Spadille. The balances after the close and what stays sum to zero, in the core, in ``scorer settle --close``
(text and JSON), in the settle-up and on the tally page; a circle's next evening takes what stays into its first pool.

EB: "If several beasts are made in the same deal, they all go together, unless it is otherwise agreed at the
beginning of the party; and when there are several beasts, the greatest always goes first." No source speaks of a
next evening: the beasts waiting are carried to it whatever pool_at_end says, as the vole pool is (the app's reading,
as the season carries them). No fixtures but the web client's."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from flask.testing import FlaskClient
from helpers.deals import valid_deal
from helpers.plays import CODILLE, random_play, referee, refereed
from helpers.web import csrf_token
from hypothesis import given, settings
from hypothesis import strategies as st
from pypdf import PdfReader

from scorer.cli import main
from scorer.core import (
    HOUSE_RULES, PROFILES, Contract, Deal, Evening, HouseRules, Pot, Suit, TableState, close_evening, dumps,
    left_on_the_table, parse_tricks, replay, replay_json, replay_season, replay_text, settle, settle_up,
)
from scorer.core import rules as R

PLAYERS = ("Ann", "Bea", "Cat", "Dan")
EB_BEASTS = ("EB: \"If several beasts are made in the same deal, they all go together, unless it is otherwise agreed at "
             "the beginning of the party; and when there are several beasts, the greatest always goes first.\"")

SOLO_CODILLE = refereed(Deal("Ann", "Bea", Contract.SOLO, Suit.HEARTS, hombre_tricks=3), CODILLE)
"""Bea's solo in hearts takes 3 tricks: a codille; the pool of 4 does not divide among three and stays (P), Bea puts up
8 (double the stake, nothing taken: PG) and pays each opponent 4; Dan renounces in trick 6 and is beasted 4 (EB).
Before the close: Ann +3, Bea −21, Cat +3, Dan −1; 16 chips on the table, of which 4 wait under greatest_first."""


def _evening(together: str, at_end: str, deals: tuple[Deal, ...] = (SOLO_CODILLE,)) -> Evening:
    return Evening(PLAYERS, HouseRules.of("quadrille", {"beasts_together": together, "pool_at_end": at_end}), deals, 4)


CLOSES = [
    # together, pool_at_end, balances after the close, what stays on the table
    ("together", "split_equally", (7, -17, 7, 3), ()),  # the pool of 16, 4 each
    ("together", "carry_forward", (3, -21, 3, -1), ((Pot.POOL, 16),)),
    ("greatest_first", "split_equally", (6, -18, 6, 2), ((Pot.BEASTS_WAITING, 4),)),  # the pool of 12, 3 each; 4 wait
    ("greatest_first", "carry_forward", (3, -21, 3, -1), ((Pot.POOL, 12), (Pot.BEASTS_WAITING, 4))),
]


@pytest.mark.parametrize("together, at_end, balances, left", CLOSES)
def test_what_the_close_shares_out_and_what_stays(together: str, at_end: str, balances: tuple[int, ...],
                                                  left: tuple[tuple[Pot, int], ...]) -> None:
    evening = _evening(together, at_end)
    _, closed = close_evening(replay(evening).final, evening.rules)
    assert closed.balances == balances and left_on_the_table(closed) == left, EB_BEASTS
    assert sum(closed.balances) + sum(chips for _, chips in left) == 0


@pytest.mark.parametrize("together, at_end, balances, left", CLOSES)
def test_scorer_settle_close_shows_the_beasts_waiting(tmp_path: Path, together: str, at_end: str, balances: tuple[int, ...],
                                                      left: tuple[tuple[Pot, int], ...]) -> None:
    path = tmp_path / "evening.json"
    path.write_text(dumps(_evening(together, at_end)))
    report = json.loads(CliRunner().invoke(main, ["settle", "--close", str(path)]).output)
    closing = report["closing"]
    assert tuple(closing["balances"].values()) == balances
    assert closing.get("beasts_waiting", []) == [chips for pot, chips in left if pot is Pot.BEASTS_WAITING], EB_BEASTS
    assert sum(balances) + closing["pool"] + closing["vole_pool"] + closing["spadille_reserve"] + sum(
        closing.get("beasts_waiting", [])) == 0
    text = CliRunner().invoke(main, ["settle", "--text", "--close", str(path)]).output
    if together == "greatest_first":
        assert "Beasts waiting 4 (each joins a later pool, the greatest first)" in text
        assert "Left on the table for the next evening: " + ", ".join(
            f"{pot.label} {chips}" for pot, chips in left) + "\n" in text
    else:
        assert "Beasts waiting" not in text and ("Left on the table" in text) == bool(left)


def test_the_text_report_before_this_issue_summed_to_minus_four() -> None:
    """The issue's report: pool 0 after the close, and the final balances summing to minus the beast that waits."""
    text = replay_text(replay(_evening("greatest_first", "split_equally")), close=True)
    final = next(line for line in text.splitlines() if line.startswith("Final")).split()
    assert final == ["Final", "+6", "-18", "+6", "+2", "0"] and sum(int(n) for n in final[1:5]) == -4
    assert "Left on the table for the next evening: the beasts waiting 4" in text, EB_BEASTS


@pytest.mark.parametrize("together, at_end, balances, left", CLOSES)
def test_the_settle_up_credits_what_stays(together: str, at_end: str, balances: tuple[int, ...],
                                          left: tuple[tuple[Pot, int], ...]) -> None:
    money = settle_up(replay(_evening(together, at_end)), 25)
    assert tuple(money.units.values()) == balances and money.left == left
    assert money.pool_left == sum(chips for _, chips in left) and sum(money.cents.values()) == 0
    assert sum(money.units.values()) + money.pool_left == 0


def test_a_circle_s_next_evening_takes_the_beasts_waiting_into_its_first_pool() -> None:
    """As the season carries them: the pool shared out, the beast of 4 waits, and joins evening 2's first pool."""
    first, second = _evening("greatest_first", "split_equally"), _evening("greatest_first", "split_equally", (
        Deal("Ann", "Bea", Contract.SOLO, Suit.SPADES, hombre_tricks=6),))
    season = replay_season(PLAYERS, [first, second])
    assert season.evenings[0].carried_out == 4 and season.evenings[1].carried_in == 4, EB_BEASTS
    assert season.evenings[0].results == {"Ann": 6, "Bea": -18, "Cat": 6, "Dan": 2}
    opening = season.evenings[1].replay.settlements[0]
    assert opening.stake == 4 + 4  # what the first evening left, then the antes


def test_the_tally_page_says_what_stays_on_the_table(client: FlaskClient) -> None:
    evening = json.loads(dumps(_evening("greatest_first", "split_equally")))
    response = client.post("/import", data={"csrf_token": csrf_token(client, "/import"),
                                            "evening": (io.BytesIO(json.dumps(evening).encode()), "evening.json")},
                           content_type="multipart/form-data")
    token = response.headers["Location"].split("/t/")[1].split("/")[0]
    page = re.sub(r"<a [^>]*>|</a>", "", client.get(f"/t/{token}/tally").get_data(as_text=True))
    assert ("The pool of 12 was shared out equally at the end (house rule “The pool at the end of the evening”). 4 "
            "chips stay on the table for the next evening (the beasts waiting 4); their value is credited to the four "
            "players in equal shares. The beasts waiting are not shared out at the end, whatever the house rule “The "
            "pool at the end of the evening” says: like the vole pool, they stay for the next evening.") in page, EB_BEASTS
    assert "left over" not in page
    printed = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(client.get(f"/t/{token}/tally.pdf").data)).pages)
    assert "4 chips stay on the table for the next evening (the beasts waiting 4)" in " ".join(printed.split())


# --- every evening, whatever the rules: the close accounts for every chip ---------------------------------------


POOL_PROFILES = sorted(name for name, profile in PROFILES.items() if profile.system.has_pool)


@st.composite
def played_solo(draw: st.DrawFn, state: TableState, rules: HouseRules) -> Deal:
    """A solo played at random with some unlawful cards, entered as its play proves it: renounces cost beasts (EB)."""
    trumps = draw(st.sampled_from(list(Suit)))
    tricks, _ = random_play(draw(st.integers(0, 10**9)), trumps, renege=0.15)
    record = parse_tricks([[c.code for c in t] for t in tricks])
    dealer, hombre = state.next_dealer or "Ann", draw(st.sampled_from(PLAYERS))
    proven = referee(Deal(dealer, hombre, Contract.SOLO, trumps), PLAYERS, record).derived
    takers = state.spadille_takers if state.spadille_reserve else ()
    favourite = draw(st.sampled_from(list(Suit))) if rules[R.FAVOURITE_SUIT] is R.FavouriteSuit.EACH_DEAL else None
    return Deal(dealer, hombre, Contract.SOLO, trumps, hombre_tricks=proven.hombre_tricks, premiers=proven.premiers,
                vole=proven.vole, matadors=(proven.matadors or 0) if rules.profile.system.asks_matadors else 0,
                spadille=draw(st.sampled_from(takers)) if takers else None, favourite=favourite, play=record)


@st.composite
def evenings_with_beasts(draw: st.DrawFn, together: str, at_end: str) -> Evening:
    """An evening of any pool-based profile and house rules, these two fixed; some deals played card by card."""
    profile = draw(st.sampled_from(POOL_PROFILES))
    changes = {rule.name: draw(st.sampled_from(rule.values)) for rule in HOUSE_RULES if draw(st.booleans())}
    rules = HouseRules.of(profile, {**changes, "beasts_together": together, "pool_at_end": at_end})
    state, deals = TableState.start(PLAYERS), []
    for _ in range(draw(st.integers(1, 8))):
        deal = draw(played_solo(state, rules) if draw(st.booleans()) else valid_deal(state, rules))
        state = settle(deal, state, rules, 8).after
        deals.append(deal)
    return Evening(PLAYERS, rules, tuple(deals), 8)


@pytest.mark.parametrize("at_end", [value.value for value in R.PoolAtEnd])
@pytest.mark.parametrize("together", [value.value for value in R.BeastsTogether])
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_at_the_close_balances_pool_and_beasts_waiting_sum_to_zero(together: str, at_end: str, data: st.DataObject) -> None:
    evening = data.draw(evenings_with_beasts(together, at_end))
    replayed = replay(evening)
    final = replayed.final
    _, closed = close_evening(final, evening.rules)
    left = left_on_the_table(closed)
    assert sum(closed.balances) + sum(chips for _, chips in left) == 0
    assert closed.beasts_waiting == final.beasts_waiting  # never shared out, whatever pool_at_end says
    closing = replay_json(replayed, close=True)["closing"]
    assert sum(closing["balances"].values()) + closing["pool"] + closing["vole_pool"] + closing["spadille_reserve"] + sum(
        closing.get("beasts_waiting", [])) == 0
    money = settle_up(replayed, 7)
    assert money.pool_left == sum(chips for _, chips in left) and sum(money.units.values()) + money.pool_left == 0
    assert replay_season(PLAYERS, [evening]).evenings[0].carried_out == money.pool_left
