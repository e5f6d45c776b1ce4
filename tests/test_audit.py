"""Disputed deals: the audit page, corrections as versions, restoring, and the tamper-evident log."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from click.testing import CliRunner
from flask import Flask
from flask.testing import FlaskClient
from helpers.web import amend, csrf_token, event_rows, figure, record, start_table, ten_deal_table

from scorer.cli import main


def ledger_rows(client: FlaskClient, token: str) -> list[list[str]]:
    """Every figure of the ledger: each deal's balances and pool, and the totals."""
    page = client.get(f"/t/{token}/ledger").get_data(as_text=True)
    body = re.search(r"<tbody>(.*)</tfoot>", page, re.S).group(1)  # type: ignore[union-attr]
    return [re.findall(r"<td>([^<]*)</td>", row) for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)]


def test_the_audit_page_explains_every_transfer(app: Flask, client: FlaskClient) -> None:
    token = ten_deal_table(client)
    page = client.get(f"/t/{token}/audit/1").get_data(as_text=True)
    assert "Deal 1: Bea, solo, won" in page
    assert "Cat pays Bea 4 — solo premium" in page
    assert "Premium for a solo</a>: 4 units" in page and "source P" in page
    said = " ".join(re.sub(r"<[^>]+>", " ", page).split())
    assert re.search(r"Player Before Deal After Ann 0 −\d+ −\d+ Bea 0 \+(\d+) \+\1 Cat 0 −\d+ −\d+ Dan 0 −\d+ −\d+ "
                     r"Pool \d+ \d+", said), said  # a player a row: every name whole
    assert client.get(f"/t/{token}/audit/11").status_code == 404
    assert client.get(f"/t/{token}/audit/0").status_code == 404


def test_amending_an_early_deal_recomputes_every_later_deal_and_restoring_undoes_it(app: Flask, client: FlaskClient) -> None:
    token = ten_deal_table(client)
    original = ledger_rows(client, token)

    # deal 2 was a remise (5 tricks); it was really a won solo with 6: the carried pool changes deal 3 on
    corrected = {"hombre": "Cat", "trumps": "clubs", "hombre_tricks": "6"}
    preview = amend(client, token, 2, "solo", corrected, by="Dan", reason="Cat had six tricks")
    page = preview.get_data(as_text=True)  # type: ignore[attr-defined]
    assert "What this changes" in page
    shown_deals = [int(n) for n in re.findall(r"Deal (\d+): ", re.search(r"<tbody>(.*?)</tbody>", page, re.S).group(1))]  # type: ignore[union-attr]
    foot = re.search(r"<tfoot>(.*?)</tfoot>", page, re.S).group(1)  # type: ignore[union-attr]
    shown_finals = [figure(x) for x in re.findall(r"<td>([^<]+)</td>", foot)]
    assert event_rows(app)[-1] == ("record", 10)  # nothing saved by the preview

    digest = re.search(r'name="previewed" type="hidden" value="([^"]+)"', page).group(1)  # type: ignore[union-attr]
    saved = amend(client, token, 2, "solo", corrected, by="Dan", reason="Cat had six tricks", action="save", previewed=digest)
    assert saved.status_code == 302  # type: ignore[attr-defined]
    amended = ledger_rows(client, token)

    # the difference shown before saving is the difference after
    assert [figure(a) - figure(b) for a, b in zip(amended[-1][:4], original[-1][:4])] == shown_finals
    def per_deal(rows: list[list[str]]) -> list[list[int]]:
        running = [[figure(x) for x in row[:4]] for row in rows[:10]]
        return [[b - a for a, b in zip([0] * 4 if n == 0 else running[n - 1], running[n])] for n in range(10)]

    changed = [n + 1 for n, (a, b) in enumerate(zip(per_deal(original), per_deal(amended))) if a != b]
    assert shown_deals == changed  # exactly the deals whose payments change
    assert shown_deals[0] == 2 and max(shown_deals) > 2  # the pool carried from deal 2 changes later deals too

    # the history keeps both versions, with who and why
    audit = client.get(f"/t/{token}/audit/2").get_data(as_text=True)
    assert "Recorded" in audit and "Corrected by Dan" in audit and "Cat had six tricks" in audit
    restore_url = re.search(r'href="(/t/[^"]+/audit/2/restore/\d+)"', audit).group(1)  # type: ignore[union-attr]
    confirm = client.get(restore_url).get_data(as_text=True)
    assert "What this changes" in confirm
    log_length = re.search(r'name="log_length" type="hidden" value="(\d+)"', confirm).group(1)  # type: ignore[union-attr]
    restored = client.post(restore_url, data={"csrf_token": csrf_token(client, restore_url), "by": "Cat",
                                              "reason": "no, five", "log_length": log_length})
    assert restored.status_code == 302
    assert ledger_rows(client, token) == original  # every figure as it was
    assert [k for k, _ in event_rows(app)][-2:] == ["amend", "restore"]  # nothing overwritten or deleted


