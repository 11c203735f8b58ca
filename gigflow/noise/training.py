"""Training pages: prepared the way preparation sees them before the noise filter (assets out, links absolute)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from gigflow.documents.html import decode_html, parse_html, remove_assets, resolve_links, usable_base
from gigflow.documents.types import PreparationReport


@dataclass
class TrainingPage:
    url: str
    body: bytes
    source_id: str = "file"
    source_version_id: int | None = None
    content_type: str | None = None
    sha256: str = ""
    root: object = field(default=None, repr=False)

    def __post_init__(self):
        self.sha256 = self.sha256 or hashlib.sha256(self.body).hexdigest()

    def tree(self):
        """A fresh prepared tree (callers may change it)."""
        root = parse_html(decode_html(self.body, self.content_type))
        resolve_links(root, usable_base(root, self.url), self.url)
        remove_assets(root, PreparationReport())
        for base in list(root.iter("base")):
            base.drop_tree()
        return root

    def prepared(self):
        if self.root is None:
            self.root = self.tree()
        return self.root
