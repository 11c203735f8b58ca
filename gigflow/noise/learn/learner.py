"""The learner (learn_noise_filter): candidates -> learnable regions -> one review -> rules, reusing approved ones."""

from __future__ import annotations

import re
from collections import defaultdict, deque
from dataclasses import dataclass
from datetime import datetime, timezone

from lxml import etree

from gigflow.adapters.common import host_of
from gigflow.adapters.gazetteer import is_place
from gigflow.noise.apply import region_excerpt
from gigflow.noise.learn.candidates import all_candidates, candidate_regions, region_parts
from gigflow.noise.learn.classifier import JOB_FACT_SIGNALS, RegionClassifier, RegionVerdict, ReviewRegion
from gigflow.noise.model import NoiseFilter, RemovalRule, SampleRef
from gigflow.noise.selectors import InvalidSelectorError, PageIndex, relaxed_path, select
from gigflow.noise.learn.settings import NoiseSettings
from gigflow.noise.signal import COPYRIGHT_NOTE
from gigflow.noise.signature import (SIBLING_POSTINGS_SIGNATURE, TAB_LIST_SIGNATURE, SelfReferences, in_page_tab_list,
                                     sibling_postings_lists, signature_for)
from gigflow.noise.learn.template import (SiteTemplate, analyse_template, blocks_missing_on_first, in_link_menu,
                                          is_explicit_label, is_field_label, is_label_value_row,
                                          in_site_landmark, is_heading, job_section_in_content, label_and_value)
from gigflow.noise.learn.owner import (looks_like_a_board, owner_restated_by_removals, owner_to_protect, site_owner,
                                      spelled_out, without_needless_owner_keeps)
from gigflow.noise.learn.restated import without_restated_footer_facts
from gigflow.noise.learn.restated_mailbox import without_restated_mailboxes
from gigflow.noise.learn.office_list import without_office_lists
from gigflow.noise.learn.restated_regions import without_restated_regions
from gigflow.noise.learn.brand import name_across_parts
from gigflow.noise.learn.footer_phones import phones_stated_elsewhere
from gigflow.noise.learn.operator_blocks import blocks_shared_across_employers
from gigflow.noise.learn.page_title import posting_titles
from gigflow.noise.learn.forms import names_a_form_field
from gigflow.noise.learn.training import TrainingPage
from gigflow.noise.learn.sample_facts import fact_retention
from gigflow.noise.learn.region_review import (LearningReport, NoiseLearningError, SkippedRegion, in_site_footer,
                                               review_region, review_regions)
from gigflow.noise.learn.selection import Signatures, learnable_selector, match_everywhere, quorum
from gigflow.noise.learn.statement_review import person_name, statements_without_facts


