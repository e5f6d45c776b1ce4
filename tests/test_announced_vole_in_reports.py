"""A vole announced in the bid and lost is a game lost in every report (issue 24, point 3): the statistics, the deal
told in a sentence, the settlement JSON of ``scorer settle``, the CSV export, the tally page and a circle's pages.

P: "For a lost vole announced (i.e. bid in the auction, as opposed to undertaken after winning premiers), Hombre
neither wins the game stake nor doubles it, but leaves it to be carried forward to the next deal." A vole undertaken
after premiers and lost is another case: "A vole undertaken after six tricks, if lost, does not bar Hombre from
winning the game stake, the payment for premiers, and any payment for matadors." Domain tests: no fixtures but the
web client's."""

from __future__ import annotations

import csv
import gettext
import io
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from flask.testing import FlaskClient
from helpers.web import import_table, next_evening, record, start_circle
from pypdf import PdfReader

from scorer.cli import main
from scorer.core import (
    Card, Contract, Deal, Evening, HouseRules, Replay, Result, Suit, Vole, describe, game_won, replay, statistics,
)
from scorer.core.i18n import translating

P_ANNOUNCED = ("P: for a lost vole announced, Hombre \"neither wins the game stake nor doubles it, but leaves it to be "
               "carried forward to the next deal\"")
P_UNDERTAKEN = ("P: \"A vole undertaken after six tricks, if lost, does not bar Hombre from winning the game stake, the "
                "payment for premiers, and any payment for matadors\"")
P_SHORT = "P: \"If she fails even to take six tricks, however, she does pay a remise to the pool\""

FOUR = ("Ann", "Bea", "Cat", "Dan")
VOLE_BID_8 = Deal("Ann", "Bea", Contract.VOLE, Suit.HEARTS, hombre_tricks=8, premiers=True)
"""P's basic game: Bea bids the vole and takes 8 tricks."""

# Each row: what was played, the profile, the deal, its result, whether the game was won (P), and the sentence.
DEALS = [
    ("a vole bid, 8 tricks", "quadrille", VOLE_BID_8, Result.VOLE_LOST, False, P_ANNOUNCED),
    ("a vole bid, 6 tricks", "quadrille", Deal("Ann", "Bea", Contract.VOLE, Suit.HEARTS, hombre_tricks=6),
     Result.VOLE_LOST, False, P_ANNOUNCED),
    ("a vole bid, all ten", "quadrille", Deal("Ann", "Bea", Contract.VOLE, Suit.HEARTS, hombre_tricks=10, premiers=True),
     Result.VOLE_WON, True, P_ANNOUNCED),
    ("a vole bid, 5 tricks: a remise", "quadrille", Deal("Ann", "Bea", Contract.VOLE, Suit.HEARTS, hombre_tricks=5),
     Result.REMISE, False, P_SHORT),
    ("a vole undertaken after premiers, 8 tricks", "quadrille",
     Deal("Ann", "Bea", Contract.SOLO, Suit.HEARTS, hombre_tricks=8, premiers=True, vole=Vole.UNDERTAKEN),
     Result.VOLE_LOST, True, P_UNDERTAKEN),
    ("a médiateur with the vole announced, 7 tricks", "mediateur",
     Deal("Ann", "Bea", Contract.MEDIATEUR, Suit.CLUBS, Card.parse("KH"), hombre_tricks=7, premiers=True,
          vole=Vole.ANNOUNCED, giver="Cat"), Result.VOLE_LOST, False, P_ANNOUNCED),
    ("a solo with the vole revealed, 9 tricks", "mediateur",
     Deal("Ann", "Bea", Contract.SOLO, Suit.SPADES, hombre_tricks=9, premiers=True, vole=Vole.REVEALED),
     Result.VOLE_LOST, False, P_ANNOUNCED),
    ("a médiateur, the vole undertaken, 9 tricks", "mediateur",
     Deal("Ann", "Bea", Contract.MEDIATEUR, Suit.CLUBS, Card.parse("KH"), hombre_tricks=9, premiers=True,
          vole=Vole.UNDERTAKEN, giver="Cat"), Result.VOLE_LOST, True, P_UNDERTAKEN),
]
IDS = [row[0] for row in DEALS]


