"""Calling her own King is a choice, not a slip (issue 24, point 5). P: "Hombre may call a King she holds herself,
whether by mistake or as a bluff. In this case she will, in effect, be playing a solo (secretly), and wins or loses
accordingly." The alliance and forced spadille forms offer it as a choice of its own in the ally group; the ally's
tricks are ignored only then; Hombre's own name tapped as her ally is refused with a sentence that says which of
the two was meant, and a file that names Hombre her own ally with tricks for the ally is refused alike."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from flask import Flask
from flask.testing import FlaskClient
from helpers.web import post_deal, start_table
from werkzeug.datastructures import MultiDict

from scorer.cli import main
from scorer.core import Contract, HouseRules, TableState
from scorer.web.forms import OWN_KING, DealForm

PLAYERS = ("Ann", "Bea", "Cat", "Dan")
OWN = "Hombre called a King she held herself"


def form(app: Flask, contract: Contract, taps: dict[str, str], profile: str = "quadrille",
         changes: dict[str, str] | None = None) -> tuple[DealForm, bool]:
    """The deal form of Ann's deal (Bea is eldest) sent with ``taps``, and whether it was valid."""
    with app.test_request_context():
        sent = DealForm(formdata=MultiDict(taps), meta={"csrf": False}, players=PLAYERS, contract=contract,
                        dealer="Ann", state=TableState.start(PLAYERS), rules=HouseRules.of(profile, changes or {}))
        return sent, sent.validate()


ALLIANCE = {"hombre": "Bea", "trumps": "spades", "called": "KH", "hombre_tricks": "4", "ally_tricks": "2"}

# (what, contract, the profile, house rules changed, whether the ally group offers her own King)
OFFERED = [
    ("alliance", Contract.ALLIANCE, "quadrille", {}, True),
    ("forced spadille", Contract.FORCED_SPADILLE, "quadrille", {}, True),
    ("casco: its King comes from another's hand", Contract.CASCO, "mediateur", {}, False),
    ("own_king forbidden", Contract.ALLIANCE, "quadrille", {"own_king": "forbidden"}, False),
    ("EB's reading: alone without the premium", Contract.ALLIANCE, "quadrille", {"own_king": "alone_no_premium"}, True),
]


@pytest.mark.parametrize("what, contract, profile, changes, offered", OFFERED, ids=[o[0] for o in OFFERED])
def test_the_ally_group_offers_her_own_king_where_she_may_call_it(app: Flask, what: str, contract: Contract,
                                                                   profile: str, changes: dict[str, str],
                                                                   offered: bool) -> None:
    sent, _ = form(app, contract, {}, profile, changes)
    with app.test_request_context():
        labels = [str(label) for _value, label, _checked, _kw in sent.ally.iter_choices()]
    assert (OWN in labels) is offered and labels[:4] == list(PLAYERS)


# (what, the contract, the ally tapped, the ally's tricks tapped, the deal's ally and ally's tricks, or the refusal)
TAPS = [
    ("her own King, with the ally's tricks left tapped: they are ignored (a secret solo)", Contract.ALLIANCE,
     OWN_KING, "2", ("Bea", None)),
    ("her own King in a forced spadille", Contract.FORCED_SPADILLE, OWN_KING, "0", ("Bea", None)),
    ("Dan, with his two tricks", Contract.ALLIANCE, "Dan", "2", ("Dan", 2)),
    ("Hombre's own name with two tricks for the ally: which was meant?", Contract.ALLIANCE, "Bea", "2",
     f"Bea is Hombre and was also tapped as ally with 2 tricks: tap “{OWN}” for a secret solo, or tap who held "
     "the called King."),
    ("with one trick", Contract.ALLIANCE, "Bea", "1",
     f"Bea is Hombre and was also tapped as ally with 1 trick: tap “{OWN}” for a secret solo, or tap who held "
     "the called King."),
    ("Hombre's own name with no tricks for the ally: a secret solo only on purpose", Contract.FORCED_SPADILLE, "Bea",
     "0", f"Bea is Hombre and was also tapped as ally: tap “{OWN}” for a secret solo, or tap who held the called "
          "King."),
]


