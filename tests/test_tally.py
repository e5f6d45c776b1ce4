"""The end of the evening: tally page, tally PDF, settle-up on the page, export and import."""

from __future__ import annotations

import csv
import io
import json
import re
import sqlite3

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers.web import TEN_DEALS, csrf_token, record, start_table, ten_deal_table
from pypdf import PdfReader

from scorer.core import PROFILES, loads, replay
from scorer.core.systems.chips import HARD_SCORE
from scorer.web.pages.tally import Sheet


def standing(client: FlaskClient, token: str) -> dict[str, object]:
    """The core's replay of the table, from its own export."""
    return json.loads(client.get(f"/t/{token}/export.json").get_data(as_text=True))


def test_the_tally_page_has_everything_a_club_keeps(app: Flask, client: FlaskClient) -> None:
    token = ten_deal_table(client, chip_value="0.10", currency="EUR")
    page = client.get(f"/t/{token}/tally").get_data(as_text=True)
    result = replay(loads(json.dumps(standing(client, token))))
    for name, balance in result.balances.items():
        assert f'<th scope="row" class="name">{name}</th>' in page
    for number in range(1, 11):
        assert f"<tr><td>{number}</td>" in page
    assert "Quadrille, hard score (P)" in page
    # each rule by its title, linked to its place on the rules page, with its value: a list, not one block
    assert '<li><a href="/rules#solo_premium">Premium for a solo</a>: <strong>4 units</strong></li>' in page
    assert "<svg" in page and "<polyline" in page and "<script" not in page
    assert page.count('class="sign"') == 4
    assert "pays" in page and "€" in page  # money as the reader writes it (the money filter)


def test_without_a_chip_value_the_settle_up_is_in_chips_signed_as_the_balances(app: Flask, client: FlaskClient) -> None:
    token = ten_deal_table(client)
    page = client.get(f"/t/{token}/tally").get_data(as_text=True)
    result = replay(loads(json.dumps(standing(client, token))))
    debtor, owed = min(result.balances.items(), key=lambda item: item[1])
    assert owed < 0
    row = re.search(rf'<th scope="row" class="name">{debtor}</th>(.*?)</tr>', page, re.S)
    assert row and f"−{-owed} chips" in row.group(1)


@pytest.mark.parametrize("paper, width, height", [("a4", 595, 842), ("letter", 612, 792)])
def test_the_tally_pdf_has_the_players_every_deal_and_the_final_balances(
    app: Flask, client: FlaskClient, paper: str, width: int, height: int
) -> None:
    token = ten_deal_table(client, chip_value="0.10", currency="EUR")
    response = client.get(f"/t/{token}/tally.pdf?paper={paper}")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    reader = PdfReader(io.BytesIO(response.data))
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (width, height)
    text = "\n".join(p.extract_text() for p in reader.pages)
    result = replay(loads(json.dumps(standing(client, token))))
    for name, balance in result.balances.items():
        assert name in text
        shown = f"+{balance}" if balance > 0 else (f"−{-balance}" if balance < 0 else "0")
        assert shown in text
    deal_rows = re.findall(r"^\s*(\d+)\s+(?:solo|alliance|forced|vole)", text, re.M)
    assert [int(n) for n in deal_rows] == list(range(1, 11))
    assert "Agreed by" in text and "Settle-up" in text


def test_unknown_paper_is_404(app: Flask, client: FlaskClient) -> None:
    token = start_table(client)
    assert client.get(f"/t/{token}/tally.pdf?paper=a3").status_code == 404


def test_names_with_markup_stay_text_in_the_tally_and_its_pdf(app: Flask, client: FlaskClient) -> None:
    token = start_table(client, ["<b>Ann</b>", "Bea", "Cat", "Dan"])
    record(client, token, "solo", 1, {"hombre": "Bea", "trumps": "hearts", "hombre_tricks": "6", "matadors": "0"})
    page = client.get(f"/t/{token}/tally").get_data(as_text=True)
    assert "<b>Ann</b>" not in page and "&lt;b&gt;Ann&lt;/b&gt;" in page
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(client.get(f"/t/{token}/tally.pdf").data)).pages)
    assert "<b>Ann</b>" in text


