"""The app as phones use it, through Flask's test client with CSRF protection on: tables started, deals
previewed and recorded, corrected, imported, circles and their evenings (the web tests' shared steps)."""

from __future__ import annotations

import hashlib
import html
import io
import json
import re
import sqlite3
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from scorer.web.forms import OWN_KING

from .store import MEMBERS


# --- a table through the test client, CSRF protection on -------------------------------------------------


EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "evening.json"
PLAYERS = ["Ann", "Bea", "Cat", "Dan"]


def csrf_token(client: FlaskClient, url: str) -> str:
    page = client.get(url).get_data(as_text=True)
    match = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert match, f"no CSRF token on {url}"
    return match.group(1)


def start_table(client: FlaskClient, players: list[str] = PLAYERS, **fields: str) -> str:
    """Start a quadrille table of 8 deals; ``fields`` change the new-table form's values."""
    data = {"player_1": players[0], "player_2": players[1], "player_3": players[2], "player_4": players[3],
            "first_dealer": "1", "profile": "quadrille", "deals_agreed": "8", "csrf_token": csrf_token(client, "/new")}
    data.update(fields)
    response = client.post("/new", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)
    return response.headers["Location"].split("/t/")[1].split("/")[0]


def form_data(deal: dict[str, Any]) -> dict[str, str]:
    """A quadrille-evening/1 deal as the taps on the deal form."""
    data = {"hombre": deal["hombre"], "hombre_tricks": str(deal["tricks"]["hombre"]), "matadors": str(deal["matadors"])}
    if deal["trumps"]:
        data["trumps"] = deal["trumps"]
    if deal["called"]:
        data["called"] = deal["called"]
        data["ally"] = OWN_KING if deal["ally"] == deal["hombre"] else deal["ally"]  # a secret solo, tapped on purpose
    if deal["tricks"]["ally"] is not None:
        data["ally_tricks"] = str(deal["tricks"]["ally"])
    if deal["premiers"]:
        data["premiers"] = "y"
    if deal["vole"] != "none":
        data["vole"] = deal["vole"]
    for key in ("giver", "favourite"):
        if deal.get(key):
            data[key] = deal[key]
    return data


def post_deal(client: FlaskClient, token: str, contract: str, number: int, data: dict[str, str], action: str = "preview",
              previewed: str = "") -> Any:
    url = f"/t/{token}/deal/{contract}"
    fields = {"csrf_token": csrf_token(client, url), "contract": contract, "number": str(number), "action": action,
              "previewed": previewed, **data}
    return client.post(url, data=fields)


def record(client: FlaskClient, token: str, contract: str, number: int, data: dict[str, str]) -> Any:
    preview = post_deal(client, token, contract, number, data)
    assert preview.status_code == 200, re.findall(r'class="error"[^>]*>([^<]*)', preview.get_data(as_text=True))
    digest = re.search(r'name="previewed" type="hidden" value="([^"]+)"', preview.get_data(as_text=True))
    assert digest
    return post_deal(client, token, contract, number, data, action="record", previewed=digest.group(1))


def ledger_balances(client: FlaskClient, url: str) -> list[str]:
    page = client.get(url).get_data(as_text=True)
    foot = re.search(r"<tfoot>(.*?)</tfoot>", page, re.S)
    assert foot
    return re.findall(r"<td>([^<]*)</td>", foot.group(1))


def shown(n: int) -> str:
    return f"+{n}" if n > 0 else (f"−{-n}" if n < 0 else "0")


def event_rows(app: Flask) -> list[tuple[str, int]]:
    conn = sqlite3.connect(app.config["DATABASE"])
    return [tuple(r) for r in conn.execute("select kind, number from events order by seq")]  # type: ignore[misc]


# --- ten deals and a correction, a form ready to record, an import, the database's rows ------------------


TEN_DEALS = [
    ("solo", {"hombre": "Bea", "trumps": "hearts", "hombre_tricks": "6", "matadors": "3"}),
    ("solo", {"hombre": "Cat", "trumps": "clubs", "hombre_tricks": "5"}),
    ("alliance", {"hombre": "Dan", "trumps": "spades", "called": "KH", "ally": "Ann", "hombre_tricks": "4", "ally_tricks": "3"}),
    ("solo", {"hombre": "Ann", "trumps": "diamonds", "hombre_tricks": "4"}),
    ("forced_spadille", {"hombre": "Bea", "trumps": "hearts", "called": "KS", "ally": "Cat", "hombre_tricks": "3", "ally_tricks": "3"}),
    ("solo", {"hombre": "Cat", "trumps": "hearts", "hombre_tricks": "7", "matadors": "4"}),
    ("alliance", {"hombre": "Dan", "trumps": "clubs", "called": "KD", "ally": "Bea", "hombre_tricks": "2", "ally_tricks": "3"}),
    ("solo", {"hombre": "Ann", "trumps": "spades", "hombre_tricks": "6"}),
    ("vole", {"hombre": "Bea", "trumps": "hearts", "hombre_tricks": "10", "premiers": "y"}),
    ("solo", {"hombre": "Cat", "trumps": "diamonds", "hombre_tricks": "8", "premiers": "y", "vole": "undertaken"}),
]


def ten_deal_table(client: FlaskClient, **fields: str) -> str:
    token = start_table(client, deals_agreed="12", **fields)
    for number, (contract, data) in enumerate(TEN_DEALS, start=1):
        assert record(client, token, contract, number, data).status_code == 302
    return token


