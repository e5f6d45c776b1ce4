"""Four phones, thumbs that double-tap, flaky connections: every deal is recorded exactly once."""

from __future__ import annotations

import re
import threading

from flask import Flask
from flask.testing import FlaskClient
from helpers.web import SOLO, csrf_token, event_rows, previewed_form, start_table


def name_phone(client: FlaskClient, token: str, name: str) -> None:
    client.post(f"/t/{token}/me", data={"csrf_token": csrf_token(client, f"/t/{token}"), "me": name})


def test_a_double_tap_records_once_and_answers_the_same(app: Flask, client: FlaskClient) -> None:
    token = start_table(client)
    name_phone(client, token, "Ann")
    form = previewed_form(client, token)
    first = client.post(f"/t/{token}/deal/solo", data=form, follow_redirects=True).get_data(as_text=True)
    second = client.post(f"/t/{token}/deal/solo", data=form, follow_redirects=True).get_data(as_text=True)
    third = client.post(f"/t/{token}/deal/solo", data=form, follow_redirects=True).get_data(as_text=True)
    assert "Deal 1 recorded: Bea&#39;s solo, won." in first
    assert "Deal 1 is recorded by Ann." in second and "Deal 1 is recorded by Ann." in third
    assert "another phone" not in second
    assert event_rows(app) == [("record", 1)]
    assert "Deal 2: what did Hombre play?" in third


def test_the_second_phone_is_told_who_recorded_the_deal_and_shown_it(app: Flask, client: FlaskClient) -> None:
    """Beside its own entry, not recorded (tests/test_race_page.py shows the page whole)."""
    token = start_table(client)
    cat = app.test_client()
    name_phone(client, token, "Ann")
    ann_form = previewed_form(client, token)
    cat_form = previewed_form(cat, token, data={**SOLO, "hombre_tricks": "7", "premiers": "", "matadors": "3"})
    assert client.post(f"/t/{token}/deal/solo", data=ann_form).status_code == 302
    response = cat.post(f"/t/{token}/deal/solo", data=cat_form)
    page = response.get_data(as_text=True)
    assert response.status_code == 409 and "Deal 1: the phones disagree" in page
    assert "Recorded by Ann" in page and "This phone&#39;s entry was not recorded." in page.replace("'", "&#39;")
    assert re.search(r"Tricks</th><td>6</td><td>7</td>.*Matadors</th><td>none</td><td>3</td>.*"
                     r"Bea</th><td>\+15</td><td>\+18</td>", page, re.S)
    assert event_rows(app) == [("record", 1)]


def test_phones_racing_for_the_same_deal_record_it_once(app: Flask) -> None:
    token = start_table(app.test_client())
    phones = [app.test_client() for _ in range(8)]
    forms = [previewed_form(phone, token) for phone in phones]
    start = threading.Barrier(len(phones))
    answers: list[int] = []

    def tap(phone: FlaskClient, form: dict[str, str]) -> None:
        start.wait()
        answers.append(phone.post(f"/t/{token}/deal/solo", data=form).status_code)

    threads = [threading.Thread(target=tap, args=pair) for pair in zip(phones, forms)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # nobody sees an error page: one phone records the deal, the others are told the table recorded the same deal
    assert sorted(answers) == [200] * (len(phones) - 1) + [302]
    assert event_rows(app) == [("record", 1)]


def test_a_double_tapped_undo_undoes_one_deal(app: Flask, client: FlaskClient) -> None:
    token = start_table(client)
    for number in (1, 2):
        form = previewed_form(client, token, data={**SOLO, "hombre": "Cat" if number == 2 else "Bea"})
        client.post(f"/t/{token}/deal/solo", data=form)
    page = client.get(f"/t/{token}/undo").get_data(as_text=True)
    hidden = dict(re.findall(r'name="(number|once|csrf_token)" type="hidden" value="([^"]*)"', page))
    client.post(f"/t/{token}/undo", data=hidden)
    again = client.post(f"/t/{token}/undo", data=hidden, follow_redirects=True).get_data(as_text=True)
    assert "Deal 2 is undone." in again
    assert event_rows(app) == [("record", 1), ("record", 2), ("undo", 2)]


def test_naming_the_phone(app: Flask, client: FlaskClient) -> None:
    token = start_table(client)
    assert "Who holds this phone?" in client.get(f"/t/{token}").get_data(as_text=True)
    name_phone(client, token, "Dan")
    assert "This phone: <strong>Dan</strong>" in client.get(f"/t/{token}").get_data(as_text=True)
    name_phone(client, token, "Eve")  # not a player: ignored
    assert "This phone: <strong>Dan</strong>" in client.get(f"/t/{token}").get_data(as_text=True)
