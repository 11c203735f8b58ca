"""Template regions whose every fact the rest of the page states again (issue #23, DA).

The rules keep a template region (a site header, a footer, a sidebar, a block the same on every sample) whenever
it shows a job-fact signal: the employer's name, an address, a mailbox, a phone, a place. Often the job's own text
states that same fact ("Acme GmbH, Lindenweg 4, 12345 Berlin, jobs@acme.example" under "Contact"), and the region
only repeats it. After the rules have decided, each such region is tried by removing it: it goes when, on every
sample that has it, every fact it states is still stated by the Markdown that remains without it:

- each job-fact snippet in its text (``fact_snippets``, compared as ``fact_retention`` compares them);
- each mailbox, phone and apply target of its links, and each mailbox in its text;
- each employer name it holds (the source's company, the JSON-LD employer, the site owner); where it states the
  name with a legal form or as the site's copyright line (round 11's AH: the employer's statement), a line of
  what remains must name the employer with a legal form (as round 14's AS asks);

and no sample loses a fact snippet its Markdown showed before the trial. Regions are tried largest first, each
trial keeping the removals accepted before it; a region goes whole or stays whole. Rounds 14 (AS, the footer's
employer and office) and 15 (AT, a box whose one fact is the apply mailbox) are special cases of this trial; both
stay, as they decide some regions this trial leaves (a footer line beside the footer's own legal name).

Rules verdicts only: a model's keep judges the region in its context. Each trial prepares every sample, so the
regions tried are capped (``MAX_TRIED``) after a cheap check that their facts occur outside them at all.
"""

from __future__ import annotations

import re

from gigflow.noise.learn.classifier import (COPYRIGHT_MARK, JOB_FACT_SIGNALS, RULES_NAME,
                                            _APPLY_VERB_ON_A_THING, _LINK_SIGNALS, _legal_link)
from gigflow.noise.learn.outside import outside
from gigflow.noise.learn.template import job_section_in_content
from gigflow.noise.learn.restated import _states_employer
from gigflow.noise.learn.restated_mailbox import _ADDRESS, mailbox
from gigflow.noise.learn.sample_facts import fact_snippets, normalise_snippet, sample_markdown
from gigflow.noise.model import NoiseFilter
from gigflow.noise.selectors import InvalidSelectorError, select
from gigflow.noise.signal import LABEL_VALUE_KIND, OPENINGS_NOTE
from gigflow.noise.signature import MAP_LINK

# Regions put to a trial (each prepares every sample once): the largest ones, after the cheap check.
MAX_TRIED = 12
REASON = ("rules: a template region whose every fact (its snippets, contact and apply links, the employer's name) "
          "the rest of the page states on every sample")
LANDMARK_TAGS = frozenset({"header", "nav", "footer", "aside"})
LANDMARK_ROLES = frozenset({"banner", "navigation", "contentinfo", "complementary"})
_MARKDOWN_TARGET = re.compile(r"\]\(<?([^\s)>]+)|(?<![(\w])(https?://[^\s)>\]]+)")
_DIGITS = re.compile(r"\d")
PHONE_DIGITS = 8  # the last digits of a phone that say it is the same number, however it is written


def without_restated_regions(samples, roots, reused: list, decided: list, regions: list, signatures, classifier,
                             config_hash: str) -> list:
    """``decided`` with the rules' template keeps whose facts the rest of every sample states turned to removals
    (see the module). ``regions``: the first sample's element of each learned rule, in ``decided``'s order."""
    names = tuple(name for name in dict.fromkeys((*classifier.employers, classifier.site_owner_name))
                  if name and len(name) >= 3)
    found: dict[int, list] = {}  # rule index -> its matches per sample
    candidates = []
    for i, region in enumerate(regions):
        rule = decided[i]
        if rule.decision != "keep" or rule.classifier != RULES_NAME or not rule.signals or job_section_in_content(
                region):
            continue  # a section of the job's own text ("Company overview") is the job's whatever else says it
        matches = [rule_matches(root, rule, signatures, k) for k, root in enumerate(roots)]
        if not (all(matches) or in_landmark(region)):
            continue  # neither a site landmark nor the same on every sample: maybe this job's own
        stated = _signal_texts(rule.signals)
        cells = any(signal.kind == LABEL_VALUE_KIND for signal in rule.signals)
        # "Openings at Acme" states whose jobs these are, as a line (AL)
        if any(OPENINGS_NOTE in signal.notes for signal in rule.signals):
            stated = stated | {normalise_snippet(region.text_content())}
        facts = [_facts(m, names, stated, cells) if m else None for m in matches]
        if any(f is None for f, m in zip(facts, matches) if m):
            continue  # a legal name or copyright line naming no employer we know: nothing to compare it with
        if not all(_stated_outside(root, m, f) for root, m, f in zip(roots, matches, facts) if m):
            continue  # a fact found nowhere else on the page: no trial can succeed
        found[i] = matches
        candidates.append((i, facts))
    if not candidates:
        return decided
    candidates.sort(key=lambda c: -len(" ".join(regions[c[0]].text_content().split())))
    accepted: set[int] = set()
    baseline = [normalise_snippet(sample_markdown(s, NoiseFilter(config_hash=config_hash, rules=reused + decided)))
                for s in samples]
    page_facts = [fact_snippets(s.tree()) for s in samples]
    for i, facts in candidates[:MAX_TRIED]:
        if any(regions[j] in regions[i].iterancestors() for j in accepted):
            continue  # gone with a larger region
        trial = _turned(decided, accepted | {i})
        noise_filter = NoiseFilter(config_hash=config_hash, rules=reused + trial)
        order = [k for k in range(len(samples)) if found[i][k]] + [k for k in range(len(samples)) if not found[i][k]]
        markdowns = {}
        for k in order:
            markdown = sample_markdown(samples[k], noise_filter)
            normalised = normalise_snippet(markdown)
            lost = any(s in baseline[k] and s not in normalised for s in page_facts[k])
            if lost or (facts[k] is not None and not _restated(facts[k], markdown, normalised)):
                break
            markdowns[k] = normalised
        else:
            accepted.add(i)
            for k, normalised in markdowns.items():
                baseline[k] = normalised
    return _turned(decided, accepted, dict(candidates)) if accepted else decided


