"""No code outside the rule definitions compares a house rule's value with a string: each rule's values
are an Enum (scorer/core/rules/rule_values.py), and ``mypy --strict`` (run by the test command) refuses a comparison of
one with a string or with another rule's value. This AST walk is the second guard, for code mypy does not
see as a rule lookup (a template helper, a test-only path)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from scorer.core import PROFILES, HouseRules, RuleKey
from scorer.core import rules as R

PACKAGE = Path(__file__).resolve().parent.parent / "scorer"
DEFINITIONS = {PACKAGE / "core" / "rule_values.py", PACKAGE / "core" / "house_rules.py"}


def _is_rule_lookup(node: ast.AST) -> bool:
    """``rules[...]``, ``self.rules[...]``, ``table.rules[...]``: a house rule's value."""
    if not isinstance(node, ast.Subscript):
        return False
    target = node.value
    name = target.attr if isinstance(target, ast.Attribute) else target.id if isinstance(target, ast.Name) else ""
    return name == "rules"


def _is_text(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(_is_text(e) for e in node.elts)
    return False


def string_comparisons(source: str, where: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source, where)):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(_is_rule_lookup(s) for s in sides) and any(_is_text(s) for s in sides):
                found.append(f"{where}:{node.lineno}: {ast.unparse(node)}")
        if isinstance(node, ast.Subscript) and _is_rule_lookup(node) and _is_text(node.slice):
            found.append(f"{where}:{node.lineno}: a rule looked up by a bare name: {ast.unparse(node)}")
    return found


def test_no_rule_value_is_compared_with_a_string_outside_the_rule_definitions() -> None:
    found = [f for path in sorted(PACKAGE.rglob("*.py")) if path not in DEFINITIONS
             for f in string_comparisons(path.read_text(), str(path.relative_to(PACKAGE.parent)))]
    assert found == [], "\n".join(found)


def test_the_walk_finds_a_planted_comparison() -> None:
    planted = ('if rules[R.UNIT] == "one_chip":\n    pass\n'
               'if self.rules[R.ANTES] in ("every_deal", "x"):\n    pass\n'
               'if table.rules["favourite_suit"]:\n    pass\n')
    assert len(string_comparisons(planted, "planted.py")) == 3


@pytest.mark.parametrize("key", [k for k in vars(R).values() if isinstance(k, RuleKey)], ids=str)
def test_every_rule_looks_up_as_a_member_of_its_own_enum(key: RuleKey[R.RuleValue]) -> None:
    for profile in PROFILES:
        value = HouseRules.of(profile)[key]
        assert isinstance(value, key.values)
        assert HouseRules.of(profile).value_of(key) == value.value
