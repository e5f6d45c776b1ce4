"""The hard score's plans (issue 23, point 3): what a set of house rules decides, worked out once and kept.

``settle_chips`` settles every deal by one path, reading from a plan kept for its house rules each table's sides,
each dealer's antes and what each kind of deal is worth. A kept answer must be the answer made afresh: over random
evenings of every chips profile under random house rules, at tables that share names in other orders, each deal
settles exactly as it does once every cache is emptied (every transfer, with the types of its accounts, every
state, note, unit and stake; compared by ``repr`` too, since a pot and a player's name equal to it print apart).
"""

from __future__ import annotations

import pickle
import random

import pytest

from scorer.core import HOUSE_RULES, PROFILES, Card, Contract, Deal, HouseRules, Suit, TableState, book, caches
from scorer.core import rules as R
from scorer.core.book import KEPT_TRANSFERS_MAX
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


@pytest.mark.parametrize("seed", range(40))
def test_what_a_plan_keeps_is_what_it_would_make_afresh(seed: int) -> None:
    """Each deal settled with the plans filled by the deals before it, at its table and the others (and by equal rules
    made afresh, as a request makes them), settles as it does with every cache emptied before it."""
    rules, played = an_evening(seed)
    for n, (deal, state) in enumerate(played):
        kept = settled(deal, state, rules if n % 2 else HouseRules.of(rules.profile_name, rules.changes()))
        caches.clear_all()
        assert_same(kept, settled(deal, state, rules))
        for earlier, before in played[:n]:  # fill the plan again, from the start of the evening
            settled(earlier, before, rules)


def test_a_plan_filled_in_a_translated_request_keeps_english_words() -> None:
    """The plan's words (the premium's, the matadors', the antes') are kept in English: translated where shown."""
    for seed in range(10):
        rules, played = an_evening(seed)
        with translating(lambda message: "«" + message + "»"):
            for deal, state in played:
                settled(deal, state, rules)
        kept = [settled(deal, state, rules) for deal, state in played]
        caches.clear_all()
        for settlement, (deal, state) in zip(kept, played, strict=True):
            assert_same(settlement, settled(deal, state, rules))


def test_equal_rules_share_a_plan_and_no_other_rules_do() -> None:
    """A plan is found by the rules' identity or their equality, never for rules that differ in any value."""
    for profile in CHIPS_PROFILES:
        base = HouseRules.of(profile)
        assert chips._plan_of(HouseRules.of(profile)) is chips._plan_of(base)
        assert chips._plan_of(pickle.loads(pickle.dumps(base))) is chips._plan_of(base)
        for rule in HOUSE_RULES:
            for value in rule.values:
                caches.clear_all()
                made = chips._plan_of(base)
                rules = HouseRules.of(profile, {rule.name: value})
                plan = chips._plan_of(rules)
                assert (plan is made) == (rules == base)
                assert plan.rules == rules


def test_the_plans_stay_bounded_and_right_when_emptied(monkeypatch: pytest.MonkeyPatch) -> None:
    """The plans, each plan's tables and the kept transfers never outgrow their bounds, however many tables and
    rules come (no leak in a long-running server); emptied at their bounds (made tiny here), they still give the
    settlements made afresh."""
    monkeypatch.setattr(chips, "_PLANS", caches.Cache(3))  # the plans kept, bounded at 3 here
    monkeypatch.setattr(chips, "_PLAN_ENTRIES_MAX", 3)
    rng = random.Random(16)
    played = []
    for n in range(300):
        rules = HouseRules.of(rng.choice(CHIPS_PROFILES), dict(rng.sample(VALUES, 3)) if n % 5 else {})
        table = tuple(rng.sample(["Ann", "Bea", "Cat", "Dan", "Eve", "Fay", f"P{n}"], 4))
        state = TableState.start(table)
        for _ in range(4):
            deal = random_deal(rng, state, rules)
            kept = settled(deal, state, rules)
            played.append((deal, state, rules, kept))
            plans = [plan for _id, (_rules, plan) in chips._PLANS.items()]
            assert len(chips._PLANS) <= 3
            assert all(len(answers) <= 3 for plan in plans for answers in (plan.seats, plan.antes_made, plan.worths))
            assert len(book.KEPT_TRANSFERS) <= KEPT_TRANSFERS_MAX
            if isinstance(kept, Settlement):
                state = kept.after
    for deal, state, rules, kept in played:
        caches.clear_all()
        assert_same(kept, settled(deal, state, rules))