def _replayed(profile: str, deal: Deal) -> Replay:
    return replay(Evening(FOUR, HouseRules.of(profile), (deal,), 4))


@pytest.mark.parametrize("what, profile, deal, result, won, sentence", DEALS, ids=IDS)
def test_whether_the_game_was_won(what: str, profile: str, deal: Deal, result: Result, won: bool, sentence: str) -> None:
    assert _replayed(profile, deal).settlements[0].result is result, what
    assert game_won(deal, result) is won, sentence


@pytest.mark.parametrize("what, profile, deal, result, won, sentence", DEALS, ids=IDS)
def test_the_statistics_count_the_game_won_or_lost(what: str, profile: str, deal: Deal, result: Result, won: bool,
                                                   sentence: str) -> None:
    stats = statistics([_replayed(profile, deal)])
    bea = {s.player: s for s in stats.players}["Bea"]
    remise = result is Result.REMISE
    assert (bea.won, bea.remise, bea.codille, bea.lost) == (int(won), int(remise), 0, int(not won and not remise)), sentence
    assert [(c.contract, c.played, c.won) for c in stats.contracts] == [(deal.contract, 1, int(won))], sentence
    assert bea.voles == int(result is Result.VOLE_WON)


def test_the_issue_s_example_ends_at_minus_ten_and_is_counted_lost() -> None:
    """Bea bids the vole on a fresh table and takes 8 tricks: her ante (1), her share of the vole pool (3) and the
    premium of the vole to each opponent (2 units each) put her at −10, and the pool of 4 stays (P)."""
    replayed = replay(Evening(FOUR, HouseRules.of(), (VOLE_BID_8,), 4))
    assert replayed.final.balance("Bea") == -10 and replayed.final.pool == 4, P_ANNOUNCED
    bea = {s.player: s for s in statistics([replayed]).players}["Bea"]
    assert (bea.as_hombre, bea.won, bea.lost, bea.evenings) == (1, 0, 1, (-10,)), P_ANNOUNCED


@pytest.mark.parametrize("deal, sentence", [
    (VOLE_BID_8, "Bea bid the vole in hearts; Bea took 8 tricks: lost, the vole not made."),
    (DEALS[5][2], "Bea played médiateur in clubs, taking the King of hearts from Cat, with the vole announced; "
                  "Bea took 7 tricks: lost, the vole not made."),
    (DEALS[6][2], "Bea played a solo in spades, with the vole revealed (the hand shown); Bea took 9 tricks: "
                  "lost, the vole not made."),
    (DEALS[4][2], "Bea played a solo in hearts, with the vole undertaken after premiers; Bea took 8 tricks: "
                  "the game won with premiers, the vole lost."),
])
def test_the_deal_told_in_a_sentence(deal: Deal, sentence: str) -> None:
    assert str(describe(deal, Result.VOLE_LOST)) == sentence, P_ANNOUNCED


def _evening_file(tmp_path: Path, profile: str, deals: list[dict[str, object]]) -> str:
    path = tmp_path / "evening.json"
    path.write_text(json.dumps({"format": "quadrille-evening/1", "players": list(FOUR), "profile": profile,
                                "deals_agreed": 4, "deals": deals}))
    return str(path)


VOLE_BID = {"dealer": "Ann", "hombre": "Bea", "contract": "vole", "trumps": "hearts", "called": None, "ally": None,
            "tricks": {"hombre": 8, "ally": None}, "matadors": 0, "premiers": True, "vole": "none"}
UNDERTAKEN = {**VOLE_BID, "dealer": "Bea", "hombre": "Cat", "contract": "solo", "vole": "undertaken"}
MEDIATEUR = {"dealer": "Ann", "hombre": "Bea", "contract": "mediateur", "trumps": "clubs", "called": "KH", "ally": None,
             "giver": "Cat", "tricks": {"hombre": 7, "ally": None}, "matadors": 0, "premiers": True, "vole": "announced"}


