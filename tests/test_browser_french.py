"""The pages in French on a phone (issue 15): a French phone (Chromium at 390×844 asking for French) opens a
table of three profiles and its pages; nothing is wider than the phone (French words are longer: the bar
once grew to 526 px), every control is labelled, and axe-core finds nothing, as in tests/test_browser.py.

Screenshots are saved under test-artifacts/browser-french/ (SCORER_ARTIFACTS moves it)."""

from __future__ import annotations

from typing import Any

import pytest
from helpers.browser import ARTIFACTS as BROWSER_ARTIFACTS
from helpers.browser import Phone, fresh, import_table, rename
from helpers.deals import evening_deals

from scorer.core import PROFILES

pytestmark = pytest.mark.browser

ARTIFACTS = BROWSER_ARTIFACTS.parent / "browser-french"


@pytest.fixture(scope="module")
def browser(chromium: Any) -> Any:
    fresh(ARTIFACTS)
    return chromium


class FrenchPhone(Phone):
    """A phone whose browser asks for French (its Accept-Language), its screenshots kept apart."""

    artifacts = ARTIFACTS
    options = {"locale": "fr-FR"}


# The profile with the most contracts, and the two with other units (points, counters): each deal form,
# standing and ledger in French words (the French of the other profiles' pages is checked without a browser
# by tests/test_french.py).
@pytest.mark.parametrize("profile", ["mediateur", "penguin_points", "britannica"])
def test_every_page_in_french_fits_the_phone(server: str, browser: Any, axe: Any, profile: str) -> None:
    phone = FrenchPhone(browser, axe, profile)
    try:
        deals = rename(evening_deals(profile))
        token = import_table(phone, server, profile, deals)  # type: ignore[arg-type]
        table = f"{server}/t/{token}"
        assert phone.page.locator("html").get_attribute("lang") == "fr"
        steps = [("play", ""), ("ledger", "/ledger"), ("tally", "/tally"), ("audit", "/audit/1"), ("undo", "/undo"),
                 ("settings", "/settings"), ("check", "/verify"), ("join", "/join")]
        steps += [(f"deal-{c.value}", f"/deal/{c.value}") for c in PROFILES[profile].contracts]
        for step, url in steps:
            phone.go(table + url)
            phone.check(step)
        assert not phone.problems, "\n".join(phone.problems)
    finally:
        phone.context.close()


def test_the_site_pages_in_french_fit_the_phone(server: str, browser: Any, axe: Any) -> None:
    """Home (with a table opened: its recent tables), rules, new table and new circle, in French: the same
    pages whatever a table's profile, so checked once, not once per profile."""
    phone = FrenchPhone(browser, axe, "site")
    try:
        import_table(phone, server, "quadrille", rename(evening_deals("quadrille")))  # type: ignore[arg-type]
        for step, url in (("home", "/"), ("rules", "/rules"), ("new", "/new"), ("circle-new", "/c/new")):
            phone.go(server + url)
            assert phone.page.locator("html").get_attribute("lang") == "fr"
            phone.check(step)
            if step == "home":
                assert phone.page.locator(".recent-tables li").count() >= 1  # the table just opened is listed
        assert not phone.problems, "\n".join(phone.problems)
    finally:
        phone.context.close()


def test_a_long_one_word_name_fits_the_phone_in_french(server: str, browser: Any, axe: Any) -> None:
    """"L'Hombre Marguerite" is wider than half the phone: the audit page's inputs put the name under its label
    rather than past the screen's edge (a name is never broken inside a word, issue 25)."""
    phone = FrenchPhone(browser, axe, "one-word")
    players = ["Jean-Baptiste", "Marguerite", "Bertrand", "Éléonore"]
    deal = {"dealer": "Jean-Baptiste", "hombre": "Marguerite", "contract": "solo", "trumps": "hearts", "called": None,
            "ally": None, "tricks": {"hombre": 5, "ally": None}, "matadors": 3, "premiers": False, "vole": "none"}
    try:
        token = import_table(phone, server, "quadrille", [deal], players)
        for step, url in (("audit", "/audit/1"), ("ledger", "/ledger"), ("tally", "/tally"), ("undo", "/undo")):
            phone.go(f"{server}/t/{token}{url}")
            phone.check(step)
        assert not phone.problems, "\n".join(phone.problems)
    finally:
        phone.context.close()
