"""The package stays readable (issue 11, point 3, for the settlement core; issue 23, point 6, for the
store and the web layer too): no function of scorer/ over cyclomatic complexity 15 (radon's measure),
and none with more than 5 parameters unless the line of its ``def`` or the line after says why, in a
comment starting ``# more than 5:``. ``self`` and ``cls`` are not counted; ``*args`` and ``**kwargs``
are."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest
from radon.complexity import cc_visit
from radon.visitors import Class, Function

PACKAGE = Path(__file__).resolve().parent.parent / "scorer"
MODULES = sorted(PACKAGE.rglob("*.py"))
MAX_COMPLEXITY = 15
MAX_PARAMETERS = 5
REASON = "# more than 5:"


def _functions(blocks: list[Function | Class]) -> Iterator[Function]:
    """Every function radon measured, methods and closures included."""
    for block in blocks:
        if isinstance(block, Function):
            yield block
            yield from _functions(block.closures)
        else:
            yield from _functions([*block.methods, *block.inner_classes])


def too_complex(source: str) -> list[str]:
    seen = {(f.lineno, f.name): f for f in _functions(cc_visit(source))}  # cc_visit lists methods twice
    return sorted(f"{f.fullname} (line {f.lineno}): complexity {f.complexity}"
                  for f in seen.values() if f.complexity > MAX_COMPLEXITY)


def _parameters(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    args = node.args
    names = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
    names += [a.arg for a in (args.vararg, args.kwarg) if a is not None]
    return [n for n in names if n not in ("self", "cls")]


def _has_reason(lines: list[str], lineno: int) -> bool:
    """The ``def`` line (1-based ``lineno``) or the line after carries ``# more than 5: <why>``."""
    for line in lines[lineno - 1:lineno + 1]:
        at = line.find(REASON)
        if at >= 0 and line[at + len(REASON):].strip():
            return True
    return False


def too_many_parameters(source: str) -> list[str]:
    lines = source.splitlines()
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            params = _parameters(node)
            if len(params) > MAX_PARAMETERS and not _has_reason(lines, node.lineno):
                found.append(f"{node.name} (line {node.lineno}): {len(params)} parameters ({', '.join(params)})")
    return found


def _name(path: Path) -> str:
    return str(path.relative_to(PACKAGE.parent))


def test_every_layer_of_the_package_has_modules_to_measure() -> None:
    for layer, at_least in (("core", 15), ("store", 10), ("web", 15)):
        assert len([m for m in MODULES if m.is_relative_to(PACKAGE / layer)]) > at_least, layer
    for module in ("core/systems/chips.py", "store/circle_log.py", "web/forms.py", "cli.py", "serve.py"):
        assert PACKAGE / module in MODULES, module


@pytest.mark.parametrize("path", MODULES, ids=_name)
def test_no_function_of_the_package_is_over_complexity_15(path: Path) -> None:
    assert too_complex(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("path", MODULES, ids=_name)
def test_no_function_of_the_package_takes_more_than_5_parameters_without_a_reason(path: Path) -> None:
    assert too_many_parameters(path.read_text(encoding="utf-8")) == []


# The checks themselves, on planted code: each would pass vacuously if it found nothing.

PLANTED = '''
class Book:
    def pay(self, a, b, c, d, e):
        return a

    def move(self, a, b, c, d, e, f):
        return a


def six(a, b, c, d, e, *rest):
    return a


def six_explained(a, b, c, d, e, f):  # more than 5: a table row, read as one
    return a


def six_explained_below(
    a, b, c, d, e, f,  # more than 5: the fields of a record, in its order
):
    return a


def six_no_reason(a, b, c, d, e, f):  # more than 5:
    return a


def branches(x):
    def inner(y):
        if y == 1: return 1
        if y == 2: return 2
        if y == 3: return 3
        if y == 4: return 4
        if y == 5: return 5
        if y == 6: return 6
        if y == 7: return 7
        if y == 8: return 8
        if y == 9: return 9
        if y == 10: return 10
        if y == 11: return 11
        if y == 12: return 12
        if y == 13: return 13
        if y == 14: return 14
        if y == 15: return 15
        return 0
    return inner(x)
'''


def test_the_parameter_check_finds_what_it_should() -> None:
    found = [f.split(" ")[0] for f in too_many_parameters(PLANTED)]
    assert sorted(found) == ["move", "six", "six_no_reason"]


def test_the_complexity_check_finds_a_closure() -> None:
    found = too_complex(PLANTED)
    assert len(found) == 1 and "inner" in found[0] and "complexity 16" in found[0]
