"""The reader of uploaded files (scorer/store/reading.py, issue 22) reads what json.loads reads.

Hypothesis: any JSON value within the reader's limits, written in any of the ways json.dumps writes
it (spaces or none, indented, escaped or not), reads back equal to what json.loads makes of it; any
bytes at all either read as json.loads reads them or are refused with a sentence (never another
error); and a text or number that appears again is the same object, not a copy.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.store import ImportRefused, read_circle_file, read_evening_file

TEXTS = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)
SCALARS = st.none() | st.booleans() | st.integers(-999_999_999, 999_999_999) | TEXTS | st.floats(allow_nan=False, allow_infinity=False)
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=12) | st.dictionaries(TEXTS, inner, max_size=12),
                      max_leaves=60)
WRITINGS = st.sampled_from([{}, {"separators": (",", ":")}, {"indent": 2}, {"ensure_ascii": False},
                            {"indent": "\t", "ensure_ascii": False}])


def depth(value: object) -> int:
    if isinstance(value, list):
        return 1 + max(map(depth, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(depth, value.values()), default=0)
    return 0


@settings(max_examples=300, deadline=None)
@given(value=VALUES, writing=WRITINGS)
def test_a_json_value_within_the_limits_reads_as_json_loads_reads_it(value: object, writing: dict[str, Any]) -> None:
    raw = json.dumps(value, **writing).encode()
    if depth(value) > 8:
        with pytest.raises(ImportRefused, match="nests arrays and objects more than 8 deep"):
            read_evening_file(raw)
        return
    assert read_evening_file(raw) == json.loads(raw)
    assert read_circle_file(raw) == json.loads(raw)


@settings(max_examples=300, deadline=None)
@given(body=st.binary(max_size=80) | VALUES.map(lambda v: json.dumps(v).encode()).flatmap(
    lambda raw: st.integers(0, len(raw)).map(lambda cut: raw[:cut] + b"}" + raw[cut:])))
def test_any_bytes_read_as_json_loads_reads_them_or_are_refused_with_a_sentence(body: bytes) -> None:
    try:
        read = read_evening_file(body)
    except ImportRefused as refused:
        assert str(refused)
        return
    assert read == json.loads(body.decode("utf-8-sig"))


def test_a_text_or_number_that_appears_again_is_the_same_object() -> None:
    read = read_evening_file(json.dumps({"deals": [{"hombre": "Bea" + "", "matadors": 123456}] * 3,
                                         "players": ["Ann", "Bea"]}).encode())
    assert isinstance(read, dict)
    deals = read["deals"]
    assert deals[0]["hombre"] is deals[2]["hombre"] is read["players"][1]
    assert deals[0]["matadors"] is deals[1]["matadors"]
    assert deals[0] is not deals[1]  # objects are never shared: each is its own


@pytest.mark.parametrize("body, says", [
    (b"", "That file is not valid JSON: Expecting value: line 1 column 1 (byte 0)"),
    (b'{"a": 1,}', "That file is not valid JSON: Expecting property name enclosed in double quotes: line 1 column 9 (byte 8)"),
    (b'{"a" 1}', "Expecting ':' delimiter"),
    (b"[1 2]", "Expecting ',' delimiter: line 1 column 4 (byte 3)"),
    (b'{"a": 1} x', "Extra data: line 1 column 10 (byte 9)"),
    (b'["abc', "Unterminated string starting at: line 1 column 2 (byte 1)"),
    (b'["a\x01b"]', "Invalid control character at"),
    (b'["a\\qb"]', "Invalid \\escape"),
    (b"[01]", "Expecting ',' delimiter"),
    (b'{"x": [1234567890]}', "the file, 'x.0': the number 1234567890 is longer than 9 digits"),
    (b'{"x": [NaN]}', "the file, 'x.0': NaN is not a number an evening can hold"),
    (b'{"x": ["\\ud800"]}', "the file, 'x.0': it holds a broken character (a lone surrogate)"),
    (b'{"deals": [{"x": 1, "x": 2}]}', "the file names 'x' twice in one object"),
    (b'{"deals": [[' + b"1," * 12 + b"1]]}", "deal 1: a list of more than 12 items"),
])
def test_what_is_not_json_or_not_within_the_limits_is_refused_saying_where(body: bytes, says: str) -> None:
    with pytest.raises(ImportRefused) as refused:
        read_evening_file(body)
    assert says in str(refused.value)
