"""A kept region whose one fact is the mailbox the job's own text already writes to (issue #23, AT).

A site-wide "Join us!" dialog or box ("If you like the web, get in touch: <a href="mailto:jobs@…">jobs@…</a>") is
the same on every page and kept by the rules for its contact and its mail link. Where the job's content, outside
every learned region, links to or states that same mailbox on every sample that has the region (its own "Apply"
button writes to jobs@… with this job's subject), the region adds no way to apply and no contact the page loses:
it goes when, without those addresses and links, it states no job fact at all. Mailboxes are compared by their
address (``mailto:`` subject and other parameters aside). Rules verdicts only: a model's keep judges the region in
its context.

ED: the region's mailbox may also be the site's own (an agency's front desk in its footer) where the job's content
names a contact mailbox of its own on every sample and none of them is in more than half of the samples' content:
a mailbox beside every job, whatever the job's contact, is no vacancy's contact. Such a region goes too.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from urllib.parse import unquote

from gigflow.noise.learn.classifier import RegionVerdict, job_fact_signals
from gigflow.noise.learn.outside import outside
from gigflow.noise.learn.sample_facts import normalise_snippet
from gigflow.noise.learn.selection import quorum
from gigflow.noise.selectors import InvalidSelectorError, select

# Starts only where a run of address characters starts: linear on a long run with no "@" (hostile text).
_ADDRESS = re.compile(r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
REASON = ("rules: its only fact is a mailbox the job's own text links to or states on every sample (the way to "
          "apply stays there)")
SITE_MAILBOX_REASON = ("rules: its only fact is a mailbox the same beside every job, while each job's own text "
                       "names a contact mailbox of its own that changes from job to job (the site's, not the vacancy's)")


def mailbox(href: str | None) -> str:
    """The address a ``mailto:`` link writes to, lower case, without its subject: '' for other links."""
    href = (href or "").strip()
    if not href.lower().startswith("mailto:"):
        return ""
    address = unquote(href[len("mailto:"):].split("?", 1)[0]).strip().split(",", 1)[0].strip()
    return address.casefold() if _ADDRESS.fullmatch(address) else ""


def _without_mailboxes(review, boxes: set[str]):
    """The review region as the classifier would see it without ``boxes``: their addresses gone from its text and
    the links that write to them gone."""
    # Plain substrings, not the address pattern: a region's text runs its blocks together ("you.jobs@acme.ioClose").
    pattern = re.compile("|".join(re.escape(box) for box in sorted(boxes, key=len, reverse=True)), re.I)

    def strip(text: str | None) -> str | None:
        return None if text is None else " ".join(pattern.sub(" ", text).split())

    links = tuple((text, href) for text, href in review.links if mailbox(href) not in boxes)
    return dataclasses.replace(review, text=strip(review.text), fact_text=strip(review.fact_text), links=links)


def _content_mailboxes(root, learned: set) -> set[str]:
    """The mailboxes a sample's content outside every learned region links to or states in its text."""
    found: set[str] = set()
    for el, text in outside(root, learned):
        if el is not None and el.tag == "a":
            found.add(mailbox(el.get("href")))
        found.update(m.casefold() for m in _ADDRESS.findall(text))
    return found - {""}


def without_restated_mailboxes(roots, learnable: dict, by_signature: dict, verdicts: dict, signatures,
                               classifier) -> None:
    """Turn to removals the kept regions whose one fact is a mailbox the content restates (see the module)."""
    content: dict[int, set] = {}

    def content_boxes(k: int, root) -> set:
        if k not in content:
            learned = set()
            for other_selector, other_signature in learnable:
                try:
                    learned.update(r for r in select(root, other_selector) if signatures(r, k) == other_signature)
                except InvalidSelectorError:
                    continue
            content[k] = _content_mailboxes(root, learned)
        return content[k]

    for (selector, signature), _region in learnable.items():
        review = by_signature[signature]
        verdict = verdicts[review.id]
        if verdict.decision != "keep" or not verdict.signals:
            continue
        # Addresses in its text are read line by line (``fact_text``) or link by link: ``text`` runs blocks together.
        lines = [review.text if review.fact_text is None else review.fact_text] + [text for text, _href in review.links]
        written = {m.casefold() for line in lines for m in _ADDRESS.findall(line)}
        boxes = {mailbox(href) for _text, href in review.links} | written
        boxes.discard("")
        if not boxes:
            continue
        if job_fact_signals(_without_mailboxes(review, boxes), classifier.employers, classifier.site_operator_only,
                            classifier.owner, classifier.site_owner_name):
            continue  # it states more than the mailbox (a deadline, a phone, the employer's name)
        restated, own = True, []
        for k, root in enumerate(roots):
            try:
                found = [r for r in select(root, selector) if signatures(r, k) == signature]
            except InvalidSelectorError:
                found = []
            if not found:
                continue
            own.append(content_boxes(k, root))
            if not boxes <= own[-1]:
                restated = False
        if len(own) < quorum(len(roots)):
            continue
        if restated:
            # A mailbox it writes out goes only where the page's own text restates it too: a posting without
            # its own "send your CV to jobs@…" line keeps the site's box, its one statement of where to apply (a
            # "Write to us" link alone is the site's contact, not the posting's).
            verdicts[review.id] = RegionVerdict("remove", REASON, verdict.classifier,
                                                restated=tuple(sorted(normalise_snippet(box) for box in written)))
        elif _contacts_vary(own):
            verdicts[review.id] = RegionVerdict("remove", SITE_MAILBOX_REASON, verdict.classifier)


def _contacts_vary(own: list[set]) -> bool:
    """Every sample's content states a mailbox of its own and none of them is in more than half of the samples'
    content: the vacancy's contact changes with the vacancy, so a region's mailbox that is the same beside every
    job is the site's (ED). One recruiter writing most of the jobs is the site's recruiter: judged as before."""
    if len(own) < 2 or not all(own):
        return False
    counts = Counter(box for boxes in own for box in boxes)
    return max(counts.values()) * 2 <= len(own)
