"""One budget of new tables per client address (issue 22, point 6): every table counts, however it is made
(/new, /import, a circle's next evening, each evening of a circle import), and every circle counts one.

The budget is set to 3 an hour here (read at each request); the counts of an hour start at the first table,
so no test depends on the clock.
"""

from __future__ import annotations

import io
import re
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers.racing import until
from helpers.web import csrf_token, next_evening, record, start_circle
from limits import parse_many

from scorer.web import SETTINGS
from scorer.core.limits import CIRCLE_EVENINGS_MAX

EVENING_FILE = (Path(__file__).resolve().parent.parent / "examples" / "evening.json").read_bytes()
SEATED = ("Ann", "Bea", "Cat", "Dan")


def phone(app: Flask, address: str) -> FlaskClient:
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def made(app: Flask) -> tuple[int, int]:
    """(tables, circles) in the database."""
    with sqlite3.connect(app.config["DATABASE"]) as db:
        return db.execute("select count(*) from tables").fetchone()[0], db.execute("select count(*) from circles").fetchone()[0]


@dataclass
class Club:
    """What another address made first: a circle of two evenings, each with a deal, and its file after each."""

    circle: str
    one_evening: bytes
    two_evenings: bytes


@pytest.fixture
def club(app: Flask) -> Club:
    app.config["LIMIT_NEW_TABLES"] = "3 per hour"
    founder = phone(app, "192.0.2.200")  # spends its own 3: the circle and two evenings
    circle = start_circle(founder)
    one_deal(founder, next_evening(founder, circle, SEATED))
    one = founder.get(f"/c/{circle}/export.json").get_data()
    one_deal(founder, next_evening(founder, circle, SEATED))
    return Club(circle, one, founder.get(f"/c/{circle}/export.json").get_data())


def one_deal(client: FlaskClient, table: str) -> None:
    """A deal recorded: the circle's next evening may start."""
    assert record(client, table, "solo", 1, {"hombre": "Bea", "trumps": "hearts", "hombre_tricks": "6",
                                             "matadors": "0"}).status_code == 302


# Each way in: what it sends, and what its page keeps when refused. A circle's next evening needs a deal in the
# evening before: the way records one in the evening it starts, so the next try is refused by the budget alone.


def by_new(client: FlaskClient, club: Club) -> int:
    data = {"player_1": "Ann", "player_2": "Bea", "player_3": "Cat", "player_4": "Zoltan", "first_dealer": "1",
            "profile": "quadrille", "deals_agreed": "8", "csrf_token": csrf_token(client, "/new")}
    return client.post("/new", data=data).status_code


def by_import(client: FlaskClient, club: Club) -> int:
    data = {"csrf_token": csrf_token(client, "/import"), "evening": (io.BytesIO(EVENING_FILE), "evening.json")}
    return client.post("/import", data=data, content_type="multipart/form-data").status_code


def by_next_evening(client: FlaskClient, club: Club) -> int:
    data = {f"seat_{i}": p for i, p in enumerate(SEATED, start=1)}
    response = client.post(f"/c/{club.circle}/next", data={**data, "first_dealer": "1",
                                                           "csrf_token": csrf_token(client, f"/c/{club.circle}")})
    if response.status_code == 302:
        one_deal(client, response.headers["Location"].split("/t/")[1].split("/")[0])
    return response.status_code


def by_new_circle(client: FlaskClient, club: Club) -> int:
    data = {"name": "Zoltan's circle", "profile": "quadrille", "deals_agreed": "4", "rule_pool_at_end": "carry_forward",
            "csrf_token": csrf_token(client, "/c/new"), **{f"member_{i}": m for i, m in enumerate(SEATED, start=1)}}
    return client.post("/c/new", data=data).status_code


def importing_circle(file: Callable[[Club], bytes]) -> Callable[[FlaskClient, Club], int]:
    def by_circle_import(client: FlaskClient, club: Club) -> int:
        data = {"csrf_token": csrf_token(client, "/c/import"), "circle": (io.BytesIO(file(club)), "circle.json")}
        return client.post("/c/import", data=data, content_type="multipart/form-data").status_code

    return by_circle_import


