"""Every page right on a phone, measured in a real browser (Playwright on Debian's Chromium, 390×844): the undo
page, "What this changes", the tally, the audit page, the ledger and the home page's recent tables, for every
contract of every profile. No element is wider than the viewport, no figure is cut with an ellipsis; axe-core
and the labels are checked as in tests/test_browser.py, with the same server, axe and phone
(tests/conftest.py, tests/helpers/browser.py).

Screenshots are saved under test-artifacts/browser-pages/ (SCORER_ARTIFACTS moves it)."""

from __future__ import annotations

from typing import Any

import pytest
from helpers.browser import ARTIFACTS as BROWSER_ARTIFACTS
from helpers.browser import LONG, Phone, fresh, import_table, rename
from helpers.deals import evening_deals
from helpers.web import form_data

from scorer.core import PROFILES

pytestmark = pytest.mark.browser

ARTIFACTS = BROWSER_ARTIFACTS.parent / "browser-pages"

# Elements wider than the viewport (or starting left of it), and cells whose text is cut (an ellipsis or hidden
# overflow): visually hidden elements (1 px, clipped) are left out, and so is a player's name in a column head cut
# at a word too long for its column, the whole name in its title (tests/test_browser_tally.py).
TOO_WIDE = """() => {
  const width = document.documentElement.clientWidth, found = [];
  for (const el of document.querySelectorAll('body *')) {
    const box = el.getBoundingClientRect(), style = getComputedStyle(el);
    if (box.width <= 1 || style.position === 'absolute' && style.clip !== 'auto') continue;
    if (box.right > width + 0.5 || box.left < -0.5) found.push(`${el.tagName.toLowerCase()}.${el.className}: ${Math.round(box.left)}..${Math.round(box.right)} "${el.textContent.trim().slice(0, 40)}"`);
    const name = el.classList.contains('name') && el.title === el.textContent.trim();  // a name cut with its title (issue 25)
    if (['TD', 'TH'].includes(el.tagName) && !name && el.scrollWidth > el.clientWidth + 1)
      found.push(`cut ${el.tagName.toLowerCase()}: "${el.textContent.trim().slice(0, 40)}"`);
  }
  return found;
}"""


@pytest.fixture(scope="module")
def browser(chromium: Any) -> Any:
    fresh(ARTIFACTS)
    return chromium


class PagePhone(Phone):
    """A phone that also measures each page it checks, and keeps its screenshots apart."""

    def check(self, step: str) -> None:
        self.shots += 1
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(ARTIFACTS / f"{self.name}-{self.shots:02d}-{step}.png"), full_page=True,
                             scale="css")
        where = f"{step} ({self.page.url})"
        for problem in self.page.evaluate(TOO_WIDE):
            self.problems.append(f"{where}: {problem}")
        results = self.axe.run(self.page)
        if results.violations_count:
            self.problems.append(f"{where}: {results.generate_report()}")


FILL = """(values) => {
  const form = document.querySelector('button[name=action][value=preview]').form;
  for (const [name, value] of Object.entries(values)) {
    const boxes = [...form.querySelectorAll(`[name="${name}"]`)];
    const radio = boxes.find(b => b.type === 'radio' && b.value === value);
    if (radio) { boxes.forEach(b => b.checked = false); radio.checked = true; continue; }
    const other = boxes.find(b => b.type !== 'radio');
    if (other && other.type === 'checkbox') { other.checked = true; continue; }
    if (other) { other.value = value; continue; }
    const extra = document.createElement('input');
    extra.type = 'hidden'; extra.name = name; extra.value = value; form.appendChild(extra);
  }
}"""


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_every_page_fits_the_phone_for_every_contract(server: str, browser: Any, axe: Any, profile: str) -> None:
    phone = PagePhone(browser, axe, profile)
    try:
        deals = rename(evening_deals(profile))
        token = import_table(phone, server, profile, deals)
        table = f"{server}/t/{token}"
        for step, url in (("tally", "/tally"), ("ledger", "/ledger"), ("audit", "/audit/1")):
            phone.go(table + url)
            phone.check(step)
        # "What this changes": the last deal corrected into every other contract of the profile
        last = len(deals)
        for target in deals[:-1]:
            contract = str(target["contract"])
            phone.go(f"{table}/audit/{last}/amend/{contract}")
            # the correction's inputs set as the taps would set them (tests/test_browser.py taps a whole evening)
            phone.page.evaluate(FILL, {**form_data(target), "by": LONG[1]})
            with phone.page.expect_navigation():
                phone.page.locator('button[name="action"][value="preview"]').click()
            assert phone.page.locator("#diff-title").count() == 1, phone.page.content()[:2000]
            phone.check(f"changes-{contract}")
        # the undo page, for each deal from the last
        for number in range(last, 0, -1):
            phone.go(f"{table}/undo")
            told = phone.page.locator(".deal-told").inner_text()
            assert " in :" not in told and "None" not in told
            phone.check(f"undo-{number}-{deals[number - 1]['contract']}")
            with phone.page.expect_navigation():
                phone.page.locator("button.danger").click()
        phone.go(f"{server}/")
        assert phone.page.locator(".recent-tables li").count() >= 1
        phone.check("home-recent")
        assert not phone.problems, "\n".join(phone.problems)
    finally:
        phone.close()
