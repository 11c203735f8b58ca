"""Label/value structures in any form, read with the multilingual label lexicon (`text_patterns.LABELS`).

`dt`/`dd`, `th`/`td`, two-cell rows, "Label: value" text, `<em>Label:</em> value` tails, a label element followed
by its value element (definition-like spans and divs) and a label whose value is the rest of its parent. Pure:
a list of elements in, `{field: [LabelledValue, ...]}` out, in document order (an edit date after publication dates;
a general word such as "Tyyppi" only with a value the employment vocabulary knows).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gigflow.adapters.common import clean_text
from gigflow.adapters.job_facts import employment_types
from gigflow.adapters.text_patterns import EDIT_DATE_LABELS, VOCABULARY_ONLY_LABELS, label_field, normalise

MAX_LABEL = 60
MAX_VALUE = 200
CONTROLS = {"select", "option", "button", "optgroup"}
_INLINE = re.compile(r"^([^:：]{1,40})[:：]\s*(.+)$", re.S)
_SEPARATORS = re.compile(r"\s+[·•|]\s+")


@dataclass(frozen=True)
class LabelledValue:
    field: str
    value: str
    label: str
    element: object  # the label's element, for its path


def labelled_values(elements) -> dict[str, list[LabelledValue]]:
    """Every (field, value) the elements label, first occurrence first."""
    found: dict[str, list[LabelledValue]] = {}
    for element in elements:
        own = " ".join((own_text(element) or "").split())
        if own and len(own) <= 4 * MAX_LABEL and _SEPARATORS.search(own) and not _not_a_label(element):
            # "Current: v2.0 · Last edited: 2026-03-24": several "Label: value" facts on one line.
            for piece in _SEPARATORS.split(own):
                inline = _INLINE.match(piece.strip())
                field = label_field(inline.group(1)) if inline else None
                value = clean_text(inline.group(2), MAX_VALUE) if field else None
                if value and label_field(value) is None:
                    found.setdefault(field, []).append(LabelledValue(field, value.strip(" :-–|"),
                                                                     inline.group(1).strip(" :："), element))
            continue
        if not own or len(own) > MAX_LABEL:
            continue
        inline = _INLINE.match(own)
        whole = label_field(own)
        field = whole or (label_field(inline.group(1)) if inline else None)
        if not field or _not_a_label(element):
            continue
        if inline and not whole:
            value, label = inline.group(2), inline.group(1)
        else:
            value, label = value_after(element), own
        # "Contract type: <span>Permanent</span>. Location: <span>Remote</span>": one line, two labelled values
        value, more = _next_labels(value) if value else (value, [])
        value = clean_text(value, MAX_VALUE) if value else None
        # A value that is a label word too ("Contract type: contract") stands when the vocabulary knows it.
        if value and (label_field(value) is None or (field == "employment_type" and employment_types(value))) \
                and value.strip(" :-–|") and len(value) < MAX_VALUE:
            found.setdefault(field, []).append(LabelledValue(field, value.strip(" :-–|"), label.strip(" :："), element))
            for other_label, other_field, other_value in more:
                found.setdefault(other_field, []).append(
                    LabelledValue(other_field, other_value, other_label, element))
    return _trusted(found)


# Another "Label:" after a value on its line, set off by a stop, a semicolon or a run of spaces.
_NEXT_LABEL = re.compile(r"(?:[.;]\s+|\s{2,}|\s[|·•]\s)([^\W\d][^:：.;|·•]{0,39})[:：]\s*")


def _next_labels(text: str) -> tuple[str, list[tuple[str, str, str]]]:
    """``text`` up to the next known label on its line, and each (label, field, value) that follows."""
    cuts = [(m, label_field(m.group(1))) for m in _NEXT_LABEL.finditer(text)]
    cuts = [(m, field) for m, field in cuts if field]
    if not cuts:
        return text, []
    more = []
    for i, (m, field) in enumerate(cuts):
        end = cuts[i + 1][0].start() if i + 1 < len(cuts) else len(text)
        value = clean_text(text[m.end():end], MAX_VALUE)
        if value and label_field(value) is None:
            more.append((m.group(1).strip(), field, value.strip(" :-–|.")))
    return text[:cuts[0][0].start()], more


def _key(label: str) -> str:
    return normalise(label).strip(" :：-–|•*").strip()


def _trusted(found: dict[str, list[LabelledValue]]) -> dict[str, list[LabelledValue]]:
    """Weak labels kept where they say what their field means: a general word's value only when the vocabulary
    knows it; an edit date ("Last edited") after every publication date the page labels."""
    if "employment_type" in found:
        found["employment_type"] = [row for row in found["employment_type"]
                                    if _key(row.label) not in VOCABULARY_ONLY_LABELS or employment_types(row.value)]
        if not found["employment_type"]:
            del found["employment_type"]
    if "date_posted" in found:
        found["date_posted"].sort(key=lambda row: _key(row.label) in EDIT_DATE_LABELS)  # stable: page order kept
    return found


def _not_a_label(element) -> bool:
    """A control's caption ("Sort by: Date" options) or a column header (a row of header cells only) introduces
    no value of its own."""
    if element.tag in CONTROLS or any(a.tag in CONTROLS for a in element.iterancestors()):
        return True
    cell = element if element.tag == "th" else next(element.iterancestors("th"), None)
    row = cell.getparent() if cell is not None else None
    return row is not None and row.find("td") is None


_ICON_TAGS = frozenset({"img", "svg", "i"})


def own_text(element) -> str | None:
    """The element's own leading text, read past the empty icons written before it
    (``<p><img src=clock.svg> Deadline: 31/03</p>``, ``<li><i class=icon></i>Location: Remote</li>``)."""
    if (element.text or "").strip():
        return element.text
    for child in element:
        if not isinstance(child.tag, str) or child.tag in _ICON_TAGS or \
                (child.tag not in ("br", "hr") and not child.text_content().strip()):
            if (child.tail or "").strip():
                return child.tail
            continue
        return None
    return None


def value_after(label) -> str | None:
    """The value a label element introduces: its tail, its following sibling, or the rest of its parent."""
    if len(label):
        # <p>Location: <b>Geel</b></p>: the label's own children hold the value.
        rest = " ".join("".join(t for t in label.itertext() if t).split())
        rest = rest[len(" ".join((own_text(label) or "").split())):].strip(" :：")  # icons before it hold no text
        if rest and len(rest) < MAX_VALUE:
            return rest
    if label.tail and label.tail.strip(" :：\n\t\xa0"):
        if label.tail.lstrip(" \n\t\xa0")[:1] in ".;,":
            return None  # "<span>contract</span>. Location: …": the sentence ends, no value follows
        return label.tail.strip(" :：\n\t\xa0")
    sibling = label.getnext()
    while sibling is not None and (not isinstance(sibling.tag, str) or sibling.tag == "br"):
        if sibling.tail and sibling.tail.strip():
            return sibling.tail
        sibling = sibling.getnext()
    if sibling is None:
        parent = label.getparent()
        # <td><span>Location</span></td><td>Geel</td>: a label alone in its cell; the next cell is the value.
        if parent is not None and parent.tag in ("td", "th", "dt", "div", "span") and \
                " ".join("".join(parent.itertext()).split()) == " ".join("".join(label.itertext()).split()):
            cell = parent.getnext()
            if cell is not None and isinstance(cell.tag, str):
                return " ".join(cell.text_content().split()) or None
        return None
    if sibling.find(".//p") is not None or sibling.find(".//div") is not None or sibling.find(".//li") is not None:
        # A value made of several blocks (address, then "nearest station ..."): its first block is the value.
        return next((" ".join(t.split()) for t in sibling.itertext() if t.strip()), None)
    return " ".join(sibling.text_content().split()) or None
