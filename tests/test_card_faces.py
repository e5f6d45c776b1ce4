"""Every page shows a card as rank and suit sign (issue 25: the audit page read "2C" where the play page showed
"2♣"): one formatter, the core's ``Card.face``, with the court cards' letters in the reader's language (R, D, V
in French, as the deal form's called King and Queen were already); files, the command line and a pasted play
keep the codes ("2C")."""

from __future__ import annotations

import gettext
from pathlib import Path

import pytest

from scorer.core import Card
from scorer.core.errors import Words
from scorer.core.i18n import N_, translating
from scorer.core.game.play import Renounce, renounce_said

CATALOGUE = Path(__file__).parent.parent / "scorer" / "translations"


def french() -> gettext.GNUTranslations:
    return gettext.translation("messages", localedir=str(CATALOGUE), languages=["fr"])


@pytest.mark.parametrize("code, english, french_face", [
    ("2C", "2♣", "2♣"),
    ("7H", "7♥", "7♥"),
    ("AS", "A♠", "A♠"),
    ("AD", "A♦", "A♦"),
    ("KS", "K♠", "R♠"),
    ("QH", "Q♥", "D♥"),
    ("JC", "J♣", "V♣"),
])
def test_a_card_shows_its_rank_and_suit_sign(code: str, english: str, french_face: str) -> None:
    card = Card.parse(code)
    assert card.face == english and card.code == code and str(card) == code
    with translating(french().gettext):
        assert card.face == french_face


@pytest.mark.parametrize("template, renounce, english, french_words", [
    (N_("beasted for {renounce}"), Renounce(3, "Dan", Card.parse("AC"), Card.parse("6S"), Card.parse("6H")),
     "beasted for a renounce in trick 3: 6♠ to A♣ led, holding 6♥",
     "fait la bête pour une renonce à la levée 3\u00a0: 6♠ sur A♣ entamé, en tenant 6♥"),
    (N_("struck off for {renounce}"), Renounce(8, "Cat", Card.parse("KS"), Card.parse("QD"), Card.parse("JS")),
     "struck off for a renounce in trick 8: Q♦ to K♠ led, holding J♠",
     "rayé pour une renonce à la levée 8\u00a0: D♦ sur R♠ entamé, en tenant V♠"),
])
def test_a_renounce_in_a_settlement_shows_its_cards_faces(template: str, renounce: Renounce, english: str,
                                                          french_words: str) -> None:
    """A transfer's words keep the cards themselves and show their faces, in either language."""
    said = Words(template, renounce=renounce_said(renounce))
    assert str(said) == english
    with translating(french().gettext):
        assert str(said) == french_words
