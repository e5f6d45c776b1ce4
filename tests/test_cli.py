"""The scorer command: settle an evening file, list the house rules."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from scorer.cli import main
from scorer.core import HOUSE_RULES, loads, replay

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "evening.json"


def evening_file(tmp_path: Path, deals: list[dict[str, object]], **extra: object) -> Path:
    data = {"format": "quadrille-evening/1", "players": ["Ann", "Bea", "Cat", "Dan"], "deals": deals, **extra}
    path = tmp_path / "evening.json"
    path.write_text(json.dumps(data))
    return path


SOLO_WON = {"dealer": "Ann", "hombre": "Bea", "contract": "solo", "trumps": "hearts", "called": None, "ally": None,
            "tricks": {"hombre": 6, "ally": None}, "matadors": 3, "premiers": False, "vole": "none"}


def test_settle_prints_every_transfer_as_json(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["settle", str(evening_file(tmp_path, [SOLO_WON]))])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    deal = report["deals"][0]
    assert deal["number"] == 1 and deal["result"] == "won"
    assert deal["pool_before"] == 0 and deal["pool_after"] == 0 and deal["vole_pool_after"] == 0
    premium = [t for t in deal["transfers"] if t["reason"] == "game_premium"]
    assert {(t["from"], t["to"], t["chips"]) for t in premium} == {("Cat", "Bea", 4), ("Dan", "Bea", 4), ("Ann", "Bea", 4)}
    assert all("solo_premium" in t["rule"] for t in premium)
    sweep = next(t for t in deal["transfers"] if t["reason"] == "pool_swept")
    assert (sweep["from"], sweep["to"], sweep["chips"]) == ("pool", "Bea", 4)
    assert report["balances"] == {"Ann": -6, "Bea": 18, "Cat": -6, "Dan": -6}
    assert report["pool"] == 0 and report["vole_pool"] == 0


def test_settle_the_example_evening_covers_every_basic_contract() -> None:
    result = CliRunner().invoke(main, ["settle", str(EXAMPLE)])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert {d["contract"] for d in report["deals"]} == {"alliance", "solo", "vole", "forced_spadille"}
    assert {d["result"] for d in report["deals"]} == {"won", "remise", "codille", "vole_won", "vole_lost"}
    expected = replay(loads(EXAMPLE.read_text()))
    assert report["balances"] == expected.balances
    assert sum(report["balances"].values()) + report["pool"] + report["vole_pool"] == 0


def test_settle_text_is_a_readable_table(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["settle", "--text", str(evening_file(tmp_path, [SOLO_WON]))])
    assert result.exit_code == 0, result.output
    assert "Deal 1: Ann deals, Bea is eldest. Bea plays solo in hearts: won, 6 tricks. Stake 4, unit 1." in result.output
    assert "Cat pays Bea 4 — solo premium  [solo_premium, unit, unit_rounding]" in result.output
    assert "Cat pays Bea 1 — three matadors" in result.output
    assert "Next to deal: Bea" in result.output
    total = next(line for line in result.output.splitlines() if line.startswith("Total"))
    assert total.split() == ["Total", "-6", "+18", "-6", "-6", "0"]


def test_settle_close_shares_out_the_pool(tmp_path: Path) -> None:
    remise = {**SOLO_WON, "tricks": {"hombre": 5, "ally": None}, "matadors": 0}
    result = CliRunner().invoke(main, ["settle", "--close", str(evening_file(tmp_path, [remise]))])
    report = json.loads(result.output)
    assert report["pool"] == 8
    assert report["closing"]["pool"] == 0
    assert report["closing"]["balances"] == {"Ann": 5, "Bea": -15, "Cat": 5, "Dan": 5}


@pytest.mark.parametrize(
    "deals, extra, message",
    [
        ([SOLO_WON, {**SOLO_WON, "dealer": "Cat"}], {}, "deal 2: it is Bea's deal, not Cat's"),
        ([{**SOLO_WON, "tricks": {"hombre": 11, "ally": None}}], {}, "deal 1: Hombre cannot take 11 tricks"),
        ([SOLO_WON, {**SOLO_WON, "dealer": "Bea", "trumps": "trefoils"}], {}, "deal 2: 'trumps' must be one of"),
        ([{**SOLO_WON, "tricks": "six"}], {}, "deal 1: 'tricks' must be an object"),
        ([{**SOLO_WON, "premiers": "yes"}], {}, "deal 1: 'premiers' must be true or false"),
        ([{**SOLO_WON, "matador": 3}], {}, "deal 1: unknown field 'matador'"),
        ([{**SOLO_WON, "called": "XX"}], {}, "deal 1: 'XX' is not a card"),
        ([SOLO_WON], {"house_rules": {"solo_premium": "lots"}}, "'lots' is not a value of the house rule solo_premium"),
        ([SOLO_WON], {"profile": "bridge"}, "there is no rule profile called 'bridge'"),
        ([SOLO_WON], {"format": "quadrille-evening/2"}, "not a quadrille-evening/1 file"),
        ([SOLO_WON], {"players": ["Ann", "Bea", "Cat"]}, "Quadrille is played by four"),
    ],
)
def test_an_invalid_file_or_deal_exits_non_zero_with_its_message(
    tmp_path: Path, deals: list[dict[str, object]], extra: dict[str, object], message: str
) -> None:
    result = CliRunner().invoke(main, ["settle", str(evening_file(tmp_path, deals, **extra))])
    assert result.exit_code == 1
    assert message in result.output  # the message goes to standard error, mixed in by CliRunner
    assert "Traceback" not in result.output


def test_invalid_json_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text("{not json")
    result = CliRunner().invoke(main, ["settle", str(path)])
    assert result.exit_code == 1
    assert "not valid JSON" in result.output


def test_rules_lists_every_house_rule_with_default_alternatives_and_sources() -> None:
    result = CliRunner().invoke(main, ["rules"])
    assert result.exit_code == 0
    for rule in HOUSE_RULES:
        assert f"{rule.name} — {rule.title}" in result.output
        assert f"default: {rule.default}" in result.output
        for choice in rule.choices:
            assert f"{choice.value}: {choice.label}" in result.output
    assert "codille_indivisible" in result.output and "(EB)" in result.output


def test_the_console_script_is_installed() -> None:
    scorer = Path(sys.executable).with_name("scorer")
    completed = subprocess.run([str(scorer), "settle", "--text", str(EXAMPLE)], capture_output=True, text=True, check=False)
    assert completed.returncode == 0, completed.stderr
    assert "Deal 8:" in completed.stdout


@pytest.mark.parametrize("profile", ["penguin_chips", "mediateur", "penguin_points", "britannica"])
def test_settle_handles_every_profile(tmp_path: Path, profile: str) -> None:
    from helpers.deals import EVENINGS

    path = evening_file(tmp_path, EVENINGS[profile], profile=profile, deals_agreed=8)
    as_json = CliRunner().invoke(main, ["settle", str(path)])
    assert as_json.exit_code == 0, as_json.output
    report = json.loads(as_json.output)
    expected = replay(loads(path.read_text()))
    assert report["profile"] == profile
    assert report["balances"] == expected.balances
    assert [d["multiplier"] for d in report["deals"]] == [s.multiplier for s in expected.settlements]
    assert report["units"] == {"penguin_points": "points", "britannica": "counters"}.get(profile, "chips")
    as_text = CliRunner().invoke(main, ["settle", "--text", str(path)])
    assert as_text.exit_code == 0
    assert f"Deal {len(EVENINGS[profile])}:" in as_text.output
    if profile == "penguin_points":
        assert "Counts ×2." in as_text.output  # the game after a lost one counts double
    if profile == "britannica":
        assert "In mils, fish and counters:" in as_text.output


def test_scorer_play_referees_each_deal_that_carries_its_play(tmp_path: Path) -> None:
    from helpers.plays import RENOUNCE, VOLE, refereed

    from scorer.core import Evening, HouseRules, dumps

    deal = refereed(VOLE, RENOUNCE)
    evening = Evening(("Ann", "Bea", "Cat", "Dan"), HouseRules.of(), (deal, deal), 8)
    path = tmp_path / "evening.json"
    path.write_text(dumps(Evening(evening.players, evening.rules, (deal,), 8)))
    result = CliRunner().invoke(main, ["play", str(path)])
    assert result.exit_code == 0, result.output
    [report] = json.loads(result.output)["deals"]
    assert report["renounces"] == [{"trick": 3, "player": "Dan", "led": "AC", "played": "6S", "held": "6H"}]
    assert report["derived"] == {"ally": None, "ally_shown": None, "tricks": {"hombre": 10, "ally": None}, "premiers": True,
                                 "vole": "undertaken", "matadors": 4}
    assert report["tricks_won"] == {"Ann": 0, "Bea": 10, "Cat": 0, "Dan": 0} and report["disagreements"] == []
    text = CliRunner().invoke(main, ["play", "--text", str(path)]).output
    assert "RENOUNCE in trick 3: Dan played 6S to AC led, holding 6H" in text
