"""A job-fact signal: what the rules classifier found in a region that made it keep the region.

Learning steps after the review read them (is this footer kept only for the employer's name? which texts did it
match?), so they travel typed with the verdict and the learned rule; the rule's reason is their readable form."""

from __future__ import annotations

from typing import NamedTuple

# Notes on how a signal was found, read by later steps.
COPYRIGHT_NOTE = "(copyright line)"
OPENINGS_NOTE = "(a line naming the owner's jobs)"
MAP_LINK_NOTE = "(a link to a map)"
MAP_LINK_BESIDE_NOTE = "(the place a link to a map beside it points to)"
ADDRESS_ELEMENT_NOTE = "(an <address> element)"
PLACE_LINE_NOTE = "(a line naming a known town and its country in the site footer)"
SITE_MAILBOX_NOTE = "(the employer's own mailbox in the site footer)"
LABEL_VALUE_NOTE = "(dt/dd, th)"

LABEL_VALUE_KIND = "label/value markup"
# How a kind is named in a reason where its bare name would mislead ("apply 'Jetzt bewerben'").
_SHOWN_AS = {"apply": "apply link"}


class Signal(NamedTuple):
    kind: str  # a key of JOB_FACT_SIGNALS, "link", "address", "contact", "employer", "section" or LABEL_VALUE_KIND
    text: str = ""  # what it matched: a phrase, a link target, a name ("" where the markup is the signal)
    notes: tuple[str, ...] = ()

    def __str__(self) -> str:
        shown = _SHOWN_AS.get(self.kind, self.kind)
        return " ".join([shown, *([repr(self.text)] if self.text else []), *self.notes])

    def noted(self, note: str) -> Signal:
        return self._replace(notes=(*self.notes, note))


def signals_reason(signals) -> str:
    """The rules classifier's reason for keeping a region for these signals (the first three say enough)."""
    return f"rules: job-fact signal: {', '.join(str(signal) for signal in list(signals)[:3])}"
