"""/healthz (for a container's HEALTHCHECK and a proxy's probe) and SECRET_KEY_FILE (a key kept outside
the instance folder, such as a container secret), and docs/HOSTING.md's table naming every setting."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorer import create_app


def test_healthz_answers_ok(client: FlaskClient) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.get_data(as_text=True) == "ok\n"
    assert response.mimetype == "text/plain"
    assert response.headers["Cache-Control"] == "no-store"
    assert "Set-Cookie" not in response.headers
    assert client.head("/healthz").status_code == 200


def test_healthz_runs_select_1_and_reads_no_table(app: Flask, client: FlaskClient) -> None:
    client.get("/healthz")  # opens this thread's kept connection
    statements: list[str] = []
    app.extensions["scorer.db"].db.conn.set_trace_callback(statements.append)
    try:
        assert client.get("/healthz").status_code == 200
    finally:
        app.extensions["scorer.db"].db.conn.set_trace_callback(None)
    assert statements == ["select 1"]


def test_healthz_works_on_an_empty_database_and_leaves_it_empty(app: Flask, client: FlaskClient, tmp_path: Path) -> None:
    empty = tmp_path / "empty.sqlite"
    sqlite3.connect(empty).close()
    app.config["DATABASE"] = str(empty)
    assert client.get("/healthz").status_code == 200
    with sqlite3.connect(empty) as conn:
        assert conn.execute("select count(*) from sqlite_master").fetchone() == (0,)


def test_healthz_says_503_when_the_database_cannot_be_opened(app: Flask, client: FlaskClient, tmp_path: Path) -> None:
    app.config["DATABASE"] = str(tmp_path / "no such folder" / "scorer.sqlite")
    response = client.get("/healthz")
    assert response.status_code == 503
    assert "database" in response.get_data(as_text=True)


def test_healthz_is_never_rate_limited_and_needs_no_csrf_token(tmp_path: Path) -> None:
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "t.sqlite"), "SECRET_KEY": "test",
                      "LIMIT_NEW_TABLES": "1 per hour", "LIMIT_IMPORTS": "1 per hour"})
    assert app.config.get("WTF_CSRF_ENABLED", True)  # CSRF protection is on, as in production
    client = app.test_client()
    for _ in range(5):
        assert client.get("/healthz").status_code == 200
    assert client.head("/healthz").status_code == 200
    assert client.post("/healthz").status_code == 405  # nothing to post: not a CSRF refusal (400)
    assert not getattr(app.view_functions["health.healthz"], "rate_limit_config", None)


def test_secret_key_file_gives_the_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    key_file = tmp_path / "secret"
    key_file.write_text("a-long-random-key-from-a-container-secret\n")
    monkeypatch.setenv("SCORER_SECRET_KEY_FILE", str(key_file))
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path / "instance")})
    assert app.config["SECRET_KEY"] == "a-long-random-key-from-a-container-secret"
    assert not (tmp_path / "instance" / "secret_key").exists()  # none generated beside the database


def test_secret_key_file_that_is_missing_or_empty_stops_the_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCORER_SECRET_KEY_FILE", str(tmp_path / "missing"))
    with pytest.raises(RuntimeError, match="SECRET_KEY_FILE .*missing: cannot be read"):
        create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path / "instance")})
    (tmp_path / "empty").write_text("\n")
    monkeypatch.setenv("SCORER_SECRET_KEY_FILE", str(tmp_path / "empty"))
    with pytest.raises(RuntimeError, match="is empty"):
        create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path / "instance")})


def test_without_secret_key_file_the_key_is_generated_into_the_instance_folder(tmp_path: Path,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SCORER_SECRET_KEY_FILE", raising=False)
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path / "instance")})
    assert app.config["SECRET_KEY"] == (tmp_path / "instance" / "secret_key").read_text().strip()


def test_the_hosting_document_s_table_names_every_setting() -> None:
    """docs/HOSTING.md, *Every setting*: one row a setting of the app, with its environment variable; and how to
    move the instance folder."""
    import re

    from helpers.docs import read, section

    from scorer.web import SETTINGS

    table = section(read("docs/HOSTING.md"), "## Every setting")
    rows = dict(re.findall(r"^\| `([A-Z_]+)` \| `SCORER_([A-Z_]+)` \|", table, re.M))
    assert rows == {key: key for key in SETTINGS}, set(rows) ^ set(SETTINGS)
    assert "`SCORER_INSTANCE_PATH`" in table
