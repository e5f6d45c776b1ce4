"""The house's layers: the core (pure Python) <- the store (SQLite, no web) <- the web layer (Flask) <- the
command line. import-linter's contracts (pyproject.toml, ``[tool.importlinter]``) say which package may import
which, that the core and the store import nothing of the web, that the core's modules (and those of each of its
packages) import one another without a cycle, that the rules and the settlement systems sit below the profiles,
and that the web layer's blueprints never import one another; they run here as one test. A second test loads the
store in a fresh interpreter and looks at what it loaded (click is loaded by sqlite-utils itself, whose command
line the store does not use). A third reads every module's imports: no private name (``_x``) is imported from
another module, in the package or in its tests (gettext's ``_`` is not a private name), which no contract of
import-linter checks (its ``private_modules`` is about modules named ``_x``, of which the package has none)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
WEB = ("flask", "jinja2", "werkzeug", "wtforms", "flask_wtf", "flask_babel", "flask_limiter", "markupsafe", "weasyprint")


def test_the_import_contracts_hold() -> None:
    """In a process of its own: import-linter configures logging as it starts, which would silence the loggers of the
    tests that run after it in this one (WeasyPrint's warnings, which a test of the PDF reads)."""
    ran = subprocess.run([sys.executable, "-c", "import sys; from importlinter.cli import lint_imports; "
                          "sys.exit(lint_imports(config_filename='pyproject.toml', no_cache=True, no_logo=True))"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "0 broken" in ran.stdout and "KEPT" in ran.stdout


def test_importing_the_store_loads_nothing_of_the_web() -> None:
    probe = ("import json, sys; import scorer.store, scorer.store.backup, scorer.store.circle_files; "
             "print(json.dumps(sorted(sys.modules)))")
    loaded = set(json.loads(subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                                           cwd=ROOT).stdout))
    assert not [m for m in loaded if m.split(".")[0] in WEB]
    scorer_modules = {m for m in loaded if m.startswith("scorer.")}
    assert scorer_modules and all(m.startswith(("scorer.core", "scorer.store")) for m in scorer_modules), sorted(scorer_modules)


def private_imports(root: Path) -> list[str]:
    """Every ``from x import _name`` under ``root`` (``_`` itself and dunders aside)."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom):
                found += [f"{root.name}/{path.relative_to(root)}:{node.lineno}: from {'.' * node.level}{node.module or ''} import {alias.name}"
                          for alias in node.names
                          if alias.name.startswith("_") and alias.name != "_" and not alias.name.startswith("__")]
    return found


@pytest.mark.parametrize("folder", ["scorer", "tests", "bench"])
def test_no_private_name_is_imported_from_another_module(folder: str) -> None:
    assert private_imports(ROOT / folder) == []


def test_the_private_import_check_sees_one(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text("from .other import _hidden, _, __version__\nfrom x import public\n")
    assert [line.split(": ", 1)[1] for line in private_imports(tmp_path)] == ["from .other import _hidden"]


def test_flask_finds_the_app_by_the_package_name(tmp_path: Path) -> None:
    """``flask --app scorer`` (the README's init-db and routes) finds the factory in the package's top."""
    answer = subprocess.run([sys.executable, "-m", "flask", "--app", "scorer", "routes"], capture_output=True, text=True,
                            cwd=ROOT, env={"PATH": "/usr/bin:/bin", "SCORER_INSTANCE_PATH": str(tmp_path),
                                           "PYTHONPATH": str(ROOT)}, timeout=120)
    assert answer.returncode == 0, answer.stderr
    endpoints = {line.split()[0] for line in answer.stdout.splitlines()[2:] if line.strip()}
    assert {"table.deal", "audit.amend", "playcheck.check", "circle.check",
            "circle.season_pdf", "exchange.circle_upload", "tally.pdf", "home.index"} <= endpoints, sorted(endpoints)
