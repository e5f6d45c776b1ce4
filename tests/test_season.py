"""A circle's season (issue 14): evenings replayed in order, what one leaves on the table carried into
the next one's first pool, one running total a member, and a season settle-up. Domain tests: no fixtures."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scorer.core import Contract, Deal, Evening, HouseRules, Reason, Suit
from scorer.core.ledger.season import SeasonError, replay_season

MEMBERS = ("Ann", "Bea", "Cat", "Dan", "Eve")


def evening(players: tuple[str, ...], results: str, rules: HouseRules) -> Evening:
    """Four solos, one a deal, each player dealing in turn; ``results`` gives Hombre's tricks as
    "6 5 6 5" (6 won, 5 a remise) and Hombre is the player after the dealer (the eldest)."""
    deals = []
    for n, tricks in enumerate(results.split()):
        dealer, hombre = players[n % 4], players[(n + 1) % 4]
        deals.append(Deal(dealer, hombre, Contract.SOLO, Suit.HEARTS, hombre_tricks=int(tricks)))
    return Evening(players, rules, tuple(deals), 4)


def season_of(rules: HouseRules) -> list[Evening]:
    """Three evenings; the first and second end on a remise, so they leave a pool."""
    return [evening(("Ann", "Bea", "Cat", "Dan"), "6 5 6 5", rules),
            evening(("Bea", "Cat", "Dan", "Eve"), "5 6 6 5", rules),
            evening(("Ann", "Cat", "Dan", "Eve"), "6 6 6 6", rules)]


@pytest.mark.parametrize("pool_at_end", ["carry_forward", "split_equally"])
def test_three_evenings_carry_their_pool_and_the_season_adds_up(pool_at_end: str) -> None:
    rules = HouseRules.of("quadrille", {"pool_at_end": pool_at_end})
    season = replay_season(MEMBERS, season_of(rules))
    first, second, third = season.evenings
    assert first.carried_in == 0 and second.carried_in == first.carried_out and third.carried_in == second.carried_out
    if pool_at_end == "carry_forward":
        assert first.carried_out == first.replay.final.pool > 0 and first.closing == ()
    else:
        assert first.carried_out == first.replay.final.pool % 4  # shared out; the odd chips stay
    carried = [t for t in second.replay.settlements[0].transfers if t.reason is Reason.POOL_CARRIED_IN]
    assert [t.chips for t in carried] == ([first.carried_out] if first.carried_out else [])
    assert all("pool_at_end" in t.rules for t in carried)
    # The circle's ledger is the sum of the evenings, and every chip is accounted for.
    for member in MEMBERS:
        assert season.totals()[member] == sum(e.results.get(member, 0) for e in season.evenings)
    assert sum(season.totals().values()) + season.carried == 0
    assert season.running()[-1] == season.totals()


def test_a_correction_in_the_first_evening_replays_the_later_ones() -> None:
    rules = HouseRules.of("quadrille", {"pool_at_end": "carry_forward"})
    evenings = season_of(rules)
    before = replay_season(MEMBERS, evenings)
    corrected = replace(evenings[0], deals=evenings[0].deals[:3] + (replace(evenings[0].deals[3], hombre_tricks=6),))
    after = replay_season(MEMBERS, [corrected, *evenings[1:]])
    assert after.evenings[0].carried_out != before.evenings[0].carried_out  # the last deal now wins the pool
    assert after.evenings[1].carried_in == after.evenings[0].carried_out
    assert after.evenings[1].replay.settlements[0].stake != before.evenings[1].replay.settlements[0].stake
    assert sum(after.totals().values()) + after.carried == 0


def fewest_by_trying(cents: dict[str, int]) -> int:
    """The fewest payments that settle ``cents``, by trying every list of payments between the members
    (each of a debtor's whole remaining debt or a creditor's whole remaining due, which some fewest list is)."""
    best = len(cents)
    def search(left: dict[str, int], made: int) -> None:
        nonlocal best
        if made >= best:
            return
        owing = [m for m, c in left.items() if c < 0]
        if not owing:
            best = made
            return
        debtor = owing[0]
        for creditor in [m for m, c in left.items() if c > 0]:
            paid = min(-left[debtor], left[creditor])
            search({**left, debtor: left[debtor] + paid, creditor: left[creditor] - paid}, made + 1)
    search(dict(cents), 0)
    return best


def test_five_players_four_evenings_each_sitting_out_once() -> None:
    rules = HouseRules.of("quadrille", {"pool_at_end": "carry_forward"})
    seatings = [("Bea", "Cat", "Dan", "Eve"), ("Ann", "Cat", "Dan", "Eve"), ("Ann", "Bea", "Dan", "Eve"),
                ("Ann", "Bea", "Cat", "Eve")]
    season = replay_season(MEMBERS, [evening(p, r, rules) for p, r in zip(seatings, ["6 5 6 6", "5 6 5 6", "6 6 6 5", "6 6 6 6"])])
    for member, evening_out in zip(MEMBERS, range(1, 5)):
        assert member not in season.evenings[evening_out - 1].results  # sat out, kept her standing
        assert season.running()[evening_out - 1][member] == (season.running()[evening_out - 2][member] if evening_out > 1 else 0)
    cents, payments = season.settle_up(25)
    assert sum(cents.values()) == 0
    assert len(payments) == fewest_by_trying(cents)
    settled = dict.fromkeys(MEMBERS, 0)
    for p in payments:
        settled[p.payer] -= p.cents
        settled[p.payee] += p.cents
    assert settled == cents


def test_a_settle_up_since_the_last_settling_sums_to_zero() -> None:
    rules = HouseRules.of("quadrille", {"pool_at_end": "carry_forward"})
    season = replay_season(MEMBERS, season_of(rules))
    for first, last in [(1, 1), (2, 3), (1, 3), (3, 3)]:
        cents, payments = season.settle_up(10, first, last)
        assert sum(cents.values()) == 0, (first, last)


def test_a_stranger_at_an_evening_is_refused() -> None:
    with pytest.raises(SeasonError, match="Zed is not a member"):
        replay_season(MEMBERS, [evening(("Ann", "Bea", "Cat", "Zed"), "6 6 6 6", HouseRules.of())])
    with pytest.raises(SeasonError, match="four or more members"):
        replay_season(("Ann", "Bea", "Cat"), [])


def test_a_season_s_statistics_read_each_evening_after_its_close() -> None:
    from scorer.core import statistics

    rules = HouseRules.of("quadrille", {"pool_at_end": "split_equally"})
    season = replay_season(MEMBERS, season_of(rules))
    stats = {s.player: s for s in statistics([e.replay for e in season.evenings], [e.results for e in season.evenings]).players}
    for member in MEMBERS:
        figures = tuple(e.results[member] for e in season.evenings if member in e.results)
        assert stats[member].evenings == figures and sum(figures) == season.totals()[member]