# Kept regions are split into their parts for another review at most this many times.
MAX_REVIEW_ROUNDS = 6
# A line naming an office's place is short ("Roosendaal (HQ)", "Den Haag").
OFFICE_NAME_MAX_WORDS = 4


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
    # A company named by the site's host ("acme.com", a URL's first guess before anyone named it) states no name a
    # page shows: taken for the employer it would only hide the name the site states itself by (its copyright).
    hosts = {host_of(s.url).removeprefix("www.") for s in samples}
    companies = tuple(dict.fromkeys(s.company for s in samples if s.company and s.company.lower() not in hosts))
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
    # Lists of the site's other postings are candidates wherever they stand ("Related jobs" inside the job's
    # container): one region with one signature, whatever jobs they show (FQ, FR).
    postings = [sibling_postings_lists(root, page_refs) for root, page_refs in zip(roots, refs)]
    candidate_sets = [all_candidates(root) | structural | set(lists)
                      for root, structural, lists in zip(roots, template.candidate_sets(len(roots)), postings)]
    site_owner_name = "" if classifier.employers or classifier.site_operator_only else owner_guess
    # The site owner is the employer here (no board): the model is told its name.
    classifier.site_owner_name = site_owner_name
    owner = owner_to_protect(site_owner_name, roots, candidate_sets) if site_owner_name else ""
    if owner:  # no company, no JSON-LD employer named: the site owner's name where only template states it
        # an acronym's written-out name ("CQS", "Computational Quantum Science" in the footer) is the owner's too
        spelled = spelled_out(owner, roots)
        classifier.employers, classifier.owner = (owner, spelled) if spelled else (owner,), owner
    indexes = [PageIndex(root) for root in roots]
    signatures = Signatures(refs)
    titles = posting_titles(roots)

    reused: list[RemovalRule] = []
    covered: set = set()  # page-0 regions a reused rule already covers
    # A person's decision (classifier "manual", remove or keep) is settled: carried over while its region
    # still matches, never put to the classifier again. Other approved removals only in an automatic review.
    carried = [] if current is None else [r for r in current.rules if r.classifier == SETTLED_CLASSIFIER] + (
        [] if manual else [r for r in current.removal_rules() if r.classifier != SETTLED_CLASSIFIER])
    if carried:
        signature_of = signature_for(current.version)
        for rule in carried:
            regions, why = match_everywhere(rule.selector, roots, candidate_sets)
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
    pending = _outermost(roots[0], candidates[0] + template.candidates + postings[0])
    unlabelled: set = set()  # parts whose headings and labels name nothing kept (see below)
    for review_round in range(MAX_REVIEW_ROUNDS):
        fresh = _learnable_regions(pending, covered, template, roots, indexes, candidate_sets, settings, report,
                                   signatures, split=review_round > 0, unlabelled=unlabelled)
        fresh = {key: region for key, region in fresh.items() if key not in learnable}
        learnable.update(fresh)
        regions = []
        for (selector, signature), region in fresh.items():
            if signature not in by_signature:
                by_signature[signature] = review_region(f"r{len(by_signature) + 1}", selector, signature, region,
                                                         settings, samples[0].url, titles.get(roots[0], ()))
                regions.append(by_signature[signature])
        verdicts.update(review_regions(classifier, regions, settings, report))
        if classifier.splits_kept_regions and review_round > 0:
            _one_employer_statement(fresh, by_signature, verdicts)
        # A region kept for a job fact is often a fact beside template (a legal name beside imprint links):
        # its parts are reviewed on their own in the next round, so only the part holding the fact stays.
        # A name set in several parts ("<div>Acme</div><a>Labs</a>", AU) is no part's: that region stays whole.
        # A section that opens with a heading naming job content ("Why should you join Acme") is the job's
        # whole: its cards say what the heading promises, though no signal reads them.
        pending = [part for (_selector, signature), region in fresh.items()
                   if classifier.splits_kept_regions and verdicts[by_signature[signature].id].decision == "keep"
                   and not name_across_parts(region, _split(region), classifier.employers)
                   and not job_section_in_content(region)
                   for part in _split(region)]
        # A region kept for nothing but the site's copyright line: the line is a statement of its own, so a
        # heading beside it ("Follow us") names the section's links, not the line, and is no label to keep.
        unlabelled.update(part for (_selector, signature), region in fresh.items()
                          if _kept_only_for_a_copyright_line(verdicts[by_signature[signature].id])
                          for part in _split(region))
        if not pending:
            break
    # CB: on a board, blocks that pages of different employers share (its own text in two template versions).
    operator = blocks_shared_across_employers(
        roots, [frozenset(name.casefold() for name in s.employer_names()) for s in samples], refs) \
        if classifier.site_operator_only else ({}, {})
    _learn_blocks_missing_on_first(roots, refs, candidate_sets, classifier, settings, report, learnable,
                                   by_signature, verdicts, *operator, content_root=template.job_region(),
                                   urls={root: sample.url for root, sample in zip(roots, samples)}, titles=titles)
    _links_found_again_in_content(roots, learnable, by_signature, verdicts, signatures)
    for (_selector, signature), _region in learnable.items():  # other jobs' facts, whatever they say
        if signature == SIBLING_POSTINGS_SIGNATURE:
            review_id = by_signature[signature].id
            verdicts[review_id] = RegionVerdict("remove", SIBLING_POSTINGS, verdicts[review_id].classifier)
    if classifier.splits_kept_regions:  # a "get in touch" box whose mailbox the job's own apply link writes to (AT)
        without_restated_mailboxes(roots, learnable, by_signature, verdicts, signatures, classifier)
    report.learnable = len(learnable)
    dropped = statements_without_facts(
        classifier, learnable, by_signature, verdicts, settings, report, refs[0],
        phones_stated_elsewhere(roots, _removed(learnable, by_signature, verdicts), in_site_footer)) \
        if classifier.splits_kept_regions else {}

    decided = []
    for selector, signature in learnable:
        verdict = verdicts[by_signature[signature].id]
        decided.append(RemovalRule(selector=selector, signature=signature, decision=verdict.decision,
                                   reason=verdict.reason, classifier=verdict.classifier, signals=list(verdict.signals),
                                   path=relaxed_path(learnable[(selector, signature)]),
                                   lines=signatures.lines(learnable[(selector, signature)]),
                                   text=region_excerpt(learnable[(selector, signature)]),
                                   drop_statements=dropped.get((selector, signature), []),
                                   restated=list(verdict.restated)))
    decided += _tab_list_rules(roots, signatures, classifier.name, {rule.selector for rule in reused + decided})
    if owner:  # the owner's name kept where it is needed only
        decided = without_needless_owner_keeps(owner, samples, reused, decided, list(learnable.values()), config_hash)
    # The footer's copyright line and office where the job's own text states the employer's legal name (AS).
    employer_name = site_owner_name or (next(iter(named.values())) if len(named) == 1 else "")
    if classifier.splits_kept_regions and not classifier.site_operator_only:
        decided = without_restated_footer_facts(employer_name, samples, reused, decided, list(learnable.values()),
                                                in_site_footer, config_hash)
    if classifier.splits_kept_regions:  # any template region whose every fact the rest of the page states (DA)
        decided = without_restated_regions(samples, roots, reused, decided, list(learnable.values()), signatures,
                                           classifier, config_hash)
        # a footer's offices in several towns, each of which the job's own text names (GB)
        decided = without_office_lists(samples, roots, reused, decided, list(learnable.values()), signatures,
                                       config_hash)
    if site_owner_name and not owner:  # the owner named in what stays: its name kept where a page has it only here
        decided = owner_restated_by_removals(site_owner_name, decided, list(learnable.values()))
    report.decisions = decided
    noise_filter = NoiseFilter(config_hash=config_hash, rules=reused + decided, samples=report.samples,
                               completed_at=datetime.now(timezone.utc))
    report.facts_before, report.facts_after = fact_retention(samples, noise_filter)
    return LearningResult(filter=noise_filter, report=report)