@pytest.mark.parametrize("what, contract, ally, tricks, expected", TAPS, ids=[t[0][:50] for t in TAPS])
def test_her_own_king_is_tapped_on_purpose_and_hombre_s_name_as_ally_is_refused(
        app: Flask, what: str, contract: Contract, ally: str, tricks: str,
        expected: tuple[str, int | None] | str) -> None:
    sent, valid = form(app, contract, {**ALLIANCE, "ally": ally, "ally_tricks": tricks})
    if isinstance(expected, str):
        assert not valid and sent.ally.errors == [expected]
        return
    assert valid, sent.errors
    assert sent.checked is not None and (sent.checked.ally, sent.checked.ally_tricks) == expected


def test_hombre_s_name_where_her_own_king_is_forbidden_is_the_house_rule_s_refusal(app: Flask) -> None:
    sent, valid = form(app, Contract.ALLIANCE, {**ALLIANCE, "ally": "Bea"}, changes={"own_king": "forbidden"})
    assert not valid
    assert sent.ally.errors == ["Hombre may not call a King she holds herself at this table (house rule “Hombre calls a King she holds”)"]
    sent, valid = form(app, Contract.ALLIANCE, {**ALLIANCE, "ally": OWN_KING}, changes={"own_king": "forbidden"})
    assert not valid and sent.ally.errors == ["Tap one of the choices shown."]  # not offered, so not a choice


def test_a_secret_solo_recorded_shows_her_own_king_chosen(app: Flask) -> None:
    sent, valid = form(app, Contract.ALLIANCE, {**ALLIANCE, "ally": OWN_KING})
    assert valid and sent.checked is not None
    with app.test_request_context():
        shown = DealForm(meta={"csrf": False}, players=PLAYERS, contract=Contract.ALLIANCE, dealer="Ann",
                         state=TableState.start(PLAYERS), rules=HouseRules.of())
        shown.fill_from(sent.checked)
        assert shown.ally.data == OWN_KING and shown.to_deal() == sent.checked


def test_the_refusal_in_french(client: FlaskClient) -> None:
    token = start_table(client)
    client.get("/lang/fr")
    page = post_deal(client, token, "alliance", 1, {**ALLIANCE, "ally": "Bea"}).get_data(as_text=True)
    assert ("Bea est l&#39;Hombre et a aussi été touché comme allié, avec 2 levées\u00a0: touchez «\u00a0L&#39;Hombre a appelé "
            "un Roi de sa propre main\u00a0» pour un sans-prendre secret, ou touchez qui tenait le Roi appelé.") in page


# --- the same ambiguity in a file -------------------------------------------------------------------------


@pytest.mark.parametrize("ally_tricks, refused", [
    (None, None),
    (0, None),
    (2, "deal 1: Bea is named both Hombre and her ally, and the ally's tricks are 2: for a secret solo (Hombre called "
        "a King she held herself) the ally takes no tricks; else name who held the King of hearts"),
])
def test_a_file_naming_hombre_her_own_ally_with_tricks_for_the_ally_is_refused(tmp_path: Path, ally_tricks: int | None,
                                                                              refused: str | None) -> None:
    deal = {"dealer": "Ann", "hombre": "Bea", "contract": "alliance", "trumps": "spades", "called": "KH", "ally": "Bea",
            "tricks": {"hombre": 4, "ally": ally_tricks}, "matadors": 0, "premiers": False, "vole": "none"}
    path = tmp_path / "evening.json"
    path.write_text(json.dumps({"format": "quadrille-evening/1", "players": list(PLAYERS), "deals": [deal]}))
    result = CliRunner().invoke(main, ["settle", str(path)])
    if refused is None:
        assert result.exit_code == 0, result.output
        assert json.loads(result.output)["deals"][0]["result"] == "codille"  # a secret solo of 4 tricks (P)
    else:
        assert result.exit_code == 1 and refused in result.output
