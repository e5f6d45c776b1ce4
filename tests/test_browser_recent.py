"""Finding a circle again on a phone (issue 30): Chromium at 390×844, in English and in French. A phone starts a
circle of five with long names, plays an evening and starts the next, and starts two tables of the same four the
same day; its home page lists the circle as one entry with its two evenings under it, each with its date, and the
two tables told apart by the hour they began; the circle's page gives its members' link with its QR code.
Screenshots go to test-artifacts/browser-recent/."""

from __future__ import annotations

import re
from typing import Any

import pytest
from helpers.browser import ARTIFACTS as BROWSER_ARTIFACTS
from helpers.browser import PHONE, Phone, fresh

pytestmark = pytest.mark.browser

ARTIFACTS = BROWSER_ARTIFACTS.parent / "browser-recent"
MEMBERS = ["Marie-Antoinette de Lorraine", "Bartholomew", "Cat", "Dan", "Éléonore"]


@pytest.fixture(scope="module")
def browser(chromium: Any) -> Any:
    fresh(ARTIFACTS)
    return chromium


class RecentPhone(Phone):
    artifacts = ARTIFACTS


class FrenchRecentPhone(RecentPhone):
    options = {"locale": "fr-FR"}


def _table_of(url: str) -> str:
    return re.sub(r"(/t/[^/]+).*", r"\1", url)


@pytest.mark.parametrize("language, words", [
    ("en", {"evening": "Evening", "circle": "circle of", "started": "started", "link": "The members' link"}),
    ("fr", {"evening": "Soirée", "circle": "cercle de", "started": "commencée le", "link": "Le lien des membres"}),
])
def test_a_circle_is_found_again_from_the_home_page(server: str, browser: Any, axe: Any, language: str,
                                                    words: dict[str, str]) -> None:
    phone = (FrenchRecentPhone if language == "fr" else RecentPhone)(browser, axe, language)
    page = phone.page
    try:
        phone.go(f"{server}/c/new")
        page.fill("#name", "Le cercle du jeudi soir" if language == "fr" else "The Thursday evening club")
        for i, name in enumerate(MEMBERS, start=1):
            page.fill(f"#member_{i}", name)
        page.fill("#deals_agreed", "4")
        phone.tap_and_wait("main button.primary")
        circle = page.url
        phone.check("circle-new")
        link = page.locator("#link ~ figure.qr").first
        assert link.locator("svg").count() == 1
        assert re.fullmatch(r"https?://[^/]+/c/[A-Za-z0-9_-]+", link.locator("figcaption a").inner_text())
        assert page.locator("h2#link").inner_text() == words["link"]
        box = link.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["viewport"]["width"]

        phone.tap_and_wait("form[action$='/next'] button.primary")
        first = _table_of(page.url)
        phone.go(f"{first}/deal/solo")
        for name, value in (("hombre", "Bartholomew"), ("trumps", "hearts"), ("hombre_tricks", "6")):
            page.locator(f'input[type=radio][name="{name}"][value="{value}"]').tap()
        phone.tap_and_wait("button[value=preview]")
        phone.tap_and_wait("button[value=record] >> nth=0")
        phone.go(circle)
        phone.tap_and_wait("form[action$='/next'] button.primary")
        second = _table_of(page.url)
        assert second != first

        alone = []
        for _ in range(2):  # the same four, twice the same day
            phone.go(f"{server}/new")
            for i, name in enumerate(["Ann", "Bea", "Cat", "Dan"], start=1):
                page.fill(f"#player_{i}", name)
            phone.tap_and_wait("main button[type=submit] >> nth=-1")
            alone.append(_table_of(page.url))

        phone.go(f"{server}/")
        phone.check("home")
        entries = page.locator("ul.recent-tables > li")
        assert entries.count() == 3  # the two tables, then the circle
        for n in (0, 1):
            told = entries.nth(n).locator(".recent-what").inner_text()
            assert re.search(r"\d\d:\d\d", told) and told.startswith(words["started"]), told
        assert entries.nth(0).locator("a.recent-link").get_attribute("href") == alone[1].removeprefix(server)
        entry = entries.nth(2)
        assert entry.locator("a.recent-circle-link").get_attribute("href") == circle.removeprefix(server)
        assert words["circle"] in entry.locator(".recent-what").first.inner_text().replace("d'", "de ")
        evenings = entry.locator("ul.recent-evenings > li")
        assert evenings.count() == 2
        assert evenings.nth(0).locator("a").inner_text().startswith(f"{words['evening']} 2")
        assert evenings.nth(1).locator("a").inner_text().startswith(f"{words['evening']} 1")
        assert evenings.nth(1).locator("a").get_attribute("href") == first.removeprefix(server)
        for n in (0, 1):
            assert evenings.nth(n).locator(".recent-what").inner_text().startswith(words["started"])
        # every entry's Forget button within the phone, beside its entry
        for n in range(3):
            button = entries.nth(n).locator("form.forget > button").bounding_box()
            assert button is not None and button["x"] + button["width"] <= PHONE["viewport"]["width"]

        phone.tap_and_wait("a.recent-circle-link")
        assert page.url == circle
        phone.go(f"{server}/")
        phone.tap_and_wait("ul.recent-tables > li.recent-circle form.forget > button")
        phone.check("home-circle-forgotten")
        assert page.locator("ul.recent-tables > li").count() == 2 and page.locator("li.recent-circle").count() == 0
        assert not phone.problems, "\n".join(phone.problems)
    finally:
        phone.close()
