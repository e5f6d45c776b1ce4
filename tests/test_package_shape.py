"""The whole package held to the core's standard (issue 23, point 6): every error the app raises of its own is a
:class:`~scorer.core.errors.ScorerError`, and no test module imports from another (their shared helpers are in
tests/helpers/, their shared fixtures in tests/conftest.py)."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from pathlib import Path

import scorer
from scorer.core.errors import ScorerError

TESTS = Path(__file__).resolve().parent


def classes_of_the_package() -> list[type]:
    """Every class defined in a module of the scorer package, each module imported."""
    found: dict[str, type] = {}
    for info in pkgutil.walk_packages(scorer.__path__, "scorer."):
        module = importlib.import_module(info.name)
        for _name, value in inspect.getmembers(module, inspect.isclass):
            if value.__module__ == info.name:
                found[f"{value.__module__}.{value.__qualname__}"] = value
                found.update({f"{inner.__module__}.{inner.__qualname__}": inner
                              for inner in vars(value).values() if inspect.isclass(inner)})
    return [found[name] for name in sorted(found)]


def errors_outside_the_tree(classes: list[type]) -> list[str]:
    return [f"{c.__module__}.{c.__qualname__}" for c in classes
            if issubclass(c, BaseException) and not issubclass(c, ScorerError)]


def test_every_error_of_the_package_is_a_scorer_error() -> None:
    classes = classes_of_the_package()
    errors = [c for c in classes if issubclass(c, BaseException)]
    assert len(errors) > 15  # the walk reaches every layer: the core's, the store's and the web's errors
    assert {"scorer.store.files.ImportRefused", "scorer.store.backup.BackupError", "scorer.web.ratelimits.BudgetSpent",
            "scorer.core.ledger.log.Refused"} <= {f"{c.__module__}.{c.__qualname__}" for c in errors}
    assert errors_outside_the_tree(classes) == []


def test_an_import_refused_is_still_a_value_error() -> None:
    """Callers catch it as one (``except ValueError``), as they did before it joined the tree."""
    from scorer.store import ImportRefused

    assert issubclass(ImportRefused, ScorerError) and issubclass(ImportRefused, ValueError)
    assert str(ImportRefused("too large")) == ImportRefused("too large").message == "too large"


def test_the_error_check_finds_an_error_outside_the_tree() -> None:
    class Stray(ValueError):
        pass

    class Joined(ScorerError, KeyError):
        pass

    assert errors_outside_the_tree([Stray, Joined, int]) == [f"{__name__}.{Stray.__qualname__}"]


# --- no test module imports another --------------------------------------------------------------------------


def imports_of_test_modules(source: str) -> list[str]:
    """Every import, anywhere in ``source`` (inside a function too), of a test module: ``import test_x``, ``from
    test_x import ...``, ``from tests.test_x import ...``, ``from .test_x import ...``, or by name through
    ``importlib.import_module`` or ``__import__``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""] if node.module else [alias.name for alias in node.names]
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", None)) in (
                "import_module", "__import__") and node.args and isinstance(node.args[0], ast.Constant):
            names = [str(node.args[0].value)]
        else:
            continue
        found += [f"line {node.lineno}: {name}" for name in names
                  if any(part.startswith("test_") for part in name.split("."))]
    return found


def test_no_test_module_imports_from_another() -> None:
    modules = sorted(TESTS.rglob("*.py"))
    assert TESTS / "helpers" / "web.py" in modules and len(modules) > 80
    found = {str(path.relative_to(TESTS)): imports_of_test_modules(path.read_text(encoding="utf-8")) for path in modules}
    assert {path: lines for path, lines in found.items() if lines} == {}


def test_the_import_check_finds_each_way_of_importing_a_test_module() -> None:
    planted = """
import test_table
import os, test_audit as audit
from test_table import csrf_token
from tests.test_races import hidden
from .test_browser import Phone
from . import test_describe
from helpers.web import record


def later():
    from test_circles_web import start_circle
    importlib.import_module("test_summary")
"""
    assert [line.split(": ")[1] for line in imports_of_test_modules(planted)] == [
        "test_table", "test_audit", "test_table", "tests.test_races", "test_browser", "test_describe",
        "test_circles_web", "test_summary"]