# What a removal rule records of the facts its region restates (apply checks each on the page it removes it from).
MAX_RESTATED, MAX_RESTATED_CHARS = 12, 200


def _turned(decided: list, turn: set[int], facts: dict | None = None) -> list:
    return [rule.model_copy(update={"decision": "remove", "reason": REASON,
                                    "restated": _restated_texts(facts[i]) if facts else []})
            if i in turn else rule for i, rule in enumerate(decided)]


def _restated_texts(per_sample: list) -> list[str]:
    """The snippets and names every sample's region states (normalised as apply compares them)."""
    stated = [f for f in per_sample if f is not None]
    if not stated:
        return []
    common = set.intersection(*({normalise_snippet(t) for t in (*f.snippets, *f.names)} for f in stated))
    return sorted(t for t in common if 3 <= len(t) <= MAX_RESTATED_CHARS)[:MAX_RESTATED]


def rule_matches(root, rule, signatures, k: int) -> list:
    """The rule's region on sample ``k``, as learned (selector, else position-free path, and signature)."""
    for where in (rule.selector, rule.path):
        if not where:
            continue
        try:
            same = [r for r in select(root, where) if signatures(r, k) == rule.signature]
        except InvalidSelectorError:
            same = []
        if same:
            return same
    return []


def in_landmark(region) -> bool:
    """The region is or sits in a site header, navigation, footer or sidebar, not inside an article or main."""
    landmark = False
    for node in (region, *region.iterancestors()):
        role = (node.get("role") or "").strip().lower()
        if node.tag in ("article", "main") or role in ("main", "article"):
            return False
        landmark = landmark or node.tag in LANDMARK_TAGS or role in LANDMARK_ROLES
    return landmark


class _Facts:
    """What one sample's matches of a region state."""

    def __init__(self):
        self.snippets: set[str] = set()
        self.mailboxes: set[str] = set()
        self.phones: set[str] = set()
        self.targets: set[str] = set()
        self.names: set[str] = set()  # the employer's name, anywhere
        self.legal_names: set[str] = set()  # the employer's name with a legal form (or a copyright line)


# Kinds whose matched text is checked otherwise: links by their targets, the employer by its name, documents as a
# joined list; an apply link's words ("Apply now") are no fact to find again.
_CHECKED_OTHERWISE = frozenset({"link", "employer", "documents", "apply"})
_VALUE_CELLS = ("dd", "td")


def _signal_texts(signals) -> set[str]:
    """The texts the rules' signals matched in the region (an office written as a link to a map, an <address>
    element's text): facts the patterns of ``fact_snippets`` need not find again."""
    snippets = {normalise_snippet(signal.text) for signal in signals if signal.kind not in _CHECKED_OTHERWISE}
    return {snippet for snippet in snippets if len(snippet) >= 3}