by_circle_import_of_one = importing_circle(lambda club: club.one_evening)  # 2 tables: the circle, its evening
by_circle_import_of_two = importing_circle(lambda club: club.two_evenings)  # 3

WAYS = {"/new": by_new, "/import": by_import, "/c/<token>/next": by_next_evening, "/c/new": by_new_circle,
        "/c/import": by_circle_import_of_one}


@pytest.mark.parametrize("spent_by, tries", [
    ("/new", ["/new"] * 3),
    ("/import", ["/import"] * 3),
    ("/c/<token>/next", ["/c/<token>/next"] * 3),
    ("/c/new", ["/c/new"] * 3),
    ("/c/import", ["/c/import of two evenings"]),  # 3 at once
    ("interleaved", ["/c/<token>/next", "/new", "/import"]),
    ("interleaved", ["/c/new", "/c/import"]),  # 1 + 2
])
def test_a_budget_spent_one_way_refuses_every_way_and_writes_nothing(app: Flask, club: Club, spent_by: str,
                                                                     tries: list[str]) -> None:
    client = phone(app, "198.51.100.7")
    ways = {**WAYS, "/c/import of two evenings": by_circle_import_of_two}
    for way in tries:
        assert ways[way](client, club) == 302, way
    before = made(app)
    for way, send in WAYS.items():
        assert send(client, club) == 429, f"{way} after the budget was spent by {spent_by}"
    assert made(app) == before
    assert by_new(phone(app, "198.51.100.8"), club) == 302  # another address has its own budget


def test_a_refusal_keeps_the_page_s_form_and_says_how_long_to_wait(app: Flask, club: Club) -> None:
    client = phone(app, "198.51.100.7")
    for _ in range(3):
        assert by_new(client, club) == 302
    answers = {
        "/new": client.post("/new", data={"player_1": "Ann", "player_2": "Bea", "player_3": "Cat", "player_4": "Zoltan",
                                          "first_dealer": "1", "profile": "quadrille", "deals_agreed": "8",
                                          "csrf_token": csrf_token(client, "/new")}),
        "/c/new": client.post("/c/new", data={"name": "Zoltan's circle", "profile": "quadrille", "deals_agreed": "4",
                                              "csrf_token": csrf_token(client, "/c/new"),
                                              **{f"member_{i}": m for i, m in enumerate(SEATED, start=1)}}),
        "/c/<token>/next": client.post(f"/c/{club.circle}/next", data={
            **{f"seat_{i}": p for i, p in enumerate(SEATED, start=1)}, "first_dealer": "1",
            "csrf_token": csrf_token(client, f"/c/{club.circle}")}),
        "/import": client.post("/import", data={"csrf_token": csrf_token(client, "/import"),
                                                "evening": (io.BytesIO(EVENING_FILE), "evening.json")},
                               content_type="multipart/form-data"),
    }
    kept = {"/new": 'value="Zoltan"', "/c/new": 'value="Zoltan&#39;s circle"', "/c/<token>/next": 'name="seat_4"',
            "/import": 'name="evening"'}
    for way, response in answers.items():
        page = response.get_data(as_text=True)
        assert response.status_code == 429, way
        assert 0 < int(response.headers["Retry-After"]) <= 3600, way
        assert re.search(r"Try again in (\d+ minutes|\d+ seconds|1 hour)", page), way
        assert "more tables than a club ever needs in a row" in page, way
        assert 'id="errors"' in page and kept[way] in page, way  # the summary first, and the form as it was sent


def test_a_circle_import_of_more_evenings_than_the_budget_has_left_is_refused_whole(app: Flask, club: Club) -> None:
    client = phone(app, "198.51.100.7")
    assert by_new(client, club) == 302  # 2 left
    before = made(app)
    data = {"csrf_token": csrf_token(client, "/c/import"), "circle": (io.BytesIO(club.two_evenings), "circle.json")}
    response = client.post("/c/import", data=data, content_type="multipart/form-data")
    page = response.get_data(as_text=True)
    assert response.status_code == 429 and "Retry-After" in response.headers
    assert "This file would start 3 new tables" in page and "this address may start 2 more for now" in page
    assert "nothing was imported" in page and 'name="circle"' in page  # on the import form, to try again
    assert made(app) == before  # not the circle and one evening: nothing
    assert by_circle_import_of_one(client, club) == 302  # 2: exactly what was left
    assert made(app) == (before[0] + 1, before[1] + 1)
    assert by_new(client, club) == 429


