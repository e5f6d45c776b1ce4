"""Two phones that disagree (issue 25, point 1): a deal form that loses the race to another phone shows the deal as
recorded and its own entry side by side, and writes nothing.

Phone B previews Bea's solo in hearts with 6 tricks (won); phone A (Ann's) records 5 tricks (remise) first. B's
Record then shows both entries (who recorded what, what each player pays), a link to keep the recorded deal and a
form that opens deal 1's correction filled with B's entry; the correction goes through its own preview and save.
The same entry is said simply; a tampered entry is a message; a race for the last deal of the evening, or for a
deal of an evening its circle has closed since, is shown the same way; a race for a deal undone since is no race;
a correction since (of that deal, or of an earlier one that moved the pool) is the table as it stands."""

from __future__ import annotations

import html
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.datastructures import MultiDict
from helpers.web import SOLO, csrf_token, event_rows, next_evening, play_evening, previewed_form, start_circle, start_table

WON = {**SOLO, "hombre_tricks": "6"}
REMISE = {**SOLO, "hombre_tricks": "5"}


def name_phone(client: FlaskClient, token: str, name: str) -> None:
    client.post(f"/t/{token}/me", data={"csrf_token": csrf_token(client, f"/t/{token}"), "me": name})


def said(response: object) -> str:
    page = html.unescape(response.get_data(as_text=True))  # type: ignore[attr-defined]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))


def hidden_inputs(page: str, action: str) -> list[tuple[str, str]]:
    """The hidden inputs of the page's form posted to ``action``."""
    form = re.search(rf'<form method="post" action="{re.escape(action)}">(.*?)</form>', page, re.S)
    assert form, f"no form to {action}"
    inputs = re.findall(r'<input name="([^"]+)" type="hidden" value="([^"]*)">', form.group(1))
    return [(n, html.unescape(v)) for n, v in inputs]


def records(client: FlaskClient, token: str, taps: dict[str, str]) -> bool:
    """The phone previews a solo with ``taps`` and records it."""
    return client.post(f"/t/{token}/deal/solo", data=previewed_form(client, token, data=taps)).status_code == 302


def corrects(client: FlaskClient, token: str, number: int, taps: dict[str, str], by: str) -> bool:
    """The phone corrects deal ``number`` to a solo with ``taps``: shows what it changes, then saves it."""
    url = f"/t/{token}/audit/{number}/amend/solo"
    log_length = re.search(r'name="log_length" type="hidden" value="(\d+)"', client.get(url).get_data(as_text=True))
    assert log_length
    fields = {"csrf_token": csrf_token(client, url), "by": by, "reason": "", "log_length": log_length.group(1), **taps}
    preview = client.post(url, data={**fields, "action": "preview"}).get_data(as_text=True)
    digest = re.search(r'name="previewed" type="hidden" value="([^"]+)"', preview)
    assert digest
    return client.post(url, data={**fields, "action": "save", "previewed": digest.group(1)}).status_code == 302


def two_phones(app: Flask, client: FlaskClient, a_taps: dict[str, str], b_taps: dict[str, str],
               deals_agreed: str = "8") -> tuple[str, FlaskClient, dict[str, str]]:
    """Ann's phone (``client``) records deal 1 with ``a_taps``; Bea's phone has previewed ``b_taps`` before: its form."""
    token = start_table(client, deals_agreed=deals_agreed)
    bea = app.test_client()
    name_phone(client, token, "Ann")
    name_phone(bea, token, "Bea")
    b_form = previewed_form(bea, token, data=b_taps)
    assert records(client, token, a_taps)
    return token, bea, b_form


