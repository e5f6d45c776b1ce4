"""Check the play on a phone (issue 13, point 5): cards tapped one by one on a 40-card grid (plain
links, no JavaScript), a renounce found and confirmed, what the play proves, and the correction it makes."""

from __future__ import annotations

import html
import re

import pytest
from flask.testing import FlaskClient
from helpers.plays import RENOUNCE, play
from helpers.web import csrf_token, record, start_table

CODES = [card.code for trick in play(RENOUNCE) for card in trick]
NAMES = {"S": "spades", "C": "clubs", "D": "diamonds", "H": "hearts"}
RANK_NAMES = {"K": "King", "Q": "Queen", "J": "Knave", "A": "Ace"}


def text(response: object) -> str:
    return html.unescape(response.get_data(as_text=True))  # type: ignore[attr-defined]


def disputed(client: FlaskClient) -> str:
    """A table whose deal 1 was recorded as Bea's solo in hearts, all ten tricks, three matadors."""
    token = start_table(client)
    assert record(client, token, "solo", 1, {"hombre": "Bea", "trumps": "hearts", "hombre_tricks": "10",
                                             "matadors": "3"}).status_code == 302
    return token


def tap(client: FlaskClient, page: str, code: str) -> str:
    """Follow the grid's link for the card ``code``, as a tap does."""
    name = f"{RANK_NAMES.get(code[0], code[0])} of {NAMES[code[1]]}"
    link = re.search(rf'<a class="card [a-z]+" href="([^"]+)" aria-label="{name}">', page)
    assert link, f"no link for {code} on the page"
    response = client.get(html.unescape(link.group(1)))
    assert response.status_code == 200
    return response.get_data(as_text=True)


def link(page: str, label: str) -> str:
    found = re.search(rf'<a class="button[^"]*" href="([^"]+)">{re.escape(label)}', page)
    assert found, f"no link {label!r}"
    return html.unescape(found.group(1))


def test_a_disputed_deal_checked_card_by_card_finds_the_renounce_and_what_the_play_proves(client: FlaskClient) -> None:
    token = disputed(client)
    deal_page = text(client.get(f"/t/{token}/audit/1"))
    assert f"/t/{token}/audit/1/play" in deal_page  # the way in: Check the play
    page = client.get(f"/t/{token}/audit/1/play").get_data(as_text=True)
    assert "Trick 1: Bea to play" in html.unescape(page)
    for i, code in enumerate(CODES):
        assert len(page.encode()) < 30_000
        page = tap(client, page, code)
        if i == 30:  # Dan's 6♥ in trick 8 proves he held it in trick 3
            asked = html.unescape(page)
            assert "Dan plays 6♥ now, so Dan held it in trick 3, when A♣ was led and Dan played 6♠: Dan must follow trumps" in asked
            assert 'class="cardgrid"' not in page  # nothing more until the table answers
            page = client.get(link(page, "It was played: a renounce")).get_data(as_text=True)
    done = html.unescape(page)
    assert "Tricks: Ann 0, Bea 10, Cat 0, Dan 0." in done
    assert "Renounce in trick 3: Dan played 6♠ to A♣ led, holding 6♥ (played later)." in done
    assert re.search(r"<th scope=\"row\">matadors</th><td>3</td><td>4</td>", page)
    use = link(page, "Use this play: correct deal 1")
    amend = client.get(use).get_data(as_text=True)
    assert re.search(r'<input[^>]*name="play"[^>]*value="' + "".join(CODES) + '"', amend) or \
        re.search(r'<input[^>]*value="' + "".join(CODES) + '"[^>]*name="play"', amend)
    matadors = re.search(r'<input[^>]*name="matadors"[^>]*value="4"[^>]*>', amend)
    assert matadors and "checked" in matadors.group(0)


def test_taking_a_card_back_and_refusing_the_renounce(client: FlaskClient) -> None:
    token = disputed(client)
    page = client.get(f"/t/{token}/audit/1/play?c={''.join(CODES[:31])}").get_data(as_text=True)
    back = client.get(link(page, "Take back 6♥")).get_data(as_text=True)
    assert 'class="cardgrid"' in back and "Trick 8: Dan to play" in html.unescape(back)


@pytest.mark.parametrize("c, problem", [
    ("ASZZ", "'ZZ' is not a card of the pack"),
    ("AS2SAS", "A♠ was played already"),
    ("AS2", "half a card was left out"),
    ("9S", "'9S' is not a card of the pack"),
    ("AS" * 5000, "A♠ was played already"),
])
def test_a_mangled_address_is_read_up_to_its_first_fault(client: FlaskClient, c: str, problem: str) -> None:
    token = disputed(client)
    response = client.get(f"/t/{token}/audit/1/play?c={c}&k=999999999999")
    assert response.status_code == 200
    assert problem in text(response)


