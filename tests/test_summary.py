"""The deal preview read at a glance (scorer.core.words.summary): the headline, the nets, who pays whom.

Every worked example of every profile (the rows of tests/helpers/examples/ that test_worked_examples,
test_mediateur, test_penguin_points and test_britannica check, and the evenings of test_scenarios) is summarised, and the
summary must tell the same chips as the transfers: each player's net is her change in the deal,
the groups are the transfers and nothing else (each account gains and loses through the groups
exactly what it did through the transfers, pots included). A few examples are checked sentence
by sentence, and the preview page shows them in the order a player reads them.
"""

from __future__ import annotations

import html
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers.deals import net_line, summary_of
from helpers.examples import britannica, mediateur, penguin_points, scenarios, worked
from helpers.scenario import parse_deal, parse_scenario
from helpers.web import post_deal, record, start_table

from scorer.core import (
    PROFILES, Contract, Evening, HouseRules, Pot, Settlement, TableState, replay, settle, summarise,
)
from scorer.core.words.summary import signed

PLAYERS = ("Ann", "Bea", "Cat", "Dan")


def _examples() -> list[tuple[str, str, dict[str, str], int, str]]:
    """Every single-deal worked example of the test suite: (id, profile, rule changes, pool before, deal line)."""
    rows: list[tuple[str, str, dict[str, str], int, str]] = []
    rows += [(f"quadrille: {r[0]}", "quadrille", r[1], r[2], r[3]) for r in worked.EXAMPLES]
    rows += [(f"penguin_chips: {r[0]}", "penguin_chips", {}, 0, r[1]) for r in worked.PENGUIN_CHIPS]
    rows += [(f"mediateur: {r[0]} {r[1]}", "mediateur", {}, 0, r[2]) for r in mediateur.QUANTI]
    rows += [(f"mediateur: {r[0]}", "mediateur", r[1], 0, r[2]) for r in mediateur.MEDIATEUR_RULES]
    rows += [(f"penguin_points: {r[0]}", "penguin_points", {}, 0, r[1]) for r in penguin_points.POINT_TABLE]
    rows += [(f"britannica: {r[0]}", "britannica", {}, 0, r[1]) for r in britannica.EB_FIGURES]
    rows += [(f"britannica: {r[0]}", "britannica", r[1], 0, r[2]) for r in britannica.COUNTER_EXAMPLES]
    return rows


EXAMPLES = _examples()

EVENINGS = {**scenarios.SCENARIOS, "point score, per table": penguin_points.MULTIPLIER_PER_TABLE,
            "point score, per player": penguin_points.MULTIPLIER_PER_PLAYER}


def _evening_settlements() -> list[tuple[str, Settlement, HouseRules]]:
    """Every deal of the worked evenings (pools carried, odd chips reserved, paulans, the multiplier)."""
    rows = []
    for name, text in EVENINGS.items():
        scenario = parse_scenario(text)
        evening = Evening(scenario.players, scenario.rules, tuple(d for d, _ in scenario.steps), scenario.deals_agreed)
        for s in replay(evening).settlements:
            rows.append((f"{name}, deal {s.number}", s, scenario.rules))
    return rows


def assert_summary_tells_the_transfers(settlement: Settlement, rules: HouseRules) -> None:
    """The nets are the changes, and the groups move exactly the transfers' chips, account by account."""
    summary = summarise(settlement, rules)
    players = settlement.before.players
    assert [(n.player, n.change) for n in summary.nets] == [(p, settlement.change(p)) for p in players]
    assert net_line(summary).startswith(" · ".join(f"{p} {signed(settlement.change(p))}" for p in players))
    assert "-" not in net_line(summary)  # the real minus sign only
    before, after = settlement.before, settlement.after
    pots = {Pot.POOL: after.pool - before.pool, Pot.VOLE_POOL: after.vole_pool - before.vole_pool,
            Pot.SPADILLE_RESERVE: after.spadille_reserve - before.spadille_reserve}
    for account, change in [*((p, settlement.change(p)) for p in players), *pots.items()]:
        assert sum(g.change(account) for g in summary.groups) == change, account
    by_transfers: dict[object, int] = {}
    for t in settlement.transfers:
        by_transfers[t.payer] = by_transfers.get(t.payer, 0) - t.chips
        by_transfers[t.payee] = by_transfers.get(t.payee, 0) + t.chips
    for account, change in by_transfers.items():  # the score sheet too
        assert sum(g.change(account) for g in summary.groups) == change, account  # type: ignore[arg-type]
    assert sum(g.total for g in summary.groups) == sum(t.chips for t in settlement.transfers)
    for g in summary.groups:
        assert sum(g.change(a) for a in {*g.payers, *g.payees}) == 0  # each group conserves
        assert g.total == g.each * len(g.payers) * len(g.payees) and g.each == sum(p.chips for p in g.parts) > 0
        assert len(g.payers) == 1 or len(g.payees) == 1
        assert re.search(rf"\b{g.each}\b", str(g.sentence)), g.sentence
    system = rules.profile.system
    if not system.has_pool:
        assert summary.unit_sentence is None
        assert not any("pool" in str(label) for label, _ in summary.carried)
    else:
        assert (str(summary.carried[0][0]), summary.carried[0][1]) == ("pool", str(after.pool))
    assert "None" not in str(summary.headline) and " in :" not in str(summary.headline)


