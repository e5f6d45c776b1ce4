"""Every benchmark in bench/ runs: each script at its smallest size, in its own process, exits 0 and prints its
figures beside their reference (the figures of a run this small mean nothing; docs/BENCHMARKS.md has real ones)."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"
SCRIPTS = sorted(path.name for path in BENCH.glob("*.py") if 'if __name__ == "__main__":' in path.read_text())
FIGURE = re.compile(r"^\S.*? -?\d[\d.,]* +\S+ +\| reference .+? -?\d[\d.,]* +\S+ +\| +(\d[\d.]*|nan)× \|", re.MULTILINE)
"""A line of bench/common.py's ``figure``: the figure, its unit, its reference's, their ratio."""


@pytest.mark.parametrize("script", [script for script in SCRIPTS if script != "run.py"])
def test_each_benchmark_runs_at_its_smallest_size(script: str) -> None:
    ran = subprocess.run([sys.executable, str(BENCH / script), "--quick"],
                         capture_output=True, text=True, cwd=BENCH.parent, timeout=120)
    assert ran.returncode == 0, ran.stderr[-3000:]
    assert FIGURE.search(ran.stdout), ran.stdout[-3000:]


def test_the_runner_reports_every_target() -> None:
    """bench/run.py, at its smallest size, prints the five targets of docs/BENCHMARKS.md, each with a verdict."""
    ran = subprocess.run([sys.executable, str(BENCH / "run.py"), "--quick"], capture_output=True, text=True,
                         cwd=BENCH.parent, timeout=120)
    assert ran.returncode == 0, ran.stderr[-3000:]
    lines = [line for line in ran.stdout.splitlines() if FIGURE.match(line)]
    for mark in ("(a)", "(b)", "(c)", "(d)", "(e)"):
        assert any(line.startswith(mark) and re.search(r"(holds|MISSES)$", line) for line in lines), (mark, ran.stdout)
    assert re.search(r"^targets: \d+ of \d+ hold", ran.stdout, re.MULTILINE), ran.stdout


def test_every_other_module_of_bench_is_used_by_a_script() -> None:
    """A module of bench/ that is not a script is imported by one (no benchmark left that nothing runs)."""
    imported = set()
    for path in BENCH.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module)
            elif isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
    helpers = {path.stem for path in BENCH.glob("*.py")} - {Path(script).stem for script in SCRIPTS}
    assert helpers and helpers <= imported, helpers - imported


def test_the_benchmarks_serve_as_the_serve_command_does() -> None:
    """bench/common.py's server has the serve command's threads (it names them without importing scorer at its top)."""
    from scorer.serve import THREADS

    said = re.search(r"^THREADS = (\d+)$", (BENCH / "common.py").read_text(), re.M)
    assert said and int(said.group(1)) == THREADS