def test_export_import_export_gives_identical_files(app: Flask, client: FlaskClient) -> None:
    token = ten_deal_table(client, chip_value="0.25", currency="GBP")
    # a correction and a restore, so the history has every kind of line
    from helpers.web import correct_deal_3

    correct_deal_3(client, token)
    first = client.get(f"/t/{token}/export.json").get_data()

    response = client.post("/import", data={"csrf_token": csrf_token(client, "/import"),
                                            "evening": (io.BytesIO(first), "evening.json")},
                           content_type="multipart/form-data")
    assert response.status_code == 302
    new_token = response.headers["Location"].split("/t/")[1].split("/")[0]
    assert new_token != token
    second = client.get(f"/t/{new_token}/export.json").get_data()
    assert second == first
    assert "are intact" in client.get(f"/t/{new_token}/verify").get_data(as_text=True)
    assert client.get(f"/t/{new_token}/ledger").get_data(as_text=True).count("<tr>") == \
        client.get(f"/t/{token}/ledger").get_data(as_text=True).count("<tr>")


def test_an_exported_file_settles_with_the_command_line(app: Flask, client: FlaskClient, tmp_path: object) -> None:
    from click.testing import CliRunner

    from scorer.cli import main

    token = ten_deal_table(client)
    data = standing(client, token)
    path = tmp_path / "evening.json"  # type: ignore[operator]
    path.write_text(json.dumps(data))
    result = CliRunner().invoke(main, ["settle", str(path)])
    assert result.exit_code == 0
    assert len(json.loads(result.output)["deals"]) == len(TEN_DEALS)


def import_file(client: FlaskClient, body: bytes) -> tuple[int, str]:
    response = client.post("/import", data={"csrf_token": csrf_token(client, "/import"), "evening": (io.BytesIO(body), "e.json")},
                           content_type="multipart/form-data")
    return response.status_code, response.get_data(as_text=True)


def tables(app: Flask) -> int:
    return sqlite3.connect(app.config["DATABASE"]).execute("select count(*) from tables").fetchone()[0]  # type: ignore[no-any-return]


def test_a_tampered_history_is_refused(app: Flask, client: FlaskClient) -> None:
    token = ten_deal_table(client)
    data = standing(client, token)
    count = tables(app)
    # change deal 4 both in the deals and in its history line: only the hash can tell
    data["deals"][3]["tricks"]["hombre"] = 6  # type: ignore[index]
    data["history"][3]["deal"]["tricks"]["hombre"] = 6  # type: ignore[index]
    status, page = import_file(client, json.dumps(data).encode())
    assert status == 422
    assert "the history does not check: line 4 (deal 4) was changed after it was written" in page
    assert tables(app) == count


@pytest.mark.parametrize(
    "body, message",
    [
        (b"{not json", "That file is not valid JSON"),
        (b"\xff\xfe\x00", "That file is not UTF-8 text"),
        (json.dumps({"format": "other"}).encode(), "not a quadrille-evening/1 file"),
        (json.dumps({"format": "quadrille-evening/1", "players": ["A", "B", "C", "D"], "deals": [
            {"dealer": "A", "hombre": "B", "contract": "solo", "trumps": "hearts", "tricks": {"hombre": 11}}]}).encode(),
         "deal 1: Hombre cannot take 11 tricks"),
        (json.dumps({"format": "quadrille-evening/1", "players": ["A", "B", "C", "D"], "history": [{"seq": 1, "kind": "undo", "number": 1}]}).encode(),
         "line 1 (deal 1): it undoes deal 1, which is not the last deal standing"),
        (json.dumps({"format": "quadrille-evening/1", "players": ["A", "B", "C", "D"], "history": "x"}).encode(),
         "\"history\" must be a list"),
    ],
)
def test_a_bad_file_is_refused_with_a_message(app: Flask, client: FlaskClient, body: bytes, message: str) -> None:
    status, page = import_file(client, body)
    assert status == 422
    assert message in page.replace("&#34;", '"').replace("&#39;", "'")
    assert tables(app) == 0


def test_an_empty_upload_is_refused(app: Flask, client: FlaskClient) -> None:
    response = client.post("/import", data={"csrf_token": csrf_token(client, "/import")}, content_type="multipart/form-data")
    assert response.status_code == 422 and "Choose the file to import." in response.get_data(as_text=True)


def test_the_csv_has_one_row_per_transfer(app: Flask, client: FlaskClient) -> None:
    token = ten_deal_table(client)
    rows = list(csv.DictReader(io.StringIO(client.get(f"/t/{token}/export.csv").get_data(as_text=True))))
    result = replay(loads(json.dumps(standing(client, token))))
    assert len(rows) == sum(len(s.transfers) for s in result.settlements)
    first = result.settlements[0].transfers[0]
    assert (rows[0]["deal"], rows[0]["from"], rows[0]["to"], int(rows[0]["amount"]), rows[0]["reason"]) == (
        "1", first.payer, "pool", first.chips, "ante")


