"""Players' names that a table can tell apart.

A name arrives from a form or a file and is first put in its normal form
(:func:`normalise`: NFC, single spaces, none around it); the core keeps only
normal forms, so one name is never stored in two spellings.

Two names are the same name when their :func:`identity` is equal: the
casefold of the NFKC form, so ``Ann``, ``ANN`` and fullwidth ``Ａｎｎ`` are one
name. Two names are look-alikes when their :func:`skeleton` is equal but their
identity is not, as ``Ann`` and ``Аnn`` (a Cyrillic ``А``): the skeleton
replaces every letter of another script by the Latin (or common) character
that the Unicode consortium's confusables data (``confusables.txt`` of
UTS #39, through the ``confusable_homoglyphs`` package) says it looks like.
Look-alikes within the Latin script itself (``I`` and ``l``, ``rn`` and
``m``) are not refused: that is a question of the font, not of the name.

:func:`check_players` runs when a table starts or a file is read, never per deal.
"""

from __future__ import annotations

from collections.abc import Sequence

import unicodedata

from confusable_homoglyphs import categories, confusables  # type: ignore[import-untyped]

from .accounts import RESERVED_NAMES, SEATS
from .errors import ImpossibleDeal, Said, Words
from .i18n import N_
from .limits import NAME_MAX

BRAILLE_BLANK = "\u2800"
"""BRAILLE PATTERN BLANK: it prints as nothing but is neither whitespace, a control character nor default-ignorable.

The other characters that print as nothing are whitespace (U+2000 to U+200A, U+205F, U+3000, U+00A0, U+1680,
U+202F...: :func:`normalise` turns each run of them into one plain space) or default-ignorable (the fillers of
Hangul, the zero widths, the soft hyphen...: :data:`DEFAULT_IGNORABLE`). A name may hold no blank but a plain
space, and a name made only of blanks, of whitespace, of combining marks or of format characters has no visible
character and is refused.
"""

DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F),
    (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)
"""Unicode's Default_Ignorable_Code_Point ranges (DerivedCoreProperties.txt): characters a font
shows as nothing, such as the variation selectors (``Ann`` + U+FE0F prints as ``Ann``). A name
may hold none of them. (The standard library does not expose this property.)"""


def ignorable(char: str) -> bool:
    code = ord(char)
    return code >= 0xAD and any(low <= code <= high for low, high in DEFAULT_IGNORABLE)


_SAME_SCRIPT = frozenset({"LATIN", "COMMON", "INHERITED"})
"""Scripts whose characters the skeleton keeps as they are (common: digits and punctuation; inherited: combining marks)."""


def normalise(name: str) -> str:
    """The normal form of a name: NFC, surrounding whitespace stripped, each inner run of whitespace one space."""
    return " ".join(unicodedata.normalize("NFC", name).split())