DUPLICATE_LINKS = ("rules: only links to targets the job's own content links to on every sample (a second way "
                   "to apply is no fact of its own)")


SIBLING_POSTINGS = ("rules: a list of the site's other postings (each item links to another page in the folder of "
                    "the page's own address): other jobs' facts, not this job's")
TAB_LIST = ("rules: an in-page tab list (its tabs show panels of this page) is a control, like a form's buttons; "
            "the panels with the job's text stay")


def _removed(learnable: dict, by_signature: dict, verdicts: dict) -> set:
    """The first sample's regions learned as template."""
    return {region for (_selector, signature), region in learnable.items()
            if verdicts[by_signature[signature].id].decision == "remove"}


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
    ("Apply for this position"). A link whose own text states a fact (an address, a phone number) goes only where
    the content's link to that target says the same: an office's map link is no copy of another office's."""
    def links(region):
        return [a for a in region.iter("a") if (a.get("href") or "").strip()]

    def words(a) -> str:
        return " ".join(a.text_content().split())

    # per sample, once: the link targets of its content outside every learned region, with their texts
    targets: dict[int, dict[str, set]] = {}

    def content_targets(k: int, root) -> dict[str, set]:
        if k not in targets:
            learned = set()  # what the filter may remove: every learned region's match with its signature
            for other_selector, other_signature in learnable:
                try:
                    learned.update(r for r in select(root, other_selector) if signatures(r, k) == other_signature)
                except InvalidSelectorError:
                    continue
            targets[k] = defaultdict(set)
            for a in links(root):
                if not any(x in learned for x in (a, *a.iterancestors())):
                    targets[k][_link_target(a.get("href"))].add(words(a))
        return targets[k]

    def found_again(a, k: int, root, same_text: bool) -> bool:
        texts = content_targets(k, root).get(_link_target(a.get("href")))
        return texts is not None and (not same_text or words(a) in texts)

    for (selector, signature), region in learnable.items():
        verdict = verdicts[by_signature[signature].id]
        if verdict.decision != "keep" or not verdict.reason.startswith("rules:") or any(
                signal.kind == "employer" for signal in verdict.signals):
            continue  # a link kept for the employer's name ("<a>Acme Co</a>") states the name, not a target
        if not links(region) or " ".join(region.text_content().split()) != " ".join(
                " ".join(a.text_content().split()) for a in links(region)):
            continue  # text besides its links (a deadline, a contact) is judged as it was
        same_text = any(signal.kind in ("address", "contact") for signal in verdict.signals)
        everywhere, seen_on = True, 0
        for k, root in enumerate(roots):
            try:
                found = [r for r in select(root, selector) if signatures(r, k) == signature]
            except InvalidSelectorError:
                found = []
            seen_on += bool(found)
            if found and not all(found_again(a, k, root, same_text) for r in found for a in links(r)):
                everywhere = False
                break
        if everywhere and seen_on >= quorum(len(roots)):
            verdicts[by_signature[signature].id] = RegionVerdict("remove", DUPLICATE_LINKS, verdict.classifier)


