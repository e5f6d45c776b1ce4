"""Issue 24 in a real browser (Debian's Chromium as a 390×844 phone): Hombre's own King tapped on purpose on the
alliance form (points 5), and a claim after six tricks whose called King was never played, checked card by card
(point 2). Every page is checked as tests/test_browser.py checks its pages (labels, axe-core, nothing wider than
the phone); screenshots go to test-artifacts/browser-own-king/."""

from __future__ import annotations

import re
from typing import Any

import pytest
from helpers.browser import ARTIFACTS as BROWSER_ARTIFACTS
from helpers.browser import PHONE, Phone, fresh
from helpers.plays import CLAIM, play

from scorer.web.forms import OWN_KING

pytestmark = pytest.mark.browser

ARTIFACTS = BROWSER_ARTIFACTS.parent / "browser-own-king"
RANKS = {"K": "King", "Q": "Queen", "J": "Knave", "A": "Ace"}
SUITS = {"S": "spades", "C": "clubs", "D": "diamonds", "H": "hearts"}
OWN = "Hombre called a King she held herself"


@pytest.fixture(scope="module")
def browser(chromium: Any) -> Any:
    fresh(ARTIFACTS)
    return chromium


class OwnKingPhone(Phone):
    artifacts = ARTIFACTS


def start(phone: Phone, server: str) -> str:
    """A table of Ann, Bea, Cat and Dan (Ann deals first, Bea is eldest); its players' link."""
    phone.go(f"{server}/new")
    for i, name in enumerate(["Ann", "Bea", "Cat", "Dan"], start=1):
        phone.page.fill(f"#player_{i}", name)
    phone.tap_and_wait("main button[type=submit] >> nth=-1")
    token = re.search(r"/t/([^/]+)", phone.page.url)
    assert token
    return f"{server}/t/{token.group(1)}"


def taps(phone: Phone, values: list[tuple[str, str]]) -> None:
    for name, value in values:
        radio = phone.page.locator(f'input[type=radio][name="{name}"][value="{value}"]')
        radio.tap()
        assert radio.is_checked(), f"tapping {name}={value!r} did not choose it"


def test_her_own_king_is_a_choice_of_its_own_and_hombre_s_name_as_ally_is_refused(server: str, browser: Any,
                                                                                axe: Any) -> None:
    phone = OwnKingPhone(browser, axe, "bea")
    page = phone.page
    table = start(phone, server)
    phone.go(f"{table}/deal/alliance")
    taps(phone, [("hombre", "Bea"), ("trumps", "spades"), ("called", "KH"), ("ally", "Bea"), ("hombre_tricks", "4"),
                 ("ally_tricks", "2")])
    phone.tap_and_wait("button[value=preview]")
    summary = page.locator("#errors")
    box = summary.bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE["viewport"]["height"], "the refusal is not on the first screen"
    assert (f"Bea is Hombre and was also tapped as ally with 2 tricks: tap “{OWN}” for a secret solo, or tap who held "
            "the called King.") in page.inner_text("main")
    phone.check("hombre-tapped-as-ally")

    own = page.locator(f'input[type=radio][name="ally"][value="{OWN_KING}"]')
    own.tap()
    assert own.is_checked()
    assert not page.locator("#ally_tricks").is_visible(), "the ally's tricks are still asked"
    label = page.locator("label.opt", has=own)
    assert label.inner_text() == OWN
    width = label.bounding_box()
    assert width is not None and width["width"] > PHONE["viewport"]["width"] * 0.8, "the choice is not a row of its own"
    phone.check("own-king-chosen")
    phone.tap_and_wait("button[value=preview]")
    assert "her own King called" in page.locator("section.preview h1").inner_text()
    phone.check("own-king-preview")
    phone.tap_and_wait("button[value=record]")
    assert "/t/" in page.url and page.locator(".error").count() == 0
    assert not phone.problems, "\n".join(phone.problems)
    phone.close()


def test_a_claim_at_six_before_the_called_king_fell_is_checked_and_corrected(server: str, browser: Any,
                                                                              axe: Any) -> None:
    """Deal 1 recorded as Bea's alliance with Cat; the play shows Bea take the first six and the side claim, the
    King of clubs unplayed: the page asks who held it, Dan is tapped, and the correction saves the claim."""
    phone = OwnKingPhone(browser, axe, "cat")
    page = phone.page
    table = start(phone, server)
    phone.go(f"{table}/deal/alliance")
    taps(phone, [("hombre", "Bea"), ("trumps", "hearts"), ("called", "KC"), ("ally", "Cat"), ("hombre_tricks", "5"),
                 ("ally_tricks", "1"), ("matadors", "4")])
    page.locator('input[name="premiers"]').tap()
    phone.tap_and_wait("button[value=preview]")
    assert page.locator(".error").count() == 0, page.locator(".error").all_inner_texts()
    phone.tap_and_wait("button[value=record] >> nth=0")

    phone.go(f"{table}/audit/1")
    phone.tap_and_wait("text=Check the play, card by card")
    for card in (c for trick in play(CLAIM) for c in trick):
        phone.tap_and_wait(f'a.card[aria-label="{RANKS.get(card.rank, card.rank)} of {SUITS[card.suit.letter]}"]')
    question = page.locator("#revealed")
    assert "The called card (King of clubs) was not played: who held it?" in question.inner_text()
    assert page.locator("text=Use this play").count() == 0
    phone.check("who-held-it")
    phone.tap_and_wait('#revealed a:text-is("Dan")')
    assert "At the claim, Dan was revealed as the holder of the called card (King of clubs)." in page.inner_text("main")
    phone.check("revealed")
    phone.tap_and_wait("text=Use this play")
    assert page.locator('input[type=radio][name="ally"][value="Dan"]').is_checked()
    page.locator('input[type=radio][name="by"][value="Cat"]').tap()
    phone.tap_and_wait("button[value=preview]")
    assert page.locator(".error").count() == 0, page.locator(".error").all_inner_texts()
    phone.check("what-this-changes")
    phone.tap_and_wait("button[value=save]")
    assert "At the claim, Dan was revealed as the holder of the called card (King of clubs)." in page.inner_text("main")
    assert re.search(r"Cat pays Bea \d+ — premiers|Ann pays Bea \d+ — premiers", page.inner_text("main"))
    phone.check("corrected")
    assert not phone.problems, "\n".join(phone.problems)
    phone.close()