def test_a_pasted_play_is_read_card_by_card(client: FlaskClient) -> None:
    token = disputed(client)
    pasted = " / ".join(" ".join(CODES[i:i + 4]) for i in range(0, 40, 4)).replace("H", "♥")
    response = client.get(f"/t/{token}/audit/1/play", query_string={"notation": pasted})
    assert response.status_code == 302 and "c=" + "".join(CODES) in response.headers["Location"]


def test_an_unusable_play_in_the_correction_link_says_so(client: FlaskClient) -> None:
    token = disputed(client)
    page = text(client.get(f"/t/{token}/audit/1/amend/solo?play=ASAS", follow_redirects=True))
    assert "That play cannot be used" in page


def form_fields(page: str) -> dict[str, str]:
    """What the page's form sends as it stands: hidden inputs, checked radios and boxes, text inputs."""
    data: dict[str, str] = {}
    for tag in re.findall(r"<input[^>]*>", page):
        name = re.search(r'name="([^"]+)"', tag)
        value = re.search(r'value="([^"]*)"', tag)
        kind = re.search(r'type="([^"]+)"', tag)
        if not name:
            continue
        if kind and kind.group(1) in ("radio", "checkbox") and "checked" not in tag:
            continue
        data[name.group(1)] = html.unescape(value.group(1)) if value else ""
    return data


def test_use_this_play_saves_a_correction_that_keeps_the_play_and_beasts_the_renouncer(client: FlaskClient) -> None:
    token = disputed(client)
    correct_with_the_play(client, token)
    audit = text(client.get(f"/t/{token}/audit/1"))
    assert "beasted for a renounce in trick 3" in audit
    exported = client.get(f"/t/{token}/export.json").get_json()
    assert exported["deals"][0]["matadors"] == 4
    assert exported["deals"][0]["play"]["tricks"][2] == ["AC", "3D", "6S", "2S"]


def test_the_audit_page_shows_the_play_kept_with_the_version(client: FlaskClient) -> None:
    token = disputed(client)
    assert "The play, as kept with this version" not in text(client.get(f"/t/{token}/audit/1"))
    correct_with_the_play(client, token)
    audit = text(client.get(f"/t/{token}/audit/1"))
    assert "The play, as kept with this version" in audit
    assert "Bea A♣ · Cat 3♦ · Dan 6♠ · Ann 2♠ → Bea" in re.sub(r"<[^>]+>", "", audit)
    # every card as rank and suit sign, as the play page shows it (issue 25: the audit page read "6S" and "2C")
    assert "Renounce in trick 3: Dan played 6♠ to A♣ led, holding 6♥ (played later)." in audit
    assert "beasted for a renounce in trick 3: 6♠ to A♣ led, holding 6♥" in audit
    assert not CARD_CODE.search(re.sub(r"<[^>]+>", " ", audit.split("<main", 1)[1]))
    french = text(client.get(f"/t/{token}/audit/1", headers={"Accept-Language": "fr"}))
    assert "Dan a joué 6♠ sur A♣ entamé, en ayant 6♥" in french, re.findall(r"Renonce[^<]*", french)
    assert not CARD_CODE.search(re.sub(r"<[^>]+>", " ", french.split("<main", 1)[1]))


CARD_CODE = re.compile(r"\b(?:[AKQJ2-7])[SCDH]\b")
"""A card written as its code ("6S", "AC"), as files and the command line write it, never a page."""


def test_an_exported_table_with_a_play_imports_back(client: FlaskClient) -> None:
    token = disputed(client)
    correct_with_the_play(client, token)
    exported = client.get(f"/t/{token}/export.json").get_data()
    import io

    again = client.post("/import", data={"csrf_token": csrf_token(client, "/import"),
                                         "evening": (io.BytesIO(exported), "evening.json")},
                        content_type="multipart/form-data")
    assert again.status_code == 302, text(again)[-600:]
    copy = again.headers["Location"].split("/t/")[1].split("/")[0]
    assert client.get(f"/t/{copy}/export.json").get_json()["deals"] == client.get(f"/t/{token}/export.json").get_json()["deals"]


def correct_with_the_play(client: FlaskClient, token: str) -> None:
    """Use this play for deal 1, preview the correction, save it."""
    amend = client.get(f"/t/{token}/audit/1/amend/solo?play={''.join(CODES)}").get_data(as_text=True)
    data = form_fields(amend)
    data.update(by="Cat", reason="the play shows Punto", action="preview")
    preview = client.post(f"/t/{token}/audit/1/amend/solo", data=data)
    assert preview.status_code == 200, re.findall(r'class="error"[^>]*>([^<]*)', preview.get_data(as_text=True))
    data = form_fields(preview.get_data(as_text=True))
    data.update(by="Cat", reason="the play shows Punto", action="save")
    saved = client.post(f"/t/{token}/audit/1/amend/solo", data=data)
    assert saved.status_code == 302, re.findall(r'class="error"[^>]*>([^<]*)', saved.get_data(as_text=True))




