"""The learner (learn_noise_filter): candidates -> learnable regions -> one review -> rules, reusing approved ones."""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field
from datetime import datetime, timezone

from lxml import etree
from lxml import html as lxml_html

from gigflow.noise.apply import region_excerpt
from gigflow.noise.learn.candidates import all_candidates, candidate_regions, is_footer_named, region_parts
from gigflow.noise.learn.classifier import (COPYRIGHT_LINE, COPYRIGHT_MARK, JOB_FACT_SIGNALS, BatchError,
                                           RegionClassifier, RegionVerdict, ReviewRegion)
from gigflow.noise.model import NoiseFilter, RemovalRule, SampleRef
from gigflow.noise.selectors import InvalidSelectorError, PageIndex, relaxed_path, select
from gigflow.noise.learn.settings import NoiseSettings
from gigflow.noise.statements import statement_markup, statements
from gigflow.noise.signature import (TAB_LIST_SIGNATURE, SelfReferences, in_page_tab_list, learned_lines,
                                     region_signature, signature_for, within_variation)
from gigflow.noise.learn.template import (SiteTemplate, analyse_template, blocks_missing_on_first, in_link_menu,
                                          is_explicit_label, is_label_value_row)
from gigflow.noise.learn.owner import looks_like_a_board, owner_to_protect, site_owner, without_needless_owner_keeps
from gigflow.noise.learn.training import TrainingPage

CONTROL_TAGS = ("input", "select", "textarea", "button")
# What a form control says to a reader, for the classifier: its label, placeholder, name or button text.
CONTROL_WORDS = ("aria-label", "placeholder", "title", "name", "value", "alt")
# Kept regions are split into their parts for another review at most this many times.
MAX_REVIEW_ROUNDS = 6


class NoiseLearningError(RuntimeError):
    """Learning could not complete; nothing partial is returned."""


@dataclass
class SkippedRegion:
    selector: str
    reason: str


@dataclass
class LearningReport:
    samples: list[SampleRef] = field(default_factory=list)
    candidates: int = 0  # outer candidate regions across all samples
    learnable: int = 0  # distinct learnable regions (by selector and signature)
    examined: int = 0  # regions looked at (candidates and parts), at most NOISE_MAX_REGIONS
    skipped: list[SkippedRegion] = field(default_factory=list)
    regions_sent: int = 0
    model_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    attempts: int = 0
    failures: list[str] = field(default_factory=list)
    decisions: list[RemovalRule] = field(default_factory=list)  # every decision made in this review
    reused: list[RemovalRule] = field(default_factory=list)
    not_reused: list[SkippedRegion] = field(default_factory=list)
    classifier: str = ""
    facts_before: tuple[int, int] = (0, 0)  # (kept, total) job-fact snippets on the samples, without the filter
    facts_after: tuple[int, int] = (0, 0)

    @property
    def learned(self) -> list[RemovalRule]:
        return [r for r in self.decisions if r.decision == "remove"]


SETTLED_CLASSIFIER = "manual"  # a decision flipped by a person (review app): settled, never reviewed again


@dataclass
class LearningResult:
    filter: NoiseFilter
    report: LearningReport