@pytest.mark.parametrize("profile, changes, pool_before, deal_line",
                         [pytest.param(*row[1:], id=row[0]) for row in EXAMPLES])
def test_the_nets_and_the_groups_tell_the_transfers(profile: str, changes: dict[str, str], pool_before: int,
                                                    deal_line: str) -> None:
    rules = HouseRules.of(profile, changes)
    state = TableState(players=PLAYERS, balances=(0, 0, 0, 0), pool=pool_before)
    assert_summary_tells_the_transfers(settle(parse_deal(deal_line), state, rules), rules)


@pytest.mark.parametrize("settlement, rules", [pytest.param(s, r, id=n) for n, s, r in _evening_settlements()])
def test_every_deal_of_the_worked_evenings_is_told_the_same(settlement: Settlement, rules: HouseRules) -> None:
    assert_summary_tells_the_transfers(settlement, rules)


def test_the_examples_cover_every_contract_of_every_profile() -> None:
    covered = {(profile, parse_deal(line).contract) for _, profile, _, _, line in EXAMPLES}
    assert covered == {(name, c) for name, p in PROFILES.items() if name in {e[1] for e in EXAMPLES}
                       for c in p.contracts}
    assert {e[1] for e in EXAMPLES} >= {"quadrille", "penguin_chips", "mediateur", "penguin_points", "britannica"}


