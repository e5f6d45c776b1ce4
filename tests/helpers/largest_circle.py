"""The largest circle the limits allow, as a circle file: ``CIRCLE_EVENINGS_MAX`` evenings of 40 deals
(``CIRCLE_DEALS_MAX`` deals in all), eight members seated four at a time, the pool carried from evening to evening.
Each deal is one the app accepts: an alliance, a solo or a remise in turn, each settled as it is made."""

from __future__ import annotations

from typing import Any

from scorer.core import Card, Contract, Deal, Evening, HouseRules, Suit, format_evening, replay, settle
from scorer.core.ledger.evening import close_evening, left_on_the_table
from scorer.core.limits import CIRCLE_DEALS_MAX

MEMBERS = ("Ann", "Bea", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")
RULES = HouseRules.of("quadrille", {"pool_at_end": "carry_forward"})
AGREED = 40
EVENINGS = CIRCLE_DEALS_MAX // AGREED


def seated(number: int) -> tuple[str, ...]:
    """The four members at evening ``number``: the next four of the eight each evening, turning by one."""
    return tuple(MEMBERS[(number + i) % len(MEMBERS)] for i in (0, 2, 4, 6))


def _deal(n: int, dealer: str, eldest: str, players: tuple[str, ...]) -> Deal:
    if n % 3 == 0:
        ally = next(p for p in players if p not in (dealer, eldest))
        return Deal(dealer, eldest, Contract.ALLIANCE, Suit.SPADES, called=Card("K", Suit.HEARTS), ally=ally,
                    hombre_tricks=4, ally_tricks=3)
    return Deal(dealer, eldest, Contract.SOLO, Suit.HEARTS, hombre_tricks=6 if n % 3 == 1 else 5)


def _evening(players: tuple[str, ...], carried: int) -> Evening:
    state = Evening(players, RULES, (), AGREED, carried_in=carried).start()
    deals = []
    for n in range(AGREED):
        dealer = state.next_dealer or players[0]
        deal = _deal(n, dealer, state.eldest(dealer), players)
        state = settle(deal, state, RULES, AGREED).after
        deals.append(deal)
    return Evening(players, RULES, tuple(deals), AGREED, carried_in=carried)


def largest_circle_file() -> dict[str, Any]:
    carried, items, log = 0, [], []
    for number in range(1, EVENINGS + 1):
        players = seated(number)
        evening = _evening(players, carried)
        item = format_evening(evening)
        item.update({"first_dealer": players[0], "chip_value_cents": 5, "currency": "EUR"})
        items.append(item)
        log.append({"seq": number, "kind": "evening", "at": "2026-11-21T21:04:00+00:00", "hash": None,
                    "data": {"evening": number, "players": list(players), "first_dealer": players[0]}})
        _, closed = close_evening(replay(evening).final, RULES)
        carried = sum(chips for _, chips in left_on_the_table(closed))
    return {"format": "quadrille-circle/1", "name": "The largest circle", "members": list(MEMBERS),
            "profile": RULES.profile_name, "house_rules": RULES.changes(), "deals_agreed": AGREED,
            "chip_value_cents": 5, "currency": "EUR", "log": log, "evenings": items}
