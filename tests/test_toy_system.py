"""A new settlement system is one module and one profile: a toy system, defined here and nowhere in
scorer/, declares the house rules it reads and plugs in through a profile that holds it, and the app
settles, shows, exports and imports its evenings, and shows only the rules it reads."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterator
from dataclasses import replace
from typing import ClassVar

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers.web import csrf_token, record

from scorer.core import (
    BASIC_CONTRACTS,
    PROFILES,
    Contract,
    Deal,
    HOUSE_RULES,
    Evening,
    HouseRules,
    Profile,
    Reason,
    Result,
    RuleValues,
    Settlement,
    Suit,
    System,
    TableState,
    Transfer,
    Words,
    register_profile,
    replay,
    settle,
    settle_up,
)
from scorer.core import rules as R


class Beans(System):
    """A toy: the side that takes five tricks or more gets a bean from each opponent; else it pays each."""

    name: ClassVar[str] = "beans"
    units: ClassVar[str] = "beans"
    reads: ClassVar[frozenset[str]] = frozenset({R.FORCED_SPADILLE_BONUSES, R.FAVOURITE_SUIT})
    """What the deal form asks (System.asks): premiers in a forced spadille, the suit drawn for each deal."""
    has_pool: ClassVar[bool] = False
    column_title: ClassVar[str] = "Beans moved"
    column_help: ClassVar[str] = "the last column is how many beans changed hands"

    def settle(self, deal: Deal, state: TableState, rules: RuleValues, deals_agreed: int) -> Settlement:
        won = deal.side_tricks >= 5
        opponents = tuple(p for p in state.players if p not in deal.side)
        balances = dict(zip(state.players, state.balances))
        transfers = []
        for opponent in opponents:
            for member in deal.side:
                payer, payee = (opponent, member) if won else (member, opponent)
                balances[payer] -= 1
                balances[payee] += 1
                transfers.append(Transfer(payer, payee, 1, Reason.GAME_PREMIUM, Words("a bean"), (), "no source"))
        after = replace(state, balances=tuple(balances[p] for p in state.players), deals_played=state.deals_played + 1,
                        last_dealer=deal.dealer)
        return Settlement(state.deals_played + 1, deal, Result.WON if won else Result.REMISE, tuple(transfers), state,
                          after, 1, 0)

    def column(self, settlement: Settlement) -> str:
        return str(len(settlement.transfers))

    def final_column(self, state: TableState) -> str:
        return ""

    def standing(self, state: TableState, rules: RuleValues, eldest: str) -> tuple[tuple[str, str], ...]:
        return (("Beans in play", str(sum(abs(b) for b in state.balances) // 2)),)

    def asks(self, contract: Contract, rules: RuleValues, state: TableState) -> frozenset[str]:
        """Beans care for tricks alone: the form asks the trumps and, in an alliance, the King and its holder."""
        return super().asks(contract, rules, state) & {"trumps", "called"}


@pytest.fixture
def beans() -> Iterator[Profile]:
    profile = register_profile(Profile("beans", "Beans (a toy system)", "A bean a trick's worth.", BASIC_CONTRACTS,
                                       Beans()))
    yield profile
    PROFILES.pop("beans")


def test_a_table_of_the_toy_system_is_shown_the_rules_it_reads(beans: Profile, app: Flask,
                                                                client: FlaskClient) -> None:
    assert [rule.name for rule in beans.applicable_rules()] == ["forced_spadille_bonuses", "favourite_suit"]
    changed = HouseRules.of("beans", {"favourite_suit": "each_deal", "unit": "one_chip"})
    assert changed.profile.system is beans.system and changed[R.FAVOURITE_SUIT] is R.FavouriteSuit.EACH_DEAL
    data = {"player_1": "Ann", "player_2": "Bea", "player_3": "Cat", "player_4": "Dan", "first_dealer": "1",
            "profile": "beans", "deals_agreed": "8", "csrf_token": csrf_token(client, "/new")}
    token = client.post("/new", data=data).headers["Location"].split("/t/")[1].split("/")[0]
    tally = client.get(f"/t/{token}/tally").get_data(as_text=True)
    shown = {rule.title for rule in HOUSE_RULES if rule.title in tally}
    assert shown == {"Premiers and vole in forced spadille", "The favourite suit"}


class Silent(System):
    """A system that does not say which house rules it reads."""

    name: ClassVar[str] = "silent"
    units: ClassVar[str] = "beans"

    def settle(self, deal: Deal, state: TableState, rules: RuleValues, deals_agreed: int) -> Settlement:
        return Beans().settle(deal, state, rules, deals_agreed)


class Misread(Beans):
    reads: ClassVar[frozenset[str]] = frozenset({"favourite_suits"})


@pytest.mark.parametrize("system", [Silent(), Misread()], ids=["no reads", "a rule that is none"])
def test_a_profile_refuses_a_system_that_does_not_declare_the_rules_it_reads(system: System) -> None:
    with pytest.raises(TypeError, match="must declare the house rules it reads"):
        Profile("beans", "Beans (a toy system)", "A bean a trick's worth.", BASIC_CONTRACTS, system)


def test_the_core_settles_with_a_system_it_has_never_heard_of(beans: Profile) -> None:
    rules = HouseRules.of("beans")
    deal = Deal("Ann", "Bea", Contract.SOLO, Suit.HEARTS, hombre_tricks=6)
    settlement = settle(deal, TableState.start(("Ann", "Bea", "Cat", "Dan")), rules)
    assert [(t.payer, t.payee, t.chips) for t in settlement.transfers] == [("Ann", "Bea", 1), ("Cat", "Bea", 1),
                                                                           ("Dan", "Bea", 1)]
    assert settlement.after.total == 0
    evening = replay(Evening(("Ann", "Bea", "Cat", "Dan"), rules, (deal,), 8))
    money = settle_up(evening, 25)  # the system's final figures (its balances, no pool) in money
    assert money.units == {"Ann": -1, "Bea": 3, "Cat": -1, "Dan": -1} and money.pool_left == 0
    assert sorted((p.payer, p.payee, p.cents) for p in money.payments) == [("Ann", "Bea", 25), ("Cat", "Bea", 25),
                                                                           ("Dan", "Bea", 25)]


def test_the_app_plays_shows_and_exports_an_evening_of_the_toy_system(beans: Profile, app: Flask,
                                                                     client: FlaskClient) -> None:
    data = {"player_1": "Ann", "player_2": "Bea", "player_3": "Cat", "player_4": "Dan", "first_dealer": "1",
            "profile": "beans", "deals_agreed": "8", "csrf_token": csrf_token(client, "/new")}
    created = client.post("/new", data=data)
    assert created.status_code == 302, created.get_data(as_text=True)
    token = created.headers["Location"].split("/t/")[1].split("/")[0]
    assert record(client, token, "solo", 1, {"hombre": "Bea", "trumps": "hearts", "hombre_tricks": "6",
                                             "matadors": "0"}).status_code == 302
    assert record(client, token, "solo", 2, {"hombre": "Cat", "trumps": "spades", "hombre_tricks": "3",
                                             "matadors": "0"}).status_code == 302

    form = client.get(f"/t/{token}/deal/solo").get_data(as_text=True)
    assert 'name="trumps"' in form and 'name="matadors"' not in form and 'name="premiers"' not in form
    ledger = client.get(f"/t/{token}/ledger").get_data(as_text=True)
    assert "Beans moved" in ledger and "Beans in play" in ledger and "how many beans changed hands" in ledger
    foot = re.search(r"<tfoot>(.*?)</tfoot>", ledger, re.S)
    assert foot and re.findall(r"<td>([^<]*)</td>", foot.group(1))[:4] == ["0", "+4", "−4", "0"]
    for page in ("", "/tally", "/audit/2", "/verify", "/tally.pdf"):
        assert client.get(f"/t/{token}{page}").status_code == 200, page

    exported = client.get(f"/t/{token}/export.json").get_data()
    assert json.loads(exported)["profile"] == "beans"
    rows = list(csv.reader(io.StringIO(client.get(f"/t/{token}/export.csv").get_data(as_text=True))))
    assert len(rows) == 1 + 6 and {row[8] for row in rows[1:]} == {"game_premium"}
    again = client.post("/import", data={"csrf_token": csrf_token(client, "/import"),
                                         "evening": (io.BytesIO(exported), "beans.json")},
                        content_type="multipart/form-data")
    assert again.status_code == 302
    copy = again.headers["Location"].split("/t/")[1].split("/")[0]
    assert client.get(f"/t/{copy}/export.json").get_data() == exported
