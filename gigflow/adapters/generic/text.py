"""Pure text helpers of the generic HTML adapter: an element's text, and what a short text reads as."""

from __future__ import annotations

import re

from gigflow.adapters.gazetteer import place_score
from gigflow.adapters.text_patterns import SECTION_HEADINGS, label_field, normalise
from gigflow.adapters.generic.patterns import (APPLY_WORDS, BUTTON_CLASS, INLINE_LABEL, SLOGAN_PRONOUNS,
                                               TITLE_SEPARATOR, WORD_SPLIT)


def own_text(element) -> str:
    return " ".join(("".join(t for t in element.itertext() if t)).split())


PLACE_ONLY = 1.0


def heading_text(element) -> str:
    """A heading's text without a trailing ``<small>`` that names a place (Bootstrap's secondary text: "Welder
    <small>Berlin, Germany</small>" puts the place beside the title, not in it; "<small>(night shift)</small>"
    stays); its whole text where nothing else is left."""
    last = element[-1] if len(element) else None
    if last is None or last.tag != "small" or (last.tail or "").strip() or place_score(
            own_text(last)) < PLACE_ONLY:
        return own_text(element)
    head = " ".join("".join([element.text or "", *(
        "".join(child.itertext()) + (child.tail or "") for child in element[:-1])]).split())
    return head if len(head) >= 3 else own_text(element)


def joined_text(element) -> str:
    """Text of separate child elements joined with commas: <span>United States</span><span>Canada</span>."""
    pieces = [" ".join(p.split()) for p in element.itertext() if p.strip(" ()\n\t,")]
    text = ""
    for piece in pieces:
        text = piece if not text else f"{text} {piece}" if piece.startswith("(") or text.endswith("(") else f"{text}, {piece}"
    if text.count("(") != text.count(")"):
        text = text.replace("(", "").replace(")", "")
    return text.strip(" ,")


def class_shape(node) -> str:
    """The class without tokens that number the item ("post post-17556"): alike cards of a CMS loop."""
    return " ".join(t for t in (node.get("class") or "").split() if not any(ch.isdigit() for ch in t))


def squash(text: str) -> str:
    return re.sub(r"[\W_]+", "", normalise(text))


# A tagline of single words, each a sentence of its own ("Einfach. Innovativ. Persönlich.", "Fast. Simple. Safe."):
# no job title reads so ("Sr. Eng." and "Dipl.-Ing." are abbreviations, shorter than four letters).
_TAGLINE = re.compile(r"(?:[^\W\d_]{4,}\.\s+){1,4}[^\W\d_]{4,}\.")


# "Hands-on jobstudent gezocht!", "Koch gesucht!", "Cuoco cercasi!": an advertisement's title names the job and
# says it is wanted; its exclamation mark makes no slogan of it.
_WANTED = re.compile(r"\b(?:gezocht|gesucht|wanted|needed|recherch[ée]e?s?|cercasi|se busca|se necesita|"
                     r"poszukiwan[ya]|hledáme|sökes|søkes|haetaan)\b", re.I)


def is_slogan(text: str) -> bool:
    """A sentence to the reader: it ends in ! or ? (full-width too), it is a tagline of one-word sentences, or it says we/us/you
    ("US" in capitals is the country) before any dash ("Welder — Safety Starts With Your Hands" is a title with a
    tagline). A job "wanted!" is an advertisement's title, unless it talks to the reader too."""
    if (re.search(r"[!?！？]\s*$", text) and not (text.rstrip()[-1:] == "!" and _WANTED.search(text))) \
            or _TAGLINE.fullmatch(text.strip()):
        return True
    head = TITLE_SEPARATOR.split(text)[0]
    # A short word in capitals inside mixed case is an abbreviation or a numeral ("Engr VI"), not a pronoun.
    return any(word.casefold() in SLOGAN_PRONOUNS and word != "US" and
               not (word.isupper() and len(word) <= 3 and not head.isupper()) for word in WORD_SPLIT.split(head))


def is_control(element) -> bool:
    """A button or a link styled as one ("Apply now", "Share"): an action, never a line of facts."""
    if element.tag in ("button", "input", "select") or element.get("role") == "button":
        return True
    if element.tag != "a":
        return False
    return bool(BUTTON_CLASS.search(element.get("class") or "")) or \
        (bool(APPLY_WORDS.search(own_text(element))) and len(own_text(element).split()) <= 4)


def labels_another_field(text: str) -> bool:
    """Whether a text is "Label: value" for a field other than the title."""
    inline = INLINE_LABEL.match(text)
    return bool(inline) and label_field(inline.group(1)) not in (None, "title")


# A heading in two scripts, a Latin word or two and its translation ("Recruit 募集要項", "SALES セールス").
_TWO_SCRIPTS = re.compile(r"^([a-z][a-z&' -]{1,30}?)\s+([^\x00-\x7f]\S*)$")


# A heading made only of a posting's section words ("Key Responsibilities", "Skills Desired", "What we offer"), with
# one of the core ones: a section of the posting, never its title ("Benefits Specialist" has a word of its own).
_SECTION_CORE = r"(?:responsibilit(?:y|ies)|requirements?|skills?|duties|qualifications?|benefits|perks|tasks|" \
    r"competenc(?:e|ies)|expectations|offer)"
_SECTION_WORD = r"(?:key|main|core|general|desired|required|preferred|essential|additional|technical|soft|your|" \
    r"our|the|what|we|you|will|do|of|and|&|role|job|position|minimum|basic|bonus|plus|must|have|nice|to|" + \
    _SECTION_CORE + ")"
_SECTION_PHRASE = re.compile(rf"(?:{_SECTION_WORD}\s+){{0,4}}{_SECTION_CORE}(?:\s+{_SECTION_WORD}){{0,4}}")


def is_section_heading(text: str) -> bool:
    key = normalise(text).strip(" :：-–|•*»«").strip()
    if key in SECTION_HEADINGS or label_field(key) is not None:
        return True
    if len(key) <= 60 and _SECTION_PHRASE.fullmatch(key):
        return True
    both = _TWO_SCRIPTS.match(key)
    return bool(both) and any(part in SECTION_HEADINGS for part in both.groups())


def _slug(text: str) -> str:
    return "-".join(re.findall(r"[^\W_]+", text.casefold()))


def opens_a_section(heading, text: str) -> bool:
    """A heading that opens a section of the posting, not a line naming its employer nor the job's name: its anchor
    is its own slug (``<h3 id="description-and-duties">``, a table of contents' target), or two more headings of its
    level stand in the same block, each a section of its own ("Duties", "Profile", "Education")."""
    anchor = heading.get("id") or ""
    if anchor and _slug(anchor) == _slug(text):
        return True
    parent = heading.getparent()
    return parent is not None and sum(1 for sibling in parent if sibling.tag == heading.tag) >= 3
