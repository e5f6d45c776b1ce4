"""Imports and exports that nothing can break (issue 10, points 3, 5 and 7).

- Every limit of an imported file at its edge (accepted) and one past it (refused with a 4xx page
  that names the limit and where, nothing written).
- Hypothesis: a valid export mutated at random places, and random JSON documents, never give a 500,
  and a refusal writes nothing.
- Signed and unsigned files: the Check page tells them apart.
- The CSV export: no cell a spreadsheet would run as a formula.
"""

from __future__ import annotations

import copy
import csv
import hashlib
import html
import io
import json
import os
import re
import sqlite3
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers.web import correct_deal_3, csrf_token, fingerprint, record, start_table, ten_deal_table
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer import create_app
from scorer.core import HouseRules
from scorer.core.limits import (
    CHIP_VALUE_CENTS_MAX,
    CURRENCY_MAX,
    DEALS_AGREED_MAX,
    IMPORT_BYTES_MAX,
    JSON_DEPTH_MAX,
    LOG_LINES_MAX,
    LOG_LINES_PER_DEAL,
    NAME_MAX,
    REASON_MAX,
)
from scorer.store import ImportRefused, Table, genesis, link, read_evening_file
from scorer.store.reading import TEXT_CHARS_MAX

EXAMPLE = json.loads((Path(__file__).resolve().parent.parent / "examples" / "evening.json").read_text())
FUZZ = int(os.environ.get("FUZZ_EXAMPLES", "150"))


def make_app(tmp_path: Path, secret_key: str = "imports", name: str = "imports") -> Flask:
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / f"{name}.sqlite"), "SECRET_KEY": secret_key,
                       "INSTANCE_PATH": str(tmp_path / "instance"), "RATELIMIT_ENABLED": False})


@pytest.fixture
def app(tmp_path: Path) -> Flask:
    return make_app(tmp_path)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def post_file(client: FlaskClient, body: bytes, token: str | None = None) -> Any:
    return client.post("/import", data={"csrf_token": token or csrf_token(client, "/import"),
                                        "evening": (io.BytesIO(body), "evening.json")},
                       content_type="multipart/form-data")


def page_text(response: Any) -> str:
    return html.unescape(response.get_data(as_text=True))


def count_tables(app: Flask) -> int:
    conn = sqlite3.connect(app.config["DATABASE"])
    count = conn.execute("select count(*) from tables").fetchone()[0]
    conn.close()
    return int(count)


def accepted(app: Flask, client: FlaskClient, body: bytes) -> str:
    """Import ``body``; it must be accepted as one new table, whose link is returned."""
    before = count_tables(app)
    response = post_file(client, body)
    assert response.status_code == 302, re.findall(r'class="error"[^>]*>(.*?)<', page_text(response), re.S)
    assert count_tables(app) == before + 1
    return str(response.headers["Location"].split("/t/")[1].split("/")[0])


def refused(app: Flask, client: FlaskClient, body: bytes, *messages: str) -> str:
    """Import ``body``; it must be refused with a 4xx page saying ``messages``, and nothing written."""
    before = fingerprint(app.config["DATABASE"])
    response = post_file(client, body)
    text = page_text(response)
    assert 400 <= response.status_code < 500, (response.status_code, text[:300])
    for message in messages:
        assert message in text, (message, re.findall(r'class="error"[^>]*>(.*?)<', text, re.S) or text[:500])
    assert fingerprint(app.config["DATABASE"]) == before
    return text


