"""Keep the translations of scorer in step with its sources (issue 15).

    python scripts/i18n.py extract   # scorer/translations/messages.pot from the code and the templates
    python scripts/i18n.py update    # extract, then each language's messages.po follows the .pot
                                     # (new messages added untranslated, gone ones dropped, fuzzy matches
                                     # never kept), translations waiting in parts/*.po filled in, then compile
    python scripts/i18n.py compile   # each messages.po to the messages.mo the app reads
    python scripts/i18n.py check     # exit 1 if a message has no translation or a .mo is stale

The same as ``pybabel extract -F babel.cfg -k _ -k N_ -k lazy_gettext ...``, ``pybabel update`` and
``pybabel compile``, run through Babel's own code so that the output is the same on every machine.
"""

from __future__ import annotations

import io
import sys
from datetime import datetime, timezone
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
TRANSLATIONS = ROOT / "scorer" / "translations"
POT = TRANSLATIONS / "messages.pot"
KEYWORDS = {"_": None, "N_": None, "_l": None, "gettext": None, "lazy_gettext": None, "ngettext": (1, 2), "_n": (1, 2),
            "Counted": (1, 2),
            "pgettext": ((1, "c"), 2)}
METHODS = [("scorer/**.py", "python"), ("templates/**.html", "jinja2")]
FIXED_DATE = datetime(2026, 1, 1, tzinfo=timezone.utc)
OPTIONS = {"templates/**.html": {"extensions": "jinja2.ext.do", "trimmed": "true"}}


def languages() -> list[str]:
    return sorted(p.name for p in TRANSLATIONS.iterdir() if (p / "LC_MESSAGES").is_dir())


def extract() -> Catalog:
    catalog = Catalog(project="scorer", version="1", msgid_bugs_address="", copyright_holder="", charset="utf-8")
    for filename, lineno, message, comments, context in extract_from_dir(
            str(ROOT), METHODS, options_map=OPTIONS, keywords=KEYWORDS, strip_comment_tags=True):
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    with POT.open("wb") as out:
        write_po(out, catalog, width=100, omit_header=True, sort_output=True, no_location=True)
    return catalog


PLURAL_FORMS = {"fr": "nplurals=2; plural=(n > 1);"}
"""Each language's plural rule, fixed here rather than taken from the installed Babel's locale data: the
catalogues give two forms (singular, plural), and Babel 2.18 (CLDR 46) gives French a third ("many", for
millions), which would leave every plural of the catalogue without its third form."""


def _read(path: Path, locale: str) -> Catalog:
    """A catalogue (the .po has no header of its own) with the language's plural rule as its Plural-Forms."""
    header = f'msgid ""\nmsgstr "Plural-Forms: {PLURAL_FORMS[locale]}\\n"\n\n'.encode() if locale in PLURAL_FORMS else b""
    return read_po(io.BytesIO(header + path.read_bytes()), locale=locale)


def _translated(string: object) -> bool:
    """A translation given: a non-empty string, or a plural's forms all non-empty."""
    return all(string) if isinstance(string, tuple) else bool(string)


def update() -> None:
    template = extract()
    for language in languages():
        folder = TRANSLATIONS / language / "LC_MESSAGES"
        po = folder / "messages.po"
        catalog = _read(po, language) if po.exists() else Catalog(locale=language)
        waiting: dict[tuple[str | None, object], str | tuple[str, ...]] = {}  # by context and message
        for part in sorted((folder / "parts").glob("*.po")) if (folder / "parts").is_dir() else []:
            for message in _read(part, language):
                if message.id and _translated(message.string) and not message.fuzzy:
                    waiting.setdefault((message.context, message.id), message.string)
        catalog.update(template, no_fuzzy_matching=True)
        for message in catalog:
            if message.id and (message.context, message.id) in waiting:  # a part's translation wins: the parts are where they are written
                message.string = waiting[(message.context, message.id)]
            message.flags.discard("fuzzy")
        catalog.obsolete.clear()
        with po.open("wb") as out:
            write_po(out, catalog, width=100, omit_header=True, sort_output=True, no_location=True)
    compile_all()


def _compiled(catalog: Catalog) -> bytes:
    """The .mo of ``catalog``, the same bytes on every run: the .po has no header, so its dates (which the
    .mo's header carries) are fixed here rather than taken from the clock."""
    catalog.creation_date = catalog.revision_date = FIXED_DATE
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def _messages(mo: bytes) -> tuple[str | None, dict[object, object]]:
    """What a compiled catalogue says: its plural rule and every translation (not the Babel version that
    wrote it, which its header also carries)."""
    catalog = read_mo(io.BytesIO(mo))
    def hashable(text: object) -> object:
        return tuple(text) if isinstance(text, (list, tuple)) else text

    return catalog.plural_forms, {(hashable(m.id), m.context): hashable(m.string) for m in catalog if m.id}


def compile_all() -> None:
    for language in languages():
        folder = TRANSLATIONS / language / "LC_MESSAGES"
        (folder / "messages.mo").write_bytes(_compiled(_read(folder / "messages.po", language)))


def check() -> int:
    problems = []
    for language in languages():
        folder = TRANSLATIONS / language / "LC_MESSAGES"
        catalog = _read(folder / "messages.po", language)
        missing = [m.id for m in catalog if m.id and not _translated(m.string)]
        problems += [f"{language}: no translation for {m!r}" for m in missing]
        mo = folder / "messages.mo"
        if not mo.exists() or _messages(mo.read_bytes()) != _messages(_compiled(catalog)):
            problems.append(f"{language}: messages.mo is not messages.po compiled (run: python scripts/i18n.py compile)")
    print("\n".join(problems) or "Every message is translated and compiled.")
    return 1 if problems else 0


def main(argv: list[str]) -> int:
    command = argv[1] if len(argv) > 1 else ""
    if command == "extract":
        print(f"{len(extract())} messages in {POT.relative_to(ROOT)}")
    elif command == "update":
        update()
    elif command == "compile":
        compile_all()
    elif command == "check":
        return check()
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
