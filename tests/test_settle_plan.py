"""The hard score's words: over random evenings of every chips profile under random house rules, at tables that
share names in other orders, a deal settled while a reader's language is set settles exactly as in English (every
transfer, with the types of its accounts, every state, note, unit and stake; compared by ``repr`` too, since a pot
and a player's name equal to it print apart).
"""

from __future__ import annotations

import random

from scorer.core import HOUSE_RULES, PROFILES, Card, Contract, Deal, HouseRules, Suit, TableState
from scorer.core import rules as R
from scorer.core.errors import ImpossibleDeal
from scorer.core.i18n import translating
from scorer.core.model import Settlement, Vole
from scorer.core.systems import chips

CHIPS_PROFILES = sorted(name for name, profile in PROFILES.items() if profile.system is chips.HARD_SCORE)
VALUES = [(rule.name, value) for rule in HOUSE_RULES for value in rule.values]
TABLES = (("Ann", "Bea", "Cat", "Dan"), ("Dan", "Cat", "Bea", "Ann"), ("Bea", "Ann", "Eve", "Dan"))


def random_deal(rng: random.Random, state: TableState, rules: HouseRules) -> Deal:
    """A deal of the rules' profile, most of them possible (the others are refused alike, warm or cold)."""
    table = state.players
    contract = rng.choice(rules.profile.contracts)
    trumps = None if contract in (Contract.GRANDISSIMO, Contract.NEMO) else rng.choice(list(Suit))
    hombre = rng.choice(table)
    others = [p for p in table if p != hombre]
    allied = contract in (Contract.ALLIANCE, Contract.FORCED_SPADILLE, Contract.CASCO)
    ally = (hombre if rng.random() < 0.1 else rng.choice(others)) if allied else None
    tricks = rng.randint(0, 10)
    ally_tricks = rng.randint(0, 10 - tricks) if ally not in (None, hombre) else None
    side = tricks + (ally_tricks or 0)
    premiers = side >= 6 and rng.random() < 0.3
    vole = rng.choice([Vole.NONE, Vole.UNDERTAKEN, Vole.ANNOUNCED]) if premiers else Vole.NONE
    called = Card("K", rng.choice([s for s in Suit if s is not trumps])) if contract is not Contract.SOLO else None
    return Deal(state.next_dealer or table[0], hombre, contract, trumps, called if contract not in (
                    Contract.VOLE, Contract.GRANDISSIMO, Contract.NEMO) else None, ally, tricks, ally_tricks,
                rng.choice([0, 0, 3, 4, 5]) if trumps else 0, premiers, vole, None,
                rng.choice(others) if contract is Contract.MEDIATEUR else None,
                rng.choice(list(Suit)) if trumps and rules[R.FAVOURITE_SUIT] is R.FavouriteSuit.EACH_DEAL else None)


def settled(deal: Deal, state: TableState, rules: HouseRules) -> Settlement | str:
    """The settlement, or the refusal as it reads."""
    try:
        return chips.settle_chips(deal, state, rules, 16)
    except (ImpossibleDeal, KeyError) as error:
        return f"{type(error).__name__}: {error}"


def assert_same(kept: Settlement | str, fresh: Settlement | str) -> None:
    assert repr(kept) == repr(fresh)
    assert kept == fresh
    if isinstance(kept, Settlement) and isinstance(fresh, Settlement):
        assert [tuple(map(type, t)) for t in kept.transfers] == [tuple(map(type, t)) for t in fresh.transfers]


def an_evening(seed: int) -> tuple[HouseRules, list[tuple[Deal, TableState]]]:
    """Random house rules of a chips profile and 40 deals at three tables, each with the state it is settled from."""
    rng = random.Random(seed)
    rules = HouseRules.of(rng.choice(CHIPS_PROFILES), dict(rng.sample(VALUES, rng.randint(0, 6))))
    states = {table: TableState.start(table) for table in TABLES}
    played = []
    for _ in range(40):
        table = rng.choice(TABLES)
        deal = random_deal(rng, states[table], rules)
        played.append((deal, states[table]))
        settlement = settled(deal, states[table], rules)
        if isinstance(settlement, Settlement):
            states[table] = settlement.after
    return rules, played


def test_a_deal_settled_in_a_translated_request_keeps_english_words() -> None:
    """A settlement's words (the premium's, the matadors', the antes') are kept in English: translated where shown."""
    for seed in range(10):
        rules, played = an_evening(seed)
        with translating(lambda message: "«" + message + "»"):
            translated = [settled(deal, state, rules) for deal, state in played]
        for settlement, (deal, state) in zip(translated, played, strict=True):
            assert_same(settlement, settled(deal, state, rules))
