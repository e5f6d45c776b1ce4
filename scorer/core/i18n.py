"""Words for people, in the reader's language, with the core kept free of Flask.

The core writes every sentence a person reads in English and passes it through :func:`_` before it fills
in the values: ``_("{payer} pays {payee} {chips}").format(payer=..., ...)``. :func:`_` asks the translation
installed for the current context (:func:`translating`, or :func:`install` for the rest of a web request);
with none installed, as on the command line and in the core's own tests, it gives the English back.
The web layer installs Flask-Babel's ``gettext`` for each request, so the same sentence reaches a French
phone in French; the catalogue (``scorer/translations``) is extracted from the calls to :func:`_`,
:func:`ngettext` and :func:`N_` (``pybabel extract``, see docs/DESIGN.md, "Translations").

A sentence that counts something is written in its two English forms and passed through :func:`ngettext` with
the count: ``ngettext("{n} table", "{n} tables", n).format(n=n)``. The catalogue chooses the form by the
language's own rule (in French 0 and 1 are singular: "0 table"); with no translation installed, the
English singular is for 1 only.

A sentence made when the module is imported (a house rule's title, a contract's name) cannot be
translated then: it is marked with :func:`N_` (kept in English, extracted for the catalogue) and passed
through :func:`_` where it is read. A sentence kept to be read later, by any reader (a transfer's words, a
deal's note, a refusal), is a message with its values (:class:`~scorer.core.errors.Words`), worded when read.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar, Token

Translate = Callable[[str], str]
"""A translation: the English text of a message to the reader's language (the English if it has none)."""
TranslatePlural = Callable[[str, str, int], str]
"""A translation of a sentence that counts: its English singular and plural and the count, to the form of
the reader's language for that count (gettext's ``ngettext``)."""


def english(message: str) -> str:
    """No translation: the English itself (``translating(english)`` makes what every reader shares)."""
    return message


def _english_plural(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


_translation: ContextVar[Translate] = ContextVar("translation", default=english)
_plural_translation: ContextVar[TranslatePlural] = ContextVar("plural_translation", default=_english_plural)


def _(message: str) -> str:
    """``message`` (English, with its ``{placeholders}`` unfilled) in the current reader's language."""
    return _translation.get()(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a sentence that counts ``n`` things (English singular and plural, ``{placeholders}``
    unfilled) in the current reader's language: fill in the count after, ``.format(n=n)``."""
    return _plural_translation.get()(singular, plural, n)


def N_(message: str) -> str:  # noqa: N802 - gettext's own name for "mark, translate later"
    """Mark ``message`` for the catalogue and keep it in English: it is translated where it is read."""
    return message


def _plural_of(translate: Translate, plural: TranslatePlural | None) -> TranslatePlural:
    """``plural``, else the ``ngettext`` of the catalogue whose ``gettext`` is ``translate`` (a bound method of
    gettext's or Babel's translations), else English: a catalogue installed by its ``gettext`` counts in its
    language too."""
    if plural is not None:
        return plural
    found: TranslatePlural | None = getattr(getattr(translate, "__self__", None), "ngettext", None)
    return found if callable(found) else _english_plural


def install(translate: Translate, plural: TranslatePlural | None = None) -> Token[Translate]:
    """Use ``translate`` (and ``plural`` for the sentences that count: by default its catalogue's own
    ``ngettext``) for every sentence made in the current context from now on (a web request)."""
    _plural_translation.set(_plural_of(translate, plural))
    return _translation.set(translate)


@contextmanager
def translating(translate: Translate, plural: TranslatePlural | None = None) -> Iterator[None]:
    """Use ``translate`` (and ``plural``, as :func:`install` does) for the sentences made inside the ``with`` block."""
    token, counted = _translation.set(translate), _plural_translation.set(_plural_of(translate, plural))
    try:
        yield
    finally:
        _plural_translation.reset(counted)
        _translation.reset(token)


# --- elision: "de"/"que" before a name, as French writes them -----------------------------------------------------

ELIDED = {"de": "d'", "que": "qu'"}
"""The words a translation may put before a value by a placeholder of their own (``{de_name}``, ``%(que_player)s``),
and what each becomes before a vowel: French writes "le médiateur d'Éléonore", "qu'Henri a joué"."""
_TAG = re.compile(r"<[^>]*>")


def elides_before(text: str) -> bool:
    """Whether "de" and "que" are elided before ``text`` (a name, a list of names, a pot's name), read from its first
    letter: a vowel, accented or not (Anne, Éléonore, Œdipe); an H, every H taken as mute ("d'Hélène", "d'Henri",
    "d'Hugo": the app's choice, since no list of names tells an aspirate H, and "d'Hugues" is heard as often as "de
    Hugues"); a Y before a consonant (Yves, Yvonne: "d'Yves"), not before a vowel (Yannick: "de Yannick"). Not
    before a consonant or a digit ("de Bertrand", "de 3"). The tags of a value that is HTML are skipped."""
    letters = [c for c in unicodedata.normalize("NFD", _TAG.sub("", text)) if c.isalnum()][:2]
    if not letters:
        return False
    first = letters[0].casefold()
    if first in "aeiouhæœ":
        return True
    return first == "y" and len(letters) > 1 and letters[1].casefold() not in "aeiouy"


_CONTRACTED = (("les ", "des "), ("le ", "du "))
""""de" before a lowercase article, as in a pot's name ("les bêtes en attente"): "des bêtes en attente". A name
is left as it is written ("de Le Roux")."""


def elided(word: str, value: object) -> str:
    """``word`` ("de" or "que") and ``value`` as French writes them: "d'Éléonore", "de Bertrand", "qu'Henri" (and
    "de" before a pot's article: "des bêtes en attente"). A value that is HTML (it has ``__html__``) stays HTML: the
    word is joined to it as escaped text."""
    text = str(value)
    if word == "de" and not hasattr(value, "__html__"):
        for article, contracted in _CONTRACTED:
            if text.startswith(article):
                return contracted + text[len(article):]
    joined = ELIDED[word] if elides_before(text) else word + " "
    return joined + value if hasattr(value, "__html__") else joined + text  # type: ignore[operator]


class Elisions(dict[str, object]):
    """A sentence's values, and for each one the French "de" or "que" before it, elided where it must be: a
    translation that puts a name after "de" writes ``{de_name}`` (``%(de_name)s``) for ``de {name}``, and gets
    "d'Éléonore" or "de Bertrand" (:func:`elided`). Any other missing key is a ``KeyError``, as a plain dict's."""

    def __missing__(self, key: str) -> object:
        word, _sep, name = key.partition("_")
        if word in ELIDED and name in self:
            return elided(word, self[name])
        raise KeyError(key)


def filled(text: str, values: Mapping[str, object]) -> str:
    """``text`` (a translated sentence with ``{placeholders}``) filled with ``values``, "de"/"que" elided before
    them where the translation asks (:class:`Elisions`)."""
    return text.format_map(Elisions(values))


__all__ = ["ELIDED", "Elisions", "N_", "Translate", "TranslatePlural", "_", "elided", "elides_before", "english",
           "filled", "install", "ngettext", "translating"]
