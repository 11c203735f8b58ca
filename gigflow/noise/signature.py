"""Region signatures: text, element structure, and non-volatile attributes (links included)."""

from __future__ import annotations

import hashlib

from lxml import etree

# id, class and inline style are often generated per build or per page, so they never enter a signature.
VOLATILE_ATTRIBUTES = frozenset({"id", "class", "style"})


def region_signature(element) -> str:
    """sha256 over the region's tag structure, stable attributes and whitespace-collapsed text."""
    digest = hashlib.sha256()
    for event, el in etree.iterwalk(element, events=("start", "end")):
        if not isinstance(el.tag, str):
            continue
        if event == "start":
            attrs = sorted((k, " ".join(v.split())) for k, v in el.attrib.items() if k not in VOLATILE_ATTRIBUTES)
            digest.update(f"<{el.tag}{attrs}>".encode())
            if el.text and el.text.strip():
                digest.update(" ".join(el.text.split()).encode())
        else:
            digest.update(f"</{el.tag}>".encode())
            if el is not element and el.tail and el.tail.strip():
                digest.update(" ".join(el.tail.split()).encode())
    return digest.hexdigest()
