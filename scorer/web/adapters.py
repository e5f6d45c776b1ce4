"""Every use the web layer makes of a dependency's private API, in one place (issue 23, point 6).

Each function here leans on a name its dependency does not document, which a release may rename or drop
without notice; tests/test_adapters.py checks each one against the dependency installed, so an upgrade that
changes one fails there, by name, not in some page. pyproject.toml bounds every dependency below its next
major version (README, Dependencies).

- Flask-Limiter: :func:`drop_request_check` (``Limiter._check_request_limit``, its ``before_request`` hook).
- Flask-WTF: :func:`trust_csrf_of_this_request` (``g.csrf_valid``, read by its forms' CSRF check).
- WeasyPrint: :func:`fontconfig_file` (``weasyprint.text.ffi``, its cffi binding of fontconfig).

WTForms' field internals that scorer/forms.py copies to bind a field once (``_form``, ``_choices``,
``Flags``, ``Label``, ``UnboundField.bind(_meta=...)``) stay there, beside the copying; tests/test_deal_page_drawn.py
compares, for every form, the fields it copies with the fields WTForms binds afresh.
"""

from __future__ import annotations

from flask import Flask, g
from flask_limiter import Limiter


def drop_request_check(app: Flask, limiter: Limiter) -> bool:
    """Takes Flask-Limiter's check of every request off ``app``: the ``before_request`` hook
    (``Limiter._check_request_limit``) that :meth:`Limiter.init_app` adds for default and application
    limits. Whether it was found: a later Flask-Limiter may name or place it otherwise, and then it is kept
    (every request checked for limits the app has none of: slower, nothing else)."""
    hooks = app.before_request_funcs.get(None, [])
    check = getattr(limiter, "_check_request_limit", None)
    if check is None or check not in hooks:
        return False
    hooks.remove(check)
    return True


def trust_csrf_of_this_request() -> None:
    """Flask-WTF's forms take this request's CSRF token as checked (``g.csrf_valid``, which
    ``CSRFProtect`` sets once it has checked the token itself, and each form's check then skips): a form
    shown again after its token was refused renders a fresh token instead of refusing once more."""
    g.csrf_valid = True


def fontconfig_file(family: str) -> bytes | None:
    """The font file fontconfig gives for ``family`` (the one WeasyPrint embeds in a PDF), through
    WeasyPrint's own binding of fontconfig; None if fontconfig offers another family in its place."""
    from weasyprint.text.ffi import ffi, fontconfig  # type: ignore[import-untyped]  # no stub: stubs/ types what the app uses of WeasyPrint
    pattern = fontconfig.FcPatternCreate()
    try:
        fontconfig.FcPatternAddString(pattern, b"family", family.encode())
        fontconfig.FcConfigSubstitute(ffi.NULL, pattern, 0)  # FcMatchPattern
        fontconfig.FcDefaultSubstitute(pattern)
        result = ffi.new("FcResult *")
        match = fontconfig.FcFontMatch(ffi.NULL, pattern, result)
        if match == ffi.NULL:
            return None
        try:
            found = ffi.new("FcChar8 **")
            if fontconfig.FcPatternGetString(match, b"family", 0, found) != 0 or ffi.string(found[0]).decode() != family:
                return None  # fontconfig offers another family in its place
            if fontconfig.FcPatternGetString(match, b"file", 0, found) != 0:
                return None
            path: bytes = ffi.string(found[0])
            return path
        finally:
            fontconfig.FcPatternDestroy(match)
    finally:
        fontconfig.FcPatternDestroy(pattern)