def test_a_circle_import_larger_than_the_whole_budget_says_so_and_waiting_would_not_help(app: Flask, club: Club) -> None:
    app.config["LIMIT_NEW_TABLES"] = "2 per hour;10 per day"
    client = phone(app, "198.51.100.7")
    data = {"csrf_token": csrf_token(client, "/c/import"), "circle": (io.BytesIO(club.two_evenings), "circle.json")}
    response = client.post("/c/import", data=data, content_type="multipart/form-data")
    page = response.get_data(as_text=True)
    assert response.status_code == 422 and "Retry-After" not in response.headers
    assert "more than this server lets one address start (2)" in page
    assert by_circle_import_of_one(client, club) == 302  # its budget untouched


def test_a_form_or_file_refused_costs_nothing_of_the_budget(app: Flask, club: Club) -> None:
    app.config["LIMIT_NEW_TABLES"] = "1 per hour"
    client = phone(app, "198.51.100.7")
    for _ in range(3):
        assert client.post("/new", data={"player_1": "Ann", "csrf_token": csrf_token(client, "/new")}).status_code == 422
        bad = {"csrf_token": csrf_token(client, "/import"), "evening": (io.BytesIO(b"{}"), "x.json")}
        assert client.post("/import", data=bad, content_type="multipart/form-data").status_code == 422
    data = {f"seat_{i}": p for i, p in enumerate(("Ann", "Ann", "Cat", "Dan"), start=1)}
    assert client.post(f"/c/{club.circle}/next", data={**data, "first_dealer": "1",
                                                       "csrf_token": csrf_token(client, f"/c/{club.circle}")}).status_code == 422
    assert by_new(client, club) == 302
    assert by_new(client, club) == 429


def test_two_requests_at_one_moment_from_one_address_are_checked_one_after_the_other(
    app: Flask, club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One table left, two asked at once: the second is checked once the first has written (and spent)."""
    import scorer.web.pages.tables
    from scorer.web.ratelimits import BUDGET_EXTENSION

    client = phone(app, "198.51.100.7")
    assert by_new(client, club) == 302 and by_new(client, club) == 302  # 1 left
    writing = threading.Event()
    release = threading.Event()
    real = scorer.web.pages.tables.create_table

    def held(*args: object, **kwargs: object) -> object:
        writing.set()
        assert release.wait(60)
        return real(*args, **kwargs)

    monkeypatch.setattr(scorer.web.pages.tables, "create_table", held)
    phones = [client, phone(app, "198.51.100.7")]  # two phones behind one address
    forms = [{"player_1": "Ann", "player_2": "Bea", "player_3": "Cat", "player_4": "Dan", "first_dealer": "1",
              "profile": "quadrille", "deals_agreed": "8", "csrf_token": csrf_token(p, "/new")} for p in phones]
    answers: list[int] = []
    first, second = (threading.Thread(target=lambda n=n: answers.append(phones[n].post("/new", data=forms[n]).status_code))
                     for n in range(2))
    first.start()
    assert writing.wait(60)  # the first is writing its table
    second.start()
    budget = app.extensions[BUDGET_EXTENSION]
    until(lambda: budget._locks["198.51.100.7"][1] == 2)  # the second waits for the address's lock
    release.set()
    first.join(60)
    second.join(60)
    assert sorted(answers) == [302, 429]


def test_the_default_budget_admits_the_largest_circle_a_file_may_bring() -> None:
    """A circle file of CIRCLE_EVENINGS_MAX evenings starts that many tables and the circle, in one import."""
    assert SETTINGS["LIMIT_NEW_TABLES"] == "120 per hour;400 per day"
    assert min(item.amount for item in parse_many(SETTINGS["LIMIT_NEW_TABLES"])) >= CIRCLE_EVENINGS_MAX + 1
