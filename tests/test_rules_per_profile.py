"""Start a table (and Start a circle, and a table's settings before its first deal) offer only the house rules that
apply to the profile chosen (issue 25: all 36 were listed, including those that cannot apply). No JavaScript: each
rule's field is marked with the profiles it applies to (the core's ``Profile.applies``: the profile's settlement
system reads it, ``System.reads``, and the profile plays a contract it concerns), and the page's style shows, under
the profile checked, only its own (CSS ``:has()``; tests/test_browser_words.py taps through it in Chromium). A
value sent for a rule that does not apply to the profile chosen is not kept."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers.web import csrf_token, record, start_table

from scorer.core import PROFILES
from scorer.store import table_by_token
from scorer.web.db import get_db


def fields_by_profile(page: str) -> dict[str, set[str]]:
    """Each rule's field on the page (by its select's name) and the profiles its classes name."""
    found = re.findall(r'<div class="text rule-field([^"]*)">\s*<label for="(rule_\w+)"', page)
    return {name: {c.removeprefix("for-") for c in classes.split() if c.startswith("for-")} for classes, name in found}


@pytest.mark.parametrize("url", ["/new", "/c/new"])
def test_each_rule_is_marked_with_the_profiles_it_applies_to(client: FlaskClient, url: str) -> None:
    page = client.get(url).get_data(as_text=True)
    marked = fields_by_profile(page)
    assert len(marked) == 38
    for profile in PROFILES.values():
        shown = {name.removeprefix("rule_") for name, profiles in marked.items() if profile.name in profiles}
        assert shown == {rule.name for rule in profile.applicable_rules()}, profile.name
        assert (f'form:has(input[name="profile"][value="{profile.name}"]:checked) '
                f'.rule-field:not(.for-{profile.name}) {{ display: none; }}') in page
    # the worked example of the issue: the point score reads 8 of the rules, the hard score 30
    assert sum("penguin_points" in p for p in marked.values()) == 8
    assert sum("quadrille" in p for p in marked.values()) == 30
    head = page.split("</head>")[0]
    assert "<style>" in head  # the style is in the page's head, where HTML puts it


def test_a_rule_that_does_not_apply_to_the_profile_chosen_is_not_kept(app: Flask, client: FlaskClient) -> None:
    """Chosen under the hard score, then the profile changed to the point score: the hidden pool rule is dropped,
    the rule the point score reads is kept."""
    token = start_table(client, profile="penguin_points", rule_pool_at_end="carry_forward", rule_own_king="forbidden",
                        rule_multiplier_scope="per_player")
    with app.app_context():
        table = table_by_token(get_db(), token)
    assert table is not None
    changes = table.rules.changes()
    assert changes == {"own_king": "forbidden", "multiplier_scope": "per_player"}


def test_the_settings_of_a_table_list_only_its_profile_s_rules(client: FlaskClient) -> None:
    token = start_table(client, profile="penguin_points")
    page = client.get(f"/t/{token}/settings").get_data(as_text=True)
    assert len(fields_by_profile(page)) == 38 and "<style>" in page.split("</head>")[0]  # before the first deal
    record(client, token, "solo", 1, {"hombre": "Bea", "trumps": "hearts", "hombre_tricks": "6", "matadors": "0"})
    frozen = client.get(f"/t/{token}/settings").get_data(as_text=True)
    listed = re.findall(r'<li><a href="/rules#(\w+)">', frozen)
    assert listed == [rule.name for rule in PROFILES["penguin_points"].applicable_rules()]
    assert csrf_token(client, "/new")
