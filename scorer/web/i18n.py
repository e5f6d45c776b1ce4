"""The reader's language: English or French, through Flask-Babel.

The language is the one the phone chose on the page (``/lang/<code>``, remembered in a cookie for a
year), else the best of the browser's ``Accept-Language``, else English. Every request installs
Flask-Babel's ``gettext`` as the settlement core's translation (:mod:`scorer.core.i18n`), so the core's
sentences, the forms' messages and the templates all speak the reader's language. Numbers, money and
times are formatted for that language by Babel (the ``number``, ``money`` and ``local_time`` filters).

The catalogues live in ``scorer/translations`` (inside the package, so that an installed wheel carries
them); ``python scripts/i18n.py`` extracts, updates and compiles them (see docs/DESIGN.md, "Translations").
"""

from __future__ import annotations

import re
from contextvars import ContextVar
from datetime import datetime, timezone
from decimal import Decimal
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel import Locale
from babel.dates import format_datetime
from babel.numbers import format_currency, format_decimal, get_currency_name
import flask_babel
from flask import Blueprint, Flask, current_app, has_request_context, redirect, request, url_for
from flask_babel import Babel, get_locale
from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup
from werkzeug.wrappers import Response

from ..core import i18n as core_i18n
from ..core.i18n import Elisions
from ..core.systems.base import counted

LANGUAGES = {"en": "English", "fr": "Français"}
"""Each language the app speaks: its code, and its name in itself (as the switch shows it)."""
DEFAULT_LANGUAGE = "en"
COOKIE = "lang"
COOKIE_SECONDS = 365 * 24 * 3600
TRANSLATIONS = Path(__file__).parent.parent / "translations"
DEFAULT_TIMEZONE = "Europe/London"

bp = Blueprint("i18n", __name__)


def choose_language() -> str:
    """The language of this request: the phone's choice (its cookie), else the browser's, else English
    (English outside a request)."""
    if not has_request_context():
        return DEFAULT_LANGUAGE
    chosen = request.cookies.get(COOKIE, "")
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(list(LANGUAGES)) or DEFAULT_LANGUAGE


def language() -> str:
    """The language of the current request (``"en"`` outside one)."""
    found = _request_catalogue.get()
    if found is not None and found.code is not None:
        return found.code  # the catalogue looked up already
    locale = get_locale() if has_request_context() else None
    return locale.language if locale is not None else DEFAULT_LANGUAGE


_UNSAFE_IN_A_PATH = re.compile(r"[\x00-\x1f\x7f]")
"""A control character in ``next``: a browser drops a tab or a line break from a link (``/<tab>/evil.example`` is
``//evil.example``, another site), and a line break cannot be put in a header at all (a 500)."""


@bp.route("/lang/<code>")
def switch(code: str) -> Response:
    """Speak ``code`` to this phone from now on, and go back to the page it came from (``?next=``, a path
    on this site only)."""
    back = request.args.get("next", "")
    if not back.startswith("/") or back.startswith("//") or "\\" in back or _UNSAFE_IN_A_PATH.search(back):
        back = url_for("home.index")
    else:
        back = request.script_root + back  # a path of the app (the page's request.full_path), wherever it is mounted
    response = redirect(back, 303)
    if code in LANGUAGES:
        response.set_cookie(COOKIE, code, max_age=COOKIE_SECONDS, samesite="Lax", httponly=True,
                            secure=bool(current_app.config.get("SESSION_COOKIE_SECURE")))
    return response


class _Catalogue:
    """The request's catalogue, looked up once: its ``ugettext``."""

    __slots__ = ("ugettext", "ungettext", "code")

    def __init__(self, translations: Any, locale: Locale | None = None) -> None:
        self.code = None if locale is None else locale.language
        """The request's language, as :func:`language` gives it; ``None`` outside a request's hooks."""
        self.ugettext = translations.ugettext
        self.ungettext = translations.ungettext


_request_catalogue: ContextVar[_Catalogue | None] = ContextVar("scorer_catalogue", default=None)
_request_hooks: ContextVar[bool] = ContextVar("scorer_request_hooks", default=False)
"""Inside a request's hooks (from before the view to its teardown): the catalogue looked up is kept till the end."""


