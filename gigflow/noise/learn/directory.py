"""A directory of places or people, each with a contact of its own (issue #23, round 33, IT).

A charity's site lists its twelve houses on every page (a town, an address, the couple who run it, a mailbox, a
phone); a chain lists its branches. Each card states a contact, so the rules kept the list as job facts. A job page
states one way to reach its employer, or two; five or more cards of one kind, each with another mailbox or phone,
are the site's directory, not this job's contact. Judged on template regions only (the job's own list of contact
persons is job content and never reviewed), by the region's markup. Pure; learning only.
"""

from __future__ import annotations

import re

# So many cards of one kind, each with a contact of its own, make a directory.
DIRECTORY_MIN_ENTRIES = 5
# The cards hold most of the region's text: a directory beside a little else (its heading), not a footer with one.
DIRECTORY_SHARE = 0.6
REASON = ("rules: a directory of places or people, each card with a mailbox or phone of its own, the same on every "
          "sample: the site's, not this job's contact")
_MAILBOX = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")


def _contact(card) -> str:
    """The card's first mailbox or phone (by link target, or a mailbox in its text), or ''."""
    for a in card.iter("a"):
        href = (a.get("href") or "").strip().lower()
        if href.startswith(("mailto:", "tel:")):
            return href.split("?", 1)[0]
    found = _MAILBOX.search(card.text_content())
    return found.group(0).lower() if found else ""


def _cards(parent) -> list:
    """The largest group of ``parent``'s children of one tag and class, each with a contact of its own, all
    different, where it has DIRECTORY_MIN_ENTRIES of them; else []."""
    if len(parent) < DIRECTORY_MIN_ENTRIES:
        return []
    groups: dict = {}
    for child in parent:
        if isinstance(child.tag, str):
            groups.setdefault((child.tag, child.get("class") or ""), []).append(child)
    best: list = []
    for cards in groups.values():
        if len(cards) < max(DIRECTORY_MIN_ENTRIES, len(best) + 1):
            continue
        contacts = set()
        for card in cards:  # stops at the first card without a contact of its own
            contact = _contact(card)
            if not contact or contact in contacts:
                break
            contacts.add(contact)
        else:
            best = cards
    return best


def _chars(el) -> int:
    return len("".join(el.text_content().split()))


def directory_entries(region) -> int:
    """How many cards the directory ``region`` is (or is one card of) has: its children, or its siblings with
    it, of one tag and class, each with a contact of its own, all different, holding most of the text; else 0."""
    cards = _cards(region)
    if cards and sum(_chars(card) for card in cards) >= DIRECTORY_SHARE * max(1, _chars(region)):
        return len(cards)
    parent = region.getparent()
    if parent is not None:
        cards = _cards(parent)
        if region in cards and sum(_chars(card) for card in cards) >= DIRECTORY_SHARE * max(1, _chars(parent)):
            return len(cards)
    return 0
