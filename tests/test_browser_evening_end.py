"""The end of an evening and an evening's first page after a carried pool, on a phone in a real browser (issue 30,
points 2, 3 and 6): Playwright on Debian's Chromium at 390×844, in English and in French, the server and axe of
tests/conftest.py. A table alone's last deal leads with who pays whom; a new circle, its rules left as offered,
carries its pool; its second evening's first page shows the pool it began with.
Screenshots go to test-artifacts/browser-evening-end/."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from helpers.browser import ARTIFACTS as BROWSER_ARTIFACTS
from helpers.browser import EXAMPLE, Phone, fresh, import_table, play_four_solos, rename

pytestmark = pytest.mark.browser

ARTIFACTS = BROWSER_ARTIFACTS.parent / "browser-evening-end"
SEATED = ("Ann", "Bea", "Cat", "Dan")

SAID = {
    "en": {"over": "The evening is over", "dealt": "the last, deal 8, was dealt by Daniella.", "pays": "Who pays whom",
           "tally": "The tally: each balance, to print and sign", "circle": "who pays whom is on the circle's page",
           "carried": "its pool and whatever else lies on the table", "pool": "Pool\n8",
           "began": "This evening begins with a pool of 8, left on the table by the evening before"},
    "fr": {"over": "La soirée est finie", "dealt": "le dernier, le coup 8, a été donné par Daniella.", "pays": "Qui paie qui",
           "tally": "Le relevé\u00a0: chaque solde, à imprimer et à signer", "circle": "qui paie qui est sur la page du cercle",
           "carried": "sa poule et tout ce qui reste sur la table", "pool": "Poule\n8",
           "began": "Cette soirée commence avec une poule de 8, laissée sur la table par la soirée précédente"},
}


@pytest.fixture(scope="module")
def browser(chromium: Any) -> Any:
    fresh(ARTIFACTS)
    return chromium


class EnglishPhone(Phone):
    artifacts = ARTIFACTS
    options = {"locale": "en-GB"}


class FrenchPhone(Phone):
    artifacts = ARTIFACTS
    options = {"locale": "fr-FR"}


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_last_deal_leads_to_the_money_and_a_carried_pool_opens_the_next_evening(server: str, browser: Any, axe: Any,
                                                                                    language: str) -> None:
    said = SAID[language]
    phone = (FrenchPhone if language == "fr" else EnglishPhone)(browser, axe, language)
    page = phone.page

    # a table alone, its eight deals imported: its page after the last deal says who pays whom first
    deals = rename(json.loads(EXAMPLE.read_text(encoding="utf-8"))["deals"])
    token = import_table(phone, server, "quadrille", deals)
    phone.go(f"{server}/t/{token}")
    phone.check("last-deal")
    main = page.inner_text("main")
    assert said["over"] in main and said["dealt"] in main and said["pays"] in main
    assert main.index(said["pays"]) < main.index(said["tally"])
    assert len(page.locator("section.ending ol.payments li").all()) >= 1
    phone.tap_and_wait("section.ending a.button.primary")
    assert page.url.endswith(f"/t/{token}/tally")

    # a circle, its house rules left as the form offers them: the pool is carried
    phone.go(f"{server}/c/new")
    page.fill("#name", "Club")
    for i, name in enumerate(SEATED, start=1):
        page.fill(f"#member_{i}", name)
    page.fill("#deals_agreed", "4")
    phone.tap_and_wait("form[action$='/c/new'] button.primary")
    circle = page.url
    assert said["carried"] in page.inner_text("main")
    phone.tap_and_wait("form[action$='/next'] button.primary")
    first = re.sub(r"/t/([^/]+).*", r"/t/\1", page.url)
    play_four_solos(phone, first, SEATED, (6, 5, 6, 5))  # ends on a remise: 8 chips left in the pool
    phone.go(first)
    phone.check("circle-last-deal")
    assert said["circle"] in page.inner_text("main")

    phone.go(circle)
    phone.tap_and_wait("form[action$='/next'] button.primary")
    phone.check("second-evening-first-page")
    main = page.inner_text("main")
    assert said["pool"] in page.inner_text("dl.state") and said["began"] in main
    assert not phone.problems, "\n".join(phone.problems)
    phone.close()
