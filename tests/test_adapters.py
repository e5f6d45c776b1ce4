"""The dependencies' private APIs the app uses, held to what scorer/web/adapters.py expects of them (issue 23, point 6):
each test fails, by name, when an upgrade of Flask-Limiter, Flask-WTF or WeasyPrint changes what it leans on."""

from __future__ import annotations

import inspect
from pathlib import Path

from flask import Flask
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_wtf import FlaskForm

from scorer.web.adapters import drop_request_check, fontconfig_file, trust_csrf_of_this_request
from scorer.web.print_columns import FAMILY
from scorer.web.ratelimits import EXTENSION

# --- Flask-Limiter: Limiter._check_request_limit --------------------------------------------------------


def test_flask_limiter_checks_every_request_in_the_hook_the_app_takes_off() -> None:
    """``Limiter._check_request_limit`` is still the hook ``init_app`` adds before every request (checking as
    middleware by default); taken off, a view the limiter's decorator wraps is still limited by the decorator."""
    parameters = inspect.signature(Limiter._check_request_limit).parameters
    assert list(parameters) == ["self", "callable_name", "in_middleware"]
    assert parameters["in_middleware"].default is True and parameters["callable_name"].default is None
    app = Flask(__name__)
    limiter = Limiter(get_remote_address, storage_uri="memory://")
    limiter.init_app(app)
    app.add_url_rule("/once", "once", limiter.limit("1 per day")(lambda: "ok"))
    assert limiter._check_request_limit in app.before_request_funcs[None]
    assert drop_request_check(app, limiter) is True
    assert limiter._check_request_limit not in app.before_request_funcs[None]
    assert drop_request_check(app, limiter) is False  # gone: nothing more to take off
    client = app.test_client()
    assert [client.get("/once").status_code for _ in range(2)] == [200, 429]


def test_the_app_runs_no_limiter_hook_before_its_requests(app: Flask) -> None:
    limiter = app.extensions[EXTENSION]
    assert isinstance(limiter, Limiter) and limiter.enabled
    assert limiter._check_request_limit not in app.before_request_funcs.get(None, [])


# --- Flask-WTF: g.csrf_valid ---------------------------------------------------------------------------


def test_flask_wtf_takes_a_request_marked_csrf_valid_as_checked() -> None:
    """A form sent with a wrong CSRF token is refused, unless the request is marked as checked (``g.csrf_valid``,
    as CSRFProtect marks it): the mark the app sets to show a form again after its token was refused."""
    app = Flask(__name__)
    app.config.update(SECRET_KEY="adapters")
    verdicts = []
    for marked in (False, True):
        with app.test_request_context("/", method="POST", data={"csrf_token": "not the token"}):
            if marked:
                trust_csrf_of_this_request()
            form = FlaskForm()
            verdicts.append((form.validate(), form.errors))
    assert verdicts[0][0] is False and "csrf_token" in verdicts[0][1]
    assert verdicts[1] == (True, {})


# --- WeasyPrint: weasyprint.text.ffi ---------------------------------------------------------------------


def test_weasyprint_binds_the_fontconfig_calls_the_columns_read_their_font_with() -> None:
    from weasyprint.text.ffi import ffi, fontconfig  # type: ignore[import-untyped]

    for call in ("FcPatternCreate", "FcPatternAddString", "FcConfigSubstitute", "FcDefaultSubstitute", "FcFontMatch",
                 "FcPatternGetString", "FcPatternDestroy"):
        assert callable(getattr(fontconfig, call)), call
    assert ffi.NULL is not None and callable(ffi.new) and callable(ffi.string)


def test_fontconfig_gives_the_pdf_font_s_file_and_no_other_family_in_its_place() -> None:
    found = fontconfig_file(FAMILY)
    assert found is not None, f"fontconfig has no {FAMILY}: the PDF's columns would line up only roughly"
    path = Path(found.decode())
    assert path.is_file() and path.suffix.lower() in (".ttf", ".otf") and "DejaVuSans" in path.name
    assert fontconfig_file("No Such Family 7f3a") is None
