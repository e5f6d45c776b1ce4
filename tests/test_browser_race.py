"""Two phones that disagree, in a real browser (issue 25, point 1): Debian's Chromium as three phones at 390×844,
each its own browser context (its own session), in English and in French.

Bea's phone previews her solo in hearts with 6 tricks (won); Anne's phone records 5 (remise) first. Bea taps
Record: her page shows both entries side by side, who recorded which and what each player pays, with the two
choices on the first screen; she taps "Correct deal 1 with my entry" and lands on deal 1's correction filled with
her entry, which she previews and saves. Cat's phone, which entered what Anne recorded, is told so simply; Dan's,
whose form was tampered with, is told what cannot be read. Every
page is checked as tests/test_browser.py checks its pages (labels, axe-core, nothing wider than the phone);
screenshots go to test-artifacts/browser-race/ (SCORER_ARTIFACTS moves it)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from helpers.browser import ARTIFACTS as BROWSER_ARTIFACTS
from helpers.browser import PHONE, Phone, fresh

pytestmark = pytest.mark.browser

ARTIFACTS = BROWSER_ARTIFACTS.parent / "browser-race"
HEIGHT = PHONE["viewport"]["height"]
PLAYERS = ("Anne", "Bea", "Cat", "Dan")


@pytest.fixture(scope="module")
def browser(chromium: Any) -> Any:
    fresh(ARTIFACTS)
    return chromium


class RacePhone(Phone):
    artifacts = ARTIFACTS


class FrenchRacePhone(RacePhone):
    options = {"locale": "fr-FR"}


def start(phone: Phone, server: str) -> str:
    """A table of Anne, Bea, Cat and Dan started by taps (Anne deals first); its players' link."""
    phone.go(server + "/new")
    for seat, name in enumerate(PLAYERS, start=1):
        phone.page.locator(f'input[name="player_{seat}"]').fill(name)
    phone.page.locator('input[name="deals_agreed"]').fill("8")
    phone.tap_and_wait('button[type="submit"]')
    assert re.search(r"/t/[\w-]+/join$", phone.page.url), phone.page.url
    return phone.page.url.removesuffix("/join")


def sit_down(phone: Phone, link: str, name: str) -> None:
    phone.go(link)
    phone.tap_and_wait(f'form.me button[value="{name}"]')


def preview_solo(phone: Phone, tricks: int) -> None:
    """Bea's solo in hearts with ``tricks`` tricks, no matadors, tapped and previewed."""
    phone.tap_and_wait('nav.contracts a[href$="/deal/solo"]')
    for name, value in (("hombre", "Bea"), ("trumps", "hearts"), ("hombre_tricks", str(tricks)), ("matadors", "0")):
        radio = phone.page.locator(f'input[type=radio][name="{name}"][value="{value}"]')
        radio.tap()
        assert radio.is_checked(), (name, value)
    phone.tap_and_wait('button[value="preview"]')
    assert phone.page.locator("section.preview").is_visible()


