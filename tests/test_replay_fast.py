"""The hard score's one-pass settlement of a plain deal (issue 16, point 2) against its general path.

``settle_chips`` settles a plain deal (no vole, no beast from the play, nothing on the table but the pool)
in one pass over locals, and every other deal through ``settle_chips_general`` (Book, DealContext). Over
random evenings of every chips profile under random house rules, every deal settled both ways must give
the same settlement: every transfer (payer, payee, chips, reason, words, rules, source, and the types of
its accounts), every state, every note, the unit and the stake. Compared by ``repr`` as well as ``==``: a
pot and a player's name equal to it (``Pot.POOL == "pool"``) compare equal but print apart.
"""

from __future__ import annotations

import os
import pickle
import random
from dataclasses import replace

import pytest
from helpers.deals import players, valid_deal
from helpers.plays import random_play
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.core import HOUSE_RULES, PROFILES, Contract, Deal, HouseRules, Suit, TableState
from scorer.core import rules as R
from scorer.core.book import _KEPT_TRANSFERS, KEPT_TRANSFERS_MAX
from scorer.core.i18n import translating
from scorer.core.play import parse_tricks
from scorer.core.errors import ImpossibleDeal
from scorer.core.log import Line, LineKind, fold
from scorer.core.evening import Evening
from scorer.core.model import Settlement, Vole
from scorer.core.systems import chips
from scorer.core.systems.chips import settle_chips, settle_chips_general

EXAMPLES = int(os.environ.get("FAST_EXAMPLES", "200"))
"""Random evenings compared (``FAST_EXAMPLES=5000`` for a longer soak)."""
CHIPS_PROFILES = sorted(name for name, profile in PROFILES.items() if profile.system is chips.HARD_SCORE)
PLAY = parse_tricks([[c.code for c in t] for t in random_play(7, Suit.HEARTS)[0]])
"""A play record kept with a deal: read by nobody where house rule renounce_beast is none (the one pass)."""


def assert_same(fast: Settlement, general: Settlement) -> None:
    assert repr(fast) == repr(general)
    assert fast == general
    assert [tuple(map(type, t)) for t in fast.transfers] == [tuple(map(type, t)) for t in general.transfers]
    assert [type(t) for t in fast.transfers] == [type(t) for t in general.transfers]
    assert type(fast.after.balances) is type(general.after.balances)


@st.composite
def chips_rules(draw: st.DrawFn) -> HouseRules:
    """Any profile settled in chips (those registered since the import too), each house rule left at the
    profile's value or set to any of its values: every value of every rule reaches the one pass."""
    profiles = sorted(name for name, profile in PROFILES.items() if profile.system is chips.HARD_SCORE)
    changes = {rule.name: draw(st.sampled_from(rule.values)) for rule in HOUSE_RULES if draw(st.booleans())}
    return HouseRules.of(draw(st.sampled_from(profiles)), changes)


def _equal_rules(rules: HouseRules, how: int) -> HouseRules:
    """The same rules, or an equal copy (made afresh as a request makes them, or read back from a pickle)."""
    if how == 1:
        return HouseRules.of(rules.profile_name, rules.changes())
    if how == 2:
        return pickle.loads(pickle.dumps(rules))  # type: ignore[no-any-return]
    return rules


