"""The web layer: the app factory, its settings and the blueprints, one per feature (tables and deals,
corrections and audit, tally and printing, circles, import and export, play), with the pages' shared
helpers in :mod:`scorer.web.common`. It imports the store and the core; neither imports it."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from flask import Flask, Response, current_app, render_template, request, send_from_directory

from ..core import IMPORT_BYTES_MAX


PACKAGE = Path(__file__).resolve().parent.parent  # scorer/
ROOT = PACKAGE.parent


def _folder(name: str) -> Path:
    """Where the app's ``templates`` or ``static`` folder is: inside the package when scorer is
    installed from its wheel (which carries them as scorer/templates, scorer/static: see setup.py),
    else at the top of the repository (a clone, an editable install)."""
    inside = PACKAGE / name
    return inside if inside.is_dir() else ROOT / name


def _secret_key(instance_path: str, key_file: str = "") -> str:
    """The app's secret key: read from ``key_file`` when one is given (``SECRET_KEY_FILE``, such as a
    container secret; it must exist and hold a key), else generated into instance/ on first run and
    kept there."""
    if key_file:
        try:
            key = Path(key_file).read_text().strip()
        except OSError as error:
            raise RuntimeError(f"SECRET_KEY_FILE {key_file}: cannot be read ({error.strerror})") from error
        if not key:
            raise RuntimeError(f"SECRET_KEY_FILE {key_file} is empty: put a long random key in it")
        return key
    path = Path(instance_path) / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()


SECURE_HEADERS = (("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
                                               "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"),
                  ("X-Content-Type-Options", "nosniff"), ("X-Frame-Options", "DENY"),
                  ("Referrer-Policy", "no-referrer"),  # a table's link is its key: never leak it
                  ("Permissions-Policy", "camera=(), microphone=(), geolocation=()"))
"""Safe defaults on every answer: no framing, no sniffing, nothing loaded from another host."""


def _secure_headers(response: Response) -> Response:
    """:data:`SECURE_HEADERS`, each unless the answer set its own (added in one pass over the answer's headers)."""
    present = {name.lower() for name in response.headers.keys()}
    response.headers.extend([(name, value) for name, value in SECURE_HEADERS if name.lower() not in present])
    return response


SETTINGS: dict[str, Any] = {
    "BASE_URL": "",
    "TRUSTED_PROXIES": 0,
    "LIMIT_NEW_TABLES": "120 per hour;400 per day",
    "LIMIT_IMPORTS": "30 per hour;200 per day",
    "RATELIMIT_ENABLED": True,
    "RATELIMIT_STORAGE_URI": "memory://",
    "PDF_CACHE_BYTES": 32 * 1024 * 1024,
    "PDF_RENDERS_AT_ONCE": 1,
    "PDF_WAITING_MAX": 2,
    "PDF_WAIT_SECONDS": 5.0,
    "PDF_RETRY_AFTER_SECONDS": 3,
    "IMPORTS_AT_ONCE": 1,  # uploaded files read at the same time (scorer/web/importgate.py)
    "IMPORTS_WAITING_MAX": 1,
    "IMPORT_WAIT_SECONDS": 5.0,
    "IMPORT_RETRY_AFTER_SECONDS": 5,
    "SESSION_COOKIE_SECURE": None,
    "TIMEZONE": "Europe/London",  # where pages show times (an IANA zone name; an unknown one shows UTC)
    "LIVE_REFRESH_SECONDS": 30,  # how often a watch-only page followed live reloads itself
    "SECRET_KEY_FILE": "",  # a file holding the secret key (else instance/secret_key, generated on first run)
    "SYNCHRONOUS": "FULL",  # SQLite's synchronous pragma: FULL (a recorded deal survives a power cut) or NORMAL
}
"""The app's own settings and their defaults (docs/HOSTING.md, "Every setting", lists what each does). Each can be set in
instance/config.py or by the environment variable ``SCORER_`` + its name (``SCORER_BASE_URL``), which
wins over the file. ``SESSION_COOKIE_SECURE`` left unset follows the base URL: true when it is https."""


def _from_environment(default: Any, text: str) -> Any:
    """An environment variable's text as the type of the setting's default."""
    if isinstance(default, bool) or default is None:
        return text.strip().lower() in ("1", "true", "yes", "on")
    return type(default)(text)  # an int, a float or a str


def _readable_form() -> tuple[str, int] | None:
    """A posted form whose field names cannot be read (werkzeug gives such a field the name None,
    and Flask-WTF's CSRF check then fails with an AttributeError): refused, nothing done."""
    if request.method == "POST" and any(not isinstance(key, str) for key in request.form):
        return render_template("unreadable_form.html"), 400
    return None


def _not_found(error: Any) -> tuple[str, int]:
    """A page that does not exist, in the app's own clothes (the phone's width, a way home)."""
    return render_template("notfound.html"), 404


def _favicon() -> Response:
    """The icon browsers ask for at /favicon.ico (pages also link static/favicon.svg): never a 404."""
    return send_from_directory(str(current_app.static_folder), "favicon.ico", mimetype="image/vnd.microsoft.icon",
                               max_age=7 * 24 * 3600)


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """The app factory. ``test_config`` replaces instance/config.py (and wins over the environment); its
    ``INSTANCE_PATH``, if any, moves the instance folder (for tests); so does the
    environment variable ``SCORER_INSTANCE_PATH``."""
    from flask_wtf.csrf import CSRFProtect

    from . import db, i18n, importgate, ratelimits, views
    from .instance import PACKAGE, instance_folder, load_instance_config
    from .links import check_base_url, links_command
    from .pages import audit, circles, exchange, health, home, play, recent, tables, tally

    app = Flask(
        PACKAGE,
        instance_relative_config=True,
        # instance/ in a clone, <venv>/var/scorer-instance when installed, or as given: the command line's
        # backup, restore and verify find it (and the database) by the same function
        instance_path=instance_folder((test_config or {}).get("INSTANCE_PATH")).folder,
        template_folder=str(_folder("templates")),
        static_folder=str(_folder("static")),
    )
    os.makedirs(app.instance_path, exist_ok=True)
    app.config.from_mapping(
        MAX_CONTENT_LENGTH=IMPORT_BYTES_MAX + 64 * 1024,  # an evening file and its form's envelope; nothing huge
        SESSION_COOKIE_SAMESITE="Lax",
        WTF_I18N_ENABLED=False,  # WTForms translates its own messages, in the reader's language (forms.Form.Meta)
        WTF_CSRF_TIME_LIMIT=None,  # a deal form may sit open through a whole deal; the token is bound to the session
        **SETTINGS,
    )
    load_instance_config(app.config, app.instance_path, read_file=test_config is None)  # DATABASE, config.py
    for key, default in SETTINGS.items():
        if f"SCORER_{key}" in os.environ:
            app.config[key] = _from_environment(default, os.environ[f"SCORER_{key}"])
    if test_config is not None:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(app.instance_path, str(app.config.get("SECRET_KEY_FILE") or ""))
    if app.config["BASE_URL"]:
        app.config["BASE_URL"] = check_base_url(str(app.config["BASE_URL"]))
    app.config["SYNCHRONOUS"] = db.synchronous(app.config["SYNCHRONOUS"])  # a wrong word stops the app at start
    if app.config["SESSION_COOKIE_SECURE"] is None:
        app.config["SESSION_COOKIE_SECURE"] = str(app.config["BASE_URL"]).startswith("https://")
    i18n.init_app(app)  # the reader's language, before any other hook: Flask-Babel, the core's translation, the filters
    app.before_request(_readable_form)  # before CSRFProtect's own check, which fails on such a form
    CSRFProtect(app)
    app.after_request(_secure_headers)
    app.register_error_handler(404, _not_found)
    app.add_url_rule("/favicon.ico", "favicon", _favicon)
    db.init_app(app)
    app.cli.add_command(links_command)  # `flask --app scorer links`: where the players' links point (scripts/serve)
    views.init_app(app)  # the templates' result_label
    # tables and deals, corrections and audit, the play card by card, circles (their pages, check and season PDF), the
    # tally and its printing, import and export (of an evening and of a circle), /healthz (select 1, no limit)
    for feature in (home, tables, audit, play, circles, tally, exchange, health):
        app.register_blueprint(feature.bp)
    recent.init_app(app)  # the tables this phone opened recently (a signed cookie), for the home page
    importgate.init_app(app)  # uploaded files read one at a time, and what they built given back
    ratelimits.init_app(app, exchange.bp)  # the import pages' limit, and the budget of new tables
    return app
