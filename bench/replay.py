"""Benchmark: replaying realistic mixed evenings, this code against an earlier commit's, in the same run.

    .venv/bin/python bench/replay.py [--evenings 25] [--before 66d47e0] [--rounds 3] [--quick]

Each evening is one of 400 deals (``DEALS_AGREED_MAX``, the longest a table holds) of bench/evenings.py's mix,
seeded, so that both sides fold the same deals. Its log, one record line a deal, is folded as a stored log is
read back (``fold(..., check=False)``: a table's first request after the server starts) and as an import
folds it (every deal checked); µs a deal, the best of 3 folds a process. The reference is the code of an
earlier commit (``66d47e0`` by default: the last with the hard score's one-pass settlement of a plain deal,
which the one settlement path replaced), taken from git into a temporary folder; ``--general`` adds that
commit forced onto its general path. Each side runs in its own process, the sides in turn, ``--rounds`` times;
times are the process's CPU time (``time.process_time``: a fold never waits, and on a shared machine the time
spent waiting for a core is left out). Target: a stored log at most 40 µs a deal. ``--quick``: one evening
of 40 deals, one round. Run by hand and by ``bench/run.py``; tests/test_bench.py runs it with ``--quick``.
"""

from __future__ import annotations

import argparse
import os
import site
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BEFORE = "66d47e0"
TARGET = 40.0
"""µs a deal: a stored log of a realistic mixed evening, folded."""
PLAYERS = ("Ann", "Bea", "Cat", "Dan")


def worker(root: str, evenings: int, deals: int, path: str) -> None:
    """In a child process, with the ``scorer`` package under ``root``: fold ``evenings`` mixed evenings of ``deals``
    deals; print the best µs a deal stored and checked, and the bytes a folded ledger holds a deal."""
    sys.path.insert(0, root)
    import gc
    import inspect
    import tracemalloc

    from evenings import mixed_evening  # bench/evenings.py, beside this script

    from scorer.core import Evening, HouseRules, TableState, settle
    try:
        from scorer.core.ledger.log import Line, LineKind, fold
    except ImportError:  # an earlier commit, before the core's modules went into packages
        from scorer.core.log import Line, LineKind, fold  # type: ignore[no-redef]

    if path == "general":  # 66d47e0's settle_chips tried a one-pass settlement first: its general path alone
        from scorer.core.systems import chips

        chips.settle_chips = chips.settle_chips_general  # type: ignore[attr-defined]
    import scorer

    assert Path(scorer.__file__).parent.parent == Path(root), (scorer.__file__, root)
    rules = HouseRules.of()
    logs = []
    for seed in range(1, evenings + 1):
        state = TableState.start(PLAYERS)
        for deal in mixed_evening(deals, seed, PLAYERS):  # every deal checked: an evening the app accepts
            state = settle(deal, state, rules, deals).after
        logs.append((Evening(PLAYERS, rules, (), deals),
                     [Line(n, LineKind.RECORD, n, deal) for n, deal in enumerate(mixed_evening(deals, seed, PLAYERS), 1)],
                     state))
    trusts = "check" in inspect.signature(fold).parameters

    def timed(check: bool) -> float:
        options = {"check": check} if trusts else {}
        started = time.process_time()
        folded = [(fold(evening, lines, **options), state) for evening, lines, state in logs]
        took = time.process_time() - started
        assert all(ledger.damage is None and ledger.final == state for ledger, state in folded), "a fold differs"
        return took / (evenings * deals) * 1e6

    stored, checked = [], []
    for _ in range(3):  # alternately, so that neither pays alone for the process warming up
        stored.append(timed(False))
        checked.append(timed(True))
    gc.collect()
    tracemalloc.start()
    kept = [fold(evening, lines, **({"check": False} if trusts else {})) for evening, lines, _ in logs]
    held = tracemalloc.get_traced_memory()[0] / (evenings * deals)
    tracemalloc.stop()
    del kept
    print(f"{min(stored):.2f} {min(checked):.2f} {held:.0f}")


def side(root: Path, evenings: int, deals: int, path: str = "as_is") -> tuple[float, float, float]:
    """One process folding the evenings with the ``scorer`` under ``root``: µs a deal stored, checked; bytes a deal."""
    # -S: no .pth file read, so that an editable install's import hook cannot put this checkout's scorer first
    paths = os.pathsep.join([str(root), *site.getsitepackages()])
    out = subprocess.run([sys.executable, "-S", __file__, "--worker", str(root), "--evenings", str(evenings), "--deals",
                          str(deals), "--path", path], check=True, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": paths}).stdout.split()
    return float(out[0]), float(out[1]), float(out[2])


def earlier(revision: str, folder: str) -> Path:
    """The ``scorer`` package of ``revision``, from git, under ``folder``."""
    archive = Path(folder) / "before.tar"
    subprocess.run(["git", "-C", str(ROOT), "archive", "-o", str(archive), revision, "scorer"], check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(folder, filter="data")
    return Path(folder)


def compare(evenings: int, deals: int, rounds: int, revision: str = BEFORE, general: bool = False) -> dict[str, list[tuple[float, float, float]]]:
    """Each side's figures, ``rounds`` processes a side, the sides in turn."""
    with tempfile.TemporaryDirectory() as folder:
        before = earlier(revision, folder)
        sides: dict[str, list[tuple[float, float, float]]] = {"now": [], revision: []}
        if general:
            sides[f"{revision} general"] = []
        for _ in range(rounds):
            sides["now"].append(side(ROOT, evenings, deals))
            sides[revision].append(side(before, evenings, deals))
            if general:
                sides[f"{revision} general"].append(side(before, evenings, deals, "general"))
    return sides


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--evenings", type=int, default=25)
    parser.add_argument("--before", default=BEFORE, help="the commit to compare with")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--general", action="store_true", help="also the earlier commit forced onto its general path")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--deals", type=int, default=400, help=argparse.SUPPRESS)
    parser.add_argument("--path", default="as_is", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, args.evenings, args.deals, args.path)
        return
    from common import figure, load  # bench/common.py imports this checkout's scorer: not in a worker
    evenings, deals, rounds = (1, 40, 1) if args.quick else (args.evenings, args.deals, args.rounds)
    revision = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", args.before], check=True,
                              capture_output=True, text=True).stdout.strip()
    sides = compare(evenings, deals, rounds, revision, args.general)
    print(f"Replay of {evenings} mixed evening(s) of {deals} deals, {time.strftime('%Y-%m-%d %H:%M')}, median of "
          f"{rounds} process(es) a side, each its best of 3 folds, the sides in turn; {load()}")
    median = {name: [statistics.median(run[i] for run in runs) for i in range(3)] for name, runs in sides.items()}
    for name in median:
        if name == "now":
            continue
        now, then = median["now"], median[name]
        figure("stored log read back, µs a deal", now[0], "µs", f"{name}'s", then[0], f"≤ {TARGET:g} µs",
               now[0] <= TARGET if name == revision else None)
        figure("imported log (every deal checked), µs a deal", now[1], "µs", f"{name}'s", then[1])
        figure("bytes a folded deal holds", now[2], "B", f"{name}'s", then[2])


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    main()
