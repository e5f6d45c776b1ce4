"""The house rules in code, in docs/RULES.md and in RULES-NOTES never drift apart."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers.docs import read, section

from scorer.core import PROFILES, HouseRules
from scorer.core.rules import HOUSE_RULES
from scorer.core.words.rules_doc import rules_markdown

ROOT = Path(__file__).resolve().parent.parent
SOURCE_TAGS = re.compile(r"\b(P|W|EB|PG|FR|H47|Quanti)\b")


def test_docs_rules_md_is_generated_from_the_code() -> None:
    assert (ROOT / "docs" / "RULES.md").read_text() == rules_markdown(), (
        "docs/RULES.md is out of date: run `scorer rules --markdown > docs/RULES.md`"
    )


@pytest.mark.parametrize("point", [*range(1, 17), 19, 21, 22])
def test_every_disputed_point_of_the_basic_game_is_a_house_rule(point: int) -> None:
    assert any(rule.point == point for rule in HOUSE_RULES)


@pytest.mark.parametrize("rule", HOUSE_RULES, ids=lambda r: r.name)
def test_each_rule_cites_its_sources_and_has_a_valid_default(rule: object) -> None:
    from scorer.core.rules import HouseRule

    assert isinstance(rule, HouseRule)
    assert rule.default in rule.values
    assert len(set(rule.values)) == len(rule.values)
    assert SOURCE_TAGS.search(rule.help) or "no source" in rule.help.lower(), rule.help
    for choice in rule.choices:
        assert not choice.sources or SOURCE_TAGS.search(choice.sources), choice


@pytest.mark.parametrize("name", sorted(PROFILES))
def test_every_profile_resolves_to_valid_values(name: str) -> None:
    rules = HouseRules.of(name)
    assert len(list(rules)) == len(HOUSE_RULES)
    assert rules.changes() == {}


def test_quadrille_defaults_follow_p_where_p_gives_a_value() -> None:
    for rule in HOUSE_RULES:
        choices_from_p = [c.value for c in rule.choices if re.search(r"\bP\b", c.sources)]
        if choices_from_p:
            assert rule.default in choices_from_p, rule.name


def test_the_settlement_document_s_table_names_every_rule_with_its_default() -> None:
    table = section(read("docs/SETTLEMENT.md"), "### Every rule and its default under `quadrille`")
    rows = re.findall(r"^\| `(\w+)` \| `(\w+)` \|", table, flags=re.MULTILINE)
    assert len(rows) == len(dict(rows)) and dict(rows) == {rule.name: rule.default for rule in HOUSE_RULES}


def test_the_readme_s_table_of_profiles_names_every_profile_with_its_system() -> None:
    table = section(read("README.md"), "## House rules")
    rows = re.findall(r"^\| `(\w+)`(?: \(default\))? \| (\w+) \|", table, flags=re.MULTILINE)
    assert dict(rows) == {name: profile.system.name for name, profile in PROFILES.items()}


def test_the_formats_document_gives_every_deal_field() -> None:
    from scorer.core.ledger.evening_json import DEAL_FIELDS, EVENING_FIELDS, TABLE_FIELDS

    evening = section(read("docs/FORMATS.md"), "### `quadrille-evening/1` (input: an evening's deals)")
    for name in DEAL_FIELDS | EVENING_FIELDS | TABLE_FIELDS:
        assert f"| `{name}` |" in evening, name


def test_the_formats_document_lists_every_reason_code() -> None:
    from scorer.core import Reason

    settlement = section(read("docs/FORMATS.md"), "### `quadrille-settlement/1` (output of `scorer settle`)")
    for reason in Reason:
        assert f"`{reason.value}`" in settlement, reason