def _catalogue() -> _Catalogue:
    """The catalogue of this request, looked up when a first word is translated and kept until its end (a request
    that translates nothing, as a record that redirects, never looks it up); outside a request's hooks,
    Flask-Babel's."""
    found = _request_catalogue.get()
    if found is None:
        if not (has_request_context() and _request_hooks.get()):
            return _Catalogue(flask_babel.get_translations())  # type: ignore[attr-defined]
        found = _Catalogue(flask_babel.get_translations(), locale=get_locale())  # type: ignore[attr-defined]
        _request_catalogue.set(found)
    return found


def gettext(message: str, **variables: Any) -> str:
    """Flask-Babel's ``gettext`` (the same text), on the catalogue looked up once for the request: Flask-Babel
    looks up the context, the locale and the catalogue again on every call. "de"/"que" are elided before a value
    where the translation asks (``%(de_name)s``, :class:`~scorer.core.i18n.Elisions`)."""
    text = _catalogue().ugettext(message)
    return text if not variables else text % Elisions(variables)  # type: ignore[no-any-return]


@pass_context
def _template_gettext(context: Context, message: str, **variables: Any) -> str:
    """Jinja's ``_`` and ``gettext`` as its i18n extension makes them (``newstyle``: the text escaped, then
    always formatted with the variables), on the request's catalogue."""
    if not context.eval_ctx.autoescape:
        return _catalogue().ugettext(message) % Elisions(variables)  # type: ignore[no-any-return]
    return shown_text(message, **variables)


@pass_context
def _template_ngettext(context: Context, singular: str, plural: str, num: int, **variables: Any) -> str:
    """Jinja's ``ngettext`` as its i18n extension makes it (``newstyle``: ``num`` among the variables), on the
    request's catalogue, "de"/"que" elided before a value where the translation asks (``%(de_name)s``)."""
    variables.setdefault("num", num)
    text = _catalogue().ungettext(singular, plural, num)
    if not context.eval_ctx.autoescape:
        return text % Elisions(variables)  # type: ignore[no-any-return]
    return Markup(text) % Elisions(variables)


def shown_text(message: str, **variables: Any) -> Markup:
    """``_(message, **variables)`` as an HTML template shows it: the translation is markup, the variables are
    escaped into it. (Mark a message given here with ``N_`` for the catalogue.)"""
    return Markup(_catalogue().ugettext(message)) % Elisions(variables)


def _install_translation() -> None:
    """Before the view: the core's words in the reader's language, the catalogue looked up when first needed."""
    _request_hooks.set(True)
    core_i18n.install(lambda message: _catalogue().ugettext(message),
                      lambda singular, plural, n: _catalogue().ungettext(singular, plural, n))


def _english_again(_error: BaseException | None) -> None:
    """After the request, the core speaks English again in this context (a thread serving the next request
    installs its own; a test or a command running after it gets English, not a request's gettext)."""
    _request_catalogue.set(None)
    _request_hooks.set(False)
    core_i18n.install(core_i18n.english)


def _vary(response: Response) -> Response:
    """A page depends on the phone's language: caches between the server and the phone must know it."""
    if "Vary" in response.headers:
        response.vary.update(("Accept-Language", "Cookie"))
    else:
        response.headers["Vary"] = "Accept-Language, Cookie"
    return response


# --- numbers, money and times in the reader's language ------------------------------------------------------


def number(value: int | float | Decimal, places: int | None = None) -> str:
    """A number as the reader writes it ("1,234.5" / "1 234,5"), with a true minus sign."""
    pattern = None if places is None else "#,##0." + "0" * places if places else "#,##0"
    text = format_decimal(value, format=pattern, locale=language())
    return text.replace("-", "−")


def counted_average(value: float, units: str) -> str:
    """An average of a system's ``units`` to one decimal, signed ("+8.0 chips", "−26,7 jetons"; 0 is "0"), its unit
    singular or plural as the reader's language counts that figure (French: "0 jeton", "1,5 jeton")."""
    rounded = round(Decimal(str(value)), 1)
    shown = "0" if rounded == 0 else ("+" if rounded > 0 else "") + number(rounded, 1)
    one = Locale.parse(language()).plural_form(abs(rounded)) == "one"
    return counted(1 if one else 2, units, shown)


