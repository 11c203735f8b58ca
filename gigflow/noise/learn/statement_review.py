"""Statements of a kept region judged one by one (``gigflow.noise.statements``): what reads as template goes, a
label, a contact's name or a line broken in two stays with the fact beside it."""

from __future__ import annotations

import re

from gigflow.noise.learn.classifier import COPYRIGHT_MARK, JOB_FACT_SIGNALS, ReviewRegion, names_job_section
from gigflow.noise.learn.footer_phones import needless_phone_line
from gigflow.noise.learn.office_details import office_detail_line
from gigflow.noise.statements import statement_markup, statements
from gigflow.noise.learn.template import is_explicit_label
from gigflow.noise.learn.region_review import in_postal_address, in_site_footer, map_link_beside, review_regions


def statements_without_facts(classifier, learnable: dict, by_signature: dict, verdicts: dict, settings,
                              report, refs, phones_elsewhere: frozenset = frozenset()) -> dict:
    """For each region the rules keep for a fact, its statements (``gigflow.noise.statements``) that state none:
    {(selector, signature): [statement keys]}.

    Rules remove whole elements, so a footer part kept for its copyright line kept the cookie sentence after its
    ``<br>`` too. Statements in a part kept on its own are that part's to judge; the others (with the parts
    learned as template in them, which go anyway) are judged one by one, as a region would be. One
    stays with a statement kept next to it when it is that one's label ("Contact:", a heading), the name of the
    contact it introduces, or the first half of a line broken in two ("12 Harbour Street," above "20457 Hamburg");
    and only what reads as template goes (``_reads_as_template``). In the site footer a line of nothing but a fax
    number or a phone the page states outside the footer (``phones_elsewhere``, its digits) goes too (BA)."""
    removed = {region for (_selector, signature), region in learnable.items()
               if verdicts[by_signature[signature].id].decision == "remove"}
    kept = set(learnable.values()) - removed
    judged: dict = {}
    asked: list[ReviewRegion] = []
    for (selector, signature), region in learnable.items():
        verdict = verdicts[by_signature[signature].id]
        if region not in kept or not verdict.reason.startswith("rules:") or any(
                signal.kind == "section" for signal in verdict.signals):
            continue  # what a posting's section says is the job's, statement by statement too
        kept_inside = {node for node in region.iterdescendants() if node in kept}
        removed_inside = {node for node in region.iterdescendants() if node in removed}
        # A statement wholly in a part learned as template goes with it; one in a part kept on its own is that
        # part's to judge (it stays here).
        found = [statement for statement in statements(region) if not _wholly_in(statement, region, removed_inside)]
        settled = [_in_part(statement, region, kept_inside) for statement in found]
        if len(found) < 2 or all(settled):
            continue
        footer = in_site_footer(region) is not None
        postal = in_postal_address(region)
        mapped = map_link_beside(region)  # each line of an office beside its map link is that place's (JJ)
        ids = []
        for i, (statement, in_part) in enumerate(zip(found, settled)):
            if in_part:
                ids.append(None)
                continue
            review = ReviewRegion(
                id=f"{by_signature[signature].id}.s{i + 1}", selector=selector, signature=signature, tag="statement",
                text=statement.text, html=statement_markup(statement)[: settings.max_region_sent_chars],
                links=tuple((" ".join(a.text_content().split()) or a.get("aria-label") or a.get("title") or "",
                             a.get("href")) for a in statement.links() if a.get("href")),
                site_footer=footer, postal_address=postal, beside_map_link=mapped)
            asked.append(review)
            ids.append(review.id)
        judged[(selector, signature)] = (found, ids, footer)
    if not asked:
        return {}
    decisions = review_regions(classifier, asked, settings, report)
    dropped = {}
    for key, (found, ids, footer) in judged.items():
        # A statement with no signal goes only when it reads as template: links, a copyright notice, a sentence.
        # A few plain words ("Lund, Sverige", "Deutschland", a name) may be a fact no signal reads: they stay.
        keep = [i is None or (decisions[i].decision == "keep" or not _reads_as_template(s)) and not (
                    footer and (needless_phone_line(s.text, phones_elsewhere) or office_detail_line(s.text)))
                for i, s in zip(ids, found)]
        for i in range(len(found) - 2, -1, -1):  # right to left: a label before a label before a fact stays
            if not keep[i] and keep[i + 1] and _leads_into(found[i], found[i + 1]):
                keep[i] = True
        for i in range(1, len(found)):
            if not keep[i] and keep[i - 1] and _continues(found[i - 1], found[i]):
                keep[i] = True
        for i in _under_job_section_headings(found):
            keep[i] = True
        if any(keep) and not all(keep):
            dropped[key] = list(dict.fromkeys(s.key(refs) for s, kept_one in zip(found, keep) if not kept_one))
    return dropped


