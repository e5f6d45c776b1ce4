"""A disputed deal's play entered by taps in a real browser (issue 13): Playwright on Debian's Chromium at
390×844, the server and axe of tests/conftest.py, the phone of tests/helpers/browser.py. One phone records a deal, opens Check the play,
taps the forty cards, is asked about the renounce the eighth trick proves, sees what the play proves, and
saves the correction it makes. Screenshots go to test-artifacts/browser-play/."""

from __future__ import annotations

import re
from typing import Any

import pytest
from helpers.browser import ARTIFACTS as BROWSER_ARTIFACTS
from helpers.browser import Phone, fresh
from helpers.plays import RENOUNCE, play

pytestmark = pytest.mark.browser

ARTIFACTS = BROWSER_ARTIFACTS.parent / "browser-play"
RANKS = {"K": "King", "Q": "Queen", "J": "Knave", "A": "Ace"}
SUITS = {"S": "spades", "C": "clubs", "D": "diamonds", "H": "hearts"}


@pytest.fixture(scope="module")
def browser(chromium: Any) -> Any:
    fresh(ARTIFACTS)
    return chromium


class PlayPhone(Phone):
    artifacts = ARTIFACTS


def test_a_disputed_play_entered_by_taps_finds_the_renounce_and_corrects_the_deal(server: str, browser: Any,
                                                                                   axe: Any) -> None:
    phone = PlayPhone(browser, axe, "cat")
    page = phone.page
    phone.go(f"{server}/new")
    for i, name in enumerate(["Ann", "Bea", "Cat", "Dan"], start=1):
        page.fill(f"#player_{i}", name)
    phone.tap_and_wait("main button[type=submit] >> nth=-1")
    token = re.search(r"/t/([^/]+)", page.url)
    assert token
    table = f"{server}/t/{token.group(1)}"
    phone.go(f"{table}/deal/solo")
    for name, value in (("hombre", "Bea"), ("trumps", "hearts"), ("hombre_tricks", "10"), ("matadors", "3")):
        page.locator(f'input[type=radio][name="{name}"][value="{value}"]').tap()
    phone.tap_and_wait("button[value=preview]")
    phone.tap_and_wait("button[value=record] >> nth=0")

    phone.go(f"{table}/audit/1")
    phone.tap_and_wait("text=Check the play, card by card")
    phone.check("grid")
    for i, card in enumerate(c for trick in play(RENOUNCE) for c in trick):
        phone.tap_and_wait(f'a.card[aria-label="{RANKS.get(card.rank, card.rank)} of {SUITS[card.suit.letter]}"]')
        if i == 30:
            question = page.locator("#renounce")
            assert "Dan must follow trumps" in question.inner_text()
            box = question.bounding_box()
            assert box is not None and box["y"] + box["height"] <= 844, "the question is not on the first screen"
            phone.check("renounce-asked")
            phone.tap_and_wait("text=It was played: a renounce")
    phone.check("what-the-play-proves")
    assert "Renounce in trick 3: Dan played 6♠ to A♣ led, holding 6♥" in page.inner_text("main")

    phone.tap_and_wait("text=Use this play")
    page.locator('input[type=radio][name="by"][value="Cat"]').tap()
    phone.tap_and_wait("button[value=preview]")
    phone.check("what-this-changes")
    phone.tap_and_wait("button[value=save]")
    phone.check("corrected")
    assert "beasted for a renounce in trick 3" in page.inner_text("main")
    assert not phone.problems, "\n".join(phone.problems)
    phone.close()