def money(cents: int, currency: str = "") -> str:
    """An amount in cents as the reader writes money: with the currency's sign when ``currency`` is a
    code Babel knows ("€3.20" / "3,20 €"), else the number and the currency as written ("3.20 pts")."""
    locale = language()
    amount = Decimal(cents) / 100
    code = currency.strip().upper()
    if len(code) == 3 and code.isalpha() and get_currency_name(code, locale=locale) != code:
        text = format_currency(amount, code, locale=locale)
    else:
        text = format_decimal(amount, format="#,##0.00", locale=locale) + (f"\u00a0{currency}" if currency else "")
    return text.replace("-", "−")


def _zone(name: str) -> Any:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return timezone.utc


def local_time(stamp: object, zone_name: str | None = None, with_time: bool = True, now: datetime | None = None,
               year: bool = False) -> str:
    """An ISO 8601 time as the table reads it, in the app's zone and the reader's language: "Sat 21 Nov,
    23:43" / "sam. 21 nov., 23:43" (the year added when it is not this year's, in that zone: the year of
    ``now``, an aware time, the clock's by default). A time with no zone is UTC, as the app writes them; text
    that is not a time is shown as it is, and so is a time that the zone would move out of the years 1 to 9999
    (an imported ``0001-01-01``, ``9999-12-31T23:59:59-14:00``). ``year`` shows the year always (a record kept on
    paper)."""
    if not isinstance(stamp, str) or not stamp:
        return ""
    try:
        when = datetime.fromisoformat(stamp)
    except ValueError:
        return stamp
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    zone = _zone(zone_name or str(current_app.config.get("TIMEZONE") or DEFAULT_TIMEZONE))
    try:
        here = when.astimezone(zone)
    except OverflowError:  # past year 9999 or before year 1 in the app's zone: no such date to show
        return stamp
    this_year = (now or datetime.now(timezone.utc)).astimezone(zone).year
    day = "EEE d MMM" + (" y" if year or here.year != this_year else "")
    shown = format_datetime(here, day, tzinfo=zone, locale=language())
    return shown if not with_time else shown + ", " + format_datetime(here, "HH:mm", tzinfo=zone, locale=language())


def local_day(stamp: object, now: datetime | None = None) -> str:
    """The day of an ISO 8601 time, in the app's zone: "Sat 21 Nov" (with the year when not this year's)."""
    return local_time(stamp, with_time=False, now=now)


def local_date(stamp: object, now: datetime | None = None) -> str:
    """The day of an ISO 8601 time with its year, for a record kept on paper (a PDF): "Sat 21 Nov 2026"."""
    return local_time(stamp, with_time=False, now=now, year=True)


def init_app(app: Flask) -> None:
    """Flask-Babel with the app's languages, the core's translation for each request, the switch's route
    and the filters."""
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT_LANGUAGE)
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS))
    # The selector gives the language's Locale (typed as a code): Flask-Babel's Locale.parse gives it back as it is.
    Babel(app, locale_selector=lambda: Locale.parse(choose_language()))  # type: ignore[arg-type,return-value]
    # Flask-Babel's template callables (newstyle) look the catalogue up on every call: the same on the request's.
    app.jinja_env.globals["_"] = app.jinja_env.globals["gettext"] = _template_gettext
    app.jinja_env.globals["ngettext"] = _template_ngettext
    # The first of the request's hooks (create_app calls this first): a page drawn when another refuses the request
    # (CSRF's check, whose error handler shows a deal form again with the core's sentences) speaks its language too.
    app.before_request(_install_translation)
    app.teardown_request(_english_again)
    app.after_request(_vary)
    app.register_blueprint(bp)
    # ``counted``: ``n`` of ``units`` as a system writes them ("chips"), singular or plural in the reader's language
    app.jinja_env.filters.update(number=number, money=money, local_time=local_time, local_day=local_day,
                                 local_date=local_date, counted=counted, counted_average=counted_average)
    app.add_template_global(language, "current_language")
    app.jinja_env.globals["languages"] = LANGUAGES
