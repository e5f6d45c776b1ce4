"""Every cache is one kind (scorer/core/caches.py): a :class:`~scorer.core.caches.Cache`, declared once with its
scope and bound, listed in docs/DESIGN.md's table of caches, and one call empties them all (issue 23, point 4).

The autouse fixture of tests/conftest.py calls :func:`scorer.core.caches.clear_all` before each test, so that a
test passes in any order (issue 22). That holds only while every cache is of the one kind: the scan here reads
the package's source and finds every piece of state that outlives a call (a module-level dict, list or set that
some code changes, a module-level instance of a class that keeps a container of its own, a ``functools`` cache, a
module-level name a function sets with ``global``, a container kept on an app in ``app.extensions``, a container a
function's inner function keeps filling), each of which must be a declared cache or be named below as no cache,
with why. Then: docs/DESIGN.md's table says what the registry says; the caches fill through the app and one call
empties every one; two apps in one process never share an entry; and the Cache itself keeps its bound.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
import threading
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers.docs import read, section
from helpers.web import previewed_form, record, start_circle, start_table

import scorer
from scorer import create_app
from scorer.core import caches
from scorer.web import app_caches
from scorer.web.tables import PREVIEWS

PACKAGE = Path(scorer.__file__).parent

NOT_CACHES = {
    "scorer.core.caches._DECLARED": "the registry of every cache declared",
    "scorer.core.caches._PROCESS_WIDE": "the registry's process-wide caches (each one declared)",
    "scorer.core.caches._EVERY_APP": "every app's caches, held weakly, for clear_all (each one declared)",
    "scorer.core.caches.OUTSIDE_APPS": "the per-app caches of work outside any app (each one declared)",
    "scorer.core.caches._find_app": "how the web layer finds an app's caches, set once",
    "scorer.core.profiles.PROFILES": "the profiles offered (a registry: register_profile adds one)",
    "scorer.web.common.CSRF_RESHOWN": "the views that show a form again after a lost CSRF token, filled at import",
    "scorer.core.rule_names._TITLES": "every house rule's title by its code, filled as each rule is declared (a registry)",
}
"""State that is no cache: emptied, nothing would fill it again."""


MUTATORS = frozenset({"clear", "setdefault", "update", "pop", "popitem", "append", "extend", "insert", "add",
                      "discard", "remove", "move_to_end", "appendleft", "__setitem__"})
CONTAINERS = frozenset({"dict", "list", "set", "OrderedDict", "deque", "defaultdict", "Counter", "WeakKeyDictionary",
                        "WeakValueDictionary", "WeakSet"})
CACHING = frozenset({"cache", "lru_cache"})


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _called(value: ast.expr | None) -> str:
    if not isinstance(value, ast.Call):
        return ""
    func = value.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _is_container(value: ast.expr | None) -> bool:
    return isinstance(value, (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)) \
        or _called(value) in CONTAINERS


def _caching(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    for decorator in function.decorator_list:
        called = decorator.func if isinstance(decorator, ast.Call) else decorator
        name = called.id if isinstance(called, ast.Name) else called.attr if isinstance(called, ast.Attribute) else ""
        if name in CACHING:
            return True
    return False


def _mutated_names(tree: ast.AST) -> set[str]:
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
        if isinstance(node, ast.Assign | ast.AnnAssign) and _is_container(node.value):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self" for t in targets):
                return True
        if isinstance(node, ast.keyword) and node.arg == "default_factory" and isinstance(node.value, ast.Name) \
                and node.value.id in CONTAINERS:
            return True
    return False


def _on_an_app(node: ast.AST) -> bool:
    """``app.extensions[KEY] = {}`` or ``app.extensions.setdefault(KEY, {})``: a container kept on an app."""
    if isinstance(node, ast.Assign) and _is_container(node.value):
        return any(isinstance(t, ast.Subscript) and isinstance(t.value, ast.Attribute) and t.value.attr == "extensions"
                   for t in node.targets)
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "setdefault" \
        and isinstance(node.func.value, ast.Attribute) and node.func.value.attr == "extensions" \
        and any(_is_container(a) for a in node.args)


def _kept_by_an_inner_function(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """The containers ``function`` makes that a function or lambda inside it changes: kept as long as it is."""
    made = {t.id for node in function.body for t in (node.targets if isinstance(node, ast.Assign) else
                                                    [node.target] if isinstance(node, ast.AnnAssign) else [])
            if isinstance(node, ast.Assign | ast.AnnAssign) and _is_container(node.value) and isinstance(t, ast.Name)}
    inner = [n for n in ast.walk(function) if n is not function and isinstance(n, ast.FunctionDef | ast.Lambda)]
    return made & set().union(*(_mutated_names(n) for n in inner))


def kept_state() -> set[str]:
    """The qualified name of every piece of state the package's source keeps past a call (see the module's notes)."""
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
            elif _on_an_app(node):
                found.add(f"{module}:{node.lineno} (a container kept on the app)")
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                found |= {f"{module}.{node.name}.{name} (kept by an inner function)"
                          for name in _kept_by_an_inner_function(node)}
    return found


def import_every_module() -> None:
    """Every module of the package imported, so that each has declared its caches."""
    for info in pkgutil.walk_packages(scorer.__path__, "scorer."):
        importlib.import_module(info.name)


def test_the_scan_finds_state_of_every_kind_it_looks_for() -> None:
    """The scan itself finds what it looks for (a scan finding nothing would pass): here in sources made for it."""
    source = '''
import functools
KEPT = {}
ALSO = Keeper()
class Keeper:
    def __init__(self):
        self.kept = {}
@functools.lru_cache(maxsize=8)
def remembered(x): return x
def fill(key):
    KEPT[key] = 1
    global LAST
    LAST = key
def init_app(app):
    app.extensions["x"] = {}
def closure():
    built = {}
    def look(key):
        built[key] = 1
    return look
CONSTANT = {"a": 1}
'''
    tree = ast.parse(source)
    mutated = _mutated_names(tree)
    assert {"KEPT", "built"} <= mutated and "CONSTANT" not in mutated  # a mapping nothing changes is a constant
    assert _keeps_containers(next(n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)))
    functions = {n.name: n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    assert _caching(functions["remembered"]) and not _caching(functions["fill"])
    assert any(_on_an_app(n) for n in ast.walk(functions["init_app"]))
    assert _kept_by_an_inner_function(functions["closure"]) == {"built"}
    assert not _kept_by_an_inner_function(functions["fill"])
    found = kept_state()
    assert {"scorer.core.caches._DECLARED", "scorer.core.caches.OUTSIDE_APPS",
            "scorer.core.caches._find_app"} <= found
    assert "scorer.core.house_rules.RULES_BY_NAME" not in found  # a mapping nothing changes is a constant
    assert "scorer.core.settleup.best" not in found  # a memo inside a function lives for one call


def test_every_piece_of_kept_state_is_a_declared_cache_or_named_as_none() -> None:
    """A cache made otherwise (a dict filled at module level, an lru_cache, a container on the app, a closure's
    dict) is found here and fails: it is to be declared with ``caches.per_app`` or ``caches.memo``."""
    import_every_module()
    unaccounted = kept_state() - set(NOT_CACHES)
    assert not unaccounted, (f"make these caches of the one kind (scorer.core.caches.per_app or memo), or name them in "
                             f"NOT_CACHES: {sorted(unaccounted)}")


def test_every_cache_registered_is_declared() -> None:
    import_every_module()
    assert set(caches.registered()) == {d.name for d in caches.declared()}


def test_every_cache_declared_is_where_its_name_says() -> None:
    import_every_module()
    process = caches.process_caches()
    for declared in caches.declared():
        module, attribute = declared.name.rsplit(".", 1)
        held = getattr(importlib.import_module(module), attribute)
        if declared.scope == "app":
            assert isinstance(held, caches.PerApp) and held.declared is declared, declared.name
        else:
            cache = held.cache if isinstance(held, caches.Memo) else held
            assert isinstance(cache, caches.Cache) and cache is process[declared.name], declared.name
            assert cache.bound == declared.bound


def documented_table() -> dict[str, tuple[str, str, str]]:
    """docs/DESIGN.md's table of caches: each cache's name, and its scope, bound and what it holds as written there."""
    caches_section = section(read("docs/DESIGN.md"), "## Caches")
    return {name: (scope, bound, holds) for name, scope, bound, holds
            in re.findall(r"^\| `([\w.]+)` \| (\w+) \| ([^|]+?) \| ([^|]+?) \|$", caches_section, re.M)}


def bound_as_written(declared: caches.Declared) -> str:
    """``20,000 deals``, ``1 entry``, ``33,554,432 bytes (`PDF_CACHE_BYTES`)``."""
    unit = {"entries": "entry", "deals": "deal", "bytes": "byte"}[declared.unit] if declared.bound == 1 else declared.unit
    setting = f" (`{declared.setting}`)" if declared.setting else ""
    return f"{declared.bound:,} {unit}{setting}"


def test_the_design_document_s_table_of_caches_says_what_the_registry_says() -> None:
    """One row a cache: its name, its scope (``app``: each app its own; ``process``: one for the process), its
    bound as declared (``20,000 deals``; the setting that bounds an app's, if one does) and what it holds."""
    import_every_module()
    table = documented_table()
    declared = {d.name: d for d in caches.declared()}
    assert set(table) == set(declared), (set(table) ^ set(declared))
    for name, (scope, bound, holds) in table.items():
        assert (scope, bound, holds) == (declared[name].scope, bound_as_written(declared[name]), declared[name].holds), name


def _sizes(app: Flask) -> dict[str, int]:
    """How much each cache holds: the app's and the process's."""
    sizes = {name: len(cache) for name, cache in app_caches(app).made().items()}
    sizes |= {name: len(cache) for name, cache in caches.process_caches().items()}
    return sizes


FILLED_BY_A_TABLE = ("scorer.core.book.KEPT_TRANSFERS", "scorer.core.systems.chips._PLANS", "scorer.core.names.skeleton",
                     "scorer.core.names._check_players_passed", "scorer.store.ledgers.LEDGERS",
                     "scorer.store.seasons.SEASONS", "scorer.store.tables.TABLES",
                     "scorer.web.forms.NAME_CHOICES", "scorer.web.i18n._locale_of", "scorer.web.i18n.SHOWN",
                     "scorer.web.views.URLS", "scorer.web.tables.PREVIEWS", "scorer.web.pdfcache.PDFS",
                     "scorer.web.print_columns._metrics_of")
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
    sizes = _sizes(app)
    assert [name for name in FILLED_BY_A_TABLE if not sizes.get(name)] == []
    other = create_app({"TESTING": True, "DATABASE": str(Path(app.config["DATABASE"]).with_name("other.sqlite")),
                        "SECRET_KEY": "test"})
    start_table(other.test_client())
    assert len(app_caches(other).made()["scorer.store.tables.TABLES"])  # another app's, emptied too
    caches.clear_all()
    assert {name: size for name, size in _sizes(app).items() if size} == {}
    assert {name: len(cache) for name, cache in app_caches(other).made().items() if len(cache)} == {}
    assert not any(len(cache) for cache in caches.OUTSIDE_APPS.made().values())


def test_two_apps_in_one_process_keep_their_own_caches(tmp_path: Path) -> None:
    """Each app its own previews (keyed by a table's row id, which another app's database gives another table),
    its own ledgers, its own PDFs: what one app keeps another never finds, and each goes with its app."""
    apps = [create_app({"TESTING": True, "DATABASE": str(tmp_path / f"{n}.sqlite"), "SECRET_KEY": "test"})
            for n in (1, 2)]
    clients = [a.test_client() for a in apps]
    tokens = [start_table(c) for c in clients]  # the first table of each database: row id 1 in both
    assert all(c.get(f"/t/{t}").status_code == 200 for c, t in zip(clients, tokens))  # each ledger read
    previewed_form(clients[0], tokens[0], data={"hombre": "Bea", "trumps": "hearts", "hombre_tricks": "6",
                                                "matadors": "0"})
    first, second = (app_caches(a) for a in apps)
    assert len(PREVIEWS.of(first)) == 1 and len(PREVIEWS.of(second)) == 0
    ledgers = "scorer.store.ledgers.LEDGERS"
    assert set(first.made()[ledgers]) == {tokens[0]} and set(second.made()[ledgers]) == {tokens[1]}
    assert first is not second and not set(first.made()[ledgers]) & set(second.made()[ledgers])
    assert caches.here() is caches.OUTSIDE_APPS  # no app's context: the command line's own
    with apps[1].app_context():  # an app's context outside a request: that app's
        assert caches.here() is second
        with apps[0].test_request_context():
            assert caches.here() is first
        assert caches.here() is second


def test_an_app_s_caches_are_bounded_by_its_setting_where_one_names_the_bound(tmp_path: Path) -> None:
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "s.sqlite"), "SECRET_KEY": "test",
                      "PDF_CACHE_BYTES": 1000})
    from scorer.web.pdfcache import PDFS

    assert PDFS.of(app_caches(app)).bound == 1000
    assert PDFS.of(caches.AppCaches()).bound == 32 * 1024 * 1024  # the default, as the table says