def test_a_correction_needs_who_and_saves_nothing_until_confirmed(app: Flask, client: FlaskClient) -> None:
    token = ten_deal_table(client)
    refused = amend(client, token, 2, "solo", {"hombre": "Cat", "trumps": "clubs", "hombre_tricks": "6"}, by="")
    assert refused.status_code == 422  # type: ignore[attr-defined]
    assert "Say who is making this correction." in refused.get_data(as_text=True)  # type: ignore[attr-defined]
    same = amend(client, token, 2, "solo", {"hombre": "Cat", "trumps": "clubs", "hombre_tricks": "5"})
    assert "This is the deal as it stands" in same.get_data(as_text=True)  # type: ignore[attr-defined]
    impossible = amend(client, token, 2, "solo", {"hombre": "Cat", "trumps": "clubs", "hombre_tricks": "5", "premiers": "y"})
    assert "premiers are the first six tricks" in impossible.get_data(as_text=True)  # type: ignore[attr-defined]
    assert len(event_rows(app)) == 10


def test_a_correction_carrying_a_play_that_cannot_be_is_refused(app: Flask, client: FlaskClient) -> None:
    """The play record rides with a correction from Check the play (a new deal's form has none): tampered, it is a
    message beside the form, and nothing is written."""
    token = ten_deal_table(client)
    refused = amend(client, token, 2, "solo", {"hombre": "Cat", "trumps": "clubs", "hombre_tricks": "6", "play": "XX" * 30})
    assert refused.status_code == 422  # type: ignore[attr-defined]
    assert "The play this correction carries cannot be" in refused.get_data(as_text=True)  # type: ignore[attr-defined]
    assert len(event_rows(app)) == 10


def test_a_correction_that_makes_a_later_deal_impossible_is_refused(app: Flask, client: FlaskClient) -> None:
    token = start_table(client, rule_codille_indivisible="odd_to_spadille")
    record(client, token, "solo", 1, {"hombre": "Bea", "trumps": "hearts", "hombre_tricks": "6"})
    record(client, token, "solo", 2, {"hombre": "Cat", "trumps": "clubs", "hombre_tricks": "6"})
    # a codille in deal 1 would leave an odd chip for Spadille, whose holder deal 2 does not name
    refused = amend(client, token, 1, "solo", {"hombre": "Bea", "trumps": "hearts", "hombre_tricks": "4"})
    assert refused.status_code == 422  # type: ignore[attr-defined]
    assert "This correction would make deal 2 impossible" in refused.get_data(as_text=True)  # type: ignore[attr-defined]
    assert len(event_rows(app)) == 2


def test_the_hash_chain_detects_an_edited_row(app: Flask, client: FlaskClient) -> None:
    token = ten_deal_table(client)
    db_path = app.config["DATABASE"]
    assert "are intact" in client.get(f"/t/{token}/verify").get_data(as_text=True)
    intact = CliRunner().invoke(main, ["verify", "--db", db_path])
    assert intact.exit_code == 0 and "10 lines, intact" in intact.output

    conn = sqlite3.connect(db_path)
    conn.execute("update events set deal = replace(deal, '\"hombre\": 4', '\"hombre\": 6') where number = 4")
    conn.commit()
    page = client.get(f"/t/{token}/verify").get_data(as_text=True)
    assert "The log is broken: line 4 (deal 4) was changed after it was written" in page
    broken = CliRunner().invoke(main, ["verify", "--db", db_path, token])
    assert broken.exit_code == 1
    assert "BROKEN at line 4 — deal 4" in broken.output


def test_a_deleted_row_breaks_the_chain(app: Flask, client: FlaskClient) -> None:
    token = ten_deal_table(client)
    conn = sqlite3.connect(app.config["DATABASE"])
    conn.execute("delete from events where seq = 7")
    conn.commit()
    result = CliRunner().invoke(main, ["verify", "--db", app.config["DATABASE"], token])
    assert result.exit_code == 1 and "line 7 of the log is missing" in result.output


def test_changed_house_rules_break_the_chain(app: Flask, client: FlaskClient) -> None:
    ten_deal_table(client)
    conn = sqlite3.connect(app.config["DATABASE"])
    conn.execute("""update tables set house_rules = '{"solo_premium": "two_units"}'""")
    conn.commit()
    result = CliRunner().invoke(main, ["verify", "--db", app.config["DATABASE"]])
    assert result.exit_code == 1 and "BROKEN at line 1" in result.output


def test_verify_without_a_database(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["verify", "--db", str(tmp_path / "none.sqlite")])
    assert result.exit_code == 2 and "no database" in result.output
