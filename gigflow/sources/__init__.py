"""Source configurations: what to fetch, per company and strategy."""

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