def _facts(matches: list, names: tuple[str, ...], stated: set[str] = frozenset(), cells: bool = False) -> _Facts | None:
    """The facts the matches state (``stated``: the texts the rules' signals matched; ``cells``: kept for its
    label/value rows, whose values are facts whatever words they are); None where they state a legal name or a
    copyright line naming no known employer (nothing to look for)."""
    facts = _Facts()
    facts.snippets |= stated
    for region in matches:
        text = " ".join(region.text_content().split())
        facts.snippets |= fact_snippets(region)
        # An office as a link to a map or in an <address> element is a place however it is written.
        facts.snippets |= {normalise_snippet(a.text_content()) for a in region.iter("a")
                           if MAP_LINK.search(a.get("href") or "")} - {""}
        facts.snippets |= {normalise_snippet(piece) for address in region.iter("address")
                           for piece in address.itertext() if len(normalise_snippet(piece)) >= 3}
        if cells:
            facts.snippets |= {normalise_snippet(cell.text_content()) for cell in region.iter(*_VALUE_CELLS)} - {""}
        facts.mailboxes |= {m.casefold() for m in _ADDRESS.findall(text)}
        for a in region.iter("a"):
            href = (a.get("href") or "").strip()
            link_text = " ".join(a.text_content().split())
            if MAP_LINK.search(href):
                # A link to a map states its place by where it points: two offices' "View map" links say the
                # same words of different places (JI).
                facts.targets.add(_target(href))
            elif href.lower().startswith("mailto:"):
                facts.mailboxes.add(mailbox(href))
            elif href.lower().startswith("tel:"):
                facts.phones.add("".join(_DIGITS.findall(href))[-PHONE_DIGITS:])
            elif not _legal_link(link_text, href) and (_LINK_SIGNALS.search(href) or any(
                    not _APPLY_VERB_ON_A_THING.match(m.string, m.start())
                    for m in JOB_FACT_SIGNALS["apply"].finditer(link_text))):
                facts.targets.add(_target(href))
        # A logo states the name by its alt text (the Markdown keeps it).
        # Blocks run together in ``text`` ("<div>Acme</div><div>Labs</div>"): their pieces apart too.
        shown = " ".join([text, " ".join(" ".join(region.itertext()).split()),
                          *(" ".join((img.get("alt") or "").split()) for img in region.iter("img"))])
        named = {name for name in names if name.casefold() in shown.casefold()}
        if JOB_FACT_SIGNALS["employer"].search(text) or COPYRIGHT_MARK.search(text):
            if not named:
                return None
            facts.legal_names |= named
        facts.names |= named
    facts.mailboxes.discard("")
    facts.phones.discard("")
    facts.targets.discard("")
    return facts


def _target(href: str) -> str:
    """A link target as compared with the Markdown's: host in lower case, no trailing slash; its fragment stays (an
    in-page "Apply" jump to "#apply" is a target of its own)."""
    target, hash_, fragment = href.strip().partition("#")
    target = target.rstrip("/")
    scheme, sep, rest = target.partition("://")
    if sep:
        host, slash, path = rest.partition("/")
        target = f"{scheme.lower()}://{host.lower()}{slash}{path}"
    return target + hash_ + fragment


def _stated_outside(root, matches: list, facts: _Facts) -> bool:
    """A cheap necessary check: each fact occurs in the sample's text or link targets outside the matches."""
    texts, hrefs = [], []
    for el, text in outside(root, set(matches)):
        texts.append(text if el is None or el.tag != "img" else el.get("alt") or "")
        if el is not None:
            hrefs.append(el.get("href") or "")
    text = " ".join(texts)
    squashed = normalise_snippet(text)
    links = "\n".join(hrefs).casefold()
    digits = "".join(_DIGITS.findall(text + "\n".join(hrefs)))
    lowered = " ".join(text.split()).casefold()
    glued = "".join(text.split()).casefold()  # lenient: this check only spares trials that cannot succeed
    return (all(s in squashed for s in facts.snippets)
            and all(m in lowered or m in links for m in facts.mailboxes)
            and all(p in digits for p in facts.phones)
            and all(t.casefold() in links for t in facts.targets)
            and all("".join(n.split()).casefold() in glued for n in facts.names))


def _restated(facts: _Facts, markdown: str, normalised: str) -> bool:
    """Every fact of the region is in the sample's Markdown without it."""
    plain = " ".join(markdown.replace("\\", "").split()).casefold()
    if not all(s in normalised for s in facts.snippets):
        return False
    if not all(m in plain for m in facts.mailboxes):
        return False
    if facts.phones:
        digit_runs = {"".join(_DIGITS.findall(run)) for run in re.findall(r"\+?\d[\d\s()./-]{5,}\d", markdown)}
        if not all(any(run.endswith(p) for run in digit_runs) for p in facts.phones):
            return False
    if facts.targets:
        targets = {_target(a or b) for a, b in _MARKDOWN_TARGET.findall(markdown)}
        if not facts.targets <= targets:
            return False
    if not all(n.casefold() in plain or normalise_snippet(n) in normalised for n in facts.names):
        return False
    # A legal name or a copyright line: some line still names the employer with a legal form.
    return all(_states_employer(markdown, name, False) for name in facts.legal_names)
