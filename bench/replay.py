"""Benchmark: folding a long stored log, this code against an earlier commit's, in the same run.

    .venv/bin/python bench/replay.py [--deals 100000] [--before 66d47e0] [--rounds 3] [--evening both|mixed|solos]

The figure of issue 23 (point 3) is the first line of the mixed evening's table: a stored log read back
(``fold(..., check=False)``, as the ledger cache reads a table's log on a cold load), in µs a deal, on a
realistic mixed evening (``bench/evenings.py`` says how its contracts and results are mixed, and why),
with the one settlement path of today. Beside it, the code of the earlier commit (``66d47e0`` by default,
the last with the hard score's one-pass settlement of a plain deal), twice: forced onto its general
path (``settle_chips_general`` for every deal, the reference), and as it was (a plain deal in one pass,
for information). The target, ≤ 25 µs a deal, is printed with the figure.

The earlier commit's ``scorer`` package is taken from git (``git archive``) into a temporary folder.
Each side runs in its own process, the sides in turn, ``--rounds`` times (this shared machine's speed
drifts within a minute): each process builds the evening with its own code (every deal checked as it is
settled), turns it into a log of one record line a deal (the limit of 2,000 lines a log lifted), folds it
three times unchecked and three times checked, alternately, and keeps the best of each; then the memory a
folded ledger holds per deal (``tracemalloc``, a seventh fold: what the ledger cache keeps for a table).
Times are the process's CPU time (``time.process_time``): a fold is single-threaded and never waits, so on a
quiet machine its CPU time is its wall time, and on a shared one (this project's two cores, other sessions'
tests beside it) the time spent waiting for a core is left out; contention for the cores' caches is not.
Printed for each side: the median over its processes (the best of them in brackets), for

- **a stored log read back** (cold load): unchecked, the figure above;
- **an imported log**: every deal checked (``fold(...)``);
- **bytes per cached deal**.

``--evening solos`` folds the benchmark's older evening instead, random solos in hearts (issue 16's
figures), and ``both`` (the default) the two, one after the other. Run by hand: it is not a test.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BEFORE = "66d47e0"
"""The last commit with the hard score's one-pass settlement of a plain deal (issue 16, point 2), removed by
issue 23 (point 3): its general path is the reference, its one pass is shown for information."""
TARGET = 25.0
"""Issue 23, point 3: a stored log of a realistic mixed evening folded in at most 25 µs a deal, by the one path."""
SEED = 1
PLAYERS = ("Ann", "Bea", "Cat", "Dan")


def solos(deals: int) -> list[Any]:
    """Issue 16's evening: random solos in hearts, Hombre and her tricks and matadors drawn (seeded)."""
    import random

    from scorer.core import Contract, Deal, Suit

    rng = random.Random(SEED)
    made = []
    for n in range(deals):
        tricks = rng.randint(0, 9)
        made.append(Deal(PLAYERS[n % 4], rng.choice(PLAYERS), Contract.SOLO, Suit.HEARTS, hombre_tricks=tricks,
                         matadors=rng.choice([0, 3, 4])))
    return made


def worker(root: str, deals: int, kind: str, path: str) -> None:
    """In a child process: fold ``deals`` record lines with the ``scorer`` package under ``root`` (``path``:
    ``general`` forces an earlier commit's hard score onto its general path); print the best µs a deal, stored
    and imported, and the bytes a folded ledger holds a deal."""
    sys.path.insert(0, root)
    import gc
    import inspect
    import tracemalloc

    from evenings import mixed_evening  # bench/evenings.py, beside this script

    from scorer.core import Evening, HouseRules, TableState, log, settle
    from scorer.core.log import Line, LineKind, fold
    from scorer.core.systems import chips

    if path == "general":
        # 66d47e0's settle_chips tried _settle_plain first and fell back on settle_chips_general: the fallback alone.
        chips.settle_chips = chips.settle_chips_general  # type: ignore[attr-defined]
    log.LOG_LINES_MAX = deals  # a table's log is limited to 2,000 lines; lifted here, to time a long replay
    rules = HouseRules.of()
    agreed = deals + 4 - deals % 4
    evening_deals = mixed_evening(deals, SEED, PLAYERS) if kind == "mixed" else solos(deals)
    state = TableState.start(PLAYERS)
    for deal in evening_deals:
        state = settle(deal, state, rules, agreed).after  # every deal checked: the evening is one the app accepts
    lines = [Line(n, LineKind.RECORD, n, deal) for n, deal in enumerate(evening_deals, 1)]
    evening = Evening(PLAYERS, rules, (), agreed)
    trusts = "check" in inspect.signature(fold).parameters

    def timed(**options: bool) -> float:
        started = time.process_time()
        ledger = fold(evening, lines, **options)
        took = time.process_time() - started
        assert ledger.damage is None and ledger.final == state, "the fold differs from the settlement"
        return took / deals * 1e6

    stored, imported = [], []
    for _ in range(3):  # alternately, so that neither pays alone for the process warming up
        stored.append(timed(check=False) if trusts else timed())
        imported.append(timed())
    gc.collect()
    tracemalloc.start()
    ledger = fold(evening, lines, **({"check": False} if trusts else {}))
    held = tracemalloc.get_traced_memory()[0] / deals
    tracemalloc.stop()
    del ledger
    print(f"{min(stored):.2f} {min(imported):.2f} {held:.0f}")


