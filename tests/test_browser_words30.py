"""Issue 30's pages in a real browser (Debian's Chromium as a 390×844 phone, in English and in French): the red bar
on one line on every table page; the players' columns of the ledger and the tally shared by their names, none cut
when a column has room; the tally's house rules folded under one line. Screenshots go to
test-artifacts/browser-words30/."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers.browser import ARTIFACTS as BROWSER_ARTIFACTS
from helpers.browser import Phone, fresh, import_table, rename

EXAMPLE = json.loads((Path(__file__).resolve().parent.parent / "examples" / "evening.json").read_text())


pytestmark = pytest.mark.browser

ARTIFACTS = BROWSER_ARTIFACTS.parent / "browser-words30"
NAMES = ["Jo", "Marie-Antoinette de Lorraine", "Bartholomew", "Dan"]
CUT = "els => els.filter(e => e.scrollWidth > e.clientWidth).map(e => e.textContent)"


@pytest.fixture(scope="module")
def browser(chromium: Any) -> Any:
    fresh(ARTIFACTS)
    return chromium


class Words30Phone(Phone):
    artifacts = ARTIFACTS


class FrenchWords30Phone(Words30Phone):
    options = {"locale": "fr-FR", "extra_http_headers": {"Accept-Language": "fr-FR,fr;q=0.9"}}


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_bar_is_one_line_and_no_name_is_cut(server: str, browser: Any, axe: Any, language: str) -> None:
    phone = (FrenchWords30Phone if language == "fr" else Words30Phone)(browser, axe, f"words30-{language}")
    page = phone.page
    try:
        token = import_table(phone, server, "quadrille", rename(EXAMPLE["deals"], NAMES), NAMES)
        for step, path in (("play", ""), ("ledger", "/ledger"), ("tally", "/tally"), ("audit", "/audit/1")):
            phone.go(f"{server}/t/{token}{path}")
            phone.check(step)
            links = page.eval_on_selector_all(".bar a", "as => as.map(a => a.getBoundingClientRect().top)")
            assert len(set(round(t) for t in links)) == 1, (step, links)  # one line
            bar = page.locator(".bar").bounding_box()
            assert bar is not None and bar["height"] < 50, (step, bar)
            if step == "play":  # the standing: the players' columns alone, shared alike
                assert page.eval_on_selector_all("table.standing th.name", CUT) == [], step
            if step in ("ledger", "tally", "audit"):  # the audit's before-and-after table shares them alike
                assert page.eval_on_selector_all("table th.name", CUT) == [], step
                assert page.eval_on_selector_all("table.ledger tbody th, table.ledger tfoot th", CUT) == [], step
        # a correction's "What this changes": each name whole in its row, beside the figures
        phone.go(f"{server}/t/{token}/audit/1/amend/solo")
        for name, value in (("by", NAMES[2]), ("hombre_tricks", "6")):
            page.locator(f'input[type=radio][name="{name}"][value="{value}"]').tap()
        with page.expect_navigation():
            page.locator('button[name="action"][value="preview"]').click()
        assert page.locator("table.diff-stack").count() == 1, page.content()[:2000]
        phone.check("changes")
        assert page.eval_on_selector_all("table.diff-stack th.name", CUT) == []
        rules = page.locator("details.rules")
        phone.go(f"{server}/t/{token}/tally")
        assert rules.count() == 1 and not rules.evaluate("d => d.open")
        summary = page.locator("details.rules summary").bounding_box()
        assert summary is not None and summary["height"] < 60  # one line
        assert not phone.problems, "\n".join(phone.problems)
    finally:
        phone.close()
