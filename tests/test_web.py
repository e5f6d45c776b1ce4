"""The web skeleton: app factory, home page, house rules page, init-db, secret key."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient
from markupsafe import escape

from scorer import create_app
from scorer.web.db import SCHEMA_VERSION
from scorer.core.rules import HOUSE_RULES


def test_home_page(client: FlaskClient) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert b"Quadrille scorer" in response.data
    assert b"Quadrille, hard score (P)" in response.data


def test_rules_page_lists_every_house_rule(client: FlaskClient) -> None:
    page = client.get("/rules").get_data(as_text=True)
    for rule in HOUSE_RULES:
        assert f'id="{rule.name}"' in page
        assert str(escape(rule.title)) in page


def test_unknown_page_is_404(client: FlaskClient) -> None:
    assert client.get("/no-such-page").status_code == 404


def test_init_db_command_creates_the_database(app: Flask, tmp_path: Path) -> None:
    db_path = tmp_path / "fresh.sqlite"
    app.config["DATABASE"] = str(db_path)
    result = app.test_cli_runner().invoke(args=["init-db"])
    assert "Database ready" in result.output
    conn = sqlite3.connect(db_path)
    row = conn.execute("select value from meta where key = 'schema_version'").fetchone()
    assert row == (str(SCHEMA_VERSION),)
    names = {r[0] for r in conn.execute("select name from sqlite_master where type = 'table'")}
    assert {"meta", "tables", "events"} <= names


def test_secret_key_is_generated_into_the_instance_folder_and_kept(tmp_path: Path) -> None:
    instance = tmp_path / "instance"
    first = create_app({"INSTANCE_PATH": str(instance)})
    second = create_app({"INSTANCE_PATH": str(instance)})
    key = (instance / "secret_key").read_text().strip()
    assert len(key) == 64
    assert first.config["SECRET_KEY"] == second.config["SECRET_KEY"] == key
    assert first.config["DATABASE"] == str(instance / "scorer.sqlite")


def test_each_instance_gets_its_own_secret_key(tmp_path: Path) -> None:
    one = create_app({"INSTANCE_PATH": str(tmp_path / "one")})
    two = create_app({"INSTANCE_PATH": str(tmp_path / "two")})
    assert one.config["SECRET_KEY"] != two.config["SECRET_KEY"]


def test_every_answer_carries_safe_headers(client: FlaskClient) -> None:
    response = client.get("/")
    assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]
    assert "default-src 'self'" in response.headers["Content-Security-Policy"]
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["Referrer-Policy"] == "no-referrer"


def test_the_production_server_serves_the_app(tmp_path: Path) -> None:
    import os
    import socket
    import subprocess
    import sys
    import time
    import urllib.request

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent),
           "SCORER_INSTANCE_PATH": str(tmp_path / "instance")}
    server = subprocess.Popen([sys.executable, "-m", "scorer.serve", "--host", "127.0.0.1", "--port", str(port)],
                              cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as answer:
                    body = answer.read().decode()
                    headers = answer.headers
                break
            except OSError:
                time.sleep(0.1)
        else:
            raise AssertionError("waitress did not answer")
        assert "Quadrille scorer" in body
        assert headers["Server"] == "scorer"
        assert headers["X-Frame-Options"] == "DENY"
        assert (tmp_path / "instance" / "scorer.sqlite").exists()
    finally:
        server.terminate()
        server.wait(timeout=10)