def _wholly_in(statement, region, parts: set) -> bool:
    """Whether every piece of ``statement`` lies in one of ``parts`` inside ``region``."""
    def inside(piece) -> bool:
        owner = piece.node.getparent() if piece.where == "tail" else piece.node
        for node in (owner, *owner.iterancestors()):
            if node is region:
                return False
            if node in parts:
                return True
        return False

    return bool(parts) and all(inside(piece) for piece in statement.pieces)


def _in_part(statement, view, parts: set) -> bool:
    """Whether a piece of ``statement`` lies in (or holds) one of ``parts`` inside ``view``."""
    for piece in statement.pieces:
        owner = piece.node.getparent() if piece.where == "tail" else piece.node
        if piece.where == "element" and any(part in parts for part in piece.node.iterdescendants()):
            return True
        for node in (owner, *owner.iterancestors()):
            if node is view:
                break
            if node in parts:
                return True
    return False


_CONTINUED = re.compile(r"[,;&+/–-]$")
PROSE_MIN_WORDS = 4
LONG_STATEMENT_WORDS = 8


def _reads_as_template(statement) -> bool:
    """Mostly link text (a legal link, "Made by <a>Agency</a>"), a copyright notice ("All rights reserved."),
    a sentence of several words ("We use cookies to …"), or a long line: what a site says around its facts."""
    text = statement.text
    if "@" in text or any((a.get("href") or "").strip().lower().startswith(("mailto:", "tel:"))
                          for a in statement.links()):
        return False  # contact details beside the region's fact (a general mailbox under a phone) are judged whole
    words = len(text.split())
    if _mostly_links(statement) or COPYRIGHT_MARK.search(text) or words >= LONG_STATEMENT_WORDS:
        return True
    # Digits outside links may be a fact no signal reads (a number, a date); in a link's text ("FREEHTML5.co") they
    # name the link's site.
    unlinked = text
    for a in statement.links():
        unlinked = unlinked.replace(" ".join(a.text_content().split()), " ")
    return words >= PROSE_MIN_WORDS and not any(ch.isdigit() for ch in unlinked) and bool(re.search(r"[.!?。]", text))


def _heading_level(statement) -> int:
    """1-6 for a statement that is a whole ``h1``-``h6``, else 0."""
    tag = statement.container.tag if statement.container is not None else ""
    return int(tag[1]) if isinstance(tag, str) and re.fullmatch(r"h[1-6]", tag) else 0


def _under_job_section_headings(found) -> list[int]:
    """Indexes of the statements in a section whose heading names job content ("Benefits!", "Requirements"),
    up to the next heading of its level or above: what such a section says ("We'll provide you with a MacBook Pro")
    is the job's, though no signal reads it. Link lines in it are judged as before (a menu column under "Benefits")."""
    out, level = [], 0
    for i, statement in enumerate(found):
        heading = _heading_level(statement)
        if heading and (not level or heading <= level):
            level = heading if names_job_section(statement.text) else 0
            continue
        if level and not _mostly_links(statement):
            out.append(i)
    return out


def _mostly_links(statement) -> bool:
    """Half its shown characters or more are link text."""
    shown = len("".join(statement.text.split()))
    return sum(len("".join(a.text_content().split())) for a in statement.links()) * 2 >= shown


def _continues(first, second) -> bool:
    """``second`` carries on the line ``first`` breaks off ("12 Harbour Street," / "20457 Hamburg"), in one block."""
    return second.after_break and first.container is second.container and bool(_CONTINUED.search(first.text))


def _leads_into(first, second) -> bool:
    """``first`` introduces ``second`` in one block: a label ("Contact:", "Phone"), a heading, a continued line, or
    the name of the person whose phone or mail follows."""
    if first.container is not second.container and not is_explicit_label(first.container):
        return False
    text = first.text
    if is_explicit_label(first.container) or text.endswith((":", "：")) or _continues(first, second):
        return True
    return person_name(text) and bool(JOB_FACT_SIGNALS["contact"].search(second.text))


CONTACT_NAME_MAX_WORDS = 6
# Particles inside a family name ("Anna van Dijk"); every other word of a person's name starts with a capital.
_NAME_PARTICLES = frozenset({"van", "von", "de", "der", "den", "da", "di", "du", "la", "le"})


def person_name(text: str) -> bool:
    """A given and a family name, perhaps with a role after a comma ("Jane Doe, HR"), not "Contact us"."""
    if not text or len(text.split()) > CONTACT_NAME_MAX_WORDS or any(ch.isdigit() for ch in text) or "@" in text:
        return False
    name = [word for word in text.split(",", 1)[0].split() if word not in _NAME_PARTICLES]
    return 2 <= len(name) <= 4 and all(word[0].isupper() and word.replace("-", "").replace("'", "").isalpha()
                                       for word in name)
