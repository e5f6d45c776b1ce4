"""The sources' last points as a phone reads them (issue 30, point 11), in English and in French at 390×844: a vole
bid and lost in PG's point score says on its deal's page that it is scored as a remise, the app's reading, and
counts the next game double; the rules page says so under the house rule, and names who pays the odd chip of a
shared beast as the app's reading, and a value's tags say where the app reads PG.

Screenshots are saved under test-artifacts/browser-sources/ (SCORER_ARTIFACTS moves it)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from helpers.browser import ARTIFACTS as BROWSER_ARTIFACTS
from helpers.browser import Phone, fresh, import_table
from helpers.scenario import parse_deal

from scorer.core import Evening, HouseRules

pytestmark = pytest.mark.browser

ARTIFACTS = BROWSER_ARTIFACTS.parent / "browser-sources"
PLAYERS = ("Ann", "Bea", "Cat", "Dan")
DEALS = ["Ann deals: Bea solo in hearts, 5 tricks", "Bea deals: Cat vole in hearts, 8 tricks, premiers",
         "Cat deals: Dan solo in hearts, 6 tricks"]


@pytest.fixture(scope="module")
def browser(chromium: Any) -> Any:
    fresh(ARTIFACTS)
    return chromium


class SourcesPhone(Phone):
    artifacts = ARTIFACTS


class FrenchPhone(SourcesPhone):
    options = {"locale": "fr-FR"}


def _deals() -> list[dict[str, Any]]:
    from scorer.core import dumps

    evening = Evening(PLAYERS, HouseRules.of("penguin_points"), tuple(parse_deal(line) for line in DEALS), 4)
    return list(json.loads(dumps(evening))["deals"])


# What each page says, in each language: the vole bid's deal, and the two help texts.
SAYS = {
    "en": {"deal": ["scored as a remise (the app's reading)", "×2"],
           "vole": ["a vole bid and lost with six tricks or more scores PG's remise row",
                    "Having won the game and premiers"],
           "beast": ["Who pays the odd chip of a shared beast no source says: Hombre (the app's reading)."],
           "tag": ["premiers and vole as in an alliance (PG (its point table; in chips the app's reading))"]},
    "fr": {"deal": ["marquée comme une remise (lecture de l'application)", "×2"],
           "vole": ["une vole annoncée et perdue avec six levées ou plus marque la ligne de la remise de PG",
                    "après avoir gagné le jeu et les premières"],
           "beast": ["Qui paie le jeton impair d'une bête partagée, aucune source ne le dit\u00a0: l'Hombre "
                     "(lecture de l'application)."],
           "tag": ["(PG (sa table de points\u00a0; en jetons lecture de l'application))"]},
}


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_vole_bid_lost_and_the_odd_chip_say_the_apps_reading(server: str, browser: Any, axe: Any,
                                                               language: str) -> None:
    phone = (FrenchPhone if language == "fr" else SourcesPhone)(browser, axe, language)
    try:
        token = import_table(phone, server, "penguin_points", _deals(), list(PLAYERS))
        phone.go(f"{server}/t/{token}/audit/2")
        phone.check("vole-bid-lost")
        text = phone.page.locator("main").inner_text()
        for phrase in SAYS[language]["deal"]:
            assert phrase in text, phrase
        phone.go(f"{server}/rules")
        phone.check("rules")
        for anchor, key in (("announced_vole_short", "vole"), ("alliance_loss", "beast"),
                            ("forced_spadille_bonuses", "tag")):
            section = phone.page.locator(f"[id='{anchor}']")
            section.screenshot(path=str(ARTIFACTS / f"{language}-rule-{anchor}.png"), scale="css")
            rule = " ".join(section.inner_text().split())
            for phrase in SAYS[language][key]:
                assert " ".join(phrase.split()) in rule, phrase
        assert not phone.problems, "\n".join(phone.problems)
    finally:
        phone.context.close()
