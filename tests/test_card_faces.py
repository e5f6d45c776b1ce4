"""Every page shows a card as rank and suit sign (issue 25: the audit page read "2C" where the play page showed
"2♣"): one formatter, the core's ``Card.face``, with the court cards' letters in the reader's language (R, D, V
in French, as the deal form's called King and Queen were already); files, the command line and a pasted play
keep the codes ("2C")."""

from __future__ import annotations

import gettext
from pathlib import Path

import pytest

from scorer.core import Card
from scorer.core.i18n import translating
from scorer.core.model import translate_kept

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


@pytest.mark.parametrize("kept, english, french_words", [
    ("beasted for a renounce in trick 3: 6S to AC led, holding 6H",
     "beasted for a renounce in trick 3: 6♠ to A♣ led, holding 6♥",
     "fait la bête pour une renonce à la levée 3\u00a0: 6♠ sur A♣ entamé, en tenant 6♥"),
    ("struck off for a renounce in trick 8: QD to KS led, holding JS",
     "struck off for a renounce in trick 8: Q♦ to K♠ led, holding J♠",
     "rayé pour une renonce à la levée 8\u00a0: D♦ sur R♠ entamé, en tenant V♠"),
])
def test_a_renounce_kept_in_a_settlement_shows_its_cards_faces(kept: str, english: str, french_words: str) -> None:
    """A transfer keeps its words in English with the cards' codes (the JSON and the command line show them so);
    a page shows the faces."""
    assert translate_kept(kept) == english
    with translating(french().gettext):
        assert translate_kept(kept) == french_words
