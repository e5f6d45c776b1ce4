"""The project's Markdown documents, read as GitHub renders them: the README and docs/*.md, a section by its
heading (outside code fences), each heading's anchor and each link."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
DOCS = ROOT / "docs"


def documents() -> list[Path]:
    """The README and every document of docs/."""
    return [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]


def read(name: str) -> str:
    """A document by its path from the project's root: ``README.md``, ``docs/LIMITS.md``."""
    return (ROOT / name).read_text(encoding="utf-8")


def lines_outside_code(text: str) -> Iterator[tuple[int, str]]:
    """Each line's index and text, but the lines of fenced code blocks (and their fences)."""
    fenced = False
    for index, line in enumerate(text.split("\n")):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            yield index, line


def headings(text: str) -> list[tuple[int, int, str]]:
    """Each heading: its line's index, its level and its text."""
    found = []
    for index, line in lines_outside_code(text):
        match = re.match(r"^(#{1,6}) (.+?)\s*$", line)
        if match:
            found.append((index, len(match.group(1)), match.group(2)))
    return found


def section(text: str, heading: str) -> str:
    """The text under ``heading`` (a whole heading line, ``## Caches``), to the next heading of its level or
    higher; fails if the document has no such heading, or has it twice."""
    lines = text.split("\n")
    every = headings(text)
    found = [n for n, (_, level, title) in enumerate(every) if f"{'#' * level} {title}" == heading]
    assert len(found) == 1, f"{heading!r}: {len(found)} headings"
    start, level, _ = every[found[0]]
    end = next((index for index, lower, _ in every[found[0] + 1:] if lower <= level), len(lines))
    return "\n".join(lines[start + 1:end])


def anchor(title: str) -> str:
    """GitHub's anchor of a heading: lower case, no punctuation but hyphens and underscores, spaces as hyphens
    (``Players' names`` is ``players-names``)."""
    return re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every heading's anchor, a repeated one numbered as GitHub numbers it (``-1``, ``-2``)."""
    seen: dict[str, int] = {}
    found = set()
    for _, _, title in headings(text):
        base = anchor(title)
        found.add(f"{base}-{seen[base]}" if base in seen else base)
        seen[base] = seen.get(base, 0) + 1
    return found


def links(text: str) -> list[str]:
    """Every link's target, outside code (fenced blocks and inline code)."""
    targets = []
    for _, line in lines_outside_code(text):
        line = re.sub(r"`[^`]*`", "", line)
        targets += re.findall(r"\]\(([^)\s]+)\)", line)
    return targets
