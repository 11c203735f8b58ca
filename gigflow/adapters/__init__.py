"""Adapters turn content into ExtractionResults. Pure: no network, no database."""

from gigflow.adapters.chain import extract_html
from gigflow.adapters.types import Evidence, ExtractedJob, ExtractionResult, Salary, SourceAdapter

__all__ = ["Evidence", "ExtractedJob", "ExtractionResult", "Salary", "SourceAdapter", "extract_html"]
