"""Counts in the singular for one, in English and in French (where 0 is singular too): the core's ``ngettext``
and ``Counted``, in what the command-line tools print and in the store's messages."""

from __future__ import annotations

import gettext
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from scorer.cli import main
from scorer.core import counters_text
from scorer.core.errors import Counted, Words
from scorer.core.i18n import N_, ngettext, translating

CATALOGUE = Path(__file__).resolve().parent.parent / "scorer" / "translations"
FRENCH = gettext.translation("messages", localedir=str(CATALOGUE), languages=["fr"])


# (the count, English, French): French counts 0 and 1 in the singular
EVENINGS = [(0, "0 evenings", "0 soirée"), (1, "1 evening", "1 soirée"), (2, "2 evenings", "2 soirées")]


@pytest.mark.parametrize(("n", "english", "in_french"), EVENINGS)
def test_ngettext_and_counted_choose_the_form_of_the_language(n: int, english: str, in_french: str) -> None:
    counted = Counted("{n} evening", "{n} evenings", n)
    assert ngettext("{n} evening", "{n} evenings", n).format(n=n) == str(counted) == english
    with translating(FRENCH.gettext):  # a catalogue installed by its gettext counts with its own ngettext
        assert ngettext("{n} evening", "{n} evenings", n).format(n=n) == str(counted) == in_french


def test_a_counted_value_in_kept_words_is_worded_when_read() -> None:
    said = Words(N_("the circle has tables for {tables} but its log started {started}: a line is missing"),
                 tables=Counted("{n} evening", "{n} evenings", 1), started=Counted("{n} evening", "{n} evenings", 0))
    assert str(said) == "the circle has tables for 1 evening but its log started 0 evenings: a line is missing"
    with translating(FRENCH.gettext):
        assert str(said) == "le cercle a des tables pour 1 soirée mais son journal a commencé 0 soirée\u00a0: une ligne manque"


@pytest.mark.parametrize(("counters", "english", "in_french"), [
    (0, "0 counters", "0 jeton"), (1, "1 counter", "1 jeton"), (11, "1 fish 1 counter", "1 fiche 1 jeton"),
    (100, "1 mil", "1 mil"), (1234, "12 mils 3 fish 4 counters", "12 mils 3 fiches 4 jetons"),
])
def test_counters_are_counted_in_each_language(counters: int, english: str, in_french: str) -> None:
    assert counters_text(counters) == english
    with translating(FRENCH.gettext, FRENCH.ngettext):
        assert counters_text(counters) == in_french


LOST_WITH_ONE = {"dealer": "Ann", "hombre": "Bea", "contract": "solo", "trumps": "hearts", "called": None, "ally": None,
                 "tricks": {"hombre": 1, "ally": None}, "matadors": 0, "premiers": False, "vole": "none"}


def test_scorer_settle_text_says_one_trick(tmp_path: Path) -> None:
    path = tmp_path / "evening.json"
    path.write_text(json.dumps({"format": "quadrille-evening/1", "players": ["Ann", "Bea", "Cat", "Dan"],
                                "deals": [LOST_WITH_ONE]}))
    result = CliRunner().invoke(main, ["settle", "--text", str(path)])
    assert result.exit_code == 0, result.output
    assert "Bea plays solo in hearts: codille, 1 trick. " in result.output and "1 tricks" not in result.output
