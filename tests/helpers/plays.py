"""Plays of the cards written as text, and played at random (issue 13): the card-play tests' shared deals.

Ann deals, so Bea leads the first trick. A play is written a trick a line, "Bea AS, Cat 2H, Dan 3H, Ann 5H"
(the leader first)."""

from __future__ import annotations

import random
from dataclasses import replace

from scorer.core import Card, Contract, Deal, HouseRules, PlayReport, Suit, Vole
from scorer.core.game.play import PACK, legal_plays, parse_tricks, trick_winner
from scorer.core.ledger.table_checks import referee as referee_under

PLAYERS = ("Ann", "Bea", "Cat", "Dan")


# --- a play at random ------------------------------------------------------------------------------------


def random_play(seed: int, trumps: Suit | None, renege: float = 0.0) -> tuple[list[list[Card]], dict[str, list[Card]]]:
    """Deal the 40 cards at random and play ten tricks by lawful cards chosen at random (or, with
    probability ``renege``, any card); Ann deals, so Bea leads first."""
    rng = random.Random(seed)
    pack = list(PACK)
    rng.shuffle(pack)
    hands = {p: pack[i * 10:(i + 1) * 10] for i, p in enumerate(PLAYERS)}
    dealt = {p: list(h) for p, h in hands.items()}
    leader, tricks = "Bea", []
    for _ in range(10):
        start = PLAYERS.index(leader)
        trick: list[Card] = []
        for i in range(4):
            player = PLAYERS[(start + i) % 4]
            choices = sorted(legal_plays(hands[player], trick, trumps)) if rng.random() >= renege else sorted(hands[player])
            card = rng.choice(choices)
            hands[player].remove(card)
            trick.append(card)
        tricks.append(trick)
        leader = PLAYERS[(start + trick_winner(trick, trumps)) % 4]
    return tricks, dealt


# --- plays written as text -------------------------------------------------------------------------------


def referee(deal: Deal, players: tuple[str, ...], tricks: tuple[tuple[Card, ...], ...]) -> PlayReport:
    """The engine's verdict under the default house rules (Quadrille's)."""
    return referee_under(deal, players, tricks, HouseRules.of())


def play(text: str) -> tuple[tuple[Card, ...], ...]:
    """Tricks written a line each, "Bea AS, Cat 2H, Dan 3H, Ann 5H" (the leader first); the players
    named must be the ones the rules of play seat there, which :func:`referee` checks below."""
    tricks = [[part.split()[1] for part in line.split(",")] for line in text.strip().splitlines()]
    return parse_tricks(tricks)


def seats(text: str) -> list[list[str]]:
    return [[part.split()[0] for part in line.split(",")] for line in text.strip().splitlines()]


def refereed(deal: Deal, text: str) -> Deal:
    """``deal`` with the play of ``text``, the players of each line checked against the engine's."""
    record = play(text)
    report = referee(deal, PLAYERS, record)
    assert [[pc.player for pc in t.cards] for t in report.tricks] == seats(text)
    return replace(deal, play=record)


RENOUNCE = """
Bea AS, Cat 2H, Dan 3H, Ann 5H
Bea 7H, Cat KH, Dan 4H, Ann 2C
Bea AC, Cat 3D, Dan 6S, Ann 2S
Bea KS, Cat 7S, Dan 5S, Ann 3S
Bea KC, Cat 7C, Dan 6C, Ann 3C
Bea KD, Cat 4D, Dan 2D, Ann 6D
Bea QD, Cat JC, Dan 5D, Ann 7D
Bea AH, Cat JS, Dan 6H, Ann 4C
Bea QH, Cat QC, Dan AD, Ann 4S
Bea JH, Cat QS, Dan JD, Ann 5C
"""
"""Ann deals; Bea's solo in hearts takes every trick. In trick 3 Basto is led and Dan plays the 6 of
spades while he holds the 6 of hearts, a trump: he plays it in trick 8."""

VOLE = Deal("Ann", "Bea", Contract.SOLO, Suit.HEARTS, hombre_tricks=10, premiers=True, vole=Vole.UNDERTAKEN, matadors=4)

CODILLE = """
Bea KC, Cat JC, Dan QC, Ann 4C
Bea AH, Cat AC, Dan JH, Ann 6H
Cat KH, Dan QH, Ann 3H, Bea 5H
Cat 2D, Dan 6D, Ann AD, Bea JD
Bea 5S, Cat JS, Dan 2S, Ann 7S
Cat 3D, Dan 4S, Ann KD, Bea 7D
Ann 7C, Bea 5C, Cat 7H, Dan 3C
Cat 4D, Dan QD, Ann 5D, Bea KS
Dan QS, Ann 6S, Bea 4H, Cat 3S
Bea 2H, Cat AS, Dan 2C, Ann 6C
"""
"""Ann deals; Bea's solo in hearts takes 3 tricks and Cat 5: a codille. In trick 6 Dan plays the 4 of
spades to the 3 of diamonds led while he holds the Queen of diamonds (he plays it in trick 8)."""

ALLIANCE = Deal("Ann", "Bea", Contract.ALLIANCE, Suit.HEARTS, called=Card("K", Suit.CLUBS), ally="Dan", hombre_tricks=6,
                ally_tricks=0, matadors=4, premiers=True)
"""Bea's alliance in hearts, the King of clubs called (Dan holds it), claimed after six tricks: premiers."""

CLAIM = """
Bea AS, Cat 3H, Dan 4H, Ann 6H
Bea 7H, Cat QS, Dan 5H, Ann 4S
Bea AC, Cat JS, Dan 5S, Ann 3S
Bea AH, Cat 7S, Dan 6C, Ann 2S
Bea KS, Cat 6S, Dan 5C, Ann 4C
Bea KD, Cat 3D, Dan 5D, Ann 6D
"""
"""Ann deals; Bea (AS 7H AC AH KH QH JH 2H KS KD) takes the first six tricks herself and the side claims
premiers there. Dan's King of clubs was never played: the play does not show that he was her ally."""

CLAIM_DAN_TAKES_ONE = CLAIM.replace("Bea KD, Cat 3D, Dan 5D, Ann 6D", "Bea 5D, Cat 3D, Dan KD, Ann 6D")
"""The same, Bea holding the 5 of diamonds and Dan the King: Dan takes trick 6, so at a claim he is the ally."""

CLAIM_CAT_AND_DAN_TAKE_ONE = (
    CLAIM_DAN_TAKES_ONE.replace("Ann 2S", "Ann KS").replace("Bea KS, Cat 6S, Dan 5C, Ann 4C", "Bea 2S, Cat 6S, Dan 5C, Ann 4C")
    .replace("Bea 5D, Cat 3D, Dan KD, Ann 6D", "Cat 3D, Dan KD, Ann 6D, Bea 5D"))
"""Bea holding the 2 of spades and Ann the King: Cat takes trick 5 and Dan trick 6, so nobody could claim."""
