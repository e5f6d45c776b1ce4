"""A circle's page leads with where the season stands (what was settled, what is still to pay), then puts Start the
next evening, before the season and the members' administration, and gives its members' link and its watch-only link
as the table's Share page gives its links: in full, each with its QR code."""

from __future__ import annotations

import html
import re
from urllib.parse import urlsplit

import pytest
from flask.testing import FlaskClient
from helpers.web import next_evening, play_evening, start_circle

from scorer.web.common import qr_svg

HEADINGS = re.compile(r"<h2[^>]*>(.*?)</h2>", re.S)


@pytest.mark.parametrize("language, order", [
    ("en", ["Where the season stands", "Start the next evening", "The season: running totals",
            "How the season went", "Members", "The members' link", "Watch only"]),
    ("fr", ["Où en est la saison", "Commencer la soirée suivante", "La saison\u00a0: totaux courants",
            "Comment s'est passée la saison", "Membres", "Le lien des membres", "Lecture seule"]),
])
def test_the_next_evening_comes_first_and_the_watch_link_has_its_qr_code(client: FlaskClient, language: str,
                                                                        order: list[str]) -> None:
    circle = start_circle(client)
    table = next_evening(client, circle, ("Ann", "Bea", "Cat", "Dan"))
    play_evening(client, table, ("Ann", "Bea", "Cat", "Dan"), "6 5 6 5")
    page = client.get(f"/c/{circle}", headers={"Accept-Language": language}).get_data(as_text=True)
    headings = [html.unescape(re.sub(r"<[^>]+>", "", h)).strip() for h in HEADINGS.findall(page)]
    assert [h for h in headings if h in order] == order, headings
    assert headings[:2] == order[:2]  # the first things after the circle's name and members
    links = re.findall(r'<figure class="qr">(.*?)<figcaption><a href="([^"]+)">\2</a></figcaption></figure>', page, re.S)
    assert len(links) == 2, "no members' link and watch-only link, each with its QR code"
    assert re.fullmatch(r"https?://[^/]+/c/" + circle, links[0][1])  # the members' link first, then the watch-only one
    link = re.search(r'<figure class="qr">((?:(?!</figure>).)*?)<figcaption><a href="([^"]*/cs/[^"]+)">\2</a>', page, re.S)
    assert link, "no watch-only link with its QR code"
    assert re.fullmatch(r"https?://[^/]+/cs/[A-Za-z0-9_-]+", link.group(2))
    untitled = re.compile(r"<title>.*?</title>")  # the code's title is in the page's language
    assert untitled.sub("", link.group(1)) == untitled.sub("", str(qr_svg(link.group(2))))  # the Share page's own QR
    assert client.get(urlsplit(link.group(2)).path).status_code == 200


def test_the_watch_only_page_offers_no_form_and_no_link_to_share(client: FlaskClient) -> None:
    circle = start_circle(client)
    page = client.get(f"/c/{circle}").get_data(as_text=True)
    watch = re.search(r'<figcaption><a href="[^"]*?(/cs/[^"]+)">', page)
    assert watch
    watched = client.get(watch.group(1)).get_data(as_text=True)
    assert "Start the next evening" not in watched and 'class="qr"' not in watched and "Members" not in watched
