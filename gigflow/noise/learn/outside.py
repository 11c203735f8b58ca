"""What a sample shows outside some of its regions (those learned as template, the candidates a rule could remove):
the elements and the loose text a reader still sees there. Pure, learning only."""

from __future__ import annotations

from collections.abc import Iterator

from lxml import etree


def outside(root, excluded) -> Iterator[tuple[object, str]]:
    """In document order, for each element of the body outside ``excluded`` (and their subtrees): (element, its
    text); and for the text after an element, excluded ones included: (None, that text)."""
    body = root.find("body")
    body = body if body is not None else root
    walker = etree.iterwalk(body, events=("start", "end"))
    for event, el in walker:
        if not isinstance(el.tag, str):
            continue
        if event == "start":
            if el in excluded:
                walker.skip_subtree()  # its end event still comes, with its tail
                continue
            yield el, el.text or ""
        elif el is not body and el.tail:
            yield None, el.tail
