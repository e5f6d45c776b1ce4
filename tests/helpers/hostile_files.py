"""Hostile files of the size an upload may have (issue 22): each shape a way to make a reader build as much
as it can before the file is refused. Shared by tests/test_import_memory.py and bench/imports.py.

Each is exactly ``IMPORT_BYTES_MAX`` bytes (padded with spaces, which JSON allows after the value): an
evening's or a circle's opening, then ``"x"``, a field neither format has, holding the shape, so that a
file the reader reads to its end is still refused (for its unknown field), never imported.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterator

from scorer.core import HOUSE_RULES
from scorer.core.limits import IMPORT_BYTES_MAX

KINDS = ("evening", "circle")
OPENING = {
    "evening": b'{"format":"quadrille-evening/1","players":["Ann","Bea","Cat","Dan"],"x":',
    "circle": b'{"format":"quadrille-circle/1","name":"Club","x":',
}
FANOUT = 12
"""Items of each list and keys of each object a shape holds: as many as a list of a member's names may."""


def padded(body: bytes) -> bytes:
    assert len(body) <= IMPORT_BYTES_MAX, len(body)
    return body + b" " * (IMPORT_BYTES_MAX - len(body))


def tree(leaves: Iterator[bytes], levels: int, room: int, keyed: bool = False) -> bytes:
    """Lists (objects, if ``keyed``) of ``FANOUT`` items, ``levels`` deep, the leaves drawn from
    ``leaves``, as many as ``room`` bytes hold; the outermost list holds as many as fit."""
    def node(level: int) -> bytes:
        items = [next(leaves) if level == 1 else node(level - 1) for _ in range(FANOUT)]
        if keyed:
            return b"{" + b",".join(b'"%c":%s' % (ord("a") + k, item) for k, item in enumerate(items)) + b"}"
        return b"[" + b",".join(items) + b"]"
    outer: list[bytes] = []
    size = 2
    while True:
        child = node(levels)
        if size + len(child) + 1 > room:
            break
        outer.append(child)
        size += len(child) + 1
    return b"[" + b",".join(outer) + b"]"


def counted(pattern: str) -> Iterator[bytes]:
    """Leaves all different: ``pattern`` filled with 0, 1, 2, ..."""
    return (pattern.format(k).encode() for k in itertools.count())


def same(leaf: bytes) -> Iterator[bytes]:
    return itertools.repeat(leaf)


def shaped(kind: str, shape: Callable[[int], bytes]) -> bytes:
    opening = OPENING[kind]
    return padded(opening + shape(IMPORT_BYTES_MAX - len(opening) - 1) + b"}")


def flat(kind: str, key: str, item: bytes) -> bytes:
    """``key`` a list of ``item`` over and over, as many as the file holds."""
    opening = OPENING[kind][:-len(b'"x":')] + b'"%s":[' % key.encode()
    count = (IMPORT_BYTES_MAX - len(opening) - 2) // (len(item) + 1)
    return padded(opening + b",".join([item] * count) + b"]}")


DEAL = json.dumps({"dealer": "Ann", "hombre": "Bea", "contract": "solo", "trumps": "hearts", "tricks": {"hombre": 6}},
                  separators=(",", ":")).encode()

SHAPES: dict[str, Callable[[str], bytes]] = {
    # read to the budget (IMPORT_MEMORY_PER_BYTE): the reader stops there
    "empty lists, 12 to a list, 6 deep": lambda kind: shaped(kind, lambda room: tree(same(b"[]"), 5, room)),
    "empty objects, 12 to an object, 6 deep": lambda kind: shaped(kind, lambda room: tree(same(b"{}"), 5, room, keyed=True)),
    "short texts all different": lambda kind: shaped(kind, lambda room: tree(counted('"{0:x}"'), 5, room)),
    "numbers all different": lambda kind: shaped(kind, lambda room: tree(counted("1{0:06d}"), 5, room)),
    # read to the end (each text takes four bytes a character in memory), then refused for the field "x"
    "texts of a thousand characters, one of four bytes": lambda kind: shaped(
        kind, lambda room: tree(counted("\"\U00020000{0:09d}" + "a" * 990 + '"'), 3, room)),
    # refused as soon as a limit is passed
    "100,000 deals": lambda kind: flat(kind, "deals" if kind == "evening" else "evenings", DEAL),
    "two million empty objects": lambda kind: flat(kind, "deals" if kind == "evening" else "evenings", b"{}"),
    "one object of half a million keys": lambda kind: padded(
        b"{" + b",".join(b'"k%06d":0' % k for k in range(IMPORT_BYTES_MAX // 12 - 1)) + b"}"),
    "nested six million deep": lambda kind: b"[" * IMPORT_BYTES_MAX,
    "one text of six million characters": lambda kind: shaped(kind, lambda room: b'"' + b"a" * (room - 2) + b'"'),
}
BUDGET_SHAPES = tuple(list(SHAPES)[:4])
"""The shapes the reader reads until their values pass the memory budget."""

REFUSED_FOR = {
    **dict.fromkeys(BUDGET_SHAPES, "more values than a file of its size can hold"),
    "texts of a thousand characters, one of four bytes": "unknown field 'x'",
    "100,000 deals": "more than {list_limit}",
    "two million empty objects": "more than {list_limit}",
    "one object of half a million keys": f"an object of more than {len(HOUSE_RULES)} fields",  # house_rules naming every rule
    "nested six million deep": "nests arrays and objects more than",
    "one text of six million characters": "a text of more than 1000 characters",
}
"""Why each shape is refused (``{list_limit}``: 400 deals, or 100 evenings)."""


def refused_for(kind: str, shape: str) -> str:
    return REFUSED_FOR[shape].format(list_limit="400 deals" if kind == "evening" else "100 evenings")


def hostile(kind: str, shape: str) -> bytes:
    return SHAPES[shape](kind)