def learn_noise_filter(samples: list[TrainingPage], current: NoiseFilter | None, classifier: RegionClassifier, *,
                       config_hash: str, settings: NoiseSettings | None = None, manual: bool = False) -> LearningResult:
    """Learn a filter from 3 to 6 distinct samples. Rules decided by a person (classifier ``manual``) are kept
    as they are wherever selector and signature still match; a manual review ignores the rest of ``current``,
    otherwise its approved removal rules are reused likewise. Every other region is reviewed."""
    settings = settings or classifier.settings
    samples = _distinct(samples)
    if not settings.min_samples <= len(samples) <= settings.max_samples:
        raise NoiseLearningError(f"learning needs {settings.min_samples} to {settings.max_samples} distinct sample "
                                 f"pages; got {len(samples)}")
    report = LearningReport(classifier=classifier.name)
    companies = tuple(dict.fromkeys(s.company for s in samples if s.company))
    classifier.employers = tuple(dict.fromkeys(classifier.employers + companies))
    report.samples = [SampleRef(source_id=s.source_id, source_version_id=s.source_version_id, sha256=s.sha256,
                                url=s.url) for s in samples]
    roots = [s.prepared() for s in samples]
    refs = [SelfReferences.of_page(root, s.url) for root, s in zip(roots, samples)]
    named = {name.casefold(): name for s in samples for name in s.employer_names()}
    if len(named) > 1:  # several employers across the samples: what the pages share is the site operator's
        classifier.site_operator_only = True
    elif named:  # one employer on every sample: its name anywhere is the employer, a job fact
        classifier.employers = tuple(dict.fromkeys(classifier.employers + tuple(named.values())))
    # The name the site states itself by (copyright holder, og:site_name, JSON-LD, logo): read before the board
    # check, so titles naming the owner itself ("Careers at Acme", "Careers at Acme Labs") are no board signal.
    owner_guess = "" if classifier.employers or classifier.site_operator_only else site_owner(samples, roots)
    if not classifier.employers and not classifier.site_operator_only and not owner_guess and looks_like_a_board(
            samples, roots):
        # No company and no JSON-LD, but the pages read as a board (their titles name different companies, they
        # link out to different employers' sites, their menus offer a directory of companies): the regions they
        # share are the operator's, as with JSON-LD naming several employers.
        classifier.site_operator_only = True
    candidates = [candidate_regions(root) for root in roots]
    report.candidates = sum(len(c) for c in candidates)
    # Constant subtrees across the samples are candidates too: table and div layouts carry no header/nav tags.
    template = analyse_template(roots, refs)
    template.board = classifier.site_operator_only
    candidate_sets = [all_candidates(root) | structural
                      for root, structural in zip(roots, template.candidate_sets(len(roots)))]
    site_owner_name = "" if classifier.employers or classifier.site_operator_only else owner_guess
    # The site owner is the employer here (no board): the model is told its name.
    classifier.site_owner_name = site_owner_name
    owner = owner_to_protect(site_owner_name, roots, candidate_sets) if site_owner_name else ""
    if owner:  # no company, no JSON-LD employer named: the site owner's name where only template states it
        classifier.employers, classifier.owner = (owner,), owner
    indexes = [PageIndex(root) for root in roots]
    signatures = _Signatures(refs)

    reused: list[RemovalRule] = []
    covered: set = set()  # page-0 regions a reused rule already covers
    # A person's decision (classifier "manual", remove or keep) is settled: carried over while its region
    # still matches, never put to the classifier again. Other approved removals only in an automatic review.
    carried = [] if current is None else [r for r in current.rules if r.classifier == SETTLED_CLASSIFIER] + (
        [] if manual else [r for r in current.removal_rules() if r.classifier != SETTLED_CLASSIFIER])
    if carried:
        signature_of = signature_for(current.version)
        for rule in carried:
            regions, why = _match_everywhere(rule.selector, roots, candidate_sets)
            if regions is None:
                report.not_reused.append(SkippedRegion(rule.selector, why))
                continue
            same = [[r for r in page if signature_of(r, refs[k]) == rule.signature] for k, page in enumerate(regions)]
            if not same[0] or sum(1 for page in same if page) < quorum(len(roots)):
                report.not_reused.append(SkippedRegion(rule.selector, "region changed since the last review"))
            else:  # stored again with this version's signature
                reused.append(rule.model_copy(update={"signature": signatures(same[0][0], 0)}))
                covered.update(same[0])
    report.reused = reused

    learnable: dict[tuple[str, str], etree._Element] = {}
    by_signature: dict[str, ReviewRegion] = {}
    verdicts: dict[str, RegionVerdict] = {}
    # Outer regions first (tagged candidates and constant subtrees found across the samples); an outer region
    # that cannot be learned (controls, size, changes, ambiguity, job content inside) stays, and its parts are
    # tried on their own, so one search box or one per-page link does not keep a whole header.
    pending = _outermost(roots[0], candidates[0] + template.candidates)
    for review_round in range(MAX_REVIEW_ROUNDS):
        fresh = _learnable_regions(pending, covered, template, roots, indexes, candidate_sets, settings, report,
                                   signatures, split=review_round > 0)
        fresh = {key: region for key, region in fresh.items() if key not in learnable}
        learnable.update(fresh)
        regions = []
        for (selector, signature), region in fresh.items():
            if signature not in by_signature:
                by_signature[signature] = _review_region(f"r{len(by_signature) + 1}", selector, signature, region,
                                                         settings)
                regions.append(by_signature[signature])
        verdicts.update(_review(classifier, regions, settings, report))
        if classifier.splits_kept_regions and review_round > 0:
            _one_employer_statement(fresh, by_signature, verdicts)
        # A region kept for a job fact is often a fact beside template (a legal name beside imprint links):
        # its parts are reviewed on their own in the next round, so only the part holding the fact stays.
        pending = [part for (_selector, signature), region in fresh.items()
                   if classifier.splits_kept_regions and verdicts[by_signature[signature].id].decision == "keep"
                   for part in _split(region)]
        if not pending:
            break
    _learn_blocks_missing_on_first(roots, refs, candidate_sets, classifier, settings, report, learnable,
                                   by_signature, verdicts)
    _links_found_again_in_content(roots, learnable, by_signature, verdicts, signatures)
    report.learnable = len(learnable)
    dropped = _statements_without_facts(classifier, learnable, by_signature, verdicts, settings, report, refs[0]) \
        if classifier.splits_kept_regions else {}

    decided = []
    for selector, signature in learnable:
        verdict = verdicts[by_signature[signature].id]
        decided.append(RemovalRule(selector=selector, signature=signature, decision=verdict.decision,
                                   reason=verdict.reason, classifier=verdict.classifier,
                                   path=relaxed_path(learnable[(selector, signature)]),
                                   lines=signatures.lines(learnable[(selector, signature)]),
                                   text=region_excerpt(learnable[(selector, signature)]),
                                   drop_statements=dropped.get((selector, signature), [])))
    decided += _tab_list_rules(roots, signatures, classifier.name, {rule.selector for rule in reused + decided})
    if owner:  # the owner's name kept where it is needed only
        decided = without_needless_owner_keeps(owner, samples, reused, decided, list(learnable.values()), config_hash)
    report.decisions = decided
    noise_filter = NoiseFilter(config_hash=config_hash, rules=reused + decided, samples=report.samples,
                               completed_at=datetime.now(timezone.utc))
    report.facts_before, report.facts_after = fact_retention(samples, noise_filter)
    return LearningResult(filter=noise_filter, report=report)


