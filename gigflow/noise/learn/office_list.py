"""A site footer's list of the employer's offices where the job's own text names every office's town (issue #23, GB).

One office in the footer is kept as the employer's address: often it is the only place the page states, and
labels count it as the job's location even where the posting names its town too. A list of offices in several towns
("Toulouse / 46-48 Rue André Vasseur, 31200 Toulouse", "Paris / 82 Av. du Maine, 75014 Paris", ...) is the
company's map, not this job's place; where the posting itself names the town of every one of them ("Toulouse,
Aix-en-Provence, Paris et Lyon"), the list only restates it. Decided by trial, like the restated regions (DA): the
kept parts of one footer block, each an office (a postcode and a town), in two or more towns, go together
when every sample's Markdown without them still names each town and keeps every other fact it showed.
Where the samples' jobs name only some of the towns ("in our Chicago office"), the offices in towns none of them
names go and the one the jobs name stays, the job's own office (round 32, IJ). A part counts as an office when its
signals are places, addresses and contacts (a phone or mail link is a contact), in a site footer by its tag, role
or name.

Rules verdicts only. Pure over the samples; learning only.
"""

from __future__ import annotations

import re
from collections import defaultdict

from gigflow.noise.learn.candidates import in_site_footer
from gigflow.noise.learn.classifier import RULES_NAME
from gigflow.noise.learn.restated_regions import in_landmark, rule_matches
from gigflow.noise.learn.sample_facts import fact_snippets, normalise_snippet, sample_markdown
from gigflow.noise.model import NoiseFilter

REASON = ("rules: the site footer's list of the employer's offices in several towns, each of which the job's own "
          "text names on every sample")
OFFICE_KINDS = frozenset({"location", "address", "contact"})
MIN_TOWNS = 2
# A postcode and its town on one line ("31200 Toulouse", "D-44879 Bochum", "13290 Aix-en-Provence"), or a town
# before a state and ZIP code ("Seattle, WA 98103"); not a year before a name ("2025 Acme").
_POSTCODE_TOWN = re.compile(r"(?<![\w©.-])(?:[A-Z]{1,2}-)?(?!(?:19|20)\d\d\b)\d{4,5}\s+"
                            r"([^\W\d_][\w'’.-]*(?:[ -][^\W\d_][\w'’.-]*){0,3})")
# A house number and its street ("12275 Weckman Road") reads like a postcode and a town: a street's word ends it.
_STREET_END = re.compile(r"\b(?:street|st|road|rd|avenue|ave|boulevard|blvd|lane|ln|drive|dr|way|court|ct|square|"
                         r"place|parkway|pkwy|highway|hwy|trail|circle)\.?$", re.I)
_TOWN_STATE_ZIP = re.compile(r"([^\W\d_][\w'’.-]*(?: [^\W\d_][\w'’.-]*){0,2}),\s*[A-Z]{2}\s+\d{5}\b")


def office_town(text: str) -> str:
    """The town of the office a block's text states, or "". An address ends with its town: the last line naming
    one counts ("1165 Rue Jean ..." above "13290 Aix-en-Provence" is a street). A mailbox beside it goes with the
    office only where the page states it elsewhere too (``without_office_lists``' trial)."""
    for line in reversed(text.splitlines()):
        found = [m.group(1) for pattern in (_POSTCODE_TOWN, _TOWN_STATE_ZIP) for m in pattern.finditer(line)
                 if not _STREET_END.search(m.group(1).strip(" ."))]
        if found:
            return found[-1].strip(" .").casefold()
    return ""


def _lines(region) -> str:
    """The region's text, a line per text node ("46-48 Rue André Vasseur<br>31200 Toulouse": two lines)."""
    text = "\n".join(region.itertext())
    return "\n".join(" ".join(line.split()) for line in text.splitlines() if line.strip())


