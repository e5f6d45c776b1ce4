"""A realistic evening of Quadrille for the benchmarks: seeded, and every deal one the app accepts.

    from evenings import mixed_evening, mix_of
    deals = mixed_evening(100_000, seed=1)   # Deal values in order of play, the deal passing to the right
    print(mix_of(deals))                     # the shares this evening actually holds

The deals are those of the ``quadrille`` profile (P's basic game: alliance, solo, forced spadille and the
vole bid) and every one passes the app's checks under its default house rules (bench/replay.py settles
each, checked, while it builds its log); they pass under ``penguin_chips`` too, which plays the same
contracts. No source counts the games of real evenings, so the shares below are the project's estimate
of how a table of four plays, each with its reason; what matters for timing is that every path of the
hard score is taken about as often as at a table, not one contract in one suit.

**Contracts** (shares of all deals):

- **alliance 65 %**, of which 1 in 50 a secret solo (Hombre called a King she held herself): the ordinary
  bid of the four-handed game. A hand that hopes for six tricks with a partner calls a King; it needs far
  less than a solo, so most deals that are bid at all are alliances.
- **solo 20 %**: a hand strong enough to take six tricks alone (several matadors, a long trump suit),
  about one deal in five.
- **forced spadille 12 %**: everyone passed and the holder of Spadille must play, calling a King (P); a
  weak hand, so it is lost more often than the others.
- **vole announced 3 %**: the basic game's highest bid, made only on a hand sure of nearly every trick.

**Results**, by contract: alliance won 70 %, remise 18 %, codille 12 %; solo won 68 %, remise 20 %,
codille 12 %; forced spadille won 50 %, remise 30 %, codille 20 % (the bidder chose her contract, except in
forced spadille, so most games are won). A won game is usually six to nine tricks; of the won alliances and
solos, 8 % claim **premiers** at six tricks and 5 % go on after premiers and **undertake the vole** (won at
ten tricks half the time, else lost with seven to nine); forced spadille has neither (house rule
forced_spadille_bonuses). A **remise** is five tricks, a **codille** four or fewer (mostly three or four).
The vole announced takes all ten tricks 60 % of the time, six to nine (the vole lost) 30 %, fewer than six
(a remise, house rule announced_vole_short) 10 %. Hombre's share of an alliance's tricks is 40 to 80 %, so a
lost alliance is now and then paid by Hombre alone (P's three-trick rule).

**Matadors** (any contract, trumps drawn evenly from the four suits): none 78 %, three 14 %, four (double
matadors) 6 %, five to seven 2 %; four or more in a black suit are paid as three (house rule
double_matadors_suits), so both ways are taken. Together these make about two thirds of the deals won,
a fifth remises and an eighth codilles, with the pool carried and doubled from deal to deal as at a table.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

PLAYERS = ("Ann", "Bea", "Cat", "Dan")

CONTRACTS = (("alliance", 65), ("solo", 20), ("forced_spadille", 12), ("vole", 3))
"""Each contract's share of the deals, in percent."""
SECRET_SOLO = 0.02
"""The share of alliances in which Hombre called her own King."""
RESULTS = {"alliance": (("won", 70), ("remise", 18), ("codille", 12)),
           "solo": (("won", 68), ("remise", 20), ("codille", 12)),
           "forced_spadille": (("won", 50), ("remise", 30), ("codille", 20)),
           "vole": (("ten", 60), ("six_to_nine", 30), ("under_six", 10))}
"""Each contract's results, in percent of its deals."""
PREMIERS, VOLE_UNDERTAKEN, VOLE_WON = 0.08, 0.05, 0.5
"""Of the alliances and solos won: premiers claimed at six tricks, the vole undertaken; of those, the vole won."""
WON_TRICKS = ((6, 35), (7, 35), (8, 20), (9, 10))
CODILLE_TRICKS = ((4, 45), (3, 30), (2, 15), (1, 7), (0, 3))
MATADORS = ((0, 78), (3, 14), (4, 6), (5, 1), (6, 0.6), (7, 0.4))


def _pick(rng: random.Random, weighted: Sequence[tuple[Any, float]]) -> Any:
    return rng.choices([value for value, _ in weighted], [weight for _, weight in weighted])[0]