def test_a_cache_keeps_its_bound_the_least_recently_used_out_first() -> None:
    cache: caches.Cache[str, int] = caches.Cache(3)
    for key in "abc":
        cache.put(key, ord(key))
    assert cache.get("a") == 97  # now the most recently used
    cache.put("d", 100)
    assert list(cache) == ["c", "a", "d"] and cache.get("b") is None and cache.weight == 3
    cache.put("c", 0, unless=lambda kept: kept > 50)  # the one kept passes the test: it stays
    assert cache.get("c") == 99
    assert cache.pop("c") == 99 and cache.pop("c") is None and len(cache) == 2
    cache.drop_where(lambda key, value: value > 99)
    assert list(cache) == ["a"]
    cache.clear()
    assert len(cache) == 0 and cache.weight == 0


def test_a_cache_bounded_by_weight_keeps_no_entry_heavier_than_its_bound() -> None:
    cache: caches.Cache[str, bytes] = caches.Cache(100, len)
    cache.put("a", b"a" * 40)
    cache.put("b", b"b" * 40)
    cache.put("c", b"c" * 40)
    assert list(cache) == ["b", "c"] and cache.weight == 80
    cache.put("huge", b"h" * 101)
    assert cache.get("huge") is None and cache.weight == 80
    cache.put("b", b"B")  # a new value replaces the old one's weight
    assert cache.weight == 41


