"""Rate limits per client address, with Flask-Limiter in memory: one budget of new tables, and a limit
on import attempts.

- **The new-tables budget** (``LIMIT_NEW_TABLES``). Every table made from an address counts one against
  it, however it is made: started (``POST /new``), imported (``POST /import``), a circle's next evening
  (``POST /c/<token>/next``), each evening of an imported circle (``POST /c/import``); and every circle
  made counts one, with or without evenings (``POST /c/new``; ``/c/import`` counts the circle and each
  of its evenings). A view wraps what it writes in :func:`new_tables`: the budget is checked before
  anything is written, under a lock of the address (two requests at one moment are checked one after
  the other), and spent only by what was written, so a form or a file refused costs none of it. A circle
  import of more evenings than the budget has left is refused whole (:class:`BudgetSpent`).
- **Import attempts** (``LIMIT_IMPORTS``): every POST to ``/import`` and ``/c/import``, a refused file
  too (each one was parsed), but one answered 503 at the import gate (nothing of it was read), through
  Flask-Limiter's own decorator on their blueprint and its ``deduct_when`` (:func:`init_app`).

The limits are config values in Flask-Limiter's notation (``"120 per hour;400 per day"``), read at each
request, far above what a club ever does; reading a form is never limited. The client's address is the
socket's (``REMOTE_ADDR``), unless ``TRUSTED_PROXIES`` reverse proxies stand in front of the app: then
werkzeug's ProxyFix takes it from that many ``X-Forwarded-For`` entries (see :func:`init_app`).

Each app gets its own :class:`~flask_limiter.Limiter` and its own counts, so two apps in one process
never share a count. The budget counts
in the limiter's own storage, through its public strategy (:attr:`Limiter.limiter`: ``test``, ``hit``,
``get_window_stats`` of the ``limits`` library it is built on).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext

from flask import Blueprint, Flask, current_app, render_template
from .i18n import gettext as _, number
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from limits import parse_many
from werkzeug.exceptions import TooManyRequests

from ..core.errors import ScorerError

BUDGET_EXTENSION = "scorer.new_tables"
BUDGET = "new-tables"
"""The budget's name in the limiter's storage (its keys: ``LIMITER/new-tables/<address>/...``)."""


class BudgetSpent(ScorerError, TooManyRequests):
    """New tables refused: this address's budget has fewer than ``tables`` left (429, with a wait), or
    ``tables`` is more than the budget ever holds (``most``: 422, waiting would not help). Its message is
    its :attr:`sentence` in the language of the request that raised it."""

    def __init__(self, tables: int, left: int, wait: int, most: int) -> None:
        self.tables, self.left, self.wait, self.most = tables, left, wait, most
        super().__init__(self.sentence)
        self.code = 422 if tables > most else 429

    def headers(self) -> dict[str, str]:
        return {"Retry-After": str(self.wait)} if self.code == 429 else {}

    @property
    def sentence(self) -> str:
        if self.tables > self.most:
            return _("This file would start %(tables)s new tables (the circle counts one, and each of its evenings one), "
                     "more than this server lets one address start (%(most)s): nothing was imported.",
                     tables=number(self.tables), most=number(self.most))
        if self.tables > 1:
            return _("This file would start %(tables)s new tables (the circle counts one, and each of its evenings one), "
                     "and this address may start %(left)s more for now: nothing was imported. Try again in %(wait)s.",
                     tables=number(self.tables), left=number(self.left), wait=wait_text(self.wait))
        return _("This address has started or imported more tables than a club ever needs in a row, so the "
                 "server is refusing more for now. Try again in %(wait)s. Tables already "
                 "started keep working as before: open one with its link.", wait=wait_text(self.wait))


class Budget:
    """One app's budget of new tables per client address (``LIMIT_NEW_TABLES``), counted in its limiter's storage."""

    def __init__(self, limiter: Limiter) -> None:
        self.limiter = limiter
        self._locks: dict[str, tuple[threading.Lock, int]] = {}
        """A lock per address with a request inside :meth:`spend`, and how many such requests (then dropped)."""
        self._guard = threading.Lock()

    @contextmanager
    def spend(self, address: str, tables: int) -> Iterator[None]:
        """Checks that ``address`` may start ``tables`` more (else raises :class:`BudgetSpent`), runs the block,
        and counts the tables if the block ends without an exception."""
        items = parse_many(str(current_app.config["LIMIT_NEW_TABLES"]))
        strategy = self.limiter.limiter
        with self._alone(address):
            short = [item for item in items if not strategy.test(item, BUDGET, address, cost=tables)]
            if short:
                left = min(strategy.get_window_stats(item, BUDGET, address).remaining for item in items)
                reset = max(strategy.get_window_stats(item, BUDGET, address).reset_time for item in short)
                longest = max(item.get_expiry() for item in short)  # never say more than the window
                wait = max(1, min(longest, math.ceil(reset - time.time())))
                raise BudgetSpent(tables, left, wait, min(item.amount for item in items))
            yield
            for item in items:
                strategy.hit(item, BUDGET, address, cost=tables)

    @contextmanager
    def _alone(self, address: str) -> Iterator[None]:
        with self._guard:
            lock, inside = self._locks.get(address, (threading.Lock(), 0))
            self._locks[address] = (lock, inside + 1)
        try:
            with lock:
                yield
        finally:
            with self._guard:
                lock, inside = self._locks[address]
                if inside == 1:
                    del self._locks[address]
                else:
                    self._locks[address] = (lock, inside - 1)


@contextmanager
def new_tables(tables: int = 1) -> Iterator[None]:
    """Counts ``tables`` new tables (a circle counts one too) against this client address's budget, for what the
    block writes: raises :class:`BudgetSpent` before the block runs if the budget has not that many left; spends
    them only if the block ends without an exception. With the limits switched off, only runs the block."""
    budget: Budget | None = current_app.extensions.get(BUDGET_EXTENSION)
    with nullcontext() if budget is None else budget.spend(get_remote_address(), tables):
        yield


def init_app(app: Flask, imports: Blueprint) -> None:
    """Trusts ``TRUSTED_PROXIES`` proxies for the client's address and scheme, limits the POSTs of ``imports`` (the
    blueprint of the import pages) by ``LIMIT_IMPORTS`` in this app's own limiter, and makes its budget of new
    tables (unless ``RATELIMIT_ENABLED`` is false)."""
    proxies = int(app.config.get("TRUSTED_PROXIES") or 0)
    if proxies > 0:
        from werkzeug.middleware.proxy_fix import ProxyFix

        # Flask's documented way to put WSGI middleware in front of the app; mypy refuses any assignment to a method.
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies)  # type: ignore[method-assign]
    app.register_error_handler(TooManyRequests, _too_many)
    app.register_error_handler(BudgetSpent, _spent)
    limiter = Limiter(get_remote_address, storage_uri=app.config.get("RATELIMIT_STORAGE_URI") or "memory://")
    limiter.init_app(app)
    if not limiter.enabled:
        return
    app.extensions[BUDGET_EXTENSION] = Budget(limiter)
    # an import answered 503 (no turn at the import gate: importgate.py) read nothing of its file: not counted
    limiter.limit(lambda: str(current_app.config["LIMIT_IMPORTS"]), methods=["POST"],
                  deduct_when=lambda response: response.status_code != 503)(imports)


def _wait_seconds() -> int:
    """Seconds until the limit that refused this request lets one more through."""
    budget: Budget | None = current_app.extensions.get(BUDGET_EXTENSION)
    breached = budget.limiter.current_limit if budget is not None else None
    if breached is None:
        return 60
    window = breached.limit.get_expiry()  # reset_at is in whole seconds: never say more than the window
    return max(1, min(window, math.ceil(breached.reset_at - time.time())))


def wait_text(seconds: int) -> str:
    if seconds < 90:
        return _("1 second") if seconds == 1 else _("%(seconds)s seconds", seconds=seconds)
    if seconds < 90 * 60:
        return _("%(minutes)s minutes", minutes=max(2, round(seconds / 60)))
    hours = round(seconds / 3600, 1)
    return _("%(hours)s hours", hours=number(hours, 1) if hours % 1 else number(int(hours)))


def _too_many(error: TooManyRequests) -> tuple[str, int, dict[str, str]]:
    """Flask-Limiter's refusal of an import: the wait page, as for one table more than the budget lets through."""
    return _spent(BudgetSpent(1, 0, _wait_seconds(), 1))


def _spent(error: BudgetSpent) -> tuple[str, int, dict[str, str]]:
    """A view that did not answer its own :class:`BudgetSpent` (each one shows it on its form): the wait page."""
    page = render_template("wait.html", title=_("Too many new tables from here"), message=error.sentence)
    return page, error.code, error.headers()
