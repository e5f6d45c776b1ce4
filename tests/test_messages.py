"""Every message the app words, in English and in French.

Each message of the catalogue is filled with sample values in both languages: neither asks for a value the
code does not give (the French may elide "de" and "que" before one, ``{de_name}``), and the French is its own
wherever the catalogue translates it. Then the words the settlement keeps as messages (a transfer's ``what``, a
deal's notes), from every scenario of tests/helpers/examples, are worded in French: every message among them,
nested ones too, is in the catalogue and translated, and no English is left in what a French player reads.
"""

from __future__ import annotations

import gettext
import html
import io
import itertools
import re
import string
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.catalog import Message
from babel.messages.pofile import read_po
from flask import Flask
from helpers.deals import PLAYERS
from helpers.examples.scenarios import SCENARIOS
from helpers.examples.worked import EXAMPLES
from helpers.scenario import parse_deal, parse_scenario

from scorer.core import Evening, HouseRules, ScorerError, Settlement, TableState, Words, replay, settle, summarise
from scorer.core.i18n import ELIDED, Elisions, filled, translating
from scorer.core.systems.profiles import PROFILES

TRANSLATIONS = Path(__file__).resolve().parent.parent / "scorer" / "translations"
FRENCH = gettext.translation("messages", localedir=str(TRANSLATIONS), languages=["fr"])
PLURALS = b'msgid ""\nmsgstr "Plural-Forms: nplurals=2; plural=(n > 1);\\n"\n\n'  # the catalogue's two forms (scripts/i18n.py)
CATALOGUE = [m for m in read_po(io.BytesIO(PLURALS + (TRANSLATIONS / "fr/LC_MESSAGES/messages.po").read_bytes()), "fr") if m.id]
PERCENT = re.compile(r"%\((\w+)\)")
ENGLISH = re.compile(r"\b(the|pays|puts|takes|scores|loses|premium|lost|won|each|into|from|stays|game|half|pool|with|"
                     r"deal|chips|wait|next|odd|beasted|struck|for|trick|held|led|paid|three|shared|stake)\b")


def _names(text: str, kind: str) -> set[str]:
    """The values ``text`` asks for, a French "de"/"que" before one (``de_name``) counted as the value itself."""
    if kind == "python-format":
        found = set(PERCENT.findall(text))
    else:
        found = {field for _, field, _, _ in string.Formatter().parse(text) if field} if kind else set()
    return {name.partition("_")[2] if name.partition("_")[0] in ELIDED else name for name in found}


def _worded(text: str, values: dict[str, object], kind: str) -> str:
    if kind == "python-format":
        return text % Elisions(values)
    return filled(text, values) if kind else text


def _forms(message: Message) -> Iterator[tuple[str, str, int | None]]:
    """Each English form of ``message`` with its French, and the count it is for (None where it does not count)."""
    if isinstance(message.id, str):
        yield message.id, FRENCH.gettext(message.id), None
        return
    for n in (0, 1, 2):
        yield message.id[0] if n == 1 else message.id[1], FRENCH.ngettext(message.id[0], message.id[1], n), n


@pytest.mark.parametrize("message", CATALOGUE, ids=lambda m: str(m.id)[:60])
def test_every_message_is_worded_in_english_and_in_french(message: Message) -> None:
    kind = next((flag for flag in ("python-format", "python-brace-format") if flag in message.flags), "")
    for english_text, french_text, n in _forms(message):
        asked = _names(english_text, kind) | _names(french_text, kind)
        values: dict[str, object] = {name: 2 + i for i, name in enumerate(sorted(asked))}  # each its own figure
        if n is not None:
            values.update({"n": n, "num": n} if asked & {"n", "num"} else {})
        english, french = _worded(english_text, values, kind), _worded(french_text, values, kind)
        assert french and (french != english or french_text == english_text), (english, french)
    assert message.string and all(message.string), "no French for this message"


def _nested(words: object) -> Iterator[Words]:
    """``words`` and every message among its values, however deep."""
    if isinstance(words, Words):
        yield words
        for value in words.values.values():
            yield from _nested(value)


def _settlements() -> Iterator[tuple[HouseRules, Settlement]]:
    """Every deal of the scenarios, and every worked example under every profile that can play it."""
    for text in SCENARIOS.values():
        scenario = parse_scenario(text)
        evening = Evening(scenario.players, scenario.rules, tuple(d for d, _ in scenario.steps), scenario.deals_agreed)
        yield from ((evening.rules, settlement) for settlement in replay(evening).settlements)
    for profile, (_name, changes, pool, line, _expected) in itertools.product(PROFILES, EXAMPLES):
        try:
            rules = HouseRules.of(profile, changes)
            yield rules, settle(parse_deal(line), TableState(PLAYERS, (0,) * 4, pool=pool), rules)
        except ScorerError:
            continue  # a contract or a rule this profile does not have


def _shown(settlement: Settlement, rules: HouseRules) -> list[str]:
    """What a player reads of a settlement: each transfer, each note, and the summary's lines and notes."""
    summary = summarise(settlement, rules)
    return [*(t.sentence for t in settlement.transfers), *map(str, settlement.notes),
            *(str(g.sentence) for g in summary.groups), *map(str, summary.notes)]


def test_the_words_of_every_settlement_are_messages_of_the_catalogue_worded_in_french() -> None:
    known = {m.id for m in CATALOGUE if isinstance(m.id, str)}
    made = set()
    for rules, settlement in _settlements():
        for words in (w for said in (*(t.what for t in settlement.transfers), *settlement.notes) for w in _nested(said)):
            made.add(words.text)
            assert words.text in known, words.text
        english = _shown(settlement, rules)
        with translating(FRENCH.gettext, FRENCH.ngettext):
            french = _shown(settlement, rules)
        assert len(french) == len(english) and not any(ENGLISH.search(text) for text in french), (english, french)
    assert len(made) > 40, sorted(made)  # the examples meet most of what a settlement says


def test_a_summary_made_outside_any_translation_is_worded_in_french_on_a_french_page(app: Flask) -> None:
    """The summary keeps messages, not sentences: made with no translation installed (a cache, the command line),
    its headline, unit sentence, lines, rules and notes read in French where a French page shows them."""
    rules = HouseRules.of("quadrille", {})
    settlement = settle(parse_deal("Ann deals: Bea solo in hearts, 5 tricks, 3 matadors"), TableState.start(PLAYERS), rules)
    summary = summarise(settlement, rules)
    page = app.jinja_env.from_string('{% from "table/_summary.html" import payments %}<h1>{{ summary.headline }}</h1>'
                                     '{{ payments(summary) }}')
    with app.test_request_context("/", headers={"Cookie": "lang=fr"}):
        app.preprocess_request()
        french = html.unescape(re.sub(r"<[^>]+>", " ", page.render(summary=summary)))
        app.do_teardown_request()
    with app.test_request_context("/"):
        app.preprocess_request()
        english = html.unescape(re.sub(r"<[^>]+>", " ", page.render(summary=summary)))
        app.do_teardown_request()
    nb = "\u00a0"
    for said in (f" de Bea à cœur{nb}: remise", "La poule contenait 4 jetons, donc l'unité vaut 1.",
                 f"Bea met 4 dans la poule{nb}: remise, la poule doublée", f"remise{nb}: la poule est doublée et reportée",
                 "Qui paie qui"):
        assert said in french, (said, french)
    assert not ENGLISH.search(french.replace("Bea", "")), french
    assert "Bea's solo in hearts: remise" in english and "The pool held 4 chips, so a unit is 1." in english
