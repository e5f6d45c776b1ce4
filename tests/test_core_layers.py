"""The settlement core has no import cycle (issue 23, point 2): its modules form layers, each importing only
modules below it, so that the rules, the settlement systems and the profiles can be read, and changed, one at a
time. The graph is read from the sources (every ``import`` and ``from ... import`` of each module of
scorer/core, relative ones resolved, those inside functions and under ``if TYPE_CHECKING:`` included: a type
named only for mypy ties two modules as surely as a call does)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parent.parent / "scorer" / "core"
PACKAGE = "scorer.core"


def module_name(path: Path) -> str:
    parts = path.relative_to(CORE.parent.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _resolved(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute name of the module ``from <node.module> import ...`` names, written in ``module``."""
    if node.level == 0:
        return node.module or ""
    base = module.split(".")
    base = base if is_package else base[:-1]  # a package's ``.`` is itself, a module's is its package
    base = base[:len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports_of(source: str, module: str, is_package: bool, modules: set[str]) -> set[str]:
    """The modules of ``modules`` that the source of ``module`` imports: ``from . import rules`` is the
    module scorer.core.rules, ``from .rules import HouseRules`` the module scorer.core.rules too."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            target = _resolved(module, is_package, node)
            submodules = {f"{target}.{alias.name}" for alias in node.names} & modules
            found |= submodules or {target}
    return {name for name in found if name in modules and name != module}


def import_graph(root: Path = CORE) -> dict[str, set[str]]:
    paths = sorted(root.rglob("*.py"))
    modules = {module_name(p) for p in paths}
    return {module_name(p): imports_of(p.read_text(encoding="utf-8"), module_name(p), p.name == "__init__.py", modules)
            for p in paths}


def a_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph, as the modules along it (the first repeated at the end), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (cycle := visit(start)):
            return cycle
    return None


def test_the_graph_is_read_from_every_module_of_the_core() -> None:
    graph = import_graph()
    assert len(graph) > 30 and "scorer.core.systems.chips" in graph
    assert "scorer.core.book" in graph["scorer.core.systems.chips"]  # ``from ..book import (...)``
    assert "scorer.core.rules" in graph["scorer.core.systems.chips"]  # ``from .. import rules as R``
    assert "scorer.core.systems.base" in graph["scorer.core.systems.chips"]  # ``from .base import System``
    assert "scorer.core.systems.chips" in graph["scorer.core.profiles"]  # a profile holds its system


def test_the_core_has_no_import_cycle() -> None:
    cycle = a_cycle(import_graph())
    assert cycle is None, "an import cycle in scorer/core: " + " -> ".join(cycle or ())


def test_the_rules_and_the_systems_import_no_profile() -> None:
    """Profiles sit above the rules and the systems: nothing a system imports, however far down, is a profile."""
    graph = import_graph()
    below: set[str] = set()
    todo = ["scorer.core.rules", "scorer.core.systems.chips", "scorer.core.systems.counters", "scorer.core.systems.points"]
    while todo:
        module = todo.pop()
        if module not in below:
            below.add(module)
            todo += graph[module]
    assert "scorer.core.profiles" not in below and "scorer.core.table_checks" not in below


@pytest.mark.parametrize("source, found", [
    ("from . import rules as R\nfrom .model import Deal\n", {"scorer.core.rules", "scorer.core.model"}),
    ("from .. import rules\nfrom ..book import Book\n", {"scorer.core.rules", "scorer.core.book"}),
    ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .systems.base import System\n",
     {"scorer.core.systems.base"}),
    ("def f() -> None:\n    from .systems import chips\n", {"scorer.core.systems.chips"}),
    ("import scorer.core.model\nfrom scorer.core.systems import System\n", {"scorer.core.model", "scorer.core.systems"}),
])
def test_each_kind_of_import_is_an_edge(source: str, found: set[str]) -> None:
    modules = {"scorer.core.rules", "scorer.core.model", "scorer.core.book", "scorer.core.systems",
               "scorer.core.systems.base", "scorer.core.systems.chips"}
    module = "scorer.core.systems.points" if source.startswith("from ..") else "scorer.core.planted"
    assert imports_of(source, module, False, modules) == found


def test_a_planted_cycle_is_found_and_named() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set()}
    assert a_cycle(graph) == ["a", "b", "c", "a"]
    assert a_cycle({"a": {"b"}, "b": set()}) is None
    graph = import_graph()
    graph["scorer.core.model"] = graph["scorer.core.model"] | {"scorer.core.summary"}  # model importing summary
    cycle = a_cycle(graph)
    assert cycle is not None and cycle[0] == cycle[-1] and "scorer.core.model" in cycle and "scorer.core.summary" in cycle
