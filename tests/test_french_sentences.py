"""The sentences the core builds for the pages, in French (issue 15): the deal told in a sentence
(describe, the undo page) and the deal's settlement at a glance (summarise, the preview), worded when
they are read, through the translation installed for the reader; English unchanged without one.

Needs the compiled French catalogue (``python scripts/i18n.py update``)."""

from __future__ import annotations

import gettext
from pathlib import Path

import pytest
from helpers.deals import PLAYERS, summary_of
from helpers.scenario import parse_deal

from scorer.core import Card, Contract, Deal, HouseRules, Pot, Result, Suit, TableState, Vole, describe, settle, summarise
from scorer.core.i18n import translating

CATALOGUE = Path(__file__).parent.parent / "scorer" / "translations"
NB = "\u00a0"


def french() -> gettext.GNUTranslations:
    return gettext.translation("messages", localedir=str(CATALOGUE), languages=["fr"])


ALLIANCE = Deal("Ann", "Hal", Contract.ALLIANCE, Suit.SPADES, Card.parse("KH"), "Bea", 4, 2)
SOLO = Deal("Ann", "Hal", Contract.SOLO, Suit.HEARTS, hombre_tricks=8, matadors=3, premiers=True, vole=Vole.UNDERTAKEN)
LINE = "Ann deals: Bea solo in hearts, 5 tricks, 3 matadors"


def test_a_deal_told_in_french() -> None:
    with translating(french().gettext):
        assert str(describe(ALLIANCE, Result.WON)) == (
            f"Hal a joué l'appel à pique, en appelant le Roi de cœur (Bea l'avait){NB}; Hal et Bea ont fait 6 levées "
            f"(Hal 4, Bea 2){NB}: gagné.")
        assert str(describe(SOLO, Result.VOLE_LOST)) == (
            f"Hal a joué sans prendre à cœur, avec 3 matadors et la vole entreprise après les premières{NB}; "
            f"Hal a fait 8 levées{NB}: le jeu gagné avec les premières, la vole perdue.")
        assert str(describe(Deal("Ann", "Hal", Contract.NEMO, None, hombre_tricks=0), Result.WON)) == (
            f"Hal a joué le nemo (sans autre atout que les As noirs{NB}; pour ne faire aucune levée){NB}; "
            f"Hal n'a fait aucune levée{NB}: gagné.")


def test_a_deal_told_in_english_without_a_translation() -> None:
    assert str(describe(ALLIANCE, Result.WON)) == ("Hal played an alliance in spades, calling the King of hearts (Bea held it); "
                                              "Hal and Bea took 6 tricks (Hal 4, Bea 2): won.")


def test_a_settlement_at_a_glance_in_french() -> None:
    """The sentences and words this part of the core writes (a pot's name and a contract's are the model's)."""
    with translating(french().gettext):
        told = summary_of(LINE)
        pool = Pot.POOL.label
    assert told[0].endswith(f" de Bea à cœur{NB}: remise")
    assert "La poule contenait 4 jetons, donc l'unité vaut 1." in told
    assert f"Ann, Bea, Cat et Dan mettent chacun 1 dans {pool}{NB}: mise" in told
    assert f"Bea met 4 dans {pool}{NB}: remise, la poule doublée" in told
    assert f"remise{NB}: la poule est doublée et reportée" in told
    assert any(line.startswith("Bea paie à Ann, Cat et Dan 5 chacun") and line.endswith(", matadors 1") for line in told)


def test_the_summary_is_worded_when_read_not_when_settled() -> None:
    """A settlement made under one language (kept in the ledger cache), and its summary, read in the reader's language."""
    rules = HouseRules.of("quadrille", {})
    with translating(french().gettext):
        settlement = settle(parse_deal(LINE), TableState(players=PLAYERS, balances=(0,) * 4, pool=0), rules)
    english = summarise(settlement, rules)
    assert str(english.unit_sentence) == "The pool held 4 chips, so a unit is 1."
    assert tuple(map(str, english.notes)) == ("remise: the pool is doubled and carried forward",)
    assert "Bea puts 4 into the pool: remise, the pool doubled" in [str(g.sentence) for g in english.groups]
    with translating(french().gettext):  # and the summary made in English reads in French
        assert tuple(map(str, english.notes)) == (f"remise{NB}: la poule est doublée et reportée",)
        assert str(english.unit_sentence) == "La poule contenait 4 jetons, donc l'unité vaut 1."


@pytest.mark.parametrize("line", [LINE, "Ann deals: Bea solo in hearts, 10 tricks, 3 matadors, premiers, vole undertaken"])
def test_english_unchanged(line: str) -> None:
    before = summary_of(line)
    with translating(lambda message: message):
        assert summary_of(line) == before
