"""New tables and imports are rate-limited per client address, far above what a club does (the budget of new
tables, every way of making one: test_new_tables_budget)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers.web import csrf_token, start_table

from scorer import create_app


def phone(app: Flask, address: str) -> FlaskClient:
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def new_table(client: FlaskClient, **headers: str) -> int:
    data = {"player_1": "Ann", "player_2": "Bea", "player_3": "Cat", "player_4": "Dan", "first_dealer": "1",
            "profile": "quadrille", "deals_agreed": "8", "csrf_token": csrf_token(client, "/new")}
    return client.post("/new", data=data, headers=headers).status_code


def test_the_4th_table_of_a_budget_of_3_is_refused_and_another_address_still_can(app: Flask) -> None:
    app.config["LIMIT_NEW_TABLES"] = "3 per hour;200 per day"  # read at each request (the default: 120 an hour, 400 a day)
    club = phone(app, "192.0.2.10")
    for _ in range(3):
        start_table(club)
    response = club.post("/new", data={"player_1": "Ann", "player_2": "Bea", "player_3": "Cat", "player_4": "Dan",
                                       "first_dealer": "1", "profile": "quadrille", "deals_agreed": "8",
                                       "csrf_token": csrf_token(club, "/new")})
    page = response.get_data(as_text=True)
    assert response.status_code == 429
    wait = int(response.headers["Retry-After"])
    assert 0 < wait <= 3600
    assert "more tables than a club ever needs in a row" in page and re.search(r"Try again in \d+ (minutes|seconds)", page)
    assert 'class="brand"' in page and 'value="Dan"' in page  # the app's own page, the form as it was sent
    assert club.get("/new").status_code == 200  # reading the form is never limited
    start_table(phone(app, "192.0.2.11"))  # another address still can


def test_imports_are_limited_and_every_post_counts(app: Flask) -> None:
    app.config["LIMIT_IMPORTS"] = "3 per hour"
    club = phone(app, "192.0.2.20")
    for _ in range(3):  # refused files count too: each one was parsed
        data = {"csrf_token": csrf_token(club, "/import"), "evening": (io.BytesIO(b"{}"), "x.json")}
        assert club.post("/import", data=data, content_type="multipart/form-data").status_code == 422
    data = {"csrf_token": csrf_token(club, "/import"), "evening": (io.BytesIO(b"{}"), "x.json")}
    response = club.post("/import", data=data, content_type="multipart/form-data")
    assert response.status_code == 429 and "Retry-After" in response.headers
    assert start_table(club)  # new tables have their own count


def test_an_import_told_to_wait_is_not_counted(tmp_path: Path) -> None:
    """An import answered 503 at the gate (another file is being read) read nothing: it spends no attempt."""
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "t.sqlite"), "SECRET_KEY": "t",
                      "LIMIT_IMPORTS": "2 per hour", "IMPORTS_WAITING_MAX": 0})  # no place to wait: 503 at once
    club, gate, reader = phone(app, "192.0.2.21"), app.extensions["scorer.import_gate"], object()
    assert gate.enter(reader, reader) is not None  # another file's turn, held
    try:
        for _ in range(3):
            data = {"csrf_token": csrf_token(club, "/import"), "evening": (io.BytesIO(b"{}"), "x.json")}
            answer = club.post("/import", data=data, content_type="multipart/form-data")
            assert answer.status_code == 503 and "Retry-After" in answer.headers
    finally:
        gate.leave(reader)
    for expected in (422, 422, 429):  # the two attempts of the limit are still there
        data = {"csrf_token": csrf_token(club, "/import"), "evening": (io.BytesIO(b"{}"), "x.json")}
        assert club.post("/import", data=data, content_type="multipart/form-data").status_code == expected


def test_a_forwarded_address_is_ignored_unless_a_proxy_is_trusted(tmp_path: Path) -> None:
    config = {"TESTING": True, "DATABASE": str(tmp_path / "t.sqlite"), "SECRET_KEY": "t", "LIMIT_NEW_TABLES": "1 per hour"}
    from scorer.web.db import init_db

    direct = create_app(config)
    with direct.app_context():
        init_db()
    client = phone(direct, "192.0.2.30")
    assert new_table(client, **{"X-Forwarded-For": "198.51.100.1"}) == 302
    assert new_table(client, **{"X-Forwarded-For": "198.51.100.2"}) == 429  # a made-up header changes nothing

    proxied = create_app({**config, "TRUSTED_PROXIES": 1})
    proxy = phone(proxied, "127.0.0.1")  # every request arrives from the proxy on this machine
    assert new_table(proxy, **{"X-Forwarded-For": "198.51.100.1"}) == 302
    assert new_table(proxy, **{"X-Forwarded-For": "198.51.100.2"}) == 302
    assert new_table(proxy, **{"X-Forwarded-For": "198.51.100.1"}) == 429
    # only the last (trusted) hop counts: a client cannot prepend its own entries
    assert new_table(proxy, **{"X-Forwarded-For": "10.9.9.9, 198.51.100.2"}) == 429


def test_the_limits_come_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCORER_LIMIT_NEW_TABLES", "1 per minute")
    monkeypatch.setenv("SCORER_TRUSTED_PROXIES", "2")
    monkeypatch.setenv("SCORER_RATELIMIT_ENABLED", "false")
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "t.sqlite"), "SECRET_KEY": "t"})
    assert app.config["LIMIT_NEW_TABLES"] == "1 per minute"
    assert app.config["TRUSTED_PROXIES"] == 2
    assert app.config["RATELIMIT_ENABLED"] is False


def test_the_limits_can_be_switched_off(tmp_path: Path) -> None:
    from scorer.web.db import init_db

    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "t.sqlite"), "SECRET_KEY": "t",
                      "LIMIT_NEW_TABLES": "1 per hour", "RATELIMIT_ENABLED": False})
    with app.app_context():
        init_db()
    client = app.test_client()
    assert new_table(client) == new_table(client) == 302
