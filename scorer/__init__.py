"""scorer: keeps the score and settles the payments of Quadrille at a real table."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask

from .core.limits import IMPORT_BYTES_MAX

ROOT = Path(__file__).resolve().parent.parent


def _secret_key(instance_path: str) -> str:
    """The app's secret key, generated into instance/ on first run and kept there."""
    path = Path(instance_path) / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()


def _secure_headers(response: Any) -> Any:
    """Safe defaults on every answer: no framing, no sniffing, nothing loaded from another host."""
    response.headers.setdefault(
        "Content-Security-Policy",
        "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; form-action 'self'; "
        "frame-ancestors 'none'; base-uri 'none'",
    )
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.headers.setdefault("Referrer-Policy", "no-referrer")  # a table's link is its key: never leak it
    response.headers.setdefault("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
    return response


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """The app factory. ``test_config`` replaces instance/config.py; its
    ``INSTANCE_PATH``, if any, moves the instance folder (for tests); so does the
    environment variable ``SCORER_INSTANCE_PATH``.

    Flask is imported here, not at the top, so that importing the pure
    settlement core (``scorer.core``) never loads the web framework."""
    from flask import Flask

    app = Flask(
        __name__,
        instance_relative_config=True,
        instance_path=(test_config or {}).get("INSTANCE_PATH") or os.environ.get("SCORER_INSTANCE_PATH"),
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    os.makedirs(app.instance_path, exist_ok=True)
    app.config.from_mapping(
        DATABASE=os.path.join(app.instance_path, "scorer.sqlite"),
        MAX_CONTENT_LENGTH=IMPORT_BYTES_MAX + 64 * 1024,  # an evening file and its form's envelope; nothing huge
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(app.instance_path)

    from flask_wtf.csrf import CSRFProtect

    from . import audit, db, exchange, home, table, tally

    CSRFProtect(app)
    app.after_request(_secure_headers)
    db.init_app(app)
    app.register_blueprint(home.bp)
    app.register_blueprint(table.bp)
    app.register_blueprint(audit.bp)
    app.register_blueprint(tally.bp)
    app.register_blueprint(exchange.bp)
    return app
