"""The site footer's phone lines that add no way to reach the employer (issue #23, class BA).

On a one-employer site the footer's phone is the employer's contact (rounds 9-10), because often nothing else on
the page states one. Two kinds of phone line there still add nothing a job seeker can use:

- a fax number ("F: +49 …", "Fax …", "Telefax …"): nobody answers it, and no vacancy is applied for by it;
- the phone the page already states outside the footer (the header's "+49 (0)9401 53944-0" written again as
  "T: +49 (0)94 01-53 944-0"): the same digits, however they are grouped.

A footer statement that is nothing but such phones and their labels goes; one with a mailbox, an address or any
other phone stays. Pure functions over lxml trees; learning only.
"""

from __future__ import annotations

import re

from lxml import etree

from gigflow.noise.learn.outside import outside

# A phone number as the contact signal reads one (not a copyright's span of years, "© 2013-2015").
PHONE = re.compile(r"(?<!\d)(?!(?:19|20)\d\d\s?[-–]\s?(?:19|20)\d\d\b)\+?\d[\d\s()/.-]{7,}\d")
# The label of a fax number right before it on its line: "Fax", "Telefax", "Faks", "Faksi", "FAX", "ファックス",
# or a single "F" with a colon (the "T: … / F: … / M: …" convention of a letterhead).
_FAX_LABEL = re.compile(r"(?:(?<![^\W\d_])(?:tele)?fa(?:x|ks|ksi)\b\.?|(?<![^\W\d_])f\s*[:：]|ファックス|ファクス|"
                        r"télécopie(?:ur)?)\s*[:：.]?\s*(?:no\.?|nr\.?|number|nummer)?\s*[:：.]?\s*$", re.I)
# What may stand beside the phones in a line that is only phone lines: labels ("T:", "Tel.", "Phone", "Fax").
LABEL_WORDS_MAX = 3
# Two numbers are one when their digits end alike this far (national and international forms of one line).
SAME_DIGITS = 8


def digits(text: str) -> str:
    return "".join(ch for ch in text if ch.isdigit())


def is_fax(text: str, start: int) -> bool:
    """Whether the phone at ``start`` of ``text`` is labelled a fax number on its line."""
    line_start = max(text.rfind("\n", 0, start), -1) + 1
    return bool(_FAX_LABEL.search(text[line_start:start]))


def same_number(a: str, b: str) -> bool:
    return a == b or (min(len(a), len(b)) >= SAME_DIGITS and a[-SAME_DIGITS:] == b[-SAME_DIGITS:])


def phones_in(text: str) -> list[str]:
    return [digits(m.group(0)) for m in PHONE.finditer(text)]


def needless_phone_line(text: str, elsewhere: frozenset | set) -> bool:
    """A statement that is only phone numbers with their labels, each a fax number or one the page states outside
    the site footer (``elsewhere``: their digits)."""
    if "@" in text:
        return False
    found = list(PHONE.finditer(text))
    if not found:
        return False
    rest = PHONE.sub(" ", text)
    if len(re.findall(r"[^\W\d_]+", rest)) > LABEL_WORDS_MAX:
        return False  # more than a label beside the numbers: an office's line, judged as before
    return all(is_fax(text, m.start()) or any(same_number(digits(m.group(0)), other) for other in elsewhere)
               for m in found)


def _text_outside(root, excluded: set) -> str:
    """The text and tel: targets of ``root`` outside the ``excluded`` elements (and their subtrees)."""
    out = []
    for el, text in outside(root, excluded):
        out.append(text)
        href = (el.get("href") or "").strip() if el is not None else ""
        if href.lower().startswith("tel:"):
            out.append(href[4:])
    return "\n".join(out)


def phones_stated_elsewhere(roots: list, removed_on_first: set, in_site_footer) -> frozenset:
    """Digits of the phone numbers every sample states outside its site footer, on the first sample outside the
    regions learned as template too (what stays there): a footer line repeating one of them adds nothing."""
    found: set | None = None
    for k, root in enumerate(roots):
        body = root.find("body") if root.find("body") is not None else root
        excluded = {el for el in body.iter(etree.Element) if in_site_footer(el) is el}
        if k == 0:
            excluded |= set(removed_on_first)
        phones = set(phones_in(_text_outside(body, excluded)))
        found = phones if found is None else {p for p in phones if any(same_number(p, q) for q in found)}
        if not found:
            return frozenset()
    return frozenset(found or ())