def test_a_value_made_for_a_cache_is_kept_unless_making_it_raises() -> None:
    cache: caches.Cache[str, int | None] = caches.Cache(4)
    assert cache.made("none", lambda: None) is None and "none" in list(cache)  # a value may be None
    assert cache.made("none", lambda: 1) is None

    def refuse() -> int:
        raise ValueError("no")

    with pytest.raises(ValueError):
        cache.made("refused", refuse)
    assert "refused" not in list(cache)


def test_a_memo_keeps_what_its_function_returned_under_its_arguments() -> None:
    calls: list[tuple[Any, ...]] = []

    def double(x: int, plus: int = 0) -> int:
        calls.append((x, plus))
        return 2 * x + plus

    memo = caches.Memo(double, caches.Cache(2))
    assert [memo(1), memo(1), memo(2, plus=1), memo(2, plus=1)] == [2, 2, 5, 5]
    assert calls == [(1, 0), (2, 1)] and memo.__doc__ == double.__doc__


def test_a_cache_shared_by_threads_stays_within_its_bound() -> None:
    cache: caches.Cache[int, bytes] = caches.Cache(1000, len)

    def fill(start: int) -> None:
        for n in range(start, start + 2000):
            cache.put(n % 300, bytes(n % 50))
            cache.get((n * 7) % 300)
            if n % 11 == 0:
                cache.pop(n % 300)

    threads = [threading.Thread(target=fill, args=(k * 1000,)) for k in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert cache.weight == sum(len(cache.get(k) or b"") for k in list(cache)) <= 1000
