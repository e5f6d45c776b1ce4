"""The README and docs/ hold together: the README links every document of docs/, every relative link of the README
and of docs/*.md leads to a file of the project (and to a heading of it, where it names one), the README's
*Dependencies* names every dependency pyproject.toml declares, and the README is read in five minutes: at most
250 lines and 2,000 words, docs/ at most 15,000 words."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from helpers.docs import DOCS, ROOT, anchors, documents, headings, links, read, section


def test_the_readme_links_every_document_of_docs() -> None:
    linked = {target.split("#", 1)[0] for target in links(read("README.md"))}
    unlinked = {f"docs/{path.name}" for path in DOCS.glob("*.md")} - linked
    assert not unlinked, f"the README does not link {sorted(unlinked)} (under *More documentation*)"


def test_more_documentation_says_what_each_document_holds() -> None:
    listed = section(read("README.md"), "## More documentation")
    for path in DOCS.glob("*.md"):
        line = re.search(rf"^- \[docs/{re.escape(path.name)}\]\(docs/{re.escape(path.name)}\): \S.{{20,}}", listed, re.M)
        assert line, f"*More documentation* has no line for docs/{path.name}"


@pytest.mark.parametrize("document", documents(), ids=lambda path: path.relative_to(ROOT).as_posix())
def test_every_relative_link_leads_to_a_file_and_a_heading(document: Path) -> None:
    text = document.read_text(encoding="utf-8")
    for target in links(text):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto:: not the project's
            continue
        path, _, fragment = target.partition("#")
        linked = (document.parent / path).resolve() if path else document
        assert linked.is_file(), f"{document.name}: {target}: no such file"
        assert ROOT in linked.parents or linked == ROOT, f"{document.name}: {target} leads out of the project"
        if fragment:
            assert linked.suffix == ".md", f"{document.name}: {target}: a heading of a file that is not Markdown"
            assert fragment in anchors(linked.read_text(encoding="utf-8")), (
                f"{document.name}: {target}: {linked.name} has no heading of that anchor")


@pytest.mark.parametrize("document", documents(), ids=lambda path: path.relative_to(ROOT).as_posix())
def test_every_document_has_one_title_and_no_heading_skips_a_level(document: Path) -> None:
    levels = [level for _, level, _ in headings(document.read_text(encoding="utf-8"))]
    assert levels[0] == 1 and levels.count(1) == 1, document.name
    for before, after in zip(levels, levels[1:]):
        assert after <= before + 1, f"{document.name}: a heading of level {after} right under one of {before}"


def test_the_readme_justifies_every_dependency() -> None:
    project = tomllib.loads(read("pyproject.toml"))["project"]
    declared = [*project["dependencies"], *project["optional-dependencies"]["test"]]
    names = {re.match(r"[A-Za-z0-9_.-]+", requirement).group(0).lower() for requirement in declared}  # type: ignore[union-attr]
    justified = {name.lower() for name in re.findall(r"\*\*([\w.-]+)\*\*", section(read("README.md"), "## Dependencies"))}
    assert names <= justified, f"named in pyproject.toml, not in the README's Dependencies: {sorted(names - justified)}"
    assert len(names) >= 20


def words(path: Path) -> int:
    """The words of a file as `wc -w` counts them in a UTF-8 locale: runs of characters between whitespace (a
    no-break space is whitespace too)."""
    return len(path.read_text(encoding="utf-8").split())


def test_the_readme_is_read_in_five_minutes_and_docs_stay_short() -> None:
    readme = ROOT / "README.md"
    assert readme.read_bytes().count(b"\n") <= 250, "README.md: more than 250 lines"  # as wc -l counts them
    assert words(readme) <= 2000, f"README.md: {words(readme)} words, more than 2,000"
    counted = {path.name: words(path) for path in DOCS.glob("*.md")}
    assert sum(counted.values()) <= 15000, f"docs/: {sum(counted.values())} words, more than 15,000: {counted}"


def test_anchors_are_github_s() -> None:
    assert [anchor for anchor in sorted(anchors("# scorer — the Quadrille scorer\n## Players' names\n"
                                                "### `quadrille-evening/1` (input: an evening's deals)\n"
                                                "## Notes\n## Notes\n```\n# not a heading\n```\n"))] == [
        "notes", "notes-1", "players-names", "quadrille-evening1-input-an-evenings-deals", "scorer--the-quadrille-scorer"]
