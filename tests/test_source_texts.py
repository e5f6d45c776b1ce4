"""The texts a reader sees say only what their sources say (issue 24, point 4).

- Every quotation a help text or a profile's description attributes to P, Quanti, W, EB or PG is the source's
  own words: it is found in the source's text. The texts are not part of the project; they are read from
  ``../shared/seeds/`` beside it (or ``$SCORER_SEEDS``) where that copy is at hand, and the test is skipped where
  it is not.
- FR and H47 are known at second hand: no text quotes them, and a text that cites them says so.
- Every tag the app prints (beside a value, in a help text, on a transfer or a deal's note) is named on the rules
  page, in English and in French, in ``docs/RULES.md`` and in ``scorer rules``, with what the source is.
- No text a reader sees (the README and docs/*.md among them) points to a file the project does not have (the
  notes the rules were drawn from, their numbered points, the copy of the sources).
"""

from __future__ import annotations

import html
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from helpers.deals import PLAYERS
from helpers.docs import documents
from helpers.examples.britannica import COUNTER_EXAMPLES, EB_FIGURES
from helpers.examples.mediateur import MEDIATEUR_RULES, QUANTI
from helpers.examples.penguin_points import POINT_TABLE
from helpers.examples.worked import EXAMPLES, PENGUIN_CHIPS
from helpers.scenario import parse_deal

from scorer.core import SOURCES, HouseRules, Settlement, TableState, rules_markdown, rules_text, settle
from scorer.core.systems.profiles import PROFILES
from scorer.core.rules import HOUSE_RULES

ROOT = Path(__file__).resolve().parent.parent
SEEDS = next((path for path in ([Path(os.environ["SCORER_SEEDS"])] if os.environ.get("SCORER_SEEDS") else [])
              + [ROOT.parent / "shared" / "seeds", ROOT.parent.parent / "shared" / "seeds"] if path.is_dir()),
             ROOT.parent / "shared" / "seeds")
"""The copy of the sources: the folder $SCORER_SEEDS names, else ``shared/seeds`` beside the project (or beside
the folder that holds it, for a git worktree)."""
SEED_OF = {"P": "000_8d2e6532d07fd1c0.txt", "Quanti": "000_8d2e6532d07fd1c0.txt", "W": "001_1992f3300f7a2ed2.txt",
           "EB": "002_fdc0edbf0b3042e1.txt", "PG": "004_0c8a2947b74cd26c.txt"}
"""The copy of each source quoted: Quanti's words are quoted as P gives them."""
SECOND_HAND = {"FR", "H47"}
"""Sources known only from a summary of what they rule: never quoted."""

TAG_LIKE = re.compile(r"\b(?!A\b|I\b)[A-Z][A-Z0-9]*\b|\bQuanti\b")
"""A source's tag, or anything written like one (capitals and figures), but the English words "A" and "I"."""

TEXTS = [(f"help of {rule.name}", rule.english_help) for rule in HOUSE_RULES] + [
    (f"profile {p.name}", f"{p.english_title}. {p.english_description}") for p in PROFILES.values()]
"""Every text that cites sources in its own words: the rules' help texts and the profiles' titles and descriptions."""


def quotations(text: str) -> Iterator[tuple[str | None, str]]:
    """Each double-quoted phrase of ``text`` with the tag it is attributed to: the last tag written before it,
    leaving out the tags of a parenthesis closed before it ("EB has the rule (H47 is said to have it too) and
    halves the beast: "..."" quotes EB)."""
    for match in re.finditer(r'"([^"]*)"', text):
        before = text[:match.start()]
        while (closed := re.sub(r"\([^()]*\)", "", before)) != before:
            before = closed
        tags = TAG_LIKE.findall(before)
        yield (tags[-1] if tags else None), match.group(1)


def comparable(text: str) -> str:
    """Text as the quotations and the copies of the sources are compared: quotation marks, apostrophes and dashes
    of one kind (a quotation inside a quotation takes single marks), no spaces or line breaks, and the doubled
    letters of the copy of PG, whose ligatures (ff, ll, tt) lost their second letter ("cal ed" for "called"),
    read single."""
    text = re.sub(r"[‘’“”']", '"', text)
    text = re.sub(r"[–—]", "-", text)
    text = re.sub(r"\s+", "", text)
    return text.replace("ff", "f").replace("ll", "l").replace("tt", "t")


@pytest.fixture(scope="module")
def seeds() -> dict[str, str]:
    if not SEEDS.is_dir():
        pytest.skip("the sources' text is not part of the project: no copy at ../shared/seeds")
    return {tag: comparable((SEEDS / name).read_text(encoding="utf-8")) for tag, name in SEED_OF.items()}


@pytest.mark.parametrize("name, text", TEXTS, ids=[name for name, _ in TEXTS])
def test_every_quotation_is_the_sources_own_words(name: str, text: str, seeds: dict[str, str]) -> None:
    """Each quotation is found in the source it is attributed to, word for word (an ellipsis marks words left
    out: each part is found)."""
    for tag, quoted in quotations(text):
        if tag in SECOND_HAND:
            continue  # refused by the next test
        assert tag in seeds, f"{name}: {quoted!r} is attributed to no source whose text is quoted"
        for part in (p.strip() for p in quoted.split("...")):
            assert comparable(part) in seeds[tag], f"{name}: {tag} does not say {part!r}"


@pytest.mark.parametrize("name, text", TEXTS, ids=[name for name, _ in TEXTS])
def test_a_source_known_at_second_hand_is_never_quoted_and_said_to_be(name: str, text: str) -> None:
    """FR and H47 are cited for what they are said to rule, in the text's own words, and the text says how the
    app knows them."""
    for tag, quoted in quotations(text):
        assert tag not in SECOND_HAND, f"{name} quotes {tag}, whose text the app does not have: {quoted!r}"
    if SECOND_HAND & set(TAG_LIKE.findall(text)):
        assert "known here at second hand" in text, name


