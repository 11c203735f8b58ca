"""Job-fact snippets on the samples, and how many the Markdown keeps without and with a learned filter."""

from __future__ import annotations

import re

from lxml import etree

from gigflow.noise.learn.classifier import JOB_FACT_SIGNALS
from gigflow.noise.model import NoiseFilter
from gigflow.noise.signature import in_page_tab_list
from gigflow.noise.snippets import normalise_snippet
from gigflow.noise.learn.training import TrainingPage


# Digits and their separators: a match that ends or starts inside a number ("€3" of "€3,000") takes all of it.
_NUMBER_PART = re.compile(r"[\d.,]")


def _whole_number(text: str, start: int, end: int) -> str:
    """The matched text widened over the number it cuts ("€3" -> "€3,000"), without a trailing separator."""
    if start < end and text[end - 1].isdigit():
        while end < len(text) and _NUMBER_PART.match(text[end]):
            end += 1
    if start < end and text[start].isdigit():
        while start > 0 and _NUMBER_PART.match(text[start - 1]):
            start -= 1
    return text[start:end].rstrip(".,")


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
                    snippet = normalise_snippet(_whole_number(text, match.start(), match.end()))
                    if len(snippet) >= 3:
                        snippets.add(snippet)
    return snippets


def sample_markdown(sample: TrainingPage, noise_filter: NoiseFilter | None = None) -> str:
    """The sample's Markdown as a crawl would store it, with ``noise_filter`` applied when given."""
    from gigflow.documents import prepare_html

    return prepare_html(sample.body, sample.url, content_type=sample.content_type, strategy=sample.strategy,
                        noise_filter=noise_filter).markdown


def fact_retention(samples: list[TrainingPage], noise_filter: NoiseFilter) -> tuple[tuple[int, int], tuple[int, int]]:
    """(kept, total) of the samples' job-fact snippets in the Markdown without and with the filter."""
    before = after = total = 0
    for sample in samples:
        snippets = fact_snippets(sample.tree())
        plain = normalise_snippet(sample_markdown(sample))
        filtered = normalise_snippet(sample_markdown(sample, noise_filter))
        total += len(snippets)
        before += sum(1 for s in snippets if s in plain)
        after += sum(1 for s in snippets if s in filtered)
    return (before, total), (after, total)