def identity(name: str) -> str:
    """The key two names are compared by: the casefold of the NFKC form (``Ann``, ``ANN``, ``Ａｎｎ`` share one)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", normalise(name)).casefold())


def _latin_look_alike(char: str) -> str | None:
    """The Latin (or else common) character that ``char``, of another script, is confusable with, if any."""
    if char < "\x80" or categories.alias(char) in _SAME_SCRIPT:  # ASCII is Latin or common
        return None
    glyphs = [entry["c"] for entry in confusables.confusables_data.get(char, ())]
    for allowed in ({"LATIN"}, {"LATIN", "COMMON"}):
        for glyph in glyphs:
            if all(categories.alias(g) in allowed for g in glyph):
                return str(glyph)
    return None


def _script(char: str) -> str:
    return str(categories.alias(char)).title()


def skeleton(name: str) -> tuple[str, str]:
    """What a name looks like: every letter of another script replaced by its Latin look-alike, then the identity.

    Two keys, the letters mapped as written and mapped in lower case, since
    confusables.txt maps a capital Cyrillic ``Н`` to ``H`` but its small ``н``
    to a small capital ``ʜ``, and a Greek ``Ι`` to ``l`` but its small ``ι`` to ``i``.
    """
    folded = unicodedata.normalize("NFKC", normalise(name))

    def mapped(text: str) -> str:
        if text.isascii():  # Latin and common: nothing to map
            return identity(text)
        decomposed = unicodedata.normalize("NFD", text)  # a Cyrillic Ё is Е with a diaeresis, like a Latin Ë
        return identity("".join(_latin_look_alike(c) or c for c in decomposed))

    return mapped(folded), mapped(folded.casefold())


def _borrowed_scripts(name: str) -> list[str]:
    """The scripts, other than Latin, whose letters the skeleton of ``name`` replaced."""
    decomposed = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", name))
    return sorted({_script(c) for c in decomposed + decomposed.casefold() if _latin_look_alike(c) is not None})


def _code(char: str) -> str:
    return f"U+{ord(char):04X} {unicodedata.name(char, 'unnamed')}"


def check_name(name: str) -> None:
    """Refuse a name no player could have: empty, too long, invisible, or a pot's name.

    Raises :class:`ImpossibleDeal` on the ``players`` field.
    """
    if not name.strip():
        raise ImpossibleDeal(Words(N_("every player needs a name")), "players")
    if len(name) > NAME_MAX:
        raise ImpossibleDeal(Words(N_("a player's name has at most {most} characters; {start!r}... has {length}"),
                                   most=NAME_MAX, start=name[:12], length=len(name)), "players")
    if not (name.isascii() and name.isprintable()):  # else letters, digits, signs and spaces: nothing hidden
        _check_characters(name)
    if identity(name) in _RESERVED:
        raise ImpossibleDeal(Words(N_("{name!r} cannot be a player's name: it names a pot of chips"), name=name), "players")


def _check_characters(name: str) -> None:
    """Refuse a name with no visible character, or with a control, unassigned, private or invisible one."""
    if all(char.isspace() or char == BRAILLE_BLANK or ignorable(char)
           or unicodedata.category(char) in ("Mn", "Me", "Cf") for char in name):
        raise ImpossibleDeal(Words(N_("{name!r} cannot be a player's name: it has no visible character"), name=name),
                             "players")
    for char in name:
        category = unicodedata.category(char)
        if category == "Cc":
            raise ImpossibleDeal(
                Words(N_("{name!r} cannot be a player's name: it has an invisible control character"), name=name), "players")
        if category.startswith("C") or char == BRAILLE_BLANK or ignorable(char):
            what = _CHARACTERS.get(category, _CHARACTERS["Cf"])
            raise ImpossibleDeal(Words(what, name=name, code=_code(char)), "players")


_CHARACTERS = {
    "Cn": N_("{name!r} cannot be a player's name: it has an unassigned character ({code})"),
    "Co": N_("{name!r} cannot be a player's name: it has a private-use character ({code})"),
    "Cs": N_("{name!r} cannot be a player's name: it has a broken (surrogate) character ({code})"),
    "Cf": N_("{name!r} cannot be a player's name: it has an invisible character ({code})"),
}


_RESERVED = frozenset(identity(name) for name in RESERVED_NAMES)


def check_players(players: tuple[str, ...] | list[str]) -> None:
    """Four names, each possible, in normal form, and no two the same or alike to the eye."""
    if len(players) != SEATS:
        raise ImpossibleDeal(Words(N_("Quadrille is played by four; {count} players were given"), count=len(players)),
                             "players")
    check_names(players)


def check_names(players: Sequence[str]) -> None:
    """Names, any number of them (a circle's members), each possible, in normal form, and no two
    the same or alike to the eye."""
    for name in players:
        check_name(name)
        if normalise(name) != name:
            raise ImpossibleDeal(
                Words(N_("{name!r} is not written in its normal form (NFC, single spaces, none around it): "
                         "write it as {normal!r}"), name=name, normal=normalise(name)), "players")
    keys = [(identity(name), skeleton(name)) for name in players]
    for i, first in enumerate(players):
        for j, second in enumerate(players[i + 1:], start=i + 1):
            if keys[i][0] == keys[j][0]:
                raise ImpossibleDeal(Words(N_("two players have the same name: {first!r} and {second!r}; "
                                              "give each a different one"), first=first, second=second), "players")
            if any(a == b for a, b in zip(keys[i][1], keys[j][1])):
                raise ImpossibleDeal(_look_alike_message(first, second), "players")


def _look_alike_message(first: str, second: str) -> Words:
    theirs, other = (first, second) if _borrowed_scripts(first) and not _borrowed_scripts(second) else (second, first)
    scripts = _borrowed_scripts(theirs)
    others = _borrowed_scripts(other)
    names = {"theirs": theirs, "other": other, "scripts": _and(scripts), "others": _and(others)}
    if others:
        return Words(N_("{theirs!r} looks like {other!r} but one is written with {scripts} letters "
                        "and the other with {others} letters; give each player a name the others can tell apart"),
                     **names)
    if any(categories.alias(c) == "LATIN" for c in theirs):
        return Words(N_("{theirs!r} looks like {other!r} but mixes {scripts} letters into it; "
                        "give each player a name the others can tell apart"), **names)
    return Words(N_("{theirs!r} looks like {other!r} but is written in {scripts} letters; "
                    "give each player a name the others can tell apart"), **names)


def _and(scripts: list[str]) -> Said:
    """"Cyrillic and Greek and Armenian" (the names of Unicode's scripts are kept in English)."""
    said: Said = scripts[0] if scripts else ""
    for script in scripts[1:]:
        said = Words(N_("{first} and {last}"), first=said, last=script)
    return said


def listed_words(players: tuple[str, ...], none: Said | None = None) -> Said:
    """Names as a sentence lists them, "Ann, Cat and Dan", worded when read (``none`` when there are
    none: by default "nobody")."""
    if not players:
        return Words(N_("nobody")) if none is None else none
    if len(players) == 1:
        return players[0]
    return Words(N_("{first} and {last}"), first=", ".join(players[:-1]), last=players[-1])


def check_note(text: str, what: str = N_("a reason")) -> None:
    """Free text kept in a table's log (a correction's reason): no control or format characters,
    which could hide text or turn the rest of a line around (a right-to-left override). ``what`` is
    in English (marked with ``N_``), worded in the reader's language in the message."""
    for char in text:
        if unicodedata.category(char).startswith("C") or ignorable(char):
            raise ImpossibleDeal(Words(N_("{what} cannot hold an invisible or control character ({code})"),
                                       what=Words(what), code=_code(char)), "reason")
