"""Every cache the process keeps is in one registry (scorer/core/caches.py), and one call empties them all.

The autouse fixture of tests/conftest.py calls :func:`scorer.core.caches.clear_all` before each test, so that a
test passes in any order (issue 22). That holds only while the registry is complete: the first test here reads
the package's source and finds every piece of process-wide state (a module-level dict, list or set that some
code changes, a module-level instance of a class that keeps a container of its own, such as the ledger cache,
an ``lru_cache``'d function, a module-level name a function sets with ``global``), each of which must be
registered or named below as no cache, with why. The last fills the caches through the app and checks that one
call empties every one.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
from collections.abc import Sized
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient
from helpers.web import previewed_form, record, start_circle, start_table

import scorer
from scorer.core import caches

PACKAGE = Path(scorer.__file__).parent

NOT_CACHES = {
    "scorer.core.caches._CLEARS": "the registry itself",
    "scorer.core.profiles.PROFILES": "the profiles offered (a registry: register_profile adds one)",
    "scorer.web.common.CSRF_RESHOWN": "the views that show a form again after a lost CSRF token, filled at import",
}
"""Process-wide state that is no cache: emptied, nothing would fill it again."""

MUTATORS = frozenset({"clear", "setdefault", "update", "pop", "popitem", "append", "extend", "insert", "add",
                      "discard", "remove", "move_to_end", "appendleft", "__setitem__"})
CONTAINERS = frozenset({"dict", "list", "set", "OrderedDict", "deque", "defaultdict", "Counter", "WeakKeyDictionary",
                        "WeakValueDictionary", "WeakSet"})
CACHING = frozenset({"cache", "lru_cache"})


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_container(value: ast.expr) -> bool:
    if isinstance(value, (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)):
        return True
    if isinstance(value, ast.Call):
        func = value.func
        return (func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else "") in CONTAINERS
    return False


def _caching(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    for decorator in function.decorator_list:
        called = decorator.func if isinstance(decorator, ast.Call) else decorator
        name = called.id if isinstance(called, ast.Name) else called.attr if isinstance(called, ast.Attribute) else ""
        if name in CACHING:
            return True
    return False


def _mutated_names(tree: ast.Module) -> set[str]:
    """Names whose container some code here changes: ``NAME[k] = v``, ``del NAME[k]``, ``NAME.clear()``..."""
    found: set[str] = set()
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, (ast.Assign, ast.Delete)):
            targets = list(node.targets)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        for target in targets:
            if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
                found.add(target.value.id)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS \
                and isinstance(node.func.value, ast.Name):
            found.add(node.func.value.id)
    return found


def _keeps_containers(cls: ast.ClassDef) -> bool:
    """A class whose instances hold a container of their own (``self.kept = OrderedDict()`` in a method, or a
    dataclass field made by ``default_factory=dict``): one made at module level is process-wide state."""
    for node in ast.walk(cls):
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None and _is_container(node.value):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self" for t in targets):
                return True
        if isinstance(node, ast.keyword) and node.arg == "default_factory" and isinstance(node.value, ast.Name) \
                and node.value.id in CONTAINERS:
            return True
    return False


def _called(value: ast.expr) -> str:
    if not isinstance(value, ast.Call):
        return ""
    func = value.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def process_wide_state() -> set[str]:
    """The qualified name of every piece of process-wide state the package's source holds (see the module's notes)."""
    trees = {_module_name(path): ast.parse(path.read_text(encoding="utf-8")) for path in sorted(PACKAGE.rglob("*.py"))}
    mutated = set().union(*(_mutated_names(tree) for tree in trees.values()))
    keepers = {node.name for tree in trees.values() for node in ast.walk(tree)
               if isinstance(node, ast.ClassDef) and _keeps_containers(node)}
    found: set[str] = set()
    for module, tree in trees.items():
        for node in tree.body:
            if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
                for target in (node.targets if isinstance(node, ast.Assign) else [node.target]):
                    if isinstance(target, ast.Name) and (_is_container(node.value) and target.id in mutated
                                                         or _called(node.value) in keepers):
                        found.add(f"{module}.{target.id}")
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and _caching(node):
                found.add(f"{module}.{node.name}")
            elif isinstance(node, ast.ClassDef):
                found |= {f"{module}.{node.name}.{f.name}" for f in node.body
                          if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef) and _caching(f)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Global):
                found |= {f"{module}.{name}" for name in node.names}
    return found


def import_every_module() -> None:
    """Every module of the package imported, so that each has registered its caches."""
    for info in pkgutil.walk_packages(scorer.__path__, "scorer."):
        importlib.import_module(info.name)


def test_the_scan_finds_the_known_caches_of_each_layer() -> None:
    """The scan itself finds state of every kind it looks for, in each layer (a scan finding nothing would pass)."""
    found = process_wide_state()
    assert {"scorer.core.book._KEPT_TRANSFERS", "scorer.core.systems.chips._PLANS", "scorer.core.names.skeleton",
            "scorer.store.ledgers.LEDGERS", "scorer.store.seasons.SEASONS", "scorer.store.tables._table_of",
            "scorer.web.tables._previews",
            "scorer.web.wtforms_adapter._first_bound", "scorer.web.printing._fonts", "scorer.web.print_columns._metrics"} <= found
    assert "scorer.core.house_rules.RULES_BY_NAME" not in found  # a mapping nothing changes is a constant
    assert "scorer.core.settleup.best" not in found  # a cache inside a function lives for one call


def test_every_piece_of_process_wide_state_is_a_registered_cache_or_named_as_none() -> None:
    import_every_module()
    registered = set(caches.registered())
    assert registered.isdisjoint(NOT_CACHES)
    unaccounted = process_wide_state() - registered - set(NOT_CACHES)
    assert not unaccounted, f"register these in scorer.core.caches, or name them in NOT_CACHES: {sorted(unaccounted)}"


def test_every_name_registered_is_there() -> None:
    import_every_module()
    for name in caches.registered():
        module, attribute = name.rsplit(".", 1)
        assert hasattr(importlib.import_module(module), attribute), name


def _size(name: str) -> int:
    """How much the cache called ``name`` holds: its entries, or 1 for a value made on first use."""
    module, attribute = name.rsplit(".", 1)
    kept = getattr(importlib.import_module(module), attribute)
    if hasattr(kept, "cache_info"):
        return int(kept.cache_info().currsize)
    for held in ("tables", "kept"):  # the ledger cache, the season cache
        if isinstance(getattr(kept, held, None), Sized):
            return len(getattr(kept, held))
    if isinstance(kept, Sized):
        return len(kept)
    return 0 if kept is None else 1


FILLED_BY_A_TABLE = ("scorer.core.book._KEPT_TRANSFERS", "scorer.core.systems.chips._PLANS", "scorer.core.names.skeleton",
                     "scorer.core.names._check_players_passed", "scorer.store.ledgers.LEDGERS",
                     "scorer.store.seasons.SEASONS", "scorer.store.tables._table_of", "scorer.web.wtforms_adapter._first_bound",
                     "scorer.web.forms.name_choices", "scorer.web.i18n._LOCALES", "scorer.web.tables._previews", "scorer.web.printing._fonts",
                     "scorer.web.print_columns._metrics")
"""The caches a table started, previewed, recorded and printed and a circle's page fill (the others, other paths)."""


def test_one_call_empties_every_cache(app: Flask, client: FlaskClient) -> None:
    import_every_module()
    token = start_table(client)
    solo = {"hombre": "Bea", "trumps": "hearts", "hombre_tricks": "6", "matadors": "0"}
    assert record(client, token, "solo", 1, solo).status_code == 302
    previewed_form(client, token, data=solo)  # deal 2 previewed, not recorded: kept for its Record tap
    assert client.get(f"/t/{token}/ledger").status_code == 200
    assert client.get(f"/t/{token}/tally.pdf").status_code == 200
    assert client.get(f"/c/{start_circle(client)}").status_code == 200
    assert [name for name in FILLED_BY_A_TABLE if not _size(name)] == []
    caches.clear_all()
    assert {name: _size(name) for name in caches.registered() if _size(name)} == {}