def test_a_different_entry_is_shown_beside_the_recorded_one_and_nothing_is_written(app: Flask, client: FlaskClient) -> None:
    token, bea, b_form = two_phones(app, client, REMISE, WON)
    answer = bea.post(f"/t/{token}/deal/solo", data=b_form)
    page = said(answer)
    assert answer.status_code == 409
    assert "Deal 1: the phones disagree" in page
    assert "This phone's entry was not recorded. Keep the recorded deal, or correct it with this phone's entry." in page
    assert "Recorded by Ann This phone's entry not recorded" in page
    assert "Deal Bea's solo in hearts: remise Bea's solo in hearts: won" in page
    assert "Tricks 5 6" in page
    # what each player pays: Bea's remise puts the stake into the pool; her solo won takes it, and more
    rows = dict((name, (was, now)) for name, was, now in re.findall(r'<tr class="net[^"]*"><th scope="row">(\w+)</th>'
                                                                     r'<td>([^<]*)</td><td>([^<]*)</td>',
                                                                     answer.get_data(as_text=True)))
    assert set(rows) == {"Ann", "Bea", "Cat", "Dan"}
    assert rows["Bea"][0].startswith("−") and rows["Bea"][1].startswith("+"), rows
    assert all(was != now for was, now in rows.values()), rows
    assert "Keep the recorded deal" in page and "Correct deal 1 with my entry" in page
    assert "Who pays whom, as recorded" in page and "Who pays whom, with this phone's entry" in page
    assert event_rows(app) == [("record", 1)]
    assert f'href="/t/{token}">Keep the recorded deal</a>' in answer.get_data(as_text=True)
    carried = hidden_inputs(answer.get_data(as_text=True), f"/t/{token}/audit/1/amend/solo")
    assert [n for n, _v in carried if n != "csrf_token"] == ["hombre", "trumps", "hombre_tricks", "matadors"]
    assert ("hombre_tricks", "6") in carried


def test_the_same_entry_is_said_simply(app: Flask, client: FlaskClient) -> None:
    token, bea, b_form = two_phones(app, client, WON, WON)
    answer = bea.post(f"/t/{token}/deal/solo", data=b_form)
    page = said(answer)
    assert answer.status_code == 200
    assert "Ann recorded the same deal" in page and "nothing more to do" in page
    assert "Deal 1: Bea's solo in hearts: won" in page
    assert "Keep the recorded deal" not in page and "with my entry" not in page and "/amend/" not in page
    assert event_rows(app) == [("record", 1)]


def test_the_same_deal_recorded_by_an_unnamed_phone(app: Flask, client: FlaskClient) -> None:
    token = start_table(client)
    bea = app.test_client()
    b_form = previewed_form(bea, token, data=WON)
    assert records(client, token, WON)
    page = said(bea.post(f"/t/{token}/deal/solo", data=b_form))
    assert "Deal 1 already stands as this phone entered it" in page and "Recorded on another phone." in page


# (what a tampered phone sends instead of its taps, the message the page shows)
HOSTILE = [
    ({"hombre_tricks": "11"}, "Tricks Hombre took: Tap one of the choices shown."),
    ({"hombre": "Zed"}, "Hombre: Tap one of the choices shown."),
    ({"trumps": "<script>alert(1)</script>"}, "Trumps: Tap one of the choices shown."),
    ({"hombre_tricks": "5", "premiers": "y"}, "premiers are the first six tricks, but the contracting side took only 5"),
]


@pytest.mark.parametrize(("tampered", "message"), HOSTILE)
def test_a_hostile_entry_is_a_message_never_an_error_page(app: Flask, client: FlaskClient, tampered: dict[str, str],
                                                          message: str) -> None:
    token, bea, b_form = two_phones(app, client, REMISE, WON)
    answer = bea.post(f"/t/{token}/deal/solo", data={**b_form, **tampered})
    page = said(answer)
    assert answer.status_code == 409
    assert "Cannot be settled as the table stands:" in page and message in page, page[-2000:]
    assert "<script>alert" not in answer.get_data(as_text=True)
    assert "Keep the recorded deal" in page
    assert event_rows(app) == [("record", 1)]


def test_an_entry_padded_to_megabytes_is_not_written_back(app: Flask, client: FlaskClient) -> None:
    token, bea, b_form = two_phones(app, client, REMISE, WON)
    answer = bea.post(f"/t/{token}/deal/solo", data={**b_form, "giver": "x" * 100_000})
    assert answer.status_code == 409 and len(answer.get_data()) < 40_000
    assert "Keep the recorded deal" in said(answer) and "with my entry" not in said(answer)


