"""Statistics a player asks for (issue 14, point 3), over one evening and over a season of two with a
player sitting out. Domain tests: no fixtures."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from scorer.core import Card, Contract, Deal, Evening, HouseRules, Suit, Vole, replay
from scorer.core.words.stats import statistics

FOUR = ("Ann", "Bea", "Cat", "Dan")

EVENING = Evening(FOUR, HouseRules.of(), (
    Deal("Ann", "Bea", Contract.SOLO, Suit.HEARTS, hombre_tricks=6, matadors=3),  # won, with matadors
    Deal("Bea", "Cat", Contract.ALLIANCE, Suit.SPADES, called=Card.parse("KH"), ally="Dan",
         hombre_tricks=3, ally_tricks=2),  # a remise
    Deal("Cat", "Dan", Contract.SOLO, Suit.CLUBS, hombre_tricks=3),  # a codille
    Deal("Dan", "Bea", Contract.SOLO, Suit.DIAMONDS, hombre_tricks=10, premiers=True, vole=Vole.UNDERTAKEN),  # the vole
), 8)


@pytest.mark.parametrize("player, as_hombre, contracts, won, remise, codille, voles, matadors", [
    ("Ann", 0, {}, 0, 0, 0, 0, 0),
    ("Bea", 2, {Contract.SOLO: 2}, 2, 0, 0, 1, 1),
    ("Cat", 1, {Contract.ALLIANCE: 1}, 0, 1, 0, 0, 0),
    ("Dan", 1, {Contract.SOLO: 1}, 0, 0, 1, 0, 0),  # also Cat's ally in the remise
])
def test_one_evening_counted_per_player(player: str, as_hombre: int, contracts: dict[Contract, int], won: int,  # more than 5: a row of the table
                                        remise: int, codille: int, voles: int, matadors: int) -> None:
    replayed = replay(EVENING)
    stats = {s.player: s for s in statistics([replayed]).players}[player]
    assert (stats.as_hombre, dict(stats.contracts), stats.won, stats.remise, stats.codille, stats.voles, stats.matadors) == (
        as_hombre, contracts, won, remise, codille, voles, matadors)
    assert stats.evenings == (replayed.final.balance(player),)
    assert stats.best == stats.worst == stats.average == replayed.final.balance(player)


def test_each_contract_played_and_how_often_it_was_won() -> None:
    stats = statistics([replay(EVENING)])
    assert [(c.contract, c.played, c.won) for c in stats.contracts] == [(Contract.ALLIANCE, 1, 0), (Contract.SOLO, 3, 2)]
    assert stats.deals == 4


def test_a_season_with_a_player_sitting_out() -> None:
    """Eve sits in for Ann the second evening: Ann and Eve have one evening each, the others two."""
    first = replay(EVENING)
    second = replay(Evening(("Eve", "Bea", "Cat", "Dan"), HouseRules.of(), (
        Deal("Eve", "Bea", Contract.SOLO, Suit.HEARTS, hombre_tricks=5),  # a remise
        Deal("Bea", "Cat", Contract.SOLO, Suit.HEARTS, hombre_tricks=7),
    ), 8))
    stats = {s.player: s for s in statistics([first, second]).players}
    assert list(stats) == ["Ann", "Bea", "Cat", "Dan", "Eve"]
    assert len(stats["Ann"].evenings) == 1 and len(stats["Eve"].evenings) == 1 and len(stats["Bea"].evenings) == 2
    bea = stats["Bea"]
    assert (bea.as_hombre, bea.won, bea.remise) == (3, 2, 1)
    assert bea.evenings == (first.final.balance("Bea"), second.final.balance("Bea"))
    assert bea.best == max(bea.evenings) and bea.worst == min(bea.evenings)
    assert bea.average == sum(bea.evenings) / 2
    assert stats["Cat"].won == 1 and stats["Cat"].as_hombre == 2


def test_the_tally_page_says_how_the_evening_went(client: FlaskClient) -> None:

    from helpers.web import record, start_table

    token = start_table(client)
    assert "How the evening went" not in client.get(f"/t/{token}/tally").get_data(as_text=True)  # no deal yet
    assert record(client, token, "solo", 1, {"hombre": "Bea", "trumps": "hearts", "hombre_tricks": "5",
                                             "matadors": "0"}).status_code == 302
    page = client.get(f"/t/{token}/tally").get_data(as_text=True)
    assert "<strong>Bea</strong>: Hombre 1 time (won 0, remise 1, codille 0) · voles 0 · matadors 0" in page
    assert "<strong>Ann</strong>: Hombre 0 times · voles 0 · matadors 0" in page
    assert "Solo: played 1, won 0." in page
