"""End to end in a real browser: Playwright drives Debian's Chromium as a phone (390×844, touch).

The app is served by waitress (the production server) on loopback from a temporary
instance folder. Two browser contexts are two phones at the table. Every deal is entered
with taps only, and every page visited is checked for unlabelled form controls and by
axe-core (bundled in the axe-playwright-python package; nothing is fetched).

Screenshots of every step are saved under test-artifacts/browser/ (SCORER_ARTIFACTS moves
it). Without Chromium or Playwright these tests are skipped on a developer's machine; under
CI (the CI environment variable set) a skipped browser test is a failure (see conftest.py).
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from helpers.browser import ARTIFACTS, EXAMPLE, PHONE, Phone, fresh

from scorer.core import Replay, loads, replay
from scorer.web.forms import OWN_KING

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def browser(chromium: Any) -> Any:
    fresh(ARTIFACTS)
    return chromium


def tap_deal(phone: Phone, deal: dict[str, Any], number: int) -> None:
    """Enter one quadrille-evening/1 deal on the phone by taps, preview it, then record it."""
    page = phone.page
    phone.tap_and_wait(f'nav.contracts a[href$="/deal/{deal["contract"]}"]')
    assert phone.heading().startswith(f"Deal {number}:")
    own_king = deal["ally"] is not None and deal["ally"] == deal["hombre"]  # a secret solo: its own choice, tapped
    taps = [("hombre", deal["hombre"]), ("trumps", deal["trumps"]), ("called", deal["called"]),
            ("ally", OWN_KING if own_king else deal["ally"]),
            ("hombre_tricks", deal["tricks"]["hombre"]), ("ally_tricks", deal["tricks"]["ally"]),
            ("matadors", deal["matadors"])]
    if deal["vole"] != "none":
        taps.append(("vole", deal["vole"]))
    for name, value in taps:
        if value is None:
            continue
        radio = page.locator(f'input[type=radio][name="{name}"][value="{value}"]')
        if radio.count():
            radio.tap()
            assert radio.is_checked(), f"deal {number}: tapping {name}={value} did not choose it"
        else:  # the form does not ask (an ally taken with the King in a solo, say): it must be a default
            assert page.locator(f'[name="{name}"]').count() == 0, f"deal {number}: no button for {name}={value}"
    premiers = page.locator('input[name="premiers"]')
    if premiers.count() and premiers.is_checked() != deal["premiers"]:
        premiers.tap()
    if number == 1:
        phone.check("deal-form")
    phone.tap_and_wait('button[value="preview"]')
    errors = page.locator(".error").all_inner_texts()
    assert not errors, f"deal {number} refused: {errors}"
    assert page.locator("section.preview").is_visible()
    if number == 1:
        phone.check("preview")
    phone.tap_and_wait('button[value="record"]')


def balances_shown(phone: Phone) -> list[str]:
    return [cell.replace("−", "-").replace("+", "") for cell in phone.page.locator("table.standing td").all_inner_texts()]


def expected(deals: list[dict[str, Any]]) -> Replay:
    evening = loads(json.dumps({**json.loads(EXAMPLE.read_text()), "deals": deals}))
    return replay(evening)


def test_an_evening_by_taps_on_two_phones(server: str, browser: Any, axe: Any) -> None:
    example = json.loads(EXAMPLE.read_text())
    players, deals = example["players"], example["deals"]
    ann, cat = Phone(browser, axe, "ann"), Phone(browser, axe, "cat")
    try:
        # Ann starts the table: names are typed, everything else is tapped.
        ann.go(server + "/")
        ann.check("home")
        ann.tap_and_wait('a[href="/new"]')
        for seat, player in enumerate(players, start=1):
            ann.page.locator(f'input[name="player_{seat}"]').fill(player)
        ann.page.locator('input[name="deals_agreed"]').fill(str(example["deals_agreed"]))
        ann.check("new-table")
        ann.tap_and_wait('button[type="submit"]')

        # The new table opens on its share page; Cat opens the players' link on her own phone.
        assert re.search(r"/t/[\w-]+/join$", ann.page.url), ann.page.url
        ann.check("share")
        link = ann.page.locator("figure.qr figcaption a").first.get_attribute("href")
        assert link and link == ann.page.url.removesuffix("/join")
        cat.go(link)
        assert cat.heading() == "Deal 1: what did Hombre play?"
        ann.tap_and_wait('a.button.primary[href$="' + link.removeprefix(server) + '"]')
        ann.check("play-first")

        for phone, player in ((ann, "Ann"), (cat, "Cat")):
            phone.tap_and_wait(f'form.me button[value="{player}"]')
            assert phone.page.locator("form.me strong").inner_text() == player

        # Eight deals, entered by taps, the two phones taking turns.
        for number, deal in enumerate(deals, start=1):
            phone = ann if number % 2 else cat
            if number > 1:
                phone.go(link)  # the other phone recorded the last deal: this one refreshes
            tap_deal(phone, deal, number)
            if number == 1:
                phone.check("after-deal-1")
            want = expected(deals[:number]).final.balances
            assert balances_shown(phone) == [str(b) for b in want], f"after deal {number}"

        cat.check("evening-over")
        assert cat.heading() == "The evening is over"
        ann.go(link)
        assert balances_shown(ann) == [str(b) for b in expected(deals).final.balances]

        # Ann undoes deal 8 after confirming; both phones then stand at deal 8 again.
        ann.tap_and_wait('a[href$="/undo"]')
        ann.check("undo")
        ann.tap_and_wait('button.danger')
        assert ann.heading() == "Deal 8: what did Hombre play?"
        assert balances_shown(ann) == [str(b) for b in expected(deals[:7]).final.balances]
        cat.go(link)
        assert cat.heading() == "Deal 8: what did Hombre play?"

        # The ledger, and deal 3's audit page opened from it.
        ann.tap_and_wait('header nav a[href$="/ledger"]')
        ann.check("ledger")
        assert "7 of 8 deals played" in ann.page.locator("main p").first.inner_text()
        ann.tap_and_wait('a[aria-label="Deal 3: audit"]')
        ann.check("audit-3")
        third = expected(deals[:3]).settlements[2]
        assert ann.heading() == f"Deal 3: {third.deal.hombre}, {third.deal.contract.label}, {third.result.label}"
        shown = [re.sub(r"\s+", " ", item).strip() for item in ann.page.locator("ol.audit > li").all_inner_texts()]
        assert len(shown) == len(third.transfers)
        for line, transfer in zip(shown, third.transfers):
            assert line.startswith(transfer.sentence), (line, transfer.sentence)

        problems = ann.problems + cat.problems
        assert not problems, "\n\n".join(problems)
    finally:
        ann.close()
        cat.close()


def test_every_page_has_labels_and_passes_axe(server: str, browser: Any, axe: Any) -> None:
    """The pages the evening above does not reach, on an imported evening."""
    phone = Phone(browser, axe, "pages")
    try:
        phone.go(server + "/import")
        phone.check("import")
        phone.page.locator('input[type="file"]').set_input_files(str(EXAMPLE))
        phone.tap_and_wait('button[type="submit"]')
        token = re.search(r"/t/([\w-]+)", phone.page.url)
        assert token, phone.page.url
        table = f"{server}/t/{token.group(1)}"
        for step, url in [("rules", server + "/rules"), ("settings", table + "/settings"),
                          ("tally", table + "/tally"),
                          ("verify", table + "/verify"), ("audit-6", table + "/audit/6"),
                          ("amend", table + "/audit/2/amend/alliance"), ("new-empty", server + "/new")]:
            phone.go(url)
            phone.check(step)
        # A refused form: the errors shown beside their fields are still labelled and pass axe.
        phone.tap_and_wait('button[type="submit"]')
        assert phone.page.locator(".error").count() > 0
        phone.check("new-refused")
        spectator = phone.page.context.new_page()
        phone.page = spectator
        phone.go(table + "/join")
        watch = phone.page.locator("figure.qr figcaption a").nth(1).get_attribute("href")
        assert watch and "/s/" in watch
        phone.go(watch)
        phone.check("spectator")
        assert not phone.problems, "\n\n".join(phone.problems)
    finally:
        phone.close()


def test_the_preview_of_a_vole_undertaken_fits_the_first_screen(server: str, browser: Any, axe: Any) -> None:
    """Issue 12, point 1: the result, each player's net and the Record button on the first 844 px of the phone."""
    phone = Phone(browser, axe, "glance")
    try:
        phone.go(server + "/new")
        for seat, player in enumerate(("Ann", "Bea", "Cat", "Dan"), start=1):
            phone.page.locator(f'input[name="player_{seat}"]').fill(player)
        phone.page.locator('input[name="deals_agreed"]').fill("8")
        phone.page.locator('input[name="chip_value"]').fill("0.10")
        phone.tap_and_wait('button[type="submit"]')
        token = re.search(r"/t/([\w-]+)", phone.page.url)
        assert token, (phone.page.url, phone.page.locator(".error").all_inner_texts())
        phone.go(f"{server}/t/{token.group(1)}/deal/solo")
        page = phone.page
        for name, value in (("hombre", "Bea"), ("trumps", "hearts"), ("hombre_tricks", "10"), ("matadors", "3"),
                            ("vole", "undertaken")):
            page.locator(f'input[type=radio][name="{name}"][value="{value}"]').tap()
        if not page.locator('input[name="premiers"]').is_checked():
            page.locator('input[name="premiers"]').tap()
        phone.tap_and_wait('button[value="preview"]')
        assert not page.locator(".error").all_inner_texts()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "glance-preview-first-screen.png"))  # the first screen, as the phone shows it
        height = PHONE["viewport"]["height"]
        for what, selector in (("the headline", "#preview-title"), ("the net line", "#nets"),
                               ("the Record button", 'button[value="record"]')):
            box = page.locator(selector).bounding_box()
            assert box is not None, what
            assert box["y"] >= 0 and box["y"] + box["height"] <= height, f"{what} ends at {box['y'] + box['height']}px"
        assert phone.heading() == "Deal 1: Bea's solo in hearts: won, with premiers and the vole"
        nets = re.sub(r"\s+", " ", page.locator("#nets").inner_text()).strip()
        assert nets.endswith("Ann −12 · Bea +36 · Cat −12 · Dan −12 · pool 0, vole pool 0"), nets
        groups = page.locator("ul.groups > li").all_inner_texts()
        assert any(g.startswith("Ann, Cat and Dan each pay Bea 8: solo 4, matadors 1, premiers 1, vole 2") for g in groups)
        phone.check("preview-vole-undertaken")  # the whole page: labels, axe-core, nothing wider than the phone
        phone.tap_and_wait('button[value="record"]')  # the button outside the form records it (form attribute)
        assert "Deal 1 recorded" in page.locator(".flash").first.inner_text()
        assert not phone.problems, "\n\n".join(phone.problems)
    finally:
        phone.close()