def test_the_last_deal_of_the_evening_lost_to_another_phone(app: Flask, client: FlaskClient) -> None:
    """The deal Ann recorded ended the evening: Bea's entry is still shown beside it, and can still correct it."""
    token = start_table(client, deals_agreed="4")
    for hombre in ("Bea", "Cat", "Dan"):
        assert records(client, token, {**WON, "hombre": hombre})
    name_phone(client, token, "Ann")
    bea = app.test_client()
    b_form = previewed_form(bea, token, data={**WON, "hombre": "Ann"})
    assert records(client, token, {**REMISE, "hombre": "Ann"})
    answer = bea.post(f"/t/{token}/deal/solo", data=b_form)
    page = said(answer)
    assert answer.status_code == 409 and "Deal 4: the phones disagree" in page and "The evening is over" not in page
    assert "Ann's solo in hearts: remise Ann's solo in hearts: won" in page
    assert "Correct deal 4 with my entry" in page
    assert event_rows(app)[-1] == ("record", 4) and len(event_rows(app)) == 4


def test_a_deal_undone_since_is_no_race(app: Flask, client: FlaskClient) -> None:
    """Ann recorded deal 1 and took it back: Bea's Record records her own entry."""
    token, bea, b_form = two_phones(app, client, REMISE, WON)
    undo = client.get(f"/t/{token}/undo").get_data(as_text=True)
    hidden = dict(re.findall(r'name="(number|once|csrf_token)" type="hidden" value="([^"]*)"', undo))
    assert client.post(f"/t/{token}/undo", data=hidden).status_code == 302
    answer = bea.post(f"/t/{token}/deal/solo", data=b_form, follow_redirects=True)
    assert "Deal 1 recorded: Bea&#39;s solo, won." in answer.get_data(as_text=True)
    assert event_rows(app) == [("record", 1), ("undo", 1), ("record", 1)]


def test_a_correction_since_is_the_deal_shown(app: Flask, client: FlaskClient) -> None:
    """Ann recorded 5 tricks, Cat corrected them to 6: Bea's 6 is the deal as it stands."""
    token, bea, b_form = two_phones(app, client, REMISE, WON)
    assert corrects(client, token, 1, WON, by="Cat")
    same = said(bea.post(f"/t/{token}/deal/solo", data=b_form))
    assert "Deal 1 already stands as this phone entered it" in same and "Corrected since by Cat." in same
    differs = said(bea.post(f"/t/{token}/deal/solo", data={**b_form, "hombre_tricks": "7"}))
    assert "Recorded by Ann corrected by Cat This phone's entry not recorded" in differs
    assert "Tricks 6 7" in differs


def test_correct_with_my_entry_opens_the_correction_filled_with_it(app: Flask, client: FlaskClient) -> None:
    token, bea, b_form = two_phones(app, client, REMISE, WON)
    race = bea.post(f"/t/{token}/deal/solo", data=b_form).get_data(as_text=True)
    url = f"/t/{token}/audit/1/amend/solo"
    carried = hidden_inputs(race, url)
    opened = bea.post(url, data=MultiDict([*carried, ("action", "prefill")]))
    page = opened.get_data(as_text=True)
    assert opened.status_code == 200 and event_rows(app) == [("record", 1)]
    assert "This phone's entry for deal 1 is filled in below." in said(opened)
    checked = {attrs["name"]: attrs["value"] for tag in re.findall(r"<input\b[^>]*>", page) if re.search(r"\schecked\b", tag)
               for attrs in [dict(re.findall(r'(\w+)="([^"]*)"', tag))]}
    assert checked == {"hombre": "Bea", "trumps": "hearts", "hombre_tricks": "6", "matadors": "0", "vole": "none",
                       "by": "Bea"}
    assert re.search(r'name="log_length" type="hidden" value="1"', page)
    assert re.search(r'name="once" type="hidden" value="[\w-]{16,}"', page)
    assert 'name="previewed" type="hidden" value=""' in page
    assert "class=\"error\"" not in page  # opened, not refused: nothing is checked until its preview
    # ... then the correction's own path: its preview, its reason, saved as a new version
    fields = dict(re.findall(r'name="(csrf_token|log_length|once)" type="hidden" value="([^"]*)"', page))
    sent = {**fields, **dict(carried[1:]), "by": "Bea", "reason": "6 tricks, counted again"}
    preview = bea.post(url, data={**sent, "action": "preview"}).get_data(as_text=True)
    digest = re.search(r'name="previewed" type="hidden" value="([^"]+)"', preview).group(1)  # type: ignore[union-attr]
    saved = bea.post(url, data={**sent, "action": "save", "previewed": digest}, follow_redirects=True)
    assert "Deal 1 corrected by Bea." in said(saved) and "6 tricks, counted again" in said(saved)
    assert event_rows(app) == [("record", 1), ("amend", 1)]


