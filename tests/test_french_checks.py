"""The core's refusals and the play referee in French (issue 15, point 4), and never a French sentence
kept where an English reader reads it.

Messages are kept as :class:`~scorer.core.errors.Words` (English text and values) and worded when read:
the same error, or the same damaged ledger (kept in the cache every reader shares), reads in French to a
French reader and in English to an English one, whichever language was current when it was made.
"""

from __future__ import annotations

import gettext
import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from scorer.core import Card, Contract, Deal, Evening, HouseRules, ImpossibleDeal, Suit, TableState, Vole, check_deal
from scorer.core.errors import DealError, EveningFormatError, Words
from scorer.core.ledger.evening_json import loads
from scorer.core.i18n import translating
from scorer.core.ledger.log import Line, LineKind, Record, Refused, decide_and_advance, fold
from scorer.core.names import check_players, listed_words
from scorer.core.game.play import PlayError, parse_tricks, renounce_said, why_not
from scorer.core.ledger.table_checks import referee

CATALOGUE = Path(__file__).resolve().parent.parent / "scorer" / "translations"
PLAYERS = ("Ann", "Bea", "Cat", "Dan")
NB = "\u00a0"


@pytest.fixture(scope="module")
def fr() -> Callable[[str], str]:
    return gettext.translation("messages", localedir=str(CATALOGUE), languages=["fr"]).gettext


def refusal(deal: Deal, state: TableState | None = None, rules: HouseRules | None = None) -> ImpossibleDeal:
    with pytest.raises(ImpossibleDeal) as refused:
        check_deal(deal, state or TableState.start(PLAYERS), rules or HouseRules.of())
    return refused.value


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in text.split())


def test_a_refusal_reads_in_the_readers_language(fr: Callable[[str], str]) -> None:
    error = refusal(Deal("Ann", "Bea", Contract.ALLIANCE, Suit.HEARTS, called=Card.parse("KH"), ally="Cat",
                         hombre_tricks=3, ally_tricks=3))
    english = "the King of hearts is a trump: Hombre may not call a card of the trump suit"
    assert error.message == english and str(error) == english
    with translating(fr):
        assert error.message == f"le Roi de cœur est un atout{NB}: l'Hombre ne peut pas appeler une carte de la couleur d'atout"
    assert error.message == english  # worded again when read: the English reader never sees the French


def test_refusals_made_in_french_read_in_english_outside(fr: Callable[[str], str]) -> None:
    with translating(fr):
        error = refusal(Deal("Ann", "Zed", Contract.SOLO, Suit.HEARTS, hombre_tricks=6))
        assert error.message == f"«{NB}Zed{NB}» ne fait pas partie des joueurs de cette table (Ann, Bea, Cat, Dan)"
        ally = refusal(Deal("Ann", "Bea", Contract.ALLIANCE, Suit.HEARTS, called=Card.parse("KS"), hombre_tricks=3,
                            ally_tricks=3))
        assert ally.message == f"qui avait le Roi de pique{NB}? Un coup «{NB}appel{NB}» demande l'allié"
        tricks = refusal(Deal("Ann", "Bea", Contract.SOLO, Suit.HEARTS, hombre_tricks=11))
        assert tricks.message == f"l'Hombre ne peut pas faire 11 levées{NB}: un coup en a de 0 à 10"
    assert error.message == "'Zed' is not one of the players at this table (Ann, Bea, Cat, Dan)"
    assert ally.message == "who held the King of spades? An alliance needs the ally"
    assert tricks.field == "tricks"


def test_a_deal_error_names_the_deal_in_french(fr: Callable[[str], str]) -> None:
    cause = refusal(Deal("Ann", "Bea", Contract.SOLO, None, hombre_tricks=6))
    error = DealError(3, cause)
    assert error.message == "deal 3: which suit was trumps?"
    with translating(fr):
        assert error.message == f"coup 3{NB}: quelle couleur était l'atout{NB}?"


def test_names_refused_in_french(fr: Callable[[str], str]) -> None:
    with pytest.raises(ImpossibleDeal) as same:
        check_players(("Ann", "ann", "Cat", "Dan"))
    with pytest.raises(ImpossibleDeal) as three:
        check_players(("Ann", "Bea", "Cat"))
    with translating(fr):
        assert same.value.message == f"deux joueurs ont le même nom{NB}: 'Ann' et 'ann'{NB}; donnez à chacun un nom différent"
        assert three.value.message == f"le quadrille se joue à quatre{NB}; 3 joueurs ont été donnés"
        assert str(listed_words(("Ann", "Bea", "Cat"))) == "Ann, Bea et Cat"
        assert str(listed_words(())) == "personne"
    assert three.value.message == "Quadrille is played by four; 3 players were given"
    assert str(listed_words(("Ann", "Bea", "Cat"))) == "Ann, Bea and Cat"


def fixed_solo() -> list[list[str]]:
    return [list(p) for p in (
        ("AS", "2H", "3H", "5H"), ("7H", "KH", "4H", "6H"), ("AC", "QS", "6S", "4S"), ("AH", "JS", "5S", "3S"),
        ("KS", "7S", "QD", "2S"), ("KC", "QC", "6C", "4C"), ("QH", "JC", "JD", "3C"), ("JH", "7C", "AD", "2C"),
        ("KD", "3D", "5D", "6D"), ("2D", "4D", "5C", "7D"))]