def test_six_tricks_the_side_did_not_all_take_are_not_offered_as_a_correction(client: FlaskClient) -> None:
    from scorer.core import Suit
    from helpers.plays import random_play

    token = disputed(client)
    six = "".join(c.code for trick in random_play(7, Suit.HEARTS)[0][:6] for c in trick)  # Bea loses one of them
    page = text(client.get(f"/t/{token}/audit/1/play?c={six}&k=24"))
    assert "Use this play" not in page and "premiers were claimed" not in page
    assert "Trick 7:" in page  # the grid goes on
    data = form_fields(client.get(f"/t/{token}/audit/1/amend/solo?play={six}").get_data(as_text=True))
    assert data["play"] == six  # a forged link still fills the form; the core refuses it
    refused = client.post(f"/t/{token}/audit/1/amend/solo", data={**data, "by": "Cat", "action": "preview"})
    assert refused.status_code == 422 and "a play of six tricks is premiers claimed" in text(refused)


def test_a_claim_at_six_asks_who_revealed_herself_and_corrects_the_deal_with_her(client: FlaskClient) -> None:
    """Bea's alliance recorded with Cat as her ally; the play shows Bea take the first six tricks and the side
    claim there, the King of clubs unplayed (P: "the latter will naturally reveal herself"): the page asks who
    held it, and the correction keeps her name with the six tricks."""
    from helpers.plays import CLAIM

    token = start_table(client)
    assert record(client, token, "alliance", 1, {"hombre": "Bea", "trumps": "hearts", "called": "KC", "ally": "Cat",
                                                 "hombre_tricks": "5", "ally_tricks": "1", "matadors": "4",
                                                 "premiers": "y"}).status_code == 302
    six = "".join(card.code for trick in play(CLAIM) for card in trick)
    page = client.get(f"/t/{token}/audit/1/play?c={six}&k=24").get_data(as_text=True)
    asked = html.unescape(page)
    assert "The called card (King of clubs) was not played: who held it?" in asked
    assert "Use this play" not in asked and "Trick 7:" in asked  # nothing to correct until she is named; play may go on
    answer = re.search(r'<a class="button" href="([^"]+)">Dan</a>', page)
    assert answer and "Bea, Hombre, held it" in asked
    page = client.get(html.unescape(answer.group(1))).get_data(as_text=True)
    assert "At the claim, Dan was revealed as the holder of the called card (King of clubs)." in html.unescape(page)
    assert re.search(r"<th scope=\"row\">ally</th><td>Cat</td><td>Dan</td>", page)
    amend = client.get(link(page, "Use this play: correct deal 1")).get_data(as_text=True)
    data = form_fields(amend)
    assert (data["play"], data["revealed_ally"], data["ally"], data["hombre_tricks"], data["ally_tricks"]) == (
        six, "Dan", "Dan", "6", "0")
    data.update(by="Cat", action="preview")
    preview = client.post(f"/t/{token}/audit/1/amend/alliance", data=data)
    assert preview.status_code == 200, re.findall(r'class="error"[^>]*>([^<]*)', preview.get_data(as_text=True))
    data = form_fields(preview.get_data(as_text=True))
    data.update(by="Cat", action="save")
    assert client.post(f"/t/{token}/audit/1/amend/alliance", data=data).status_code == 302
    kept = client.get(f"/t/{token}/export.json").get_json()["deals"][0]
    assert (kept["ally"], kept["premiers"], kept["play"]["revealed_ally"], len(kept["play"]["tricks"])) == (
        "Dan", True, "Dan", 6)
    audit = text(client.get(f"/t/{token}/audit/1"))
    assert "At the claim, Dan was revealed as the holder of the called card (King of clubs)." in audit


def test_a_correction_with_a_claim_that_does_not_show_the_ally_takes_the_ally_tapped_as_revealed(
        client: FlaskClient) -> None:
    """The correction's link without the answer (nobody tapped on Check the play): the ally tapped on the form is who
    revealed herself, since both answer who held the King."""
    from helpers.plays import CLAIM

    token = start_table(client)
    assert record(client, token, "alliance", 1, {"hombre": "Bea", "trumps": "hearts", "called": "KC", "ally": "Cat",
                                                 "hombre_tricks": "5", "ally_tricks": "1", "matadors": "4",
                                                 "premiers": "y"}).status_code == 302
    six = "".join(card.code for trick in play(CLAIM) for card in trick)
    data = form_fields(client.get(f"/t/{token}/audit/1/amend/alliance?play={six}").get_data(as_text=True))
    assert (data["ally"], data["revealed_ally"], data["hombre_tricks"]) == ("Cat", "", "6")
    data.update(ally="Dan", ally_tricks="0", by="Cat", action="preview")
    preview = client.post(f"/t/{token}/audit/1/amend/alliance", data=data)
    assert preview.status_code == 200, re.findall(r'class="error"[^>]*>([^<]*)', preview.get_data(as_text=True))