def _tricks(rng: random.Random, contract: str, result: str) -> tuple[int, bool, bool]:
    """The contracting side's tricks, premiers, and the vole undertaken."""
    if result == "remise":
        return 5, False, False
    if result == "codille":
        return _pick(rng, CODILLE_TRICKS), False, False
    if contract != "forced_spadille":
        roll = rng.random()
        if roll < VOLE_UNDERTAKEN:
            return (10 if rng.random() < VOLE_WON else rng.randint(7, 9)), True, True
        if roll < VOLE_UNDERTAKEN + PREMIERS:
            return 6, True, False
    return _pick(rng, WON_TRICKS), False, False


def mixed_deal(rng: random.Random, dealer: str, players: Sequence[str] = PLAYERS) -> Any:
    """One deal of the mix, dealt by ``dealer`` (the ``scorer`` package on the path makes it)."""
    from scorer.core import Card, Contract, Deal, Suit, Vole

    contract = _pick(rng, CONTRACTS)
    hombre = rng.choice(players)
    trumps = rng.choice(list(Suit))
    matadors = _pick(rng, MATADORS)
    result = _pick(rng, RESULTS[contract])
    if contract == "vole":
        tricks = {"ten": 10, "six_to_nine": rng.randint(6, 9), "under_six": rng.randint(3, 5)}[result]
        return Deal(dealer, hombre, Contract.VOLE, trumps, hombre_tricks=tricks, matadors=matadors,
                    premiers=tricks == 10 or (tricks >= 6 and rng.random() < 0.5))
    tricks, premiers, vole = _tricks(rng, contract, result)
    undertaken = Vole.UNDERTAKEN if vole else Vole.NONE
    if contract == "solo":
        return Deal(dealer, hombre, Contract.SOLO, trumps, hombre_tricks=tricks, matadors=matadors, premiers=premiers,
                    vole=undertaken)
    called = Card("K", rng.choice([suit for suit in Suit if suit is not trumps]))
    kind = Contract.ALLIANCE if contract == "alliance" else Contract.FORCED_SPADILLE
    spadille = hombre if kind is Contract.FORCED_SPADILLE else None
    if kind is Contract.ALLIANCE and rng.random() < SECRET_SOLO:
        return Deal(dealer, hombre, kind, trumps, called, hombre, tricks, None, matadors, premiers, undertaken)
    ally = rng.choice([p for p in players if p != hombre])
    own = min(tricks, round(tricks * rng.uniform(0.4, 0.8)))
    return Deal(dealer, hombre, kind, trumps, called, ally, own, tricks - own, matadors, premiers, undertaken,
                spadille=spadille)


def mixed_evening(deals: int, seed: int = 1, players: Sequence[str] = PLAYERS) -> tuple[Any, ...]:
    """``deals`` deals of the mix in order of play, the first dealt by the first player (seeded: the same
    evening for the same seed, whichever commit's ``scorer`` makes the values)."""
    rng = random.Random(seed)
    return tuple(mixed_deal(rng, players[n % len(players)], players) for n in range(deals))


def mix_of(deals: Sequence[Any]) -> str:
    """The shares an evening holds, in a line: contracts, results (by the tricks), premiers, voles, matadors."""
    n = len(deals)
    contracts = Counter("secret solo" if d.ally is not None and d.ally == d.hombre
                        else "vole announced" if d.contract.value == "vole" else d.contract.value for d in deals)

    def side(d: Any) -> int:
        return d.hombre_tricks + (d.ally_tricks or 0)

    def share(count: int) -> str:
        return f"{100 * count / n:.1f} %"

    won = sum(1 for d in deals if side(d) >= 6)
    remises = sum(1 for d in deals if side(d) == 5 or (d.contract.value == "vole" and side(d) < 6))
    voles = sum(1 for d in deals if d.vole.value == "undertaken" or d.contract.value == "vole")
    parts = [", ".join(f"{name.replace('_', ' ')} {share(count)}" for name, count in contracts.most_common()),
             f"six tricks or more {share(won)}, remises {share(remises)}, codilles {share(n - won - remises)}",
             f"premiers {share(sum(1 for d in deals if d.premiers))}, voles undertaken or announced {share(voles)} "
             f"(all ten tricks {share(sum(1 for d in deals if side(d) == 10))})",
             f"three matadors or more {share(sum(1 for d in deals if d.matadors >= 3))}"]
    return "; ".join(parts)
