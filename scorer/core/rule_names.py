"""House rules named as a player reads them: by their titles, never by their codes.

A rule's code (``own_king``) is how files, forms, the database and the command line name it; a page names it by
its title (“Hombre calls a King she holds”). Each rule's English title is kept here as the rule is declared
(:class:`~scorer.core.rules.rule_types.HouseRule`), so that a text written with codes in it (a help text, a value's
label, a note a settlement keeps) is shown with the titles in their place (:func:`with_titles`), in the reader's
language, wherever it is read. This module sits below the model and the rules (it imports only the words), so
that both can name a rule.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .i18n import _

_TITLES: dict[str, str] = {}
"""Every house rule's English title (marked for the catalogue where it is written) by its code."""
_CODE = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")
"""A code as the files write a rule's or a value's name (``own_king``, ``twice_taken``). The codes of one word
(``unit``, ``antes``, ``paulans``) are words of the texts too: they are left as they are."""


def name_rule(code: str, english_title: str) -> None:
    """Keep the title of the rule called ``code`` (done by each rule as it is declared)."""
    _TITLES[code] = english_title


def quoted(text: str) -> str:
    """``text`` between the reader's quotation marks: “Who antes” / « Qui mise »."""
    return _("“{title}”").format(title=text)


def rule_title(code: str) -> str:
    """The title of the rule called ``code``, in quotes and in the reader's language; the code itself if no rule
    has it."""
    return quoted(_(_TITLES[code])) if code in _TITLES else code


def with_titles(text: str, label_of: Callable[[str], str | None] | None = None) -> str:
    """``text`` (in the reader's language) with every house rule it names by its code shown by its quoted title,
    and every value ``label_of`` knows by its quoted label."""
    if "_" not in text:
        return text

    def titled(match: re.Match[str]) -> str:
        code = match.group(0)
        if code in _TITLES:
            return quoted(_(_TITLES[code]))
        label = label_of(code) if label_of is not None else None
        return code if label is None else quoted(label)

    return _CODE.sub(titled, text)


__all__ = ["name_rule", "quoted", "rule_title", "with_titles"]