# (deal line, profile, rule changes, pool before, what the preview says, line by line)
TOLD = [
    ("Ann deals: Bea solo in hearts, 10 tricks, 3 matadors, premiers, vole undertaken", "quadrille", {}, 24, [
        "Bea's solo in hearts: won, with premiers and the vole",
        "Ann −60 · Bea +204 · Cat −60 · Dan −60 · pool 0, vole pool 0",
        "The pool held 28 chips, so a unit is 7.",
        "Ann, Bea, Cat and Dan each put 1 into the pool: ante",
        "Ann, Bea, Cat and Dan each put 3 into the vole pool: stake for the vole",
        "Bea takes the pool, 28",
        "Ann, Cat and Dan each pay Bea 56: solo 28, matadors 7, premiers 7, vole 14",
        "Bea takes the vole pool, 12",
    ]),
    ("Ann deals: Bea solo in hearts, 5 tricks, 3 matadors", "quadrille", {}, 0, [
        "Bea's solo in hearts: remise",
        "Ann +4 · Bea −20 · Cat +4 · Dan +4 · pool 8",
        "The pool held 4 chips, so a unit is 1.",
        "Ann, Bea, Cat and Dan each put 1 into the pool: ante",
        "Bea puts 4 into the pool: remise, the pool doubled",
        "Bea pays Ann, Cat and Dan 5 each: solo 4, matadors 1",
        "remise: the pool is doubled and carried forward",
    ]),
    ("Ann deals: Bea solo in hearts, 6 tricks", "quadrille", {}, 7, [
        "Bea's solo in hearts: won",
        "Ann −9 · Bea +34 · Cat −9 · Dan −9 · pool 0",
        "The pool held 11 chips, so a unit is 2 (a quarter, rounded).",
        "Ann, Bea, Cat and Dan each put 1 into the pool: ante",
        "Bea takes the pool, 11",
        "Ann, Cat and Dan each pay Bea 8: solo",
    ]),
    ("Ann deals: Bea alliance in spades calling KH held by Dan, 4 + 3 tricks, 3 matadors", "quadrille", {}, 3, [
        "Bea's alliance in spades with Dan: won",
        "Ann −2 · Bea +3 · Cat −2 · Dan +3 · pool 1",
        "The pool held 7 chips, so a unit is 1 (a quarter, rounded).",
        "Ann, Bea, Cat and Dan each put 1 into the pool: ante",
        "Bea and Dan each take 3 from the pool: the game won",
        "Cat pays Bea 1: matadors",
        "Ann pays Dan 1: matadors",
    ]),
    ("Ann deals: Bea alliance in clubs calling KD held by Bea, 6 tricks", "quadrille", {"unit": "one_chip"}, 0, [
        "Bea's alliance in clubs, her own King called: won",
        "Ann −5 · Bea +15 · Cat −5 · Dan −5 · pool 0",
        "A unit is 1 chip.",
        "Ann, Bea, Cat and Dan each put 1 into the pool: ante",
        "Bea takes the pool, 4",
        "Ann, Cat and Dan each pay Bea 4: solo",
    ]),
    ("Ann deals: Bea grandissimo, 10 tricks, premiers, vole announced", "mediateur", {}, 0, [
        "Bea's grandissimo, the vole announced: won, with the vole",
        "Ann −46 · Bea +138 · Cat −46 · Dan −46 · pool 0, vole pool 0",
        "The pool held 4 chips, so a unit is 1.",
        "Ann, Bea, Cat and Dan each put 1 into the pool: ante",
        "Ann, Bea, Cat and Dan each put 36 into the vole pool: stake for the vole",
        "Bea takes the pool, 4",
        "Ann, Cat and Dan each pay Bea 9: grandissimo 8, premiers 1",
        "Bea takes the vole pool, 144",
    ]),
    ("Ann deals: Bea mediateur in spades calling KH from Dan, 5 tricks, 3 matadors", "mediateur", {}, 0, [
        "Bea's médiateur in spades, the King of hearts from Dan: remise",
        "Ann +1 · Bea −10 · Cat +1 · Dan 0 · pool 8",
        "The pool held 4 chips, so a unit is 1.",
        "Ann, Bea, Cat and Dan each put 1 into the pool: ante",
        "Bea puts 4 into the pool: remise, the pool doubled",
        "Bea pays Ann and Cat 2 each: médiateur 1, matadors 1",
        "Bea pays Dan 1: matadors",
        "remise: the pool is doubled and carried forward",
    ]),
    ("Ann deals: Bea nemo, 0 tricks", "mediateur", {}, 0, [
        "Bea's nemo: won",
        "Ann −17 · Bea +51 · Cat −17 · Dan −17 · pool 0",
        "The pool held 4 chips, so a unit is 1.",
        "Ann, Bea, Cat and Dan each put 1 into the pool: ante",
        "Bea takes the pool, 4",
        "Ann, Cat and Dan each pay Bea 16: nemo",
    ]),
    ("Ann deals: Bea solo in spades, 6 tricks", "britannica", {}, 0, [
        "Bea's solo in spades: won",
        "Ann −27 · Bea +81 · Cat −27 · Dan −27 · pool 0",
        "The pool held 40 counters.",
        "Ann, Bea, Cat and Dan each put 10 into the pool: ante",
        "Bea takes the pool, 40",
        "Ann, Cat and Dan each pay Bea 17: game 1, consolation 2, sans appeler 4, fish extraordinary 10",
    ]),
    ("Ann deals: Bea alliance in spades calling KH held by Dan, 4 + 3 tricks", "penguin_points", {}, 0, [
        "Bea's alliance in spades with Dan: won",
        "Ann 0 · Bea +5 · Cat 0 · Dan +5 · next game counts ×1",
        "Bea and Dan each score 5: alliance won",
    ]),
    ("Ann deals: Bea solo in hearts, 5 tricks", "penguin_points", {}, 0, [
        "Bea's solo in hearts: remise",
        "Ann 0 · Bea −20 · Cat 0 · Dan 0 · next game counts ×2",
        "Bea loses 20: solo remise",
        "the next game counts ×2 for the table",
    ]),
]


@pytest.mark.parametrize("line, profile, changes, pool, told", [pytest.param(*row, id=row[0]) for row in TOLD])
def test_a_deal_told_at_a_glance(line: str, profile: str, changes: dict[str, str], pool: int, told: list[str]) -> None:
    assert summary_of(line, profile, changes, pool) == told


def test_a_deal_played_double_says_so_with_its_unit() -> None:
    """Paulans (EB): the last deal doubled, antes and unit alike."""
    rules = HouseRules.of("quadrille", {"paulans": "last_deal"})
    state = TableState(players=PLAYERS, balances=(0,) * 4, pool=20)
    summary = summarise(settle(parse_deal("Dan deals: Ann solo in hearts, 6 tricks"), state, rules, 1), rules)
    assert str(summary.unit_sentence) == "The pool held 28 chips; this deal is played double (paulans), so a unit is 12."
    assert [r.name for r in summary.unit_rules] == ["unit", "unit_rounding"]
    assert "Ann, Bea, Cat and Dan each put 2 into the pool: ante" in [str(g.sentence) for g in summary.groups]