def _sheet_of(players: tuple[str, ...], deals: int) -> Sheet:
    from scorer.core import Contract, Deal, Evening, Suit
    from scorer.web.pages.tally import deals_sheet

    played = []
    for n in range(deals):
        played.append(Deal(players[n % 4], players[(n + 1) % 4], Contract.SOLO, Suit.HEARTS, hombre_tricks=6 + n % 2))
    return deals_sheet(players, replay(Evening(players, deals=tuple(played), deals_agreed=40)), HARD_SCORE)


@pytest.mark.parametrize("players, size", [
    (("Ann", "Bea", "Cat", "Dan"), 8.5),                                                # short names: full size
    (("Annabella", "Beatrice", "Catherine", "Daniella"), 8.5),                          # still fits
    (("Annabella Long", "Beatrice Longer", "Catherine Longest", "Daniella Longest"), "whole"),  # smaller, whole
    (("Annabella Longname-Smythe III", "Beatrice de la Tour-Montfort", "Catherine Longest-Name", "Daniella Longest"),
     "cut"),                                                                            # cut with …, no smaller
])
def test_the_printed_sheet_lines_up_its_columns_and_fits_the_page(players: tuple[str, ...], size: float | str) -> None:
    from scorer.web.print_columns import metrics
    from scorer.web.pages.tally import NAMES_WHOLE_PT, SHEET_WIDTH_EM

    sheet = _sheet_of(players, 9)
    assert len(sheet.deals) == 9 and len(sheet.rows()) == 2  # a line a deal, two rounds of four to a row
    assert [line.split()[:3] for line in (sheet.deals[0], sheet.deals[8])] == [["1", "solo", "hearts"], ["9", "solo", "hearts"]]
    # In DejaVu Sans (one font, proportional): each player's change ends, on every deal's line, where the
    # player's name ends in the header, to a hundredth of an em or so: the numbers stand right-aligned.
    font = metrics()
    header = sheet.header
    shown_names = []
    for name in players:
        shown = name if name in header else max((name[:k] + "…" for k in range(1, len(name)) if name[:k] + "…" in header), key=len)
        shown_names.append(shown)
        end = font.em(header[:header.index(shown) + len(shown)])
        for line in [*sheet.deals, sheet.total]:
            ends = [m.end() for m in re.finditer(r"[+−]?\d+", line)]
            column = players.index(name) + (0 if line is sheet.total else 1)  # a deal's line starts with its number
            assert abs(font.em(line[:ends[column]]) - end) < 0.05, (name, line)
    if size == "whole":
        assert NAMES_WHOLE_PT <= sheet.size < 8.5 and "…" not in header
    elif size == "cut":  # cut only as far as keeps the sheet at NAMES_WHOLE_PT: a character more would not
        assert sheet.size >= NAMES_WHOLE_PT and "…" in header
        assert min(len(shown) for shown in shown_names) >= 12 and max(map(len, shown_names)) > 12, shown_names
    else:
        assert sheet.size == size
    widest = max(font.em(line) for line in [header, *sheet.deals, sheet.total])
    assert sheet.size * widest <= 8.5 * SHEET_WIDTH_EM + 0.01  # the widest line fits across the page


# The tally PDF a club keeps (issue 12, point 6).

LONG_NAMES = ["Annabella Longname-Smythe", "Beatrice", "Catherine de la Tour", "Daniella"]
_KINDS: list[dict[str, object]] = [
    {"contract": "solo", "trumps": "hearts", "tricks": (6, None), "matadors": 3},
    {"contract": "alliance", "trumps": "spades", "called": "KH", "tricks": (3, 2)},
    {"contract": "solo", "trumps": "clubs", "tricks": (4, None)},
    {"contract": "forced_spadille", "trumps": "diamonds", "called": "KC", "tricks": (4, 3)},
    {"contract": "alliance", "trumps": "hearts", "called": "KS", "tricks": (4, 2), "premiers": True},
]


