"""The one piece of HTML drawn in Python rather than in a template: the deal form's segmented radio groups.

A deal page draws up to nine of them (Hombre, trumps, the called card, the ally, tricks, matadors, the vole...),
fifty to eighty radio inputs, and a Jinja macro's loop over a group's choices cost several times what this does
(``bench/drawn.py`` times both, and the deal page and its preview with each; the figures are in docs/DESIGN.md, *Trust
and speed*). Every other piece of the pages is in ``templates/``. Every value written into the HTML is escaped by
markupsafe's ``escape``; what is not escaped is this module's own constant markup. The HTML is the macro's it
replaced, byte for byte (``tests/golden/``, compared by ``tests/test_deal_page_drawn.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Any, Protocol

from flask import Flask
from markupsafe import Markup, escape

from ..core import caches
from .i18n import request_language


class Labelled(Protocol):
    @property
    def text(self) -> object: ...


class RadioGroup(Protocol):
    """What is drawn of a WTForms ``RadioField``: only its public attributes."""

    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def data(self) -> object: ...
    @property
    def errors(self) -> Sequence[object]: ...
    @property
    def label(self) -> Labelled: ...
    @property
    def choices(self) -> object: ...
    @property
    def coerce(self) -> Callable[[Any], object]: ...
    def iter_choices(self) -> Iterable[tuple[Any, object, bool, object]]: ...


Option = tuple[object, str, str]
"""A radio input drawn: its value as the field compares it with its data, the HTML before ``checked`` and after."""
OPTIONS_KEPT = 4096
OPTIONS: caches.PerApp[tuple[object, ...], tuple[object, list[Option]]] = caches.per_app(
    f"{__name__}.OPTIONS", OPTIONS_KEPT, "a radio group's inputs drawn, by its list of choices, field and language")
"""Per app, as their labels are in its own translations (kept for the whole process, an app with other
translations showed the first app's words)."""


def segmented_field(field: RadioGroup, cls: str = "", only: Collection[object] | None = None) -> Markup:
    """A radio group as big segmented buttons (``segmented`` in templates/_macros.html, which calls this): a
    fieldset of plain radio inputs, no JavaScript. A group in error marks each of its inputs aria-invalid and
    describes it by the group's messages (ids ``field.id ~ "-error1"``...). ``only``: the values offered, if not
    all the field's choices."""
    field_id = escape(field.id)
    errors = field.errors
    invalid = ""
    if errors:
        invalid = f' aria-invalid="true" aria-describedby="{_error_ids(field_id, len(errors))}"'
    data = field.data
    options = "".join(f'{head}{" checked" if value == data else ""}{invalid}{tail}'
                      for value, head, tail in _options(field, field_id, only))
    messages = "".join(f'<p class="error" id="{field_id}-error{n}">{escape(e)}</p>' for n, e in enumerate(errors, 1))
    return Markup(f'\n<fieldset class="seg {escape(cls)}{" invalid" if errors else ""}" id="{field_id}">\n'
                  f'  <legend>{escape(field.label.text)}</legend>\n  <div class="opts">\n  {options}\n'
                  f'  </div>\n  {messages}\n</fieldset>\n')


def _error_ids(field_id: str, count: int) -> str:
    """The ids of a field's error messages, for its inputs' aria-describedby."""
    return " ".join(f"{field_id}-error{n}" for n in range(1, count + 1))


def _options(field: RadioGroup, field_id: str, only: Collection[object] | None) -> list[Option]:
    """The radio inputs of ``field``'s choices (those in ``only``, if given), but for ``checked`` and its errors'
    attributes. Drawn once per list of choices, field, language and app, and kept (a list of choices is the same
    object from one form to the next: the forms module's suits and tricks, a table's names)."""
    choices = field.choices
    language = request_language()
    listed = choices if type(choices) is list else None  # a plain list: the forms module's, a table's names
    kept_here = OPTIONS.here() if language is not None and only is None and listed is not None else None
    key: tuple[object, ...] = ()
    if kept_here is not None and listed is not None:
        key = (id(listed), len(listed), field.name, field.id, field.coerce, language)
        kept = kept_here.get(key)
        if kept is not None and kept[0] is choices:  # the very list (an id is reused once its list is gone)
            return kept[1]
    name = escape(field.name)
    drawn: list[Option] = []
    for value, label, _checked, _kw in field.iter_choices():
        if only is None or value in only:
            drawn.append((field.coerce(value),
                          f'<label class="opt"><input type="radio" name="{name}" id="{field_id}-{len(drawn)}" '
                          f'value="{escape(value)}"', f'><span>{escape(label)}</span></label>'))
    if kept_here is not None:
        kept_here.put(key, (choices, drawn))
    return drawn


def init_app(app: Flask) -> None:
    """The radio groups' drawer as a template global (templates/_macros.html and the deal form call it)."""
    app.add_template_global(segmented_field, "segmented_field")
