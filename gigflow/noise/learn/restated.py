"""The site footer's employer and office statements where the job's own text states them in full (issue #23, AS).

On a one-employer site the footer's copyright line ("© 2025 Acme, Inc.") and office address are kept as the
employer and the location because often nothing else on the page states them. Where every sample's Markdown
without them still states the employer by its legal name ("Acme GmbH, Hauptstraße 1, 12345 Berlin" in the job's
text), they restate what the page keeps: they go. Decided by trial, like the owner's needless keeps: the footer
parts go only when each sample still shows the owner's name with a legal form on one line, with a postal
address there too where an address or a place goes.

Where that fails (the footer's own legal name, "Acme LTD", is the only statement of it), the copyright line alone
is tried (class BB): "© 2014-2016 Acme" beside a kept "Acme LTD" repeats the employer the page keeps with its legal
form, and goes when every sample's Markdown without it still names the owner with a legal form."""

from __future__ import annotations

import re

from gigflow.noise.learn.classifier import JOB_FACT_SIGNALS
from gigflow.noise.learn.sample_facts import sample_markdown
from gigflow.noise.model import NoiseFilter
from gigflow.noise.signal import COPYRIGHT_NOTE

RESTATED_KINDS = frozenset({"employer", "address", "location"})
RESTATED_REASON = ("rules: the site footer's employer or office statement, which the job's own text states in full "
                   "on every sample (its legal name, its address)")
RESTATED_COPYRIGHT_REASON = ("rules: the site footer's copyright line, where what stays on every sample names the "
                             "employer with its legal form")


def restated_kinds(signals) -> frozenset[str]:
    """The signal kinds of a rules keep whose every signal is an employer, an address or a location; else none."""
    kinds = frozenset(signal.kind for signal in signals)
    return kinds if kinds and kinds <= RESTATED_KINDS else frozenset()


def _norm(text: str) -> str:
    return " ".join(text.replace("\\", "").split()).casefold()


# A postcode before a place ("D-44879 Bochum", "10115 Berlin"), not a year before a name ("2025 Acme").
_POSTCODE_PLACE = re.compile(r"(?<![©\d])\b(?!(?:19|20)\d\d\b)\d{4,5},?\s+[A-ZÄÖÜ][a-zäöüß]+")


# The owner's name as the site states it may carry its legal form in lower case ("acme solutions gmbh").
_LEGAL_FORM_ANY_CASE = re.compile(r"\b(?:gmbh|ggmbh|kgaa|ltd|llc|inc|corp|plc|oyj?|b\.\s?v|n\.\s?v|s\.a\.s?|"
                                  r"sarl|s\.r\.l|s\.p\.a|kft|k\.k)(?:\.|\b)|株式会社|有限会社|合同会社", re.I)


def _states_employer(markdown: str, owner: str, with_address: bool) -> bool:
    """The owner's name on a line that gives a legal form ("Acme GmbH", "Acme株式会社") and, ``with_address``,
    a postal address (a street and number or a postcode and place): the employer's full statement."""
    wanted = _norm(owner)
    legal_name = bool(_LEGAL_FORM_ANY_CASE.search(owner))
    return any(wanted in _norm(line) and (legal_name or JOB_FACT_SIGNALS["employer"].search(line)) and (
        not with_address or JOB_FACT_SIGNALS["address"].search(line) or _POSTCODE_PLACE.search(line))
        for line in markdown.splitlines())


def without_restated_footer_facts(owner: str, samples, reused: list, decided: list, regions: list,
                                  in_site_footer, config_hash: str) -> list:
    """``decided`` with the innermost site-footer keeps whose signals are only the employer, an address or a
    location turned to removals, when every sample's Markdown without them names ``owner`` with a legal form (and
    states a postal address, where an address or location goes). ``regions``: the first sample's element of each
    decided rule."""
    if not owner:
        return decided
    kept_inside = {ancestor for i, rule in enumerate(decided) if rule.decision == "keep"
                   for ancestor in regions[i].iterancestors()}
    turn = {}
    for i, rule in enumerate(decided):
        if rule.decision != "keep" or regions[i] in kept_inside or in_site_footer(regions[i]) is None:
            continue
        kinds = restated_kinds(rule.signals)
        if kinds:
            turn[i] = kinds
    if not turn:
        return decided
    needs_address = any(kinds & {"address", "location"} for kinds in turn.values())
    trial = _trial(decided, turn, RESTATED_REASON)
    if _still_states_employer(samples, reused, trial, owner, needs_address, config_hash):
        return trial
    # BB: the copyright line alone, where another kept part (the footer's "Acme LTD") states the legal name.
    lines = {i for i, kinds in turn.items() if kinds == {"employer"} and any(
        COPYRIGHT_NOTE in signal.notes for signal in decided[i].signals)}
    if lines and len(lines) < len(turn):
        trial = _trial(decided, lines, RESTATED_COPYRIGHT_REASON)
        if _still_states_employer(samples, reused, trial, owner, False, config_hash):
            return trial
    return decided


def _trial(decided: list, turn, reason: str) -> list:
    return [rule.model_copy(update={"decision": "remove", "reason": reason}) if i in turn else rule
            for i, rule in enumerate(decided)]


def _still_states_employer(samples, reused: list, trial: list, owner: str, needs_address: bool,
                           config_hash: str) -> bool:
    noise_filter = NoiseFilter(config_hash=config_hash, rules=reused + trial)
    return all(_states_employer(sample_markdown(sample, noise_filter), owner, needs_address) for sample in samples)
