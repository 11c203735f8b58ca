"""Does a page look rendered by JavaScript (its content filled in by scripts after load)? A listing that gives no
job link and looks so is better read with the click strategy, in a real browser. Pure: bytes in, words out."""

from __future__ import annotations

import re

from lxml import html as lxml_html

# Text shorter than this (visible, outside scripts and styles) is "almost empty" for a page that runs scripts.
_THIN_TEXT = 600
_ENABLE_JS = re.compile(r"(?i)\bjavascript\b")


def script_rendered(body: bytes) -> str | None:
    """Why the page looks rendered by scripts (one phrase), or None when its text is there without them."""
    try:
        root = lxml_html.document_fromstring(body[:2_000_000] or b"<html></html>")
    except (ValueError, TypeError, lxml_html.etree.ParserError):
        return None
    scripts = [s for s in root.iter("script")
               if (s.get("type") or "text/javascript").lower() not in ("application/ld+json", "application/json")]
    if not scripts:
        return None
    noscript = " ".join(n.text_content() for n in root.iter("noscript"))
    for node in list(root.iter("script", "style", "noscript", "template")):
        node.drop_tree()
    body_node = root.find("body")
    text = " ".join((body_node if body_node is not None else root).text_content().split())
    if _ENABLE_JS.search(noscript):
        return f"its <noscript> asks for JavaScript ({len(scripts)} script(s), {len(text)} characters of text)"
    if len(text) < _THIN_TEXT:
        return f"{len(scripts)} script(s) and only {len(text)} characters of text without them"
    return None
