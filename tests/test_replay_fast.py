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
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from test_play_engine import random_play
from test_properties import house_rules, players, valid_deal

from scorer.core import PROFILES, Contract, Deal, HouseRules, Suit, TableState
from scorer.core.play import parse_tricks
from scorer.core.errors import ImpossibleDeal
from scorer.core.log import Line, LineKind, fold
from scorer.core.evening import Evening
from scorer.core.model import Settlement, Vole
from scorer.core.systems import chips
from scorer.core.systems.chips import settle_chips, settle_chips_general

EXAMPLES = int(os.environ.get("FAST_EXAMPLES", "200"))
"""Random evenings compared (``FAST_EXAMPLES=5000`` for a longer soak)."""
CHIPS_PROFILES = sorted(name for name, profile in PROFILES.items() if profile.settled_by == "chips")


def assert_same(fast: Settlement, general: Settlement) -> None:
    assert repr(fast) == repr(general)
    assert fast == general
    assert [tuple(map(type, t)) for t in fast.transfers] == [tuple(map(type, t)) for t in general.transfers]
    assert [type(t) for t in fast.transfers] == [type(t) for t in general.transfers]
    assert type(fast.after.balances) is type(general.after.balances)


@st.composite
def chips_rules(draw: st.DrawFn) -> HouseRules:
    rules = draw(house_rules())
    if rules.profile.settled_by == "chips":
        return rules
    return HouseRules.of(draw(st.sampled_from(CHIPS_PROFILES)), rules.changes())


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.data())
def test_every_deal_settles_alike_both_ways(data: st.DataObject) -> None:
    """Random evenings (every chips profile, random house rules, paulans reached): each deal, plain or not,
    settles alike by settle_chips and by the general path, from the same state."""
    table = data.draw(players())
    rules = data.draw(chips_rules())
    count = data.draw(st.integers(1, 24))
    agreed = max(4, -(-count // 4) * 4) + 4 * data.draw(st.integers(0, 1))
    state = TableState.start(table)
    for _ in range(count):
        deal = data.draw(valid_deal(state, rules))
        general = settle_chips_general(deal, state, rules, agreed)
        assert_same(settle_chips(deal, state, rules, agreed), general)
        state = general.after


@settings(max_examples=max(1, EXAMPLES // 3), deadline=None)
@given(st.data(), st.sampled_from(["giver_paid_a_fish", "giver_exempt"]))
def test_the_mediateur_kings_giver_alike_both_ways(data: st.DataObject, king: str) -> None:
    """Médiateur with Quanti's table: the King's giver paid a fish, or exempt from its premium."""
    rules = data.draw(house_rules().map(lambda r: HouseRules.of("mediateur", {**r.changes(), "mediateur_king": king})))
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
