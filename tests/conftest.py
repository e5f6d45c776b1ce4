"""The fixtures every test file may use (their shared helpers are modules of tests/helpers/): flaskr-style
fixtures for the web tests (an app on a temporary database), and for the browser tests the app served by
waitress, one Chromium for the run and axe-core."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers.browser import CHROMIUM_ARGS, LIVE_REFRESH_SECONDS, chromium_path

from scorer import create_app


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    """A new app on a new database: ``create_app`` creates its schema (``scorer.web.db.init_app`` runs ``init_db``)."""
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "test.sqlite"), "SECRET_KEY": "test"})
    yield app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


SLOW_FIRST = ("test_browser_pages.py", "test_browser.py", "test_browser_french.py", "test_installed_wheel.py",
              "test_browser_refusals.py", "test_races.py", "test_properties.py", "test_concurrency.py",
              "test_browser_circle.py", "test_browser_play.py")
"""The longest test files (about 10 to 45 s each on this project's 2-core machine), in that order. Under
``pytest -n auto --dist loadfile`` a worker takes the next file when it is done with one, in the order of
collection: the longest first, the short ones fill in at the end instead of one long file running alone."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The files of SLOW_FIRST first, in its order; the others after. A stable sort, after pytest-randomly's
    shuffle (its hook runs first): the other files, and each file's tests, stay in the order of the run's seed."""
    rank = {name: n for n, name in enumerate(SLOW_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: drives a real Chromium through Playwright (tests/test_browser.py)")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Under CI a skipped browser test is a failure: a missing Chromium must not pass quietly."""
    report = yield
    if report.skipped and item.get_closest_marker("browser") and os.environ.get("CI"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = f"browser test skipped under CI, which counts as a failure: {reason}"
    return report


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    """One Chromium for every browser test of the run (or of an xdist worker); each browser test file clears
    its own screenshots (helpers.browser.fresh). Defined here, once: a session fixture imported into several
    test files would be several fixtures, and Playwright's sync API cannot start twice in one thread."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")
    executable = chromium_path()
    if not executable or not Path(executable).exists():
        pytest.skip("Chromium not found (install Debian's chromium, or set SCORER_CHROMIUM)")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app under waitress on a free loopback port, one for each test file that asks (an instance folder and a
    database of its own); yields its base URL."""
    waitress = pytest.importorskip("waitress")
    instance = tmp_path_factory.mktemp("instance")
    app = create_app({"INSTANCE_PATH": str(instance), "DATABASE": str(instance / "scorer.sqlite"),
                      "LIVE_REFRESH_SECONDS": LIVE_REFRESH_SECONDS})
    wsgi = waitress.create_server(app, host="127.0.0.1", port=0, threads=4, ident="scorer")
    thread = threading.Thread(target=wsgi.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{wsgi.effective_port}"
    wsgi.close()


@pytest.fixture(scope="module")
def axe() -> Any:
    return pytest.importorskip("axe_playwright_python.sync_playwright", reason="axe-playwright-python is not installed").Axe()
