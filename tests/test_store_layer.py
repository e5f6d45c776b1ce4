"""The store sits on the core, below the web layer (issue 23, point 1, a first step): importing it loads no
Flask, Jinja, Werkzeug or WTForms and none of the web layer's modules. (click is loaded by sqlite-utils
itself, whose command line the store does not use.)"""

from __future__ import annotations

import json
import subprocess
import sys

WEB = ("flask", "jinja2", "werkzeug", "wtforms", "flask_wtf", "flask_babel", "flask_limiter", "markupsafe", "weasyprint")


def test_importing_the_store_loads_nothing_of_the_web() -> None:
    probe = ("import json, sys; import scorer.store, scorer.store.backup, scorer.store.circle_files; "
             "print(json.dumps(sorted(sys.modules)))")
    loaded = set(json.loads(subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout))
    assert not [m for m in loaded if m.split(".")[0] in WEB]
    scorer_modules = {m for m in loaded if m.startswith("scorer.")}
    assert scorer_modules and all(m.startswith(("scorer.core", "scorer.store")) for m in scorer_modules), sorted(scorer_modules)