def on_first_screen(phone: Phone, selector: str) -> bool:
    box = phone.page.locator(selector).bounding_box()
    return box is not None and 0 <= box["y"] and box["y"] + box["height"] <= HEIGHT


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_second_phone_sees_both_entries_and_corrects_with_its_own(server: str, browser: Any, axe: Any,
                                                                      language: str) -> None:
    kind = FrenchRacePhone if language == "fr" else RacePhone
    anne, bea, cat, dan = (kind(browser, axe, f"{language}-{name}") for name in ("anne", "bea", "cat", "dan"))
    english = language == "en"
    try:
        link = start(anne, server)
        for phone, name in ((anne, "Anne"), (bea, "Bea"), (cat, "Cat"), (dan, "Dan")):
            sit_down(phone, link, name)
        preview_solo(bea, 6)  # Bea's phone: 6 tricks, won ...
        bea.check("preview-6-won")
        preview_solo(cat, 5)  # Cat's phone: what Anne records
        preview_solo(dan, 6)  # Dan's phone: its form then tampered with (eleven tricks, no such button)
        dan.page.evaluate("document.querySelector('input[name=hombre_tricks]:checked').value = '11'")
        preview_solo(anne, 5)  # ... Anne's phone: 5 tricks, remise, recorded first
        anne.tap_and_wait('button[value="record"]')
        assert "/t/" in anne.page.url and "recorded=1" in anne.page.url

        bea.tap_and_wait('button[value="record"]')  # Bea taps Record: the two entries side by side
        bea.check("race")
        sides = bea.page.locator("table.race-sides")
        cells = [re.sub(r"\s+", " ", t).strip() for t in sides.locator("tbody tr.deal td").all_inner_texts()]
        assert len(cells) == 2 and cells[0] != cells[1], cells
        assert sides.locator("tbody tr.differs").count() >= 5  # the tricks, and each player's figure
        shade = "r => getComputedStyle(r).backgroundColor"
        unshaded = sides.locator("thead tr").evaluate(shade)
        assert sides.locator("tbody tr.deal").evaluate(shade) not in (unshaded, "rgba(0, 0, 0, 0)")  # the Deal row too
        bea_row = sides.locator("tbody tr.net", has=bea.page.locator('th:text-is("Bea")')).locator("td").all_inner_texts()
        assert bea_row[0].startswith("−") and bea_row[1].startswith("+"), bea_row  # pays into the pool / takes it
        if english:
            assert bea.heading() == "Deal 1: the phones disagree"
            heads = [re.sub(r"\s+", " ", t).strip() for t in sides.locator("thead th").all_inner_texts()]
            assert heads == ["Recorded by Anne", "This phone's entry not recorded"], heads
            assert cells == ["Bea's solo in hearts: remise", "Bea's solo in hearts: won"]
        for choice in (".race-choice a.button", '.race-choice button[value="prefill"]'):
            assert on_first_screen(bea, choice), f"{choice} is not on the first screen"

        cat.tap_and_wait('button[value="record"]')  # Cat entered what Anne recorded: no choice to make
        cat.check("same")
        assert cat.page.locator(".race-choice .button").count() == 1
        assert cat.page.locator('button[value="prefill"]').count() == 0
        if english:
            assert cat.heading() == "Anne recorded the same deal"

        dan.tap_and_wait('button[value="record"]')  # a tampered entry: a message beside the deal recorded
        dan.check("tampered")
        assert dan.page.locator("table.race-sides ul.problems li").count() == 1
        if english:
            assert dan.page.locator("table.race-sides ul.problems li").inner_text() == (
                "Tricks Hombre took: Tap one of the choices shown.")

        bea.tap_and_wait('.race-choice button[value="prefill"]')  # "Correct deal 1 with my entry"
        bea.check("correction-prefilled")
        assert re.search(r"/t/[\w-]+/audit/1/amend/solo$", bea.page.url), bea.page.url
        for name, value in (("hombre", "Bea"), ("trumps", "hearts"), ("hombre_tricks", "6"), ("matadors", "0"),
                            ("by", "Bea")):
            assert bea.page.locator(f'input[type=radio][name="{name}"][value="{value}"]').is_checked(), (name, value)
        if english:
            assert bea.heading() == "Correct deal 1"
        bea.page.locator('input[name="reason"]').fill("6 tricks: counted again")
        bea.tap_and_wait('button[value="preview"]')
        bea.tap_and_wait('button[value="save"]')
        bea.check("corrected")
        assert re.search(r"/t/[\w-]+/audit/1$", bea.page.url), bea.page.url
        if english:
            assert "Deal 1 corrected by Bea." in bea.page.locator(".flash").inner_text()
            assert bea.heading() == "Deal 1: Bea, solo, won"

        problems = anne.problems + bea.problems + cat.problems + dan.problems
        assert not problems, "\n\n".join(problems)
    finally:
        for phone in (anne, bea, cat, dan):
            phone.close()