def evening(**changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(EXAMPLE)
    data.update(changes)
    return data


def encode(data: object) -> bytes:
    return json.dumps(data, ensure_ascii=False).encode()


def with_history(deals: list[dict[str, Any]], lines_for: dict[int, int], deals_agreed: int,
                 reason: str | None = None) -> dict[str, Any]:
    """An evening file whose history records each deal, then corrects deal n until ``lines_for[n]``
    lines name it (alternating two versions that differ by who held Spadille); the deals are the
    versions standing at the end. ``reason`` is given on every correction."""
    history: list[dict[str, Any]] = []
    standing = []
    for number, deal in enumerate(deals, start=1):
        versions = [deal, {**deal, "spadille": deal["hombre"]}]
        history.append({"seq": len(history) + 1, "kind": "record", "number": number, "deal": versions[0]})
        for k in range(1, lines_for.get(number, 1)):
            history.append({"seq": len(history) + 1, "kind": "amend", "number": number, "deal": versions[k % 2],
                            "by": "Dan", "reason": reason})
        standing.append(versions[(lines_for.get(number, 1) - 1) % 2])
    return evening(deals=standing, deals_agreed=deals_agreed, history=history)


def cycled(n: int) -> list[dict[str, Any]]:
    """``n`` deals that settle: the example's eight, over and over (its dealers go round the table)."""
    return [copy.deepcopy(EXAMPLE["deals"][i % 8]) for i in range(n)]


# --- each limit at its edge, and one past it ------------------------------------------------------------


def padded(size: int) -> bytes:
    """A valid evening file of exactly ``size`` bytes (JSON allows any whitespace after the object)."""
    body = encode(EXAMPLE)
    return body + b" " * (size - len(body))


def test_the_file_size_limit_is_checked_before_anything_is_parsed() -> None:
    assert isinstance(read_evening_file(padded(IMPORT_BYTES_MAX)), dict)
    with pytest.raises(ImportRefused, match=f"That file is too large: an evening file may be at most {IMPORT_BYTES_MAX:,} bytes"):
        read_evening_file(padded(IMPORT_BYTES_MAX + 1))


def test_a_file_well_under_the_size_limit_is_imported(app: Flask, client: FlaskClient) -> None:
    accepted(app, client, padded(IMPORT_BYTES_MAX - 64 * 1024))


def test_a_file_of_exactly_the_size_limit_is_imported(app: Flask, client: FlaskClient) -> None:
    accepted(app, client, padded(IMPORT_BYTES_MAX))


def test_a_file_one_byte_past_the_size_limit_is_refused_with_a_readable_page(app: Flask, client: FlaskClient) -> None:
    text = refused(app, client, padded(IMPORT_BYTES_MAX + 1))
    assert f"{IMPORT_BYTES_MAX:,} bytes" in text or "2 MiB" in text or "2 MB" in text
    assert "Import an evening" in text or "</html>" in text.lower() and "<nav" in text


def nested_signature(depth: int) -> bytes:
    """A valid file nesting ``depth`` deep: its ``signature`` (unchecked unless it is a string) holds the nesting."""
    data = evening()
    value: object = "x"
    for _ in range(depth - 1):
        value = [value]
    data["signature"] = value
    return encode(data)


def test_json_depth_at_the_limit_is_accepted_and_one_past_it_refused(app: Flask, client: FlaskClient) -> None:
    assert JSON_DEPTH_MAX >= 5  # the format itself nests 5 deep
    accepted(app, client, nested_signature(JSON_DEPTH_MAX))
    refused(app, client, nested_signature(JSON_DEPTH_MAX + 1),
            f"the file nests arrays and objects more than {JSON_DEPTH_MAX} deep; an evening file nests at most {JSON_DEPTH_MAX} deep")


@pytest.mark.parametrize("body", [
    pytest.param(b"[" * 100_000 + b"]" * 100_000, id="arrays"),
    pytest.param(b'{"a":' * 100_000 + b"1" + b"}" * 100_000, id="objects"),
    pytest.param(b"[" * 100_000, id="arrays-left-open"),
    pytest.param(encode(evening())[:-1] + b', "signature": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", id="in-a-valid-file"),
])
def test_json_nested_100000_deep_is_refused_without_a_recursion_error(app: Flask, client: FlaskClient, body: bytes) -> None:
    refused(app, client, body, f"the file nests arrays and objects more than {JSON_DEPTH_MAX} deep")


def test_brackets_inside_strings_do_not_count_as_nesting(app: Flask, client: FlaskClient) -> None:
    body = encode(evening()).replace(b'"Ann"', b'"Ann [[[[[[[["').replace(b'"Bea"', b'"Bea {{{{{{{{"')
    accepted(app, client, body)


def test_a_file_of_unclosed_strings_is_refused_at_once(app: Flask, client: FlaskClient) -> None:
    """Before the fix, the nesting scan restarted at each quote of an unclosed string: 2 MB took hours."""
    body = b'"' + b'\\"' * (IMPORT_BYTES_MAX // 2 - 64 * 1024)
    start = time.perf_counter()
    refused(app, client, body, "That file is not valid JSON")
    assert time.perf_counter() - start < 5


@pytest.mark.parametrize("agreed, ok, message", [
    (4, False, "the file holds 8 deals, more than the 4 deals agreed"),
    (8, True, ""),
    (DEALS_AGREED_MAX, True, ""),
    (DEALS_AGREED_MAX + 4, False, f"the file: 'deals_agreed' must be a whole number from 4 to {DEALS_AGREED_MAX}, not {DEALS_AGREED_MAX + 4}"),
    (0, False, f"the file: 'deals_agreed' must be a whole number from 4 to {DEALS_AGREED_MAX}, not 0"),
    (-4, False, f"the file: 'deals_agreed' must be a whole number from 4 to {DEALS_AGREED_MAX}, not -4"),
    (10, False, "a multiple of four"),
    (True, False, "'deals_agreed' must be a whole number"),
    ("8", False, "'deals_agreed' must be a whole number"),
    (8.0, False, "'deals_agreed' must be a whole number"),
])
def test_deals_agreed_within_its_range(app: Flask, client: FlaskClient, agreed: object, ok: bool, message: str) -> None:
    body = encode(evening(deals_agreed=agreed))
    if ok:
        accepted(app, client, body)
    else:
        refused(app, client, body, message)


def test_no_more_deals_than_agreed(app: Flask, client: FlaskClient) -> None:
    accepted(app, client, encode(evening(deals_agreed=12, deals=cycled(12))))
    refused(app, client, encode(evening(deals_agreed=12, deals=cycled(13))), "the file holds 13 deals, more than the 12 deals agreed")


def test_the_longest_evening_at_its_edge(app: Flask, client: FlaskClient) -> None:
    token = accepted(app, client, encode(evening(deals_agreed=DEALS_AGREED_MAX, deals=cycled(DEALS_AGREED_MAX))))
    assert f"{DEALS_AGREED_MAX} of {DEALS_AGREED_MAX} deals played" in page_text(client.get(f"/t/{token}/ledger"))
    refused(app, client, encode(evening(deals_agreed=DEALS_AGREED_MAX, deals=cycled(DEALS_AGREED_MAX + 1))),
            f"the file, 'deals': more than {DEALS_AGREED_MAX} deals; an evening has at most {DEALS_AGREED_MAX}")


def test_history_lines_naming_one_deal(app: Flask, client: FlaskClient) -> None:
    edge = with_history(cycled(8), {3: LOG_LINES_PER_DEAL}, 8)
    token = accepted(app, client, encode(edge))
    assert "are intact" in page_text(client.get(f"/t/{token}/verify"))
    past = with_history(cycled(8), {3: LOG_LINES_PER_DEAL + 1}, 8)
    refused(app, client, encode(past), f"line {2 + LOG_LINES_PER_DEAL + 1} (deal 3): more than {LOG_LINES_PER_DEAL} lines "
                                       f"of the log name this deal")


def test_history_lines_in_all(app: Flask, client: FlaskClient) -> None:
    deals = LOG_LINES_MAX // LOG_LINES_PER_DEAL
    agreed = -(-(deals + 1) // 4) * 4
    edge = with_history(cycled(deals), dict.fromkeys(range(1, deals + 1), LOG_LINES_PER_DEAL), agreed)
    assert len(edge["history"]) == LOG_LINES_MAX
    token = accepted(app, client, encode(edge))
    assert f"All {LOG_LINES_MAX} lines of this table's log are intact" in page_text(client.get(f"/t/{token}/verify"))
    past = with_history(cycled(deals + 1), dict.fromkeys(range(1, deals + 1), LOG_LINES_PER_DEAL), agreed)
    assert len(past["history"]) == LOG_LINES_MAX + 1
    refused(app, client, encode(past), f"the file, 'history': more than {LOG_LINES_MAX} lines; a table's log holds at most {LOG_LINES_MAX}")


def unfit_number(path: str, number: str) -> bytes:
    """The example file with the number at ``path`` ("deals_agreed", "deals.0.tricks.hombre") written as ``number``."""
    data = with_history(cycled(8), {2: 2}, 8) if path.startswith("history") else evening()
    keys = path.split(".")
    where: Any = data
    for key in keys[:-1]:
        where = where[int(key)] if key.isdigit() else where[key]
    last: Any = int(keys[-1]) if keys[-1].isdigit() else keys[-1]
    where[last] = "@@NUMBER@@"
    return encode(data).replace(b'"@@NUMBER@@"', number.encode())


@pytest.mark.parametrize("path, number, message", [
    ("chip_value_cents", "1" + "0" * 100, "the file, 'chip_value_cents': the number 10000000000000000000… is longer than 9 digits"),
    ("chip_value_cents", str(2**63), "the file, 'chip_value_cents': the number 9223372036854775808 is longer than 9 digits"),
    ("chip_value_cents", "-1", f"the file: 'chip_value_cents' must be a whole number from 0 to {CHIP_VALUE_CENTS_MAX}, not -1"),
    ("chip_value_cents", str(CHIP_VALUE_CENTS_MAX + 1), f"must be a whole number from 0 to {CHIP_VALUE_CENTS_MAX}, not {CHIP_VALUE_CENTS_MAX + 1}"),
    ("chip_value_cents", "1e400", f"must be a whole number from 0 to {CHIP_VALUE_CENTS_MAX}, not inf"),
    ("chip_value_cents", "2.5", f"must be a whole number from 0 to {CHIP_VALUE_CENTS_MAX}, not 2.5"),
    ("chip_value_cents", "7" * 5000, "the file, 'chip_value_cents': the number 77777777777777777777… is longer than 9 digits"),
    ("chip_value_cents", "-" + "7" * 5000, "the file, 'chip_value_cents': the number -7777777777777777777… is longer than 9 digits"),
    ("deals_agreed", str(2**63), "the file, 'deals_agreed': the number 9223372036854775808 is longer than 9 digits"),
    ("deals_agreed", "1" + "0" * 100, "the file, 'deals_agreed': the number 10000000000000000000… is longer than 9 digits"),
    ("deals.3.tricks.hombre", str(2**63), "deal 4, 'tricks.hombre': the number 9223372036854775808 is longer than 9 digits"),
    ("deals.3.matadors", "-" + str(2**63), "deal 4, 'matadors': the number -9223372036854775808 is longer than 9 digits"),
    ("history.2.number", str(2**63), "line 3 of the history, 'number': the number 9223372036854775808 is longer than 9 digits"),
    ("history.2.number", "1" + "0" * 100, "line 3 of the history, 'number': the number 10000000000000000000… is longer"),
    ("history.2.restores", str(2**63), "line 3 of the history, 'restores': the number 9223372036854775808 is longer"),
    ("history.2.number", "999999999", "line 3 of the history: 'number' must be a whole number from 1 to 8, not 999999999"),
    ("history.2.seq", "1" + "0" * 100, "line 3 of the history, 'seq': the number 10000000000000000000… is longer"),
])
def test_integers_out_of_range_are_refused_naming_where(app: Flask, client: FlaskClient, path: str, number: str,
                                                        message: str) -> None:
    refused(app, client, unfit_number(path, number), message)


def test_integers_at_their_edges_are_accepted(app: Flask, client: FlaskClient) -> None:
    for cents in (0, CHIP_VALUE_CENTS_MAX):
        accepted(app, client, unfit_number("chip_value_cents", str(cents)))


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
@pytest.mark.parametrize("path, where", [("chip_value_cents", "the file, 'chip_value_cents'"),
                                         ("deals.0.tricks.hombre", "deal 1, 'tricks.hombre'")])
def test_nan_and_infinity_are_refused(app: Flask, client: FlaskClient, constant: str, path: str, where: str) -> None:
    refused(app, client, unfit_number(path, constant), f"{where}: {constant} is not a number an evening can hold")


def renamed(name: str) -> bytes:
    """The example with Ann renamed ``name`` everywhere (as a player, a dealer, an ally)."""
    return encode(evening()).replace(b'"Ann"', json.dumps(name, ensure_ascii=False).encode())


def test_a_name_at_its_longest_and_one_past(app: Flask, client: FlaskClient) -> None:
    token = accepted(app, client, renamed("Ö" * NAME_MAX))
    assert "Ö" * NAME_MAX in page_text(client.get(f"/t/{token}/ledger"))
    refused(app, client, renamed("Ö" * (NAME_MAX + 1)), f"a player's name has at most {NAME_MAX} characters", f"has {NAME_MAX + 1}")
    refused(app, client, renamed("A" * 200_000), f"the file, 'players.0': a text of more than {TEXT_CHARS_MAX} characters")


def test_names_are_checked_as_on_the_new_table_form(app: Flask, client: FlaskClient) -> None:
    refused(app, client, encode(evening(players=["Ann", "ANN", "Cat", "Dan"])), "two players have the same name")
    refused(app, client, encode(evening(players=["Ann", "Bea", "Cat", "\u2800"])))
    refused(app, client, encode(evening(players=["Ann", "Bea", "Cat"])), "four")


def test_a_reason_at_its_longest_and_one_past(app: Flask, client: FlaskClient) -> None:
    token = accepted(app, client, encode(with_history(cycled(8), {2: 2}, 8, reason="r" * REASON_MAX)))
    assert "r" * REASON_MAX in page_text(client.get(f"/t/{token}/audit/2"))
    refused(app, client, encode(with_history(cycled(8), {2: 2}, 8, reason="r" * (REASON_MAX + 1))),
            f"line 3 of the history: \"reason\" must be a text of at most {REASON_MAX} characters")


def test_a_currency_at_its_longest_and_one_past(app: Flask, client: FlaskClient) -> None:
    accepted(app, client, encode(evening(currency="E" * CURRENCY_MAX, chip_value_cents=10)))
    refused(app, client, encode(evening(currency="E" * (CURRENCY_MAX + 1), chip_value_cents=10)),
            f"\"currency\" must be a short text of at most {CURRENCY_MAX} characters")


def test_a_byte_order_mark_is_accepted(app: Flask, client: FlaskClient) -> None:
    token = accepted(app, client, b"\xef\xbb\xbf" + encode(evening()))
    assert "8 of 8 deals played" in page_text(client.get(f"/t/{token}/ledger"))


@pytest.mark.parametrize("body", [
    pytest.param(encode(evening(players=["Zoé", "Bea", "Cat", "Dan"])).decode().encode("latin-1"), id="latin-1"),
    pytest.param(json.dumps(evening()).encode("utf-16"), id="utf-16"),
    pytest.param(b"\xff" * 100, id="bytes"),
])
def test_a_file_that_is_not_utf8_is_refused(app: Flask, client: FlaskClient, body: bytes) -> None:
    refused(app, client, body, "That file is not UTF-8 text")


def test_history_fields_are_checked(app: Flask, client: FlaskClient) -> None:
    base = with_history(cycled(8), {2: 2}, 8, reason="why")
    cases: list[tuple[str, object, str]] = [
        ("by", "Zed", "line 3 of the history: \"by\" must be one of the players or null"),
        ("at", "yesterday", "line 3 of the history: \"at\" must be a time such as"),
        ("at", "2026-11-21T21:04:00+00:00" + " " * 40, "\"at\" must be a time"),
        ("hash", "0" * 63, "line 3 of the history: \"hash\" must be 64 hexadecimal digits"),
        ("hash", "G" * 64, "\"hash\" must be 64 hexadecimal digits"),
        ("kind", "shuffle", "line 3 of the history: \"kind\" must be record, undo, amend or restore"),
        ("reason", ["a"], "\"reason\" must be a text"),
    ]
    for key, value, message in cases:
        data = copy.deepcopy(base)
        data["history"][2][key] = value
        refused(app, client, encode(data), message)


# --- hypothesis: nothing gives a 500, a refusal writes nothing --------------------------------------------


JSON_LEAVES = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=40),
    st.sampled_from(["Ann", "Bea", "Cat", "Dan", "solo", "alliance", "vole", "hearts", "KS", "record", "undo", "amend",
                     "restore", "quadrille", "quadrille-evening/1", "none", "undertaken", "0" * 64, "Ａｎｎ", "ANN", ""]),
    st.sampled_from([0, 1, 2, 3, 4, 5, 6, 8, 10, 11, 400, 404, -1, 2**31, 2**63, 10**9, 10**10]),
)
JSON_VALUES = st.recursive(JSON_LEAVES, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
                           max_leaves=12)


def paths_of(value: object, path: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths_of(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += paths_of(item, (*path, i))
    return found


def mutate(document: dict[str, Any], data: st.DataObject) -> dict[str, Any]:
    doc = copy.deepcopy(document)
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        paths = paths_of(doc)
        path = data.draw(st.sampled_from(paths[1:]), label="path")
        parent: Any = doc
        for key in path[:-1]:
            parent = parent[key]
        what = data.draw(st.sampled_from(["replace", "replace", "delete", "add"]), label="what")
        if what == "replace":
            parent[path[-1]] = data.draw(JSON_VALUES, label="value")
        elif what == "delete":
            del parent[path[-1]]
        elif isinstance(parent[path[-1]], dict):
            parent[path[-1]][data.draw(st.text(max_size=10), label="key")] = data.draw(JSON_VALUES, label="value")
        elif isinstance(parent[path[-1]], list):
            parent[path[-1]].append(data.draw(JSON_VALUES, label="value"))
    return doc


@dataclass
class Fuzzed:
    app: Flask
    client: FlaskClient
    csrf: str
    documents: dict[str, dict[str, Any]]


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Fuzzed]:
    folder = tmp_path_factory.mktemp("fuzz")
    app = make_app(folder)
    client = app.test_client()
    token = ten_deal_table(client)
    correct_deal_3(client, token)
    undo = csrf_token(client, f"/t/{token}/undo")
    page = client.get(f"/t/{token}/undo").get_data(as_text=True)
    once = re.search(r'name="once" type="hidden" value="([^"]+)"', page).group(1)  # type: ignore[union-attr]
    assert client.post(f"/t/{token}/undo", data={"csrf_token": undo, "number": "10", "once": once}).status_code == 302
    export = json.loads(client.get(f"/t/{token}/export.json").get_data())
    kinds = {line["kind"] for line in export["history"]}
    assert kinds == {"record", "amend", "undo"}
    yield Fuzzed(app, client, csrf_token(client, "/import"), {"example": evening(), "export": export})


def check_post(f: Fuzzed, body: bytes) -> None:
    before = fingerprint(f.app.config["DATABASE"])
    tables = count_tables(f.app)
    response = post_file(f.client, body, f.csrf)
    assert response.status_code < 500
    if response.status_code == 302:
        assert count_tables(f.app) == tables + 1
        token = response.headers["Location"].split("/t/")[1].split("/")[0]
        for url in (f"/t/{token}", f"/t/{token}/ledger", f"/t/{token}/verify", f"/t/{token}/export.json"):
            assert f.client.get(url).status_code == 200, url
        assert "cannot be replayed" not in page_text(f.client.get(f"/t/{token}/verify"))
    else:
        assert 400 <= response.status_code < 500
        assert fingerprint(f.app.config["DATABASE"]) == before


FUZZ_SETTINGS = settings(max_examples=FUZZ, deadline=None,
                         suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                                HealthCheck.data_too_large])


@FUZZ_SETTINGS
@given(data=st.data())
def test_a_mutated_export_never_gives_a_500(fuzzed: Fuzzed, data: st.DataObject) -> None:
    document = fuzzed.documents[data.draw(st.sampled_from(sorted(fuzzed.documents)), label="document")]
    check_post(fuzzed, json.dumps(mutate(document, data), ensure_ascii=data.draw(st.booleans())).encode())


@FUZZ_SETTINGS
@given(value=JSON_VALUES | st.dictionaries(st.sampled_from(sorted(EXAMPLE) + ["history", "signature", "first_dealer",
                                                                              "chip_value_cents", "currency"]),
                                           JSON_VALUES, max_size=8))
def test_a_random_json_document_never_gives_a_500(fuzzed: Fuzzed, value: object) -> None:
    check_post(fuzzed, json.dumps(value).encode())


@FUZZ_SETTINGS
@given(body=st.binary(max_size=200) | st.text(max_size=200).map(str.encode))
def test_random_bytes_never_give_a_500(fuzzed: Fuzzed, body: bytes) -> None:
    check_post(fuzzed, body)


# --- signed and unsigned --------------------------------------------------------------------------------


SIGNED = "Imported from a file signed by this server, untouched since it was exported"
UNVERIFIED = "Imported, not verified"


def verdict(client: FlaskClient, body: bytes) -> tuple[str, str, str]:
    """Import ``body``: the flash message after the import, the Check page, and the new table's link."""
    response = post_file(client, body)
    assert response.status_code == 302, re.findall(r'class="error"[^>]*>(.*?)<', page_text(response), re.S)
    token = response.headers["Location"].split("/t/")[1].split("/")[0]
    flashed = page_text(client.get(response.headers["Location"]))
    return flashed, page_text(client.get(f"/t/{token}/verify")), token


def exported_with_history(client: FlaskClient) -> bytes:
    token = ten_deal_table(client, chip_value="0.25", currency="GBP")
    correct_deal_3(client, token)
    return client.get(f"/t/{token}/export.json").get_data()  # type: ignore[no-any-return]


def rechain(data: dict[str, Any]) -> None:
    """Recompute every hash of the file's history, as anyone can: the chain is consistent again."""
    settings_ = Table(0, "", "", tuple(data["players"]), data["first_dealer"],
                      HouseRules.of(data["profile"], data["house_rules"]), data["deals_agreed"],
                      data["chip_value_cents"], data["currency"], "")
    previous = genesis(settings_)
    for line in data["history"]:
        row = {"seq": line["seq"], "kind": line["kind"], "number": line["number"],
               "deal": None if line["deal"] is None else json.dumps(line["deal"], ensure_ascii=False, sort_keys=True),
               "by": line["by"], "reason": line["reason"], "restores": line["restores"], "created_at": line["at"]}
        line["hash"] = previous = link(previous, row)


def test_an_export_imported_on_the_same_server_is_signed_and_untouched(app: Flask, client: FlaskClient) -> None:
    flashed, check, _ = verdict(client, exported_with_history(client))
    assert "signed by this server, untouched" in flashed
    assert SIGNED in check and UNVERIFIED not in check
    assert "are intact" in check


def test_without_its_signature_the_same_file_is_not_verified(app: Flask, client: FlaskClient) -> None:
    data = json.loads(exported_with_history(client))
    del data["signature"]
    flashed, check, _ = verdict(client, encode(data))
    assert "imported, not verified" in flashed
    assert UNVERIFIED in check and SIGNED not in check


def test_a_reason_changed_and_the_chain_recomputed_is_not_verified(app: Flask, client: FlaskClient) -> None:
    body = exported_with_history(client)
    data = json.loads(body)
    line = next(line for line in data["history"] if line["reason"] == "miscount")
    line["reason"] = "miscounu"  # one byte
    before = fingerprint(app.config["DATABASE"])
    status = post_file(client, encode(data))
    assert status.status_code == 422  # the stated hash no longer checks
    assert f"line {line['seq']} (deal 3) was changed after it was written" in page_text(status)
    assert fingerprint(app.config["DATABASE"]) == before
    rechain(data)  # the signature is kept, but no longer matches
    flashed, check, _ = verdict(client, encode(data))
    assert "imported, not verified" in flashed
    assert UNVERIFIED in check and SIGNED not in check
    assert "are intact" in check


def test_a_file_signed_by_another_server_is_not_verified(tmp_path: Path) -> None:
    here = make_app(tmp_path, "one key", "here").test_client()
    there = make_app(tmp_path, "another key", "there").test_client()
    body = exported_with_history(here)
    flashed, check, _ = verdict(there, body)
    assert "imported, not verified" in flashed and UNVERIFIED in check and SIGNED not in check
    flashed, check, _ = verdict(here, body)
    assert SIGNED in check


def test_a_signed_file_goes_round_export_import_export_byte_for_byte(app: Flask, client: FlaskClient) -> None:
    first = exported_with_history(client)
    _, check, token = verdict(client, first)
    assert SIGNED in check
    second = client.get(f"/t/{token}/export.json").get_data()
    assert second == first
    assert hashlib.sha256(second).hexdigest() == hashlib.sha256(first).hexdigest()


def test_an_unverified_history_cannot_be_laundered_into_a_signed_one(app: Flask, client: FlaskClient) -> None:
    """Import an unsigned file, export it, import that export: still not verified (the export of an
    unverified table carries no signature of this server)."""
    data = json.loads(exported_with_history(client))
    del data["signature"]
    _, check, token = verdict(client, encode(data))
    assert UNVERIFIED in check
    again = client.get(f"/t/{token}/export.json").get_data()
    assert "signature" not in json.loads(again)
    _, check, token = verdict(client, again)
    assert UNVERIFIED in check and SIGNED not in check
    assert client.get(f"/t/{token}/export.json").get_data() == again


def test_a_plain_evening_file_is_not_verified(app: Flask, client: FlaskClient) -> None:
    _, check, _ = verdict(client, encode(evening()))
    assert UNVERIFIED in check


# --- the CSV export -------------------------------------------------------------------------------------


FORMULAS = ["=1+1", "@SUM(A1)", "+cmd|' /C calc'!A0", "-x"]
DANGEROUS = ("=", "+", "-", "@", "\t", "\r")


def test_no_csv_cell_starts_like_a_formula(app: Flask, client: FlaskClient) -> None:
    token = start_table(client, FORMULAS)
    a, b, c, d = FORMULAS
    deals = [
        ("solo", {"hombre": b, "trumps": "hearts", "hombre_tricks": "6", "matadors": "3"}),
        ("solo", {"hombre": c, "trumps": "clubs", "hombre_tricks": "4"}),
        ("alliance", {"hombre": d, "trumps": "spades", "called": "KH", "ally": a, "hombre_tricks": "4", "ally_tricks": "3"}),
        ("solo", {"hombre": a, "trumps": "diamonds", "hombre_tricks": "3"}),
        ("alliance", {"hombre": b, "trumps": "clubs", "called": "KD", "ally": c, "hombre_tricks": "2", "ally_tricks": "2"}),
    ]
    for number, (contract, data) in enumerate(deals, start=1):
        assert record(client, token, contract, number, data).status_code == 302
    body = client.get(f"/t/{token}/export.csv").get_data(as_text=True)
    rows = list(csv.reader(io.StringIO(body)))
    assert len(rows) > 30
    cells = [cell for row in rows for cell in row]
    for name in FORMULAS:  # every name reaches the file, as dealer, hombre, payer or payee, and in the sentences
        assert "'" + name in cells
        assert any(cell.startswith("'" + name + " ") for cell in cells)
    for cell in cells:
        assert not cell.startswith(DANGEROUS), cell


# --- what an attack from outside found (a second look after issue 10) ---------------------------------------


def test_a_lone_surrogate_anywhere_is_refused_not_a_500(app: Flask, client: FlaskClient) -> None:
    data = json.loads(exported_with_history(client))
    data["history"][-1]["reason"] = "\ud800x"
    refused(app, client, json.dumps(data).encode(), "broken character")


def test_a_signature_that_is_not_hex_is_simply_not_this_servers(app: Flask, client: FlaskClient) -> None:
    data = json.loads(exported_with_history(client))
    data["signature"] = "é"
    flashed, check, _ = verdict(client, encode(data))
    assert "imported, not verified" in flashed


def test_a_key_named_twice_in_one_object_is_refused(app: Flask, client: FlaskClient) -> None:
    body = encode(evening()).replace(b'"players":', b'"players": ["A", "B", "C", "D"], "players":', 1)
    refused(app, client, body, "names 'players' twice")


def test_a_first_dealer_other_than_deal_ones_is_refused(app: Flask, client: FlaskClient) -> None:
    data = evening()
    wrong = next(p for p in data["players"] if p != data["deals"][0]["dealer"])
    refused(app, client, encode({**data, "first_dealer": wrong}), "deal 1 was dealt by")


@pytest.mark.parametrize("reason", ["\u202eok", "ok\x00", "a\u200bb", "x\ufe0f"])
def test_a_reason_with_control_or_invisible_characters_is_refused(app: Flask, client: FlaskClient, reason: str) -> None:
    data = json.loads(exported_with_history(client))
    line = next(line for line in data["history"] if line["kind"] == "amend")
    line["reason"] = reason
    rechain(data)
    refused(app, client, encode(data), "invisible or control character")


@pytest.mark.parametrize("change, message", [
    (lambda line: line.update(restores=1), "only a restoration names the version"),
    (lambda line: line.update(deal=None), "every other line carries one"),
])
def test_a_history_line_the_app_never_writes_is_refused(app: Flask, client: FlaskClient,
                                                         change: Callable[[dict[str, Any]], None], message: str) -> None:
    data = json.loads(exported_with_history(client))
    change(data["history"][0])
    rechain(data)
    refused(app, client, encode(data), message)


def test_a_correction_to_the_deal_already_standing_is_refused(app: Flask, client: FlaskClient) -> None:
    data = json.loads(exported_with_history(client))
    line = next(line for line in data["history"] if line["kind"] == "amend")
    before = next(l for l in data["history"] if l["number"] == line["number"] and l["kind"] == "record")
    line["deal"] = before["deal"]
    data["deals"][line["number"] - 1] = before["deal"]
    rechain(data)
    refused(app, client, encode(data), "puts back the very deal that stands")