def figure(text: str) -> int:
    return int(text.replace("−", "-").replace("+", ""))


def amend(client: FlaskClient, token: str, number: int, contract: str, data: dict[str, str], *, by: str = "Ann",
          reason: str = "", action: str = "preview", previewed: str = "") -> object:
    url = f"/t/{token}/audit/{number}/amend/{contract}"
    page = client.get(url).get_data(as_text=True)
    log_length = re.search(r'name="log_length" type="hidden" value="(\d+)"', page).group(1)  # type: ignore[union-attr]
    return client.post(url, data={"csrf_token": csrf_token(client, url), "contract": contract, "number": str(number),
                                  "by": by, "reason": reason, "log_length": log_length, "action": action,
                                  "previewed": previewed, **data})


def correct_deal_3(client: FlaskClient, token: str) -> None:
    """Deal 3 of :func:`ten_deal_table` corrected to Dan's alliance with Ann, 4 + 2 tricks: previewed, then saved by Bea."""
    data = {"hombre": "Dan", "trumps": "spades", "called": "KH", "ally": "Ann", "hombre_tricks": "4", "ally_tricks": "2"}
    page = amend(client, token, 3, "alliance", data, by="Bea", reason="miscount")
    digest = re.search(r'name="previewed" type="hidden" value="([^"]+)"', page.get_data(as_text=True))  # type: ignore[attr-defined]
    assert digest
    response = amend(client, token, 3, "alliance", data, by="Bea", reason="miscount", action="save", previewed=digest.group(1))
    assert response.status_code == 302  # type: ignore[attr-defined]


SOLO = {"hombre": "Bea", "trumps": "hearts", "hombre_tricks": "6", "matadors": "0"}


def previewed_form(client: FlaskClient, token: str, contract: str = "solo", data: dict[str, str] = SOLO) -> dict[str, str]:
    """The record form as a phone holds it after the preview: ready for one tap."""
    url = f"/t/{token}/deal/{contract}"
    page = client.get(url).get_data(as_text=True)
    hidden = dict(re.findall(r'name="(number|once|csrf_token)" type="hidden" value="([^"]*)"', page))
    fields = {**hidden, "contract": contract, "action": "preview", **data}
    preview = client.post(url, data=fields).get_data(as_text=True)
    fields["previewed"] = re.search(r'name="previewed" type="hidden" value="([^"]+)"', preview).group(1)  # type: ignore[union-attr]
    fields["action"] = "record"
    return fields


def import_table(client: FlaskClient, profile: str, deals: list[dict[str, Any]], *,
                 players: list[str] = PLAYERS, house_rules: dict[str, str] | None = None) -> str:
    body = json.dumps({"format": "quadrille-evening/1", "players": players, "profile": profile,
                       "house_rules": house_rules or {}, "deals_agreed": max(4, -(-len(deals) // 4) * 4),
                       "deals": deals}).encode()
    response = client.post("/import", data={"csrf_token": csrf_token(client, "/import"),
                                            "evening": (io.BytesIO(body), "evening.json")},
                           content_type="multipart/form-data")
    assert response.status_code == 302, response.get_data(as_text=True)[-800:]
    return response.headers["Location"].split("/t/")[1].split("/")[0]


def fingerprint(path: str) -> str:
    conn = sqlite3.connect(path)
    rows = conn.execute("select * from tables order by id").fetchall() + conn.execute("select * from events order by id").fetchall()
    conn.close()
    return hashlib.sha256(repr(rows).encode()).hexdigest()


# --- a circle through the test client --------------------------------------------------------------------


def text(response: object) -> str:
    return html.unescape(response.get_data(as_text=True))  # type: ignore[attr-defined]


def start_circle(client: FlaskClient, members: tuple[str, ...] = MEMBERS, **fields: str) -> str:
    data = {"name": "Thursday club", "profile": "quadrille", "deals_agreed": "4", "rule_pool_at_end": "carry_forward",
            "csrf_token": csrf_token(client, "/c/new")}
    data.update({f"member_{i}": m for i, m in enumerate(members, start=1)})
    data.update(fields)
    response = client.post("/c/new", data=data)
    assert response.status_code == 302, text(response)[-1500:]
    return response.headers["Location"].split("/c/")[1]


def next_evening(client: FlaskClient, circle: str, seated: tuple[str, ...], dealer: str = "1") -> str:
    data = {f"seat_{i}": p for i, p in enumerate(seated, start=1)}
    data.update(first_dealer=dealer, csrf_token=csrf_token(client, f"/c/{circle}"))
    response = client.post(f"/c/{circle}/next", data=data)
    assert response.status_code == 302, re.findall(r'class="error"[^>]*>([^<]*)', response.get_data(as_text=True))
    return response.headers["Location"].split("/t/")[1].split("/")[0]


def play_evening(client: FlaskClient, table: str, seated: tuple[str, ...], tricks: str) -> None:
    """Four solos in hearts, Hombre the eldest each time, taking ``tricks`` ("6 5 6 5")."""
    for n, taken in enumerate(tricks.split(), start=1):
        hombre = seated[n % 4]
        response = record(client, table, "solo", n, {"hombre": hombre, "trumps": "hearts", "hombre_tricks": taken,
                                                      "matadors": "0"})
        assert response.status_code == 302
