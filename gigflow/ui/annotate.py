"""The noise review's sample view: the prepared page (as the noise filter sees it) with every learned region
outlined and labelled. Pure over a tree; the result is shown only in a sandboxed iframe under a strict CSP."""

from __future__ import annotations

from dataclasses import dataclass

from lxml import etree, html

LABEL_TAG = "gigflow-label"  # a tag of our own, so no :nth-of-type() step of another rule counts it
# Attributes that would make the browser fetch from the stored page's site or navigate the frame.
_FETCHING = ("src", "srcset", "poster", "background", "data", "formaction", "action", "href", "xlink:href", "ping",
             "style")

_ACTIVE = ("script", "iframe", "frame", "object", "embed", "applet", "svg", "math", "link", "meta", "base", "style",
           "template", "noscript")

STYLE = f"""
body {{ font: 14px/1.45 system-ui, sans-serif; margin: 12px; color: #222; }}
[data-gigflow-decision] {{ outline: 3px solid #c0392b; outline-offset: 2px; margin: 10px 0; display: block; }}
[data-gigflow-decision="keep"] {{ outline: 3px dashed #2e8b57; }}
{LABEL_TAG} {{ display: block; font: 12px/1.3 monospace; color: #fff; background: #c0392b; padding: 2px 6px;
  margin-bottom: 4px; }}
[data-gigflow-decision="keep"] > {LABEL_TAG} {{ background: #2e8b57; }}
"""


@dataclass
class RegionMatch:
    index: int  # the rule's position in the filter (1-based, as labelled)
    selector: str
    decision: str
    found: int  # regions the selector matched on this page (1 expected)


def annotate(root, rules, select) -> tuple[str, list[RegionMatch]]:
    """Outline each rule's region on ``root`` (changed in place) and return the page as HTML with the matches.

    Every selector is matched on the untouched tree first, as apply_noise_filter does, so the labels added for
    one rule cannot shift another rule's positions."""
    matches = [(i, rule, select(root, rule.selector)) for i, rule in enumerate(rules, 1)]
    for i, rule, regions in matches:
        if len(regions) != 1:
            continue
        region = regions[0]
        region.set("data-gigflow-rule", str(i))
        region.set("data-gigflow-decision", rule.decision)
        label = etree.Element(LABEL_TAG)
        label.text = f"#{i} {rule.decision} · {rule.selector} · {rule.classifier} · {rule.reason}"
        label.tail, region.text = region.text, None
        region.insert(0, label)
    # Preparation already took these out; the view does it again rather than trust its input (the iframe's
    # sandbox and CSP are the third line).
    etree.strip_elements(root, *_ACTIVE, with_tail=False)
    for el in root.iter():
        if isinstance(el.tag, str):
            for name in [n for n in el.attrib if n in _FETCHING or n.lower().startswith("on")]:
                del el.attrib[name]
    head = root.find("head")
    if head is None:
        head = etree.Element("head")
        root.insert(0, head)
    style = etree.SubElement(head, "style")
    style.text = STYLE
    charset = etree.Element("meta", charset="utf-8")
    head.insert(0, charset)
    page = html.tostring(root, encoding="unicode", doctype="<!DOCTYPE html>")
    return page, [RegionMatch(i, rule.selector, rule.decision, len(regions)) for i, rule, regions in matches]
