"""The house rules, the profiles and the words of a settlement in French (issue 15), and in English unchanged.

The core's texts are made in English when the modules are imported (rules, profiles, contract names), or kept
as messages with their values when a deal is settled (a transfer's ``what``, a deal's notes, kept in the ledger
cache for every reader): they are worded only where they are read, inside :func:`scorer.core.i18n.translating`.
Needs the compiled catalogue (``python scripts/i18n.py update``).
"""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import pytest
from helpers.deals import PLAYERS
from helpers.examples.worked import EXAMPLES
from helpers.scenario import parse_deal

from scorer.core import HouseRules, Pot, Reason, TableState, counters_text, settle
from scorer.core.i18n import translating
from scorer.core.errors import Words
from scorer.core.i18n import N_
from scorer.core.model import Contract, Result, Transfer
from scorer.core.systems.profiles import PROFILES
from scorer.core.rules import HOUSE_RULES, house_rule
from scorer.core.words.rules_doc import rules_text
from scorer.core.systems.counters import COUNTERS
from scorer.core.systems.points import POINT_SCORE

TRANSLATIONS = Path(__file__).resolve().parent.parent / "scorer" / "translations"
FR = gettext.translation("messages", localedir=str(TRANSLATIONS), languages=["fr"]).gettext
NBSP = "\u00a0"

# The transfers whose words the book (scorer/core/systems/book.py) makes: their own translations are checked with it.
BOOK = {Reason.ANTE, Reason.POOL_SWEPT, Reason.POOL_SHARED, Reason.CODILLE_SHARE, Reason.REMISE_BEAST,
        Reason.CODILLE_BEAST, Reason.MEDIATEUR_KING, Reason.ODD_CHIPS_SET_ASIDE, Reason.ODD_CHIPS_TO_SPADILLE,
        Reason.RENOUNCE_BEAST, Reason.BEAST_WAITS, Reason.BEAST_JOINS_POOL, Reason.POOL_CARRIED_IN}


def shown(transfer: Transfer) -> str:
    """The transfer's sentence, without the book's words after the dash."""
    return transfer.sentence.split(" — ")[0] if transfer.reason in BOOK else transfer.sentence


# English words that would betray a text left untranslated in a French sentence.
ENGLISH = re.compile(r"\b(the|pays|puts|takes|scores|loses|premium|lost|won|each|into|from|stays|game|half|pool|with)\b")


def french(text: str) -> str:
    return text.replace(NBSP, " ")


def test_rule_titles_help_and_choices_in_french() -> None:
    rule = house_rule("solo_premium")
    with translating(FR):
        assert rule.title == "Prime du sans-prendre"
        assert french(rule.help).startswith("Ce que chaque défenseur paie à l'Hombre pour un sans-prendre gagné")
        assert "« pour le sans-prendre » (trad.)" in french(rule.help)
        assert [c.label for c in rule.choices] == ["4 unités", "2 unités", "pas de prime"]
        assert [c.sources for c in rule.choices] == ["P", "P (Médiateur), Quanti", "PG"]  # source tags unchanged
        assert [c.sources_text for c in rule.choices] == ["P", "P (médiateur), Quanti", "PG"]
        assert house_rule("unit").choices[1].sources_text == "sans source"
        assert house_rule("paulans").title == "Les derniers coups joués double (paulans)"
        assert french(house_rule("pool_at_end").help) == (
            "Aucune source ne le dit. La table peut partager la poule également (les jetons de reste restent pour "
            "la soirée suivante) ou la reporter entière à la soirée suivante.")
        for each in HOUSE_RULES:
            assert each.title != each.english_title or each.name == "remise_beast", each.name
            assert each.help != each.english_help and "\n" not in each.help, each.name
            assert "  " not in each.help, each.name  # on one line
        assert NBSP + ":" in rule.help and "«" + NBSP in rule.help  # French spacing kept
    assert rule.title == "Premium for a solo"
    assert rule.help.startswith("What each opponent pays Hombre for a won solo")
    assert rule.choices[0].label == "4 units" and rule.name == "solo_premium" and rule.values[0] == "four_units"
    assert rule.choices[1].sources_text == "P (Médiateur), Quanti" and house_rule("unit").choices[1].sources_text == "no source"


def test_every_english_quotation_is_marked_as_translated() -> None:
    with translating(FR):
        for rule in HOUSE_RULES:
            quotations = rule.english_help.count('"') // 2
            if quotations:
                assert french(rule.help).count("(trad.)") >= 1, rule.name
            for tag in re.findall(r"\b(?:P|W|EB|PG|FR|H47)\b", rule.english_help):
                assert re.search(rf"\b{tag}\b", rule.help), (rule.name, tag)


def test_profiles_in_french() -> None:
    with translating(FR):
        assert PROFILES["quadrille"].title == "Quadrille, compte en jetons (P)"
        assert PROFILES["britannica"].title == "Les jetons de la Britannica (EB)"
        assert french(PROFILES["penguin_points"].description).startswith("Pas de jetons : chaque jeu marque des points")
    assert PROFILES["quadrille"].title == "Quadrille, hard score (P)"
    assert PROFILES["quadrille"].name == "quadrille"


