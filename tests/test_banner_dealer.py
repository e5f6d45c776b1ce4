"""The banner at the top of a table's pages names the deal it tells, its dealer and its eldest hand (issue 25): the
next deal while one can be recorded; after the last deal the last deal itself, with the player who dealt it (before,
"Deal 4 of 4 · Dealer Anne" named the next in turn, who deals no more that evening)."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient
from helpers.web import record, start_table

from scorer.core import Contract, Deal, Evening, HouseRules, Suit, replay
from scorer.web.views import Banner, banner_of

PLAYERS = ["Anne", "Bea", "Cat", "Denis"]
SOLO = {"hombre": "Bea", "trumps": "hearts", "hombre_tricks": "6", "matadors": "0"}


def banner(client: FlaskClient, token: str) -> tuple[str, str, str]:
    """(deal, dealer, eldest) as the banner of the table's page says them."""
    page = client.get(f"/t/{token}").get_data(as_text=True)
    found = re.search(r'<dl class="state">\s*<div><dt>Deal</dt><dd>(\d+) <small>of 4</small></dd></div>\s*'
                      r'<div><dt>Dealer</dt><dd>([^<]+)</dd></div>\s*<div><dt>Eldest</dt><dd>([^<]+)</dd></div>', page)
    assert found, page
    return found.group(1), found.group(2), found.group(3)


# Anne deals first; the deal passes to the right (the next name): Anne, Bea, Cat, Denis deal deals 1 to 4.
@pytest.mark.parametrize("played, shown", [
    (0, ("1", "Anne", "Bea")),
    (1, ("2", "Bea", "Cat")),
    (2, ("3", "Cat", "Denis")),
    (3, ("4", "Denis", "Anne")),
    (4, ("4", "Denis", "Anne")),  # the evening is over: deal 4, dealt by Denis (not "Dealer Anne", next in turn)
])
def test_the_banner_tells_the_next_deal_then_the_last(client: FlaskClient, played: int, shown: tuple[str, str, str]) -> None:
    token = start_table(client, PLAYERS, deals_agreed="4")
    for number in range(1, played + 1):
        assert record(client, token, "solo", number, SOLO).status_code == 302
    assert banner(client, token) == shown
    page = client.get(f"/t/{token}").get_data(as_text=True)
    assert ("The evening is over" in page) == (played == 4)


def test_the_banner_after_the_last_deal_in_french(client: FlaskClient) -> None:
    token = start_table(client, PLAYERS, deals_agreed="4")
    for number in range(1, 5):
        record(client, token, "solo", number, SOLO)
    page = client.get(f"/t/{token}", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    state = re.search(r'<dl class="state">(.*?)</dl>', page, re.S)
    assert state
    words = " ".join(re.sub(r"<[^>]+>", " ", state.group(1)).split())
    assert words.startswith("Coup 4 sur 4 Donneur Denis"), words


def test_the_banner_of_a_closed_evening_tells_its_last_deal() -> None:
    """An evening closed by its circle's next evening (no deal can follow), as an evening over does."""
    evening = Evening(tuple(PLAYERS), HouseRules.of("quadrille"),
                      (Deal("Anne", "Bea", Contract.SOLO, Suit.HEARTS, hombre_tricks=6),
                       Deal("Bea", "Bea", Contract.SOLO, Suit.HEARTS, hombre_tricks=6)), 8)
    last = replay(evening).settlements[-1]
    assert banner_of(2, "Cat", "Denis", last, finished=True) == Banner(2, "Bea", "Cat")
    assert banner_of(2, "Cat", "Denis", last, finished=False) == Banner(3, "Cat", "Denis")
    assert banner_of(0, "Anne", "Bea", None, finished=True) == Banner(1, "Anne", "Bea")
