"""Circles and tables in the store, no Flask: a circle of five members, its evenings seated and played as solos
(the store tests' shared steps)."""

from __future__ import annotations

import sqlite_utils

from scorer.core import Contract, Deal, HouseRules, Suit
from scorer.core.ledger.log import Ledger, Record
from scorer.store import Circle, Table, circle_tables, create_circle, run, start_evening

PLAYERS = ("Ann", "Bea", "Cat", "Dan")
MEMBERS = ("Ann", "Bea", "Cat", "Dan", "Eve")
SEATINGS = [("Ann", "Bea", "Cat", "Dan"), ("Bea", "Cat", "Dan", "Eve"), ("Ann", "Cat", "Dan", "Eve")]
RESULTS = ["6 5 6 5", "5 6 6 5", "6 6 6 6"]
"""Hombre's tricks in each deal (6 won, 5 a remise): the first two evenings end on a remise, leaving a pool."""


def deals_of(players: tuple[str, ...], results: str) -> list[Deal]:
    """Four solos, each player dealing in turn from the first; Hombre is the eldest (after the dealer)."""
    return [Deal(players[n % 4], players[(n + 1) % 4], Contract.SOLO, Suit.HEARTS, hombre_tricks=int(tricks))
            for n, tricks in enumerate(results.split())]


def circle_of(db: sqlite_utils.Database, pool_at_end: str = "carry_forward", members: tuple[str, ...] = MEMBERS) -> Circle:
    return create_circle(db, "Thursdays", members, HouseRules.of("quadrille", {"pool_at_end": pool_at_end}), 4, 10, "EUR")


def play(db: sqlite_utils.Database, table: Table, results: str) -> None:
    for n, deal in enumerate(deals_of(table.players, results), start=1):
        run(db, table, Record(n, deal, by=table.players[0]))


def three_evenings(db: sqlite_utils.Database, circle: Circle) -> list[Table]:
    for players, results in zip(SEATINGS, RESULTS):
        play(db, start_evening(db, circle, players, players[0]), results)
    return circle_tables(db, circle)


def solo(book: Ledger, table: Table, hombre: str, tricks: int) -> Deal:
    dealer = book.replay.next_dealer or table.first_dealer
    return Deal(dealer, hombre, Contract.SOLO, Suit.HEARTS, hombre_tricks=tricks)
