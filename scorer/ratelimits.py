"""Rate limits on the two pages that create something without a table's link: a new table (POST /new)
and an import (POST /import), per client address, with Flask-Limiter in memory.

The limits are config values (``LIMIT_NEW_TABLES``, ``LIMIT_IMPORTS``, in Flask-Limiter's notation
such as ``"30 per hour;200 per day"``), read at each request, far above what a club ever does. Only
POSTs count; reading the forms is never limited. The client's address is the socket's
(``REMOTE_ADDR``), unless ``TRUSTED_PROXIES`` reverse proxies stand in front of the app: then
werkzeug's ProxyFix takes it from that many ``X-Forwarded-For`` entries (see :func:`init_app`).

Each app gets its own :class:`~flask_limiter.Limiter` and its own counts (the views are marked here
and wrapped when the app is made), so two apps in one process never share a count.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any, TypeVar

from flask import Flask, current_app, render_template
from flask_babel import gettext as _
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from werkzeug.exceptions import TooManyRequests

from .i18n import number

F = TypeVar("F", bound=Callable[..., Any])

EXTENSION = "scorer.limiter"


def rate_limited(config_key: str) -> Callable[[F], F]:
    """Marks a view whose POSTs are limited per client address by the limits in ``config_key``."""

    def mark(view: F) -> F:
        setattr(view, "rate_limit_config", config_key)  # read back by init_app, with getattr
        return view

    return mark


def _limits_of(config_key: str) -> Callable[[], str]:
    return lambda: str(current_app.config[config_key])


def init_app(app: Flask) -> None:
    """Trusts ``TRUSTED_PROXIES`` proxies for the client's address and scheme, and wraps every view
    marked with :func:`rate_limited` in this app's own limiter (unless ``RATELIMIT_ENABLED`` is false).
    Call after the blueprints are registered."""
    proxies = int(app.config.get("TRUSTED_PROXIES") or 0)
    if proxies > 0:
        from werkzeug.middleware.proxy_fix import ProxyFix

        # Flask's documented way to put WSGI middleware in front of the app; mypy refuses any assignment to a method.
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies)  # type: ignore[method-assign]
    app.register_error_handler(TooManyRequests, _too_many)
    limiter = Limiter(get_remote_address, storage_uri=app.config.get("RATELIMIT_STORAGE_URI") or "memory://")
    limiter.init_app(app)
    if not limiter.enabled:
        return
    if not app.config.get("RATELIMIT_DEFAULT") and not app.config.get("RATELIMIT_APPLICATION"):
        # Flask-Limiter checks every request in a before_request hook, for default and application limits; this
        # app has none (a limited view checks its own limits, in the wrapper limiter.limit puts around it), so on
        # every page the hook only cost time (about 0.05 ms of a record).
        hooks = app.before_request_funcs.get(None, [])
        if limiter._check_request_limit in hooks:  # a later Flask-Limiter may name or place it otherwise: then kept
            hooks.remove(limiter._check_request_limit)
    app.extensions[EXTENSION] = limiter
    for endpoint, view in list(app.view_functions.items()):
        key = getattr(view, "rate_limit_config", None)
        if key:
            # Flask types a view as sync or async (a union of callables); Flask-Limiter's decorator gives back the
            # type it is given, which mypy cannot solve for that union.
            app.view_functions[endpoint] = limiter.limit(_limits_of(key), methods=["POST"])(view)  # type: ignore[assignment]


def _wait_seconds() -> int:
    """Seconds until the limit that refused this request lets one more through."""
    limiter: Limiter | None = current_app.extensions.get(EXTENSION)
    breached = limiter.current_limit if limiter is not None else None
    if breached is None:
        return 60
    window = breached.limit.get_expiry()  # reset_at is in whole seconds: never say more than the window
    return max(1, min(window, math.ceil(breached.reset_at - time.time())))


def _wait_text(seconds: int) -> str:
    if seconds < 90:
        return _("1 second") if seconds == 1 else _("%(seconds)s seconds", seconds=seconds)
    if seconds < 90 * 60:
        return _("%(minutes)s minutes", minutes=max(2, round(seconds / 60)))
    hours = round(seconds / 3600, 1)
    return _("%(hours)s hours", hours=number(hours, 1) if hours % 1 else number(int(hours)))


def _too_many(error: TooManyRequests) -> tuple[str, int, dict[str, str]]:
    seconds = _wait_seconds()
    page = render_template(
        "wait.html", title=_("Too many new tables from here"),
        message=_("This address has started or imported more tables than a club ever needs in a row, so the "
                  "server is refusing more for now. Try again in %(wait)s. Tables already "
                  "started keep working as before: open one with its link.", wait=_wait_text(seconds)),
    )
    return page, 429, {"Retry-After": str(seconds)}