@pytest.mark.parametrize("profile, deals, expected", [
    ("quadrille", [VOLE_BID, UNDERTAKEN], [("vole", "none", "vole_lost", False), ("solo", "undertaken", "vole_lost", True)]),
    ("mediateur", [MEDIATEUR], [("mediateur", "announced", "vole_lost", False)]),
])
def test_the_settlement_json_says_whether_the_game_was_won(tmp_path: Path, profile: str, deals: list[dict[str, object]],
                                                           expected: list[tuple[str, str, str, bool]]) -> None:
    result = CliRunner().invoke(main, ["settle", _evening_file(tmp_path, profile, deals)])
    assert result.exit_code == 0, result.output
    shown = [(d["contract"], d["vole"], d["result"], d["won"]) for d in json.loads(result.output)["deals"]]
    assert shown == expected, P_ANNOUNCED


def test_the_csv_export_says_whether_the_game_was_won(client: FlaskClient) -> None:
    token = import_table(client, "quadrille", [VOLE_BID, UNDERTAKEN])
    rows = list(csv.DictReader(io.StringIO(client.get(f"/t/{token}/export.csv").get_data(as_text=True))))
    assert {(row["deal"], row["result"], row["won"]) for row in rows} == {("1", "vole_lost", "no"), ("2", "vole_lost", "yes")}


LOST_NOTE = ("Lost: a vole announced and lost with six tricks or more (P: Hombre “neither wins the game stake nor "
             "doubles it”), or grandissimo or nemo paid by the premium alone; neither a remise nor a codille.")


def test_the_tally_page_counts_it_lost(client: FlaskClient) -> None:
    token = import_table(client, "quadrille", [VOLE_BID, UNDERTAKEN])
    page = client.get(f"/t/{token}/tally").get_data(as_text=True)
    assert "<strong>Bea</strong>: Hombre 1 time (won 0, remise 0, codille 0, lost 1)" in page, P_ANNOUNCED
    assert "<strong>Cat</strong>: Hombre 1 time (won 1, remise 0, codille 0) · voles 0" in page, P_UNDERTAKEN
    assert "Solo: played 1, won 1; Vole announced: played 1, won 0. " + LOST_NOTE in page


def test_a_tally_without_a_game_lost_so_says_nothing_of_it(client: FlaskClient) -> None:
    token = import_table(client, "quadrille", [UNDERTAKEN | {"dealer": "Ann", "hombre": "Bea"}])
    assert "Lost: a vole announced" not in client.get(f"/t/{token}/tally").get_data(as_text=True)


def test_a_circle_s_pages_count_it_lost(client: FlaskClient) -> None:
    circle = start_circle(client)
    evening = next_evening(client, circle, FOUR)
    assert record(client, evening, "vole", 1, {"hombre": "Bea", "trumps": "hearts", "hombre_tricks": "8",
                                               "premiers": "y"}).status_code == 302
    page = client.get(f"/c/{circle}").get_data(as_text=True)
    assert "<strong>Bea</strong>: Hombre 1 time (vole announced 1; won 0, remise 0, codille 0, lost 1)" in page, P_ANNOUNCED
    assert "The contracts played: vole announced 1 (won 0)." in page.replace(f" {LOST_NOTE}", "") and LOST_NOTE in page
    pdf = client.get(f"/c/{circle}/tally.pdf")
    printed = re.sub(r"\s+", " ", " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.data)).pages))
    assert "Bea: Hombre 1 (won 0, remise 0, codille 0, lost 1)" in printed, P_ANNOUNCED
    assert "Lost: a vole announced and lost with six tricks or more" in printed


NB = "\u00a0"


def test_in_french(client: FlaskClient) -> None:
    catalogue = gettext.translation("messages", localedir=str(Path(__file__).parent.parent / "scorer" / "translations"),
                                    languages=["fr"])
    with translating(catalogue.gettext):
        assert str(describe(VOLE_BID_8, Result.VOLE_LOST)) == (
            f"Bea a demandé la vole à cœur{NB}; Bea a fait 8 levées{NB}: perdu, la vole non faite.")
    token = import_table(client, "quadrille", [VOLE_BID, UNDERTAKEN])
    page = client.get(f"/t/{token}/tally", headers={"Accept-Language": "fr-FR,fr;q=0.9"}).get_data(as_text=True)
    assert "(gagné 0, remise 0, codille 0, perdu 1)" in page
    assert f"Perdu{NB}: une vole annoncée et perdue avec six levées ou plus" in page
