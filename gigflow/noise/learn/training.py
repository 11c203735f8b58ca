"""Training pages: prepared the way preparation sees them before the noise filter (assets out, links absolute)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from gigflow.documents.html import HtmlFormat
from gigflow.documents.types import PreparationReport


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

    def prepared(self):
        if self.root is None:
            self.root = self.tree()
        return self.root
