"""What drawing HTML in Python saves (issue 23, point 5): the pages that draw the deal form, and the radio groups.

    .venv/bin/python bench/drawn.py [--samples 400]                       # the pages, then the radio groups
    SCORER_ROOT=/path/to/another/checkout .venv/bin/python bench/drawn.py --pages-only   # another checkout's pages
    valgrind --tool=callgrind --callgrind-out-file=/dev/null .venv/bin/python bench/drawn.py --repeat deal 100

The pages: the deal-entry page and a preview, of a solo (5 radio groups) and of an alliance (8), and the table's
page (where the evening stands, the last deal's payments), through ``app.test_client()``, after a warm-up. For
each, the CPU time of the thread that served it (``time.thread_time``: on a machine shared with other work, the
wall time says more about the others than about the page), median of the samples, and the app's wall time. Run
it against an earlier checkout (``SCORER_ROOT``) in turns, on the same machine at the same time.

``--repeat KIND COUNT`` asks for one page only (the deal-entry page, a preview or the table's page, of a solo),
COUNT times after a warm-up: run under valgrind's callgrind with two counts, the difference of the instructions it
reports, divided by the difference of the counts, is what one page costs, whatever else the machine runs.

The radio groups: the deal form's groups drawn by ``segmented_field`` (scorer/web/drawn.py) against the Jinja
macro it replaced (``SEGMENTED`` below, the macro as it was before issue 16), both the same HTML, in one process:
the best of several rounds of each, in µs per deal form. Run by hand: it is not a test.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, os.environ.get("SCORER_ROOT") or str(Path(__file__).resolve().parent.parent))

import scorer  # noqa: E402
from clock import ServerClock  # noqa: E402  (bench/clock.py, beside this script: no scorer import)
from scorer import create_app  # noqa: E402
from scorer.core import HouseRules, TableState  # noqa: E402
from scorer.store import create_table  # noqa: E402
from scorer.web.db import get_db  # noqa: E402

HIDDEN = re.compile(r'name="(number|once|csrf_token|previewed)" type="hidden" value="([^"]*)"')
PLAYERS = ("Ann", "Bea", "Cat", "Dan")
DEALS = {"solo": {"hombre": "Bea", "trumps": "hearts", "hombre_tricks": "6", "matadors": "0", "vole": "none"},
         "alliance": {"hombre": "Bea", "trumps": "hearts", "called": "KS", "ally": "Cat", "hombre_tricks": "4",
                      "ally_tricks": "2", "matadors": "0", "vole": "none"}}

SEGMENTED = """\
{% macro segmented(field, cls="", only=none) %}
<fieldset class="seg {{ cls }}{% if field.errors %} invalid{% endif %}" id="{{ field.id }}">
  <legend>{{ field.label.text }}</legend>
  <div class="opts">
  {% for value, label, checked, _ in field.iter_choices() if only is none or value in only %}<label class="opt"><input type="radio" name="{{ field.name }}" id="{{ field.id }}-{{ loop.index0 }}" value="{{ value }}"{% if checked %} checked{% endif %}{% if field.errors %} aria-invalid="true" aria-describedby="{{ error_ids(field) }}"{% endif %}><span>{{ label }}</span></label>{% endfor %}
  </div>
  {{ errors(field) }}
</fieldset>
{% endmacro %}
{% macro errors(field) %}{% for e in field.errors %}<p class="error" id="{{ field.id }}-error{{ loop.index }}">{{ e }}</p>{% endfor %}{% endmacro %}
{% macro error_ids(field) %}{% for e in field.errors %}{{ field.id }}-error{{ loop.index }}{% if not loop.last %} {% endif %}{% endfor %}{% endmacro %}
"""
"""The radio group's macro before issue 16 (templates/_macros.html at commit fe86426): what segmented_field replaced."""
GROUPS = (("hombre", ""), ("trumps", "two"), ("favourite", "two"), ("called", "four"), ("giver", ""), ("ally", ""),
          ("hombre_tricks", "tricks"), ("ally_tricks", "tricks"), ("matadors", "tricks"), ("vole", "two"),
          ("spadille", ""))


