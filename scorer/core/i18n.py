"""Words for people, in the reader's language, with the core kept free of Flask (issue 15).

The core writes every sentence a person reads in English and passes it through :func:`_` before it fills
in the values: ``_("{payer} pays {payee} {chips}").format(payer=..., ...)``. :func:`_` asks the translation
installed for the current context (:func:`translating`, or :func:`install` for the rest of a web request);
with none installed, as on the command line and in the core's own tests, it gives the English back.
The web layer installs Flask-Babel's ``gettext`` for each request, so the same sentence reaches a French
phone in French; the catalogue (``scorer/translations``) is extracted from the calls to :func:`_` and
:func:`N_` (``pybabel extract``, see the README).

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


def _english(message: str) -> str:
    return message


_translation: ContextVar[Translate] = ContextVar("translation", default=_english)


def _(message: str) -> str:
    """``message`` (English, with its ``{placeholders}`` unfilled) in the current reader's language."""
    return _translation.get()(message)


def N_(message: str) -> str:  # noqa: N802 - gettext's own name for "mark, translate later"
    """Mark ``message`` for the catalogue and keep it in English: it is translated where it is read."""
    return message


def install(translate: Translate) -> Token[Translate]:
    """Use ``translate`` for every sentence made in the current context from now on (a web request)."""
    return _translation.set(translate)


@contextmanager
def translating(translate: Translate) -> Iterator[None]:
    """Use ``translate`` for the sentences made inside the ``with`` block."""
    token = _translation.set(translate)
    try:
        yield
    finally:
        _translation.reset(token)


__all__ = ["N_", "Translate", "_", "install", "translating"]
