"""A change to what was settled asks first (issue 30, point 5): an undo, a correction or a restoration in an evening a
recorded settlement covers shows, before it is saved, what was paid beside who pays whom once it is saved, and is
saved only on a tap made against the settlements as they stand (checked in the write transaction: a settlement
recorded or taken back since the page was shown refuses it, and nothing is written)."""

from __future__ import annotations

import html
import re

import pytest
from flask.testing import FlaskClient
from helpers.web import amend, csrf_token, next_evening, play_evening, start_circle

SEATED = ("Ann", "Bea", "Cat", "Dan")
PAYS = re.compile(r"<li><strong>(\w+)</strong> pays <strong>(\w+)</strong> ([^<]+)</li>")
# Deal 4 of the evening: Ann's solo in hearts, a remise with five tricks; corrected, a win with six.
WON = {"hombre": "Ann", "trumps": "hearts", "hombre_tricks": "6", "matadors": "0"}


def text(response: object) -> str:
    return html.unescape(response.get_data(as_text=True))  # type: ignore[attr-defined]


def hidden(page: str, name: str) -> str:
    found = re.search(rf'name="{name}" type="hidden" value="([^"]*)"', page)
    assert found, f"no hidden {name}"
    return found.group(1)


def settled_evening(client: FlaskClient, **circle: str) -> tuple[str, str]:
    """A circle whose evening 1 (four solos, the last a remise) is settled: the circle's token and the evening's."""
    token = start_circle(client, **circle)
    first = next_evening(client, token, SEATED)
    play_evening(client, first, SEATED, "6 5 6 5")
    settle(client, token)
    return token, first


def settle(client: FlaskClient, circle: str) -> None:
    page = client.get(f"/c/{circle}").get_data(as_text=True)
    fields = {name: hidden(page.split('/settle"')[1], name) for name in ("csrf_token", "lines", "shown")}
    assert client.post(f"/c/{circle}/settle", data=fields).status_code == 200  # the first tap shows what is recorded
    assert client.post(f"/c/{circle}/settle", data={**fields, "confirm": "yes"}).status_code == 302


def deals_standing(client: FlaskClient, table: str) -> int:
    return len(re.findall(r'href="/t/[^"]+/audit/\d+"', client.get(f"/t/{table}/ledger").get_data(as_text=True)))


def still_to_settle(client: FlaskClient, circle: str) -> str:
    return text(client.get(f"/c/{circle}")).split("Still to settle")[1].split("</section>")[0]


@pytest.mark.parametrize(("sent", "undone"), [
    (None, False),  # a form of no settlement (made before it was recorded): asks again
    ("0", False),
    ("999", False),
    ("mark", True),  # the settlement the page showed: the undo is the confirmation
])
def test_an_undo_in_a_settled_evening_shows_what_it_changes_in_what_was_paid_first(client: FlaskClient, sent: str | None,
                                                                                  undone: bool) -> None:
    circle, first = settled_evening(client)
    asked = text(client.get(f"/t/{first}/undo"))
    assert "Evening 1 is settled: this changes what was paid" in asked
    paid = re.search(r"Paid on [^:]+ for evening 1: (.*?)\.</p>", asked)
    assert paid and re.fullmatch(r"(\w+ paid \w+ \d+ chips?; )*\w+ paid \w+ \d+ chips?", paid.group(1))
    assert re.search(r"This change alone: (\w+ [+−]\d+ chips?, )*\w+ [+−]\d+ chips?\.", asked)
    after = PAYS.findall(asked.split("Still to settle once it is saved:")[1])
    assert after  # undoing Ann's remise gives back what it took: somebody pays again
    assert "Yes, undo deal 4 and change what was paid" in asked
    mark = hidden(asked, "settled")
    form = {"csrf_token": hidden(asked, "csrf_token"), "number": "4", "once": hidden(asked, "once")}
    if sent is not None:
        form["settled"] = mark if sent == "mark" else sent
    response = client.post(f"/t/{first}/undo", data=form)
    assert response.status_code == 302
    shown = text(client.get(response.headers["Location"]))
    if undone:
        assert "Deal 4 undone." in shown and deals_standing(client, first) == 3
        assert [(payer, payee, amount) for payer, payee, amount in PAYS.findall(still_to_settle(client, circle))] == after
        assert "Changed since evening 1 was settled" in still_to_settle(client, circle)
    else:
        assert "Evening 1 is covered by a recorded settlement: look at what this change does to what was paid, then " \
               "confirm it." in shown and "Evening 1 is settled: this changes what was paid" in shown
        assert deals_standing(client, first) == 4 and "Nothing: the season is settled." in still_to_settle(client, circle)


def test_an_undo_in_an_evening_not_settled_asks_nothing_more(client: FlaskClient) -> None:
    circle = start_circle(client)
    first = next_evening(client, circle, SEATED)
    play_evening(client, first, SEATED, "6 5 6 5")
    asked = text(client.get(f"/t/{first}/undo"))
    assert "is settled" not in asked and hidden(asked, "settled") == "" and "Yes, undo deal 4" in asked
    form = {"csrf_token": hidden(asked, "csrf_token"), "number": "4", "once": hidden(asked, "once")}
    assert client.post(f"/t/{first}/undo", data=form).status_code == 302 and deals_standing(client, first) == 3


