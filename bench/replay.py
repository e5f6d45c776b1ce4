"""Benchmark: replaying a long stored log, this code against an earlier commit, in the same run.

    .venv/bin/python bench/replay.py [--deals 100000] [--before f9989ab] [--rounds 2] [--evening solos|mixed]

The earlier commit's ``scorer`` package is taken from git (``git archive``) into
a temporary folder. Each side runs in its own process, alternately (before,
after, before, after...), so that both meet the same machine: this machine's
speed drifts by a third within a minute. Each process builds the same evening
(the same seeded random solos as ``bench/run.py``; with ``--evening mixed``, seeded random alliances, solos,
forced spadilles and voles announced of the quadrille profile) with its own code, turns it
into a log of one record line a deal (the limit of 2,000 lines a log lifted), and folds that log three times; it prints
the best time per deal, and the memory a folded ledger holds per deal (``tracemalloc``, a fourth fold: what
the ledger cache keeps for a table). Printed: the best of each side over all rounds, for

- **a stored log read back**: what the ledger cache does on a cold load
  (``fold(..., check=False)`` now; the earlier code checked every deal), and
- **an imported log**: every deal checked (``fold(...)`` on both sides).

Run by hand: it is not a test.
"""

from __future__ import annotations

import argparse
import inspect
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BEFORE = "edf506a"
"""The last commit before replay was made cheaper (issue 16, point 2: transfers kept once, the system
looked up once a replay). ``--before f9989ab`` compares with the code before replay checked once (issue 11)."""


def mixed_deal(rng: Any, dealer: str, players: tuple[str, ...]) -> Any:
    """A random deal of a quadrille evening, perhaps impossible (the caller settles it and draws again if so):
    alliances mostly, then solos, forced spadilles and a few voles announced."""
    from scorer.core import Card, Contract, Deal, Suit

    contract = rng.choice([Contract.ALLIANCE] * 12 + [Contract.SOLO] * 5 + [Contract.FORCED_SPADILLE] * 2 + [Contract.VOLE])
    hombre, trumps = rng.choice(players), rng.choice(list(Suit))
    tricks, matadors = rng.randint(0, 9), rng.choice([0, 0, 0, 3, 4])
    if contract in (Contract.ALLIANCE, Contract.FORCED_SPADILLE):
        ally = rng.choice([p for p in players if p != hombre])
        tricks = rng.randint(0, 6)
        return Deal(dealer, hombre, contract, trumps, Card("K", rng.choice([s for s in Suit if s is not trumps])), ally,
                    tricks, rng.randint(0, 10 - tricks), matadors,
                    spadille=hombre if contract is Contract.FORCED_SPADILLE else None)
    return Deal(dealer, hombre, contract, trumps, hombre_tricks=tricks, matadors=matadors)


def worker(root: str, deals: int, kind: str) -> None:
    """In a child process: time folding ``deals`` record lines with the ``scorer`` package under ``root``."""
    sys.path.insert(0, root)
    import random

    from scorer.core import Contract, Deal, Evening, HouseRules, Suit, TableState, settle
    from scorer.core import log
    from scorer.core.errors import ImpossibleDeal
    from scorer.core.log import Line, LineKind, fold

    log.LOG_LINES_MAX = deals  # a table's log is limited to 2,000 lines; lifted here, to time a long replay

    players = ("Ann", "Bea", "Cat", "Dan")
    rng = random.Random(1)
    rules = HouseRules.of()
    agreed = deals + 4 - deals % 4
    state = TableState.start(players)
    lines = []
    while len(lines) < deals:
        dealer = state.next_dealer or players[0]
        if kind == "mixed":
            deal = mixed_deal(rng, dealer, players)
        else:
            tricks = rng.randint(0, 9)
            deal = Deal(dealer, rng.choice(players), Contract.SOLO, Suit.HEARTS, hombre_tricks=tricks,
                        matadors=rng.choice([0, 3, 4]))
        try:
            state = settle(deal, state, rules, agreed).after
        except ImpossibleDeal:
            continue  # a mixed deal that could not have happened (the solos always can): drawn again
        lines.append(Line(len(lines) + 1, LineKind.RECORD, len(lines) + 1, deal))
    evening = Evening(players, rules, (), agreed)
    trusts = "check" in inspect.signature(fold).parameters

    def timed(**options: bool) -> float:
        started = time.perf_counter()
        ledger = fold(evening, lines, **options)
        took = time.perf_counter() - started
        assert ledger.damage is None and ledger.final == state, "the fold differs from the settlement"
        return took / deals * 1e6

    stored, imported = [], []
    for _ in range(3):  # alternately, so that neither pays alone for the process warming up
        stored.append(timed(check=False) if trusts else timed())
        imported.append(timed())
    import gc
    import tracemalloc

    gc.collect()
    tracemalloc.start()
    ledger = fold(evening, lines, **({"check": False} if trusts else {}))
    held = tracemalloc.get_traced_memory()[0] / deals
    tracemalloc.stop()
    del ledger
    print(f"{min(stored):.2f} {min(imported):.2f} {held:.0f}")


def run_side(root: Path, deals: int, kind: str) -> tuple[float, float, float]:
    out = subprocess.run([sys.executable, __file__, "--worker", str(root), "--deals", str(deals), "--evening", kind],
                         check=True, capture_output=True, text=True).stdout.split()
    return float(out[0]), float(out[1]), float(out[2])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--before", default=BEFORE, help="the commit to compare with")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--evening", choices=("solos", "mixed"), default="solos",
                        help="the log: random solos in hearts (the reference), or a mixed quadrille evening")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, args.deals, args.evening)
        return
    revision = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", args.before], check=True,
                              capture_output=True, text=True).stdout.strip()
    with tempfile.TemporaryDirectory() as folder:
        archive = Path(folder) / "before.tar"
        subprocess.run(["git", "-C", str(ROOT), "archive", "-o", str(archive), revision, "scorer"], check=True)
        with tarfile.open(archive) as tar:
            tar.extractall(folder, filter="data")
        before, after = [], []
        for _ in range(args.rounds):
            before.append(run_side(Path(folder), args.deals, args.evening))
            after.append(run_side(ROOT, args.deals, args.evening))
    what = "solos in hearts" if args.evening == "solos" else "a mixed quadrille evening"
    print(f"Replay of a {args.deals:,}-deal log, {what} (best of 3 folds a process, {args.rounds} processes a side, alternately)")
    print(f"{'µs per deal':34} {'before ' + revision:>14} {'now':>8} {'now/before':>11}")
    for i, what in enumerate(("a stored log read back (cold load)", "an imported log (every deal checked)")):
        b, a = min(x[i] for x in before), min(x[i] for x in after)
        print(f"{what:34} {b:14.1f} {a:8.1f} {a / b:11.2f}")
    b, a = min(x[2] for x in before), min(x[2] for x in after)
    print(f"{'bytes per cached deal (tracemalloc)':34} {b:14.0f} {a:8.0f} {a / b:11.2f}")


if __name__ == "__main__":
    main()