def test_what_the_play_proves_in_french(fr: Callable[[str], str]) -> None:
    proven = Deal("Ann", "Bea", Contract.SOLO, Suit.HEARTS, hombre_tricks=10, premiers=True, vole=Vole.UNDERTAKEN,
                  matadors=4, play=parse_tricks(fixed_solo()))
    matadors = refusal(replace(proven, matadors=3))
    tricks = refusal(replace(proven, hombre_tricks=9))
    assert matadors.message == "the play proves matadors: 4, but the deal says 3"
    with translating(fr):
        assert matadors.message == f"le jeu prouve les matadors{NB}: 4, mais le coup dit{NB}: 3"
        assert tricks.message.startswith(f"le jeu prouve les levées{NB}: l'Hombre 10, mais le coup dit{NB}: l'Hombre 9")


def test_the_referee_and_the_play_records_in_french(fr: Callable[[str], str]) -> None:
    with translating(fr):
        assert why_not(cards("KS 3S 4D"), cards("7S"), Suit.HEARTS, Card.parse("4D")) == "doit fournir à pique"
        assert why_not(cards("AC KS"), cards("7H"), Suit.HEARTS, Card.parse("KS")) == (
            f"doit jouer un atout{NB}: 7♥ entamé force un matador inférieur")
        with pytest.raises(PlayError) as twice:
            parse_tricks([fixed_solo()[0]] * 2 + fixed_solo()[2:])
        assert twice.value.message == "levée 2\u00a0: A♠ a déjà été joué à la levée 1"
    assert why_not(cards("KS 3S 4D"), cards("7S"), Suit.HEARTS, Card.parse("4D")) == "must follow spades"
    assert twice.value.message == "trick 2: A♠ was played already in trick 1"
    tricks = [list(t) for t in fixed_solo()]
    tricks[1][2], tricks[2][2] = tricks[2][2], tricks[1][2]  # Dan plays 6S to Manille led, keeping his 4H
    deal = Deal("Ann", "Bea", Contract.SOLO, Suit.HEARTS, hombre_tricks=10)
    renounce = referee(deal, PLAYERS, parse_tricks(tricks), HouseRules.of()).renounces[0]
    assert str(renounce_said(renounce)) == "a renounce in trick 2: 6♠ to 7♥ led, holding 4♥"
    with translating(fr):
        assert str(renounce_said(renounce)) == f"une renonce à la levée 2{NB}: 6♠ sur 7♥ entamé, en tenant 4♥"


def test_an_evening_file_refused_in_french(fr: Callable[[str], str]) -> None:
    text = json.dumps({"format": "quadrille-evening/1", "players": list(PLAYERS),
                       "deals": [{"dealer": "Ann", "hombre": "Bea", "contract": "solo", "trumps": "hearts",
                                  "tricks": {"hombre": 6}, "premiers": "yes"}]})
    with pytest.raises(EveningFormatError) as refused:
        loads(text)
    assert refused.value.message == "deal 1: 'premiers' must be true or false, not 'yes'"
    with translating(fr):
        assert refused.value.message == f"coup 1{NB}: 'premiers' doit être true ou false, pas 'yes'"


def test_a_damaged_ledger_folded_for_a_french_reader_reads_in_english_to_an_english_one(fr: Callable[[str], str]) -> None:
    evening = Evening(PLAYERS, HouseRules.of(), ())
    bad = Deal("Ann", "Bea", Contract.SOLO, Suit.HEARTS, hombre_tricks=11)
    with translating(fr):  # a French reader's request folds the log first: the ledger cache keeps what it made
        ledger = fold(evening, [Line(1, LineKind.RECORD, 1, bad)])
        assert ledger.damage is not None
        assert ledger.damage.message == (
            f"ligne 1 (coup 1){NB}: le coup ne peut pas être réglé{NB}: l'Hombre ne peut pas faire 11 levées{NB}: "
            "un coup en a de 0 à 10")
    assert ledger.damage.why == "the deal cannot be settled: Hombre cannot take 11 tricks: a deal has 0 to 10"
    assert ledger.damage.message == f"line 1 (deal 1): {ledger.damage.why}"
    assert isinstance(ledger.damage.said, Words)
    with translating(fr):
        with pytest.raises(Refused) as refused:
            decide_and_advance(Record(2, bad), ledger)
    assert refused.value.message.startswith("This table's log is damaged at line 1 (deal 1): the deal cannot be settled")
    with translating(fr):
        assert refused.value.message.startswith("Le journal de cette table est endommagé à la ligne 1 (coup 1)")


def test_a_refused_command_in_french(fr: Callable[[str], str]) -> None:
    ledger = fold(Evening(PLAYERS, HouseRules.of(), (), 4), [])
    deal = Deal("Ann", "Bea", Contract.SOLO, Suit.HEARTS, hombre_tricks=6)
    ledger = fold(ledger.evening, [decide_and_advance(Record(1, deal, "Ann"), ledger)[0]])
    with pytest.raises(Refused) as taken:
        decide_and_advance(Record(1, deal), ledger)
    with pytest.raises(Refused) as who:
        decide_and_advance(Record(2, deal, "Zed"), ledger)
    assert taken.value.message == "Deal 1 was just recorded by Ann on another phone."
    assert who.value.message == "'Zed' is not one of the players at this table."
    with translating(fr):
        assert taken.value.message == "Le coup 1 vient d'être enregistré par Ann sur un autre téléphone."
        assert who.value.message == f"«{NB}Zed{NB}» ne fait pas partie des joueurs de cette table."