@st.composite
def mid_evening(draw: st.DrawFn, table: tuple[str, ...]) -> TableState:
    """A table as an evening leaves it, deals into it: a pool carried (odd or not), a vole pool waiting, now and
    then a pool an earlier evening carried in or beasts waiting (they join the pool, and the unit's stake, before
    the antes: the general path settles such a deal, called either way)."""
    pool, vole_pool = draw(st.integers(0, 40)), draw(st.sampled_from([0, 0, 3, 12, 13]))
    carried_in = draw(st.sampled_from([0, 0, 0, 0, 8, 23]))
    waiting = draw(st.sampled_from([(), (), (), (), (4,), (16, 8)]))
    balances = draw(st.lists(st.integers(-60, 60), min_size=3, max_size=3))
    balances.append(-sum(balances) - pool - vole_pool - carried_in - sum(waiting))
    played = draw(st.integers(0, 30))
    return TableState(table, tuple(balances), pool, vole_pool, beasts_waiting=waiting, circle_pool=carried_in,
                      deals_played=played, last_dealer=draw(st.sampled_from(table)) if played else None)


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.data())
def test_every_deal_settles_alike_both_ways(data: st.DataObject) -> None:
    """Random evenings (every chips profile, random house rules, paulans reached), two tables at once (the
    same names in another order, or others) from the start or mid-evening: each deal, plain or not, settles
    alike by settle_chips (given the table's rules, or equal ones made afresh) and by the general path, from
    the same state; a deal may keep its play where no renounce is beasted."""
    first = data.draw(players())
    second = data.draw(st.one_of(st.permutations(first).map(tuple), players()))
    rules = data.draw(chips_rules())
    count = data.draw(st.integers(1, 24))
    agreed = data.draw(st.one_of(st.just(max(4, -(-count // 4) * 4) + 4 * data.draw(st.integers(0, 1))),
                                 st.integers(1, 60)))
    states = [data.draw(st.one_of(st.just(TableState.start(t)), mid_evening(t))) for t in (first, second)]
    for _ in range(count):
        at = data.draw(st.integers(0, 1))
        state = states[at]
        deal = data.draw(valid_deal(state, rules))
        if rules[R.RENOUNCE_BEAST] is R.RenounceBeast.NONE and data.draw(st.booleans()):
            deal = replace(deal, play=PLAY)
        general = settle_chips_general(deal, state, rules, agreed)
        assert_same(settle_chips(deal, state, _equal_rules(rules, data.draw(st.integers(0, 2))), agreed), general)
        states[at] = general.after


@settings(max_examples=max(1, EXAMPLES // 2), deadline=None)
@given(st.data())
def test_the_one_pass_keeps_its_words_in_english(data: st.DataObject) -> None:
    """A plain deal settled in one pass inside a translated request (its caches filled there or not) keeps
    the general path's English words: they are translated where they are shown, never when kept."""
    rules = data.draw(chips_rules())
    state = data.draw(st.one_of(st.just(TableState.start(data.draw(players()))), mid_evening(data.draw(players()))))
    for _ in range(6):
        deal = data.draw(valid_deal(state, rules))
        with translating(lambda message: "«" + message.upper() + "»"):
            plain = chips._settle_plain(chips._plan_of(rules), deal, state, 12)
        general = settle_chips_general(deal, state, rules, 12)
        if plain is not None:
            assert_same(plain, general)
        state = general.after


@settings(max_examples=max(1, EXAMPLES // 3), deadline=None)
@given(st.data(), st.sampled_from(["giver_paid_a_fish", "giver_exempt"]))
def test_the_mediateur_kings_giver_alike_both_ways(data: st.DataObject, king: str) -> None:
    """Médiateur with Quanti's table: the King's giver paid a fish, or exempt from its premium."""
    rules = data.draw(chips_rules().map(lambda r: HouseRules.of("mediateur", {**r.changes(), "mediateur_king": king})))
    state = TableState.start(("Ann", "Bea", "Cat", "Dan"))
    for _ in range(12):
        deal = data.draw(valid_deal(state, rules))
        general = settle_chips_general(deal, state, rules, 12)
        assert_same(settle_chips(deal, state, rules, 12), general)
        state = general.after


@settings(max_examples=max(1, EXAMPLES // 5), deadline=None)
@given(st.integers(0, 10**9), st.sampled_from([0.0, 0.3]), st.sampled_from(["upon_the_game", "none"]),
       st.integers(0, 10))
def test_a_deal_with_its_play_alike_both_ways(seed: int, renege: float, renounce: str, tricks: int) -> None:
    """A deal that keeps its play card by card: beasted for a renounce through the general path, or (house
    rule renounce_beast none) settled in one pass as if no play were kept."""
    rules = HouseRules.of("quadrille", {"renounce_beast": renounce})
    played, _hands = random_play(seed, Suit.HEARTS, renege)
    deal = Deal("Ann", "Bea", Contract.SOLO, Suit.HEARTS, hombre_tricks=tricks,
                play=parse_tricks([[c.code for c in t] for t in played]))
    state = TableState.start(("Ann", "Bea", "Cat", "Dan"))
    assert_same(settle_chips(deal, state, rules, 40), settle_chips_general(deal, state, rules, 40))


def _solo(state: TableState, hombre: str, tricks: int) -> Deal:
    dealer = state.next_dealer or state.players[0]
    return Deal(dealer, hombre, Contract.SOLO, Suit.HEARTS, hombre_tricks=tricks, matadors=3)


def test_a_plain_deal_takes_the_one_pass() -> None:
    """Not vacuous: a plain solo is settled by the one pass, a vole by the general path."""
    rules = HouseRules.of()
    state = TableState.start(("Ann", "Bea", "Cat", "Dan"))
    plan = chips._plan_of(rules)
    assert chips._settle_plain(plan, _solo(state, "Bea", 7), state, 40) is not None
    vole = Deal("Ann", "Bea", Contract.SOLO, Suit.HEARTS, hombre_tricks=10, premiers=True, vole=Vole.UNDERTAKEN)
    assert chips._settle_plain(plan, vole, state, 40) is None


def test_a_stranger_is_refused_alike() -> None:
    """A name not at the table (a row edited in the database): the one pass leaves it to the general path."""
    rules = HouseRules.of()
    state = TableState.start(("Ann", "Bea", "Cat", "Dan"))
    for deal in (_solo(state, "Eve", 7), Deal("Eve", "Bea", Contract.SOLO, Suit.HEARTS, hombre_tricks=7)):
        errors = []
        for settle in (settle_chips, settle_chips_general):
            try:
                settle(deal, state, rules, 40)
            except (ImpossibleDeal, KeyError) as error:
                errors.append((type(error), str(error)))
        assert len(errors) == 2 and errors[0] == errors[1]


def test_a_long_fold_matches_the_general_path() -> None:
    """The benchmark's kind of log (bench/replay.py, shorter): folded unchecked, every settlement as the general path's."""
    table = ("Ann", "Bea", "Cat", "Dan")
    rng = random.Random(1)
    rules = HouseRules.of()
    state = TableState.start(table)
    lines, expected = [], []
    for n in range(1, 801):
        deal = Deal(state.next_dealer or table[0], rng.choice(table), Contract.SOLO, Suit.HEARTS,
                    hombre_tricks=rng.randint(0, 9), matadors=rng.choice([0, 3, 4]))
        settled = settle_chips_general(deal, state, rules, 800)
        expected.append(settled)
        state = settled.after
        lines.append(Line(n, LineKind.RECORD, n, deal))
    ledger = fold(Evening(table, rules, (), 800), lines, check=False)
    assert ledger.damage is None
    for fast, general in zip(ledger.settlements, expected, strict=True):
        assert_same(fast, general)


def test_equal_rules_share_a_plan_and_no_other_rules_do() -> None:
    """A plan is found by the rules' identity or their equality, never for rules that differ in any value:
    each value of each house rule, under each chips profile, has its own plan (and its own settlement)."""
    state = TableState.start(("Ann", "Bea", "Cat", "Dan"))
    for profile in CHIPS_PROFILES:
        base = HouseRules.of(profile)
        assert chips._plan_of(HouseRules.of(profile)) is chips._plan_of(base)
        assert chips._plan_of(pickle.loads(pickle.dumps(base))) is chips._plan_of(base)
        for rule in HOUSE_RULES:
            for value in rule.values:
                chips._PLANS.clear()
                chips._PLANS_BY_RULES.clear()
                made = chips._plan_of(base)
                rules = HouseRules.of(profile, {rule.name: value})
                plan = chips._plan_of(rules)
                assert (plan is made) == (rules == base)
                assert plan.rules == rules
                for hombre, tricks in (("Bea", 7), ("Cat", 5), ("Dan", 2)):
                    deal = _solo(state, hombre, tricks)
                    assert_same(settle_chips(deal, state, rules, 1), settle_chips_general(deal, state, rules, 1))


def test_the_caches_stay_bounded_and_right_when_emptied(monkeypatch: pytest.MonkeyPatch) -> None:
    """The plans (by id and by equal rules), each plan's tables and kinds of deal, each table's antes and the
    kept transfers never outgrow their bounds, however many tables and rules come (no leak in a long-running
    server); emptied at their bounds (made tiny here), they still give the general path's settlements."""
    monkeypatch.setattr(chips, "_PLANS_MAX", 3)
    monkeypatch.setattr(chips, "_SEATINGS_MAX", 2)
    monkeypatch.setattr(chips, "_WORTHS_MAX", 3)
    rng = random.Random(16)
    values = [(rule.name, value) for rule in HOUSE_RULES for value in rule.values]
    for n in range(400):
        rules = HouseRules.of(rng.choice(CHIPS_PROFILES), dict(rng.sample(values, 3)) if n % 5 else {})
        table = tuple(rng.sample(["Ann", "Bea", "Cat", "Dan", "Eve", "Fay", f"P{n}"], 4))
        state = TableState.start(table)
        for _ in range(4):
            contract = rng.choice(rules.profile.contracts)
            trumps = None if contract in (Contract.GRANDISSIMO, Contract.NEMO) else rng.choice(list(Suit))
            favourite = rng.choice(list(Suit)) if rules[R.FAVOURITE_SUIT] is R.FavouriteSuit.EACH_DEAL else None
            hombre = rng.choice(table)
            others = [p for p in table if p != hombre]
            deal = Deal(state.next_dealer or table[0], hombre, contract, trumps,
                        ally=rng.choice(others) if contract.value in ("alliance", "forced_spadille", "casco") else None,
                        hombre_tricks=rng.randint(0, 7), ally_tricks=rng.randint(0, 3),
                        matadors=rng.choice([0, 3, 4, 5]) if trumps else 0, premiers=False,
                        giver=rng.choice(others) if contract is Contract.MEDIATEUR else None, favourite=favourite)
            general = settle_chips_general(deal, state, rules, 16)
            assert_same(settle_chips(deal, state, _equal_rules(rules, n % 3), 16), general)
            state = general.after
        assert len(chips._PLANS) <= 3 and len(chips._PLANS_BY_RULES) <= 3
        plans = [plan for _rules, plan in chips._PLANS.values()] + list(chips._PLANS_BY_RULES.values())
        assert len({id(plan) for plan in plans}) <= 3  # no plan alive in one lookup after the other was emptied
        assert all(len(plan.seatings) <= 2 and len(plan.worths) <= 3 for plan in plans)
        assert all(len(seating.antes) <= 2 * len(seating.players) for plan in plans for seating in plan.seatings.values())
        assert len(_KEPT_TRANSFERS) <= KEPT_TRANSFERS_MAX
