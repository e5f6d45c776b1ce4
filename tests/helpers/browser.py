"""A phone in a real browser (Playwright driving Debian's Chromium, 390×844, touch), as the browser tests share
it: its viewport, Chromium's flags, the screenshots' folder, and a :class:`Phone` that checks every page it
visits for unlabelled form controls and with axe-core. The served app (``server``) and axe-core (``axe``) are
fixtures of tests/conftest.py; each browser test file has its own ``browser`` fixture and screenshot folder."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "evening.json"
ARTIFACTS = Path(os.environ.get("SCORER_ARTIFACTS", ROOT / "test-artifacts")) / "browser"
LIVE_REFRESH_SECONDS = 2
"""A watch-only page followed live reloads this often under the browser tests (30 s by default), so a test sees it."""
PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True,
                         "has_touch": True}
# Flags for Chromium on a machine with no network beyond loopback (see the env notes).
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]

# Form controls with no accessible name: a <label> (wrapping or for=), aria-label or aria-labelledby.
UNLABELLED = """() => [...document.querySelectorAll('input, select, textarea, button')]
  .filter(el => el.type !== 'hidden')
  .filter(el => !(el.labels && el.labels.length) && !el.getAttribute('aria-label')
                && !el.getAttribute('aria-labelledby') && !(el.tagName === 'BUTTON' && el.textContent.trim()))
  .map(el => el.outerHTML)"""


def chromium_path() -> str | None:
    return os.environ.get("SCORER_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


def fresh(folder: Path) -> Path:
    """A test file's screenshot folder, emptied: this run's screenshots only."""
    shutil.rmtree(folder, ignore_errors=True)
    return folder


class Phone:
    """One phone at the table: a browser context in a phone viewport, with its checks."""

    artifacts = ARTIFACTS
    """Where its screenshots go (a test file of its own sets its own folder)."""

    options: dict[str, Any] = {}
    """What its browser context adds to the phone's viewport (a phone of its own sets its locale, say)."""

    def __init__(self, browser: Any, axe: Any, name: str) -> None:
        self.context = browser.new_context(**PHONE, **self.options)
        self.page = self.context.new_page()
        self.axe = axe
        self.name = name
        self.shots = 0
        self.problems: list[str] = []

    def go(self, url: str) -> None:
        response = self.page.goto(url)
        assert response is not None and response.status < 400, f"{url}: {response and response.status}"

    def tap(self, selector: str) -> None:
        self.page.locator(selector).tap()

    def tap_and_wait(self, selector: str) -> None:
        """Tap a link or submit button and wait for the page it leads to."""
        with self.page.expect_navigation():
            self.page.locator(selector).tap()

    def check(self, step: str) -> None:
        """Screenshot the page, then check its form controls' labels and run axe-core on it."""
        self.shots += 1
        self.artifacts.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(self.artifacts / f"{self.name}-{self.shots:02d}-{step}.png"), full_page=True,
                             scale="css")  # a CSS pixel a pixel: the picture of the step at half the cost
        where = f"{step} ({self.page.url})"
        for control in self.page.evaluate(UNLABELLED):
            self.problems.append(f"{where}: a control with no label: {control}")
        results = self.axe.run(self.page)
        if results.violations_count:
            self.problems.append(f"{where}: {results.generate_report()}")
        # Nothing wider than the phone: no sideways scrolling.
        width = self.page.evaluate("document.documentElement.scrollWidth")
        if width > PHONE["viewport"]["width"]:
            self.problems.append(f"{where}: the page is {width}px wide, wider than the phone")

    def heading(self) -> str:
        return str(self.page.locator("h1").first.inner_text())

    def close(self) -> None:
        self.context.close()


# --- an evening imported through the phone, with long names ----------------------------------------------


LONG = ["Annabella Longname", "Beatrice", "Catherine", "Daniella"]


def rename(deals: list[dict[str, Any]], players: list[str] = LONG) -> list[dict[str, Any]]:
    """The evening of Ann, Bea, Cat and Dan played by ``players`` (by default a long first name: the names the
    columns must make room for)."""
    names = dict(zip(["Ann", "Bea", "Cat", "Dan"], players))
    return [json.loads(re.sub(r'"(Ann|Bea|Cat|Dan)"', lambda m: f'"{names[m.group(1)]}"', json.dumps(d))) for d in deals]


def play_four_solos(phone: Phone, table: str, seated: tuple[str, ...], tricks: tuple[int, ...]) -> None:
    """Four solos in hearts by taps, Hombre the eldest each deal (``seated`` in the order of play, the first dealing)."""
    page = phone.page
    for n, taken in enumerate(tricks, start=1):
        phone.go(f"{table}/deal/solo")
        for name, value in (("hombre", seated[n % 4]), ("trumps", "hearts"), ("hombre_tricks", str(taken))):
            page.locator(f'input[type=radio][name="{name}"][value="{value}"]').tap()
        phone.tap_and_wait("button[value=preview]")
        phone.tap_and_wait("button[value=record] >> nth=0")


def import_table(phone: Phone, server: str, profile: str, deals: list[dict[str, Any]], players: list[str] = LONG) -> str:
    """Import the evening through the phone's own browser (its session, its CSRF token)."""
    body = json.dumps({"format": "quadrille-evening/1", "players": players, "profile": profile,
                       "deals_agreed": max(4, -(-len(deals) // 4) * 4), "deals": deals})
    phone.go(f"{server}/import")
    phone.page.set_input_files("#evening", files=[{"name": "e.json", "mimeType": "application/json",
                                                   "buffer": body.encode()}])
    with phone.page.expect_navigation():
        phone.page.locator("button[type=submit]").click()
    token = re.search(r"/t/([A-Za-z0-9_-]+)", phone.page.url)
    assert token, phone.page.url
    return token.group(1)