def _kept_only_for_a_copyright_line(verdict: RegionVerdict) -> bool:
    """A rules verdict whose one signal is the employer stated by the site's copyright line."""
    return _kept_only_for_the_employer(verdict) and COPYRIGHT_NOTE in verdict.signals[0].notes


def _kept_only_for_the_employer(verdict: RegionVerdict) -> bool:
    return verdict.decision == "keep" and [signal.kind for signal in verdict.signals] == ["employer"]


def _one_employer_statement(fresh: dict, by_signature: dict, verdicts: dict) -> None:
    """Sibling parts kept only because they name the employer ("© 2026 Acme B.V." beside "Acme B.V. is a website
    of ..."): the employer's name needs to stay once. The one stating a legal form stays, then the site's
    copyright line (where a reader looks for the owner's name), then the shortest; the others go."""
    groups: dict = {}
    for (_selector, signature), region in fresh.items():
        verdict = verdicts[by_signature[signature].id]
        if _kept_only_for_the_employer(verdict):
            text = " ".join(region.text_content().split())
            groups.setdefault(region.getparent(), []).append((not JOB_FACT_SIGNALS["employer"].search(text),
                                                              COPYRIGHT_NOTE not in verdict.signals[0].notes,
                                                              len(text), signature))
    for members in groups.values():
        if len(members) < 2:
            continue
        members.sort()
        for _not_legal, _not_copyright, _length, signature in members[1:]:
            if signature == members[0][3]:  # a copy of the one that stays (a brand link twice): one verdict
                continue
            review_id = by_signature[signature].id
            verdicts[review_id] = RegionVerdict(
                "remove", "rules: names the employer, as the copyright line or a shorter part beside it does; that one "
                          "stays", verdicts[review_id].classifier)


def _learn_blocks_missing_on_first(roots, refs, candidate_sets, classifier, settings, report, learnable,
                                   by_signature, verdicts, operator: dict | None = None,
                                   operator_learn: dict | None = None, urls: dict | None = None,
                                   titles: dict | None = None, content_root=None) -> None:
    """Template blocks on some samples only, the first one not among them (a notice on older postings, a banner
    on two pages of five): learned from a sample that has one, seen from it as the first, and found as learned on
    at least two samples. The content checks hold as for any candidate (this job's text, headings and labels
    inside the job's region stay) and the review keeps a block stating a job fact. One review, no splitting.

    ``operator``, ``operator_learn``: on a board, each sample's blocks that a sample naming another employer
    shares, and those to learn from it (``blocks_shared_across_employers``): learned here too (the first sample's
    included), and judged though they hold a heading inside the job's region (the board's own text, class CB)."""
    operator, urls, titles = operator or {}, urls or {}, titles or {}
    missing = blocks_missing_on_first(roots, refs, content_root)
    for k, blocks in (operator_learn or {}).items():
        missing[k] = _outermost(roots[k], missing.get(k, []) + blocks)
    if not missing:
        return
    candidate_sets = [set(c) for c in candidate_sets]
    for k, blocks in (*missing.items(), *operator.items()):
        candidate_sets[k].update(blocks)
    fresh: dict = {}
    for k, blocks in missing.items():
        order = [k] + [j for j in range(len(roots)) if j != k]
        rotated = [roots[j] for j in order]
        template = analyse_template(rotated, [refs[j] for j in order], shared=set(blocks))
        template.board = classifier.site_operator_only
        template.operator = set(operator.get(k, ()))
        found = _learnable_regions(blocks, set(), template, rotated, [PageIndex(r) for r in rotated],
                                   [candidate_sets[j] for j in order], settings, report,
                                   Signatures([refs[j] for j in order]), split=False, need=2)
        for key, region in found.items():
            if key not in learnable and key not in fresh:
                fresh[key] = region
    regions = []
    for (selector, signature), region in fresh.items():
        if signature not in by_signature:
            root = region.getroottree().getroot()
            by_signature[signature] = review_region(f"r{len(by_signature) + 1}", selector, signature, region,
                                                     settings, urls.get(root), titles.get(root, ()))
            regions.append(by_signature[signature])
    verdicts.update(review_regions(classifier, regions, settings, report))
    learnable.update(fresh)


