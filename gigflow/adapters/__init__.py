"""Adapters turn content into ExtractionResults. Pure: no network, no database.

`extract(content, url=..., content_type=..., parser_key=...)` is the one entry point spiders call.
"""

from gigflow.adapters.chain import extract, extract_html
from gigflow.adapters.types import Evidence, ExtractedJob, ExtractionResult, NextPage, Salary, SourceAdapter

__all__ = ["Evidence", "ExtractedJob", "ExtractionResult", "NextPage", "Salary", "SourceAdapter", "extract",
           "extract_html"]
