"""The settlement core loads no web framework, database or form library."""

from __future__ import annotations

import subprocess
import sys

FORBIDDEN = ("flask", "flask_wtf", "wtforms", "sqlite_utils", "sqlite3", "weasyprint", "click", "jinja2", "werkzeug")


def test_importing_the_core_loads_nothing_but_the_standard_library() -> None:
    code = (
        "import sys, scorer.core, scorer.core.words.report, scorer.core.words.rules_doc\n"
        f"loaded = sorted({{m.split('.')[0] for m in sys.modules}} & set({FORBIDDEN!r}))\n"
        "print(','.join(loaded))\n"
    )
    completed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert completed.stdout.strip() == ""
