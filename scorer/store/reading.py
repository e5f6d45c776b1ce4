"""Reading an uploaded JSON file without building more than a file of its size can need.

``json.loads`` builds every object of a file before any of it can be checked, tens of bytes for
each byte of the file: a 6 MiB file of empty objects (``{"deals": [{}, {}, ...]}``) held 158 MB
before it was refused for holding two million deals. This reader builds what ``json.loads``
builds (every whole number through :func:`.files.whole_number`, objects as dicts, a key named
twice refused), but it checks each limit as it reads and stops at the first one passed, saying
where:

- arrays and objects nest at most ``Shape.depth`` deep;
- a list named by its key (``deals``, ``history``, ``evenings``, ``log``) holds at most as many
  items as the limits allow it, any other list at most :data:`LIST_ITEMS_MAX`; an object has at
  most :data:`OBJECT_KEYS_MAX` keys; a text has at most :data:`TEXT_CHARS_MAX` characters;
- everything built, measured with ``sys.getsizeof``, takes at most
  :data:`~scorer.core.limits.IMPORT_MEMORY_PER_BYTE` bytes for each byte of the file;
- the reading takes at most :data:`~scorer.core.limits.IMPORT_SECONDS_MAX` seconds of its thread's time.

Each text and number is built once and shared wherever it appears again: a file of plays names
the same forty cards thousands of times, and an export names the same four players in every deal.
The file stays bytes (it is never decoded whole, which takes up to four bytes a character); each
text is decoded alone.
"""

from __future__ import annotations

import codecs
import json
import json.decoder
import re
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from ..core.errors import ScorerError
from ..core.i18n import _
from ..core.limits import CIRCLE_MEMBERS_MAX, IMPORT_MEMORY_PER_BYTE, IMPORT_SECONDS_MAX, REASON_MAX
from ..core.rules import HOUSE_RULES

Path = tuple[str | int, ...]

LIST_ITEMS_MAX = CIRCLE_MEMBERS_MAX
"""Items of a list not named in ``Shape.lists``: the longest the formats hold is a circle's members
or a settlement's payments (at most :data:`~scorer.core.limits.CIRCLE_MEMBERS_MAX`); a play has 10
tricks of 4 cards, an evening 4 players."""

OBJECT_KEYS_MAX = max(len(HOUSE_RULES), 16)
"""Keys of one object: the most any object of the formats has is ``house_rules`` naming every rule."""

TEXT_CHARS_MAX = 5 * REASON_MAX
"""Characters of one text: every text the formats hold is shorter (the longest, a correction's reason,
has at most :data:`~scorer.core.limits.REASON_MAX`), and one a little past its field's limit is still
read, so that the field's own check can say which limit it passed."""

MEMORY_BASE = 256 * 1024
"""Bytes the objects of any file may take on top of ``IMPORT_MEMORY_PER_BYTE`` for each of its bytes
(a file of a few bytes builds a few objects of a hundred bytes each)."""

MEMO_ENTRY = 48
"""Bytes counted for keeping a text or number to share it (a slot of a dict's table and its index)."""

_scanstring: Callable[[str, int, bool], tuple[str, int]] = getattr(json.decoder, "scanstring")
"""json's own reader of one text (in C), from just after its opening quote; typeshed does not list it."""
_WHITESPACE = re.compile(rb"[ \t\n\r]*")
_PLAIN_STRING = re.compile(rb'"([^"\\\x00-\x1f]*)"')
_STRING = re.compile(rb'"[^"\\]*+(?:\\.[^"\\]*+)*+"', re.DOTALL)
_NUMBER = re.compile(rb"-?(?:0|[1-9][0-9]*+)(\.[0-9]++)?([eE][-+]?[0-9]++)?")
_LITERALS: dict[bytes, object] = {b"null": None, b"true": True, b"false": False}
_CONSTANTS = (b"NaN", b"Infinity", b"-Infinity")
CLOCK_EVERY = 4096
"""Values built between two looks at the clock (a look costs about what building a value does)."""
NUMBER_CHARS_MAX = 24
"""Characters of a number read as it is written: a longer one is read from its first characters (no
field holds it, and its refusal shows only its beginning)."""


class Refusal(ScorerError):
    """What the reader refuses, and where: the caller words it with its own names of places."""

    def __init__(self, why: str, path: Path = ()) -> None:
        super().__init__(why)
        self.path = path


@dataclass(frozen=True)
class Shape:
    """What a file of one format may hold, as the reader checks it; each sentence is already in
    the reader's language, with ``{limit}`` for the limit passed."""

    depth: int
    too_deep: str
    lists: Mapping[str, tuple[int, str]] = field(default_factory=dict)
    """A list's key, the most items it may hold, and the sentence saying so."""
    whole_number: Callable[[str], object] = int
    constant: Callable[[str], object] = float


_SPACE = frozenset(b" \t\n\r")
_QUOTE, _OPEN_OBJECT, _CLOSE_OBJECT, _OPEN_LIST, _CLOSE_LIST, _COMMA, _COLON = b'"{}[],:'