def run_side(root: Path, deals: int, kind: str, path: str) -> tuple[float, float, float]:
    out = subprocess.run([sys.executable, __file__, "--worker", str(root), "--deals", str(deals), "--evening", kind,
                          "--path", path], check=True, capture_output=True, text=True).stdout.split()
    return float(out[0]), float(out[1]), float(out[2])


def the_mix(deals: int) -> str:
    """The shares the mixed evening holds (made with this code's values)."""
    sys.path.insert(0, str(ROOT))
    from evenings import mix_of, mixed_evening

    return mix_of(mixed_evening(deals, SEED, PLAYERS))


def report(kind: str, deals: int, revision: str, sides: dict[str, list[tuple[float, float, float]]]) -> None:
    what = "a realistic mixed evening (bench/evenings.py)" if kind == "mixed" else "random solos in hearts (issue 16's)"
    rounds = len(next(iter(sides.values())))
    print(f"Replay of a {deals:,}-deal log, {what}: median of {rounds} processes a side, each its best of 3 folds "
          f"(the best process in brackets), the sides in turn")
    if kind == "mixed":
        print(f"  the mix: {the_mix(deals)}")
    names = list(sides)
    print(f"  {'':36}" + "".join(f"{name:>22}" for name in names) + f"{'now/general':>13}")
    rows = ("µs a deal, a stored log read back", "µs a deal, an imported log (checked)", "bytes per cached deal")
    for i, row in enumerate(rows):
        medians = {name: statistics.median(x[i] for x in runs) for name, runs in sides.items()}
        cells = "".join(f"{medians[name]:>13.{0 if i == 2 else 1}f} ({min(x[i] for x in sides[name]):>6.{0 if i == 2 else 1}f})"
                        for name in names)
        print(f"  {row:36}{cells}{medians['now'] / medians[f'{revision} general']:>13.2f}")
    if kind == "mixed":
        now = statistics.median(x[0] for x in sides["now"])
        print(f"  target (issue 23, point 3): a stored log of the mixed evening ≤ {TARGET:.0f} µs a deal by the one path: "
              f"now {now:.1f}, {'met' if now <= TARGET else 'NOT met'} (the general path of {revision} "
              f"{statistics.median(x[0] for x in sides[f'{revision} general']):.1f}, in the same run)")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--before", default=BEFORE, help="the commit to compare with (one that has settle_chips_general)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--evening", choices=("both", "mixed", "solos"), default="both")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--path", default="as_is", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, args.deals, args.evening, args.path)
        return
    revision = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", args.before], check=True,
                              capture_output=True, text=True).stdout.strip()
    kinds = ("mixed", "solos") if args.evening == "both" else (args.evening,)
    print(f"# {time.strftime('%Y-%m-%d %H:%M %Z')}, load average {Path('/proc/loadavg').read_text().split()[0]} "
          f"at the start", file=sys.stderr)
    with tempfile.TemporaryDirectory() as folder:
        archive = Path(folder) / "before.tar"
        subprocess.run(["git", "-C", str(ROOT), "archive", "-o", str(archive), revision, "scorer"], check=True)
        with tarfile.open(archive) as tar:
            tar.extractall(folder, filter="data")
        for kind in kinds:
            sides: dict[str, list[tuple[float, float, float]]] = {f"{revision} general": [], f"{revision} fast": [],
                                                                   "now": []}
            for _ in range(args.rounds):
                sides[f"{revision} general"].append(run_side(Path(folder), args.deals, kind, "general"))
                sides[f"{revision} fast"].append(run_side(Path(folder), args.deals, kind, "as_is"))
                sides["now"].append(run_side(ROOT, args.deals, kind, "as_is"))
            report(kind, args.deals, revision, sides)


if __name__ == "__main__":
    main()
