"""Words for people, in the reader's language, with the core kept free of Flask (issue 15).

The core writes every sentence a person reads in English and passes it through :func:`_` before it fills
in the values: ``_("{payer} pays {payee} {chips}").format(payer=..., ...)``. :func:`_` asks the translation
installed for the current context (:func:`translating`, or :func:`install` for the rest of a web request);
with none installed, as on the command line and in the core's own tests, it gives the English back.
The web layer installs Flask-Babel's ``gettext`` for each request, so the same sentence reaches a French
phone in French; the catalogue (``scorer/translations``) is extracted from the calls to :func:`_`,
:func:`ngettext` and :func:`N_` (``pybabel extract``, see the README).

A sentence that counts something is written in its two English forms and passed through :func:`ngettext` with
the count: ``ngettext("{n} table", "{n} tables", n).format(n=n)``. The catalogue chooses the form by the
language's own rule (in French 0 and 1 are singular: "0 table"); with no translation installed, the
English singular is for 1 only.

A sentence made when the module is imported (a house rule's title, a contract's name) cannot be
translated then: it is marked with :func:`N_` (kept in English, extracted for the catalogue) and passed
through :func:`_` where it is read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar, Token

Translate = Callable[[str], str]
"""A translation: the English text of a message to the reader's language (the English if it has none)."""
TranslatePlural = Callable[[str, str, int], str]
"""A translation of a sentence that counts: its English singular and plural and the count, to the form of
the reader's language for that count (gettext's ``ngettext``)."""


def _english(message: str) -> str:
    return message


def _english_plural(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


_translation: ContextVar[Translate] = ContextVar("translation", default=_english)
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


__all__ = ["N_", "Translate", "TranslatePlural", "_", "install", "ngettext", "translating"]
