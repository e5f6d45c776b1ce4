"""Refusals and the smaller points of issue 12 in a real browser: Debian's Chromium as a 390×844 phone.

A refused form's page opens on its error summary (inside the first 844 px, as loaded after the
submit, with no JavaScript); each of its links leads to its field; the first dealer is tapped by name;
the money fields line up; who holds the phone sits apart from the entry. Every page is checked as
tests/test_browser.py checks its pages (labels, axe-core, nothing wider than the phone) and its
screenshot is saved under test-artifacts/browser/ as refusals-NN-<step>.png.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from helpers.browser import EXAMPLE, LIVE_REFRESH_SECONDS, PHONE, Phone

pytestmark = pytest.mark.browser

HEIGHT = PHONE["viewport"]["height"]


@pytest.fixture(scope="module")
def browser(chromium: Any) -> Any:
    """The run's Chromium (conftest's chromium fixture), without clearing the screenshots test_browser saved."""
    return chromium


@pytest.fixture
def phone(browser: Any, axe: Any) -> Iterator[Phone]:
    one = Phone(browser, axe, "refusals")
    yield one
    one.close()


def start(phone: Phone, server: str, dealer: str = "Ann") -> str:
    """A table of Ann, Bea, Cat and Dan started by taps, ``dealer`` tapped by name; its players' link."""
    phone.go(server + "/new")
    for seat, name in enumerate(["Ann", "Bea", "Cat", "Dan"], start=1):
        phone.page.locator(f'input[name="player_{seat}"]').fill(name)
    phone.page.locator('input[name="deals_agreed"]').fill("8")
    phone.tap('input[name="first_dealer"][value="by-name"]')
    phone.tap_and_wait('button[type="submit"]')
    phone.tap_and_wait(f'button[name="first_dealer"]:text-is("{dealer}")')
    assert re.search(r"/t/[\w-]+/join$", phone.page.url), phone.page.url
    return phone.page.url.removesuffix("/join")


def summary_in_view(phone: Phone, title: str, fields: list[str], step: str) -> None:
    """The page opens on the summary; it names what was refused, and each link brings its field into view."""
    summary = phone.page.locator("#errors")
    box = summary.bounding_box()
    assert box is not None, f"{step}: no error summary"
    assert 0 <= box["y"] and box["y"] + box["height"] <= HEIGHT, f"{step}: the summary is at {box}, not on the first screen"
    assert phone.page.evaluate("scrollY") == 0
    assert phone.page.locator("#errors h2").inner_text().startswith(title)
    phone.check(step)
    links = summary.locator("a")
    assert [links.nth(i).get_attribute("href") for i in range(links.count())] == [f"#{f}" for f in fields]
    last = fields[-1]
    links.nth(len(fields) - 1).tap()
    phone.page.wait_for_function(f"location.hash === '#{last}'")
    target = phone.page.locator(f"#{last}").bounding_box()
    assert target is not None and 0 <= target["y"] < HEIGHT, f"{step}: #{last} is not brought into view: {target}"


def test_every_refused_form_opens_on_its_summary(server: str, phone: Phone) -> None:
    phone.go(server + "/new")
    for seat, name in ((1, "Ann"), (3, "Cat")):
        phone.page.locator(f'input[name="player_{seat}"]').fill(name)
    phone.page.locator('input[name="deals_agreed"]').fill("7")
    phone.page.locator('input[name="chip_value"]').fill("0.005")
    phone.tap_and_wait('button[type="submit"]')
    summary_in_view(phone, "The table was not started: 4 things to fix",
                    ["player_2", "player_4", "deals_agreed", "chip_value"], "new-refused")

    link = start(phone, server)
    phone.go(link + "/settings")
    phone.page.locator('input[name="deals_agreed"]').fill("9")
    phone.tap_and_wait('button[type="submit"]')
    summary_in_view(phone, "The house rules were not saved: 1 thing to fix", ["deals_agreed"], "settings-refused")

    phone.go(link)
    phone.tap_and_wait('nav.contracts a[href$="/deal/solo"]')
    phone.tap('input[name="hombre_tricks"][value="10"]')  # no trumps tapped
    phone.tap_and_wait('button[value="preview"]')
    summary_in_view(phone, "This deal was not recorded: 1 thing to fix", ["trumps"], "deal-refused")

    phone.go(server + "/import")
    phone.tap_and_wait('button[type="submit"]')
    summary_in_view(phone, "Nothing was imported: 1 thing to fix", ["evening"], "import-refused")
    assert not phone.problems, "\n\n".join(phone.problems)