class _Reader:
    """One reading of one file: the place it has reached (``keys``, one for each container open), what
    it has built so far (``spent``) and the texts and numbers it shares."""

    def __init__(self, raw: bytes, shape: Shape) -> None:
        self.raw = raw
        self.size = len(raw)
        self.shape = shape
        self.keys: list[str | int] = [0] * (shape.depth + 1)
        self.depth = 0
        self.budget = IMPORT_MEMORY_PER_BYTE * len(raw) + MEMORY_BASE
        self.spent = 0
        self.built = 0
        self.deadline = time.thread_time() + IMPORT_SECONDS_MAX  # this thread's own time: a busy machine's others not counted
        self.texts: dict[str, str] = {}
        self.numbers: dict[bytes, object] = {}
        self.wholes: dict[object, object] = {}

    # --- refusals ---------------------------------------------------------------------------------

    def path(self, depth: int | None = None) -> Path:
        return tuple(self.keys[:self.depth if depth is None else depth])

    def invalid(self, message: str, at: int) -> Refusal:
        """Not JSON: json's own sentence, with the line and column of the byte where it stops."""
        line = self.raw.count(b"\n", 0, at) + 1
        column = at - self.raw.rfind(b"\n", 0, at)
        where = _("line {line} column {column} (byte {at})").format(line=line, column=column, at=at)
        return Refusal(_("That file is not valid JSON: {error}").format(error=f"{message}: {where}"))

    def spend(self, size: int) -> None:
        self.spent += size
        self.built += 1
        if self.built % CLOCK_EVERY == 0 and time.thread_time() > self.deadline:
            raise Refusal(_("reading it took more than {limit} seconds of the server's time, far longer than any file "
                            "within the limits takes").format(limit=IMPORT_SECONDS_MAX), self.path())
        if self.spent > self.budget:
            raise Refusal(_("more values than a file of its size can hold: reading them would take more than {limit:,} "
                            "bytes of memory ({per_byte} for each byte of the file, more than any file within the limits "
                            "needs)").format(limit=self.budget, per_byte=IMPORT_MEMORY_PER_BYTE), self.path())

    def too_long(self) -> Refusal:
        return Refusal(_("a text of more than {limit} characters: no field is that long").format(limit=TEXT_CHARS_MAX),
                       self.path())

    # --- values -----------------------------------------------------------------------------------

    def skip(self, at: int) -> int:
        """Past the whitespace at ``at``, if any."""
        if at < self.size and self.raw[at] in _SPACE:
            match = _WHITESPACE.match(self.raw, at)
            assert match is not None  # it matches the empty string
            return match.end()
        return at

    def next_byte(self, at: int) -> int:
        return self.raw[at] if at < self.size else -1

    def value(self, at: int) -> tuple[object, int]:
        first = self.next_byte(at)
        if first == _QUOTE:
            return self.text(at)
        if first == _OPEN_OBJECT or first == _OPEN_LIST:
            return self.container(at, first == _OPEN_OBJECT)
        for literal, value in _LITERALS.items():
            if self.raw.startswith(literal, at):
                return value, at + len(literal)
        for constant in _CONSTANTS:
            if self.raw.startswith(constant, at):
                return self.shared(constant, constant.decode("ascii"), self.shape.constant), at + len(constant)
        number = _NUMBER.match(self.raw, at)
        if number is None:
            raise self.invalid("Expecting value", at)
        if number.group(1) is None and number.group(2) is None:
            return self.whole_number(at, number.end()), number.end()
        if number.end() - at > NUMBER_CHARS_MAX:  # no field holds a number written so long (nor any float)
            literal = self.raw[at:at + NUMBER_CHARS_MAX]
            return self.shared(literal + b"...", literal.decode("ascii") + "…", self.shape.constant), number.end()
        literal = self.raw[at:number.end()]
        return self.shared(literal, literal.decode("ascii"), float), number.end()

    def whole_number(self, at: int, end: int) -> object:
        """A whole number as ``Shape.whole_number`` reads it (from its first characters if it is written
        longer than any field's number), made once for each value."""
        text = self.raw[at:min(end, at + NUMBER_CHARS_MAX)].decode("ascii") + ("…" if end - at > NUMBER_CHARS_MAX else "")
        try:
            value = self.shape.whole_number(text)
        except Refusal as refusal:
            raise Refusal(refusal.message, self.path()) from None
        found = self.wholes.get(value)
        if found is None:
            found = self.wholes[value] = value
            self.spend(sys.getsizeof(value) + MEMO_ENTRY)
        return found

    def shared(self, literal: bytes, text: str, read: Callable[[str], object]) -> object:
        """A number with a fraction or exponent (or NaN, Infinity) as ``read`` makes it of ``text``, made once
        for each way it is written; ``read`` raises :class:`Refusal` for a number no field can hold."""
        value = self.numbers.get(literal)
        if value is None:
            try:
                value = read(text)
            except Refusal as refusal:
                raise Refusal(refusal.message, self.path()) from None
            self.numbers[literal] = value
            self.spend(sys.getsizeof(literal) + sys.getsizeof(value) + MEMO_ENTRY)
        return value

    def text(self, at: int) -> tuple[str, int]:
        plain = _PLAIN_STRING.match(self.raw, at)  # no escape, no control character: most texts
        if plain is None:
            return self.escaped(at)
        end = plain.end()
        if end - at - 2 > 4 * TEXT_CHARS_MAX:  # a character is at most 4 bytes
            raise self.too_long()
        return self.kept(plain.group(1).decode("utf-8")), end  # between two quotes of a file checked as UTF-8 whole

    def escaped(self, at: int) -> tuple[str, int]:
        """A text written with escapes (or with a control character, which JSON refuses)."""
        whole = _STRING.match(self.raw, at)
        if whole is None:
            raise self.invalid("Unterminated string starting at", at)
        end = whole.end()
        if end - at - 2 > 12 * TEXT_CHARS_MAX:  # a character is at most 12 bytes written (an escaped surrogate pair)
            raise self.too_long()
        try:
            value = _scanstring(self.raw[at:end].decode("utf-8"), 1, True)[0]
        except json.JSONDecodeError as error:
            raise self.invalid(error.msg, at + len(self.raw[at:end].decode("utf-8")[:error.pos].encode("utf-8"))) from None
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise Refusal(_("it holds a broken character (a lone surrogate), which is not text"), self.path()) from None
        return self.kept(value), end

    def kept(self, value: str) -> str:
        """The text, the one object made for it the first time it was read."""
        found = self.texts.get(value)
        if found is None:
            if len(value) > TEXT_CHARS_MAX:
                raise self.too_long()
            found = self.texts[value] = value
            self.spend(sys.getsizeof(value) + MEMO_ENTRY)
        return found

    def container(self, at: int, mapping: bool) -> tuple[object, int]:
        if self.depth >= self.shape.depth:
            raise Refusal(self.shape.too_deep.format(limit=self.shape.depth))
        self.depth += 1
        built, end = (self.read_object if mapping else self.read_array)(self.skip(at + 1))
        self.depth -= 1
        self.spend(sys.getsizeof(built))
        return built, end

    def read_object(self, at: int) -> tuple[dict[str, object], int]:
        built: dict[str, object] = {}
        if self.next_byte(at) == _CLOSE_OBJECT:
            return built, at + 1
        slot = self.depth - 1
        while True:
            if self.next_byte(at) != _QUOTE:
                raise self.invalid("Expecting property name enclosed in double quotes", at)
            self.depth = slot  # a key refused is named by the object's place
            key, at = self.text(at)
            self.depth = slot + 1
            if key in built:
                raise Refusal(_("the file names {key!r} twice in one object; each field may appear once").format(key=key))
            if len(built) >= OBJECT_KEYS_MAX:
                raise Refusal(_("an object of more than {limit} fields: no object of this format has that many").format(
                    limit=OBJECT_KEYS_MAX), self.path(slot))
            at = self.skip(at)
            if self.next_byte(at) != _COLON:
                raise self.invalid("Expecting ':' delimiter", at)
            self.keys[slot] = key
            built[key], at = self.value(self.skip(at + 1))
            at = self.skip(at)
            following = self.next_byte(at)
            if following == _CLOSE_OBJECT:
                return built, at + 1
            if following != _COMMA:
                raise self.invalid("Expecting ',' delimiter", at)
            at = self.skip(at + 1)

    def read_array(self, at: int) -> tuple[list[object], int]:
        built: list[object] = []
        if self.next_byte(at) == _CLOSE_LIST:
            return built, at + 1
        slot = self.depth - 1
        key = self.keys[slot - 1] if slot >= 1 else None
        most, sentence = self.shape.lists.get(key, (LIST_ITEMS_MAX, "")) if isinstance(key, str) else (LIST_ITEMS_MAX, "")
        while True:
            if len(built) >= most:
                raise Refusal((sentence or _("a list of more than {limit} items: no list of this format is that long")).format(
                    limit=most), self.path(slot))
            self.keys[slot] = len(built)
            item, at = self.value(at)
            built.append(item)
            at = self.skip(at)
            following = self.next_byte(at)
            if following == _CLOSE_LIST:
                return built, at + 1
            if following != _COMMA:
                raise self.invalid("Expecting ',' delimiter", at)
            at = self.skip(at + 1)


def is_utf8(raw: bytes) -> bool:
    """Whether ``raw`` is UTF-8 text, checked a piece at a time (decoding it whole would hold up to four
    bytes for each of its characters)."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    view = memoryview(raw)
    try:
        for start in range(0, len(raw), UTF8_PIECE):
            decoder.decode(view[start:start + UTF8_PIECE])
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return False
    return True


UTF8_PIECE = 64 * 1024


def read_json(raw: bytes, shape: Shape, start: int = 0) -> object:
    """The JSON value of ``raw`` (from byte ``start``, after a byte-order mark), read within ``shape``'s
    limits and the memory budget; raises :class:`Refusal` at the first limit passed, or if it is not
    JSON. ``raw`` must have been checked as UTF-8 text."""
    reader = _Reader(raw, shape)
    value, end = reader.value(reader.skip(start))
    end = reader.skip(end)
    if end != len(raw):
        raise reader.invalid("Extra data", end)
    return value
