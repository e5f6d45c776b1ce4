"""A season nothing can break, on the phone (issue 22): the issue's taps over HTTP. A closed evening takes no
deal, a circle evening's settings stay its circle's, a correction shows every later evening, and a circle
edited by hand answers its pages with a sentence, never a 500."""

from __future__ import annotations

import json
import re

from flask import Flask
from flask.testing import FlaskClient
from helpers.web import csrf_token, next_evening, record, start_circle, text

from scorer.web.db import connect

FIRST = ("Ann", "Bea", "Cat", "Dan")
SECOND = ("Bea", "Cat", "Dan", "Eve")


def solo(client: FlaskClient, table: str, number: int, hombre: str, tricks: int) -> int:
    response = record(client, table, "solo", number, {"hombre": hombre, "trumps": "hearts", "hombre_tricks": str(tricks),
                                                       "matadors": "0"})
    return int(response.status_code)


def season(client: FlaskClient) -> tuple[str, str, str]:
    circle = start_circle(client, rule_codille_indivisible="odd_to_spadille", deals_agreed="8")
    first = next_evening(client, circle, FIRST)
    assert solo(client, first, 1, "Bea", 5) == 302  # a remise: the pool is carried
    second = next_evening(client, circle, SECOND)
    assert solo(client, second, 1, "Cat", 3) == 302  # a codille
    assert solo(client, second, 2, "Dan", 6) == 302
    return circle, first, second


def counts(app: Flask) -> tuple[int, ...]:
    db = connect(app.config["DATABASE"])
    return tuple(int(db.execute(f"select count(*) from {t}").fetchone()[0]) for t in ("tables", "events", "circle_events"))


def pages_answer(client: FlaskClient, circle: str, *tables: str) -> None:
    page = client.get(f"/c/{circle}")
    assert page.status_code == 200
    watch = re.search(r'href="[^"]*?(/cs/[^"]+)"', text(page))
    for url in [f"/c/{circle}", f"/c/{circle}/check", f"/c/{circle}/tally.pdf"] + ([watch.group(1)] if watch else []) \
            + [f"/t/{t}" + p for t in tables for p in ("", "/ledger", "/verify", "/settings", "/tally")]:
        assert client.get(url).status_code == 200, url


def test_a_deal_in_a_closed_evening_is_refused_and_the_season_holds(app: Flask, client: FlaskClient) -> None:
    circle, first, second = season(client)
    before = counts(app)
    refused = client.post(f"/t/{first}/deal/solo", data={
        "csrf_token": csrf_token(client, f"/t/{first}"), "contract": "solo", "number": "2", "action": "record",
        "hombre": "Cat", "trumps": "hearts", "hombre_tricks": "5", "matadors": "0"}, follow_redirects=True)
    assert "Evening 1 ended when evening 2 of the circle began" in text(refused)
    assert counts(app) == before
    play = text(client.get(f"/t/{first}"))
    assert "Evening 1 has ended" in play and "Undo deal" not in play
    pages_answer(client, circle, first, second)


def test_a_circle_evenings_settings_are_shown_and_never_changed(app: Flask, client: FlaskClient) -> None:
    circle = start_circle(client)
    evening = next_evening(client, circle, FIRST)
    page = text(client.get(f"/t/{evening}/settings"))
    assert "plays by its circle's settings" in page and 'type="submit"' not in page.split("<main")[1].split("holder")[0]
    changed = client.post(f"/t/{evening}/settings", data={"csrf_token": csrf_token(client, f"/t/{evening}"),
                                                          "profile": "penguin_points", "deals_agreed": "8"})
    assert changed.status_code == 302
    db = connect(app.config["DATABASE"])
    assert tuple(db.execute("select profile, deals_agreed from tables where token = ?", [evening]).fetchone()) == ("quadrille", 4)
    pages_answer(client, circle, evening)


def test_what_a_correction_changes_shows_every_later_evening(client: FlaskClient) -> None:
    circle = start_circle(client)
    first = next_evening(client, circle, FIRST)
    assert solo(client, first, 1, "Bea", 5) == 302
    second = next_evening(client, circle, SECOND)
    assert solo(client, second, 1, "Cat", 6) == 302
    preview = client.post(f"/t/{first}/audit/1/amend/solo", data={
        "csrf_token": csrf_token(client, f"/t/{first}/audit/1/amend/solo"), "log_length": "1", "action": "preview", "by": "Ann",
        "hombre": "Bea", "trumps": "hearts", "hombre_tricks": "6", "matadors": "0", "contract": "solo"})
    shown = text(preview)
    assert preview.status_code == 200, shown[-2000:]
    assert re.search(r"Evening 2 begins with <s>\d+</s> 0 chips carried in: ", shown), shown[shown.find("In the circle"):][:1500]
    assert "season total" in shown


def test_a_circle_edited_by_hand_answers_every_page(app: Flask, client: FlaskClient) -> None:
    circle, first, second = season(client)
    db = connect(app.config["DATABASE"])
    db.execute("update tables set profile = 'penguin_points' where token = ?", [second])  # evening 2 no longer the circle's
    page = client.get(f"/c/{circle}")
    assert page.status_code == 200 and "evening 2: its profile is not the circle's" in text(page)
    check = text(client.get(f"/c/{circle}/check"))
    assert "its profile is not the circle's" in check
    before = counts(app)
    assert client.post(f"/t/{second}/deal/solo", data={
        "csrf_token": csrf_token(client, f"/t/{second}"), "contract": "solo", "number": "3", "action": "record",
        "hombre": "Eve", "trumps": "hearts", "hombre_tricks": "6", "matadors": "0"}).status_code in (200, 302, 409, 422)
    assert client.post(f"/c/{circle}/member", data={"csrf_token": csrf_token(client, f"/t/{first}"),
                                                   "new_member": "Fay"}).status_code in (200, 409, 422)
    assert counts(app) == before
    pages_answer(client, circle, first, second)
    db.execute("update circles set members = ? where token = ?", [json.dumps(["Ann", "Bea", "Cat"]), circle])
    assert client.get(f"/c/{circle}").status_code == 200
    pages_answer(client, circle, first, second)


def test_the_circles_page_shows_its_last_evenings_and_links_every_evening(client: FlaskClient) -> None:
    """The page costs the same however long the season: the last three evenings in full, the rest a link away."""
    circle = start_circle(client)
    for n in range(5):
        seated = FIRST if n % 2 == 0 else SECOND
        table = next_evening(client, circle, seated)
        assert solo(client, table, 1, seated[1], 6) == 302
    page = text(client.get(f"/c/{circle}"))
    assert [int(n) for n in re.findall(r"Evening (\d+):", page)] == [3, 4, 5]
    assert "The 2 evenings before these: see every evening" in page
    every = client.get(f"/c/{circle}/evenings")
    assert every.status_code == 200 and [int(n) for n in re.findall(r"Evening (\d+):", text(every))] == [1, 2, 3, 4, 5]
    watch = re.search(r'href="[^"]*?/cs/([^"/]+)"', page)
    assert watch and client.get(f"/cs/{watch.group(1)}/evenings").status_code == 200
    assert f"/c/{circle}" not in text(client.get(f"/cs/{watch.group(1)}/evenings"))  # the watch-only page leads nowhere else