def _learnable_regions(pending, covered, template: SiteTemplate, roots, indexes, candidate_sets,
                       settings: NoiseSettings, report: LearningReport, signatures, *, split: bool,
                       need: int | None = None, unlabelled: set = frozenset()) -> dict:
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
            content = template.is_content(region) or (split and region not in unlabelled
                                                       and _names_or_follows_a_label(region))
            if content:
                report.skipped.append(SkippedRegion(indexes[0].selector_candidates(region)[-1],
                                                    f"job content: {content}"))
                continue
            selector, why = learnable_selector(region, roots, indexes, candidate_sets, settings, signatures, need)
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
    if names_a_form_field(region):
        return ""  # "Search:" over a search box names its input: the form is a control, judged (IY)
    if is_explicit_label(region) and _heads_landmark_sections(region):
        return ""  # "Page Footer, Sitemap & Colophon" over the footer's sections names them, no fact (JB): judged
    if is_explicit_label(region) or is_label_value_row(region) and in_site_footer(region) is None:
        # In the site footer a "Label: value" row is the office's (opening hours, fax): judged by what it says.
        return "a heading or field label beside a job fact"
    previous = region.getprevious()
    while previous is not None and not isinstance(previous.tag, str):
        previous = previous.getprevious()
    if previous is not None and (is_explicit_label(previous) or _paired_with(previous, region)) \
            and not _landmark_sections(region):
        return "the value of a heading or field label beside a job fact"
    if _names_a_contact(region):
        return "the name of the contact whose phone or mail follows"
    if _names_an_office(region):
        return "the place of the office whose address follows"
    return ""
def _landmark_sections(region) -> bool:
    """Sections of the site's header or footer under a heading of the whole ("Page Footer, Sitemap & Colophon" over
    the footer's address, menus and social links): headings of their own, so no one value of that heading (JB)."""
    return in_site_landmark(region) and any(is_heading(node) for node in region.iterdescendants(etree.Element))


def _heads_landmark_sections(label) -> bool:
    """``label`` is a heading right before sections of the site's header or footer (``_landmark_sections``)."""
    following = label.getnext()
    while following is not None and not isinstance(following.tag, str):
        following = following.getnext()
    return following is not None and is_heading(label) and _landmark_sections(following)


def _paired_with(label, value) -> bool:
    """``label`` and ``value`` are the two parts of one row and the label names a kind of job fact
    ("Qualification" | "Graduate"): the value is that fact, though the label has no colon ("Email" | "info@…"
    names none; "Acme GmbH" or "Lindenweg 4" above a line is a value, not a label)."""
    parent = value.getparent()
    if parent is None or not is_field_label(label) or value.find(".//a") is not None or value.tag == "a" \
            or label_and_value(parent) != (label, value):
        return False  # links beside a name ("Acme GmbH" above "Imprint · Privacy") are no value of it
    text = " ".join(label.text_content().split())
    if any(ch.isdigit() for ch in text) or "@" in text:
        return False  # a value itself ("Lindenweg 4" above "D-12345 Falkenau"), not the name of one
    return any(pattern.search(text) for kind, pattern in JOB_FACT_SIGNALS.items()
               if kind not in ("label", "employer", "contact", "address"))


_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})


def _names_a_contact(region) -> bool:
    """A short line of words without links or digits right before a line with a phone number or an e-mail address
    ("Jane Doe, Head of HR" above "+46 70 123 45 67"): the person to contact, a fact with their details."""
    if region.find(".//a") is not None or any(el.tag in _HEADINGS for el in region.iter()):
        return False  # a heading ("Contact us") names a section, not a person
    if not person_name(" ".join(region.text_content().split())):
        return False
    return _next_line_states(region, "contact")


def _names_an_office(region) -> bool:
    """A short line naming a place, without links or digits, right before a line with a postal address ("Roosendaal
    (HQ)" above "Aanwas 35, 4704 SC"): the town of that office, where the address line names none."""
    text = " ".join(region.text_content().split())
    if not text or len(text.split()) > OFFICE_NAME_MAX_WORDS or any(ch.isdigit() for ch in text) \
            or region.find(".//a") is not None or region.tag == "a" or not is_place(text):
        return False
    return _next_line_states(region, "address")


def _next_line_states(region, kind: str) -> bool:
    """The region's next sibling element, of its own tag, shows a ``kind`` signal (a line of the same block)."""
    following = region.getnext()
    while following is not None and not isinstance(following.tag, str):
        following = following.getnext()
    return following is not None and following.tag == region.tag and bool(
        JOB_FACT_SIGNALS[kind].search(" ".join(following.text_content().split())))


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


def create_noise_filter(samples, current: NoiseFilter | None, *, classifier, config_hash: str,
                        manual: bool = False, settings=None) -> NoiseFilter:
    """A complete filter from 3 to 6 distinct samples: the learner's result without its report."""
    return learn_noise_filter(samples, current, classifier, config_hash=config_hash, settings=settings,
                              manual=manual).filter
