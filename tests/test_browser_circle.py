"""A circle on a phone in a real browser (issue 14): Playwright on Debian's Chromium at 390×844, the server
and axe of tests/conftest.py, the phone of tests/helpers/browser.py. One phone starts a circle of five, plays two short evenings from it
(four deals each, a pool carried from the first into the second) and reads the season's ledger.
Screenshots go to test-artifacts/browser-circle/."""

from __future__ import annotations

import re
from typing import Any

import pytest
from helpers.browser import ARTIFACTS as BROWSER_ARTIFACTS
from helpers.browser import Phone, fresh, play_four_solos

pytestmark = pytest.mark.browser

ARTIFACTS = BROWSER_ARTIFACTS.parent / "browser-circle"


@pytest.fixture(scope="module")
def browser(chromium: Any) -> Any:
    fresh(ARTIFACTS)
    return chromium


class CirclePhone(Phone):
    artifacts = ARTIFACTS


def test_a_circle_plays_two_evenings_and_reads_its_season_on_a_phone(server: str, browser: Any, axe: Any) -> None:
    phone = CirclePhone(browser, axe, "ann")
    page = phone.page
    phone.go(f"{server}/")
    phone.tap_and_wait("text=Start a circle")
    page.fill("#name", "Thursday club")
    for i, name in enumerate(["Ann", "Bea", "Cat", "Dan", "Eve"], start=1):
        page.fill(f"#member_{i}", name)
    page.fill("#deals_agreed", "4")
    page.locator("details.rules summary").tap()  # the house rules sit folded
    page.select_option("#rule_pool_at_end", "carry_forward")
    phone.check("new-circle")
    phone.tap_and_wait("button.primary")
    circle = page.url
    phone.check("circle-empty")

    phone.tap_and_wait("text=Start evening 1")
    first = re.sub(r"/t/([^/]+).*", r"/t/\1", page.url)
    play_four_solos(phone, first, ("Ann", "Bea", "Cat", "Dan"), (6, 5, 6, 5))  # ends on a remise: a pool is left
    phone.go(first)
    assert "The evening is over" in page.inner_text("main")
    phone.tap_and_wait("text=Start the next evening of Thursday club")
    for seat, name in enumerate(["Bea", "Cat", "Dan", "Eve"], start=1):
        page.select_option(f"#seat_{seat}", name)
    phone.check("next-evening")
    phone.tap_and_wait("text=Start evening 2")
    second = re.sub(r"/t/([^/]+).*", r"/t/\1", page.url)
    play_four_solos(phone, second, ("Bea", "Cat", "Dan", "Eve"), (6, 6, 6, 6))

    phone.go(circle)
    phone.check("season")
    main = page.inner_text("main")
    assert "Evening 1: Ann, Bea, Cat, Dan" in main and "Evening 2: Bea, Cat, Dan, Eve" in main
    assert "carried in" in main and "(sat out)" in main
    totals = page.locator("section.evening").nth(1).locator("ul.totals li").all_inner_texts()
    assert len(totals) == 5 and totals[0].startswith("Ann")
    assert not phone.problems, "\n".join(phone.problems)
    phone.close()