@pytest.mark.parametrize("line, profile, headline", [
    ("Ann deals: Cat forced spadille in hearts calling KS held by Dan, 3 + 4 tricks", "quadrille",
     "Cat's forced spadille in hearts with Dan: won"),
    ("Ann deals: Bea vole in hearts, 8 tricks, premiers", "quadrille", "Bea's vole in hearts: the vole lost, 8 tricks"),
    ("Ann deals: Bea solo in hearts, 8 tricks, 3 matadors, premiers, vole undertaken", "quadrille",
     "Bea's solo in hearts: won, with premiers; the vole lost"),
    ("Ann deals: Bea solo in hearts, 4 tricks", "quadrille", "Bea's solo in hearts: codille"),
    ("Ann deals: Bea casco in hearts calling KS held by Dan, 4 + 3 tricks", "mediateur",
     "Bea's casco in hearts, the favourite suit with Dan: won"),
    ("Ann deals: Bea grandissimo, 6 tricks", "mediateur", "Bea's grandissimo: won"),
    ("Ann deals: Bea solo in spades, 10 tricks, premiers, vole revealed", "mediateur",
     "Bea's solo in spades, the vole announced, her hand shown: won, with the vole"),
])
def test_the_headline_of_each_contract(line: str, profile: str, headline: str) -> None:
    assert summary_of(line, profile)[0] == headline


def test_every_contract_has_a_headline_without_a_missing_part() -> None:
    """Grandissimo and nemo name no trumps; every alliance names the ally."""
    for _, profile, changes, pool, line in EXAMPLES:
        deal = parse_deal(line)
        told = summary_of(line, profile, changes, pool)[0]
        assert told.startswith(f"{deal.hombre}'s ")
        if deal.contract in (Contract.GRANDISSIMO, Contract.NEMO):
            assert " in " not in told.split(":")[0]
        if deal.has_real_ally and not deal.kind.takes_king:
            assert f" with {deal.ally}" in told


# --- the preview page ------------------------------------------------------------------------


def shown(page: str) -> str:
    """A page's text as a reader sees it: no tags, entities read, spaces collapsed."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", page)))


VOLE_UNDERTAKEN = {"hombre": "Bea", "trumps": "hearts", "hombre_tricks": "10", "matadors": "3", "premiers": "y",
                   "vole": "undertaken"}


def test_the_preview_reads_result_nets_record_then_who_pays_whom(app: Flask, client: FlaskClient) -> None:
    token = start_table(client)
    page = post_deal(client, token, "solo", 1, VOLE_UNDERTAKEN).get_data(as_text=True)
    text = shown(page)
    headline = text.index("Deal 1: Bea's solo in hearts: won, with premiers and the vole")
    nets = text.index("Ann −12 · Bea +36 · Cat −12 · Dan −12 · pool 0, vole pool 0")
    button = text.index("Record deal 1")
    groups = text.index("Ann, Cat and Dan each pay Bea 8: solo 4, matadors 1, premiers 1, vole 2")
    fields = text.index("Tricks Hombre took")
    assert headline < nets < button < groups < fields
    assert "The pool held 4 chips, so a unit is 1." in text
    assert "Ann, Bea, Cat and Dan each put 3 into the vole pool: stake for the vole" in text
    # Rules by their titles, linked to their entries on the rules page; no codes.
    assert '<a href="/rules#solo_premium">Premium for a solo</a>' in page
    assert "solo_premium," not in text and "ante_by" not in text
    rules_page = client.get("/rules").get_data(as_text=True)
    assert 'id="solo_premium"' in rules_page and 'id="vole_payment"' in rules_page
    # The Record button outside the form still records it (its form attribute).
    assert re.search(r'<button[^>]*form="deal-form"[^>]*value="record"', page) and 'id="deal-form"' in page
    assert len(page.encode()) < 30_000


def test_the_preview_of_a_point_score_has_no_pool(app: Flask, client: FlaskClient) -> None:
    token = start_table(client, profile="penguin_points")
    page = post_deal(client, token, "solo", 1, {"hombre": "Bea", "trumps": "hearts", "hombre_tricks": "5"}).get_data(as_text=True)
    text = shown(page)
    assert "Deal 1: Bea's solo in hearts: remise" in text
    assert "Ann 0 · Bea −20 · Cat 0 · Dan 0 · next game counts ×2" in text
    assert "Bea loses 20: solo remise" in text
    assert "pool" not in text.split("Record deal 1")[0].split("Deal 1: Bea")[1]
    assert "unit" not in text


def test_recording_from_the_preview_still_records(app: Flask, client: FlaskClient) -> None:
    token = start_table(client)
    recorded = record(client, token, "solo", 1, VOLE_UNDERTAKEN)
    assert recorded.status_code == 302
    assert "Deal 1 recorded" in client.get(recorded.headers["Location"]).get_data(as_text=True)