def test_an_undo_asked_before_a_settlement_was_recorded_asks_again(client: FlaskClient) -> None:
    circle = start_circle(client)
    first = next_evening(client, circle, SEATED)
    play_evening(client, first, SEATED, "6 5 6 5")
    asked = text(client.get(f"/t/{first}/undo"))  # shown before the settlement
    settle(client, circle)  # another phone records it meanwhile
    form = {"csrf_token": hidden(asked, "csrf_token"), "number": "4", "once": hidden(asked, "once"), "settled": ""}
    again = text(client.get(client.post(f"/t/{first}/undo", data=form).headers["Location"]))
    assert "covered by a recorded settlement" in again and deals_standing(client, first) == 4


def test_a_correction_in_a_settled_evening_shows_what_was_paid_and_asks_again_after_a_settlement(client: FlaskClient) -> None:
    circle = start_circle(client, chip_value="0.10", currency="EUR")
    first = next_evening(client, circle, SEATED)
    play_evening(client, first, SEATED, "6 5 6 5")
    # previewed before the settlement: nothing of it to show
    preview = text(amend(client, first, 4, "solo", WON, by="Cat", reason="six tricks"))
    assert "is settled" not in preview and hidden(preview, "settled") == ""
    settle(client, circle)
    saved = amend(client, first, 4, "solo", WON, by="Cat", reason="six tricks", action="save",
                  previewed=hidden(preview, "previewed"))
    again = text(saved)  # type: ignore[arg-type]
    assert saved.status_code == 200 and "The correction changed since its preview" in again  # type: ignore[attr-defined]
    assert "Evening 1 is settled: this changes what was paid" in again and re.search(r"Paid on [^:]+ for evening 1: ", again)
    assert re.search(r"This change alone: (\w+ [+−]€[\d.]+, )*\w+ [+−]€[\d.]+\.", again)
    after = PAYS.findall(again.split("Still to settle once it is saved:")[1])
    assert after
    assert "Nothing: the season is settled." in still_to_settle(client, circle)  # nothing saved yet
    # a form that does not carry the settlement it showed: refused in the write itself
    refused = amend(client, first, 4, "solo", WON, by="Cat", reason="six tricks", action="save",
                    previewed=hidden(again, "previewed"))
    assert refused.status_code == 422 and "Evening 1 is covered by a recorded settlement" in text(refused)  # type: ignore[attr-defined]
    saved = amend(client, first, 4, "solo", {**WON, "settled": hidden(again, "settled")}, by="Cat", reason="six tricks",
                  action="save", previewed=hidden(again, "previewed"))
    assert saved.status_code == 302  # type: ignore[attr-defined]
    assert PAYS.findall(still_to_settle(client, circle)) == after


def test_a_correction_previewed_before_a_settlement_was_taken_back_and_recorded_again_asks_again(client: FlaskClient) -> None:
    """The preview's digest binds the settlements it showed: the same figures under a new settlement show again."""
    circle, first = settled_evening(client)
    url = f"/t/{first}/audit/4/amend/solo"
    preview = text(amend(client, first, 4, "solo", WON, by="Cat"))
    form = {"csrf_token": csrf_token(client, url), "contract": "solo", "number": "4", "by": "Cat", "reason": "",
            "log_length": hidden(preview, "log_length"), "once": hidden(preview, "once"), "action": "save",
            "previewed": hidden(preview, "previewed"), "settled": hidden(preview, "settled"), **WON}
    settle_mark = form["settled"]
    assert settle_mark
    # the settlement taken back and recorded again on another phone: the same figures, a new settlement
    page = client.get(f"/c/{circle}").get_data(as_text=True)
    take_back = {name: hidden(page.split("/take-back")[1], name) for name in ("csrf_token", "settlement", "lines")}
    assert client.post(f"/c/{circle}/take-back", data={**take_back, "reason": "counted twice"}).status_code == 302
    settle(client, circle)
    refused = client.post(url, data=form)
    assert refused.status_code == 200 and "The correction changed since its preview" in text(refused)
    assert "Nothing: the season is settled." in still_to_settle(client, circle)


def test_a_restoration_in_a_settled_evening_shows_what_it_changes_and_needs_the_tap(client: FlaskClient) -> None:
    circle = start_circle(client)
    first = next_evening(client, circle, SEATED)
    play_evening(client, first, SEATED, "6 5 6 5")
    preview = text(amend(client, first, 4, "solo", WON, by="Cat"))
    assert amend(client, first, 4, "solo", WON, by="Cat", action="save",  # before the settlement: saved at once
                 previewed=hidden(preview, "previewed")).status_code == 302  # type: ignore[attr-defined]
    settle(client, circle)
    versions = re.findall(rf'href="/t/{first}/audit/4/restore/(\d+)"', client.get(f"/t/{first}/audit/4").get_data(as_text=True))
    assert versions
    url = f"/t/{first}/audit/4/restore/{versions[0]}"
    asked = text(client.get(url))
    assert "Evening 1 is settled: this changes what was paid" in asked
    after = PAYS.findall(asked.split("Still to settle once it is saved:")[1])
    form = {"csrf_token": hidden(asked, "csrf_token"), "by": "Dan", "reason": "it was a remise",
            "log_length": hidden(asked, "log_length"), "once": hidden(asked, "once")}
    refused = client.post(url, data={**form, "settled": "0"})
    assert refused.status_code == 422 and "Evening 1 is covered by a recorded settlement" in text(refused)
    assert "Nothing: the season is settled." in still_to_settle(client, circle)
    assert client.post(url, data={**form, "settled": hidden(asked, "settled")}).status_code == 302
    assert PAYS.findall(still_to_settle(client, circle)) == after and after