def test_the_quotations_are_read_right() -> None:
    """The reading of a text's quotations, on the cases the help texts have."""
    text = ('P: "one"; PG likewise: "two". EB has the rule (H47, known here at second hand, is said to agree) '
            'and halves it: "three"; W pays them "If four"; Quanti\'s "f" column (the app\'s reading of P: "five")')
    assert list(quotations(text)) == [("P", "one"), ("PG", "two"), ("EB", "three"), ("W", "If four"),
                                      ("Quanti", "f"), ("P", "five")]
    assert comparable("Hombre\n  doubles the stake – which") == comparable("Hombre doubles the stake - which")
    assert comparable("the player who called a partner") in comparable("the player\nwho cal ed a partner")


# --- every tag the app prints is named where the rules are --------------------------------------------------------

def _settlements() -> Iterator[Settlement]:
    """Settlements of every worked example of every profile: what their transfers and notes cite."""
    start = TableState.start(PLAYERS)
    for _, changes, pool, line, _ in EXAMPLES:
        yield settle(parse_deal(line), TableState(players=PLAYERS, balances=(0, 0, 0, 0), pool=pool),
                     HouseRules.of("quadrille", changes))
    for profile, rows in (("penguin_chips", [({}, line) for _, line, _ in PENGUIN_CHIPS]),
                          ("mediateur", [({}, line) for _, _, line, *_ in QUANTI]
                           + [(changes, line) for _, changes, line, _ in MEDIATEUR_RULES]),
                          ("penguin_points", [({}, line) for _, line, _ in POINT_TABLE]),
                          ("britannica", [({}, line) for _, line, *_ in EB_FIGURES]
                           + [(changes, line) for _, changes, line, _ in COUNTER_EXAMPLES])):
        for changes, line in rows:
            yield settle(parse_deal(line), start, HouseRules.of(profile, changes))


def printed_tags() -> set[str]:
    """Every tag the app prints: in a value's sources, a help text, a profile's title and description, a
    transfer's source and the parenthesis that ends a deal's note."""
    tags = set()
    for rule in HOUSE_RULES:
        tags |= set(TAG_LIKE.findall(rule.english_help))
        for choice in rule.choices:
            tags |= {item.split(" (")[0].strip() for item in choice.sources.split(", ") if item}
    for name, text in TEXTS:
        tags |= set(TAG_LIKE.findall(text))
    for settlement in _settlements():
        tags |= {tag for t in settlement.transfers for tag in t.source.split(", ") if tag}
        for note in map(str, settlement.notes):
            tail = re.search(r"\(([^()]*)\)$", note)
            tags |= set(TAG_LIKE.findall(tail.group(1))) if tail else set()
    return tags


PRINTED = sorted(printed_tags())


def test_the_tags_printed_are_the_sources_named() -> None:
    """Every tag printed is a source the rules page names, and every source named is cited somewhere."""
    assert set(PRINTED) == {source.tag for source in SOURCES}
    assert {"P", "Quanti", "W", "EB", "PG", "FR", "H47"} <= set(PRINTED)


def _named_in_html(page: str, tag: str) -> str:
    """What the rules page says the source with this tag is ("" if it does not name it)."""
    found = re.search(rf'<dt id="source-{re.escape(tag)}">{re.escape(tag)}</dt>\s*<dd>(.*?)</dd>', page, re.S)
    return html.unescape(found.group(1)).strip() if found else ""


@pytest.mark.parametrize("tag", PRINTED)
def test_every_tag_is_named_on_the_rules_page_in_english_and_french(client: FlaskClient, tag: str) -> None:
    english = _named_in_html(client.get("/rules").get_data(as_text=True), tag)
    french = _named_in_html(client.get("/rules", headers={"Accept-Language": "fr"}).get_data(as_text=True), tag)
    assert english and french and french != english, tag
    assert re.search(r"\b(1[6-9]|20)\d\d", english), f"{tag}: the rules page gives no date: {english}"


@pytest.mark.parametrize("tag", PRINTED)
def test_every_tag_is_named_in_the_rules_documents(tag: str) -> None:
    assert re.search(rf"^- \*\*{re.escape(tag)}\*\* — \S", rules_markdown(), re.M), tag
    assert re.search(rf"^  {re.escape(tag)}: \S", rules_text(), re.M), tag
    if tag in SECOND_HAND:
        assert re.search(rf"^- \*\*{tag}\*\* — .*Known here at second hand.*its text is not quoted", rules_markdown(), re.M)


# --- no pointer to a file the project does not have --------------------------------------------------------------

ELSEWHERE = re.compile(r"RULES-NOTES|disputed point|point disputé|shared/|seeds/")
"""The notes the rules were drawn from, their numbered points, and the folder of the sources' copy: all outside
the project."""


def test_no_text_points_to_a_file_the_project_does_not_have(client: FlaskClient) -> None:
    shown = {path.relative_to(ROOT).as_posix(): path.read_text(encoding="utf-8") for path in documents()}
    assert {"README.md", "docs/RULES.md", "docs/SETTLEMENT.md", "docs/FORMATS.md"} <= shown.keys()
    shown |= {
        "scorer rules": rules_text(),
        "the rules page": client.get("/rules").get_data(as_text=True),
        "the rules page in French": client.get("/rules", headers={"Accept-Language": "fr"}).get_data(as_text=True),
        "the home page": client.get("/").get_data(as_text=True),
    }
    shown.update(TEXTS)
    for name, text in shown.items():
        found = ELSEWHERE.search(text)
        assert not found, f"{name}: …{text[max(0, found.start() - 80):found.end() + 80]}…"
