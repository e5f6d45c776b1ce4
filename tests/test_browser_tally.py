"""The pages a player signs or reads, on a phone (issue 25, point 3), in a real browser (Playwright on Debian's
Chromium, 390×844): the tally is the app's own page (its bar, its link colour, its chart's labels at least the
size of its text, the house rules a list of titles linked to the rules page), it marks the corrected deal with
its version in force, and it words a vole undertaken and lost as the game won; and a long name is never broken
inside a word on the tally, the ledger, the table's page, a deal's audit or "What this changes", nor is anything
wider than the phone. Each page is checked by axe-core as in tests/test_browser.py.

Screenshots are saved under test-artifacts/browser-tally/ (SCORER_ARTIFACTS moves it)."""

from __future__ import annotations

from typing import Any

import pytest
from helpers.browser import ARTIFACTS as BROWSER_ARTIFACTS
from helpers.browser import Phone, fresh, import_table
from helpers.deals import deal

pytestmark = pytest.mark.browser

ARTIFACTS = BROWSER_ARTIFACTS.parent / "browser-tally"

NAMES = ["Jean-Baptiste", "Marguerite", "Bertrand", "Éléonore-Joséphine"]
"""Long names, two of them of two words joined by a hyphen: the names a phone once broke ("Jean-/Baptist/e")."""
J, M, B, E = NAMES
DEALS = [
    deal(J, M, "solo", "diamonds", 6),
    deal(M, B, "solo", "diamonds", 6),
    deal(B, E, "solo", "diamonds", 6),
    deal(E, J, "solo", "hearts", 8, premiers=True, vole="undertaken"),  # the game won, the vole failed
    deal(J, M, "alliance", "spades", 3, called="KC", ally=B, ally_tricks=3),
    deal(M, B, "solo", "diamonds", 0),
    deal(B, E, "solo", "diamonds", 6),
    deal(E, J, "solo", "diamonds", 6),
]


@pytest.fixture(scope="module")
def browser(chromium: Any) -> Any:
    fresh(ARTIFACTS)
    return chromium


class TallyPhone(Phone):
    """A phone whose screenshots are kept apart, in English or (``french``) in French."""

    artifacts = ARTIFACTS


class FrenchTallyPhone(TallyPhone):
    options = {"locale": "fr-FR"}


# Where a name is broken inside a word: for each occurrence of a name in the page's visible text, the line each of
# its characters is drawn on; a new line may start only after a space or a hyphen.
BROKEN = """(names) => {
  const found = [], walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest('script, style, option') || !parent.getClientRects().length) continue;
    for (const name of names) {
      for (let at = node.data.indexOf(name); at >= 0; at = node.data.indexOf(name, at + 1)) {
        let line = null;
        for (let i = 0; i < name.length; i++) {
          const range = document.createRange();
          range.setStart(node, at + i); range.setEnd(node, at + i + 1);
          const box = [...range.getClientRects()].find(r => r.width > 0);
          if (!box) continue;
          if (line !== null && Math.abs(box.top - line) > 4 && !' -'.includes(name[i - 1]))
            found.push(`"${name.slice(0, i)}/${name.slice(i)}" in <${parent.tagName.toLowerCase()} class="${parent.className}">`);
          line = box.top;
        }
      }
    }
  }
  return found;
}"""

# The chart's labels as drawn: each text's font size times the chart's scale, in CSS pixels, and the body's.
CHART_TEXT = """() => {
  const svg = document.querySelector('svg.chart'), scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  return {body: parseFloat(getComputedStyle(document.body).fontSize),
          labels: [...svg.querySelectorAll('text')].map(t => parseFloat(t.getAttribute('font-size')) * scale)};
}"""

WORDS = {
    "en": {"corrected": "corrected: version 2 of 2", "vole": "won, the vole failed", "nav": ["Deal", "Ledger", "Share", "Tally"]},
    "fr": {"corrected": "corrigé\u00a0: version 2 sur 2", "vole": "gagné, la vole manquée",
           "nav": ["Coup", "Comptes", "Partager", "Relevé"]},
}


def names_whole(phone: Phone, step: str) -> None:
    """The page checked (screenshot, labels, axe, its width), and no name broken inside a word."""
    phone.check(step)
    for broken in phone.page.evaluate(BROKEN, NAMES):
        phone.problems.append(f"{step}: a name broken inside a word: {broken}")


def correct_deal_2(phone: Phone, table: str) -> None:
    """Bertrand took five tricks in deal 2, not six: corrected by Éléonore-Joséphine, through the form, after its
    preview ("What this changes", checked on the way)."""
    phone.go(f"{table}/audit/2/amend/solo")
    phone.page.locator("input[name=hombre_tricks][value='5']").check(force=True)
    phone.page.locator(f"input[name=by][value='{E}']").check(force=True)
    with phone.page.expect_navigation():
        phone.page.locator('button[name="action"][value="preview"]').click()
    assert phone.page.locator("#diff-title").count() == 1
    names_whole(phone, "changes")
    with phone.page.expect_navigation():
        phone.page.locator('button[name="action"][value="save"]').click()


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_tally_is_the_app_s_page_and_no_name_is_broken(server: str, browser: Any, axe: Any, language: str) -> None:
    phone = (FrenchTallyPhone if language == "fr" else TallyPhone)(browser, axe, f"tally-{language}")
    words = WORDS[language]
    try:
        token = import_table(phone, server, "quadrille", DEALS, NAMES)
        table = f"{server}/t/{token}"
        correct_deal_2(phone, table)
        phone.go(f"{table}/tally")
        names_whole(phone, "tally")
        page = phone.page
        # the app's own page: its bar and the table's pages, its link colour (not the browser's blue)
        assert page.locator("header.bar nav a").all_inner_texts()[:4] == words["nav"]
        assert page.locator("main a[href$='ledger']").first.evaluate("a => getComputedStyle(a).color") == "rgb(122, 31, 43)"
        # the chart's labels at least the size of the page's text; a key naming each line
        drawn = page.evaluate(CHART_TEXT)
        assert drawn["labels"] and min(drawn["labels"]) >= drawn["body"], drawn
        assert page.locator("ul.chart-key li").all_inner_texts() == NAMES
        # the house rules a list, each rule's title a link to its place on the rules page
        rules = page.locator("ul.rule-values li")
        assert rules.count() >= 10 and page.locator("ul.rule-values li > a[href*='/rules#']").count() == rules.count()
        # the corrected deal marked with its version in force; the vole undertaken and lost is the game won
        assert page.locator("tr.what.corrected").all_inner_texts() == [page.locator("tr.what").nth(1).inner_text()]
        assert words["corrected"] in page.locator("tr.what.corrected").inner_text()
        assert page.locator("tr.what").nth(3).inner_text().endswith(words["vole"])
        phone.go(f"{table}/ledger")
        names_whole(phone, "ledger")
        assert page.locator("tr.what").nth(3).inner_text().endswith(words["vole"])
        for step, url in (("table", ""), ("audit", "/audit/2")):
            phone.go(table + url)
            names_whole(phone, step)
        assert not phone.problems, "\n".join(phone.problems)
    finally:
        phone.close()
