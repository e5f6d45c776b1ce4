"""Pages parsed as a browser parses them (tinyhtml5, an HTML5 parser), not searched as text: the elements, their
text, and a refused form's error summary."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import tinyhtml5

NS = "{http://www.w3.org/1999/xhtml}"


def parse(page: str) -> ET.Element:
    root: ET.Element = tinyhtml5.parse(page)
    for element in root.iter():
        element.tag = element.tag.removeprefix(NS)
    return root


def text(element: ET.Element) -> str:
    return re.sub(r"\s+", " ", "".join(element.itertext())).strip()


def by_id(root: ET.Element) -> dict[str, ET.Element]:
    return {e.get("id", ""): e for e in root.iter() if e.get("id")}


def summary_of(page: str) -> tuple[ET.Element, list[tuple[str, str]]]:
    """The error summary, checked to be the first thing in <main>, and its (link target, line) pairs."""
    root = parse(page)
    main = root.find(".//main")
    assert main is not None
    first = next(iter(main))
    assert first.get("id") == "errors", f"the first thing in <main> is <{first.tag} id={first.get('id')}>"
    assert first.get("role") == "alert"
    heading = first.find("h2")
    assert heading is not None and heading.get("id") == first.get("aria-labelledby")
    links = [(a.get("href", ""), text(a)) for a in first.iter("a")]
    ids = by_id(root)
    for href, line in links:
        assert href.startswith("#") and href[1:] in ids, f"the summary links {line!r} to {href}, which is not on the page"
    return first, links