def test_a_refused_correction_opens_on_its_summary(server: str, phone: Phone) -> None:
    phone.go(server + "/import")
    phone.page.locator('input[type="file"]').set_input_files(str(EXAMPLE))
    phone.tap_and_wait('button[type="submit"]')
    token = re.search(r"/t/([\w-]+)", phone.page.url)
    assert token, phone.page.url
    phone.go(f"{server}/t/{token.group(1)}/audit/2/amend/solo")
    assert phone.page.locator('input[name="by"]:checked').count() == 0  # this phone is not named: who corrects is unsaid
    phone.tap('input[name="trumps"][value="hearts"]')
    phone.tap('input[name="hombre_tricks"][value="6"]')
    phone.tap_and_wait('button[value="preview"]')
    summary_in_view(phone, "This correction was not saved: 1 thing to fix", ["by"], "amend-refused")
    assert not phone.problems, "\n\n".join(phone.problems)


def test_the_first_dealer_by_name_and_the_phone_holder_apart(server: str, phone: Phone) -> None:
    phone.go(server + "/new")
    phone.check("new")
    chip = phone.page.locator("#chip_value").bounding_box()
    currency = phone.page.locator("#currency").bounding_box()
    assert chip and currency and chip["y"] == currency["y"] and chip["height"] == currency["height"]
    for seat, name in enumerate(["Ann", "Bea", "Cat", "Dan"], start=1):
        phone.page.locator(f'input[name="player_{seat}"]').fill(name)
    phone.page.locator('input[name="deals_agreed"]').fill("8")
    phone.tap('input[name="first_dealer"][value="by-name"]')
    phone.tap_and_wait('button[type="submit"]')
    assert phone.heading() == "Who deals first?"
    names = phone.page.locator('button[name="first_dealer"]')
    assert names.all_inner_texts() == ["Ann", "Bea", "Cat", "Dan"]
    for i in range(4):
        box = names.nth(i).bounding_box()
        assert box is not None and box["height"] >= 48 and box["y"] + box["height"] <= HEIGHT
    phone.check("dealer-step")
    phone.tap_and_wait('button[name="first_dealer"]:text-is("Cat")')
    link = phone.page.url.removesuffix("/join")
    phone.go(link)
    assert phone.page.locator("dl.state div", has_text="Dealer").locator("dd").inner_text() == "Cat"
    assert phone.page.locator("dl.state div", has_text="Eldest").locator("dd").inner_text() == "Dan"
    contracts = phone.page.locator("nav.contracts").bounding_box()
    holder = phone.page.locator("section.holder").bounding_box()
    standing = phone.page.locator("table.standing").bounding_box()
    assert contracts and holder and standing and contracts["y"] < standing["y"] < holder["y"]
    phone.check("play-holder")
    phone.tap_and_wait('form.me button[value="Bea"]')
    assert phone.page.locator("form.me strong").inner_text() == "Bea"
    phone.check("play-held")

    phone.go(link + "/settings")
    chip = phone.page.locator("#chip_value").bounding_box()
    currency = phone.page.locator("#currency").bounding_box()
    assert chip and currency and chip["y"] == currency["y"] and chip["height"] == currency["height"]
    phone.check("settings")
    assert not phone.problems, "\n\n".join(phone.problems)


def test_the_watch_only_page_follows_live_and_the_favicon_answers(server: str, phone: Phone) -> None:
    link = start(phone, server, dealer="Dan")
    watch = phone.page.locator("figure.qr figcaption a").nth(1).get_attribute("href")
    assert watch and "/s/" in watch
    phone.go(watch)
    assert phone.page.locator('head meta[http-equiv="refresh"]').count() == 0
    phone.check("spectator")
    phone.tap_and_wait('a:text-is("Follow the table live")')
    assert phone.page.locator('head meta[http-equiv="refresh"]').get_attribute("content") == str(LIVE_REFRESH_SECONDS)
    phone.check("spectator-live")
    # axe-core's meta-refresh rule cannot see that the reader asked for it (WCAG 2.2.1 allows a timing the user
    # turns on and off); every other check of the page stands
    problems = [p for p in phone.problems if "spectator-live" in p]
    assert len(problems) == 1 and "meta-refresh" in problems[0] and "Found 1 accessibility violations" in problems[0]
    phone.problems.remove(problems[0])
    phone.page.wait_for_event("load", timeout=10_000)  # it reloads itself, with no JavaScript
    phone.tap_and_wait('a:text-is("Stop following")')
    assert phone.page.locator('head meta[http-equiv="refresh"]').count() == 0
    response = phone.page.goto(server + "/favicon.ico")
    assert response is not None and response.status == 200
    assert response.headers["content-type"] == "image/vnd.microsoft.icon"
    phone.go(link)
    assert not phone.problems, "\n\n".join(phone.problems)
