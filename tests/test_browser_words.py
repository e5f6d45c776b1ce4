"""Issue 25's words and pages in a real browser (Debian's Chromium as a 390×844 phone, in English and in French):
Start a table lists only the house rules of the profile checked (CSS, no JavaScript), and starts the table as
before; a circle's page opens on Start the next evening and gives its watch-only link with a QR code. Every page is
checked as tests/test_browser.py checks its pages (labels, axe-core, nothing wider than the phone); screenshots go
to test-artifacts/browser-words/."""

from __future__ import annotations

import re
from typing import Any

import pytest
from helpers.browser import ARTIFACTS as BROWSER_ARTIFACTS
from helpers.browser import PHONE, Phone, fresh

from scorer.core import PROFILES

pytestmark = pytest.mark.browser

ARTIFACTS = BROWSER_ARTIFACTS.parent / "browser-words"


@pytest.fixture(scope="module")
def browser(chromium: Any) -> Any:
    fresh(ARTIFACTS)
    return chromium


class WordsPhone(Phone):
    artifacts = ARTIFACTS


class FrenchWordsPhone(WordsPhone):
    options = {"locale": "fr-FR", "extra_http_headers": {"Accept-Language": "fr-FR,fr;q=0.9"}}


PHONES = {"en": WordsPhone, "fr": FrenchWordsPhone}


@pytest.mark.parametrize("language", PHONES)
def test_start_a_table_lists_only_the_rules_of_the_profile_checked(server: str, browser: Any, axe: Any,
                                                                   language: str) -> None:
    phone = PHONES[language](browser, axe, f"new-{language}")
    page = phone.page
    phone.go(f"{server}/new")
    page.locator("details.rules summary").tap()
    for profile in ("penguin_points", "britannica", "mediateur", "quadrille"):
        radio = page.locator(f'input[type=radio][name="profile"][value="{profile}"]')
        radio.tap()
        assert radio.is_checked()
        shown = page.eval_on_selector_all(".rule-field", "els => els.filter(e => e.offsetParent !== null)"
                                                         ".map(e => e.querySelector('select').name)")
        assert shown == [f"rule_{r.name}" for r in PROFILES[profile].applicable_rules()], profile
    page.locator('input[type=radio][name="profile"][value="penguin_points"]').tap()
    phone.check("point-score-rules")  # 8 rules, not 38
    for i, name in enumerate(["Anne", "Bertrand", "Éléonore", "Denis"], start=1):
        page.fill(f"#player_{i}", name)
    page.select_option("#rule_own_king", "forbidden")
    phone.tap_and_wait("main button[type=submit] >> nth=-1")
    assert re.search(r"/t/[^/]+/join$", page.url), page.url  # the table is started, as before
    phone.go(page.url.replace("/join", "/settings"))
    phone.check("settings")
    assert phone.problems == [], "\n".join(phone.problems)
    phone.close()


@pytest.mark.parametrize("language", PHONES)
def test_a_circle_s_page_opens_on_the_next_evening_and_shares_its_watch_link(server: str, browser: Any, axe: Any,
                                                                            language: str) -> None:
    phone = PHONES[language](browser, axe, f"circle-{language}")
    page = phone.page
    phone.go(f"{server}/c/new")
    page.fill("#name", "Amis du jeudi")
    for i, name in enumerate(["Anne", "Bertrand", "Éléonore", "Denis", "Hugues"], start=1):
        page.fill(f"#member_{i}", name)
    page.fill("#deals_agreed", "4")
    phone.check("new-circle")
    phone.tap_and_wait("button.primary")
    phone.check("circle")
    first = page.locator("main h2").first
    assert first.inner_text() == ("Start the next evening" if language == "en" else "Commencer la soirée suivante")
    box = first.bounding_box()
    assert box is not None and box["y"] < PHONE["viewport"]["height"]  # on the first screen
    # two codes (issue 30, point 4): the members' link first, then the watch-only link
    qr = page.locator("figure.qr svg")
    assert qr.count() == 2 and qr.nth(0).is_visible() and qr.nth(1).is_visible()
    members, link = page.locator("figure.qr figcaption a").evaluate_all("as => as.map(a => a.getAttribute('href'))")
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/c/[A-Za-z0-9_-]+", members), members
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/cs/[A-Za-z0-9_-]+", link), link
    phone.go(link)
    phone.check("watch-only")
    assert page.locator("figure.qr").count() == 0
    assert phone.problems == [], "\n".join(phone.problems)
    phone.close()
