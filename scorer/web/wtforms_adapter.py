"""Every use of WTForms beyond its documented API, in this one module (issue 23, point 6).

Two things the forms do faster than WTForms does them, each relying on how WTForms 3.3 is built inside:

- its own messages ("Not a valid integer value"...) translated from a catalogue read once per language
  (:func:`messages`): Flask-WTF finds and parses WTForms' catalogue again on every request that builds a form. It
  reads the catalogue where WTForms keeps it (``wtforms.i18n.messages_path``, undocumented);
- a form's fields bound by copying the field bound the first time (:func:`bound`): binding runs each field's whole
  constructor, seventeen of them were a tenth of a deal page. The copy makes anew what WTForms gives each field
  its own: its form (``_form``), its meta, its ``Label`` and ``Flags`` (``wtforms.fields.core``), its
  ``render_kw`` and its list of choices (``_choices``); and leaves WTForms the CSRF field (its ``csrf_impl``) and
  a field with a data list (``_datalist``).

``tests/test_wtforms_adapter.py`` checks each of these against the installed WTForms (the names, the signatures,
the attributes a bound field holds, the copy against WTForms' own binding for every form of the app): it fails
when WTForms changes under this module. Nothing else of scorer touches a WTForms name starting with ``_``, nor
``wtforms.fields.core`` or ``wtforms.i18n``.
"""

from __future__ import annotations

from typing import Any

from babel import support
from flask_babel import get_locale
from wtforms.fields.core import Flags, Label  # type: ignore[import-not-found]
from wtforms.i18n import messages_path  # type: ignore[import-not-found]

from ..core import caches
from .i18n import request_language

LOCALES_KEPT = 8


@caches.memo(f"{__name__}.catalogue_of", LOCALES_KEPT, "WTForms' own messages, by language (read from its package)")
def catalogue_of(locale: str) -> Any:
    """WTForms' own messages in ``locale``, read from disk once per language."""
    return support.Translations.load(messages_path(), [locale], domain="wtforms")


def _catalogue() -> Any:
    """WTForms' own messages in the reader's language, read from disk once per language (Flask-WTF finds and
    parses the catalogue again on every request that builds a form)."""
    return catalogue_of(request_language() or str(get_locale()))  # the request's, looked up once before its view


class Messages:
    """WTForms' translations object (``gettext``, ``ngettext``: what a form's meta ``get_translations`` gives)
    on the catalogue kept per language."""

    def gettext(self, string: str) -> str:
        return str(_catalogue().ugettext(string))

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return str(_catalogue().ungettext(singular, plural, n))


MESSAGES = Messages()


FIELDS_KEPT = 1024
"""Fields bound once and copied for each form (a few per field of each form class, per language), per app."""
FIELDS: caches.PerApp[tuple[object, ...], Any] = caches.per_app(
    f"{__name__}.FIELDS", FIELDS_KEPT, "each form's field bound once, to be copied, by field, name, prefix and language")


def bound(form: Any, unbound_field: Any, options: dict[str, Any]) -> Any:
    """``unbound_field`` bound to ``form`` (a form's meta ``bind_field``): a copy of the field it made the first
    time in this language, with the state WTForms gives each field its own made anew (its form and meta, label,
    flags, attributes, its choices' list). What a form does with a field afterwards (``process``: its data, its
    errors) is done on the copy as on a field made afresh. The CSRF field, made anew for each form, and a field
    bound outside a request are bound by WTForms."""
    language = request_language()
    if language is None or "csrf_impl" in unbound_field.kwargs:
        return unbound_field.bind(form=form, **options)
    key = (unbound_field, options.get("name"), options.get("prefix"), options.get("translations"), language)
    first_bound = FIELDS.here()
    first = first_bound.get(key)
    if first is None:
        # The first stays untouched (copied, never used), and bound to no form: kept for the life of the app,
        # it would keep the form of the request that bound it, and all that request sent.
        first_bound.put(key, unbound_field.bind(form=None, _meta=form.meta, **options))
        return unbound_field.bind(form=form, **options)
    if first.__dict__.get("_datalist") is not None:  # a data list of its own (none in scorer): bound by WTForms
        return unbound_field.bind(form=form, **options)
    field = object.__new__(type(first))
    own = field.__dict__
    own.update(first.__dict__)
    own["meta"] = form.meta
    own["_form"] = form
    own["label"] = Label(first.label.field_id, first.label.text)
    flags = own["flags"] = Flags()
    flags.__dict__.update(first.flags.__dict__)
    if first.render_kw is not None:
        own["render_kw"] = dict(first.render_kw)
    choices = own.get("_choices")
    if isinstance(choices, (list, dict)):
        own["_choices"] = type(choices)(choices)  # WTForms copies a field's declared choices into each field
    return field