def long_evening(deals: int, players: list[str] = LONG_NAMES, **house_rules: str) -> dict[str, object]:
    """A Quadrille evening of ``deals`` deals, with money, whose balances do not cancel out."""
    played = []
    for i in range(deals):
        dealer, hombre = players[i % 4], players[(i + 1) % 4] if i % 3 else players[(i + 2) % 4]
        ally = players[(i + 3) % 4] if hombre != players[(i + 3) % 4] else players[i % 4]
        kind = _KINDS[i % len(_KINDS)]
        hombre_tricks, ally_tricks = kind["tricks"]  # type: ignore[misc]
        played.append({"dealer": dealer, "hombre": hombre, "contract": kind["contract"], "trumps": kind["trumps"],
                       "called": kind.get("called"), "ally": ally if kind.get("called") else None,
                       "tricks": {"hombre": hombre_tricks, "ally": ally_tricks}, "matadors": kind.get("matadors", 0),
                       "premiers": kind.get("premiers", False), "vole": "none"})
    return {"format": "quadrille-evening/1", "players": players, "profile": "quadrille", "deals_agreed": -(-deals // 4) * 4,
            "chip_value_cents": 5, "currency": "GBP", "house_rules": house_rules, "deals": played}


def import_table(client: FlaskClient, evening: dict[str, object]) -> str:
    response = client.post("/import", data={"csrf_token": csrf_token(client, "/import"),
                                            "evening": (io.BytesIO(json.dumps(evening).encode()), "e.json")},
                           content_type="multipart/form-data")
    assert response.status_code == 302, response.get_data(as_text=True)
    return response.headers["Location"].split("/t/")[1].split("/")[0]


def pdf_pages(client: FlaskClient, url: str) -> list[str]:
    response = client.get(url)
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    return [page.extract_text() for page in PdfReader(io.BytesIO(response.data)).pages]


def test_a_40_deal_evening_prints_on_one_a4_page_with_every_deal_and_the_signature_lines(
        app: Flask, client: FlaskClient) -> None:
    token = import_table(client, long_evening(40, unit="one_chip", paulans="last_round"))
    pages = pdf_pages(client, f"/t/{token}/tally.pdf?paper=a4")
    assert len(pages) == 1
    text = pages[0]
    assert [int(n) for n in re.findall(r"^\s*(\d+)\s+(?:solo|alliance|forced)", text, re.M)] == list(range(1, 41))
    signed = text.split("Agreed by")[1].split()  # four lines to a row, each name under its line, wrapped between words
    assert "Agreed by" in text and all(word in signed for name in LONG_NAMES for word in name.split())
    assert "Settle-up" in text and "£" in text  # money as the reader writes it (the money filter)
    # the two rules the table changed are marked; the rules are the profile's own
    flat = text.replace("\n", " ")
    assert text.count("(changed)") == 2 + 1 and "2 rules were changed from the profile's defaults" in flat  # two, and the key
    assert "one chip, always (changed)" in flat and "the last round of four deals (changed)" in flat


@pytest.mark.parametrize("deals", [60, 80, 96])
def test_a_longer_evening_takes_two_pages_with_the_deal_sheet_s_header_on_each(
        app: Flask, client: FlaskClient, deals: int) -> None:
    token = import_table(client, long_evening(deals))
    pages = pdf_pages(client, f"/t/{token}/tally.pdf")
    assert len(pages) == 2
    header = re.compile(r"#\s+Contract\s+Hombre\s+Ally\s+Result")
    rows = [[int(n) for n in re.findall(r"^\s*(\d+)\s+(?:solo|alliance|forced)", page, re.M)] for page in pages]
    assert rows[0] + rows[1] == list(range(1, deals + 1))
    assert header.search(pages[0])
    if rows[1]:  # the deal sheet goes on: its header is repeated on page 2
        assert header.search(pages[1]) and header.search(pages[1]).start() < re.search(rf"^\s*{rows[1][0]}\s", pages[1], re.M).start()  # type: ignore[union-attr]
    assert bool(rows[1]) is (deals >= 80)
    assert "Agreed by" in pages[1] and "Agreed by" not in pages[0]


# Rules each profile cannot use: the tally never lists them.
FOREIGN = {
    "quadrille": {"counter_stake", "counter_matadors", "counter_vole", "fish_extraordinary", "multiplier_scope",
                  "points_ally", "mediateur_king", "grandissimo_nemo"},
    "penguin_points": {"solo_premium", "unit", "vole_payment", "antes", "remise_beast", "counter_stake",
                       "mediateur_king", "favourite_suit", "paulans"},
    "britannica": {"solo_premium", "unit", "vole_payment", "multiplier_scope", "points_ally", "grandissimo_nemo",
                   "announced_vole_premium"},
    "mediateur": {"counter_stake", "counter_vole", "multiplier_scope", "points_ally"},
    "penguin_chips": {"counter_matadors", "fish_extraordinary", "points_ally", "mediateur_king", "grandissimo_nemo"},
}


@pytest.mark.parametrize("profile", sorted(FOREIGN))
def test_the_tally_lists_only_the_rules_of_its_profile(app: Flask, client: FlaskClient, profile: str) -> None:
    from scorer.core import PROFILES, RULES_BY_NAME

    applies = {rule.name for rule in PROFILES[profile].applicable_rules()}
    assert not applies & FOREIGN[profile]
    token = start_table(client, profile=profile)
    pdf_text = " ".join(" ".join(pdf_pages(client, f"/t/{token}/tally.pdf")).split())
    page = client.get(f"/t/{token}/tally").get_data(as_text=True).replace("&#39;", "'")
    for name in FOREIGN[profile]:
        title = RULES_BY_NAME[name].title
        assert title not in page and title not in pdf_text, name
    for name in applies:
        assert RULES_BY_NAME[name].title in page and RULES_BY_NAME[name].title in pdf_text, name


def test_the_40_deal_quadrille_pdf_lists_no_rule_foreign_to_the_profile(app: Flask, client: FlaskClient) -> None:
    token = import_table(client, long_evening(40))
    text = pdf_pages(client, f"/t/{token}/tally.pdf")[0].replace("\n", " ")
    for foreign in ("Counters:", "Point score:", "médiateur King", "grandissimo and nemo", "fish extraordinary"):
        assert foreign not in text
    assert "Premium for a solo" in text and "Every rule is the profile's default" in text


def test_the_title_block_prints_the_date_place_and_name_escaped_and_limited(app: Flask, client: FlaskClient) -> None:
    from scorer.core import TALLY_LABEL_MAX

    token = ten_deal_table(client)
    page = client.get(f"/t/{token}/tally").get_data(as_text=True)
    assert 'name="place"' in page and f'maxlength="{TALLY_LABEL_MAX}"' in page and 'name="name"' in page
    place, name = "The <b>Assembly</b> Rooms, Bath", "Thursday club " + "x" * 100
    text = pdf_pages(client, f"/t/{token}/tally.pdf?place={place}&name={name}")[0]
    assert "The <b>Assembly</b> Rooms, Bath" in text  # as text, never markup
    assert ("Thursday club " + "x" * 100)[:TALLY_LABEL_MAX] in text and "x" * (TALLY_LABEL_MAX - 13) not in text
    assert re.search(r"(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2} [A-Z][a-z]{2}", text)
    plain = pdf_pages(client, f"/t/{token}/tally.pdf")[0]
    assert "Assembly" not in plain and "Thursday club" not in plain  # not stored: a PDF of its own
    bad = client.get(f"/t/{token}/tally.pdf?place=%00%01evil%0A&name=" + "é" * 300)
    assert bad.status_code == 200


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_no_line_of_the_pdf_runs_past_its_column_or_the_page(app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch,
                                                              profile: str) -> None:
    """The PDF's lines of text (scorer/print_columns.py) do not wrap: each one is checked here against
    the room it has, in every profile (a note on each balance, another last column), long names too."""
    import html as html_module

    from helpers.deals import evening_deals
    from helpers.web import import_table as import_profile

    from scorer.web.pages import tally
    from scorer.web.print_columns import metrics

    seen: list[str] = []
    monkeypatch.setattr(tally, "render_pdf", lambda page: seen.append(page) or b"%PDF-")
    tokens = [import_profile(client, profile, evening_deals(profile))]
    if profile == "quadrille":
        tokens.append(import_table(client, long_evening(40)))
    font = metrics()
    for token in tokens:
        assert client.get(f"/t/{token}/tally.pdf").status_code == 200
        page = seen[-1]
        top, rest = page.split('<td class="half right">')
        for block in re.findall(r'<p class="cols[^"]*">(.*?)</p>', top, re.S):
            assert all(font.em(line) <= tally.HALF_WIDTH_EM + 0.5 for line in html_module.unescape(block).split("\n")), block
        size = float(re.search(r'class="cols head sheet" style="font-size: ([\d.]+)pt"', rest).group(1))  # type: ignore[union-attr]
        sheet = re.findall(r'<p class="cols[^"]*sheet"[^>]*>(.*?)</p>', rest, re.S)
        assert all(font.em(line) * size <= tally.SHEET_WIDTH_EM * 8.5 for b in sheet for line in html_module.unescape(b).split("\n"))
        rules = re.search(r'<p class="cols rules">(.*?)</p>', rest, re.S).group(1)  # type: ignore[union-attr]
        assert all(font.em(line) <= tally.RULES_WIDTH_EM for line in html_module.unescape(rules).split("\n"))
        signatures = re.search(r'<p class="cols sign">(.*?)</p>', rest, re.S).group(1)  # type: ignore[union-attr]
        assert all(font.em(line) <= 65.0 + 0.5 for line in html_module.unescape(signatures).split("\n"))