EMPLOYER_ONLY = "rules: job-fact signal: employer "
DUPLICATE_LINKS = ("rules: only links to targets the job's own content links to on every sample (a second way "
                   "to apply is no fact of its own)")


TAB_LIST = ("rules: an in-page tab list (its tabs show panels of this page) is a control, like a form's buttons; "
            "the panels with the job's text stay")


def _tab_list_rules(roots, signatures, classifier: str, taken: set) -> list[RemovalRule]:
    """In-page tab lists (``in_page_tab_list``) found where the same selector finds one on a quorum of samples:
    their labels vary with the job's sections ("Responsibilities", "Experience & skills"), so no template
    comparison learns them, yet they are navigation. Labels with digits or an ``@`` (a date, a mailbox) stay."""
    rules = []
    for region in roots[0].iter():
        if not isinstance(region.tag, str) or not in_page_tab_list(region):
            continue
        if re.search(r"[0-9@]", region.text_content()):
            continue
        selector = f'{region.tag}[role="tablist"]'
        if selector in taken:
            continue
        found = 0
        for k, root in enumerate(roots):
            matches = select(root, selector)
            found += any(signatures(m, k) == TAB_LIST_SIGNATURE for m in matches)
        if found >= quorum(len(roots)):
            taken.add(selector)
            rules.append(RemovalRule(selector=selector, signature=TAB_LIST_SIGNATURE, decision="remove",
                                     reason=TAB_LIST, classifier=classifier, path=relaxed_path(region),
                                     text=region_excerpt(region)))
    return rules


def _link_target(href: str) -> str:
    """A link's target as compared between a template region and the content: no fragment, no trailing slash."""
    target = href.strip().split("#", 1)[0].rstrip("/")
    scheme, sep, rest = target.partition("://")
    if sep:
        host, slash, path = rest.partition("/")
        target = f"{scheme.lower()}://{host.lower()}{slash}{path}"
    return target


def _links_found_again_in_content(roots, learnable: dict, by_signature: dict, verdicts: dict, signatures) -> None:
    """A kept region that is nothing but links ("Apply Now" in the job's header) whose every target is also
    linked from the page's content, outside every learned region, on every sample that has the region (a quorum
    of them), states nothing the page loses without it: the job's apply link stays where the content states it
    ("Apply for this position")."""
    def links(region):
        return [a for a in region.iter("a") if (a.get("href") or "").strip()]

    targets: dict[int, set] = {}  # per sample, once: the link targets of its content outside every learned region

    def content_targets(k: int, root) -> set:
        if k not in targets:
            learned = set()  # what the filter may remove: every learned region's match with its signature
            for other_selector, other_signature in learnable:
                try:
                    learned.update(r for r in select(root, other_selector) if signatures(r, k) == other_signature)
                except InvalidSelectorError:
                    continue
            targets[k] = {_link_target(a.get("href")) for a in links(root)
                          if not any(x in learned for x in (a, *a.iterancestors()))}
        return targets[k]

    for (selector, signature), region in learnable.items():
        verdict = verdicts[by_signature[signature].id]
        if verdict.decision != "keep" or not verdict.reason.startswith("rules:") or "employer " in verdict.reason:
            continue  # a link kept for the employer's name ("<a>Acme Co</a>") states the name, not a target
        if not links(region) or " ".join(region.text_content().split()) != " ".join(
                " ".join(a.text_content().split()) for a in links(region)):
            continue  # text besides its links (a deadline, a contact) is judged as it was
        everywhere, seen_on = True, 0
        for k, root in enumerate(roots):
            try:
                found = [r for r in select(root, selector) if signatures(r, k) == signature]
            except InvalidSelectorError:
                found = []
            seen_on += bool(found)
            if found and any(_link_target(a.get("href")) not in content_targets(k, root)
                             for r in found for a in links(r)):
                everywhere = False
                break
        if everywhere and seen_on >= quorum(len(roots)):
            verdicts[by_signature[signature].id] = RegionVerdict("remove", DUPLICATE_LINKS, verdict.classifier)