def pages(app: Any, clock: ServerClock, samples: int) -> None:
    phone = app.test_client()

    def new_table() -> str:
        with app.app_context():
            return str(create_table(get_db(), PLAYERS, "Ann", HouseRules.of(), 400, None, "").token)

    token = new_table()
    for n in range(3):  # a few deals played: the table's page shows the last one's payments and the pool
        url = f"/t/{token}/deal/solo"
        sent = {**dict(HIDDEN.findall(phone.get(url).get_data(as_text=True))), **DEALS["solo"], "action": "preview"}
        sent.update(HIDDEN.findall(phone.post(url, data=sent).get_data(as_text=True)))
        assert phone.post(url, data={**sent, "action": "record"}).status_code == 302
    cpu: dict[str, list[float]] = {}
    wall: dict[str, list[float]] = {}

    def timed(what: str, answer: Any) -> str:
        assert answer.status_code == 200, what
        page = str(answer.get_data(as_text=True))
        path = answer.request.path
        seen_wall, seen_cpu = clock.latest(path)
        cpu.setdefault(what, []).append(seen_cpu)
        wall.setdefault(what, []).append(seen_wall)
        return page

    for sample in range(samples + 50):  # the first 50: the warm-up
        if sample == 50:
            cpu.clear()
            wall.clear()
        for contract, taps in DEALS.items():
            url = f"/t/{token}/deal/{contract}"
            page = timed(f"deal-entry page, {contract}", phone.get(url))
            sent = {**dict(HIDDEN.findall(page)), **taps, "action": "preview"}
            timed(f"preview a deal, {contract}", phone.post(url, data=sent))
        timed("the table's page", phone.get(f"/t/{token}"))
    print(f"pages, {time.strftime('%Y-%m-%d %H:%M')}, {scorer.__file__}, medians of {samples}, "
          f"load average {os.getloadavg()[0]:.2f}")
    print(f"{'':26} {'CPU ms':>7} {'wall ms':>8}")
    for what in cpu:
        print(f"{what:26} {statistics.median(cpu[what]) * 1000:7.3f} {statistics.median(wall[what]) * 1000:8.3f}")


def repeat(app: Any, kind: str, count: int) -> None:
    """Only ``kind`` (``deal``, ``preview`` or ``table``, of a solo), ``count`` times after a warm-up: under
    valgrind's callgrind, the difference between two counts' instructions is the page's own."""
    phone = app.test_client()
    with app.app_context():
        token = create_table(get_db(), PLAYERS, "Ann", HouseRules.of(), 400, None, "").token
    url = f"/t/{token}/deal/solo"
    sent = {**dict(HIDDEN.findall(phone.get(url).get_data(as_text=True))), **DEALS["solo"], "action": "preview"}
    sent.update(HIDDEN.findall(phone.post(url, data=sent).get_data(as_text=True)))
    assert phone.post(url, data={**sent, "action": "record"}).status_code == 302
    sent = {**dict(HIDDEN.findall(phone.get(url).get_data(as_text=True))), **DEALS["solo"], "action": "preview"}
    ask = {"deal": lambda: phone.get(url), "preview": lambda: phone.post(url, data=sent),
           "table": lambda: phone.get(f"/t/{token}")}[kind]
    for _ in range(20 + count):
        assert ask().status_code == 200


def groups(app: Any, rounds: int = 7, per_round: int = 300) -> None:
    from scorer.web.drawn import segmented_field
    from scorer.web.forms import DealForm

    macro: Any = app.jinja_env.from_string(SEGMENTED).module
    rules = HouseRules.of()
    print(f"radio groups of a deal form (µs, best of {rounds} rounds of {per_round}), load average {os.getloadavg()[0]:.2f}")
    for language in ("en", "fr"):
        for contract in rules.profile.contracts:
            with app.test_request_context("/", headers={"Cookie": f"lang={language}"}):
                app.preprocess_request()
                form = DealForm(players=PLAYERS, contract=contract, dealer="Ann", state=TableState.start(PLAYERS),
                                rules=rules)
                shown = [(getattr(form, name), cls) for name, cls in GROUPS if _asked(form, name)]
                assert all(str(segmented_field(f, c)) == str(macro.segmented(f, c)) for f, c in shown)
                python = _best(lambda: [segmented_field(f, c) for f, c in shown], rounds, per_round)
                jinja = _best(lambda: [macro.segmented(f, c) for f, c in shown], rounds, per_round)
                print(f"{language} {contract.value:16} {len(shown)} groups: Python {python:6.1f}  Jinja {jinja:6.1f}  "
                      f"saved {jinja - python:6.1f}  ({jinja / python:.1f}x)")
                app.do_teardown_request()


def _asked(form: Any, name: str) -> bool:
    return {"trumps": form.asks_trumps, "favourite": form.asks_favourite, "called": form.asks_called,
            "giver": form.asks_giver, "ally": form.allied, "ally_tricks": form.allied, "matadors": form.asks_matadors,
            "vole": form.asks_vole, "spadille": form.asks_spadille}.get(name, True)


def _best(run: Any, rounds: int, per_round: int) -> float:
    best = float("inf")
    for _ in range(rounds):
        started = time.thread_time()
        for _ in range(per_round):
            run()
        best = min(best, (time.thread_time() - started) / per_round * 1e6)
    return best


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--samples", type=int, default=400)
    parser.add_argument("--pages-only", action="store_true")
    parser.add_argument("--repeat", nargs=2, metavar=("KIND", "COUNT"), help="deal, preview or table; how many")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="scorer-drawn-"))
    app = create_app({"DATABASE": str(work / "bench.sqlite"), "INSTANCE_PATH": str(work / "instance")})
    clock = ServerClock(app.wsgi_app)
    app.wsgi_app = clock  # type: ignore[method-assign]
    if args.repeat:
        repeat(app, args.repeat[0], int(args.repeat[1]))
        return
    pages(app, clock, args.samples)
    if not args.pages_only:
        groups(app)


if __name__ == "__main__":
    main()
