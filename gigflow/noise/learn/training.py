"""Training pages: prepared the way preparation sees them before the noise filter (assets out, links absolute)."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field

from gigflow.documents.html import HtmlFormat
from gigflow.documents.types import PreparationReport


_JSON_LD = re.compile(r"<script[^>]+application/ld\+json[^>]*>(.*?)</script>", re.I | re.S)
MAX_JSON_LD_SCAN = 2_000_000  # characters of a body searched for JSON-LD (bounded time on hostile pages)


def _walk(data, depth: int = 0):
    """Every JSON object in ``data`` (lists and @graph included), to a bounded depth."""
    if depth > 6:
        return
    if isinstance(data, dict):
        yield data
        for value in data.values():
            if isinstance(value, (dict, list)):
                yield from _walk(value, depth + 1)
    elif isinstance(data, list):
        for value in data[:200]:
            yield from _walk(value, depth + 1)


@dataclass
class TrainingPage:
    url: str
    body: bytes
    source_id: str = "file"
    source_version_id: int | None = None
    content_type: str | None = None
    sha256: str = ""
    # The source's card strategy (href or click): crawls remove job cards before the noise filter, so must learning.
    strategy: object = field(default=None, repr=False)
    # The source's company: its name in a repeated region is a job fact (the employer), not template.
    company: str = ""
    root: object = field(default=None, repr=False)

    def __post_init__(self):
        self.sha256 = self.sha256 or hashlib.sha256(self.body).hexdigest()

    def tree(self):
        """A fresh prepared tree (callers may change it): the tree preparation hands the noise filter, so learned
        signatures match what apply_noise_filter sees."""
        root, _ = HtmlFormat().clean_tree(self.body, self.url, content_type=self.content_type,
                                          strategy=self.strategy, report=PreparationReport())
        return root

    def employer_names(self) -> list[str]:
        """The hiring organisations the page's JSON-LD JobPostings name (read from the raw body: preparation
        removes scripts)."""
        names = []
        text = self.body.decode("utf-8", "replace") if isinstance(self.body, bytes) else self.body
        for block in _JSON_LD.findall(text[:MAX_JSON_LD_SCAN]):
            try:
                data = json.loads(block.strip())
            except (ValueError, RecursionError):  # malformed or nested past Python's limit
                continue
            for item in _walk(data):
                if str(item.get("@type", "")).lower() == "jobposting":
                    org = item.get("hiringOrganization")
                    name = org.get("name") if isinstance(org, dict) else org if isinstance(org, str) else None
                    if isinstance(name, str) and name.strip():
                        names.append(" ".join(name.split()))
        return names

    def prepared(self):
        if self.root is None:
            self.root = self.tree()
        return self.root