def _statements_without_facts(classifier, learnable: dict, by_signature: dict, verdicts: dict, settings,
                              report, refs) -> dict:
    """For each region the rules keep for a fact, its statements (``gigflow.noise.statements``) that state none:
    {(selector, signature): [statement keys]}.

    Rules remove whole elements, so a footer part kept for its copyright line kept the cookie sentence after its
    ``<br>`` too. Statements in a part kept on its own are that part's to judge; the others (with the parts
    learned as template in them, which go anyway) are judged one by one, as a region would be. One
    stays with a statement kept next to it when it is that one's label ("Contact:", a heading), the name of the
    contact it introduces, or the first half of a line broken in two ("12 Harbour Street," above "20457 Hamburg");
    and only what reads as template goes (``_reads_as_template``)."""
    removed = {region for (_selector, signature), region in learnable.items()
               if verdicts[by_signature[signature].id].decision == "remove"}
    kept = set(learnable.values()) - removed
    judged: dict = {}
    asked: list[ReviewRegion] = []
    for (selector, signature), region in learnable.items():
        verdict = verdicts[by_signature[signature].id]
        if region not in kept or not verdict.reason.startswith("rules:"):
            continue
        kept_inside = {node for node in region.iterdescendants() if node in kept}
        removed_inside = {node for node in region.iterdescendants() if node in removed}
        # A statement wholly in a part learned as template goes with it; one in a part kept on its own is that
        # part's to judge (it stays here).
        found = [statement for statement in statements(region) if not _wholly_in(statement, region, removed_inside)]
        settled = [_in_part(statement, region, kept_inside) for statement in found]
        if len(found) < 2 or all(settled):
            continue
        footer = in_site_footer(region) is not None
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
                site_footer=footer)
            asked.append(review)
            ids.append(review.id)
        judged[(selector, signature)] = (found, ids)
    if not asked:
        return {}
    decisions = _review(classifier, asked, settings, report)
    dropped = {}
    for key, (found, ids) in judged.items():
        # A statement with no signal goes only when it reads as template: links, a copyright notice, a sentence.
        # A few plain words ("Lund, Sverige", "Deutschland", a name) may be a fact no signal reads: they stay.
        keep = [i is None or decisions[i].decision == "keep" or not _reads_as_template(s)
                for i, s in zip(ids, found)]
        for i in range(len(found) - 2, -1, -1):  # right to left: a label before a label before a fact stays
            if not keep[i] and keep[i + 1] and _leads_into(found[i], found[i + 1]):
                keep[i] = True
        for i in range(1, len(found)):
            if not keep[i] and keep[i - 1] and _continues(found[i - 1], found[i]):
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
    shown = len("".join(text.split()))
    linked = sum(len("".join(a.text_content().split())) for a in statement.links())
    words = len(text.split())
    if linked * 2 >= shown or COPYRIGHT_MARK.search(text) or words >= LONG_STATEMENT_WORDS:
        return True
    return words >= PROSE_MIN_WORDS and not any(ch.isdigit() for ch in text) and bool(re.search(r"[.!?。]", text))


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
    return _person_name(text) and bool(JOB_FACT_SIGNALS["contact"].search(second.text))


def _one_employer_statement(fresh: dict, by_signature: dict, verdicts: dict) -> None:
    """Sibling parts kept only because they name the employer ("© 2026 Acme B.V." beside "Acme B.V. is a website
    of ..."): the employer's name needs to stay once. The one stating a legal form stays, then the site's
    copyright line (where a reader looks for the owner's name), then the shortest; the others go."""
    groups: dict = {}
    for (_selector, signature), region in fresh.items():
        verdict = verdicts[by_signature[signature].id]
        if verdict.decision == "keep" and verdict.reason.startswith(EMPLOYER_ONLY) and "," not in verdict.reason[
                len(EMPLOYER_ONLY):]:
            text = " ".join(region.text_content().split())
            groups.setdefault(region.getparent(), []).append((not JOB_FACT_SIGNALS["employer"].search(text),
                                                              not verdict.reason.endswith(COPYRIGHT_LINE),
                                                              len(text), signature))
    for members in groups.values():
        if len(members) < 2:
            continue
        members.sort()
        for _not_legal, _not_copyright, _length, signature in members[1:]:
            review_id = by_signature[signature].id
            verdicts[review_id] = RegionVerdict(
                "remove", "rules: names the employer, as the copyright line or a shorter part beside it does; that one "
                          "stays", verdicts[review_id].classifier)