def without_office_lists(samples, roots, reused: list, decided: list, regions: list, signatures,
                         config_hash: str) -> list:
    """``decided`` with the rules' keeps of a footer's office list turned to removals where every sample's
    Markdown without them names each office's town (see the module). ``regions``: the first sample's element of each
    learned rule, in ``decided``'s order."""
    groups: dict[object, list[tuple[int, str]]] = defaultdict(list)
    for i, region in enumerate(regions):
        rule = decided[i]
        if (rule.decision != "keep" or rule.classifier != RULES_NAME or not rule.signals
                or not {_office_kind(s) for s in rule.signals} <= OFFICE_KINDS
                or not (in_landmark(region) or in_site_footer(region) is not None)):
            continue
        town = office_town(_lines(region))
        parent = region.getparent()
        if town and parent is not None:
            groups[parent].append((i, town))
    turned: set[int] = set()
    baseline = None
    learned = set(regions)
    for parent, members in groups.items():
        # An office beside them that stays as the job's content (under its heading "Where to find us") is one of
        # the list's towns too, though no rule of its own was learned for it.
        towns = {town for _i, town in members} | {
            office_town(_lines(child)) for child in parent
            if isinstance(child.tag, str) and child not in learned} - {""}
        if len(towns) < MIN_TOWNS:
            continue
        indices = {i for i, _town in members}
        matches = [[rule_matches(root, decided[i], signatures, k) for i in indices] for k, root in enumerate(roots)]
        if not all(all(per_rule) for per_rule in matches):
            continue  # not the same list on every sample
        if baseline is None:
            current = NoiseFilter(config_hash=config_hash, rules=reused + _turned(decided, turned))
            baseline = [normalise_snippet(sample_markdown(s, current)) for s in samples]
        # Their own facts may go with them, but a mailbox only where the page states it elsewhere too.
        own = [{s for found in per_sample for region in found for s in fact_snippets(region) if "@" not in s}
               for per_sample in matches]
        # The whole list where the job's text names every town; else the offices in towns no sample's job names,
        # where an office in a town they do name stays (the job's own office: "in our Chicago office"). Both read
        # the samples prepared without the whole list.
        pages = _trial(indices, samples, reused, decided, turned, config_hash)
        if _keeps_facts(pages, samples, baseline, own) and all(_named(town, page) for page in pages
                                                                for town in towns):
            turned |= indices
            baseline = None
            continue
        named = {town for town in towns if all(_named(town, page) for page in pages)}
        elsewhere = {i for i, town in members if not any(_named(town, page) for page in pages)}
        if named and elsewhere and _keeps_facts(_trial(elsewhere, samples, reused, decided, turned, config_hash),
                                                samples, baseline, own):
            turned |= elsewhere
            baseline = None
    return _turned(decided, turned) if turned else decided


def _office_kind(signal) -> str:
    """A signal's kind as an office's part: a phone or mail link is a contact."""
    if signal.kind == "link" and signal.text.lower().startswith(("tel:", "mailto:")):
        return "contact"
    return signal.kind


def _named(town: str, markdown: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(town)}(?!\w)", markdown) is not None


def _trial(trying: set[int], samples, reused, decided, turned, config_hash) -> list[str]:
    """Each sample's Markdown, one line and case folded, with ``trying`` turned to removals too."""
    noise_filter = NoiseFilter(config_hash=config_hash, rules=reused + _turned(decided, turned | trying))
    return [" ".join(sample_markdown(sample, noise_filter).split()).casefold() for sample in samples]


def _keeps_facts(pages: list[str], samples, baseline, own) -> bool:
    """Whether no sample loses a fact it showed, besides the turned offices' own."""
    for k, (sample, page) in enumerate(zip(samples, pages)):
        normalised = normalise_snippet(page)
        if any(s in baseline[k] and s not in normalised and s not in own[k] for s in fact_snippets(sample.tree())):
            return False
    return True


def _turned(decided: list, turn: set[int]) -> list:
    return [rule.model_copy(update={"decision": "remove", "reason": REASON}) if i in turn else rule
            for i, rule in enumerate(decided)]