def test_labels_in_french() -> None:
    with translating(FR):
        assert Contract.SOLO.label == "sans-prendre" and Contract.FORCED_SPADILLE.label == "spadille forcée"
        assert Contract.ALLIANCE.label == "appel" and Contract.VOLE.label == "vole annoncée"
        assert Result.VOLE_WON.label == "vole gagnée" and Result.WON.label == "gagné"
        assert Pot.VOLE_POOL.label == "la poule de la vole"
        assert str(Contract.SOLO.words) == "sans-prendre" and Contract.SOLO.value == "solo"
    assert Contract.VOLE.label == "vole announced" and Result.VOLE_LOST.label == "vole lost"


def test_sentences_in_french_and_english() -> None:
    paid = Transfer("Cat", "Bea", 4, Reason.GAME_PREMIUM, Words(N_("{label} premium"), label=Contract.SOLO.words))
    swept = Transfer(Pot.POOL, "Bea", 4, Reason.POOL_SWEPT, Words(N_("the game won, Hombre sweeps the pool")))
    lost = Transfer("Bea", "Cat", 1, Reason.MATADORS, Words(N_("{label}, the game lost"), label=Words(N_("{n} matadors"), n=3)))
    with translating(FR):
        assert paid.sentence == "Cat paie 4 à Bea — prime (sans-prendre)"
        assert french(lost.sentence) == "Bea paie 1 à Cat — 3 matadors, le jeu perdu"
        assert swept.sentence.startswith("Bea prend 4 dans la poule — ")
    assert paid.sentence == "Cat pays Bea 4 — solo premium"
    assert swept.sentence == "Bea takes 4 from the pool — the game won, Hombre sweeps the pool"
    assert lost.sentence == "Bea pays Cat 1 — 3 matadors, the game lost"


def test_a_settlement_keeps_english_and_shows_french() -> None:
    """Settling inside a French request keeps the words in English (the ledger cache is shared by every reader)."""
    deal = parse_deal("Ann deals: Bea solo in hearts, 4 tricks")
    english = settle(deal, TableState.start(PLAYERS), HouseRules.of())
    with translating(FR):
        settled = settle(deal, TableState.start(PLAYERS), HouseRules.of())
        assert settled == english
        assert [french(str(n)) for n in settled.notes] == [
            "la poule de 4 ne se partage pas entre 3 : elle reste pour le coup suivant (P)",
            "rien n'a été pris : l'Hombre fait la bête du double de l'enjeu, 8 (PG)"]
    assert [str(n) for n in settled.notes] == [
        "the pool of 4 does not divide among 3: it stays for the next deal (P)",
        "nothing was taken: Hombre puts up double the stake, 8 (PG)"]


@pytest.mark.parametrize(("name", "changes", "pool_before", "deal_line", "expected_line"), EXAMPLES)
def test_no_english_left_in_the_sentences(name: str, changes: dict[str, str], pool_before: int, deal_line: str,
                                          expected_line: str) -> None:
    rules = HouseRules.of("quadrille", changes)
    state = TableState(players=PLAYERS, balances=(0, 0, 0, 0), pool=pool_before)
    settlement = settle(parse_deal(deal_line), state, rules)
    with translating(FR):
        for text in [shown(t) for t in settlement.transfers]:
            assert not ENGLISH.search(text), text


@pytest.mark.parametrize("profile", ["penguin_points", "britannica", "mediateur", "penguin_chips"])
def test_other_systems_in_french(profile: str) -> None:
    rules = HouseRules.of(profile)
    state = TableState.start(PLAYERS)
    for line in ("Ann deals: Bea solo in hearts, 6 tricks, premiers",
                 "Bea deals: Cat alliance in clubs calling KH held by Ann, 2 + 3 tricks",
                 "Cat deals: Dan solo in spades, 3 tricks"):
        settlement = settle(parse_deal(line), state, rules)
        state = settlement.after
        with translating(FR):
            for text in [shown(t) for t in settlement.transfers]:
                assert not ENGLISH.search(text), text
    system = rules.profile.system
    with translating(FR):
        assert system.column_title in ("Poule", "×")
        assert all(not ENGLISH.search(str(label)) for label, _ in system.standing(state, rules, "Ann"))
        assert not ENGLISH.search(system.summary(settlement))


def test_points_and_counters_words() -> None:
    rules = HouseRules.of("penguin_points", {"multiplier_scope": "per_player"})
    lost = settle(parse_deal("Ann deals: Bea solo in hearts, 4 tricks"), TableState.start(PLAYERS), rules)
    won = settle(parse_deal("Bea deals: Bea solo in hearts, 6 tricks, premiers"), lost.after, rules)
    with translating(FR):
        assert french(won.transfers[0].sentence) == "Bea marque 40 — sans-prendre, gagné avec les premières (×2 après 1 jeu perdu)"
        assert [str(n) for n in lost.notes] == ["le prochain jeu compte ×2 pour Bea"]
        assert counters_text(1234) == "12 mils 3 fiches 4 jetons"
        assert POINT_SCORE.settle_up_note.startswith("Un compte en points se règle par différences")
        assert COUNTERS.units_text == "jetons" and COUNTERS.units == "counters"
    assert won.transfers[0].sentence == "Bea scores 40 — solo won with premiers (×2 after 1 lost game)"
    assert counters_text(1234) == "12 mils 3 fish 4 counters"
    assert POINT_SCORE.column_help == "the last column is what that game counted"


def test_the_rules_document_stays_english_outside_a_request() -> None:
    assert "Premium for a solo" in rules_text()