def _learn_blocks_missing_on_first(roots, refs, candidate_sets, classifier, settings, report, learnable,
                                   by_signature, verdicts) -> None:
    """Template blocks on some samples only, the first one not among them (a notice on older postings, a banner
    on two pages of five): learned from a sample that has one, seen from it as the first, and found as learned on
    at least two samples. The content checks hold as for any candidate (this job's text, headings and labels
    inside the job's region stay) and the review keeps a block stating a job fact. One review, no splitting."""
    missing = blocks_missing_on_first(roots, refs)
    if not missing:
        return
    candidate_sets = [set(c) for c in candidate_sets]
    for k, blocks in missing.items():
        candidate_sets[k].update(blocks)
    fresh: dict = {}
    for k, blocks in missing.items():
        order = [k] + [j for j in range(len(roots)) if j != k]
        rotated = [roots[j] for j in order]
        template = analyse_template(rotated, [refs[j] for j in order], shared=set(blocks))
        template.board = classifier.site_operator_only
        found = _learnable_regions(blocks, set(), template, rotated, [PageIndex(r) for r in rotated],
                                   [candidate_sets[j] for j in order], settings, report,
                                   _Signatures([refs[j] for j in order]), split=False, need=2)
        for key, region in found.items():
            if key not in learnable and key not in fresh:
                fresh[key] = region
    regions = []
    for (selector, signature), region in fresh.items():
        if signature not in by_signature:
            by_signature[signature] = _review_region(f"r{len(by_signature) + 1}", selector, signature, region,
                                                     settings)
            regions.append(by_signature[signature])
    verdicts.update(_review(classifier, regions, settings, report))
    learnable.update(fresh)


def _learnable_regions(pending, covered, template: SiteTemplate, roots, indexes, candidate_sets,
                       settings: NoiseSettings, report: LearningReport, signatures, *, split: bool,
                       need: int | None = None) -> dict:
    """Learnable regions among ``pending`` and, where a region cannot be learned whole, among its parts.

    ``split``: the parts of a region kept for a job fact, where a heading, a field label and the value right
    after one stay with the fact they name.
    """
    learnable: dict[tuple[str, str], etree._Element] = {}
    pending = deque(pending)
    while pending:
        if report.examined >= settings.max_regions:
            report.skipped.append(SkippedRegion(f"{len(pending)} more region(s)",
                                                f"over NOISE_MAX_REGIONS ({settings.max_regions}): left in the page"))
            break
        report.examined += 1
        region = pending.popleft()
        if region in covered:
            continue
        why = template.holds_content(region)
        if not why:
            content = template.is_content(region) or (split and _names_or_follows_a_label(region))
            if content:
                report.skipped.append(SkippedRegion(indexes[0].selector_candidates(region)[-1],
                                                    f"job content: {content}"))
                continue
            selector, why = _learnable_selector(region, roots, indexes, candidate_sets, settings, signatures, need)
            if selector is not None:
                learnable.setdefault((selector, signatures(region, 0)), region)
                continue
        inner = region_parts(region)
        report.skipped.append(SkippedRegion(indexes[0].selector_candidates(region)[-1],
                                            why + (f"; its {len(inner)} part(s) tried instead" if inner else "")))
        pending.extendleft(reversed(inner))
    return learnable


def _split(region) -> list:
    """The parts of a kept region, through single-part wrappers; none when it has only one part."""
    parts = region_parts(region)
    while len(parts) == 1:
        parts = region_parts(parts[0])
    return parts


def _names_or_follows_a_label(region) -> str:
    if in_link_menu(region):
        # A menu of links under group names (a footer's dl of "Docs: Overview, Components"): its items are tried
        # one by one, so only the item stating a fact (a mailto link) stays, with its group's name.
        return ""
    if is_explicit_label(region) or is_label_value_row(region) and in_site_footer(region) is None:
        # In the site footer a "Label: value" row is the office's (opening hours, fax): judged by what it says.
        return "a heading or field label beside a job fact"
    previous = region.getprevious()
    while previous is not None and not isinstance(previous.tag, str):
        previous = previous.getprevious()
    if previous is not None and is_explicit_label(previous):
        return "the value of a heading or field label beside a job fact"
    if _names_a_contact(region):
        return "the name of the contact whose phone or mail follows"
    return ""


CONTACT_NAME_MAX_WORDS = 6
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
# Particles inside a family name ("Anna van Dijk"); every other word of a person's name starts with a capital.
_NAME_PARTICLES = frozenset({"van", "von", "de", "der", "den", "da", "di", "du", "la", "le"})


def _names_a_contact(region) -> bool:
    """A short line of words without links or digits right before a line with a phone number or an e-mail address
    ("Jane Doe, Head of HR" above "+46 70 123 45 67"): the person to contact, a fact with their details."""
    if region.find(".//a") is not None or any(el.tag in _HEADINGS for el in region.iter()):
        return False  # a heading ("Contact us") names a section, not a person
    if not _person_name(" ".join(region.text_content().split())):
        return False
    following = region.getnext()
    while following is not None and not isinstance(following.tag, str):
        following = following.getnext()
    return following is not None and following.tag == region.tag and bool(
        JOB_FACT_SIGNALS["contact"].search(" ".join(following.text_content().split())))


def _person_name(text: str) -> bool:
    """A given and a family name, perhaps with a role after a comma ("Jane Doe, HR"), not "Contact us"."""
    if not text or len(text.split()) > CONTACT_NAME_MAX_WORDS or any(ch.isdigit() for ch in text) or "@" in text:
        return False
    name = [word for word in text.split(",", 1)[0].split() if word not in _NAME_PARTICLES]
    return 2 <= len(name) <= 4 and all(word[0].isupper() and word.replace("-", "").replace("'", "").isalpha()
                                       for word in name)