def test_a_prefilled_correction_for_a_deal_undone_since_saves_nothing(app: Flask, client: FlaskClient) -> None:
    token, bea, b_form = two_phones(app, client, REMISE, WON)
    race = bea.post(f"/t/{token}/deal/solo", data=b_form).get_data(as_text=True)
    url = f"/t/{token}/audit/1/amend/solo"
    undo = client.get(f"/t/{token}/undo").get_data(as_text=True)
    assert client.post(f"/t/{token}/undo", data=dict(re.findall(
        r'name="(number|once|csrf_token)" type="hidden" value="([^"]*)"', undo))).status_code == 302
    answer = bea.post(url, data=MultiDict([*hidden_inputs(race, url), ("action", "prefill")]), follow_redirects=True)
    assert "Deal 1 no longer stands (it was undone on another phone): nothing was saved." in said(answer)
    assert event_rows(app) == [("record", 1), ("undo", 1)]


def test_a_prefilled_correction_with_a_tampered_entry_is_checked_at_its_preview(app: Flask, client: FlaskClient) -> None:
    token, bea, _b_form = two_phones(app, client, REMISE, WON)
    url = f"/t/{token}/audit/1/amend/solo"
    sent = [("csrf_token", csrf_token(bea, url)), ("hombre", "Zed"), ("hombre_tricks", "6"), ("trumps", "hearts"),
            ("action", "prefill")]
    page = bea.post(url, data=MultiDict(sent)).get_data(as_text=True)
    assert not [tag for tag in re.findall(r'<input\b[^>]*name="hombre"[^>]*>', page) if " checked" in tag]  # no Hombre
    fields = dict(re.findall(r'name="(csrf_token|log_length|once)" type="hidden" value="([^"]*)"', page))
    refused = bea.post(url, data={**fields, "hombre": "Zed", "hombre_tricks": "6", "trumps": "hearts", "by": "Bea",
                                  "action": "preview"})
    assert refused.status_code == 422 and "Tap one of the choices shown." in said(refused)
    assert event_rows(app) == [("record", 1)]


def test_a_deal_of_an_evening_the_circle_has_closed_since(client: FlaskClient, app: Flask) -> None:
    """Ann's phone records the evening's last deal and the circle starts its next evening: Bea's Record for that deal
    still shows the two entries, and its correction (a closed evening's deals are corrected) opens with hers."""
    circle = start_circle(client)
    first = next_evening(client, circle, ("Ann", "Bea", "Cat", "Dan"))
    play_evening(client, first, ("Ann", "Bea", "Cat", "Dan"), "6 5 6")
    bea = app.test_client()
    b_form = previewed_form(bea, first, data={**WON, "hombre": "Ann"})
    assert records(client, first, {**REMISE, "hombre": "Ann"})
    next_evening(client, circle, ("Bea", "Cat", "Dan", "Eve"))
    answer = bea.post(f"/t/{first}/deal/solo", data=b_form)
    assert answer.status_code == 409 and "Deal 4: the phones disagree" in said(answer)
    url = f"/t/{first}/audit/4/amend/solo"
    opened = bea.post(url, data=MultiDict([*hidden_inputs(answer.get_data(as_text=True), url), ("action", "prefill")]))
    assert opened.status_code == 200 and "This phone's entry for deal 4 is filled in below." in said(opened)


def test_an_earlier_deal_corrected_since_settles_the_entry_on_the_pool_as_it_stands(app: Flask, client: FlaskClient) -> None:
    """Bea previewed deal 2 on a pool of 4; Ann recorded deal 2, then deal 1 was corrected to a remise: the pool deal 2
    was played for is 12 now, and both entries are settled on it."""
    token = start_table(client)
    name_phone(client, token, "Ann")
    assert records(client, token, WON)
    bea = app.test_client()
    cat_won = {**WON, "hombre": "Cat"}
    b_form = previewed_form(bea, token, data=cat_won)
    assert records(client, token, {**cat_won, "hombre_tricks": "5"})
    assert corrects(client, token, 1, REMISE, by="Ann")
    answer = bea.post(f"/t/{token}/deal/solo", data=b_form)
    page = said(answer)
    assert answer.status_code == 409 and "Cat's solo in hearts: remise Cat's solo in hearts: won" in page
    assert page.count("The pool held 12 chips, so a unit is 3.") == 2, page
