"""Damage named where it matters, on a phone (issue 30, point 8): a deal of a circle's first evening edited by hand
in a way that still settles, its chain not computed again, then the server's caches emptied (a restart). The
first fold verifies the chain: the evening's page, the next evening's and the circle's each say why they are
read-only, at 390 px, in English and French."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from helpers.browser import ARTIFACTS as BROWSER_ARTIFACTS
from helpers.browser import LIVE_REFRESH_SECONDS, Phone, fresh
from helpers.store import SEATINGS, circle_of, play

import scorer.store
from scorer import create_app
from scorer.store import start_evening
from scorer.store.database import connect
from scorer.store.seasons import SEASONS

ARTIFACTS = BROWSER_ARTIFACTS.parent / "browser-damage"


@dataclass(frozen=True)
class Served:
    url: str
    circle: str
    first: str
    second: str


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """A circle of two evenings, deal 2 of the first edited by hand (5 tricks for 6: a remise for a win), served."""
    waitress = pytest.importorskip("waitress")
    instance = tmp_path_factory.mktemp("instance")
    database = str(instance / "scorer.sqlite")
    app = create_app({"INSTANCE_PATH": str(instance), "DATABASE": database, "LIVE_REFRESH_SECONDS": LIVE_REFRESH_SECONDS})
    db = connect(database)
    circle = circle_of(db)
    first = start_evening(db, circle, SEATINGS[0], SEATINGS[0][0])
    play(db, first, "6 6 6 6")
    second = start_evening(db, circle, SEATINGS[1], SEATINGS[1][0])
    play(db, second, "6 6")
    db.conn.close()
    conn = sqlite3.connect(database)
    with conn:
        deal = json.loads(conn.execute("select deal from events where table_id = ? and seq = 2", [first.id]).fetchone()[0])
        deal["tricks"]["hombre"] = 5
        conn.execute("update events set deal = ? where table_id = ? and seq = 2", [json.dumps(deal, sort_keys=True), first.id])
    conn.close()
    scorer.store.LEDGERS.clear()
    SEASONS.clear()
    wsgi = waitress.create_server(app, host="127.0.0.1", port=0, threads=4, ident="scorer")
    threading.Thread(target=wsgi.run, daemon=True).start()
    yield Served(f"http://127.0.0.1:{wsgi.effective_port}", circle.token, first.token, second.token)
    wsgi.close()
    scorer.store.LEDGERS.clear()
    SEASONS.clear()


@pytest.fixture(scope="module")
def browser(chromium: Any) -> Any:
    fresh(ARTIFACTS)
    return chromium


class DamagePhone(Phone):
    artifacts = ARTIFACTS


class FrenchDamagePhone(DamagePhone):
    options = {"locale": "fr-FR"}


SAID = {  # (the edited evening's banner, the next evening's, the circle's)
    "en": ("This table's log is damaged at line 2 (deal 2): it was changed after it was written.",
           "This table is read-only: evening 1 of the circle does not hold (line 2 (deal 2): it was changed after it was "
           "written). None of its deals is settled;",
           "evening 1: line 2 (deal 2): it was changed after it was written"),
    "fr": ("Le journal de cette table est endommagé (ligne 2 (coup 2) : elle a été modifiée après avoir été écrite).",
           "Cette table est en lecture seule : la soirée 1 du cercle ne tient pas (ligne 2 (coup 2) : elle a été "
           "modifiée après avoir été écrite). Aucun de ses coups n'est réglé ;",
           "soirée 1 : ligne 2 (coup 2) : elle a été modifiée après avoir été écrite"),
}


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_deal_edited_by_hand_is_named_on_each_page_it_makes_read_only(served: Served, browser: Any, axe: Any,
                                                                       lang: str) -> None:
    phone = (DamagePhone if lang == "en" else FrenchDamagePhone)(browser, axe, lang)
    page = phone.page
    try:
        said = SAID[lang]
        for url, sentence, step in ((f"/t/{served.first}", said[0], "evening-1"), (f"/t/{served.second}", said[1], "evening-2"),
                                    (f"/c/{served.circle}", said[2], "circle")):
            phone.go(served.url + url)
            alert = page.locator('[role="alert"]').first.inner_text().replace("\xa0", " ")
            assert sentence in alert, alert
            box = page.locator('[role="alert"]').first.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
            phone.check(step)
        assert {"en": "Download everything stored for this circle",  # the circle's raw export (masculine in French)
                "fr": "Télécharger tout ce qui est stocké pour ce cercle"}[lang] in page.inner_text("main")
        assert page.locator("text=Record this deal").count() == 0
        assert not phone.problems, "\n".join(phone.problems)
    finally:
        phone.close()