def _outermost(root, regions: list) -> list:
    """The regions not inside another one, in document order."""
    chosen = set(regions)
    order = {el: i for i, el in enumerate(root.iter()) if el in chosen}
    return [el for el in sorted(chosen, key=order.__getitem__)
            if not any(ancestor in chosen for ancestor in el.iterancestors())]


def _distinct(samples: list[TrainingPage]) -> list[TrainingPage]:
    seen, out = set(), []
    for s in samples:
        if s.sha256 not in seen:
            seen.add(s.sha256)
            out.append(s)
    return out


class _Signatures:
    """Signatures of sample regions with their page's self-references normalised, computed once per region."""

    def __init__(self, refs):
        self.refs = refs
        self.cache: dict = {}

    def __call__(self, region, page: int) -> str:
        found = self.cache.get(region)
        if found is None:
            found = self.cache[region] = region_signature(region, self.refs[page])
        return found

    def lines(self, region, page: int = 0) -> list:
        """The region's text lines as a rule stores them ([] when too large to compare line by line)."""
        key = ("lines", region)
        if key not in self.cache:
            self.cache[key] = learned_lines(region, self.refs[page])
        return self.cache[key]

    def same(self, region, other, page: int) -> bool:
        """``other`` on sample ``page`` is ``region`` (of the first sample): by signature, or with bounded
        variation (``within_variation``: lines of the region, new menu links stating no fact)."""
        if self(other, page) == self(region, 0):
            return True
        learned = self.lines(region, 0)
        if not learned:
            return False
        key = ("varied", region, other)
        if key not in self.cache:
            theirs = self.lines(other, page)
            self.cache[key] = bool(theirs) and within_variation(theirs, learned) and within_variation(learned, theirs)
        return self.cache[key]


