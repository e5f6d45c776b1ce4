"""A season settled on a phone in a real browser (issue 30, points 1 and 5), in English and in French: Playwright on
Debian's Chromium at 390×844, the server and axe of tests/conftest.py. A circle plays one evening with a chip worth
10 cents; its page leads with where the season stands; *Record this settlement* shows what will be recorded and
asks for a second tap; the undo of the last deal of the settled evening shows what it changes in what was paid
before it is confirmed; the settlement is taken back with a reason. Screenshots go to
test-artifacts/browser-settle/."""

from __future__ import annotations

import re
from typing import Any

import pytest
from helpers.browser import ARTIFACTS as BROWSER_ARTIFACTS
from helpers.browser import Phone, fresh

pytestmark = pytest.mark.browser

ARTIFACTS = BROWSER_ARTIFACTS.parent / "browser-settle"
NB = "\u00a0"

WORDS = {
    "en": {"stands": "Where the season stands", "nothing yet": "Nothing yet.", "confirm": "Record this settlement?",
           "covers": "evening 1", "pays": " pays ", "settled": "the circle settled evening 1:", "paid": " paid ",
           "is settled": "Nothing: the season is settled.", "asks": "Evening 1 is settled: this changes what was paid",
           "still once saved": "Still to settle once it is saved:", "changed": "Changed since evening 1 was settled",
           "taken back": "Taken back on", "reason": "Bea had not paid"},
    "fr": {"stands": "Où en est la saison", "nothing yet": "Rien pour l'instant.", "confirm": f"Enregistrer ce règlement{NB}?",
           "covers": "soirée 1", "pays": " paie ", "settled": f"le cercle a réglé la soirée 1{NB}:", "paid": " a payé ",
           "is settled": f"Rien{NB}: la saison est réglée.", "asks": f"La soirée 1 est réglée{NB}: ceci change ce qui a été payé",
           "still once saved": f"Reste à régler une fois le changement enregistré{NB}:", "changed": "Changé depuis",
           "taken back": "Annulé le", "reason": "Bea n'avait pas payé"},
}


@pytest.fixture(scope="module")
def browser(chromium: Any) -> Any:
    fresh(ARTIFACTS)
    return chromium


class SettlePhone(Phone):
    artifacts = ARTIFACTS


class FrenchSettlePhone(SettlePhone):
    options = {"locale": "fr-FR"}


def standing(phone: Phone) -> tuple[str, str]:
    """The season page's lead: what was settled, and what is still to settle."""
    lead = phone.page.locator("section.standing").inner_text()
    settled, still = lead.split("\n", 1)[1].split(phone.page.locator("section.standing h3").nth(1).inner_text())
    return settled, still


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_settlement_is_confirmed_a_change_to_it_asks_first_and_it_is_taken_back(server: str, browser: Any, axe: Any,
                                                                                  language: str) -> None:
    words = WORDS[language]
    phone = (FrenchSettlePhone if language == "fr" else SettlePhone)(browser, axe, language)
    page = phone.page
    phone.go(f"{server}/c/new")
    page.fill("#name", "Thursday club")
    for i, name in enumerate(["Ann", "Bea", "Cat", "Dan", "Eve"], start=1):
        page.fill(f"#member_{i}", name)
    page.fill("#deals_agreed", "4")
    page.fill("#chip_value", "0.10")
    page.fill("#currency", "EUR")
    phone.tap_and_wait("button.primary")
    circle = page.url
    phone.tap_and_wait('form[action$="/next"] button')
    first = re.sub(r"/t/([^/]+).*", r"/t/\1", page.url)
    seated = ("Ann", "Bea", "Cat", "Dan")
    for n, taken in enumerate((6, 5, 6, 5), start=1):
        phone.go(f"{first}/deal/solo")
        for name, value in (("hombre", seated[n % 4]), ("trumps", "hearts"), ("hombre_tricks", str(taken))):
            page.locator(f'input[type=radio][name="{name}"][value="{value}"]').tap()
        phone.tap_and_wait("button[value=preview]")
        phone.tap_and_wait("button[value=record] >> nth=0")

    phone.go(circle)
    phone.check("season-leads-with-where-it-stands")
    assert page.locator("main h2").first.inner_text() == words["stands"]
    settled, still = standing(phone)
    assert words["nothing yet"] in settled and words["pays"] in still and "€" in still
    to_pay = page.locator("section.standing ol.to-pay li").all_inner_texts()
    phone.tap_and_wait('form[action$="/settle"] button')
    phone.check("record-asks-to-confirm")
    main = page.inner_text("main")
    assert page.locator("h1").inner_text() == words["confirm"] and words["covers"] in main
    assert page.locator("ol.to-pay li").all_inner_texts() == to_pay
    phone.tap_and_wait("button.primary")
    phone.check("settled")
    settled, still = standing(phone)
    assert words["settled"] in settled and words["paid"] in settled and words["is settled"] in still
    assert words["pays"] not in still  # a payment recorded is never listed as to pay

    phone.go(f"{first}/undo")
    phone.check("undo-in-a-settled-evening-asks-first")
    effect = page.locator("section.settled-effect").inner_text()
    assert words["asks"] in effect and words["paid"] in effect and words["still once saved"] in effect
    phone.tap_and_wait("button.danger")
    phone.go(circle)
    settled, still = standing(phone)
    assert words["changed"] in still and words["pays"] in still

    page.locator("details.take-back summary").tap()
    page.fill("#reason", words["reason"])
    phone.check("take-back")
    phone.tap_and_wait("details.take-back button")
    phone.check("taken-back")
    settled, still = standing(phone)
    assert words["taken back"] in settled and words["reason"] in settled and words["pays"] in still
    assert not phone.problems, "\n".join(phone.problems)
    phone.close()
