"""Source configurations: what to fetch, per company and strategy; what a page suggests about harvesting it (and
the extension that records a crawl's ATS board hint)."""

from gigflow.sources.config import (
    AtsStrategy,
    ClickStrategy,
    FeedStrategy,
    HrefStrategy,
    SitemapStrategy,
    SourceConfig,
    SourceStatus,
    Strategy,
)

__all__ = [
    "AtsStrategy",
    "ClickStrategy",
    "FeedStrategy",
    "HrefStrategy",
    "SitemapStrategy",
    "SourceConfig",
    "SourceStatus",
    "Strategy",
]