def quorum(n_pages: int) -> int:
    """On how many samples a template region must be found as learned: all of 2, else two thirds (at least 2).

    A template region may differ on a minority of pages (an older page, a page with one more menu item): the
    rule is learned from the others and leaves a page where the region differs as it is."""
    return n_pages if n_pages <= 2 else max(2, -(-2 * n_pages // 3))


# A selector may match a few regions on a page (a share bar at the top and at the bottom, tabbed copies):
# apply removes those with the learned signature. More matches than this make a selector too loose to keep.
MAX_MATCHES = 4


def _match_everywhere(selector: str, roots, candidate_sets):
    """The complete candidate regions ``selector`` matches on each page (a list per page), or None and why not."""
    regions = []
    for root, candidates in zip(roots, candidate_sets):
        try:
            matches = select(root, selector)
        except InvalidSelectorError as exc:
            return None, str(exc)
        regions.append([m for m in matches if _in_candidate(m, candidates)][:MAX_MATCHES])
    if not regions[0]:
        return None, "region missing on the first sample"
    return regions, ""


def _learnable_selector(region, roots, indexes, candidate_sets, settings: NoiseSettings, signatures,
                        need: int | None = None):
    """The shortest selector that finds ``region`` and, on a quorum of samples, a candidate region with its
    signature (self-references normalised), matching at most MAX_MATCHES regions on any sample."""
    if len(lxml_html.tostring(region, encoding="unicode")) > settings.max_region_chars:
        return None, f"over the size limit ({settings.max_region_chars} characters of markup)"
    steps = indexes[0].structured_steps(region)
    selectors = indexes[0].selector_candidates(region)
    need = need or quorum(len(indexes))
    found_elsewhere = 0
    loose = False
    # Where positions shift between samples (one more sibling before the region), the region is still found
    # by its path without positions and its signature: apply looks there too (RemovalRule.path).
    relaxed = [(tag, role, label, None) for tag, role, label, _nth in steps]
    by_path = [any(signatures.same(region, m, k) for m in index.select(relaxed)
                   if _in_candidate(m, candidates))
               for k, (index, candidates) in enumerate(zip(indexes, candidate_sets))]
    # A selector that finds one region on every sample reads best and is the least likely to find a stranger
    # on a new page; one that finds a few (repeated or tabbed copies) only when no unique one exists.
    for most in (1, MAX_MATCHES):
        for n, selector in enumerate(selectors, start=1):
            agreeing = 0
            too_many = False
            for k, (index, candidates) in enumerate(zip(indexes, candidate_sets)):
                found = index.select(steps[-n:])
                matches = [m for m in found if _in_candidate(m, candidates)]
                if len(found) > most or (k == 0 and region not in matches):
                    too_many = True
                    break
                if by_path[k] or any(signatures.same(region, m, k) for m in matches):
                    agreeing += 1
            if too_many:
                loose = True
                continue
            found_elsewhere = max(found_elsewhere, agreeing)
            if agreeing >= need:
                # The stored selector is what apply runs: confirm the CSS agrees with the fast search.
                confirmed, _why = _match_everywhere(selector, roots, candidate_sets)
                if confirmed is not None and region in confirmed[0] and sum(
                        1 for k, page in enumerate(confirmed)
                        if by_path[k] or any(signatures.same(region, m, k) for m in page)) >= need:
                    return selector, ""
    if found_elsewhere:
        return None, (f"differs between samples (text, structure, attributes or links): found as learned on "
                      f"{found_elsewhere} of {len(indexes)} samples, {need} needed")
    if loose:
        return None, f"ambiguous selector: every selector matches more than {MAX_MATCHES} regions on a sample"
    return None, "differs between samples (text, structure, attributes or links)"


def _in_candidate(el, candidates) -> bool:
    return any(node in candidates for node in (el, *el.iterancestors()))


def _label(region) -> str:
    label = region.get("aria-label") or ""
    ids = (region.get("aria-labelledby") or "").split()
    if ids:
        root = region.getroottree()
        texts = [el.text_content() for i in ids for el in root.xpath("//*[@id=$i]", i=i)]
        label = " ".join([label] + texts)
    return " ".join(label.split())


def _review_region(region_id, selector, signature, region, settings: NoiseSettings) -> ReviewRegion:
    links = tuple((" ".join(a.text_content().split()) or a.get("aria-label") or a.get("title") or "", a.get("href"))
                  for a in region.iter("a") if a.get("href"))
    markup = lxml_html.tostring(region, encoding="unicode")
    return ReviewRegion(id=region_id, selector=selector, signature=signature, tag=region.tag,
                        text=" ".join(region.text_content().split()), links=links,
                        html=markup[: settings.max_region_sent_chars], label=_label(region),
                        fact_text=_fact_text(region), controls=_controls(region),
                        site_footer=in_site_footer(region) is not None)


def _controls(region) -> tuple[str, ...]:
    """The region's form controls as a reader meets them: 'button: Accept all', 'input search: Search jobs'.
    A form's words are text a classifier can judge (a cookie banner, a search box, a newsletter sign-up)."""
    found = []
    labels = {lab.get("for"): " ".join(lab.text_content().split()) for lab in region.iter("label") if lab.get("for")}
    for el in region.iter(*CONTROL_TAGS, "form"):
        kind = el.tag if el.tag != "input" else f"input {(el.get('type') or 'text').lower()}"
        if kind == "input hidden":
            continue
        words = [labels.get(el.get("id"), "")] + [el.get(a) or "" for a in CONTROL_WORDS]
        if el.tag in ("button", "select"):
            words.append(el.text_content())
        if el.tag == "form":
            words = [el.get("aria-label") or "", el.get("name") or ""]
        said = " · ".join(dict.fromkeys(" ".join(w.split()) for w in words if w and w.strip()))
        found.append(f"{kind}: {said}" if said else kind)
        if len(found) >= 20:
            break
    return tuple(found)


def in_site_footer(region):
    """The site footer the region is or sits in, else None: a <footer> or role="contentinfo" that is not inside
    an <article> or <main> (an article's own footer holds its details), or an element whose class or id names a
    footer. Only regions the samples share get here."""
    footer = None
    for node in (region, *region.iterancestors()):
        if node.tag in ("article", "main") or (node.get("role") or "").strip().lower() in ("main", "article"):
            return None
        if node.tag == "footer" or (node.get("role") or "").strip().lower() == "contentinfo" or is_footer_named(node):
            footer = node  # the outermost: a footer's parts name the employer in a sibling (its legal line)
    return footer


LINK_LIST_MIN_ITEMS = 3
# A form's choices and buttons offer answers ("temporary", "full-time" in a select); they state no fact.
FORM_CHOICES = frozenset({"select", "option", "optgroup", "datalist", "button", "textarea"})
INLINE_TAGS = frozenset({"a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "dfn", "em", "font", "i", "kbd",
                         "mark", "q", "s", "samp", "small", "span", "strong", "sub", "sup", "time", "u", "var", "img"})


def _one_line(text: str | None) -> str:
    return " ".join(text.split()) + " " if text and text.strip() else ""


def _mostly_links(item) -> bool:
    text = len("".join(item.text_content().split()))
    linked = item.tag == "a" and text or sum(len("".join(a.text_content().split())) for a in item.iter("a"))
    return linked * 2 >= text


_WORD = re.compile(r"[^\W\d_]{2,}")


def _words_between(items) -> bool:
    """Whether words stand between the sibling ``items`` (links inside a sentence: "Code licensed under <a>MIT</a>.
    Docs under <a>Apache 2</a> | © 2016 <a>Acme Co</a>"), not only separators (a menu: "<a>Home</a> | <a>Jobs</a>")."""
    return any(item.tail and _WORD.search(item.tail) for item in items[:-1])


def _fact_text(region) -> str:
    """The region's text that can state this job's facts, one line per block: without link lists (three or more
    sibling items of one tag that each hold a link: menus, cards of other jobs, category lists) and without
    anything inside an ARIA feed (a list of other articles). Their words name other pages, not this job."""
    if any((el.get("role") or "").strip().lower() == "feed" for el in (region, *region.iterancestors())):
        return ""
    skipped = set()
    for el in region.iter(etree.Element):
        if (el.get("role") or "").strip().lower() == "feed" or el.tag in FORM_CHOICES:
            skipped.add(el)
        groups: dict = {}
        for child in el:
            if isinstance(child.tag, str):
                groups.setdefault(child.tag, []).append(child)
        for items in groups.values():
            if len(items) >= LINK_LIST_MIN_ITEMS and all(
                    item.tag == "a" or item.find(".//a") is not None for item in items) and not _words_between(items):
                # An item whose own words outweigh its links (a footer column with the office address beside
                # its mailto link) states something itself: it stays.
                skipped.update(item for item in items if _mostly_links(item))
    parts = []
    walker = etree.iterwalk(region, events=("start", "end"))
    for event, el in walker:
        if not isinstance(el.tag, str):
            continue
        block = el.tag not in INLINE_TAGS
        if event == "start":
            if block:
                parts.append("\n")
            if el in skipped:
                walker.skip_subtree()  # its end event still comes, with its tail
                continue
            parts.append(_one_line(el.text))
        else:
            if block:
                parts.append("\n")
            if el is not region:
                parts.append(_one_line(el.tail))
    lines = (" ".join(line.split()) for line in "".join(parts).split("\n"))
    return "\n".join(line for line in lines if line)


def _review(classifier: RegionClassifier, regions: list[ReviewRegion], settings: NoiseSettings,
            report: LearningReport) -> dict[str, RegionVerdict]:
    """The whole review, retried when any batch fails; nothing partial survives a failure."""
    report.regions_sent += len(regions)
    try:
        if not regions:
            return {}
        for attempt in range(1, settings.retries + 2):
            report.attempts = attempt
            try:
                return classifier.review(regions)
            except BatchError as exc:
                report.failures.append(f"attempt {attempt}: {exc}")
        raise NoiseLearningError(f"noise review failed after {settings.retries + 1} attempts: {report.failures[-1]}")
    finally:
        report.model_calls = classifier.usage.calls
        report.prompt_tokens = classifier.usage.prompt_tokens
        report.completion_tokens = classifier.usage.completion_tokens


# --- fact retention on the samples ------------------------------------------------------------------------
_WS = re.compile(r"\s+")


def _normalise(text: str) -> str:
    text = re.sub(r"[*_`#|>\\\[\]()]+", " ", text)
    return _WS.sub(" ", text).strip().lower()


def fact_snippets(root) -> set[str]:
    """Job-fact signals on a page (amounts, dates, locations, contacts, apply words...) plus its apply/contact links."""
    body = root.find("body")
    body = body if body is not None else root
    snippets = set()
    # An in-page tab list's labels name the job's sections; the facts are in its panels.
    tab_lists = {el for el in body.xpath('.//*[@role="tablist"]') if in_page_tab_list(el)}
    for el in body.iter(etree.Element):
        inside = el in tab_lists or any(a in tab_lists for a in el.iterancestors())
        for text in (el.text if not inside else None,
                     el.tail if not inside or el in tab_lists else None):
            if not text or not text.strip():
                continue
            for kind, pattern in JOB_FACT_SIGNALS.items():
                for match in pattern.finditer(text):
                    if kind == "amount" and not any(ch.isdigit() for ch in match.group(0)):
                        continue  # the word "salary" alone is a label, not an amount (as the classifier counts)
                    snippet = _normalise(match.group(0))
                    if len(snippet) >= 3:
                        snippets.add(snippet)
    return snippets


def fact_retention(samples: list[TrainingPage], noise_filter: NoiseFilter) -> tuple[tuple[int, int], tuple[int, int]]:
    """(kept, total) of the samples' job-fact snippets in the Markdown without and with the filter."""
    from gigflow.documents import prepare_html

    before = after = total = 0
    for sample in samples:
        snippets = fact_snippets(sample.tree())
        plain = _normalise(prepare_html(sample.body, sample.url, content_type=sample.content_type,
                                        strategy=sample.strategy).markdown)
        filtered = _normalise(prepare_html(sample.body, sample.url, content_type=sample.content_type,
                                           strategy=sample.strategy, noise_filter=noise_filter).markdown)
        total += len(snippets)
        before += sum(1 for s in snippets if s in plain)
        after += sum(1 for s in snippets if s in filtered)
    return (before, total), (after, total)


def create_noise_filter(samples, current: NoiseFilter | None, *, classifier, config_hash: str,
                        manual: bool = False, settings=None) -> NoiseFilter:
    """A complete filter from 3 to 6 distinct samples: the learner's result without its report."""
    return learn_noise_filter(samples, current, classifier, config_hash=config_hash, settings=settings,
                              manual=manual).filter
